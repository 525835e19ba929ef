/* ember codegen: compaction and hash-set kernel source (see compact.h).
 *
 * Elements move as unsigned words of their size, so one kernel serves every
 * dtype of that size. The cuda write kernel stages a tile's selected
 * elements in shared memory before writing them: each thread owns `vec`
 * consecutive flags, so writing straight from registers would scatter
 * every store instruction over the warp's whole output span.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/compact.h"
#include "core/strbuf.h"

static const char *word_type(int bytes)
{
    switch (bytes) {
    case 1:
        return "unsigned char";
    case 2:
        return "unsigned short";
    case 4:
        return "unsigned int";
    case 8:
        return "unsigned long long";
    case 16:
        return "cc_e16";
    default:
        return NULL;
    }
}

void em_gen_compact_fill(em_gen_compact *d, em_device_type target)
{
    memset(d->pad, 0, sizeof d->pad);
    if (target != EM_DEVICE_CUDA || d->kind == EM_GEN_COMPACT_ROWS ||
        d->kind == EM_GEN_COMPACT_HASH)
        d->vec = 0;
    else
        d->vec = (d->kind == EM_GEN_COMPACT_ELEM ||
                  d->kind == EM_GEN_COMPACT_PART) &&
                         d->elem == 16
                     ? 8
                     : 16;
}

int64_t em_gen_compact_tile(const em_gen_compact *d, em_device_type target)
{
    if (target != EM_DEVICE_CUDA)
        return EM_GEN_COMPACT_HOST_TILE;
    return (int64_t)EM_GEN_COMPACT_BLOCK * d->vec;
}

static em_status check_desc(const em_gen_compact *d, em_device_type target)
{
    int ok = 1;
    switch (d->kind) {
    case EM_GEN_COMPACT_ELEM:
    case EM_GEN_COMPACT_PART:
    case EM_GEN_COMPACT_ROWS:
        ok = word_type(d->elem) != NULL;
        break;
    case EM_GEN_COMPACT_INDEX:
        break;
    case EM_GEN_COMPACT_COORDS:
        ok = d->ndim >= 1 && d->ndim <= EM_MAX_NDIM;
        break;
    case EM_GEN_COMPACT_HASH:
        ok = d->elem == 4 || d->elem == 8;
        break;
    default:
        ok = 0;
    }
    if (ok && target == EM_DEVICE_CUDA && d->kind <= EM_GEN_COMPACT_COORDS)
        ok = d->vec == 8 || d->vec == 16;
    return ok ? EM_OK
              : em_error(EM_ERR_INVALID_VALUE,
                         "compaction generator: bad descriptor (kind %d, "
                         "element size %d, rank %d, vec %d)",
                         d->kind, d->elem, d->ndim, d->vec);
}

/* What a tile stages and writes: the element word, or an int64 index. */
static const char *stage_type(const em_gen_compact *d)
{
    return d->kind == EM_GEN_COMPACT_ELEM || d->kind == EM_GEN_COMPACT_PART
               ? word_type(d->elem)
               : "long long";
}

static void emit_common(em_sb *b, em_device_type target)
{
    em_sb_puts(b, "typedef struct __align__(16) cc_e16 { unsigned long long "
                  "lo, hi; } cc_e16;\n");
    if (target != EM_DEVICE_CUDA)
        return;
    /* Nonzero bytes of a word: bit 7 of each byte set iff the byte is
     * nonzero (no carry crosses a byte), gathered into the low 4 bits. */
    em_sb_puts(b, "__device__ __forceinline__ unsigned cc_nz4(unsigned w)\n{\n"
                  "    const unsigned f = (((w & 0x7f7f7f7fu) + 0x7f7f7f7fu) "
                  "| w) & 0x80808080u;\n"
                  "    return ((f >> 7) * 0x204081u) >> 21 & 0xfu;\n}\n");
}

/* ---- cuda ---------------------------------------------------------------- */

static void cuda_count(em_sb *b, const em_gen_compact *d)
{
    int V = d->vec, T = EM_GEN_COMPACT_BLOCK * V,
        C = EM_GEN_COMPACT_COUNT_TILES;
    em_sb_printf(
        b,
        "extern \"C\" __global__ void __launch_bounds__(%d) cc_count(const "
        "unsigned char *m, long long n, long long nt, int *counts)\n{\n"
        "    __shared__ int part[%d][%d];\n"
        "    const long long t0 = (long long)blockIdx.x * %d;\n"
        "    const int fast = !((unsigned long long)m & 15);\n"
        "    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;\n"
        "    int c[%d];\n"
        "#pragma unroll\n"
        "    for (int k = 0; k < %d; k++) {\n"
        "        const long long lo = (t0 + k) * %d + threadIdx.x * %d;\n"
        "        c[k] = 0;\n"
        "        if (fast && lo + %d <= n) {\n",
        EM_GEN_COMPACT_BLOCK, C, EM_GEN_COMPACT_BLOCK / 32, C, C, C, T, V, V);
    if (V == 16)
        em_sb_puts(b,
                   "            const uint4 q = *(const uint4 *)(m + lo);\n"
                   "            c[k] = __popc(cc_nz4(q.x) | cc_nz4(q.y) << 4 "
                   "| cc_nz4(q.z) << 8 | cc_nz4(q.w) << 12);\n");
    else
        em_sb_puts(b, "            const uint2 q = *(const uint2 *)(m + lo);\n"
                      "            c[k] = __popc(cc_nz4(q.x) | cc_nz4(q.y) << "
                      "4);\n");
    em_sb_printf(b,
                 "        } else {\n"
                 "            for (int j = 0; j < %d; j++)\n"
                 "                c[k] += lo + j < n && m[lo + j] != 0;\n"
                 "        }\n"
                 "        for (int o = 16; o > 0; o >>= 1)\n"
                 "            c[k] += __shfl_xor_sync(0xffffffffu, c[k], o);\n"
                 "        if (lane == 0)\n            part[k][w] = c[k];\n"
                 "    }\n"
                 "    __syncthreads();\n"
                 "    if (threadIdx.x < %d && t0 + threadIdx.x < nt) {\n"
                 "        int s = 0;\n"
                 "        for (int i = 0; i < %d; i++)\n"
                 "            s += part[threadIdx.x][i];\n"
                 "        counts[t0 + threadIdx.x] = s;\n    }\n}\n",
                 V, C, EM_GEN_COMPACT_BLOCK / 32);
}

/* One block of 1,024 threads scans the per-tile counts in rounds of
 * 8,192: thread t sums counts [8t, 8t + 8) of the round (two 16-byte
 * loads; the next round's are in flight during this round's block scan),
 * and the round's offsets go out through shared memory, a warp writing
 * 256 consecutive bytes. The first version gave each thread one
 * contiguous 1/1,024 of all the counts, so every warp access touched 32
 * lines: 132 us of nonzero's 726 on 2^28 flags (65,536 tiles), one SM's
 * L1 doing it all; with each thread storing its own 8 offsets (four
 * 16-byte stores, 16 lines a warp store) it took 32 us. */
static void cuda_scan(em_sb *b)
{
    em_sb_puts(
        b,
        "extern \"C\" __global__ void __launch_bounds__(1024) cc_scan(const "
        "int *counts, long long nt, long long *offs)\n{\n"
        "    __shared__ long long ws[32];\n"
        "    __shared__ __align__(16) int st[8192];\n"
        "    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;\n"
        "    const int vec = !((unsigned long long)counts & 15);\n"
        "    long long carry = 0;\n"
        "    int c[8], nx[8];\n"
        "#define CC_LOAD(r, a) do { const long long i0 = (r) + 8ll * "
        "threadIdx.x; \\\n"
        "        if (vec && i0 + 8 <= nt) { \\\n"
        "            const int4 p = *(const int4 *)(counts + i0), q = "
        "*(const int4 *)(counts + i0 + 4); \\\n"
        "            a[0] = p.x; a[1] = p.y; a[2] = p.z; a[3] = p.w; \\\n"
        "            a[4] = q.x; a[5] = q.y; a[6] = q.z; a[7] = q.w; \\\n"
        "        } else { \\\n"
        "            for (int k = 0; k < 8; k++) a[k] = i0 + k < nt ? "
        "counts[i0 + k] : 0; \\\n"
        "        } } while (0)\n"
        "    CC_LOAD(0ll, nx);\n"
        "    for (long long r = 0; r < nt; r += 8192) {\n"
        "        int s = 0;\n"
        "#pragma unroll\n"
        "        for (int k = 0; k < 8; k++) {\n"
        "            c[k] = nx[k];\n            s += c[k];\n        }\n"
        "        if (r + 8192 < nt)\n            CC_LOAD(r + 8192, nx);\n"
        "        long long v = s;\n"
        "        for (int o = 1; o < 32; o <<= 1) {\n"
        "            const long long y = __shfl_up_sync(0xffffffffu, v, o);\n"
        "            if (lane >= o)\n                v += y;\n        }\n"
        "        if (lane == 31)\n            ws[w] = v;\n"
        "        __syncthreads();\n"
        "        if (w == 0) {\n"
        "            long long u = ws[lane];\n"
        "            for (int o = 1; o < 32; o <<= 1) {\n"
        "                const long long y = __shfl_up_sync(0xffffffffu, u, "
        "o);\n"
        "                if (lane >= o)\n                    u += y;\n"
        "            }\n"
        "            ws[lane] = u;\n        }\n"
        "        __syncthreads();\n"
        /* a round's own prefixes fit an int: 8,192 tiles of at most
         * 4,096 flags */
        "        int base = (int)(v - s + (w ? ws[w - 1] : 0));\n"
        "        const long long total = ws[31];\n"
        "        int o[8];\n"
        "#pragma unroll\n"
        "        for (int k = 0; k < 8; k++) {\n"
        "            o[k] = base;\n            base += c[k];\n        }\n"
        "        *(int4 *)(st + 8 * threadIdx.x) = make_int4(o[0], o[1], "
        "o[2], o[3]);\n"
        "        *(int4 *)(st + 8 * threadIdx.x + 4) = make_int4(o[4], o[5], "
        "o[6], o[7]);\n"
        "        __syncthreads();\n"
        "#pragma unroll\n"
        "        for (int k = 0; k < 8; k++) {\n"
        "            const long long i = r + k * 1024 + threadIdx.x;\n"
        "            if (i < nt)\n"
        "                offs[i] = carry + st[k * 1024 + threadIdx.x];\n"
        "        }\n"
        "        carry += total;\n"
        "        __syncthreads();\n"
        "    }\n"
        "#undef CC_LOAD\n"
        "    if (threadIdx.x == 0)\n        offs[nt] = carry;\n}\n");
}

/* The coordinates of flat index r, written at column `at` of the
 * (R, total) output; `narrow` says whether r fits 32 bits. */
static void emit_coords(em_sb *b, int R, const char *at)
{
    if (R > 1) {
        em_sb_puts(b, "        if (narrow) {\n"
                      "            unsigned q = (unsigned)r;\n");
        for (int dim = R - 1; dim > 0; dim--)
            em_sb_printf(b,
                         "            out[%d * total + %s] = q %% (unsigned)"
                         "g.s[%d];\n"
                         "            q /= (unsigned)g.s[%d];\n",
                         dim, at, dim, dim);
        em_sb_printf(b, "            out[%s] = q;\n        } else {\n", at);
        for (int dim = R - 1; dim > 0; dim--)
            em_sb_printf(b,
                         "            out[%d * total + %s] = r %% g.s[%d];\n"
                         "            r /= g.s[%d];\n",
                         dim, at, dim, dim);
        em_sb_printf(b, "            out[%s] = r;\n        }\n", at);
    } else {
        em_sb_printf(b, "        out[%s] = r;\n        (void)narrow;\n", at);
    }
}

/* Each thread owns `vec` consecutive flags of the tile (one 16- or
 * 8-byte load) and the matching elements (16-byte loads); a block-wide
 * scan of the per-thread counts places each selected element, which is
 * staged in shared memory so the tile goes out coalesced. (A variant that
 * gave each thread every 256th flag, ordered by warp ballots, measured
 * slower on the H100: 0.96 ms against 0.85 for a[mask] of 2^28 float32.)
 */
static void cuda_write(em_sb *b, const em_gen_compact *d)
{
    int V = d->vec, T = EM_GEN_COMPACT_BLOCK * V, R = d->ndim;
    int data = d->kind == EM_GEN_COMPACT_ELEM || d->kind == EM_GEN_COMPACT_PART;
    const char *st = stage_type(d), *et = data ? word_type(d->elem) : NULL;
    em_sb_printf(
        b,
        "struct cc_shape { long long s[%d]; };\n"
        "extern \"C\" __global__ void __launch_bounds__(%d) "
        "cc_write(const unsigned char *m, const %s *x, long long n, "
        "const long long *offs, %s *out, long long total, struct "
        "cc_shape g)\n{\n"
        "    __shared__ %s stage[%d];\n"
        "    __shared__ int ws[%d];\n"
        "    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;\n"
        "    const long long base = (long long)blockIdx.x * %d;\n"
        "    const int mine = threadIdx.x * %d;\n"
        "    const long long lo = base + mine;\n"
        "    const int fast = lo + %d <= n && !(((unsigned long long)m "
        "| (unsigned long long)x) & 15);\n"
        "    unsigned bits = 0;\n"
        "    (void)g;\n    (void)total;\n",
        R > 0 ? R : 1, EM_GEN_COMPACT_BLOCK, data ? et : "void", st, st, T,
        EM_GEN_COMPACT_BLOCK / 32, T, V, V);
    if (V == 16)
        em_sb_puts(b, "    if (fast) {\n"
                      "        const uint4 q = *(const uint4 *)(m + lo);\n"
                      "        bits = cc_nz4(q.x) | cc_nz4(q.y) << 4 | "
                      "cc_nz4(q.z) << 8 | cc_nz4(q.w) << 12;\n");
    else
        em_sb_puts(b, "    if (fast) {\n"
                      "        const uint2 q = *(const uint2 *)(m + lo);\n"
                      "        bits = cc_nz4(q.x) | cc_nz4(q.y) << 4;\n");
    em_sb_printf(b,
                 "    } else {\n"
                 "        for (int j = 0; j < %d; j++)\n"
                 "            if (lo + j < n && m[lo + j] != 0)\n"
                 "                bits |= 1u << j;\n    }\n"
                 "    const int c = __popc(bits);\n"
                 "    int v = c;\n"
                 "    for (int o = 1; o < 32; o <<= 1) {\n"
                 "        const int y = __shfl_up_sync(0xffffffffu, v, o);\n"
                 "        if (lane >= o)\n            v += y;\n    }\n"
                 "    if (lane == 31)\n        ws[w] = v;\n"
                 "    __syncthreads();\n"
                 "    int before = 0, all = 0;\n"
                 "#pragma unroll\n"
                 "    for (int i = 0; i < %d; i++) {\n"
                 "        before += i < w ? ws[i] : 0;\n"
                 "        all += ws[i];\n    }\n"
                 "    int at = before + v - c;\n",
                 V, EM_GEN_COMPACT_BLOCK / 32);
    if (data) {
        /* Data is read only where a flag is set in the thread's span, so a
         * sparse mask reads little of it. */
        em_sb_printf(b,
                     "    __align__(16) %s e[%d];\n"
                     "    if (bits || %d) {\n"
                     "        if (fast) {\n"
                     "#pragma unroll\n"
                     "            for (int k = 0; k < %d; k++)\n"
                     "                ((uint4 *)e)[k] = ((const uint4 *)(x + "
                     "lo))[k];\n"
                     "        } else {\n"
                     "            for (int j = 0; j < %d; j++)\n"
                     "                if (lo + j < n)\n"
                     "                    e[j] = x[lo + j];\n"
                     "        }\n    }\n",
                     et, V, d->kind == EM_GEN_COMPACT_PART, V * d->elem / 16,
                     V);
    }
    em_sb_printf(b,
                 "#pragma unroll\n"
                 "    for (int j = 0; j < %d; j++) {\n"
                 "        if (bits >> j & 1u)\n"
                 "            stage[at++] = %s;\n",
                 V, data ? "e[j]" : "lo + j");
    if (d->kind == EM_GEN_COMPACT_PART)
        em_sb_puts(b, "        else if (lo + j < n)\n"
                      "            stage[all + mine + j - at] = e[j];\n");
    em_sb_puts(b, "    }\n    __syncthreads();\n"
                  "    const long long off = offs[blockIdx.x];\n");
    switch (d->kind) {
    case EM_GEN_COMPACT_ELEM:
    case EM_GEN_COMPACT_INDEX:
        em_sb_printf(b,
                     "    for (int i = threadIdx.x; i < all; i += %d)\n"
                     "        out[off + i] = stage[i];\n}\n",
                     EM_GEN_COMPACT_BLOCK);
        break;
    case EM_GEN_COMPACT_PART:
        em_sb_printf(
            b,
            "    const int tn = n - base < %d ? (int)(n - base) : %d;\n"
            "    for (int i = threadIdx.x; i < tn; i += %d)\n"
            "        out[i < all ? off + i : total + (base - off) + "
            "(i - all)] = stage[i];\n}\n",
            T, T, EM_GEN_COMPACT_BLOCK);
        break;
    default: /* COORDS */
        /* 32-bit division while the flat index fits (a 64-bit one costs
         * several times more), chosen once per block */
        em_sb_printf(b,
                     "    const int narrow = n <= 0xffffffffll;\n"
                     "    for (int i = threadIdx.x; i < all; i += %d) {\n"
                     "        long long r = stage[i];\n",
                     EM_GEN_COMPACT_BLOCK);
        emit_coords(b, R, "off + i");
        em_sb_puts(b, "    }\n}\n");
    }
}

/* ---- host: one tile per block of one thread -------------------------- */

static void host_kernels(em_sb *b, const em_gen_compact *d)
{
    int R = d->ndim;
    int data = d->kind == EM_GEN_COMPACT_ELEM || d->kind == EM_GEN_COMPACT_PART;
    const char *st = stage_type(d), *et = data ? word_type(d->elem) : "void";
    const char *range = "    const long long lo = (long long)blockIdx.x * "
                        "%d;\n    const long long hi = n - lo < %d ? n : lo "
                        "+ %d;\n";
    int T = EM_GEN_COMPACT_HOST_TILE;
    em_sb_puts(b, "extern \"C\" __global__ void cc_count(const unsigned char "
                  "*m, long long n, long long nt, int *counts)\n{\n");
    em_sb_printf(b, range, T, T, T);
    em_sb_puts(b, "    int c = 0;\n    (void)nt;\n"
                  "    for (long long i = lo; i < hi; i++)\n"
                  "        c += m[i] != 0;\n"
                  "    counts[blockIdx.x] = c;\n}\n");
    em_sb_puts(b, "extern \"C\" __global__ void cc_scan(const int *counts, "
                  "long long nt, long long *offs)\n{\n"
                  "    long long s = 0;\n"
                  "    for (long long i = 0; i < nt; i++) {\n"
                  "        offs[i] = s;\n        s += counts[i];\n    }\n"
                  "    offs[nt] = s;\n}\n");
    em_sb_printf(b,
                 "struct cc_shape { long long s[%d]; };\n"
                 "extern \"C\" __global__ void cc_write(const unsigned char "
                 "*m, const %s *x, long long n, const long long *offs, %s "
                 "*out, long long total, struct cc_shape g)\n{\n",
                 R > 0 ? R : 1, et, st);
    em_sb_printf(b, range, T, T, T);
    /* Branch-free: every element is stored at the cursor, which moves on
     * only past selected ones; the loop stops once the tile's last
     * selected element is out, so no store lands in the next tile's
     * output. */
    em_sb_puts(b, "    long long at = offs[blockIdx.x];\n"
                  "    const long long end = offs[blockIdx.x + 1];\n"
                  "    (void)g;\n    (void)total;\n    (void)x;\n");
    switch (d->kind) {
    case EM_GEN_COMPACT_ELEM:
        em_sb_puts(b, "    for (long long i = lo; i < hi && at < end; i++) {\n"
                      "        out[at] = x[i];\n"
                      "        at += m[i] != 0;\n    }\n}\n");
        break;
    case EM_GEN_COMPACT_PART:
        em_sb_puts(b,
                   "    long long rj = total + lo - at, i = lo;\n"
                   "    const long long rend = total + hi - end;\n"
                   "    for (; i < hi && at < end && rj < rend; i++) {\n"
                   "        const int f = m[i] != 0;\n"
                   "        out[at] = x[i];\n"
                   "        out[rj] = x[i];\n"
                   "        at += f;\n        rj += !f;\n    }\n"
                   "    for (; i < hi; i++) {\n"
                   "        if (m[i])\n            out[at++] = x[i];\n"
                   "        else\n            out[rj++] = x[i];\n    }\n}\n");
        break;
    case EM_GEN_COMPACT_INDEX:
        em_sb_puts(b, "    for (long long i = lo; i < hi && at < end; i++) {\n"
                      "        out[at] = i;\n"
                      "        at += m[i] != 0;\n    }\n}\n");
        break;
    default:
        if (R == 1) {
            em_sb_puts(b, "    for (long long i = lo; i < hi && at < end; "
                          "i++) {\n"
                          "        out[at] = i;\n"
                          "        at += m[i] != 0;\n    }\n}\n");
            break;
        }
        em_sb_puts(b, "    const int narrow = n <= 0xffffffffll;\n"
                      "    for (long long i = lo; i < hi; i++) {\n"
                      "        if (!m[i])\n            continue;\n"
                      "        long long r = i;\n");
        emit_coords(b, R, "at");
        em_sb_puts(b, "        at++;\n    }\n}\n");
    }
}

/* ---- rows and the hash set -------------------------------------------- */

static void emit_rows(em_sb *b, const em_gen_compact *d, em_device_type target)
{
    const char *wt = word_type(d->elem);
    em_sb_printf(b,
                 "extern \"C\" __global__ void cc_rows(const %s *src, const "
                 "long long *idx, %s *out, long long k, long long words, "
                 "long long chunk)\n{\n",
                 wt, wt);
    if (target == EM_DEVICE_CUDA)
        /* A thread per word, consecutive threads along a row and on to the
         * next, so loads and stores coalesce; 32-bit division when the
         * word count fits. */
        em_sb_puts(b, "    const long long tot = k * words;\n"
                      "    const long long step = (long long)gridDim.x * "
                      "blockDim.x;\n"
                      "    long long t = (long long)blockIdx.x * blockDim.x + "
                      "threadIdx.x;\n"
                      "    (void)chunk;\n"
                      "    if (tot <= 0xffffffffll) {\n"
                      "        const unsigned uw = (unsigned)words;\n"
                      "        for (; t < tot; t += step) {\n"
                      "            const unsigned r = (unsigned)t / uw;\n"
                      "            out[t] = src[idx[r] * words + ((unsigned)t "
                      "- r * uw)];\n"
                      "        }\n"
                      "    } else {\n"
                      "        for (; t < tot; t += step) {\n"
                      "            const long long r = t / words;\n"
                      "            out[t] = src[idx[r] * words + (t - r * "
                      "words)];\n"
                      "        }\n    }\n}\n");
    else
        em_sb_puts(b, "    const long long lo = (long long)blockIdx.x * "
                      "chunk;\n"
                      "    const long long hi = k - lo < chunk ? k : lo + "
                      "chunk;\n"
                      "    for (long long r = lo; r < hi; r++)\n"
                      "        for (long long c = 0; c < words; c++)\n"
                      "            out[r * words + c] = src[idx[r] * words + "
                      "c];\n}\n");
}

static void emit_hash(em_sb *b, const em_gen_compact *d, em_device_type target)
{
    int cuda = target == EM_DEVICE_CUDA, wide = d->elem == 8;
    const char *kt = wide ? "unsigned long long" : "unsigned int";
    em_sb_printf(b,
                 "typedef %s ch_k;\n#define CH_EMPTY ((ch_k)~(ch_k)0)\n"
                 "#define CH_COUNTS %d\n",
                 kt, d->ndim != 0);
    if (wide)
        em_sb_puts(b, "__device__ __forceinline__ unsigned long long "
                      "ch_hash(unsigned long long x)\n{\n"
                      "    x ^= x >> 33;\n    x *= 0xff51afd7ed558ccdull;\n"
                      "    x ^= x >> 33;\n    x *= 0xc4ceb9fe1a85ec53ull;\n"
                      "    return x ^ (x >> 33);\n}\n");
    else
        em_sb_puts(b, "__device__ __forceinline__ unsigned long long "
                      "ch_hash(unsigned int x)\n{\n"
                      "    x ^= x >> 16;\n    x *= 0x85ebca6bu;\n"
                      "    x ^= x >> 13;\n    x *= 0xc2b2ae35u;\n"
                      "    return x ^ (x >> 16);\n}\n");
    /* w[0] keys inserted, w[1] overflow, w[2] the empty key was seen,
     * w[3] the extraction cursor, w[4] how often the empty key was seen
     * (with counts: cnt[slot] counts each key, 32-bit as n < 2^32). Inserts are
     * reported every 1024 keys (cuda: summed over a warp's 1024 keys first), so
     * the table's fill is known early enough to stop a hopeless attempt. */
    /* One key into the table; returns 1 when it was new. */
    em_sb_printf(b,
                 "__device__ __forceinline__ int ch_put(ch_k *table, unsigned "
                 "long long mask, ch_k k, volatile unsigned long long *vw, "
                 "unsigned int *cnt)\n{\n"
                 "    (void)cnt;\n"
                 "    if (k == CH_EMPTY) {\n"
                 "        if (!vw[2])\n            vw[2] = 1;\n"
                 "        if (CH_COUNTS)\n"
                 "            atomicAdd((unsigned long long *)vw + 4, 1ull);\n"
                 "        return 0;\n    }\n"
                 "    unsigned long long h = ch_hash(k) & mask;\n"
                 "    for (int p = 0;; p++) {\n"
                 "        const ch_k cur = ((volatile ch_k *)table)[h];\n"
                 "        int isnew = 0;\n"
                 "        if (cur == CH_EMPTY) {\n"
                 "            const ch_k old = atomicCAS(table + h, CH_EMPTY, "
                 "k);\n"
                 "            isnew = old == CH_EMPTY;\n"
                 "            if (isnew || old == k) {\n"
                 "                if (CH_COUNTS)\n"
                 "                    atomicAdd(cnt + h, 1u);\n"
                 "                return isnew;\n"
                 "            }\n"
                 "        } else if (cur == k) {\n"
                 "            if (CH_COUNTS)\n"
                 "                atomicAdd(cnt + h, 1u);\n"
                 "            return 0;\n"
                 "        }\n"
                 "        if (p >= %d) {\n"
                 "            vw[1] = 1;\n            return 0;\n        }\n"
                 "        h = (h + 1) & mask;\n"
                 "    }\n}\n",
                 EM_GEN_HASH_MAX_PROBE);
    em_sb_puts(b, "extern \"C\" __global__ void ch_insert(const ch_k *keys, "
                  "long long n, ch_k *table, unsigned long long mask, "
                  "unsigned long long *w, unsigned long long limit, long "
                  "long chunk, unsigned int *cnt)\n{\n"
                  "    volatile unsigned long long *vw = w;\n"
                  "    unsigned long long mine = 0;\n"
                  "    long long it = 0;\n");
    if (cuda)
        /* A warp takes 128 keys a round (four loads in flight a thread).
         * Whole warps go round the loop together (keys past n idle), so
         * the warp-wide sums and the stop decision stay uniform. */
        em_sb_puts(b, "    const int lane = threadIdx.x & 31;\n"
                      "    const long long step = (long long)gridDim.x * "
                      "blockDim.x * 4;\n"
                      "    (void)chunk;\n"
                      "    for (long long wb = ((long long)blockIdx.x * "
                      "blockDim.x + threadIdx.x - lane) * 4; wb < n; wb += "
                      "step, it++) {\n"
                      "        if ((it & 7) == 7) {\n"
                      "            int stop = 0;\n"
                      "            for (int o = 16; o > 0; o >>= 1)\n"
                      "                mine += __shfl_xor_sync(0xffffffffu, "
                      "mine, o);\n"
                      "            if (lane == 0) {\n"
                      "                if (mine && atomicAdd(w, mine) + mine > "
                      "limit)\n"
                      "                    vw[1] = 1;\n"
                      "                stop = vw[1] != 0;\n"
                      "            }\n"
                      "            mine = 0;\n"
                      "            if (__shfl_sync(0xffffffffu, stop, 0))\n"
                      "                return;\n"
                      "        }\n"
                      "        ch_k kk[4];\n"
                      "#pragma unroll\n"
                      "        for (int j = 0; j < 4; j++) {\n"
                      "            const long long i = wb + j * 32 + lane;\n"
                      "            kk[j] = i < n ? keys[i] : 0;\n"
                      "        }\n"
                      "#pragma unroll\n"
                      "        for (int j = 0; j < 4; j++)\n"
                      "            if (wb + j * 32 + lane < n)\n"
                      "                mine += ch_put(table, mask, kk[j], "
                      "vw, cnt);\n"
                      "    }\n"
                      "    for (int o = 16; o > 0; o >>= 1)\n"
                      "        mine += __shfl_xor_sync(0xffffffffu, mine, o);\n"
                      "    if (lane == 0 && mine)\n"
                      "        atomicAdd(w, mine);\n}\n");
    else
        em_sb_puts(b, "    const long long lo = (long long)blockIdx.x * "
                      "chunk;\n"
                      "    const long long hi = n - lo < chunk ? n : lo + "
                      "chunk;\n"
                      "    for (long long i = lo; i < hi; i++, it++) {\n"
                      "        if ((it & 1023) == 1023) {\n"
                      "            if (mine && atomicAdd(w, mine) + mine > "
                      "limit)\n"
                      "                vw[1] = 1;\n"
                      "            mine = 0;\n"
                      "            if (vw[1])\n                return;\n"
                      "        }\n"
                      "        mine += ch_put(table, mask, keys[i], vw, cnt);\n"
                      "    }\n"
                      "    if (mine)\n        atomicAdd(w, mine);\n}\n");
    if (cuda)
        /* 16 slots a thread; a warp takes its places with one atomicAdd. */
        em_sb_puts(
            b, "extern \"C\" __global__ void ch_extract(const ch_k *table, "
               "long long slots, ch_k *out, unsigned long long *w, long long "
               "distinct, long long chunk, const unsigned int *cnt, long long "
               "*oc)\n{\n"
               "    (void)cnt;\n    (void)oc;\n"
               "    const int lane = threadIdx.x & 31;\n"
               "    const long long lo = ((long long)blockIdx.x * blockDim.x + "
               "threadIdx.x) * 16;\n"
               "    (void)chunk;\n"
               "    ch_k v[16];\n    int c = 0;\n"
               "#pragma unroll\n"
               "    for (int j = 0; j < 16; j++) {\n"
               "        v[j] = lo + j < slots ? table[lo + j] : CH_EMPTY;\n"
               "        c += v[j] != CH_EMPTY;\n    }\n"
               "    int incl = c;\n"
               "    for (int o = 1; o < 32; o <<= 1) {\n"
               "        const int y = __shfl_up_sync(0xffffffffu, incl, o);\n"
               "        if (lane >= o)\n            incl += y;\n    }\n"
               "    unsigned long long at = 0;\n"
               "    const int sum = __shfl_sync(0xffffffffu, incl, 31);\n"
               "    if (lane == 31 && sum)\n"
               "        at = atomicAdd(w + 3, (unsigned long long)sum);\n"
               "    at = __shfl_sync(0xffffffffu, at, 31) + (incl - c);\n"
               "#pragma unroll\n"
               "    for (int j = 0; j < 16; j++)\n"
               "        if (v[j] != CH_EMPTY) {\n"
               "            if (CH_COUNTS)\n"
               "                oc[at] = cnt[lo + j];\n"
               "            out[at++] = v[j];\n"
               "        }\n"
               "    if (blockIdx.x == 0 && threadIdx.x == 0 && w[2]) {\n"
               "        out[distinct] = CH_EMPTY;\n"
               "        if (CH_COUNTS)\n"
               "            oc[distinct] = (long long)w[4];\n"
               "    }\n}\n");
    else
        em_sb_puts(
            b, "extern \"C\" __global__ void ch_extract(const ch_k *table, "
               "long long slots, ch_k *out, unsigned long long *w, long long "
               "distinct, long long chunk, const unsigned int *cnt, long long "
               "*oc)\n{\n"
               "    (void)cnt;\n    (void)oc;\n"
               "    const long long lo = (long long)blockIdx.x * chunk;\n"
               "    const long long hi = slots - lo < chunk ? slots : lo + "
               "chunk;\n"
               "    unsigned long long c = 0, at;\n"
               "    for (long long i = lo; i < hi; i++)\n"
               "        c += table[i] != CH_EMPTY;\n"
               "    at = c ? atomicAdd(w + 3, c) : 0;\n"
               "    for (long long i = lo; i < hi && c; i++)\n"
               "        if (table[i] != CH_EMPTY) {\n"
               "            if (CH_COUNTS)\n"
               "                oc[at] = cnt[i];\n"
               "            out[at++] = table[i];\n"
               "        }\n"
               "    if (blockIdx.x == 0 && w[2]) {\n"
               "        out[distinct] = CH_EMPTY;\n"
               "        if (CH_COUNTS)\n"
               "            oc[distinct] = (long long)w[4];\n"
               "    }\n}\n");
}

em_status em_gen_compact_source(const em_gen_compact *d, em_device_type target,
                                char **out)
{
    static const char *const kinds[] = {"select",      "partition", "indices",
                                        "coordinates", "rows",      "hash set"};
    em_sb b = {0};
    em_status st;
    if (!d || !out)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_gen_compact_source: NULL argument");
    *out = NULL;
    if ((st = check_desc(d, target)) != EM_OK)
        return st;
    em_sb_printf(&b,
                 "/* ember compaction: %s, %d-byte elements, rank %d, %d "
                 "flags a thread */\n",
                 kinds[d->kind], d->elem, d->ndim, d->vec);
    emit_common(&b, target);
    if (d->kind == EM_GEN_COMPACT_ROWS) {
        emit_rows(&b, d, target);
    } else if (d->kind == EM_GEN_COMPACT_HASH) {
        emit_hash(&b, d, target);
    } else if (target == EM_DEVICE_CUDA) {
        cuda_count(&b, d);
        cuda_scan(&b);
        cuda_write(&b, d);
    } else {
        host_kernels(&b, d);
    }
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a compaction kernel");
    }
    *out = b.p;
    return EM_OK;
}
