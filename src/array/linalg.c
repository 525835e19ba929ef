/* ember arrays: matmul, dot, vdot, inner, outer, tensordot, vecdot.
 *
 * Each function only describes its product as a plan: which axes of A, B
 * and C are batch axes, which are m, n and k. One routine then converts
 * the inputs to the computation's dtype (a copy only where they differ),
 * makes or checks the output, reads byte strides off the arrays and runs
 * the generated kernel (codegen/matmul.h), or on the cpu OpenBLAS's gemm
 * (math/blas_host.h) where its layout fits. Broadcast batch axes get
 * stride 0, so nothing is expanded in memory.
 */
#include <string.h>

#include "array/array_internal.h"
#include "codegen/matmul.h"
#include "math/blas_cuda.h"
#include "math/blas_host.h"

#define SHAPE_STR 256

/* Axis roles; -1 where an operand has no such axis (extent 1, stride 0). */
typedef struct plan {
    int nb;                   /* batch axes */
    int64_t ext[EM_MAX_NDIM]; /* their extents (C's) */
    int ba[EM_MAX_NDIM], bb[EM_MAX_NDIM], bc[EM_MAX_NDIM];
    int ma, mc, nb_, nc, ka, kb;
    int64_t M, N, K;
    int cnd; /* C's rank and shape */
    int64_t cshape[EM_MAX_NDIM];
} plan;

static void plan_init(plan *p)
{
    memset(p, 0, sizeof *p);
    p->ma = p->mc = p->nb_ = p->nc = p->ka = p->kb = -1;
    p->M = p->N = p->K = 1;
}

static void plan_batch(plan *p, int64_t ext, int ia, int ib)
{
    p->ext[p->nb] = ext;
    p->ba[p->nb] = ia;
    p->bb[p->nb] = ib;
    p->bc[p->nb] = p->cnd;
    p->cshape[p->cnd++] = ext;
    p->nb++;
}

static int64_t stride_of(const em_array *a, int axis, int64_t ext)
{
    /* A broadcast axis (extent 1 against a longer one) reads one element. */
    if (axis < 0 || a->shape[axis] == 1 || ext == 1)
        return 0;
    return a->strides[axis];
}

static em_status check_pair(const em_array *a, const em_array *b,
                            const char *fn)
{
    em_status st;
    if ((st = em_arr_check(a, fn)) != EM_OK ||
        (st = em_arr_check(b, fn)) != EM_OK)
        return st;
    if (a->device != b->device)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: operands are on different devices: input 0 is "
                        "on %s and input 1 on %s (ember does not copy "
                        "between devices implicitly)",
                        fn, em_device_name(a->device),
                        em_device_name(b->device));
    return EM_OK;
}

/* A's contents in dtype t (a new reference: a itself or a converted
 * C-contiguous copy); with conj, complex values conjugated. */
static em_status as_dtype(const em_array *a, em_dtype t, int conj, em_stream *s,
                          em_array *out)
{
    em_operand o;
    em_status st;
    int cplx = em_dtype_get(t)->kind_id == EM_KIND_COMPLEX;
    if (a->dtype == t && !(conj && cplx)) {
        em_array_retain(a, out);
        return EM_OK;
    }
    if ((st = em_arr_copy_new(a, t, s, out)) != EM_OK || !(conj && cplx))
        return st;
    memset(&o, 0, sizeof o);
    o.array = out;
    o.dtype = t;
    if ((st = em_ufunc_apply(EM_OP_CONJUGATE, &o, 1, out, NULL, s)) != EM_OK)
        em_array_release(out);
    return st;
}

/* Run plan p over a and b (already checked) in dtype t into out. */
static em_status run_plan(const char *fn, const plan *p, const em_array *a,
                          const em_array *b, em_dtype t, int conj_a,
                          int tf32, em_array *out, em_stream *s)
{
    em_device *dev = a->device;
    em_array A = {0}, B = {0}, C = {0};
    em_gen_mm_geom g;
    em_stream *on = NULL;
    int made_out = 0, via_tmp = 0, done = 0;
    int64_t isz = (int64_t)em_dtype_size(t);
    char b1[SHAPE_STR], b2[SHAPE_STR];
    em_status st;

    if (!(on = em_arr_stream(dev, s, fn)))
        return EM_ERR_INVALID_VALUE;
    if (out->storage) {
        if ((st = em_arr_check(out, fn)) != EM_OK)
            return st;
        if (out->device != dev)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: out= is on %s and the operands on %s (ember "
                            "does not copy between devices implicitly)",
                            fn, em_device_name(out->device),
                            em_device_name(dev));
        if (out->ndim != p->cnd ||
            memcmp(out->shape, p->cshape, (size_t)p->cnd * sizeof(int64_t)))
            return em_error(
                EM_ERR_INVALID_VALUE,
                "%s: out= has shape %s, the result has shape %s", fn,
                em_shape_format(out->ndim, out->shape, b1, sizeof b1),
                em_shape_format(p->cnd, p->cshape, b2, sizeof b2));
        if (!(out->flags & EM_ARRAY_WRITEABLE))
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: output array is read-only", fn);
        if (!em_dtype_can_cast(t, out->dtype, EM_CASTING_SAME_KIND))
            return em_error(EM_ERR_TYPE,
                            "Cannot cast %s output from dtype('%s') to "
                            "dtype('%s') with casting rule 'same_kind'",
                            fn, em_dtype_get(t)->name,
                            em_dtype_get(out->dtype)->name);
        via_tmp = out->dtype != t || em_arr_overlap(out, a) ||
                  em_arr_overlap(out, b);
        if (!via_tmp && em_device_get_type(dev) == EM_DEVICE_CUDA &&
            out->size && (uintptr_t)out->data % em_dtype_get(t)->align)
            via_tmp = 1;
        if (via_tmp)
            st = em_array_empty(dev, t, p->cnd, p->cshape, 'C', on, &C);
        else
            em_array_retain(out, &C);
    } else {
        st = em_array_empty(dev, t, p->cnd, p->cshape, 'C', on, out);
        if (st == EM_OK) {
            made_out = 1;
            em_array_retain(out, &C);
        }
    }
    if (st != EM_OK)
        return st;

    if (C.size > 0) {
        st = as_dtype(a, t, conj_a, on, &A);
        if (st == EM_OK)
            st = as_dtype(b, t, 0, on, &B);
        if (st == EM_OK && em_device_get_type(dev) == EM_DEVICE_CUDA) {
            /* Loads are of whole elements: the GPU needs them aligned. */
            const em_array *ops[2] = {&A, &B};
            for (int i = 0; i < 2 && st == EM_OK; i++)
                if (ops[i]->size &&
                    (uintptr_t)ops[i]->data % em_dtype_get(t)->align)
                    st = em_error(EM_ERR_NOT_SUPPORTED,
                                  "%s: input %d (%s) is not aligned to its "
                                  "itemsize, which the GPU needs: copy it "
                                  "first",
                                  fn, i, em_dtype_get(t)->name);
        }
        if (st == EM_OK) {
            memset(&g, 0, sizeof g);
            g.M = p->M;
            g.N = p->N;
            g.K = p->K;
            g.nbatch = 1;
            for (int i = 0; i < p->nb; i++) {
                if (p->ext[i] == 1)
                    continue; /* adds nothing to any offset */
                g.shape[g.nbd] = p->ext[i];
                g.sa[g.nbd] = stride_of(&A, p->ba[i], p->ext[i]);
                g.sb[g.nbd] = stride_of(&B, p->bb[i], p->ext[i]);
                g.sc[g.nbd] = C.strides[p->bc[i]];
                g.nbatch *= p->ext[i];
                g.nbd++;
            }
            g.am = stride_of(&A, p->ma, p->M);
            g.ak = stride_of(&A, p->ka, p->K);
            g.bk = stride_of(&B, p->kb, p->K);
            g.bn = stride_of(&B, p->nb_, p->N);
            g.cm = p->mc >= 0 ? C.strides[p->mc] : 0;
            g.cn = p->nc >= 0 ? C.strides[p->nc] : 0;
            (void)isz;
            /* On the cpu, OpenBLAS's gemm where it takes the layout (at
             * 1024 the generated kernel took 3.4x its time in float32 and
             * float64, 5x in complex128); on cuda, cuBLAS's (at 8192 the
             * generated kernel reached 18.9 TFLOP/s in float32 on the
             * H200, cuBLAS 50.6); the kernel for the rest: other dtypes,
             * doubly strided operands, tiny products. */
            if (em_device_get_type(dev) == EM_DEVICE_CPU)
                st = em_host_gemm(t, A.data, B.data, C.data, &g, on, &done);
            else
                st = em_cuda_gemm(t, A.data, B.data, C.data, &g, tf32, on,
                                  &done);
            if (st == EM_OK && !done)
                st = em_gen_matmul_run(dev, t, A.data, B.data, C.data, &g, on);
        }
        if (st == EM_OK && via_tmp)
            st = em_array_copy(out, &C, on);
    }
    em_array_release(&A);
    em_array_release(&B);
    em_array_release(&C);
    if (st != EM_OK && made_out)
        em_array_release(out);
    return st;
}

/* The computation's dtype: promoted, or args' dtype (which each input
 * must reach by a 'same_kind' cast, as a ufunc's inputs must). */
static em_status product_dtype(const char *fn, const em_array *a,
                               const em_array *b, const em_product_args *args,
                               em_dtype *t)
{
    if (args && args->has_dtype) {
        const em_array *in[2] = {a, b};
        if (!em_dtype_get(args->dtype))
            return em_error(EM_ERR_TYPE, "%s: invalid dtype %d", fn,
                            (int)args->dtype);
        for (int i = 0; i < 2; i++)
            if (!em_dtype_can_cast(in[i]->dtype, args->dtype,
                                   EM_CASTING_SAME_KIND))
                return em_error(EM_ERR_TYPE,
                                "Cannot cast ufunc '%s' input %d from "
                                "dtype('%s') to dtype('%s') with casting "
                                "rule 'same_kind'",
                                fn, i, em_dtype_get(in[i]->dtype)->name,
                                em_dtype_get(args->dtype)->name);
        *t = args->dtype;
        return EM_OK;
    }
    return em_dtype_promote(a->dtype, b->dtype, t);
}

/* ---- matmul ------------------------------------------------------------ */

#define MATMUL_SIG "(n?,k),(k,m?)->(n?,m?)"

em_status em_matmul(const em_array *a, const em_array *b,
                    const em_product_args *args, em_array *out, em_stream *s)
{
    plan p;
    em_dtype t;
    int na, nb, bnd = 0;
    int64_t bshape[EM_MAX_NDIM], ka, kb;
    char b1[SHAPE_STR], b2[SHAPE_STR];
    em_status st;

    if (!a || !b || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_matmul: NULL argument");
    if ((st = check_pair(a, b, "matmul")) != EM_OK)
        return st;
    for (int i = 0; i < 2; i++)
        if ((i ? b : a)->ndim == 0)
            return em_error(
                EM_ERR_INVALID_VALUE,
                "matmul: Input operand %d does not have enough "
                "dimensions (has 0, gufunc core with signature " MATMUL_SIG
                " requires 1)",
                i);
    na = a->ndim;
    nb = b->ndim;
    ka = a->shape[na - 1];
    kb = b->shape[nb == 1 ? 0 : nb - 2];
    if (ka != kb)
        return em_error(EM_ERR_INVALID_VALUE,
                        "matmul: Input operand 1 has a mismatch in its core "
                        "dimension 0, with gufunc signature " MATMUL_SIG
                        " (size %lld is different from %lld; shapes %s and "
                        "%s)",
                        (long long)kb, (long long)ka,
                        em_shape_format(na, a->shape, b1, sizeof b1),
                        em_shape_format(nb, b->shape, b2, sizeof b2));
    if (na > 2 || nb > 2) {
        st = em_shape_broadcast(na > 2 ? na - 2 : 0, a->shape,
                                nb > 2 ? nb - 2 : 0, b->shape, &bnd, bshape);
        if (st != EM_OK)
            return em_error(st,
                            "matmul: the batch dimensions of shapes %s and %s "
                            "could not be broadcast together",
                            em_shape_format(na, a->shape, b1, sizeof b1),
                            em_shape_format(nb, b->shape, b2, sizeof b2));
    }
    if ((st = product_dtype("matmul", a, b, args, &t)) != EM_OK)
        return st;

    plan_init(&p);
    for (int i = 0; i < bnd; i++) {
        int ia = i - (bnd - (na - 2)), ib = i - (bnd - (nb - 2));
        plan_batch(&p, bshape[i], na > 2 && ia >= 0 ? ia : -1,
                   nb > 2 && ib >= 0 ? ib : -1);
    }
    if (na >= 2) {
        p.ma = na - 2;
        p.M = a->shape[na - 2];
        p.mc = p.cnd;
        p.cshape[p.cnd++] = p.M;
    }
    if (nb >= 2) {
        p.nb_ = nb - 1;
        p.N = b->shape[nb - 1];
        p.nc = p.cnd;
        p.cshape[p.cnd++] = p.N;
    }
    p.ka = na - 1;
    p.kb = nb == 1 ? 0 : nb - 2;
    p.K = ka;
    return run_plan("matmul", &p, a, b, t, 0, args && args->tf32, out, s);
}

/* ---- dot, inner, vdot, outer -------------------------------------------- */

static em_status multiply(const em_array *a, const em_array *b, em_array *out,
                          em_stream *s)
{
    em_operand o[2];
    memset(o, 0, sizeof o);
    o[0].array = a;
    o[0].dtype = a->dtype;
    o[1].array = b;
    o[1].dtype = b->dtype;
    return em_ufunc_apply(EM_OP_MULTIPLY, o, 2, out, NULL, s);
}

/* A's leading axes as batches (the last of them as m), then b's (the last
 * as n); k is a's axis ka and b's axis kb. Used by dot and inner, whose
 * results have a's free axes then b's. */
static void plan_outer_axes(plan *p, const em_array *a, int ka,
                            const em_array *b, int kb)
{
    int fa[EM_MAX_NDIM], fb[EM_MAX_NDIM], nfa = 0, nfb = 0;
    for (int i = 0; i < a->ndim; i++)
        if (i != ka)
            fa[nfa++] = i;
    for (int i = 0; i < b->ndim; i++)
        if (i != kb)
            fb[nfb++] = i;
    for (int i = 0; i < nfa; i++) {
        if (i == nfa - 1) {
            p->ma = fa[i];
            p->M = a->shape[fa[i]];
            p->mc = p->cnd;
            p->cshape[p->cnd++] = p->M;
        } else {
            plan_batch(p, a->shape[fa[i]], fa[i], -1);
        }
    }
    for (int i = 0; i < nfb; i++) {
        if (i == nfb - 1) {
            p->nb_ = fb[i];
            p->N = b->shape[fb[i]];
            p->nc = p->cnd;
            p->cshape[p->cnd++] = p->N;
        } else {
            plan_batch(p, b->shape[fb[i]], -1, fb[i]);
        }
    }
    p->ka = ka;
    p->kb = kb;
    p->K = a->shape[ka];
}

static em_status rank_check(const em_array *a, const em_array *b,
                            const char *fn)
{
    if (a->ndim + b->ndim - 2 > EM_MAX_NDIM)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: the result would have %d dimensions, more than "
                        "ember's %d",
                        fn, a->ndim + b->ndim - 2, EM_MAX_NDIM);
    return EM_OK;
}

/* dot and inner differ only in b's summed axis: dot's is b's
 * second-to-last (its only one for a vector), inner's b's last. */
static em_status dot_or_inner(const char *fn, const em_array *a,
                              const em_array *b, int kb_last, em_array *out,
                              em_stream *s)
{
    plan p;
    em_dtype t;
    int ka, kb;
    char b1[SHAPE_STR], b2[SHAPE_STR];
    em_status st;
    if (!a || !b || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_%s: NULL argument", fn);
    if ((st = check_pair(a, b, fn)) != EM_OK)
        return st;
    if (a->ndim == 0 || b->ndim == 0)
        return multiply(a, b, out, s);
    if ((st = rank_check(a, b, fn)) != EM_OK)
        return st;
    ka = a->ndim - 1;
    kb = kb_last || b->ndim == 1 ? b->ndim - 1 : b->ndim - 2;
    if (a->shape[ka] != b->shape[kb])
        return em_error(EM_ERR_INVALID_VALUE,
                        "shapes %s and %s not aligned: %lld (dim %d) != %lld "
                        "(dim %d)",
                        em_shape_format(a->ndim, a->shape, b1, sizeof b1),
                        em_shape_format(b->ndim, b->shape, b2, sizeof b2),
                        (long long)a->shape[ka], ka, (long long)b->shape[kb],
                        kb);
    if ((st = em_dtype_promote(a->dtype, b->dtype, &t)) != EM_OK)
        return st;
    plan_init(&p);
    /* dot's result keeps b's last axis last: b's free axes are its
     * leading ones then its last, which plan_outer_axes already orders. */
    plan_outer_axes(&p, a, ka, b, kb);
    return run_plan(fn, &p, a, b, t, 0, 0, out, s);
}

em_status em_dot(const em_array *a, const em_array *b, em_array *out,
                 em_stream *s)
{
    return dot_or_inner("dot", a, b, 0, out, s);
}

em_status em_inner(const em_array *a, const em_array *b, em_array *out,
                   em_stream *s)
{
    return dot_or_inner("inner", a, b, 1, out, s);
}

/* a reshaped to (nd, shape) in C order: a view when the layout allows,
 * else a view of a contiguous copy. */
static em_status reshaped(const em_array *a, int nd, const int64_t *shape,
                          em_stream *s, em_array *out)
{
    em_array c = {0};
    em_status st = em_array_reshape_view(a, nd, shape, 'C', out);
    if (st != EM_ERR_NOT_SUPPORTED)
        return st;
    st = em_array_empty(a->device, a->dtype, a->ndim, a->shape, 'C', s, &c);
    if (st == EM_OK && (st = em_array_copy(&c, a, s)) == EM_OK)
        st = em_array_reshape_view(&c, nd, shape, 'C', out);
    em_array_release(&c);
    return st;
}

/* a as a 1-D array in C order. */
static em_status flat(const em_array *a, em_stream *s, em_array *out)
{
    int64_t n = a->size;
    return reshaped(a, 1, &n, s, out);
}

/* The axes of a permuted by perm, then viewed (or copied) as the matrix
 * (rows, cols). */
static em_status as_matrix(const em_array *a, const int *perm, int64_t rows,
                           int64_t cols, em_stream *s, em_array *out)
{
    int64_t s2[2] = {rows, cols};
    em_array tmp = {0};
    em_status st = em_array_transpose(a, a->ndim ? perm : NULL, &tmp);
    if (st == EM_OK)
        st = reshaped(&tmp, 2, s2, s, out);
    em_array_release(&tmp);
    return st;
}

em_status em_vdot(const em_array *a, const em_array *b, em_array *out,
                  em_stream *s)
{
    plan p;
    em_dtype t;
    em_array fa = {0}, fb = {0};
    em_stream *on = NULL;
    em_status st;
    if (!a || !b || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_vdot: NULL argument");
    if ((st = check_pair(a, b, "vdot")) != EM_OK)
        return st;
    if (a->size != b->size)
        return em_error(EM_ERR_INVALID_VALUE,
                        "vdot: vectors have different lengths (%lld and "
                        "%lld elements)",
                        (long long)a->size, (long long)b->size);
    if ((st = em_dtype_promote(a->dtype, b->dtype, &t)) != EM_OK)
        return st;
    if (!(on = em_arr_stream(a->device, s, "vdot")))
        return EM_ERR_INVALID_VALUE;
    st = flat(a, on, &fa);
    if (st == EM_OK)
        st = flat(b, on, &fb);
    if (st == EM_OK) {
        plan_init(&p);
        p.ka = p.kb = 0;
        p.K = a->size;
        st = run_plan("vdot", &p, &fa, &fb, t, 1, 0, out, on);
    }
    em_array_release(&fa);
    em_array_release(&fb);
    return st;
}

em_status em_outer(const em_array *a, const em_array *b, em_array *out,
                   em_stream *s)
{
    em_array fa = {0}, fb = {0};
    em_stream *on = NULL;
    em_status st;
    if (!a || !b || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_outer: NULL argument");
    if ((st = check_pair(a, b, "outer")) != EM_OK)
        return st;
    if (!(on = em_arr_stream(a->device, s, "outer")))
        return EM_ERR_INVALID_VALUE;
    /* NumPy's outer is multiply(a.ravel()[:, None], b.ravel()[None, :]):
     * an elementwise product, -0.0 and all. */
    st = flat(a, on, &fa);
    if (st == EM_OK)
        st = flat(b, on, &fb);
    if (st == EM_OK) {
        int64_t sa[2] = {a->size, 1}, sb[2] = {1, b->size};
        st = em_array_reshape_view(&fa, 2, sa, 'C', &fa);
        if (st == EM_OK)
            st = em_array_reshape_view(&fb, 2, sb, 'C', &fb);
    }
    if (st == EM_OK)
        st = multiply(&fa, &fb, out, on);
    em_array_release(&fa);
    em_array_release(&fb);
    return st;
}

/* ---- tensordot ---------------------------------------------------------- */

static em_status norm_axis(int axis, int ndim, const char *fn, int *out)
{
    if (axis < -ndim || axis >= ndim)
        return em_error(EM_ERR_AXIS,
                        "%s: axis %d is out of bounds for array of dimension "
                        "%d",
                        fn, axis, ndim);
    *out = axis < 0 ? axis + ndim : axis;
    return EM_OK;
}

em_status em_tensordot(const em_array *a, const em_array *b, int naxes,
                       const int *axes_a, const int *axes_b, em_array *out,
                       em_stream *s)
{
    int ax[EM_MAX_NDIM], bx[EM_MAX_NDIM], used_a[EM_MAX_NDIM] = {0},
                                          used_b[EM_MAX_NDIM] = {0};
    int pa[EM_MAX_NDIM], pb[EM_MAX_NDIM], np_ = 0;
    int64_t M = 1, N = 1, K = 1, rshape[EM_MAX_NDIM];
    int rnd = 0;
    em_array ta = {0}, tb = {0}, r = {0};
    em_stream *on = NULL;
    em_status st;
    char b1[SHAPE_STR], b2[SHAPE_STR];

    if (!a || !b || !out || naxes < 0 || (naxes && (!axes_a || !axes_b)))
        return em_error(EM_ERR_INVALID_VALUE, "em_tensordot: bad argument");
    if ((st = check_pair(a, b, "tensordot")) != EM_OK)
        return st;
    if (naxes > a->ndim || naxes > b->ndim)
        return em_error(EM_ERR_INVALID_VALUE,
                        "tensordot: %d axes to sum over but the shapes are "
                        "%s and %s",
                        naxes,
                        em_shape_format(a->ndim, a->shape, b1, sizeof b1),
                        em_shape_format(b->ndim, b->shape, b2, sizeof b2));
    for (int i = 0; i < naxes; i++) {
        if ((st = norm_axis(axes_a[i], a->ndim, "tensordot", &ax[i])) ||
            (st = norm_axis(axes_b[i], b->ndim, "tensordot", &bx[i])))
            return st;
        if (used_a[ax[i]]++ || used_b[bx[i]]++)
            return em_error(EM_ERR_INVALID_VALUE,
                            "tensordot: repeated axis in the axes to sum over");
        if (a->shape[ax[i]] != b->shape[bx[i]])
            return em_error(EM_ERR_INVALID_VALUE,
                            "shape-mismatch for sum: axis %d of %s (%lld) and "
                            "axis %d of %s (%lld)",
                            ax[i],
                            em_shape_format(a->ndim, a->shape, b1, sizeof b1),
                            (long long)a->shape[ax[i]], bx[i],
                            em_shape_format(b->ndim, b->shape, b2, sizeof b2),
                            (long long)b->shape[bx[i]]);
        K *= a->shape[ax[i]];
    }
    /* As NumPy: a to (free..., summed...) and b to (summed..., free...),
     * each as a matrix (a copy only when the transposed layout cannot be
     * viewed that way), one matmul, the result reshaped. */
    for (int i = 0; i < a->ndim; i++)
        if (!used_a[i]) {
            pa[np_++] = i;
            M *= a->shape[i];
            rshape[rnd++] = a->shape[i];
        }
    for (int i = 0; i < naxes; i++)
        pa[np_++] = ax[i];
    np_ = 0;
    for (int i = 0; i < naxes; i++)
        pb[np_++] = bx[i];
    for (int i = 0; i < b->ndim; i++)
        if (!used_b[i]) {
            pb[np_++] = i;
            N *= b->shape[i];
            if (rnd >= EM_MAX_NDIM)
                return em_error(EM_ERR_INVALID_VALUE,
                                "tensordot: the result would have more than "
                                "%d dimensions",
                                EM_MAX_NDIM);
            rshape[rnd++] = b->shape[i];
        }
    if (!(on = em_arr_stream(a->device, s, "tensordot")))
        return EM_ERR_INVALID_VALUE;
    st = as_matrix(a, pa, M, K, on, &ta);
    if (st == EM_OK)
        st = as_matrix(b, pb, K, N, on, &tb);
    if (st == EM_OK) {
        if (out->storage) {
            /* Write through a matrix view of out when it has one. */
            int64_t s2[2] = {M, N};
            if (out->ndim != rnd ||
                memcmp(out->shape, rshape, (size_t)rnd * sizeof(int64_t)))
                st = em_error(
                    EM_ERR_INVALID_VALUE,
                    "tensordot: out= has shape %s, the result has "
                    "shape %s",
                    em_shape_format(out->ndim, out->shape, b1, sizeof b1),
                    em_shape_format(rnd, rshape, b2, sizeof b2));
            else if ((st = em_array_reshape_view(out, 2, s2, 'C', &r)) == EM_OK)
                st = em_matmul(&ta, &tb, NULL, &r, on);
            else if (st == EM_ERR_NOT_SUPPORTED) {
                em_array r2 = {0};
                st = em_matmul(&ta, &tb, NULL, &r2, on);
                if (st == EM_OK)
                    st = em_array_reshape_view(&r2, rnd, rshape, 'C', &r2);
                if (st == EM_OK)
                    st = em_array_copy(out, &r2, on);
                em_array_release(&r2);
            }
        } else {
            st = em_matmul(&ta, &tb, NULL, &r, on);
            if (st == EM_OK)
                st = em_array_reshape_view(&r, rnd, rshape, 'C', out);
        }
    }
    em_array_release(&ta);
    em_array_release(&tb);
    em_array_release(&r);
    return st;
}

/* ---- vecdot -------------------------------------------------------------- */

em_status em_vecdot(const em_array *a, const em_array *b, int axis,
                    em_array *out, em_stream *s)
{
    plan p;
    em_dtype t;
    int xa = 0, xb = 0, nd = 0, fa[EM_MAX_NDIM], fb[EM_MAX_NDIM], nfa = 0,
        nfb = 0;
    int64_t sha[EM_MAX_NDIM], shb[EM_MAX_NDIM], shape[EM_MAX_NDIM];
    char b1[SHAPE_STR], b2[SHAPE_STR];
    em_status st;
    if (!a || !b || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_vecdot: NULL argument");
    if ((st = check_pair(a, b, "vecdot")) != EM_OK)
        return st;
    for (int i = 0; i < 2; i++)
        if ((i ? b : a)->ndim == 0)
            return em_error(EM_ERR_INVALID_VALUE,
                            "vecdot: Input operand %d does not have enough "
                            "dimensions (has 0, gufunc core with signature "
                            "(n),(n)->() requires 1)",
                            i);
    /* The axis counts in each operand, as NumPy's gufunc axes= does. */
    if ((st = norm_axis(axis, a->ndim, "vecdot", &xa)) != EM_OK ||
        (st = norm_axis(axis, b->ndim, "vecdot", &xb)) != EM_OK)
        return st;
    if (a->shape[xa] != b->shape[xb])
        return em_error(EM_ERR_INVALID_VALUE,
                        "vecdot: Input operand 1 has a mismatch in its core "
                        "dimension 0, with gufunc signature (n),(n)->() (size "
                        "%lld is different from %lld; shapes %s and %s)",
                        (long long)b->shape[xb], (long long)a->shape[xa],
                        em_shape_format(a->ndim, a->shape, b1, sizeof b1),
                        em_shape_format(b->ndim, b->shape, b2, sizeof b2));
    for (int i = 0; i < a->ndim; i++)
        if (i != xa) {
            sha[nfa] = a->shape[i];
            fa[nfa++] = i;
        }
    for (int i = 0; i < b->ndim; i++)
        if (i != xb) {
            shb[nfb] = b->shape[i];
            fb[nfb++] = i;
        }
    if ((st = em_shape_broadcast(nfa, sha, nfb, shb, &nd, shape)) != EM_OK)
        return em_error(st,
                        "vecdot: shapes %s and %s could not be broadcast "
                        "together outside axis %d",
                        em_shape_format(a->ndim, a->shape, b1, sizeof b1),
                        em_shape_format(b->ndim, b->shape, b2, sizeof b2),
                        axis);
    if ((st = em_dtype_promote(a->dtype, b->dtype, &t)) != EM_OK)
        return st;
    plan_init(&p);
    for (int i = 0; i < nd; i++) {
        int ia = i - (nd - nfa), ib = i - (nd - nfb);
        plan_batch(&p, shape[i], ia >= 0 ? fa[ia] : -1, ib >= 0 ? fb[ib] : -1);
    }
    p.ka = xa;
    p.kb = xb;
    p.K = a->shape[xa];
    return run_plan("vecdot", &p, a, b, t, 1, 0, out, s);
}
