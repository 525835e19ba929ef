/* ember.scipy.sparse: products of a CSR matrix with dense operands on the
 * host, and of integer values on a GPU (cuSPARSE has the floating ones there),
 *   y[i][j] = sum over p in [indptr[i], indptr[i + 1]) of
 *             data[p] * x[indices[p]][j]
 * with x a C-contiguous (ncols, k) array (k = 1 for a vector). T is the
 * value type, I the index type (int or long long, as SciPy picks it). */

/* One thread a result element, grid-stride (the host backend's threads run
 * one after another, so nothing is gained by splitting a row). */
template <typename T, typename I>
__global__ void em_csr_matmul(const T *data, const I *indices, const I *indptr,
                              long long nrows, const T *x, long long k, T *y)
{
    long long total = nrows * k;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         e < total; e += (long long)gridDim.x * blockDim.x) {
        long long i = e / k, j = e % k;
        T acc = 0;
        for (I p = indptr[i]; p < indptr[i + 1]; p++)
            acc += data[p] * x[(long long)indices[p] * k + j];
        y[e] = acc;
    }
}
