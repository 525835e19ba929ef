/* ember codegen: product kernel source and launch (see matmul.h). */
#include <stdlib.h>
#include <string.h>

#include "codegen/ewise.h"
#include "codegen/linalg_table.h"
#include "codegen/matmul.h"

/* The per-dtype arithmetic: MM_MAC(c, a, b) is c += a * b in the compute
 * type, MM_ADD(c, a) is c += a. */
static void emit_arith(em_gen_buf *b, em_dtype dt)
{
    const em_gen_lt_type *t = em_gen_lt_type_of(dt);
    em_gen_buf_printf(b,
                      "typedef %s mm_t;\ntypedef %s mm_acc;\n"
                      "#define MM_LD(x) %s\n#define MM_ST(x) %s\n"
                      "#define MM_ZERO %s\n",
                      t->storage, t->acc, t->ld, t->st, t->zero);
    switch (t->cls) {
    case 'b':
        em_gen_buf_printf(b,
                          "#define MM_MAC(c, a, b) ((c) |= (ew_b)((a) & (b)))\n"
                          "#define MM_ADD(c, a) ((c) |= (a))\n");
        break;
    case 'c':
        em_gen_buf_printf(
            b, "#define MM_MAC(c, a, b) do { (c).re += (a).re * (b).re - "
               "(a).im * (b).im; (c).im += (a).re * (b).im + (a).im * "
               "(b).re; } while (0)\n"
               "#define MM_ADD(c, a) do { (c).re += (a).re; (c).im += "
               "(a).im; } while (0)\n");
        break;
    default:
        em_gen_buf_printf(b, "#define MM_MAC(c, a, b) ((c) += (a) * (b))\n"
                             "#define MM_ADD(c, a) ((c) += (a))\n");
    }
}

static void emit_geom(em_gen_buf *b)
{
    em_gen_buf_printf(
        b,
        "struct mm_geom { long long M, N, K, nbatch, am, ak, bk, bn, cm, cn, "
        "nbd; long long shape[%d], sa[%d], sb[%d], sc[%d]; };\n"
        /* Byte offsets of batch z in A, B and C. */
        "EW_FN void mm_batch(const struct "
        "mm_geom *g, long long z, long long *oa, long long *ob, long long "
        "*oc)\n{\n"
        "    long long a = 0, b = 0, c = 0;\n"
        "    for (long long d = g->nbd - 1; d >= 0; d--) {\n"
        "        long long i = z %% g->shape[d];\n"
        "        z /= g->shape[d];\n"
        "        a += i * g->sa[d]; b += i * g->sb[d]; c += i * g->sc[d];\n"
        "    }\n"
        "    *oa = a; *ob = b; *oc = c;\n}\n",
        EM_MAX_NDIM, EM_MAX_NDIM, EM_MAX_NDIM, EM_MAX_NDIM);
}

/* Element access inside the kernels (A, B, C, g and the batch offsets
 * oa, ob, oc in scope). */
static const char access_macros[] =
    "#define MM_A(m, k) MM_LD(*(const mm_t *)(A + oa + (m) * g.am + (k) * "
    "g.ak))\n"
    "#define MM_B(k, n) MM_LD(*(const mm_t *)(B + ob + (k) * g.bk + (n) * "
    "g.bn))\n"
    "#define MM_C(m, n) (*(mm_t *)(C + oc + (m) * g.cm + (n) * g.cn))\n";

/* 64x64 tiles, k steps of 16, 256 threads of 4x4 outputs. Rows ty + 16i
 * and columns tx + 16j (not 4 adjacent ones) keep the shared-memory reads
 * of a warp on distinct banks or broadcasts. The A tile is loaded with k
 * fastest and the B tile with n fastest: coalesced for row-major
 * operands. As has a padded row so that its k-fastest stores spread over
 * the banks. Blocks stride over tiles and batches (uniformly, so the
 * barriers are reached by every thread). */
static const char tile_cuda[] =
    "    __shared__ mm_acc As[16][65];\n"
    "    __shared__ mm_acc Bs[16][65];\n"
    "    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;\n"
    "    const long long mt = (g.M + 63) / 64, nt = (g.N + 63) / 64;\n"
    "    for (long long z = blockIdx.z; z < g.nbatch; z += gridDim.z) {\n"
    "    long long oa, ob, oc;\n"
    "    mm_batch(&g, z, &oa, &ob, &oc);\n"
    "    for (long long ti = blockIdx.y; ti < mt; ti += gridDim.y)\n"
    "    for (long long tj = blockIdx.x; tj < nt; tj += gridDim.x) {\n"
    "        const long long m0 = ti * 64, n0 = tj * 64;\n"
    "        mm_acc acc[4][4];\n"
    "#pragma unroll\n"
    "        for (int i = 0; i < 4; i++)\n"
    "#pragma unroll\n"
    "            for (int j = 0; j < 4; j++)\n"
    "                acc[i][j] = MM_ZERO;\n"
    "        for (long long k0 = 0; k0 < g.K; k0 += 16) {\n"
    "#pragma unroll\n"
    "            for (int e = 0; e < 4; e++) {\n"
    "                const int idx = tid + 256 * e;\n"
    "                const int ka = MM_KA, ma = MM_MA;\n"
    "                const int nb = MM_NB, kb = MM_KB;\n"
    "                const long long m = m0 + ma, n = n0 + nb;\n"
    "                As[ka][ma] = (m < g.M && k0 + ka < g.K)\n"
    "                                 ? MM_A(m, k0 + ka) : MM_ZERO;\n"
    "                Bs[kb][nb] = (n < g.N && k0 + kb < g.K)\n"
    "                                 ? MM_B(k0 + kb, n) : MM_ZERO;\n"
    "            }\n"
    "            __syncthreads();\n"
    "#pragma unroll\n"
    "            for (int kk = 0; kk < 16; kk++) {\n"
    "                mm_acc a[4], b[4];\n"
    "#pragma unroll\n"
    "                for (int i = 0; i < 4; i++) {\n"
    "                    a[i] = As[kk][ty + 16 * i];\n"
    "                    b[i] = Bs[kk][tx + 16 * i];\n"
    "                }\n"
    "#pragma unroll\n"
    "                for (int i = 0; i < 4; i++)\n"
    "#pragma unroll\n"
    "                    for (int j = 0; j < 4; j++)\n"
    "                        MM_MAC(acc[i][j], a[i], b[j]);\n"
    "            }\n"
    "            __syncthreads();\n"
    "        }\n"
    "#pragma unroll\n"
    "        for (int i = 0; i < 4; i++)\n"
    "#pragma unroll\n"
    "            for (int j = 0; j < 4; j++) {\n"
    "                const long long m = m0 + ty + 16 * i;\n"
    "                const long long n = n0 + tx + 16 * j;\n"
    "                if (m < g.M && n < g.N)\n"
    "                    MM_C(m, n) = MM_ST(acc[i][j]);\n"
    "            }\n"
    "    }\n"
    "    }\n"
    "}\n";

/* m = n = 1: each block reduces whole outputs, striding over them. */
static const char dot_cuda[] =
    "    __shared__ mm_acc red[256];\n"
    "    const int tid = threadIdx.x;\n"
    "    for (long long z = blockIdx.x; z < g.nbatch; z += gridDim.x) {\n"
    "        long long oa, ob, oc;\n"
    "        mm_acc acc = MM_ZERO;\n"
    "        mm_batch(&g, z, &oa, &ob, &oc);\n"
    "        for (long long k = tid; k < g.K; k += 256) {\n"
    "            const mm_acc a = MM_A(0, k), b = MM_B(k, 0);\n"
    "            MM_MAC(acc, a, b);\n"
    "        }\n"
    "        red[tid] = acc;\n"
    "        __syncthreads();\n"
    "        for (int s = 128; s > 0; s >>= 1) {\n"
    "            if (tid < s)\n"
    "                MM_ADD(red[tid], red[tid + s]);\n"
    "            __syncthreads();\n"
    "        }\n"
    "        if (tid == 0)\n"
    "            MM_C(0, 0) = MM_ST(red[0]);\n"
    "        __syncthreads();\n"
    "    }\n"
    "}\n";

/* The host: one block per 32x32 tile at a time; A and B panels are packed
 * into local buffers in the compute type so that the inner loop over the
 * tile's row is unit-stride whatever the operands' strides. Edge tiles
 * shrink, so m = n = 1 costs one pass over k. */
static const char tile_host[] =
    "    mm_acc ap[32][64], bp[64][32], acc[32][32];\n"
    "    const long long mt = (g.M + 31) / 32, nt = (g.N + 31) / 32;\n"
    "    const long long total = mt * nt * g.nbatch;\n"
    "    for (long long t = blockIdx.x; t < total; t += gridDim.x) {\n"
    "        const long long tj = t % nt, ti = (t / nt) % mt;\n"
    "        const long long z = t / nt / mt;\n"
    "        const long long m0 = ti * 32, n0 = tj * 32;\n"
    "        const int tm = g.M - m0 < 32 ? (int)(g.M - m0) : 32;\n"
    "        const int tn = g.N - n0 < 32 ? (int)(g.N - n0) : 32;\n"
    "        long long oa, ob, oc;\n"
    "        mm_batch(&g, z, &oa, &ob, &oc);\n"
    "        for (int i = 0; i < tm; i++)\n"
    "            for (int j = 0; j < tn; j++)\n"
    "                acc[i][j] = MM_ZERO;\n"
    "        for (long long k0 = 0; k0 < g.K; k0 += 64) {\n"
    "            const int tk = g.K - k0 < 64 ? (int)(g.K - k0) : 64;\n"
    "            for (int i = 0; i < tm; i++)\n"
    "                for (int k = 0; k < tk; k++)\n"
    "                    ap[i][k] = MM_A(m0 + i, k0 + k);\n"
    "            for (int k = 0; k < tk; k++)\n"
    "                for (int j = 0; j < tn; j++)\n"
    "                    bp[k][j] = MM_B(k0 + k, n0 + j);\n"
    "            for (int i = 0; i < tm; i++)\n"
    "                for (int k = 0; k < tk; k++) {\n"
    "                    const mm_acc a = ap[i][k];\n"
    "                    for (int j = 0; j < tn; j++)\n"
    "                        MM_MAC(acc[i][j], a, bp[k][j]);\n"
    "                }\n"
    "        }\n"
    "        for (int i = 0; i < tm; i++)\n"
    "            for (int j = 0; j < tn; j++)\n"
    "                MM_C(m0 + i, n0 + j) = MM_ST(acc[i][j]);\n"
    "    }\n"
    "}\n";

/* Which thread loads which tile element: consecutive threads run along
 * the operand's contiguous axis (k for row-major A, m for a transposed
 * one; n for row-major B, k for a transposed one), so loads coalesce. */
static void emit_tile_maps(em_gen_buf *b, const em_gen_matmul *d)
{
    em_gen_buf_printf(b, "%s%s",
                      d->a_mfast ? "#define MM_MA (idx & 63)\n"
                                   "#define MM_KA (idx >> 6)\n"
                                 : "#define MM_KA (idx & 15)\n"
                                   "#define MM_MA (idx >> 4)\n",
                      d->b_kfast ? "#define MM_KB (idx & 15)\n"
                                   "#define MM_NB (idx >> 4)\n"
                                 : "#define MM_NB (idx & 63)\n"
                                   "#define MM_KB (idx >> 6)\n");
}

static void emit_kernel(em_gen_buf *b, const char *name, int cuda,
                        const char *body)
{
    em_gen_buf_printf(b,
                      "%sextern \"C\" __global__ void %s%s(const char *A, "
                      "const char *B, char *C, struct mm_geom g)\n{\n%s",
                      access_macros, cuda ? "__launch_bounds__(256) " : "",
                      name, body);
}

em_status em_gen_matmul_source(const em_gen_matmul *d, em_device_type target,
                               const char *name, char **out)
{
    em_gen_buf b = {0};
    const char *base = em_gen_ops_base();
    if (!d || !name || !out)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_gen_matmul_source: NULL argument");
    *out = NULL;
    if (d->dtype >= EM_DTYPE_COUNT || d->kind > EM_GEN_MM_DOT ||
        d->a_mfast > 1 || d->b_kfast > 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "matmul generator: bad descriptor (dtype %d, kind %d)",
                        d->dtype, d->kind);
    if (!base)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a matmul kernel");
    em_gen_buf_printf(
        &b, "/* ember matmul: %s, %s */\n%s\n",
        em_dtype_get((em_dtype)d->dtype)->name,
        target == EM_DEVICE_CUDA && d->kind == EM_GEN_MM_DOT ? "dot" : "tile",
        base);
    emit_arith(&b, (em_dtype)d->dtype);
    emit_geom(&b);
    if (target == EM_DEVICE_CUDA && d->kind == EM_GEN_MM_TILE)
        emit_tile_maps(&b, d);
    if (target != EM_DEVICE_CUDA)
        emit_kernel(&b, name, 0, tile_host);
    else
        emit_kernel(&b, name, 1,
                    d->kind == EM_GEN_MM_DOT ? dot_cuda : tile_cuda);
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a matmul kernel");
    }
    *out = b.p;
    return EM_OK;
}

static em_status source_from_key(uint64_t key, em_device_type target,
                                 const char *name, char **out)
{
    em_gen_matmul d;
    d.dtype = (uint8_t)(key & 0xff);
    d.kind = (uint8_t)((key >> 8) & 0xff);
    d.a_mfast = (uint8_t)((key >> 16) & 1);
    d.b_kfast = (uint8_t)((key >> 17) & 1);
    return em_gen_matmul_source(&d, target, name, out);
}

static unsigned cap_grid(long long n, long long cap)
{
    return (unsigned)(n < 1 ? 1 : n > cap ? cap : n);
}

em_status em_gen_matmul_run(em_device *dev, em_dtype dtype, const void *A,
                            const void *B, void *C, const em_gen_mm_geom *g,
                            em_stream *s)
{
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    int kind = cuda && g->M == 1 && g->N == 1 ? EM_GEN_MM_DOT : EM_GEN_MM_TILE;
    int a_mfast = 0, b_kfast = 0;
    uint64_t key;
    em_function *fn;
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    em_gen_mm_geom geom = *g;
    const void *pa = A, *pb = B;
    void *pc = C, *args[4];
    em_status st;

    if (g->M <= 0 || g->N <= 0 || g->nbatch <= 0)
        return EM_OK;
    if (!cuda)
        kind = EM_GEN_MM_TILE; /* one host kernel serves both */
    if (cuda && kind == EM_GEN_MM_TILE) {
        int64_t isz = (int64_t)em_dtype_size(dtype);
        /* The contiguous axis of each operand decides the load order. */
        a_mfast = g->am == isz && g->ak != isz;
        b_kfast = g->bk == isz && g->bn != isz;
    }
    key = ((uint64_t)EM_GEN_FAMILY_MATMUL << 56) | ((uint64_t)b_kfast << 17) |
          ((uint64_t)a_mfast << 16) | ((uint64_t)kind << 8) | (uint64_t)dtype;
    st = em_gen_table_function(dev, key, source_from_key, "mm",
                               EM_GEN_MATMUL_VERSION, &fn);
    if (st != EM_OK)
        return st;
    if (cuda) {
        block.x = 256;
        if (kind == EM_GEN_MM_DOT) {
            grid.x = cap_grid(g->nbatch, 1 << 20);
        } else {
            /* Blocks stride over what the grid's limits leave out. */
            grid.x = cap_grid((g->N + 63) / 64, 1 << 20);
            grid.y = cap_grid((g->M + 63) / 64, 65535);
            grid.z = cap_grid(g->nbatch, 65535);
        }
    } else {
        long long tiles = ((g->M + 31) / 32) * ((g->N + 31) / 32) * g->nbatch;
        grid.x = cap_grid(tiles, 1 << 20);
    }
    args[0] = &pa;
    args[1] = &pb;
    args[2] = &pc;
    args[3] = &geom;
    return em_launch(fn, grid, block, 0, s, args);
}
