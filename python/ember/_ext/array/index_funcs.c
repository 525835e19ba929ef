/* ember Python extension: take, take_along_axis, put, where, nonzero,
 * flatnonzero, argwhere, compress, extract, and the ndarray methods take,
 * put, repeat (which calls the Python ember.repeat), nonzero, compress.
 * Each parses its
 * arguments, brings array-likes onto the right device and calls the C
 * API in include/ember/index.h with the GIL released. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

/* An ember array for an argument: ember arrays as they are, anything
 * else onto dev (NULL: the current device) with dtype (< 0: inferred). */
static PyObject *as_array(empy_state *st, PyObject *o, int dtype,
                          em_device *dev)
{
    if (empy_is_ndarray(o) && (dtype < 0 || (int)EMPY_ARR(o)->dtype == dtype)) {
        Py_INCREF(o);
        return o;
    }
    return empy_asarray(st, o, dtype, dev, EMPY_COPY_IF_NEEDED, 'K');
}

/* Indices on a's device, of an integer dtype ([] is an empty int64). */
static PyObject *as_indices(empy_state *st, PyObject *o, const em_array *a)
{
    PyObject *r;
    if (empy_is_ndarray(o) && EMPY_ARR(o)->device != a->device) {
        PyErr_Format(PyExc_ValueError,
                     "the indices are on %s but the array on %s (ember does "
                     "not copy between devices implicitly)",
                     em_device_name(EMPY_ARR(o)->device),
                     em_device_name(a->device));
        return NULL;
    }
    r = as_array(st, o, -1, a->device);
    if (r && EMPY_ARR(r)->size == 0 &&
        em_dtype_get(EMPY_ARR(r)->dtype)->kind == 'f' && !empy_is_ndarray(o)) {
        Py_DECREF(r);
        r = as_array(st, o, EM_INT64, a->device);
    }
    return r;
}

static int parse_mode(PyObject *o, em_index_mode *mode)
{
    const char *s;
    if (!o || o == Py_None) {
        *mode = EM_INDEX_RAISE;
        return 0;
    }
    if (!(s = PyUnicode_AsUTF8(o)))
        return -1;
    if (!strcmp(s, "raise"))
        *mode = EM_INDEX_RAISE;
    else if (!strcmp(s, "wrap"))
        *mode = EM_INDEX_WRAP;
    else if (!strcmp(s, "clip"))
        *mode = EM_INDEX_CLIP;
    else {
        PyErr_Format(PyExc_ValueError,
                     "mode must be 'raise', 'wrap' or 'clip', not '%s'", s);
        return -1;
    }
    return 0;
}

/* axis: None -> EM_TAKE_FLAT, else an int. */
static int parse_axis(PyObject *o, int *axis)
{
    long v;
    if (!o || o == Py_None) {
        *axis = EM_TAKE_FLAT;
        return 0;
    }
    v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < -EM_MAX_NDIM - 1 || v > EM_MAX_NDIM + 1)
        v = EM_MAX_NDIM + 1; /* out of range for any array */
    *axis = (int)v;
    return 0;
}

/* A 1-d C-ordered view (or copy) of a. */
static em_status flat_of(const em_array *a, em_array *out)
{
    int64_t n = a->size;
    em_array tmp;
    em_status rc = em_array_reshape_view(a, 1, &n, 'C', out);
    if (rc != EM_ERR_NOT_SUPPORTED)
        return rc;
    rc = empy_array_copy_new(a, NULL, -1, 'C', &tmp);
    if (rc != EM_OK)
        return rc;
    rc = em_array_reshape_view(&tmp, 1, &n, 'C', out);
    em_array_release(&tmp);
    return rc;
}

/* res (a new array from an em_ call that returned rc) wrapped, or rc
 * raised. */
static PyObject *result_of(empy_state *st, em_status rc, em_array *res)
{
    if (rc != EM_OK)
        return empy_fail(st, rc), NULL;
    return empy_ndarray_new(st, res, NULL);
}

/* put's and put_along_axis's indices and values for a, both on a's
 * device, the values in a's dtype unless already an ember array (new
 * references; -1 with the error raised and nothing held). */
static int put_operands(empy_state *st, PyObject *io, PyObject *vo,
                        const em_array *a, const char *fn, PyObject **ind,
                        PyObject **v)
{
    if (!(*ind = as_indices(st, io, a)))
        return -1;
    if (empy_is_ndarray(vo) && EMPY_ARR(vo)->device != a->device) {
        PyErr_Format(PyExc_ValueError, "%s: the values are on %s but the "
                     "array on %s", fn, em_device_name(EMPY_ARR(vo)->device),
                     em_device_name(a->device));
        Py_CLEAR(*ind);
        return -1;
    }
    if (!(*v = as_array(st, vo, empy_is_ndarray(vo) ? -1 : (int)a->dtype,
                        a->device))) {
        Py_CLEAR(*ind);
        return -1;
    }
    return 0;
}

static PyObject *do_take(empy_state *st, PyObject *ao, PyObject *io,
                         PyObject *axo, PyObject *out, PyObject *modeo)
{
    PyObject *a = NULL, *ind = NULL, *r = NULL;
    em_index_mode mode;
    em_array res;
    em_status rc;
    int axis;
    if (parse_mode(modeo, &mode) < 0 || parse_axis(axo, &axis) < 0)
        return NULL;
    if (out && out != Py_None && !empy_is_ndarray(out)) {
        PyErr_SetString(PyExc_TypeError, "take: out must be an ember array");
        return NULL;
    }
    if (!(a = as_array(st, ao, -1, NULL)))
        return NULL;
    if (!(ind = as_indices(st, io, EMPY_ARR(a))))
        goto done;
    if (out && out != Py_None) {
        if (EMPY_ARR(out)->device != EMPY_ARR(a)->device) {
            PyErr_Format(PyExc_ValueError, "take: out is on %s but the array "
                         "on %s", em_device_name(EMPY_ARR(out)->device),
                         em_device_name(EMPY_ARR(a)->device));
            goto done;
        }
        res = *EMPY_ARR(out);
        EMPY_NOGIL(rc, em_take(EMPY_ARR(a), EMPY_ARR(ind), axis, mode, &res,
                               NULL));
        if (rc == EM_OK) {
            Py_INCREF(out);
            r = out;
        } else {
            empy_fail(st, rc);
        }
        goto done;
    }
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_take(EMPY_ARR(a), EMPY_ARR(ind), axis, mode, &res, NULL));
    r = result_of(st, rc, &res);
done:
    Py_XDECREF(a);
    Py_XDECREF(ind);
    return r;
}

static PyObject *fn_take(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"a", "indices", "axis", "out", "mode", NULL};
    PyObject *a, *ind, *axis = Py_None, *out = Py_None, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOO:take", kws, &a, &ind,
                                     &axis, &out, &mode))
        return NULL;
    return do_take(empy_state_of_module(m), a, ind, axis, out, mode);
}

static PyObject *nd_take(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"indices", "axis", "out", "mode", NULL};
    PyObject *ind, *axis = Py_None, *out = Py_None, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOO:take", kws, &ind, &axis,
                                     &out, &mode))
        return NULL;
    return do_take(empy_state_of(self), self, ind, axis, out, mode);
}

static PyObject *fn_take_along_axis(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"arr", "indices", "axis", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *ao, *io, *axo = NULL, *a = NULL, *ind = NULL, *r = NULL;
    em_array res, flat;
    em_status rc;
    int axis;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:take_along_axis", kws,
                                     &ao, &io, &axo))
        return NULL;
    /* NumPy 2.3+ and the Array API 2024.12 default to the last axis. */
    if (!axo)
        axis = -1;
    else if (parse_axis(axo, &axis) < 0)
        return NULL;
    if (!(a = as_array(st, ao, -1, NULL)))
        return NULL;
    if (!(ind = as_indices(st, io, EMPY_ARR(a))))
        goto done;
    memset(&res, 0, sizeof res);
    if (axis == EM_TAKE_FLAT) {
        if (EMPY_ARR(ind)->ndim != 1) {
            PyErr_SetString(PyExc_ValueError, "when axis=None, `indices` "
                            "must have a single dimension.");
            goto done;
        }
        if ((rc = flat_of(EMPY_ARR(a), &flat)) == EM_OK) {
            EMPY_NOGIL(rc, em_take_along_axis(&flat, EMPY_ARR(ind), 0, &res,
                                              NULL));
            em_array_release(&flat);
        }
    } else {
        EMPY_NOGIL(rc, em_take_along_axis(EMPY_ARR(a), EMPY_ARR(ind), axis,
                                          &res, NULL));
    }
    r = result_of(st, rc, &res);
done:
    Py_XDECREF(a);
    Py_XDECREF(ind);
    return r;
}

static PyObject *fn_put_along_axis(PyObject *m, PyObject *args,
                                   PyObject *kw)
{
    static char *kws[] = {"arr", "indices", "values", "axis", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *ao, *io, *vo, *axo, *ind, *v;
    em_array *a;
    em_status rc;
    int axis;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO:put_along_axis", kws,
                                     &ao, &io, &vo, &axo))
        return NULL;
    if (!empy_is_ndarray(ao)) {
        PyErr_SetString(PyExc_TypeError,
                        "put_along_axis: arr must be an ember array");
        return NULL;
    }
    a = &((empy_ndarray *)ao)->a;
    if (parse_axis(axo, &axis) < 0)
        return NULL;
    if (axis == EM_TAKE_FLAT) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "put_along_axis with axis=None is not supported by "
                        "ember; use put()");
        return NULL;
    }
    if (put_operands(st, io, vo, a, "put_along_axis", &ind, &v) < 0)
        return NULL;
    EMPY_NOGIL(rc, em_put_along_axis(a, EMPY_ARR(ind), EMPY_ARR(v), axis,
                                     NULL));
    Py_DECREF(ind);
    Py_DECREF(v);
    if (rc != EM_OK)
        return empy_fail(st, rc), NULL;
    Py_RETURN_NONE;
}

static PyObject *do_put(empy_state *st, PyObject *ao, PyObject *io,
                        PyObject *vo, PyObject *modeo)
{
    PyObject *ind, *v;
    em_index_mode mode;
    em_status rc;
    const em_array *a;
    if (!empy_is_ndarray(ao)) {
        PyErr_SetString(PyExc_TypeError, "put: a must be an ember array");
        return NULL;
    }
    a = EMPY_ARR(ao);
    if (parse_mode(modeo, &mode) < 0)
        return NULL;
    if (put_operands(st, io, vo, a, "put", &ind, &v) < 0)
        return NULL;
    EMPY_NOGIL(rc, em_put(&((empy_ndarray *)ao)->a, EMPY_ARR(ind),
                          EMPY_ARR(v), mode, NULL));
    Py_DECREF(ind);
    Py_DECREF(v);
    if (rc != EM_OK)
        return empy_fail(st, rc), NULL;
    Py_RETURN_NONE;
}

static PyObject *fn_put(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"a", "ind", "v", "mode", NULL};
    PyObject *a, *ind, *v, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|O:put", kws, &a, &ind, &v,
                                     &mode))
        return NULL;
    return do_put(empy_state_of_module(m), a, ind, v, mode);
}

static PyObject *nd_put(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"indices", "values", "mode", NULL};
    PyObject *ind, *v, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:put", kws, &ind, &v,
                                     &mode))
        return NULL;
    return do_put(empy_state_of(self), self, ind, v, mode);
}

/* nonzero as the (ndim, count) array, wrapped. */
static PyObject *nonzero_array(empy_state *st, const em_array *a)
{
    em_array nz;
    em_status rc;
    EMPY_NOGIL(rc, em_nonzero(a, &nz, NULL));
    return result_of(st, rc, &nz);
}

/* Row d of the (ndim, count) array as a view. */
static PyObject *nz_row(empy_state *st, PyObject *nzo, int d)
{
    const em_array *nz = EMPY_ARR(nzo);
    em_array row;
    em_array_retain(nz, &row);
    row.ndim = 1;
    row.shape[0] = nz->shape[1];
    row.strides[0] = 8;
    row.data = nz->data + (int64_t)d * nz->shape[1] * 8;
    em_array_update_flags(&row);
    return empy_ndarray_new(st, &row, nzo);
}

static PyObject *do_nonzero(empy_state *st, PyObject *ao)
{
    PyObject *a = as_array(st, ao, -1, NULL), *nz, *t;
    int nd;
    if (!a)
        return NULL;
    nz = nonzero_array(st, EMPY_ARR(a));
    nd = EMPY_ARR(a)->ndim;
    Py_DECREF(a);
    if (!nz)
        return NULL;
    if (!(t = PyTuple_New(nd))) {
        Py_DECREF(nz);
        return NULL;
    }
    for (int d = 0; d < nd; d++) {
        PyObject *row = nz_row(st, nz, d);
        if (!row) {
            Py_DECREF(t);
            Py_DECREF(nz);
            return NULL;
        }
        PyTuple_SET_ITEM(t, d, row);
    }
    Py_DECREF(nz);
    return t;
}

static PyObject *fn_nonzero(PyObject *m, PyObject *a)
{
    return do_nonzero(empy_state_of_module(m), a);
}

static PyObject *nd_nonzero(PyObject *self, PyObject *unused)
{
    return do_nonzero(empy_state_of(self), self);
}

/* Nonzero positions of a flattened, as one int64 array. */
static PyObject *flat_nonzero(empy_state *st, const em_array *a)
{
    em_array flat;
    em_status rc = flat_of(a, &flat);
    PyObject *fo, *nz, *row;
    if (rc != EM_OK)
        return empy_fail(st, rc), NULL;
    if (!(fo = empy_ndarray_new(st, &flat, NULL)))
        return NULL;
    nz = nonzero_array(st, EMPY_ARR(fo));
    Py_DECREF(fo);
    if (!nz)
        return NULL;
    row = nz_row(st, nz, 0);
    Py_DECREF(nz);
    return row;
}

static PyObject *fn_flatnonzero(PyObject *m, PyObject *ao)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a = as_array(st, ao, -1, NULL), *r;
    if (!a)
        return NULL;
    r = flat_nonzero(st, EMPY_ARR(a));
    Py_DECREF(a);
    return r;
}

static PyObject *fn_argwhere(PyObject *m, PyObject *ao)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a = as_array(st, ao, -1, NULL), *nz, *r;
    em_array t;
    if (!a)
        return NULL;
    if (EMPY_ARR(a)->ndim == 0) {
        /* NumPy: one row of no coordinates per nonzero element */
        PyObject *flat = flat_nonzero(st, EMPY_ARR(a));
        int64_t shape[2];
        em_status rc;
        Py_DECREF(a);
        if (!flat)
            return NULL;
        shape[0] = EMPY_ARR(flat)->shape[0];
        shape[1] = 0;
        rc = em_array_empty(EMPY_ARR(flat)->device, EM_INT64, 2, shape, 'C',
                            NULL, &t);
        Py_DECREF(flat);
        if (rc != EM_OK)
            return empy_fail(st, rc), NULL;
        return empy_ndarray_new(st, &t, NULL);
    }
    nz = nonzero_array(st, EMPY_ARR(a));
    Py_DECREF(a);
    if (!nz)
        return NULL;
    if (em_array_transpose(EMPY_ARR(nz), NULL, &t) != EM_OK) {
        Py_DECREF(nz);
        return empy_fail(st, EM_ERR_INTERNAL), NULL;
    }
    r = empy_ndarray_new(st, &t, nz);
    Py_DECREF(nz);
    return r;
}

static PyObject *fn_where(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"condition", "x", "y", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *co, *xo = NULL, *yo = NULL, *cond = NULL, *xa = NULL, *ya = NULL,
                  *r = NULL;
    em_operand ops[2];
    em_device *dev = NULL;
    em_array res;
    em_status rc;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:where", kws, &co, &xo,
                                     &yo))
        return NULL;
    if (!xo && !yo)
        return do_nonzero(st, co);
    if (!xo || !yo) {
        PyErr_SetString(PyExc_ValueError,
                        "either both or neither of x and y should be given");
        return NULL;
    }
    /* The device: the first ember array's. */
    if (empy_is_ndarray(co))
        dev = EMPY_ARR(co)->device;
    else if (empy_is_ndarray(xo))
        dev = EMPY_ARR(xo)->device;
    else if (empy_is_ndarray(yo))
        dev = EMPY_ARR(yo)->device;
    if (!(cond = as_array(st, co, -1, dev)))
        return NULL;
    dev = EMPY_ARR(cond)->device;
    {
        PyObject *in[2] = {xo, yo}, **arr[2] = {&xa, &ya};
        for (int k = 0; k < 2; k++) {
            int s = empy_is_ndarray(in[k]) ? 0 : empy_scalar_operand(in[k],
                                                                    &ops[k]);
            if (s < 0)
                goto done;
            if (s == 0) {
                if (!(*arr[k] = as_array(st, in[k], -1, dev)))
                    goto done;
                memset(&ops[k], 0, sizeof ops[k]);
                ops[k].array = EMPY_ARR(*arr[k]);
                ops[k].dtype = ops[k].array->dtype;
            }
        }
    }
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_where(EMPY_ARR(cond), &ops[0], &ops[1], &res, NULL));
    r = result_of(st, rc, &res);
done:
    Py_XDECREF(cond);
    Py_XDECREF(xa);
    Py_XDECREF(ya);
    return r;
}

/* a's elements (flat) or rows (axis 0) under a bool condition of that
 * length, by one compaction (em_select) instead of indices and a gather;
 * Py_None (a new reference) when the operands are not of that form. */
static PyObject *select_direct(empy_state *st, const em_array *a,
                               const em_array *cond, int flat)
{
    em_array fa, fc, res;
    em_status rc;
    if (cond->dtype != EM_BOOL || cond->device != a->device ||
        (flat ? cond->size != a->size
              : a->ndim < 1 || cond->ndim != 1 ||
                    cond->shape[0] != a->shape[0]))
        Py_RETURN_NONE;
    memset(&res, 0, sizeof res);
    if (!flat) {
        EMPY_NOGIL(rc, em_select(a, NULL, cond, &res, NULL));
    } else {
        if ((rc = flat_of(a, &fa)) != EM_OK)
            return empy_fail(st, rc), NULL;
        if ((rc = flat_of(cond, &fc)) != EM_OK) {
            em_array_release(&fa);
            return empy_fail(st, rc), NULL;
        }
        EMPY_NOGIL(rc, em_select(&fa, NULL, &fc, &res, NULL));
        em_array_release(&fa);
        em_array_release(&fc);
    }
    return result_of(st, rc, &res);
}

/* compress's and extract's operands: a as an array and the condition
 * on its device (new references in *a and *cond, each NULL or set even
 * on failure, which returns -1 with the error raised). */
static int array_and_condition(empy_state *st, PyObject *ao, PyObject *co,
                               const char *fn, PyObject **a, PyObject **cond)
{
    if (!(*a = as_array(st, ao, -1, NULL)))
        return -1;
    if (!(*cond = as_array(st, co, -1, EMPY_ARR(*a)->device)))
        return -1;
    if (EMPY_ARR(*cond)->device != EMPY_ARR(*a)->device) {
        PyErr_Format(PyExc_ValueError, "%s: the condition is on %s but the "
                     "array on %s", fn, em_device_name(EMPY_ARR(*cond)->device),
                     em_device_name(EMPY_ARR(*a)->device));
        return -1;
    }
    return 0;
}

/* compress and extract: with try_direct, one compaction where
 * select_direct takes the operands (flat as it takes it); otherwise the
 * condition's nonzero (flat) positions, then a gather. */
static PyObject *compact(empy_state *st, PyObject *a, const em_array *cond,
                         int try_direct, int flat, PyObject *axo,
                         PyObject *out)
{
    PyObject *idx, *r;
    if (try_direct) {
        r = select_direct(st, EMPY_ARR(a), cond, flat);
        if (r != Py_None)
            return r;
        Py_DECREF(r);
    }
    if (!(idx = flat_nonzero(st, cond)))
        return NULL;
    r = do_take(st, a, idx, axo, out, NULL);
    Py_DECREF(idx);
    return r;
}

static PyObject *do_compress(empy_state *st, PyObject *co, PyObject *ao,
                             PyObject *axo, PyObject *out)
{
    PyObject *a = NULL, *cond = NULL, *r = NULL;
    int direct = 0;
    if (array_and_condition(st, ao, co, "compress", &a, &cond) < 0)
        goto done;
    if (EMPY_ARR(cond)->ndim != 1) {
        PyErr_SetString(PyExc_ValueError, "condition must be a 1-d array");
        goto done;
    }
    if (out == Py_None) {
        /* the whole flattened array, or axis 0: one compaction */
        long ax = 1;
        if (axo != Py_None && PyLong_Check(axo)) {
            ax = PyLong_AsLong(axo);
            if (ax == -1 && PyErr_Occurred())
                goto done;
            if (ax < 0)
                ax += EMPY_ARR(a)->ndim;
        }
        direct = axo == Py_None || ax == 0;
    }
    r = compact(st, a, EMPY_ARR(cond), direct, axo == Py_None, axo, out);
done:
    Py_XDECREF(a);
    Py_XDECREF(cond);
    return r;
}

static PyObject *fn_compress(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"condition", "a", "axis", "out", NULL};
    PyObject *c, *a, *axis = Py_None, *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO:compress", kws, &c, &a,
                                     &axis, &out))
        return NULL;
    return do_compress(empy_state_of_module(m), c, a, axis, out);
}

static PyObject *nd_compress(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"condition", "axis", "out", NULL};
    PyObject *c, *axis = Py_None, *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:compress", kws, &c, &axis,
                                     &out))
        return NULL;
    return do_compress(empy_state_of(self), c, self, axis, out);
}

static PyObject *fn_extract(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"condition", "arr", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *co, *ao, *a = NULL, *cond = NULL, *r = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:extract", kws, &co, &ao))
        return NULL;
    if (array_and_condition(st, ao, co, "extract", &a, &cond) < 0)
        goto done;
    r = compact(st, a, EMPY_ARR(cond), 1, 1, Py_None, Py_None);
done:
    Py_XDECREF(a);
    Py_XDECREF(cond);
    return r;
}

static PyObject *do_choose(empy_state *st, PyObject *ao, PyObject *co,
                           PyObject *out, PyObject *modeo)
{
    PyObject *a = NULL, *seq = NULL, *arrs[EM_CHOOSE_MAX] = {0}, *r = NULL;
    const em_array *ch[EM_CHOOSE_MAX];
    em_index_mode mode;
    em_array res;
    em_status rc;
    Py_ssize_t n = 0;
    if (parse_mode(modeo, &mode) < 0 || !(a = as_array(st, ao, -1, NULL)))
        return NULL;
    if (em_dtype_get(EMPY_ARR(a)->dtype)->kind != 'i' &&
        em_dtype_get(EMPY_ARR(a)->dtype)->kind != 'u') {
        PyErr_Format(PyExc_TypeError, "choose: the index array must be of an "
                     "integer dtype, not %s",
                     em_dtype_get(EMPY_ARR(a)->dtype)->name);
        goto done;
    }
    if (!(seq = PySequence_Fast(co, "choices must be a sequence of arrays")))
        goto done;
    n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > EM_CHOOSE_MAX) {
        PyErr_Format(PyExc_ValueError, "choose: %zd choices (ember takes 1 to "
                     "%d)", n, EM_CHOOSE_MAX);
        n = 0;      /* arrs holds EM_CHOOSE_MAX: none of them to release */
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(arrs[i] = as_array(st, PySequence_Fast_GET_ITEM(seq, i), -1,
                                 EMPY_ARR(a)->device)))
            goto done;
        ch[i] = EMPY_ARR(arrs[i]);
    }
    if (out && out != Py_None) {
        if (!empy_is_ndarray(out)) {
            PyErr_SetString(PyExc_TypeError, "choose: out must be an ember "
                            "array");
            goto done;
        }
        res = *EMPY_ARR(out);
    } else {
        memset(&res, 0, sizeof res);
    }
    EMPY_NOGIL(rc, em_choose(EMPY_ARR(a), ch, (int)n, mode, &res, NULL));
    if (rc != EM_OK) {
        empy_fail(st, rc);
    } else if (out && out != Py_None) {
        Py_INCREF(out);
        r = out;
    } else {
        r = empy_ndarray_new(st, &res, NULL);
    }
done:
    for (Py_ssize_t i = 0; i < n; i++)
        Py_XDECREF(arrs[i]);
    Py_XDECREF(seq);
    Py_XDECREF(a);
    return r;
}

static PyObject *fn_choose(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"a", "choices", "out", "mode", NULL};
    PyObject *a, *c, *out = Py_None, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO:choose", kws, &a, &c,
                                     &out, &mode))
        return NULL;
    return do_choose(empy_state_of_module(m), a, c, out, mode);
}

static PyObject *nd_choose(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"choices", "out", "mode", NULL};
    PyObject *c, *out = Py_None, *mode = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:choose", kws, &c, &out,
                                     &mode))
        return NULL;
    return do_choose(empy_state_of(self), self, c, out, mode);
}

/* select: the default everywhere, then each choice where its condition
 * holds, last to first, so the first true condition wins (masked copies,
 * no compaction). */
static PyObject *fn_select(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"condlist", "choicelist", "default", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *cl, *chl, *def = NULL, *cs = NULL, *hs = NULL, *r = NULL;
    PyObject *conds[EM_CHOOSE_MAX] = {0}, *chs[EM_CHOOSE_MAX] = {0};
    em_operand ops[EM_CHOOSE_MAX + 1];
    em_device *dev = NULL;
    em_array res;
    em_status rc = EM_OK;
    int64_t shape[EM_MAX_NDIM];
    int nd = 0;
    Py_ssize_t n = 0;
    em_dtype dt;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|O:select", kws, &cl, &chl,
                                     &def))
        return NULL;
    if (!(cs = PySequence_Fast(cl, "condlist must be a sequence")) ||
        !(hs = PySequence_Fast(chl, "choicelist must be a sequence")))
        goto done;
    n = PySequence_Fast_GET_SIZE(cs);
    if (n != PySequence_Fast_GET_SIZE(hs)) {
        PyErr_SetString(PyExc_ValueError, "list of cases must be same length "
                        "as list of conditions");
        n = 0;
        goto done;
    }
    if (n < 1 || n > EM_CHOOSE_MAX) {
        PyErr_Format(PyExc_ValueError, "select: %zd cases (ember takes 1 to "
                     "%d)", n, EM_CHOOSE_MAX);
        n = 0;
        goto done;
    }
    for (Py_ssize_t i = 0; i < n && !dev; i++) {
        if (empy_is_ndarray(PySequence_Fast_GET_ITEM(cs, i)))
            dev = EMPY_ARR(PySequence_Fast_GET_ITEM(cs, i))->device;
        else if (empy_is_ndarray(PySequence_Fast_GET_ITEM(hs, i)))
            dev = EMPY_ARR(PySequence_Fast_GET_ITEM(hs, i))->device;
    }
    memset(ops, 0, sizeof ops);
    for (Py_ssize_t i = 0; i < n; i++) {
        const em_array *c, *h;
        if (!(conds[i] = as_array(st, PySequence_Fast_GET_ITEM(cs, i), -1,
                                  dev)) ||
            !(chs[i] = as_array(st, PySequence_Fast_GET_ITEM(hs, i), -1, dev)))
            goto done;
        c = EMPY_ARR(conds[i]);
        h = EMPY_ARR(chs[i]);
        dev = c->device;
        if (c->dtype != EM_BOOL) {
            PyErr_Format(PyExc_TypeError, "invalid entry %zd in condlist: "
                         "should be boolean ndarray", i);
            goto done;
        }
        if (h->device != dev || c->device != dev) {
            PyErr_Format(PyExc_ValueError, "select: arrays on %s and %s "
                         "(ember does not copy between devices implicitly)",
                         em_device_name(dev), em_device_name(h->device));
            goto done;
        }
        if (em_shape_broadcast(nd, shape, c->ndim, c->shape, &nd, shape) !=
                EM_OK ||
            em_shape_broadcast(nd, shape, h->ndim, h->shape, &nd, shape) !=
                EM_OK) {
            PyErr_SetString(PyExc_ValueError, "shape mismatch: objects cannot "
                            "be broadcast to a single shape");
            goto done;
        }
        ops[i].array = h;
        ops[i].dtype = h->dtype;
    }
    {
        PyObject *zero = def ? NULL : PyLong_FromLong(0);
        int k = def || zero ? empy_scalar_operand(def ? def : zero, &ops[n])
                            : -1;
        Py_XDECREF(zero);
        if (k < 0)
            goto done;
        if (k == 0) {
            PyErr_SetString(PyExc_TypeError, "select: default must be a "
                            "scalar in ember");
            goto done;
        }
    }
    if ((rc = em_result_type(ops, (int)n + 1, &dt)) != EM_OK) {
        empy_fail(st, rc);
        goto done;
    }
    rc = em_array_empty(dev, dt, nd, shape, 'C', NULL, &res);
    if (rc == EM_OK) {
        em_operand d = ops[n];
        unsigned char buf[16];
        if ((rc = em_scalar_cast(&d.value, d.dtype, buf, dt)) == EM_OK) {
            memcpy(&d.value, buf, sizeof buf);
            d.dtype = dt;
            d.weak = 0;
            Py_BEGIN_ALLOW_THREADS
            rc = em_ufunc_apply(EM_OP_COPY, &d, 1, &res, NULL, NULL);
            for (Py_ssize_t i = n - 1; i >= 0 && rc == EM_OK; i--)
                rc = em_ufunc_apply(EM_OP_COPY, &ops[i], 1, &res,
                                    EMPY_ARR(conds[i]), NULL);
            Py_END_ALLOW_THREADS
        }
        if (rc != EM_OK)
            em_array_release(&res);
    }
    r = result_of(st, rc, &res);
done:
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_XDECREF(conds[i]);
        Py_XDECREF(chs[i]);
    }
    Py_XDECREF(cs);
    Py_XDECREF(hs);
    return r;
}

#define KW(f) ((PyCFunction)(void (*)(void))(f)), METH_VARARGS | METH_KEYWORDS

static PyMethodDef indexfn_functions[] = {
    {"take", KW(fn_take), "take(a, indices, axis=None, out=None, "
     "mode='raise'): elements of a along an axis"},
    {"take_along_axis", KW(fn_take_along_axis),
     "take_along_axis(arr, indices, axis)"},
    {"put", KW(fn_put), "put(a, ind, v, mode='raise'): a.flat[ind] = v"},
    {"put_along_axis", KW(fn_put_along_axis),
     "put_along_axis(arr, indices, values, axis)"},
    {"choose", KW(fn_choose), "choose(a, choices, out=None, mode='raise')"},
    {"select", KW(fn_select), "select(condlist, choicelist, default=0)"},
    {"where", KW(fn_where), "where(condition, x, y), or nonzero(condition)"},
    {"nonzero", (PyCFunction)fn_nonzero, METH_O,
     "nonzero(a): a tuple of int64 index arrays, one per axis"},
    {"flatnonzero", (PyCFunction)fn_flatnonzero, METH_O,
     "flatnonzero(a): indices of the nonzero elements of a.ravel()"},
    {"argwhere", (PyCFunction)fn_argwhere, METH_O,
     "argwhere(a): the nonzero coordinates as rows"},
    {"compress", KW(fn_compress), "compress(condition, a, axis=None, "
     "out=None)"},
    {"extract", KW(fn_extract), "extract(condition, arr)"},
    {NULL},
};

PyMethodDef empy_indexfn_nd_methods[] = {
    {"take", KW(nd_take), "take(indices, axis=None, out=None, mode='raise')"},
    {"put", KW(nd_put), "put(indices, values, mode='raise')"},
    {"nonzero", (PyCFunction)nd_nonzero, METH_NOARGS,
     "nonzero(): a tuple of int64 index arrays"},
    {"compress", KW(nd_compress), "compress(condition, axis=None, out=None)"},
    {"choose", KW(nd_choose), "choose(choices, out=None, mode='raise')"},
    {NULL},
};

int empy_indexfn_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, indexfn_functions);
}
