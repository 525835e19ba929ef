/* ember.ml.cluster on cpu: a Lloyd iteration's work on one chunk of rows
 * after the BLAS has scored it (D = Xb @ (-2 C^T), b x k, a chunk sized
 * to stay in cache; python/ember/ml/cluster/_lloyd.py). Each block is one
 * thread taking a contiguous run of rpb rows of the chunk: the argmin of
 * D[r] + ||c||^2 (ties to the lowest index, as scikit-learn), the label,
 * whether it moved since the previous iteration, and, with sums, the row
 * times its weight added to the block's own k x (d + 1) partial sums
 * part[blockIdx] (column d the weight). Block g adds to part[g] on every
 * chunk, so each slot gets its rows in the same order every run and
 * kernels/kmeans_finish.cuh adds the G partials in order: no atomics but
 * the one integer add of the moved count. No barrier, so the host runs
 * the blocks as plain loops on its thread pool (no fibers). */

template <typename T>
__global__ void em_kmeans_host_chunk(const T *D, const T *cc, const T *X, const T *w,
                                     int has_w, long long b, int d, int k,
                                     long long rpb, long long *labels,
                                     const long long *old, int has_old,
                                     unsigned long long *changed, int sums, T *part)
{
    const long long s = (long long)blockIdx.x * rpb;
    const long long e = s + rpb < b ? s + rpb : b;
    T *acc = part + (long long)blockIdx.x * k * (d + 1);
    unsigned long long moved = 0;
    for (long long r = s; r < e; r++) {
        const T *dr = D + r * k;
        T best = dr[0] + cc[0];
        int bj = 0;
        for (int j = 1; j < k; j++) {
            const T sc = dr[j] + cc[j];
            if (sc < best) {
                best = sc;
                bj = j;
            }
        }
        labels[r] = bj;
        if (has_old && old[r] != bj)
            moved++;
        if (sums) {
            const T wt = has_w ? w[r] : (T)1;
            T *a = acc + (long long)bj * (d + 1);
            const T *x = X + r * d;
            if (has_w)
                for (int f = 0; f < d; f++)
                    a[f] += x[f] * wt;
            else
                for (int f = 0; f < d; f++)
                    a[f] += x[f];
            a[d] += wt;
        }
    }
    if (moved)
        atomicAdd(changed, moved);
}
