/* ember Python extension: basic indexing of ndarrays (integers, slices,
 * `...`, None and tuples of them) for reading, which makes views, and for
 * assignment, which writes through them.
 *
 * A key becomes one em_slice per axis for em_array_slice (integers as
 * step 0, which drops the axis), then the new axes of None are inserted
 * into the view's layout. Integer-array and boolean indexing are not in
 * this slice of ember and say so. */
#include <string.h>
#include "module.h"
#include "errors.h"
#include "ndarray.h"

#define NDA(o) ((empy_ndarray *)(o))

static const char bad_index[] =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) "
    "and integer or boolean arrays are valid indices";

enum { K_INT, K_SLICE, K_NONE, K_ELLIPSIS };

/* What one element of a key is; -1 with an exception for what ember
 * cannot index with. An int's value is stored in *iv. */
static int key_kind(PyObject *k, Py_ssize_t *iv)
{
    if (PyLong_CheckExact(k)) {
        *iv = PyLong_AsSsize_t(k);
        if (*iv == -1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_IndexError, "cannot fit 'int' into an "
                                "index-sized integer");
            }
            return -1;
        }
        return K_INT;
    }
    if (PySlice_Check(k))
        return K_SLICE;
    if (k == Py_None)
        return K_NONE;
    if (k == Py_Ellipsis)
        return K_ELLIPSIS;
    if (PyBool_Check(k) || PyList_Check(k)) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "advanced indexing (integer-array, list or boolean "
                        "indices) is not supported by ember yet; use slices, "
                        "or index a NumPy copy from x.get()");
        return -1;
    }
    if (empy_is_ndarray(k)) {
        const em_array *a = EMPY_ARR(k);
        char kind = em_dtype_get(a->dtype)->kind;
        if (kind != 'i' && kind != 'u' && kind != 'b') {
            PyErr_SetString(PyExc_IndexError, "arrays used as indices must be "
                            "of integer (or boolean) type");
            return -1;
        }
        if (a->ndim != 0 || kind == 'b') {
            PyErr_SetString(PyExc_NotImplementedError,
                            "advanced indexing (integer-array or boolean "
                            "indices) is not supported by ember yet");
            return -1;
        }
    } else if (PyObject_CheckBuffer(k)) {
        /* A NumPy array: a 0-d one may be an integer, others index
         * advanced-style. */
        Py_buffer v;
        int nd;
        if (PyObject_GetBuffer(k, &v, PyBUF_RECORDS_RO) < 0)
            return -1;
        nd = v.ndim;
        PyBuffer_Release(&v);
        if (nd != 0) {
            PyErr_SetString(PyExc_NotImplementedError,
                            "advanced indexing with a host array is not "
                            "supported by ember yet");
            return -1;
        }
    }
    if (PyIndex_Check(k)) {
        PyObject *n = PyNumber_Index(k);
        if (!n)
            return -1;
        *iv = PyLong_AsSsize_t(n);
        Py_DECREF(n);
        if (*iv == -1 && PyErr_Occurred())
            return -1;
        return K_INT;
    }
    PyErr_SetString(PyExc_IndexError, bad_index);
    return -1;
}

/* The view that key selects from a: fills *out with a new reference. */
static int index_view(empy_state *st, const em_array *a, PyObject *key,
                      em_array *out)
{
    PyObject *const *items;
    Py_ssize_t n, i, ivals[EM_MAX_NDIM * 2];
    int kinds[EM_MAX_NDIM * 2];
    em_slice sl[EM_MAX_NDIM];
    /* newaxis[p]: output axis p is a new extent-1 axis. */
    unsigned char newaxis[EM_MAX_NDIM * 3];
    int consumed = 0, ellipsis = 0, ax = 0, outpos = 0, nnew = 0, j;
    em_array v;
    em_status rc;

    if (PyTuple_Check(key)) {
        items = &PyTuple_GET_ITEM(key, 0);
        n = PyTuple_GET_SIZE(key);
    } else {
        items = &key;
        n = 1;
    }
    if (n > EM_MAX_NDIM * 2) {
        PyErr_Format(PyExc_IndexError, "too many indices for array: array is "
                     "%d-dimensional, but %zd were indexed", a->ndim, n);
        return -1;
    }
    for (i = 0; i < n; i++) {
        int k = key_kind(items[i], &ivals[i]);
        if (k < 0)
            return -1;
        kinds[i] = k;
        if (k == K_INT || k == K_SLICE)
            consumed++;
        else if (k == K_ELLIPSIS && ellipsis++) {
            PyErr_SetString(PyExc_IndexError, "an index can only have a "
                            "single ellipsis ('...')");
            return -1;
        }
    }
    if (consumed > a->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for array: array is "
                     "%d-dimensional, but %d were indexed", a->ndim, consumed);
        return -1;
    }
    memset(newaxis, 0, sizeof newaxis);
    for (i = 0; i < n; i++) {
        switch (kinds[i]) {
        case K_INT: {
            Py_ssize_t v_ = ivals[i], dim = (Py_ssize_t)a->shape[ax];
            if (v_ < -dim || v_ >= dim) {
                PyErr_Format(PyExc_IndexError, "index %zd is out of bounds for "
                             "axis %d with size %zd", v_, ax, dim);
                return -1;
            }
            sl[ax].start = v_ < 0 ? v_ + dim : v_;
            sl[ax].stop = sl[ax].start + 1;
            sl[ax].step = 0;
            ax++;
            break;
        }
        case K_SLICE: {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(items[i], &start, &stop, &step) < 0)
                return -1;
            PySlice_AdjustIndices((Py_ssize_t)a->shape[ax], &start, &stop, step);
            sl[ax].start = start;
            sl[ax].stop = stop;
            sl[ax].step = step;
            ax++;
            outpos++;
            break;
        }
        case K_NONE:
            newaxis[outpos++] = 1;
            nnew++;
            break;
        default: /* the ellipsis: every axis the key does not name */
            for (j = 0; j < a->ndim - consumed; j++, ax++, outpos++) {
                sl[ax].start = 0;
                sl[ax].stop = a->shape[ax];
                sl[ax].step = 1;
            }
        }
    }
    for (; ax < a->ndim; ax++) {
        sl[ax].start = 0;
        sl[ax].stop = a->shape[ax];
        sl[ax].step = 1;
    }
    rc = em_array_slice(a, sl, &v);
    if (rc != EM_OK)
        return empy_fail(st, rc);
    if (nnew) {
        int total = v.ndim + nnew, src = v.ndim - 1, p;
        if (total > EM_MAX_NDIM) {
            em_array_release(&v);
            PyErr_Format(PyExc_IndexError, "indexing would give %d dimensions; "
                         "ember's limit is %d", total, EM_MAX_NDIM);
            return -1;
        }
        /* Back to front, so each axis moves at most once in place. */
        for (p = total - 1; p >= 0; p--) {
            if (p < (int)sizeof newaxis && newaxis[p]) {
                v.shape[p] = 1;
                v.strides[p] = 0;
            } else {
                v.shape[p] = v.shape[src];
                v.strides[p] = v.strides[src];
                src--;
            }
        }
        v.ndim = total;
        em_array_update_flags(&v);
    }
    *out = v;
    return 0;
}

PyObject *empy_ndarray_subscript(PyObject *self, PyObject *key)
{
    empy_state *st = empy_state_of(self);
    em_array v;
    if (index_view(st, &NDA(self)->a, key, &v) < 0)
        return NULL;
    return empy_ndarray_new(st, &v, self);
}

PyObject *empy_ndarray_item(PyObject *self, Py_ssize_t i)
{
    PyObject *key = PyLong_FromSsize_t(i), *r;
    if (!key)
        return NULL;
    r = empy_ndarray_subscript(self, key);
    Py_DECREF(key);
    return r;
}

/* dst[...] = value, with dst a view of the array being assigned. */
static int assign(empy_state *st, em_array *dst, PyObject *value)
{
    em_operand op;
    em_status rc;
    int k;
    if (empy_is_ndarray(value)) {
        const em_array *src = EMPY_ARR(value);
        if (src->device != dst->device) {
            PyErr_Format(PyExc_ValueError, "cannot assign an array on %s to an "
                         "array on %s; move it first with to_device()",
                         em_device_name(src->device), em_device_name(dst->device));
            return -1;
        }
        EMPY_NOGIL(rc, em_array_copy(dst, src, NULL));
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    }
    k = empy_scalar_operand(value, &op);
    if (k < 0)
        return -1;
    if (k > 0) {
        if (empy_check_weak_fits(&op, dst->dtype) < 0)
            return -1;
        EMPY_NOGIL(rc, em_array_fill(dst, op.value.bytes, op.dtype, NULL));
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    } else {
        /* Host data: lists take dst's dtype directly (so out-of-range
         * Python ints raise as in NumPy), arrays keep theirs and cast in
         * the copy. */
        int seq = PyList_Check(value) || PyTuple_Check(value);
        PyObject *arr = empy_asarray(st, value, seq ? (int)dst->dtype : -1,
                                     dst->device, EMPY_COPY_IF_NEEDED, 'K');
        if (!arr)
            return -1;
        EMPY_NOGIL(rc, em_array_copy(dst, EMPY_ARR(arr), NULL));
        Py_DECREF(arr);
        return rc == EM_OK ? 0 : empy_fail(st, rc);
    }
}

int empy_ndarray_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    empy_state *st = empy_state_of(self);
    em_array v;
    int rc;
    if (!value) {
        PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
        return -1;
    }
    if (!(NDA(self)->a.flags & EM_ARRAY_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    if (index_view(st, &NDA(self)->a, key, &v) < 0)
        return -1;
    rc = assign(st, &v, value);
    em_array_release(&v);
    return rc;
}
