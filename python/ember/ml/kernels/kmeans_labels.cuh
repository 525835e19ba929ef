/* ember.ml.cluster on a GPU: the assignment half of a Lloyd iteration,
 * the nearest center of each row, in one pass over X
 * (python/ember/ml/cluster/_lloyd.py). scikit-learn's score
 * ||c_j||^2 - 2 x.c_j, argmin with ties to the lowest index; each label
 * that differs from the previous iteration's is counted (one atomic add a
 * thread, integers, so the count is exact).
 *
 * Dynamic shared memory holds the centers transposed (ct[f * kp + j], k
 * padded to kp, a multiple of 16, with zeros never compared), their
 * squared norms, and a tile of THREADS * R rows of X, transposed too
 * (xs[f * (TR + 1) + row]: the tile is loaded in coalesced reads of X's
 * contiguous rows, the +1 keeps both the stores and the per-thread reads
 * free of bank conflicts). Each thread scores R rows against 16 centers
 * at a time: per feature R loads of its rows' values and four 16-byte
 * broadcast loads of the centers feed 16 * R multiply-adds, so the loop
 * is bound by the FP32 units rather than by shared memory. */

/* 16 consecutive values of shared memory (16-byte aligned) as vector
 * loads: four float4 or eight double2 */
__device__ __forceinline__ void em_km_load16(const float *p, float *o)
{
    const float4 *q = (const float4 *)p;
    for (int i = 0; i < 4; i++) {
        const float4 a = q[i];
        o[4 * i] = a.x;
        o[4 * i + 1] = a.y;
        o[4 * i + 2] = a.z;
        o[4 * i + 3] = a.w;
    }
}

__device__ __forceinline__ void em_km_load16(const double *p, double *o)
{
    const double2 *q = (const double2 *)p;
    for (int i = 0; i < 8; i++) {
        const double2 a = q[i];
        o[2 * i] = a.x;
        o[2 * i + 1] = a.y;
    }
}

template <typename T, int THREADS, int R>
__global__ void __launch_bounds__(THREADS)
em_kmeans_labels(const T *X, const T *C, long long n, int d, int k, int kp,
                 long long *labels, const long long *old, int has_old,
                 unsigned long long *changed)
{
    extern __shared__ __align__(16) unsigned char em_kml_smem[];
    const int TR = THREADS * R;
    T *ct = (T *)em_kml_smem;
    T *cn = ct + (long long)d * kp;
    T *xs = cn + kp;
    const int t = threadIdx.x;
    for (int i = t; i < kp * d; i += THREADS) {
        const int f = i / kp, j = i - f * kp;
        ct[i] = j < k ? C[(long long)j * d + f] : (T)0;
    }
    for (int j = t; j < kp; j += THREADS) {
        T a = (T)0;
        for (int f = 0; f < d && j < k; f++)
            a += C[(long long)j * d + f] * C[(long long)j * d + f];
        cn[j] = a;
    }
    unsigned long long moved = 0;
    const long long step = (long long)gridDim.x * TR;
    for (long long r0 = (long long)blockIdx.x * TR; r0 < n; r0 += step) {
        const int nr = n - r0 < TR ? (int)(n - r0) : TR;
        __syncthreads(); /* the centers are in; the last tile is read */
        const T *xt = X + r0 * d;
        for (int e = t; e < nr * d; e += THREADS) {
            const int rr = e / d;
            xs[(e - rr * d) * (TR + 1) + rr] = xt[e];
        }
        __syncthreads();
        T best[R];
        int bj[R];
        for (int q = 0; q < R; q++) {
            best[q] = (T)0;
            bj[q] = -1;
        }
        for (int j0 = 0; j0 < kp; j0 += 16) {
            T acc[R][16];
            for (int q = 0; q < R; q++)
                for (int jj = 0; jj < 16; jj++)
                    acc[q][jj] = (T)0;
            for (int f = 0; f < d; f++) {
                T c[16];
                em_km_load16(ct + f * kp + j0, c);
                for (int q = 0; q < R; q++) {
                    const T x = xs[f * (TR + 1) + q * THREADS + t];
                    for (int jj = 0; jj < 16; jj++)
                        acc[q][jj] += x * c[jj];
                }
            }
            /* increasing j and a strict < : ties go to the lowest index */
            for (int jj = 0; jj < 16 && j0 + jj < k; jj++)
                for (int q = 0; q < R; q++) {
                    const T sc = cn[j0 + jj] - (T)2 * acc[q][jj];
                    if (bj[q] < 0 || sc < best[q]) {
                        best[q] = sc;
                        bj[q] = j0 + jj;
                    }
                }
        }
        for (int q = 0; q < R; q++) {
            const int i = q * THREADS + t;
            if (i < nr) {
                labels[r0 + i] = bj[q];
                if (has_old && old[r0 + i] != bj[q])
                    moved++;
            }
        }
    }
    if (moved)
        atomicAdd(changed, moved);
}
