/* ember Python extension: an ndarray seen by NumPy and by other GPU
 * libraries — the buffer protocol and __array_interface__ (cpu arrays,
 * zero-copy), __cuda_array_interface__ (cuda arrays, zero-copy), and the
 * host copies under get(), __array__ and ember.asnumpy.
 *
 * A zero-copy export hands out memory that queued work may still be
 * writing, and the consumer knows nothing of ember's streams: a cpu
 * export first waits for the device; a CUDA export names the current
 * stream, as version 3 of the CUDA interface asks. */
#include <limits.h>
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"
#include "runtime/args.h"

#define NDA(o) ((empy_ndarray *)(o))

static int is_cpu(const em_array *a)
{
    return em_device_get_type(a->device) == EM_DEVICE_CPU;
}

/* ---- buffer protocol ---------------------------------------------------- */

int empy_ndarray_getbuffer(PyObject *self, Py_buffer *view, int flags)
{
    empy_state *st = empy_state_of(self);
    const em_array *a = empy_arr_computed(self);
    const char *fmt;
    int c, f;
    em_status rc;

    view->obj = NULL;
    if (!a)
        return -1;
    fmt = empy_dtype_format(a->dtype);
    c = (a->flags & EM_ARRAY_C_CONTIGUOUS) != 0;
    f = (a->flags & EM_ARRAY_F_CONTIGUOUS) != 0;
    if (!is_cpu(a)) {
        PyErr_Format(PyExc_BufferError, "an ember array on %s is not in host "
                     "memory; copy it with x.get() or ember.asnumpy(x)",
                     em_device_name(a->device));
        return -1;
    }
    if (!fmt) {
        PyErr_Format(PyExc_BufferError, "%s has no buffer format; convert "
                     "with astype(ember.float32) first",
                     em_dtype_get(a->dtype)->name);
        return -1;
    }
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && !(a->flags & EM_ARRAY_WRITEABLE)) {
        PyErr_SetString(PyExc_BufferError, "the ember array is read-only");
        return -1;
    }
    if (((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !c) ||
        ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !f) ||
        ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !c && !f) ||
        ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !c)) {
        PyErr_SetString(PyExc_BufferError, "the ember array is not contiguous "
                        "as the buffer request needs");
        return -1;
    }
    /* NumPy drops a buffer export's error and tries __array_interface__
     * next: refusing here would end the capture unseen, and the next
     * attempt would read memory the dropped graph never wrote. The
     * capture stays; __array_interface__ refuses it (docs/graphs.md). */
    if (em_device_is_capturing(a->device)) {
        PyErr_Format(PyExc_BufferError, "the memory of an ember array on %s "
                     "cannot be exported while a stream of the device captures "
                     "a graph", em_device_name(a->device));
        return -1;
    }
    /* queued work on the device finishes before the host reads the memory */
    EMPY_NOGIL(rc, em_device_synchronize(a->device));
    if (rc != EM_OK)
        return empy_fail(st, rc);
    view->buf = a->data;
    view->len = (Py_ssize_t)(a->size * (int64_t)em_dtype_size(a->dtype));
    view->readonly = !(a->flags & EM_ARRAY_WRITEABLE);
    view->itemsize = (Py_ssize_t)em_dtype_size(a->dtype);
    view->format = (flags & PyBUF_FORMAT) == PyBUF_FORMAT ? (char *)fmt : NULL;
    view->ndim = a->ndim;
    /* The ndarray's own arrays: it is immutable and outlives the view. */
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? (Py_ssize_t *)a->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? (Py_ssize_t *)a->strides
                                                             : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    view->obj = Py_NewRef(self);
    return 0;
}

void empy_ndarray_releasebuffer(PyObject *self, Py_buffer *view)
{
}

/* ---- array interfaces --------------------------------------------------- */

static PyObject *interface_dict(const em_array *a, const char *typestr,
                                PyObject *stream)
{
    PyObject *shape = PyTuple_New(a->ndim), *strides, *d;
    int i;
    if (!shape)
        return NULL;
    for (i = 0; i < a->ndim; i++)
        PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(a->shape[i]));
    if (a->flags & EM_ARRAY_C_CONTIGUOUS) {
        strides = Py_NewRef(Py_None);
    } else {
        strides = PyTuple_New(a->ndim);
        if (!strides) {
            Py_DECREF(shape);
            return NULL;
        }
        for (i = 0; i < a->ndim; i++)
            PyTuple_SET_ITEM(strides, i, PyLong_FromLongLong(a->strides[i]));
    }
    if (PyErr_Occurred()) {
        Py_DECREF(shape);
        Py_DECREF(strides);
        return NULL;
    }
    d = Py_BuildValue("{s:N,s:s,s:[(s,s)],s:(NO),s:N,s:i}",
                      "shape", shape, "typestr", typestr, "descr", "", typestr,
                      "data", PyLong_FromVoidPtr(a->size ? a->data : NULL),
                      (a->flags & EM_ARRAY_WRITEABLE) ? Py_False : Py_True,
                      "strides", strides, "version", 3);
    if (d && PyDict_SetItemString(d, "stream", stream) < 0)
        Py_CLEAR(d);
    return d;
}

/* __array_interface__ (cpu arrays), and where no CUDA driver loads the
 * __cuda_array_interface__ of a cpu array, are cold: _api/interop.py
 * builds them. */
PyObject *empy_nd_array_interface(PyObject *self, void *closure)
{
    static const empy_pyattr w = {"ember._api.interop", "array_interface"};
    return empy_py_getter(self, (void *)&w);
}

PyObject *empy_nd_cuda_array_interface(PyObject *self, void *closure)
{
    const em_array *a = empy_arr_computed(self);
    em_stream *s = em_current_stream();
    PyObject *stream, *d;
    void *native;
    const char *t;
    if (!a)
        return NULL;
    if (is_cpu(a)) {
        /* Where no CUDA driver can load, no library can take the pointer
         * for device memory, and Numba-style code that passes
         * __cuda_array_interface__["data"][0] to a kernel runs on cpu (the
         * consumers here read it as host memory then, see creation.c).
         * With a driver, a host pointer posing as device memory would be
         * a crash elsewhere: AttributeError. */
        static const empy_pyattr w = {"ember._api.interop", "host_cuda_array_interface"};
        if (em_cuda_driver_version() != 0) {
            PyErr_SetString(PyExc_AttributeError, "__cuda_array_interface__ is for "
                            "CUDA memory; this array is on cpu");
            return NULL;
        }
        return empy_py_getter(self, (void *)&w);
    }
    if (!(t = empy_dtype_typestr(a->dtype)))
        return PyErr_Format(PyExc_TypeError, "%s has no array-interface type; convert "
                            "with astype(ember.float32) first",
                            em_dtype_get(a->dtype)->name);
    if (!s || em_stream_device(s) != a->device)
        s = em_stream_default(a->device);
    /* Version 3: 1 is CUDA's legacy default stream, else the handle. */
    native = em_stream_native(s);
    stream = native ? PyLong_FromVoidPtr(native) : PyLong_FromLong(1);
    if (!stream)
        return NULL;
    d = interface_dict(a, t, stream);
    Py_DECREF(stream);
    return d;
}

/* ---- host copies -------------------------------------------------------- */

/* Copy a into the host memory of NumPy array (or any writable buffer) h of
 * the same shape, ordered on s (NULL: the current stream). */
static int copy_into_host(empy_state *st, const em_array *a, PyObject *h,
                          em_stream *s)
{
    Py_buffer v;
    int64_t strides[EM_MAX_NDIM + 1];
    em_dtype hd;
    em_status rc;
    int i;
    if (PyObject_GetBuffer(h, &v, PyBUF_RECORDS) < 0)
        return -1;
    if (empy_format_dtype(v.format, v.itemsize, &hd) < 0)
        goto fail;
    if (hd != a->dtype || v.ndim != a->ndim) {
        PyErr_Format(PyExc_ValueError, "out must be a host array of dtype %s "
                     "and %d dimensions", em_dtype_get(a->dtype)->name, a->ndim);
        goto fail;
    }
    for (i = 0; i < a->ndim; i++) {
        if (v.shape[i] != a->shape[i]) {
            PyErr_SetString(PyExc_ValueError, "out has a different shape than "
                            "the array");
            goto fail;
        }
        strides[i] = v.strides[i];
    }
    EMPY_NOGIL(rc, em_array_to_host(a, v.buf, strides, s));
    PyBuffer_Release(&v);
    return rc == EM_OK ? 0 : empy_fail(st, rc);
fail:
    PyBuffer_Release(&v);
    return -1;
}

/* get(stream=None, order='C', out=None, blocking=True), a.set(arr,
 * stream=None) and __array__(dtype=None, copy=None) read their arguments
 * in Python (python/ember/_api/interop.py) over _to_host and _from_host. */
PyObject *empy_nd_get(PyObject *self, PyObject *args, PyObject *kw)
{
    static const empy_pyattr w = {"ember._api.interop", "get"};
    return empy_py_method_tuple(&w, self, args, kw);
}

PyObject *empy_nd_set(PyObject *self, PyObject *args, PyObject *kw)
{
    static const empy_pyattr w = {"ember._api.interop", "set"};
    return empy_py_method_tuple(&w, self, args, kw);
}

PyObject *empy_nd_array(PyObject *self, PyObject *args, PyObject *kw)
{
    static const empy_pyattr w = {"ember._api.interop", "array"};
    return empy_py_method_tuple(&w, self, args, kw);
}

/* _from_host(a, arr, stream): copy the host array arr (a's dtype and
 * shape, checked by the caller) into a, ordered on stream. */
static PyObject *mod_from_host(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    int64_t strides[EM_MAX_NDIM + 1];
    const em_array *a;
    Py_buffer v;
    em_stream *s;
    em_status rc;
    if (n != 3 || !empy_is_ndarray(args[0]))
        return PyErr_Format(PyExc_TypeError, "_from_host(a, arr, stream)");
    a = EMPY_ARR(args[0]);
    if (empy_stream_for_device(st, args[2], a->device, &s) < 0 ||
        PyObject_GetBuffer(args[1], &v, PyBUF_RECORDS_RO) < 0)
        return NULL;
    if (v.ndim != a->ndim || v.itemsize != (Py_ssize_t)em_dtype_size(a->dtype)) {
        PyBuffer_Release(&v);
        return PyErr_Format(PyExc_ValueError, "_from_host: the host array does not "
                            "match the ember array");
    }
    for (int i = 0; i < a->ndim; i++)
        strides[i] = v.strides[i];
    EMPY_NOGIL(rc, em_array_from_host((em_array *)a, v.buf, strides, s));
    PyBuffer_Release(&v);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    Py_RETURN_NONE;
}

/* _from_host_pieces(a, buffers, stream): the bytes of a sequence of
 * contiguous host buffers, one after another, into the C-contiguous a. */
static PyObject *mod_from_host_pieces(PyObject *m, PyObject *const *args,
                                      Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *seq;
    Py_buffer *v = NULL;
    const void **ptrs = NULL;
    int64_t *lens = NULL;
    Py_ssize_t k, got = 0;
    em_stream *s;
    em_status rc = EM_OK;
    if (n != 3 || !empy_is_ndarray(args[0]))
        return PyErr_Format(PyExc_TypeError, "_from_host_pieces(a, buffers, stream)");
    if (empy_stream_for_device(st, args[2], NDA(args[0])->a.device, &s) < 0 ||
        !(seq = PySequence_Fast(args[1], "_from_host_pieces: buffers must be a sequence")))
        return NULL;
    k = PySequence_Fast_GET_SIZE(seq);
    if (k > INT_MAX) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_ValueError, "_from_host_pieces: %zd buffers", k);
    }
    v = PyMem_Calloc((size_t)k + 1, sizeof *v);
    ptrs = PyMem_Calloc((size_t)k + 1, sizeof *ptrs);
    lens = PyMem_Calloc((size_t)k + 1, sizeof *lens);
    if (!v || !ptrs || !lens) {
        PyErr_NoMemory();
        goto done;
    }
    for (; got < k; got++) {
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(seq, got), &v[got],
                               PyBUF_CONTIG_RO) < 0)
            goto done;
        ptrs[got] = v[got].buf;
        lens[got] = (int64_t)v[got].len;
    }
    EMPY_NOGIL(rc, em_array_from_host_pieces(EMPY_ARR(args[0]), (int)k, ptrs,
                                             lens, s));
    if (rc != EM_OK)
        empy_raise(st, rc);
done:
    for (Py_ssize_t i = 0; i < got; i++)
        PyBuffer_Release(&v[i]);
    PyMem_Free(v);
    PyMem_Free(ptrs);
    PyMem_Free(lens);
    Py_DECREF(seq);
    if (PyErr_Occurred())
        return NULL;
    Py_RETURN_NONE;
}

/* _to_host(a, h, stream): copy a into h, a host array of a's dtype and
 * shape that _api/interop.py made, ordered on stream (CuPy's argument of
 * get and asnumpy, so the copy reads what work queued there wrote). */
static PyObject *mod_to_host(PyObject *m, PyObject *const *args, Py_ssize_t n)
{
    empy_state *st = empy_state_of_module(m);
    em_stream *s;
    if (n != 3 || !empy_is_ndarray(args[0]))
        return PyErr_Format(PyExc_TypeError, "_to_host(a, h, stream)");
    if (empy_stream_for_device(st, args[2], NDA(args[0])->a.device, &s) < 0 ||
        copy_into_host(st, EMPY_ARR(args[0]), args[1], s) < 0)
        return NULL;
    return Py_NewRef(args[1]);
}

static PyMethodDef interop_functions[] = {
    {"_from_host", (PyCFunction)(void (*)(void))mod_from_host, METH_FASTCALL, NULL},
    {"_from_host_pieces", (PyCFunction)(void (*)(void))mod_from_host_pieces,
     METH_FASTCALL, NULL},
    {"_to_host", (PyCFunction)(void (*)(void))mod_to_host, METH_FASTCALL, NULL},
    {NULL},
};

int empy_interop_init(PyObject *m, empy_state *st)
{
    return PyModule_AddFunctions(m, interop_functions);
}
