/* ember arrays: gathers and scatters over an index geometry (advanced
 * indexing, take, put), and the mask compaction behind nonzero.
 *
 * Every call checks devices, builds a gather descriptor, finds the kernels
 * in the per-device table (codegen/gather_cache.c) and launches on the
 * operands' stream. Raise mode adds a 24-byte error word: zeroed before
 * the kernel, read back after it (the one synchronisation of a checked
 * gather), turned into NumPy's IndexError message.
 */
#include <stdio.h>
#include <string.h>

#include "array/array_internal.h"
#include "array/compact_run.h"
#include "codegen/ewise.h"
#include "codegen/gather.h"

#define SHAPE_STR 768

static em_status same_device(const em_array *a, const em_array *b,
                             const char *what_a, const char *what_b)
{
    if (a->device == b->device)
        return EM_OK;
    return em_error(EM_ERR_INVALID_VALUE,
                    "%s is on %s and %s on %s (ember does not copy between "
                    "devices implicitly)",
                    what_a, em_device_name(a->device), what_b,
                    em_device_name(b->device));
}

static int is_int_dtype(em_dtype d)
{
    return d >= EM_INT8 && d <= EM_UINT64;
}

/* Blocks of 256 on cuda, enough to fill the device a few times over. */
static unsigned cuda_grid(em_device *dev, int64_t n)
{
    int64_t blocks = (n + EM_GEN_GATHER_BLOCK - 1) / EM_GEN_GATHER_BLOCK,
            cap = (int64_t)em_gen_device_units(dev) * 8;
    if (blocks > cap)
        blocks = cap;
    return blocks < 1 ? 1u : (unsigned)blocks;
}

static em_status check_aligned(const char *p, int64_t align, int n,
                               const int64_t *strides, const char *what)
{
    if ((uintptr_t)p % (uintptr_t)align)
        return em_error(EM_ERR_NOT_SUPPORTED,
                        "%s is not aligned to its element size on cuda", what);
    for (int i = 0; i < n; i++)
        if (strides[i] % align)
            return em_error(EM_ERR_NOT_SUPPORTED,
                            "%s has a stride that is not a multiple of its "
                            "element size on cuda",
                            what);
    return EM_OK;
}

/* The gather or scatter itself: src is the array addressed through g,
 * val the dense side (the gather's output, the scatter's values).
 * check_only: read and check the indices only (mode EM_INDEX_RAISE), every
 * element access pointed at a scratch word. */
static em_status run(int op, const em_array *src, const em_index_geom *g,
                     em_index_mode mode, const em_array *val, em_stream *on,
                     int check_only)
{
    em_device *dev = src->device;
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    int R = g->ndim > 0 ? g->ndim : 1, K = g->nidx;
    int64_t n = 1, words[EM_GEN_GATHER_MAX_WORDS], chunk;
    int64_t esize = (int64_t)em_dtype_size(src->dtype);
    em_gen_gather d;
    em_function *fn[3];
    em_array err;
    void *args[4 + EM_GEN_GATHER_MAX_IDX];
    void *ptrs[3 + EM_GEN_GATHER_MAX_IDX];
    unsigned long long host_err[3] = {0, 0, 0};
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    em_status st;
    int w = 0, na = 0;

    for (int i = 0; i < g->ndim; i++)
        n *= g->shape[i];
    if (n == 0) {
        /* NumPy still checks the indices when other axes leave the result
         * empty ((3, 0)[[5]] raises): then the kernel only reads them,
         * with every element access pointed at a scratch word. */
        if (mode != EM_INDEX_RAISE || K < 1)
            return EM_OK;
        for (int k = 0; k < K; k++)
            if (!g->idx[k] || g->idx[k]->size == 0)
                return EM_OK;
        n = 1;
        for (int i = 0; i < g->ndim; i++)
            n *= g->shape[i] ? g->shape[i] : 1;
        check_only = 1;
    }
    if (K < 1 || K > EM_GEN_GATHER_MAX_IDX)
        return em_error(EM_ERR_NOT_SUPPORTED,
                        "advanced indexing with %d index arrays is not "
                        "supported (at most %d)",
                        K, EM_GEN_GATHER_MAX_IDX);
    memset(&d, 0, sizeof d);
    d.op = (uint8_t)op;
    d.elem = (uint8_t)esize;
    d.ndim = (uint8_t)R;
    d.nidx = (uint8_t)K;
    d.mode = (uint8_t)mode;
    for (int k = 0; k < K; k++) {
        if (!g->idx[k] || !is_int_dtype(g->idx[k]->dtype))
            return em_error(EM_ERR_INVALID_VALUE,
                            "gather: index array %d is not an integer array",
                            k);
        if ((st = same_device(src, g->idx[k], "the indexed array",
                              "an index array")) != EM_OK)
            return st;
        d.idx[k] = (uint8_t)g->idx[k]->dtype;
    }
    if ((st = same_device(src, val, "the indexed array", "the values")) !=
        EM_OK)
        return st;
    if (em_gen_gather_words(R, K) > EM_GEN_GATHER_MAX_WORDS)
        return em_error(EM_ERR_NOT_SUPPORTED,
                        "advanced indexing with %d index arrays over a "
                        "%d-dimensional result is beyond ember's kernel "
                        "parameter space",
                        K, R);
    if (cuda) {
        int64_t al = esize > 8 ? 8 : esize;
        st = check_aligned(src->data, al, g->ndim, g->src_strides,
                           "the indexed array");
        if (st == EM_OK)
            st =
                check_aligned(src->data, al, K, g->stride, "the indexed array");
        if (st == EM_OK)
            st = check_aligned(val->data, al, val->ndim, val->strides,
                               op == EM_GEN_GATHER ? "the output"
                                                   : "the values");
        for (int k = 0; k < K && st == EM_OK; k++)
            st = check_aligned(
                g->idx[k]->data, (int64_t)em_dtype_size(g->idx[k]->dtype),
                g->idx[k]->ndim, g->idx[k]->strides, "an index array");
        if (st != EM_OK)
            return st;
    }
    if ((st = em_gen_gather_functions(dev, &d, fn)) != EM_OK)
        return st;

    /* n, shape, value strides, source strides, index strides, extents,
     * source strides of the indexed axes (gather.h) */
    words[w++] = n;
    for (int i = 0; i < R; i++)
        words[w++] = g->ndim && g->shape[i] ? g->shape[i] : 1;
    for (int i = 0; i < R; i++)
        words[w++] =
            !check_only && g->ndim && val->ndim == g->ndim && g->shape[i] > 1
                ? val->strides[i]
                : 0;
    for (int i = 0; i < R; i++)
        words[w++] =
            !check_only && g->ndim && g->shape[i] > 1 ? g->src_strides[i] : 0;
    for (int k = 0; k < K; k++)
        for (int i = 0; i < R; i++)
            words[w++] = g->ndim && g->shape[i] > 1 ? g->idx_strides[k][i] : 0;
    for (int k = 0; k < K; k++)
        words[w++] = g->extent[k];
    for (int k = 0; k < K; k++)
        words[w++] = check_only ? 0 : g->stride[k];

    memset(&err, 0, sizeof err);
    if (mode == EM_INDEX_RAISE) {
        /* the flag, which index, its value; then a check-only call's
         * scratch element (of the array's itemsize, at least 16 bytes) */
        int64_t words_n = 3 + (esize > 16 ? (esize + 7) / 8 : 2);
        st = em_array_empty(dev, EM_UINT64, 1, &words_n, 'C', on, &err);
        if (st == EM_OK)
            st = em_memset_async(dev, err.data, 0, (size_t)words_n * 8, on);
        if (st != EM_OK) {
            em_array_release(&err);
            return st;
        }
    }
    ptrs[na++] = check_only ? err.data + 24 : val->data;
    ptrs[na++] = check_only ? err.data + 24 : src->data;
    for (int k = 0; k < K; k++)
        ptrs[na++] = g->idx[k]->data;
    ptrs[na++] = err.data;
    for (int i = 0; i < na; i++)
        args[i] = &ptrs[i];
    args[na] = words;
    args[na + 1] = &chunk;
    if (cuda) {
        block.x = EM_GEN_GATHER_BLOCK;
        grid.x = cuda_grid(dev, n);
        chunk = 0;
    } else if (op == EM_GEN_SCATTER) {
        chunk = n; /* one block, in C order: the last write wins */
    } else {
        int64_t units = em_gen_device_units(dev), per = n / (units * 4);
        if (per < 16384)
            per = 16384;
        chunk = per;
        grid.x = (unsigned)((n + per - 1) / per);
    }
    st = em_launch(fn[0], grid, block, 0, on, args);
    if (st == EM_OK && mode == EM_INDEX_RAISE) {
        st = em_memcpy_async(dev, host_err, err.data, sizeof host_err, on);
        if (st == EM_OK)
            st = em_stream_synchronize(on);
        if (st == EM_OK && host_err[0]) {
            int k = (int)host_err[1] < K ? (int)host_err[1] : 0;
            if (em_dtype_get(g->idx[k]->dtype)->kind == 'u')
                st = em_error(EM_ERR_INDEX,
                              "index %llu is out of bounds for axis %d "
                              "with size %lld",
                              host_err[2], g->axis[k], (long long)g->extent[k]);
            else
                st = em_error(EM_ERR_INDEX,
                              "index %lld is out of bounds for axis %d "
                              "with size %lld",
                              (long long)host_err[2], g->axis[k],
                              (long long)g->extent[k]);
        }
    }
    em_array_release(&err);
    return st;
}

em_status em_index_gather(const em_array *src, const em_index_geom *g,
                          em_index_mode mode, em_array *out, em_stream *s)
{
    em_stream *on = NULL;
    em_status st;
    char b1[SHAPE_STR], b2[SHAPE_STR];
    int made = 0;
    if (!src || !g || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_index_gather: NULL argument");
    if ((st = em_arr_check(src, "gather: the source")) != EM_OK)
        return st;
    if (g->ndim < 0 || g->ndim > EM_MAX_NDIM || g->nidx < 0 ||
        g->nidx > EM_MAX_NDIM)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_index_gather: bad geometry rank");
    if (!(on = em_arr_stream(src->device, s, "gather")))
        return EM_ERR_INVALID_VALUE;
    if (!out->storage) {
        st = em_array_empty(src->device, src->dtype, g->ndim, g->shape, 'C', on,
                            out);
        if (st != EM_OK)
            return st;
        made = 1;
    } else {
        if ((st = em_arr_check(out, "gather: out")) != EM_OK)
            return st;
        if (out->ndim != g->ndim ||
            memcmp(out->shape, g->shape, (size_t)g->ndim * sizeof *g->shape))
            return em_error(
                EM_ERR_INVALID_VALUE,
                "output array has shape %s but the result has "
                "shape %s",
                em_shape_format(out->ndim, out->shape, b1, sizeof b1),
                em_shape_format(g->ndim, g->shape, b2, sizeof b2));
        if (out->dtype != src->dtype)
            return em_error(
                EM_ERR_TYPE, "output array has dtype %s but the source %s",
                em_dtype_get(out->dtype)->name, em_dtype_get(src->dtype)->name);
        if (!(out->flags & EM_ARRAY_WRITEABLE))
            return em_error(EM_ERR_INVALID_VALUE, "output array is read-only");
    }
    st = run(EM_GEN_GATHER, src, g, mode, out, on, 0);
    if (st != EM_OK && made)
        em_array_release(out);
    return st;
}

em_status em_index_scatter(em_array *dst, const em_index_geom *g,
                           em_index_mode mode, const em_array *values,
                           em_stream *s)
{
    em_stream *on = NULL;
    em_status st;
    char b1[SHAPE_STR], b2[SHAPE_STR];
    if (!dst || !g || !values)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_index_scatter: NULL argument");
    if ((st = em_arr_check(dst, "scatter: the destination")) != EM_OK ||
        (st = em_arr_check(values, "scatter: the values")) != EM_OK)
        return st;
    if (!(dst->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE,
                        "assignment destination is read-only");
    if (values->dtype != dst->dtype || values->ndim != g->ndim ||
        memcmp(values->shape, g->shape, (size_t)g->ndim * sizeof *g->shape))
        return em_error(
            EM_ERR_INVALID_VALUE,
            "scatter: values of %s %s for a destination of %s "
            "indexed as %s",
            em_dtype_get(values->dtype)->name,
            em_shape_format(values->ndim, values->shape, b1, sizeof b1),
            em_dtype_get(dst->dtype)->name,
            em_shape_format(g->ndim, g->shape, b2, sizeof b2));
    if (!(on = em_arr_stream(dst->device, s, "scatter")))
        return EM_ERR_INVALID_VALUE;
    /* NumPy checks every index before it writes any (x[[1, 3]] = 10 on
     * three elements raises and leaves x as it was): a check-only pass
     * first, then the scatter with the indices known to be in range, where
     * wrapping is NumPy's reading of a negative index and needs no second
     * check (nor its synchronisation). */
    if (mode == EM_INDEX_RAISE) {
        st = run(EM_GEN_GATHER, dst, g, EM_INDEX_RAISE, values, on, 1);
        if (st != EM_OK)
            return st;
        mode = EM_INDEX_WRAP;
    }
    return run(EM_GEN_SCATTER, dst, g, mode, values, on, 0);
}

/* ---- nonzero ------------------------------------------------------------ */

/* Two passes of the compaction generator (codegen/compact.h) over the
 * mask's bytes: per-tile counts (then the one read of the total), and the
 * coordinates of each tile's true elements written at its offset. */
em_status em_nonzero(const em_array *a, em_array *out, em_stream *s)
{
    em_device *dev;
    em_stream *on = NULL;
    em_array mask;
    em_compact c;
    int64_t n, shape2[2];
    em_status st;

    if (!a || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_nonzero: NULL argument");
    if ((st = em_arr_check(a, "nonzero")) != EM_OK)
        return st;
    if (a->ndim == 0)
        return em_error(EM_ERR_INVALID_VALUE,
                        "Calling nonzero on 0d arrays is not allowed. Use "
                        "np.atleast_1d(scalar).nonzero() instead.");
    dev = a->device;
    if (!(on = em_arr_stream(dev, s, "nonzero")))
        return EM_ERR_INVALID_VALUE;
    n = a->size;
    shape2[0] = a->ndim;
    if (n == 0) {
        shape2[1] = 0;
        return em_array_empty(dev, EM_INT64, 2, shape2, 'C', on, out);
    }
    /* The mask as C-ordered bytes (a cast to bool is "nonzero"). */
    if (a->dtype == EM_BOOL && (a->flags & EM_ARRAY_C_CONTIGUOUS)) {
        em_array_retain(a, &mask);
    } else {
        em_operand in;
        memset(&in, 0, sizeof in);
        in.array = a;
        st = em_array_empty(dev, EM_BOOL, a->ndim, a->shape, 'C', on, &mask);
        if (st != EM_OK)
            return st;
        if ((st = em_ufunc_apply(EM_OP_COPY, &in, 1, &mask, NULL, on)) !=
            EM_OK) {
            em_array_release(&mask);
            return st;
        }
    }
    st = em_compact_count(&c, dev, EM_GEN_COMPACT_COORDS, 8, a->ndim,
                          mask.data, n, on);
    if (st == EM_OK) {
        shape2[1] = c.total;
        st = em_array_empty(dev, EM_INT64, 2, shape2, 'C', on, out);
        if (st == EM_OK &&
            (st = em_compact_write(&c, NULL, out->data, a->shape)) != EM_OK)
            em_array_release(out);
        em_compact_end(&c);
    }
    em_array_release(&mask);
    return st;
}
