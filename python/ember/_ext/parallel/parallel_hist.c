/* ember Python extension: ember.parallel.histogram_even, and the narrow
 * entries under NumPy's histogram, bincount, digitize, unique, set
 * operations and quantiles, whose signatures _api/ parses; each releases
 * the GIL around its C call. */
#include <string.h>

#include "runtime/errors.h"
#include "parallel/parallel.h"

/* The second array must live where the first does. */
static int same_device(PyObject *a, PyObject *b, const char *fn, const char *an,
                       const char *bn)
{
    if (EMPY_ARR(a)->device == EMPY_ARR(b)->device)
        return 0;
    PyErr_Format(PyExc_ValueError,
                 "%s: %s is on %s but %s on %s (ember does not copy between "
                 "devices implicitly)",
                 fn, bn, em_device_name(EMPY_ARR(b)->device), an,
                 em_device_name(EMPY_ARR(a)->device));
    return -1;
}

/* A tuple of new ndarrays over rs[0..n) (n <= 4; every array's reference
 * moves in, even on failure). */
static PyObject *array_tuple(empy_state *st, em_array *rs, int n)
{
    PyObject *parts[4], *res;
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= (parts[i] = empy_ndarray_new(st, &rs[i], NULL)) != NULL;
    if (!ok || !(res = PyTuple_New(n))) {
        for (int i = 0; i < n; i++)
            Py_XDECREF(parts[i]);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(res, i, parts[i]);
    return res;
}

static PyObject *wrap_new(empy_state *st, em_status s, em_array *r)
{
    if (s != EM_OK)
        return empy_raise(st, s);
    return empy_ndarray_new(st, r, NULL);
}

static PyObject *py_histogram_even(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"x", "bins", "lower", "upper", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *xo, *x;
    long long bins;
    double lo, hi;
    em_array r;
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OLdd:histogram_even", kws, &xo,
                                     &bins, &lo, &hi))
        return NULL;
    if (empy_is_ndarray(xo))
        x = Py_NewRef(xo);
    else if (!(x = empy_asarray(st, xo, -1, NULL, EMPY_COPY_IF_NEEDED, 'K')))
        return NULL;
    EMPY_NOGIL(s, em_histogram_even(EMPY_ARR(x), bins, lo, hi, &r, NULL));
    Py_DECREF(x);
    return wrap_new(st, s, &r);
}

/* The entries below serve _api/histograms.py and _api/sets.py, which
 * parse NumPy's signatures: arrays come checked and on one device, a
 * range as has_range, lo, hi. */

/* _hist_bin_count(a, estimator, has_range, lo, hi): the bin count that
 * NumPy's estimator of that name picks for a. */
static PyObject *py_hist_bin_count(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a;
    const char *name;
    int has;
    double lo, hi;
    int64_t count = 1;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!spdd:_hist_bin_count", st->ndarray, &a,
                          &name, &has, &lo, &hi))
        return NULL;
    EMPY_NOGIL(s, em_histogram_bin_count(EMPY_ARR(a), name, has, lo, hi,
                                         &count, NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    return PyLong_FromLongLong(count);
}

/* _hist_edges(a, count, has_range, lo, hi): count + 1 equal-width edges. */
static PyObject *py_hist_edges(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a;
    long long nb;
    int has;
    double lo, hi;
    em_array r;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!Lpdd:_hist_edges", st->ndarray, &a, &nb,
                          &has, &lo, &hi))
        return NULL;
    EMPY_NOGIL(s, em_histogram_bin_edges(EMPY_ARR(a), nb, has, lo, hi, &r,
                                         NULL, NULL));
    return wrap_new(st, s, &r);
}

/* _histogram(a, weights, edges, count, has_range, lo, hi, density):
 * (hist, edges); edges None: count equal bins, whose grid is known here,
 * so the counting reads no edges. */
static PyObject *py_histogram(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *wo, *eo, *e = NULL, *h, *res;
    const em_array *w;
    long long nb;
    int has, density;
    double lo, hi;
    em_array r, r2;
    em_hist_grid grid = {0, 0, 0};
    em_status s;
    if (!PyArg_ParseTuple(args, "O!OOLpddp:_histogram", st->ndarray, &a, &wo,
                          &eo, &nb, &has, &lo, &hi, &density) ||
        empy_par_array(st, wo, 1, &w) < 0)
        return NULL;
    if (eo == Py_None) {
        EMPY_NOGIL(s, em_histogram_bin_edges(EMPY_ARR(a), nb, has, lo, hi, &r,
                                             &grid, NULL));
        if (!(e = wrap_new(st, s, &r)))
            return NULL;
        EMPY_NOGIL(s, em_histogram_uniform(EMPY_ARR(a), w, EMPY_ARR(e), &grid,
                                           &r, NULL));
    } else {
        if (!PyObject_TypeCheck(eo, st->ndarray)) {
            PyErr_SetString(PyExc_TypeError, "_histogram: edges must be an "
                                             "ndarray or None");
            return NULL;
        }
        e = Py_NewRef(eo);
        EMPY_NOGIL(s, em_histogram_edges(EMPY_ARR(a), w, EMPY_ARR(e), 0, &r,
                                         NULL));
    }
    if (s == EM_OK && density) {
        EMPY_NOGIL(s, em_histogram_density(&r, EMPY_ARR(e), &r2, NULL));
        em_array_release(&r);
        r = r2;
    }
    if (s != EM_OK || !(h = empy_ndarray_new(st, &r, NULL))) {
        if (s != EM_OK)
            empy_raise(st, s);
        Py_DECREF(e);
        return NULL;
    }
    res = PyTuple_Pack(2, h, e);
    Py_DECREF(h);
    Py_DECREF(e);
    return res;
}

/* One histogram2d axis, (edges or None, count, has_range, lo, hi). */
static int hist_axis(empy_state *st, PyObject *o, em_hist_axis *ax)
{
    PyObject *eo;
    long long count;
    memset(ax, 0, sizeof *ax);
    if (!PyArg_ParseTuple(o, "OLpdd:_histogram2d axis", &eo, &count,
                          &ax->has_range, &ax->lo, &ax->hi) ||
        empy_par_array(st, eo, 1, &ax->edges) < 0)
        return -1;
    ax->count = count;
    return 0;
}

/* _histogram2d(x, y, weights, xaxis, yaxis, density): (hist, xedges,
 * yedges). */
static PyObject *py_histogram2d(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *x, *y, *wo, *axo[2];
    const em_array *w;
    em_hist_axis ax[2];
    em_array out[3];
    int density;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!O!OO!O!p:_histogram2d", st->ndarray, &x,
                          st->ndarray, &y, &wo, &PyTuple_Type, &axo[0],
                          &PyTuple_Type, &axo[1], &density) ||
        empy_par_array(st, wo, 1, &w) < 0 ||
        hist_axis(st, axo[0], &ax[0]) < 0 ||
        hist_axis(st, axo[1], &ax[1]) < 0)
        return NULL;
    EMPY_NOGIL(s, em_histogram2d(EMPY_ARR(x), EMPY_ARR(y), w, ax, density,
                                 &out[0], &out[1], &out[2], NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    return array_tuple(st, out, 3);
}

/* _bincount(x, weights, minlength) */
static PyObject *py_bincount(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *x, *wo;
    const em_array *w;
    long long minlength;
    em_array r;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!OL:_bincount", st->ndarray, &x, &wo,
                          &minlength) ||
        empy_par_array(st, wo, 1, &w) < 0)
        return NULL;
    EMPY_NOGIL(s, em_bincount(EMPY_ARR(x), w, minlength, &r, NULL));
    return wrap_new(st, s, &r);
}

/* _digitize(x, bins, right) */
static PyObject *py_digitize(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *x, *b;
    int right;
    em_array r;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!O!p:_digitize", st->ndarray, &x,
                          st->ndarray, &b, &right))
        return NULL;
    EMPY_NOGIL(s, em_digitize(EMPY_ARR(x), EMPY_ARR(b), right, &r, NULL));
    return wrap_new(st, s, &r);
}

/* _unique(x, equal_nan, return_index, return_inverse, return_counts): a
 * tuple of the values and the wanted parts, in NumPy's order. */
static PyObject *py_unique(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *x;
    em_array parts[4]; /* values, index, inverse, counts */
    int en, ri, rv, rc, n = 1;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!pppp:_unique", st->ndarray, &x, &en, &ri,
                          &rv, &rc))
        return NULL;
    EMPY_NOGIL(s, em_unique(EMPY_ARR(x), en, &parts[0], ri ? &parts[1] : NULL,
                            rv ? &parts[2] : NULL, rc ? &parts[3] : NULL,
                            NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    if (ri)
        parts[n++] = parts[1];
    if (rv)
        parts[n++] = parts[2];
    if (rc)
        parts[n++] = parts[3];
    return array_tuple(st, parts, n);
}

/* _setop(op, ar1, ar2, assume_unique, flag): the set operations of
 * src/algo/setops.c for _api/sets.py, which parses NumPy's signatures
 * and puts both arrays on one device. op: "isin" (flag: invert),
 * "union1d", "intersect1d" (flag: return_indices, then a tuple of
 * values and the indices into ar1 and ar2), "setdiff1d", "setxor1d". */
static PyObject *py_setop(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    const char *op;
    PyObject *ao, *bo;
    const em_array *a, *b;
    int au, flag, tuple = 0;
    em_array r[3];
    em_status s;
    if (!PyArg_ParseTuple(args, "sO!O!pp:_setop", &op, st->ndarray, &ao,
                          st->ndarray, &bo, &au, &flag) ||
        same_device(ao, bo, op, "ar1", "ar2") < 0)
        return NULL;
    a = EMPY_ARR(ao), b = EMPY_ARR(bo);
    if (!strcmp(op, "isin")) {
        EMPY_NOGIL(s, em_isin(a, b, flag, &r[0], NULL));
    } else if (!strcmp(op, "union1d")) {
        EMPY_NOGIL(s, em_union1d(a, b, &r[0], NULL));
    } else if (!strcmp(op, "intersect1d")) {
        tuple = flag;
        EMPY_NOGIL(s, em_intersect1d(a, b, au, &r[0], flag ? &r[1] : NULL,
                                     flag ? &r[2] : NULL, NULL));
    } else if (!strcmp(op, "setdiff1d")) {
        EMPY_NOGIL(s, em_setdiff1d(a, b, au, &r[0], NULL));
    } else if (!strcmp(op, "setxor1d")) {
        EMPY_NOGIL(s, em_setxor1d(a, b, au, &r[0], NULL));
    } else {
        PyErr_Format(PyExc_ValueError, "_setop: no set operation '%s'", op);
        return NULL;
    }
    if (s != EM_OK)
        return empy_raise(st, s);
    return tuple ? array_tuple(st, r, 3) : empy_ndarray_new(st, &r[0], NULL);
}

/* ---- median, quantile, percentile ------------------------------------ */

/* _quantile(a, q, qshape, axes, keepdims, median, skipnan, dtype): the
 * order statistics of src/algo/quantile.c (sort each row, one kernel
 * interpolates) for _api/quantiles.py, which parses NumPy's signatures:
 * q a list of fractions of shape qshape (ignored for a median), axes
 * None or a tuple of ints, dtype the result's. */
static PyObject *py_quantile_core(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *ql, *qsh, *axo, *dto, *res = NULL;
    int keepdims, median, skipnan, axes[EM_MAX_NDIM], naxes = -1, qndim;
    int64_t qshape[EM_MAX_NDIM];
    double *qv;
    Py_ssize_t nq;
    em_dtype dt;
    em_array r;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!O!OOpppO:_quantile", st->ndarray, &a,
                          &PyList_Type, &ql, &qsh, &axo, &keepdims, &median,
                          &skipnan, &dto) ||
        empy_shape_arg(qsh, "q", &qndim, qshape) < 0 ||
        empy_dtype_arg(st, dto, &dt) < 0)
        return NULL;
    if (axo != Py_None) {
        if (!PyTuple_Check(axo) || PyTuple_GET_SIZE(axo) > EM_MAX_NDIM) {
            PyErr_SetString(PyExc_ValueError, "too many axes");
            return NULL;
        }
        naxes = (int)PyTuple_GET_SIZE(axo);
        for (int i = 0; i < naxes; i++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(axo, i));
            if (v == -1 && PyErr_Occurred())
                return NULL;
            /* past any array's dimensions: the core's AxisError */
            axes[i] = v < -EM_MAX_NDIM - 1 || v > EM_MAX_NDIM ? EM_MAX_NDIM
                                                               : (int)v;
        }
    }
    nq = PyList_GET_SIZE(ql);
    {
        int64_t n = 1; /* the core reads prod(qshape) fractions */
        for (int i = 0; i < qndim; i++)
            n *= qshape[i];
        if (!median && n != nq) {
            PyErr_SetString(PyExc_ValueError, "_quantile: q and qshape differ");
            return NULL;
        }
    }
    if (!(qv = PyMem_Malloc((size_t)(nq ? nq : 1) * sizeof *qv)))
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < nq; i++) {
        qv[i] = PyFloat_AsDouble(PyList_GET_ITEM(ql, i));
        if (qv[i] == -1 && PyErr_Occurred())
            goto done;
    }
    EMPY_NOGIL(s, em_quantile(EMPY_ARR(a), qv, qndim, qshape,
                              naxes < 0 ? NULL : axes, naxes, keepdims,
                              median, skipnan, dt, &r, NULL));
    res = wrap_new(st, s, &r);
done:
    PyMem_Free(qv);
    return res;
}

#define KW (PyCFunction)(void (*)(void))

PyMethodDef empy_par_hist_functions[] = {
    {"_par_histogram_even", KW py_histogram_even,
     METH_VARARGS | METH_KEYWORDS,
     "histogram_even(x, bins, lower, upper): int64 counts of `bins` equal "
     "half-open bins over [lower, upper) (CUB's HistogramEven)."},
    {NULL},
};

PyMethodDef empy_np_hist_functions[] = {
    {"_hist_bin_count", py_hist_bin_count, METH_VARARGS,
     "_hist_bin_count(a, estimator, has_range, lo, hi)"},
    {"_hist_edges", py_hist_edges, METH_VARARGS,
     "_hist_edges(a, count, has_range, lo, hi)"},
    {"_histogram", py_histogram, METH_VARARGS,
     "_histogram(a, weights, edges, count, has_range, lo, hi, density)"},
    {"_histogram2d", py_histogram2d, METH_VARARGS,
     "_histogram2d(x, y, weights, xaxis, yaxis, density)"},
    {"_bincount", py_bincount, METH_VARARGS, "_bincount(x, weights, minlength)"},
    {"_digitize", py_digitize, METH_VARARGS, "_digitize(x, bins, right)"},
    {"_unique", py_unique, METH_VARARGS,
     "_unique(x, equal_nan, return_index, return_inverse, return_counts)"},
    {"_setop", py_setop, METH_VARARGS,
     "_setop(op, ar1, ar2, assume_unique, flag)"},
    {"_quantile", py_quantile_core, METH_VARARGS,
     "_quantile(a, q, qshape, axes, keepdims, median, skipnan, dtype)"},
    {NULL},
};
