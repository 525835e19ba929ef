/* ember Python extension: the parallel algorithms' sort family (the C
 * calls under ember.parallel.radix_sort, merge_sort, merge, top_k) and
 * the NumPy functions and methods on them (sort, argsort, searchsorted;
 * their argument handling, partition and lexsort are Python,
 * python/ember/_api/sorting.py). */

#include "runtime/errors.h"
#include "parallel/parallel.h"

/* _sort(a, axis, indices): a's sort (indices: argsort) along axis, None
 * for the flattened array; python/ember/_api/sorting.py checks NumPy's
 * arguments. */
static PyObject *np_sort(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *axo;
    em_array res = {0};
    int indices, axis = 0, flat;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!Op:_sort", st->ndarray, &a, &axo, &indices))
        return NULL;
    if (!(flat = axo == Py_None) &&
        (axis = (int)PyLong_AsLong(axo)) == -1 && PyErr_Occurred())
        return NULL;
    if (indices)
        EMPY_NOGIL(s, em_argsort(EMPY_ARR(a), axis, flat, &res, NULL));
    else
        EMPY_NOGIL(s, em_sort(EMPY_ARR(a), axis, flat, &res, NULL));
    return s != EM_OK ? empy_raise(st, s) : empy_ndarray_new(st, &res, NULL);
}

/* _searchsorted(a, v, right, sorter): python/ember/_api/sorting.py checks
 * the arguments (ndarrays on one device; sorter int64 or None). */
static PyObject *np_searchsorted(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *v, *so;
    em_array res = {0};
    int right;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!O!pO:_searchsorted", st->ndarray, &a,
                          st->ndarray, &v, &right, &so))
        return NULL;
    if (so != Py_None && (!PyObject_TypeCheck(so, st->ndarray) ||
                          EMPY_ARR(so)->dtype != EM_INT64)) {
        PyErr_SetString(PyExc_TypeError, "_searchsorted: sorter must be an "
                                         "int64 ndarray or None");
        return NULL;
    }
    EMPY_NOGIL(s, em_searchsorted(EMPY_ARR(a), EMPY_ARR(v), right,
                                  so == Py_None ? NULL : EMPY_ARR(so), &res,
                                  NULL));
    return s != EM_OK ? empy_raise(st, s) : empy_ndarray_new(st, &res, NULL);
}

/* ---- ember.parallel (python/ember/parallel/_sort.py checks the
 * arguments: ndarrays on one device, bits clamped) ------------------------ */

static PyObject *pair_result(empy_state *st, em_status s, em_array *k,
                             em_array *v, int have_v)
{
    PyObject *a;
    if (s != EM_OK)
        return empy_raise(st, s);
    if (!(a = empy_ndarray_new(st, k, NULL)) || !have_v) {
        if (have_v)
            em_array_release(v);
        return a;
    }
    return Py_BuildValue("(NN)", a, empy_ndarray_new(st, v, NULL));
}

/* A comparator: a C expression meaning a < b; None: min's order. */
static int cmp_arg(PyObject *o, em_par_op *op)
{
    op->kind = o == Py_None ? EM_PAR_MIN : EM_PAR_EXPR;
    op->expr = NULL;
    if (o != Py_None && !(op->expr = PyUnicode_AsUTF8(o)))
        return -1;
    return 0;
}

/* _par_radix_sort(keys, values or None, descending, begin_bit, end_bit) */
static PyObject *par_radix_sort(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *k, *vo;
    const em_array *v;
    int desc, begin, end;
    em_array ok = {0}, ov = {0};
    em_status s;
    if (!PyArg_ParseTuple(args, "O!Opii:_par_radix_sort", st->ndarray, &k,
                          &vo, &desc, &begin, &end) ||
        empy_par_array(st, vo, 1, &v) < 0)
        return NULL;
    EMPY_NOGIL(s, em_radix_sort(EMPY_ARR(k), v, desc, begin, end, &ok,
                                v ? &ov : NULL, NULL));
    return pair_result(st, s, &ok, &ov, v != NULL);
}

/* _par_merge_sort(keys, values or None, comparator or None) */
static PyObject *par_merge_sort(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *k, *vo, *cmp;
    const em_array *v;
    em_par_op op;
    em_array ok = {0}, ov = {0};
    em_status s;
    if (!PyArg_ParseTuple(args, "O!OO:_par_merge_sort", st->ndarray, &k, &vo,
                          &cmp) ||
        empy_par_array(st, vo, 1, &v) < 0 || cmp_arg(cmp, &op) < 0)
        return NULL;
    EMPY_NOGIL(s, em_merge_sort(EMPY_ARR(k), v, &op, &ok, v ? &ov : NULL,
                                NULL));
    return pair_result(st, s, &ok, &ov, v != NULL);
}

/* _par_merge(a, b, a_values, b_values, comparator): values both None or
 * both arrays */
static PyObject *par_merge(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *b, *avo, *bvo, *cmp;
    const em_array *av, *bv;
    em_par_op op;
    em_array ok = {0}, ov = {0};
    em_status s;
    if (!PyArg_ParseTuple(args, "O!O!OOO:_par_merge", st->ndarray, &a,
                          st->ndarray, &b, &avo, &bvo, &cmp) ||
        empy_par_array(st, avo, 1, &av) < 0 ||
        empy_par_array(st, bvo, 1, &bv) < 0 ||
        cmp_arg(cmp, &op) < 0)
        return NULL;
    if (!av != !bv) {
        PyErr_SetString(PyExc_ValueError, "merge: both values or neither");
        return NULL;
    }
    EMPY_NOGIL(s, em_merge(EMPY_ARR(a), av, EMPY_ARR(b), bv, &op, &ok,
                           av ? &ov : NULL, NULL));
    return pair_result(st, s, &ok, &ov, av != NULL);
}

/* _par_top_k(x, k, largest): (values, indices) */
static PyObject *par_top_k(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *x;
    long long k;
    int largest;
    em_array ov = {0}, oi = {0};
    em_status s;
    if (!PyArg_ParseTuple(args, "O!Lp:_par_top_k", st->ndarray, &x, &k,
                          &largest))
        return NULL;
    EMPY_NOGIL(s, em_top_k(EMPY_ARR(x), (int64_t)k, largest, &ov, &oi, NULL));
    return pair_result(st, s, &ov, &oi, 1);
}

PyMethodDef empy_par_sort_functions[] = {
    {"_par_radix_sort", par_radix_sort, METH_VARARGS, NULL},
    {"_par_merge_sort", par_merge_sort, METH_VARARGS, NULL},
    {"_par_merge", par_merge, METH_VARARGS, NULL},
    {"_par_top_k", par_top_k, METH_VARARGS, NULL},
    {NULL},
};

PyMethodDef empy_np_sort_functions[] = {
    {"_sort", np_sort, METH_VARARGS, NULL},
    {"_searchsorted", np_searchsorted, METH_VARARGS, NULL},
    {NULL},
};
