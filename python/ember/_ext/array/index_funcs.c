/* ember Python extension: the narrow entries under NumPy's take,
 * take_along_axis, put, put_along_axis, choose, where, nonzero, select,
 * compress and extract, whose signatures, conversions and device checks
 * python/ember/_api/selection.py holds, and the ndarray methods that go
 * there. Each entry takes ember arrays and calls include/ember/index.h
 * with the GIL released. */
#include <string.h>
#include "runtime/module.h"
#include "runtime/args.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

/* out: None (res zeroed: a new array) or an ndarray to write. */
static int out_arg(empy_state *st, PyObject *out, em_array *res)
{
    memset(res, 0, sizeof *res);
    if (out == Py_None)
        return 0;
    if (!PyObject_TypeCheck(out, st->ndarray)) {
        PyErr_SetString(PyExc_TypeError, "out must be an ember array");
        return -1;
    }
    *res = *EMPY_ARR(out);
    return 0;
}

/* The call's result: out itself, or res wrapped; or rc raised. */
static PyObject *result(empy_state *st, em_status rc, em_array *res, PyObject *out)
{
    if (rc != EM_OK)
        return empy_raise(st, rc);
    if (out != Py_None)
        return Py_NewRef(out);
    return empy_ndarray_new(st, res, NULL);
}

/* _take(a, indices, axis, mode, out), or with along=1
 * _take_along_axis(a, indices, axis, 0, None); axis EM_TAKE_FLAT or one
 * that _api/selection.py clamped to a C int. */
static PyObject *take(PyObject *m, PyObject *args, int along)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *ind, *out;
    int axis, mode;
    em_array res;
    em_status rc;
    if (!PyArg_ParseTuple(args, "O!O!iiO", st->ndarray, &a, st->ndarray, &ind, &axis,
                          &mode, &out) ||
        out_arg(st, out, &res) < 0)
        return NULL;
    if (along)
        EMPY_NOGIL(rc, em_take_along_axis(EMPY_ARR(a), EMPY_ARR(ind), axis, &res, NULL));
    else
        EMPY_NOGIL(rc, em_take(EMPY_ARR(a), EMPY_ARR(ind), axis, (em_index_mode)mode,
                               &res, NULL));
    return result(st, rc, &res, out);
}

static PyObject *fn_take(PyObject *m, PyObject *args)
{
    return take(m, args, 0);
}

static PyObject *fn_take_along_axis(PyObject *m, PyObject *args)
{
    return take(m, args, 1);
}

/* _put(a, indices, values, mode), or with along=1
 * _put_along_axis(a, indices, values, axis). */
static PyObject *put(PyObject *m, PyObject *args, int along)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *ind, *v;
    int k;
    em_status rc;
    if (!PyArg_ParseTuple(args, "O!O!O!i", st->ndarray, &a, st->ndarray, &ind,
                          st->ndarray, &v, &k))
        return NULL;
    if (along)
        EMPY_NOGIL(rc, em_put_along_axis(EMPY_ARR(a), EMPY_ARR(ind),
                                         EMPY_ARR(v), k, NULL));
    else
        EMPY_NOGIL(rc, em_put(EMPY_ARR(a), EMPY_ARR(ind), EMPY_ARR(v),
                              (em_index_mode)k, NULL));
    if (rc != EM_OK)
        return empy_raise(st, rc);
    Py_RETURN_NONE;
}

static PyObject *fn_put(PyObject *m, PyObject *args)
{
    return put(m, args, 0);
}

static PyObject *fn_put_along_axis(PyObject *m, PyObject *args)
{
    return put(m, args, 1);
}

/* _nonzero(a): the coordinates as one (ndim, count) int64 array. */
static PyObject *fn_nonzero(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a;
    em_array nz;
    em_status rc;
    if (!PyArg_ParseTuple(args, "O!:_nonzero", st->ndarray, &a))
        return NULL;
    EMPY_NOGIL(rc, em_nonzero(EMPY_ARR(a), &nz, NULL));
    return result(st, rc, &nz, Py_None);
}

/* x or y of where: an ndarray, a scalar (weak when a Python one), or
 * else converted onto dev (*keep holds it). */
static int operand(empy_state *st, PyObject *o, em_device *dev, em_operand *op,
                   PyObject **keep)
{
    int s = empy_is_ndarray(o) ? 0 : empy_scalar_operand(o, op);
    if (s != 0)
        return s < 0 ? -1 : 0;
    if (!empy_is_ndarray(o) &&
        !(o = *keep = empy_asarray(st, o, -1, dev, EMPY_COPY_IF_NEEDED, 'K')))
        return -1;
    memset(op, 0, sizeof *op);
    op->array = EMPY_ARR(o);
    op->dtype = op->array->dtype;
    return 0;
}

/* _where(cond, x, y): cond an ndarray; x and y as operand() takes them. */
static PyObject *fn_where(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *cond, *xo, *yo, *keep[2] = {NULL, NULL}, *r = NULL;
    em_operand ops[2];
    em_array res = {0};
    em_status rc;
    if (!PyArg_ParseTuple(args, "O!OO:_where", st->ndarray, &cond, &xo, &yo))
        return NULL;
    if (operand(st, xo, EMPY_ARR(cond)->device, &ops[0], &keep[0]) == 0 &&
        operand(st, yo, EMPY_ARR(cond)->device, &ops[1], &keep[1]) == 0) {
        EMPY_NOGIL(rc, em_where(EMPY_ARR(cond), &ops[0], &ops[1], &res, NULL));
        r = result(st, rc, &res, Py_None);
    }
    Py_XDECREF(keep[0]);
    Py_XDECREF(keep[1]);
    return r;
}

/* _choose(a, choices, mode, out): choices a tuple of ndarrays. */
static PyObject *fn_choose(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *chs, *out;
    const em_array *ch[EM_CHOOSE_MAX];
    int mode;
    Py_ssize_t n;
    em_array res;
    em_status rc;
    if (!PyArg_ParseTuple(args, "O!O!iO:_choose", st->ndarray, &a, &PyTuple_Type,
                          &chs, &mode, &out) ||
        out_arg(st, out, &res) < 0)
        return NULL;
    if ((n = PyTuple_GET_SIZE(chs)) < 1 || n > EM_CHOOSE_MAX) {
        PyErr_Format(PyExc_ValueError, "choose: %zd choices (ember takes 1 to %d)", n,
                     EM_CHOOSE_MAX);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!empy_is_ndarray(PyTuple_GET_ITEM(chs, i))) {
            PyErr_SetString(PyExc_TypeError, "_choose: choices must be ember arrays");
            return NULL;
        }
        ch[i] = EMPY_ARR(PyTuple_GET_ITEM(chs, i));
    }
    EMPY_NOGIL(rc, em_choose(EMPY_ARR(a), ch, (int)n, (em_index_mode)mode, &res, NULL));
    return result(st, rc, &res, out);
}

/* The ndarray methods: the functions of _api/selection.py. */
EMPY_PY_METHOD(nd_take, "ember._api.selection", "take")
EMPY_PY_METHOD(nd_put, "ember._api.selection", "_nd_put")
EMPY_PY_METHOD(nd_nonzero, "ember._api.selection", "nonzero")
EMPY_PY_METHOD(nd_compress, "ember._api.selection", "_nd_compress")
EMPY_PY_METHOD(nd_choose, "ember._api.selection", "choose")


static PyMethodDef indexfn_functions[] = {
    {"_take", fn_take, METH_VARARGS, NULL},
    {"_take_along_axis", fn_take_along_axis, METH_VARARGS, NULL},
    {"_put", fn_put, METH_VARARGS, NULL},
    {"_put_along_axis", fn_put_along_axis, METH_VARARGS, NULL},
    {"_nonzero", fn_nonzero, METH_VARARGS, NULL},
    {"_where", fn_where, METH_VARARGS, NULL},
    {"_choose", fn_choose, METH_VARARGS, NULL},
    {NULL},
};

PyMethodDef empy_indexfn_nd_methods[] = {
    {"take", EMPY_FASTKW(nd_take), "take(indices, axis=None, out=None, mode='raise')"},
    {"put", EMPY_FASTKW(nd_put), "put(indices, values, mode='raise')"},
    {"nonzero", EMPY_FASTKW(nd_nonzero), "nonzero(): a tuple of int64 index arrays"},
    {"compress", EMPY_FASTKW(nd_compress), "compress(condition, axis=None, out=None)"},
    {"choose", EMPY_FASTKW(nd_choose), "choose(choices, out=None, mode='raise')"},
    {NULL},
};

int empy_indexfn_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, indexfn_functions);
}
