/* ember Python extension: a.flat, NumPy's flatiter.
 *
 * The elements of a in C order, as one 1-d sequence: iterated, read with
 * any index (a copy, as NumPy's), assigned through (a.flat[i] = v,
 * a.flat[mask] = v, a.flat[[1, 5]] = [x, y], values repeated cyclically as
 * NumPy's put repeats them). Reads index a's C-order ravel (a view when a
 * is C-contiguous); writes go through a C-contiguous copy of a, written
 * back, when a is not C-contiguous. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

typedef struct {
    PyObject_HEAD
    PyObject *base;     /* the array */
    PyObject *flat;     /* its C-order ravel, made when iteration starts */
    Py_ssize_t index;   /* the next element the iterator gives */
} empy_Flat;

PyObject *empy_nd_get_flat(PyObject *self, void *c)
{
    empy_state *st = empy_state_of(self);
    empy_Flat *f = PyObject_GC_New(empy_Flat, st->flatiter);
    if (!f)
        return NULL;
    f->base = Py_NewRef(self);
    f->flat = NULL;
    f->index = 0;
    PyObject_GC_Track(f);
    return (PyObject *)f;
}

static void Flat_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    Py_CLEAR(((empy_Flat *)self)->base);
    Py_CLEAR(((empy_Flat *)self)->flat);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static int Flat_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(((empy_Flat *)self)->base);
    Py_VISIT(((empy_Flat *)self)->flat);
    Py_VISIT(Py_TYPE(self));
    return 0;
}

/* The C-order ravel of arr (borrowed from the flatiter when cached). */
static PyObject *ravel_c(PyObject *arr)
{
    return PyObject_CallMethod(arr, "ravel", NULL);
}

static PyObject *flat_of(empy_Flat *f)
{
    if (!f->flat)
        f->flat = ravel_c(f->base);
    return f->flat;
}

static Py_ssize_t Flat_len(PyObject *self)
{
    return (Py_ssize_t)EMPY_ARR(((empy_Flat *)self)->base)->size;
}

static PyObject *Flat_next(PyObject *self)
{
    empy_Flat *f = (empy_Flat *)self;
    PyObject *flat = flat_of(f);
    if (!flat)
        return NULL;
    if (f->index >= (Py_ssize_t)EMPY_ARR(flat)->size)
        return NULL;   /* StopIteration */
    return empy_ndarray_item(flat, f->index++);
}

/* The key as ember indexing takes it: ints, slices and Ellipsis as they
 * are, anything else an index array on a's device (a boolean one must be
 * 1-d, as NumPy's flatiter requires). New reference. */
static PyObject *flat_key(empy_state *st, PyObject *key, em_device *dev)
{
    PyObject *k;
    if (PySlice_Check(key) || key == Py_Ellipsis || PyBool_Check(key) ||
        (PyIndex_Check(key) && !empy_is_ndarray(key) && !PySequence_Check(key)))
        return Py_NewRef(key);
    /* Lists, NumPy arrays, ember arrays: an index array on a's device. */
    k = empy_asarray(st, key, -1, dev, EMPY_COPY_IF_NEEDED, 'K');
    if (!k || EMPY_ARR(k)->dtype != EM_BOOL || EMPY_ARR(k)->ndim == 1)
        return k;
    PyErr_Format(PyExc_IndexError, "too many indices for flat iterator: flat "
                 "iterator is 1-dimensional, but %d were indexed", EMPY_ARR(k)->ndim);
    Py_DECREF(k);
    return NULL;
}

static PyObject *Flat_subscript(PyObject *self, PyObject *key)
{
    empy_Flat *f = (empy_Flat *)self;
    PyObject *flat, *k, *r;
    /* A fresh ravel each time (a view when a is C-contiguous): the copy of
     * a non-contiguous a must not go stale after a write. */
    if (!(k = flat_key(empy_state_of(f->base), key, EMPY_ARR(f->base)->device)))
        return NULL;
    if (!(flat = ravel_c(f->base))) {
        Py_DECREF(k);
        return NULL;
    }
    r = empy_ndarray_subscript(flat, k);
    Py_DECREF(flat);
    Py_DECREF(k);
    /* A slice of a C-contiguous array is a view; a.flat[...] is a copy. */
    if (r && empy_is_ndarray(r) && EMPY_ARR(r)->ndim > 0 &&
        EMPY_ARR(r)->storage == EMPY_ARR(f->base)->storage) {
        PyObject *c = PyObject_CallMethod(r, "copy", NULL);
        Py_DECREF(r);
        r = c;
    }
    return r;
}

/* The int64 flat indices a key selects from n elements, on dev, for the
 * cyclic writes (put) that subscript assignment cannot do. */
static PyObject *key_indices(empy_state *st, PyObject *flat, PyObject *key)
{
    const em_array *fa = EMPY_ARR(flat);
    PyObject *k;
    em_array nz, row;
    em_status rc;
    if (PySlice_Check(key) || key == Py_Ellipsis) {
        /* The positions, on the host: only for a slice whose value does
         * not fit it, a rare and NumPy-only spelling. */
        Py_ssize_t start = 0, stop = (Py_ssize_t)fa->size, step = 1, n, i;
        int64_t *buf;
        em_array idx;
        if (key != Py_Ellipsis) {
            if (PySlice_Unpack(key, &start, &stop, &step) < 0)
                return NULL;
            n = PySlice_AdjustIndices((Py_ssize_t)fa->size, &start, &stop, step);
        } else {
            n = (Py_ssize_t)fa->size;
        }
        buf = PyMem_Malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
        if (!buf)
            return PyErr_NoMemory();
        for (i = 0; i < n; i++)
            buf[i] = (int64_t)(start + i * step);
        {
            int64_t len = n;
            rc = em_array_empty(fa->device, EM_INT64, 1, &len, 'C', NULL, &idx);
            if (rc == EM_OK) {
                EMPY_NOGIL(rc, em_array_from_host(&idx, buf, NULL, NULL));
                if (rc != EM_OK)
                    em_array_release(&idx);
            }
        }
        PyMem_Free(buf);
        if (rc != EM_OK)
            return empy_raise(st, rc);
        return empy_ndarray_new(st, &idx, NULL);
    }
    if (!(k = flat_key(st, key, fa->device)))
        return NULL;
    if (!empy_is_ndarray(k)) {
        /* A lone int (a bool is refused, as NumPy refuses it here). */
        em_array one;
        int64_t v, len = 1;
        if (PyBool_Check(k)) {
            PyErr_SetString(PyExc_IndexError, "a bool is not a flat index");
            Py_DECREF(k);
            return NULL;
        }
        v = PyLong_AsLongLong(k);
        Py_DECREF(k);
        if (v == -1 && PyErr_Occurred())
            return NULL;
        rc = em_array_empty(fa->device, EM_INT64, 1, &len, 'C', NULL, &one);
        if (rc == EM_OK) {
            EMPY_NOGIL(rc, em_array_from_host(&one, &v, NULL, NULL));
            if (rc != EM_OK)
                em_array_release(&one);
        }
        if (rc != EM_OK)
            return empy_raise(st, rc);
        return empy_ndarray_new(st, &one, NULL);
    }
    if (EMPY_ARR(k)->dtype != EM_BOOL)
        return k;
    if (EMPY_ARR(k)->size != fa->size) {
        PyErr_Format(PyExc_IndexError, "boolean index did not match indexed flat "
                     "array: %lld elements against %lld",
                     (long long)EMPY_ARR(k)->size, (long long)fa->size);
        Py_DECREF(k);
        return NULL;
    }
    rc = em_nonzero(EMPY_ARR(k), &nz, NULL);
    Py_DECREF(k);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    /* Row 0 of the (1, count) coordinates. */
    row = nz;
    row.ndim = 1;
    row.shape[0] = nz.shape[1];
    row.strides[0] = nz.strides[1];
    em_array_update_flags(&row);
    return empy_ndarray_new(st, &row, NULL);
}

/* Whether subscript assignment does what NumPy's flat assignment does:
 * for a value of one element or of as many as the key selects. */
static int plain_assign_fits(PyObject *flat, PyObject *key, PyObject *val)
{
    Py_ssize_t n;
    const em_array *v = EMPY_ARR(val);
    if (v->size == 1)
        return 1;
    if (PyIndex_Check(key) && !PyBool_Check(key))
        return 0;
    if (!PySlice_Check(key) && key != Py_Ellipsis)
        return -1;   /* an index array: put decides */
    if (key == Py_Ellipsis) {
        n = (Py_ssize_t)EMPY_ARR(flat)->size;
    } else {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0)
            return -2;
        n = PySlice_AdjustIndices((Py_ssize_t)EMPY_ARR(flat)->size, &start, &stop, step);
    }
    return v->size == n;
}

static int assign_contiguous(empy_state *st, PyObject *arr, PyObject *key0, PyObject *value)
{
    PyObject *flat = ravel_c(arr), *val = NULL, *vflat = NULL, *idx = NULL, *key;
    int fits, rc = -1;
    em_status s;
    if (!flat)
        return -1;
    if (!(key = flat_key(st, key0, EMPY_ARR(arr)->device))) {
        Py_DECREF(flat);
        return -1;
    }
    val = empy_asarray(st, value, (int)EMPY_ARR(arr)->dtype, EMPY_ARR(arr)->device,
                       EMPY_COPY_IF_NEEDED, 'C');
    if (!val || !(vflat = ravel_c(val)))
        goto done;
    fits = plain_assign_fits(flat, key, vflat);
    if (fits == -2)
        goto done;
    if (fits == 1) {
        rc = empy_ndarray_ass_subscript(flat, key, EMPY_ARR(vflat)->size == 1 &&
                                        EMPY_ARR(vflat)->ndim ? val : vflat);
        goto done;
    }
    if (!(idx = key_indices(st, flat, key)))
        goto done;
    if (EMPY_ARR(vflat)->size == 0) {
        if (EMPY_ARR(idx)->size == 0)
            rc = 0;
        else
            PyErr_SetString(PyExc_ValueError, "cannot assign an empty array to "
                            "flat elements");
        goto done;
    }
    EMPY_NOGIL(s, em_put(EMPY_ARR(flat), EMPY_ARR(idx), EMPY_ARR(vflat), EM_INDEX_RAISE,
                         NULL));
    rc = s == EM_OK ? 0 : empy_fail(st, s);
done:
    Py_DECREF(flat);
    Py_DECREF(key);
    Py_XDECREF(val);
    Py_XDECREF(vflat);
    Py_XDECREF(idx);
    return rc;
}

static int Flat_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    empy_Flat *f = (empy_Flat *)self;
    empy_state *st = empy_state_of(f->base);
    em_array *a = EMPY_ARR(f->base);
    PyObject *tmp;
    em_status s;
    int rc;
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "cannot delete array elements");
        return -1;
    }
    if (!(a->flags & EM_ARRAY_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    if (a->flags & EM_ARRAY_C_CONTIGUOUS)
        return assign_contiguous(st, f->base, key, value);
    /* Through a C-ordered copy, written back whole. */
    tmp = PyObject_CallMethod(f->base, "copy", "s", "C");
    if (!tmp)
        return -1;
    rc = assign_contiguous(st, tmp, key, value);
    if (rc == 0) {
        EMPY_NOGIL(s, em_array_copy(a, EMPY_ARR(tmp), NULL));
        rc = s == EM_OK ? 0 : empy_fail(st, s);
    }
    Py_DECREF(tmp);
    return rc;
}

static PyObject *Flat_get_base(PyObject *self, void *c)
{
    return Py_NewRef(((empy_Flat *)self)->base);
}

static PyObject *Flat_get_index(PyObject *self, void *c)
{
    return PyLong_FromSsize_t(((empy_Flat *)self)->index);
}

static PyObject *Flat_copy(PyObject *self, PyObject *unused)
{
    return PyObject_CallMethod(((empy_Flat *)self)->base, "flatten", NULL);
}

static PyObject *Flat_array(PyObject *self, PyObject *args, PyObject *kw)
{
    /* numpy.asarray(a.flat): the host copy of the elements in C order. */
    PyObject *c = Flat_copy(self, NULL), *r;
    if (!c)
        return NULL;
    r = empy_nd_array(c, args, kw);
    Py_DECREF(c);
    return r;
}

static PyMethodDef Flat_methods[] = {
    {"copy", Flat_copy, METH_NOARGS, "The elements as a new 1-d array (a.flatten())."},
    {"__array__", (PyCFunction)(void (*)(void))Flat_array, METH_VARARGS | METH_KEYWORDS,
     NULL},
    {NULL},
};

static PyGetSetDef Flat_getset[] = {
    {"base", Flat_get_base, NULL, "The array iterated.", NULL},
    {"index", Flat_get_index, NULL, "The flat index of the next element.", NULL},
    {NULL},
};

static PyType_Slot Flat_slots[] = {
    {Py_tp_dealloc, Flat_dealloc},
    {Py_tp_traverse, Flat_traverse},
    {Py_tp_iter, PyObject_SelfIter},
    {Py_tp_iternext, Flat_next},
    {Py_mp_length, Flat_len},
    {Py_mp_subscript, Flat_subscript},
    {Py_mp_ass_subscript, Flat_ass_subscript},
    {Py_tp_methods, Flat_methods},
    {Py_tp_getset, Flat_getset},
    EMPY_NOINIT_SLOT
    {Py_tp_doc, "a.flat: the elements of a in C order, iterable, indexable "
                "and assignable, as NumPy's flatiter."},
    {0, NULL},
};

static PyType_Spec Flat_spec = {
    "ember.flatiter", sizeof(empy_Flat), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT,
    Flat_slots,
};

int empy_flat_init(PyObject *m, empy_state *st)
{
    return empy_add_type(m, &Flat_spec, NULL, &st->flatiter);
}
