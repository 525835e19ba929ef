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

/* The whole assignment in the kernel, no BLAS: ||c||^2 - 2 x.c as on the
 * GPU for R rows at a time against a tile of 2 vectors of centers (CT,
 * d x kp, the centers transposed and padded with zeros to kp, a multiple
 * of 32 floats or 16 doubles, so of the tile in both vector widths; cn the
 * squared norms, +inf on the padding so it never wins), then the argmin
 * and the sums as above. R rows share each load of the centers and the
 * 2R accumulators stay in registers (R = 8 in 64-byte vectors where the
 * CPU has AVX-512's 32 registers, chosen at run time; else 4 in AVX2's
 * 16), and x.c is contracted to fused multiply-adds as the
 * BLAS's GEMM does (the build's -ffp-contract=off keeps NumPy's rounding
 * for elementwise a * b + c; a dot product has no NumPy twin to match):
 * one row against 4 vectors with separate multiplies and adds ran 1.2x
 * scikit-learn's time on one core. The centers (d x kp) stay in L1/L2
 * for every row, X is read once, and the GEMM's threads never trade the
 * cores with ember's pool (OpenBLAS's busy-waiting threads made the BLAS
 * path twice as slow on a loaded 2-core host). */

/* the scoring vectors: WB bytes of T, loads at T's alignment */
template <typename T, int WB>
struct em_kmh_wide {
    typedef T v __attribute__((vector_size(WB), aligned(sizeof(T))));
    enum { n = WB / sizeof(T) };
};

#pragma GCC push_options
#pragma GCC optimize("fp-contract=fast")

/* bj[i] = the index of the smallest cn[j] - 2 x_i.c_j (the lowest among
 * equals) for the R rows x_i = x + i * d. Each tile's two score vectors
 * go straight into a running minimum and its index a lane, so no score
 * is stored and no row is scanned for its minimum afterwards (that scan,
 * a branch a center, cost about as much as the scoring). */
template <typename T, int R, int WB>
__attribute__((always_inline)) static inline void
em_kmh_score(const T *x, int d, const T *CT, const T *cn, int kp, int *bj)
{
    typedef typename em_kmh_wide<T, WB>::v W;
    typedef decltype(W{} < W{}) I; /* T-sized signed integers, as many lanes */
    const int L = em_kmh_wide<T, WB>::n;
    I lane;
    for (int l = 0; l < L; l++)
        lane[l] = l;
    W mv[R];
    I iv[R];
    for (int j0 = 0; j0 < kp; j0 += 2 * L) {
        W a[R][2];
#pragma GCC unroll 16
        for (int i = 0; i < R; i++)
            a[i][0] = a[i][1] = (W){0};
        const T *c = CT + j0;
        for (int f = 0; f < d; f++, c += kp) {
            const W c0 = *(const W *)c, c1 = *(const W *)(c + L);
#pragma GCC unroll 16
            for (int i = 0; i < R; i++) {
                const T xf = x[(long long)i * d + f];
                a[i][0] += xf * c0;
                a[i][1] += xf * c1;
            }
        }
        const W n0 = *(const W *)(cn + j0), n1 = *(const W *)(cn + j0 + L);
        const I i0 = lane + j0, i1 = i0 + L;
#pragma GCC unroll 16
        for (int i = 0; i < R; i++) {
            const W s0 = n0 - (T)2 * a[i][0], s1 = n1 - (T)2 * a[i][1];
            const I lt1 = s1 < s0; /* strict: equals keep the lower index */
            const W m = lt1 ? s1 : s0;
            const I ix = lt1 ? i1 : i0;
            if (j0 == 0) {
                mv[i] = m;
                iv[i] = ix;
            } else {
                const I lt = m < mv[i];
                mv[i] = lt ? m : mv[i];
                iv[i] = lt ? ix : iv[i];
            }
        }
    }
    /* across the lanes without branches (a branch a lane mispredicted
     * often enough to cost as much as the scoring): the minimum, then the
     * lowest index among the lanes that hold it */
    for (int i = 0; i < R; i++) {
        T m = mv[i][0];
        for (int l = 1; l < L; l++)
            m = mv[i][l] < m ? mv[i][l] : m;
        const I big = lane + kp, cand = mv[i] == m ? iv[i] : big;
        long long b = cand[0];
        for (int l = 1; l < L; l++)
            b = cand[l] < b ? cand[l] : b;
        bj[i] = (int)b;
    }
}

/* the two widths, each built for its own instruction set: ember builds
 * host kernels with -mno-avx512f (GCC 12's vectoriser crashed on some
 * elementwise kernels with AVX-512), and the kernel picks at run time */
#if defined(__x86_64__) || defined(__i386__)
#define EM_KMH_HAS_512() __builtin_cpu_supports("avx512f")
template <typename T, int R>
__attribute__((target("avx512f,avx512vl,avx512dq,avx512bw"))) static void
em_kmh_score_512(const T *x, int d, const T *CT, const T *cn, int kp, int *bj)
{
    em_kmh_score<T, R, 64>(x, d, CT, cn, kp, bj);
}
#else
#define EM_KMH_HAS_512() 0
template <typename T, int R>
static void em_kmh_score_512(const T *x, int d, const T *CT, const T *cn, int kp, int *bj)
{
    em_kmh_score<T, R, 64>(x, d, CT, cn, kp, bj);
}
#endif

template <typename T, int R>
static void em_kmh_score_256(const T *x, int d, const T *CT, const T *cn, int kp, int *bj)
{
    em_kmh_score<T, R, 32>(x, d, CT, cn, kp, bj);
}

#pragma GCC pop_options

/* row r's label bj, the moved count and its sums */
template <typename T>
static inline void em_kmh_take(int bj, const T *x, const T *w, int has_w, int d,
                               long long r, long long *labels, const long long *old,
                               int has_old, unsigned long long *moved, int sums, T *acc)
{
    labels[r] = bj;
    if (has_old && old[r] != bj)
        (*moved)++;
    if (sums) {
        const T wt = has_w ? w[r] : (T)1;
        T *a = acc + (long long)bj * (d + 1);
        em_kmh_add(a, x, d, has_w, wt);
        a[d] += wt;
    }
}

template <typename T>
__global__ void em_kmeans_host_fused(const T *X, const T *CT, const T *cn, const T *w,
                                     int has_w, long long n, int d, int k, int kp,
                                     long long rpb, long long *labels,
                                     const long long *old, int has_old,
                                     unsigned long long *changed, int sums, T *part)
{
    const long long s = (long long)blockIdx.x * rpb;
    const long long e = s + rpb < n ? s + rpb : n;
    T *acc = part + (long long)blockIdx.x * k * (d + 1);
    int bj[8];
    unsigned long long moved = 0;
    long long r = s;
    if (EM_KMH_HAS_512()) {
        for (; r + 8 <= e; r += 8) {
            em_kmh_score_512<T, 8>(X + r * d, d, CT, cn, kp, bj);
            for (int i = 0; i < 8; i++)
                em_kmh_take(bj[i], X + (r + i) * d, w, has_w, d, r + i, labels, old,
                            has_old, &moved, sums, acc);
        }
    }
    for (; r + 4 <= e; r += 4) {
        em_kmh_score_256<T, 4>(X + r * d, d, CT, cn, kp, bj);
        for (int i = 0; i < 4; i++)
            em_kmh_take(bj[i], X + (r + i) * d, w, has_w, d, r + i, labels, old, has_old,
                        &moved, sums, acc);
    }
    for (; r < e; r++) {
        em_kmh_score_256<T, 1>(X + r * d, d, CT, cn, kp, bj);
        em_kmh_take(bj[0], X + r * d, w, has_w, d, r, labels, old, has_old, &moved, sums,
                    acc);
    }
    if (moved)
        atomicAdd(changed, moved);
}

/* The inertia sum_r w_r ||x_r - c_labels[r]||^2 of a run of rpb rows a
 * block, from the differences (not the GEMM expansion, so float32 keeps
 * its digits), added in double into out[blockIdx]; the caller adds the
 * blocks in order. The composition gathered the n x d centers of the
 * labels first (ember.take), most of its time. */
template <typename T>
__global__ void em_kmeans_host_inertia(const T *X, const T *C, const long long *labels,
                                       const T *w, int has_w, long long n, int d,
                                       long long rpb, double *out)
{
    typedef typename em_kmh_vec<T>::v V;
    const int L = em_kmh_vec<T>::n;
    const long long s = (long long)blockIdx.x * rpb;
    const long long e = s + rpb < n ? s + rpb : n;
    double tot = 0;
    for (long long r = s; r < e; r++) {
        const T *x = X + r * d, *c = C + labels[r] * d;
        V a = {0};
        int f = 0;
        for (; f + L <= d; f += L) {
            const V df = *(const V *)(x + f) - *(const V *)(c + f);
            a += df * df;
        }
        T acc = 0;
        for (int l = 0; l < L; l++)
            acc += a[l];
        for (; f < d; f++) {
            const T df = x[f] - c[f];
            acc += df * df;
        }
        tot += has_w ? (double)acc * (double)w[r] : (double)acc;
    }
    out[blockIdx.x] = tot;
}
