/* ember: dense linear algebra through LAPACK (the math layer).
 *
 * Each function takes a stack of matrices, a (..., M, N) array of dtype
 * float32, float64, complex64 or complex128 with any strides, loops over
 * the leading (batch) axes in C and calls one LAPACK routine a matrix,
 * checking its info. Operands of one call share the batch shape (the
 * caller broadcasts; a broadcast operand's zero strides are fine) and the
 * dtype. Results are new C-contiguous arrays on a's device, written into
 * the zeroed em_array the caller passes; a NULL result pointer means that
 * result is not wanted (and, where it is a factor, not computed).
 *
 * On the cpu device LAPACK is OpenBLAS from the scipy-openblas64 wheel
 * (em_vendor_open(EM_VENDOR_OPENBLAS)); a missing library is
 * EM_ERR_UNAVAILABLE naming the pip package. LAPACK overwrites its input,
 * so each matrix is copied once, into the result when the result can hold
 * the factorisation (cholesky), else into a Fortran-ordered workspace. On cuda every function is EM_ERR_NOT_SUPPORTED (cuSOLVER is
 * not wired yet).
 *
 * Failures as numpy.linalg reports them: a singular matrix (solve, inv),
 * one not positive definite (cholesky) or an iteration that did not
 * converge (eig*, svd, lstsq) is EM_ERR_LINALG with NumPy's message; too
 * few dimensions or a non-square matrix where one must be square is
 * EM_ERR_LINALG as well (NumPy raises LinAlgError for both); another dtype
 * is EM_ERR_TYPE; mismatched shapes are EM_ERR_INVALID_VALUE.
 */
#ifndef EMBER_LAPACK_H
#define EMBER_LAPACK_H

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x = a^-1 b for a (..., n, n) and b (..., n, k); x is (..., n, k). */
em_status em_linalg_solve(const em_array *a, const em_array *b, em_array *x);

/* out = a^-1, (..., n, n). */
em_status em_linalg_inv(const em_array *a, em_array *out);

/* From an LU factorisation of each (..., n, n) matrix: sign (a's dtype;
 * for complex a the unit-modulus phase) and logabs (the real dtype), as
 * numpy.linalg.slogdet, and det = sign * exp(logabs), as numpy.linalg.det
 * computes it. A singular matrix gives sign 0, logabs -inf, det 0. Any of
 * the three may be NULL. */
em_status em_linalg_det(const em_array *a, em_array *det, em_array *sign,
                        em_array *logabs);

/* The Cholesky factor of each Hermitian positive-definite (..., n, n)
 * matrix: lower L with a = L L^H read from a's lower triangle, or, when
 * upper, U with a = U^H U read from its upper triangle; the other
 * triangle of the result is zero. */
em_status em_linalg_cholesky(const em_array *a, int upper, em_array *out);

/* numpy.linalg.qr's modes, for a (..., m, n) and k = min(m, n). */
typedef enum em_qr_mode {
    EM_QR_REDUCED = 0, /* q (..., m, k), r (..., k, n) */
    EM_QR_COMPLETE,    /* q (..., m, m), r (..., m, n) */
    EM_QR_R,           /* r (..., k, n) only (q must be NULL) */
    EM_QR_RAW          /* q gets h (..., n, m): geqrf's Fortran-ordered
                          output read in C order; r gets tau (..., k) */
} em_qr_mode;
em_status em_linalg_qr(const em_array *a, em_qr_mode mode, em_array *q,
                       em_array *r);

/* Eigenvalues w (..., n) in ascending order (the real dtype) and, when v
 * is not NULL, orthonormal eigenvectors as v's columns, of each Hermitian
 * (..., n, n) matrix read from its lower (lower != 0) or upper triangle. */
em_status em_linalg_eigh(const em_array *a, int lower, em_array *w,
                         em_array *v);

/* Eigenvalues w (..., n) and, when v is not NULL, right eigenvectors as
 * v's columns (unit 2-norm), of general square matrices; both complex
 * (complex64 for float32 and complex64 input). Real input's conjugate
 * pairs are expanded as numpy.linalg.eig does; the caller may then drop
 * an imaginary part that is zero everywhere, as NumPy does. */
em_status em_linalg_eig(const em_array *a, em_array *w, em_array *v);

/* Singular values s (..., k) in descending order (the real dtype), and
 * when u and vh are not NULL the singular vectors: u (..., m, m) and vh
 * (..., n, n) when full, else u (..., m, k) and vh (..., k, n). */
em_status em_linalg_svd(const em_array *a, int full, em_array *s, em_array *u,
                        em_array *vh);

/* Minimum-norm least squares (gelsd) for a (..., m, n), b (..., m, k):
 * x (..., n, k); resid (..., k), the real dtype, the squared 2-norms of
 * the residual columns b - a x as LAPACK leaves them (meaningful where
 * m > n and the rank is n); rank (..., ) int64; s (..., min(m, n)), a's
 * singular values. Singular values at most rcond times the largest count
 * as zero (rcond < 0: machine precision). */
em_status em_linalg_lstsq(const em_array *a, const em_array *b, double rcond,
                          em_array *x, em_array *resid, em_array *rank,
                          em_array *s);

/* The raw LU pair, with cuSOLVER's conventions (ember/cusolver.h's
 * em_cusolver_getrf and em_cusolver_getrs), for scipy.linalg's lu_factor
 * and lu_solve on the cpu device: in place on writeable C-contiguous
 * stacks of column-major matrices ((batch..., cols, rows) in C order),
 * LAPACK's info of each matrix into the int32 (batch...) array info
 * (positive: U's first zero diagonal entry, 1-based), not raised.
 * getrf factors each rows x cols matrix of a (rectangular allowed) into
 * P L U, ipiv an int64 (batch..., min(rows, cols)) array of 1-based
 * pivots. getrs solves op(A) X = B with getrf's factors of square
 * matrices; b is (batch..., nrhs, n), overwritten by X; trans 0 (A),
 * 1 (A^T) or 2 (A^H). */
em_status em_linalg_getrf(em_array *a, em_array *ipiv, em_array *info);
em_status em_linalg_getrs(const em_array *lu, const em_array *ipiv,
                          em_array *b, int trans, em_array *info);


/* The Schur family's raw calls, for scipy.linalg's schur, hessenberg, qz,
 * ordqz, ldl and the matrix equation solvers on the cpu device. As
 * getrf's: in place on writeable C-contiguous stacks of column-major
 * n x n matrices ((batch..., n, n) in C order), every result made by the
 * caller, LAPACK's info of each matrix into an int32 (batch...) array,
 * not raised. Eigenvalue outputs (w, alpha) are complex (complex64 for
 * float32 and complex64 matrices), beta of the matrices' dtype.
 *
 * gees: the Schur form T into a, Schur vectors into vs, eigenvalues w
 * (batch..., n), unsorted. trsen: reorders such a (t, q) pair so that the
 * eigenvalues whose int64 select (batch..., n) entry is nonzero lead; w
 * gets the new order, m (int64, batch...) their count (a real pair that
 * is partly selected moves whole, as LAPACK does). gehrd: the Hessenberg
 * form into a (zeros below the subdiagonal) and, when q is not NULL, the
 * unitary q with a = q h q^H. gges: the generalized Schur forms of (a, b)
 * in place, vsl and vsr the left and right Schur vectors, alpha/beta the
 * generalized eigenvalues. tgsen: gges's output reordered by select as
 * trsen does. sytrf: the Bunch-Kaufman factorisation of a symmetric
 * (hermitian = 0) or Hermitian matrix read from the lower (lower != 0)
 * or upper triangle, LAPACK's ipiv (int64, batch..., n) as it leaves it.
 * trsyl: solves op(a) x + isgn x op(b) = scale c for quasi-triangular a
 * (m x m) and b (n x n), c (m x n) overwritten by x, scale (the real
 * dtype, batch...); trana/tranb 0 (N), 1 (T; real only) or 2 (C). gebal: balances
 * a by diagonal scaling only (job 'S', no permutation), the factors into
 * scale (the real dtype, batch..., n). */
em_status em_linalg_gees(em_array *a, em_array *w, em_array *vs,
                         em_array *info);
em_status em_linalg_trsen(em_array *t, em_array *q, const em_array *select,
                          em_array *w, em_array *m, em_array *info);
em_status em_linalg_gehrd(em_array *a, em_array *q, em_array *info);
em_status em_linalg_gges(em_array *a, em_array *b, em_array *alpha,
                         em_array *beta, em_array *vsl, em_array *vsr,
                         em_array *info);
em_status em_linalg_tgsen(em_array *a, em_array *b, em_array *q, em_array *z,
                          const em_array *select, em_array *alpha,
                          em_array *beta, em_array *info);
em_status em_linalg_sytrf(em_array *a, int lower, int hermitian,
                          em_array *ipiv, em_array *info);
em_status em_linalg_trsyl(const em_array *a, const em_array *b, em_array *c,
                          int trana, int tranb, int isgn, em_array *scale,
                          em_array *info);
em_status em_linalg_gebal(em_array *a, em_array *scale, em_array *info);

#ifdef __cplusplus
}
#endif
#endif
