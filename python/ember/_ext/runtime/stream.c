/* ember Python extension: ember.Stream, ember.Event, the thread's current
 * stream and the stack behind `with device:` / `with stream:`.
 *
 * The C runtime keeps the current device and stream per thread as raw
 * pointers. Python code also wants the Stream *object* back from
 * get_current_stream(), and an owned stream must stay alive while it is
 * current, so the current Stream object and the with-block stack live in
 * the thread state dict: per thread, freed when the thread ends. */
#include <limits.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "runtime/args.h"

#define STREAM(o) ((empy_Stream *)(o))
#define EVENT(o) ((empy_Event *)(o))

static PyObject *stream_wrap(empy_state *st, em_stream *s, int owned)
{
    empy_Stream *o = PyObject_GC_New(empy_Stream, st->Stream);
    if (o) {
        o->s = s;
        o->owned = owned;
        o->owner = NULL;
        PyObject_GC_Track(o);
    }
    return (PyObject *)o;
}

static PyObject *thread_dict(void)
{
    PyObject *d = PyThreadState_GetDict();
    if (!d && !PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError, "ember: no thread state dict");
    return d;
}

em_stream *empy_stream_resolve(empy_state *st, PyObject *obj)
{
    em_device *d;
    if (!Py_IS_TYPE(obj, st->Stream)) {
        PyErr_Format(PyExc_TypeError, "expected an ember.Stream, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    if (STREAM(obj)->s)
        return STREAM(obj)->s;
    if (empy_device_arg(st, NULL, &d) < 0)
        return NULL;
    return em_stream_default(d);
}

int empy_stream_for_device(empy_state *st, PyObject *arg, em_device *d,
                           em_stream **out)
{
    em_stream *s;
    if (!arg || arg == Py_None) {
        em_device *cur;
        if (empy_device_arg(st, NULL, &cur) < 0)
            return -1;
        *out = cur == d ? em_current_stream() : NULL;
        return 0;
    }
    if (!Py_IS_TYPE(arg, st->Stream)) {
        PyErr_Format(PyExc_TypeError,
                     "stream must be an ember.Stream or None, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return -1;
    }
    s = STREAM(arg)->s;
    if (!s) {               /* Stream.null: the default stream of d */
        *out = NULL;
        return 0;
    }
    if (em_stream_device(s) != d) {
        PyErr_Format(PyExc_ValueError, "the stream is on %s but the work is on %s",
                     em_device_name(em_stream_device(s)), em_device_name(d));
        return -1;
    }
    *out = s;
    return 0;
}

PyObject *empy_current_stream(empy_state *st)
{
    em_stream *s = em_current_stream();
    PyObject *dict, *obj;
    em_device *d;

    if (!s) {
        if (empy_device_arg(st, NULL, &d) < 0)
            return NULL;
        return stream_wrap(st, em_stream_default(d), 0);
    }
    dict = thread_dict();
    if (!dict)
        return NULL;
    obj = PyDict_GetItemWithError(dict, st->s_key_stream);
    if (obj && Py_IS_TYPE(obj, st->Stream) && STREAM(obj)->s == s)
        return Py_NewRef(obj);
    if (PyErr_Occurred())
        return NULL;
    /* Made current by C code outside this module: a non-owning handle. */
    return stream_wrap(st, s, 0);
}

static int forget_stream(empy_state *st)
{
    PyObject *dict = thread_dict();
    if (!dict)
        return -1;
    if (PyDict_DelItem(dict, st->s_key_stream) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_KeyError))
            return -1;
        PyErr_Clear();
    }
    return 0;
}

void empy_set_device(empy_state *st, em_device *d)
{
    em_set_current_device(d);
    /* When the C runtime reset the thread's stream (another device), drop
     * the object we kept alive for it. A failure here can only leave a
     * stale reference. */
    if (!em_current_stream() && forget_stream(st) < 0)
        PyErr_Clear();
}

int empy_set_stream(empy_state *st, PyObject *obj)
{
    PyObject *dict;
    em_stream *s;
    em_device *cur;

    if (obj == Py_None || (Py_IS_TYPE(obj, st->Stream) && !STREAM(obj)->s)) {
        em_set_current_stream(NULL);
        return forget_stream(st);
    }
    s = empy_stream_resolve(st, obj);
    if (!s)
        return -1;
    if (empy_device_arg(st, NULL, &cur) < 0)
        return -1;
    /* A stream belongs to one device; making it current moves the thread
     * to that device, as launches without an explicit stream use both. */
    if (em_stream_device(s) != cur)
        em_set_current_device(em_stream_device(s));
    dict = thread_dict();
    if (!dict || PyDict_SetItem(dict, st->s_key_stream, obj) < 0)
        return -1;
    em_set_current_stream(s);
    return 0;
}

int empy_context_push(empy_state *st)
{
    PyObject *dict = thread_dict(), *stack, *dev, *str, *entry;
    em_device *d;
    int rc;

    if (!dict)
        return -1;
    stack = PyDict_GetItemWithError(dict, st->s_key_stack);
    if (!stack) {
        if (PyErr_Occurred())
            return -1;
        stack = PyList_New(0);
        if (!stack)
            return -1;
        rc = PyDict_SetItem(dict, st->s_key_stack, stack);
        Py_DECREF(stack);
        if (rc < 0)
            return -1;
    }
    if (empy_device_arg(st, NULL, &d) < 0)
        return -1;
    dev = empy_device_new(st, d);
    if (!dev)
        return -1;
    str = em_current_stream() ? empy_current_stream(st) : Py_NewRef(Py_None);
    if (!str) {
        Py_DECREF(dev);
        return -1;
    }
    entry = PyTuple_Pack(2, dev, str);
    Py_DECREF(dev);
    Py_DECREF(str);
    if (!entry)
        return -1;
    rc = PyList_Append(stack, entry);
    Py_DECREF(entry);
    return rc;
}

int empy_context_pop(empy_state *st)
{
    PyObject *dict = thread_dict(), *stack, *entry, *str;
    Py_ssize_t n;
    int rc = 0;

    if (!dict)
        return -1;
    stack = PyDict_GetItemWithError(dict, st->s_key_stack);
    if (!stack && PyErr_Occurred())
        return -1;
    n = stack && PyList_Check(stack) ? PyList_GET_SIZE(stack) : 0;
    if (n == 0) {
        PyErr_SetString(PyExc_RuntimeError,
                        "ember: __exit__ without a matching __enter__ on this thread");
        return -1;
    }
    entry = Py_NewRef(PyList_GET_ITEM(stack, n - 1));
    if (PyList_SetSlice(stack, n - 1, n, NULL) < 0) {
        Py_DECREF(entry);
        return -1;
    }
    empy_set_device(st, ((empy_Device *)PyTuple_GET_ITEM(entry, 0))->dev);
    str = PyTuple_GET_ITEM(entry, 1);
    /* the saved stream, also when it was none (the device's default) */
    rc = empy_set_stream(st, str);
    Py_DECREF(entry);
    return rc;
}

/* ---- Stream ------------------------------------------------------- */

static PyObject *Stream_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"non_blocking", "device", "priority", NULL};
    empy_state *st = empy_state_of_type(type);
    int non_blocking = 0;
    int64_t priority = 0;
    PyObject *dev_arg = Py_None, *prio_arg = Py_None, *obj;
    em_device *d;
    em_stream *s;
    em_status rc;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "|pOO:Stream", kwlist,
                                     &non_blocking, &dev_arg, &prio_arg))
        return NULL;
    if ((prio_arg != Py_None && empy_index_arg(prio_arg, "priority", 1, &priority) < 0) ||
        empy_device_arg(st, dev_arg, &d) < 0)
        return NULL;
    /* any int is a priority: CUDA clamps it into the device's range */
    rc = em_stream_create_with_priority(
        d, non_blocking ? EM_STREAM_NON_BLOCKING : EM_STREAM_DEFAULT,
        priority < INT_MIN ? INT_MIN : priority > INT_MAX ? INT_MAX : (int)priority, &s);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    obj = stream_wrap(st, s, 1);
    if (!obj)
        em_stream_destroy(s);
    return obj;
}

/* Stream._adopt(ptr, device=None): the stream of a native handle
 * (em_stream_adopt), for ember.cuda.ExternalStream. */
static PyObject *Stream_adopt(PyObject *cls, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"ptr", "device", "owner", NULL};
    empy_state *st = empy_state_of_type((PyTypeObject *)cls);
    PyObject *ptr_arg, *dev_arg = Py_None, *owner = Py_None, *obj;
    em_device *d;
    em_stream *s;
    em_status rc;
    void *native;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:_adopt", kwlist, &ptr_arg,
                                     &dev_arg, &owner) ||
        empy_device_arg(st, dev_arg, &d) < 0)
        return NULL;
    native = PyLong_AsVoidPtr(ptr_arg);
    if (!native && PyErr_Occurred())
        return NULL;
    if ((rc = em_stream_adopt(d, native, &s)) != EM_OK)
        return empy_raise(st, rc);
    obj = stream_wrap(st, s, s == em_stream_default(d) ? 0 : 2);
    if (!obj && s != em_stream_default(d))
        em_stream_release(s);
    if (obj && owner != Py_None)
        STREAM(obj)->owner = Py_NewRef(owner);
    return obj;
}

/* Stream.null lives in the type's dict and refers to the type: the
 * collector must see that cycle to free both at interpreter exit. */
static int Stream_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(STREAM(self)->owner);
    return 0;
}

static void Stream_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (STREAM(self)->owned == 1 && STREAM(self)->s)
        (void)em_stream_destroy(STREAM(self)->s);
    else if (STREAM(self)->owned == 2)
        em_stream_release(STREAM(self)->s);
    /* after the release: the foreign stream outlives ember's use of it */
    Py_CLEAR(STREAM(self)->owner);
    tp->tp_free(self);
    Py_DECREF(tp);
}

EMPY_PY_SLOT(Stream_repr, "ember.cuda.stream", "_stream_repr")
/* The CUDA stream protocol, both ways (CuPy's and cuda.core's spellings):
 * cold, so Python's (ember/cuda/stream.py). */
EMPY_PY_METHOD(Stream_cuda_stream, "ember.cuda.stream", "_stream_protocol")
EMPY_PY_METHOD(Stream_from_external, "ember.cuda.stream",
               "_stream_from_external")

static PyObject *Stream_richcompare(PyObject *a, PyObject *b, int op)
{
    empy_state *st = empy_state_of(a);
    em_stream *sa, *sb;
    if (!Py_IS_TYPE(b, st->Stream) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    if (!(sa = empy_stream_resolve(st, a)) || !(sb = empy_stream_resolve(st, b)))
        return NULL;
    return PyBool_FromLong((sa == sb) == (op == Py_EQ));
}

static Py_hash_t Stream_hash(PyObject *self)
{
    em_stream *s = empy_stream_resolve(empy_state_of(self), self);
    if (!s)
        return -1;
    Py_hash_t h = (Py_hash_t)((uintptr_t)s >> 4);
    return h == -1 ? -2 : h;
}

static PyObject *Stream_synchronize(PyObject *self, PyObject *unused)
{
    empy_state *st = empy_state_of(self);
    em_stream *s = empy_stream_resolve(st, self);
    em_status rc;
    if (!s)
        return NULL;
    EMPY_NOGIL(rc, em_stream_synchronize(s));
    return empy_none_or_raise(st, rc);
}

static PyObject *Stream_query(PyObject *self, PyObject *unused)
{
    empy_state *st = empy_state_of(self);
    em_stream *s = empy_stream_resolve(st, self);
    int done = 0;
    em_status rc;
    if (!s)
        return NULL;
    rc = em_stream_query(s, &done);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return PyBool_FromLong(done);
}

static PyObject *Stream_wait_event(PyObject *self, PyObject *ev)
{
    empy_state *st = empy_state_of(self);
    em_stream *s = empy_stream_resolve(st, self);
    if (!s)
        return NULL;
    if (!Py_IS_TYPE(ev, st->Event)) {
        PyErr_Format(PyExc_TypeError, "wait_event() needs an ember.Event, not %.100s",
                     Py_TYPE(ev)->tp_name);
        return NULL;
    }
    return empy_none_or_raise(st, em_stream_wait_event(s, EVENT(ev)->e));
}

static PyObject *event_create(empy_state *st, em_device *d, unsigned flags);

/* Stream.record and Event.record are on the timed hot path: their one
 * keyword goes through empy_opt_arg, not empy_parse_args. */
static PyObject *Stream_record(PyObject *self, PyObject *const *args,
                              Py_ssize_t nargs, PyObject *kwnames)
{
    empy_state *st = empy_state_of(self);
    em_stream *s = empy_stream_resolve(st, self);
    PyObject *ev = Py_None;
    em_status rc;

    if (!s || empy_opt_arg("record", "event", args, nargs, kwnames, &ev) < 0)
        return NULL;
    if (ev == Py_None) {
        ev = event_create(st, em_stream_device(s), EM_EVENT_DEFAULT);
        if (!ev)
            return NULL;
    } else if (Py_IS_TYPE(ev, st->Event)) {
        Py_INCREF(ev);
    } else {
        PyErr_Format(PyExc_TypeError, "record() needs an ember.Event or None, not %.100s",
                     Py_TYPE(ev)->tp_name);
        return NULL;
    }
    rc = em_event_record(EVENT(ev)->e, s);
    if (rc != EM_OK) {
        Py_DECREF(ev);
        return empy_raise(st, rc);
    }
    return ev;
}

static PyObject *Stream_use(PyObject *self, PyObject *unused)
{
    if (empy_set_stream(empy_state_of(self), self) < 0)
        return NULL;
    return Py_NewRef(self);
}

static PyObject *Stream_enter(PyObject *self, PyObject *unused)
{
    empy_state *st = empy_state_of(self);
    if (empy_context_push(st) < 0)
        return NULL;
    if (empy_set_stream(st, self) < 0) {
        empy_saved_error err;
        empy_error_save(&err);
        if (empy_context_pop(st) < 0)
            PyErr_Clear();
        empy_error_restore(&err);
        return NULL;
    }
    return Py_NewRef(self);
}

PyObject *empy_context_exit(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (empy_context_pop(empy_state_of(self)) < 0)
        return NULL;
    Py_RETURN_FALSE;
}

/* Stream.ptr (the closure is NULL), .device and .priority. */
static const char stream_device[] = "device", stream_priority[] = "priority",
                  stream_nonblocking[] = "non_blocking";

static PyObject *Stream_get(PyObject *self, void *which)
{
    empy_state *st = empy_state_of(self);
    em_stream *s = empy_stream_resolve(st, self);
    if (!s)
        return NULL;
    if (which == stream_device)
        return empy_device_new(st, em_stream_device(s));
    if (which == stream_priority)
        return PyLong_FromLong(em_stream_priority(s));
    if (which == stream_nonblocking)
        return PyBool_FromLong(em_stream_is_non_blocking(s));
    return PyLong_FromVoidPtr(s == em_stream_default(em_stream_device(s)) ? NULL
                                                                          : em_stream_native(s));
}

/* Stream.done and Event.done: query(), as a property. */
static const empy_pyattr cold_done = {"ember.cuda.stream", "_done"};

static PyMethodDef Stream_methods[] = {
    {"synchronize", Stream_synchronize, METH_NOARGS,
     "Wait until all work queued on the stream has finished."},
    {"query", Stream_query, METH_NOARGS, "True if all work on the stream has finished."},
    {"wait_event", Stream_wait_event, METH_O,
     "Make later work on this stream wait for the event."},
    {"record", (PyCFunction)(void (*)(void))Stream_record,
     METH_FASTCALL | METH_KEYWORDS,
     "record(event=None) -> Event recorded at the current end of the stream."},
    {"_adopt", (PyCFunction)(void (*)(void))Stream_adopt,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "The stream of a native handle (ember.cuda.ExternalStream)."},
    {"use", Stream_use, METH_NOARGS,
     "Make this the calling thread's current stream; returns self."},
    {"__cuda_stream__", EMPY_FASTKW(Stream_cuda_stream),
     "__cuda_stream__() -> (0, ptr): the CUDA stream protocol's version and "
     "native handle."},
    {"from_external", (PyCFunction)(void (*)(void))Stream_from_external,
     METH_FASTCALL | METH_KEYWORDS | METH_CLASS,
     "from_external(obj) -> Stream of another library's stream object (one "
     "with __cuda_stream__), kept alive while this one is."},
    {"__enter__", Stream_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)(void (*)(void))empy_context_exit, METH_FASTCALL, NULL},
    {NULL},
};

static PyGetSetDef Stream_getset[] = {
    {"done", empy_py_getter, NULL, "True if all work on the stream has finished.",
     (void *)&cold_done},
    {"ptr", Stream_get, NULL, "The native handle (a CUstream); 0 for a default stream.",
     NULL},
    {"device", Stream_get, NULL, "The stream's device.", (void *)stream_device},
    {"non_blocking", Stream_get, NULL, "True if the stream does not wait for "
     "the legacy default stream.", (void *)stream_nonblocking},
    {"priority", Stream_get, NULL, "The stream's priority (smaller is "
     "more urgent; the device's range clamps what was asked).", (void *)stream_priority},
    {NULL},
};

static PyType_Slot Stream_slots[] = {
    {Py_tp_new, Stream_new},
    {Py_tp_dealloc, Stream_dealloc},
    {Py_tp_traverse, Stream_traverse},
    {Py_tp_repr, Stream_repr},
    {Py_tp_richcompare, Stream_richcompare},
    {Py_tp_hash, Stream_hash},
    {Py_tp_methods, Stream_methods},
    {Py_tp_getset, Stream_getset},
    {Py_tp_doc, "Stream(non_blocking=False, device=None)\n\nA queue of work on one "
                "device. `with stream:` makes it the thread's current stream (and "
                "its device current) for the block. Stream.null is the default "
                "stream of whichever device is current."},
    {0, NULL},
};

static PyType_Spec Stream_spec = {
    "ember.Stream", sizeof(empy_Stream), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    Stream_slots,
};

/* ---- Event -------------------------------------------------------- */

static PyObject *event_create(empy_state *st, em_device *d, unsigned flags)
{
    empy_Event *o;
    em_event *e;
    em_status rc = em_event_create(d, flags, &e);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    o = PyObject_New(empy_Event, st->Event);
    if (!o) {
        em_event_destroy(e);
        return NULL;
    }
    o->e = e;
    o->dev = d;
    return (PyObject *)o;
}

static PyObject *Event_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"block", "disable_timing", "device", NULL};
    empy_state *st = empy_state_of_type(type);
    int block = 0, no_timing = 0;
    PyObject *dev_arg = Py_None;
    em_device *d;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "|ppO:Event", kwlist, &block,
                                     &no_timing, &dev_arg))
        return NULL;
    if (empy_device_arg(st, dev_arg, &d) < 0)
        return NULL;
    return event_create(st, d, (block ? EM_EVENT_BLOCKING_SYNC : 0) |
                                   (no_timing ? EM_EVENT_DISABLE_TIMING : 0));
}

static void Event_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    if (EVENT(self)->e)
        (void)em_event_destroy(EVENT(self)->e);
    tp->tp_free(self);
    Py_DECREF(tp);
}

EMPY_PY_SLOT(Event_repr, "ember.cuda.stream", "_event_repr")

static PyObject *Event_record(PyObject *self, PyObject *const *args,
                              Py_ssize_t nargs, PyObject *kwnames)
{
    empy_state *st = empy_state_of(self);
    PyObject *sarg = Py_None;
    em_stream *s;

    if (empy_opt_arg("record", "stream", args, nargs, kwnames, &sarg) < 0)
        return NULL;
    if (PyLong_CheckExact(sarg) && PyLong_AsLong(sarg) == 0)
        sarg = Py_None;   /* Numba's stream=0 */
    PyErr_Clear();         /* a huge int is not 0, and not a stream either */
    if (empy_stream_for_device(st, sarg, EVENT(self)->dev, &s) < 0)
        return NULL;
    return empy_none_or_raise(st, em_event_record(EVENT(self)->e, s));
}

static PyObject *Event_synchronize(PyObject *self, PyObject *unused)
{
    em_status rc;
    EMPY_NOGIL(rc, em_event_synchronize(EVENT(self)->e));
    return empy_none_or_raise(empy_state_of(self), rc);
}

static PyObject *Event_query(PyObject *self, PyObject *unused)
{
    int done = 0;
    em_status rc = em_event_query(EVENT(self)->e, &done);
    if (rc != EM_OK)
        return empy_raise(empy_state_of(self), rc);
    return PyBool_FromLong(done);
}

/* Numba's spelling evt.elapsed_time(evtend); evt.wait(stream) is Python's. */
EMPY_PY_METHOD(Event_wait, "ember.cuda.stream", "_event_wait")

static PyObject *Event_elapsed_time(PyObject *self, PyObject *end)
{
    empy_state *st = empy_state_of(self);
    float ms = 0;
    em_status rc;
    if (!Py_IS_TYPE(end, st->Event)) {
        PyErr_SetString(PyExc_TypeError, "elapsed_time() needs an ember.Event");
        return NULL;
    }
    EMPY_NOGIL(rc, em_event_elapsed_ms(EVENT(self)->e, EVENT(end)->e, &ms));
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return PyFloat_FromDouble(ms);
}

static PyMethodDef Event_methods[] = {
    {"wait", EMPY_FASTKW(Event_wait),
     "wait(stream=None): make later work on the stream wait for this event "
     "(Numba's spelling)."},
    {"elapsed_time", Event_elapsed_time, METH_O,
     "elapsed_time(evtend): milliseconds from this event to evtend (Numba's "
     "spelling)."},
    {"record", (PyCFunction)(void (*)(void))Event_record, METH_FASTCALL | METH_KEYWORDS,
     "record(stream=None): mark the current end of the stream (None: the "
     "current stream)."},
    {"synchronize", Event_synchronize, METH_NOARGS,
     "Wait until the work before the record has finished."},
    {"query", Event_query, METH_NOARGS,
     "True if the work before the record has finished (True if never recorded)."},
    {NULL},
};

static PyGetSetDef Event_getset[] = {
    {"done", empy_py_getter, NULL, "Same as query().", (void *)&cold_done},
    {"device", empy_device_getter, NULL, "The event's device.", EMPY_DEVICE_AT(empy_Event)},
    {NULL},
};

static PyType_Slot Event_slots[] = {
    {Py_tp_new, Event_new},
    {Py_tp_dealloc, Event_dealloc},
    {Py_tp_repr, Event_repr},
    {Py_tp_methods, Event_methods},
    {Py_tp_getset, Event_getset},
    {Py_tp_doc, "Event(block=False, disable_timing=False, device=None)\n\nA "
                "marker in a stream, to wait on or to time work between two."},
    {0, NULL},
};

static PyType_Spec Event_spec = {
    "ember.Event", sizeof(empy_Event), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE, Event_slots,
};

/* ---- module functions ---------------------------------------------- */

static PyObject *mod_get_current_stream(PyObject *m, PyObject *unused)
{
    return empy_current_stream(empy_state_of_module(m));
}

static PyMethodDef stream_functions[] = {
    {"get_current_stream", mod_get_current_stream, METH_NOARGS,
     "The calling thread's current stream (the current device's default "
     "stream unless one was made current)."},
    {NULL},
};

int empy_stream_init(PyObject *m, empy_state *st)
{
    PyObject *null;
    int rc;
    if (empy_add_type(m, &Stream_spec, NULL, &st->Stream) < 0 ||
        empy_add_type(m, &Event_spec, NULL, &st->Event) < 0)
        return -1;
    null = stream_wrap(st, NULL, 0);
    if (!null)
        return -1;
    rc = PyObject_SetAttrString((PyObject *)st->Stream, "null", null);
    Py_DECREF(null);
    if (rc < 0)
        return -1;
    return PyModule_AddFunctions(m, stream_functions);
}
