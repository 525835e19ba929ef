/* ember.scipy.sparse: products of a CSR matrix with dense operands, one
 * thread a row of the result (grid-stride over rows, and over the dense
 * operand's columns for a matrix):
 *   y[i][j] = sum over p in [indptr[i], indptr[i + 1]) of
 *             data[p] * x[indices[p]][j]
 * with x a C-contiguous (ncols, k) array (k = 1 for a vector). */
template <typename T>
__global__ void em_csr_matmul(const T *data, const long long *indices,
                              const long long *indptr, long long nrows,
                              const T *x, long long k, T *y)
{
    long long total = nrows * k;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         e < total; e += (long long)gridDim.x * blockDim.x) {
        long long i = e / k, j = e % k;
        T acc = 0;
        for (long long p = indptr[i]; p < indptr[i + 1]; p++)
            acc += data[p] * x[indices[p] * k + j];
        y[e] = acc;
    }
}
