/* ember Python extension: the @ operator, and the narrow entries under
 * ember.matmul, the other products and the cumulative sums, whose
 * signatures python/ember/_api/products.py and cumulative.py read; each
 * calls include/ember/linalg.h with the GIL released.
 *
 * Operands follow the ufuncs' rule: ember arrays stay where they are,
 * sequences and scalars go to the ember operands' device, host arrays of
 * other libraries are never moved to a GPU behind the caller's back. */
#include "runtime/args.h"
#include "runtime/errors.h"
#include "array/ndarray.h"

/* ---- arguments ------------------------------------------------------------ */

/* out= : None or an ndarray. */
static int out_arg(PyObject *o, PyObject **out)
{
    *out = NULL;
    if (!o || o == Py_None)
        return 0;
    if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 1)
        o = PyTuple_GET_ITEM(o, 0);
    if (!empy_is_ndarray(o)) {
        PyErr_Format(PyExc_TypeError,
                     "out= must be an ember.ndarray, not %.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = o;
    return 0;
}

/* Both operands (b NULL: only a) as ndarrays on one device: the first
 * ember array's, out's, or the current one (new references). */
static int operands(empy_state *st, PyObject *a, PyObject *b, PyObject *out,
                    PyObject **ra, PyObject **rb)
{
    em_device *dev = NULL;
    *ra = *rb = NULL;
    if (empy_is_ndarray(a))
        dev = EMPY_ARR(a)->device;
    else if (b && empy_is_ndarray(b))
        dev = EMPY_ARR(b)->device;
    else if (out)
        dev = EMPY_ARR(out)->device;
    else if (empy_device_arg(st, Py_None, &dev) < 0)
        return -1;
    if (!(*ra = empy_operand_on(st, a, dev)))
        return -1;
    if (b && !(*rb = empy_operand_on(st, b, dev))) {
        Py_CLEAR(*ra);
        return -1;
    }
    return 0;
}

static int dtype_opt(empy_state *st, PyObject *o, int *has, em_dtype *d)
{
    *has = 0;
    if (!o || o == Py_None)
        return 0;
    if (empy_dtype_arg(st, o, d) < 0)
        return -1;
    *has = 1;
    return 0;
}

/* The call's result: out itself, or a new ndarray holding res. */
static PyObject *finish(empy_state *st, em_status s, em_array *res,
                        PyObject *out)
{
    if (s != EM_OK) {
        PyObject *r = empy_raise(st, s);
        em_array_release(res); /* out's reference, when out was given */
        return r;
    }
    if (out) {
        em_array_release(res);
        Py_INCREF(out);
        return out;
    }
    return empy_ndarray_new(st, res, NULL);
}

typedef em_status (*pair_fn)(const em_array *, const em_array *, em_array *,
                             em_stream *);

/* ---- products ------------------------------------------------------------- */

static PyObject *matmul(empy_state *st, PyObject *a, PyObject *b, PyObject *out_obj,
                      PyObject *dtype_obj, int tf32)
{
    PyObject *ra, *rb, *out, *r;
    em_array res = {0};
    em_product_args args = {0};
    em_status s;
    args.tf32 = tf32;
    if (out_arg(out_obj, &out) < 0 ||
        dtype_opt(st, dtype_obj, &args.has_dtype, &args.dtype) < 0 ||
        operands(st, a, b, out, &ra, &rb) < 0)
        return NULL;
    if (out)
        em_array_retain(EMPY_ARR(out), &res);
    EMPY_NOGIL(s, em_matmul(EMPY_ARR(ra), EMPY_ARR(rb), &args, &res, NULL));
    r = finish(st, s, &res, out);
    Py_DECREF(ra);
    Py_DECREF(rb);
    return r;
}

/* o as an int, one past int's range standing for any larger magnitude
 * (out of range for every array, as the C calls report it). */
static int int_arg(PyObject *o, int *v)
{
    long x = PyLong_AsLong(o);
    if (x == -1 && PyErr_Occurred())
        return -1;
    *v = x < INT_MIN || x > INT_MAX ? INT_MAX : (int)x;
    return 0;
}

/* _matmul(a, b, out, dtype, tf32=False): what ember.matmul calls once
 * _api/products.py has read casting= and axes=; tf32 lets this one
 * float32 product use TF32 tensor cores (em_product_args). */
static PyObject *la_matmul(PyObject *m, PyObject *args)
{
    PyObject *a, *b, *out, *dtype;
    int tf32 = 0;
    if (!PyArg_ParseTuple(args, "OOOO|p:_matmul", &a, &b, &out, &dtype, &tf32))
        return NULL;
    return matmul(empy_state_of_module(m), a, b, out, dtype, tf32);
}

/* _product(kind, a, b, out[, extra]): dot, vdot, inner, outer, tensordot
 * (extra: the pair of axis tuples _api/products.py made) or
 * vecdot (extra: the axis), in that order of kind. */
static PyObject *la_product(PyObject *m, PyObject *args)
{
    static const pair_fn pairs[] = {em_dot, em_vdot, em_inner, em_outer};
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *b, *out_obj, *extra = NULL, *ra, *rb, *out, *r = NULL;
    int kind, axa[EM_MAX_NDIM], axb[EM_MAX_NDIM], n = 0;
    em_array res = {0};
    em_status s;
    if (!PyArg_ParseTuple(args, "iOOO|O:_product", &kind, &a, &b, &out_obj, &extra))
        return NULL;
    if (kind < 0 || kind > 5 || (kind >= 4 && !extra)) {
        PyErr_SetString(PyExc_ValueError, "_product: bad kind");
        return NULL;
    }
    if (out_arg(out_obj, &out) < 0 || operands(st, a, b, out, &ra, &rb) < 0)
        return NULL;
    if (kind == 5) {
        int axis;
        if (int_arg(extra, &axis) < 0)
            goto done;
        if (out)
            em_array_retain(EMPY_ARR(out), &res);
        EMPY_NOGIL(s, em_vecdot(EMPY_ARR(ra), EMPY_ARR(rb), axis, &res, NULL));
    } else if (kind == 4) {
        PyObject *ta, *tb;
        if (!PyArg_ParseTuple(extra, "O!O!", &PyTuple_Type, &ta, &PyTuple_Type, &tb))
            goto done;
        n = (int)PyTuple_GET_SIZE(ta);
        if (n != PyTuple_GET_SIZE(tb) || n > EM_MAX_NDIM) {
            PyErr_SetString(PyExc_ValueError, "tensordot: too many axes");
            goto done;
        }
        for (int i = 0; i < n; i++) {
            axa[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(ta, i));
            axb[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(tb, i));
        }
        if (PyErr_Occurred())
            goto done;
        EMPY_NOGIL(s, em_tensordot(EMPY_ARR(ra), EMPY_ARR(rb), n, axa, axb, &res, NULL));
    } else {
        if (out)
            em_array_retain(EMPY_ARR(out), &res);
        EMPY_NOGIL(s, pairs[kind](EMPY_ARR(ra), EMPY_ARR(rb), &res, NULL));
    }
    r = finish(st, s, &res, out);
done:
    Py_DECREF(ra);
    Py_DECREF(rb);
    return r;
}

/* _cumulate(op, x, axis, dtype, out): em_cumulate_op op along axis (None:
 * the flattened array); _api/cumulative.py reads the arguments. */
static PyObject *la_cumulate(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *x, *axis_obj, *dtype_obj, *out_obj, *ra, *rb, *out, *r;
    int op, has = 0, axis = 0;
    em_dtype dt = EM_BOOL;
    em_array res = {0};
    em_status s;
    if (!PyArg_ParseTuple(args, "iOOOO:_cumulate", &op, &x, &axis_obj, &dtype_obj,
                          &out_obj))
        return NULL;
    if (op < 0 || op >= EM_CUM_OP_COUNT) {
        PyErr_SetString(PyExc_ValueError, "_cumulate: bad op");
        return NULL;
    }
    if (out_arg(out_obj, &out) < 0 || dtype_opt(st, dtype_obj, &has, &dt) < 0)
        return NULL;
    if (axis_obj != Py_None && int_arg(axis_obj, &axis) < 0)
        return NULL;
    if (operands(st, x, NULL, out, &ra, &rb) < 0)
        return NULL;
    if (out)
        em_array_retain(EMPY_ARR(out), &res);
    EMPY_NOGIL(s, em_cumulate((em_cumulate_op)op, EMPY_ARR(ra), axis,
                              axis_obj == Py_None, has, dt, &res, NULL));
    r = finish(st, s, &res, out);
    Py_DECREF(ra);
    return r;
}

/* ---- operators ------------------------------------------------------------ */

static int matmul_operand(PyObject *o)
{
    return empy_is_ndarray(o) || PyList_Check(o) || PyTuple_Check(o) ||
           PyObject_CheckBuffer(o);
}

PyObject *empy_nd_matmul(PyObject *a, PyObject *b)
{
    PyObject *nd = empy_is_ndarray(a) ? a : b;
    if (!matmul_operand(a) || !matmul_operand(b))
        Py_RETURN_NOTIMPLEMENTED;
    return matmul(empy_state_of(nd), a, b, NULL, NULL, 0);
}

/* a @= b: into a, which NumPy allows only when the result keeps a's
 * shape (the product goes through a temporary, so reading a while
 * writing it is safe). */
PyObject *empy_nd_imatmul(PyObject *a, PyObject *b)
{
    if (!empy_is_ndarray(a) || !matmul_operand(b))
        Py_RETURN_NOTIMPLEMENTED;
    return matmul(empy_state_of(a), a, b, a, NULL, 0);
}

/* ---- tables -------------------------------------------------------------- */

EMPY_PY_METHOD(nd_dot, "ember._api.products", "dot")
EMPY_PY_METHOD(nd_cumsum, "ember._api.cumulative", "cumsum")
EMPY_PY_METHOD(nd_cumprod, "ember._api.cumulative", "cumprod")


static PyMethodDef linalg_functions[] = {
    {"_matmul", la_matmul, METH_VARARGS, NULL},
    {"_product", la_product, METH_VARARGS, NULL},
    {"_cumulate", la_cumulate, METH_VARARGS, NULL},
    {NULL},
};

PyMethodDef empy_linalg_nd_methods[] = {
    {"dot", EMPY_FASTKW(nd_dot), "a.dot(b, out=None): ember.dot(a, b)."},
    {"cumsum", EMPY_FASTKW(nd_cumsum), "a.cumsum(axis=None, dtype=None, out=None)."},
    {"cumprod", EMPY_FASTKW(nd_cumprod), "a.cumprod(axis=None, dtype=None, out=None)."},
    {NULL},
};

/* ember.linalg: a module whose functions _api/linalg.py supplies on first
 * use (ember/__init__.py's __getattr__ for it). */
int empy_linalg_init(PyObject *m, empy_state *st)
{
    PyObject *ns = PyModule_New("ember.linalg");
    int rc;
    (void)st;
    if (!ns)
        return -1;
    rc = PyModule_AddObjectRef(m, "linalg", ns);
    Py_DECREF(ns);
    if (rc < 0)
        return -1;
    return PyModule_AddFunctions(m, linalg_functions);
}
