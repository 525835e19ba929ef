/* ember.ml.neighbors on cpu: the k smallest scores of each row of a block
 * with their column indices, ascending, ties by index, as
 * kernels/topk_rows.cuh with one thread a row (the order of a stable
 * sort): the scores are S + add[None, :] (S b x n in C order; add the
 * training rows' squared norms, added as the block is read). A block is
 * rows blockIdx.x, blockIdx.x + gridDim.x, ... on the host's thread pool;
 * no barrier, so no fibers.
 *
 * Once the row's first k scores are in the sorted list, almost every
 * later score is not below the list's last one; so the scan compares 4
 * vectors of scores with that bound at once and looks at single lanes
 * only when one of the 32 bytes x 4 is below it. topk_rows.cuh's one
 * compare-and-branch a score took as long as the GEMM that made the
 * scores (88 of 186 ms for 2,000 x 20,000, k=10, on one core). */

template <typename T>
struct em_tkh_vec {
    typedef T v __attribute__((vector_size(32), aligned(sizeof(T))));
    enum { n = 32 / sizeof(T) };
};

/* x at column j into the sorted (value, index) list of cnt <= k entries:
 * after any equal values, so equal scores keep their columns' order */
template <typename T>
static inline void em_tkh_insert(T *v, long long *ix, int *cnt, int k, T x, long long j)
{
    int p = *cnt < k ? (*cnt)++ : k - 1;
    while (p > 0 && x < v[p - 1]) {
        v[p] = v[p - 1];
        ix[p] = ix[p - 1];
        p--;
    }
    v[p] = x;
    ix[p] = j;
}

template <typename T, int KMAX>
__global__ void em_topk_host(const T *S, const T *add, long long b, long long n, int k,
                             T *out_v, long long *out_i)
{
    typedef typename em_tkh_vec<T>::v V;
    typedef decltype(V{} < V{}) I;
    const int L = em_tkh_vec<T>::n, STEP = 4 * L;
    for (long long r = blockIdx.x; r < b; r += gridDim.x) {
        const T *row = S + r * n;
        T v[KMAX];
        long long ix[KMAX];
        int cnt = 0;
        long long j = 0;
        for (; j < n && cnt < k; j++)
            em_tkh_insert(v, ix, &cnt, k, row[j] + add[j], j);
        for (; j + STEP <= n; j += STEP) {
            V x[4];
            for (int q = 0; q < 4; q++)
                x[q] = *(const V *)(row + j + q * L) + *(const V *)(add + j + q * L);
            const T bound = v[k - 1];
            const I m = (x[0] < bound) | (x[1] < bound) | (x[2] < bound) | (x[3] < bound);
            long long w[4];
            __builtin_memcpy(w, &m, sizeof w);
            if (!(w[0] | w[1] | w[2] | w[3]))
                continue;
            for (int q = 0; q < 4; q++)
                for (int l = 0; l < L; l++)
                    if (x[q][l] < v[k - 1])
                        em_tkh_insert(v, ix, &cnt, k, x[q][l], j + q * L + l);
        }
        for (; j < n; j++) {
            const T x = row[j] + add[j];
            if (x < v[k - 1])
                em_tkh_insert(v, ix, &cnt, k, x, j);
        }
        /* a row shorter than k: the rest as topk_rows.cuh leaves it */
        for (int i = 0; i < k; i++) {
            out_v[r * k + i] = i < cnt ? v[i] : (T)0;
            out_i[r * k + i] = i < cnt ? ix[i] : -1;
        }
    }
}
