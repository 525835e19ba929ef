/* ember Python extension: ember.linalg.norm, as numpy.linalg.norm, from
 * ufuncs and reductions (include/ember/reduce.h). The 2-norm of vectors
 * and the Frobenius norm are one EM_RED_SUMSQ pass and a square root;
 * the spectral and nuclear norms need an SVD and raise until the math
 * libraries issue brings one. */
#include "errors.h"
#include "ndarray.h"

static em_status unary(em_op op, const em_array *x, em_array *out)
{
    em_operand o = {0};
    o.array = x;
    o.dtype = x->dtype;
    return em_ufunc_apply(op, &o, 1, out, NULL, NULL);
}

/* x op (Python float p), a weak scalar as NumPy treats it. */
static em_status with_scalar(em_op op, const em_array *x, double p,
                             em_array *out)
{
    em_operand o[2];
    memset(o, 0, sizeof o);
    o[0].array = x;
    o[0].dtype = x->dtype;
    o[1].dtype = EM_FLOAT64;
    o[1].weak = 1;
    o[1].value.f = p;
    return em_ufunc_apply(op, o, 2, out, NULL, NULL);
}

static em_status reduce(em_reduce_op op, const em_array *x, const int *axes,
                        int naxes, int keepdims, em_array *out)
{
    em_reduce_args r = {0};
    r.axes = naxes ? axes : NULL;
    r.naxes = naxes;
    r.keepdims = keepdims;
    return em_reduce(op, x, &r, out, NULL);
}

/* The norm itself; x is already of an inexact dtype. kind: 0 vector
 * ord p (inf/-inf as +-HUGE_VAL), 1 Frobenius/2-norm via sum of squares,
 * 2 matrix ord +-1 or +-inf. */
static em_status vector_norm(const em_array *x, double p, const int *axes,
                             int naxes, int keepdims, em_array *out)
{
    em_array a = {0}, t = {0};
    em_status s;
    if (p == 2.0) {
        s = reduce(EM_RED_SUMSQ, x, axes, naxes, keepdims, &t);
        if (s == EM_OK)
            s = unary(EM_OP_SQRT, &t, out);
        em_array_release(&t);
        return s;
    }
    if ((s = unary(EM_OP_ABSOLUTE, x, &a)) != EM_OK)
        return s;
    if (p == HUGE_VAL)
        s = reduce(EM_RED_MAX, &a, axes, naxes, keepdims, out);
    else if (p == -HUGE_VAL)
        s = reduce(EM_RED_MIN, &a, axes, naxes, keepdims, out);
    else if (p == 0.0) {
        /* The count of nonzeros, in the real dtype of x. */
        em_array c = {0};
        em_operand o = {0};
        s = reduce(EM_RED_COUNT_NONZERO, &a, axes, naxes, keepdims, &c);
        if (s == EM_OK) {
            o.array = &c;
            o.dtype = c.dtype;
            s = em_array_empty(c.device, a.dtype, c.ndim, c.shape, 'C', NULL,
                               out);
            if (s == EM_OK && (s = em_ufunc_apply(EM_OP_COPY, &o, 1, out, NULL,
                                                  NULL)) != EM_OK)
                em_array_release(out);
        }
        em_array_release(&c);
    } else if (p == 1.0) {
        s = reduce(EM_RED_SUM, &a, axes, naxes, keepdims, out);
    } else {
        em_array q = {0};
        s = with_scalar(EM_OP_POWER, &a, p, &q);
        if (s == EM_OK)
            s = reduce(EM_RED_SUM, &q, axes, naxes, keepdims, &t);
        if (s == EM_OK)
            s = with_scalar(EM_OP_POWER, &t, 1.0 / p, out);
        em_array_release(&q);
    }
    em_array_release(&a);
    em_array_release(&t);
    return s;
}

/* ord 1/-1: the max/min over columns of the column sums; inf/-inf: of
 * the row sums. row and col are normalised, distinct axes. */
static em_status matrix_norm(const em_array *x, double p, int row, int col,
                             int keepdims, em_array *out)
{
    em_array a = {0}, t = {0};
    int first, second;
    em_status s;
    if ((s = unary(EM_OP_ABSOLUTE, x, &a)) != EM_OK)
        return s;
    if (p == 1.0 || p == -1.0) {
        first = row;
        second = col;
    } else {
        first = col;
        second = row;
    }
    if (!keepdims && second > first)
        second--;
    s = reduce(EM_RED_SUM, &a, &first, 1, keepdims, &t);
    if (s == EM_OK)
        s = reduce(p > 0 ? EM_RED_MAX : EM_RED_MIN, &t, &second, 1, keepdims,
                   out);
    em_array_release(&a);
    em_array_release(&t);
    return s;
}

static int axis_value(PyObject *o, int ndim, int *out)
{
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < -ndim || v >= ndim) {
        /* EM_ERR_AXIS through the one mapping of statuses. */
        em_error(EM_ERR_AXIS,
                 "axis %ld is out of bounds for array of "
                 "dimension %d",
                 v, ndim);
        return -2;
    }
    *out = (int)(v < 0 ? v + ndim : v);
    return 0;
}

PyObject *empy_linalg_norm(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"x", "ord", "axis", "keepdims", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *xo, *ord = Py_None, *axis = Py_None, *xa = NULL;
    int keepdims = 0, axes[2], naxes = 0, matrix, rc, fro = 0;
    double p = 2.0;
    em_array x = {0}, res = {0};
    em_device *dev = NULL;
    em_status s = EM_OK;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOp:norm", kwlist, &xo, &ord,
                                     &axis, &keepdims))
        return NULL;
    if (empy_is_ndarray(xo)) {
        Py_INCREF(xo);
        xa = xo;
    } else {
        if (empy_device_arg(st, Py_None, &dev) < 0)
            return NULL;
        if (!(xa = empy_asarray(st, xo, -1, dev, EMPY_COPY_IF_NEEDED, 'K')))
            return NULL;
    }
    {
        const em_array *a = EMPY_ARR(xa);
        em_dtype_kind k = em_dtype_get(a->dtype)->kind_id;
        /* As NumPy: integers and bools are taken as float64. */
        if (k != EM_KIND_FLOAT && k != EM_KIND_COMPLEX) {
            em_operand o = {0};
            o.array = a;
            o.dtype = a->dtype;
            s = em_array_empty(a->device, EM_FLOAT64, a->ndim, a->shape, 'C',
                               NULL, &x);
            if (s == EM_OK && (s = em_ufunc_apply(EM_OP_COPY, &o, 1, &x, NULL,
                                                  NULL)) != EM_OK)
                em_array_release(&x);
        } else {
            em_array_retain(a, &x);
        }
    }
    Py_DECREF(xa);
    if (s != EM_OK)
        return empy_raise(st, s);

    /* Which axes: None (all: a vector norm of the flattening when ord is
     * None, else by x's rank), one int, or a pair. */
    if (axis == Py_None) {
        if (ord != Py_None && x.ndim != 1 && x.ndim != 2) {
            PyErr_SetString(PyExc_ValueError,
                            "Improper number of dimensions to norm.");
            goto fail;
        }
        naxes = 0;
        matrix = ord != Py_None && x.ndim == 2;
        if (matrix) {
            axes[0] = 0;
            axes[1] = 1;
            naxes = 2;
        }
    } else if (PyTuple_Check(axis) || PyList_Check(axis)) {
        Py_ssize_t n = PySequence_Length(axis);
        if (n != 1 && n != 2) {
            PyErr_SetString(PyExc_ValueError,
                            "Improper number of dimensions to norm.");
            goto fail;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *it = PySequence_GetItem(axis, i);
            if (!it)
                goto fail;
            rc = axis_value(it, x.ndim, &axes[i]);
            Py_DECREF(it);
            if (rc == -2) {
                empy_raise(st, EM_ERR_AXIS);
                goto fail;
            }
            if (rc < 0)
                goto fail;
        }
        naxes = (int)n;
        if (naxes == 2 && axes[0] == axes[1]) {
            PyErr_SetString(PyExc_ValueError, "Duplicate axes given.");
            goto fail;
        }
        matrix = naxes == 2;
    } else {
        rc = axis_value(axis, x.ndim, &axes[0]);
        if (rc == -2) {
            empy_raise(st, EM_ERR_AXIS);
            goto fail;
        }
        if (rc < 0) {
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError,
                                "'axis' must be None, an integer or a tuple "
                                "of integers");
            }
            goto fail;
        }
        naxes = 1;
        matrix = 0;
    }

    /* ord */
    if (ord == Py_None) {
        fro = 1;
    } else if (PyUnicode_Check(ord)) {
        if (!PyUnicode_CompareWithASCIIString(ord, "fro") && matrix) {
            fro = 1;
        } else if (!PyUnicode_CompareWithASCIIString(ord, "nuc") && matrix) {
            PyErr_SetString(PyExc_NotImplementedError,
                            "norm(ord='nuc') needs a singular value "
                            "decomposition, which comes with ember's math "
                            "libraries issue");
            goto fail;
        } else {
            PyErr_SetString(PyExc_ValueError,
                            matrix ? "Invalid norm order for matrices."
                                   : "Invalid norm order 'fro' or 'nuc' for "
                                     "vectors");
            goto fail;
        }
    } else {
        p = PyFloat_AsDouble(ord);
        if (p == -1.0 && PyErr_Occurred())
            goto fail;
        if (matrix) {
            if (p == 2.0 || p == -2.0) {
                PyErr_SetString(PyExc_NotImplementedError,
                                "norm(ord=2 or -2) of a matrix needs a "
                                "singular value decomposition, which comes "
                                "with ember's math libraries issue");
                goto fail;
            }
            if (p != 1.0 && p != -1.0 && p != HUGE_VAL && p != -HUGE_VAL) {
                PyErr_SetString(PyExc_ValueError,
                                "Invalid norm order for matrices.");
                goto fail;
            }
        }
    }

    if (fro)
        EMPY_NOGIL(s, vector_norm(&x, 2.0, axes, naxes, keepdims, &res));
    else if (matrix)
        EMPY_NOGIL(s, matrix_norm(&x, p, axes[0], axes[1], keepdims, &res));
    else
        EMPY_NOGIL(s, vector_norm(&x, p, axes, naxes, keepdims, &res));
    em_array_release(&x);
    if (s != EM_OK)
        return empy_raise(st, s);
    return empy_ndarray_new(st, &res, NULL);
fail:
    em_array_release(&x);
    return NULL;
}
