/* ember.ml.neighbors: the k smallest scores of each row of a block, with
 * their column indices, ascending, ties by index. The scores are
 * S + add[None, :] (S b x n in C order): the training rows' squared norms
 * are added as the GEMM's block is read (python/ember/ml/neighbors/
 * _search.py). One block of THREADS threads a row: each thread keeps a
 * sorted list of the k best of the columns it strides over (columns in
 * increasing order, a new value goes after equal ones, so each list is
 * ordered by (value, index)); then k rounds merge the THREADS lists, each
 * round a shared-memory minimum of the list heads by (value, index). The
 * block is read once, where k argmin passes read it k times. On cpu
 * THREADS is 1: one thread scans its row and the merge is trivial, as the
 * block simulator's fibers would cost more than they share. */

template <typename T, int KMAX, int THREADS>
__global__ void em_topk_rows(const T *S, const T *add, long long b,
                             long long n, int k, T *out_v, long long *out_i)
{
    __shared__ T hv[THREADS];
    __shared__ long long hi[THREADS];
    __shared__ int hw[THREADS];
    const int t = threadIdx.x;
    for (long long r = blockIdx.x; r < b; r += gridDim.x) {
        const T *row = S + r * n;
        T v[KMAX];
        long long ix[KMAX];
        int cnt = 0;
        for (long long j = t; j < n; j += THREADS) {
            const T x = row[j] + add[j];
            if (cnt == k && !(x < v[k - 1]))
                continue;
            int p = cnt < k ? cnt++ : k - 1;
            while (p > 0 && x < v[p - 1]) {
                v[p] = v[p - 1];
                ix[p] = ix[p - 1];
                p--;
            }
            v[p] = x;
            ix[p] = j;
        }
        int head = 0;
        for (int round = 0; round < k; round++) {
            hv[t] = head < cnt ? v[head] : (T)0;
            hi[t] = head < cnt ? ix[head] : -1;
            hw[t] = t;
            __syncthreads();
            for (int s = THREADS / 2; s > 0; s >>= 1) {
                if (t < s) {
                    const long long a = hi[t], c = hi[t + s];
                    /* -1 marks an empty list: it loses to any entry */
                    if (c >= 0 && (a < 0 || hv[t + s] < hv[t] ||
                                   (hv[t + s] == hv[t] && c < a))) {
                        hv[t] = hv[t + s];
                        hi[t] = c;
                        hw[t] = hw[t + s];
                    }
                }
                __syncthreads();
            }
            if (t == 0) {
                out_v[r * k + round] = hv[0];
                out_i[r * k + round] = hi[0];
            }
            if (t == hw[0])
                head++;
            __syncthreads();
        }
    }
}
