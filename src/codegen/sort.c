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
 *
 * The kernels are kernels/sort_radix*.cuh (generic) and
 * kernels/sort_image.cuh, sort_unimage.cuh, sort_group.cuh and
 * sort_onesweep_*.cuh (per key dtype); this file writes the per-dtype
 * definitions they build on and pastes them together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/linalg_table.h"
#include "codegen/sort.h"
#include "core/embedded.h"

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

void em_gen_sort_paste(em_gen_buf *b, const char *body, int n,
                       const char *const ph[], const char *const text[])
{
    const char *p = body;
    for (;;) {
        const char *best = NULL;
        int k = 0;
        for (int i = 0; i < n; i++) {
            const char *q = strstr(p, ph[i]);
            if (q && (!best || q < best))
                best = q, k = i;
        }
        if (!best)
            break;
        em_gen_buf_printf(b, "%.*s%s", (int)(best - p), p, text[k]);
        p = best + strlen(ph[k]);
    }
    em_gen_buf_printf(b, "%s", p);
}

/* One copy of a per-width file: kernel k's placeholder kn[k][0] becomes
 * its name, kn[k][1] + bits (srt_hist + 32), and the item type's, type. */
static void paste_width(em_gen_buf *b, const char *body, int n,
                        const char *const kn[][2], const char *bits,
                        const char *type)
{
    const char *ph[4], *text[4];
    char names[3][32];
    for (int k = 0; k < n && k < 3; k++) {
        snprintf(names[k], sizeof names[k], "%s%s", kn[k][1], bits);
        ph[k] = kn[k][0];
        text[k] = names[k];
    }
    ph[n] = "SRT_ITEM_T";
    text[n] = type;
    em_gen_sort_paste(b, body, n + 1, ph, text);
}

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
    em_gen_buf_printf(&b, "#define SRT_SIGNED %d\n#define SRT_INF %s\n%s",
                      t->cls == 'i', t->inf, em_embedded_sort_image_cuh);
    if (t->cls != 'f')
        em_gen_buf_printf(&b, "%s", em_embedded_sort_unimage_cuh);
    if (!cplx)
        em_gen_sort_keys_source(&b, dt, target);
    if (cplx)
        em_gen_buf_printf(&b, "%s", em_embedded_sort_group_cuh);
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
    static const char *const chunk[][2] = {{"SRT_HIST", "srt_hist"},
                                           {"SRT_SCATTER", "srt_scatter"},
                                           {"SRT_SEARCH", "srt_search"}};
    static const char *const warp[][2] = {{"SRT_WHIST", "srt_whist"},
                                          {"SRT_WSCATTER", "srt_wscatter"}};
    static const char *const gather[][2] = {{"SRT_GATHER", "srt_gather"}};
    static const struct {
        const char *bits, *type;
    } widths[] = {{"32", "srt_u32"}, {"64", "srt_u64"}},
      items[] = {{"1", "unsigned char"}, {"2", "unsigned short"},
                 {"4", "srt_u32"},       {"8", "srt_u64"},
                 {"16", "srt_x16"}};
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
    em_gen_buf_printf(&b, "/* ember radix sort: generic kernels */\n%s"
                      "#define SRT_CUDA %d\n%s",
                      em_gen_sort_loop(target), target == EM_DEVICE_CUDA,
                      em_embedded_sort_radix_cuh);
    for (int w = 0; w < 2; w++) {
        if (target == EM_DEVICE_CUDA)
            paste_width(&b, em_embedded_sort_radix_warp_cuh, 2, warp,
                        widths[w].bits, widths[w].type);
        paste_width(&b, em_embedded_sort_radix_chunk_cuh, 3, chunk,
                    widths[w].bits, widths[w].type);
    }
    for (int i = 0; i < 5; i++)
        paste_width(&b, em_embedded_sort_radix_gather_cuh, 1, gather,
                    items[i].bits, items[i].type);
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
