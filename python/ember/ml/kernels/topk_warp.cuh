/* ember.ml.neighbors on a GPU: the k smallest scores of each row of a
 * block, with their column indices, ascending, ties by index (the order
 * of a stable sort). The scores are S + add[None, :] (S b x n in C order;
 * add holds the training rows' squared norms, added as the GEMM's block
 * is read). python/ember/ml/neighbors/_search.py launches it on cuda;
 * cpu keeps kernels/topk_rows.cuh with one thread a row.
 *
 * One warp a row, so the row is streamed once in coalesced 128-byte
 * loads, UNROLL loads a lane in flight while the previous UNROLL are
 * looked at (the pass is bound by memory latency otherwise). The k best so far live in the
 * warp's registers, KPL a lane: position p = lane * KPL + s. A candidate
 * is rejected by one compare with the k-th best (thr), the common case
 * after the first few chunks; the few that pass are found by a ballot and
 * inserted one at a time, in column order, after the entries they equal:
 * their position is the count of entries <= them (a ballot per slot), and
 * the entries past it move up one place (a shuffle from the lane below).
 * No shared memory, no block barrier. */

/* ADD false: the scores are S alone (add unread), as when the GEMM has
 * already summed the norms in (python/ember/ml/neighbors/_split.py), so a
 * load a score rather than two. */
template <typename T, int KPL, int WARPS, int UNROLL, bool ADD>
__global__ void em_topk_warp(const T *S, const T *add, long long b,
                             long long n, int k, T *out_v, long long *out_i)
{
    const unsigned full = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    /* the slot and lane holding position k - 1 (thr's source) */
    const int ks = (k - 1) % KPL, kl = (k - 1) / KPL;
    for (long long r = (long long)blockIdx.x * WARPS + warp; r < b;
         r += (long long)gridDim.x * WARPS) {
        const T *row = S + r * n;
        T v[KPL];
        long long ix[KPL];
        for (int s = 0; s < KPL; s++) {
            v[s] = (T)0;
            ix[s] = -1;
        }
        int cnt = 0; /* entries held, warp-uniform, at most k */
        T thr = (T)0;
        /* the next chunk's loads are issued before this chunk is looked
         * at, so the memory's latency overlaps the compares */
        T nx[UNROLL];
        for (int u = 0; u < UNROLL; u++) {
            const long long j = u * 32 + lane;
            nx[u] = j < n ? (ADD ? row[j] + add[j] : row[j]) : (T)0;
        }
        for (long long j0 = 0; j0 < n; j0 += 32 * UNROLL) {
            T x[UNROLL];
            for (int u = 0; u < UNROLL; u++)
                x[u] = nx[u];
            if (j0 + 32 * UNROLL < n)
                for (int u = 0; u < UNROLL; u++) {
                    const long long j = j0 + 32 * UNROLL + u * 32 + lane;
                    nx[u] = j < n ? (ADD ? row[j] + add[j] : row[j]) : (T)0;
                }
            for (int u = 0; u < UNROLL; u++) {
                const long long j = j0 + u * 32 + lane;
                unsigned m = __ballot_sync(full, j < n && (cnt < k || x[u] < thr));
                while (m) {
                    const int src = __ffs(m) - 1;
                    m &= m - 1;
                    const T xv = __shfl_sync(full, x[u], src);
                    /* an insertion earlier in this chunk may have lowered thr */
                    if (cnt == k && !(xv < thr))
                        continue;
                    int pos = 0;
                    for (int s = 0; s < KPL; s++)
                        pos += __popc(__ballot_sync(full, lane * KPL + s < cnt &&
                                                              v[s] <= xv));
                    const T upv = __shfl_up_sync(full, v[KPL - 1], 1);
                    const long long upi = __shfl_up_sync(full, ix[KPL - 1], 1);
                    for (int s = KPL - 1; s >= 0; s--) {
                        const int p = lane * KPL + s;
                        if (p > pos) {
                            v[s] = s ? v[s > 0 ? s - 1 : 0] : upv;
                            ix[s] = s ? ix[s > 0 ? s - 1 : 0] : upi;
                        } else if (p == pos) {
                            v[s] = xv;
                            ix[s] = j0 + u * 32 + src;
                        }
                    }
                    if (cnt < k)
                        cnt++;
                    if (cnt == k) {
                        T tv = v[0];
                        for (int s = 1; s < KPL; s++)
                            if (s == ks)
                                tv = v[s];
                        thr = __shfl_sync(full, tv, kl);
                    }
                }
            }
        }
        for (int s = 0; s < KPL; s++) {
            const int p = lane * KPL + s;
            if (p < k) {
                out_v[r * k + p] = v[s];
                out_i[r * k + p] = ix[s];
            }
        }
    }
}
