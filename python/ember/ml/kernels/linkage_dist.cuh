/* The n x n dissimilarity matrix that kernels/linkage.cuh merges on, from
 * the observations X (n x d, double), for the metrics that hierarchical
 * clustering is mostly run with: a block a row i, its threads striding
 * over the columns j, each pair summed over the features in order from
 * the differences themselves (as SciPy's pdist and scikit-learn's
 * DistanceMetric do; a GEMM's ||x||^2 + ||y||^2 - 2 x.y loses the small
 * distances that the first merges are made of). Each pair is computed
 * from both ends with the same operations in the same order, so D is
 * symmetric bit for bit and every write is contiguous. No barrier: on cpu
 * the blocks are plain loops on the thread pool. kernels/linkage.cuh is
 * compiled after this file and measures single linkage's pairs with
 * em_ld_pair as it goes. */

#define EM_LD_EUCLIDEAN 0
#define EM_LD_SQEUCLIDEAN 1
#define EM_LD_CITYBLOCK 2
#define EM_LD_CHEBYSHEV 3
#define EM_LD_COSINE 4

/* the distance of rows x and y (d features) */
template <int MET>
__device__ __forceinline__ double em_ld_pair(const double *x, const double *y, int d)
{
    double a = 0, b = 0, c = 0;
    for (int f = 0; f < d; f++) {
        if (MET == EM_LD_COSINE) {
            a += x[f] * y[f];
            b += x[f] * x[f];
            c += y[f] * y[f];
        } else {
            const double t = x[f] - y[f];
            const double u = t < 0 ? -t : t;
            if (MET == EM_LD_CITYBLOCK)
                a += u;
            else if (MET == EM_LD_CHEBYSHEV)
                a = u > a ? u : a;
            else
                a += t * t;
        }
    }
    if (MET == EM_LD_EUCLIDEAN)
        return sqrt(a);
    if (MET == EM_LD_COSINE) {
        /* b * c and c * b are one product: both ends agree */
        const double v = 1.0 - a / sqrt(b * c);
        return v < 0 ? 0 : (v > 2 ? 2 : v);
    }
    return a;
}

template <int MET>
__global__ void em_linkage_dist(const double *X, long long n, int d, double *D)
{
    const long long i = blockIdx.x;
    const double *x = X + i * d;
    for (long long j = threadIdx.x; j < n; j += blockDim.x)
        D[i * n + j] = i == j ? 0.0 : em_ld_pair<MET>(x, X + j * d, d);
}
