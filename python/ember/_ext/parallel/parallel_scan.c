/* ember Python extension: the C calls under ember.parallel's scan family
 * (inclusive/exclusive scans, by-key scans and reductions, segmented
 * reductions, transform, select, partition). python/ember/parallel/
 * checks the arguments: values come as one ndarray or a tuple of them on
 * one device, the operator as a built-in's name or C expression (a tuple
 * of expressions for tuple values), dtypes as ember dtypes and init
 * values as size-1 arrays of the value dtype. Each releases the GIL
 * around its C call. */
#include <string.h>

#include "runtime/errors.h"
#include "parallel/parallel.h"

/* Values: one array (tuple 0) or a tuple of n, with their operator,
 * dtypes and init values. */
typedef struct vals {
    int tuple, n, has_init;
    const em_array *arr[EM_SCAN_MAX_TUPLE];
    em_par_op op;
    em_par_tuple_op top;
    const char *exprs[EM_SCAN_MAX_TUPLE];
    em_dtype dt[EM_SCAN_MAX_TUPLE];
    unsigned char init[EM_SCAN_MAX_TUPLE][16] __attribute__((aligned(16)));
    const void *initp[EM_SCAN_MAX_TUPLE];
} vals;

/* Item k of o, a tuple of n when the values are one, else o itself. */
static PyObject *part(PyObject *o, const vals *v, int k)
{
    if (!v->tuple)
        return o;
    if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == v->n)
        return PyTuple_GET_ITEM(o, k);
    PyErr_Format(PyExc_TypeError, "expected a tuple of %d", v->n);
    return NULL;
}

static int init_arg(empy_state *st, PyObject *o, void *buf)
{
    const em_array *a;
    em_status s;
    if (empy_par_array(st, o, 0, &a) < 0)
        return -1;
    if (a->size != 1 || em_dtype_get(a->dtype)->size > 16) {
        PyErr_SetString(PyExc_ValueError, "init must be one value");
        return -1;
    }
    if ((s = em_array_to_host(a, buf, NULL, NULL)) != EM_OK) {
        empy_raise(st, s);
        return -1;
    }
    return 0;
}

static int vals_arg(empy_state *st, PyObject *vo, PyObject *op, PyObject *init,
                    PyObject *dt, vals *v)
{
    memset(v, 0, sizeof *v);
    v->tuple = PyTuple_Check(vo);
    v->n = v->tuple ? (int)PyTuple_GET_SIZE(vo) : 1;
    if (v->n < 1 || v->n > EM_SCAN_MAX_TUPLE) {
        PyErr_Format(PyExc_ValueError, "1 to %d value arrays",
                     EM_SCAN_MAX_TUPLE);
        return -1;
    }
    v->has_init = init != Py_None;
    for (int k = 0; k < v->n; k++) {
        PyObject *a = part(vo, v, k), *d = a ? part(dt, v, k) : NULL,
                 *i = d && v->has_init ? part(init, v, k) : Py_None;
        if (!i || empy_par_array(st, a, 0, &v->arr[k]) < 0 ||
            empy_dtype_arg(st, d, &v->dt[k]) < 0 ||
            (v->has_init && init_arg(st, i, v->init[k]) < 0))
            return -1;
        v->initp[k] = v->init[k];
    }
    if (v->tuple && PyTuple_Check(op)) {
        PyObject *e;
        for (int k = 0; k < v->n; k++)
            if (!(e = part(op, v, k)) ||
                !(v->exprs[k] = PyUnicode_AsUTF8(e)))
                return -1;
        v->top.kind = EM_PAR_EXPR;
        v->top.nexpr = v->n;
        v->top.exprs = v->exprs;
        return 0;
    }
    if (!PyUnicode_Check(op)) {
        PyErr_SetString(PyExc_TypeError, "op must be a str");
        return -1;
    }
    em_par_op_parse(PyUnicode_AsUTF8(op), &v->op);
    v->top.kind = v->op.kind;
    return 0;
}

/* One new ndarray over res[0], or a tuple of v->n (every array moves in,
 * even on failure). */
static PyObject *results(empy_state *st, em_status s, const vals *v,
                         em_array *res)
{
    PyObject *r;
    if (s != EM_OK)
        return empy_raise(st, s);
    if (!v->tuple)
        return empy_ndarray_new(st, &res[0], NULL);
    r = PyTuple_New(v->n);
    for (int k = 0; k < v->n; k++) {
        PyObject *a = r ? empy_ndarray_new(st, &res[k], NULL) : NULL;
        if (!a) {
            for (int j = k + (r ? 1 : 0); j < v->n; j++)
                em_array_release(&res[j]);
            Py_XDECREF(r);
            return NULL;
        }
        PyTuple_SET_ITEM(r, k, a);
    }
    return r;
}

/* _par_scan(values, op, init, dtype, exclusive, axis) */
static PyObject *par_scan(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *vo, *op, *init, *dt, *axo;
    em_array res[EM_SCAN_MAX_TUPLE];
    int excl, axis = EM_SCAN_FLAT;
    vals v;
    em_status s;
    if (!PyArg_ParseTuple(args, "OOOOpO:_par_scan", &vo, &op, &init, &dt,
                          &excl, &axo) ||
        vals_arg(st, vo, op, init, dt, &v) < 0)
        return NULL;
    if (axo != Py_None && (axis = (int)PyLong_AsLong(axo)) == -1 &&
        PyErr_Occurred())
        return NULL;
    memset(res, 0, sizeof res);
    if (v.tuple)
        EMPY_NOGIL(s, em_scan_tuple(v.n, v.arr, &v.top, excl,
                                    v.has_init ? v.initp : NULL, v.dt, res,
                                    NULL));
    else
        EMPY_NOGIL(s, em_scan(v.arr[0], axis, &v.op, excl,
                              v.has_init ? v.init[0] : NULL, v.dt[0], res,
                              NULL));
    return results(st, s, &v, res);
}

/* _par_scan_by_key(keys, values, op, init, dtype, exclusive) */
static PyObject *par_scan_by_key(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *ko, *vo, *op, *init, *dt;
    em_array res[EM_SCAN_MAX_TUPLE];
    const em_array *k;
    int excl;
    vals v;
    em_status s;
    if (!PyArg_ParseTuple(args, "OOOOOp:_par_scan_by_key", &ko, &vo, &op,
                          &init, &dt, &excl) ||
        empy_par_array(st, ko, 0, &k) < 0 ||
        vals_arg(st, vo, op, init, dt, &v) < 0)
        return NULL;
    memset(res, 0, sizeof res);
    if (v.tuple)
        EMPY_NOGIL(s, em_scan_by_key_tuple(k, v.n, v.arr, &v.top, excl,
                                           v.has_init ? v.initp : NULL, v.dt,
                                           res, NULL));
    else
        EMPY_NOGIL(s, em_scan_by_key(k, v.arr[0], &v.op, excl,
                                     v.has_init ? v.init[0] : NULL, v.dt[0],
                                     res, NULL));
    return results(st, s, &v, res);
}

/* A pair of new ndarrays (both move in, even on failure). */
static PyObject *pair(empy_state *st, em_array *a, em_array *b)
{
    PyObject *x = empy_ndarray_new(st, a, NULL);
    if (!x) {
        em_array_release(b);
        return NULL;
    }
    return Py_BuildValue("(NN)", x, empy_ndarray_new(st, b, NULL));
}

/* _par_reduce_by_key(keys, values, op, dtype): (keys, reduced) */
static PyObject *par_reduce_by_key(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *ko, *vo, *op, *dt, *kk, *vv;
    em_array res[EM_SCAN_MAX_TUPLE], ok = {0};
    const em_array *k;
    vals v;
    em_status s;
    if (!PyArg_ParseTuple(args, "OOOO:_par_reduce_by_key", &ko, &vo, &op,
                          &dt) ||
        empy_par_array(st, ko, 0, &k) < 0 ||
        vals_arg(st, vo, op, Py_None, dt, &v) < 0)
        return NULL;
    memset(res, 0, sizeof res);
    if (v.tuple)
        EMPY_NOGIL(s, em_reduce_by_key_tuple(k, v.n, v.arr, &v.top, v.dt, &ok,
                                             res, NULL));
    else
        EMPY_NOGIL(s, em_reduce_by_key(k, v.arr[0], &v.op, v.dt[0], &ok, res,
                                       NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    if (!(kk = empy_ndarray_new(st, &ok, NULL))) {
        for (int j = 0; j < v.n; j++)
            em_array_release(&res[j]);
        return NULL;
    }
    if (!(vv = results(st, s, &v, res))) {
        Py_DECREF(kk);
        return NULL;
    }
    return Py_BuildValue("(NN)", kk, vv);
}

/* _par_segmented_reduce(values, offsets, op, init, dtype) */
static PyObject *par_segmented_reduce(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *vo, *oo, *op, *init, *dt;
    const em_array *offs;
    em_array res[1] = {{0}};
    vals v;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!OOOO:_par_segmented_reduce", st->ndarray,
                          &vo, &oo, &op, &init, &dt) ||
        empy_par_array(st, oo, 0, &offs) < 0 ||
        vals_arg(st, vo, op, init, dt, &v) < 0)
        return NULL;
    if (!v.has_init) {
        PyErr_SetString(PyExc_TypeError, "segmented_reduce needs init");
        return NULL;
    }
    EMPY_NOGIL(s, em_segmented_reduce(v.arr[0], offs, &v.op, v.init[0],
                                      v.dt[0], res, NULL));
    return results(st, s, &v, res);
}

/* _par_unique_by_key(keys, values or None): keys, or (keys, values) */
static PyObject *par_unique_by_key(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *ko, *vo;
    const em_array *va = NULL;
    em_array ok = {0}, ov = {0};
    em_status s;
    if (!PyArg_ParseTuple(args, "O!O:_par_unique_by_key", st->ndarray, &ko,
                          &vo) ||
        empy_par_array(st, vo, 1, &va) < 0)
        return NULL;
    EMPY_NOGIL(s, em_unique_by_key(EMPY_ARR(ko), va, &ok, va ? &ov : NULL,
                                   NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    return va ? pair(st, &ok, &ov) : empy_ndarray_new(st, &ok, NULL);
}

/* _par_run_length_encode(x): (values, counts) */
static PyObject *par_run_length_encode(PyObject *m, PyObject *x)
{
    empy_state *st = empy_state_of_module(m);
    const em_array *a;
    em_array ov = {0}, oc = {0};
    em_status s;
    if (empy_par_array(st, x, 0, &a) < 0)
        return NULL;
    EMPY_NOGIL(s, em_run_length_encode(a, &ov, &oc, NULL));
    return s == EM_OK ? pair(st, &ov, &oc) : empy_raise(st, s);
}

/* _par_transform(expr, inputs, dtype): inputs a tuple of 1 to 8 arrays */
static PyObject *par_transform(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *ins, *dto;
    const char *e;
    const em_array *in[8];
    em_array res = {0};
    em_dtype dt;
    Py_ssize_t n;
    em_status s;
    if (!PyArg_ParseTuple(args, "sO!O:_par_transform", &e, &PyTuple_Type,
                          &ins, &dto) ||
        empy_dtype_arg(st, dto, &dt) < 0)
        return NULL;
    if ((n = PyTuple_GET_SIZE(ins)) < 1 || n > 8) {
        PyErr_SetString(PyExc_ValueError, "1 to 8 inputs");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++)
        if (empy_par_array(st, PyTuple_GET_ITEM(ins, k), 0, &in[k]) < 0)
            return NULL;
    EMPY_NOGIL(s, em_par_transform(e, (int)n, in, dt, &res, NULL));
    return s == EM_OK ? empy_ndarray_new(st, &res, NULL) : empy_raise(st, s);
}

/* _par_select(x, predicate, partition): predicate a C expression or a
 * bool array; partition gives (array, count selected). */
static PyObject *par_select(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *xo, *po, *r;
    const em_array *mask = NULL;
    const char *e = NULL;
    em_array res = {0};
    int64_t k = 0;
    int part;
    em_status s;
    if (!PyArg_ParseTuple(args, "O!Op:_par_select", st->ndarray, &xo, &po,
                          &part))
        return NULL;
    if (PyUnicode_Check(po) ? !(e = PyUnicode_AsUTF8(po))
                            : empy_par_array(st, po, 0, &mask) < 0)
        return NULL;
    if (part)
        EMPY_NOGIL(s, em_partition(EMPY_ARR(xo), e, mask, &res, &k, NULL));
    else
        EMPY_NOGIL(s, em_select(EMPY_ARR(xo), e, mask, &res, NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    r = empy_ndarray_new(st, &res, NULL);
    return r && part ? Py_BuildValue("(NL)", r, (long long)k) : r;
}

PyMethodDef empy_par_scan_functions[] = {
    {"_par_scan", par_scan, METH_VARARGS, NULL},
    {"_par_scan_by_key", par_scan_by_key, METH_VARARGS, NULL},
    {"_par_reduce_by_key", par_reduce_by_key, METH_VARARGS, NULL},
    {"_par_segmented_reduce", par_segmented_reduce, METH_VARARGS, NULL},
    {"_par_unique_by_key", par_unique_by_key, METH_VARARGS, NULL},
    {"_par_run_length_encode", par_run_length_encode, METH_O, NULL},
    {"_par_transform", par_transform, METH_VARARGS, NULL},
    {"_par_select", par_select, METH_VARARGS, NULL},
    {NULL},
};
