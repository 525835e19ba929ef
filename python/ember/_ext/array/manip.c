/* ember Python extension: the entries of include/ember/manip.h's joining,
 * rolling, padding and triangle kernels, the diagonal view (a.diagonal)
 * and broadcast_to. NumPy's signatures, the module forms of the views and
 * the stacks built on concatenate are Python (python/ember/_api/
 * joining.py, flipping.py, views.py, matrices.py, pad.py), which passes
 * these entries checked arguments. */
#include <string.h>
#include "array/manip_args.h"

/* _concatenate(arrays, axis, dtype, casting, out): em_array_concatenate
 * of a list of ember arrays; dtype None or a dtype, casting an
 * em_casting, out None or the ndarray to write (and return). */
static PyObject *mod__concatenate(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *seq, *dto, *out;
    const em_array **p;
    em_array res, *dst = &res;
    em_dtype dt = (em_dtype)-1;
    em_status rc;
    int axis, casting;
    Py_ssize_t n, i;
    if (!PyArg_ParseTuple(args, "O!iOiO:_concatenate", &PyList_Type, &seq, &axis, &dto,
                          &casting, &out) ||
        (dto != Py_None && empy_dtype_arg(st, dto, &dt) < 0))
        return NULL;
    n = PyList_GET_SIZE(seq);
    if (out != Py_None && !empy_is_ndarray(out))
        return PyErr_Format(PyExc_TypeError, "out must be an ember.ndarray, not %.100s",
                            Py_TYPE(out)->tp_name);
    if (!(p = PyMem_Malloc(sizeof(*p) * (size_t)(n ? n : 1))))
        return PyErr_NoMemory();
    for (i = 0; i < n; i++) {
        if (!empy_is_ndarray(PyList_GET_ITEM(seq, i))) {
            PyMem_Free(p);
            return PyErr_Format(PyExc_TypeError, "_concatenate: item %zd is not an "
                                "ember array", i);
        }
        p[i] = EMPY_ARR(PyList_GET_ITEM(seq, i));
    }
    if (out != Py_None)
        dst = EMPY_ARR(out);
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_array_concatenate(p, (int)n, axis, (int)dt, (em_casting)casting, dst,
                                        NULL));
    PyMem_Free(p);
    if (out == Py_None)
        return manip_result(st, rc, &res);
    return rc == EM_OK ? Py_NewRef(out) : empy_raise(st, rc);
}

/* _roll(a, shifts, axes): em_array_roll with normalised axes, one per
 * shift (lists of ints). */
static PyObject *mod__roll(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a, *sl, *al;
    int64_t shifts[EM_MAX_NDIM];
    int axes[EM_MAX_NDIM];
    Py_ssize_t n, i;
    em_array res;
    em_status rc;
    if (!PyArg_ParseTuple(args, "O!O!O!:_roll", st->ndarray, &a, &PyList_Type, &sl,
                          &PyList_Type, &al))
        return NULL;
    n = PyList_GET_SIZE(sl);
    if (n > EM_MAX_NDIM || PyList_GET_SIZE(al) != n) {
        PyErr_Format(PyExc_ValueError, "_roll: one axis per shift, at most %d", EM_MAX_NDIM);
        return NULL;
    }
    for (i = 0; i < n; i++) {
        shifts[i] = PyLong_AsLongLong(PyList_GET_ITEM(sl, i));
        axes[i] = (int)PyLong_AsLong(PyList_GET_ITEM(al, i));
        if (PyErr_Occurred())
            return NULL;
    }
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_array_roll(EMPY_ARR(a), shifts, axes, (int)n, &res, NULL));
    return manip_result(st, rc, &res);
}

/* _tril(a, k, upper): em_tril of a (ndim >= 2). */
static PyObject *mod__tril(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a;
    long long k;
    int upper;
    em_array res;
    em_status rc;
    if (!PyArg_ParseTuple(args, "O!Lp:_tril", st->ndarray, &a, &k, &upper))
        return NULL;
    memset(&res, 0, sizeof res);
    EMPY_NOGIL(rc, em_tril(EMPY_ARR(a), k, upper, &res, NULL));
    return manip_result(st, rc, &res);
}

/* _pad(a, widths, mode, values, dtype, stat_length): em_array_pad for
 * _api/pad.py, which parses NumPy's signature. widths, values (None, or
 * numbers of dtype: int64, float64 or complex128) and stat_length (None,
 * or int64, -1 for a whole axis) are buffers of 2 * a.ndim (before,
 * after) entries; mode is an em_pad_mode. */
static PyObject *mod__pad(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    Py_buffer w, v, sl;
    PyObject *a, *dto, *r = NULL;
    Py_ssize_t n;
    em_dtype vd;
    em_array res;
    em_status rc;
    int mode;
    if (!PyArg_ParseTuple(args, "O!y*iz*Oz*:_pad", st->ndarray, &a, &w, &mode, &v, &dto,
                          &sl))
        return NULL;
    n = 2 * (Py_ssize_t)EMPY_ARR(a)->ndim;
    if (empy_dtype_arg(st, dto, &vd) < 0) {
        /* raised */
    } else if (w.len != n * 8 || (sl.buf && sl.len != n * 8) || mode < 0 ||
               mode > EM_PAD_LINEAR_RAMP ||
               (v.buf && v.len != n * (Py_ssize_t)em_dtype_size(vd))) {
        PyErr_SetString(PyExc_ValueError, "_pad: a mode and 2 * a.ndim entries each");
    } else {
        memset(&res, 0, sizeof res);
        EMPY_NOGIL(rc, em_array_pad(EMPY_ARR(a), w.buf, (em_pad_mode)mode, v.buf, vd,
                                    sl.buf, &res, NULL));
        r = manip_result(st, rc, &res);
    }
    PyBuffer_Release(&w);
    PyBuffer_Release(&v);
    PyBuffer_Release(&sl);
    return r;
}

/* ---- views ------------------------------------------------------------- */

/* _diagonal(a, offset, axis1, axis2): em_array_diagonal with the axes
 * normalised by _api/views.py (a.diagonal and ember.diagonal). */
static PyObject *mod__diagonal(PyObject *m, PyObject *args)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *a;
    long long off;
    int x, y;
    em_array d;
    em_status rc;
    if (!PyArg_ParseTuple(args, "O!Lii:_diagonal", st->ndarray, &a, &off, &x, &y))
        return NULL;
    if ((rc = em_array_diagonal(EMPY_ARR(a), off, x, y, &d)) != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, &d, a);
}

/* broadcast_to(array, shape): a read-only view (ufunc.at and the Python
 * layer build on it). */
static PyObject *mod_broadcast_to(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames)
{
    static const char *const names[] = {"array", "shape", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *v[2], *a, *r = NULL;
    int64_t shape[EM_MAX_NDIM];
    int nd, i;
    em_array t;
    em_status rc;
    if (empy_parse_args("broadcast_to", args, nargs, kwnames, names, 2, 2, v) < 0 ||
        empy_shape_arg(v[1], "shape", &nd, shape) < 0)
        return NULL;
    for (i = 0; i < nd; i++)
        if (shape[i] < 0)
            return PyErr_Format(PyExc_ValueError, "all elements of broadcast shape must "
                                "be non-negative");
    a = empy_is_ndarray(v[0]) ? Py_NewRef(v[0])
                              : empy_asarray(st, v[0], -1, NULL, EMPY_COPY_IF_NEEDED, 'K');
    if (!a)
        return NULL;
    rc = em_array_broadcast_to(EMPY_ARR(a), nd, shape, &t);
    r = rc == EM_OK ? empy_ndarray_new(st, &t, a) : empy_raise(st, rc);
    Py_DECREF(a);
    return r;
}

#define POSITIONAL(fn, doc) {#fn, mod_##fn, METH_VARARGS, doc}

static PyMethodDef manip_functions[] = {
    POSITIONAL(_concatenate, "_concatenate(arrays, axis, dtype, casting, out)"),
    POSITIONAL(_roll, "_roll(a, shifts, axes)"),
    POSITIONAL(_tril, "_tril(a, k, upper)"),
    POSITIONAL(_pad, "_pad(a, widths, mode, values, dtype, stat_length)"),
    POSITIONAL(_diagonal, "_diagonal(a, offset, axis1, axis2)"),
    {"broadcast_to", (PyCFunction)(void (*)(void))mod_broadcast_to,
     METH_FASTCALL | METH_KEYWORDS, "broadcast_to(array, shape): a read-only view."},
    {NULL},
};

EMPY_PY_METHOD(nd_diagonal, "ember._api.views", "diagonal")

PyMethodDef empy_manip_nd_methods[] = {
    {"diagonal", EMPY_FASTKW(nd_diagonal),
     "diagonal(offset=0, axis1=0, axis2=1): a read-only view of the diagonal."},
    {NULL},
};

int empy_manip_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, manip_functions);
}
