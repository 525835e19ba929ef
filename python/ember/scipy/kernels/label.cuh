/* ember.scipy.ndimage.label: connected components by a parallel
 * union-find. p[i] is pixel i's parent (-1 off the foreground); a union
 * always hangs the larger root under the smaller, so each component's
 * root is its first pixel in C order, and numbering the roots in order
 * gives SciPy's labels (python/ember/scipy/ndimage.py). The array is seen
 * as d0 x d1 x d2; off[] holds the structure's neighbours that come
 * before the centre in C order (the others meet this pixel from their
 * side), as (dz, dy, dx) triples. */

/* The root of x through cached (L1) reads. Every write to p moves a
 * parent to an ancestor, so a stale parent is still an ancestor and the
 * walk ends at a root or at a pixel that was one: right once no union
 * runs (em_label_flatten), and a first guess during them (em_unite, whose
 * CAS checks it). */
__device__ __forceinline__ int em_find_settled(const int *p, int x)
{
    int q;
    while ((q = p[x]) != x)
        x = q;
    return x;
}

/* The root of x with parents read as volatile (other threads relink
 * them), halving the path as it goes: each pixel on it relinked to its
 * grandparent, still an ancestor whatever other threads do. */
__device__ __forceinline__ int em_find_halve(volatile int *p, int x)
{
    int q, r;
    while ((q = p[x]) != x) {
        r = p[q];
        if (r != q)
            p[x] = r;
        x = r;
    }
    return x;
}

__device__ __forceinline__ void em_unite(int *p, int a, int b)
{
    for (int tries = 0;; tries++) {
        /* cached reads first (a stale parent is still an ancestor, and
         * the CAS checks the root), L2's after a failed CAS, which the
         * cache could otherwise repeat */
        if (tries == 0) {
            a = em_find_settled(p, a);
            b = em_find_settled(p, b);
        } else {
            a = em_find_halve(p, a);
            b = em_find_halve(p, b);
        }
        if (a == b)
            return;
        if (a < b) {
            int t = a;
            a = b;
            b = t;
        }
        /* a is still a root: hang it under b; else look again */
        if (atomicCAS(&p[a], a, b) == a)
            return;
    }
}

/* Each foreground pixel its own root, or, where the structure joins a
 * pixel to its left neighbour (`left`) and that one is foreground, that
 * neighbour's child: rows' runs come linked, and em_label_unite skips
 * that neighbour. */
extern "C" __global__ void em_label_init(const unsigned char *fg, int *p,
                                         long long n, long long d2, int left)
{
    const int e2 = (int)d2;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (int)n;
         i += gridDim.x * blockDim.x)
        p[i] = fg[i] ? (left && i % e2 && fg[i - 1] ? i - 1 : i) : -1;
}

/* Pixel indices fit an int (the caller refuses 2^31 pixels or more), so
 * the coordinates come from two 32-bit divisions, a background pixel's
 * not at all: 64-bit division is a long software routine on the GPU. */
extern "C" __global__ void em_label_unite(const unsigned char *fg, int *p,
                                          long long n, long long d0,
                                          long long d1, long long d2,
                                          const int *off, int noff,
                                          int left)
{
    const int e0 = (int)d0, e1 = (int)d1, e2 = (int)d2, e12 = e1 * e2;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (int)n;
         i += gridDim.x * blockDim.x) {
        if (!fg[i])
            continue;
        int z = i / e12, rem = i - z * e12, y = rem / e2, x = rem - y * e2;
        for (int k = 0; k < noff; k++) {
            int nz = z + off[3 * k], ny = y + off[3 * k + 1],
                nx = x + off[3 * k + 2];
            if (nz < 0 || nz >= e0 || ny < 0 || ny >= e1 || nx < 0 || nx >= e2)
                continue;
            if (left && nz == z && ny == y && nx == x - 1)
                continue; /* em_label_init linked it */
            int j = (nz * e1 + ny) * e2 + nx;
            if (fg[j])
                em_unite(p, i, j);
        }
    }
}

/* Every pixel straight to its root; root[i] is 1 where pixel i is a
 * component's root, so its running sum numbers the components. */
extern "C" __global__ void em_label_flatten(int *p, int *root, long long n)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         i < n; i += (long long)gridDim.x * blockDim.x) {
        int r = p[i] >= 0 ? em_find_settled(p, (int)i) : -1;
        p[i] = r;
        root[i] = r == i;
    }
}

/* The labels: a pixel's root's number (ids, the inclusive sum of root[]),
 * 0 off the foreground. */
extern "C" __global__ void em_label_number(const int *p, const int *ids,
                                           int *out, long long n)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         i < n; i += (long long)gridDim.x * blockDim.x)
        out[i] = p[i] >= 0 ? ids[p[i]] : 0;
}
