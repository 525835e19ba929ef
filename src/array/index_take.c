/* ember arrays: take, take_along_axis, put and where, stated as index
 * geometries (index.c) or masked copies (ufunc.c). */
#include <stdlib.h>
#include <string.h>

#include "array/array_internal.h"
#include "codegen/ewise.h"
#include "codegen/gather.h"

#define SHAPE_STR 768

static em_status check_indices(const em_array *ind)
{
    em_status st = em_arr_check(ind, "indices");
    if (st != EM_OK)
        return st;
    if (ind->dtype < EM_INT8 || ind->dtype > EM_UINT64)
        return em_error(EM_ERR_TYPE,
                        "Cannot cast array data from dtype('%s') to "
                        "dtype('int64') according to the rule 'safe'",
                        em_dtype_get(ind->dtype)->name);
    return EM_OK;
}

/* a as a 1-d array in C order: a view when possible, else a copy. */
static em_status flat(const em_array *a, em_stream *s, em_array *out)
{
    int64_t n = a->size;
    em_status st = em_array_reshape_view(a, 1, &n, 'C', out);
    if (st != EM_ERR_NOT_SUPPORTED)
        return st;
    st = em_array_empty(a->device, a->dtype, a->ndim, a->shape, 'C', s, out);
    if (st == EM_OK && (st = em_array_copy(out, a, s)) == EM_OK)
        st = em_array_reshape_view(out, 1, &n, 'C', out);
    if (st != EM_OK)
        em_array_release(out);
    return st;
}

em_status em_take(const em_array *a, const em_array *indices, int axis,
                  em_index_mode mode, em_array *out, em_stream *s)
{
    em_index_geom g;
    em_array src;
    em_status st;
    int ax = 0, r = 0;

    if (!a || !indices || !out)
        return em_error(EM_ERR_INVALID_VALUE, "take: NULL argument");
    if ((st = em_arr_check(a, "take")) != EM_OK ||
        (st = check_indices(indices)) != EM_OK)
        return st;
    if (axis == EM_TAKE_FLAT) {
        if ((st = flat(a, s, &src)) != EM_OK)
            return st;
        ax = 0;
    } else {
        if ((st = em_arr_axis(&axis, a->ndim)) != EM_OK)
            return st;
        ax = axis;
        em_array_retain(a, &src);
    }
    if (src.ndim - 1 + indices->ndim > EM_MAX_NDIM) {
        em_array_release(&src);
        return em_error(EM_ERR_INVALID_VALUE,
                        "take would give more than %d dimensions", EM_MAX_NDIM);
    }
    if (mode != EM_INDEX_RAISE && src.shape[ax] == 0 && indices->size > 0) {
        em_array_release(&src);
        return em_error(EM_ERR_INDEX,
                        "cannot do a non-empty take from an empty axes.");
    }
    memset(&g, 0, sizeof g);
    for (int i = 0; i < ax; i++, r++) {
        g.shape[r] = src.shape[i];
        g.src_strides[r] = src.strides[i];
    }
    for (int i = 0; i < indices->ndim; i++, r++) {
        g.shape[r] = indices->shape[i];
        g.idx_strides[0][r] = indices->strides[i];
    }
    for (int i = ax + 1; i < src.ndim; i++, r++) {
        g.shape[r] = src.shape[i];
        g.src_strides[r] = src.strides[i];
    }
    g.ndim = r;
    g.nidx = 1;
    g.idx[0] = indices;
    g.extent[0] = src.shape[ax];
    g.stride[0] = src.strides[ax];
    g.axis[0] = ax;
    st = em_index_gather(&src, &g, mode, out, s);
    em_array_release(&src);
    return st;
}

/* The geometry of numpy's along-axis index: the other axes of a and
 * indices broadcast, the axis itself indexed. */
static em_status along_geom(const em_array *a, const em_array *indices,
                            int axis, em_index_geom *g)
{
    em_status st;
    int ax = 0;
    char b1[SHAPE_STR], b2[SHAPE_STR];
    if ((st = em_arr_check(a, "along axis")) != EM_OK ||
        (st = check_indices(indices)) != EM_OK)
        return st;
    if (indices->ndim != a->ndim)
        return em_error(EM_ERR_INVALID_VALUE,
                        "`indices` and `arr` must have the same number of "
                        "dimensions");
    if ((st = em_arr_axis(&axis, a->ndim)) != EM_OK)
        return st;
    ax = axis;
    memset(g, 0, sizeof *g);
    g->ndim = a->ndim;
    for (int i = 0; i < a->ndim; i++) {
        int64_t na = a->shape[i], ni = indices->shape[i];
        if (i != ax && na != ni && na != 1 && ni != 1)
            return em_error(
                EM_ERR_INVALID_VALUE,
                "shape mismatch: indices of shape %s do not "
                "broadcast with the array's shape %s off axis %d",
                em_shape_format(indices->ndim, indices->shape, b1, sizeof b1),
                em_shape_format(a->ndim, a->shape, b2, sizeof b2), ax);
        g->shape[i] = i == ax ? ni : (na == 1 ? ni : na);
        g->src_strides[i] = i == ax || na == 1 ? 0 : a->strides[i];
        g->idx_strides[0][i] = ni == 1 ? 0 : indices->strides[i];
    }
    g->nidx = 1;
    g->idx[0] = indices;
    g->extent[0] = a->shape[ax];
    g->stride[0] = a->strides[ax];
    g->axis[0] = ax;
    return EM_OK;
}

em_status em_take_along_axis(const em_array *a, const em_array *indices,
                             int axis, em_array *out, em_stream *s)
{
    em_index_geom g;
    em_status st;
    if (!a || !indices || !out)
        return em_error(EM_ERR_INVALID_VALUE, "take_along_axis: NULL argument");
    if ((st = along_geom(a, indices, axis, &g)) != EM_OK)
        return st;
    return em_index_gather(a, &g, EM_INDEX_RAISE, out, s);
}

em_status em_put_along_axis(em_array *a, const em_array *indices,
                            const em_array *values, int axis, em_stream *s)
{
    em_index_geom g;
    em_array vals;
    em_status st;
    if (!a || !indices || !values)
        return em_error(EM_ERR_INVALID_VALUE, "put_along_axis: NULL argument");
    if ((st = em_arr_check(values, "put_along_axis: values")) != EM_OK ||
        (st = along_geom(a, indices, axis, &g)) != EM_OK)
        return st;
    if ((st = em_array_empty(a->device, a->dtype, g.ndim, g.shape, 'C', s,
                             &vals)) != EM_OK)
        return st;
    if ((st = em_array_copy(&vals, values, s)) == EM_OK)
        st = em_index_scatter(a, &g, EM_INDEX_RAISE, &vals, s);
    em_array_release(&vals);
    return st;
}

em_status em_put(em_array *a, const em_array *indices, const em_array *values,
                 em_index_mode mode, em_stream *s)
{
    em_index_geom g;
    em_array dst, vals;
    em_status st;
    int copied;

    if (!a || !indices || !values)
        return em_error(EM_ERR_INVALID_VALUE, "put: NULL argument");
    if ((st = em_arr_check(a, "put")) != EM_OK ||
        (st = em_arr_check(values, "put: values")) != EM_OK ||
        (st = check_indices(indices)) != EM_OK)
        return st;
    if (!(a->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE, "put: the array is read-only");
    if (indices->size == 0)
        return EM_OK;
    if (a->size == 0)
        return em_error(EM_ERR_INDEX,
                        "cannot replace elements of an empty array");
    if ((st = em_array_empty(a->device, a->dtype, indices->ndim, indices->shape,
                             'C', s, &vals)) != EM_OK)
        return st;
    if (values->size == 0) {
        em_array_release(&vals);
        return em_error(EM_ERR_INVALID_VALUE,
                        "put: cannot take values from an empty array");
    }
    if (values->size == 1) {
        em_array one;
        /* The single element, whatever the values' rank, broadcast. */
        em_array_retain(values, &one);
        one.ndim = 0;
        em_array_update_flags(&one);
        st = em_array_copy(&vals, &one, s);
        em_array_release(&one);
    } else {
        /* values.flat repeated cyclically: a wrapping gather by 0..n-1
         * (those indices are made on the host and sent once). */
        em_array v1, iota, cyc, v2;
        int64_t n = indices->size;
        int64_t *host = malloc(sizeof *host * (size_t)n);
        memset(&cyc, 0, sizeof cyc);
        st = host ? EM_OK
                  : em_error(EM_ERR_OUT_OF_MEMORY,
                             "put: no host memory for %lld indices",
                             (long long)n);
        if (st == EM_OK && values->size != n)
            for (int64_t i = 0; i < n; i++)
                host[i] = i;
        if (st == EM_OK && (st = flat(values, s, &v1)) == EM_OK) {
            if (values->size == n) {
                em_array_retain(&v1, &cyc);
            } else {
                st = em_array_empty(a->device, EM_INT64, 1, &n, 'C', s, &iota);
                if (st == EM_OK) {
                    st = em_array_from_host(&iota, host, NULL, s);
                    if (st == EM_OK)
                        st = em_take(&v1, &iota, 0, EM_INDEX_WRAP, &cyc, s);
                    em_array_release(&iota);
                }
            }
            if (st == EM_OK)
                st = em_array_reshape_view(&cyc, indices->ndim, indices->shape,
                                           'C', &v2);
            if (st == EM_OK) {
                st = em_array_copy(&vals, &v2, s);
                em_array_release(&v2);
            }
            em_array_release(&cyc);
            em_array_release(&v1);
        }
        free(host);
    }
    if (st != EM_OK) {
        em_array_release(&vals);
        return st;
    }
    copied = !(a->flags & EM_ARRAY_C_CONTIGUOUS);
    st = flat(a, s, &dst);
    if (st != EM_OK) {
        em_array_release(&vals);
        return st;
    }
    memset(&g, 0, sizeof g);
    g.ndim = indices->ndim;
    for (int i = 0; i < indices->ndim; i++) {
        g.shape[i] = indices->shape[i];
        g.idx_strides[0][i] = indices->strides[i];
    }
    g.nidx = 1;
    g.idx[0] = indices;
    g.extent[0] = dst.shape[0];
    g.stride[0] = dst.strides[0];
    g.axis[0] = 0;
    st = em_index_scatter(&dst, &g, mode, &vals, s);
    if (st == EM_OK && copied) {
        em_array back;
        st = em_array_reshape_view(&dst, a->ndim, a->shape, 'C', &back);
        if (st == EM_OK) {
            st = em_array_copy(a, &back, s);
            em_array_release(&back);
        }
    }
    em_array_release(&dst);
    em_array_release(&vals);
    return st;
}

/* The one-kernel where; 0 when it does not apply (the caller copies
 * twice instead), else 1 with the launch's status in *st. */
static int where_kernel(const em_array *mask, const em_operand *xy,
                        em_array *out, em_dtype dt, em_stream *s, em_status *st)
{
    em_device *dev = out->device;
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    int nd = out->ndim > 0 ? out->ndim : 1;
    int64_t words[1 + 5 * EM_MAX_NDIM], n = out->size, chunk = 0, shape1 = 1;
    const int64_t *shape = out->ndim ? out->shape : &shape1;
    const em_array *ops[4] = {out, mask, xy[0].array, xy[1].array};
    unsigned char sc[2][16];
    void *ptrs[4], *args[8];
    em_gen_gather d;
    em_function *fn[3];
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    em_stream *on = NULL;
    for (int k = 0; k < 2; k++)
        if (xy[k].array && (xy[k].array->dtype != dt ||
                            (cuda && !(xy[k].array->flags & EM_ARRAY_ALIGNED))))
            return 0;
    if (cuda && !(out->flags & EM_ARRAY_ALIGNED))
        return 0;
    if (!(on = em_arr_stream(dev, s, "where"))) {
        *st = EM_ERR_INVALID_VALUE;
        return 1;
    }
    memset(&d, 0, sizeof d);
    memset(sc, 0, sizeof sc);
    d.op = EM_GEN_WHERE;
    d.elem = (uint8_t)em_dtype_size(dt);
    d.ndim = (uint8_t)nd;
    for (int k = 0; k < 2; k++)
        if (!xy[k].array) {
            d.idx[k] = 1;
            if ((*st = em_scalar_cast(&xy[k].value, xy[k].dtype, sc[k], dt)) !=
                EM_OK)
                return 1;
        }
    if ((*st = em_gen_gather_functions(dev, &d, fn)) != EM_OK)
        return 1;
    words[0] = n;
    for (int i = 0; i < nd; i++)
        words[1 + i] = shape[i];
    for (int a = 0; a < 4; a++) {
        int64_t *w = words + 1 + nd + a * nd;
        if (ops[a] && out->ndim)
            em_layout_broadcast_strides(ops[a]->ndim, ops[a]->shape,
                                        ops[a]->strides, nd, shape, w);
        else
            memset(w, 0, (size_t)nd * sizeof *w);
        ptrs[a] = ops[a] ? ops[a]->data : NULL;
    }
    for (int a = 0; a < 4; a++)
        args[a] = &ptrs[a];
    args[4] = sc[0];
    args[5] = sc[1];
    args[6] = words;
    args[7] = &chunk;
    if (cuda) {
        int64_t blocks = (n + EM_GEN_GATHER_BLOCK - 1) / EM_GEN_GATHER_BLOCK,
                cap = (int64_t)em_gen_device_units(dev) * 8;
        block.x = EM_GEN_GATHER_BLOCK;
        grid.x = (unsigned)(blocks < cap ? blocks : cap);
    } else {
        int64_t per = n / ((int64_t)em_gen_device_units(dev) * 4);
        chunk = per < 16384 ? 16384 : per;
        grid.x = (unsigned)((n + chunk - 1) / chunk);
    }
    *st = em_launch(fn[0], grid, block, 0, on, args);
    return 1;
}

em_status em_where(const em_array *cond, const em_operand *x,
                   const em_operand *y, em_array *out, em_stream *s)
{
    em_operand xy[2], c;
    em_dtype dt;
    em_array mask;
    int64_t shape[EM_MAX_NDIM];
    int nd = 0, made = 0;
    em_status st;
    char b1[SHAPE_STR], b2[SHAPE_STR];

    if (!cond || !x || !y || !out)
        return em_error(EM_ERR_INVALID_VALUE, "where: NULL argument");
    if ((st = em_arr_check(cond, "where: the condition")) != EM_OK)
        return st;
    xy[0] = *x;
    xy[1] = *y;
    for (int k = 0; k < 2; k++)
        if (xy[k].array && xy[k].array->device != cond->device)
            return em_error(EM_ERR_INVALID_VALUE,
                            "where: the condition is on %s and %s on %s "
                            "(ember does not copy between devices "
                            "implicitly)",
                            em_device_name(cond->device), k ? "y" : "x",
                            em_device_name(xy[k].array->device));
    if ((st = em_result_type(xy, 2, &dt)) != EM_OK)
        return st;
    nd = cond->ndim;
    memcpy(shape, cond->shape, (size_t)nd * sizeof *shape);
    for (int k = 0; k < 2; k++)
        if (xy[k].array &&
            em_shape_broadcast(nd, shape, xy[k].array->ndim, xy[k].array->shape,
                               &nd, shape) != EM_OK)
            return em_error(
                EM_ERR_INVALID_VALUE,
                "operands could not be broadcast together with shapes %s %s",
                em_shape_format(cond->ndim, cond->shape, b1, sizeof b1),
                em_shape_format(xy[k].array->ndim, xy[k].array->shape, b2,
                                sizeof b2));
    /* The condition as bools (a cast is "nonzero"). */
    if (cond->dtype == EM_BOOL) {
        em_array_retain(cond, &mask);
    } else {
        memset(&c, 0, sizeof c);
        c.array = cond;
        st = em_array_empty(cond->device, EM_BOOL, cond->ndim, cond->shape, 'C',
                            s, &mask);
        if (st == EM_OK &&
            (st = em_ufunc_apply(EM_OP_COPY, &c, 1, &mask, NULL, s)) != EM_OK)
            em_array_release(&mask);
        if (st != EM_OK)
            return st;
    }
    if (!out->storage) {
        st = em_array_empty(cond->device, dt, nd, shape, 'C', s, out);
        made = st == EM_OK;
    }
    if (st == EM_OK && out->size == 0) {
        em_array_release(&mask);
        return EM_OK;
    }
    /* One kernel when x and y already have the result's dtype (or are
     * scalars, cast here): out = cond ? x : y, moving bytes. */
    if (st == EM_OK && where_kernel(&mask, xy, out, dt, s, &st)) {
        em_array_release(&mask);
        if (st != EM_OK && made)
            em_array_release(out);
        return st;
    }
    /* Otherwise y everywhere, then x where the condition holds: two
     * passes of the elementwise copy, which casts. */
    for (int k = 1; k >= 0 && st == EM_OK; k--) {
        em_operand o = xy[k];
        if (!o.array) {
            em_dtype sd = o.dtype;
            unsigned char buf[16];
            if ((st = em_scalar_cast(&o.value, sd, buf, dt)) != EM_OK)
                break;
            memcpy(&o.value, buf, sizeof buf);
            o.dtype = dt;
            o.weak = 0;
        }
        st = em_ufunc_apply(EM_OP_COPY, &o, 1, out, k ? NULL : &mask, s);
    }
    em_array_release(&mask);
    if (st != EM_OK && made)
        em_array_release(out);
    return st;
}

em_status em_choose(const em_array *a, const em_array *const *choices, int n,
                    em_index_mode mode, em_array *out, em_stream *s)
{
    em_index_geom g;
    em_operand ops[EM_CHOOSE_MAX];
    em_array stack;
    em_dtype dt;
    int64_t shape[EM_MAX_NDIM + 1];
    int nd, made = 0;
    em_status st;
    char b1[SHAPE_STR], b2[SHAPE_STR];

    if (!a || !choices || !out)
        return em_error(EM_ERR_INVALID_VALUE, "choose: NULL argument");
    if (n < 1 || n > EM_CHOOSE_MAX)
        return em_error(EM_ERR_INVALID_VALUE,
                        "choose: %d choices (ember takes 1 to %d)", n,
                        EM_CHOOSE_MAX);
    if ((st = check_indices(a)) != EM_OK)
        return st;
    nd = a->ndim;
    memcpy(shape + 1, a->shape, (size_t)nd * sizeof *shape);
    memset(ops, 0, sizeof ops);
    for (int i = 0; i < n; i++) {
        if ((st = em_arr_check(choices[i], "choose: a choice")) != EM_OK)
            return st;
        if (choices[i]->device != a->device)
            return em_error(EM_ERR_INVALID_VALUE,
                            "choose: choice %d is on %s and the indices on "
                            "%s (ember does not copy between devices "
                            "implicitly)",
                            i, em_device_name(choices[i]->device),
                            em_device_name(a->device));
        if (em_shape_broadcast(nd, shape + 1, choices[i]->ndim,
                               choices[i]->shape, &nd, shape + 1) != EM_OK)
            return em_error(EM_ERR_INVALID_VALUE,
                            "shape mismatch: objects cannot be broadcast to a "
                            "single shape: %s and %s",
                            em_shape_format(a->ndim, a->shape, b1, sizeof b1),
                            em_shape_format(choices[i]->ndim, choices[i]->shape,
                                            b2, sizeof b2));
        ops[i].array = choices[i];
        ops[i].dtype = choices[i]->dtype;
    }
    if ((st = em_result_type(ops, n, &dt)) != EM_OK)
        return st;
    /* The choices stacked along a new first axis, then one gather. */
    shape[0] = n;
    if ((st = em_array_empty(a->device, dt, nd + 1, shape, 'C', s, &stack)) !=
        EM_OK)
        return st;
    for (int i = 0; i < n && st == EM_OK; i++) {
        em_array row;
        em_slice sl[EM_MAX_NDIM + 1];
        sl[0].start = i;
        sl[0].stop = i + 1;
        sl[0].step = 0;
        for (int d = 1; d <= nd; d++) {
            sl[d].start = 0;
            sl[d].stop = shape[d];
            sl[d].step = 1;
        }
        st = em_array_slice(&stack, sl, &row);
        if (st == EM_OK) {
            st = em_array_copy(&row, choices[i], s);
            em_array_release(&row);
        }
    }
    if (st == EM_OK && !out->storage) {
        st = em_array_empty(a->device, dt, nd, shape + 1, 'C', s, out);
        made = st == EM_OK;
    }
    if (st == EM_OK) {
        memset(&g, 0, sizeof g);
        g.ndim = nd;
        for (int d = 0; d < nd; d++) {
            g.shape[d] = shape[d + 1];
            g.src_strides[d] = stack.strides[d + 1];
        }
        em_layout_broadcast_strides(a->ndim, a->shape, a->strides, nd,
                                    shape + 1, g.idx_strides[0]);
        g.nidx = 1;
        g.idx[0] = a;
        g.extent[0] = n;
        g.stride[0] = stack.strides[0];
        g.axis[0] = 0;
        st = em_index_gather(&stack, &g, mode, out, s);
        if (st == EM_ERR_INDEX && mode == EM_INDEX_RAISE)
            st =
                em_error(EM_ERR_INVALID_VALUE, "invalid entry in choice array");
    }
    if (st != EM_OK && made)
        em_array_release(out);
    em_array_release(&stack);
    return st;
}
