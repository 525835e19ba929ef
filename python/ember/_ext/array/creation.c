/* ember Python extension: making arrays — empty/zeros/ones/full, and
 * asarray/array/ascontiguousarray from ember arrays, anything with the
 * buffer protocol (NumPy arrays and scalars among them),
 * __array_interface__, __cuda_array_interface__, __dlpack__ (dlpack.c),
 * Python scalars and nested sequences. Their _like forms, arange and copy
 * are python/ember/_api/creation.py.
 *
 * Host data in the right place is wrapped, not copied (a NumPy array for
 * a cpu array, a CuPy or PyTorch array for a cuda one), unless copy=True
 * or the dtype differs; the wrapped object stays alive as the array's
 * base. Nested Python sequences are read in C: one pass finds the shape
 * and the kind of number, a second packs the values into host memory of
 * the widest Python kind, and the transfer is followed by a cast on the
 * device when the asked dtype differs. */
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

static int device_kw(empy_state *st, PyObject *o, em_device **out)
{
    return empy_device_arg(st, o == NULL ? Py_None : o, out);
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

static int no_copy_error(void)
{
    PyErr_SetString(PyExc_ValueError, "Unable to avoid copy while creating an "
                    "array as requested.");
    return -1;
}

static int order_ok(const em_array *a, char order)
{
    if (order == 'C')
        return (a->flags & EM_ARRAY_C_CONTIGUOUS) != 0;
    if (order == 'F')
        return (a->flags & EM_ARRAY_F_CONTIGUOUS) != 0;
    return 1;
}

/* ---- from an em_array --------------------------------------------------- */

/* The result for source layout *src (owned by `owner`, which becomes the
 * base of a returned view): src itself when nothing asks for a copy,
 * else a copy on dev of dtype in order. */
static PyObject *finish(empy_state *st, const em_array *src, PyObject *owner,
                        int dtype, em_device *dev, int copy, char order)
{
    int need = (dev && dev != src->device) || (dtype >= 0 && (em_dtype)dtype != src->dtype)
               || !order_ok(src, order);
    em_array out;
    em_status rc;
    if (!need && copy != EMPY_COPY_ALWAYS) {
        if (empy_is_ndarray(owner) && EMPY_ARR(owner) == src)
            return Py_NewRef(owner);
        em_array_retain(src, &out);
        return empy_ndarray_new(st, &out, owner);
    }
    if (copy == EMPY_COPY_NEVER) {
        no_copy_error();
        return NULL;
    }
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

/* ---- from Python scalars and nested sequences ------------------------- */

/* Kinds of element, in widening order: what the host buffer holds. */
enum { PK_NONE = 0, PK_BOOL, PK_INT, PK_UINT, PK_FLOAT, PK_COMPLEX };

typedef struct {
    int64_t shape[EM_MAX_NDIM];
    int shape_known;       /* depth to which shape[] is fixed */
    int leaf_depth;        /* -1 until the first element */
    int kind;              /* widest kind of any element (what to pack) */
    int py_kind;           /* widest kind of the Python scalars */
    int small;             /* a Python int that fits int64 met */
    int big;               /* a Python int above INT64_MAX met */
    int have_strong;
    em_dtype strong;       /* promotion of the NumPy/ember elements met */
} infer_t;

static int ragged(const infer_t *in, int depth)
{
    char buf[EM_MAX_NDIM * 24 + 8];
    em_shape_format(depth, in->shape, buf, sizeof buf);
    PyErr_Format(PyExc_ValueError, "setting an array element with a sequence. "
                 "The requested array has an inhomogeneous shape after %d "
                 "dimensions. The detected shape was %s + inhomogeneous part.",
                 depth, buf);
    return -1;
}

static int is_seq(PyObject *o)
{
    return PyList_Check(o) || PyTuple_Check(o);
}

static int kind_of_dtype(em_dtype d)
{
    switch (em_dtype_get(d)->kind) {
    case 'b': return PK_BOOL;
    case 'i': return PK_INT;
    case 'u': return d == EM_UINT64 ? PK_UINT : PK_INT;
    case 'f': return PK_FLOAT;
    default: return PK_COMPLEX;
    }
}

/* 1 if o is an ember array, a host array of one or more dimensions or a
 * sequence other than a list or a tuple: nested sequences holding those
 * are read by the Python layer (nested_in_python), item by item. */
static int needs_python(PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    Py_buffer v;
    int nd;
    if (empy_is_ndarray(o))
        return 1;
    if (PyUnicode_Check(o) || PyBytes_Check(o))
        return 0;
    if (t->tp_as_buffer && t->tp_as_buffer->bf_getbuffer) {
        if (PyObject_GetBuffer(o, &v, PyBUF_RECORDS_RO) < 0) {
            PyErr_Clear();
            return 0;
        }
        nd = v.ndim;
        PyBuffer_Release(&v);
        return nd > 0;
    }
    return PySequence_Check(o) && !PyDict_Check(o);
}

/* Note an element of strong dtype d. */
static int note_strong(infer_t *in, em_dtype d)
{
    int pk = kind_of_dtype(d);
    if (!in->have_strong) {
        in->strong = d;
        in->have_strong = 1;
    } else if (empy_promote(in->strong, d, &in->strong) < 0) {
        PyErr_Format(PyExc_TypeError, "no common dtype for %s and %s",
                     em_dtype_get(in->strong)->name, em_dtype_get(d)->name);
        return -1;
    }
    if (in->kind < pk)
        in->kind = pk;
    return 0;
}

static int note_leaf_depth(infer_t *in, int depth)
{
    if (in->leaf_depth < 0)
        in->leaf_depth = depth;
    else if (in->leaf_depth != depth)
        return ragged(in, depth < in->leaf_depth ? depth : in->leaf_depth);
    return 0;
}

static int note_extent(infer_t *in, int depth, int64_t n)
{
    if (in->leaf_depth >= 0 && depth >= in->leaf_depth)
        return ragged(in, in->leaf_depth);
    if (depth >= EM_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "nested sequences deeper than ember's %d "
                     "dimensions", EM_MAX_NDIM);
        return -1;
    }
    if (in->shape_known <= depth) {
        in->shape[depth] = n;
        in->shape_known = depth + 1;
    } else if (in->shape[depth] != n) {
        return ragged(in, depth);
    }
    return 0;
}

static void note_py(infer_t *in, int pk)
{
    if (in->py_kind < pk)
        in->py_kind = pk;
    if (in->kind < pk)
        in->kind = pk;
}

/* Pass 1: the shape, the kinds of the elements and their dtypes; -2
 * when an element needs_python. */
static int infer(PyObject *o, int depth, infer_t *in)
{
    int k;
    if (is_seq(o)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o), i;
        if (note_extent(in, depth, n) < 0)
            return -1;
        if (n == 0)   /* an empty sequence ends the shape here */
            return note_leaf_depth(in, depth + 1);
        for (i = 0; i < n; i++)
            if ((k = infer(PySequence_Fast_GET_ITEM(o, i), depth + 1, in)) < 0)
                return k;
        return 0;
    }
    if (needs_python(o))
        return -2;
    if (note_leaf_depth(in, depth) < 0)
        return -1;
    if (PyBool_Check(o)) {
        note_py(in, PK_BOOL);
    } else if (PyLong_Check(o)) {
        em_operand op;
        if (empy_scalar_operand(o, &op) < 0)
            return -1;
        if (op.dtype == EM_UINT64)
            in->big = 1;
        else
            in->small = 1;
        note_py(in, PK_INT);
    } else if (PyFloat_CheckExact(o)) {
        note_py(in, PK_FLOAT);
    } else if (PyComplex_CheckExact(o)) {
        note_py(in, PK_COMPLEX);
    } else {
        em_operand op;
        k = PyUnicode_Check(o) || PyBytes_Check(o) || o == Py_None
                ? 0 : empy_scalar_operand(o, &op);
        if (k < 0)
            return -1;
        if (k == 0) {
            PyErr_Format(PyExc_TypeError, "ember arrays hold numbers: cannot make "
                         "an array element from %.100s", Py_TYPE(o)->tp_name);
            return -1;
        }
        if (!op.weak)
            return note_strong(in, op.dtype);
        /* Subclasses of Python's float and complex. */
        note_py(in, kind_of_dtype(op.dtype));
    }
    return 0;
}

typedef struct {
    char *p;               /* next element to write */
    int pack;              /* PK_* of the host buffer */
    em_dtype target;       /* for range checks of Python ints */
    int check_ints;
} pack_t;

/* Write one value, given as every representation the pack may want. */
static void pack_put(pack_t *pk, double re, double im, int64_t i64, uint64_t u64)
{
    switch (pk->pack) {
    case PK_BOOL:
        *pk->p = (char)(i64 != 0 || re != 0 || im != 0);
        pk->p += 1;
        break;
    case PK_INT:
        memcpy(pk->p, &i64, 8);
        pk->p += 8;
        break;
    case PK_UINT:
        memcpy(pk->p, &u64, 8);
        pk->p += 8;
        break;
    case PK_FLOAT:
        memcpy(pk->p, &re, 8);
        pk->p += 8;
        break;
    default: {
        double c[2] = {re, im};
        memcpy(pk->p, c, 16);
        pk->p += 16;
    }
    }
}

/* A strong element (bytes of dtype d) into the pack. Integers are read
 * exactly; the pack is float or complex whenever one is not an integer. */
static int pack_bytes(pack_t *pk, em_dtype d, const void *bytes)
{
    double c[2] = {0, 0};
    int64_t i64 = 0;
    uint64_t u64 = 0;
    char kind = em_dtype_get(d)->kind;
    if (kind == 'b' || kind == 'i') {
        if (em_scalar_cast(bytes, d, &i64, EM_INT64) != EM_OK)
            return -1;
        u64 = (uint64_t)i64;
        c[0] = (double)i64;
    } else if (kind == 'u') {
        if (em_scalar_cast(bytes, d, &u64, EM_UINT64) != EM_OK)
            return -1;
        i64 = (int64_t)u64;
        c[0] = (double)u64;
    } else if (em_scalar_cast(bytes, d, c, EM_COMPLEX128) != EM_OK) {
        return -1;
    }
    pack_put(pk, c[0], c[1], i64, u64);
    return 0;
}

/* Pass 2: the values, in C order, as the pack's kind. */
static int pack_values(empy_state *st, PyObject *o, pack_t *pk)
{
    int k;
    if (is_seq(o)) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o), i;
        for (i = 0; i < n; i++)
            if (pack_values(st, PySequence_Fast_GET_ITEM(o, i), pk) < 0)
                return -1;
        return 0;
    }
    if (PyFloat_CheckExact(o)) {
        pack_put(pk, PyFloat_AS_DOUBLE(o), 0, 0, 0);
        return 0;
    }
    if (PyBool_Check(o)) {
        pack_put(pk, o == Py_True, 0, o == Py_True, o == Py_True);
        return 0;
    }
    if (PyComplex_CheckExact(o)) {
        pack_put(pk, PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o), 0, 0);
        return 0;
    }
    {
        em_operand op;
        k = empy_scalar_operand(o, &op);
        if (k <= 0) {
            if (k == 0)
                PyErr_Format(PyExc_TypeError, "cannot make an array element from "
                             "%.100s", Py_TYPE(o)->tp_name);
            return -1;
        }
        if (op.weak && (op.dtype == EM_INT64 || op.dtype == EM_UINT64)) {
            if (pk->check_ints && empy_check_weak_fits(&op, pk->target) < 0)
                return -1;
            if (op.dtype == EM_UINT64)
                pack_put(pk, (double)op.value.u, 0, (int64_t)op.value.u, op.value.u);
            else
                pack_put(pk, (double)op.value.i, 0, op.value.i, (uint64_t)op.value.i);
            return 0;
        }
        if (pack_bytes(pk, op.dtype, op.value.bytes) < 0)
            return empy_fail(st, EM_ERR_INTERNAL);
        return 0;
    }
}

/* The nested sequences infer() leaves to the Python layer
 * (python/ember/_api/nested.py). */
static PyObject *nested_in_python(empy_state *st, PyObject *obj, int dtype,
                                  em_device *dev, char order)
{
    PyObject *dt = Py_NewRef(dtype >= 0 ? empy_dtype_obj(st, (em_dtype)dtype) : Py_None);
    PyObject *d = empy_device_new(st, dev), *args, *r;
    if (!d) {
        Py_DECREF(dt);
        return NULL;
    }
    if (!(args = Py_BuildValue("(NNC)", dt, d, order)))   /* dt and d go in */
        return NULL;
    r = empy_call_python("ember._api.nested", "nested", obj, args, NULL);
    Py_DECREF(args);
    return r;
}

static PyObject *from_python(empy_state *st, PyObject *obj, int dtype, em_device *dev,
                             int copy, char order)
{
    static const em_dtype pack_dtype[] = {
        [PK_NONE] = EM_FLOAT64, [PK_BOOL] = EM_BOOL, [PK_INT] = EM_INT64,
        [PK_UINT] = EM_UINT64, [PK_FLOAT] = EM_FLOAT64, [PK_COMPLEX] = EM_COMPLEX128,
    };
    infer_t in;
    pack_t pk;
    PyObject *r;
    em_dtype result, packd;
    em_array a;
    em_status rc;
    int64_t size, strides[EM_MAX_NDIM];
    char *buf;
    int ndim, k;

    if (copy == EMPY_COPY_NEVER) {
        no_copy_error();
        return NULL;
    }
    memset(&in, 0, sizeof in);
    in.leaf_depth = -1;
    k = is_seq(obj) || !needs_python(obj) ? infer(obj, 0, &in) : -2;
    if (k == -2)
        return nested_in_python(st, obj, dtype, dev, order);
    if (k < 0)
        return NULL;
    ndim = in.leaf_depth < 0 ? in.shape_known : in.leaf_depth;
    /* Python ints are int64 when they fit, else uint64; the two together
     * promote to float64, as NumPy 2's discovery does. */
    if (in.big) {
        int pk_int = in.small ? PK_FLOAT : PK_UINT;
        if (in.py_kind == PK_INT)
            in.py_kind = pk_int;
        if (in.kind <= PK_UINT && in.kind >= PK_INT)
            in.kind = pk_int;
    }
    /* Python scalars take their default dtypes here (NumPy's array
     * coercion, unlike its operators, does not treat them as weak). */
    if (!in.have_strong)
        result = pack_dtype[in.py_kind];
    else if (in.py_kind == PK_NONE)
        result = in.strong;
    else if (empy_promote(in.strong, pack_dtype[in.py_kind], &result) < 0)
        return empy_raise(st, EM_ERR_TYPE);
    /* A strong uint64 next to signed values needs float to hold both. */
    if (in.kind == PK_UINT && em_dtype_get(result)->kind == 'f')
        in.kind = PK_FLOAT;
    if (dtype >= 0)
        result = (em_dtype)dtype;
    packd = in.kind == PK_NONE ? result : pack_dtype[in.kind];
    if (em_shape_size(ndim, in.shape, &size) != EM_OK ||
        em_strides_contiguous(ndim, in.shape, (int64_t)em_dtype_size(packd), 'C',
                              strides) != EM_OK)
        return empy_raise(st, EM_ERR_INVALID_VALUE);
    buf = PyMem_Malloc((size_t)size * em_dtype_size(packd) + 16);
    if (!buf)
        return PyErr_NoMemory();
    pk.p = buf;
    pk.pack = in.kind == PK_NONE ? PK_FLOAT : in.kind;
    pk.target = result;
    pk.check_ints = dtype >= 0;
    if (size && pack_values(st, obj, &pk) < 0) {
        PyMem_Free(buf);
        return NULL;
    }
    rc = em_array_empty(dev, packd, ndim, in.shape, 'C', NULL, &a);
    if (rc == EM_OK && size) {
        EMPY_NOGIL(rc, em_array_from_host(&a, buf, strides, NULL));
        if (rc != EM_OK)
            em_array_release(&a);
    }
    PyMem_Free(buf);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    r = empy_ndarray_new(st, &a, NULL);
    if (!r || (result == packd && order != 'F'))
        return r;
    {
        PyObject *f = finish(st, EMPY_ARR(r), r, (int)result, dev, EMPY_COPY_IF_NEEDED,
                             order);
        Py_DECREF(r);
        return f;
    }
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
        t == &PyComplex_Type || is_seq(obj))
        return from_python(st, obj, dtype, dev, copy, order);
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
    if (optional_attr(obj, st->s_array, &iface) < 0)
        return NULL;
    if (iface) {
        /* pandas and friends: their NumPy array, then the buffer. */
        PyObject *h = PyObject_CallNoArgs(iface);
        Py_DECREF(iface);
        if (!h)
            return NULL;
        if (!Py_TYPE(h)->tp_as_buffer || !Py_TYPE(h)->tp_as_buffer->bf_getbuffer) {
            PyErr_Format(PyExc_TypeError, "%.100s.__array__() returned %.100s, "
                         "which has no buffer", t->tp_name, Py_TYPE(h)->tp_name);
            Py_DECREF(h);
            return NULL;
        }
        r = from_buffer(st, h, dtype, dev, copy, order);
        Py_DECREF(h);
        return r;
    }
    if (PySequence_Check(obj) && !PyDict_Check(obj))
        return from_python(st, obj, dtype, dev, copy, order);
    {
        em_operand op;
        int k = empy_scalar_operand(obj, &op);
        if (k < 0)
            return NULL;
        if (k > 0)
            return from_python(st, obj, dtype, dev, copy, order);
    }
    PyErr_Format(PyExc_TypeError, "cannot make an ember array from %.100s",
                 t->tp_name);
    return NULL;
}

/* ---- module functions ---------------------------------------------------- */


#define FASTCALL_ARGS PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames
#define NARGS nargs

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

/* Set every byte of a fresh contiguous array to zero on the stream the
 * array functions use (the current one, when it is dev's). */
static int zero_fill(empy_state *st, const em_array *a)
{
    em_stream *s = em_current_stream();
    size_t n = (size_t)a->size * em_dtype_size(a->dtype);
    em_status rc;
    if (s && em_stream_device(s) != a->device)
        s = NULL;
    if (!n)
        return 0;
    rc = em_memset_async(a->device, a->data, 0, n, s);
    return rc == EM_OK ? 0 : empy_fail(st, rc);
}

/* fill with a Python/NumPy scalar or (broadcast) array-like value. */
static int fill_value(empy_state *st, em_array *a, PyObject *value)
{
    em_operand op;
    em_status rc;
    int k;
    if (!empy_is_ndarray(value)) {
        k = empy_scalar_operand(value, &op);
        if (k < 0)
            return -1;
        if (k > 0) {
            if (empy_check_weak_fits(&op, a->dtype) < 0)
                return -1;
            EMPY_NOGIL(rc, em_array_fill(a, op.value.bytes, op.dtype, NULL));
            return rc == EM_OK ? 0 : empy_fail(st, rc);
        }
    }
    {
        PyObject *v = empy_asarray(st, value, -1, a->device, EMPY_COPY_IF_NEEDED, 'K');
        if (!v)
            return -1;
        if (EMPY_ARR(v)->device != a->device) {
            PyErr_Format(PyExc_ValueError, "fill value on %s for an array on %s",
                         em_device_name(EMPY_ARR(v)->device), em_device_name(a->device));
            Py_DECREF(v);
            return -1;
        }
        EMPY_NOGIL(rc, em_array_copy(a, EMPY_ARR(v), NULL));
        Py_DECREF(v);
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    }
}

/* The dtype full() infers from its fill value. */
static int fill_dtype(empy_state *st, PyObject *value, em_dtype *out)
{
    em_operand op;
    int k;
    if (empy_is_ndarray(value)) {
        *out = EMPY_ARR(value)->dtype;
        return 0;
    }
    k = empy_scalar_operand(value, &op);
    if (k < 0)
        return -1;
    if (k > 0) {
        *out = op.dtype == EM_UINT64 && op.weak ? EM_UINT64 : op.dtype;
        return 0;
    }
    {
        PyObject *v = empy_asarray(st, value, -1, NULL, EMPY_COPY_IF_NEEDED, 'K');
        if (!v)
            return -1;
        *out = EMPY_ARR(v)->dtype;
        Py_DECREF(v);
        return 0;
    }
}

enum { MK_EMPTY, MK_ZEROS, MK_ONES, MK_FULL };

static int init_values(empy_state *st, em_array *a, int kind, PyObject *value)
{
    int64_t one = 1;
    em_status rc;
    switch (kind) {
    case MK_ZEROS:
        return zero_fill(st, a);
    case MK_ONES:
        if (!a->size)
            return 0;
        EMPY_NOGIL(rc, em_array_fill(a, &one, EM_INT64, NULL));
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    case MK_FULL:
        return fill_value(st, a, value);
    default:
        return 0;
    }
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
    if (empy_shape_arg(vals[0], "shape", &ndim, shape) < 0 ||
        dtype_kw(st, v[1], &dt) < 0 || order_kw(v[2], 'C', &order) < 0 ||
        device_kw(st, v[3], &dev) < 0 || unused_like(v[4]) < 0)
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

static PyObject *asarray_common(empy_state *st, PyObject *obj, PyObject *dtype_o,
                                PyObject *device_o, int copy, char order, int ndmin)
{
    em_device *dev = NULL;
    int dt;
    PyObject *r;
    if (dtype_kw(st, dtype_o, &dt) < 0)
        return NULL;
    if (device_o && device_o != Py_None && empy_device_arg(st, device_o, &dev) < 0)
        return NULL;
    r = empy_asarray(st, obj, dt, dev, copy, order);
    if (r && ndmin > EMPY_ARR(r)->ndim) {
        /* Leading extent-1 axes, as NumPy's ndmin. */
        const em_array *a = EMPY_ARR(r);
        int64_t shape[EM_MAX_NDIM];
        int add = ndmin - a->ndim, i;
        em_array v;
        em_status rc;
        if (ndmin > EM_MAX_NDIM) {
            Py_DECREF(r);
            PyErr_Format(PyExc_ValueError, "ndmin bigger than allowable number of "
                         "dimensions %d", EM_MAX_NDIM);
            return NULL;
        }
        for (i = 0; i < add; i++)
            shape[i] = 1;
        memcpy(shape + add, a->shape, (size_t)a->ndim * sizeof *shape);
        rc = em_array_reshape_view(a, ndmin, shape, 'C', &v);
        if (rc != EM_OK) {
            /* A layout reshape refuses: the new axes go in by hand. */
            em_array lay = *a;
            memmove(lay.shape + add, a->shape, (size_t)a->ndim * sizeof *lay.shape);
            memmove(lay.strides + add, a->strides, (size_t)a->ndim * sizeof *lay.strides);
            for (i = 0; i < add; i++) {
                lay.shape[i] = 1;
                lay.strides[i] = 0;
            }
            lay.ndim = ndmin;
            em_array_update_flags(&lay);
            em_array_retain(&lay, &v);
        }
        {
            PyObject *nv = empy_ndarray_new(st, &v, r);
            Py_DECREF(r);
            r = nv;
        }
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
    if (empy_parse_args("asarray", args, NARGS, kwnames, names, 3, 1, vals) < 0 ||
        empy_copy_arg(vals[4], EMPY_COPY_IF_NEEDED, &copy) < 0 ||
        order_kw(vals[2], 'K', &order) < 0 || unused_like(vals[5]) < 0)
        return NULL;
    return asarray_common(st, vals[0], vals[1], vals[3], copy, order, 0);
}

static PyObject *mod_array(FASTCALL_ARGS)
{
    static const char *const names[] = {"object", "dtype", "copy", "order", "subok",
                                        "ndmin", "device", "like", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *vals[8];
    int copy, ndmin = 0;
    char order;
    if (empy_parse_args("array", args, NARGS, kwnames, names, 2, 1, vals) < 0 ||
        empy_copy_arg(vals[2], EMPY_COPY_ALWAYS, &copy) < 0 ||
        order_kw(vals[3], 'K', &order) < 0 || unused_like(vals[7]) < 0)
        return NULL;
    if (vals[5]) {
        ndmin = PyLong_AsLong(vals[5]);
        if (ndmin == -1 && PyErr_Occurred())
            return NULL;
    }
    return asarray_common(st, vals[0], vals[1], vals[6], copy, order, ndmin);
}

static PyObject *mod_ascontiguousarray(FASTCALL_ARGS)
{
    static const char *const names[] = {"a", "dtype", "device", "like", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *vals[4];
    if (empy_parse_args("ascontiguousarray", args, NARGS, kwnames, names, 2, 1, vals) < 0 ||
        unused_like(vals[3]) < 0)
        return NULL;
    /* NumPy gives at least one dimension here. */
    return asarray_common(st, vals[0], vals[1], vals[2], EMPY_COPY_IF_NEEDED, 'C', 1);
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
