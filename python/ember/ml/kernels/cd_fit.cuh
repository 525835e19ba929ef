/* ember.ml's Lasso and ElasticNet fit on both devices
 * (python/ember/ml/linear_model/_cd.py): every sweep of coordinate
 * descent and scikit-learn's stopping rule in one launch, one block a
 * problem (a target, or one alpha of a path). The block's threads share
 * each coordinate's work; the coordinates themselves are sequential.
 *
 * Two forms, one kernel each, with _cd.py's updates in its order:
 * - em_cd_resid (n < p): the residual R = y - X w (n) is kept; a
 *   coordinate is a dot of X[:, j] with R and an axpy into R, both over n;
 * - em_cd_gram (n >= p, or a Gram matrix given): G w (p) is kept; a
 *   coordinate reads q_j - (G w)_j and adds d G[j] to G w, over p.
 * Thread t owns entries t, t + T, ... of R (or G w) for the whole launch,
 * so the axpy needs no barrier before the next coordinate's reads; the
 * one barrier a coordinate makes the dot's partial sums (resid) or the
 * new coefficient (gram) visible, in shared slots used by alternate
 * coordinates so that the next write never overtakes a slow reader.
 * Every thread then works out the same new coefficient, the same largest
 * change and the same gap from the same values summed in the same order,
 * so all branches are uniform and a run is bit-equal to itself.
 *
 * The stopping rule is enet_cd's (scikit-learn's): the gap before any
 * sweep (a warm start that meets it makes none); after each sweep whose
 * largest change is at most tol times the largest coefficient, or the
 * last, the gap against tols = tol |y|^2. Dots of a coordinate are in T,
 * the gap's sums in double, as kernels/cd_path.cuh.
 *
 * selection='random' (seed != 0): sweep `it` visits p features drawn with
 * replacement, the k-th from a counter-based hash of (seed, problem, it,
 * k), so the order is ember's own (not scikit-learn's stream) and the same
 * on every device. A feature whose column is zero is skipped and stays at
 * zero, as scikit-learn does.
 *
 * On cpu the launch gives each block one thread (the block simulator
 * would run more as fibers of one core): then every barrier and shuffle
 * is skipped and a coordinate is two plain loops. */

#define EM_CDF_ABS(x) ((x) < 0 ? -(x) : (x))
#define EM_CDF_WARPS 32 /* warps a block at most (1024 threads) */
#define EM_CDF_GAPN 6   /* the gap's block-wide sums */

/* the sweep's shared slots, two coordinates' worth (the residual form's
 * warp sums and, at EM_CDF_WARPS, the coefficient's old value; the
 * covariance form's old and new value in the first two), and the gap's */
struct em_cdf_shared {
    double part[2][EM_CDF_WARPS + 2];
    double gap[EM_CDF_GAPN][EM_CDF_WARPS];
};

__device__ inline void em_cdf_sync()
{
    if (blockDim.x > 1)
        __syncthreads();
}

/* the sum over the warp, in lane 0 (called only when a block has whole
 * warps: the cpu launch's one thread keeps its own value) */
template <typename T>
__device__ inline T em_cdf_warp_sum(T v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

__device__ inline double em_cdf_warp_max(double v)
{
    for (int o = 16; o > 0; o >>= 1) {
        const double u = __shfl_down_sync(0xffffffffu, v, o);
        v = u > v ? u : v;
    }
    return v;
}

/* The gap (cd_gap.cuh) from the block's sums s = R2, Ry, w2, wl1, dn2. */
__device__ double em_cdf_gap_of(const double *s, double dn, double l1, double l2)
{
    return em_cd_gap(s[0], s[1], s[2], s[3], s[4], dn, l1, l2);
}

/* The threads' five partial sums s and largest dn summed (in warp order)
 * and maxed over the block, the same in every thread; a barrier between
 * the slots' writes and reads and one after the reads. */
__device__ void em_cdf_gap_sums(double *s, double *dn, em_cdf_shared *sh)
{
    if (blockDim.x == 1)
        return;
    const int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
    const int W = blockDim.x >> 5;
    for (int i = 0; i < 5; i++) {
        const double v = em_cdf_warp_sum<double>(s[i]);
        if (lane == 0)
            sh->gap[i][wp] = v;
    }
    const double m = em_cdf_warp_max(*dn);
    if (lane == 0)
        sh->gap[5][wp] = m;
    __syncthreads();
    for (int i = 0; i < 5; i++) {
        double t = 0;
        for (int k = 0; k < W; k++)
            t += sh->gap[i][k];
        s[i] = t;
    }
    double d = sh->gap[5][0];
    for (int k = 1; k < W; k++)
        d = sh->gap[5][k] > d ? sh->gap[5][k] : d;
    *dn = d;
    __syncthreads();
}

/* After coordinate j moved by d to nw (the caller has moved its vector):
 * its owner stores nw, and the sweep's largest step and coefficient. */
template <typename T>
__device__ inline void em_cdf_moved(T *wb, int j, T d, T nw, T *dmax, T *wmax)
{
    if ((int)threadIdx.x == j % (int)blockDim.x)
        wb[j] = nw;
    const T ad = EM_CDF_ABS(d), aw = EM_CDF_ABS(nw);
    *dmax = ad > *dmax ? ad : *dmax;
    *wmax = aw > *wmax ? aw : *wmax;
}

/* Coordinate j's terms of the gap: w_j and its correlation c_j = x_j.R
 * (the covariance form's q_j - (G w)_j) into the sums s[2..4] and the
 * dual norm's candidate |c_j - l2 w_j| (signed when positive) into dn. */
__device__ inline void em_cdf_gap_add(double *s, double *dn, double wj, double cj,
                                      double l2, int positive)
{
    double a = cj - l2 * wj;
    if (!positive)
        a = EM_CDF_ABS(a);
    *dn = a > *dn ? a : *dn;
    s[2] += wj * wj;
    s[3] += EM_CDF_ABS(wj);
    s[4] += cj * cj;
}

/* thread 0 writes the block's last gap and how many sweeps it took */
__device__ inline void em_cdf_record(double g, int sweeps, double *gap, int *n_iter)
{
    if (threadIdx.x == 0) {
        gap[blockIdx.x] = g;
        n_iter[blockIdx.x] = sweeps;
    }
}

/* the coordinate update: soft thresholding (or its positive half) */
template <typename T>
__device__ inline T em_cdf_shrink(T tmp, T l1, T den, int positive)
{
    if (positive) {
        const T m = tmp - l1;
        return (m > 0 ? m : (T)0) / den;
    }
    const T m = EM_CDF_ABS(tmp) - l1;
    return (m > 0 ? (tmp > 0 ? m : (tmp < 0 ? -m : (T)0)) : (T)0) / den;
}

/* this thread's part of x.r over k = t, t + nt, ... < n, summed in A in
 * several running sums added at the end: on cpu (nt == 1) one sum's
 * chain of dependent adds took most of a coordinate's time, and there
 * eight sums over consecutive k are two vector registers' lanes */
template <typename A, typename T>
__device__ inline A em_cdf_dot(const T *x, const T *r, int t, int n, int nt)
{
    int k = t;
    A s = 0;
    if (nt == 1) {
        A a[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (; k + 8 <= n; k += 8)
            for (int i = 0; i < 8; i++)
                a[i] += (A)x[k + i] * (A)r[k + i];
        s = ((a[0] + a[4]) + (a[1] + a[5])) + ((a[2] + a[6]) + (a[3] + a[7]));
    } else {
        A a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (; k + 3 * nt < n; k += 4 * nt) {
            a0 += (A)x[k] * (A)r[k];
            a1 += (A)x[k + nt] * (A)r[k + nt];
            a2 += (A)x[k + 2 * nt] * (A)r[k + 2 * nt];
            a3 += (A)x[k + 3 * nt] * (A)r[k + 3 * nt];
        }
        s = (a0 + a1) + (a2 + a3);
    }
    for (; k < n; k += nt)
        s += (A)x[k] * (A)r[k];
    return s;
}

/* r[k] += d x[k] over this thread's k; the loop over consecutive k
 * (cpu's one thread) vectorises, the strided one does not */
template <typename T>
__device__ inline void em_cdf_axpy(T *r, const T *x, T d, int t, int n, int nt)
{
    if (nt == 1)
        for (int k = 0; k < n; k++)
            r[k] += d * x[k];
    else
        for (int k = t; k < n; k += nt)
            r[k] += d * x[k];
}

/* feature k of sweep `it` of problem b: k itself (cyclic) or a draw from
 * a splitmix64 hash of the counter */
__device__ inline int em_cdf_feature(unsigned long long seed, int b, int it, int k, int p)
{
    if (seed == 0)
        return k;
    unsigned long long x = seed + 0x9e3779b97f4a7c15ULL *
        ((((unsigned long long)b << 32) ^ (unsigned long long)it) * (unsigned long long)p +
         (unsigned long long)k + 1);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return (int)(((x >> 32) * (unsigned long long)p) >> 32);
}

#define EM_CDF_NEG_MAX (-1.7976931348623157e308)

/* The residual form. XT: p x n (row j is X[:, j]), norm2[j] = |X[:, j]|^2,
 * Y, R: B x n, w: B x p, yy[b] = |y_b|^2 (T's sum, in double). On return
 * w and R hold the fit, gap[b] the last gap, n_iter[b] the sweeps. Entry
 * j of w belongs to thread j % T (it hands the old value to the others
 * through the coordinate's slot). */
template <typename T>
__global__ void em_cd_resid(const T *XT, const T *norm2, const T *Y, const double *yy,
                            T *w, T *R, int n, int p, double l1, double l2, double tol,
                            int max_iter, int positive, unsigned long long seed,
                            double *gap, int *n_iter)
{
    __shared__ em_cdf_shared sh;
    const int b = blockIdx.x, t = threadIdx.x, nt = blockDim.x;
    const int W = nt >> 5;
    const T *y = Y + (long long)b * n;
    T *wb = w + (long long)b * p;
    T *Rb = R + (long long)b * n;
    const T l1t = (T)l1, l2t = (T)l2;
    const double tolg = tol * yy[b];

    /* a zero column's coefficient is zero (a warm start's included) */
    for (int j = t; j < p; j += nt)
        if (norm2[j] == 0)
            wb[j] = 0;
    em_cdf_sync();
    /* R = y - X w, each entry's terms in the order of j, rows of X^T
     * read along (a warm start's; a cold one skips them all) */
    for (int k = t; k < n; k += nt)
        Rb[k] = y[k];
    for (int j = 0; j < p; j++) {
        const T wj = wb[j];
        if (wj != 0)
            em_cdf_axpy<T>(Rb, XT + (long long)j * n, -wj, t, n, nt);
    }

    int par = 0;
    double g = 0;
    for (int it = -1; it < max_iter; it++) {
        if (it >= 0) {
            T dmax = 0, wmax = 0;
            for (int c = 0; c < p; c++) {
                const int j = em_cdf_feature(seed, b, it, c, p);
                const T nj = norm2[j];
                if (nj == 0)
                    continue;
                const T *xj = XT + (long long)j * n;
                T dot = em_cdf_dot<T, T>(xj, Rb, t, n, nt), wj;
                if (nt == 1) {
                    wj = wb[j];
                } else {
                    double *slot = sh.part[par];
                    par ^= 1;
                    dot = em_cdf_warp_sum<T>(dot);
                    if ((t & 31) == 0)
                        slot[t >> 5] = (double)dot;
                    if (t == j % nt)
                        slot[EM_CDF_WARPS] = (double)wb[j];
                    __syncthreads();
                    dot = 0;
                    for (int v = 0; v < W; v++)
                        dot += (T)slot[v];
                    wj = (T)slot[EM_CDF_WARPS];
                }
                const T nw = em_cdf_shrink<T>(dot + nj * wj, l1t, nj + l2t, positive);
                const T d = nw - wj;
                if (d != 0)
                    em_cdf_axpy<T>(Rb, xj, -d, t, n, nt);
                em_cdf_moved<T>(wb, j, d, nw, &dmax, &wmax);
            }
            if (!(wmax == 0 || (double)dmax / (double)wmax <= tol || it == max_iter - 1))
                continue;
        }
        /* the gap reads R's stripes and w's entries of every thread */
        em_cdf_sync();
        double s[5] = {0, 0, 0, 0, 0}, dn = EM_CDF_NEG_MAX;
        for (int k = t; k < n; k += nt) {
            const double r = (double)Rb[k];
            s[0] += r * r;
            s[1] += r * (double)y[k];
        }
        for (int j = t; j < p; j += nt) {
            const double xr = em_cdf_dot<double, T>(XT + (long long)j * n, Rb, 0, n, 1);
            em_cdf_gap_add(s, &dn, (double)wb[j], xr, l2, positive);
        }
        em_cdf_gap_sums(s, &dn, &sh);
        g = em_cdf_gap_of(s, dn, l1, l2);
        if (g <= tolg) {
            em_cdf_record(g, it + 1, gap, n_iter);
            return;
        }
    }
    em_cdf_record(g, max_iter, gap, n_iter);
}

/* The covariance form. G: p x p (symmetric; its diagonal the columns'
 * norms), Q: B x p (q = X^T y), Gw: B x p, the rest as em_cd_resid.
 * Entries j of w and G w belong to thread j % T, which makes coordinate
 * j's update and hands it to the others through the coordinate's slot. */
template <typename T>
__global__ void em_cd_gram(const T *G, const T *Q, const double *yy, T *w, T *Gw, int p,
                           double l1, double l2, double tol, int max_iter, int positive,
                           unsigned long long seed, double *gap, int *n_iter)
{
    __shared__ em_cdf_shared sh;
    const int b = blockIdx.x, t = threadIdx.x, nt = blockDim.x;
    const T *q = Q + (long long)b * p;
    T *wb = w + (long long)b * p;
    T *Gwb = Gw + (long long)b * p;
    const T l1t = (T)l1, l2t = (T)l2;
    const double tolg = tol * yy[b];

    for (int j = t; j < p; j += nt)
        if (G[(long long)j * p + j] == 0)
            wb[j] = 0;
    em_cdf_sync();
    for (int k = t; k < p; k += nt)
        Gwb[k] = 0;
    for (int j = 0; j < p; j++) {
        const T wj = wb[j];
        if (wj != 0)
            em_cdf_axpy<T>(Gwb, G + (long long)j * p, wj, t, p, nt);
    }
    /* every thread has read all of w before its owners change it */
    em_cdf_sync();

    int par = 0;
    double g = 0;
    for (int it = -1; it < max_iter; it++) {
        if (it >= 0) {
            T dmax = 0, wmax = 0;
            for (int c = 0; c < p; c++) {
                const int j = em_cdf_feature(seed, b, it, c, p);
                const T *Gj = G + (long long)j * p;
                const T nj = Gj[j];
                if (nj == 0)
                    continue;
                T wj, nw;
                if (nt == 1) {
                    wj = wb[j];
                    nw = em_cdf_shrink<T>(q[j] - Gwb[j] + nj * wj, l1t, nj + l2t,
                                          positive);
                } else {
                    double *slot = sh.part[par];
                    par ^= 1;
                    if (t == j % nt) {
                        const T o = wb[j];
                        slot[0] = (double)o;
                        slot[1] = (double)em_cdf_shrink<T>(q[j] - Gwb[j] + nj * o, l1t,
                                                           nj + l2t, positive);
                    }
                    __syncthreads();
                    wj = (T)slot[0];
                    nw = (T)slot[1];
                }
                const T d = nw - wj;
                if (d != 0)
                    em_cdf_axpy<T>(Gwb, Gj, d, t, p, nt);
                em_cdf_moved<T>(wb, j, d, nw, &dmax, &wmax);
            }
            if (!(wmax == 0 || (double)dmax / (double)wmax <= tol || it == max_iter - 1))
                continue;
        }
        /* each thread reads its own entries of w, q and G w */
        double s[5] = {0, 0, 0, 0, 0}, dn = EM_CDF_NEG_MAX, wq = 0;
        for (int k = t; k < p; k += nt) {
            const double wk = (double)wb[k], qk = (double)q[k], gk = (double)Gwb[k];
            const double r = qk - gk;
            wq += wk * qk;
            s[0] += wk * gk - 2 * wk * qk; /* R2 = |y|^2 - 2 w.q + w.Gw */
            em_cdf_gap_add(s, &dn, wk, r, l2, positive);
        }
        s[1] = -wq; /* R.y = |y|^2 - w.q */
        em_cdf_gap_sums(s, &dn, &sh);
        s[0] += yy[b];
        s[1] += yy[b];
        g = em_cdf_gap_of(s, dn, l1, l2);
        if (g <= tolg) {
            em_cdf_record(g, it + 1, gap, n_iter);
            return;
        }
    }
    em_cdf_record(g, max_iter, gap, n_iter);
}
