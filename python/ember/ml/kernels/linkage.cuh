/* Hierarchical clustering's merges (python/ember/scipy/cluster/_linkage.py,
 * for ember.scipy.cluster.hierarchy.linkage and ember.ml's
 * AgglomerativeClustering): each kernel is ONE launch of ONE block that
 * loops over all n - 1 merges, its THREADS threads scanning a row of the
 * n x n dissimilarity matrix D (double, row-major, both triangles kept, the
 * diagonal never read) together and reducing the row's minimum in shared
 * memory. The host never waits between merges. On cpu the same source runs
 * with THREADS = 1 (the block simulator's fibers cost nothing then).
 *
 * em_linkage_chain: the nearest-neighbour chain for the reducible methods
 * (complete, average, weighted, ward, and single), with SciPy's choices, so
 * that the merges are SciPy's: a chain starts at the lowest live cluster,
 * a row's nearest neighbour is the lowest index among equal distances,
 * except that the chain's previous element wins a tie (no cycles); the
 * merged cluster lives on in the larger slot y and x dies. The row of y is
 * updated by Lance-Williams' formula in double, the same expressions in
 * the same order as SciPy's, and mirrored into column y.
 *
 * em_linkage_prim: single linkage as a minimum spanning tree grown from
 * point 0, recording each step as (the point added last, the point added
 * now, its distance to the tree): the edges SciPy's mst_single_linkage and
 * scikit-learn's mst_linkage_core record.
 *
 * em_linkage_prim_x: the same tree measured from the observations X as it
 * grows (em_ld_pair of kernels/linkage_dist.cuh, which the caller compiles
 * ahead of this file), with no n x n matrix: n^2 d work for n d memory.
 *
 * All write the merges in the order made (zx, zy: slots or points,
 * zd: distances); the caller sorts them stably by distance and
 * em_linkage_label (one thread) numbers the clusters. */

#define EM_LK_SINGLE 0
#define EM_LK_COMPLETE 1
#define EM_LK_AVERAGE 2
#define EM_LK_WEIGHTED 3
#define EM_LK_WARD 4

/* d(x u y, i) from d(x, i), d(y, i), d(x, y) and the three sizes */
template <int M>
__device__ __forceinline__ double em_lk_update(double dxi, double dyi, double dxy, int nx,
                                               int ny, int ni)
{
    if (M == EM_LK_SINGLE)
        return dxi < dyi ? dxi : dyi;
    if (M == EM_LK_COMPLETE)
        return dxi > dyi ? dxi : dyi;
    if (M == EM_LK_AVERAGE)
        return (nx * dxi + ny * dyi) / (nx + ny);
    if (M == EM_LK_WEIGHTED)
        return 0.5 * (dxi + dyi);
    /* ward: the distances are euclidean, the formula is on their squares */
    const double t = 1.0 / (nx + ny + ni);
    return sqrt((ni + nx) * t * dxi * dxi + (ni + ny) * t * dyi * dyi - ni * t * dxy * dxy);
}

/* (v, i) of a warp into lane 0: the smaller v, the lower i among equals */
__device__ __forceinline__ void em_lk_warp_min(double *v, long long *i)
{
    for (int off = 16; off > 0; off >>= 1) {
        const double w = __shfl_down_sync(0xffffffffu, *v, off);
        const long long j = __shfl_down_sync(0xffffffffu, *i, off);
        if (w < *v || (w == *v && j < *i)) {
            *v = w;
            *i = j;
        }
    }
}

/* (v, i) of the whole block into sv[0], si[0]: the smallest v, the lowest
 * i among equals; every thread may read them after the call. Whole warps
 * reduce by shuffles and then their leaders (two barriers, not one a
 * halving); a block smaller than a warp (cpu's one thread) by halving. */
template <int THREADS>
__device__ __forceinline__ void em_lk_argmin(double v, long long i, double *sv,
                                             long long *si)
{
    const int t = threadIdx.x;
    if (THREADS >= 32) {
        const int lane = t & 31, warp = t >> 5;
        em_lk_warp_min(&v, &i);
        if (lane == 0) {
            sv[warp] = v;
            si[warp] = i;
        }
        __syncthreads();
        if (warp == 0) {
            v = lane < THREADS / 32 ? sv[lane] : 1e308 * 10;
            i = lane < THREADS / 32 ? si[lane] : 0x7fffffffffffffffLL;
            em_lk_warp_min(&v, &i);
            if (lane == 0) {
                sv[0] = v;
                si[0] = i;
            }
        }
        __syncthreads();
        return;
    }
    sv[t] = v;
    si[t] = i;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) {
            const double w = sv[t + s];
            const long long j = si[t + s];
            if (w < sv[t] || (w == sv[t] && j < si[t])) {
                sv[t] = w;
                si[t] = j;
            }
        }
        __syncthreads();
    }
}

/* this thread's nearest live neighbour of x in row (strict <, so the lowest
 * index among equals; the first live one even where all are infinite, so
 * the chain never leaves the matrix) */
template <int THREADS>
__device__ __forceinline__ void em_lk_scan(const double *row, long long n, long long x,
                                           const int *size, double *bv, long long *bi)
{
    double v0 = 0;
    long long i0 = n;
    for (long long i = threadIdx.x; i < n; i += THREADS) {
        if (i == x || size[i] == 0)
            continue;
        const double v = row[i];
        if (i0 == n || v < v0) {
            v0 = v;
            i0 = i;
        }
    }
    *bv = i0 == n ? 1e308 * 10 : v0;
    *bi = i0;
}

template <int M, int THREADS>
__global__ void __launch_bounds__(THREADS)
em_linkage_chain(double *D, long long n, int *size, int *chain, long long *zx,
                 long long *zy, double *zd)
{
    __shared__ double sv[THREADS];
    __shared__ long long si[THREADS];
    __shared__ long long s_x, s_y, s_first;
    __shared__ double s_d;
    __shared__ int s_len, s_done, s_nx, s_ny;
    const int t = threadIdx.x;
    for (long long i = t; i < n; i += THREADS)
        size[i] = 1;
    if (t == 0) {
        s_len = 0;
        s_first = 0;
    }
    __syncthreads();
    for (long long k = 0; k < n - 1; k++) {
        if (t == 0 && s_len == 0) {
            while (size[s_first] == 0)
                s_first++;
            chain[0] = (int)s_first;
            s_len = 1;
        }
        __syncthreads();
        /* grow the chain until its last two are each other's nearest */
        for (;;) {
            const long long x = chain[s_len - 1];
            const double *row = D + x * n;
            double bv;
            long long bi;
            em_lk_scan<THREADS>(row, n, x, size, &bv, &bi);
            em_lk_argmin<THREADS>(bv, bi, sv, si);
            if (t == 0) {
                long long y = si[0];
                double m = sv[0];
                int done = 0;
                if (s_len > 1) {
                    const long long prev = chain[s_len - 2];
                    if (!(m < row[prev])) {
                        y = prev;
                        m = row[prev];
                        done = 1;
                    }
                }
                if (!done)
                    chain[s_len++] = (int)y;
                s_x = x;
                s_y = y;
                s_d = m;
                s_done = done;
            }
            __syncthreads();
            if (s_done)
                break;
        }
        if (t == 0) {
            s_len -= 2;
            long long x = s_x, y = s_y;
            if (x > y) {
                const long long s = x;
                x = y;
                y = s;
            }
            s_x = x;
            s_y = y;
            s_nx = size[x];
            s_ny = size[y];
            zx[k] = x;
            zy[k] = y;
            zd[k] = s_d;
            size[x] = 0;
            size[y] = s_nx + s_ny;
        }
        __syncthreads();
        const long long x = s_x, y = s_y;
        const int nx = s_nx, ny = s_ny;
        const double dxy = s_d;
        /* row x holds d(i, x) by symmetry, so both reads are contiguous;
         * column y's writes never land in rows x or y */
        for (long long i = t; i < n; i += THREADS) {
            const int ni = size[i];
            if (ni == 0 || i == y)
                continue;
            const double v = em_lk_update<M>(D[x * n + i], D[y * n + i], dxy, nx, ny, ni);
            D[y * n + i] = v;
            D[i * n + y] = v;
        }
        __syncthreads();
    }
}

/* one step of Prim's: the distances to the tree lowered by those to x
 * (DIST(i): d(x, i)), the nearest point outside it into sv[0], si[0] */
template <int THREADS, typename DIST>
__device__ __forceinline__ void em_lk_prim_step(long long n, long long x, DIST dist,
                                                double *dmin, const int *merged,
                                                double *sv, long long *si)
{
    double bv = 1e308 * 10;
    long long bi = n;
    for (long long i = threadIdx.x; i < n; i += THREADS) {
        if (i == x || merged[i])
            continue;
        const double dd = dist(i);
        if (dmin[i] > dd)
            dmin[i] = dd;
        if (bi == n || dmin[i] < bv) {
            bv = dmin[i];
            bi = i;
        }
    }
    em_lk_argmin<THREADS>(bv, bi, sv, si);
}

struct em_lk_row {
    const double *row;
    __device__ double operator()(long long i) const { return row[i]; }
};

template <int MET>
struct em_lk_points {
    const double *X, *x;
    int d;
    __device__ double operator()(long long i) const
    {
        return em_ld_pair<MET>(x, X + i * d, d);
    }
};

/* Prim's loop: point 0 first; each step records (x, nearest, distance)
 * and adds the nearest (merged[x] is set after the step reads the flags;
 * the step skips x itself) */
template <int THREADS, typename MAKE>
__device__ __forceinline__ void em_lk_prim(long long n, MAKE make, double *dmin,
                                           int *merged, long long *zx, long long *zy,
                                           double *zd, double *sv, long long *si,
                                           long long &s_x)
{
    const int t = threadIdx.x;
    for (long long i = t; i < n; i += THREADS) {
        dmin[i] = 1e308 * 10;
        merged[i] = 0;
    }
    if (t == 0)
        s_x = 0;
    __syncthreads();
    for (long long k = 0; k < n - 1; k++) {
        const long long x = s_x;
        em_lk_prim_step<THREADS>(n, x, make(x), dmin, merged, sv, si);
        if (t == 0) {
            merged[x] = 1;
            zx[k] = x;
            zy[k] = si[0];
            zd[k] = sv[0];
            s_x = si[0];
        }
        __syncthreads();
    }
}

struct em_lk_make_row {
    const double *D;
    long long n;
    __device__ em_lk_row operator()(long long x) const { return em_lk_row{D + x * n}; }
};

template <int MET>
struct em_lk_make_points {
    const double *X;
    int d;
    __device__ em_lk_points<MET> operator()(long long x) const
    {
        return em_lk_points<MET>{X, X + x * d, d};
    }
};

template <int THREADS>
__global__ void __launch_bounds__(THREADS)
em_linkage_prim(const double *D, long long n, double *dmin, int *merged, long long *zx,
                long long *zy, double *zd)
{
    __shared__ double sv[THREADS];
    __shared__ long long si[THREADS];
    __shared__ long long s_x;
    em_lk_prim<THREADS>(n, em_lk_make_row{D, n}, dmin, merged, zx, zy, zd, sv, si, s_x);
}

template <int MET, int THREADS>
__global__ void __launch_bounds__(THREADS)
em_linkage_prim_x(const double *X, long long n, int d, double *dmin, int *merged,
                  long long *zx, long long *zy, double *zd)
{
    __shared__ double sv[THREADS];
    __shared__ long long si[THREADS];
    __shared__ long long s_x;
    em_lk_prim<THREADS>(n, em_lk_make_points<MET>{X, d}, dmin, merged, zx, zy, zd, sv, si,
                        s_x);
}

/* SciPy's linkage matrix Z ((n - 1) x 4: the two cluster ids, distance,
 * size) from the merges taken in the order `order` (their stable sort by
 * distance): cluster n + i is made by row i, and each row's two ids are
 * the current clusters of its two points, found with a union-find over
 * the 2n - 1 nodes (parent, scratch). ordered: the smaller id first, as
 * SciPy; else the cluster of zx first, as scikit-learn's single-linkage
 * labelling. One thread: n - 1 near-constant steps. */
__global__ void em_linkage_label(const long long *zx, const long long *zy, const double *zd,
                                 const long long *order, long long n, int ordered,
                                 long long *parent, double *Z)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    for (long long i = 0; i < 2 * n - 1; i++)
        parent[i] = i;
    for (long long i = 0; i < n - 1; i++) {
        const long long r = order[i];
        long long a = zx[r], b = zy[r];
        while (parent[a] != a) {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        while (parent[b] != b) {
            parent[b] = parent[parent[b]];
            b = parent[b];
        }
        if (ordered && a > b) {
            const long long s = a;
            a = b;
            b = s;
        }
        const long long node = n + i;
        parent[a] = node;
        parent[b] = node;
        const double ca = a < n ? 1.0 : Z[(a - n) * 4 + 3];
        const double cb = b < n ? 1.0 : Z[(b - n) * 4 + 3];
        Z[i * 4 + 0] = (double)a;
        Z[i * 4 + 1] = (double)b;
        Z[i * 4 + 2] = zd[r];
        Z[i * 4 + 3] = ca + cb;
    }
}
