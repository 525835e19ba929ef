/* ember.scipy.signal: direct 2-D convolution, one thread an output
 * element (grid-stride), for convolve2d and correlate2d (which passes the
 * kernel flipped and conjugated).
 *
 * out[oi][oj] is element (oi + i0, oj + j0) of the full convolution,
 *   sum over u < P, v < Q of a[i - u][j - v] * k[u][v],
 * a's out-of-range elements given by the boundary: 0 fill (fillvalue),
 * 1 wrap (circular), 2 symm (mirrored, the edge repeated). */
/* An index outside [0, n) folded back in: wrap (1) or symm (2). */
__device__ __forceinline__ long long em_conv_index(long long x, long long n,
                                                    int boundary)
{
    if (boundary == 1) {
        x %= n;
        return x < 0 ? x + n : x;
    }
    x %= 2 * n;
    if (x < 0)
        x += 2 * n;
    return x < n ? x : 2 * n - 1 - x;
}

template <typename T>
__global__ void em_conv2d(const T *a, long long M, long long N, const T *k,
                          long long P, long long Q, T *out, long long OM,
                          long long ON, long long i0, long long j0,
                          int boundary, T fill)
{
    long long total = OM * ON;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         e < total; e += (long long)gridDim.x * blockDim.x) {
        long long i = e / ON + i0, j = e % ON + j0;
        T acc = 0;
        for (long long u = 0; u < P; u++) {
            long long ai = i - u;
            if (ai < 0 || ai >= M) {
                if (boundary == 0) {
                    for (long long v = 0; v < Q; v++)
                        acc += fill * k[u * Q + v];
                    continue;
                }
                ai = em_conv_index(ai, M, boundary);
            }
            for (long long v = 0; v < Q; v++) {
                long long aj = j - v;
                T x;
                if (aj >= 0 && aj < N)
                    x = a[ai * N + aj];
                else if (boundary == 0)
                    x = fill;
                else
                    x = a[ai * N + em_conv_index(aj, N, boundary)];
                acc += x * k[u * Q + v];
            }
        }
        out[e] = acc;
    }
}
