/* ember Python extension: linspace, logspace, eye, identity, tri, tril,
 * triu, meshgrid. The values come from include/ember/manip.h's creation
 * functions; this file parses NumPy's signatures. */
#include <math.h>
#include "manip_args.h"

static int device_of(empy_state *st, PyObject *o, em_device **out)
{
    return empy_device_arg(st, manip_given(o) ? o : Py_None, out);
}

static int no_like(PyObject *like)
{
    if (manip_given(like)) {
        PyErr_SetString(PyExc_NotImplementedError, "like= is not supported by ember");
        return -1;
    }
    return 0;
}

/* A scalar start/stop/base: its value and whether it is complex. Arrays
 * (other than 0-d ones) are not supported yet. */
static int scalar_value(empy_state *st, PyObject *o, const char *what, Py_complex *v,
                        int *cplx)
{
    em_operand op;
    int k;
    if (empy_is_ndarray(o)) {
        if (EMPY_ARR(o)->ndim != 0) {
            PyErr_Format(PyExc_NotImplementedError, "%s: only scalar start and stop "
                         "are supported by ember yet", what);
            return -1;
        }
        *cplx = em_dtype_get(EMPY_ARR(o)->dtype)->kind == 'c';
    } else {
        if ((k = empy_scalar_operand(o, &op)) < 0)
            return -1;
        if (k == 0) {
            PyErr_Format(PyExc_NotImplementedError, "%s: only scalar start and stop "
                         "are supported by ember yet, not %.100s", what,
                         Py_TYPE(o)->tp_name);
            return -1;
        }
        *cplx = em_dtype_get(op.dtype)->kind == 'c';
    }
    if (*cplx) {
        *v = PyComplex_AsCComplex(o);
    } else {
        v->real = PyFloat_AsDouble(o);
        v->imag = 0;
    }
    return PyErr_Occurred() ? -1 : 0;
}

static int num_arg(PyObject *o, int64_t *num)
{
    if (manip_given(o) && PyFloat_Check(o)) {
        PyErr_Format(PyExc_TypeError, "'float' object cannot be interpreted as an "
                     "integer");
        return -1;
    }
    if (!manip_given(o))
        *num = 50;
    else if (empy_size_arg(o, "num", num) < 0)
        return -1;
    if (*num < 0) {
        PyErr_Format(PyExc_ValueError, "Number of samples, %lld, must be non-negative.",
                     (long long)*num);
        return -1;
    }
    return 0;
}

/* The result is 1-D, so axis may only be 0 or -1. */
static int axis_1d(empy_state *st, PyObject *o)
{
    int64_t ax;
    int x;
    if (manip_int(o, "axis", 0, &ax) < 0)
        return -1;
    return manip_axis(st, ax, 1, &x);
}

static int is_scalar_like(PyObject *o)
{
    em_operand op;
    int k;
    if (empy_is_ndarray(o))
        return EMPY_ARR(o)->ndim == 0;
    k = empy_scalar_operand(o, &op);
    if (k < 0)
        PyErr_Clear();
    return k > 0;
}

/* Whether NumPy computes linspace of these scalar ends in float64 or
 * complex128 (the host path); NumPy float32 or float16 scalars make it
 * compute in their type, which the device path does step by step. */
static int computes_in_64(PyObject *const *v)
{
    em_operand ops[2];
    em_dtype dt;
    int i, k;
    for (i = 0; i < 2; i++) {
        if (empy_is_ndarray(v[i])) {
            memset(&ops[i], 0, sizeof ops[i]);
            ops[i].array = EMPY_ARR(v[i]);
            ops[i].dtype = EMPY_ARR(v[i])->dtype;
        } else if ((k = empy_scalar_operand(v[i], &ops[i])) <= 0) {
            PyErr_Clear();
            return 1;
        }
    }
    if (em_result_type(ops, 2, &dt) != EM_OK)
        return 1;
    k = em_dtype_get(dt)->kind;
    return (k != 'f' && k != 'c') || dt == EM_FLOAT64 || dt == EM_COMPLEX128;
}

/* linspace with array start or stop: em_linspace_array. */
static PyObject *linspace_arrays(empy_state *st, PyObject *const *v, em_device *dev,
                                 int64_t num, int endpoint, int retstep)
{
    PyObject *ends[2] = {NULL, NULL}, *r = NULL;
    em_operand ops[2];
    em_dtype compute, dt;
    em_array res, step;
    int64_t axis;
    em_status rc;
    int i, k;
    if (!manip_given(v[7])) {
        dev = NULL;
        for (i = 0; i < 2 && !dev; i++)
            if (empy_is_ndarray(v[i]))
                dev = EMPY_ARR(v[i])->device;
    }
    for (i = 0; i < 2; i++) {
        k = empy_is_ndarray(v[i]) ? 0 : empy_scalar_operand(v[i], &ops[i]);
        if (k < 0)
            goto done;
        if (k == 0) {
            if (!(ends[i] = manip_array(st, v[i], dev)))
                goto done;
            memset(&ops[i], 0, sizeof ops[i]);
            ops[i].array = EMPY_ARR(ends[i]);
            ops[i].dtype = EMPY_ARR(ends[i])->dtype;
        }
    }
    if ((rc = em_result_type(ops, 2, &compute)) != EM_OK) {
        empy_raise(st, rc);
        goto done;
    }
    k = em_dtype_get(compute)->kind;
    if (k != 'f' && k != 'c')
        compute = EM_FLOAT64;
    for (i = 0; i < 2; i++) {
        if (!ends[i] && !(ends[i] = empy_asarray(st, v[i], (int)compute, dev,
                                                 EMPY_COPY_IF_NEEDED, 'K')))
            goto done;
    }
    dt = compute;
    if (manip_given(v[5]) && empy_dtype_arg(st, v[5], &dt) < 0)
        goto done;
    if (manip_int(v[6], "axis", 0, &axis) < 0)
        goto done;
    if (axis < INT32_MIN || axis > INT32_MAX)
        axis = INT32_MAX;
    memset(&res, 0, sizeof res);
    memset(&step, 0, sizeof step);
    EMPY_NOGIL(rc, em_linspace_array(EMPY_ARR(ends[0]), EMPY_ARR(ends[1]), num, endpoint,
                                     (int)axis, compute, dt, retstep ? &step : NULL, &res,
                                     NULL));
    if (!(r = manip_result(st, rc, &res)))
        goto done;
    if (retstep) {
        PyObject *so = empy_ndarray_new(st, &step, NULL), *t;
        t = so ? PyTuple_Pack(2, r, so) : NULL;
        Py_XDECREF(so);
        Py_SETREF(r, t);
    }
done:
    Py_XDECREF(ends[0]);
    Py_XDECREF(ends[1]);
    return r;
}

static PyObject *mod_linspace(MANIP_FASTCALL)
{
    static const char *const names[] = {"start", "stop", "num", "endpoint", "retstep",
                                        "dtype", "axis", "device", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[8], *r;
    Py_complex a, b;
    int ca, cb, endpoint = 1, retstep = 0;
    int64_t num;
    double step[2];
    em_dtype dt;
    em_device *dev;
    em_array res;
    em_status rc;
    if (empy_parse_args("linspace", args, nargs, kwnames, names, 7, 2, v) < 0)
        return NULL;
    if (!is_scalar_like(v[0]) || !is_scalar_like(v[1]) || !computes_in_64(v)) {
        if (num_arg(v[2], &num) < 0 || device_of(st, v[7], &dev) < 0)
            return NULL;
        if (v[3] && (endpoint = PyObject_IsTrue(v[3])) < 0)
            return NULL;
        if (v[4] && (retstep = PyObject_IsTrue(v[4])) < 0)
            return NULL;
        return linspace_arrays(st, v, dev, num, endpoint, retstep);
    }
    if (scalar_value(st, v[0], "linspace", &a, &ca) < 0 ||
        scalar_value(st, v[1], "linspace", &b, &cb) < 0 || num_arg(v[2], &num) < 0 ||
        axis_1d(st, v[6]) < 0 || device_of(st, v[7], &dev) < 0)
        return NULL;
    if (v[3] && (endpoint = PyObject_IsTrue(v[3])) < 0)
        return NULL;
    if (v[4] && (retstep = PyObject_IsTrue(v[4])) < 0)
        return NULL;
    if (manip_given(v[5])) {
        if (empy_dtype_arg(st, v[5], &dt) < 0)
            return NULL;
    } else {
        dt = ca || cb ? EM_COMPLEX128 : EM_FLOAT64;
    }
    if ((ca || cb) && em_dtype_get(dt)->kind != 'c') {
        PyErr_Format(PyExc_TypeError, "linspace: complex start or stop for dtype %s",
                     em_dtype_get(dt)->name);
        return NULL;
    }
    if (!(ca || cb) && em_dtype_get(dt)->kind == 'c') {
        /* real start and stop, complex result: NumPy computes in float64 */
        memset(&res, 0, sizeof res);
        EMPY_NOGIL(rc, em_linspace(dev, a.real, 0, b.real, 0, num, endpoint, EM_FLOAT64,
                                   step, &res, NULL));
        if (rc == EM_OK) {
            em_array c;
            rc = em_array_empty(dev, dt, 1, &num, 'C', NULL, &c);
            if (rc == EM_OK && num)
                EMPY_NOGIL(rc, em_array_copy(&c, &res, NULL));
            em_array_release(&res);
            if (rc == EM_OK)
                res = c;
            else if (c.storage)
                em_array_release(&c);
        }
    } else {
        memset(&res, 0, sizeof res);
        EMPY_NOGIL(rc, em_linspace(dev, a.real, a.imag, b.real, b.imag, num, endpoint, dt,
                                   step, &res, NULL));
    }
    r = manip_result(st, rc, &res);
    if (!r || !retstep)
        return r;
    {
        PyObject *s = (ca || cb) ? PyComplex_FromDoubles(step[0], step[1])
                                 : PyFloat_FromDouble(step[0]);
        PyObject *t = s ? PyTuple_Pack(2, r, s) : NULL;
        Py_XDECREF(s);
        Py_DECREF(r);
        return t;
    }
}

static PyObject *mod_logspace(MANIP_FASTCALL)
{
    static const char *const names[] = {"start", "stop", "num", "endpoint", "base",
                                        "dtype", "axis", "device", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[8];
    Py_complex a, b, base = {10.0, 0};
    int ca, cb, cbase = 0, endpoint = 1;
    int64_t num;
    em_dtype dt = EM_FLOAT64;
    em_device *dev;
    em_array res;
    em_status rc;
    if (empy_parse_args("logspace", args, nargs, kwnames, names, 7, 2, v) < 0 ||
        scalar_value(st, v[0], "logspace", &a, &ca) < 0 ||
        scalar_value(st, v[1], "logspace", &b, &cb) < 0 || num_arg(v[2], &num) < 0 ||
        (manip_given(v[4]) && scalar_value(st, v[4], "logspace", &base, &cbase) < 0) ||
        axis_1d(st, v[6]) < 0 || device_of(st, v[7], &dev) < 0)
        return NULL;
    if (ca || cb || cbase) {
        PyErr_SetString(PyExc_NotImplementedError, "logspace: complex start, stop or "
                        "base is not supported by ember yet");
        return NULL;
    }
    if (v[3] && (endpoint = PyObject_IsTrue(v[3])) < 0)
        return NULL;
    if (manip_given(v[5]) && empy_dtype_arg(st, v[5], &dt) < 0)
        return NULL;
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_logspace(dev, a.real, b.real, num, endpoint, base.real, dt, &res,
                               NULL));
    return manip_result(st, rc, &res);
}

static PyObject *mod_geomspace(MANIP_FASTCALL)
{
    static const char *const names[] = {"start", "stop", "num", "endpoint", "dtype",
                                        "axis", "device", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[7];
    Py_complex a, b;
    int ca, cb, endpoint = 1;
    int64_t num;
    em_dtype dt = EM_FLOAT64;
    em_device *dev;
    em_array res;
    em_status rc;
    if (empy_parse_args("geomspace", args, nargs, kwnames, names, 6, 2, v) < 0 ||
        scalar_value(st, v[0], "geomspace", &a, &ca) < 0 ||
        scalar_value(st, v[1], "geomspace", &b, &cb) < 0 || num_arg(v[2], &num) < 0 ||
        axis_1d(st, v[5]) < 0 || device_of(st, v[6], &dev) < 0)
        return NULL;
    if (ca || cb) {
        PyErr_SetString(PyExc_NotImplementedError, "geomspace: complex start or stop "
                        "is not supported by ember yet");
        return NULL;
    }
    if (v[3] && (endpoint = PyObject_IsTrue(v[3])) < 0)
        return NULL;
    if (manip_given(v[4]) && empy_dtype_arg(st, v[4], &dt) < 0)
        return NULL;
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_geomspace(dev, a.real, b.real, num, endpoint, dt, &res, NULL));
    return manip_result(st, rc, &res);
}

static int size_arg(PyObject *o, const char *what, int64_t dflt, int64_t *out)
{
    if (!manip_given(o))
        *out = dflt;
    else if (empy_size_arg(o, what, out) < 0)
        return -1;
    if (*out < 0) {
        PyErr_Format(PyExc_ValueError, "negative dimensions are not allowed (%s=%lld)",
                     what, (long long)*out);
        return -1;
    }
    return 0;
}

/* eye's k: any offset past the matrix gives zeros, so one too large for
 * int64 (the Array API suite passes 2**63) is clamped instead of raising
 * OverflowError; NumPy accepts it too. */
static int eye_offset(PyObject *o, int64_t n, int64_t m, int64_t *k)
{
    if (manip_int(o, "k", 0, k) < 0) {
        PyObject *i;
        int neg;
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        if (!(i = PyNumber_Index(o)))
            return -1;
        neg = PyObject_RichCompareBool(i, Py_False, Py_LT);
        Py_DECREF(i);
        if (neg < 0)
            return -1;
        *k = neg ? -n : m;
    }
    if (*k > m)
        *k = m;
    else if (*k < -n)
        *k = -n;
    return 0;
}

static PyObject *mod_eye(MANIP_FASTCALL)
{
    static const char *const names[] = {"N", "M", "k", "dtype", "order", "device",
                                        "like", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[7];
    int64_t n, mm, k;
    em_dtype dt = EM_FLOAT64;
    em_device *dev;
    char order = 'C';
    em_array res;
    em_status rc;
    if (empy_parse_args("eye", args, nargs, kwnames, names, 5, 1, v) < 0 ||
        size_arg(v[0], "N", 0, &n) < 0 || size_arg(v[1], "M", n, &mm) < 0 ||
        eye_offset(v[2], n, mm, &k) < 0 || device_of(st, v[5], &dev) < 0 ||
        no_like(v[6]) < 0)
        return NULL;
    if (manip_given(v[3]) && empy_dtype_arg(st, v[3], &dt) < 0)
        return NULL;
    if (manip_given(v[4])) {
        const char *s = PyUnicode_Check(v[4]) ? PyUnicode_AsUTF8(v[4]) : NULL;
        if (!s || (strcmp(s, "C") && strcmp(s, "F"))) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "order must be 'C' or 'F'");
            return NULL;
        }
        order = s[0];
    }
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_eye(dev, n, mm, k, dt, order, &res, NULL));
    return manip_result(st, rc, &res);
}

static PyObject *mod_identity(MANIP_FASTCALL)
{
    static const char *const names[] = {"n", "dtype", "device", "like", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[4];
    int64_t n;
    em_dtype dt = EM_FLOAT64;
    em_device *dev;
    em_array res;
    em_status rc;
    if (empy_parse_args("identity", args, nargs, kwnames, names, 2, 1, v) < 0 ||
        size_arg(v[0], "n", 0, &n) < 0 || device_of(st, v[2], &dev) < 0 ||
        no_like(v[3]) < 0)
        return NULL;
    if (manip_given(v[1]) && empy_dtype_arg(st, v[1], &dt) < 0)
        return NULL;
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_eye(dev, n, n, 0, dt, 'C', &res, NULL));
    return manip_result(st, rc, &res);
}

static PyObject *mod_tri(MANIP_FASTCALL)
{
    static const char *const names[] = {"N", "M", "k", "dtype", "device", "like", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[6];
    int64_t n, mm, k;
    em_dtype dt = EM_FLOAT64;
    em_device *dev;
    em_array res;
    em_status rc;
    if (empy_parse_args("tri", args, nargs, kwnames, names, 4, 1, v) < 0 ||
        size_arg(v[0], "N", 0, &n) < 0 || size_arg(v[1], "M", n, &mm) < 0 ||
        manip_int(v[2], "k", 0, &k) < 0 || device_of(st, v[4], &dev) < 0 ||
        no_like(v[5]) < 0)
        return NULL;
    if (manip_given(v[3]) && empy_dtype_arg(st, v[3], &dt) < 0)
        return NULL;
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_tri(dev, n, mm, k, dt, &res, NULL));
    return manip_result(st, rc, &res);
}

static PyObject *tril_common(PyObject *m, const char *fname, int upper,
                             PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"m", "k", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[2], *a;
    int64_t k;
    em_array res, src;
    em_status rc;
    if (empy_parse_args(fname, args, nargs, kwnames, names, 2, 1, v) < 0 ||
        manip_int(v[1], "k", 0, &k) < 0 || !(a = manip_array(st, v[0], NULL)))
        return NULL;
    src = *EMPY_ARR(a);
    if (src.ndim == 0) {
        Py_DECREF(a);
        PyErr_Format(PyExc_ValueError, "%s: the input must have at least 1 dimension",
                     fname);
        return NULL;
    }
    if (src.ndim == 1) {
        /* NumPy broadcasts a 1-D input against its (n, n) mask. */
        src.ndim = 2;
        src.shape[1] = src.shape[0];
        src.strides[1] = src.strides[0];
        src.strides[0] = 0;
        em_array_update_flags(&src);
    }
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_tril(&src, k, upper, &res, NULL));
    Py_DECREF(a);
    return manip_result(st, rc, &res);
}

static PyObject *mod_tril(MANIP_FASTCALL)
{
    return tril_common(m, "tril", 0, args, nargs, kwnames);
}

static PyObject *mod_triu(MANIP_FASTCALL)
{
    return tril_common(m, "triu", 1, args, nargs, kwnames);
}

static PyObject *mod_meshgrid(PyObject *m, PyObject *const *args, Py_ssize_t nargsf,
                              PyObject *kwnames)
{
    static const char *const names[] = {"copy", "sparse", "indexing", NULL};
    empy_state *st = empy_state_of_module(m);
    Py_ssize_t n = PyVectorcall_NARGS(nargsf), i;
    PyObject *v[3], *out = NULL;
    int copy = 1, sparse = 0, xy = 1, j;
    int64_t shape[EM_MAX_NDIM];
    em_device *dev = NULL;
    if (empy_parse_args("meshgrid", args + n, 0, kwnames, names, 0, 0, v) < 0)
        return NULL;
    if ((v[0] && (copy = PyObject_IsTrue(v[0])) < 0) ||
        (v[1] && (sparse = PyObject_IsTrue(v[1])) < 0))
        return NULL;
    if (manip_given(v[2])) {
        const char *s = PyUnicode_Check(v[2]) ? PyUnicode_AsUTF8(v[2]) : NULL;
        if (!s || (strcmp(s, "xy") && strcmp(s, "ij"))) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "Valid values for `indexing` are "
                                "'xy' and 'ij'.");
            return NULL;
        }
        xy = s[0] == 'x';
    }
    if (n > EM_MAX_NDIM) {
        PyErr_Format(PyExc_ValueError, "meshgrid: at most %d inputs", EM_MAX_NDIM);
        return NULL;
    }
    for (i = 0; i < n && !dev; i++)
        if (empy_is_ndarray(args[i]))
            dev = EMPY_ARR(args[i])->device;
    if (!(out = PyTuple_New(n)))
        return NULL;
    for (i = 0; i < n; i++) {
        PyObject *a = manip_array(st, args[i], dev), *f;
        if (!a)
            goto fail;
        f = PyObject_CallMethod(a, "ravel", NULL);
        Py_DECREF(a);
        if (!f)
            goto fail;
        PyTuple_SET_ITEM(out, i, f);
        shape[i] = EMPY_ARR(f)->size;
    }
    if (xy && n > 1) {
        int64_t t = shape[0];
        shape[0] = shape[1];
        shape[1] = t;
    }
    for (i = 0; i < n; i++) {
        const em_array *x = EMPY_ARR(PyTuple_GET_ITEM(out, i));
        int at = xy && n > 1 && i < 2 ? 1 - (int)i : (int)i;
        em_array lay = *x, full;
        PyObject *r;
        em_status rc;
        lay.ndim = (int)n;
        for (j = 0; j < n; j++) {
            lay.shape[j] = j == at ? x->shape[0] : 1;
            lay.strides[j] = j == at ? x->strides[0] : 0;
        }
        em_array_update_flags(&lay);
        lay.flags |= x->flags & EM_ARRAY_WRITEABLE;
        if (!sparse) {
            if ((rc = em_array_broadcast_to(&lay, (int)n, shape, &full)) != EM_OK) {
                empy_raise(st, rc);
                goto fail;
            }
            lay = full;
            em_array_release(&full);   /* keep the layout, drop the reference */
        }
        if (copy) {
            em_array c;
            rc = empy_array_copy_new(&lay, NULL, -1, 'C',
                                     &c); /* releases the GIL itself */
            r = rc == EM_OK ? empy_ndarray_new(st, &c, NULL) : empy_raise(st, rc);
        } else {
            r = manip_view(st, PyTuple_GET_ITEM(out, i), &lay);
        }
        if (!r)
            goto fail;
        {
            PyObject *old = PyTuple_GET_ITEM(out, i);
            PyTuple_SET_ITEM(out, i, r);
            Py_DECREF(old);
        }
    }
    {
        /* The Array API returns a list (NumPy 2 a tuple; both unpack). */
        PyObject *l = PySequence_List(out);
        Py_DECREF(out);
        return l;
    }
fail:
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef ranges_functions[] = {
    MANIP_FN(linspace),  MANIP_FN(logspace),
    MANIP_FN(geomspace), MANIP_FN(eye),
    MANIP_FN(identity),  MANIP_FN(tri),
    MANIP_FN(tril),      MANIP_FN(triu),
    MANIP_FN(meshgrid),  {NULL},
};

int empy_ranges_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, ranges_functions);
}
