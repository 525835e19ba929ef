/* ember algorithms: searchsorted (lower and upper bounds of many needles
 * in one sorted array).
 *
 * Both sides become the radix sort's order-preserving images (NaN the
 * largest, -0.0 equal to 0.0: NumPy's order), so one unsigned binary
 * search per needle serves every real dtype. The sorted array's image
 * costs one pass over it; a sorter gathers it first (an index out of
 * range is EM_ERR_INDEX from the gather).
 */
#include <string.h>

#include "algo/sort_internal.h"

/* The image of contiguous c into a new device buffer. */
static em_status image_of(const em_array *c, em_stream *s, void **img)
{
    em_function *f;
    const char *kp = c->data;
    long long stride = (long long)em_dtype_size(c->dtype), n = c->size;
    const long long *pin = NULL;
    long long *pout = NULL;
    int desc = 0;
    void *args[7] = {&kp, &stride, &pin, img, &pout, &n, &desc};
    em_status st = em_malloc(c->device, (size_t)(n ? n : 1) * 8, s, img);
    if (st != EM_OK)
        return st;
    st = em_gen_sort_function(c->device, EM_SRT_IMAGE, c->dtype, &f);
    if (st == EM_OK)
        st = em_srt_launch_n(f, c->device, n, args, s);
    if (st != EM_OK) {
        em_free(c->device, *img, s);
        *img = NULL;
    }
    return st;
}

/* a as dtype dt, C-contiguous and aligned. */
static em_status as_dtype(const em_array *a, em_dtype dt, em_stream *s,
                          em_array *out)
{
    em_status st;
    if (a->dtype == dt)
        return em_srt_contiguous(a, s, out);
    st = em_array_empty(a->device, dt, a->ndim, a->shape, 'C', s, out);
    if (st == EM_OK && (st = em_array_copy(out, a, s)) != EM_OK)
        em_array_release(out);
    return st;
}

em_status em_searchsorted(const em_array *sorted, const em_array *needles,
                          int right, const em_array *sorter, em_array *out,
                          em_stream *s)
{
    const char *fn = "searchsorted";
    em_array hs = {0}, hc = {0}, nc = {0};
    em_operand ops[2];
    em_dtype dt;
    void *hi = NULL, *ni = NULL;
    em_stream *on = NULL;
    em_status st;

    if (!sorted || !needles || !out)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    memset(out, 0, sizeof *out);
    if ((st = em_arr_check(sorted, fn)) != EM_OK ||
        (st = em_arr_check(needles, fn)) != EM_OK)
        return st;
    if (sorted->ndim != 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: the sorted array must be 1-D, got %d dimensions",
                        fn, sorted->ndim);
    if (needles->device != sorted->device ||
        (sorter && sorter->device != sorted->device))
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: the operands are on different devices (%s and "
                        "%s)",
                        fn, em_device_name(sorted->device),
                        em_device_name(needles->device));
    memset(ops, 0, sizeof ops);
    ops[0].array = sorted;
    ops[1].array = needles;
    if ((st = em_result_type(ops, 2, &dt)) != EM_OK)
        return st;
    if (!em_srt_key_bits(dt))
        return em_error(EM_ERR_TYPE, "%s: unsupported dtype %s", fn,
                        em_dtype_get(dt)->name);
    if (!(on = em_arr_stream(sorted->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    if (sorter) {
        if (sorter->ndim != 1 || sorter->shape[0] != sorted->shape[0])
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: sorter has %d dimensions and length %lld, "
                            "the sorted array has length %lld",
                            fn, sorter->ndim,
                            (long long)(sorter->ndim ? sorter->shape[0] : 1),
                            (long long)sorted->shape[0]);
        if ((st = em_take(sorted, sorter, 0, EM_INDEX_RAISE, &hs, on)) != EM_OK)
            return st;
    } else {
        em_array_retain(sorted, &hs);
    }
    if ((st = as_dtype(&hs, dt, on, &hc)) != EM_OK ||
        (st = as_dtype(needles, dt, on, &nc)) != EM_OK)
        goto done;
    if ((st = em_array_empty(sorted->device, EM_INT64, needles->ndim,
                             needles->shape, 'C', on, out)) != EM_OK)
        goto done;
    if (!nc.size)
        goto done;
    if ((st = image_of(&hc, on, &hi)) != EM_OK ||
        (st = image_of(&nc, on, &ni)) != EM_OK)
        goto done;
    {
        em_function *f;
        long long n = hc.size, m = nc.size;
        int r = right != 0;
        void *args[6] = {&hi, &n, &ni, &m, &out->data, &r};
        st = em_gen_sort_function(sorted->device,
                                  em_srt_key_bits(dt) == 64 ? EM_SRT_SEARCH64
                                                            : EM_SRT_SEARCH32,
                                  EM_BOOL, &f);
        if (st == EM_OK)
            st = em_srt_launch_n(f, sorted->device, m, args, on);
    }
done:
    if (hi)
        em_free(sorted->device, hi, on);
    if (ni)
        em_free(sorted->device, ni, on);
    em_array_release(&hs);
    em_array_release(&hc);
    em_array_release(&nc);
    if (st != EM_OK)
        em_array_release(out);
    return st;
}
