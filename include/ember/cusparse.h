/* ember: sparse-times-dense products on CUDA devices through cuSPARSE's
 * generic API (the math layer), as the raw call that
 * python/ember/scipy/sparse.py makes for `@` of a CSR matrix with a
 * vector or a dense matrix on cuda (the cpu device's product is ember's
 * own threaded kernel, kernels/spmv.cuh there).
 *
 * cuSPARSE is opened at run time (em_vendor_open(EM_VENDOR_CUSPARSE)); a
 * missing library is EM_ERR_UNAVAILABLE naming the pip package
 * nvidia-cusparse. On cpu the call is EM_ERR_NOT_SUPPORTED.
 */
#ifndef EMBER_CUSPARSE_H
#define EMBER_CUSPARSE_H

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* y = op(A) x for A an m x ncols matrix in zero-based CSR form: data (nnz
 * values: float32, float64, complex64 or complex128), indices (nnz column
 * indices) and indptr (m + 1 row offsets), the two index arrays both int32
 * or both int64; duplicates are summed and a row's indices may come in any
 * order. op(A) is A, or with transpose A^T (not conjugated: a CSC matrix's
 * arrays are the CSR form of its transpose), p x q. x is a C-contiguous
 * vector (q) or matrix (q, k), y the writeable C-contiguous (p) or (p, k)
 * result, all of data's dtype, on one CUDA device. A vector (or k == 1)
 * goes through cusparseSpMV, else cusparseSpMM on row-major operands;
 * with transpose only the vector product (k == 1) is there, else
 * EM_ERR_NOT_SUPPORTED. The work is queued on the thread's current stream
 * of that device (else its default), the workspace taken from ember's pool
 * on that stream. */
em_status em_cusparse_csr_matmul(const em_array *data, const em_array *indices,
                                 const em_array *indptr, int64_t ncols,
                                 int transpose, const em_array *x,
                                 em_array *y);

#ifdef __cplusplus
}
#endif
#endif
