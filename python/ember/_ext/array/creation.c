/* ember Python extension: making arrays — empty/zeros/ones/full, and
 * asarray/array/ascontiguousarray from ember arrays, anything with the
 * buffer protocol (NumPy arrays and scalars among them),
 * __array_interface__, __cuda_array_interface__, __dlpack__ (dlpack.c)
 * and Python's numbers; lists and the rest are python/ember/_api/nested.py,
 * the _like forms, arange and copy python/ember/_api/creation.py.
 *
 * Host data in the right place is wrapped, not copied (a NumPy array for
 * a cpu array, a CuPy or PyTorch array for a cuda one), unless copy=True
 * or the dtype differs; the wrapped object stays alive as the array's
 * base. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

/* ---- small parsers ------------------------------------------------------ */

/* getattr that tells a missing attribute (0) from a failure (-1). */
static int optional_attr(PyObject *o, PyObject *name, PyObject **out)
{
    *out = PyObject_GetAttr(o, name);
    if (*out)
        return 1;
    if (!PyErr_ExceptionMatches(PyExc_AttributeError))
        return -1;
    PyErr_Clear();
    return 0;
}

/* dtype= (None: *out = -1). */
static int dtype_kw(empy_state *st, PyObject *o, int *out)
{
    em_dtype d;
    if (!o || o == Py_None) {
        *out = -1;
        return 0;
    }
    if (empy_dtype_arg(st, o, &d) < 0)
        return -1;
    *out = (int)d;
    return 0;
}

static int order_kw(PyObject *o, char dflt, char *out)
{
    const char *s;
    if (!o || o == Py_None) {
        *out = dflt;
        return 0;
    }
    s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (!s || strlen(s) != 1 || !strchr("CFAKcfak", s[0])) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "order must be one of 'C', 'F', 'A', "
                         "or 'K' (got %R)", o);
        return -1;
    }
    *out = (char)(s[0] & ~0x20);
    return 0;
}

static PyObject *no_copy_error(void)
{
    PyErr_SetString(PyExc_ValueError, "Unable to avoid copy while creating an "
                    "array as requested.");
    return NULL;
}

/* ---- from an em_array --------------------------------------------------- */

/* The result for source layout *src (owned by `owner`, which becomes the
 * base of a returned view): src itself when nothing asks for a copy,
 * else a copy on dev of dtype in order. */
static PyObject *finish(empy_state *st, const em_array *src, PyObject *owner,
                        int dtype, em_device *dev, int copy, char order)
{
    int need = (dev && dev != src->device) || (dtype >= 0 && (em_dtype)dtype != src->dtype)
               || (order == 'C' && !(src->flags & EM_ARRAY_C_CONTIGUOUS))
               || (order == 'F' && !(src->flags & EM_ARRAY_F_CONTIGUOUS));
    em_array out;
    em_status rc;
    if (!need && copy != EMPY_COPY_ALWAYS) {
        if (empy_is_ndarray(owner) && EMPY_ARR(owner) == src)
            return Py_NewRef(owner);
        em_array_retain(src, &out);
        return empy_ndarray_new(st, &out, owner);
    }
    if (copy == EMPY_COPY_NEVER)
        return no_copy_error();
    rc = empy_array_copy_order(src, dev, dtype, order, &out);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, &out, NULL);
}

/* ---- wrapping foreign memory ------------------------------------------- */

/* Release callbacks may run on any thread (the last reference to the
 * storage may go there), so they take the GIL themselves. */
void empy_release_pyobj(void *ctx)
{
    PyGILState_STATE g;
    if (!Py_IsInitialized())
        return;
    g = PyGILState_Ensure();
    Py_DECREF((PyObject *)ctx);
    PyGILState_Release(g);
}

static void release_buffer(void *ctx)
{
    PyGILState_STATE g;
    if (!Py_IsInitialized())
        return;
    g = PyGILState_Ensure();
    PyBuffer_Release((Py_buffer *)ctx);
    PyMem_Free(ctx);
    PyGILState_Release(g);
}

static int shape_strides_of(const Py_buffer *v, int64_t *shape, int64_t *strides)
{
    int i;
    if (v->ndim > EM_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "a buffer of %d dimensions is more than "
                     "ember's %d", v->ndim, EM_MAX_NDIM);
        return -1;
    }
    for (i = 0; i < v->ndim; i++) {
        shape[i] = v->shape ? v->shape[i] : v->len / (v->itemsize ? v->itemsize : 1);
        strides[i] = v->strides ? v->strides[i] : v->itemsize;
    }
    if (!v->strides && v->ndim > 1) {
        for (i = v->ndim - 1; i >= 0; i--)
            strides[i] = i == v->ndim - 1 ? v->itemsize : strides[i + 1] * shape[i + 1];
    }
    return 0;
}

static PyObject *from_buffer(empy_state *st, PyObject *obj, int dtype, em_device *dev,
                             int copy, char order)
{
    Py_buffer *v = PyMem_Malloc(sizeof *v);
    int64_t shape[EM_MAX_NDIM], strides[EM_MAX_NDIM];
    em_array a;
    em_dtype bd;
    em_status rc;
    PyObject *r;
    if (!v)
        return PyErr_NoMemory();
    if (PyObject_GetBuffer(obj, v, PyBUF_RECORDS_RO) < 0) {
        PyMem_Free(v);
        return NULL;
    }
    if (empy_format_dtype(v->format, v->itemsize, &bd) < 0 ||
        shape_strides_of(v, shape, strides) < 0)
        goto fail;
    if (em_device_get_type(dev) == EM_DEVICE_CPU) {
        /* Host memory already: wrap it, and copy from the wrap if asked. */
        rc = em_array_wrap(dev, v->buf, bd, v->ndim, shape, strides, v->readonly,
                           release_buffer, v, &a);
        if (rc != EM_OK) {
            empy_raise(st, rc);
            goto fail;
        }
        /* The storage owns v now. */
        if (!(a.flags & EM_ARRAY_ALIGNED) && copy == EMPY_COPY_IF_NEEDED)
            copy = EMPY_COPY_ALWAYS;
        r = empy_ndarray_new(st, &a, obj);
        if (!r)
            return NULL;
        {
            PyObject *f = finish(st, EMPY_ARR(r), r, dtype, dev, copy, order);
            /* finish() returns the wrapper itself when nothing changes. */
            Py_DECREF(r);
            return f;
        }
    }
    if (copy == EMPY_COPY_NEVER) {
        no_copy_error();
        goto fail;
    }
    /* 'K' and 'A' keep a Fortran-ordered host array Fortran-ordered on
     * the GPU, as NumPy's copy and CuPy's asarray do. */
    if (order != 'C' && order != 'F')
        order = PyBuffer_IsContiguous(v, 'F') && !PyBuffer_IsContiguous(v, 'C') ? 'F' : 'C';
    rc = em_array_empty(dev, bd, v->ndim, shape, order, NULL, &a);
    if (rc == EM_OK) {
        EMPY_NOGIL(rc, em_array_from_host(&a, v->buf, strides, NULL));
        if (rc != EM_OK)
            em_array_release(&a);
    }
    PyBuffer_Release(v);
    PyMem_Free(v);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    r = empy_ndarray_new(st, &a, NULL);
    if (!r || dtype < 0 || (em_dtype)dtype == bd)
        return r;
    {
        PyObject *f = finish(st, EMPY_ARR(r), r, dtype, dev, EMPY_COPY_IF_NEEDED, order);
        Py_DECREF(r);
        return f;
    }
fail:
    PyBuffer_Release(v);
    PyMem_Free(v);
    return NULL;
}

/* Read an array-interface dict (NumPy's or CUDA's): shape, dtype, data
 * pointer, read-only flag, strides. */
static int parse_interface(PyObject *d, const char *what, int *ndim, int64_t *shape,
                           int64_t *strides, int *has_strides, em_dtype *dtype,
                           void **ptr, int *readonly)
{
    PyObject *o, *data;
    const char *ts;
    int i;
    if (!PyDict_Check(d)) {
        PyErr_Format(PyExc_TypeError, "%s is not a dict", what);
        return -1;
    }
    o = PyDict_GetItemString(d, "mask");
    if (o && o != Py_None) {
        PyErr_Format(PyExc_NotImplementedError, "%s with a mask is not supported",
                     what);
        return -1;
    }
    o = PyDict_GetItemString(d, "shape");
    if (!o || empy_shape_arg(o, "the interface's shape", ndim, shape) < 0) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "%s has no shape", what);
        return -1;
    }
    o = PyDict_GetItemString(d, "typestr");
    ts = o && PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (!ts) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "%s has no typestr", what);
        return -1;
    }
    if (em_dtype_from_name(ts, dtype) != EM_OK) {
        PyErr_Format(PyExc_TypeError, "%s: %s", what, em_last_error());
        return -1;
    }
    data = PyDict_GetItemString(d, "data");
    if (!data || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 2) {
        PyErr_Format(PyExc_TypeError, "%s: data must be a (pointer, read_only) "
                     "tuple", what);
        return -1;
    }
    *ptr = PyLong_AsVoidPtr(PyTuple_GET_ITEM(data, 0));
    if (!*ptr && PyErr_Occurred())
        return -1;
    if ((*readonly = PyObject_IsTrue(PyTuple_GET_ITEM(data, 1))) < 0)
        return -1;
    o = PyDict_GetItemString(d, "strides");
    *has_strides = o && o != Py_None;
    if (*has_strides) {
        int n;
        if (empy_shape_arg(o, "the interface's strides", &n, strides) < 0)
            return -1;
        if (n != *ndim) {
            PyErr_Format(PyExc_ValueError, "%s: strides and shape differ in "
                         "length", what);
            return -1;
        }
    }
    o = PyDict_GetItemString(d, "offset");
    if (o && o != Py_None) {
        Py_ssize_t off = PyNumber_AsSsize_t(o, PyExc_OverflowError);
        if (off == -1 && PyErr_Occurred())
            return -1;
        *ptr = (char *)*ptr + off;
    }
    for (i = 0; i < *ndim; i++)
        if (shape[i] < 0) {
            PyErr_Format(PyExc_ValueError, "%s has a negative extent", what);
            return -1;
        }
    return 0;
}

/* Zero-copy wrap of an interface on device wdev, then finish. */
static PyObject *from_interface(empy_state *st, PyObject *obj, PyObject *d,
                                const char *what, em_device *wdev, int dtype,
                                em_device *dev, int copy, char order)
{
    int64_t shape[EM_MAX_NDIM], strides[EM_MAX_NDIM];
    int ndim, has_strides, readonly;
    em_dtype idt;
    void *ptr;
    em_array a;
    em_status rc;
    PyObject *w, *r;
    if (parse_interface(d, what, &ndim, shape, strides, &has_strides, &idt, &ptr,
                        &readonly) < 0)
        return NULL;
    rc = em_array_wrap(wdev, ptr, idt, ndim, shape, has_strides ? strides : NULL,
                       readonly, empy_release_pyobj, obj, &a);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    /* The storage holds this reference until its last view goes. */
    Py_INCREF(obj);
    w = empy_ndarray_new(st, &a, obj);
    if (!w)
        return NULL;
    if (!(EMPY_ARR(w)->flags & EM_ARRAY_ALIGNED) && copy == EMPY_COPY_IF_NEEDED)
        copy = EMPY_COPY_ALWAYS;
    r = finish(st, EMPY_ARR(w), w, dtype, dev ? dev : wdev, copy, order);
    Py_DECREF(w);
    return r;
}

/* The device the memory of a __cuda_array_interface__ lives on. The
 * driver is asked (em_pointer_device): a host pointer posing as device
 * memory would fault the CUDA context for the whole process at the first
 * copy, and device memory may belong to another GPU than the current
 * one. Host memory (pinned or not, or any pointer where no driver loads:
 * Numba's simulator and ember's cpu arrays export theirs so) is on cpu.
 * A null pointer (an empty array) says nothing: the asked device when it
 * is a GPU, else the current one when it is, else cuda:0, else cpu. */
static int cai_device(empy_state *st, PyObject *iface, em_device *asked,
                      em_device **out)
{
    PyObject *data = PyDict_Check(iface) ? PyDict_GetItemString(iface, "data") : NULL;
    void *ptr = NULL;
    em_device *cur;
    em_status rc;
    if (data && PyTuple_Check(data) && PyTuple_GET_SIZE(data) == 2 &&
        PyLong_Check(PyTuple_GET_ITEM(data, 0))) {
        ptr = PyLong_AsVoidPtr(PyTuple_GET_ITEM(data, 0));
        if (!ptr && PyErr_Occurred())
            return -1;
    }
    if (ptr) {
        rc = em_pointer_device(ptr, out);
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    }
    if (asked && em_device_get_type(asked) == EM_DEVICE_CUDA) {
        *out = asked;
        return 0;
    }
    if (empy_device_arg(st, Py_None, &cur) < 0)
        return -1;
    if (em_device_get_type(cur) == EM_DEVICE_CUDA) {
        *out = cur;
        return 0;
    }
    rc = em_device_get(EM_DEVICE_CUDA, 0, out);
    if (rc == EM_ERR_UNAVAILABLE) {
        *out = cur;
        return 0;
    }
    return rc == EM_OK ? 0 : empy_fail(st, rc);
}

/* ---- from Python's numbers and the rest ------------------------------- */

/* A Python number: a 0-d array of its default dtype (bool, int64 or, past
 * INT64_MAX, uint64, float64, complex128), or of dtype, which must hold a
 * Python int (NumPy's OverflowError otherwise). */
static PyObject *from_number(empy_state *st, PyObject *obj, int dtype, em_device *dev,
                             int copy)
{
    em_operand op;
    em_dtype d;
    em_array a;
    em_status rc;
    char v[16];
    if (copy == EMPY_COPY_NEVER)
        return no_copy_error();
    if (empy_scalar_operand(obj, &op) < 0 ||
        (dtype >= 0 && empy_check_weak_fits(&op, (em_dtype)dtype) < 0))
        return NULL;
    d = dtype >= 0 ? (em_dtype)dtype : op.dtype;
    if ((rc = em_scalar_cast(op.value.bytes, op.dtype, v, d)) != EM_OK ||
        (rc = em_array_empty(dev, d, 0, NULL, 'C', NULL, &a)) != EM_OK)
        return empy_raise(st, rc);
    EMPY_NOGIL(rc, em_array_from_host(&a, v, NULL, NULL));
    if (rc != EM_OK) {
        em_array_release(&a);
        return empy_raise(st, rc);
    }
    return empy_ndarray_new(st, &a, NULL);
}

/* Lists and tuples, other sequences, subclasses of Python's numbers and
 * objects with __array__ are composition, in Python
 * (python/ember/_api/nested.py): packed into host memory, which comes back
 * through the buffer path, as CuPy has NumPy read them. */
static PyObject *from_python(empy_state *st, PyObject *obj, int dtype, em_device *dev,
                             int copy, char order)
{
    static const empy_pyattr w = {"ember._api.nested", "from_python"};
    PyObject *a[4] = {dtype >= 0 ? empy_dtype_obj(st, (em_dtype)dtype) : Py_None,
                      empy_device_new(st, dev),
                      copy == EMPY_COPY_IF_NEEDED ? Py_None : copy ? Py_True : Py_False,
                      PyUnicode_FromOrdinal(order)};
    PyObject *r = a[1] && a[3] ? empy_py_method(&w, obj, a, 4, NULL) : NULL;
    Py_XDECREF(a[1]);
    Py_XDECREF(a[3]);
    if (r && !empy_is_ndarray(r)) {
        /* a struct array (python/ember/_struct_array.py), made of a
         * structured host array: not a number array for the C caller;
         * ember.asarray's fallback makes it where that was asked for */
        PyErr_Format(PyExc_TypeError, "an array of a structured dtype (from "
                     "%.100s) is not an array of numbers: use one of its "
                     "fields", Py_TYPE(obj)->tp_name);
        Py_CLEAR(r);
    }
    return r;
}

/* A flat list or tuple of Python bools, ints (within int64) or floats,
 * ints and floats mixed: read here, since fancy indices and small data
 * come this way on hot paths. NULL with no error set: not such a list
 * (nesting, other objects, a bool beside numbers, ints past int64), which
 * nested.py reads. Numbers asked for as float32 or float64 (want) are
 * rounded to it here, once, as NumPy rounds Python's numbers, rather than
 * read into a float64 or int64 array and cast on the device. */
static PyObject *from_flat_seq(empy_state *st, PyObject *obj, em_device *dev,
                               int want)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(obj), i;
    PyObject **it = PySequence_Fast_ITEMS(obj);
    int kind = 0, exact; /* kind: 1 bool, 2 int, 3 float */
    int64_t len = n;
    em_dtype d;
    em_array a;
    em_status rc;
    char *buf;

    for (i = 0; i < n; i++) {
        PyTypeObject *t = Py_TYPE(it[i]);
        int k = t == &PyFloat_Type ? 3 : t == &PyLong_Type ? 2 : t == &PyBool_Type ? 1 : 0;
        if (!k || (kind && k != kind && (k == 1 || kind == 1)))
            return NULL;
        kind = k > kind ? k : kind;
    }
    if (!n)
        return NULL;
    d = kind == 3 ? EM_FLOAT64 : kind == 2 ? EM_INT64 : EM_BOOL;
    if (kind != 1 && (want == EM_FLOAT32 || want == EM_FLOAT64))
        d = (em_dtype)want;
    /* a float64 that stays float64 holds any int64 rounded once */
    exact = d == EM_FLOAT64 && (want < 0 || want == EM_FLOAT64);
    if (!(buf = PyMem_Malloc((size_t)n * 8)))
        return PyErr_NoMemory();
    for (i = 0; i < n; i++) {
        PyObject *o = it[i];
        double x;
        if (kind == 1) {
            buf[i] = o == Py_True;
            continue;
        }
        if (Py_TYPE(o) == &PyLong_Type) {
            int over;
            long long v = PyLong_AsLongLongAndOverflow(o, &over);
            /* past 2^53 a float would round it before a later cast (or
             * float32) rounds again */
            if (over || (d != EM_INT64 && !exact &&
                         (v > (1LL << 53) || v < -(1LL << 53)))) {
                PyMem_Free(buf);
                return NULL;
            }
            if (d == EM_INT64) {
                ((int64_t *)buf)[i] = v;
                continue;
            }
            x = (double)v;
        } else {
            x = PyFloat_AS_DOUBLE(o);
        }
        if (d == EM_FLOAT32)
            ((float *)buf)[i] = (float)x;
        else
            ((double *)buf)[i] = x;
    }
    if ((rc = em_array_empty(dev, d, 1, &len, 'C', NULL, &a)) == EM_OK) {
        EMPY_NOGIL(rc, em_array_from_host(&a, buf, NULL, NULL));
        if (rc != EM_OK)
            em_array_release(&a);
    }
    PyMem_Free(buf);
    return rc == EM_OK ? empy_ndarray_new(st, &a, NULL) : empy_raise(st, rc);
}

/* ---- asarray ------------------------------------------------------------- */

PyObject *empy_asarray(empy_state *st, PyObject *obj, int dtype, em_device *dev,
                       int copy, char order)
{
    PyTypeObject *t = Py_TYPE(obj);
    PyObject *iface, *r;
    em_device *d, *asked = dev;

    if (empy_is_ndarray(obj))
        return finish(st, EMPY_ARR(obj), obj, dtype, dev, copy, order);
    if (!dev && empy_device_arg(st, Py_None, &dev) < 0)
        return NULL;
    if (t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type ||
        t == &PyComplex_Type)
        return from_number(st, obj, dtype, dev, copy);
    if (PyList_Check(obj) || PyTuple_Check(obj)) {
        /* the default dtype, or one its values convert to exactly as
         * Python's numbers would (a float or complex one) */
        int cast = dtype == EM_FLOAT32 || dtype == EM_FLOAT64 ||
                   dtype == EM_COMPLEX64 || dtype == EM_COMPLEX128;
        if ((dtype < 0 || cast) && copy != EMPY_COPY_NEVER &&
            ((r = from_flat_seq(st, obj, dev, dtype)) || PyErr_Occurred())) {
            PyObject *c;
            if (!r || dtype < 0 || EMPY_ARR(r)->dtype == (em_dtype)dtype)
                return r;
            c = finish(st, EMPY_ARR(r), r, dtype, dev, EMPY_COPY_IF_NEEDED, order);
            Py_DECREF(r);
            return c;
        }
        return from_python(st, obj, dtype, dev, copy, order);
    }
    if (PyUnicode_Check(obj) || PyBytes_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "ember arrays hold numbers, not %.100s",
                     t->tp_name);
        return NULL;
    }
    /* NumPy's arrays and Python's buffers first: the common case, with no
     * failed attribute lookup on the way. Other buffer exporters may be
     * GPU arrays whose buffer refuses (CuPy's does), so they are asked
     * for the CUDA interface first. */
    if (t->tp_as_buffer && t->tp_as_buffer->bf_getbuffer &&
        (!strncmp(t->tp_name, "numpy.", 6) || PyByteArray_Check(obj) ||
         PyMemoryView_Check(obj)))
        return from_buffer(st, obj, dtype, dev, copy, order);
    /* A GPU array of another library (CuPy, PyTorch, Numba). */
    if (optional_attr(obj, st->s_cai, &iface) < 0)
        return NULL;
    if (iface) {
        /* Without device=, the data stays on its GPU. */
        if (cai_device(st, iface, asked, &d) < 0) {
            Py_DECREF(iface);
            return NULL;
        }
        r = from_interface(st, obj, iface, "__cuda_array_interface__", d, dtype,
                           asked ? asked : d, copy, order);
        Py_DECREF(iface);
        return r;
    }
    /* DLPack (PyTorch's cpu tensors, JAX, any Array API library) before
     * the generic buffer: it is zero-copy and keeps the dtype, bfloat16
     * included. */
    if (PyObject_HasAttrString(obj, "__dlpack__") &&
        PyObject_HasAttrString(obj, "__dlpack_device__")) {
        PyObject *w = empy_dlpack_import(st, obj);
        if (!w)
            return NULL;
        if (!(EMPY_ARR(w)->flags & EM_ARRAY_ALIGNED) && copy == EMPY_COPY_IF_NEEDED)
            copy = EMPY_COPY_ALWAYS;
        r = finish(st, EMPY_ARR(w), w, dtype, asked ? asked : EMPY_ARR(w)->device,
                   copy, order);
        Py_DECREF(w);
        return r;
    }
    if (t->tp_as_buffer && t->tp_as_buffer->bf_getbuffer)
        return from_buffer(st, obj, dtype, dev, copy, order);
    if (optional_attr(obj, st->s_array_interface, &iface) < 0)
        return NULL;
    if (iface) {
        em_device *cpu;
        em_status rc = em_device_get(EM_DEVICE_CPU, 0, &cpu);
        if (rc != EM_OK) {
            Py_DECREF(iface);
            return empy_raise(st, rc);
        }
        r = from_interface(st, obj, iface, "__array_interface__", cpu, dtype, dev,
                           copy, order);
        Py_DECREF(iface);
        return r;
    }
    return from_python(st, obj, dtype, dev, copy, order);
}

/* ---- structured dtypes -------------------------------------------------- */

static void drop_saved_error(empy_saved_error *e)
{
#if PY_VERSION_HEX >= 0x030C0000
    Py_XDECREF(e->exc);
#else
    Py_XDECREF(e->type);
    Py_XDECREF(e->value);
    Py_XDECREF(e->tb);
#endif
}

PyObject *empy_struct_fallback(const char *fname, PyObject *args, PyObject *kw)
{
    static const empy_pyattr w = {"ember._struct_array", "_route"};
    empy_saved_error e;
    PyObject *name, *r = NULL;
    empy_error_save(&e);
    if ((name = PyUnicode_FromString(fname)) != NULL) {
        r = empy_py_method_tuple(&w, name, args, kw);
        Py_DECREF(name);
    }
    if (r == Py_NotImplemented) {
        Py_DECREF(r);
        empy_error_restore(&e);
        return NULL;
    }
    drop_saved_error(&e);
    return r;
}

/* The fallback of a FASTCALL function: its arguments as a tuple and a
 * dict. */
static PyObject *struct_fallback_fast(const char *fname, PyObject *const *args,
                                      Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *t, *kw = NULL, *r = NULL;
    Py_ssize_t i, nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    empy_saved_error e;
    empy_error_save(&e);
    t = PyTuple_New(nargs);
    if (t && nk && !(kw = PyDict_New()))
        Py_CLEAR(t);
    for (i = 0; t && i < nargs; i++)
        PyTuple_SET_ITEM(t, i, Py_NewRef(args[i]));
    for (i = 0; t && i < nk; i++)
        if (PyDict_SetItem(kw, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0)
            Py_CLEAR(t);
    if (t) {
        empy_error_restore(&e);
        r = empy_struct_fallback(fname, t, kw);
    } else {
        drop_saved_error(&e);   /* the MemoryError stands */
    }
    Py_XDECREF(t);
    Py_XDECREF(kw);
    return r;
}

/* ---- module functions ---------------------------------------------------- */

#define FASTCALL_ARGS PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames

static int unused_like(PyObject *like)
{
    if (like && like != Py_None) {
        PyErr_SetString(PyExc_NotImplementedError, "like= is not supported by ember");
        return -1;
    }
    return 0;
}

/* A new uninitialised array on the current stream's device. */
static PyObject *make_empty(empy_state *st, int ndim, const int64_t *shape, em_dtype d,
                            char order, em_device *dev, em_array *a)
{
    em_status rc = em_array_empty(dev, d, ndim, shape, order == 'F' ? 'F' : 'C', NULL, a);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, a, NULL);
}

/* fill with a Python/NumPy scalar or (broadcast) array-like value. */
static int fill_value(empy_state *st, em_array *a, PyObject *value)
{
    em_operand op;
    em_status rc;
    PyObject *v;
    int k = empy_is_ndarray(value) ? 0 : empy_scalar_operand(value, &op);
    if (k < 0 || (k > 0 && empy_check_weak_fits(&op, a->dtype) < 0))
        return -1;
    if (k > 0) {
        EMPY_NOGIL(rc, em_array_fill(a, op.value.bytes, op.dtype, NULL));
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    }
    /* asarray puts it on a's device. */
    if (!(v = empy_asarray(st, value, -1, a->device, EMPY_COPY_IF_NEEDED, 'K')))
        return -1;
    EMPY_NOGIL(rc, em_array_copy(a, EMPY_ARR(v), NULL));
    Py_DECREF(v);
    return rc == EM_OK ? 0 : empy_fail(st, rc);
}

/* The dtype full() infers from its fill value: a scalar's own, else that
 * of the array asarray makes of it. */
static int fill_dtype(empy_state *st, PyObject *value, em_dtype *out)
{
    em_operand op;
    PyObject *v;
    int k = empy_is_ndarray(value) ? 0 : empy_scalar_operand(value, &op);
    if (k != 0) {
        *out = op.dtype;
        return k < 0 ? -1 : 0;
    }
    if (!(v = empy_asarray(st, value, -1, NULL, EMPY_COPY_IF_NEEDED, 'K')))
        return -1;
    *out = EMPY_ARR(v)->dtype;
    Py_DECREF(v);
    return 0;
}

enum { MK_EMPTY, MK_ZEROS, MK_ONES, MK_FULL };

static int init_values(empy_state *st, em_array *a, int kind, PyObject *value)
{
    int64_t v = kind == MK_ONES;
    em_status rc;
    if (kind == MK_FULL)
        return fill_value(st, a, value);
    if (kind == MK_EMPTY || !a->size)
        return 0;
    if (kind == MK_ZEROS) {   /* a memset on the current stream, if a's device's */
        em_stream *s = em_current_stream();
        rc = em_memset_async(a->device, a->data, 0, (size_t)a->size * em_dtype_size(a->dtype),
                             s && em_stream_device(s) == a->device ? s : NULL);
    } else {
        EMPY_NOGIL(rc, em_array_fill(a, &v, EM_INT64, NULL));
    }
    return rc == EM_OK ? 0 : empy_fail(st, rc);
}

static PyObject *make(empy_state *st, const char *fname, int kind, PyObject *const *args,
                      Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"shape", "dtype", "order", "device", "like", NULL};
    static const char *const fnames[] = {"shape", "fill_value", "dtype", "order",
                                         "device", "like", NULL};
    PyObject *vals[6], *r;
    PyObject **v = vals;
    int64_t shape[EM_MAX_NDIM];
    int ndim, dt;
    char order;
    em_device *dev;
    em_dtype d;
    em_array a;
    if (kind == MK_FULL) {
        if (empy_parse_args(fname, args, nargs, kwnames, fnames, 4, 2,
                       vals) < 0)
            return NULL;
        v = vals + 1;   /* dtype, order, device, like line up with names[1..] */
    } else if (empy_parse_args(fname, args, nargs, kwnames, names, 3, 1,
                          vals) < 0) {
        return NULL;
    }
    if (empy_shape_arg(vals[0], "shape", &ndim, shape) < 0)
        return NULL;
    if (dtype_kw(st, v[1], &dt) < 0)
        return struct_fallback_fast(fname, args, nargs, kwnames);
    if (order_kw(v[2], 'C', &order) < 0 ||
        empy_device_arg(st, v[3] ? v[3] : Py_None, &dev) < 0 || unused_like(v[4]) < 0)
        return NULL;
    if (dt >= 0)
        d = (em_dtype)dt;
    else if (kind == MK_FULL) {
        if (fill_dtype(st, vals[1], &d) < 0)
            return NULL;
    } else
        d = EM_FLOAT64;
    r = make_empty(st, ndim, shape, d, order, dev, &a);
    if (r && init_values(st, EMPY_ARR(r), kind, vals[1]) < 0)
        Py_CLEAR(r);
    return r;
}

/* empty, zeros, ones and full differ only in the fill (their _like forms
 * are python/ember/_api/creation.py). */
#define MAKE_FN(fn, kind)                                                   \
    static PyObject *mod_##fn(FASTCALL_ARGS)                                \
    {                                                                       \
        return make(empy_state_of_module(m), #fn, kind, args, nargs,        \
                    kwnames);                                               \
    }
MAKE_FN(empty, MK_EMPTY)
MAKE_FN(zeros, MK_ZEROS)
MAKE_FN(ones, MK_ONES)
MAKE_FN(full, MK_FULL)
#undef MAKE_FN

/* ---- asarray, array, ascontiguousarray ------------------------------------ */

/* fname, args, nargs, kwnames: the call, for the structured-dtype
 * fallback when the dtype or the object is refused. */
static PyObject *asarray_common(empy_state *st, PyObject *obj, PyObject *dtype_o,
                                PyObject *device_o, int copy, char order, int ndmin,
                                const char *fname, PyObject *const *args,
                                Py_ssize_t nargs, PyObject *kwnames)
{
    em_device *dev = NULL;
    int dt;
    PyObject *r;
    if (dtype_kw(st, dtype_o, &dt) < 0)
        return struct_fallback_fast(fname, args, nargs, kwnames);
    if (device_o && device_o != Py_None && empy_device_arg(st, device_o, &dev) < 0)
        return NULL;
    r = empy_asarray(st, obj, dt, dev, copy, order);
    if (!r)
        return struct_fallback_fast(fname, args, nargs, kwnames);
    if (r && ndmin > EMPY_ARR(r)->ndim) {
        /* NumPy's leading extent-1 axes: a rare, cold case. */
        static const empy_pyattr w = {"ember._api.nested", "ndmin"};
        PyObject *n = PyLong_FromLong(ndmin);
        Py_SETREF(r, n ? empy_py_method(&w, r, &n, 1, NULL) : NULL);
        Py_XDECREF(n);
    }
    return r;
}

static PyObject *mod_asarray(FASTCALL_ARGS)
{
    static const char *const names[] = {"a", "dtype", "order", "device", "copy", "like",
                                        NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *vals[6];
    int copy;
    char order;
    if (empy_parse_args("asarray", args, nargs, kwnames, names, 3, 1, vals) < 0 ||
        empy_copy_arg(vals[4], EMPY_COPY_IF_NEEDED, &copy) < 0 ||
        order_kw(vals[2], 'K', &order) < 0 || unused_like(vals[5]) < 0)
        return NULL;
    return asarray_common(st, vals[0], vals[1], vals[3], copy, order, 0, "asarray", args,
                          nargs, kwnames);
}

static PyObject *mod_array(FASTCALL_ARGS)
{
    static const char *const names[] = {"object", "dtype", "copy", "order", "subok",
                                        "ndmin", "device", "like", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *vals[8];
    int copy, ndmin = 0;
    char order;
    if (empy_parse_args("array", args, nargs, kwnames, names, 2, 1, vals) < 0 ||
        empy_copy_arg(vals[2], EMPY_COPY_ALWAYS, &copy) < 0 ||
        order_kw(vals[3], 'K', &order) < 0 || unused_like(vals[7]) < 0)
        return NULL;
    if (vals[5]) {
        ndmin = PyLong_AsLong(vals[5]);
        if (ndmin == -1 && PyErr_Occurred())
            return NULL;
    }
    return asarray_common(st, vals[0], vals[1], vals[6], copy, order, ndmin, "array",
                          args, nargs, kwnames);
}

static PyObject *mod_ascontiguousarray(FASTCALL_ARGS)
{
    static const char *const names[] = {"a", "dtype", "device", "like", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *vals[4];
    if (empy_parse_args("ascontiguousarray", args, nargs, kwnames, names, 2, 1, vals) < 0 ||
        unused_like(vals[3]) < 0)
        return NULL;
    /* NumPy gives at least one dimension here. */
    return asarray_common(st, vals[0], vals[1], vals[2], EMPY_COPY_IF_NEEDED, 'C', 1,
                          "ascontiguousarray", args, nargs, kwnames);
}

static PyObject *mod_rebuild(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *h, *device;
    em_device *d;
    if (!PyArg_ParseTuple(args, "OO:_rebuild", &h, &device) ||
        empy_device_arg(st, device, &d) < 0)
        return NULL;
    return empy_asarray(st, h, -1, d, EMPY_COPY_ALWAYS, 'K');
}


static PyMethodDef creation_functions[] = {
    {"empty", EMPY_FASTKW(mod_empty),
     "empty(shape, dtype=float64, order='C', *, device=None): uninitialised."},
    {"zeros", EMPY_FASTKW(mod_zeros), "zeros(shape, dtype=float64, order='C', *, device=None)."},
    {"ones", EMPY_FASTKW(mod_ones), "ones(shape, dtype=float64, order='C', *, device=None)."},
    {"full", EMPY_FASTKW(mod_full),
     "full(shape, fill_value, dtype=None, order='C', *, device=None)."},
    {"asarray", EMPY_FASTKW(mod_asarray),
     "asarray(a, dtype=None, order=None, *, device=None, copy=None): an ember "
     "array from an ember array (itself when nothing changes), anything with "
     "the buffer protocol, __array_interface__, __cuda_array_interface__ or "
     "__dlpack__ (zero-copy when on the target device), Python scalars or nested "
     "sequences. device defaults to the source's for arrays with one, else "
     "the current device."},
    {"array", EMPY_FASTKW(mod_array),
     "array(object, dtype=None, copy=True, order='K', ndmin=0, *, device=None)."},
    {"ascontiguousarray", EMPY_FASTKW(mod_ascontiguousarray),
     "ascontiguousarray(a, dtype=None, *, device=None): C-contiguous, ndim >= 1."},
    {"_rebuild", mod_rebuild, METH_VARARGS, "Unpickling: a host array to a device."},
    {NULL},
};

int empy_creation_init(PyObject *m, empy_state *st)
{
    return PyModule_AddFunctions(m, creation_functions);
}
