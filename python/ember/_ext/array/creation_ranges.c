/* ember Python extension: eye, identity, tri, tril, triu, meshgrid, and
 * the entries _api/ranges.py's linspace, logspace and geomspace call. The
 * values come from include/ember/manip.h's creation functions; this file
 * parses NumPy's signatures. */
#include "array/manip_args.h"

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

/* _space(kind, start, stop, num, endpoint, base, dtype, device): the
 * values of linspace, logspace or geomspace (kind) between scalar ends,
 * one kernel each (include/ember/manip.h), for _api/ranges.py, which
 * parses NumPy's signatures. Returns (array, step): linspace's step, as
 * a complex number (0 for the others). */
static PyObject *mod_space(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    const char *kind;
    Py_complex a, b, step;
    long long num;
    int endpoint;
    double base, sv[2] = {0, 0};
    PyObject *dto, *devo, *r;
    em_dtype dt;
    em_device *dev;
    em_array res;
    em_status rc;
    if (!PyArg_ParseTuple(args, "sDDLpdOO:_space", &kind, &a, &b, &num,
                          &endpoint, &base, &dto, &devo) ||
        empy_dtype_arg(st, dto, &dt) < 0 || device_of(st, devo, &dev) < 0)
        return NULL;
    memset(&res, 0, sizeof res);
    if (!strcmp(kind, "linspace")) {
        EMPY_NOGIL(rc, em_linspace(dev, a.real, a.imag, b.real, b.imag, num,
                                   endpoint, dt, sv, &res, NULL));
    } else if (!strcmp(kind, "logspace")) {
        EMPY_NOGIL(rc, em_logspace(dev, a.real, b.real, num, endpoint, base,
                                   dt, &res, NULL));
    } else if (!strcmp(kind, "geomspace")) {
        EMPY_NOGIL(rc, em_geomspace(dev, a.real, b.real, num, endpoint, dt,
                                    &res, NULL));
    } else {
        PyErr_Format(PyExc_ValueError, "_space: no range '%s'", kind);
        return NULL;
    }
    if (!(r = manip_result(st, rc, &res)))
        return NULL;
    step.real = sv[0], step.imag = sv[1];
    return Py_BuildValue("(ND)", r, &step);
}

/* _linspace_array(start, stop, num, endpoint, axis, compute, dtype,
 * retstep): linspace between array ends of one device (em_linspace_array,
 * one kernel), computed in `compute`; with retstep, (array, step). */
static PyObject *mod_linspace_array(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *ao, *bo, *cto, *dto, *r, *so;
    long long num;
    int endpoint, axis, retstep;
    em_dtype compute, dt;
    em_array res, step;
    em_status rc;
    if (!PyArg_ParseTuple(args, "O!O!LpiOOp:_linspace_array", st->ndarray, &ao,
                          st->ndarray, &bo, &num, &endpoint, &axis, &cto, &dto,
                          &retstep) ||
        empy_dtype_arg(st, cto, &compute) < 0 || empy_dtype_arg(st, dto, &dt) < 0)
        return NULL;
    memset(&res, 0, sizeof res);
    memset(&step, 0, sizeof step);
    EMPY_NOGIL(rc, em_linspace_array(EMPY_ARR(ao), EMPY_ARR(bo), num, endpoint, axis,
                                     compute, dt, retstep ? &step : NULL, &res, NULL));
    if (!(r = manip_result(st, rc, &res)) || !retstep)
        return r;
    if (!(so = empy_ndarray_new(st, &step, NULL))) {
        Py_DECREF(r);
        return NULL;
    }
    return Py_BuildValue("(NN)", r, so);
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
        manip_tuple_replace(out, i, r);
    }
    return manip_list_of(out);
fail:
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef ranges_functions[] = {
    {"_space", mod_space, METH_VARARGS,
     "_space(kind, start, stop, num, endpoint, base, dtype, device)"},
    {"_linspace_array", mod_linspace_array, METH_VARARGS,
     "_linspace_array(start, stop, num, endpoint, axis, compute, dtype, "
     "retstep)"},
    MANIP_FN(eye),       MANIP_FN(identity),
    MANIP_FN(tri),       MANIP_FN(tril),
    MANIP_FN(triu),      MANIP_FN(meshgrid),
    {NULL},
};

int empy_ranges_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, ranges_functions);
}
