/* ember Python extension: ember.ndarray — its attributes, one-element
 * conversions, tolist, copies and casts, and the shape methods (reshape,
 * ravel, transpose, view). Indexing is in ndarray_index.c, the NumPy and
 * CUDA interfaces in ndarray_interop.c, operators in ufuncobj.c.
 *
 * Work is queued on the current stream (the C API's NULL stream); only
 * what hands data to the host (item, tolist, repr) waits, with the GIL
 * released. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

#define NDA(o) ((empy_ndarray *)(o))

_Static_assert(sizeof(Py_ssize_t) == sizeof(int64_t),
               "ember's shapes are exported as Py_ssize_t arrays");

/* ---- making and dropping ----------------------------------------------- */

empy_ndarray *empy_ndarray_hold(empy_ndarray *o, em_array *a)
{
    if (!o) {
        em_array_release(a);
        return NULL;
    }
    o->a = *a;
    em_array_zero(a);
    o->base = NULL;
    o->stream = NULL;
    return o;
}

/* A view of a Python subclass's instance keeps the subclass (NumPy's and
 * CuPy's rule), and runs its __array_finalize__(viewed) when it has one. */
static PyObject *subclass_view(PyTypeObject *tp, em_array *a, PyObject *base)
{
    PyObject *viewed = base, *fin, *r;
    empy_ndarray *o = empy_ndarray_hold((empy_ndarray *)tp->tp_alloc(tp, 0), a);
    if (!o)
        return NULL;
    if (NDA(base)->base)
        base = NDA(base)->base;
    o->base = Py_NewRef(base);
    fin = PyObject_GetAttrString((PyObject *)tp, "__array_finalize__");
    if (!fin) {
        PyErr_Clear();
        return (PyObject *)o;
    }
    r = PyObject_CallFunctionObjArgs(fin, (PyObject *)o, viewed, NULL);
    Py_DECREF(fin);
    if (!r) {
        Py_DECREF(o);
        return NULL;
    }
    Py_DECREF(r);
    return (PyObject *)o;
}

static PyObject *plain_new(empy_state *st, em_array *a, PyObject *base);

PyObject *empy_ndarray_new(empy_state *st, em_array *a, PyObject *base)
{
    if (base && Py_TYPE(base) != st->ndarray && empy_is_ndarray(base))
        return subclass_view(Py_TYPE(base), a, base);
    return plain_new(st, a, base);
}

/* Fresh storage frees on the stream it was made on (the current one),
 * so a non-default Stream object must outlive it. */
static PyObject *keep_stream(empy_state *st, empy_ndarray *o)
{
    em_stream *cur = em_current_stream();
    if (cur && em_stream_device(cur) == o->a.device &&
        cur != em_stream_default(o->a.device)) {
        o->stream = empy_current_stream(st);
        if (!o->stream) {
            Py_DECREF(o);
            return NULL;
        }
    }
    return (PyObject *)o;
}

static PyObject *plain_new(empy_state *st, em_array *a, PyObject *base)
{
    empy_ndarray *o = empy_ndarray_hold(PyObject_New(empy_ndarray, st->ndarray), a);
    if (!o)
        return NULL;
    if (base && empy_is_ndarray(base) && NDA(base)->base)
        base = NDA(base)->base;
    o->base = base ? Py_NewRef(base) : NULL;
    return base ? (PyObject *)o : keep_stream(st, o);
}

empy_ndarray *empy_ndarray_fresh(empy_state *st)
{
    empy_ndarray *o = PyObject_New(empy_ndarray, st->ndarray);
    if (!o)
        return NULL;
    /* Only the fields before the shape: with no storage nothing reads the
     * rest, and every call that makes the array writes all of it (clearing
     * the whole struct here was a twentieth of a recorded operation). */
    memset(&o->a, 0, offsetof(em_array, shape));
    o->base = NULL;
    o->stream = NULL;
    return o;
}

PyObject *empy_ndarray_fresh_done(empy_state *st, empy_ndarray *o)
{
    return keep_stream(st, o);
}

void empy_ndarray_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    /* The storage goes first: its free is ordered on the stream the
     * Stream object below keeps alive. The struct is freed with the
     * object, so it is not cleared. */
    em_array_drop(EMPY_ARR_RAW(self));
    Py_CLEAR(NDA(self)->base);
    Py_CLEAR(NDA(self)->stream);
    tp->tp_free(self);
    Py_DECREF(tp);
}

em_status empy_array_copy_new(const em_array *src, em_device *d, int dtype,
                              char order, em_array *out)
{
    em_status rc;
    if (!d)
        d = src->device;
    rc = em_array_empty(d, dtype < 0 ? src->dtype : (em_dtype)dtype, src->ndim,
                        src->shape, order, NULL, out);
    if (rc != EM_OK)
        return rc;
    /* A transfer waits for the host side, a first copy compiles. */
    EMPY_NOGIL(rc, em_array_copy(out, src, NULL));
    if (rc != EM_OK)
        em_array_release(out);
    return rc;
}

/* A view of self's storage as a new ndarray: v holds no reference yet. */
static PyObject *new_view(PyObject *self, const em_array *v)
{
    em_array r;
    em_array_retain(v, &r);
    return empy_ndarray_new(empy_state_of(self), &r, self);
}

int empy_shape_arg(PyObject *o, const char *what, int *ndim, int64_t *shape)
{
    PyObject *seq;
    Py_ssize_t n, i;
    if (PyIndex_Check(o) && !PyBool_Check(o)) {
        Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_ValueError);
        if (v == -1 && PyErr_Occurred())
            return -1;
        *ndim = 1;
        shape[0] = v;
        return 0;
    }
    seq = PySequence_Fast(o, "");
    if (!seq) {
        PyErr_Format(PyExc_TypeError, "%s must be an int or a tuple of ints, "
                     "not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    n = PySequence_Fast_GET_SIZE(seq);
    if (n > EM_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "maximum supported dimension for an "
                     "ndarray is currently %d, found %zd", EM_MAX_NDIM, n);
        Py_DECREF(seq);
        return -1;
    }
    for (i = 0; i < n; i++) {
        PyObject *e = PySequence_Fast_GET_ITEM(seq, i);
        Py_ssize_t v;
        if (PyBool_Check(e) || !PyIndex_Check(e)) {
            PyErr_Format(PyExc_TypeError, "'%.100s' object cannot be "
                         "interpreted as an integer (in %s)",
                         Py_TYPE(e)->tp_name, what);
            Py_DECREF(seq);
            return -1;
        }
        v = PyNumber_AsSsize_t(e, PyExc_ValueError);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        shape[i] = v;
    }
    *ndim = (int)n;
    Py_DECREF(seq);
    return 0;
}

/* Shapes of methods taking `*shape`: one tuple/list, or the ints. */
static int varshape_arg(PyObject *args, Py_ssize_t start, const char *what,
                        int *ndim, int64_t *shape)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args) - start;
    PyObject *rest;
    int rc;
    if (n == 1)
        return empy_shape_arg(PyTuple_GET_ITEM(args, start), what, ndim, shape);
    rest = PyTuple_GetSlice(args, start, PyTuple_GET_SIZE(args));
    if (!rest)
        return -1;
    rc = empy_shape_arg(rest, what, ndim, shape);
    Py_DECREF(rest);
    return rc;
}

/* 'C', 'F', 'A', 'K' (or None: default) of an order= argument. */
static int order_arg(PyObject *o, const char *allowed, char dflt, char *out)
{
    const char *s;
    if (!o || o == Py_None) {
        *out = dflt;
        return 0;
    }
    s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (!s) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError, "order must be a str, not %.100s",
                         Py_TYPE(o)->tp_name);
        return -1;
    }
    if (strlen(s) != 1 || !strchr(allowed, s[0] & ~0x20)) {
        char list[32];
        size_t i, n = 0;
        for (i = 0; allowed[i] && n + 8 < sizeof list; i++)
            n += (size_t)PyOS_snprintf(list + n, sizeof list - n, "%s'%c'",
                                       i ? ", " : "", allowed[i]);
        PyErr_Format(PyExc_ValueError, "order must be one of %s, not '%s'", list, s);
        return -1;
    }
    *out = (char)(s[0] & ~0x20);
    return 0;
}

/* The memory order that keeps a's layout for order 'K'/'A'. */
static char keep_order(const em_array *a, char order)
{
    if (order == 'C' || order == 'F')
        return order;
    return (a->flags & EM_ARRAY_F_CONTIGUOUS) && !(a->flags & EM_ARRAY_C_CONTIGUOUS)
               ? 'F' : 'C';
}

/* NumPy's order 'K': the axes from the largest |stride| to the smallest,
 * ties kept in axis order (NumPy's PyArray_CreateSortedStridePerm). */
static void stride_perm(const em_array *a, int *perm)
{
    int i, j;
    for (i = 0; i < a->ndim; i++) {
        int64_t si = a->strides[i] < 0 ? -a->strides[i] : a->strides[i];
        for (j = i; j > 0; j--) {
            int64_t sj = a->strides[perm[j - 1]];
            if (sj < 0)
                sj = -sj;
            if (sj >= si)
                break;
            perm[j] = perm[j - 1];
        }
        perm[j] = i;
    }
}

/* A copy of src laid out as NumPy's order 'K' lays it out: memory order
 * of the axes kept, strides positive and dense. */
static em_status copy_keep_layout(const em_array *src, em_device *d, int dtype,
                                  em_array *out)
{
    int perm[EM_MAX_NDIM], i;
    int64_t shape[EM_MAX_NDIM];
    em_array t;
    em_status rc;
    stride_perm(src, perm);
    for (i = 0; i < src->ndim; i++)
        shape[i] = src->shape[perm[i]];
    rc = em_array_empty(d ? d : src->device, dtype < 0 ? src->dtype : (em_dtype)dtype,
                        src->ndim, shape, 'C', NULL, &t);
    if (rc != EM_OK)
        return rc;
    *out = t;
    for (i = 0; i < src->ndim; i++) {
        out->shape[perm[i]] = t.shape[i];
        out->strides[perm[i]] = t.strides[i];
    }
    em_array_update_flags(out);
    EMPY_NOGIL(rc, em_array_copy(out, src, NULL));
    if (rc != EM_OK)
        em_array_release(out);
    return rc;
}

em_status empy_array_copy_order(const em_array *src, em_device *d, int dtype,
                               char order, em_array *out)
{
    if (order == 'K' && !(src->flags & (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS)))
        return copy_keep_layout(src, d, dtype, out);
    return empy_array_copy_new(src, d, dtype, keep_order(src, order), out);
}

/* ---- attributes -------------------------------------------------------- */

static PyObject *tuple_of(int n, const int64_t *v)
{
    PyObject *t = PyTuple_New(n);
    int i;
    if (!t)
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *get_shape(PyObject *self, void *c)
{
    return tuple_of(NDA(self)->a.ndim, NDA(self)->a.shape);
}

/* NumPy's in-place a.shape = ...: only as a C-order view of the same
 * memory (never a copy, so views of a keep seeing it); NumPy 2.4 neither
 * warns nor takes another order here. */
static int set_shape(PyObject *self, PyObject *value, void *c)
{
    int64_t shape[EM_MAX_NDIM];
    em_array *a;
    em_status rc;
    int ndim;
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "Cannot delete array shape");
        return -1;
    }
    if (empy_shape_arg(value, "shape", &ndim, shape) < 0)
        return -1;
    a = EMPY_ARR(self);
    rc = em_array_reshape_view(a, ndim, shape, 'C', a);
    if (rc == EM_ERR_NOT_SUPPORTED) {
        PyErr_SetString(PyExc_AttributeError, "Incompatible shape for in-place "
                        "modification. Use `.reshape()` to make a copy with "
                        "the desired shape.");
        return -1;
    }
    return rc == EM_OK ? 0 : empy_fail(empy_state_of(self), rc);
}

static PyObject *get_strides(PyObject *self, void *c)
{
    return tuple_of(NDA(self)->a.ndim, NDA(self)->a.strides);
}

static PyObject *get_ndim(PyObject *self, void *c)
{
    return PyLong_FromLong(NDA(self)->a.ndim);
}

/* Above NumPy's 0 so that a mixed NumPy/ember pair of chunks takes ember's
   type in Dask's routines (tensordot, solve), below dask.array's 11 so a
   Dask array and an ember array combine into a Dask array. */
static PyObject *get_array_priority(PyObject *self, void *c)
{
    return PyFloat_FromDouble(10.0);
}

static PyObject *get_size(PyObject *self, void *c)
{
    return PyLong_FromLongLong(NDA(self)->a.size);
}

static PyObject *get_itemsize(PyObject *self, void *c)
{
    return PyLong_FromSize_t(em_dtype_size(NDA(self)->a.dtype));
}

static PyObject *get_nbytes(PyObject *self, void *c)
{
    return PyLong_FromLongLong(NDA(self)->a.size *
                               (int64_t)em_dtype_size(NDA(self)->a.dtype));
}

static PyObject *get_dtype(PyObject *self, void *c)
{
    return Py_NewRef(empy_dtype_obj(empy_state_of(self), NDA(self)->a.dtype));
}

static PyObject *get_device(PyObject *self, void *c)
{
    return empy_device_new(empy_state_of(self), NDA(self)->a.device);
}

static PyObject *get_base(PyObject *self, void *c)
{
    return Py_NewRef(NDA(self)->base ? NDA(self)->base : Py_None);
}

static PyObject *transposed(PyObject *self, const int *perm)
{
    em_array v;
    em_status rc = em_array_transpose(EMPY_ARR(self), perm, &v);
    if (rc != EM_OK)
        return empy_raise(empy_state_of(self), rc);
    return empy_ndarray_new(empy_state_of(self), &v, self);
}

static PyObject *get_T(PyObject *self, void *c)
{
    return transposed(self, NULL);
}

/* One component of complex elements as a view (real: offset 0, imag:
 * the second half); real arrays are their own real part and have a
 * read-only zero imaginary part, as in NumPy. */
static PyObject *component(PyObject *self, int imag)
{
    empy_state *st = empy_state_of(self);
    const em_array *a = EMPY_ARR(self);
    em_array v;
    em_dtype part;
    if (em_dtype_get(a->dtype)->kind != 'c') {
        PyObject *z;
        em_status rc;
        if (!imag)
            return Py_NewRef(self);
        rc = em_array_empty(a->device, a->dtype, a->ndim, a->shape, 'C', NULL, &v);
        if (rc != EM_OK)
            return empy_raise(st, rc);
        z = empy_ndarray_new(st, &v, NULL);
        if (z && EMPY_ARR(z)->size) {
            em_stream *s = em_current_stream();
            if (s && em_stream_device(s) != a->device)
                s = NULL;
            rc = em_memset_async(a->device, EMPY_ARR(z)->data, 0,
                                 (size_t)EMPY_ARR(z)->size * em_dtype_size(a->dtype), s);
            if (rc != EM_OK) {
                Py_DECREF(z);
                return empy_raise(st, rc);
            }
        }
        if (z)
            EMPY_ARR(z)->flags &= ~(unsigned)EM_ARRAY_WRITEABLE;
        return z;
    }
    part = a->dtype == EM_COMPLEX64 ? EM_FLOAT32 : EM_FLOAT64;
    v = *a;
    v.dtype = part;
    if (imag)
        v.data += em_dtype_size(part);
    em_array_update_flags(&v);
    return new_view(self, &v);
}

static PyObject *get_real(PyObject *self, void *c)
{
    return component(self, 0);
}

static PyObject *get_imag(PyObject *self, void *c)
{
    return component(self, 1);
}

/* ---- cold methods and properties ---------------------------------------- */

/* a.flags: a Python snapshot (ember._api.flags) of the layout bits. */
static PyObject *get_flags(PyObject *self, void *c)
{
    unsigned f = NDA(self)->a.flags;
    PyObject *r, *args = Py_BuildValue(
        "(iiiii)", (f & EM_ARRAY_C_CONTIGUOUS) != 0, (f & EM_ARRAY_F_CONTIGUOUS) != 0,
        NDA(self)->base == NULL, (f & EM_ARRAY_WRITEABLE) != 0, (f & EM_ARRAY_ALIGNED) != 0);
    if (!args)
        return NULL;
    r = empy_call_python("ember._api.flags", "flagsobj", self, args, NULL);
    Py_DECREF(args);
    return r;
}

/* Cold methods, composition over the C ones: python/ember/_api/ (ndarray_methods,
 * array_print, tolist, flatiter, dispatch, ufunc_dispatch). */
#define METHODS "ember._api.ndarray_methods"
EMPY_PY_METHOD(nd_swapaxes, METHODS, "swapaxes")
EMPY_PY_METHOD(nd_squeeze, METHODS, "squeeze")
EMPY_PY_METHOD(nd_conj, METHODS, "conj")
EMPY_PY_METHOD(nd_deepcopy, METHODS, "deepcopy")
EMPY_PY_METHOD(nd_flatten, METHODS, "flatten")
EMPY_PY_METHOD(nd_to_device, METHODS, "to_device")
EMPY_PY_METHOD(nd_complex, METHODS, "complex_")
EMPY_PY_METHOD(nd_format, METHODS, "format_")
EMPY_PY_METHOD(nd_array_namespace, METHODS, "array_namespace")
EMPY_PY_METHOD(nd_array_function, "ember._api.dispatch", "array_function")
EMPY_PY_METHOD(nd_array_ufunc, "ember._api.ufunc_dispatch", "array_ufunc")
EMPY_PY_METHOD(nd_reduce, "ember._api.array_print", "array_reduce")
EMPY_PY_METHOD(nd_item, "ember._api.tolist", "item")
EMPY_PY_METHOD(nd_tolist, "ember._api.tolist", "tolist")
static const empy_pyattr cold_mT = {METHODS, "mT"},
                         cold_flat = {"ember._api.flatiter", "flatiter"},
                         cold_repr = {"ember._api.array_print", "array_repr"},
                         cold_str = {"ember._api.array_print", "array_str"};

static PyObject *nd_repr(PyObject *self)
{
    return empy_py_getter(self, (void *)&cold_repr);
}

static PyObject *nd_str(PyObject *self)
{
    return empy_py_getter(self, (void *)&cold_str);
}

/* `x in a`: NumPy's (a == x).any(), in ndarray_methods.contains; without
 * this slot Python would iterate a row by row. */
static int nd_contains(PyObject *self, PyObject *x)
{
    PyObject *args = PyTuple_Pack(1, x), *r;
    int t;
    if (!args)
        return -1;
    r = empy_call_python(METHODS, "contains", self, args, NULL);
    Py_DECREF(args);
    if (!r)
        return -1;
    t = PyObject_IsTrue(r);
    Py_DECREF(r);
    return t;
}

/* ---- one element ------------------------------------------------------- */

/* The whole of a (C order) into host memory at buf. */
static int copy_to_host(empy_state *st, const em_array *a, void *buf)
{
    int64_t strides[EM_MAX_NDIM + 1];
    em_status rc;
    rc = em_strides_contiguous(a->ndim, a->shape, (int64_t)em_dtype_size(a->dtype),
                               'C', strides);
    if (rc == EM_OK)
        EMPY_NOGIL(rc, em_array_to_host(a, buf, strides, NULL));
    return rc == EM_OK ? 0 : empy_fail(st, rc);
}

/* The only element of a size-1 array as a Python scalar. */
static PyObject *one_item(PyObject *self, PyObject *exc, const char *why)
{
    const em_array *a = EMPY_ARR(self);
    unsigned char buf[16];
    if (a->size != 1) {
        PyErr_SetString(exc, why);
        return NULL;
    }
    if (copy_to_host(empy_state_of(self), a, buf) < 0)
        return NULL;
    return empy_item_to_py(a->dtype, buf);
}

static const char only_one[] = "only length-1 arrays can be converted to "
                               "Python scalars";
/* NumPy 2.4's int(), float() and complex(): a one-element array of ndim > 0
 * is refused too (deprecated since NumPy 1.25), where bool() still takes it */
static const char only_0d[] = "only 0-dimensional arrays can be converted to "
                              "Python scalars";

static PyObject *scalar_item(PyObject *self)
{
    if (EMPY_ARR(self)->ndim != 0) {
        PyErr_SetString(PyExc_TypeError, only_0d);
        return NULL;
    }
    return one_item(self, PyExc_TypeError, only_one);
}

static int nd_bool(PyObject *self)
{
    const em_array *a = EMPY_ARR(self);
    PyObject *v;
    int r;
    if (a->size != 1) {
        PyErr_SetString(PyExc_ValueError, a->size == 0
            ? "The truth value of an empty array is ambiguous. Use "
              "`array.size > 0` to check that an array is not empty."
            : "The truth value of an array with more than one element is "
              "ambiguous. Use a.any() or a.all()");
        return -1;
    }
    if (!(v = one_item(self, PyExc_TypeError, only_one)))
        return -1;
    r = PyObject_IsTrue(v);
    Py_DECREF(v);
    return r;
}

static PyObject *nd_int(PyObject *self)
{
    PyObject *v = scalar_item(self), *r;
    if (!v)
        return NULL;
    r = PyNumber_Long(v);
    Py_DECREF(v);
    return r;
}

static PyObject *nd_float(PyObject *self)
{
    PyObject *v = scalar_item(self), *r;
    if (!v)
        return NULL;
    r = PyNumber_Float(v);
    Py_DECREF(v);
    return r;
}

static PyObject *nd_index(PyObject *self)
{
    const em_array *a = EMPY_ARR(self);
    char kind = em_dtype_get(a->dtype)->kind;
    if (a->ndim != 0 || (kind != 'i' && kind != 'u')) {
        PyErr_SetString(PyExc_TypeError, "only integer scalar arrays can be "
                        "converted to a scalar index");
        return NULL;
    }
    return one_item(self, PyExc_TypeError, only_one);
}

/* ---- copies and casts -------------------------------------------------- */

static PyObject *copy_as(PyObject *self, int dtype, char order)
{
    empy_state *st = empy_state_of(self);
    em_array out;
    em_status rc = empy_array_copy_order(EMPY_ARR(self), NULL, dtype, order, &out);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, &out, NULL);
}

static PyObject *nd_copy(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"order", NULL};
    PyObject *order_o = NULL;
    char order;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:copy", kwlist, &order_o) ||
        order_arg(order_o, "CFAK", 'C', &order) < 0)
        return NULL;
    return copy_as(self, -1, order);
}

static PyObject *nd_astype(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"dtype", "order", "casting", "subok", "copy", "device",
                             NULL};
    empy_state *st = empy_state_of(self);
    PyObject *dt, *order_o = NULL, *subok = NULL, *copy_o = Py_True, *dev_o = Py_None;
    const char *casting = "unsafe";
    em_dtype d;
    em_device *dev = NDA(self)->a.device;
    char order;
    int copy;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OsOOO:astype", kwlist, &dt,
                                     &order_o, &casting, &subok, &copy_o, &dev_o) ||
        empy_dtype_arg(st, dt, &d) < 0 || order_arg(order_o, "CFAK", 'K', &order) < 0)
        return NULL;
    if (strcmp(casting, "unsafe")) {
        int ok = empy_can_cast(NDA(self)->a.dtype, d, casting);
        if (ok < 0)
            return NULL;
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "Cannot cast array data from "
                         "dtype('%s') to dtype('%s') according to the rule '%s'",
                         em_dtype_get(NDA(self)->a.dtype)->name,
                         em_dtype_get(d)->name, casting);
            return NULL;
        }
    }
    if ((copy = PyObject_IsTrue(copy_o)) < 0)
        return NULL;
    if (em_dtype_get(NDA(self)->a.dtype)->kind == 'c' && em_dtype_get(d)->kind != 'c' &&
        PyErr_WarnEx(empy_np_exc(st, EMPY_EXC_COMPLEX_WARNING), "Casting complex "
                     "values to real discards the imaginary part", 1) < 0)
        return NULL;
    if (dev_o != Py_None && empy_device_arg(st, dev_o, &dev) < 0)
        return NULL;
    if (!copy && d == NDA(self)->a.dtype && dev == NDA(self)->a.device)
        return Py_NewRef(self);
    {
        em_array out;
        em_status rc = empy_array_copy_order(EMPY_ARR(self), dev, (int)d, order, &out);
        if (rc != EM_OK)
            return empy_raise(st, rc);
        return empy_ndarray_new(st, &out, NULL);
    }
}

static PyObject *nd_fill(PyObject *self, PyObject *value)
{
    empy_state *st = empy_state_of(self);
    em_array *a = EMPY_ARR(self);
    em_operand op;
    em_status rc;
    int k;
    if (!(a->flags & EM_ARRAY_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return NULL;
    }
    if (empy_is_ndarray(value)) {
        /* NumPy's fill takes a one-element array as its value. */
        const em_array *v = EMPY_ARR(value);
        if (v->size != 1) {
            PyErr_SetString(PyExc_ValueError, "fill() needs a scalar or a "
                            "one-element array");
            return NULL;
        }
        EMPY_NOGIL(rc, em_array_copy(a, v, NULL));
        if (rc != EM_OK)
            return empy_raise(st, rc);
        Py_RETURN_NONE;
    }
    k = empy_scalar_operand(value, &op);
    if (k < 0)
        return NULL;
    if (k == 0) {
        PyErr_Format(PyExc_TypeError, "fill() needs a number, not %.100s",
                     Py_TYPE(value)->tp_name);
        return NULL;
    }
    if (empy_check_weak_fits(&op, a->dtype) < 0)
        return NULL;
    EMPY_NOGIL(rc, em_array_fill(a, op.value.bytes, op.dtype, NULL));
    if (rc != EM_OK)
        return empy_raise(st, rc);
    Py_RETURN_NONE;
}

/* ---- shape methods ------------------------------------------------------ */

static PyObject *reshape_impl(PyObject *self, int ndim, const int64_t *shape,
                              char order, int copy)
{
    empy_state *st = empy_state_of(self);
    const em_array *a = EMPY_ARR(self);
    em_array v, c;
    em_status rc;
    if (order == 'A')
        order = (a->flags & EM_ARRAY_F_CONTIGUOUS) && !(a->flags & EM_ARRAY_C_CONTIGUOUS)
                    ? 'F' : 'C';
    if (copy != EMPY_COPY_ALWAYS) {
        rc = em_array_reshape_view(a, ndim, shape, order, &v);
        if (rc == EM_OK)
            return empy_ndarray_new(st, &v, self);
        if (rc != EM_ERR_NOT_SUPPORTED)
            return empy_raise(st, rc);
        if (copy == EMPY_COPY_NEVER) {
            PyErr_SetString(PyExc_ValueError, "Unable to avoid creating a copy "
                            "while reshaping.");
            return NULL;
        }
    }
    /* A copy in the index order is contiguous in it, so the view of the
     * copy always exists. */
    rc = empy_array_copy_new(a, NULL, -1, order, &c);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    rc = em_array_reshape_view(&c, ndim, shape, order, &c);
    if (rc != EM_OK) {
        em_array_release(&c);
        return empy_raise(st, rc);
    }
    return empy_ndarray_new(st, &c, NULL);
}

/* Pull the named keyword arguments out of kw (borrowed); any other name
 * is a TypeError naming the function. */
static int take_kwargs(PyObject *kw, const char *fname, const char *const *names,
                       PyObject **vals)
{
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    if (!kw)
        return 0;
    while (PyDict_Next(kw, &pos, &k, &v)) {
        const char *ks = PyUnicode_AsUTF8(k);
        int i, found = 0;
        if (!ks)
            return -1;
        for (i = 0; names[i]; i++) {
            if (!strcmp(ks, names[i])) {
                vals[i] = v;
                found = 1;
            }
        }
        if (!found) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword "
                         "argument '%s'", fname, ks);
            return -1;
        }
    }
    return 0;
}

static PyObject *nd_reshape(PyObject *self, PyObject *args, PyObject *kw)
{
    static const char *const names[] = {"order", "copy", "shape", NULL};
    PyObject *vals[3] = {NULL, NULL, NULL};
    int64_t shape[EM_MAX_NDIM];
    int ndim, copy;
    char order;
    if (take_kwargs(kw, "reshape", names, vals) < 0 ||
        order_arg(vals[0], "CFA", 'C', &order) < 0 ||
        empy_copy_arg(vals[1], EMPY_COPY_IF_NEEDED, &copy) < 0)
        return NULL;
    if (vals[2]) {
        if (PyTuple_GET_SIZE(args)) {
            PyErr_SetString(PyExc_TypeError, "reshape() got the shape both as "
                            "arguments and as shape=");
            return NULL;
        }
        if (empy_shape_arg(vals[2], "shape", &ndim, shape) < 0)
            return NULL;
    } else if (PyTuple_GET_SIZE(args) == 0) {
        PyErr_SetString(PyExc_TypeError, "reshape() missing the new shape");
        return NULL;
    } else if (varshape_arg(args, 0, "shape", &ndim, shape) < 0) {
        return NULL;
    }
    return reshape_impl(self, ndim, shape, order, copy);
}

/* NumPy's ravel: a view only when the elements already lie densely in the
 * asked order (for 'K': in memory order, ignoring extent-1 axes), else a
 * copy in that order; 'K' copies in memory order. (flatten copies its
 * views: _api/ndarray_methods.py.) */
static PyObject *ravel_impl(PyObject *self, char order)
{
    const em_array *a = EMPY_ARR(self);
    int64_t n = -1;
    int perm[EM_MAX_NDIM], i;
    if (order == 'A')
        order = keep_order(a, 'A');
    if (order == 'K') {
        if (a->flags & EM_ARRAY_C_CONTIGUOUS)
            order = 'C';
        else if (a->flags & EM_ARRAY_F_CONTIGUOUS)
            order = 'F';
    }
    if ((order == 'C' && (a->flags & EM_ARRAY_C_CONTIGUOUS)) ||
        (order == 'F' && (a->flags & EM_ARRAY_F_CONTIGUOUS)))
        return reshape_impl(self, 1, &n, order, EMPY_COPY_NEVER);
    if (order != 'K')
        return reshape_impl(self, 1, &n, order, EMPY_COPY_ALWAYS);
    stride_perm(a, perm);
    {
        int64_t want = (int64_t)em_dtype_size(a->dtype);
        for (i = a->ndim - 1; i >= 0; i--) {
            if (a->shape[perm[i]] == 1)
                continue;
            if (a->strides[perm[i]] != want)
                break;
            want *= a->shape[perm[i]];
        }
        if (i < 0) {
            em_array v = *a;
            v.ndim = 1;
            v.shape[0] = a->size;
            v.strides[0] = (int64_t)em_dtype_size(a->dtype);
            em_array_update_flags(&v);
            return new_view(self, &v);
        }
    }
    {
        /* Memory order is C order of the axes permuted by perm. */
        empy_state *st = empy_state_of(self);
        em_array t, c;
        em_status rc = em_array_transpose(a, perm, &t);
        if (rc != EM_OK)
            return empy_raise(st, rc);
        rc = empy_array_copy_new(&t, NULL, -1, 'C', &c);
        em_array_release(&t);
        if (rc == EM_OK)
            rc = em_array_reshape_view(&c, 1, &n, 'C', &c);
        if (rc != EM_OK) {
            em_array_release(&c);
            return empy_raise(st, rc);
        }
        return empy_ndarray_new(st, &c, NULL);
    }
}

static PyObject *nd_ravel(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"order", NULL};
    PyObject *order_o = NULL;
    char order;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:ravel", kwlist, &order_o) ||
        order_arg(order_o, "CFAK", 'C', &order) < 0)
        return NULL;
    return ravel_impl(self, order);
}

/* Axis i of an ndim-d array, negative counting from the end; AxisError
 * otherwise. */
static int norm_axis(empy_state *st, Py_ssize_t ax, int ndim, int *out)
{
    if (ax < -ndim || ax >= ndim) {
        PyErr_Format(empy_np_exc(st, EMPY_EXC_AXIS), "axis %zd is out of bounds for array of "
                     "dimension %d", ax, ndim);
        return -1;
    }
    *out = (int)(ax < 0 ? ax + ndim : ax);
    return 0;
}

static PyObject *nd_transpose(PyObject *self, PyObject *args)
{
    empy_state *st = empy_state_of(self);
    int64_t axes[EM_MAX_NDIM];
    int perm[EM_MAX_NDIM], n, i, nd = NDA(self)->a.ndim;
    unsigned char seen[EM_MAX_NDIM];
    Py_ssize_t na = PyTuple_GET_SIZE(args);
    if (na == 0 || (na == 1 && PyTuple_GET_ITEM(args, 0) == Py_None))
        return transposed(self, NULL);
    if (varshape_arg(args, 0, "axes", &n, axes) < 0)
        return NULL;
    if (n != nd) {
        PyErr_SetString(PyExc_ValueError, "axes don't match array");
        return NULL;
    }
    memset(seen, 0, sizeof seen);
    for (i = 0; i < n; i++) {
        if (norm_axis(st, (Py_ssize_t)axes[i], nd, &perm[i]) < 0)
            return NULL;
        if (seen[perm[i]]++) {
            PyErr_SetString(PyExc_ValueError, "repeated axis in transpose");
            return NULL;
        }
    }
    return transposed(self, perm);
}

static PyObject *nd_view(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"dtype", "type", NULL};
    empy_state *st = empy_state_of(self);
    PyObject *dt = Py_None, *type = Py_None;
    em_array v;
    em_dtype d;
    em_status rc;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:view", kwlist, &dt, &type))
        return NULL;
    /* view(SomeType) with SomeType ember.ndarray or a subclass asks for a
     * view of that type (NumPy's a.view(MyArr)). */
    if (dt != Py_None && PyType_Check(dt) &&
        PyType_IsSubtype((PyTypeObject *)dt, st->ndarray)) {
        type = dt;
        dt = Py_None;
    }
    if (type != Py_None && !(PyType_Check(type) &&
                             PyType_IsSubtype((PyTypeObject *)type, st->ndarray))) {
        PyErr_Format(PyExc_TypeError, "view(type=) needs ember.ndarray or a "
                     "subclass of it, not %R", type);
        return NULL;
    }
    if (type != Py_None && type != (PyObject *)Py_TYPE(self)) {
        em_array r;
        if (dt == Py_None) {
            em_array_retain(EMPY_ARR(self), &r);
        } else {
            if (empy_dtype_arg(st, dt, &d) < 0)
                return NULL;
            rc = em_array_view_dtype(EMPY_ARR(self), d, &r);
            if (rc != EM_OK)
                return empy_raise(st, rc);
        }
        if (type == (PyObject *)st->ndarray)
            return plain_new(st, &r, self);   /* a subclass's view as the plain type */
        return subclass_view((PyTypeObject *)type, &r, self);
    }
    if (dt == Py_None)
        return new_view(self, EMPY_ARR(self));
    if (empy_dtype_arg(st, dt, &d) < 0) {
        /* a structured dtype: python/ember/_struct_array.py's view */
        PyObject *t = PyTuple_Pack(2, self, dt), *r;
        if (!t)
            return NULL;
        r = empy_struct_fallback("view", t, NULL);
        Py_DECREF(t);
        return r;
    }
    rc = em_array_view_dtype(EMPY_ARR(self), d, &v);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, &v, self);
}

/* ---- sequence and misc ---------------------------------------------------- */

static Py_ssize_t nd_len(PyObject *self)
{
    if (NDA(self)->a.ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of unsized object");
        return -1;
    }
    return (Py_ssize_t)NDA(self)->a.shape[0];
}

static PyObject *nd_iter(PyObject *self)
{
    if (NDA(self)->a.ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "iteration over a 0-d array");
        return NULL;
    }
    return PySeqIter_New(self);
}


static PyMethodDef nd_methods[] = {
    {"item", EMPY_FASTKW(nd_item), "item(*args): one element as a Python scalar (copied to "
                          "the host)."},
    {"tolist", EMPY_FASTKW(nd_tolist), "The elements as nested Python lists."},
    {"copy", (PyCFunction)(void (*)(void))nd_copy, METH_VARARGS | METH_KEYWORDS,
     "copy(order='C'): a new array on the same device."},
    {"__copy__", (PyCFunction)(void (*)(void))nd_copy, METH_VARARGS | METH_KEYWORDS, NULL},
    {"__deepcopy__", EMPY_FASTKW(nd_deepcopy), NULL},
    {"astype", (PyCFunction)(void (*)(void))nd_astype, METH_VARARGS | METH_KEYWORDS,
     "astype(dtype, order='K', casting='unsafe', subok=True, copy=True): the "
     "elements cast to dtype."},
    {"fill", nd_fill, METH_O, "fill(value): set every element to value."},
    {"to_device", EMPY_FASTKW(nd_to_device),
     "to_device(device): the array on device (itself if already there)."},
    {"reshape", (PyCFunction)(void (*)(void))nd_reshape, METH_VARARGS | METH_KEYWORDS,
     "reshape(*shape, order='C', copy=None): a view when the layout allows, "
     "else a copy."},
    {"ravel", (PyCFunction)(void (*)(void))nd_ravel, METH_VARARGS | METH_KEYWORDS,
     "ravel(order='C'): a 1-d view when possible, else a copy."},
    {"flatten", EMPY_FASTKW(nd_flatten),
     "flatten(order='C'): a 1-d copy."},
    {"transpose", nd_transpose, METH_VARARGS,
     "transpose(*axes): the axes permuted (reversed by default)."},
    {"swapaxes", EMPY_FASTKW(nd_swapaxes), "swapaxes(axis1, axis2)."},
    {"squeeze", EMPY_FASTKW(nd_squeeze), "squeeze(axis=None): drop extent-1 axes."},
    {"view", (PyCFunction)(void (*)(void))nd_view, METH_VARARGS | METH_KEYWORDS,
     "view(dtype=None): the same memory as another dtype of the same size."},
    {"__complex__", EMPY_FASTKW(nd_complex), NULL},
    {"__format__", EMPY_FASTKW(nd_format), NULL},
    {"conj", EMPY_FASTKW(nd_conj), "The complex conjugate (itself for real arrays)."},
    {"conjugate", EMPY_FASTKW(nd_conj), "The complex conjugate."},
    {"__array_namespace__", EMPY_FASTKW(nd_array_namespace), "The Array API namespace: ember."},
    {"__reduce__", EMPY_FASTKW(nd_reduce), NULL},
    {"__array_ufunc__", EMPY_FASTKW(nd_array_ufunc),
     "NumPy's ufuncs called on ember arrays run in ember (method __call__)."},
    {"__array_function__", EMPY_FASTKW(nd_array_function),
     "NumPy's functions called on ember arrays run ember's function of the same "
     "name, or raise TypeError."},
    {"get", (PyCFunction)(void (*)(void))empy_nd_get, METH_VARARGS | METH_KEYWORDS,
     "get(stream=None, out=None): a NumPy copy on the host."},
    {"set", (PyCFunction)(void (*)(void))empy_nd_set, METH_VARARGS | METH_KEYWORDS,
     "set(arr, stream=None): copy the NumPy array arr (same dtype and shape) "
     "into this array, as CuPy's."},
    {"__array__", (PyCFunction)(void (*)(void))empy_nd_array,
     METH_VARARGS | METH_KEYWORDS,
     "__array__(dtype=None, copy=None): for numpy.asarray (zero-copy on cpu)."},
    {NULL},
};

static PyGetSetDef nd_getset[] = {
    {"shape", get_shape, set_shape, "The extents, a tuple of ints; assigning one "
     "reshapes in place where a view can.", NULL},
    {"strides", get_strides, NULL, "Bytes between elements along each axis.", NULL},
    {"ndim", get_ndim, NULL, "Number of axes.", NULL},
    {"__array_priority__", get_array_priority, NULL,
     "10.0: ember's type wins over NumPy's in mixed operations.", NULL},
    {"size", get_size, NULL, "Number of elements.", NULL},
    {"itemsize", get_itemsize, NULL, "Bytes per element.", NULL},
    {"nbytes", get_nbytes, NULL, "size * itemsize.", NULL},
    {"dtype", get_dtype, NULL, "The element type.", NULL},
    {"device", get_device, NULL, "The ember.Device the array lives on.", NULL},
    {"base", get_base, NULL, "The array (or foreign object) whose memory this "
                             "views, or None.", NULL},
    {"T", get_T, NULL, "The transpose (a view).", NULL},
    {"mT", empy_py_getter, NULL, "The transpose of the last two axes (a view).",
     (void *)&cold_mT},
    {"real", get_real, NULL, "The real parts (a view for complex arrays).", NULL},
    {"imag", get_imag, NULL, "The imaginary parts (a view for complex arrays).", NULL},
    {"flags", get_flags, NULL, "C_CONTIGUOUS, F_CONTIGUOUS, WRITEABLE, ...", NULL},
    {"__array_interface__", empy_nd_array_interface, NULL,
     "NumPy's array interface (cpu arrays only).", NULL},
    {"__cuda_array_interface__", empy_nd_cuda_array_interface, NULL,
     "The CUDA array interface, version 3 (cuda arrays only).", NULL},
    {"data", empy_nd_get_data, NULL, "An ember.cuda.MemoryPointer to the first "
                                     "element (CuPy's; on cpu a host address).", NULL},
    {"flat", empy_py_getter, NULL, "A flatiter: the elements in C order, "
                                   "indexable and assignable.", (void *)&cold_flat},
    {NULL},
};

#define MAX_SLOTS 80

static PyType_Slot nd_base_slots[] = {
    {Py_tp_dealloc, empy_ndarray_dealloc},
    {Py_tp_repr, nd_repr},
    {Py_tp_str, nd_str},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_tp_iter, nd_iter},
    {Py_tp_methods, nd_methods},
    {Py_tp_getset, nd_getset},
    {Py_mp_length, nd_len},
    {Py_mp_subscript, empy_ndarray_subscript},
    {Py_mp_ass_subscript, empy_ndarray_ass_subscript},
    {Py_sq_length, nd_len},
    {Py_sq_item, empy_ndarray_item},
    {Py_sq_contains, nd_contains},
    {Py_nb_bool, nd_bool},
    {Py_nb_int, nd_int},
    {Py_nb_float, nd_float},
    {Py_nb_index, nd_index},
    {Py_bf_getbuffer, empy_ndarray_getbuffer},
    {Py_bf_releasebuffer, empy_ndarray_releasebuffer},
    {Py_tp_richcompare, empy_ndarray_richcompare},
    {Py_tp_new, empy_ndarray_tp_new},
    {Py_tp_doc, "ndarray(shape, dtype=float, memptr=None, strides=None, "
                "order='C'): an n-dimensional array on one device ('cpu' or "
                "'cuda:N'), with NumPy's semantics, over memptr (an "
                "ember.cuda.MemoryPointer) or fresh memory on the current "
                "device, as CuPy's. Usually made by ember.asarray, ember.zeros, "
                "ember.arange, ...; Python subclasses keep their type in views."},
    {0, NULL},
};

static PyType_Slot nd_slots[MAX_SLOTS];

/* nd_methods followed by every family's methods (ndarray.h), built once. */
#define MAX_METHODS 160
static PyMethodDef nd_all_methods[MAX_METHODS];

static int gather_methods(void)
{
    PyMethodDef *tables[] = {nd_methods, empy_reduction_nd_methods,
                             empy_linalg_nd_methods, empy_manip_nd_methods,
                             empy_indexfn_nd_methods, empy_dlpack_nd_methods,
                             empy_python_nd_methods, empy_memory_nd_methods};
    size_t n = 0, t, i;
    for (t = 0; t < sizeof tables / sizeof *tables; t++)
        for (i = 0; tables[t][i].ml_name; i++) {
            if (n + 1 >= MAX_METHODS) {
                PyErr_SetString(PyExc_SystemError, "ember: raise MAX_METHODS");
                return -1;
            }
            nd_all_methods[n++] = tables[t][i];
        }
    nd_all_methods[n].ml_name = NULL;
    return 0;
}

static PyType_Spec nd_spec = {
    "ember.ndarray", sizeof(empy_ndarray), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | EMPY_TPFLAGS_IMMUTABLE, nd_slots,
};

int empy_ndarray_init(PyObject *m, empy_state *st)
{
    size_t n = 0, i;
    if (gather_methods() < 0)
        return -1;
    /* The operator slots live with the ufuncs (ufuncobj.c). */
    for (i = 0; nd_base_slots[i].slot; i++) {
        nd_slots[n] = nd_base_slots[i];
        if (nd_slots[n].slot == Py_tp_methods)
            nd_slots[n].pfunc = nd_all_methods;
        n++;
    }
    for (i = 0; empy_ndarray_number_slots[i].slot && n + 1 < MAX_SLOTS; i++)
        nd_slots[n++] = empy_ndarray_number_slots[i];
    nd_slots[n].slot = 0;
    nd_slots[n].pfunc = NULL;
    /* AxisError and NumPy's other exception classes are errors.c's. */
    return empy_add_type(m, &nd_spec, NULL, &st->ndarray);
}
