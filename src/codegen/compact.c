/* ember codegen: compaction and hash-set kernel source (see compact.h).
 *
 * The kernels are kernels/compact_*.cuh and kernels/hash_set.cuh; this
 * file checks a descriptor, defines the parameters those files name
 * (compact_common.cuh lists them) and pastes the files together. Elements
 * move as unsigned words of their size, so one kernel serves every dtype
 * of that size.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/compact.h"
#include "codegen/ctype.h"
#include "core/embedded.h"
#include "core/strbuf.h"

/* The type an element moves as: a word, or the kernels' 16-byte cc_e16. */
static const char *word_type(int bytes)
{
    return bytes == 16 ? "cc_e16"
           : bytes > 0 ? em_gen_word_type((size_t)bytes)
                       : NULL;
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
    em_sb_printf(&b,
                 "#define CC_CUDA %d\n#define CC_KIND %d\n#define CC_WORD %s\n"
                 "#define CC_ESIZE %d\n#define CC_RANK %d\n#define CC_VEC %d\n"
                 "#define CC_TILE %d\n#define CC_VLOADS %d\n"
                 "#define CC_BLOCK %d\n#define CC_WARPS %d\n"
                 "#define CC_COUNT_TILES %d\n#define CC_HOST_TILE %d\n"
                 "#define CH_MAX_PROBE %d\n#define CH_COUNTS %d\n",
                 target == EM_DEVICE_CUDA, d->kind,
                 word_type(d->elem) ? word_type(d->elem) : "void", d->elem,
                 d->ndim > 0 ? d->ndim : 1, d->vec,
                 EM_GEN_COMPACT_BLOCK * d->vec, d->vec * d->elem / 16,
                 EM_GEN_COMPACT_BLOCK, EM_GEN_COMPACT_BLOCK / 32,
                 EM_GEN_COMPACT_COUNT_TILES, EM_GEN_COMPACT_HOST_TILE,
                 EM_GEN_HASH_MAX_PROBE,
                 d->kind == EM_GEN_COMPACT_HASH && d->ndim != 0);
    em_sb_puts(&b, em_embedded_compact_common_cuh);
    if (d->kind == EM_GEN_COMPACT_ROWS)
        em_sb_puts(&b, em_embedded_compact_rows_cuh);
    else if (d->kind == EM_GEN_COMPACT_HASH)
        em_sb_puts(&b, em_embedded_hash_set_cuh);
    else if (target == EM_DEVICE_CUDA)
        em_sb_puts(&b, em_embedded_compact_cuda_cuh);
    else
        em_sb_puts(&b, em_embedded_compact_host_cuh);
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a compaction kernel");
    }
    *out = b.p;
    return EM_OK;
}
