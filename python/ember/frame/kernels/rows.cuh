/* ember.frame's row kernels share one geometry (_kernels.geometry): with
 * chunk > 0 (cpu) block b takes rows [b * chunk, (b + 1) * chunk) in
 * order, one thread a block, so a pool thread walks memory in order;
 * chunk == 0 (cuda) is the grid-stride loop of coalesced loads.
 * _kernels.source puts this file before each kernel file. */

/* This thread's rows: i = *a; i < *e; i += *s. */
__device__ __forceinline__ void em_rows_range(long long n, long long chunk, long long *a,
                                              long long *e, long long *s)
{
    if (chunk > 0) {
        *a = (long long)blockIdx.x * chunk;
        *e = n - *a < chunk ? n : *a + chunk;
        *s = 1;
    } else {
        *a = (long long)blockIdx.x * blockDim.x + threadIdx.x;
        *e = n;
        *s = (long long)gridDim.x * blockDim.x;
    }
}
