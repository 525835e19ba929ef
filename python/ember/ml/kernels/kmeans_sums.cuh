/* ember.ml.cluster on a GPU: the update half of a Lloyd iteration, the
 * weighted sum of the rows of each cluster and the cluster's weight
 * (python/ember/ml/cluster/_lloyd.py), X read once, no atomics.
 *
 * Block b takes the rows [b * rpb, (b + 1) * rpb); its warps take them in
 * turn (warp w rows w, w + W, ...), each warp into its own k x (d + 1)
 * accumulators in dynamic shared memory (column d is the weight). A lane
 * owns columns lane, lane + 32, ... of every accumulator row, so a warp
 * adds a row with one coalesced read of it and one conflict-free
 * read-modify-write of shared memory, and every slot receives its rows
 * in the same order on every run. U rows are read before any is added,
 * to keep loads in flight. At the end the block adds its W accumulators
 * in warp order and writes them once, part[b]: the rows of part are then
 * added in order by kernels/kmeans_finish.cuh, so float32 sums come out
 * bit-equal run to run. */

template <typename T, int U>
__global__ void em_kmeans_sums(const T *X, const long long *labels, const T *w,
                               int has_w, long long n, int d, int k,
                               long long rpb, T *part)
{
    extern __shared__ __align__(16) unsigned char em_kms_smem[];
    T *acc = (T *)em_kms_smem;
    const int W = blockDim.x / 32;
    const int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
    const int k1 = k * (d + 1);
    for (int i = threadIdx.x; i < W * k1; i += blockDim.x)
        acc[i] = (T)0;
    __syncthreads();
    T *a = acc + (long long)wp * k1;
    const long long s = (long long)blockIdx.x * rpb;
    const long long e = s + rpb < n ? s + rpb : n;
    for (long long r = s + wp; r < e; r += (long long)W * U) {
        long long lab[U];
        T wt[U];
        for (int u = 0; u < U; u++) {
            const long long rr = r + (long long)u * W;
            lab[u] = rr < e ? labels[rr] : -1;
            wt[u] = rr < e ? (has_w ? w[rr] : (T)1) : (T)0;
        }
        for (int c = lane; c <= d; c += 32) {
            T xv[U];
            for (int u = 0; u < U; u++) {
                const long long rr = r + (long long)u * W;
                xv[u] = c == d ? (T)1 : (rr < e ? X[rr * d + c] : (T)0);
            }
            for (int u = 0; u < U; u++)
                if (lab[u] >= 0)
                    a[lab[u] * (d + 1) + c] += xv[u] * wt[u];
        }
    }
    __syncthreads();
    T *pb = part + (long long)blockIdx.x * k1;
    for (int i = threadIdx.x; i < k1; i += blockDim.x) {
        T v = acc[i];
        for (int q = 1; q < W; q++)
            v += acc[(long long)q * k1 + i];
        pb[i] = v;
    }
}
