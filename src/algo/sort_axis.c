/* ember algorithms: NumPy's sort and argsort along an axis, and top_k.
 *
 * One row (1-D, or axis=None) and top_k go to the raw-key radix sort
 * (radix_onesweep.c). Otherwise the axis is moved last and the array
 * copied C-contiguous, so the rows to sort are consecutive; one radix order
 * sorts every row at once with the row index as the most significant key (a
 * segmented sort in ceil(log2(rows) / 8) extra passes). Complex numbers sort by
 * three keys (imaginary part, real part, NumPy's NaN group), least significant
 * first. The result is copied back into the input's axis order.
 */
#include <string.h>

#include "algo/sort_internal.h"

/* The keys for dtype d starting at data, items of `item` bytes. */
static int keys_for(em_dtype d, const char *data, em_srt_key *k)
{
    long long item = (long long)em_dtype_size(d);
    memset(k, 0, 3 * sizeof *k);
    if (d == EM_COMPLEX64 || d == EM_COMPLEX128) {
        int half = (int)item * 4;
        for (int i = 0; i < 3; i++) {
            k[i].dtype = d;
            k[i].stride = item;
            k[i].end = half;
        }
        k[0].keys = data + item / 2;
        k[1].keys = data;
        k[2].keys = data;
        k[2].group = 1;
        k[2].end = 2;
        return 3;
    }
    k[0].dtype = d;
    k[0].keys = data;
    k[0].stride = item;
    k[0].end = em_srt_key_bits(d);
    return 1;
}

static em_status sort_impl(const em_array *a, int axis, int flatten,
                           int want_indices, em_array *out, em_stream *s)
{
    const char *fn = want_indices ? "argsort" : "sort";
    em_array moved = {0}, c = {0}, res = {0}, view = {0};
    int perm_axes[EM_MAX_NDIM], nd, nkeys;
    int64_t n;
    long long rowlen, *perm = NULL;
    em_srt_key keys[3];
    em_stream *on = NULL;
    em_status st;

    if (!a || !out)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    memset(out, 0, sizeof *out);
    if ((st = em_arr_check(a, fn)) != EM_OK)
        return st;
    if (!em_srt_key_bits(a->dtype) && a->dtype != EM_COMPLEX64 &&
        a->dtype != EM_COMPLEX128)
        return em_error(EM_ERR_TYPE, "%s: unsupported dtype %s", fn,
                        em_dtype_get(a->dtype)->name);
    if (!(on = em_arr_stream(a->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    nd = a->ndim;
    /* NumPy: sorting a 0-d array along an axis is an AxisError; its
     * argsort is the flattened one. */
    if (nd == 0 && !flatten && !want_indices)
        return em_error(EM_ERR_AXIS,
                        "axis %d is out of bounds for array of dimension 0",
                        axis);
    if (nd == 0)
        flatten = 1;
    if (flatten) {
        n = a->size;
        if ((st = em_srt_contiguous(a, on, &c)) != EM_OK)
            return st;
        if ((st = em_array_reshape_view(&c, 1, &n, 'C', &c)) != EM_OK)
            goto done;
        nd = 1;
        axis = 0;
        perm_axes[0] = 0;
    } else {
        if ((st = em_arr_axis(&axis, nd)) != EM_OK)
            return st;
        for (int i = 0, j = 0; i < nd; i++)
            if (i != axis)
                perm_axes[j++] = i;
        perm_axes[nd - 1] = axis;
        if ((st = em_array_transpose(a, perm_axes, &moved)) != EM_OK)
            return st;
        st = em_srt_contiguous(&moved, on, &c);
        em_array_release(&moved);
        if (st != EM_OK)
            return st;
    }
    rowlen = c.ndim ? c.shape[c.ndim - 1] : 1;
    if ((st = em_array_empty(a->device, want_indices ? EM_INT64 : a->dtype,
                             c.ndim, c.shape, 'C', on, &res)) != EM_OK)
        goto done;
    if (c.size && rowlen <= 1) {
        if (want_indices) {
            int64_t zero = 0;
            st = em_array_fill(&res, &zero, EM_INT64, on);
        } else {
            st = em_array_copy(&res, &c, on);
        }
    } else if (c.size && c.size == rowlen &&
               em_srt_fast_ok(a->device, c.size, a->dtype,
                              want_indices ? 8 : 0)) {
        /* One row: the raw keys move; argsort's positions travel as
         * values and its sorted keys are scratch. */
        void *kout = want_indices ? NULL : res.data;
        int bits = em_srt_key_bits(a->dtype);
        if (want_indices)
            st = em_malloc(a->device, (size_t)c.size * em_dtype_size(a->dtype),
                           on, &kout);
        if (st == EM_OK)
            st = em_srt_fast(a->device, c.size, a->dtype, c.data, 0, 0, bits,
                             NULL, want_indices ? 8 : 0, kout,
                             want_indices ? res.data : NULL, on);
        if (want_indices && kout)
            em_free(a->device, kout, on);
    } else if (c.size && !want_indices && c.size == rowlen &&
               em_srt_keys_only(a->dtype)) {
        keys_for(a->dtype, c.data, keys);
        st = em_srt_sort_keys(a->device, c.size, keys, res.data, on);
    } else if (c.size) {
        nkeys = keys_for(a->dtype, c.data, keys);
        st = em_srt_order(a->device, c.size, c.size > rowlen ? rowlen : 0, keys,
                          nkeys, on, &perm);
        if (st == EM_OK && !want_indices)
            st = em_srt_gather(a->device, c.data, perm, res.data, c.size,
                               em_dtype_size(a->dtype), on);
        else if (st == EM_OK && c.size > rowlen) {
            em_function *f;
            long long nn = c.size;
            void *args[4] = {&perm, &res.data, &nn, &rowlen};
            st = em_gen_sort_function(a->device, EM_SRT_ROWMOD, EM_BOOL, &f);
            if (st == EM_OK)
                st = em_srt_launch_n(f, a->device, nn, args, on);
        } else if (st == EM_OK) {
            st = em_memcpy_async(a->device, res.data, perm, (size_t)c.size * 8,
                                 on);
        }
        if (perm)
            em_free(a->device, perm, on);
    }
    if (st != EM_OK)
        goto done;
    if (flatten || axis == a->ndim - 1) {
        em_array_retain(&res, out);
        goto done;
    }
    /* Back to the input's axis order: out's axes permuted as the moved
     * array's are a view that the sorted rows copy into. */
    if ((st = em_array_empty(a->device, res.dtype, a->ndim, a->shape, 'C', on,
                             out)) != EM_OK)
        goto done;
    if ((st = em_array_transpose(out, perm_axes, &view)) == EM_OK)
        st = em_array_copy(&view, &res, on);
    em_array_release(&view);
    if (st != EM_OK)
        em_array_release(out);
done:
    em_array_release(&c);
    em_array_release(&res);
    return st;
}

em_status em_sort(const em_array *a, int axis, int flatten, em_array *out,
                  em_stream *s)
{
    return sort_impl(a, axis, flatten, 0, out, s);
}

em_status em_argsort(const em_array *a, int axis, int flatten, em_array *out,
                     em_stream *s)
{
    return sort_impl(a, axis, flatten, 1, out, s);
}

em_status em_top_k(const em_array *x, int64_t k, int largest,
                   em_array *out_values, em_array *out_indices, em_stream *s)
{
    const char *fn = "top_k";
    em_srt_key keys[3];
    long long *perm = NULL;
    em_array c = {0};
    em_stream *on = NULL;
    int nkeys;
    em_status st;

    if (!x)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    if (out_values)
        memset(out_values, 0, sizeof *out_values);
    if (out_indices)
        memset(out_indices, 0, sizeof *out_indices);
    if ((st = em_arr_check(x, fn)) != EM_OK)
        return st;
    if (x->ndim != 1)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: x must be 1-D, got %d dimensions", fn, x->ndim);
    if (!em_srt_key_bits(x->dtype))
        return em_error(EM_ERR_TYPE, "%s: unsupported dtype %s", fn,
                        em_dtype_get(x->dtype)->name);
    if (k < 0 || k > x->size)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: k=%lld is not within [0, %lld]", fn, (long long)k,
                        (long long)x->size);
    if (!(on = em_arr_stream(x->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    if ((st = em_srt_contiguous(x, on, &c)) != EM_OK)
        return st;
    if (out_values && (st = em_array_empty(x->device, x->dtype, 1, &k, 'C', on,
                                           out_values)) != EM_OK)
        goto done;
    if (out_indices && (st = em_array_empty(x->device, EM_INT64, 1, &k, 'C', on,
                                            out_indices)) != EM_OK)
        goto done;
    if (!k)
        goto done;
    if (em_srt_fast_ok(x->device, c.size, x->dtype, 8)) {
        /* The whole sort with positions, then its first k of each. */
        const size_t ks = em_dtype_size(x->dtype);
        void *sorted = NULL;
        st = em_malloc(x->device, (size_t)c.size * ks, on, &sorted);
        if (st == EM_OK)
            st = em_malloc(x->device, (size_t)c.size * 8, on, (void **)&perm);
        if (st == EM_OK)
            st = em_srt_fast(x->device, c.size, x->dtype, c.data, largest != 0,
                             0, em_srt_key_bits(x->dtype), NULL, 8, sorted,
                             perm, on);
        if (st == EM_OK && out_values)
            st = em_memcpy_async(x->device, out_values->data, sorted,
                                 (size_t)k * ks, on);
        if (st == EM_OK && out_indices)
            st = em_memcpy_async(x->device, out_indices->data, perm,
                                 (size_t)k * 8, on);
        if (sorted)
            em_free(x->device, sorted, on);
        if (perm)
            em_free(x->device, perm, on);
        goto done;
    }
    nkeys = keys_for(x->dtype, c.data, keys);
    keys[0].desc = largest != 0;
    if ((st = em_srt_order(x->device, c.size, 0, keys, nkeys, on, &perm)) !=
        EM_OK)
        goto done;
    if (out_values)
        st = em_srt_gather(x->device, c.data, perm, out_values->data, k,
                           em_dtype_size(x->dtype), on);
    if (st == EM_OK && out_indices)
        st = em_memcpy_async(x->device, out_indices->data, perm, (size_t)k * 8,
                             on);
    em_free(x->device, perm, on);
done:
    em_array_release(&c);
    if (st != EM_OK) {
        if (out_values)
            em_array_release(out_values);
        if (out_indices)
            em_array_release(out_indices);
    }
    return st;
}
