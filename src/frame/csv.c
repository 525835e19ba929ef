/* ember frame: the CSV kernels' source, compilation and launches
 * (ember/csv.h). kernels/csv.cuh holds all three kernels (after
 * kernels/csv_values.cuh, the readers of numbers and dates); the only
 * difference between backends is CSV_CUDA (the exact float path that is
 * left to the caller on cuda) and the launch shape: the host runs one
 * large chunk a block (a few a core, as the thread pool takes them),
 * cuda one small chunk a thread. */
#include <stdlib.h>
#include <string.h>

#include "array/array_internal.h"
#include "codegen/ewise.h"
#include "codegen/kernel_table.h"
#include "core/strbuf.h"
#include "ember/csv.h"

extern const char em_embedded_csv_values_cuh[];
extern const char em_embedded_csv_cuh[];

/* Bump when kernels/csv.cuh changes meaning (it is in the cache key). */
#define CSV_VERSION 16u
#define CSV_BLOCK 256      /* cuda threads a block */
#define CSV_CUDA_CHUNK 256 /* bytes a cuda thread */
#define CSV_HOST_CHUNK_MIN (1ll << 16)

static em_gen_ktable csv_table = EM_GEN_KTABLE(16);

static em_status load(const void *ctx, em_device *dev, em_function **fn)
{
    static const char *const names[3] = {"csv_count", "csv_fields",
                                         "csv_parse"};
    static const char *const host_opts[] = {"-O2"};
    int cpu = em_device_get_type(dev) == EM_DEVICE_CPU;
    em_sb b = {0};
    (void)ctx;
    em_sb_printf(&b, "/* ember csv */\n#define CSV_CUDA %d\n", !cpu);
    em_sb_puts(&b, em_embedded_csv_values_cuh);
    em_sb_puts(&b, em_embedded_csv_cuh);
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating the csv kernels");
    }
    return em_gen_kt_compile(dev, b.p, cpu ? host_opts : NULL, cpu ? 1 : 0,
                             CSV_VERSION, names, 3, fn);
}

static em_status functions(em_device *dev, em_function *fn[3])
{
    em_gen_kkey key = {{0x637376}, NULL};
    return em_gen_kt_get(&csv_table, dev, &key, 3, fn, load, NULL);
}

/* EM_ERR_TYPE/INVALID_VALUE unless a is a contiguous 1-d (or, with
 * rows, (n, 3)) array of dtype dt on dev with at least n elements. */
static em_status need(const em_array *a, em_dtype dt, em_device *dev, int64_t n,
                      const char *fn, const char *what)
{
    em_status st = em_arr_check(a, fn);
    if (st != EM_OK)
        return st;
    if (a->dtype != dt)
        return em_error(EM_ERR_TYPE, "%s: %s must be of dtype %s, not %s", fn,
                        what, em_dtype_get(dt)->name,
                        em_dtype_get(a->dtype)->name);
    if (!(a->flags & EM_ARRAY_C_CONTIGUOUS) || a->size < n)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: %s must be contiguous with at least %lld "
                        "elements (it has %lld)",
                        fn, what, (long long)n, (long long)a->size);
    if (a->device != dev)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: %s is on %s, the bytes on %s", fn, what,
                        em_device_name(a->device), em_device_name(dev));
    return EM_OK;
}

static int is_cuda(em_device *dev)
{
    return em_device_get_type(dev) == EM_DEVICE_CUDA;
}

/* The grid and block of n threads' work. */
static void shape(em_device *dev, int64_t n, em_dim3 *grid, em_dim3 *block)
{
    int64_t bs =
        is_cuda(dev) ? CSV_BLOCK : (n > CSV_BLOCK * 64 ? CSV_BLOCK : 1);
    grid->x = (unsigned)((n + bs - 1) / bs);
    grid->y = grid->z = 1;
    block->x = (unsigned)bs;
    block->y = block->z = 1;
}

/* The launch of one thread a chunk: a block each on the host. */
static void chunk_shape(em_device *dev, int64_t nch, em_dim3 *grid,
                        em_dim3 *block)
{
    shape(dev, nch, grid, block);
    if (!is_cuda(dev)) {
        grid->x = (unsigned)nch;
        block->x = 1;
    }
}

static int64_t pick_chunk(em_device *dev, int64_t n)
{
    int64_t units = em_gen_device_units(dev), c;
    if (is_cuda(dev))
        return CSV_CUDA_CHUNK;
    c = (n + units * 4 - 1) / (units * 4);
    c = c < CSV_HOST_CHUNK_MIN ? CSV_HOST_CHUNK_MIN : c;
    return (c + 63) & ~63ll; /* chunks start on whole words */
}

em_status em_csv_count(const em_array *bytes, int sep, int quote,
                       em_array *counts, int64_t *chunk, em_stream *s)
{
    static const char *fn_name = "em_csv_count";
    em_function *fn[3];
    em_status st;
    int64_t n, nch, shp[2];
    em_dim3 grid, block;
    if ((st = need(bytes, EM_UINT8, bytes ? bytes->device : NULL, 0, fn_name,
                   "bytes")) != EM_OK)
        return st;
    n = bytes->size;
    *chunk = pick_chunk(bytes->device, n);
    nch = (n + *chunk - 1) / *chunk;
    shp[0] = nch;
    shp[1] = 3;
    if ((st = em_array_empty(bytes->device, EM_INT64, 2, shp, 'C', s,
                             counts)) != EM_OK)
        return st;
    if (nch == 0)
        return EM_OK;
    if ((st = functions(bytes->device, fn)) == EM_OK) {
        const void *bp = bytes->data;
        void *cp = counts->data;
        void *args[] = {&bp, &n, chunk, &nch, &sep, &quote, &cp};
        chunk_shape(bytes->device, nch, &grid, &block);
        st = em_launch(fn[0], grid, block, 0, s, args);
    }
    if (st != EM_OK)
        em_array_release(counts);
    return st;
}

em_status em_csv_fields(const em_array *bytes, int sep, int quote,
                        int64_t chunk, const em_array *qpre,
                        const em_array *offs, int64_t total, em_array *ends,
                        em_array *rowend, em_stream *s)
{
    static const char *fn_name = "em_csv_fields";
    em_function *fn[3];
    em_status st;
    int64_t n, nch;
    em_dim3 grid, block;
    if ((st = need(bytes, EM_UINT8, bytes ? bytes->device : NULL, 0, fn_name,
                   "bytes")) != EM_OK)
        return st;
    n = bytes->size;
    if (chunk < 1)
        return em_error(EM_ERR_INVALID_VALUE, "%s: chunk %lld < 1", fn_name,
                        (long long)chunk);
    nch = (n + chunk - 1) / chunk;
    if ((st = need(qpre, EM_INT64, bytes->device, nch, fn_name, "qpre")) !=
            EM_OK ||
        (st = need(offs, EM_INT64, bytes->device, nch + 1, fn_name, "offs")) !=
            EM_OK)
        return st;
    if (total < 0)
        return em_error(EM_ERR_INVALID_VALUE, "%s: total %lld < 0", fn_name,
                        (long long)total);
    if ((st = em_array_empty(bytes->device, EM_INT64, 1, &total, 'C', s,
                             ends)) != EM_OK)
        return st;
    if ((st = em_array_empty(bytes->device, EM_UINT8, 1, &total, 'C', s,
                             rowend)) != EM_OK) {
        em_array_release(ends);
        return st;
    }
    if (nch == 0 || total == 0)
        return EM_OK;
    if ((st = functions(bytes->device, fn)) == EM_OK) {
        const void *bp = bytes->data, *qp = qpre->data, *op = offs->data;
        void *ep = ends->data, *rp = rowend->data;
        void *args[] = {&bp,    &n,  &chunk, &nch, &sep,
                        &quote, &qp, &op,    &ep,  &rp};
        chunk_shape(bytes->device, nch, &grid, &block);
        st = em_launch(fn[1], grid, block, 0, s, args);
    }
    if (st != EM_OK) {
        em_array_release(ends);
        em_array_release(rowend);
    }
    return st;
}

/* The dtype em_csv_parse writes in a mode. */
static em_dtype mode_dtype(em_csv_mode mode)
{
    switch (mode) {
    case EM_CSV_CLASSIFY:
    case EM_CSV_DATETIME:
    case EM_CSV_INT64:
    case EM_CSV_STRLEN:
        return EM_INT64;
    case EM_CSV_UINT64:
        return EM_UINT64;
    case EM_CSV_FLOAT64:
        return EM_FLOAT64;
    case EM_CSV_BOOL:
        return EM_BOOL;
    case EM_CSV_BLANK:
    default:
        return EM_UINT8;
    }
}

em_status em_csv_parse(const em_array *bytes, const em_array *starts,
                       const em_array *ends, int64_t base, int64_t nrows,
                       int64_t ncols, int64_t col, int quote, em_csv_mode mode,
                       const em_array *na, const em_array *na_off,
                       em_array *out, em_array *cls, const em_array *soff,
                       em_stream *s)
{
    static const char *fn_name = "em_csv_parse";
    em_function *fn[3];
    em_status st;
    em_device *dev;
    int64_t nfields = base + nrows * ncols, nna, per;
    int m = (int)mode;
    em_dim3 grid, block;
    if ((st = need(bytes, EM_UINT8, bytes ? bytes->device : NULL, 0, fn_name,
                   "bytes")) != EM_OK)
        return st;
    dev = bytes->device;
    if (mode < EM_CSV_CLASSIFY || mode > EM_CSV_DATETIME)
        return em_error(EM_ERR_INVALID_VALUE, "%s: unknown mode %d", fn_name,
                        m);
    /* col -1 (EM_CSV_CLASSIFY): every column, in one pass over the rows */
    if (nrows < 0 || ncols < 1 || col < -1 || col >= ncols || base < 0 ||
        (col < 0 && mode != EM_CSV_CLASSIFY))
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: bad shape (base %lld, %lld rows, %lld columns, "
                        "column %lld)",
                        fn_name, (long long)base, (long long)nrows,
                        (long long)ncols, (long long)col);
    if (nrows == 0)
        return EM_OK;
    per = col < 0 ? nrows * ncols : nrows;
    if ((st = need(ends, EM_INT64, dev, nfields, fn_name, "ends")) != EM_OK ||
        (starts && (st = need(starts, EM_INT64, dev, nfields, fn_name,
                              "starts")) != EM_OK) ||
        (st = need(na, EM_UINT8, dev, 0, fn_name, "na")) != EM_OK ||
        (st = need(na_off, EM_INT64, dev, 1, fn_name, "na_off")) != EM_OK)
        return st;
    if (mode == EM_CSV_CLASSIFY || mode == EM_CSV_DATETIME ||
        (mode == EM_CSV_FLOAT64 && cls)) {
        if ((st = need(cls, EM_UINT8, dev, per, fn_name, "cls")) != EM_OK)
            return st;
    }
    if ((mode != EM_CSV_CLASSIFY || out) &&
        (st = need(out, mode_dtype(mode), dev,
                   mode == EM_CSV_STRCOPY ? 0 : per, fn_name, "out")) !=
            EM_OK)
        return st;
    if (mode == EM_CSV_STRCOPY &&
        (st = need(soff, EM_INT64, dev, nrows, fn_name, "soff")) != EM_OK)
        return st;
    nna = na_off->size - 1;
    if ((st = functions(dev, fn)) != EM_OK)
        return st;
    {
        const void *bp = bytes->data, *sp = starts ? starts->data : NULL,
                   *ep = ends->data, *np = na->data, *nop = na_off->data,
                   *sop = soff ? soff->data : NULL;
        void *op = out ? out->data : NULL,
             *cp = (cls && (mode == EM_CSV_CLASSIFY || mode == EM_CSV_FLOAT64 ||
                            mode == EM_CSV_DATETIME))
                       ? cls->data
                       : NULL;
        void *args[] = {&bp, &sp, &ep,  &base, &nrows, &ncols, &col, &quote,
                        &m,  &np, &nop, &nna,  &op,    &cp,    &sop};
        shape(dev, nrows, &grid, &block);
        if (!is_cuda(dev)) { /* a few long blocks a core (a grid-stride loop) */
            int64_t nb = (int64_t)em_gen_device_units(dev) * 4;
            grid.x = (unsigned)(nrows < nb ? nrows : nb);
            block.x = 1;
        }
        return em_launch(fn[2], grid, block, 0, s, args);
    }
}
