/* ember algorithms: device-wide scans of arrays (em_scan).
 *
 * The kernel takes rows: len elements with one element stride and one row
 * stride. A flattened input is one row; an axis scan is one row per
 * position of the other axes when those collapse to one stride (the first
 * or last axis of a contiguous array, any strided 2-D view); other layouts
 * go through a copy with the axis moved last.
 */
#include <string.h>

#include "algo/scan_internal.h"
#include "codegen/scan.h"
#include "core/layout.h"

em_dtype em_scan_default_dtype(em_par_builtin op, em_dtype in)
{
    if (op != EM_PAR_ADD && op != EM_PAR_MUL)
        return in;
    switch (in) {
    case EM_BOOL:
    case EM_INT8:
    case EM_INT16:
    case EM_INT32:
        return EM_INT64;
    case EM_UINT8:
    case EM_UINT16:
    case EM_UINT32:
        return EM_UINT64;
    default:
        return in;
    }
}

/* Whether a's axes other than `axis` (extent-1 ones ignored) walk memory
 * with one stride; *rs receives it (0 when there is at most one row). */
static int rows_collapse(const em_array *a, int axis, long long *rs)
{
    int64_t sh[EM_MAX_NDIM], st[EM_MAX_NDIM], extent, stride;
    int n = 0, ok;
    for (int i = 0; i < a->ndim; i++)
        if (i != axis) {
            sh[n] = a->shape[i];
            st[n++] = a->strides[i];
        }
    ok = em_layout_run(n, sh, st, 0, &extent, &stride);
    *rs = ok ? (long long)stride : 0;
    return ok;
}

em_status em_scan_check_aligned(const em_array *x, const char *fn,
                                const char *what)
{
    size_t al = em_dtype_get(x->dtype)->align;
    if (em_device_get_type(x->device) != EM_DEVICE_CUDA || !x->size)
        return EM_OK;
    if ((uintptr_t)x->data % al)
        goto bad;
    for (int i = 0; i < x->ndim; i++)
        if (x->shape[i] > 1 && x->strides[i] % (int64_t)al)
            goto bad;
    return EM_OK;
bad:
    return em_error(EM_ERR_NOT_SUPPORTED,
                    "%s: %s (%s) is not aligned to its itemsize, which the "
                    "GPU needs: copy it first",
                    fn, what, em_dtype_get(x->dtype)->name);
}

em_status em_scan_flat_source(const em_array *x, em_stream *on, em_array *flat)
{
    int64_t n = x->size;
    em_status st = em_array_reshape_view(x, 1, &n, 'C', flat);
    if (st == EM_ERR_NOT_SUPPORTED) {
        em_array c = {0};
        st = em_array_empty(x->device, x->dtype, x->ndim, x->shape, 'C', on,
                            &c);
        if (st == EM_OK && (st = em_array_copy(&c, x, on)) == EM_OK)
            st = em_array_reshape_view(&c, 1, &n, 'C', flat);
        em_array_release(&c);
    }
    return st;
}

static em_status run_rows(const em_gen_scan *d, const em_array *src,
                          long long irs, const em_array *dst, long long ors,
                          int axis, const void *init, em_stream *s)
{
    long long len = src->ndim ? src->shape[axis] : 1;
    long long nrows = len ? src->size / len : 0;
    long long ies = src->ndim ? src->strides[axis] : 0;
    long long oes = dst->ndim ? dst->strides[axis] : 0;
    return em_gen_scan_run(src->device, d, src->data, dst->data, nrows, len,
                           irs, ies, ors, oes, init, s);
}

em_status em_scan(const em_array *x, int axis, const em_par_op *op,
                  int exclusive, const void *init, em_dtype out_dtype,
                  em_array *out, em_stream *s)
{
    const char *fn = exclusive ? "exclusive_scan" : "inclusive_scan";
    em_array src = {0}, res = {0}, tin = {0}, tout = {0}, view = {0};
    em_gen_scan d;
    em_stream *on = NULL;
    long long irs, ors;
    int perm[EM_MAX_NDIM];
    em_status st;

    if (!x || !op || !out)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    memset(out, 0, sizeof *out);
    if ((st = em_arr_check(x, fn)) != EM_OK)
        return st;
    if (!em_dtype_get(out_dtype))
        return em_error(EM_ERR_TYPE, "%s: invalid dtype %d", fn,
                        (int)out_dtype);
    if ((unsigned)op->kind >= EM_PAR_BUILTIN_COUNT ||
        (op->kind == EM_PAR_EXPR && (!op->expr || !op->expr[0])))
        return em_error(EM_ERR_INVALID_VALUE, "%s: no operator", fn);
    if (exclusive && !init)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: an exclusive scan needs an init value", fn);
    if ((st = em_gen_scan_check(op->kind, out_dtype, fn)) != EM_OK)
        return st;
    if ((st = em_scan_check_aligned(x, fn, "the input")) != EM_OK)
        return st;
    if (!(on = em_arr_stream(x->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    memset(&d, 0, sizeof d);
    d.op = (uint8_t)op->kind;
    d.in = (uint8_t)x->dtype;
    d.out = (uint8_t)out_dtype;
    d.flags = (uint8_t)((exclusive ? EM_GEN_SCAN_EXCLUSIVE : 0) |
                        (init ? EM_GEN_SCAN_INIT : 0));
    d.expr = op->kind == EM_PAR_EXPR ? op->expr : NULL;

    if (axis == EM_SCAN_FLAT || x->ndim == 0) {
        if (axis != EM_SCAN_FLAT && axis != 0 && axis != -1)
            return em_error(EM_ERR_AXIS,
                            "%s: axis %d is out of bounds for array of "
                            "dimension 1",
                            fn, axis);
        if ((st = em_scan_flat_source(x, on, &src)) != EM_OK)
            return st;
        axis = 0;
    } else {
        if (axis < -x->ndim || axis >= x->ndim)
            return em_error(EM_ERR_AXIS,
                            "%s: axis %d is out of bounds for array of "
                            "dimension %d",
                            fn, axis, x->ndim);
        if (axis < 0)
            axis += x->ndim;
        em_array_retain(x, &src);
    }
    st = em_array_empty(x->device, out_dtype, src.ndim, src.shape, 'C', on,
                        out);
    if (st != EM_OK)
        goto done;
    if (!out->size)
        goto done;
    if (rows_collapse(&src, axis, &irs) && rows_collapse(out, axis, &ors)) {
        st = run_rows(&d, &src, irs, out, ors, axis, init, on);
        goto done;
    }
    /* Move the axis last, scan contiguous rows, copy back through the
     * same permutation of the output. */
    for (int i = 0, k = 0; i < src.ndim; i++)
        if (i != axis)
            perm[k++] = i;
    perm[src.ndim - 1] = axis;
    if ((st = em_array_transpose(&src, perm, &view)) != EM_OK ||
        (st = em_array_empty(x->device, x->dtype, view.ndim, view.shape, 'C',
                             on, &tin)) != EM_OK ||
        (st = em_array_copy(&tin, &view, on)) != EM_OK ||
        (st = em_array_empty(x->device, out_dtype, view.ndim, view.shape, 'C',
                             on, &tout)) != EM_OK)
        goto done;
    em_array_release(&view);
    st = run_rows(&d, &tin, tin.shape[tin.ndim - 1] * tin.strides[tin.ndim - 1],
                  &tout,
                  tout.shape[tout.ndim - 1] * tout.strides[tout.ndim - 1],
                  tin.ndim - 1, init, on);
    if (st == EM_OK && (st = em_array_transpose(out, perm, &res)) == EM_OK)
        st = em_array_copy(&res, &tout, on);
done:
    em_array_release(&src);
    em_array_release(&res);
    em_array_release(&tin);
    em_array_release(&tout);
    em_array_release(&view);
    if (st != EM_OK && out->storage)
        em_array_release(out);
    return st;
}
