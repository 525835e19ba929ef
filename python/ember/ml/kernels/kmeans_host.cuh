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

/* GCC's vector extensions (this file is built by the host compiler only,
 * with -march=native): 32 bytes of T, loads at T's alignment */
template <typename T>
struct em_kmh_vec {
    typedef T v __attribute__((vector_size(32), aligned(sizeof(T))));
    enum { n = 32 / sizeof(T) };
};

/* the index of the smallest a[j] + b[j], j < k, the lowest among equals:
 * a branch-free vector pass for the minimum, then a scan to its first
 * occurrence (the same sums, so the equality is exact) */
template <typename T>
static inline int em_kmh_argmin(const T *a, const T *b, int k)
{
    typedef typename em_kmh_vec<T>::v V;
    const int L = em_kmh_vec<T>::n;
    T m = a[0] + b[0];
    int j = 0;
    if (k >= L) {
        V mv = *(const V *)a + *(const V *)b;
        for (j = L; j + L <= k; j += L) {
            const V x = *(const V *)(a + j) + *(const V *)(b + j);
            mv = x < mv ? x : mv;
        }
        m = mv[0];
        for (int l = 1; l < L; l++)
            m = mv[l] < m ? mv[l] : m;
    }
    for (; j < k; j++) {
        const T x = a[j] + b[j];
        m = x < m ? x : m;
    }
    j = 0;
    while (!(a[j] + b[j] == m))
        j++;
    return j;
}

/* acc[f] += x[f] * wt (wt 1: the plain sum), f < d, in vector steps */
template <typename T>
static inline void em_kmh_add(T *acc, const T *x, int d, int has_w, T wt)
{
    typedef typename em_kmh_vec<T>::v V;
    const int L = em_kmh_vec<T>::n;
    int f = 0;
    for (; f + L <= d; f += L) {
        V a = *(V *)(acc + f);
        const V xv = *(const V *)(x + f);
        a += has_w ? xv * wt : xv;
        *(V *)(acc + f) = a;
    }
    for (; f < d; f++)
        acc[f] += has_w ? x[f] * wt : x[f];
}

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
        const int bj = em_kmh_argmin(D + r * k, cc, k);
        labels[r] = bj;
        if (has_old && old[r] != bj)
            moved++;
        if (sums) {
            const T wt = has_w ? w[r] : (T)1;
            T *a = acc + (long long)bj * (d + 1);
            em_kmh_add(a, X + r * d, d, has_w, wt);
            a[d] += wt;
        }
    }
    if (moved)
        atomicAdd(changed, moved);
}

/* The whole assignment in the kernel, no BLAS: the scores of a row
 * against 4 vectors of centers at a time (CT, d x kp, the centers
 * transposed and padded with zeros to kp, a multiple of 4 vectors; cn the
 * squared norms, +inf on the padding so it never wins), ||c||^2 - 2 x.c as
 * on the GPU, then the argmin and the sums as above. The centers (d x kp)
 * stay in L1/L2 for every row, X is read once, and the GEMM's threads
 * never trade the cores with ember's pool (OpenBLAS's busy-waiting
 * threads made the BLAS path twice as slow on a loaded 2-core host).
 * kp <= EM_KMH_KP. */
#define EM_KMH_KP 1024

template <typename T>
static inline int em_kmh_argmin1(const T *a, int k)
{
    typedef typename em_kmh_vec<T>::v V;
    const int L = em_kmh_vec<T>::n;
    V mv = *(const V *)a;
    for (int j = L; j < k; j += L) {
        const V x = *(const V *)(a + j);
        mv = x < mv ? x : mv;
    }
    T m = mv[0];
    for (int l = 1; l < L; l++)
        m = mv[l] < m ? mv[l] : m;
    int j = 0;
    while (!(a[j] == m))
        j++;
    return j;
}

template <typename T>
__global__ void em_kmeans_host_fused(const T *X, const T *CT, const T *cn, const T *w,
                                     int has_w, long long n, int d, int k, int kp,
                                     long long rpb, long long *labels,
                                     const long long *old, int has_old,
                                     unsigned long long *changed, int sums, T *part)
{
    typedef typename em_kmh_vec<T>::v V;
    const int L = em_kmh_vec<T>::n;
    const long long s = (long long)blockIdx.x * rpb;
    const long long e = s + rpb < n ? s + rpb : n;
    T *acc = part + (long long)blockIdx.x * k * (d + 1);
    T sc[EM_KMH_KP] __attribute__((aligned(32)));
    unsigned long long moved = 0;
    for (long long r = s; r < e; r++) {
        const T *x = X + r * d;
        for (int j0 = 0; j0 < kp; j0 += 4 * L) {
            V a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};
            for (int f = 0; f < d; f++) {
                const T xf = x[f];
                const T *c = CT + (long long)f * kp + j0;
                a0 += xf * *(const V *)c;
                a1 += xf * *(const V *)(c + L);
                a2 += xf * *(const V *)(c + 2 * L);
                a3 += xf * *(const V *)(c + 3 * L);
            }
            const T *nb = cn + j0;
            *(V *)(sc + j0) = *(const V *)nb - (T)2 * a0;
            *(V *)(sc + j0 + L) = *(const V *)(nb + L) - (T)2 * a1;
            *(V *)(sc + j0 + 2 * L) = *(const V *)(nb + 2 * L) - (T)2 * a2;
            *(V *)(sc + j0 + 3 * L) = *(const V *)(nb + 3 * L) - (T)2 * a3;
        }
        const int bj = em_kmh_argmin1(sc, kp);
        labels[r] = bj;
        if (has_old && old[r] != bj)
            moved++;
        if (sums) {
            const T wt = has_w ? w[r] : (T)1;
            T *a = acc + (long long)bj * (d + 1);
            em_kmh_add(a, x, d, has_w, wt);
            a[d] += wt;
        }
    }
    if (moved)
        atomicAdd(changed, moved);
}
