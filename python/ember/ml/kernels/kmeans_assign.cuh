/* ember.ml.cluster: one k-means assignment step in one pass over X
 * (python/ember/ml/cluster/_kmeans_fused.py). The k x d centers sit in
 * shared memory; each thread takes ROWS rows of a tile of THREADS x ROWS,
 * scores ||c_j||^2 - 2 x.c_j (the expansion scikit-learn's labels use too:
 * one multiply-add an element where the difference costs two) and keeps
 * the argmin in registers, ties to the lowest index as scikit-learn; the
 * row's squared distance is ||x||^2 plus the best score, at least 0.
 * Then the tile's rows are added to this block's partial sums (in shared
 * memory) in row order, each (cluster, column) slot owned by one thread
 * (column d is the weight), so no atomics and the same order on every run:
 * each block writes its partials once (gridDim x (k*d + k)) and they are
 * summed over blocks afterwards by a reduction of fixed order. On cpu
 * THREADS is 1 (a block is one thread scanning its rows, as the block
 * simulator's fibers cost more than they share) and ROWS 256, so a block
 * synchronizes once a tile rather than once a row; on cuda ROWS is 1. */

/* centers a group of the distance loop: JB independent sums a row, which
 * the host compiler turns into vector lanes over the transposed centers
 * (two AVX2 registers of float, so two chains of adds in flight) */
#define EM_KM_JB 16

template <typename T, int THREADS, int ROWS, int KDMAX>
__global__ void em_kmeans_assign(const T *X, const T *C, const T *w,
                                 int has_w, long long n, int d, int k,
                                 long long *labels, T *mind, T *part)
{
    /* the centers transposed (column f holds every center's f-th value),
     * k padded to kp, a multiple of EM_KM_JB, with zeros never compared */
    __shared__ T ct[KDMAX];
    __shared__ T cn[KDMAX / 8]; /* k <= KDMAX / 8: _kmeans_fused.applies */
    __shared__ T ps[KDMAX + KDMAX / 8]; /* sums k x d, then weights k */
    __shared__ int lab[THREADS * ROWS];
    const int t = threadIdx.x;
    const int kd = k * d;
    const int kp = (k + EM_KM_JB - 1) / EM_KM_JB * EM_KM_JB;
    for (int i = t; i < kp * d; i += THREADS) {
        const int f = i / kp, j = i % kp;
        ct[i] = j < k ? C[(long long)j * d + f] : (T)0;
    }
    for (int j = t; j < k; j += THREADS) {
        T a = (T)0;
        for (int f = 0; f < d; f++)
            a += C[(long long)j * d + f] * C[(long long)j * d + f];
        cn[j] = a;
    }
    for (int i = t; i < kd + k; i += THREADS)
        ps[i] = (T)0;
    __syncthreads();
    const long long step = (long long)gridDim.x * THREADS * ROWS;
    for (long long r0 = (long long)blockIdx.x * THREADS * ROWS; r0 < n; r0 += step) {
        for (int i = 0; i < ROWS; i++) {
            const long long r = r0 + (long long)i * THREADS + t;
            if (r < n) {
                const T *x = X + r * d;
                T best = (T)0;
                int bj = -1;
                for (int j0 = 0; j0 < kp; j0 += EM_KM_JB) {
                    T acc[EM_KM_JB];
                    for (int jj = 0; jj < EM_KM_JB; jj++)
                        acc[jj] = (T)0;
                    for (int f = 0; f < d; f++) {
                        const T xf = x[f];
                        const T *c = ct + f * kp + j0;
                        for (int jj = 0; jj < EM_KM_JB; jj++)
                            acc[jj] += xf * c[jj];
                    }
                    /* increasing j and a strict < : ties go to the lowest index */
                    for (int jj = 0; jj < EM_KM_JB && j0 + jj < k; jj++) {
                        const T sc = cn[j0 + jj] - (T)2 * acc[jj];
                        if (bj < 0 || sc < best) {
                            best = sc;
                            bj = j0 + jj;
                        }
                    }
                }
                T xx = (T)0;
                for (int f = 0; f < d; f++)
                    xx += x[f] * x[f];
                labels[r] = bj;
                lab[i * THREADS + t] = bj;
                mind[r] = xx + best > (T)0 ? xx + best : (T)0;
            }
        }
        __syncthreads();
        const long long r1 = r0 + THREADS * ROWS < n ? r0 + THREADS * ROWS : n;
        /* each thread owns the same columns for every row, so the rows go
         * to each slot in order without synchronizing between them */
        for (long long q = r0; q < r1; q++) {
            const int j = lab[q - r0];
            const T wt = has_w ? w[q] : (T)1;
            for (int col = t; col <= d; col += THREADS) {
                if (col < d)
                    ps[j * d + col] += X[q * d + col] * wt;
                else
                    ps[kd + j] += wt;
            }
        }
        __syncthreads();
    }
    T *pb = part + (long long)blockIdx.x * (kd + k);
    for (int i = t; i < kd + k; i += THREADS)
        pb[i] = ps[i];
}
