/* ember Python extension: an ndarray's memory as CuPy names it: a.data (a
 * MemoryPointer to the first element), the constructor
 * ember.ndarray(shape, dtype, memptr, strides, order) over a MemoryPointer
 * or fresh memory; a.byteswap() is Python's (_api/ndarray_methods.py).
 * The pointer types are memptr.c's. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"
#include "runtime/memptr.h"

/* ---- a.data ---------------------------------------------------------------- */

/* The lowest and one-past-highest byte offsets of a's elements from a->data. */
static int span(const em_array *a, int64_t *lo, int64_t *hi)
{
    int i;
    *lo = 0;
    *hi = a->size ? (int64_t)em_dtype_size(a->dtype) : 0;
    for (i = 0; i < a->ndim && a->size; i++) {
        int64_t ext;
        if (__builtin_mul_overflow(a->shape[i] - 1, a->strides[i], &ext) ||
            __builtin_add_overflow(ext < 0 ? *lo : *hi, ext, ext < 0 ? lo : hi))
            return -1;
    }
    return 0;
}

static int span_checked(const em_array *a, int64_t *lo, int64_t *hi)
{
    if (span(a, lo, hi) == 0 && !__builtin_sub_overflow(*hi, *lo, &(int64_t){0}))
        return 0;
    PyErr_SetString(PyExc_ValueError, "array is too big; the strides and shape "
                    "span more bytes than fit in 64 bits");
    return -1;
}

em_array *empy_arr_computed(PyObject *o)
{
    em_array *a = EMPY_ARR(o);
    em_status rc = em_array_check_computed(a);
    if (rc != EM_OK) {
        empy_raise(empy_state_of(o), rc);
        return NULL;
    }
    return a;
}

PyObject *empy_nd_get_data(PyObject *self, void *c)
{
    empy_state *st = empy_state_of(self);
    const em_array *a = empy_arr_computed(self);
    empy_ndarray *nd = (empy_ndarray *)self;
    empy_Unowned *u;
    int64_t lo, hi;
    PyObject *r;
    if (!a)
        return NULL;
    span(a, &lo, &hi);
    /* The memory is the array's own elements, kept alive by the array. */
    u = (empy_Unowned *)st->UnownedMemory->tp_alloc(st->UnownedMemory, 0);
    if (!u)
        return NULL;
    u->ptr = (uintptr_t)a->data + (uintptr_t)lo;
    u->size = (size_t)(hi - lo);
    u->owner = Py_NewRef(nd->base && empy_is_ndarray(nd->base) ? nd->base : self);
    u->dev = a->device;
    r = empy_memptr_make(st, (PyObject *)u, u->ptr, u->size, u->dev, (uintptr_t)a->data);
    Py_DECREF(u);
    return r;
}

/* ---- a.byteswap(inplace=False): composition over copies and views -------- */

EMPY_PY_METHOD(nd_byteswap, "ember._api.ndarray_methods", "byteswap")

PyMethodDef empy_memory_nd_methods[] = {
    {"byteswap", (PyCFunction)(void (*)(void))nd_byteswap, METH_FASTCALL | METH_KEYWORDS,
     "byteswap(inplace=False): each element's bytes reversed (a new array, or "
     "a itself changed when inplace)."},
    {NULL},
};

/* ---- ember.ndarray(shape, dtype=float, memptr=None, strides=None, order='C') */

/* Lays dtype, shape and strides over a's data: the layout a span is checked
 * on, and the same layout placed in fresh memory. */
static void set_layout(em_array *a, em_dtype dt, int ndim, const int64_t *shape,
                       const int64_t *strides)
{
    a->dtype = dt;
    a->ndim = ndim;
    memcpy(a->shape, shape, sizeof(int64_t) * (size_t)ndim);
    memcpy(a->strides, strides, sizeof(int64_t) * (size_t)ndim);
    em_array_update_flags(a);
}

/* A new object of type tp (ndarray or a subclass) holding *a. */
static PyObject *nd_of_type(PyTypeObject *tp, em_array *a, PyObject *base)
{
    empy_ndarray *o = empy_ndarray_hold((empy_ndarray *)tp->tp_alloc(tp, 0), a);
    if (!o)
        return NULL;
    o->base = base ? Py_NewRef(base) : NULL;
    return (PyObject *)o;
}

PyObject *empy_ndarray_tp_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"shape", "dtype", "memptr", "strides", "order", NULL};
    empy_state *st = empy_state_of_type(type);
    PyObject *shape_o, *dt_o = Py_None, *mp_o = Py_None, *str_o = Py_None;
    const char *order = "C";
    int64_t shape[EM_MAX_NDIM], strides[EM_MAX_NDIM];
    int ndim, i;
    size_t item;
    em_dtype dt = EM_FLOAT64;
    em_array a;
    em_status rc;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOOs:ndarray", kwlist, &shape_o, &dt_o,
                                     &mp_o, &str_o, &order) ||
        empy_shape_arg(shape_o, "shape", &ndim, shape) < 0 ||
        (dt_o != Py_None && empy_dtype_arg(st, dt_o, &dt) < 0))
        return NULL;
    if ((order[0] != 'C' && order[0] != 'F') || order[1]) {
        PyErr_Format(PyExc_ValueError, "order must be 'C' or 'F', not '%s'", order);
        return NULL;
    }
    for (i = 0; i < ndim; i++)
        if (shape[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
            return NULL;
        }
    item = em_dtype_size(dt);
    /* The element count must fit in bytes whatever the strides. */
    rc = em_strides_contiguous(ndim, shape, (int64_t)item, order[0], strides);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    if (str_o != Py_None) {
        int n;
        if (empy_shape_arg(str_o, "strides", &n, strides) < 0)
            return NULL;
        if (n != ndim) {
            PyErr_Format(PyExc_ValueError, "strides has %d entries for a shape of %d", n,
                         ndim);
            return NULL;
        }
    }
    if (mp_o == Py_None) {
        em_device *dev;
        em_array t;
        int64_t lo, hi, nbytes;
        if (empy_device_arg(st, Py_None, &dev) < 0)
            return NULL;
        memset(&t, 0, sizeof t);
        set_layout(&t, dt, ndim, shape, strides);
        if (span_checked(&t, &lo, &hi) < 0)
            return NULL;
        nbytes = hi - lo;
        /* Fresh memory of the span's bytes, the layout placed in it. */
        rc = em_array_empty(dev, EM_UINT8, 1, &nbytes, 'C', NULL, &a);
        if (rc != EM_OK)
            return empy_raise(st, rc);
        a.data -= lo;
        set_layout(&a, dt, ndim, shape, strides);
        if (type == st->ndarray)
            return empy_ndarray_new(st, &a, NULL);
        return nd_of_type(type, &a, NULL);
    }
    if (Py_TYPE(mp_o) != st->MemoryPointer) {
        PyErr_Format(PyExc_TypeError, "memptr must be an ember.cuda.MemoryPointer, not "
                     "%.100s", Py_TYPE(mp_o)->tp_name);
        return NULL;
    }
    {
        empy_MemPtr *p = (empy_MemPtr *)mp_o;
        em_array t;
        int64_t lo, hi;
        memset(&t, 0, sizeof t);
        set_layout(&t, dt, ndim, shape, strides);
        if (span_checked(&t, &lo, &hi) < 0)
            return NULL;
        if (p->size != EMPY_SIZE_UNKNOWN && t.size &&
            ((intptr_t)(p->ptr - p->base) + lo < 0 ||
             (uintptr_t)((intptr_t)(p->ptr - p->base) + hi) > p->size)) {
            PyErr_Format(PyExc_ValueError, "an array of shape %R and strides %R needs "
                         "bytes [%lld, %lld) around the pointer, outside its memory "
                         "(offset %zu of %zu bytes)", shape_o, str_o, (long long)lo,
                         (long long)hi, (size_t)(p->ptr - p->base), p->size);
            return NULL;
        }
        rc = em_array_wrap(p->dev, t.size ? (void *)p->ptr : NULL, dt, ndim, shape,
                           strides, 0, empy_release_pyobj, mp_o, &a);
        if (rc != EM_OK)
            return empy_raise(st, rc);
        /* The storage holds this reference until its last view goes. */
        Py_INCREF(mp_o);
        if (type == st->ndarray)
            return empy_ndarray_new(st, &a, mp_o);
        return nd_of_type(type, &a, mp_o);
    }
}

int empy_ndarray_memory_init(PyObject *m, empy_state *st)
{
    return empy_memptr_init(m, st);
}
