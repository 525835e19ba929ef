/* ember.ml.cluster: the end of a Lloyd iteration in one launch of one
 * block, on both devices (python/ember/ml/cluster/_lloyd.py). It adds the
 * G blocks' partial sums (part, G x k x (d + 1), column d the weight) in
 * block order into tot, forms the new centers (sums / weight; an empty
 * cluster keeps its old center until the caller relocates it, as
 * scikit-learn does), and writes the three figures the host reads once an
 * iteration: figs = {empty clusters, squared center shift, labels
 * changed}. The changed count (kernels/kmeans_labels.cuh or
 * kmeans_host.cuh add to it) is reset to 0 for the next iteration;
 * has_old 0 (the first iteration) reports every label as changed. */

template <typename T, int THREADS>
__global__ void em_kmeans_finish(const T *part, int G, const T *Cold, int k, int d,
                                 T *Cnew, T *tot, double *figs,
                                 unsigned long long *changed, int has_old)
{
    __shared__ T red[THREADS];
    __shared__ int empty;
    const int t = threadIdx.x;
    const long long k1 = (long long)k * (d + 1);
    if (t == 0)
        empty = 0;
    __syncthreads();
    for (int j = t; j < k; j += THREADS) {
        const long long o = (long long)j * (d + 1) + d;
        T ws = (T)0;
        for (int g = 0; g < G; g++)
            ws += part[g * k1 + o];
        tot[o] = ws;
        if (ws == (T)0)
            atomicAdd(&empty, 1);
    }
    __syncthreads(); /* tot's weights are visible to the block */
    T sh = (T)0;
    for (long long i = t; i < (long long)k * d; i += THREADS) {
        const long long j = i / d;
        const long long o = j * (d + 1) + (i - j * d);
        T s = (T)0;
        for (int g = 0; g < G; g++)
            s += part[g * k1 + o];
        tot[o] = s;
        const T ws = tot[j * (d + 1) + d];
        const T c = ws > (T)0 ? s / ws : Cold[i];
        Cnew[i] = c;
        sh += (c - Cold[i]) * (c - Cold[i]);
    }
    red[t] = sh;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] += red[t + s];
        __syncthreads();
    }
    if (t == 0) {
        figs[0] = (double)empty;
        figs[1] = (double)red[0];
        figs[2] = has_old ? (double)*changed : 1.0;
        *changed = 0;
    }
}

/* The same end of an iteration on a GPU, where one block adding G
 * partials of every slot took 0.14 ms (H200, G = 256, k x d = 64 x 32):
 * em_kmeans_reduce spreads the slots over blocks of 32 x GS threads, the
 * GS threads of a slot each adding every GS-th partial in order and then
 * combined in a fixed order (so the sums are the same every run), writes
 * tot and the new centers and one partial shift a block (shp);
 * em_kmeans_figs (one block) adds those in a fixed order and writes figs
 * as em_kmeans_finish does. */
template <typename T, int GS>
__global__ void __launch_bounds__(32 * GS)
em_kmeans_reduce(const T *part, int G, const T *Cold, int k, int d, T *Cnew,
                 T *tot, T *shp)
{
    __shared__ T ss[GS][32], sw[GS][32], red[32];
    const int lane = threadIdx.x & 31, gp = threadIdx.x >> 5;
    const long long k1 = (long long)k * (d + 1);
    const long long i = (long long)blockIdx.x * 32 + lane;
    const bool live = i < (long long)k * d;
    const long long j = live ? i / d : 0;
    const long long o = j * (d + 1) + (live ? i - j * d : 0);
    const long long ow = j * (d + 1) + d;
    T s = (T)0, ws = (T)0;
    if (live)
        for (int g = gp; g < G; g += GS) {
            s += part[g * k1 + o];
            ws += part[g * k1 + ow];
        }
    ss[gp][lane] = s;
    sw[gp][lane] = ws;
    __syncthreads();
    if (gp == 0) {
        T sh = (T)0;
        if (live) {
            for (int q = 1; q < GS; q++) {
                s += ss[q][lane];
                ws += sw[q][lane];
            }
            tot[o] = s;
            if (o - j * (d + 1) == 0)
                tot[ow] = ws;
            const T c = ws > (T)0 ? s / ws : Cold[i];
            Cnew[i] = c;
            sh = (c - Cold[i]) * (c - Cold[i]);
        }
        red[lane] = sh;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        T a = (T)0;
        for (int q = 0; q < 32; q++)
            a += red[q];
        shp[blockIdx.x] = a;
    }
}

template <typename T, int THREADS>
__global__ void em_kmeans_figs(const T *shp, int nb, const T *tot, int k, int d,
                               double *figs, unsigned long long *changed,
                               int has_old)
{
    __shared__ T red[THREADS];
    __shared__ int empty;
    const int t = threadIdx.x;
    if (t == 0)
        empty = 0;
    __syncthreads();
    T a = (T)0;
    for (int b = t; b < nb; b += THREADS)
        a += shp[b];
    for (int j = t; j < k; j += THREADS)
        if (tot[(long long)j * (d + 1) + d] == (T)0)
            atomicAdd(&empty, 1);
    red[t] = a;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s)
            red[t] += red[t + s];
        __syncthreads();
    }
    if (t == 0) {
        figs[0] = (double)empty;
        figs[1] = (double)red[0];
        figs[2] = has_old ? (double)*changed : 1.0;
        *changed = 0;
    }
}
