/* ember.scipy.signal: direct 2-D convolution for convolve2d and
 * correlate2d (which passes the kernel flipped and conjugated):
 * em_conv2d_tile below, and em_conv2d, one thread an output element
 * (grid-stride), for kernels too wide for a tile.
 *
 * out[oi][oj] is element (oi + i0, oj + j0) of the full convolution,
 *   sum over u < P, v < Q of a[i - u][j - v] * k[u][v],
 * a's out-of-range elements given by the boundary: 0 fill (fillvalue),
 * 1 wrap (circular), 2 symm (mirrored, the edge repeated). */
/* An index outside [0, n) folded back in: wrap (1) or symm (2). */
__device__ __forceinline__ long long em_conv_index(long long x, long long n,
                                                    int boundary)
{
    if (boundary == 1) {
        x %= n;
        return x < 0 ? x + n : x;
    }
    x %= 2 * n;
    if (x < 0)
        x += 2 * n;
    return x < n ? x : 2 * n - 1 - x;
}

/* a[gi][gj] with the boundary applied */
template <typename T>
__device__ __forceinline__ T em_conv_load(const T *a, long long M,
                                          long long N, long long gi,
                                          long long gj, int boundary, T fill)
{
    if (gi < 0 || gi >= M) {
        if (boundary == 0)
            return fill;
        gi = em_conv_index(gi, M, boundary);
    }
    if (gj < 0 || gj >= N) {
        if (boundary == 0)
            return fill;
        gj = em_conv_index(gj, N, boundary);
    }
    return a[gi * N + gj];
}

template <typename T>
__global__ void em_conv2d(const T *a, long long M, long long N, const T *k,
                          long long P, long long Q, T *out, long long OM,
                          long long ON, long long i0, long long j0,
                          int boundary, T fill)
{
    long long total = OM * ON;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         e < total; e += (long long)gridDim.x * blockDim.x) {
        long long i = e / ON + i0, j = e % ON + j0;
        T acc = 0;
        for (long long u = 0; u < P; u++) {
            long long ai = i - u;
            if (ai < 0 || ai >= M) {
                if (boundary == 0) {
                    for (long long v = 0; v < Q; v++)
                        acc += fill * k[u * Q + v];
                    continue;
                }
                ai = em_conv_index(ai, M, boundary);
            }
            for (long long v = 0; v < Q; v++) {
                long long aj = j - v;
                T x;
                if (aj >= 0 && aj < N)
                    x = a[ai * N + aj];
                else if (boundary == 0)
                    x = fill;
                else
                    x = a[ai * N + em_conv_index(aj, N, boundary)];
                acc += x * k[u * Q + v];
            }
        }
        out[e] = acc;
    }
}

/* The same sums a block a tile at a time, for the GPU (where every tap of
 * em_conv2d is a global load: 25 of them an output for 5x5, so it ran at
 * about 8% of copy bandwidth).
 *
 * Floor and what to expect (4096^2 float32, H200, 4.1 TB/s): reading and
 * writing the image once is 134 MB, 0.041 ms. Here the image is read once
 * (plus the halo, 16% more for 5x5, L2 hits for the most part) and every
 * tap is a shared-memory load, conflict-free (a warp's 32 lanes read 32
 * consecutive words of a tile row), with the tap's weight a broadcast load
 * shared by the thread's outputs. Shared memory serves one warp-wide load
 * a clock an SM, so 5x5 is about 14 M warp loads, 0.055 ms at 132 SMs and
 * 1.98 GHz, beside the 0.041 ms of global traffic: about 0.07 ms expected
 * (target 0.12). 31x31 is 16 G multiply-adds, 0.53 G warp loads: about
 * 2.1 ms (target 5), bound by shared-memory loads, not the FMA units.
 *
 * A block is EM_CONV_BX x EM_CONV_BY threads; each computes EM_CONV_CX x
 * CY outputs, at strides BX along a row and BY down a column, so a warp's
 * loads and stores cover consecutive columns. The block's tile of outputs
 * is TW = BX * CX wide and TH = BY * CY high; shared memory holds cu rows
 * of the kernel and the (TH + cu - 1) x (TW + Q - 1) input values they
 * reach, the boundary applied as they are loaded. Kernels taller than cu
 * rows are done cu rows at a time; the sum's order is em_conv2d's (u, then
 * v), so results are the plain kernel's to the rounding of FMA
 * contraction. The launch passes the shared memory, sized by the caller
 * (signal.py's _tile_plan) to at most 48 KiB. Tiles are grid-strided, one
 * block a tile at a time. */
#define EM_CONV_BX 32
#define EM_CONV_BY 8
#define EM_CONV_CX 4
#define EM_CONV_CI 5 /* tile columns a thread loads unrolled: 160 (Q <= 33) */
/* a thread's load q of a pair of rows from r0: its row, its column, and
 * whether the tile has that place (q is a constant once unrolled) */
#define EM_CONV_R(r0, q) ((r0) + (q) / EM_CONV_CI * EM_CONV_BY)
#define EM_CONV_C(q) (tx + (q) % EM_CONV_CI * EM_CONV_BX)
#define EM_CONV_IN(r0, q) (EM_CONV_R(r0, q) < rows && EM_CONV_C(q) < cols)

template <typename T, int CY>
__global__ void __launch_bounds__(EM_CONV_BX * EM_CONV_BY)
em_conv2d_tile(const T *a, long long M, long long N, const T *k, int P,
               int Q, T *out, long long OM, long long ON, long long i0,
               long long j0, int boundary, T fill, int cu)
{
    extern __shared__ double em_conv_smem[];
    const int TW = EM_CONV_BX * EM_CONV_CX, TH = EM_CONV_BY * CY;
    const int cols = TW + Q - 1;
    T *kw = (T *)em_conv_smem, *tile = kw + cu * Q;
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * EM_CONV_BX + tx;
    long long tiles_x = (ON + TW - 1) / TW;
    long long ntiles = tiles_x * ((OM + TH - 1) / TH);
    for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
        long long by = t / tiles_x * TH, bx = t % tiles_x * TW;
        long long cbase = bx + j0 - (Q - 1);
        T acc[CY][EM_CONV_CX];
        for (int ry = 0; ry < CY; ry++)
            for (int rx = 0; rx < EM_CONV_CX; rx++)
                acc[ry][rx] = 0;
        for (int u0 = 0; u0 < P; u0 += cu) {
            int nu = P - u0 < cu ? P - u0 : cu;
            int rows = TH + nu - 1;
            long long rbase = by + i0 - u0 - (nu - 1);
            __syncthreads(); /* the last chunk's readers are done */
            for (int e = tid; e < nu * Q; e += EM_CONV_BX * EM_CONV_BY)
                kw[e] = k[(long long)u0 * Q + e];
            /* two rows of EM_CONV_CI columns a thread at once, every
             * load issued before the first store, so a block waits for
             * global memory about once a pair of rows, not once a value */
            for (int r0 = ty; r0 < rows; r0 += 2 * EM_CONV_BY) {
                T x[2 * EM_CONV_CI];
#pragma unroll
                for (int q = 0; q < 2 * EM_CONV_CI; q++)
                    x[q] = EM_CONV_IN(r0, q)
                               ? em_conv_load(a, M, N, rbase + EM_CONV_R(r0, q),
                                              cbase + EM_CONV_C(q), boundary, fill)
                               : fill;
#pragma unroll
                for (int q = 0; q < 2 * EM_CONV_CI; q++)
                    if (EM_CONV_IN(r0, q))
                        tile[EM_CONV_R(r0, q) * cols + EM_CONV_C(q)] = x[q];
            }
            /* the columns of kernels wider than the unrolled ones reach */
            for (int r = ty; r < rows; r += EM_CONV_BY)
                for (int c = tx + EM_CONV_CI * EM_CONV_BX; c < cols;
                     c += EM_CONV_BX)
                    tile[r * cols + c] = em_conv_load(a, M, N, rbase + r,
                                                      cbase + c, boundary,
                                                      fill);
            __syncthreads();
            for (int uu = 0; uu < nu; uu++) {
                /* output (ly, lx) reads tile[ly - uu + nu - 1][lx - v + Q - 1] */
                const T *base = tile + (ty + nu - 1 - uu) * cols + tx + Q - 1;
                const T *wrow = kw + uu * Q;
                for (int v = 0; v < Q; v++) {
                    T w = wrow[v];
                    for (int ry = 0; ry < CY; ry++)
                        for (int rx = 0; rx < EM_CONV_CX; rx++)
                            acc[ry][rx] += base[ry * EM_CONV_BY * cols +
                                                rx * EM_CONV_BX - v] * w;
                }
            }
        }
        for (int ry = 0; ry < CY; ry++) {
            long long oi = by + ty + ry * EM_CONV_BY;
            for (int rx = 0; rx < EM_CONV_CX; rx++) {
                long long oj = bx + tx + rx * EM_CONV_BX;
                if (oi < OM && oj < ON)
                    out[oi * ON + oj] = acc[ry][rx];
            }
        }
    }
}
