/* ember algorithms: transform and stream compaction (em_par_transform,
 * em_select, em_partition).
 *
 * Compaction is the compaction generator's two passes over a byte mask
 * (the predicate's values from a transform, or the caller's mask): per-tile
 * counts and their scan, one read of the total (the result's size: the
 * only host synchronisation), and the ordered write of each tile.
 */
#include <string.h>

#include "array/array_internal.h"
#include "array/compact_run.h"
#include "codegen/scan.h"
#include "ember/ufunc.h"

#define SHAPE_STR 256

/* a as a C-contiguous array of dtype dt and the given shape (broadcast and
 * cast as needed; a new reference either way). */
static em_status contiguous(const em_array *a, em_dtype dt, int ndim,
                            const int64_t *shape, em_stream *s, em_array *out)
{
    if (a->dtype == dt && a->ndim == ndim &&
        !memcmp(a->shape, shape, (size_t)ndim * sizeof *shape) &&
        (a->flags & EM_ARRAY_C_CONTIGUOUS)) {
        em_array_retain(a, out);
        return EM_OK;
    }
    em_status st = em_array_empty(a->device, dt, ndim, shape, 'C', s, out);
    if (st == EM_OK && (st = em_array_copy(out, a, s)) != EM_OK)
        em_array_release(out);
    return st;
}

/* a flattened in C order to a contiguous 1-D array (a view when it can). */
static em_status flat(const em_array *a, em_stream *s, em_array *out)
{
    int64_t n = a->size;
    em_array c = {0}, v = {0};
    em_status st = em_array_reshape_view(a, 1, &n, 'C', &v);
    if (st == EM_OK && (v.flags & EM_ARRAY_C_CONTIGUOUS)) {
        *out = v;
        return EM_OK;
    }
    em_array_release(&v);
    if (st != EM_OK && st != EM_ERR_NOT_SUPPORTED)
        return st;
    st = contiguous(a, a->dtype, a->ndim, a->shape, s, &c);
    if (st == EM_OK)
        st = em_array_reshape_view(&c, 1, &n, 'C', out);
    em_array_release(&c);
    return st;
}

em_status em_par_transform(const char *expr, int ninputs,
                           const em_array *const *inputs, em_dtype out_dtype,
                           em_array *out, em_stream *s)
{
    static const char fn[] = "transform";
    em_array c[8];
    const void *ptrs[8];
    em_dtype vt, dts[8];
    int64_t shape[EM_MAX_NDIM];
    int ndim = 0, made = 0;
    em_device *dev;
    em_stream *on = NULL;
    em_status st = EM_OK;

    if (!expr || !expr[0] || !inputs || !out)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    memset(out, 0, sizeof *out);
    if (ninputs < 1 || ninputs > 8)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: takes 1 to 8 inputs (named a to h), not %d", fn,
                        ninputs);
    if (!em_dtype_get(out_dtype))
        return em_error(EM_ERR_TYPE, "%s: invalid dtype %d", fn,
                        (int)out_dtype);
    dev = inputs[0]->device;
    vt = inputs[0]->dtype;
    for (int k = 0; k < ninputs; k++) {
        const em_array *a = inputs[k];
        if ((st = em_arr_check(a, fn)) != EM_OK)
            return st;
        if (a->device != dev)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: input %c is on %s and input a on %s", fn,
                            'a' + k, em_device_name(a->device),
                            em_device_name(dev));
        if (k && (st = em_dtype_promote(vt, a->dtype, &vt)) != EM_OK)
            return st;
        /* NumPy's broadcasting, from the last axis. */
        for (int i = 0; i < a->ndim; i++) {
            int j = a->ndim - 1 - i;
            if (i >= ndim) {
                memmove(shape + 1, shape, (size_t)ndim * sizeof *shape);
                shape[0] = a->shape[j];
                ndim++;
            } else {
                int64_t *d = &shape[ndim - 1 - i];
                if (*d == 1)
                    *d = a->shape[j];
                else if (a->shape[j] != 1 && a->shape[j] != *d) {
                    char b1[SHAPE_STR], b2[SHAPE_STR];
                    return em_error(
                        EM_ERR_INVALID_VALUE,
                        "%s: input %c of shape %s does not broadcast with "
                        "shape %s",
                        fn, 'a' + k,
                        em_shape_format(a->ndim, a->shape, b1, sizeof b1),
                        em_shape_format(ndim, shape, b2, sizeof b2));
                }
            }
        }
    }
    if (!(on = em_arr_stream(dev, s, fn)))
        return EM_ERR_INVALID_VALUE;
    for (; made < ninputs; made++) {
        if ((st = contiguous(inputs[made], vt, ndim, shape, on, &c[made])) !=
            EM_OK)
            goto done;
        ptrs[made] = c[made].data;
        dts[made] = vt;
    }
    if ((st = em_array_empty(dev, out_dtype, ndim, shape, 'C', on, out)) !=
        EM_OK)
        goto done;
    st = em_gen_transform_run(dev, expr, ninputs, dts, out_dtype, ptrs,
                              out->data, (long long)out->size, on);
done:
    for (int k = 0; k < made; k++)
        em_array_release(&c[k]);
    if (st != EM_OK && out->storage)
        em_array_release(out);
    return st;
}

/* The trailing shape of x past a mask of rank k, after a count. */
static em_status rows_out(const em_array *x, int k, int64_t count,
                          em_stream *on, em_array *out)
{
    int64_t shape[EM_MAX_NDIM];
    int nd = x->ndim - k + 1;
    shape[0] = count;
    memcpy(shape + 1, x->shape + k, (size_t)(x->ndim - k) * sizeof *shape);
    return em_array_empty(x->device, x->dtype, nd, shape, 'C', on, out);
}

/* Compaction by the compaction generator (codegen/compact.h): a count
 * pass over the mask's bytes, the one read of the total, and a write pass
 * that moves whole rows of x (the elements under a mask of x's shape, the
 * trailing sub-arrays under a mask of its leading dimensions). Rows of a
 * power-of-two size up to 16 bytes move as single words; longer ones go
 * through their flat indices and a row copy. */
static em_status compact(const char *fn, const em_array *x, const char *pred,
                         const em_array *mask, int partition, em_array *out,
                         int64_t *nselected, em_stream *s)
{
    em_array xc = {0}, mc = {0}, idx = {0};
    em_compact c;
    int64_t rows, row_bytes, esize;
    int k;
    em_stream *on = NULL;
    em_status st;

    memset(&c, 0, sizeof c);
    if (!x || !out || (!pred && !mask) || (pred && mask))
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: needs an array and one of a predicate or a mask",
                        fn);
    memset(out, 0, sizeof *out);
    if ((st = em_arr_check(x, fn)) != EM_OK)
        return st;
    if (mask) {
        char b1[SHAPE_STR], b2[SHAPE_STR];
        if ((st = em_arr_check(mask, fn)) != EM_OK)
            return st;
        if (mask->dtype != EM_BOOL)
            return em_error(EM_ERR_TYPE, "%s: the mask must be bool, not %s",
                            fn, em_dtype_get(mask->dtype)->name);
        /* select also takes a mask over x's leading dimensions (NumPy's
         * a[mask] with mask.shape == a.shape[:k]) */
        if ((partition ? mask->ndim != x->ndim
                       : mask->ndim < 1 || mask->ndim > x->ndim) ||
            memcmp(mask->shape, x->shape,
                   (size_t)mask->ndim * sizeof(int64_t)))
            return em_error(
                EM_ERR_INVALID_VALUE,
                partition ? "%s: the mask's shape %s is not the array's "
                            "shape %s"
                          : "%s: the mask's shape %s is neither the array's "
                            "shape %s nor its leading dimensions",
                fn, em_shape_format(mask->ndim, mask->shape, b1, sizeof b1),
                em_shape_format(x->ndim, x->shape, b2, sizeof b2));
        if (mask->device != x->device)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: the mask is on %s and the array on %s", fn,
                            em_device_name(mask->device),
                            em_device_name(x->device));
    }
    if (!(on = em_arr_stream(x->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    esize = (int64_t)em_dtype_size(x->dtype);
    if ((st = flat(x, on, &xc)) != EM_OK)
        goto done;
    if (mask) {
        k = mask->ndim;
        if ((st = flat(mask, on, &mc)) != EM_OK)
            goto done;
    } else {
        const em_array *in[1] = {&xc};
        k = x->ndim;
        if ((st = em_par_transform(pred, 1, in, EM_BOOL, &mc, on)) != EM_OK)
            goto done;
    }
    rows = mc.size;
    row_bytes = rows ? x->size / rows * esize : 0;
    /* A row moves as one word when it is one and x is aligned to it;
     * partition copies a misaligned x first. */
    if ((row_bytes == 1 || row_bytes == 2 || row_bytes == 4 ||
         row_bytes == 8 || row_bytes == 16) &&
        (uintptr_t)xc.data % (uintptr_t)row_bytes && partition) {
        em_array t = {0};
        int64_t n = xc.size;
        if ((st = em_array_empty(x->device, x->dtype, 1, &n, 'C', on, &t)) ||
            (st = em_array_copy(&t, &xc, on))) {
            em_array_release(&t);
            goto done;
        }
        em_array_release(&xc);
        xc = t;
    }
    if (row_bytes == 0 || ((row_bytes == 1 || row_bytes == 2 ||
                            row_bytes == 4 || row_bytes == 8 ||
                            row_bytes == 16) &&
                           (uintptr_t)xc.data % (uintptr_t)row_bytes == 0)) {
        st = em_compact_count(&c, x->device,
                              partition ? EM_GEN_COMPACT_PART
                                        : EM_GEN_COMPACT_ELEM,
                              row_bytes ? (int)row_bytes : 1, 0, mc.data,
                              rows, on);
        if (st != EM_OK)
            goto done;
        if (partition) {
            int64_t m = rows;
            st = em_array_empty(x->device, x->dtype, 1, &m, 'C', on, out);
        } else if (pred) {
            int64_t m = c.total;
            st = em_array_empty(x->device, x->dtype, 1, &m, 'C', on, out);
        } else {
            st = rows_out(x, k, c.total, on, out);
        }
        if (st == EM_OK && row_bytes)
            st = em_compact_write(&c, xc.data, out->data, NULL);
    } else {
        /* long rows: their indices, then a copy of each */
        st = em_compact_count(&c, x->device, EM_GEN_COMPACT_INDEX, 8, 0,
                              mc.data, rows, on);
        if (st == EM_OK)
            st = em_array_empty(x->device, EM_INT64, 1, &c.total, 'C', on,
                                &idx);
        if (st == EM_OK)
            st = em_compact_write(&c, NULL, idx.data, NULL);
        if (st == EM_OK)
            st = rows_out(x, k, c.total, on, out);
        if (st == EM_OK)
            st = em_compact_rows(x->device, xc.data,
                                 (const int64_t *)idx.data, c.total,
                                 row_bytes, out->data, on);
    }
    if (nselected)
        *nselected = c.total;
done:
    em_compact_end(&c);
    em_array_release(&xc);
    em_array_release(&mc);
    em_array_release(&idx);
    if (st != EM_OK && out->storage)
        em_array_release(out);
    return st;
}

em_status em_select(const em_array *x, const char *pred, const em_array *mask,
                    em_array *out, em_stream *s)
{
    return compact("select", x, pred, mask, 0, out, NULL, s);
}

em_status em_partition(const em_array *x, const char *pred,
                       const em_array *mask, em_array *out,
                       int64_t *nselected, em_stream *s)
{
    int64_t k = 0;
    em_status st = compact("partition", x, pred, mask, 1, out, &k, s);
    if (nselected)
        *nselected = k;
    return st;
}
