/* ember Python extension: the calls under ember.linalg's LAPACK functions
 * (include/ember/lapack.h). Each takes arrays already in a LAPACK dtype
 * and batch shape (python/ember/_api/linalg.py does NumPy's argument
 * handling) and returns the new arrays. */
#include "array/ndarray.h"
#include "runtime/errors.h"

static int arr_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                    int narr, int nint, PyObject **arrs, long *ints)
{
    if (nargs != narr + nint) {
        PyErr_Format(PyExc_TypeError, "%s takes %d arguments (%zd given)", fname,
                     narr + nint, nargs);
        return -1;
    }
    for (int i = 0; i < narr; i++) {
        if (!empy_is_ndarray(args[i])) {
            PyErr_Format(PyExc_TypeError, "%s: argument %d must be an "
                         "ember.ndarray, not %s", fname, i + 1,
                         Py_TYPE(args[i])->tp_name);
            return -1;
        }
        arrs[i] = args[i];
    }
    for (int i = 0; i < nint; i++) {
        ints[i] = PyLong_AsLong(args[narr + i]);
        if (ints[i] == -1 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* A tuple of n new ndarrays from res (each moved in); NULL on failure
 * (then every res is released). */
static PyObject *results(empy_state *st, em_array *res, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; i < n; i++) {
        PyObject *o;
        if (!t) {
            em_array_release(&res[i]);
            continue;
        }
        o = empy_ndarray_new(st, &res[i], NULL);
        if (!o)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, o);
    }
    return t;
}

#define ARGS(narr, nint)                                                       \
    empy_state *st = empy_state_of_module(m);                                  \
    PyObject *a[2] = {NULL, NULL};                                             \
    long iv[2] = {0, 0};                                                       \
    em_array r[4];                                                             \
    em_status rc;                                                              \
    memset(r, 0, sizeof r);                                                    \
    (void)iv;                                                                  \
    if (arr_args(__func__ + 3, args, nargs, narr, nint, a, iv) < 0)            \
        return NULL

#define FINISH(n)                                                              \
    if (rc != EM_OK)                                                           \
        return empy_raise(st, rc);                                             \
    return results(st, r, n)

/* _la_solve(a, b) -> (x,) */
static PyObject *la_solve(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    ARGS(2, 0);
    EMPY_NOGIL(rc, em_linalg_solve(EMPY_ARR(a[0]), EMPY_ARR(a[1]), &r[0]));
    FINISH(1);
}

/* _la_inv(a) -> (inv,) */
static PyObject *la_inv(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    ARGS(1, 0);
    EMPY_NOGIL(rc, em_linalg_inv(EMPY_ARR(a[0]), &r[0]));
    FINISH(1);
}

/* _la_det(a, slog) -> (det,) or (sign, logabs) */
static PyObject *la_det(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    ARGS(1, 1);
    if (iv[0]) {
        EMPY_NOGIL(rc, em_linalg_det(EMPY_ARR(a[0]), NULL, &r[0], &r[1]));
        FINISH(2);
    }
    EMPY_NOGIL(rc, em_linalg_det(EMPY_ARR(a[0]), &r[0], NULL, NULL));
    FINISH(1);
}

/* _la_cholesky(a, upper) -> (factor,) */
static PyObject *la_cholesky(PyObject *m, PyObject *const *args,
                             Py_ssize_t nargs)
{
    ARGS(1, 1);
    EMPY_NOGIL(rc, em_linalg_cholesky(EMPY_ARR(a[0]), iv[0] != 0, &r[0]));
    FINISH(1);
}

/* _la_qr(a, mode) -> (q, r), (r,) or (h, tau); mode em_qr_mode */
static PyObject *la_qr(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    ARGS(1, 1);
    if (iv[0] < EM_QR_REDUCED || iv[0] > EM_QR_RAW)
        return PyErr_Format(PyExc_ValueError, "_la_qr: mode %ld", iv[0]);
    if (iv[0] == EM_QR_R) {
        EMPY_NOGIL(rc, em_linalg_qr(EMPY_ARR(a[0]), EM_QR_R, NULL, &r[0]));
        FINISH(1);
    }
    EMPY_NOGIL(rc, em_linalg_qr(EMPY_ARR(a[0]), (em_qr_mode)iv[0], &r[0], &r[1]));
    FINISH(2);
}

/* _la_eigh(a, lower, vectors) -> (w, v) or (w,) */
static PyObject *la_eigh(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    ARGS(1, 2);
    EMPY_NOGIL(rc, em_linalg_eigh(EMPY_ARR(a[0]), iv[0] != 0, &r[0],
                                  iv[1] ? &r[1] : NULL));
    FINISH(iv[1] ? 2 : 1);
}

/* _la_eig(a, vectors) -> (w, v) or (w,), complex */
static PyObject *la_eig(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    ARGS(1, 1);
    EMPY_NOGIL(rc, em_linalg_eig(EMPY_ARR(a[0]), &r[0], iv[0] ? &r[1] : NULL));
    FINISH(iv[0] ? 2 : 1);
}

/* _la_svd(a, full, vectors) -> (u, s, vh) or (s,) */
static PyObject *la_svd(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    ARGS(1, 2);
    if (!iv[1]) {
        EMPY_NOGIL(rc, em_linalg_svd(EMPY_ARR(a[0]), 0, &r[0], NULL, NULL));
        FINISH(1);
    }
    EMPY_NOGIL(rc, em_linalg_svd(EMPY_ARR(a[0]), iv[0] != 0, &r[1], &r[0],
                                 &r[2]));
    FINISH(3);
}

/* _la_lstsq(a, b, rcond) -> (x, resid, rank, s) */
static PyObject *la_lstsq(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    empy_state *st = empy_state_of_module(m);
    em_array r[4];
    em_status rc;
    double rcond;
    memset(r, 0, sizeof r);
    if (nargs != 3 || !empy_is_ndarray(args[0]) || !empy_is_ndarray(args[1]))
        return PyErr_Format(PyExc_TypeError,
                            "_la_lstsq(a, b, rcond): two ember.ndarrays and a "
                            "float");
    rcond = PyFloat_AsDouble(args[2]);
    if (rcond == -1.0 && PyErr_Occurred())
        return NULL;
    EMPY_NOGIL(rc, em_linalg_lstsq(EMPY_ARR(args[0]), EMPY_ARR(args[1]), rcond,
                                   &r[0], &r[1], &r[2], &r[3]));
    FINISH(4);
}

#define F(name, fn, doc) {name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL, doc}
static PyMethodDef lapack_functions[] = {
    F("_la_solve", la_solve, "_la_solve(a, b): em_linalg_solve."),
    F("_la_inv", la_inv, "_la_inv(a): em_linalg_inv."),
    F("_la_det", la_det, "_la_det(a, slog): em_linalg_det."),
    F("_la_cholesky", la_cholesky, "_la_cholesky(a, upper): em_linalg_cholesky."),
    F("_la_qr", la_qr, "_la_qr(a, mode): em_linalg_qr."),
    F("_la_eigh", la_eigh, "_la_eigh(a, lower, vectors): em_linalg_eigh."),
    F("_la_eig", la_eig, "_la_eig(a, vectors): em_linalg_eig."),
    F("_la_svd", la_svd, "_la_svd(a, full, vectors): em_linalg_svd."),
    F("_la_lstsq", la_lstsq, "_la_lstsq(a, b, rcond): em_linalg_lstsq."),
    {NULL},
};

int empy_lapack_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, lapack_functions);
}
