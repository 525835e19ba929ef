/* ember Python extension: the raw cuSOLVER calls of include/ember/
 * cusolver.h, which python/ember/_api/linalg.py composes into
 * numpy.linalg's functions on CUDA devices:
 *   _cus_getrf(a, ipiv, info)          _cus_getrs(lu, ipiv, b, trans, info)
 *   _cus_potrf(a, lower, info)         _cus_syevd(a, w, lower, vectors, info)
 *   _cus_gesvd(a, s, u, vt, full, info)   (u and vt None: values only)
 *   _cus_geqrf(a, tau, info)           _cus_orgqr(a, tau, info)
 *   _cus_geev(a, w, vr, info)          (vr None: values only)
 *   _cus_csrlsvqr(data, indptr, indices, b, x, tol, reorder)
 *       -> the first zero pivot's row, or -1 (scipy/sparse_linalg.py)
 * and cuSPARSE's product (include/ember/cusparse.h), for scipy/sparse.py:
 *   _cus_csr_matmul(data, indices, indptr, x, y, ncols, transpose)
 *       y = A x, or A^T x with transpose
 * Arrays are ember arrays (None where the call allows it), flags ints. */
#include "array/ndarray.h"
#include "math/mathlibs.h"
#include "runtime/errors.h"
#include "runtime/args.h"
#include "ember/cusolver.h"
#include "ember/cusparse.h"

enum { GETRF, GETRS, POTRF, SYEVD, GESVD, GEQRF, ORGQR, GEEV, CSRLSVQR,
       CSR_MATMUL };

/* Per call: its name, the argument count, and which arguments are arrays
 * (bit i), may be None (bit i), floats (bit i), or ints. */
static const struct {
    const char *name;
    int n;
    unsigned arrays, nullable, floats;
} calls[] = {
    [GETRF] = {"_cus_getrf", 3, 0x7, 0},
    [GETRS] = {"_cus_getrs", 5, 0x17, 0},
    [POTRF] = {"_cus_potrf", 3, 0x5, 0},
    [SYEVD] = {"_cus_syevd", 5, 0x13, 0},
    [GESVD] = {"_cus_gesvd", 6, 0x2f, 0xc},
    [GEQRF] = {"_cus_geqrf", 3, 0x7, 0},
    [ORGQR] = {"_cus_orgqr", 3, 0x7, 0},
    [GEEV] = {"_cus_geev", 4, 0xf, 0x4},
    [CSRLSVQR] = {"_cus_csrlsvqr", 7, 0x1f, 0, 0x20},
    [CSR_MATMUL] = {"_cus_csr_matmul", 7, 0x1f, 0, 0},
};

static PyObject *run(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                     int which)
{
    empy_state *st = empy_state_of_module(m);
    em_array *a[7] = {NULL};
    long v[7] = {0};
    double f[7] = {0};
    int singular = -1;
    em_status s;
    if (nargs != calls[which].n)
        return PyErr_Format(PyExc_TypeError, "%s takes %d arguments (%zd "
                            "given)", calls[which].name, calls[which].n, nargs);
    for (int i = 0; i < calls[which].n; i++) {
        if (calls[which].arrays >> i & 1) {
            if (args[i] == Py_None && calls[which].nullable >> i & 1)
                continue;
            if (!empy_is_ndarray(args[i]))
                return PyErr_Format(PyExc_TypeError, "%s: argument %d must "
                                    "be an ember.ndarray", calls[which].name,
                                    i);
            a[i] = EMPY_ARR(args[i]);
        } else if (calls[which].floats >> i & 1) {
            if ((f[i] = PyFloat_AsDouble(args[i])) == -1 && PyErr_Occurred())
                return NULL;
        } else if ((v[i] = PyLong_AsLong(args[i])) == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    switch (which) {
    case GETRF: EMPY_NOGIL(s, em_cusolver_getrf(a[0], a[1], a[2])); break;
    case GETRS:
        EMPY_NOGIL(s, em_cusolver_getrs(a[0], a[1], a[2], (int)v[3], a[4]));
        break;
    case POTRF: EMPY_NOGIL(s, em_cusolver_potrf(a[0], (int)v[1], a[2])); break;
    case SYEVD:
        EMPY_NOGIL(s, em_cusolver_syevd(a[0], a[1], (int)v[2], (int)v[3], a[4]));
        break;
    case GESVD:
        EMPY_NOGIL(s, em_cusolver_gesvd(a[0], a[1], a[2], a[3], (int)v[4], a[5]));
        break;
    case GEQRF: EMPY_NOGIL(s, em_cusolver_geqrf(a[0], a[1], a[2])); break;
    case GEEV: EMPY_NOGIL(s, em_cusolver_geev(a[0], a[1], a[2], a[3])); break;
    case CSRLSVQR:
        EMPY_NOGIL(s, em_cusolver_csrlsvqr(a[0], a[1], a[2], a[3], f[5],
                                           (int)v[6], a[4], &singular));
        break;
    case CSR_MATMUL:
        EMPY_NOGIL(s, em_cusparse_csr_matmul(a[0], a[1], a[2], v[5],
                                             (int)v[6], a[3], a[4]));
        break;
    default: EMPY_NOGIL(s, em_cusolver_orgqr(a[0], a[1], a[2])); break;
    }
    if (s != EM_OK)
        return empy_raise(st, s);
    if (which == CSRLSVQR)
        return PyLong_FromLong(singular);
    Py_RETURN_NONE;
}

#define CALL(fn, which) EMPY_TABLE_FUNCTION(fn, run, which)
CALL(py_getrf, GETRF)
CALL(py_getrs, GETRS)
CALL(py_potrf, POTRF)
CALL(py_syevd, SYEVD)
CALL(py_gesvd, GESVD)
CALL(py_geqrf, GEQRF)
CALL(py_orgqr, ORGQR)
CALL(py_geev, GEEV)
CALL(py_csrlsvqr, CSRLSVQR)
CALL(py_csr_matmul, CSR_MATMUL)

static PyMethodDef cusolver_functions[] = {
    {"_cus_getrf", (PyCFunction)(void (*)(void))py_getrf, METH_FASTCALL,
     "_cus_getrf(a, ipiv, info): LU of each column-major matrix, in place."},
    {"_cus_getrs", (PyCFunction)(void (*)(void))py_getrs, METH_FASTCALL,
     "_cus_getrs(lu, ipiv, b, trans, info): solve with getrf's factors."},
    {"_cus_potrf", (PyCFunction)(void (*)(void))py_potrf, METH_FASTCALL,
     "_cus_potrf(a, lower, info): Cholesky factors, in place."},
    {"_cus_syevd", (PyCFunction)(void (*)(void))py_syevd, METH_FASTCALL,
     "_cus_syevd(a, w, lower, vectors, info): Hermitian eigenproblems."},
    {"_cus_gesvd", (PyCFunction)(void (*)(void))py_gesvd, METH_FASTCALL,
     "_cus_gesvd(a, s, u, vt, full, info): singular value decompositions."},
    {"_cus_geqrf", (PyCFunction)(void (*)(void))py_geqrf, METH_FASTCALL,
     "_cus_geqrf(a, tau, info): QR factorisations, in place."},
    {"_cus_orgqr", (PyCFunction)(void (*)(void))py_orgqr, METH_FASTCALL,
     "_cus_orgqr(a, tau, info): Q's columns from geqrf's reflectors."},
    {"_cus_geev", (PyCFunction)(void (*)(void))py_geev, METH_FASTCALL,
     "_cus_geev(a, w, vr, info): general eigenproblems."},
    {"_cus_csrlsvqr", (PyCFunction)(void (*)(void))py_csrlsvqr, METH_FASTCALL,
     "_cus_csrlsvqr(data, indptr, indices, b, x, tol, reorder): sparse QR "
     "solve of one CSR system; the first zero pivot's row, or -1."},
    {"_cus_csr_matmul", (PyCFunction)(void (*)(void))py_csr_matmul,
     METH_FASTCALL, "_cus_csr_matmul(data, indices, indptr, x, y, ncols, "
     "transpose): y = A x (or A^T x) for a CSR matrix, by cuSPARSE."},
    {NULL, NULL, 0, NULL},
};

int empy_cusolver_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, cusolver_functions);
}
