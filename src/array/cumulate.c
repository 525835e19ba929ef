/* ember arrays: cumsum, cumprod, nancumsum, nancumprod (em_cumulate).
 *
 * The axis becomes the kernel's line; every other axis (extent-1 ones
 * dropped) indexes lines. Flattening uses a 1-D view when the layout has
 * one, else a contiguous copy. The accumulator is the output's dtype, as
 * in NumPy's accumulate, so out= of another dtype changes the arithmetic
 * (int8 wraps, float32 rounds) just as NumPy's does.
 */
#include <string.h>

#include "algo/scan_internal.h"
#include "codegen/cumulate.h"
#include "codegen/scan.h"

#define SHAPE_STR 256

const char *em_cumulate_name(em_cumulate_op op)
{
    static const char *const names[EM_CUM_OP_COUNT] = {
        "cumsum", "cumprod", "nancumsum", "nancumprod"};
    return (unsigned)op < EM_CUM_OP_COUNT ? names[op] : NULL;
}

em_dtype em_cumulate_dtype(em_cumulate_op op, em_dtype in)
{
    /* Every op sums or multiplies, widening small integers as the
     * device-wide scan's add does. */
    (void)op;
    return em_scan_default_dtype(EM_PAR_ADD, in);
}

static int same_layout(const em_array *x, const em_array *y)
{
    return x->data == y->data && x->ndim == y->ndim &&
           em_dtype_size(x->dtype) == em_dtype_size(y->dtype) &&
           !memcmp(x->strides, y->strides, (size_t)x->ndim * sizeof(int64_t));
}

/* The kernel over src (any layout) into dst (same shape) along axis. */
static em_status launch(em_cumulate_op op, const em_array *src,
                        const em_array *dst, int axis, em_stream *s)
{
    em_gen_cumulate d;
    em_gen_cum_geom g;
    em_status st;
    if ((st = em_scan_check_aligned(src, em_cumulate_name(op),
                                    "the input")) != EM_OK ||
        (st = em_scan_check_aligned(dst, em_cumulate_name(op),
                                    "the output")) != EM_OK)
        return st;
    memset(&d, 0, sizeof d);
    memset(&g, 0, sizeof g);
    d.op = (uint8_t)op;
    d.in = (uint8_t)src->dtype;
    d.out = (uint8_t)dst->dtype;
    g.len = src->shape[axis];
    g.sin = src->strides[axis];
    g.sout = dst->strides[axis];
    g.nlines = 1;
    for (int i = 0; i < src->ndim; i++) {
        if (i == axis || src->shape[i] == 1)
            continue;
        g.shape[g.nd] = src->shape[i];
        g.si[g.nd] = src->strides[i];
        g.so[g.nd] = dst->strides[i];
        g.nlines *= src->shape[i];
        g.nd++;
    }
    /* Sums and products whose other axes collapse to one stride run on
     * the device-wide scan (one pass on CUDA). 16-bit floats stay on the
     * sequential walk: NumPy rounds them step by step in index order, and
     * any other order gives visibly different results. Many short lines
     * stay on the thread-per-line walk, which suits them. The nan forms
     * replace a NaN by the neutral value as each element is loaded. */
    if (g.nd <= 1 &&
        (g.len >= 256 || g.nlines == 1) &&
        dst->dtype != EM_FLOAT16 && dst->dtype != EM_BFLOAT16) {
        em_gen_scan sd;
        memset(&sd, 0, sizeof sd);
        sd.op = (uint8_t)(op == EM_CUM_SUM || op == EM_CUM_NANSUM
                              ? EM_PAR_ADD
                              : EM_PAR_MUL);
        if (op == EM_CUM_NANSUM || op == EM_CUM_NANPROD)
            sd.flags = EM_GEN_SCAN_NAN;
        sd.in = (uint8_t)src->dtype;
        sd.out = (uint8_t)dst->dtype;
        return em_gen_scan_run(dst->device, &sd, src->data, dst->data,
                               g.nlines, g.len, g.nd ? g.si[0] : 0, g.sin,
                               g.nd ? g.so[0] : 0, g.sout, NULL, s);
    }
    /* A block per line when a thread per line would leave the GPU
     * nearly idle on long serial walks. */
    if (em_device_get_type(dst->device) == EM_DEVICE_CUDA && g.len >= 1024 &&
        g.nlines < 8192 && dst->dtype != EM_FLOAT16 &&
        dst->dtype != EM_BFLOAT16)
        d.kind = EM_GEN_CUM_BLOCK;
    return em_gen_cumulate_run(dst->device, &d, src->data, dst->data, &g, s);
}

em_status em_cumulate(em_cumulate_op op, const em_array *a, int axis,
                      int flatten, int has_dtype, em_dtype dtype, em_array *out,
                      em_stream *s)
{
    const char *fn = em_cumulate_name(op);
    em_array src = {0}, res = {0};
    em_dtype acc;
    em_stream *on = NULL;
    int made_out = 0, via_tmp = 0;
    char b1[SHAPE_STR], b2[SHAPE_STR];
    em_status st;

    if (!fn)
        return em_error(EM_ERR_INVALID_VALUE, "em_cumulate: bad op %d",
                        (int)op);
    if (!a || !out)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    if ((st = em_arr_check(a, fn)) != EM_OK)
        return st;
    if (has_dtype && !em_dtype_get(dtype))
        return em_error(EM_ERR_TYPE, "%s: invalid dtype %d", fn, (int)dtype);
    if (out->storage) {
        if ((st = em_arr_check(out, fn)) != EM_OK)
            return st;
        if (out->device != a->device)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: out= is on %s and the input on %s (ember "
                            "does not copy between devices implicitly)",
                            fn, em_device_name(out->device),
                            em_device_name(a->device));
        if (!(out->flags & EM_ARRAY_WRITEABLE))
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: output array is read-only", fn);
    }
    if (!(on = em_arr_stream(a->device, s, fn)))
        return EM_ERR_INVALID_VALUE;

    /* The source as an array whose axis `axis` is the line. A 0-d input
     * is one element along axis 0, as in NumPy. */
    if (flatten || a->ndim == 0) {
        if (!flatten && axis != 0 && axis != -1)
            return em_error(EM_ERR_AXIS,
                            "%s: axis %d is out of bounds for array of "
                            "dimension 1",
                            fn, axis);
        if ((st = em_scan_flat_source(a, on, &src)) != EM_OK)
            return st;
        axis = 0;
    } else {
        if ((st = em_arr_axis(&axis, a->ndim)) != EM_OK)
            return st;
        em_array_retain(a, &src);
    }

    acc = has_dtype      ? dtype
          : out->storage ? out->dtype
                         : em_cumulate_dtype(op, a->dtype);
    if (out->storage) {
        if (out->ndim != src.ndim ||
            memcmp(out->shape, src.shape, (size_t)src.ndim * sizeof(int64_t))) {
            st = em_error(EM_ERR_INVALID_VALUE,
                          "%s: out= has shape %s, the result has shape %s", fn,
                          em_shape_format(out->ndim, out->shape, b1, sizeof b1),
                          em_shape_format(src.ndim, src.shape, b2, sizeof b2));
            goto done;
        }
        /* The kernel reads each element before writing it, so out may be
         * the input itself; other overlaps and another dtype go through
         * a temporary. */
        via_tmp = out->dtype != acc ||
                  (em_arr_overlap(out, &src) && !same_layout(out, &src));
        if (via_tmp)
            st = em_array_empty(a->device, acc, src.ndim, src.shape, 'C', on,
                                &res);
        else
            em_array_retain(out, &res);
    } else {
        st = em_array_empty(a->device, acc, src.ndim, src.shape, 'C', on, out);
        if (st == EM_OK) {
            made_out = 1;
            em_array_retain(out, &res);
        }
    }
    if (st == EM_OK && res.size)
        st = launch(op, &src, &res, axis, on);
    if (st == EM_OK && via_tmp)
        st = em_array_copy(out, &res, on);
done:
    em_array_release(&src);
    em_array_release(&res);
    if (st != EM_OK && made_out)
        em_array_release(out);
    return st;
}
