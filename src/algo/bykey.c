/* ember algorithms: operations on runs of equal keys (scan, reduce and
 * unique by key, run-length encoding).
 *
 * Everything starts from the head flags (a run starts here). A scan by
 * key is the segmented scan over them; a reduction by key keeps the last
 * element of each run of that scan (tail flags) and the first key of each
 * run, both through compaction.
 */
#include <string.h>

#include "algo/bykey_internal.h"
#include "algo/sort_internal.h"
#include "array/array_internal.h"
#include "codegen/scan.h"

#define SHAPE_STR 256

/* (bykey_internal.h; scan_tuple.c's by-key operations use it too.) */
em_status em_bykey_heads(const char *fn, const em_array *keys,
                         const em_array *values, em_stream *on, em_array *kc,
                         em_array *heads)
{
    char b1[SHAPE_STR], b2[SHAPE_STR];
    int64_t n;
    em_status st;
    if ((st = em_arr_check(keys, fn)) != EM_OK)
        return st;
    if (keys->ndim != 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: keys must be 1-D, not of shape %s", fn,
                        em_shape_format(keys->ndim, keys->shape, b1,
                                        sizeof b1));
    if (values) {
        if ((st = em_arr_check(values, fn)) != EM_OK)
            return st;
        if (values->ndim != 1 || values->shape[0] != keys->shape[0])
            return em_error(
                EM_ERR_INVALID_VALUE,
                "%s: keys of shape %s and values of shape %s differ in "
                "length",
                fn, em_shape_format(keys->ndim, keys->shape, b1, sizeof b1),
                em_shape_format(values->ndim, values->shape, b2, sizeof b2));
        if (values->device != keys->device)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: keys are on %s and values on %s", fn,
                            em_device_name(keys->device),
                            em_device_name(values->device));
    }
    n = keys->size;
    if (keys->flags & EM_ARRAY_C_CONTIGUOUS)
        em_array_retain(keys, kc);
    else if ((st = em_array_empty(keys->device, keys->dtype, 1, &n, 'C', on,
                                  kc)) != EM_OK ||
             (st = em_array_copy(kc, keys, on)) != EM_OK)
        return st;
    if ((st = em_array_empty(keys->device, EM_BOOL, 1, &n, 'C', on, heads)) !=
        EM_OK)
        return st;
    return em_gen_heads_run(keys->device, keys->dtype, 0, kc->data,
                            (unsigned char *)heads->data, n, on);
}

/* The segmented scan of values over heads into a new *out. */
static em_status seg_scan(const char *fn, const em_array *values,
                          const em_array *heads, const em_par_op *op,
                          int exclusive, const void *init, em_dtype out_dtype,
                          em_stream *on, em_array *out)
{
    em_gen_scan d;
    em_array vc = {0};
    int64_t n = values->size;
    em_status st;
    if (!op || (unsigned)op->kind >= EM_PAR_BUILTIN_COUNT ||
        (op->kind == EM_PAR_EXPR && (!op->expr || !op->expr[0])))
        return em_error(EM_ERR_INVALID_VALUE, "%s: no operator", fn);
    if (!em_dtype_get(out_dtype))
        return em_error(EM_ERR_TYPE, "%s: invalid dtype %d", fn,
                        (int)out_dtype);
    if (exclusive && !init)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: an exclusive scan needs an init value", fn);
    if ((st = em_gen_scan_check(op->kind, out_dtype, fn)) != EM_OK)
        return st;
    if (values->flags & EM_ARRAY_C_CONTIGUOUS)
        em_array_retain(values, &vc);
    else if ((st = em_array_empty(values->device, values->dtype, 1, &n, 'C',
                                  on, &vc)) != EM_OK ||
             (st = em_array_copy(&vc, values, on)) != EM_OK)
        return st;
    memset(&d, 0, sizeof d);
    d.op = (uint8_t)op->kind;
    d.in = (uint8_t)values->dtype;
    d.out = (uint8_t)out_dtype;
    d.flags = (uint8_t)((exclusive ? EM_GEN_SCAN_EXCLUSIVE : 0) |
                        (init ? EM_GEN_SCAN_INIT : 0));
    d.expr = op->kind == EM_PAR_EXPR ? op->expr : NULL;
    st = em_array_empty(values->device, out_dtype, 1, &n, 'C', on, out);
    if (st == EM_OK)
        st = em_gen_scan_run_heads(
            values->device, &d, vc.data, out->data, 1, n, 0,
            (long long)em_dtype_size(values->dtype), 0,
            (long long)em_dtype_size(out_dtype), init,
            (const unsigned char *)heads->data, on);
    em_array_release(&vc);
    return st;
}

em_status em_scan_by_key(const em_array *keys, const em_array *values,
                         const em_par_op *op, int exclusive, const void *init,
                         em_dtype out_dtype, em_array *out, em_stream *s)
{
    static const char fn[] = "scan_by_key";
    em_array kc = {0}, heads = {0};
    em_stream *on = NULL;
    em_status st;
    if (!keys || !values || !out)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    memset(out, 0, sizeof *out);
    if (!(on = em_arr_stream(keys->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    st = em_bykey_heads(fn, keys, values, on, &kc, &heads);
    if (st == EM_OK)
        st = seg_scan(fn, values, &heads, op, exclusive, init, out_dtype, on,
                      out);
    em_array_release(&kc);
    em_array_release(&heads);
    if (st != EM_OK && out->storage)
        em_array_release(out);
    return st;
}

em_status em_reduce_by_key(const em_array *keys, const em_array *values,
                           const em_par_op *op, em_dtype out_dtype,
                           em_array *out_keys, em_array *out_values,
                           em_stream *s)
{
    static const char fn[] = "reduce_by_key";
    em_array kc = {0}, heads = {0}, tails = {0}, sc = {0};
    em_stream *on = NULL;
    em_status st;
    if (!values || !out_values)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    if ((st = em_srt_outs_begin(fn, keys, values, out_keys, out_values)) !=
        EM_OK)
        return st;
    if (!(on = em_arr_stream(keys->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    if ((st = em_bykey_heads(fn, keys, values, on, &kc, &heads)) != EM_OK ||
        (st = seg_scan(fn, values, &heads, op, 0, NULL, out_dtype, on,
                       &sc)) != EM_OK ||
        (st = em_array_empty(keys->device, EM_BOOL, 1, keys->shape, 'C', on,
                             &tails)) != EM_OK ||
        (st = em_gen_heads_run(keys->device, EM_BOOL, 1, heads.data,
                               (unsigned char *)tails.data, keys->size,
                               on)) != EM_OK ||
        (st = em_select(&kc, NULL, &heads, out_keys, on)) != EM_OK ||
        (st = em_select(&sc, NULL, &tails, out_values, on)) != EM_OK)
        goto done;
done:
    em_array_release(&kc);
    em_array_release(&heads);
    em_array_release(&tails);
    em_array_release(&sc);
    return em_srt_outs_end(st, out_keys, out_values);
}

em_status em_unique_by_key(const em_array *keys, const em_array *values,
                           em_array *out_keys, em_array *out_values,
                           em_stream *s)
{
    static const char fn[] = "unique_by_key";
    em_array kc = {0}, heads = {0};
    em_stream *on = NULL;
    em_status st;
    if ((st = em_srt_outs_begin(fn, keys, values, out_keys, out_values)) !=
        EM_OK)
        return st;
    if (!(on = em_arr_stream(keys->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    if ((st = em_bykey_heads(fn, keys, values, on, &kc, &heads)) == EM_OK &&
        (st = em_select(&kc, NULL, &heads, out_keys, on)) == EM_OK && values)
        st = em_select(values, NULL, &heads, out_values, on);
    em_array_release(&kc);
    em_array_release(&heads);
    return em_srt_outs_end(st, out_keys, out_values);
}

em_status em_run_length_encode(const em_array *x, em_array *out_values,
                               em_array *out_counts, em_stream *s)
{
    const em_array *in[1];
    em_array ones = {0};
    em_par_op add = {EM_PAR_ADD, NULL};
    em_status st;
    if (!x || !out_values || !out_counts)
        return em_error(EM_ERR_INVALID_VALUE,
                        "run_length_encode: NULL argument");
    in[0] = x;
    /* Each run's length is the sum of a 1 per element. */
    st = em_par_transform("1", 1, in, EM_INT64, &ones, s);
    if (st == EM_OK)
        st = em_reduce_by_key(x, &ones, &add, EM_INT64, out_values,
                              out_counts, s);
    em_array_release(&ones);
    return st;
}

em_status em_segmented_reduce(const em_array *values, const em_array *offsets,
                              const em_par_op *op, const void *init,
                              em_dtype out_dtype, em_array *out, em_stream *s)
{
    static const char fn[] = "segmented_reduce";
    em_array off = {0}, heads = {0}, sc = {0}, dinit = {0};
    em_stream *on = NULL;
    int64_t m, n, one = 1;
    char b1[SHAPE_STR];
    em_status st;
    if (!values || !offsets || !out || !init)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: NULL argument (init is required)", fn);
    memset(out, 0, sizeof *out);
    if ((st = em_arr_check(values, fn)) != EM_OK ||
        (st = em_arr_check(offsets, fn)) != EM_OK)
        return st;
    if (values->ndim != 1 || offsets->ndim != 1 || offsets->size < 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: values (shape %s) must be 1-D and offsets 1-D "
                        "with at least one element",
                        fn,
                        em_shape_format(values->ndim, values->shape, b1,
                                        sizeof b1));
    if (em_dtype_get(offsets->dtype)->kind_id != EM_KIND_INT &&
        em_dtype_get(offsets->dtype)->kind_id != EM_KIND_UINT)
        return em_error(EM_ERR_TYPE, "%s: offsets must be integers, not %s",
                        fn, em_dtype_get(offsets->dtype)->name);
    if (offsets->device != values->device)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: offsets are on %s and values on %s", fn,
                        em_device_name(offsets->device),
                        em_device_name(values->device));
    if (!(on = em_arr_stream(values->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    m = offsets->size - 1;
    n = values->size;
    if ((st = em_array_empty(values->device, EM_INT64, 1, offsets->shape, 'C',
                             on, &off)) ||
        (st = em_array_copy(&off, offsets, on)) ||
        (st = em_array_empty(values->device, EM_BOOL, 1, &n, 'C', on,
                             &heads)) ||
        (st = em_memset_async(values->device, heads.data, 0, (size_t)n, on)) ||
        (st = em_gen_segments_run(values->device, EM_BOOL, 0,
                                  (const int64_t *)off.data, heads.data, NULL,
                                  NULL, m, n, on)))
        goto done;
    /* The first element always starts a run (the segmented scan's
     * contract); it is not gathered unless a segment starts there. */
    if (n > 0 &&
        (st = em_memset_async(values->device, heads.data, 1, 1, on)) != EM_OK)
        goto done;
    if ((st = seg_scan(fn, values, &heads, op, 0, init, out_dtype, on, &sc)) ||
        (st = em_array_empty(values->device, out_dtype, 1, &one, 'C', on,
                             &dinit)) ||
        (st = em_array_from_host(&dinit, init, NULL, on)) ||
        (st = em_array_empty(values->device, out_dtype, 1, &m, 'C', on, out)))
        goto done;
    st = em_gen_segments_run(values->device, out_dtype, 1,
                             (const int64_t *)off.data, sc.data, out->data,
                             dinit.data, m, n, on);
done:
    em_array_release(&off);
    em_array_release(&heads);
    em_array_release(&sc);
    em_array_release(&dinit);
    if (st != EM_OK && out->storage)
        em_array_release(out);
    return st;
}
