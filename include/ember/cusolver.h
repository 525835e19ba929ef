/* ember: dense factorisations on CUDA devices through cuSOLVER (the math
 * layer), as raw calls that python/ember/_api/linalg.py composes into
 * numpy.linalg's functions on cuda (the cpu device's are LAPACK's, in
 * lapack.h).
 *
 * Every call takes a stack of column-major matrices: a C-contiguous
 * (batch..., cols, rows) array holds, for each batch entry, a rows x cols
 * matrix in column-major order (so a C-ordered matrix is its own
 * transpose's column-major form). The dtypes are float32, float64,
 * complex64 and complex128, one per call; each call loops over the batch
 * with one workspace, queued on the thread's current stream of the
 * arrays' device (else its default). LAPACK's info of entry i goes to
 * info[i] (an int32 array of the batch's size), left on the device for
 * the caller to check: a positive value is a singular matrix (getrf), one
 * not positive definite (potrf) or a failed convergence (syevd, gesvd).
 * cuSOLVER is opened at run time (em_vendor_open(EM_VENDOR_CUSOLVER)); a
 * missing library is EM_ERR_UNAVAILABLE naming the pip package. On cpu
 * every call is EM_ERR_NOT_SUPPORTED.
 */
#ifndef EMBER_CUSOLVER_H
#define EMBER_CUSOLVER_H

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* LU with partial pivoting of each rows x cols matrix of a (rectangular
 * allowed: scipy.linalg.lu), in place; ipiv is an int64 (batch...,
 * min(rows, cols)) array of LAPACK's 1-based pivots. */
em_status em_cusolver_getrf(em_array *a, em_array *ipiv, em_array *info);

/* Solve op(A) X = B for each batch entry with getrf's lu and ipiv; b is a
 * (batch..., nrhs, n) stack, overwritten by X; trans 0 (A), 1 (A^T) or 2
 * (A^H). */
em_status em_cusolver_getrs(const em_array *lu, const em_array *ipiv,
                            em_array *b, int trans, em_array *info);

/* Cholesky factor of each Hermitian positive definite matrix of a, in
 * place, in its lower (lower != 0) or upper triangle; the other triangle
 * is left as it was. */
em_status em_cusolver_potrf(em_array *a, int lower, em_array *info);

/* Eigenvalues (ascending, into the real (batch..., n) array w) of each
 * Hermitian matrix of a, read from its lower or upper triangle; with
 * vectors the eigenvectors replace a (columns), else a is destroyed. */
em_status em_cusolver_syevd(em_array *a, em_array *w, int lower, int vectors,
                            em_array *info);

/* Eigenvalues and right eigenvectors of each general n x n matrix of a
 * (destroyed), cuSOLVER's geev (LAPACK's normalisation: unit norm, the
 * largest component real). For complex a, w is (batch..., n) of a's dtype
 * and vr (batch..., n, n) holds the vectors as columns. For real a, w is
 * real (batch..., 2n), the real parts then the imaginary parts, and vr is
 * real with LAPACK's packing: a conjugate pair j, j + 1 (imaginary part of
 * w[j] > 0) has vectors vr[j] +- i vr[j + 1]. vr NULL: values only.
 * cuSOLVER before 11.7 (CUDA 12.6) has no geev: EM_ERR_NOT_SUPPORTED. */
em_status em_cusolver_geev(em_array *a, em_array *w, em_array *vr,
                           em_array *info);

/* Solve A x = b for one square sparse matrix in CSR form (float32,
 * float64, complex64 or complex128 data, b and x of the same dtype;
 * zero-based int32 indptr and indices, no duplicates) by cuSOLVER's
 * sparse QR (cusolverSp csrlsvqr), on the thread's current stream of the
 * arrays' device. A diagonal of R whose magnitude is at or below tol
 * counts as zero; reorder is 0 (none), 1 (symrcm), 2 (symamd) or 3 (metis).
 * *singular is -1 for an invertible A, else the first zero pivot's row
 * (x is then undefined). The call returns once x is computed: cuSOLVER's
 * sparse API reports singularity to the host. */
em_status em_cusolver_csrlsvqr(const em_array *data, const em_array *indptr,
                               const em_array *indices, const em_array *b,
                               double tol, int reorder, em_array *x,
                               int *singular);

/* Singular values (descending, into the real (batch..., n) array s) of
 * each m x n matrix of a, m >= n (cuSOLVER's gesvd has only that case),
 * destroying a; with u and vt (not NULL) the left vectors, (batch...,
 * k, m) with k = m when full else n, and the right ones transposed,
 * (batch..., n, n). */
em_status em_cusolver_gesvd(em_array *a, em_array *s, em_array *u,
                            em_array *vt, int full, em_array *info);

/* QR of each m x n matrix of a (a (batch..., n, m)), in place: R in the
 * upper triangle, the Householder reflectors below it, their scales in
 * tau (batch..., min(m, n)). */
em_status em_cusolver_geqrf(em_array *a, em_array *tau, em_array *info);

/* The first n columns of Q from geqrf's reflectors, in place: a is
 * (batch..., n, m) holding them in its first k = tau's length columns,
 * m >= n >= k. */
em_status em_cusolver_orgqr(em_array *a, const em_array *tau, em_array *info);

#ifdef __cplusplus
}
#endif
#endif
