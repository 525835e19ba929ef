/* ember array: linspace with array start/stop (see include/ember/manip.h).
 *
 * Each of NumPy's steps is one elementwise call, in NumPy's order and in
 * the same dtype, so the values are NumPy's (no fused multiply-add can
 * form across separate kernels).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "array/array_internal.h"
#include "array/manip_internal.h"

static void arr_op(em_operand *o, const em_array *a)
{
    memset(o, 0, sizeof *o);
    o->array = a;
    o->dtype = a->dtype;
}

static void int_op(em_operand *o, int64_t v)
{
    memset(o, 0, sizeof *o);
    o->dtype = EM_INT64;
    o->weak = 1;
    o->value.i = v;
}

static em_status binary(em_op op, const em_operand *a, const em_operand *b, em_array *out,
                        em_stream *s)
{
    em_operand in[2];
    in[0] = *a;
    in[1] = *b;
    return em_ufunc_apply(op, in, 2, out, NULL, s);
}

/* A new array of `dtype` and a's shape holding a's values. */
static em_status cast_new(const em_array *a, em_dtype dtype, em_array *out, em_stream *s)
{
    em_status rc = em_array_empty(a->device, dtype, a->ndim, a->shape, 'C', s, out);
    if (rc == EM_OK && a->size && (rc = em_array_copy(out, a, s)) != EM_OK)
        em_array_release(out);
    return rc;
}

/* Whether any element of step is zero (one byte read back). */
static em_status any_zero(const em_array *step, int *any, em_stream *s)
{
    em_array eq, r;
    em_operand a, z;
    em_reduce_args ra;
    unsigned char b = 0;
    em_status rc;
    *any = 0;
    if (!step->size)
        return EM_OK;
    arr_op(&a, step);
    int_op(&z, 0);
    memset(&eq, 0, sizeof eq);
    if ((rc = binary(EM_OP_EQUAL, &a, &z, &eq, s)) != EM_OK)
        return rc;
    memset(&ra, 0, sizeof ra);
    memset(&r, 0, sizeof r);
    rc = em_reduce(EM_RED_ANY, &eq, &ra, &r, s);
    em_array_release(&eq);
    if (rc != EM_OK)
        return rc;
    rc = em_array_to_host(&r, &b, NULL, s);
    em_array_release(&r);
    *any = b != 0;
    return rc;
}

em_status em_linspace_array(const em_array *start, const em_array *stop,
                            int64_t num, int endpoint, int axis,
                            em_dtype compute, em_dtype dtype,
                            em_array *step_out, em_array *out, em_stream *s)
{
    int64_t bshape[EM_MAX_NDIM], yshape[EM_MAX_NDIM], div = endpoint ? num - 1 : num;
    int bnd, i, any = 0, perm[EM_MAX_NDIM];
    em_array a, b, delta, step, y, r, last;
    em_operand o1, o2;
    em_device *d;
    em_status rc;
    char k;
    if ((rc = em_arr_check(start, "linspace: start")) != EM_OK
        || (rc = em_arr_check(stop, "linspace: stop")) != EM_OK)
        return rc;
    if ((rc = em_manip_same_device(start, stop, "linspace")) != EM_OK)
        return rc;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "linspace: out is NULL");
    if (num < 0)
        return em_error(EM_ERR_INVALID_VALUE, "Number of samples, %lld, must be "
                        "non-negative.", (long long)num);
    k = em_dtype_get(compute) ? em_dtype_get(compute)->kind : 0;
    if (k != 'f' && k != 'c')
        return em_error(EM_ERR_TYPE, "linspace: compute dtype must be inexact");
    if (!em_dtype_get(dtype))
        return em_error(EM_ERR_TYPE, "linspace: invalid dtype %d", (int)dtype);
    if (k == 'c' && em_dtype_get(dtype)->kind != 'c')
        return em_error(EM_ERR_TYPE, "linspace: complex start or stop for a %s result",
                        em_dtype_get(dtype)->name);
    if ((rc = em_shape_broadcast(start->ndim, start->shape, stop->ndim, stop->shape, &bnd,
                                 bshape)) != EM_OK)
        return rc;
    if (bnd + 1 > EM_MAX_NDIM)
        return em_error(EM_ERR_INVALID_VALUE, "linspace: too many dimensions");
    if ((rc = em_arr_axis(&axis, bnd + 1)) != EM_OK)
        return rc;
    d = start->device;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&delta, 0, sizeof delta);
    memset(&step, 0, sizeof step);
    memset(&y, 0, sizeof y);
    memset(&r, 0, sizeof r);
    if ((rc = cast_new(start, compute, &a, s)) != EM_OK
        || (rc = cast_new(stop, compute, &b, s)) != EM_OK)
        goto done;
    arr_op(&o1, &b);
    arr_op(&o2, &a);
    if ((rc = binary(EM_OP_SUBTRACT, &o1, &o2, &delta, s)) != EM_OK)
        goto done;
    /* y = arange(num) in compute, shaped (num, 1, ..., 1) */
    {
        double *h = malloc((size_t)(num ? num : 1) * sizeof(double));
        em_array flat;
        if (!h) {
            rc = em_error(EM_ERR_OUT_OF_MEMORY, "linspace: %lld samples", (long long)num);
            goto done;
        }
        for (i = 0; i < num; i++)
            h[i] = (double)i;
        memset(&flat, 0, sizeof flat);
        rc = em_array_empty(d, EM_FLOAT64, 1, &num, 'C', s, &flat);
        if (rc == EM_OK && num)
            rc = em_array_from_host(&flat, h, NULL, s);
        free(h);
        if (rc == EM_OK)
            rc = cast_new(&flat, compute, &y, s);
        if (flat.storage)
            em_array_release(&flat);
        if (rc != EM_OK)
            goto done;
        yshape[0] = num;
        for (i = 0; i < bnd; i++)
            yshape[i + 1] = 1;
        if ((rc = em_array_reshape_view(&y, bnd + 1, yshape, 'C', &y)) != EM_OK)
            goto done;
    }
    if (div > 0) {
        int_op(&o2, div);
        arr_op(&o1, &delta);
        if ((rc = binary(EM_OP_TRUE_DIVIDE, &o1, &o2, &step, s)) != EM_OK
            || (rc = any_zero(&step, &any, s)) != EM_OK)
            goto done;
        if (any) {
            arr_op(&o1, &y);
            if ((rc = binary(EM_OP_TRUE_DIVIDE, &o1, &o2, &y, s)) != EM_OK)
                goto done;
            arr_op(&o2, &delta);
        } else {
            arr_op(&o2, &step);
        }
    } else {
        double nan_ = NAN;
        if ((rc = em_array_empty(d, compute, bnd, bshape, 'C', s, &step)) != EM_OK
            || (rc = em_array_fill(&step, &nan_, EM_FLOAT64, s)) != EM_OK)
            goto done;
        arr_op(&o2, &delta);
    }
    arr_op(&o1, &y);
    if ((rc = binary(EM_OP_MULTIPLY, &o1, &o2, &r, s)) != EM_OK)
        goto done;
    arr_op(&o1, &r);
    arr_op(&o2, &a);
    if ((rc = binary(EM_OP_ADD, &o1, &o2, &r, s)) != EM_OK)
        goto done;
    if (endpoint && num > 1) {
        em_slice sl[EM_MAX_NDIM];
        sl[0].start = num - 1;
        sl[0].stop = 0;
        sl[0].step = 0;
        for (i = 1; i <= bnd; i++) {
            sl[i].start = 0;
            sl[i].stop = r.shape[i];
            sl[i].step = 1;
        }
        if ((rc = em_array_slice(&r, sl, &last)) != EM_OK)
            goto done;
        rc = em_array_copy(&last, &b, s);
        em_array_release(&last);
        if (rc != EM_OK)
            goto done;
    }
    if (em_dtype_get(dtype)->kind == 'i' || em_dtype_get(dtype)->kind == 'u') {
        arr_op(&o1, &r);
        if ((rc = em_ufunc_apply(EM_OP_FLOOR, &o1, 1, &r, NULL, s)) != EM_OK)
            goto done;
    }
    if (dtype != compute) {
        em_array c;
        if ((rc = cast_new(&r, dtype, &c, s)) != EM_OK)
            goto done;
        em_array_release(&r);
        r = c;
    }
    if (axis != 0) {
        /* NumPy's moveaxis(y, 0, axis): a view */
        int j = 0;
        for (i = 0; i <= bnd; i++)
            perm[i] = i == axis ? 0 : ++j;
        if ((rc = em_array_transpose(&r, perm, &r)) != EM_OK)
            goto done;
    }
    *out = r;
    memset(&r, 0, sizeof r);
    if (step_out) {
        *step_out = step;
        memset(&step, 0, sizeof step);
    }
done:
    if (a.storage)
        em_array_release(&a);
    if (b.storage)
        em_array_release(&b);
    if (delta.storage)
        em_array_release(&delta);
    if (step.storage)
        em_array_release(&step);
    if (y.storage)
        em_array_release(&y);
    if (r.storage)
        em_array_release(&r);
    return rc;
}
