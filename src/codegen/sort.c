/* ember codegen: radix sort kernel source (see sort.h).
 *
 * One generator for both targets; they differ where the host cannot do
 * what the GPU does. The histogram and scatter keep each chunk's keys in
 * order, which makes a pass stable with no inter-block waiting: on the
 * host a chunk is one thread walking it; on CUDA one warp (coalesced
 * reads, lanes of equal digit ranked by __match_any_sync). The scan of
 * the digit counts ends in one small block: on CUDA a thread per digit
 * with a barrier, on the host one thread walking the counts in order (it
 * runs a block's threads one after another without barriers). Loops
 * over all items (SRT_FOR) stride by the grid on CUDA and take
 * contiguous ranges on the host.
 */
#include <stdlib.h>

#include "codegen/linalg_table.h"
#include "codegen/sort.h"

/* Kernel templates: @N is the kernel's name, @T its item type. (Written
 * out per kernel rather than as macros: the host compiler finds kernels
 * by their `extern "C"` in the source text.) */
static const char generic_head[] =
    "typedef unsigned int srt_u32;\n"
    "typedef unsigned long long srt_u64;\n"
    "typedef struct { srt_u64 a, b; } srt_x16;\n"
    /* The digit of element i: of the image, or (rowlen > 0) of the row
     * that the element's original flat index p[i] lies in. */
    "#define SRT_DIGIT(i) (rowlen > 0 ? (unsigned)(((srt_u64)(p[i] / "
    "rowlen)) >> shift) & mask : (unsigned)(u[i] >> shift) & mask)\n";

static const char hist_tpl[] =
    "extern \"C\" __global__ void @N(const @T *u, const long long *p, "
    "long long n, long long chunk, long long nchunks, int shift, unsigned "
    "mask, long long rowlen, long long *counts)\n"
    "{\n"
    "    long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    long long h[256], lo, hi;\n"
    "    if (c >= nchunks) return;\n"
    "    for (int d = 0; d < 256; d++) h[d] = 0;\n"
    "    lo = c * chunk; hi = lo + chunk < n ? lo + chunk : n;\n"
    "    for (long long i = lo; i < hi; i++) h[SRT_DIGIT(i)]++;\n"
    "    for (int d = 0; d < 256; d++) counts[c * 256 + d] = h[d];\n"
    "}\n";

static const char scatter_tpl[] =
    "extern \"C\" __global__ void @N(const @T *u, const long long *p, @T "
    "*u2, long long *p2, long long n, long long chunk, long long nchunks, "
    "int shift, unsigned mask, long long rowlen, const long long *counts)\n"
    "{\n"
    "    long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    long long o[256], lo, hi;\n"
    "    if (c >= nchunks) return;\n"
    "    for (int d = 0; d < 256; d++) o[d] = counts[c * 256 + d];\n"
    "    lo = c * chunk; hi = lo + chunk < n ? lo + chunk : n;\n"
    "    for (long long i = lo; i < hi; i++) {\n"
    "        long long j = o[SRT_DIGIT(i)]++;\n"
    "        u2[j] = u[i];\n"
    "        if (p) p2[j] = p[i];\n"
    "    }\n"
    "}\n";

static const char gather_tpl[] =
    "extern \"C\" __global__ void @N(const char *src, const long long *p, "
    "char *dst, long long n)\n"
    "{\n"
    "    SRT_FOR(i, n)\n"
    "        ((@T *)dst)[i] = ((const @T *)src)[p[i]];\n"
    "}\n";

/* Lower (right = 0) or upper bound of each needle's image among the
 * sorted images. */
static const char search_tpl[] =
    "extern \"C\" __global__ void @N(const @T *hay, long long n, const @T "
    "*nd, long long m, long long *out, int right)\n"
    "{\n"
    "    SRT_FOR(i, m) {\n"
    "        const @T v = nd[i];\n"
    "        long long lo = 0, hi = n;\n"
    "        while (lo < hi) {\n"
    "            long long mid = lo + ((hi - lo) >> 1);\n"
    "            if (right ? hay[mid] <= v : hay[mid] < v) lo = mid + 1;\n"
    "            else hi = mid;\n"
    "        }\n"
    "        out[i] = lo;\n"
    "    }\n"
    "}\n";

/* CUDA: a warp per chunk, 8 warps to a block, each warp with its own
 * shared counters (so no block barrier). The histogram counts with
 * shared atomics. The scatter reads 32 consecutive keys at a time
 * (coalesced); lanes holding the same digit rank themselves by
 * __match_any_sync, so equal digits keep their order within a step, and
 * steps go in order: the scatter stays stable. The chunk loop bound is
 * the same for every lane, so each __ballot_sync sees the full warp. */
static const char whist_tpl[] =
    "extern \"C\" __global__ void @N(const @T *u, const long long *p, "
    "long long n, long long chunk, long long nchunks, int shift, unsigned "
    "mask, long long rowlen, long long *counts)\n"
    "{\n"
    "    __shared__ unsigned h[8][256];\n"
    "    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;\n"
    "    const long long c = (long long)blockIdx.x * 8 + w;\n"
    "    if (c >= nchunks) return;\n"
    "    for (int d = lane; d < 256; d += 32) h[w][d] = 0u;\n"
    "    __syncwarp();\n"
    "    {\n"
    "        const long long lo = c * chunk;\n"
    "        const long long hi = lo + chunk < n ? lo + chunk : n;\n"
    "        for (long long i = lo + lane; i < hi; i += 32)\n"
    "            atomicAdd(&h[w][SRT_DIGIT(i)], 1u);\n"
    "    }\n"
    "    __syncwarp();\n"
    "    for (int d = lane; d < 256; d += 32)\n"
    "        counts[c * 256 + d] = (long long)h[w][d];\n"
    "}\n";

static const char wscatter_tpl[] =
    "extern \"C\" __global__ void @N(const @T *u, const long long *p, @T "
    "*u2, long long *p2, long long n, long long chunk, long long nchunks, "
    "int shift, unsigned mask, long long rowlen, const long long *counts)\n"
    "{\n"
    "    __shared__ long long o[8][256];\n"
    "    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;\n"
    "    const long long c = (long long)blockIdx.x * 8 + w;\n"
    "    long long lo, hi;\n"
    "    if (c >= nchunks) return;\n"
    "    for (int d = lane; d < 256; d += 32) o[w][d] = counts[c * 256 + d];\n"
    "    __syncwarp();\n"
    "    lo = c * chunk;\n"
    "    hi = lo + chunk < n ? lo + chunk : n;\n"
    "    for (long long base = lo; base < hi; base += 32) {\n"
    "        const long long i = base + lane;\n"
    "        const unsigned act = __ballot_sync(0xffffffffu, i < hi);\n"
    "        if (i < hi) {\n"
    "            const unsigned d = SRT_DIGIT(i);\n"
    "            const unsigned peers = __match_any_sync(act, d);\n"
    "            const int rank = __popc(peers & ((1u << lane) - 1u));\n"
    "            const long long j = o[w][d] + rank;\n"
    "            __syncwarp(act);\n"
    "            if (rank == 0) o[w][d] = o[w][d] + __popc(peers);\n"
    "            __syncwarp(act);\n"
    "            u2[j] = u[i];\n"
    "            if (p) p2[j] = p[i];\n"
    "        }\n"
    "    }\n"
    "}\n";

/* The scan of digit counts in three steps that need no barrier: per
 * group of 64 chunks, per digit (a thread each), the group's sum; the
 * scan of the group sums (srt_scan over groups); then each group's
 * chunks get their positions from their group's start. */
static const char group_src[] =
    "extern \"C\" __global__ void srt_gsum(const long long *counts, long "
    "long nchunks, long long *part)\n"
    "{\n"
    "    const int d = threadIdx.x;\n"
    "    const long long g = blockIdx.x, c1 = (g + 1) * 64 < nchunks ? (g + "
    "1) * 64 : nchunks;\n"
    "    long long s = 0;\n"
    "    for (long long c = g * 64; c < c1; c++) s += counts[c * 256 + d];\n"
    "    part[g * 256 + d] = s;\n"
    "}\n"
    "extern \"C\" __global__ void srt_gapply(long long *counts, long long "
    "nchunks, const long long *part)\n"
    "{\n"
    "    const int d = threadIdx.x;\n"
    "    const long long g = blockIdx.x, c1 = (g + 1) * 64 < nchunks ? (g + "
    "1) * 64 : nchunks;\n"
    "    long long s = part[g * 256 + d];\n"
    "    for (long long c = g * 64; c < c1; c++) {\n"
    "        const long long v = counts[c * 256 + d];\n"
    "        counts[c * 256 + d] = s;\n"
    "        s += v;\n"
    "    }\n"
    "}\n";

/* After a row sort every element stays in its row: the index along the
 * row is the flat index less the row's start. */
static const char rowmod_src[] =
    "extern \"C\" __global__ void srt_rowmod(const long long *p, long long "
    "*out, long long n, long long rowlen)\n"
    "{\n"
    "    SRT_FOR(i, n)\n"
    "        out[i] = p[i] - (i / rowlen) * rowlen;\n"
    "}\n";

/* SRT_FOR(i, n): this thread's share of [0, n). CUDA strides by the
 * grid (coalesced); the host gives each thread one contiguous range (a
 * host thread walking a grid stride would touch every page). */
const char *em_gen_sort_loop(em_device_type target)
{
    return target == EM_DEVICE_CUDA
               ? "#define SRT_FOR(i, n) for (long long i = (long "
                 "long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i "
                 "+= (long long)gridDim.x * blockDim.x)\n"
               : "#define SRT_FOR(i, n) for (long long srt_t_ = (long "
                 "long)blockIdx.x * blockDim.x + threadIdx.x, srt_T_ = "
                 "(long long)gridDim.x * blockDim.x, srt_per_ = ((n) + "
                 "srt_T_ - 1) / srt_T_, i = srt_t_ * srt_per_, srt_e_ = i + "
                 "srt_per_ < (n) ? i + srt_per_ : (n); i < srt_e_; i++)\n";
}

static void emit_tpl(em_gen_buf *b, const char *tpl, const char *name,
                     const char *type)
{
    for (const char *q = tpl; *q; q++) {
        if (q[0] == '@' && q[1] == 'N') {
            em_gen_buf_printf(b, "%s", name);
            q++;
        } else if (q[0] == '@' && q[1] == 'T') {
            em_gen_buf_printf(b, "%s", type);
            q++;
        } else {
            em_gen_buf_printf(b, "%c", *q);
        }
    }
}

/* The counts are chunk-major (counts[c * 256 + d]); the scan turns them
 * into each (chunk, digit)'s first output position: digits in order, and
 * within a digit, chunks in order. */
static const char scan_cuda[] =
    "extern \"C\" __global__ void srt_scan(long long *counts, long long "
    "nchunks)\n"
    "{\n"
    "    __shared__ long long tot[256];\n"
    "    const int d = threadIdx.x;\n"
    "    long long s = 0;\n"
    "    for (long long c = 0; c < nchunks; c++) {\n"
    "        long long v = counts[c * 256 + d];\n"
    "        counts[c * 256 + d] = s;\n"
    "        s += v;\n"
    "    }\n"
    "    tot[d] = s;\n"
    "    __syncthreads();\n"
    "    if (d == 0) {\n"
    "        long long a = 0;\n"
    "        for (int k = 0; k < 256; k++) {\n"
    "            long long v = tot[k];\n"
    "            tot[k] = a;\n"
    "            a += v;\n"
    "        }\n"
    "    }\n"
    "    __syncthreads();\n"
    "    s = tot[d];\n"
    "    for (long long c = 0; c < nchunks; c++)\n"
    "        counts[c * 256 + d] += s;\n"
    "}\n";

static const char scan_host[] =
    "extern \"C\" __global__ void srt_scan(long long *counts, long long "
    "nchunks)\n"
    "{\n"
    "    long long s = 0;\n"
    "    for (int d = 0; d < 256; d++)\n"
    "        for (long long c = 0; c < nchunks; c++) {\n"
    "            long long v = counts[c * 256 + d];\n"
    "            counts[c * 256 + d] = s;\n"
    "            s += v;\n"
    "        }\n"
    "}\n";

/* How a dtype's bits map to an unsigned image that orders as NumPy does:
 * the raw type read, the image type, the width in bits, the class
 * ('b' bool, 'u', 'i', 'f' float) and for floats the magnitude of +inf
 * (a larger magnitude is NaN). Complex dtypes image one component. */
typedef struct srt_type {
    const char *raw, *img;
    int bits;
    char cls;
    const char *inf;
} srt_type;

static const srt_type *type_of(em_dtype d)
{
    static const srt_type t[EM_DTYPE_COUNT] = {
        {"unsigned char", "srt_u32", 8, 'b', "0"},
        {"unsigned char", "srt_u32", 8, 'i', "0"},
        {"unsigned short", "srt_u32", 16, 'i', "0"},
        {"srt_u32", "srt_u32", 32, 'i', "0"},
        {"srt_u64", "srt_u64", 64, 'i', "0"},
        {"unsigned char", "srt_u32", 8, 'u', "0"},
        {"unsigned short", "srt_u32", 16, 'u', "0"},
        {"srt_u32", "srt_u32", 32, 'u', "0"},
        {"srt_u64", "srt_u64", 64, 'u', "0"},
        {"unsigned short", "srt_u32", 16, 'f', "0x7c00u"},
        {"unsigned short", "srt_u32", 16, 'f', "0x7f80u"},
        {"srt_u32", "srt_u32", 32, 'f', "0x7f800000u"},
        {"srt_u64", "srt_u64", 64, 'f', "0x7ff0000000000000ull"},
        {"srt_u32", "srt_u32", 32, 'f', "0x7f800000u"},
        {"srt_u64", "srt_u64", 64, 'f', "0x7ff0000000000000ull"},
    };
    return (unsigned)d < EM_DTYPE_COUNT ? &t[d] : NULL;
}

static em_status image_source(em_dtype dt, em_device_type target, char **out)
{
    const srt_type *t = type_of(dt);
    em_gen_buf b = {0};
    int cplx = dt == EM_COMPLEX64 || dt == EM_COMPLEX128;
    em_gen_buf_printf(&b,
                      "/* ember radix sort: the bit image of %s */\n%s"
                      "typedef unsigned int srt_u32;\n"
                      "typedef unsigned long long srt_u64;\n"
                      "typedef %s srt_raw;\ntypedef %s srt_img;\n"
                      "#define SRT_ONES (~(srt_img)0 >> (%d - %d))\n"
                      "#define SRT_SIGN ((srt_img)1 << (%d - 1))\n",
                      em_dtype_get(dt)->name, em_gen_sort_loop(target), t->raw,
                      t->img, t->img[5] == '3' ? 32 : 64, t->bits, t->bits);
    /* SRT_IMG(b, nan): b becomes the image; nan is set for NaN keys. A
     * signed zero becomes +0.0 so that -0.0 and 0.0 tie (a stable sort
     * then keeps their input order, as NumPy's does). */
    switch (t->cls) {
    case 'b':
        em_gen_buf_printf(&b, "#define SRT_IMG(b, nan) ((b) = (b) != 0)\n");
        break;
    case 'u':
        em_gen_buf_printf(&b, "#define SRT_IMG(b, nan) ((void)0)\n");
        break;
    case 'i':
        em_gen_buf_printf(&b, "#define SRT_IMG(b, nan) ((b) ^= SRT_SIGN)\n");
        break;
    default:
        /* Without branches (selects), since signs are random: negative
         * keys complemented, positive ones given the sign bit. */
        em_gen_buf_printf(
            &b,
            "#define SRT_IMG(b, nan) do { const srt_img m_ = (b) & "
            "~SRT_SIGN;\\\n"
            "    (nan) = m_ > (srt_img)%s;\\\n"
            "    (b) = m_ == 0 ? SRT_SIGN : (b) ^ ((((srt_img)0 - ((b) >> "
            "%d)) & SRT_ONES) | SRT_SIGN); } while (0)\n",
            t->inf, t->bits - 1);
    }
    /* keys + j * stride is key j (stride: the item size, or a complex
     * item's size for one component); p_in (may be NULL: the identity)
     * is the current order; p_out, when given, gets the identity. NaNs
     * take the largest image, ascending or descending. */
    em_gen_buf_printf(
        &b,
        "extern \"C\" __global__ void srt_image(const char *keys, long long "
        "stride, const long long *p_in, srt_img *u, long long *p_out, long "
        "long n, int desc)\n"
        "{\n"
        "    SRT_FOR(i, n) {\n"
        "        const long long j = p_in ? p_in[i] : i;\n"
        "        srt_img b = (srt_img)*(const srt_raw *)(keys + j * stride);\n"
        "        int nan = 0;\n"
        "        SRT_IMG(b, nan);\n"
        "        if (desc && !nan) b = ~b & SRT_ONES;\n"
        "        if (nan) b = SRT_ONES;\n"
        "        u[i] = b;\n"
        "        if (p_out) p_out[i] = i;\n"
        "    }\n"
        "}\n");
    /* Keys-only sorts of integers and bools sort the images alone and
     * turn them back into keys (floats go through the permutation, which
     * keeps -0.0 and NaN payloads as they were). */
    if (t->cls != 'f')
        em_gen_buf_printf(
            &b,
            "extern \"C\" __global__ void srt_unimage(const srt_img *u, char "
            "*out, long long n, int desc)\n"
            "{\n"
            "    SRT_FOR(i, n) {\n"
            "        srt_img b = u[i];\n"
            "        if (desc) b = ~b & SRT_ONES;\n"
            "%s"
            "        ((srt_raw *)out)[i] = (srt_raw)b;\n"
            "    }\n"
            "}\n",
            t->cls == 'i' ? "        b ^= SRT_SIGN;\n" : "");
    if (!cplx)
        em_gen_sort_keys_source(&b, dt, target);
    if (cplx)
        /* NumPy's complex order puts R+Rj, then R+nanj, then nan+Rj, then
         * nan+nanj: this group is the most significant key. */
        em_gen_buf_printf(
            &b,
            "extern \"C\" __global__ void srt_group(const char *keys, const "
            "long long *p_in, srt_u32 *u, long long *p_out, long long n)\n"
            "{\n"
            "    SRT_FOR(i, n) {\n"
            "        const long long j = p_in ? p_in[i] : i;\n"
            "        const srt_raw *x = (const srt_raw *)(keys + j * 2 * "
            "sizeof(srt_raw));\n"
            "        srt_u32 g = 0;\n"
            "        if ((x[0] & ~SRT_SIGN) > (srt_raw)%s) g |= 2;\n"
            "        if ((x[1] & ~SRT_SIGN) > (srt_raw)%s) g |= 1;\n"
            "        u[i] = g;\n"
            "        if (p_out) p_out[i] = i;\n"
            "    }\n"
            "}\n",
            t->inf, t->inf);
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a sort kernel");
    }
    *out = b.p;
    return EM_OK;
}

em_status em_gen_sort_source(int dtype, em_device_type target, char **out)
{
    em_gen_buf b = {0};
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_gen_sort_source: NULL out");
    *out = NULL;
    if (dtype >= 0) {
        if (!type_of((em_dtype)dtype))
            return em_error(EM_ERR_INVALID_VALUE,
                            "sort generator: bad dtype %d", dtype);
        return image_source((em_dtype)dtype, target, out);
    }
    em_gen_buf_printf(&b, "/* ember radix sort: generic kernels */\n%s%s%s%s",
                      em_gen_sort_loop(target), generic_head, rowmod_src,
                      target == EM_DEVICE_CUDA ? scan_cuda : scan_host);
    em_gen_buf_printf(&b, "%s", group_src);
    if (target == EM_DEVICE_CUDA) {
        emit_tpl(&b, whist_tpl, "srt_whist32", "srt_u32");
        emit_tpl(&b, whist_tpl, "srt_whist64", "srt_u64");
        emit_tpl(&b, wscatter_tpl, "srt_wscatter32", "srt_u32");
        emit_tpl(&b, wscatter_tpl, "srt_wscatter64", "srt_u64");
    }
    emit_tpl(&b, hist_tpl, "srt_hist32", "srt_u32");
    emit_tpl(&b, hist_tpl, "srt_hist64", "srt_u64");
    emit_tpl(&b, scatter_tpl, "srt_scatter32", "srt_u32");
    emit_tpl(&b, scatter_tpl, "srt_scatter64", "srt_u64");
    emit_tpl(&b, gather_tpl, "srt_gather1", "unsigned char");
    emit_tpl(&b, gather_tpl, "srt_gather2", "unsigned short");
    emit_tpl(&b, gather_tpl, "srt_gather4", "srt_u32");
    emit_tpl(&b, gather_tpl, "srt_gather8", "srt_u64");
    emit_tpl(&b, gather_tpl, "srt_gather16", "srt_x16");
    emit_tpl(&b, search_tpl, "srt_search32", "srt_u32");
    emit_tpl(&b, search_tpl, "srt_search64", "srt_u64");
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a sort kernel");
    }
    *out = b.p;
    return EM_OK;
}

static em_status source_from_key(uint64_t key, em_device_type target,
                                 const char *name, char **out)
{
    unsigned fn = (unsigned)(key & 0xff);
    (void)name;
    return em_gen_sort_source(
        fn >= EM_SRT_IMAGE ? (int)((key >> 8) & 0xff) : -1, target, out);
}

em_status em_gen_sort_function(em_device *dev, em_gen_sort_fn fn,
                               em_dtype dtype, em_function **out)
{
    static const char *const names[EM_SRT_GENERIC_COUNT] = {
        "srt_hist32",    "srt_hist64",     "srt_scan",      "srt_scatter32",
        "srt_scatter64", "srt_gather1",    "srt_gather2",   "srt_gather4",
        "srt_gather8",   "srt_gather16",   "srt_rowmod",    "srt_search32",
        "srt_search64",  "srt_gsum",       "srt_gapply",    "srt_whist32",
        "srt_whist64",   "srt_wscatter32", "srt_wscatter64"};
    const char *name;
    uint64_t key = (uint64_t)EM_GEN_FAMILY_SORT << 56 | (unsigned)fn;
    static const char *const key_names[] = {
        "srt_up",       "srt_os0",      "srt_os4",      "srt_os8",
        "srt_khist",    "srt_kscat0",   "srt_kscat4",   "srt_kscat8",
        "srt_kbucket0", "srt_kbucket4", "srt_kbucket8", "srt_ktop"};
    if (fn == EM_SRT_IMAGE || fn == EM_SRT_GROUP || fn == EM_SRT_UNIMAGE) {
        name = fn == EM_SRT_IMAGE   ? "srt_image"
               : fn == EM_SRT_GROUP ? "srt_group"
                                    : "srt_unimage";
        key |= (uint64_t)(unsigned)dtype << 8;
    } else if (fn >= EM_SRT_UP && fn <= EM_SRT_KTOP) {
        name = key_names[fn - EM_SRT_UP];
        key |= (uint64_t)(unsigned)dtype << 8;
    } else if ((unsigned)fn < EM_SRT_GENERIC_COUNT) {
        name = names[fn];
    } else {
        return em_error(EM_ERR_INVALID_VALUE, "sort: bad kernel %d", (int)fn);
    }
    return em_gen_table_function(dev, key, source_from_key, name,
                                 EM_GEN_SORT_VERSION, out);
}
