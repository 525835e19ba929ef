/* ember Python extension: the calls under ember.linalg's LAPACK functions
 * (include/ember/lapack.h). Each takes arrays already in a LAPACK dtype
 * and batch shape (python/ember/_api/linalg.py does NumPy's argument
 * handling) and returns the new arrays. */
#include "array/ndarray.h"
#include "math/mathlibs.h"
#include "runtime/errors.h"
#include "runtime/args.h"

enum { SOLVE, INV, DET, CHOLESKY, QR, EIGH, EIG, SVD, LSTSQ };

/* A call's name and how many arrays then ints it takes. */
typedef struct {
    const char *name;
    int narr, nint;
} call_args;

/* The calls that return new arrays (LSTSQ's last argument is a float). */
static const call_args calls[] = {
    [SOLVE] = {"_la_solve", 2, 0},   [INV] = {"_la_inv", 1, 0},
    [DET] = {"_la_det", 1, 1},       [CHOLESKY] = {"_la_cholesky", 1, 1},
    [QR] = {"_la_qr", 1, 1},         [EIGH] = {"_la_eigh", 1, 2},
    [EIG] = {"_la_eig", 1, 1},       [SVD] = {"_la_svd", 1, 2},
    [LSTSQ] = {"_la_lstsq", 2, 1},
};

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

static PyObject *run(PyObject *m, PyObject *const *args, Py_ssize_t nargs, int which)
{
    empy_state *st = empy_state_of_module(m);
    const em_array *a[2] = {NULL, NULL};
    long iv[2] = {0, 0};
    double rcond = 0;
    em_array r[4];
    em_status rc;
    int n = 1, narr = calls[which].narr, nint = calls[which].nint;

    memset(r, 0, sizeof r);
    if (nargs != narr + nint)
        return PyErr_Format(PyExc_TypeError, "%s takes %d arguments (%zd given)",
                            calls[which].name, narr + nint, nargs);
    for (int i = 0; i < narr; i++) {
        if (!empy_is_ndarray(args[i]))
            return PyErr_Format(PyExc_TypeError, "%s: argument %d must be an "
                                "ember.ndarray, not %s", calls[which].name, i + 1,
                                Py_TYPE(args[i])->tp_name);
        a[i] = EMPY_ARR(args[i]);
    }
    if (which == LSTSQ)
        rcond = PyFloat_AsDouble(args[2]);
    else
        for (int i = 0; i < nint; i++)
            iv[i] = PyLong_AsLong(args[narr + i]);
    if (PyErr_Occurred())
        return NULL;
    if (which == QR && (iv[0] < EM_QR_REDUCED || iv[0] > EM_QR_RAW))
        return PyErr_Format(PyExc_ValueError, "_la_qr: mode %ld", iv[0]);
    Py_BEGIN_ALLOW_THREADS
    switch (which) {
    case SOLVE: rc = em_linalg_solve(a[0], a[1], &r[0]); break;
    case INV: rc = em_linalg_inv(a[0], &r[0]); break;
    case DET:   /* (det,) or, with slog, (sign, logabs) */
        n = iv[0] ? 2 : 1;
        rc = iv[0] ? em_linalg_det(a[0], NULL, &r[0], &r[1])
                   : em_linalg_det(a[0], &r[0], NULL, NULL);
        break;
    case CHOLESKY: rc = em_linalg_cholesky(a[0], iv[0] != 0, &r[0]); break;
    case QR:    /* (q, r), (r,) or (h, tau) */
        n = iv[0] == EM_QR_R ? 1 : 2;
        rc = iv[0] == EM_QR_R ? em_linalg_qr(a[0], EM_QR_R, NULL, &r[0])
                              : em_linalg_qr(a[0], (em_qr_mode)iv[0], &r[0], &r[1]);
        break;
    case EIGH:  /* (w, v) or (w,) */
        n = iv[1] ? 2 : 1;
        rc = em_linalg_eigh(a[0], iv[0] != 0, &r[0], iv[1] ? &r[1] : NULL);
        break;
    case EIG:   /* (w, v) or (w,), complex */
        n = iv[0] ? 2 : 1;
        rc = em_linalg_eig(a[0], &r[0], iv[0] ? &r[1] : NULL);
        break;
    case SVD:   /* (u, s, vh) or (s,) */
        n = iv[1] ? 3 : 1;
        rc = iv[1] ? em_linalg_svd(a[0], iv[0] != 0, &r[1], &r[0], &r[2])
                   : em_linalg_svd(a[0], 0, &r[0], NULL, NULL);
        break;
    default:    /* (x, resid, rank, s) */
        n = 4;
        rc = em_linalg_lstsq(a[0], a[1], rcond, &r[0], &r[1], &r[2], &r[3]);
        break;
    }
    Py_END_ALLOW_THREADS
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return results(st, r, n);
}

#define CALL(fn, which) EMPY_TABLE_FUNCTION(fn, run, which)
CALL(la_solve, SOLVE)
CALL(la_inv, INV)
CALL(la_det, DET)
CALL(la_cholesky, CHOLESKY)
CALL(la_qr, QR)
CALL(la_eigh, EIGH)
CALL(la_eig, EIG)
CALL(la_svd, SVD)
CALL(la_lstsq, LSTSQ)

/* _la_getrf(a, ipiv, info) and _la_getrs(lu, ipiv, b, trans, info): the
 * raw LU pair in place, with _cus_getrf's and _cus_getrs's arguments, so
 * that scipy/linalg.py calls one or the other by device. */
static PyObject *raw_lu(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                        int getrs)
{
    empy_state *st = empy_state_of_module(m);
    const char *name = getrs ? "_la_getrs" : "_la_getrf";
    em_array *a[5] = {NULL};
    long trans = 0;
    em_status rc;
    int n = getrs ? 5 : 3;
    if (nargs != n)
        return PyErr_Format(PyExc_TypeError, "%s takes %d arguments (%zd "
                            "given)", name, n, nargs);
    for (int i = 0; i < n; i++) {
        if (getrs && i == 3)
            continue;
        if (!empy_is_ndarray(args[i]))
            return PyErr_Format(PyExc_TypeError, "%s: argument %d must be an "
                                "ember.ndarray, not %s", name, i + 1,
                                Py_TYPE(args[i])->tp_name);
        a[i] = EMPY_ARR(args[i]);
    }
    if (getrs && (trans = PyLong_AsLong(args[3])) == -1 && PyErr_Occurred())
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = getrs ? em_linalg_getrs(a[0], a[1], a[2], (int)trans, a[4])
               : em_linalg_getrf(a[0], a[1], a[2]);
    Py_END_ALLOW_THREADS
    if (rc != EM_OK)
        return empy_raise(st, rc);
    Py_RETURN_NONE;
}

EMPY_TABLE_FUNCTION(la_getrf, raw_lu, 0)
EMPY_TABLE_FUNCTION(la_getrs, raw_lu, 1)

/* The Schur family's raw calls (em_linalg_gees ... em_linalg_trsyl): in
 * place on arrays the caller made, ints after the arrays, None for an
 * optional array; each returns None. */
enum { GEES, TRSEN, GEHRD, GGES, TGSEN, SYTRF, TRSYL, GEBAL };
static const call_args raws[] = {
    [GEES] = {"_la_gees", 4, 0},   [TRSEN] = {"_la_trsen", 6, 0},
    [GEHRD] = {"_la_gehrd", 3, 0}, [GGES] = {"_la_gges", 7, 0},
    [TGSEN] = {"_la_tgsen", 8, 0}, [SYTRF] = {"_la_sytrf", 3, 2},
    [TRSYL] = {"_la_trsyl", 5, 3}, [GEBAL] = {"_la_gebal", 3, 0},
};

static PyObject *raw_schur(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                           int which)
{
    empy_state *st = empy_state_of_module(m);
    em_array *a[8] = {NULL};
    long iv[3] = {0, 0, 0};
    em_status rc;
    int narr = raws[which].narr, nint = raws[which].nint;
    if (nargs != narr + nint)
        return PyErr_Format(PyExc_TypeError, "%s takes %d arguments (%zd "
                            "given)", raws[which].name, narr + nint, nargs);
    for (int i = 0; i < narr; i++) {
        if (args[i] == Py_None && which == GEHRD && i == 1)
            continue;
        if (!empy_is_ndarray(args[i]))
            return PyErr_Format(PyExc_TypeError, "%s: argument %d must be an "
                                "ember.ndarray, not %s", raws[which].name,
                                i + 1, Py_TYPE(args[i])->tp_name);
        a[i] = EMPY_ARR(args[i]);
    }
    for (int i = 0; i < nint; i++)
        if ((iv[i] = PyLong_AsLong(args[narr + i])) == -1 && PyErr_Occurred())
            return NULL;
    Py_BEGIN_ALLOW_THREADS
    switch (which) {
    case GEES: rc = em_linalg_gees(a[0], a[1], a[2], a[3]); break;
    case TRSEN: rc = em_linalg_trsen(a[0], a[1], a[2], a[3], a[4], a[5]); break;
    case GEHRD: rc = em_linalg_gehrd(a[0], a[1], a[2]); break;
    case GGES:
        rc = em_linalg_gges(a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
        break;
    case TGSEN:
        rc = em_linalg_tgsen(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
        break;
    case SYTRF:
        rc = em_linalg_sytrf(a[0], iv[0] != 0, iv[1] != 0, a[1], a[2]);
        break;
    case GEBAL: rc = em_linalg_gebal(a[0], a[1], a[2]); break;
    default:
        rc = em_linalg_trsyl(a[0], a[1], a[2], (int)iv[0], (int)iv[1],
                             (int)iv[2], a[3], a[4]);
        break;
    }
    Py_END_ALLOW_THREADS
    if (rc != EM_OK)
        return empy_raise(st, rc);
    Py_RETURN_NONE;
}

#define RAW(fn, which) EMPY_TABLE_FUNCTION(fn, raw_schur, which)
RAW(la_gees, GEES)
RAW(la_trsen, TRSEN)
RAW(la_gehrd, GEHRD)
RAW(la_gges, GGES)
RAW(la_tgsen, TGSEN)
RAW(la_sytrf, SYTRF)
RAW(la_trsyl, TRSYL)
RAW(la_gebal, GEBAL)

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
    F("_la_getrf", la_getrf, "_la_getrf(a, ipiv, info): em_linalg_getrf."),
    F("_la_getrs", la_getrs, "_la_getrs(lu, ipiv, b, trans, info): "
      "em_linalg_getrs."),
    F("_la_gees", la_gees, "_la_gees(a, w, vs, info): em_linalg_gees."),
    F("_la_trsen", la_trsen, "_la_trsen(t, q, select, w, m, info): "
      "em_linalg_trsen."),
    F("_la_gehrd", la_gehrd, "_la_gehrd(a, q|None, info): em_linalg_gehrd."),
    F("_la_gges", la_gges, "_la_gges(a, b, alpha, beta, vsl, vsr, info): "
      "em_linalg_gges."),
    F("_la_tgsen", la_tgsen, "_la_tgsen(a, b, q, z, select, alpha, beta, "
      "info): em_linalg_tgsen."),
    F("_la_sytrf", la_sytrf, "_la_sytrf(a, ipiv, info, lower, hermitian): "
      "em_linalg_sytrf."),
    F("_la_trsyl", la_trsyl, "_la_trsyl(a, b, c, scale, info, trana, tranb, "
      "isgn): em_linalg_trsyl."),
    F("_la_gebal", la_gebal, "_la_gebal(a, scale, info): em_linalg_gebal."),
    {NULL},
};

int empy_lapack_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, lapack_functions);
}
