/* ember Python extension: the parallel algorithms' hist family:
 * ember.parallel.histogram_even and NumPy's histogram,
 * histogram_bin_edges, bincount and digitize, over include/ember/
 * histogram.h with the GIL released around each C call. */
#include <math.h>
#include <string.h>

#include "runtime/errors.h"
#include "array/ndarray.h"

/* An ember array for an argument: ember arrays as they are, anything
 * else onto dev (NULL: the current device), dtype inferred. */
static PyObject *hist_array(empy_state *st, PyObject *o, em_device *dev)
{
    if (empy_is_ndarray(o)) {
        Py_INCREF(o);
        return o;
    }
    return empy_asarray(st, o, -1, dev, EMPY_COPY_IF_NEEDED, 'K');
}

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

/* o as an array on a's device, named an and on in the error when o is an
 * ember array elsewhere. Returns a new reference or NULL. */
static PyObject *array_beside(empy_state *st, PyObject *a, PyObject *o,
                              const char *fn, const char *an, const char *on)
{
    PyObject *b = hist_array(st, o, EMPY_ARR(a)->device);
    if (b && same_device(a, b, fn, an, on) < 0)
        Py_CLEAR(b);
    return b;
}

/* Two array arguments an and bn of fn on one device (the second follows
 * the first). */
static int two_arrays(empy_state *st, PyObject *ao, PyObject *bo,
                      const char *fn, const char *an, const char *bn,
                      PyObject **a, PyObject **b)
{
    *b = NULL;
    if (!(*a = hist_array(st, ao, NULL)))
        return -1;
    if (!(*b = array_beside(st, *a, bo, fn, an, bn))) {
        Py_CLEAR(*a);
        return -1;
    }
    return 0;
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
    if (!(x = hist_array(st, xo, NULL)))
        return NULL;
    EMPY_NOGIL(s, em_histogram_even(EMPY_ARR(x), bins, lo, hi, &r, NULL));
    Py_DECREF(x);
    return wrap_new(st, s, &r);
}

/* range=(lo, hi) or None. */
static int parse_range(PyObject *o, int *has, double *lo, double *hi)
{
    PyObject *seq;
    *has = 0;
    if (!o || o == Py_None)
        return 0;
    if (!(seq = PySequence_Fast(o, "range must be a pair (min, max)")))
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 2) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "range must be a pair (min, max)");
        return -1;
    }
    *lo = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, 0));
    if (!PyErr_Occurred())
        *hi = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, 1));
    Py_DECREF(seq);
    if (PyErr_Occurred())
        return -1;
    *has = 1;
    return 0;
}

/* NumPy's estimator names for a string `bins`. */
static int known_estimator(const char *name)
{
    static const char *const names[] = {"stone", "auto",  "doane", "fd",
                                        "rice",  "scott", "sqrt",  "sturges"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(name, names[i]))
            return 1;
    return 0;
}

/* An int-like scalar (a bin count), not an array of edges. */
static int is_count(PyObject *o)
{
    if (empy_is_ndarray(o))
        return EMPY_ARR(o)->ndim == 0 &&
               em_dtype_get(EMPY_ARR(o)->dtype)->kind_id != EM_KIND_FLOAT;
    return PyLong_Check(o) || (PyIndex_Check(o) && !PySequence_Check(o));
}

/* The edges of histogram(a, bins, range) (weighted: weights were given):
 * *uniform when bins was a count or an estimator's name. Returns a new
 * ndarray or NULL. */
static PyObject *bin_edges(empy_state *st, PyObject *a, PyObject *bins,
                           PyObject *range, int weighted, int *uniform,
                           em_hist_grid *grid)
{
    em_array r;
    em_status s;
    long long nb = 0;
    int has;
    double lo = 0, hi = 0;
    *uniform = 0;
    if (PyUnicode_Check(bins)) {
        const char *name = PyUnicode_AsUTF8(bins);
        int64_t count = 1;
        if (!name)
            return NULL;
        if (!known_estimator(name)) {
            PyErr_Format(PyExc_ValueError,
                         "%R is not a valid estimator for `bins`", bins);
            return NULL;
        }
        if (weighted) {
            PyErr_SetString(PyExc_TypeError,
                            "Automated estimation of the number of bins is "
                            "not supported for weighted data");
            return NULL;
        }
        if (parse_range(range, &has, &lo, &hi) < 0)
            return NULL;
        EMPY_NOGIL(s, em_histogram_bin_count(EMPY_ARR(a), name, has, lo, hi,
                                             &count, NULL));
        if (s != EM_OK)
            return empy_raise(st, s);
        nb = count;
    } else if (is_count(bins)) {
        /* arrays (ember's or NumPy's) have __index__ too: edges, not a
         * count, unless they are integer scalars */
        nb = PyLong_AsLongLong(bins);
        if (nb == -1 && PyErr_Occurred())
            return NULL;
        if (parse_range(range, &has, &lo, &hi) < 0)
            return NULL;
    } else {
        PyObject *e = array_beside(st, a, bins, "histogram", "a", "bins");
        if (!e)
            return NULL;
        if (EMPY_ARR(e)->ndim != 1) {
            Py_DECREF(e);
            PyErr_SetString(PyExc_ValueError,
                            "`bins` must be 1d, when an array");
            return NULL;
        }
        return e;
    }
    EMPY_NOGIL(s, em_histogram_bin_edges(EMPY_ARR(a), nb, has, lo, hi, &r, grid,
                                         NULL));
    *uniform = 1;
    return wrap_new(st, s, &r);
}

static PyObject *py_histogram_bin_edges(PyObject *m, PyObject *args,
                                        PyObject *kw)
{
    static char *kws[] = {"a", "bins", "range", "weights", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *ao, *a, *bins = NULL, *range = NULL, *wo = NULL, *e, *ten;
    int uniform;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOO:histogram_bin_edges", kws,
                                     &ao, &bins, &range, &wo))
        return NULL;
    if (!(a = hist_array(st, ao, NULL)))
        return NULL;
    if (!(ten = PyLong_FromLong(10))) {
        Py_DECREF(a);
        return NULL;
    }
    e = bin_edges(st, a, bins ? bins : ten, range, wo && wo != Py_None,
                  &uniform, NULL);
    Py_DECREF(ten);
    Py_DECREF(a);
    return e;
}

static PyObject *py_histogram(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"a", "bins", "range", "density", "weights", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *ao, *a, *bins = NULL, *range = NULL, *dens = NULL, *wo = NULL;
    PyObject *w = NULL, *e = NULL, *ten = NULL, *res = NULL, *h;
    em_array r, r2;
    em_status s;
    int uniform, density = 0;
    em_hist_grid grid = {0, 0, 0};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOOO:histogram", kws, &ao,
                                     &bins, &range, &dens, &wo))
        return NULL;
    if (dens && dens != Py_None && (density = PyObject_IsTrue(dens)) < 0)
        return NULL;
    if (!(a = hist_array(st, ao, NULL)))
        return NULL;
    if (wo && wo != Py_None &&
        !(w = array_beside(st, a, wo, "histogram", "a", "weights")))
        goto done;
    if (!(ten = PyLong_FromLong(10)))
        goto done;
    if (!(e = bin_edges(st, a, bins ? bins : ten, range, w != NULL, &uniform,
                        &grid)))
        goto done;
    /* equal bins: their grid is known here, so no read of the edges */
    if (uniform)
        EMPY_NOGIL(s, em_histogram_uniform(EMPY_ARR(a), w ? EMPY_ARR(w) : NULL,
                                           EMPY_ARR(e), &grid, &r, NULL));
    else
        EMPY_NOGIL(s, em_histogram_edges(EMPY_ARR(a), w ? EMPY_ARR(w) : NULL,
                                         EMPY_ARR(e), 0, &r, NULL));
    if (s != EM_OK) {
        empy_raise(st, s);
        goto done;
    }
    if (density) {
        EMPY_NOGIL(s, em_histogram_density(&r, EMPY_ARR(e), &r2, NULL));
        em_array_release(&r);
        if (s != EM_OK) {
            empy_raise(st, s);
            goto done;
        }
        r = r2;
    } else if (w && EMPY_ARR(w)->dtype != EM_FLOAT64 &&
               EMPY_ARR(w)->dtype != EM_BOOL &&
               em_dtype_get(EMPY_ARR(w)->dtype)->kind_id != EM_KIND_COMPLEX) {
        /* NumPy sums weights in their own dtype. */
        int64_t nb = r.size;
        s = em_array_empty(r.device, EMPY_ARR(w)->dtype, 1, &nb, 'C', NULL,
                           &r2);
        if (s == EM_OK)
            EMPY_NOGIL(s, em_array_copy(&r2, &r, NULL));
        em_array_release(&r);
        if (s != EM_OK) {
            if (r2.storage)
                em_array_release(&r2);
            empy_raise(st, s);
            goto done;
        }
        r = r2;
    }
    if (!(h = empy_ndarray_new(st, &r, NULL)))
        goto done;
    res = PyTuple_Pack(2, h, e);
    Py_DECREF(h);
done:
    Py_XDECREF(ten);
    Py_XDECREF(e);
    Py_XDECREF(w);
    Py_DECREF(a);
    return res;
}


/* histogram2d's bins[i] (a count or edges) and range[i] into *ax; *keep
 * holds the edges array, if any. */
static int axis_bins(empy_state *st, PyObject *b, PyObject *rng, PyObject *x,
                     int i, em_hist_axis *ax, PyObject **keep)
{
    memset(ax, 0, sizeof *ax);
    *keep = NULL;
    if (rng && parse_range(rng, &ax->has_range, &ax->lo, &ax->hi) < 0)
        return -1;
    if (is_count(b)) {
        long long c = PyLong_AsLongLong(b);
        if (c == -1 && PyErr_Occurred())
            return -1;
        ax->count = c;
        return 0;
    }
    if (PyFloat_Check(b) || (empy_is_ndarray(b) && EMPY_ARR(b)->ndim == 0)) {
        PyErr_Format(PyExc_TypeError,
                     "histogram2d: `bins[%d]` must be an integer or an array "
                     "of edges, not %R",
                     i, b);
        return -1;
    }
    if (!(*keep = array_beside(st, x, b, "histogram2d", "x", "bins")))
        return -1;
    ax->edges = EMPY_ARR(*keep);
    return 0;
}

static PyObject *py_histogram2d(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"x",       "y",       "bins", "range",
                          "density", "weights", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *xo, *yo, *bins = NULL, *range = NULL, *dens = NULL, *wo = NULL;
    PyObject *x = NULL, *y = NULL, *w = NULL, *b[2] = {NULL, NULL};
    PyObject *r[2] = {NULL, NULL}, *keep[2] = {NULL, NULL}, *seq = NULL;
    PyObject *rseq = NULL, *res = NULL;
    em_hist_axis ax[2];
    em_array out[3]; /* hist, xedges, yedges */
    em_status s;
    int density = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOOO:histogram2d", kws, &xo,
                                     &yo, &bins, &range, &dens, &wo))
        return NULL;
    if (dens && dens != Py_None && (density = PyObject_IsTrue(dens)) < 0)
        return NULL;
    if (!(x = hist_array(st, xo, NULL)))
        return NULL;
    if (!(y = array_beside(st, x, yo, "histogram2d", "x", "y")))
        goto done;
    if (wo && wo != Py_None &&
        !(w = array_beside(st, x, wo, "histogram2d", "x", "weights")))
        goto done;
    /* NumPy's reading of bins: a count for both, a pair (each a count or
     * edges), or one array of edges for both */
    if (!bins || is_count(bins)) {
        b[0] = b[1] = bins ? bins : NULL;
    } else if (PyUnicode_Check(bins)) {
        PyErr_Format(PyExc_ValueError,
                     "histogram2d: bins=%R: bin-width estimators are for "
                     "histogram only",
                     bins);
        goto done;
    } else {
        Py_ssize_t nb = PyObject_Length(bins);
        if (nb < 0)
            goto done;
        if (nb == 1) {
            PyErr_SetString(PyExc_ValueError,
                            "The dimension of bins must be equal to the "
                            "dimension of the sample x.");
            goto done;
        }
        if (nb == 2) {
            if (!(seq = PySequence_Fast(bins, "bins must be a sequence")))
                goto done;
            b[0] = PySequence_Fast_GET_ITEM(seq, 0);
            b[1] = PySequence_Fast_GET_ITEM(seq, 1);
        } else {
            b[0] = b[1] = bins;
        }
    }
    if (range && range != Py_None) {
        if (!(rseq = PySequence_Fast(range, "range must be a pair of pairs")))
            goto done;
        if (PySequence_Fast_GET_SIZE(rseq) != 2) {
            PyErr_SetString(PyExc_ValueError,
                            "histogram2d: range must be [[xmin, xmax], "
                            "[ymin, ymax]]");
            goto done;
        }
        r[0] = PySequence_Fast_GET_ITEM(rseq, 0);
        r[1] = PySequence_Fast_GET_ITEM(rseq, 1);
    }
    for (int i = 0; i < 2; i++) {
        if (!b[i]) {
            memset(&ax[i], 0, sizeof ax[i]);
            ax[i].count = 10;
            if (r[i] &&
                parse_range(r[i], &ax[i].has_range, &ax[i].lo, &ax[i].hi) < 0)
                goto done;
        } else if (axis_bins(st, b[i], r[i], x, i, &ax[i], &keep[i]) < 0) {
            goto done;
        }
    }
    EMPY_NOGIL(s,
               em_histogram2d(EMPY_ARR(x), EMPY_ARR(y), w ? EMPY_ARR(w) : NULL,
                              ax, density, &out[0], &out[1], &out[2], NULL));
    if (s != EM_OK) {
        empy_raise(st, s);
        goto done;
    }
    res = array_tuple(st, out, 3);
done:
    Py_XDECREF(keep[0]);
    Py_XDECREF(keep[1]);
    Py_XDECREF(seq);
    Py_XDECREF(rseq);
    Py_XDECREF(w);
    Py_XDECREF(y);
    Py_XDECREF(x);
    return res;
}

static PyObject *py_bincount(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"x", "weights", "minlength", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *xo, *x, *wo = NULL, *w = NULL, *res = NULL;
    long long minlength = 0;
    em_array r;
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OL:bincount", kws, &xo, &wo,
                                     &minlength))
        return NULL;
    if (!(x = hist_array(st, xo, NULL)))
        return NULL;
    if (wo && wo != Py_None &&
        !(w = array_beside(st, x, wo, "bincount", "x", "weights")))
        goto done;
    EMPY_NOGIL(s, em_bincount(EMPY_ARR(x), w ? EMPY_ARR(w) : NULL, minlength,
                              &r, NULL));
    res = wrap_new(st, s, &r);
done:
    Py_XDECREF(w);
    Py_DECREF(x);
    return res;
}

static PyObject *py_digitize(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {"x", "bins", "right", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *xo, *x, *bo, *b;
    int right = 0;
    em_array r;
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|p:digitize", kws, &xo, &bo,
                                     &right))
        return NULL;
    if (two_arrays(st, xo, bo, "digitize", "x", "bins", &x, &b) < 0)
        return NULL;
    EMPY_NOGIL(s, em_digitize(EMPY_ARR(x), EMPY_ARR(b), right, &r, NULL));
    Py_DECREF(b);
    Py_DECREF(x);
    return wrap_new(st, s, &r);
}

/* ---- unique and set operations --------------------------------------- */

/* The C unique with the wanted parts; builds NumPy's return value: the
 * values alone, or a tuple of values and the wanted parts in NumPy's
 * order. Returns NULL with an exception set. */
static PyObject *run_unique(empy_state *st, PyObject *x, int equal_nan, int ri,
                            int rv, int rc, int tuple)
{
    em_array parts[4]; /* values, index, inverse, counts */
    int n = 1;
    em_status s;
    EMPY_NOGIL(s, em_unique(EMPY_ARR(x), equal_nan, &parts[0],
                            ri ? &parts[1] : NULL, rv ? &parts[2] : NULL,
                            rc ? &parts[3] : NULL, NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    /* the wanted parts to the front, in NumPy's order */
    if (ri)
        parts[n++] = parts[1];
    if (rv)
        parts[n++] = parts[2];
    if (rc)
        parts[n++] = parts[3];
    if (n == 1 && !tuple)
        return empy_ndarray_new(st, &parts[0], NULL);
    return array_tuple(st, parts, n);
}

static PyObject *py_unique(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kws[] = {
        "ar",   "return_index", "return_inverse", "return_counts",
        "axis", "equal_nan",    "sorted",         NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *ao, *a, *axis = Py_None, *res;
    int ri = 0, rv = 0, rc = 0, en = 1, sorted = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|pppO$pp:unique", kws, &ao,
                                     &ri, &rv, &rc, &axis, &en, &sorted))
        return NULL;
    if (!(a = hist_array(st, ao, NULL)))
        return NULL;
    if (axis != Py_None) {
        long ax = PyLong_AsLong(axis);
        int nd = EMPY_ARR(a)->ndim;
        if (ax == -1 && PyErr_Occurred()) {
            Py_DECREF(a);
            return NULL;
        }
        if (ax < -nd || ax >= nd || nd == 0) {
            Py_DECREF(a);
            return empy_raise(st, em_error(EM_ERR_AXIS,
                                           "axis %ld is out of bounds for "
                                           "array of dimension %d",
                                           ax, nd));
        }
        if (nd != 1) {
            Py_DECREF(a);
            PyErr_SetString(PyExc_NotImplementedError,
                            "ember.unique: axis= on arrays of more than one "
                            "dimension is not supported yet");
            return NULL;
        }
    }
    res = run_unique(st, a, en, ri, rv, rc, 0);
    Py_DECREF(a);
    return res;
}

/* Array API: unique_values / _counts / _inverse / _all (NaNs distinct,
 * as NumPy's). */
static PyObject *api_unique(PyObject *m, PyObject *x0, int ri, int rv, int rc)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *x = hist_array(st, x0, NULL), *res;
    if (!x)
        return NULL;
    res = run_unique(st, x, 0, ri, rv, rc, ri || rv || rc);
    Py_DECREF(x);
    return res;
}

static PyObject *py_unique_values(PyObject *m, PyObject *x)
{
    return api_unique(m, x, 0, 0, 0);
}

static PyObject *py_unique_counts(PyObject *m, PyObject *x)
{
    return api_unique(m, x, 0, 0, 1);
}

static PyObject *py_unique_inverse(PyObject *m, PyObject *x)
{
    return api_unique(m, x, 0, 1, 0);
}

static PyObject *py_unique_all(PyObject *m, PyObject *x)
{
    return api_unique(m, x, 1, 1, 1);
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
    EMPY_NOGIL(s, (skipnan ? em_nanquantile : em_quantile)(
                      EMPY_ARR(a), qv, qndim, qshape, naxes < 0 ? NULL : axes,
                      naxes, keepdims, median, dt, &r, NULL));
    res = wrap_new(st, s, &r);
done:
    PyMem_Free(qv);
    return res;
}

#define KW (PyCFunction)(void (*)(void))

PyMethodDef empy_par_hist_functions[] = {
    {"histogram_even", KW py_histogram_even, METH_VARARGS | METH_KEYWORDS,
     "histogram_even(x, bins, lower, upper): int64 counts of `bins` equal "
     "half-open bins over [lower, upper) (CUB's HistogramEven)."},
    {NULL},
};

PyMethodDef empy_np_hist_functions[] = {
    {"histogram", KW py_histogram, METH_VARARGS | METH_KEYWORDS,
     "histogram(a, bins=10, range=None, density=None, weights=None): "
     "NumPy's histogram; returns (hist, bin_edges)."},
    {"histogram_bin_edges", KW py_histogram_bin_edges,
     METH_VARARGS | METH_KEYWORDS,
     "histogram_bin_edges(a, bins=10, range=None, weights=None)"},
    {"histogram2d", KW py_histogram2d, METH_VARARGS | METH_KEYWORDS,
     "histogram2d(x, y, bins=10, range=None, density=None, weights=None): "
     "NumPy's histogram2d; returns (hist, xedges, yedges)."},
    {"bincount", KW py_bincount, METH_VARARGS | METH_KEYWORDS,
     "bincount(x, weights=None, minlength=0): NumPy's bincount."},
    {"digitize", KW py_digitize, METH_VARARGS | METH_KEYWORDS,
     "digitize(x, bins, right=False): NumPy's digitize."},
    {"unique", KW py_unique, METH_VARARGS | METH_KEYWORDS,
     "unique(ar, return_index=False, return_inverse=False, "
     "return_counts=False, axis=None, *, equal_nan=True): NumPy's unique."},
    {"unique_values", (PyCFunction)py_unique_values, METH_O,
     "unique_values(x): the sorted distinct values (NaNs distinct)."},
    {"unique_counts", (PyCFunction)py_unique_counts, METH_O,
     "unique_counts(x): (values, counts)."},
    {"unique_inverse", (PyCFunction)py_unique_inverse, METH_O,
     "unique_inverse(x): (values, inverse_indices)."},
    {"unique_all", (PyCFunction)py_unique_all, METH_O,
     "unique_all(x): (values, indices, inverse_indices, counts)."},
    {"_setop", py_setop, METH_VARARGS,
     "_setop(op, ar1, ar2, assume_unique, flag)"},
    {"_quantile", py_quantile_core, METH_VARARGS,
     "_quantile(a, q, qshape, axes, keepdims, median, skipnan, dtype)"},
    {NULL},
};

PyMethodDef empy_hist_nd_methods[] = {
    {NULL},
};
