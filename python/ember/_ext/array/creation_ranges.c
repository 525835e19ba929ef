/* ember Python extension: the entries of the range kernels of
 * include/ember/manip.h and array.h (arange, linspace, logspace,
 * geomspace, tri). NumPy's signatures and length and dtype rules are
 * Python (python/ember/_api/creation.py, ranges.py, matrices.py). */
#include "array/manip_args.h"

/* _arange(first, second, n, dtype, device): em_arange's n values from its
 * first two, in dtype: float32, float64 or complex128 (the ends are
 * numbers) or an integer dtype or bool (the ends are ints, taken modulo
 * 2**64 as they wrap in the dtype). */
static PyObject *mod_arange(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *ends_o[2], *dto, *devo;
    long long n;
    char ends[2][16];
    em_dtype dt;
    em_device *dev;
    em_array res;
    em_status rc;
    if (!PyArg_ParseTuple(args, "OOLOO:_arange", &ends_o[0], &ends_o[1], &n, &dto, &devo) ||
        empy_dtype_arg(st, dto, &dt) < 0 || empy_device_arg(st, devo, &dev) < 0)
        return NULL;
    for (int i = 0; i < 2; i++) {
        char kind = em_dtype_get(dt)->kind;
        if (kind == 'f' || kind == 'c') {
            Py_complex c = PyComplex_AsCComplex(ends_o[i]);
            float f = (float)c.real;
            if (dt == EM_FLOAT32)
                memcpy(ends[i], &f, sizeof f);
            else
                memcpy(ends[i], &c, sizeof c);
        } else {
            unsigned long long u = PyLong_AsUnsignedLongLongMask(ends_o[i]);
            if (dt == EM_BOOL)
                ends[i][0] = u != 0;
            else
                memcpy(ends[i], &u, sizeof u);
        }
        if (PyErr_Occurred())
            return NULL;
    }
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_arange(dev, dt, ends[0], ends[1], n, &res, NULL));
    return manip_result(st, rc, &res);
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
        empy_dtype_arg(st, dto, &dt) < 0 || empy_device_arg(st, devo, &dev) < 0)
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

/* _tri(n, m, k, dtype, device): em_tri, n and m not negative. */
static PyObject *mod_tri(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    long long n, mm, k;
    PyObject *dto, *devo;
    em_dtype dt;
    em_device *dev;
    em_array res;
    em_status rc;
    if (!PyArg_ParseTuple(args, "LLLOO:_tri", &n, &mm, &k, &dto, &devo) ||
        empy_dtype_arg(st, dto, &dt) < 0 || empy_device_arg(st, devo, &dev) < 0)
        return NULL;
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_tri(dev, n, mm, k, dt, &res, NULL));
    return manip_result(st, rc, &res);
}

static PyMethodDef ranges_functions[] = {
    {"_arange", mod_arange, METH_VARARGS, "_arange(first, second, n, dtype, device)"},
    {"_space", mod_space, METH_VARARGS,
     "_space(kind, start, stop, num, endpoint, base, dtype, device)"},
    {"_linspace_array", mod_linspace_array, METH_VARARGS,
     "_linspace_array(start, stop, num, endpoint, axis, compute, dtype, "
     "retstep)"},
    {"_tri", mod_tri, METH_VARARGS, "_tri(n, m, k, dtype, device)"},
    {NULL},
};

int empy_ranges_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, ranges_functions);
}
