/* ember Python extension: the parallel algorithms' sort family
 * (ember.parallel.radix_sort, merge_sort, merge, lower_bound,
 * upper_bound, top_k) and the NumPy functions and methods on them
 * (sort, argsort, lexsort, partition, argpartition, searchsorted). */
#include <limits.h>
#include <string.h>

#include "runtime/errors.h"
#include "array/ndarray.h"

/* An ndarray for o (a new reference): o itself, or o converted on dev
 * (NULL: ember's choice). */
static PyObject *arr_arg(empy_state *st, PyObject *o, em_device *dev)
{
    if (empy_is_ndarray(o)) {
        Py_INCREF(o);
        return o;
    }
    return empy_asarray(st, o, -1, dev, EMPY_COPY_IF_NEEDED, 'K');
}

/* axis: an int, or None (flatten) when allow_none. */
static int axis_arg(PyObject *o, const char *fn, int allow_none, int *axis,
                    int *flatten)
{
    long v;
    *flatten = 0;
    if (!o) {
        *axis = -1;
        return 0;
    }
    if (o == Py_None && allow_none) {
        *axis = 0;
        *flatten = 1;
        return 0;
    }
    v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "%s: axis must be an int%s, not %.100s", fn,
                         allow_none ? " or None" : "", Py_TYPE(o)->tp_name);
        }
        return -1;
    }
    *axis = v < INT_MIN || v > INT_MAX ? INT_MAX : (int)v;
    return 0;
}

/* NumPy's kind= and order= (every ember sort is stable, so any valid
 * kind gives a stable sort). */
static int kind_arg(PyObject *kind, PyObject *order, const char *fn)
{
    static const char *const kinds[] = {"quicksort", "quick",    "mergesort",
                                        "merge",     "heapsort", "heap",
                                        "stable",    NULL};
    if (order && order != Py_None) {
        PyErr_Format(PyExc_ValueError,
                     "%s: order= applies to structured arrays, which ember "
                     "does not have",
                     fn);
        return -1;
    }
    if (kind && kind != Py_None) {
        const char *k = PyUnicode_Check(kind) ? PyUnicode_AsUTF8(kind) : NULL;
        if (!k) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: kind must be a str or None", fn);
            return -1;
        }
        for (int i = 0; kinds[i]; i++)
            if (!strcmp(k, kinds[i]))
                return 0;
        PyErr_Format(PyExc_ValueError,
                     "sort kind must be one of 'quick', 'heap', or 'stable' "
                     "(got '%s')",
                     k);
        return -1;
    }
    return 0;
}

static PyObject *do_sort(empy_state *st, PyObject *x, PyObject *axis_obj,
                         int allow_none, int indices, const char *fn)
{
    PyObject *a;
    em_array res = {0};
    int axis, flatten;
    em_status s;
    if (axis_arg(axis_obj, fn, allow_none, &axis, &flatten) < 0)
        return NULL;
    if (!(a = arr_arg(st, x, NULL)))
        return NULL;
    if (indices)
        EMPY_NOGIL(s, em_argsort(EMPY_ARR(a), axis, flatten, &res, NULL));
    else
        EMPY_NOGIL(s, em_sort(EMPY_ARR(a), axis, flatten, &res, NULL));
    Py_DECREF(a);
    if (s != EM_OK)
        return empy_raise(st, s);
    return empy_ndarray_new(st, &res, NULL);
}

static PyObject *np_sort_impl(PyObject *m, PyObject *args, PyObject *kw,
                              int indices)
{
    static char *kwlist[] = {"a", "axis", "kind", "order", "stable", NULL};
    const char *fn = indices ? "argsort" : "sort";
    PyObject *a, *axis = NULL, *kind = NULL, *order = NULL, *stable = NULL;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, indices ? "O|OOO$O:argsort" : "O|OOO$O:sort", kwlist, &a,
            &axis, &kind, &order, &stable))
        return NULL;
    if (kind_arg(kind, order, fn) < 0)
        return NULL;
    return do_sort(empy_state_of_module(m), a, axis, 1, indices, fn);
}

static PyObject *np_sort(PyObject *m, PyObject *args, PyObject *kw)
{
    return np_sort_impl(m, args, kw, 0);
}

static PyObject *np_argsort(PyObject *m, PyObject *args, PyObject *kw)
{
    return np_sort_impl(m, args, kw, 1);
}

/* What NumPy makes of kth before reading it (np.asarray(kth)): an
 * array deeper than 1-D is a ValueError, booleans a ValueError, anything
 * not integer (an empty list is float64) a TypeError. 0 when o passes. */
static int kth_kind_check(PyObject *o, int *ndim_out)
{
    static const char not_int[] = "Partition index must be integer";
    int ndim = -1;
    char kind = 0;
    if (empy_is_ndarray(o)) {
        ndim = EMPY_ARR(o)->ndim;
        kind = em_dtype_get(EMPY_ARR(o)->dtype)->kind;
    } else if (PyObject_CheckBuffer(o)) {
        Py_buffer v;
        const char *f;
        if (PyObject_GetBuffer(o, &v, PyBUF_RECORDS_RO) < 0)
            return -1;
        ndim = v.ndim;
        f = v.format ? v.format : "B";
        while (*f && strchr("@=<>!", *f))
            f++;
        kind = *f == '?' ? 'b' : strchr("bBhHiIlLqQnN", *f) ? 'i' : 'f';
        PyBuffer_Release(&v);
    } else if (PyBool_Check(o)) {
        kind = 'b';
    } else if (PyUnicode_Check(o) || PyBytes_Check(o)) {
        kind = 'U';         /* NumPy reads a string as one, not a sequence */
    }
    if (ndim > 1) {
        PyErr_Format(PyExc_ValueError, "kth must be scalar or 1-D, not %d-D", ndim);
        return -1;
    }
    if (kind == 'b') {
        PyErr_SetString(PyExc_ValueError, "Booleans unacceptable as partition index");
        return -1;
    }
    if (kind && kind != 'i' && kind != 'u') {
        PyErr_SetString(PyExc_TypeError, not_int);
        return -1;
    }
    *ndim_out = ndim;
    return 0;
}

/* kth: an int or a sequence of ints, each within [-n, n) of the axis. A
 * full sort satisfies every kth. */
static int kth_check(PyObject *kth, const em_array *a, int axis, int flatten)
{
    int64_t n;
    PyObject *seq;
    Py_ssize_t k;
    int kdim = -1;          /* -1: not an array */
    if (kth_kind_check(kth, &kdim) < 0)
        return -1;
    if (flatten || a->ndim == 0) {
        n = a->size;
    } else {
        int ax = axis < 0 ? axis + a->ndim : axis;
        if (ax < 0 || ax >= a->ndim)
            return 0; /* the sort names the bad axis */
        n = a->shape[ax];
    }
    if (!(seq = kdim != 0 && PySequence_Check(kth) ? PySequence_Fast(kth, "kth")
                                                   : PyTuple_Pack(1, kth)))
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) == 0 && kdim < 0) {
        Py_DECREF(seq);     /* NumPy reads [] as float64 */
        PyErr_SetString(PyExc_TypeError, "Partition index must be integer");
        return -1;
    }
    for (k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        PyObject *it = PySequence_Fast_GET_ITEM(seq, k);
        long long v;
        int overflow = 0;
        if (PyBool_Check(it)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "Booleans unacceptable as partition index");
            return -1;
        }
        if (PySequence_Check(it) && !empy_is_ndarray(it) && !PyObject_CheckBuffer(it)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "kth must be scalar or 1-D");
            return -1;
        }
        v = -1;
        if (PyIndex_Check(it)) {
            PyObject *i = PyNumber_Index(it);
            if (i) {
                v = PyLong_AsLongLongAndOverflow(i, &overflow);
                Py_DECREF(i);
            }
        } else {
            PyErr_SetString(PyExc_TypeError, "Partition index must be integer");
        }
        if ((v == -1 && PyErr_Occurred()) || overflow) {
            /* it is seq's: name it before seq goes */
            if (overflow || PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "Partition index must be integer, "
                             "not %.100s", Py_TYPE(it)->tp_name);
            }
            Py_DECREF(seq);
            return -1;
        }
        if (v < -n || v >= n) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "kth(=%lld) out of bounds (%lld)",
                         v < 0 ? v + n : v, (long long)n);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *np_partition_impl(PyObject *m, PyObject *args, PyObject *kw,
                                   int indices)
{
    static char *kwlist[] = {"a", "kth", "axis", "kind", "order", NULL};
    const char *fn = indices ? "argpartition" : "partition";
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *kth, *axis_obj = NULL, *kind = NULL, *order = NULL, *x, *r;
    int axis, flatten;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, indices ? "OO|OOO:argpartition" : "OO|OOO:partition",
            kwlist, &a, &kth, &axis_obj, &kind, &order))
        return NULL;
    if (order && order != Py_None) {
        PyErr_Format(PyExc_ValueError,
                     "%s: order= applies to structured arrays, which ember "
                     "does not have",
                     fn);
        return NULL;
    }
    (void)kind;
    if (axis_arg(axis_obj, fn, 1, &axis, &flatten) < 0)
        return NULL;
    if (!(x = arr_arg(st, a, NULL)))
        return NULL;
    if (kth_check(kth, EMPY_ARR(x), axis, flatten) < 0) {
        Py_DECREF(x);
        return NULL;
    }
    r = do_sort(st, x, axis_obj, 1, indices, fn);
    Py_DECREF(x);
    return r;
}

static PyObject *np_partition(PyObject *m, PyObject *args, PyObject *kw)
{
    return np_partition_impl(m, args, kw, 0);
}

static PyObject *np_argpartition(PyObject *m, PyObject *args, PyObject *kw)
{
    return np_partition_impl(m, args, kw, 1);
}

static int side_arg(PyObject *side, int *right)
{
    const char *sd;
    *right = 0;
    if (!side || side == Py_None)
        return 0;
    sd = PyUnicode_Check(side) ? PyUnicode_AsUTF8(side) : NULL;
    if (sd && !strcmp(sd, "left"))
        return 0;
    if (sd && !strcmp(sd, "right")) {
        *right = 1;
        return 0;
    }
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError,
                 "search side must be 'left' or 'right' (got %R)", side);
    return -1;
}

static PyObject *do_search(empy_state *st, PyObject *a, PyObject *v, int right,
                           PyObject *sorter_obj)
{
    PyObject *sa = NULL, *sv = NULL, *so = NULL, *r = NULL;
    em_array res = {0};
    em_status s;
    if (!(sa = arr_arg(st, a, NULL)))
        return NULL;
    if (!(sv = arr_arg(st, v, EMPY_ARR(sa)->device)))
        goto done;
    if (sorter_obj && sorter_obj != Py_None) {
        PyObject *t = arr_arg(st, sorter_obj, EMPY_ARR(sa)->device);
        if (!t)
            goto done;
        if (EMPY_ARR(t)->dtype == EM_INT64) {
            so = t;
        } else {
            em_array c = {0};
            if (EMPY_ARR(t)->dtype == EM_BOOL ||
                EMPY_ARR(t)->dtype >= EM_FLOAT16) {
                PyErr_Format(PyExc_TypeError,
                             "searchsorted: sorter must hold integers, not "
                             "%s",
                             em_dtype_get(EMPY_ARR(t)->dtype)->name);
                Py_DECREF(t);
                goto done;
            }
            s = em_array_empty(EMPY_ARR(t)->device, EM_INT64, EMPY_ARR(t)->ndim,
                               EMPY_ARR(t)->shape, 'C', NULL, &c);
            if (s == EM_OK && (s = em_array_copy(&c, EMPY_ARR(t), NULL)))
                em_array_release(&c);
            Py_DECREF(t);
            if (s != EM_OK) {
                empy_raise(st, s);
                goto done;
            }
            if (!(so = empy_ndarray_new(st, &c, NULL)))
                goto done;
        }
    }
    EMPY_NOGIL(s, em_searchsorted(EMPY_ARR(sa), EMPY_ARR(sv), right,
                                  so ? EMPY_ARR(so) : NULL, &res, NULL));
    r = s != EM_OK ? empy_raise(st, s) : empy_ndarray_new(st, &res, NULL);
done:
    Py_XDECREF(sa);
    Py_XDECREF(sv);
    Py_XDECREF(so);
    return r;
}

static PyObject *np_searchsorted(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"a", "v", "side", "sorter", NULL};
    PyObject *a, *v, *side = NULL, *sorter = NULL;
    int right;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO:searchsorted", kwlist, &a,
                                     &v, &side, &sorter) ||
        side_arg(side, &right) < 0)
        return NULL;
    return do_search(empy_state_of_module(m), a, v, right, sorter);
}

/* lexsort: the last key is the primary one. Stable sorts by each key in
 * turn, least significant first, each through the order so far. */
static PyObject *np_lexsort(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"keys", "axis", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *keys, *axis_obj = NULL, *seq = NULL, *first = NULL, *r = NULL;
    em_array idx = {0};
    int axis, flatten;
    Py_ssize_t nk;
    em_status s = EM_OK;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:lexsort", kwlist, &keys,
                                     &axis_obj) ||
        axis_arg(axis_obj, "lexsort", 0, &axis, &flatten) < 0)
        return NULL;
    if (empy_is_ndarray(keys)) {
        /* A 2-D array is a sequence of its rows. */
        seq = PySequence_List(keys);
    } else {
        seq = PySequence_Fast(keys, "lexsort: keys must be a sequence");
    }
    if (!seq)
        return NULL;
    nk = PySequence_Fast_GET_SIZE(seq);
    if (nk == 0) {
        PyErr_SetString(PyExc_TypeError, "need sequence of keys with len > 0 "
                                         "in lexsort");
        goto done;
    }
    if (!(first = arr_arg(st, PySequence_Fast_GET_ITEM(seq, 0), NULL)))
        goto done;
    EMPY_NOGIL(s, em_argsort(EMPY_ARR(first), axis, 0, &idx, NULL));
    for (Py_ssize_t k = 1; k < nk && s == EM_OK; k++) {
        PyObject *kk = arr_arg(st, PySequence_Fast_GET_ITEM(seq, k),
                               EMPY_ARR(first)->device);
        em_array g = {0}, j = {0}, ni = {0};
        if (!kk)
            goto done;
        if (EMPY_ARR(kk)->ndim != EMPY_ARR(first)->ndim ||
            memcmp(EMPY_ARR(kk)->shape, EMPY_ARR(first)->shape,
                   sizeof(int64_t) * (size_t)EMPY_ARR(first)->ndim)) {
            Py_DECREF(kk);
            PyErr_SetString(PyExc_ValueError,
                            "all keys need to be the same shape");
            goto done;
        }
        EMPY_NOGIL(s, em_take_along_axis(EMPY_ARR(kk), &idx, axis, &g, NULL));
        if (s == EM_OK)
            EMPY_NOGIL(s, em_argsort(&g, axis, 0, &j, NULL));
        if (s == EM_OK)
            EMPY_NOGIL(s, em_take_along_axis(&idx, &j, axis, &ni, NULL));
        em_array_release(&g);
        em_array_release(&j);
        Py_DECREF(kk);
        if (s == EM_OK) {
            em_array_release(&idx);
            idx = ni;
        }
    }
    if (s != EM_OK) {
        empy_raise(st, s);
        goto done;
    }
    r = empy_ndarray_new(st, &idx, NULL);
    memset(&idx, 0, sizeof idx);
done:
    em_array_release(&idx);
    Py_XDECREF(first);
    Py_XDECREF(seq);
    return r;
}

/* ---- ember.parallel ------------------------------------------------------ */

static int bits_arg(PyObject *o, int dflt, int *out)
{
    long v;
    if (!o || o == Py_None) {
        *out = dflt;
        return 0;
    }
    v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v < -1 || v > 1024 ? 1024 : (int)v;
    return 0;
}

static PyObject *pair_result(empy_state *st, em_array *k, em_array *v,
                             int have_v)
{
    PyObject *a = empy_ndarray_new(st, k, NULL), *b;
    if (!have_v || !a) {
        if (have_v)
            em_array_release(v);
        return a;
    }
    if (!(b = empy_ndarray_new(st, v, NULL))) {
        Py_DECREF(a);
        return NULL;
    }
    return Py_BuildValue("(NN)", a, b);
}

static PyObject *par_radix_sort(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"keys",      "values",  "descending",
                             "begin_bit", "end_bit", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *keys, *values = Py_None, *bb = NULL, *eb = NULL, *k = NULL,
                    *v = NULL, *r = NULL;
    int desc = 0, begin, end;
    em_array ok = {0}, ov = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OpOO:radix_sort", kwlist,
                                     &keys, &values, &desc, &bb, &eb) ||
        bits_arg(bb, 0, &begin) < 0 || bits_arg(eb, -1, &end) < 0)
        return NULL;
    if (!(k = arr_arg(st, keys, NULL)))
        return NULL;
    if (values != Py_None && !(v = arr_arg(st, values, EMPY_ARR(k)->device)))
        goto done;
    EMPY_NOGIL(s, em_radix_sort(EMPY_ARR(k), v ? EMPY_ARR(v) : NULL, desc,
                                begin, end, &ok, v ? &ov : NULL, NULL));
    r = s != EM_OK ? empy_raise(st, s) : pair_result(st, &ok, &ov, v != NULL);
done:
    Py_XDECREF(k);
    Py_XDECREF(v);
    return r;
}

static int cmp_arg(PyObject *o, em_par_op *op)
{
    const char *c;
    if (!o || o == Py_None) {
        op->kind = EM_PAR_MIN;
        op->expr = NULL;
        return 0;
    }
    if (!(c = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL)) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "comparator must be a C expression over a and b (a "
                     "str), not %.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    op->kind = EM_PAR_EXPR;
    op->expr = c;
    return 0;
}

static PyObject *par_merge_sort(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"keys", "values", "comparator", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *keys, *values = Py_None, *cmp = NULL, *k = NULL, *v = NULL,
                    *r = NULL;
    em_par_op op;
    em_array ok = {0}, ov = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:merge_sort", kwlist, &keys,
                                     &values, &cmp) ||
        cmp_arg(cmp, &op) < 0)
        return NULL;
    if (!(k = arr_arg(st, keys, NULL)))
        return NULL;
    if (values != Py_None && !(v = arr_arg(st, values, EMPY_ARR(k)->device)))
        goto done;
    EMPY_NOGIL(s, em_merge_sort(EMPY_ARR(k), v ? EMPY_ARR(v) : NULL, &op, &ok,
                                v ? &ov : NULL, NULL));
    r = s != EM_OK ? empy_raise(st, s) : pair_result(st, &ok, &ov, v != NULL);
done:
    Py_XDECREF(k);
    Py_XDECREF(v);
    return r;
}

static PyObject *par_merge(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"a",        "b",          "a_values",
                             "b_values", "comparator", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *b, *av = Py_None, *bv = Py_None, *cmp = NULL, *o[4] = {0},
                     *r = NULL;
    em_par_op op;
    em_array ok = {0}, ov = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOO:merge", kwlist, &a, &b,
                                     &av, &bv, &cmp) ||
        cmp_arg(cmp, &op) < 0)
        return NULL;
    if ((av == Py_None) != (bv == Py_None)) {
        PyErr_SetString(PyExc_ValueError,
                        "merge: give both a_values and b_values, or neither");
        return NULL;
    }
    if (!(o[0] = arr_arg(st, a, NULL)) ||
        !(o[1] = arr_arg(st, b, EMPY_ARR(o[0])->device)))
        goto done;
    if (av != Py_None && (!(o[2] = arr_arg(st, av, EMPY_ARR(o[0])->device)) ||
                          !(o[3] = arr_arg(st, bv, EMPY_ARR(o[0])->device))))
        goto done;
    EMPY_NOGIL(s, em_merge(EMPY_ARR(o[0]), o[2] ? EMPY_ARR(o[2]) : NULL,
                           EMPY_ARR(o[1]), o[3] ? EMPY_ARR(o[3]) : NULL, &op,
                           &ok, o[2] ? &ov : NULL, NULL));
    r = s != EM_OK ? empy_raise(st, s)
                   : pair_result(st, &ok, &ov, o[2] != NULL);
done:
    for (int i = 0; i < 4; i++)
        Py_XDECREF(o[i]);
    return r;
}

static PyObject *par_bound(PyObject *m, PyObject *args, PyObject *kw, int right)
{
    static char *kwlist[] = {"sorted", "needles", NULL};
    PyObject *a, *v;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, right ? "OO:upper_bound" : "OO:lower_bound", kwlist, &a,
            &v))
        return NULL;
    return do_search(empy_state_of_module(m), a, v, right, NULL);
}

static PyObject *par_lower_bound(PyObject *m, PyObject *args, PyObject *kw)
{
    return par_bound(m, args, kw, 0);
}

static PyObject *par_upper_bound(PyObject *m, PyObject *args, PyObject *kw)
{
    return par_bound(m, args, kw, 1);
}

static PyObject *par_top_k(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"x", "k", "largest", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *x, *a;
    long long k;
    int largest = 1;
    em_array ov = {0}, oi = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OL|p:top_k", kwlist, &x, &k,
                                     &largest))
        return NULL;
    if (!(a = arr_arg(st, x, NULL)))
        return NULL;
    EMPY_NOGIL(s, em_top_k(EMPY_ARR(a), (int64_t)k, largest, &ov, &oi, NULL));
    Py_DECREF(a);
    if (s != EM_OK)
        return empy_raise(st, s);
    return pair_result(st, &ov, &oi, 1);
}

/* ---- ndarray methods ----------------------------------------------------- */

/* Sort self in place: sort into a new array, copy back. */
static PyObject *nd_sort_into(PyObject *self, PyObject *axis_obj,
                              const char *fn)
{
    empy_state *st = empy_state_of(self);
    em_array *a = EMPY_ARR(self), res = {0};
    int axis, flatten;
    em_status s;
    if (axis_arg(axis_obj, fn, 0, &axis, &flatten) < 0)
        return NULL;
    if (!(a->flags & EM_ARRAY_WRITEABLE)) {
        PyErr_Format(PyExc_ValueError, "%s: the array is read-only", fn);
        return NULL;
    }
    EMPY_NOGIL(s, em_sort(a, axis, 0, &res, NULL));
    if (s == EM_OK)
        EMPY_NOGIL(s, em_array_copy(a, &res, NULL));
    em_array_release(&res);
    if (s != EM_OK)
        return empy_raise(st, s);
    Py_RETURN_NONE;
}

static PyObject *nd_sort(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"axis", "kind", "order", "stable", NULL};
    PyObject *axis = NULL, *kind = NULL, *order = NULL, *stable = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOO$O:sort", kwlist, &axis,
                                     &kind, &order, &stable) ||
        kind_arg(kind, order, "sort") < 0)
        return NULL;
    return nd_sort_into(self, axis, "sort");
}

static PyObject *nd_argsort(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"axis", "kind", "order", "stable", NULL};
    PyObject *axis = NULL, *kind = NULL, *order = NULL, *stable = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOO$O:argsort", kwlist, &axis,
                                     &kind, &order, &stable) ||
        kind_arg(kind, order, "argsort") < 0)
        return NULL;
    return do_sort(empy_state_of(self), self, axis, 1, 1, "argsort");
}

static PyObject *nd_partition(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"kth", "axis", "kind", "order", NULL};
    PyObject *kth, *axis_obj = NULL, *kind = NULL, *order = NULL;
    int axis, flatten;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOO:partition", kwlist, &kth,
                                     &axis_obj, &kind, &order) ||
        axis_arg(axis_obj, "partition", 0, &axis, &flatten) < 0 ||
        kth_check(kth, EMPY_ARR(self), axis, 0) < 0)
        return NULL;
    if (order && order != Py_None) {
        PyErr_SetString(PyExc_ValueError,
                        "partition: order= applies to structured arrays, "
                        "which ember does not have");
        return NULL;
    }
    return nd_sort_into(self, axis_obj, "partition");
}

static PyObject *nd_argpartition(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"kth", "axis", "kind", "order", NULL};
    PyObject *kth, *axis_obj = NULL, *kind = NULL, *order = NULL;
    int axis, flatten;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOO:argpartition", kwlist,
                                     &kth, &axis_obj, &kind, &order) ||
        axis_arg(axis_obj, "argpartition", 1, &axis, &flatten) < 0 ||
        kth_check(kth, EMPY_ARR(self), axis, flatten) < 0)
        return NULL;
    return do_sort(empy_state_of(self), self, axis_obj, 1, 1, "argpartition");
}

static PyObject *nd_searchsorted(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"v", "side", "sorter", NULL};
    PyObject *v, *side = NULL, *sorter = NULL;
    int right;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:searchsorted", kwlist, &v,
                                     &side, &sorter) ||
        side_arg(side, &right) < 0)
        return NULL;
    return do_search(empy_state_of(self), self, v, right, sorter);
}

#define F(name, fn, doc)                                                       \
    {                                                                          \
        name, (PyCFunction)(void (*)(void))fn, METH_VARARGS | METH_KEYWORDS,   \
            doc                                                                \
    }

PyMethodDef empy_par_sort_functions[] = {
    F("radix_sort", par_radix_sort,
      "radix_sort(keys, values=None, descending=False, begin_bit=0, "
      "end_bit=None): stable LSD radix sort of 1-D keys (and values)."),
    F("merge_sort", par_merge_sort,
      "merge_sort(keys, values=None, comparator=None): stable sort; "
      "comparator is a C expression over a and b meaning a < b."),
    F("merge", par_merge,
      "merge(a, b, a_values=None, b_values=None, comparator=None): merge "
      "two sorted 1-D arrays (stable: a's first among equals)."),
    F("lower_bound", par_lower_bound,
      "lower_bound(sorted, needles): first index i with needle <= "
      "sorted[i]."),
    F("upper_bound", par_upper_bound,
      "upper_bound(sorted, needles): first index i with needle < "
      "sorted[i]."),
    F("top_k", par_top_k,
      "top_k(x, k, largest=True): (values, indices) of the k largest "
      "(smallest) elements, in order."),
    {NULL},
};

PyMethodDef empy_np_sort_functions[] = {
    F("sort", np_sort,
      "sort(a, axis=-1, kind=None, order=None, *, stable=None): a sorted "
      "copy (stable; NaNs last)."),
    F("argsort", np_argsort,
      "argsort(a, axis=-1, kind=None, order=None, *, stable=None): indices "
      "that sort a (stable)."),
    F("lexsort", np_lexsort,
      "lexsort(keys, axis=-1): indirect stable sort by several keys, the "
      "last primary."),
    F("partition", np_partition,
      "partition(a, kth, axis=-1, kind='introselect', order=None): a "
      "partitioned copy (ember sorts fully)."),
    F("argpartition", np_argpartition,
      "argpartition(a, kth, axis=-1, kind='introselect', order=None): "
      "indices that partition a (a full stable argsort)."),
    F("searchsorted", np_searchsorted,
      "searchsorted(a, v, side='left', sorter=None): insertion indices."),
    {NULL},
};

PyMethodDef empy_sort_nd_methods[] = {
    F("sort", nd_sort,
      "a.sort(axis=-1, kind=None, order=None): sort in place."),
    F("argsort", nd_argsort, "a.argsort(axis=-1): indices that sort a."),
    F("partition", nd_partition,
      "a.partition(kth, axis=-1): partition in place (a full sort)."),
    F("argpartition", nd_argpartition,
      "a.argpartition(kth, axis=-1): indices that partition a."),
    F("searchsorted", nd_searchsorted,
      "a.searchsorted(v, side='left', sorter=None): insertion indices."),
    {NULL},
};
