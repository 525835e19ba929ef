/* ember reductions: em_reduce, from axes to launches.
 *
 * The input is seen as a 2-D view, M outputs by K reduced elements:
 * extent-1 axes are dropped, the kept axes (in order, so the result is
 * C-ordered) merge into one and the reduced axes into another (in C order
 * for argmin/argmax, whose index is the C-order one; by stride otherwise).
 * A layout that does not merge into two such axes (kept axes interleaved
 * with reduced ones in memory, a transposed argmax over every axis) is
 * first copied into (kept..., reduced...) order: one extra pass, never a
 * wrong index. Then a schedule (see codegen/reduce.h) is chosen from M, K
 * and the strides, the kernels are found by descriptor and launched: one
 * launch, or two when the reduced extent is split into partials.
 */
#include <string.h>

#include "array/array_internal.h"
#include "array/reduce_internal.h"
#include "fuse/fuse.h"
#include "codegen/ewise.h"
#include "codegen/reduce.h"
#include "core/layout.h"
#include "ember/profile.h"

#define SHAPE_STR 768

typedef struct view2 {
    int64_t M, K, sm, sk;
} view2;

static int arg_op(em_reduce_op op)
{
    return op == EM_RED_ARGMIN || op == EM_RED_ARGMAX ||
           op == EM_RED_NANARGMIN || op == EM_RED_NANARGMAX;
}

/* Merge the axes list[0..n) of a (shape/strides) into one run; 0 when
 * they do not form one. sort: order by |stride| first (the order of the
 * reduced elements does not matter). */
static int merge_axes(const em_array *a, const int *list, int n, int sort,
                      int64_t *extent, int64_t *stride)
{
    int64_t sh[EM_MAX_NDIM], st[EM_MAX_NDIM];
    for (int i = 0; i < n; i++) {
        sh[i] = a->shape[list[i]];
        st[i] = a->strides[list[i]];
    }
    return em_layout_run(n, sh, st, sort, extent, stride);
}

static int aligned_for_gpu(const em_array *a)
{
    size_t al = em_dtype_get(a->dtype)->align;
    if ((uintptr_t)a->data % al)
        return 0;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] > 1 && a->strides[i] % (int64_t)al)
            return 0;
    return 1;
}

static int64_t cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* chunk: K over S rounded up to a multiple of `round`; then S: the splits
 * that chunk needs (at least one, also for an empty K). */
static void fix_split(int64_t K, int64_t *S, int64_t *chunk, int64_t round)
{
    *chunk = cdiv(cdiv(K, *S), round) * round;
    if (*chunk < round)
        *chunk = round;
    *S = cdiv(K, *chunk);
    if (*S < 1)
        *S = 1;
}

/* ---- the schedule ------------------------------------------------------ */

typedef struct plan {
    em_gen_reduce d, fin;
    em_gen_reduce_geom g;
    em_dim3 grid, block, fgrid, fblock;
} plan;

static void plan_cuda(plan *p, const view2 *v, int64_t size, int units,
                      const char *data)
{
    int64_t M = v->M, K = v->K, S = 1, chunk = K > 0 ? K : 1;
    /* Split grids stay within what is resident at once (four blocks of
     * 256 per SM fit any of these kernels' registers and shared memory),
     * so every block of one launch runs in a single, even wave: a grid of
     * 1.1 waves would take two. */
    int64_t fill = (int64_t)units * 4;
    int outer = v->sm == size && v->sk != size && M >= 32 && K > 1;
    em_gen_reduce *d = &p->d;
    p->block.x = 256;
    if (outer) {
        int64_t bx = cdiv(M, 256);
        d->sched = EM_GEN_RED_COLS;
        if (bx < fill) {
            S = fill / bx;
            if (S > cdiv(K, 64))
                S = cdiv(K, 64);
            if (S > 65535)
                S = 65535;
            if (S < 1)
                S = 1;
        }
        fix_split(K, &S, &chunk, 1);
        p->grid.x = (unsigned)(bx < (1 << 20) ? bx : (1 << 20));
        p->grid.y = (unsigned)S;
    } else if (M > 1 && K <= 1024) {
        d->sched = EM_GEN_RED_WARP;
        p->grid.x = (unsigned)(cdiv(M, 8) < (1 << 20) ? cdiv(M, 8) : (1 << 20));
    } else {
        int vw = size <= 16 && 16 % size == 0 ? (int)(16 / size) : 1;
        d->sched = EM_GEN_RED_ROWS;
        if (M < fill && K > 4096) {
            S = fill / M;
            if (S > cdiv(K, 2048))
                S = cdiv(K, 2048);
            if (S < 1)
                S = 1;
        }
        if (S > 1)
            fix_split(K, &S, &chunk, vw);
        if (vw > 1 && v->sk == size && (uintptr_t)data % 16 == 0 &&
            (M == 1 || v->sm % 16 == 0) && (S == 1 || chunk % vw == 0))
            d->vec = (uint8_t)vw;
        p->grid.x = (unsigned)(M * S < (1 << 20) ? M * S : (1 << 20));
    }
    p->g.S = S;
    p->g.chunk = chunk;
    if (S > 1) {
        d->split = 1;
        p->fin.sched = EM_GEN_RED_FIN;
        p->fblock.x = 256;
        p->fgrid.x =
            (unsigned)(cdiv(M, 8) < (1 << 20) ? cdiv(M, 8) : (1 << 20));
    }
}

static void plan_host(plan *p, const view2 *v, int64_t size, int units)
{
    int64_t M = v->M, K = v->K, S = 1, chunk = K > 0 ? K : 1, nb;
    int64_t want = (int64_t)(units > 0 ? units : 1) * 4;
    int outer = v->sm == size && v->sk != size && M >= 8 && K > 1;
    em_gen_reduce *d = &p->d;
    p->block.x = 1;
    if (outer) {
        int64_t tiles = cdiv(M, 2048);
        d->sched = EM_GEN_RED_COLS;
        if (tiles < want && K >= 128) {
            S = cdiv(want, tiles);
            if (S > cdiv(K, 64))
                S = cdiv(K, 64);
        }
        fix_split(K, &S, &chunk, 1);
        nb = tiles * S;
    } else {
        d->sched = EM_GEN_RED_ROWS;
        if (M < want && K >= 32768) {
            S = cdiv(want, M);
            if (S > cdiv(K, 16384))
                S = cdiv(K, 16384);
        }
        fix_split(K, &S, &chunk, 1);
        if (S > 1) {
            nb = M * S;
        } else {
            int64_t rows = cdiv(M, want * 2), minrows = cdiv(16384, K + 1);
            if (rows < minrows)
                rows = minrows;
            p->g.rows = rows;
            nb = cdiv(M, rows);
        }
    }
    p->g.S = S;
    p->g.chunk = chunk;
    p->grid.x = (unsigned)nb;
    if (S > 1) {
        int64_t rows = cdiv(M, want);
        d->split = 1;
        p->fin.sched = EM_GEN_RED_FIN;
        p->fblock.x = 1;
        if (rows < 1024)
            rows = 1024;
        p->g.rows = rows;
        p->fgrid.x = (unsigned)cdiv(M, rows);
    }
}

/* ---- launching ------------------------------------------------------- */

static em_status run(em_reduce_op op, const em_array *a, const view2 *v,
                     em_dtype compute, em_array *res, double ddof, em_stream *s)
{
    em_device *dev = a->device;
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    int64_t size = (int64_t)em_dtype_size(a->dtype);
    em_array part;
    em_function *fn = NULL, *ffn = NULL;
    void *args[4 + EM_FUSE_MAX_LEAVES + 2 * EM_FUSE_MAX_NODES], *fargs[4],
        *in = a->data, *outp = res->data, *pp = NULL, *none = NULL;
    int fused = 0, nx = 0;
    em_status st;
    plan p;

    memset(&p, 0, sizeof p);
    memset(&part, 0, sizeof part);
    p.d.op = (uint8_t)op;
    p.d.in = (uint8_t)a->dtype;
    p.d.compute = (uint8_t)compute;
    p.d.out = (uint8_t)res->dtype;
    p.d.vec = 1;
    p.g.M = v->M;
    p.g.K = v->K;
    p.g.sm = v->sm;
    p.g.sk = v->sk;
    p.g.rows = 1;
    p.g.count = (double)v->K;
    p.g.ddof = ddof;
    p.grid.y = p.grid.z = p.block.y = p.block.z = 1;
    p.fgrid.y = p.fgrid.z = p.fblock.y = p.fblock.z = 1;
    if (cuda)
        plan_cuda(&p, v, size, em_gen_device_units(dev), a->data);
    else
        plan_host(&p, v, size, em_gen_device_units(dev));
    /* 32-bit counters and offsets on the GPU when everything, including
     * a grid-stride step past the end, stays below 2^30 / 2^31. */
    {
        int64_t ext[2] = {v->M, v->K}, sst[1][EM_MAX_NDIM] = {{v->sm, v->sk}};
        int64_t count = v->M * p.g.S > v->K ? v->M * p.g.S : v->K;
        /* counters below 2^30 (2 * count below 2^31), offsets 16 bytes
         * past the end below 2^31 */
        p.d.idx64 = !cuda || !em_layout_fits32(
                                 2, ext, 1, (const int64_t(*)[EM_MAX_NDIM])sst,
                                 NULL, 2 * count, 16);
    }
    if (p.d.split) {
        p.fin = p.d;
        p.fin.sched = EM_GEN_RED_FIN;
        p.fin.vec = 1;
        p.fin.split = 0;
        p.fin.idx64 = p.d.idx64;
        int64_t nbytes = v->M * p.g.S * (int64_t)em_gen_reduce_acc_size(&p.d);
        st = em_array_empty(dev, EM_UINT8, 1, &nbytes, 'C', s, &part);
        if (st != EM_OK)
            return st;
        pp = part.data;
        if ((st = em_gen_reduce_function(dev, &p.fin, &ffn)) != EM_OK)
            goto done;
    }
    /* A pending elementwise result is computed where it is loaded
     * (src/fuse/reduce.c); the group is held until the launches are in. */
    if (cuda && (st = em_fuse_reduce_begin(a, &p.d, s, &fn, args + 4, &nx,
                                           &fused)) != EM_OK)
        goto done;
    /* not fused: a pending input gets its memory (its group runs) */
    if (!fused && !in && a->storage && a->storage->deferred) {
        if ((st = em_fuse_flush()) != EM_OK)
            goto done;
        in = em_arr_storage_base(a->storage);
    }
    if (!fused && (st = em_gen_reduce_function(dev, &p.d, &fn)) != EM_OK)
        goto done;
    args[0] = &in;
    args[1] = &outp;
    args[2] = &pp;
    args[3] = &p.g;
    if (em_prof_on) /* "sum float32" in a profile; the final pass is named so too */
        em_prof_label(fn, em_reduce_name(op), em_dtype_get(a->dtype)->name);
    st = em_launch(fn, p.grid, p.block, 0, s, args);
    if (st == EM_OK && p.d.split) {
        fargs[0] = &none;
        fargs[1] = &outp;
        fargs[2] = &pp;
        fargs[3] = &p.g;
        if (em_prof_on)
            em_prof_label(ffn, em_reduce_name(op), em_dtype_get(a->dtype)->name);
        st = em_launch(ffn, p.fgrid, p.fblock, 0, s, fargs);
    }
    if (fused)
        em_fuse_reduce_end();
done:
    em_array_release(&part);
    return st;
}

/* ---- the entry point --------------------------------------------------- */

/* The view of a to reduce, copied into (kept..., reduced...) order when
 * its axes do not merge (or are misaligned for the GPU). *tmp holds the
 * copy, if any. */
static em_status make_view(em_reduce_op op, const em_array *a, const int *red,
                           em_stream *s, em_array *tmp, view2 *v)
{
    int kept[EM_MAX_NDIM] = {0}, rl[EM_MAX_NDIM] = {0}, nk = 0, nr = 0,
        perm[EM_MAX_NDIM];
    const em_array *src = a;
    em_array view;
    em_status st;
    for (int i = 0; i < a->ndim; i++) {
        if (red[i])
            rl[nr++] = i;
        else
            kept[nk++] = i;
    }
    if (merge_axes(a, kept, nk, 0, &v->M, &v->sm) &&
        merge_axes(a, rl, nr, !arg_op(op), &v->K, &v->sk) &&
        (em_device_get_type(a->device) != EM_DEVICE_CUDA || aligned_for_gpu(a)))
        return EM_OK;
    for (int i = 0; i < nk; i++)
        perm[i] = kept[i];
    for (int i = 0; i < nr; i++)
        perm[nk + i] = rl[i];
    memset(&view, 0, sizeof view);
    if ((st = em_array_transpose(a, perm, &view)) != EM_OK)
        return st;
    st = em_array_empty(a->device, a->dtype, a->ndim, view.shape, 'C', s, tmp);
    if (st == EM_OK && (st = em_array_copy(tmp, &view, s)) != EM_OK)
        em_array_release(tmp);
    em_array_release(&view);
    if (st != EM_OK)
        return st;
    src = tmp;
    for (int i = 0; i < nk; i++)
        kept[i] = i;
    for (int i = 0; i < nr; i++)
        rl[i] = nk + i;
    merge_axes(src, kept, nk, 0, &v->M, &v->sm);
    merge_axes(src, rl, nr, 0, &v->K, &v->sk);
    return EM_OK;
}

static em_status check_all_nan(const em_array *res, em_stream *s)
{
    em_array lo;
    em_reduce_args none;
    int64_t v = 0;
    em_status st;
    memset(&lo, 0, sizeof lo);
    memset(&none, 0, sizeof none);
    if (res->size == 0)
        return EM_OK;
    if ((st = em_reduce(EM_RED_MIN, res, &none, &lo, s)) != EM_OK)
        return st;
    st = em_array_to_host(&lo, &v, NULL, s);
    em_array_release(&lo);
    if (st != EM_OK)
        return st;
    if (v < 0)
        return em_error(EM_ERR_INVALID_VALUE, "All-NaN slice encountered");
    return EM_OK;
}

static em_status reduce(em_reduce_op op, const em_array *a,
                        const em_reduce_args *args, em_array *out,
                        em_stream *s)
{
    const char *name = em_reduce_name(op);
    em_reduce_args none;
    int red[EM_MAX_NDIM] = {0}, rnd = 0, made = 0;
    int64_t rshape[EM_MAX_NDIM], kshape[EM_MAX_NDIM], M = 1, K = 1;
    em_dtype R, C;
    em_array res, tmp;
    em_stream *on = NULL;
    em_status st;
    view2 v;
    em_array settled;
    char b1[SHAPE_STR], b2[SHAPE_STR];

    if (!name)
        return em_error(EM_ERR_INVALID_VALUE, "em_reduce: invalid op %d",
                        (int)op);
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "%s: out is NULL", name);
    if ((st = em_arr_check(a, name)) != EM_OK)
        return st;
    if (!args) {
        memset(&none, 0, sizeof none);
        args = &none;
    }
    if (args->naxes < 0 || (args->naxes > 0 && !args->axes))
        return em_error(EM_ERR_INVALID_VALUE, "%s: bad axes (%d axes)", name,
                        args->naxes);
    if (args->naxes == 0 && !args->axes) {
        for (int i = 0; i < a->ndim; i++)
            red[i] = 1;
    } else {
        if (arg_op(op) && args->naxes != 1)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s takes one axis or None, not %d axes", name,
                            args->naxes);
        for (int i = 0; i < args->naxes; i++) {
            int ax = args->axes[i];
            if ((st = em_arr_axis(&ax, a->ndim)) != EM_OK)
                return st;
            if (red[ax])
                return em_error(EM_ERR_INVALID_VALUE,
                                "duplicate value in 'axis'");
            red[ax] = 1;
        }
    }
    for (int i = 0; i < a->ndim; i++) {
        if (red[i]) {
            K *= a->shape[i];
            if (args->keepdims)
                rshape[rnd++] = 1;
        } else {
            M *= a->shape[i];
            rshape[rnd++] = a->shape[i];
        }
    }
    if ((st = em_red_resolve(op, a->dtype, args, &R, &C)) != EM_OK)
        return st;
    /* NumPy refuses an empty reduced extent for ops without an identity
     * even when the result is empty too ((0, 0).max(axis=0)). */
    if (K == 0) {
        if (op == EM_RED_MIN || op == EM_RED_MAX || op == EM_RED_NANMIN ||
            op == EM_RED_NANMAX)
            return em_error(EM_ERR_INVALID_VALUE,
                            "zero-size array to reduction operation %s "
                            "which has no identity",
                            op == EM_RED_MIN || op == EM_RED_NANMIN
                                ? "minimum"
                                : "maximum");
        if (arg_op(op))
            return em_error(
                EM_ERR_INVALID_VALUE, "attempt to get %s of an empty sequence",
                op == EM_RED_ARGMIN || op == EM_RED_NANARGMIN ? "argmin"
                                                              : "argmax");
    }
    if (out->storage) {
        if ((st = em_arr_check(out, name)) != EM_OK)
            return st;
        if (out->device != a->device)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: the input is on %s and out on %s (ember "
                            "does not copy between devices implicitly)",
                            name, em_device_name(a->device),
                            em_device_name(out->device));
        if (out->ndim != rnd ||
            memcmp(out->shape, rshape, (size_t)rnd * sizeof *rshape))
            return em_error(
                EM_ERR_INVALID_VALUE,
                "%s: output array has shape %s, but the "
                "reduction's result has shape %s",
                name, em_shape_format(out->ndim, out->shape, b1, sizeof b1),
                em_shape_format(rnd, rshape, b2, sizeof b2));
        if (!(out->flags & EM_ARRAY_WRITEABLE))
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: output array is read-only", name);
        if (!em_dtype_can_cast(R, out->dtype, EM_CASTING_SAME_KIND))
            return em_error(EM_ERR_TYPE,
                            "Cannot cast %s output from dtype('%s') to "
                            "dtype('%s') with casting rule 'same_kind'",
                            name, em_dtype_get(R)->name,
                            em_dtype_get(out->dtype)->name);
    }
    if (!(on = em_arr_stream(a->device, s, name)))
        return EM_ERR_INVALID_VALUE;

    /* A pending elementwise input (src/fuse/fuse.h) has no memory yet:
     * run() may compute it inside its own kernel on cuda when it is a
     * whole C-ordered result; anything else runs its group first. */
    if (M > 0 && !a->data && a->storage && a->storage->deferred) {
        if (em_device_get_type(a->device) != EM_DEVICE_CUDA ||
            !(a->flags & EM_ARRAY_C_CONTIGUOUS) ||
            em_arr_storage_base(a->storage)) {
            if (!em_arr_storage_base(a->storage) &&
                (st = em_fuse_flush()) != EM_OK)
                return st;
            settled = *a;
            em_array_settle_slow(&settled);
            a = &settled;
        }
    }
    /* The result: straight into out when it is C-contiguous of the
     * result's dtype and does not overlap the input. */
    memset(&res, 0, sizeof res);
    memset(&tmp, 0, sizeof tmp);
    if (out->storage && out->dtype == R &&
        (out->flags & EM_ARRAY_C_CONTIGUOUS) && !em_arr_overlap(out, a)) {
        res = *out;
    } else {
        (void)kshape;
        st = em_array_empty(a->device, R, rnd, rshape, 'C', on, &res);
        if (st != EM_OK)
            return st;
        made = 1;
    }
    if (M > 0) {
        st = make_view(op, a, red, on, &tmp, &v);
        if (st == EM_OK)
            st = run(op, tmp.storage ? &tmp : a, &v, C, &res, args->ddof, on);
        em_array_release(&tmp);
        if (st == EM_OK && (op == EM_RED_NANARGMIN || op == EM_RED_NANARGMAX) &&
            (em_dtype_get(a->dtype)->kind_id == EM_KIND_FLOAT ||
             em_dtype_get(a->dtype)->kind_id == EM_KIND_COMPLEX))
            st = check_all_nan(&res, on);
    }
    if (st == EM_OK && made) {
        if (out->storage) {
            em_operand o;
            memset(&o, 0, sizeof o);
            o.array = &res;
            o.dtype = R;
            st = em_ufunc_apply(EM_OP_COPY, &o, 1, out, NULL, on);
        } else {
            *out = res;
            return EM_OK;
        }
    }
    if (made)
        em_array_release(&res);
    return st;
}

em_status em_reduce(em_reduce_op op, const em_array *a,
                    const em_reduce_args *args, em_array *out, em_stream *s)
{
    em_reduce_args none;
    em_status st;
    if (__builtin_expect(!em_fuse_tl_tape, 1) || !a || !out)
        return reduce(op, a, args, out, s);
    /* ember.fuse is taping its function's body (src/fuse/tape.c): a
     * replay makes this same call over the rebuilt group */
    if (!args) {
        memset(&none, 0, sizeof none);
        args = &none;
    }
    if (s)
        em_fz_tape_guarded();
    em_fuse_tape_reduce_begin((int)op, a, args, out);
    st = reduce(op, a, args, out, s);
    em_fuse_tape_reduce_end(st, out);
    return st;
}
