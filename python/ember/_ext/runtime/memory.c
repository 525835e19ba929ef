/* ember Python extension: device memory (ember.Buffer and ember.alloc), the
 * calls under ember.MemoryPool (python/ember/_api/memorypool.py) and
 * page-locked host memory (ember.PinnedMemory).
 *
 * Copies between a Buffer and Python host memory are blocking: the Python
 * object is only guaranteed to exist for the length of the call. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"

#define BUF(o) ((empy_Buffer *)(o))
#define PIN(o) ((empy_PinnedMemory *)(o))

static int size_arg(PyObject *o, const char *what, size_t *out)
{
    Py_ssize_t n;
    if (PyBool_Check(o) || !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    n = PyNumber_AsSsize_t(o, PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "%s must be >= 0, got %zd", what, n);
        return -1;
    }
    *out = (size_t)n;
    return 0;
}

/* Wait for s (NULL: d's default stream) with the GIL released. */
static em_status sync_stream(em_device *d, em_stream *s)
{
    em_status rc;
    Py_BEGIN_ALLOW_THREADS
    rc = em_stream_synchronize(s ? s : em_stream_default(d));
    Py_END_ALLOW_THREADS
    return rc;
}

/* ---- Buffer ------------------------------------------------------- */

static PyObject *buffer_alloc(empy_state *st, size_t nbytes, em_device *d,
                              PyObject *stream_arg)
{
    empy_Buffer *b;
    em_stream *s;
    PyObject *sref = NULL;
    void *p;
    em_status rc;

    if (empy_stream_for_device(st, stream_arg, d, &s) < 0)
        return NULL;
    if (s) {
        /* The free is ordered on the allocation stream, so that stream
         * must outlive the block. */
        sref = stream_arg && stream_arg != Py_None ? Py_NewRef(stream_arg)
                                                   : empy_current_stream(st);
        if (!sref)
            return NULL;
    }
    rc = em_malloc(d, nbytes, s, &p);
    if (rc != EM_OK) {
        Py_XDECREF(sref);
        return empy_raise(st, rc);
    }
    b = PyObject_New(empy_Buffer, st->Buffer);
    if (!b) {
        em_free(d, p, s);
        Py_XDECREF(sref);
        return NULL;
    }
    b->ptr = p;
    b->nbytes = nbytes;
    b->dev = d;
    b->stream = s;
    b->stream_ref = sref;
    return (PyObject *)b;
}

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

static PyObject *Buffer_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<ember.Buffer %zu bytes at %p on %s>",
                                BUF(self)->nbytes, BUF(self)->ptr,
                                em_device_name(BUF(self)->dev));
}

/* Parse (obj, stream=None) for the copy methods. */
static int parse_obj_stream(const char *fname, PyObject *args, PyObject *kw,
                            const char *first, PyObject **obj, PyObject **stream)
{
    char *kwlist[] = {(char *)first, "stream", NULL};
    char fmt[48];
    PyOS_snprintf(fmt, sizeof fmt, "|OO:%s", fname);
    return PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, obj, stream) ? 0 : -1;
}

/* One copy between b and the host memory of obj (to_host: into obj),
 * done when it returns; obj must be contiguous, writable when written,
 * and of b's size. */
static int host_copy(empy_state *st, empy_Buffer *b, PyObject *obj, em_stream *s,
                     int to_host)
{
    const char *fname = to_host ? "copy_to_host" : "copy_from_host";
    int flags = PyBUF_ANY_CONTIGUOUS | (to_host ? PyBUF_WRITABLE : 0);
    Py_buffer v;
    em_status rc;
    if (PyObject_GetBuffer(obj, &v, flags) < 0) {
        PyErr_Format(PyExc_TypeError,
                     "%s() needs a %scontiguous object with the buffer protocol, "
                     "not %.100s", fname, to_host ? "writable " : "",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    if ((size_t)v.len != b->nbytes) {
        PyErr_Format(PyExc_ValueError, "%s(): the %s has %zd bytes but the buffer has %zu",
                     fname, to_host ? "destination" : "source", v.len, b->nbytes);
        PyBuffer_Release(&v);
        return -1;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = to_host ? em_memcpy_async(b->dev, v.buf, b->ptr, b->nbytes, s)
                 : em_memcpy_async(b->dev, b->ptr, v.buf, b->nbytes, s);
    if (rc == EM_OK)
        rc = em_stream_synchronize(s ? s : em_stream_default(b->dev));
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&v);
    return rc == EM_OK ? 0 : empy_fail(st, rc);
}

static PyObject *Buffer_copy_from_host(PyObject *self, PyObject *args, PyObject *kw)
{
    empy_state *st = empy_state_of(self);
    empy_Buffer *b = BUF(self);
    PyObject *src = NULL, *sarg = Py_None;
    em_stream *s;

    if (parse_obj_stream("copy_from_host", args, kw, "src", &src, &sarg) < 0)
        return NULL;
    if (!src) {
        PyErr_SetString(PyExc_TypeError, "copy_from_host() missing the source object");
        return NULL;
    }
    if (empy_stream_for_device(st, sarg, b->dev, &s) < 0 || host_copy(st, b, src, s, 0) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *Buffer_copy_to_host(PyObject *self, PyObject *args, PyObject *kw)
{
    empy_state *st = empy_state_of(self);
    empy_Buffer *b = BUF(self);
    PyObject *out = Py_None, *sarg = Py_None;
    em_stream *s;

    if (parse_obj_stream("copy_to_host", args, kw, "out", &out, &sarg) < 0)
        return NULL;
    if (empy_stream_for_device(st, sarg, b->dev, &s) < 0)
        return NULL;
    if (out == Py_None) {
        if (b->nbytes > (size_t)PY_SSIZE_T_MAX)
            return PyErr_NoMemory();
        out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)b->nbytes);
        if (!out)
            return NULL;
    } else {
        Py_INCREF(out);
    }
    if (host_copy(st, b, out, s, 1) < 0)
        Py_CLEAR(out);
    return out;
}

static PyObject *Buffer_copy_from_device(PyObject *self, PyObject *args, PyObject *kw)
{
    empy_state *st = empy_state_of(self);
    empy_Buffer *b = BUF(self), *src;
    PyObject *srco = NULL, *sarg = Py_None;
    em_device *d;
    em_stream *s;
    em_status rc;

    if (parse_obj_stream("copy_from_device", args, kw, "src", &srco, &sarg) < 0)
        return NULL;
    if (!srco || !Py_IS_TYPE(srco, st->Buffer)) {
        PyErr_Format(PyExc_TypeError, "copy_from_device() needs an ember.Buffer, not %.100s",
                     srco ? Py_TYPE(srco)->tp_name : "nothing");
        return NULL;
    }
    src = BUF(srco);
    if (src->nbytes != b->nbytes) {
        PyErr_Format(PyExc_ValueError,
                     "copy_from_device(): the source has %zu bytes but the buffer "
                     "has %zu", src->nbytes, b->nbytes);
        return NULL;
    }
    /* Memory of cpu is host memory to a CUDA device, not the reverse: the
     * copy runs on the CUDA side when there is one. */
    d = em_device_get_type(b->dev) == EM_DEVICE_CUDA ? b->dev : src->dev;
    if (empy_stream_for_device(st, sarg, d, &s) < 0)
        return NULL;
    rc = em_memcpy_async(d, b->ptr, src->ptr, b->nbytes, s);
    if (rc == EM_OK)
        rc = sync_stream(d, s);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    Py_RETURN_NONE;
}

static PyObject *Buffer_memset(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"value", "stream", NULL};
    empy_state *st = empy_state_of(self);
    empy_Buffer *b = BUF(self);
    PyObject *sarg = Py_None;
    int value;
    em_stream *s;
    em_status rc;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|O:memset", kwlist, &value, &sarg))
        return NULL;
    if (value < -128 || value > 255) {
        PyErr_Format(PyExc_ValueError, "memset() value must be a byte (0..255), got %d",
                     value);
        return NULL;
    }
    if (empy_stream_for_device(st, sarg, b->dev, &s) < 0)
        return NULL;
    rc = em_memset_async(b->dev, b->ptr, value & 0xff, b->nbytes, s);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    Py_RETURN_NONE;
}

static PyObject *Buffer_get_ptr(PyObject *self, void *c)
{
    return PyLong_FromVoidPtr(BUF(self)->ptr);
}

static PyObject *Buffer_get_nbytes(PyObject *self, void *c)
{
    return PyLong_FromSize_t(BUF(self)->nbytes);
}

static PyObject *Buffer_get_device(PyObject *self, void *c)
{
    return empy_device_new(empy_state_of(self), BUF(self)->dev);
}

/* A CUDA buffer presents itself as a 1-D uint8 array, so CuPy, PyTorch and
 * Numba can wrap it without a copy. Absent (AttributeError) on cpu. */
static PyObject *Buffer_get_cai(PyObject *self, void *c)
{
    empy_Buffer *b = BUF(self);
    if (em_device_get_type(b->dev) != EM_DEVICE_CUDA) {
        PyErr_SetString(PyExc_AttributeError,
                        "a cpu Buffer has no __cuda_array_interface__ (it has the "
                        "buffer protocol)");
        return NULL;
    }
    return Py_BuildValue("{s:(n),s:s,s:(NO),s:O,s:i}", "shape", (Py_ssize_t)b->nbytes,
                         "typestr", "|u1", "data", PyLong_FromVoidPtr(b->ptr), Py_False,
                         "strides", Py_None, "version", 3);
}

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

static PyMethodDef Buffer_methods[] = {
    {"copy_from_host", (PyCFunction)(void (*)(void))Buffer_copy_from_host,
     METH_VARARGS | METH_KEYWORDS,
     "copy_from_host(src, stream=None): copy all bytes of a host object with "
     "the buffer protocol (its size must equal nbytes); returns when done."},
    {"copy_to_host", (PyCFunction)(void (*)(void))Buffer_copy_to_host,
     METH_VARARGS | METH_KEYWORDS,
     "copy_to_host(out=None, stream=None): fill a writable host buffer of "
     "nbytes (or a new bytearray) and return it; returns when done."},
    {"copy_from_device", (PyCFunction)(void (*)(void))Buffer_copy_from_device,
     METH_VARARGS | METH_KEYWORDS,
     "copy_from_device(src, stream=None): copy another Buffer of the same size."},
    {"memset", (PyCFunction)(void (*)(void))Buffer_memset, METH_VARARGS | METH_KEYWORDS,
     "memset(value, stream=None): set every byte, ordered on the stream."},
    {NULL},
};

static PyGetSetDef Buffer_getset[] = {
    {"ptr", Buffer_get_ptr, NULL, "The address, as an int.", NULL},
    {"nbytes", Buffer_get_nbytes, NULL, "The size in bytes.", NULL},
    {"size", Buffer_get_nbytes, NULL, "The size in bytes (CuPy's name).", NULL},
    {"device", Buffer_get_device, NULL, "The device the memory belongs to.", NULL},
    {"__cuda_array_interface__", Buffer_get_cai, NULL, NULL, NULL},
    {NULL},
};

static PyType_Slot Buffer_slots[] = {
    EMPY_NOINIT_SLOT
    {Py_tp_dealloc, Buffer_dealloc},
    {Py_tp_repr, Buffer_repr},
    {Py_tp_methods, Buffer_methods},
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
    PyObject *n_obj, *dev_arg = Py_None, *sarg = Py_None;
    size_t n;
    em_device *d;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:alloc", kwlist, &n_obj, &dev_arg,
                                     &sarg))
        return NULL;
    if (size_arg(n_obj, "nbytes", &n) < 0)
        return NULL;
    if (sarg != Py_None && dev_arg == Py_None && Py_IS_TYPE(sarg, st->Stream)) {
        em_stream *s = empy_stream_resolve(st, sarg);
        if (!s)
            return NULL;
        d = em_stream_device(s);
    } else if (empy_device_arg(st, dev_arg, &d) < 0) {
        return NULL;
    }
    return buffer_alloc(st, n, d, sarg);
}

/* ---- the pool's statistics and limits (python/ember/_api/memorypool.py) -- */

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
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K}",
                         "used_bytes", (unsigned long long)ps.used_bytes,
                         "cached_bytes", (unsigned long long)ps.cached_bytes,
                         "total_bytes", (unsigned long long)ps.total_bytes,
                         "peak_bytes", (unsigned long long)ps.peak_bytes,
                         "limit_bytes", (unsigned long long)ps.limit_bytes,
                         "n_allocs", (unsigned long long)ps.n_allocs,
                         "n_hits", (unsigned long long)ps.n_hits,
                         "n_cached_blocks", (unsigned long long)ps.n_cached_blocks);
}

static PyObject *mod_pool_free_all(PyObject *m, PyObject *dev_arg)
{
    empy_state *st = empy_state_of_module(m);
    em_device *d;
    em_status rc;
    if (empy_device_arg(st, dev_arg, &d) < 0)
        return NULL;
    EMPY_NOGIL(rc, em_pool_free_all(d));
    if (rc != EM_OK)
        return empy_raise(st, rc);
    Py_RETURN_NONE;
}

/* _pool_set_limit(device, nbytes): 0 removes the cap. */
static PyObject *mod_pool_set_limit(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    em_device *d;
    size_t limit;
    em_status rc;
    if (n != 2)
        return PyErr_Format(PyExc_TypeError, "_pool_set_limit(device, nbytes)");
    if (empy_device_arg(st, args[0], &d) < 0 || size_arg(args[1], "size", &limit) < 0)
        return NULL;
    if ((rc = em_pool_set_limit(d, limit)) != EM_OK)
        return empy_raise(st, rc);
    Py_RETURN_NONE;
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

static PyObject *PinnedMemory_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<ember.PinnedMemory %zu bytes at %p>", PIN(self)->nbytes,
                                PIN(self)->ptr);
}

static int PinnedMemory_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    return PyBuffer_FillInfo(view, self, PIN(self)->ptr, (Py_ssize_t)PIN(self)->nbytes,
                             0, flags);
}

static PyObject *PinnedMemory_get_ptr(PyObject *self, void *c)
{
    return PyLong_FromVoidPtr(PIN(self)->ptr);
}

static PyObject *PinnedMemory_get_nbytes(PyObject *self, void *c)
{
    return PyLong_FromSize_t(PIN(self)->nbytes);
}

static Py_ssize_t PinnedMemory_len(PyObject *self)
{
    return (Py_ssize_t)PIN(self)->nbytes;
}

static PyGetSetDef PinnedMemory_getset[] = {
    {"ptr", PinnedMemory_get_ptr, NULL, "The address, as an int.", NULL},
    {"nbytes", PinnedMemory_get_nbytes, NULL, "The size in bytes.", NULL},
    {"size", PinnedMemory_get_nbytes, NULL, "The size in bytes (CuPy's name).", NULL},
    {NULL},
};

static PyType_Slot PinnedMemory_slots[] = {
    EMPY_NOINIT_SLOT
    {Py_tp_dealloc, PinnedMemory_dealloc},
    {Py_tp_repr, PinnedMemory_repr},
    {Py_tp_getset, PinnedMemory_getset},
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

    if (size_arg(n_obj, "nbytes", &n) < 0)
        return NULL;
    if (n > (size_t)PY_SSIZE_T_MAX)
        return PyErr_NoMemory();
    Py_BEGIN_ALLOW_THREADS
    rc = em_host_alloc(n, &ptr);
    Py_END_ALLOW_THREADS
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

static PyMethodDef memory_functions[] = {
    {"alloc", (PyCFunction)(void (*)(void))mod_alloc, METH_VARARGS | METH_KEYWORDS,
     "alloc(nbytes, device=None, stream=None) -> Buffer from the device's "
     "caching pool, ready for use on the stream (None: the current stream)."},
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
