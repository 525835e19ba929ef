/* ember Python extension: the parallel algorithms' scan family
 * (ember.parallel.inclusive_scan, exclusive_scan, reduce, transform,
 * select, partition). */
#include <limits.h>
#include <string.h>

#include "runtime/errors.h"
#include "array/ndarray.h"
#include "parallel/parallel_devfn.h"

/* x as an ndarray: ndarrays as they are, anything else through asarray
 * on the current device (new reference). */
static PyObject *as_nd(empy_state *st, PyObject *x, em_device *dev)
{
    if (empy_is_ndarray(x)) {
        Py_INCREF(x);
        return x;
    }
    if (!dev && empy_device_arg(st, Py_None, &dev) < 0)
        return NULL;
    return empy_asarray(st, x, -1, dev, -1, 'K');
}

/* A callable that is not a device function: say how to make it one. */
static int not_devfn(PyObject *o, const char *fn, const char *what)
{
    PyObject *nm = PyObject_GetAttrString(o, "__name__");
    if (!nm) {
        PyErr_Clear();
        nm = PyUnicode_FromString("?");
    }
    if (nm)
        PyErr_Format(PyExc_TypeError,
                     "%s: %s '%S' is not a device function: decorate a "
                     "Python function with @ember.cuda.jit(device=True), or "
                     "pass a C expression string",
                     fn, what, nm);
    Py_XDECREF(nm);
    return -1;
}

/* The operator: a str naming a built-in or holding a C expression, or a
 * device function (kind EM_PAR_EXPR with no expression yet: value_dtype
 * fills it once the value dtype is known). */
static int op_arg(empy_state *st, PyObject *o, const char *fn, em_par_op *op)
{
    const char *s;
    if (o && empy_par_is_devfn(st, o)) {
        op->kind = EM_PAR_EXPR;
        op->expr = NULL;
        return 0;
    }
    if (o && PyCallable_Check(o))
        return not_devfn(o, fn, "op");
    if (!o || !PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "%s: op must be a str (a built-in such as 'add' or a C "
                     "expression over a and b) or a device function "
                     "(ember.cuda.jit(device=True)), not %.100s",
                     fn, o ? Py_TYPE(o)->tp_name : "nothing");
        return -1;
    }
    if (!(s = PyUnicode_AsUTF8(o)))
        return -1;
    if (!s[0]) {
        PyErr_Format(PyExc_ValueError, "%s: op is an empty string", fn);
        return -1;
    }
    em_par_op_parse(s, op);
    return 0;
}

/* The values' dtype *dt: dtype= (dto; Py_None when absent), else the
 * operator's default for inputs of dtype in. A device function operator
 * o is then translated over *dt: op->expr becomes "name(a, b)" with the
 * translation as its definitions, held by *keep (released by the caller
 * after the call). */
static int value_dtype(empy_state *st, PyObject *o, PyObject *dto,
                       const char *fn, em_dtype in, em_par_op *op,
                       em_dtype *dt, PyObject **keep)
{
    em_dtype r;
    if (dto != Py_None) {
        if (empy_dtype_arg(st, dto, dt) < 0)
            return -1;
    } else
        *dt = em_scan_default_dtype(op->kind, in);
    if (!o || !empy_par_is_devfn(st, o))
        return 0;
    return empy_par_devfn_expr(st, o, fn, *dt, 2, (int)*dt, &op->expr, &r,
                               keep);
}

/* TypeError: the operator has no identity to start an exclusive scan. */
static int need_init(empy_state *st, PyObject *o, const em_par_op *op,
                     const char *fn)
{
    if (o && empy_par_is_devfn(st, o)) {
        PyObject *nm = PyObject_GetAttrString(o, "__name__");
        if (nm)
            PyErr_Format(PyExc_TypeError,
                         "%s: device function '%S' as the operator needs an "
                         "init value (it has no known identity)",
                         fn, nm);
        Py_XDECREF(nm);
    } else
        PyErr_Format(PyExc_TypeError, "%s: operator '%s' needs an init value",
                     fn, op->expr ? op->expr : "min/max/and");
    return -1;
}

/* axis: None -> EM_SCAN_FLAT, else an int. */
static int axis_arg(PyObject *o, const char *fn, int *axis)
{
    long v;
    *axis = EM_SCAN_FLAT;
    if (!o || o == Py_None)
        return 0;
    if (PyBool_Check(o)) {  /* NumPy: "an integer is required for the axis" */
        PyErr_Format(PyExc_TypeError, "%s: axis must be an int or None, not bool", fn);
        return -1;
    }
    v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "%s: axis must be an int or None, not %.100s", fn,
                         Py_TYPE(o)->tp_name);
        }
        return -1;
    }
    *axis = v < -INT_MAX / 2 || v > INT_MAX / 2 ? INT_MAX / 2 : (int)v;
    return 0;
}

/* A Python scalar as one value of dtype dt's storage in buf (16 bytes). */
static int scalar_arg(empy_state *st, PyObject *o, em_dtype dt, void *buf)
{
    em_device *cpu;
    PyObject *a;
    em_status s;
    if ((s = em_device_get(EM_DEVICE_CPU, 0, &cpu)) != EM_OK) {
        empy_raise(st, s);
        return -1;
    }
    if (!(a = empy_asarray(st, o, (int)dt, cpu, -1, 'C')))
        return -1;
    if (EMPY_ARR(a)->size != 1) {
        PyErr_Format(PyExc_ValueError, "init must be a scalar, not an array "
                                       "of %lld elements",
                     (long long)EMPY_ARR(a)->size);
        Py_DECREF(a);
        return -1;
    }
    s = em_array_to_host(EMPY_ARR(a), buf, NULL, NULL);
    Py_DECREF(a);
    if (s != EM_OK) {
        empy_raise(st, s);
        return -1;
    }
    return 0;
}

/* init (Py_None when absent) as one value of dtype dt in buf. An
 * exclusive scan without one starts from the identity of add/or/xor (0)
 * or mul (1); other operators need one. 1 with a value in buf, 0
 * without, -1 with an exception. */
static int init_arg(empy_state *st, PyObject *init, PyObject *opo,
                    em_par_op *op, em_dtype dt, int exclusive, const char *fn,
                    void *buf)
{
    PyObject *v;
    int rc;
    if (init != Py_None)
        return scalar_arg(st, init, dt, buf) < 0 ? -1 : 1;
    if (!exclusive)
        return 0;
    if (op->kind == EM_PAR_ADD || op->kind == EM_PAR_OR ||
        op->kind == EM_PAR_XOR)
        v = dt == EM_BOOL ? PyBool_FromLong(0) : PyLong_FromLong(0);
    else if (op->kind == EM_PAR_MUL)
        v = dt == EM_BOOL ? PyBool_FromLong(1) : PyLong_FromLong(1);
    else
        return need_init(st, opo, op, fn);
    if (!v)
        return -1;
    rc = scalar_arg(st, v, dt, buf) < 0 ? -1 : 1;
    Py_DECREF(v);
    return rc;
}

/* ---- tuple (zipped) values ------------------------------------------ */

/* What a tuple call holds: the component arrays, the operator, the
 * output dtypes and the init values. */
typedef struct tup_args {
    int n;
    PyObject *nd[EM_SCAN_MAX_TUPLE];
    const em_array *arr[EM_SCAN_MAX_TUPLE];
    em_par_tuple_op op;
    const char *exprs[EM_SCAN_MAX_TUPLE];
    em_dtype dt[EM_SCAN_MAX_TUPLE];
    unsigned char init[EM_SCAN_MAX_TUPLE][16] __attribute__((aligned(16)));
    const void *initp[EM_SCAN_MAX_TUPLE];
    int has_init;
    PyObject *keep; /* a device function's expressions */
} tup_args;

static void tup_clear(tup_args *t)
{
    for (int k = 0; k < EM_SCAN_MAX_TUPLE; k++)
        Py_CLEAR(t->nd[k]);
    Py_CLEAR(t->keep);
}

/* Fills t from values (a tuple of arrays), op, dtype and init (Py_None
 * when absent). exclusive: init defaults to 0 (add/or/xor) or 1 (mul).
 * dev: the device of the arrays that are not ember arrays (NULL: the
 * first ember array's, else the current one). -1 with an exception. */
static int tup_parse(empy_state *st, const char *fn, PyObject *values,
                     PyObject *opo, PyObject *dto, PyObject *init,
                     int exclusive, em_device *dev, tup_args *t)
{
    Py_ssize_t n = PyTuple_GET_SIZE(values);
    memset(t, 0, sizeof *t);
    if (n < 2 || n > EM_SCAN_MAX_TUPLE) {
        PyErr_Format(PyExc_ValueError,
                     "%s: tuple values have 2 to %d arrays, not %zd", fn,
                     EM_SCAN_MAX_TUPLE, n);
        return -1;
    }
    t->n = (int)n;
    for (Py_ssize_t k = 0; k < n && !dev; k++)
        if (empy_is_ndarray(PyTuple_GET_ITEM(values, k)))
            dev = EMPY_ARR(PyTuple_GET_ITEM(values, k))->device;
    for (int k = 0; k < t->n; k++) {
        if (!(t->nd[k] = as_nd(st, PyTuple_GET_ITEM(values, k), dev)))
            goto fail;
        t->arr[k] = EMPY_ARR(t->nd[k]);
    }
    /* the operator: a built-in's name, or one expression per component */
    if (!opo) {
        t->op.kind = EM_PAR_ADD;
    } else if (empy_par_is_devfn(st, opo)) {
        /* translated below, once the component dtypes are known */
        t->op.kind = EM_PAR_EXPR;
        t->op.nexpr = t->n;
        t->op.exprs = t->exprs;
    } else if (PyUnicode_Check(opo)) {
        em_par_op one;
        if (op_arg(st, opo, fn, &one) < 0)
            goto fail;
        if (one.kind == EM_PAR_EXPR) {
            PyErr_Format(PyExc_ValueError,
                         "%s: 1 expression for tuple values of %d "
                         "components: give a tuple of %d C expressions over "
                         "a0, b0, a1, b1, ... or a built-in ('add', 'mul', "
                         "'min', 'max', 'argmin', 'argmax')",
                         fn, t->n, t->n);
            goto fail;
        }
        t->op.kind = one.kind;
    } else if (PyTuple_Check(opo)) {
        Py_ssize_t m = PyTuple_GET_SIZE(opo);
        if (m != t->n) {
            PyErr_Format(PyExc_ValueError,
                         "%s: %zd expressions for tuple values of %d "
                         "components (one per component)",
                         fn, m, t->n);
            goto fail;
        }
        for (Py_ssize_t k = 0; k < m; k++) {
            PyObject *e = PyTuple_GET_ITEM(opo, k);
            if (!PyUnicode_Check(e)) {
                PyErr_Format(PyExc_TypeError,
                             "%s: expression %zd must be a str, not %.100s",
                             fn, k, Py_TYPE(e)->tp_name);
                goto fail;
            }
            if (!(t->exprs[k] = PyUnicode_AsUTF8(e)))
                goto fail;
        }
        t->op.kind = EM_PAR_EXPR;
        t->op.nexpr = (int)m;
        t->op.exprs = t->exprs;
    } else if (PyCallable_Check(opo)) {
        not_devfn(opo, fn, "op");
        goto fail;
    } else {
        PyErr_Format(PyExc_TypeError,
                     "%s: op must be a str (a built-in), a tuple of C "
                     "expressions or a device function, not %.100s",
                     fn, Py_TYPE(opo)->tp_name);
        goto fail;
    }
    /* output dtypes */
    if (dto && dto != Py_None) {
        if (!PyTuple_Check(dto) || PyTuple_GET_SIZE(dto) != t->n) {
            PyErr_Format(PyExc_TypeError,
                         "%s: dtype for tuple values is a tuple of %d "
                         "dtypes, not %.100s",
                         fn, t->n, Py_TYPE(dto)->tp_name);
            goto fail;
        }
        for (int k = 0; k < t->n; k++)
            if (empy_dtype_arg(st, PyTuple_GET_ITEM(dto, k), &t->dt[k]) < 0)
                goto fail;
    } else
        for (int k = 0; k < t->n; k++)
            t->dt[k] = t->op.kind == EM_PAR_ADD || t->op.kind == EM_PAR_MUL
                           ? em_scan_default_dtype(t->op.kind,
                                                   t->arr[k]->dtype)
                           : t->arr[k]->dtype;
    if (opo && empy_par_is_devfn(st, opo) &&
        empy_par_devfn_tuple(st, opo, fn, t->n, t->dt, t->exprs, &t->keep) <
            0)
        goto fail;
    /* init values */
    if (init && init != Py_None) {
        if (!PyTuple_Check(init) || PyTuple_GET_SIZE(init) != t->n) {
            PyErr_Format(PyExc_ValueError,
                         "%s: init for tuple values is a tuple of %d "
                         "scalars",
                         fn, t->n);
            goto fail;
        }
        for (int k = 0; k < t->n; k++)
            if (scalar_arg(st, PyTuple_GET_ITEM(init, k), t->dt[k],
                           t->init[k]) < 0)
                goto fail;
        t->has_init = 1;
    } else if (exclusive) {
        int one = t->op.kind == EM_PAR_MUL;
        if (!one && t->op.kind != EM_PAR_ADD && t->op.kind != EM_PAR_OR &&
            t->op.kind != EM_PAR_XOR) {
            PyErr_Format(PyExc_TypeError,
                         "%s: this operator needs an init value (a tuple "
                         "of %d scalars)",
                         fn, t->n);
            goto fail;
        }
        for (int k = 0; k < t->n; k++) {
            PyObject *v = t->dt[k] == EM_BOOL ? PyBool_FromLong(one)
                                              : PyLong_FromLong(one);
            int rc = v ? scalar_arg(st, v, t->dt[k], t->init[k]) : -1;
            Py_XDECREF(v);
            if (rc < 0)
                goto fail;
        }
        t->has_init = 1;
    }
    for (int k = 0; k < t->n; k++)
        t->initp[k] = t->init[k];
    return 0;
fail:
    tup_clear(t);
    return -1;
}

/* A tuple of n new ndarrays over res (released on failure). */
static PyObject *tuple_of(empy_state *st, int n, em_array *res)
{
    PyObject *r = PyTuple_New(n);
    for (int k = 0; k < n; k++) {
        PyObject *a = r ? empy_ndarray_new(st, &res[k], NULL) : NULL;
        if (!a) {
            for (int j = k + (r ? 1 : 0); j < n; j++)
                em_array_release(&res[j]);
            Py_XDECREF(r);
            return NULL;
        }
        PyTuple_SET_ITEM(r, k, a);
    }
    return r;
}

/* The scans of tuple values x, flattened (axo must be None; verb says
 * what fn does to them), as a tuple of arrays. t keeps the parsed
 * arguments for the caller, who tup_clears it, also after a failure. */
static PyObject *tuple_scans(empy_state *st, const char *fn, const char *verb,
                             PyObject *x, PyObject *opo, PyObject *init,
                             PyObject *axo, PyObject *dto, int exclusive,
                             tup_args *t)
{
    em_array res[EM_SCAN_MAX_TUPLE];
    em_status s;
    memset(t, 0, sizeof *t);
    if (axo && axo != Py_None) {
        PyErr_Format(PyExc_NotImplementedError,
                     "%s: tuple values are %s flattened (axis=None) only", fn,
                     verb);
        return NULL;
    }
    if (tup_parse(st, fn, x, opo, dto, init, exclusive, NULL, t) < 0)
        return NULL;
    memset(res, 0, sizeof res);
    EMPY_NOGIL(s, em_scan_tuple(t->n, t->arr, &t->op, exclusive,
                                t->has_init ? t->initp : NULL, t->dt, res,
                                NULL));
    if (s != EM_OK)
        return empy_raise(st, s);
    return tuple_of(st, t->n, res);
}

static PyObject *do_scan(PyObject *m, PyObject *args, PyObject *kw,
                         int exclusive)
{
    static char *kwlist[] = {"x", "op", "init", "axis", "dtype", NULL};
    const char *fn = exclusive ? "exclusive_scan" : "inclusive_scan";
    empy_state *st = empy_state_of_module(m);
    PyObject *x, *opo = NULL, *init = Py_None, *axo = Py_None,
                 *dto = Py_None, *rx, *keep = NULL;
    unsigned char buf[16] __attribute__((aligned(16)));
    em_par_op op;
    em_dtype dt;
    em_array res = {0};
    int axis, has_init;
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw,
                                     exclusive ? "OO|OOO:exclusive_scan"
                                               : "OO|OOO:inclusive_scan",
                                     kwlist, &x, &opo, &init,
                                     &axo, &dto))
        return NULL;
    if (PyTuple_Check(x)) {
        tup_args t;
        PyObject *r = tuple_scans(st, fn, "scanned", x, opo, init, axo, dto,
                                  exclusive, &t);
        tup_clear(&t);
        return r;
    }
    if (op_arg(st, opo, fn, &op) < 0 || axis_arg(axo, fn, &axis) < 0)
        return NULL;
    if (!(rx = as_nd(st, x, NULL)))
        return NULL;
    if (value_dtype(st, opo, dto, fn, EMPY_ARR(rx)->dtype, &op, &dt,
                    &keep) < 0 ||
        (has_init = init_arg(st, init, opo, &op, dt, exclusive, fn, buf)) < 0)
        goto fail;
    EMPY_NOGIL(s, em_scan(EMPY_ARR(rx), axis, &op, exclusive,
                          has_init ? buf : NULL, dt, &res, NULL));
    Py_DECREF(rx);
    Py_XDECREF(keep);
    if (s != EM_OK)
        return empy_raise(st, s);
    return empy_ndarray_new(st, &res, NULL);
fail:
    Py_DECREF(rx);
    Py_XDECREF(keep);
    return NULL;
}

static PyObject *par_inclusive_scan(PyObject *m, PyObject *args, PyObject *kw)
{
    return do_scan(m, args, kw, 0);
}

static PyObject *par_exclusive_scan(PyObject *m, PyObject *args, PyObject *kw)
{
    return do_scan(m, args, kw, 1);
}

/* The result's dtype for transform: dtype=, else the inputs' common one. */
static PyObject *par_transform(PyObject *m, PyObject *args, PyObject *kw)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *expr, *dto = NULL, *outo = NULL, *nd[8] = {0}, *r = NULL,
                    *keep = NULL;
    const em_array *in[8];
    Py_ssize_t nargs = PyTuple_GET_SIZE(args), nin = nargs - 1;
    em_device *dev = NULL;
    em_dtype dt = EM_BOOL;
    em_array res = {0};
    const char *e;
    em_status s;
    if (kw) {
        Py_ssize_t pos = 0;
        PyObject *k, *v;
        while (PyDict_Next(kw, &pos, &k, &v)) {
            if (PyUnicode_Check(k) &&
                !PyUnicode_CompareWithASCIIString(k, "dtype"))
                dto = v;
            else if (PyUnicode_Check(k) &&
                     !PyUnicode_CompareWithASCIIString(k, "out"))
                outo = v;
            else {
                PyErr_Format(PyExc_TypeError,
                             "transform() got an unexpected keyword argument "
                             "'%S'",
                             k);
                return NULL;
            }
        }
    }
    if (nargs < 2 || nin > 8) {
        PyErr_Format(PyExc_TypeError,
                     "transform(op, *inputs): 1 to 8 inputs, got %zd",
                     nin < 0 ? 0 : nin);
        return NULL;
    }
    expr = PyTuple_GET_ITEM(args, 0);
    if (empy_par_is_devfn(st, expr))
        e = NULL; /* translated once the inputs' dtype is known */
    else if (PyCallable_Check(expr)) {
        not_devfn(expr, "transform", "op");
        return NULL;
    } else if (!PyUnicode_Check(expr) || !(e = PyUnicode_AsUTF8(expr))) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_TypeError,
                         "transform: op must be a str (a C expression over "
                         "a, b, ...) or a device function, not %.100s",
                         Py_TYPE(expr)->tp_name);
        return NULL;
    }
    for (Py_ssize_t k = 0; k < nin && !dev; k++)
        if (empy_is_ndarray(PyTuple_GET_ITEM(args, k + 1)))
            dev = EMPY_ARR(PyTuple_GET_ITEM(args, k + 1))->device;
    for (Py_ssize_t k = 0; k < nin; k++) {
        if (!(nd[k] = as_nd(st, PyTuple_GET_ITEM(args, k + 1), dev)))
            goto done;
        in[k] = EMPY_ARR(nd[k]);
    }
    if (dto && dto != Py_None) {
        if (empy_dtype_arg(st, dto, &dt) < 0)
            goto done;
    } else if (outo && outo != Py_None && empy_is_ndarray(outo))
        dt = EMPY_ARR(outo)->dtype;
    else {
        dt = in[0]->dtype;
        for (Py_ssize_t k = 1; k < nin; k++)
            if ((s = em_dtype_promote(dt, in[k]->dtype, &dt)) != EM_OK) {
                empy_raise(st, s);
                goto done;
            }
    }
    if (!e) {
        /* a device function over the inputs' common dtype (the one
         * em_par_transform casts them to); its result type is the
         * result's unless dtype= or out= says otherwise */
        em_dtype vt = in[0]->dtype, rt;
        int typed = (dto && dto != Py_None) ||
                    (outo && outo != Py_None && empy_is_ndarray(outo));
        for (Py_ssize_t k = 1; k < nin; k++)
            if ((s = em_dtype_promote(vt, in[k]->dtype, &vt)) != EM_OK) {
                empy_raise(st, s);
                goto done;
            }
        if (empy_par_devfn_expr(st, expr, "transform", vt, (int)nin,
                                dto && dto != Py_None ? (int)dt : -1, &e,
                                &rt, &keep) < 0)
            goto done;
        if (!typed)
            dt = rt;
    }
    EMPY_NOGIL(s, em_par_transform(e, (int)nin, in, dt, &res, NULL));
    if (s != EM_OK) {
        empy_raise(st, s);
        goto done;
    }
    r = empy_ndarray_new(st, &res, NULL);
    if (r && outo && outo != Py_None) {
        /* out[...] = r, with the broadcasting and casting rules of
         * assignment. */
        if (!empy_is_ndarray(outo)) {
            PyErr_SetString(PyExc_TypeError, "transform: out must be an "
                                             "ember.ndarray");
            Py_CLEAR(r);
            goto done;
        }
        if (PyObject_SetItem(outo, Py_Ellipsis, r) < 0) {
            Py_CLEAR(r);
            goto done;
        }
        Py_DECREF(r);
        Py_INCREF(outo);
        r = outo;
    }
done:
    for (int k = 0; k < 8; k++)
        Py_XDECREF(nd[k]);
    Py_XDECREF(keep);
    return r;
}

/* predicate: a str (C expression over a) or a bool array of x's shape. */
static PyObject *do_compact(PyObject *m, PyObject *args, PyObject *kw,
                            int partition)
{
    static char *kwlist[] = {"x", "predicate", NULL};
    const char *fn = partition ? "partition" : "select";
    empy_state *st = empy_state_of_module(m);
    PyObject *x, *pred, *rx, *rm = NULL, *r = NULL, *keep = NULL;
    const char *e = NULL;
    em_array res = {0};
    int64_t k = 0;
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw,
                                     partition ? "OO:partition" : "OO:select",
                                     kwlist, &x, &pred))
        return NULL;
    if (!(rx = as_nd(st, x, NULL)))
        return NULL;
    if (empy_par_is_devfn(st, pred)) {
        /* a predicate of one argument; its result is taken as a truth
         * value, as a C expression's is */
        em_dtype rt;
        if (empy_par_devfn_expr(st, pred, fn, EMPY_ARR(rx)->dtype, 1, -1, &e,
                                &rt, &keep) < 0)
            goto done;
    } else if (PyCallable_Check(pred)) {
        not_devfn(pred, fn, "predicate");
        goto done;
    } else if (PyUnicode_Check(pred)) {
        if (!(e = PyUnicode_AsUTF8(pred)))
            goto done;
        if (!e[0]) {
            PyErr_Format(PyExc_ValueError, "%s: the predicate is empty", fn);
            goto done;
        }
    } else if (!(rm = as_nd(st, pred, EMPY_ARR(rx)->device)))
        goto done;
    if (partition)
        EMPY_NOGIL(s, em_partition(EMPY_ARR(rx), e, rm ? EMPY_ARR(rm) : NULL,
                                   &res, &k, NULL));
    else
        EMPY_NOGIL(s, em_select(EMPY_ARR(rx), e, rm ? EMPY_ARR(rm) : NULL,
                                &res, NULL));
    if (s != EM_OK) {
        empy_raise(st, s);
        goto done;
    }
    if (!(r = empy_ndarray_new(st, &res, NULL)) || !partition)
        goto done;
    {
        PyObject *cut = PyLong_FromLongLong(k), *s1, *s2, *a1 = NULL,
                 *a2 = NULL;
        s1 = cut ? PySlice_New(Py_None, cut, Py_None) : NULL;
        s2 = cut ? PySlice_New(cut, Py_None, Py_None) : NULL;
        if (s1 && s2 && (a1 = PyObject_GetItem(r, s1)) &&
            (a2 = PyObject_GetItem(r, s2))) {
            Py_DECREF(r);
            r = PyTuple_Pack(2, a1, a2);
        } else
            Py_CLEAR(r);
        Py_XDECREF(cut);
        Py_XDECREF(s1);
        Py_XDECREF(s2);
        Py_XDECREF(a1);
        Py_XDECREF(a2);
    }
done:
    Py_DECREF(rx);
    Py_XDECREF(rm);
    Py_XDECREF(keep);
    return r;
}

static PyObject *par_select(PyObject *m, PyObject *args, PyObject *kw)
{
    return do_compact(m, args, kw, 0);
}

static PyObject *par_partition(PyObject *m, PyObject *args, PyObject *kw)
{
    return do_compact(m, args, kw, 1);
}


/* reduce over tuple values: the last element of each component's scan
 * (init alone for empty arrays). */
static PyObject *tuple_reduce(PyObject *m, PyObject *x, PyObject *opo,
                              PyObject *init, PyObject *axo, PyObject *dto)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *r;
    tup_args t;
    if (!(r = tuple_scans(st, "reduce", "reduced", x, opo, init, axo, dto, 0,
                          &t)))
        goto done;
    if (t.arr[0]->size == 0) {
        if (!t.has_init) {
            PyErr_SetString(PyExc_ValueError,
                            "reduce: zero-size arrays and no init value");
            Py_CLEAR(r);
            goto done;
        }
        /* init alone, as arrays on the values' device */
        Py_CLEAR(r);
        if (!(r = PyTuple_New(t.n)))
            goto done;
        for (int k = 0; k < t.n; k++) {
            PyObject *a = empy_asarray(st, PyTuple_GET_ITEM(init, k),
                                       (int)t.dt[k], t.arr[0]->device, -1,
                                       'C');
            if (!a) {
                Py_CLEAR(r);
                goto done;
            }
            PyTuple_SET_ITEM(r, k, a);
        }
        goto done;
    }
    for (int k = 0; k < t.n; k++) {
        PyObject *it = PyTuple_GET_ITEM(r, k), *idx = PyLong_FromLong(-1),
                 *v = idx ? PyObject_GetItem(it, idx) : NULL;
        Py_XDECREF(idx);
        if (!v) {
            Py_CLEAR(r);
            goto done;
        }
        PyTuple_SET_ITEM(r, k, v);
        Py_DECREF(it);
    }
done:
    tup_clear(&t);
    return r;
}

/* reduce: the last element of the scan along the axis. */
static PyObject *par_reduce(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"x", "op", "init", "axis", "dtype", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *x, *opo, *init = Py_None, *axo = Py_None, *dto = Py_None;
    PyObject *sargs = NULL, *skw = NULL, *sc = NULL, *key = NULL, *r = NULL,
             *rx = NULL;
    em_par_op op;
    int axis, nd;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOO:reduce", kwlist, &x,
                                     &opo, &init, &axo, &dto))
        return NULL;
    if (PyTuple_Check(x))
        return tuple_reduce(m, x, opo, init, axo, dto);
    if (op_arg(st, opo, "reduce", &op) < 0 ||
        axis_arg(axo, "reduce", &axis) < 0)
        return NULL;
    if (!(rx = as_nd(st, x, NULL)))
        return NULL;
    nd = EMPY_ARR(rx)->ndim;
    if ((axis == EM_SCAN_FLAT ? EMPY_ARR(rx)->size
                              : (axis >= -nd && axis < nd
                                     ? EMPY_ARR(rx)->shape[axis < 0 ? axis + nd
                                                                    : axis]
                                     : 1)) == 0 &&
        init == Py_None) {
        PyErr_SetString(PyExc_ValueError,
                        "reduce: zero-size array and no init value");
        goto done;
    }
    /* Built-ins without init go to the dedicated reduction kernels
     * (one read of the data; pairwise float sums). */
    if (init == Py_None && dto == Py_None &&
        (op.kind == EM_PAR_ADD || op.kind == EM_PAR_MUL ||
         op.kind == EM_PAR_MIN || op.kind == EM_PAR_MAX ||
         op.kind == EM_PAR_ARGMIN || op.kind == EM_PAR_ARGMAX)) {
        /* Indexed by em_par_builtin; and/or/xor never get here. */
        static const em_reduce_op red[] = {
            EM_RED_SUM, EM_RED_PROD, EM_RED_MIN, EM_RED_MAX, EM_RED_SUM,
            EM_RED_SUM, EM_RED_SUM, EM_RED_ARGMIN, EM_RED_ARGMAX};
        em_reduce_args ra;
        em_array res = {0};
        em_status s;
        memset(&ra, 0, sizeof ra);
        if (axis != EM_SCAN_FLAT) {
            ra.axes = &axis;
            ra.naxes = 1;
        }
        EMPY_NOGIL(s, em_reduce(red[op.kind], EMPY_ARR(rx), &ra, &res, NULL));
        if (s != EM_OK) {
            empy_raise(st, s);
            goto done;
        }
        r = empy_ndarray_new(st, &res, NULL);
        goto done;
    }
    if (!(sargs = PyTuple_Pack(2, rx, opo)) ||
        !(skw = Py_BuildValue("{sOsOsO}", "init", init, "axis", axo, "dtype",
                              dto)) ||
        !(sc = do_scan(m, sargs, skw, 0)))
        goto done;
    if (axis == EM_SCAN_FLAT) {
        if (EMPY_ARR(rx)->size == 0) {
            /* only init: one element, scanned as itself */
            PyObject *one = PyList_New(1), *t;
            if (!one)
                goto done;
            Py_INCREF(init);
            PyList_SET_ITEM(one, 0, init);
            Py_DECREF(sargs);
            sargs = PyTuple_Pack(2, one, opo);
            Py_DECREF(one);
            t = sargs ? PyDict_New() : NULL;
            if (!t)
                goto done;
            if (dto != Py_None && PyDict_SetItemString(t, "dtype", dto) < 0) {
                Py_DECREF(t);
                goto done;
            }
            Py_DECREF(sc);
            sc = do_scan(m, sargs, t, 0);
            Py_DECREF(t);
            if (!sc)
                goto done;
        }
        key = PyLong_FromLong(-1);
    } else {
        int ax = axis < 0 ? axis + nd : axis;
        key = PyTuple_New(nd);
        for (int i = 0; key && i < nd; i++) {
            PyObject *it = i == ax ? PyLong_FromLong(-1)
                                   : PySlice_New(NULL, NULL, NULL);
            if (!it) {
                Py_CLEAR(key);
                break;
            }
            PyTuple_SET_ITEM(key, i, it);
        }
        if (key && EMPY_ARR(rx)->shape[ax] == 0) {
            PyErr_SetString(PyExc_NotImplementedError,
                            "reduce: an empty axis with init is not "
                            "supported yet");
            goto done;
        }
    }
    if (key)
        r = PyObject_GetItem(sc, key);
done:
    Py_XDECREF(rx);
    Py_XDECREF(sargs);
    Py_XDECREF(skw);
    Py_XDECREF(sc);
    Py_XDECREF(key);
    return r;
}

static PyObject *par_scan_by_key(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"keys", "values", "op", "init", "exclusive",
                             "dtype", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *k, *v, *opo = NULL, *init = Py_None, *dto = Py_None, *rk = NULL,
                     *rv = NULL, *r = NULL, *keep = NULL;
    unsigned char buf[16] __attribute__((aligned(16)));
    int exclusive = 0, hi;
    em_par_op op = {EM_PAR_ADD, NULL};
    em_dtype dt;
    em_array res = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOpO:scan_by_key", kwlist,
                                     &k, &v, &opo, &init, &exclusive, &dto))
        return NULL;
    if (PyTuple_Check(v)) {
        em_array tres[EM_SCAN_MAX_TUPLE];
        tup_args t;
        if (!(rk = as_nd(st, k, NULL)) ||
            tup_parse(st, "scan_by_key", v, opo, dto, init, exclusive,
                      EMPY_ARR(rk)->device, &t) < 0)
            goto done;
        memset(tres, 0, sizeof tres);
        EMPY_NOGIL(s, em_scan_by_key_tuple(EMPY_ARR(rk), t.n, t.arr, &t.op,
                                           exclusive,
                                           t.has_init ? t.initp : NULL, t.dt,
                                           tres, NULL));
        tup_clear(&t);
        r = s == EM_OK ? tuple_of(st, t.n, tres) : empy_raise(st, s);
        goto done;
    }
    if (opo && op_arg(st, opo, "scan_by_key", &op) < 0)
        return NULL;
    if (!(rk = as_nd(st, k, NULL)) ||
        !(rv = as_nd(st, v, EMPY_ARR(rk)->device)))
        goto done;
    if (value_dtype(st, opo, dto, "scan_by_key", EMPY_ARR(rv)->dtype, &op, &dt,
                    &keep) < 0 ||
        (hi = init_arg(st, init, opo, &op, dt, exclusive, "scan_by_key",
                       buf)) < 0)
        goto done;
    EMPY_NOGIL(s, em_scan_by_key(EMPY_ARR(rk), EMPY_ARR(rv), &op, exclusive,
                                 hi ? buf : NULL, dt, &res, NULL));
    r = s == EM_OK ? empy_ndarray_new(st, &res, NULL) : empy_raise(st, s);
done:
    Py_XDECREF(rk);
    Py_XDECREF(rv);
    Py_XDECREF(keep);
    return r;
}

static PyObject *pair(empy_state *st, em_array *a, em_array *b)
{
    PyObject *x = empy_ndarray_new(st, a, NULL), *y, *r;
    if (!x) {
        em_array_release(b);
        return NULL;
    }
    if (!(y = empy_ndarray_new(st, b, NULL))) {
        Py_DECREF(x);
        return NULL;
    }
    r = PyTuple_Pack(2, x, y);
    Py_DECREF(x);
    Py_DECREF(y);
    return r;
}

static PyObject *par_reduce_by_key(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"keys", "values", "op", "dtype", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *k, *v, *opo = NULL, *dto = Py_None, *rk = NULL, *rv = NULL,
                     *r = NULL, *keep = NULL;
    em_par_op op = {EM_PAR_ADD, NULL};
    em_dtype dt;
    em_array ok = {0}, ov = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OO:reduce_by_key", kwlist,
                                     &k, &v, &opo, &dto))
        return NULL;
    if (PyTuple_Check(v)) {
        em_array res[EM_SCAN_MAX_TUPLE];
        tup_args t;
        PyObject *kk, *vv;
        if (!(rk = as_nd(st, k, NULL)) ||
            tup_parse(st, "reduce_by_key", v, opo, dto, Py_None, 0,
                      EMPY_ARR(rk)->device, &t) < 0)
            goto done;
        memset(res, 0, sizeof res);
        EMPY_NOGIL(s, em_reduce_by_key_tuple(EMPY_ARR(rk), t.n, t.arr, &t.op,
                                             t.dt, &ok, res, NULL));
        tup_clear(&t);
        if (s != EM_OK) {
            r = empy_raise(st, s);
            goto done;
        }
        if (!(kk = empy_ndarray_new(st, &ok, NULL))) {
            for (int j = 0; j < t.n; j++)
                em_array_release(&res[j]);
            goto done;
        }
        if ((vv = tuple_of(st, t.n, res)))
            r = PyTuple_Pack(2, kk, vv);
        Py_DECREF(kk);
        Py_XDECREF(vv);
        goto done;
    }
    if (opo && op_arg(st, opo, "reduce_by_key", &op) < 0)
        return NULL;
    if (!(rk = as_nd(st, k, NULL)) ||
        !(rv = as_nd(st, v, EMPY_ARR(rk)->device)))
        goto done;
    if (value_dtype(st, opo, dto, "reduce_by_key", EMPY_ARR(rv)->dtype, &op,
                    &dt, &keep) < 0)
        goto done;
    EMPY_NOGIL(s, em_reduce_by_key(EMPY_ARR(rk), EMPY_ARR(rv), &op, dt, &ok,
                                   &ov, NULL));
    r = s == EM_OK ? pair(st, &ok, &ov) : empy_raise(st, s);
done:
    Py_XDECREF(rk);
    Py_XDECREF(rv);
    Py_XDECREF(keep);
    return r;
}

static PyObject *par_unique_by_key(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"keys", "values", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *k, *v = Py_None, *rk = NULL, *rv = NULL, *r = NULL;
    em_array ok = {0}, ov = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:unique_by_key", kwlist, &k,
                                     &v))
        return NULL;
    if (!(rk = as_nd(st, k, NULL)) ||
        (v != Py_None && !(rv = as_nd(st, v, EMPY_ARR(rk)->device))))
        goto done;
    EMPY_NOGIL(s, em_unique_by_key(EMPY_ARR(rk), rv ? EMPY_ARR(rv) : NULL,
                                   &ok, rv ? &ov : NULL, NULL));
    if (s != EM_OK)
        r = empy_raise(st, s);
    else
        r = rv ? pair(st, &ok, &ov) : empy_ndarray_new(st, &ok, NULL);
done:
    Py_XDECREF(rk);
    Py_XDECREF(rv);
    return r;
}

static PyObject *par_run_length_encode(PyObject *m, PyObject *args,
                                       PyObject *kw)
{
    static char *kwlist[] = {"x", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *x, *rx;
    em_array ov = {0}, oc = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:run_length_encode", kwlist,
                                     &x))
        return NULL;
    if (!(rx = as_nd(st, x, NULL)))
        return NULL;
    EMPY_NOGIL(s, em_run_length_encode(EMPY_ARR(rx), &ov, &oc, NULL));
    Py_DECREF(rx);
    return s == EM_OK ? pair(st, &ov, &oc) : empy_raise(st, s);
}

static PyObject *par_segmented_reduce(PyObject *m, PyObject *args,
                                      PyObject *kw)
{
    static char *kwlist[] = {"values", "offsets", "op", "init", "dtype",
                             NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v, *o, *opo, *init, *dto = Py_None, *rv = NULL, *ro = NULL,
                           *r = NULL, *keep = NULL;
    unsigned char buf[16] __attribute__((aligned(16)));
    em_par_op op;
    em_dtype dt;
    em_array res = {0};
    em_status s;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO|O:segmented_reduce",
                                     kwlist, &v, &o, &opo, &init, &dto))
        return NULL;
    if (op_arg(st, opo, "segmented_reduce", &op) < 0)
        return NULL;
    if (!(rv = as_nd(st, v, NULL)) ||
        !(ro = as_nd(st, o, EMPY_ARR(rv)->device)))
        goto done;
    if (value_dtype(st, opo, dto, "segmented_reduce", EMPY_ARR(rv)->dtype, &op,
                    &dt, &keep) < 0 ||
        scalar_arg(st, init, dt, buf) < 0)
        goto done;
    EMPY_NOGIL(s, em_segmented_reduce(EMPY_ARR(rv), EMPY_ARR(ro), &op, buf,
                                      dt, &res, NULL));
    r = s == EM_OK ? empy_ndarray_new(st, &res, NULL) : empy_raise(st, s);
done:
    Py_XDECREF(rv);
    Py_XDECREF(ro);
    Py_XDECREF(keep);
    return r;
}

#define F(name, fn, doc)                                                      \
    {name, (PyCFunction)(void (*)(void))fn, METH_VARARGS | METH_KEYWORDS, doc}

PyMethodDef empy_par_scan_functions[] = {
    F("inclusive_scan", par_inclusive_scan,
      "inclusive_scan(x, op, init=None, axis=None, dtype=None): element i "
      "is x[0] op ... op x[i] (init, when given, in front). op: 'add', "
      "'mul', 'min', 'max', 'and', 'or', 'xor' or a C expression over a and "
      "b (associative; a is the lower index). axis=None scans the "
      "flattened array. dtype: add/mul default to cumsum's (int -> int64). "
      "x may be a tuple of 2 to 4 arrays of one length (zipped values): op "
      "is then a built-in per component, 'argmin'/'argmax' on (value, "
      "index), or a tuple of C expressions over a0, b0, a1, b1, ...; init "
      "and dtype are tuples; the result is a tuple of arrays."),
    F("exclusive_scan", par_exclusive_scan,
      "exclusive_scan(x, op, init=None, axis=None, dtype=None): element i is "
      "init op x[0] op ... op x[i-1]; element 0 is init. init defaults to "
      "0 for add/or/xor and 1 for mul, and is required otherwise. Tuple "
      "values as for inclusive_scan."),
    F("transform", par_transform,
      "transform(op, *inputs, dtype=None, out=None): elementwise C "
      "expression over the inputs named a, b, c, ... (broadcast, cast to "
      "their common dtype; the result is dtype or that common dtype)."),
    F("reduce", par_reduce,
      "reduce(x, op, init=None, axis=None, dtype=None): x[0] op x[1] op ... "
      "in index order along axis (None: all elements), init in front. "
      "Tuple values (see inclusive_scan) give a tuple: reduce((x, idx), "
      "'argmin'), reduce((x, ones), ('a0 + b0', 'a1 + b1'))."),
    F("select", par_select,
      "select(x, predicate): the elements of x (flattened) for which "
      "predicate holds, in order; predicate is a C expression over a or a "
      "bool array of x's shape."),
    F("partition", par_partition,
      "partition(x, predicate): (selected, rejected), each in its original "
      "order, views of one array of x.size elements."),
    F("scan_by_key", par_scan_by_key,
      "scan_by_key(keys, values, op='add', init=None, exclusive=False, "
      "dtype=None): a scan of values restarting at each run of equal "
      "consecutive keys (init in front of every run). values may be a "
      "tuple of arrays (see inclusive_scan)."),
    F("reduce_by_key", par_reduce_by_key,
      "reduce_by_key(keys, values, op='add', dtype=None): (unique_keys, "
      "reduced): one key per run of equal consecutive keys and its values "
      "combined in order. values may be a tuple of arrays (then "
      "(unique_keys, (reduced0, reduced1, ...)))."),
    F("unique_by_key", par_unique_by_key,
      "unique_by_key(keys, values=None): the first key (and value) of each "
      "run of equal consecutive keys."),
    F("segmented_reduce", par_segmented_reduce,
      "segmented_reduce(values, offsets, op, init, dtype=None): one value "
      "per segment [offsets[i], offsets[i+1]): init op values[begin] op ... "
      "(init alone for an empty segment). Offsets are clamped to "
      "[0, len(values)]."),
    F("run_length_encode", par_run_length_encode,
      "run_length_encode(x): (values, counts) of the runs of x (1-D)."),
    {NULL},
};

PyMethodDef empy_np_scan_functions[] = {
    {NULL},
};

PyMethodDef empy_scan_nd_methods[] = {
    {NULL},
};
