/* ember Python extension: the methods of ember's ufuncs, as NumPy's:
 * reduce, accumulate, reduceat and outer (binary ufuncs); at is in
 * ufunc_at.c.
 *
 * add, multiply, maximum, minimum, logical_and and logical_or reduce
 * through the C reductions (em_reduce), add and multiply accumulate
 * through em_cumulate; every other binary ufunc folds left to right with
 * one elementwise launch per step along the axis, NumPy's order for
 * operations that are not associative (subtract, power, ...). The dtypes
 * are NumPy's: add and multiply of bool and small integers accumulate in
 * int64/uint64 unless dtype= or out= says otherwise, and a ufunc whose
 * loop over (dtype, dtype) gives another dtype (less) has no reduction. */
#include <string.h>
#include <stdlib.h>
#include <math.h>
#include "runtime/module.h"
#include "runtime/errors.h"
#include "array/ndarray.h"
#include "array/manip_args.h"

#define UF(o) ((empy_Ufunc *)(o))

static const char *uname(PyObject *self)
{
    return em_op_get(UF(self)->op)->name;
}

static int need_binary(PyObject *self, const char *method)
{
    if (UF(self)->nin != 2 || UF(self)->nout != 1) {
        PyErr_Format(PyExc_ValueError, "%s only supported for binary functions", method);
        return -1;
    }
    return 0;
}

static int is_named(PyObject *self, const char *const *names)
{
    const char *n = uname(self);
    for (; *names; names++)
        if (!strcmp(n, *names))
            return 1;
    return 0;
}

/* The C reduction standing for this ufunc's reduce, if there is one. */
static int red_op(PyObject *self, em_reduce_op *r)
{
    static const struct { const char *name; em_reduce_op op; } map[] = {
        {"add", EM_RED_SUM}, {"multiply", EM_RED_PROD}, {"maximum", EM_RED_MAX},
        {"minimum", EM_RED_MIN}, {"logical_and", EM_RED_ALL}, {"logical_or", EM_RED_ANY},
    };
    size_t i;
    for (i = 0; i < sizeof map / sizeof *map; i++)
        if (!strcmp(uname(self), map[i].name)) {
            *r = map[i].op;
            return 1;
        }
    return 0;
}

/* Whether em_reduce takes the accumulator dtype: sum and prod do, any and
 * all answer bool unless asked, min and max take no dtype (the input is
 * cast instead: need_cast). */
static int red_has_dtype(em_reduce_op r, int dtype_given)
{
    if (r == EM_RED_MIN || r == EM_RED_MAX)
        return 0;
    return (r != EM_RED_ALL && r != EM_RED_ANY) || dtype_given;
}

static int red_needs_cast(em_reduce_op r)
{
    return r == EM_RED_MIN || r == EM_RED_MAX;
}

/* Associative and commutative: reducible over several axes at once. */
static int reorderable(PyObject *self)
{
    /* NumPy's list: the ufuncs with an identity, and maximum/minimum/fmax/fmin. */
    static const char *const names[] = {
        "add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_and",
        "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
        "gcd", "hypot", "logaddexp", "logaddexp2", NULL};
    return is_named(self, names);
}

static PyObject *as_array(empy_state *st, PyObject *o, em_device *dev)
{
    return empy_asarray(st, o, -1, dev, EMPY_COPY_IF_NEEDED, 'K');
}

/* out=: None, an ember array, or a tuple of one. Checked before anything
 * reads it as an array (its dtype picks the accumulator). */
static int out_of(PyObject *o, PyObject **out)
{
    if (o && PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 1)
        o = PyTuple_GET_ITEM(o, 0);
    *out = o == Py_None ? NULL : o;
    if (*out && !empy_is_ndarray(*out)) {
        PyErr_Format(PyExc_TypeError, "out must be an ember array, not %.100s",
                     Py_TYPE(*out)->tp_name);
        return -1;
    }
    return 0;
}

/* reduce, accumulate and reduceat read out= first, then their array on
 * out's device (the current one without out): a new reference, or NULL. */
static PyObject *array_and_out(empy_state *st, PyObject *arr_o, PyObject *out_o,
                               PyObject **out)
{
    if (out_of(out_o, out) < 0)
        return NULL;
    return as_array(st, arr_o, *out ? EMPY_ARR(*out)->device : NULL);
}

/* NumPy's accumulator dtype of reduce/accumulate/reduceat. */
static int acc_dtype(empy_state *st, PyObject *self, em_dtype in, PyObject *dtype_o,
                     PyObject *out, em_dtype *otype)
{
    char k;
    if (dtype_o && dtype_o != Py_None)
        return empy_dtype_arg(st, dtype_o, otype);
    if (out) {
        *otype = EMPY_ARR(out)->dtype;
        return 0;
    }
    *otype = in;
    k = em_dtype_get(in)->kind;
    /* The logical ufuncs' only loop that gives its input type back is the
     * bool one: NumPy reduces them in bool. */
    if (!strncmp(uname(self), "logical_", 8)) {
        *otype = EM_BOOL;
        return 0;
    }
    if ((!strcmp(uname(self), "add") || !strcmp(uname(self), "multiply")) &&
        (k == 'b' || ((k == 'i' || k == 'u') && em_dtype_size(in) < 8)))
        *otype = k == 'u' ? EM_UINT64 : EM_INT64;
    return 0;
}

/* The loop over (otype, otype) must give otype back. */
static int check_loop(PyObject *self, em_dtype otype)
{
    em_operand in[2];
    em_dtype outd;
    memset(in, 0, sizeof in);
    in[0].dtype = in[1].dtype = otype;
    if (em_ufunc_resolve(UF(self)->op, in, 2, NULL, &outd) != EM_OK || outd != otype) {
        PyErr_Format(PyExc_TypeError, "No loop matching the specified signature and "
                     "casting was found for ufunc %s (dtype %s)", uname(self),
                     em_dtype_get(otype)->name);
        return -1;
    }
    return 0;
}

/* a without axis, at index i along it: a view that holds no reference. */
static void drop_axis(const em_array *a, int axis, int64_t i, em_array *v)
{
    int d;
    *v = *a;
    v->data = a->data + i * a->strides[axis];
    for (d = axis; d + 1 < a->ndim; d++) {
        v->shape[d] = a->shape[d + 1];
        v->strides[d] = a->strides[d + 1];
    }
    v->ndim = a->ndim - 1;
    em_array_update_flags(v);
}

/* a's elements [start, stop) along axis: a view without a reference. */
static void range_axis(const em_array *a, int axis, int64_t start, int64_t stop,
                       em_array *v)
{
    *v = *a;
    v->data = a->data + start * a->strides[axis];
    v->shape[axis] = stop - start;
    em_array_update_flags(v);
}

/* res = op folded left to right over a along axis (a of res's dtype);
 * initial, when given, starts the fold. An empty axis leaves initial (or
 * nothing: the caller checked). */
static em_status fold(em_op op, const em_array *a, int axis, const em_operand *initial,
                      em_array *res)
{
    int64_t i, n = a->shape[axis];
    em_operand in[2];
    em_array v;
    em_status rc = EM_OK;
    memset(in, 0, sizeof in);
    if (n == 0 && initial)
        return em_array_fill(res, initial->value.bytes, initial->dtype, NULL);
    for (i = 0; i < n && rc == EM_OK; i++) {
        drop_axis(a, axis, i, &v);
        if (i == 0 && !initial) {
            rc = em_array_copy(res, &v, NULL);
            continue;
        }
        if (i == 0) {
            in[0] = *initial;
        } else {
            in[0].array = res;
            in[0].dtype = res->dtype;
            in[0].weak = 0;
        }
        in[1].array = &v;
        in[1].dtype = v.dtype;
        rc = em_ufunc_apply(op, in, 2, res, NULL, NULL);
    }
    return rc;
}

/* Parse axis= into a list of distinct non-negative axes; *all when None. */
static int axes_arg(empy_state *st, PyObject *o, int ndim, int *axes, int *naxes)
{
    int64_t v[EM_MAX_NDIM];
    unsigned char seen[EM_MAX_NDIM] = {0};
    int n, i;
    if (o == Py_None) {
        for (i = 0; i < ndim; i++)
            axes[i] = i;
        *naxes = ndim;
        return 0;
    }
    if (empy_shape_arg(o, "axis", &n, v) < 0)
        return -1;
    for (i = 0; i < n; i++) {
        if (manip_axis(st, v[i], ndim, &axes[i]) < 0)
            return -1;
        if (seen[axes[i]]++) {
            PyErr_SetString(PyExc_ValueError, "duplicate value in 'axis'");
            return -1;
        }
    }
    *naxes = n;
    return 0;
}

/* A scalar initial= as an operand of dtype otype. */
static int initial_arg(PyObject *o, em_dtype otype, em_operand *op)
{
    int k = empy_scalar_operand(o, op);
    if (k <= 0) {
        if (k == 0)
            PyErr_Format(PyExc_TypeError, "initial must be a scalar, not %.100s",
                         Py_TYPE(o)->tp_name);
        return -1;
    }
    return 0;
}

/* The identity of the ufuncs that fold here and have one (NumPy's), as a
 * weak scalar; 0 when there is none. */
static int identity(PyObject *self, em_operand *op)
{
    static const char *const zero[] = {"bitwise_or", "bitwise_xor", "logical_xor",
                                       "gcd", "hypot", NULL};
    memset(op, 0, sizeof *op);
    op->weak = 1;
    op->dtype = EM_INT64;
    if (is_named(self, zero))
        return 1;
    if (!strcmp(uname(self), "bitwise_and")) {
        op->value.i = -1;
        return 1;
    }
    if (!strcmp(uname(self), "logaddexp") || !strcmp(uname(self), "logaddexp2")) {
        op->dtype = EM_FLOAT64;
        op->value.f = -HUGE_VAL;
        return 1;
    }
    return 0;
}

/* a cast to dtype (a itself when it has it). New reference. */
static PyObject *cast_to(empy_state *st, PyObject *a, em_dtype d)
{
    if (EMPY_ARR(a)->dtype == d)
        return Py_NewRef(a);
    return empy_asarray(st, a, (int)d, NULL, EMPY_COPY_IF_NEEDED, 'K');
}

/* Write res into out (same_kind) and return out, or return res. Steals res. */
static PyObject *deliver(empy_state *st, PyObject *res, PyObject *out)
{
    em_status rc;
    if (!res || !out)
        return res;
    if (!empy_is_ndarray(out)) {
        Py_DECREF(res);
        PyErr_Format(PyExc_TypeError, "out must be an ember array, not %.100s",
                     Py_TYPE(out)->tp_name);
        return NULL;
    }
    EMPY_NOGIL(rc, em_array_copy(EMPY_ARR(out), EMPY_ARR(res), NULL));
    Py_DECREF(res);
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return Py_NewRef(out);
}

/* ---- reduce --------------------------------------------------------------- */

/* reduce's where=: *a with the masked-out elements replaced by the
 * ufunc's identity, which leaves the reduction of the others unchanged;
 * maximum and friends have none, but an element equal to initial= changes
 * nothing there either (NumPy asks for initial= then). */
static int masked_input(empy_state *st, PyObject *self, PyObject **a, PyObject *where_o,
                        const em_operand *initial)
{
    static const char *const idempotent[] = {"maximum", "minimum", "fmax", "fmin", NULL};
    em_operand fill, x;
    em_array out;
    em_status rc;
    PyObject *w;
    memset(&fill, 0, sizeof fill);
    fill.weak = 1;
    fill.dtype = EM_INT64;
    if (!strcmp(uname(self), "add") || !strcmp(uname(self), "logical_or")) {
        fill.dtype = !strcmp(uname(self), "add") ? EM_INT64 : EM_BOOL;
    } else if (!strcmp(uname(self), "multiply") || !strcmp(uname(self), "logical_and")) {
        fill.dtype = !strcmp(uname(self), "multiply") ? EM_INT64 : EM_BOOL;
        if (fill.dtype == EM_BOOL)
            fill.value.bytes[0] = 1;
        else
            fill.value.i = 1;
    } else if (is_named(self, idempotent)) {
        if (!initial) {
            PyErr_Format(PyExc_ValueError, "reduction operation '%s' does not have an "
                         "identity, so to use a where mask one has to specify "
                         "'initial'", uname(self));
            return -1;
        }
        fill = *initial;
    } else if (!identity(self, &fill)) {
        PyErr_Format(PyExc_NotImplementedError, "%s.reduce: where= needs a ufunc with an "
                     "identity (or maximum/minimum with initial=) in ember",
                     uname(self));
        return -1;
    }
    if (!(w = empy_asarray(st, where_o, EM_BOOL, EMPY_ARR(*a)->device,
                           EMPY_COPY_IF_NEEDED, 'K')))
        return -1;
    memset(&x, 0, sizeof x);
    x.array = EMPY_ARR(*a);
    x.dtype = x.array->dtype;
    memset(&out, 0, sizeof out);
    EMPY_NOGIL(rc, em_where(EMPY_ARR(w), &x, &fill, &out, NULL));
    Py_DECREF(w);
    if (rc != EM_OK)
        return empy_fail(st, rc);
    /* where() broadcast the mask; the reduction is over a's own shape */
    Py_SETREF(*a, empy_ndarray_new(st, &out, NULL));
    return *a ? 0 : -1;
}

PyObject *empy_ufunc_reduce(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"array", "axis", "dtype", "out", "keepdims", "initial",
                             "where", NULL};
    empy_state *st = empy_state_of(self);
    PyObject *arr_o, *axis_o = NULL, *dtype_o = Py_None, *out_o = Py_None, *init_o = NULL,
             *where_o = Py_True, *a = NULL, *r = NULL, *out;
    int keepdims = 0, axes[EM_MAX_NDIM], naxes, i, nd;
    int64_t shape[EM_MAX_NDIM], count = 1;
    em_dtype otype;
    em_reduce_op rop = EM_RED_SUM;
    em_operand init;
    em_array res;
    em_status rc;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOOpOO:reduce", kwlist, &arr_o, &axis_o,
                                     &dtype_o, &out_o, &keepdims, &init_o, &where_o) ||
        need_binary(self, "reduce") < 0)
        return NULL;
    if (!(a = array_and_out(st, arr_o, out_o, &out)))
        return NULL;
    nd = EMPY_ARR(a)->ndim;
    if (!axis_o) {
        axis_o = nd ? NULL : Py_None;
        if (axis_o == NULL) {
            axes[0] = 0;
            naxes = 1;
        }
    }
    if (axis_o && axes_arg(st, axis_o, nd, axes, &naxes) < 0)
        goto done;
    if (acc_dtype(st, self, EMPY_ARR(a)->dtype, dtype_o, out, &otype) < 0)
        goto done;
    if (init_o && init_o != Py_None && initial_arg(init_o, otype, &init) < 0)
        goto done;
    if (init_o == Py_None)
        init_o = NULL;
    if (where_o != Py_True && masked_input(st, self, &a, where_o,
                                           init_o ? &init : NULL) < 0)
        goto done;
    /* the result's shape */
    {
        unsigned char red[EM_MAX_NDIM] = {0};
        int k = 0;
        for (i = 0; i < naxes; i++) {
            red[axes[i]] = 1;
            count *= EMPY_ARR(a)->shape[axes[i]];
        }
        for (i = 0; i < nd; i++)
            if (!red[i])
                shape[k++] = EMPY_ARR(a)->shape[i];
            else if (keepdims)
                shape[k++] = 1;
        memset(&res, 0, sizeof res);
        if (red_op(self, &rop) && !(count == 0 && init_o)) {
            em_reduce_args ra;
            memset(&ra, 0, sizeof ra);
            ra.axes = axes;
            ra.naxes = naxes;
            ra.keepdims = keepdims;
            ra.has_dtype = red_has_dtype(rop, dtype_o && dtype_o != Py_None);
            ra.dtype = otype;
            if (red_needs_cast(rop) && EMPY_ARR(a)->dtype != otype) {
                PyObject *c = cast_to(st, a, otype);
                if (!c)
                    goto done;
                Py_SETREF(a, c);
            }
            EMPY_NOGIL(rc, em_reduce(rop, EMPY_ARR(a), &ra, &res, NULL));
            if (rc == EM_OK && init_o) {
                em_operand in[2];
                memset(in, 0, sizeof in);
                in[0].array = &res;
                in[0].dtype = res.dtype;
                in[1] = init;
                EMPY_NOGIL(rc, em_ufunc_apply(UF(self)->op, in, 2, &res, NULL, NULL));
            }
            if (rc != EM_OK) {
                em_array_release(&res);
                empy_raise(st, rc);
                goto done;
            }
            r = deliver(st, empy_ndarray_new(st, &res, NULL), out);
            goto done;
        }
        if (check_loop(self, otype) < 0)
            goto done;
        if (naxes > 1 && !reorderable(self)) {
            PyErr_Format(PyExc_ValueError, "reduction operation '%s' is not reorderable, "
                         "so at most one axis may be specified", uname(self));
            goto done;
        }
        if (count == 0 && !init_o && identity(self, &init)) {
            init_o = Py_None;   /* (only marks init as set) */
        } else if (count == 0 && !init_o) {
            int64_t outsize = 1;
            for (i = 0; i < k; i++)
                outsize *= shape[i];
            if (outsize) {
                PyErr_Format(PyExc_ValueError, "zero-size array to reduction operation "
                             "%s which has no identity", uname(self));
                goto done;
            }
        }
        {
            /* The reduced axes first, merged into one, then the others. */
            PyObject *c = cast_to(st, a, otype);
            int perm[EM_MAX_NDIM], p = 0;
            int64_t fshape[EM_MAX_NDIM];
            em_array t, m;
            if (!c)
                goto done;
            for (i = 0; i < naxes; i++)
                perm[p++] = axes[i];
            for (i = 0; i < nd; i++)
                if (!red[i])
                    perm[p++] = i;
            fshape[0] = count;
            for (i = naxes; i < nd; i++)
                fshape[i - naxes + 1] = EMPY_ARR(c)->shape[perm[i]];
            rc = em_array_transpose(EMPY_ARR(c), perm, &t);
            if (rc == EM_OK) {
                rc = em_array_reshape_view(&t, nd - naxes + 1, fshape, 'C', &m);
                if (rc == EM_ERR_NOT_SUPPORTED) {
                    em_array cc;
                    rc = empy_array_copy_new(&t, NULL, -1, 'C', &cc);
                    if (rc == EM_OK) {
                        rc = em_array_reshape_view(&cc, nd - naxes + 1, fshape, 'C', &m);
                        em_array_release(&cc);
                    }
                }
                em_array_release(&t);
            }
            Py_DECREF(c);
            if (rc == EM_OK) {
                rc = em_array_empty(m.device, otype, k, shape, 'C', NULL, &res);
                if (rc == EM_OK) {
                    em_array body = res;
                    /* keepdims' extent-1 axes take no part in the fold */
                    body.ndim = m.ndim - 1;
                    for (i = 0; i < body.ndim; i++) {
                        body.shape[i] = m.shape[i + 1];
                    }
                    em_strides_contiguous(body.ndim, body.shape,
                                          (int64_t)em_dtype_size(otype), 'C', body.strides);
                    em_array_update_flags(&body);
                    EMPY_NOGIL(rc, fold(UF(self)->op, &m, 0, init_o ? &init : NULL, &body));
                    if (rc != EM_OK)
                        em_array_release(&res);
                }
                em_array_release(&m);
            }
            if (rc != EM_OK) {
                empy_raise(st, rc);
                goto done;
            }
            r = deliver(st, empy_ndarray_new(st, &res, NULL), out);
        }
    }
done:
    Py_XDECREF(a);
    return r;
}

/* ---- accumulate -------------------------------------------------------------- */

PyObject *empy_ufunc_accumulate(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"array", "axis", "dtype", "out", NULL};
    empy_state *st = empy_state_of(self);
    PyObject *arr_o, *axis_o = NULL, *dtype_o = Py_None, *out_o = Py_None, *a, *c, *out;
    int axis = 0, n;
    em_dtype otype;
    em_array res, v, w, prev;
    em_status rc = EM_OK;
    int64_t i;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOO:accumulate", kwlist, &arr_o, &axis_o,
                                     &dtype_o, &out_o) ||
        need_binary(self, "accumulate") < 0)
        return NULL;
    if (!(a = array_and_out(st, arr_o, out_o, &out)))
        return NULL;
    if (EMPY_ARR(a)->ndim == 0) {
        Py_DECREF(a);
        PyErr_SetString(PyExc_ValueError, "accumulate needs an array of at least one "
                        "dimension, not a 0-d one");
        return NULL;
    }
    if (axis_o && axis_o != Py_None) {
        int axes[EM_MAX_NDIM];
        if (axes_arg(st, axis_o, EMPY_ARR(a)->ndim, axes, &n) < 0 ||
            (n != 1 && (PyErr_SetString(PyExc_ValueError, "accumulate takes one "
                                        "axis"), 1))) {
            Py_DECREF(a);
            return NULL;
        }
        axis = axes[0];
    }
    if (acc_dtype(st, self, EMPY_ARR(a)->dtype, dtype_o, out, &otype) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    rc = em_array_empty(EMPY_ARR(a)->device, otype, EMPY_ARR(a)->ndim, EMPY_ARR(a)->shape,
                        'C', NULL, &res);
    if (rc != EM_OK) {
        Py_DECREF(a);
        return empy_raise(st, rc);
    }
    if ((!strcmp(uname(self), "add") || !strcmp(uname(self), "multiply")) &&
        em_dtype_get(otype)->kind != 'b') {
        EMPY_NOGIL(rc, em_cumulate(strcmp(uname(self), "add") ? EM_CUM_PROD : EM_CUM_SUM,
                                   EMPY_ARR(a), axis, 0, 1, otype, &res, NULL));
        Py_DECREF(a);
    } else {
        if (check_loop(self, otype) < 0 || !(c = cast_to(st, a, otype))) {
            em_array_release(&res);
            Py_DECREF(a);
            return NULL;
        }
        Py_DECREF(a);
        Py_BEGIN_ALLOW_THREADS
        for (i = 0; i < EMPY_ARR(c)->shape[axis] && rc == EM_OK; i++) {
            drop_axis(EMPY_ARR(c), axis, i, &v);
            drop_axis(&res, axis, i, &w);
            if (i == 0) {
                rc = em_array_copy(&w, &v, NULL);
            } else {
                em_operand in[2];
                memset(in, 0, sizeof in);
                drop_axis(&res, axis, i - 1, &prev);
                in[0].array = &prev;
                in[0].dtype = otype;
                in[1].array = &v;
                in[1].dtype = otype;
                rc = em_ufunc_apply(UF(self)->op, in, 2, &w, NULL, NULL);
            }
        }
        Py_END_ALLOW_THREADS
        Py_DECREF(c);
    }
    if (rc != EM_OK) {
        em_array_release(&res);
        return empy_raise(st, rc);
    }
    return deliver(st, empy_ndarray_new(st, &res, NULL), out);
}

/* ---- reduceat ---------------------------------------------------------------- */

PyObject *empy_ufunc_reduceat(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"array", "indices", "axis", "dtype", "out", NULL};
    empy_state *st = empy_state_of(self);
    PyObject *arr_o, *idx_o, *dtype_o = Py_None, *out_o = Py_None, *a = NULL, *c = NULL,
             *lst = NULL, *idx = NULL, *r = NULL, *out;
    Py_ssize_t axis_i = 0, n, i;
    int axis, nd, use_red;
    int64_t len, shape[EM_MAX_NDIM];
    em_dtype otype;
    em_reduce_op rop = EM_RED_SUM;
    em_array res;
    em_device *cpu;
    em_status rc = EM_OK;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|nOO:reduceat", kwlist, &arr_o, &idx_o,
                                     &axis_i, &dtype_o, &out_o) ||
        need_binary(self, "reduceat") < 0)
        return NULL;
    if (!(a = array_and_out(st, arr_o, out_o, &out)))
        return NULL;
    nd = EMPY_ARR(a)->ndim;
    if (axis_i < -nd || axis_i >= nd) {
        PyErr_Format(empy_np_exc(st, EMPY_EXC_AXIS), "axis %zd is out of bounds for array "
                     "of dimension %d", axis_i, nd);
        goto done;
    }
    axis = (int)(axis_i < 0 ? axis_i + nd : axis_i);
    len = EMPY_ARR(a)->shape[axis];
    /* The bounds are read on the host (below): a list of them becomes a
     * cpu array, not one on the current device. */
    if ((rc = em_device_get(EM_DEVICE_CPU, 0, &cpu)) != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    if (!(idx = as_array(st, idx_o, empy_is_ndarray(idx_o) ? NULL : cpu)))
        goto done;
    if (EMPY_ARR(idx)->ndim != 1 || !strchr("iu", em_dtype_get(EMPY_ARR(idx)->dtype)->kind)) {
        PyErr_Format(PyExc_TypeError, "%s.reduceat: indices must be a 1-d array of "
                     "integers, not %d-d %s", uname(self), EMPY_ARR(idx)->ndim,
                     em_dtype_get(EMPY_ARR(idx)->dtype)->name);
        goto done;
    }
    /* The segment bounds steer the host loop: read them once. */
    if (!(lst = PyObject_CallMethod(idx, "tolist", NULL)))
        goto done;
    n = PyList_GET_SIZE(lst);
    if (acc_dtype(st, self, EMPY_ARR(a)->dtype, dtype_o, out, &otype) < 0)
        goto done;
    use_red = red_op(self, &rop);
    if (!use_red && check_loop(self, otype) < 0)
        goto done;
    if (!(c = use_red && !red_needs_cast(rop) ? Py_NewRef(a) : cast_to(st, a, otype)))
        goto done;
    memcpy(shape, EMPY_ARR(a)->shape, sizeof(int64_t) * (size_t)nd);
    shape[axis] = n;
    rc = em_array_empty(EMPY_ARR(a)->device, use_red && (rop == EM_RED_ALL ||
                        rop == EM_RED_ANY) && dtype_o == Py_None ? EM_BOOL : otype, nd,
                        shape, 'C', NULL, &res);
    if (rc != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    for (i = 0; i < n && rc == EM_OK; i++) {
        long long s = PyLong_AsLongLong(PyList_GET_ITEM(lst, i)), e;
        em_array seg, w;
        if (s == -1 && PyErr_Occurred())
            break;
        e = i + 1 < n ? PyLong_AsLongLong(PyList_GET_ITEM(lst, i + 1)) : len;
        if (s < 0 || s >= len || e < 0 || e > len) {
            PyErr_Format(PyExc_IndexError, "index %lld out-of-bounds in %s.reduceat "
                         "[0, %lld)", s < 0 || s >= len ? s : e, uname(self),
                         (long long)len);
            break;
        }
        drop_axis(&res, axis, i, &w);
        if (s >= e) {
            drop_axis(EMPY_ARR(c), axis, s, &seg);
            EMPY_NOGIL(rc, em_array_copy(&w, &seg, NULL));
            continue;
        }
        range_axis(EMPY_ARR(c), axis, s, e, &seg);
        if (use_red) {
            em_reduce_args ra;
            memset(&ra, 0, sizeof ra);
            ra.axes = &axis;
            ra.naxes = 1;
            ra.has_dtype = red_has_dtype(rop, dtype_o != Py_None);
            ra.dtype = otype;
            EMPY_NOGIL(rc, em_reduce(rop, &seg, &ra, &w, NULL));
        } else {
            EMPY_NOGIL(rc, fold(UF(self)->op, &seg, axis, NULL, &w));
        }
    }
    if (PyErr_Occurred() || rc != EM_OK) {
        em_array_release(&res);
        if (!PyErr_Occurred())
            empy_raise(st, rc);
        goto done;
    }
    r = deliver(st, empy_ndarray_new(st, &res, NULL), out);
done:
    Py_XDECREF(a);
    Py_XDECREF(c);
    Py_XDECREF(idx);
    Py_XDECREF(lst);
    return r;
}

/* ---- outer --------------------------------------------------------------------- */

PyObject *empy_ufunc_outer(PyObject *self, PyObject *args, PyObject *kw)
{
    empy_state *st = empy_state_of(self);
    PyObject *a, *b, *a2, *call, *r;
    em_array v;
    int i, nd;
    if (need_binary(self, "outer") < 0)
        return NULL;
    if (PyTuple_GET_SIZE(args) != 2) {
        PyErr_Format(PyExc_TypeError, "%s.outer() takes exactly two arguments (%zd given)",
                     uname(self), PyTuple_GET_SIZE(args));
        return NULL;
    }
    if (!(a = as_array(st, PyTuple_GET_ITEM(args, 0), NULL)))
        return NULL;
    if (!(b = as_array(st, PyTuple_GET_ITEM(args, 1), EMPY_ARR(a)->device))) {
        Py_DECREF(a);
        return NULL;
    }
    nd = EMPY_ARR(a)->ndim + EMPY_ARR(b)->ndim;
    if (nd > EM_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "%s.outer: the result would have %d dimensions, "
                     "more than %d", uname(self), nd, EM_MAX_NDIM);
        Py_DECREF(a);
        Py_DECREF(b);
        return NULL;
    }
    /* a's axes followed by b.ndim extent-1 axes: broadcasting does the rest. */
    em_array_retain(EMPY_ARR(a), &v);
    for (i = EMPY_ARR(a)->ndim; i < nd; i++) {
        v.shape[i] = 1;
        v.strides[i] = 0;
    }
    v.ndim = nd;
    em_array_update_flags(&v);
    a2 = empy_ndarray_new(st, &v, a);
    Py_DECREF(a);
    if (!a2) {
        Py_DECREF(b);
        return NULL;
    }
    call = PyTuple_Pack(2, a2, b);
    Py_DECREF(a2);
    Py_DECREF(b);
    if (!call)
        return NULL;
    r = PyObject_Call(self, call, kw);
    Py_DECREF(call);
    return r;
}
