/* ember.scipy.sparse: products of a CSR matrix with dense operands,
 *   y[i][j] = sum over p in [indptr[i], indptr[i + 1]) of
 *             data[p] * x[indices[p]][j]
 * with x a C-contiguous (ncols, k) array (k = 1 for a vector). T is the
 * value type, I the index type (int or long long, as SciPy picks it). */

/* One thread a result element, grid-stride: the dense-matrix product, and
 * every product on the host backend (whose threads run one after another,
 * so nothing is gained by splitting a row). */
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

#ifdef __CUDACC__
/* The vector product on the GPU: w lanes a row (w a power of two up to 32,
 * about the mean row length), so a warp reads a row's data and indices in
 * whole 128-byte lines instead of each thread walking its own row; the
 * lanes' partial sums meet through shuffles. A warp's rows advance
 * together, so every lane reaches the shuffles. */
template <typename T, typename I>
__global__ void em_csr_spmv(const T *data, const I *indices, const I *indptr,
                            long long nrows, const T *x, int w, T *y)
{
    long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32, sub = lane % w, per_warp = 32 / w;
    long long warps = (long long)gridDim.x * blockDim.x / 32;
    for (long long r0 = tid / 32 * per_warp; r0 < nrows;
         r0 += warps * per_warp) {
        long long i = r0 + lane / w;
        I start = 0, end = 0;
        if (i < nrows) {
            start = indptr[i];
            end = indptr[i + 1];
        }
        T acc = 0;
        for (I p = start + sub; p < end; p += w)
            acc += data[p] * x[indices[p]];
        for (int o = w / 2; o > 0; o /= 2)
            acc += __shfl_down_sync(0xffffffffu, acc, o, w);
        if (sub == 0 && i < nrows)
            y[i] = acc;
    }
}
#endif
