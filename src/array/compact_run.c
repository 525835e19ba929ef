/* ember array: launching the compaction and hash-set kernels (see
 * compact_run.h). The count pass ends in the one small read of the total;
 * nothing else here waits on the device except the hash set's read of its
 * four counter words, which is also where its result's size comes from.
 */
#include <stdlib.h>
#include <string.h>

#include "array/compact_run.h"
#include "codegen/ewise.h"
#include "ember/util.h"
#include "runtime/pinslot.h"

static int is_cuda(em_device *dev)
{
    return em_device_get_type(dev) == EM_DEVICE_CUDA;
}

em_status em_compact_count(em_compact *c, em_device *dev, int kind, int elem,
                           int ndim, const void *mask, int64_t n, em_stream *on)
{
    int cuda = is_cuda(dev);
    int64_t words;
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    em_status st;
    memset(c, 0, sizeof *c);
    c->dev = dev;
    c->on = on;
    c->d.kind = (uint8_t)kind;
    c->d.elem = (uint8_t)elem;
    c->d.ndim = (uint8_t)ndim;
    em_gen_compact_fill(&c->d, em_device_get_type(dev));
    c->mask = mask;
    c->n = n;
    if (n <= 0)
        return EM_OK;
    if ((st = em_gen_compact_functions(dev, &c->d, c->fn)) != EM_OK)
        return st;
    c->tile = em_gen_compact_tile(&c->d, em_device_get_type(dev));
    c->nt = (n + c->tile - 1) / c->tile;
    /* offsets (nt + 1 int64), then the int32 counts from a 16-byte
     * boundary (cc_scan's vector loads) */
    words = ((c->nt + 2) & ~(int64_t)1) + (c->nt + 1) / 2 + 1;
    if ((st = em_array_empty(dev, EM_INT64, 1, &words, 'C', on, &c->scratch)) !=
        EM_OK)
        return st;
    c->offs = (int64_t *)c->scratch.data;
    {
        void *mp = (void *)mask, *cp = c->offs + ((c->nt + 2) & ~(int64_t)1),
             *op = c->offs;
        void *a1[] = {&mp, &n, &c->nt, &cp};
        void *a2[] = {&cp, &c->nt, &op};
        if (cuda) {
            grid.x = (unsigned)((c->nt + EM_GEN_COMPACT_COUNT_TILES - 1) /
                                EM_GEN_COMPACT_COUNT_TILES);
            block.x = EM_GEN_COMPACT_BLOCK;
        } else {
            grid.x = (unsigned)c->nt;
        }
        st = em_launch(c->fn[0], grid, block, 0, on, a1);
        grid.x = 1;
        block.x = cuda ? 1024 : 1;
        if (st == EM_OK)
            st = em_launch(c->fn[1], grid, block, 0, on, a2);
    }
    /* The one host read: the result's size. */
    if (st == EM_OK)
        st =
            em_read_small(dev, c->offs + c->nt, &c->total, sizeof c->total, on);
    if (st != EM_OK)
        em_compact_end(c);
    return st;
}

em_status em_compact_write(em_compact *c, const void *x, void *out,
                           const int64_t *shape)
{
    int64_t g[EM_MAX_NDIM];
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    if (c->n <= 0 || (c->total == 0 && c->d.kind != EM_GEN_COMPACT_PART))
        return EM_OK;
    memset(g, 0, sizeof g);
    if (shape && c->d.ndim)
        memcpy(g, shape, (size_t)c->d.ndim * sizeof *g);
    {
        void *mp = (void *)c->mask, *xp = (void *)x, *op = c->offs, *outp = out;
        void *args[] = {&mp, &xp, &c->n, &op, &outp, &c->total, g};
        grid.x = (unsigned)c->nt;
        if (is_cuda(c->dev))
            block.x = EM_GEN_COMPACT_BLOCK;
        return em_launch(c->fn[2], grid, block, 0, c->on, args);
    }
}

void em_compact_end(em_compact *c)
{
    if (c->scratch.storage)
        em_array_release(&c->scratch);
    memset(&c->scratch, 0, sizeof c->scratch);
    c->offs = NULL;
}

/* The widest word (up to 16 bytes) that divides v. */
static int word_of(uint64_t v)
{
    int w = 16;
    while (w > 1 && v % (uint64_t)w)
        w >>= 1;
    return w;
}

em_status em_compact_rows(em_device *dev, const void *src, const int64_t *idx,
                          int64_t k, int64_t row_bytes, void *out,
                          em_stream *on)
{
    em_gen_compact d;
    em_function *fn[3];
    int64_t words, chunk = 0;
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    em_status st;
    if (k <= 0 || row_bytes <= 0)
        return EM_OK;
    memset(&d, 0, sizeof d);
    d.kind = EM_GEN_COMPACT_ROWS;
    d.elem =
        (uint8_t)word_of((uint64_t)row_bytes | (uintptr_t)src | (uintptr_t)out);
    em_gen_compact_fill(&d, em_device_get_type(dev));
    if ((st = em_gen_compact_functions(dev, &d, fn)) != EM_OK)
        return st;
    words = row_bytes / d.elem;
    if (is_cuda(dev)) {
        int64_t b = (k * words + 255) / 256,
                cap = (int64_t)em_gen_device_units(dev) * 16;
        grid.x = (unsigned)(b < cap ? b : cap);
        block.x = 256;
    } else {
        int64_t units = em_gen_device_units(dev);
        chunk = (k + units * 4 - 1) / (units * 4);
        if (chunk * words < 16384)
            chunk = (16384 + words - 1) / words;
        grid.x = (unsigned)((k + chunk - 1) / chunk);
    }
    {
        void *sp = (void *)src, *ip = (void *)idx, *op = out;
        void *args[] = {&sp, &ip, &op, &k, &words, &chunk};
        return em_launch(fn[0], grid, block, 0, on, args);
    }
}

/* The hash kernels' host schedule over n items: *chunk of them per block
 * (four per device unit, at least 65536 items each); returns the
 * blocks. */
static unsigned host_chunks(em_device *dev, int64_t n, int64_t *chunk)
{
    int64_t units = em_gen_device_units(dev);
    *chunk = (n + units * 4 - 1) / (units * 4);
    if (*chunk < 65536)
        *chunk = 65536;
    return (unsigned)((n + *chunk - 1) / *chunk);
}

em_status em_compact_hash_unique(em_device *dev, const void *keys, int64_t n,
                                 em_dtype dt, em_array *out, em_array *counts,
                                 int *fell_back, em_stream *on)
{
    em_gen_compact d;
    em_function *fn[3];
    em_array table, words, cnt;
    uint64_t w[5] = {0, 0, 0, 0, 0};
    int64_t slots = 64, nw = 5, chunk = 0, distinct;
    int elem = (int)em_dtype_size(dt), cuda = is_cuda(dev), lg = 0;
    const char *env = em_knob_text(EM_KNOB_TEST_HASH_SLOTS_LOG2);
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    em_status st;

    *fell_back = 0;
    memset(out, 0, sizeof *out);
    memset(&cnt, 0, sizeof cnt);
    if (counts)
        memset(counts, 0, sizeof *counts);
    if (counts && n >= ((int64_t)1 << 32)) {
        *fell_back = 1; /* the counters are 32-bit */
        return EM_OK;
    }
    /* The table should stay in cache: 2^22 slots fit the H100's 50 MB L2;
     * on the host a table past the L2 loses to sorting (bench/README.md,
     * 'compaction'), so there it is capped at 2^18 slots and more
     * distinct values fall back early. */
    if (env && (lg = atoi(env)) >= 1 && lg <= 30)
        slots = (int64_t)1 << lg;
    else
        while (slots < 2 * n && slots < ((int64_t)1 << (cuda ? 22 : 18)))
            slots <<= 1;
    memset(&d, 0, sizeof d);
    d.kind = EM_GEN_COMPACT_HASH;
    d.elem = (uint8_t)elem;
    d.ndim = counts != NULL;
    em_gen_compact_fill(&d, em_device_get_type(dev));
    if ((st = em_gen_compact_functions(dev, &d, fn)) != EM_OK)
        return st;
    memset(&table, 0, sizeof table);
    memset(&words, 0, sizeof words);
    if ((st = em_array_empty(dev, dt, 1, &slots, 'C', on, &table)) != EM_OK)
        return st;
    if ((st = em_array_empty(dev, EM_UINT64, 1, &nw, 'C', on, &words)) !=
            EM_OK ||
        (st = em_memset_async(dev, table.data, 0xff, (size_t)(slots * elem),
                              on)) != EM_OK ||
        (st = em_memset_async(dev, words.data, 0, sizeof w, on)) != EM_OK)
        goto done;
    if (counts &&
        ((st = em_array_empty(dev, EM_UINT32, 1, &slots, 'C', on, &cnt)) !=
             EM_OK ||
         (st = em_memset_async(dev, cnt.data, 0, (size_t)slots * 4, on)) !=
             EM_OK))
        goto done;
    if (cuda) {
        int64_t b = (n + 255) / 256,
                cap = (int64_t)em_gen_device_units(dev) * 8;
        grid.x = (unsigned)(b < cap ? b : cap);
        block.x = 256;
    } else {
        grid.x = host_chunks(dev, n, &chunk);
    }
    {
        void *kp = (void *)keys, *tp = table.data, *wp = words.data,
             *cp = cnt.data;
        unsigned long long mask = (unsigned long long)slots - 1,
                           limit = (unsigned long long)slots / 2;
        void *args[] = {&kp, &n, &tp, &mask, &wp, &limit, &chunk, &cp};
        if ((st = em_launch(fn[0], grid, block, 0, on, args)) != EM_OK)
            goto done;
    }
    /* The size read: keys inserted, overflow, whether the empty key was
     * among them. */
    if ((st = em_read_small(dev, words.data, w, sizeof w, on)) != EM_OK)
        goto done;
    if (w[1]) {
        *fell_back = 1;
        goto done;
    }
    distinct = (int64_t)(w[0] + (w[2] != 0));
    if ((st = em_array_empty(dev, dt, 1, &distinct, 'C', on, out)) != EM_OK)
        goto done;
    if (counts && (st = em_array_empty(dev, EM_INT64, 1, &distinct, 'C', on,
                                       counts)) != EM_OK)
        goto done;
    if (cuda) {
        grid.x = (unsigned)((slots + 256 * 16 - 1) / (256 * 16));
        block.x = 256;
    } else {
        grid.x = host_chunks(dev, slots, &chunk);
    }
    {
        void *tp = table.data, *op = out->data, *wp = words.data,
             *cp = cnt.data, *ocp = counts ? counts->data : NULL;
        long long dn = (long long)w[0];
        void *args[] = {&tp, &slots, &op, &wp, &dn, &chunk, &cp, &ocp};
        st = em_launch(fn[1], grid, block, 0, on, args);
    }
done:
    em_array_release(&table);
    if (words.storage)
        em_array_release(&words);
    if (cnt.storage)
        em_array_release(&cnt);
    if (st != EM_OK && out->storage)
        em_array_release(out);
    if (st != EM_OK && counts && counts->storage)
        em_array_release(counts);
    return st;
}
