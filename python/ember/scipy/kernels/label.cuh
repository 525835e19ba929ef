/* ember.scipy.ndimage.label: connected components by a parallel
 * union-find. p[i] is pixel i's parent (-1 off the foreground); a union
 * always hangs the larger root under the smaller, so each component's
 * root is its first pixel in C order, and numbering the roots in order
 * gives SciPy's labels (python/ember/scipy/ndimage.py). The array is seen
 * as d0 x d1 x d2; off[] holds the structure's neighbours that come
 * before the centre in C order (the others meet this pixel from their
 * side), as (dz, dy, dx) triples. */

/* The root of x: parents read as volatile, other threads relink them. */
__device__ __forceinline__ int em_find(volatile int *p, int x)
{
    int q;
    while ((q = p[x]) != x)
        x = q;
    return x;
}

__device__ __forceinline__ void em_unite(int *p, int a, int b)
{
    for (;;) {
        a = em_find(p, a);
        b = em_find(p, b);
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

extern "C" __global__ void em_label_init(const unsigned char *fg, int *p,
                                         long long n)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         i < n; i += (long long)gridDim.x * blockDim.x)
        p[i] = fg[i] ? (int)i : -1;
}

/* Pixel indices fit an int (the caller refuses 2^31 pixels or more), so
 * the coordinates come from two 32-bit divisions, a background pixel's
 * not at all: 64-bit division is a long software routine on the GPU. */
extern "C" __global__ void em_label_unite(const unsigned char *fg, int *p,
                                          long long n, long long d0,
                                          long long d1, long long d2,
                                          const int *off, int noff)
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
        int r = p[i] >= 0 ? em_find(p, (int)i) : -1;
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
