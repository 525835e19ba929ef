/* ember Python extension: device memory (ember.Buffer and ember.alloc), the
 * calls under ember.MemoryPool (python/ember/_api/memorypool.py) and
 * page-locked host memory (ember.PinnedMemory).
 *
 * Copies between a Buffer and Python host memory are blocking: the Python
 * object is only guaranteed to exist for the length of the call. The copy
 * methods of Buffer and MemoryPointer check their arguments in Python
 * (python/ember/cuda/memcopy.py) over _copy_bytes and _set_bytes. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "runtime/args.h"
#include "runtime/member_compat.h"

#define BUF(o) ((empy_Buffer *)(o))
#define PIN(o) ((empy_PinnedMemory *)(o))

/* ---- Buffer ------------------------------------------------------- */

static void Buffer_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    empy_Buffer *b = BUF(self);
    if (b->ptr)
        (void)em_free(b->dev, b->ptr, b->stream);
    Py_XDECREF(b->stream_ref);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* Cold: Python's (python/ember/cuda/memory_objects.py). */
#define OBJECTS "ember.cuda.memory_objects"
EMPY_PY_SLOT(Buffer_repr, OBJECTS, "buffer_repr")
static const empy_pyattr cold_cai = {OBJECTS, "buffer_cai"};

static int Buffer_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    empy_Buffer *b = BUF(self);
    if (em_device_get_type(b->dev) != EM_DEVICE_CPU) {
        PyErr_Format(PyExc_BufferError,
                     "this Buffer is memory of %s, not host memory: use "
                     "copy_to_host()", em_device_name(b->dev));
        view->obj = NULL;
        return -1;
    }
    return PyBuffer_FillInfo(view, self, b->ptr, (Py_ssize_t)b->nbytes, 0, flags);
}

/* The copies are cold: argument checks in Python over _copy_bytes and
 * _set_bytes (python/ember/cuda/memcopy.py). */
#define COPIES "ember.cuda.memcopy"
EMPY_PY_METHOD(Buffer_copy_from_host, COPIES, "buffer_copy_from_host")
EMPY_PY_METHOD(Buffer_copy_to_host, COPIES, "buffer_copy_to_host")
EMPY_PY_METHOD(Buffer_copy_from_device, COPIES, "buffer_copy_from_device")
EMPY_PY_METHOD(Buffer_memset, COPIES, "buffer_memset")

static PyMethodDef Buffer_methods[] = {
    {"copy_from_host", EMPY_FASTKW(Buffer_copy_from_host),
     "copy_from_host(src, stream=None): copy all bytes of a host object with "
     "the buffer protocol (its size must equal nbytes); returns when done."},
    {"copy_to_host", EMPY_FASTKW(Buffer_copy_to_host),
     "copy_to_host(out=None, stream=None): fill a writable host buffer of "
     "nbytes (or a new bytearray) and return it; returns when done."},
    {"copy_from_device", EMPY_FASTKW(Buffer_copy_from_device),
     "copy_from_device(src, stream=None): copy another Buffer of the same size."},
    {"memset", EMPY_FASTKW(Buffer_memset),
     "memset(value, stream=None): set every byte, ordered on the stream."},
    {NULL},
};

static PyMemberDef Buffer_members[] = {
    {"ptr", EMPY_T_U64, offsetof(empy_Buffer, ptr), EMPY_READONLY, "The address, as an int."},
    {"nbytes", EMPY_T_U64, offsetof(empy_Buffer, nbytes), EMPY_READONLY, "The size in bytes."},
    {"size", EMPY_T_U64, offsetof(empy_Buffer, nbytes), EMPY_READONLY,
     "The size in bytes (CuPy's name)."},
    {NULL},
};

static PyGetSetDef Buffer_getset[] = {
    {"device", empy_device_getter, NULL, "The device the memory belongs to.",
     EMPY_DEVICE_AT(empy_Buffer)},
    {"__cuda_array_interface__", empy_py_getter, NULL, NULL, (void *)&cold_cai},
    {NULL},
};

static PyType_Slot Buffer_slots[] = {
    EMPY_NOINIT_SLOT
    {Py_tp_dealloc, Buffer_dealloc},
    {Py_tp_repr, Buffer_repr},
    {Py_tp_methods, Buffer_methods},
    {Py_tp_members, Buffer_members},
    {Py_tp_getset, Buffer_getset},
    {Py_bf_getbuffer, Buffer_getbuffer},
    {Py_tp_doc, "Device memory from the device's caching pool (see ember.alloc). "
                "It returns to the pool when the object is collected. A cpu "
                "Buffer also has the buffer protocol."},
    {0, NULL},
};

static PyType_Spec Buffer_spec = {
    "ember.Buffer", sizeof(empy_Buffer), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT, Buffer_slots,
};

static PyObject *mod_alloc(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"nbytes", "device", "stream", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *n_obj, *dev_arg = Py_None, *sarg = Py_None, *sref = NULL;
    size_t n;
    em_device *d;
    em_stream *s;
    empy_Buffer *b;
    void *p;
    em_status rc;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:alloc", kwlist, &n_obj, &dev_arg,
                                     &sarg))
        return NULL;
    if (empy_nbytes_arg(n_obj, "nbytes", &n) < 0)
        return NULL;
    if (sarg != Py_None && dev_arg == Py_None && Py_IS_TYPE(sarg, st->Stream)) {
        if (!(s = empy_stream_resolve(st, sarg)))
            return NULL;
        d = em_stream_device(s);
    } else if (empy_device_arg(st, dev_arg, &d) < 0) {
        return NULL;
    }
    if (empy_stream_for_device(st, sarg, d, &s) < 0)
        return NULL;
    /* The free is ordered on the allocation stream, so that stream must
     * outlive the block. */
    if (s && !(sref = sarg != Py_None ? Py_NewRef(sarg) : empy_current_stream(st)))
        return NULL;
    if ((rc = em_malloc(d, n, s, &p)) != EM_OK) {
        Py_XDECREF(sref);
        return empy_raise(st, rc);
    }
    if (!(b = PyObject_New(empy_Buffer, st->Buffer))) {
        em_free(d, p, s);
        Py_XDECREF(sref);
        return NULL;
    }
    b->ptr = p;
    b->nbytes = n;
    b->dev = d;
    b->stream = s;
    b->stream_ref = sref;
    return (PyObject *)b;
}

/* ---- the pool's statistics and limits (python/ember/_api/memorypool.py) -- */

/* _pool_stats(device): the figures, in memorypool._STATS's order. */
static PyObject *mod_pool_stats(PyObject *m, PyObject *dev_arg)
{
    empy_state *st = empy_state_of_module(m);
    em_pool_stats ps;
    em_device *d;
    em_status rc;
    if (empy_device_arg(st, dev_arg, &d) < 0)
        return NULL;
    if ((rc = em_pool_get_stats(d, &ps)) != EM_OK)
        return empy_raise(st, rc);
    return Py_BuildValue("(nnnnnKKn)", (Py_ssize_t)ps.used_bytes,
                         (Py_ssize_t)ps.cached_bytes, (Py_ssize_t)ps.total_bytes,
                         (Py_ssize_t)ps.peak_bytes, (Py_ssize_t)ps.limit_bytes,
                         (unsigned long long)ps.n_allocs, (unsigned long long)ps.n_hits,
                         (Py_ssize_t)ps.n_cached_blocks);
}

static PyObject *mod_pool_free_all(PyObject *m, PyObject *dev_arg)
{
    empy_state *st = empy_state_of_module(m);
    em_device *d;
    em_status rc;
    if (empy_device_arg(st, dev_arg, &d) < 0)
        return NULL;
    EMPY_NOGIL(rc, em_pool_free_all(d));
    return empy_none_or_raise(st, rc);
}

/* _pool_set_limit(device, nbytes): 0 removes the cap. */
static PyObject *mod_pool_set_limit(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    em_device *d;
    size_t limit;
    if (n != 2)
        return PyErr_Format(PyExc_TypeError, "_pool_set_limit(device, nbytes)");
    if (empy_device_arg(st, args[0], &d) < 0 || empy_nbytes_arg(args[1], "size", &limit) < 0)
        return NULL;
    return empy_none_or_raise(st, em_pool_set_limit(d, limit));
}

/* ---- PinnedMemory ------------------------------------------------ */

static void PinnedMemory_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    if (PIN(self)->ptr)
        (void)em_host_free(PIN(self)->ptr);
    tp->tp_free(self);
    Py_DECREF(tp);
}

EMPY_PY_SLOT(PinnedMemory_repr, OBJECTS, "pinned_repr")

static int PinnedMemory_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    return PyBuffer_FillInfo(view, self, PIN(self)->ptr, (Py_ssize_t)PIN(self)->nbytes,
                             0, flags);
}

static Py_ssize_t PinnedMemory_len(PyObject *self)
{
    return (Py_ssize_t)PIN(self)->nbytes;
}

static PyMemberDef PinnedMemory_members[] = {
    {"ptr", EMPY_T_U64, offsetof(empy_PinnedMemory, ptr), EMPY_READONLY,
     "The address, as an int."},
    {"nbytes", EMPY_T_U64, offsetof(empy_PinnedMemory, nbytes), EMPY_READONLY,
     "The size in bytes."},
    {"size", EMPY_T_U64, offsetof(empy_PinnedMemory, nbytes), EMPY_READONLY,
     "The size in bytes (CuPy's name)."},
    {NULL},
};

static PyType_Slot PinnedMemory_slots[] = {
    EMPY_NOINIT_SLOT
    {Py_tp_dealloc, PinnedMemory_dealloc},
    {Py_tp_repr, PinnedMemory_repr},
    {Py_tp_members, PinnedMemory_members},
    {Py_sq_length, PinnedMemory_len},
    {Py_bf_getbuffer, PinnedMemory_getbuffer},
    {Py_tp_doc, "Page-locked host memory (see ember.alloc_pinned_memory), with "
                "the buffer protocol: numpy.frombuffer(p, dtype) views it."},
    {0, NULL},
};

static PyType_Spec PinnedMemory_spec = {
    "ember.PinnedMemory", sizeof(empy_PinnedMemory), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT,
    PinnedMemory_slots,
};

static PyObject *mod_alloc_pinned_memory(PyObject *m, PyObject *n_obj)
{
    empy_state *st = empy_state_of_module(m);
    empy_PinnedMemory *p;
    size_t n;
    void *ptr;
    em_status rc;

    if (empy_nbytes_arg(n_obj, "nbytes", &n) < 0)
        return NULL;
    EMPY_NOGIL(rc, em_host_alloc(n, &ptr));
    if (rc != EM_OK)
        return empy_raise(st, rc);
    p = PyObject_New(empy_PinnedMemory, st->PinnedMemory);
    if (!p) {
        em_host_free(ptr);
        return NULL;
    }
    p->ptr = ptr;
    p->nbytes = n;
    return (PyObject *)p;
}

/* ---- byte copies (python/ember/cuda/memcopy.py) -------------------------- */

/* An address: an int, or a contiguous buffer (writable for a destination)
 * of at least n bytes, held in *view until the copy is done. */
static int addr_arg(PyObject *o, Py_ssize_t n, int dst, Py_buffer *view, void **out)
{
    view->obj = NULL;
    if (PyLong_Check(o)) {
        *out = PyLong_AsVoidPtr(o);
        return *out || !PyErr_Occurred() ? 0 : -1;
    }
    if (PyObject_GetBuffer(o, view, PyBUF_ANY_CONTIGUOUS | (dst ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (view->len < n) {
        PyErr_Format(PyExc_ValueError, "the host buffer has %zd bytes, fewer than the %zd "
                     "asked for", view->len, n);
        PyBuffer_Release(view);
        return -1;
    }
    *out = view->buf;
    return 0;
}

/* _copy_bytes(device, dst, src, nbytes, stream, wait) and _set_bytes(device,
 * dst, value, nbytes, stream, wait): on stream (None: the current one when
 * device is current, else its default), then waiting for nothing (0), the
 * stream (1) or the device (2). */
static PyObject *bytes_op(PyObject *m, PyObject *const *args, Py_ssize_t n, int set)
{
    empy_state *st = empy_state_of_module(m);
    Py_buffer vd, vs;
    void *dst, *src = NULL;
    Py_ssize_t nbytes;
    long wait, value = 0;
    em_device *d;
    em_stream *s;
    em_status rc;
    if (n != 6)
        return PyErr_Format(PyExc_TypeError, "%s takes 6 arguments",
                            set ? "_set_bytes" : "_copy_bytes");
    nbytes = PyNumber_AsSsize_t(args[3], PyExc_OverflowError);
    wait = PyLong_AsLong(args[5]);
    if (set)
        value = PyLong_AsLong(args[2]);
    if (PyErr_Occurred() || empy_device_arg(st, args[0], &d) < 0 ||
        empy_stream_for_device(st, args[4], d, &s) < 0 ||
        addr_arg(args[1], nbytes, 1, &vd, &dst) < 0)
        return NULL;
    vs.obj = NULL;
    if (!set && addr_arg(args[2], nbytes, 0, &vs, &src) < 0) {
        if (vd.obj)
            PyBuffer_Release(&vd);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = nbytes == 0 ? EM_OK
         : set ? em_memset_async(d, dst, (int)value, (size_t)nbytes, s)
               : em_memcpy_async(d, dst, src, (size_t)nbytes, s);
    if (rc == EM_OK && wait == 1)
        rc = em_stream_synchronize(s ? s : em_stream_default(d));
    else if (rc == EM_OK && wait == 2)
        rc = em_device_synchronize(d);
    Py_END_ALLOW_THREADS
    if (vd.obj)
        PyBuffer_Release(&vd);
    if (vs.obj)
        PyBuffer_Release(&vs);
    return empy_none_or_raise(st, rc);
}

static PyObject *mod_copy_bytes(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    return bytes_op(m, args, n, 0);
}

static PyObject *mod_set_bytes(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    return bytes_op(m, args, n, 1);
}

static PyMethodDef memory_functions[] = {
    {"alloc", (PyCFunction)(void (*)(void))mod_alloc, METH_VARARGS | METH_KEYWORDS,
     "alloc(nbytes, device=None, stream=None) -> Buffer from the device's "
     "caching pool, ready for use on the stream (None: the current stream)."},
    {"_copy_bytes", (PyCFunction)(void (*)(void))mod_copy_bytes, METH_FASTCALL, NULL},
    {"_set_bytes", (PyCFunction)(void (*)(void))mod_set_bytes, METH_FASTCALL, NULL},
    {"_pool_stats", mod_pool_stats, METH_O, NULL},
    {"_pool_free_all", mod_pool_free_all, METH_O, NULL},
    {"_pool_set_limit", (PyCFunction)(void (*)(void))mod_pool_set_limit, METH_FASTCALL, NULL},
    {"alloc_pinned_memory", mod_alloc_pinned_memory, METH_O,
     "alloc_pinned_memory(nbytes) -> PinnedMemory (page-locked host memory)."},
    {NULL},
};

int empy_memory_init(PyObject *m, empy_state *st)
{
    if (empy_add_type(m, &Buffer_spec, NULL, &st->Buffer) < 0 ||
        empy_add_type(m, &PinnedMemory_spec, NULL, &st->PinnedMemory) < 0)
        return -1;
    return PyModule_AddFunctions(m, memory_functions);
}
