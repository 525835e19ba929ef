/* ember ufuncs: em_ufunc_apply, from operands to one launch.
 *
 * Checks (devices, shapes, dtypes, casting), then the layout: when every
 * array is contiguous in one order with the full shape, a flat loop;
 * otherwise axes of extent 1 are dropped, axes are ordered by the
 * output's strides, neighbours that are contiguous with each other in
 * every operand are merged, and the kernel indexes the rest. The kernel
 * comes from the generator's per-device table by descriptor; scalars are
 * cast to their loop dtype here and passed by value.
 *
 * An input that overlaps the output other than element-for-element (a
 * shifted view of the same memory) is first copied, so results are as if
 * all inputs were read before any output was written, as NumPy does.
 */
#include <string.h>

#include "array/array_internal.h"
#include "array/ufunc_internal.h"
#include "codegen/ewise.h"
#include "core/layout.h"
#include "ember/profile.h"
#include "ember/reduce.h"
#include "fuse/fuse.h"

#define SHAPE_STR 768

typedef struct operand_view {
    const em_array *a;            /* NULL for a scalar */
    int64_t strides[EM_MAX_NDIM]; /* broadcast to the call's shape */
} operand_view;

static em_status check_array(const em_array *a, const char *what,
                             em_device **dev, const char **dev_what)
{
    em_status st = em_arr_check(a, what);
    if (st != EM_OK)
        return st;
    if (!*dev) {
        *dev = a->device;
        *dev_what = what;
    } else if (a->device != *dev) {
        return em_error(
            EM_ERR_INVALID_VALUE,
            "operands are on different devices: %s "
            "is on %s and %s on %s (ember does not copy between devices "
            "implicitly)",
            *dev_what, em_device_name(*dev), what, em_device_name(a->device));
    }
    return EM_OK;
}

/* Strides of a laid out against the call's shape. */
static void broadcast_strides(const em_array *a, int nd, const int64_t *shape,
                              int64_t *out)
{
    em_layout_broadcast_strides(a->ndim, a->shape, a->strides, nd, shape, out);
}

/* Whether input a (strides a_st against the call's shape) must be copied
 * before out is written. */
static int needs_copy(const em_array *out, const int64_t *out_st,
                      const em_array *a, const int64_t *a_st, int nd,
                      const int64_t *shape)
{
    em_layout_mem o = {out->data, nd, shape, out_st,
                       (int64_t)em_dtype_size(out->dtype)};
    em_layout_mem i = {a->data, nd, shape, a_st,
                       (int64_t)em_dtype_size(a->dtype)};
    if (!em_layout_overlap(&o, &i))
        return 0;
    /* Element for element (each output element read from exactly where it
     * is written, as in `x += 1`) is safe: a thread reads before it
     * writes, and nobody else touches that element. */
    if (out->data == a->data &&
        em_dtype_size(out->dtype) == em_dtype_size(a->dtype) &&
        !memcmp(out_st, a_st, (size_t)nd * sizeof *out_st))
        return 0;
    return 1;
}

/* ---- layout ------------------------------------------------------------ */

typedef struct layout {
    int nd;
    int64_t shape[EM_MAX_NDIM];
    int64_t st[EM_GEN_SLOTS][EM_MAX_NDIM];
    int used[EM_GEN_SLOTS];
} layout;

/* Drop extent-1 axes, order axes by the output's stride (outermost
 * first) so the innermost loop walks the output's memory in order, merge
 * axes contiguous with their inner neighbour in every operand. Leaves at
 * least one axis. */
static void collapse(layout *L)
{
    L->nd = em_layout_collapse(L->nd, L->shape, EM_GEN_SLOTS, L->st, L->used,
                               EM_GEN_SLOT_OUT, 1);
    if (L->nd == 0) {
        L->nd = 1;
        L->shape[0] = 1;
        for (int s = 0; s < EM_GEN_SLOTS; s++)
            L->st[s][0] = 0;
    }
}

static int all_contiguous(const em_array *out, const operand_view *v, int nin,
                          const em_array *where, unsigned flag)
{
    if (!(out->flags & flag))
        return 0;
    for (int k = 0; k < nin; k++)
        if (v[k].a && (!(v[k].a->flags & flag) || v[k].a->size != out->size))
            return 0;
    return !where || ((where->flags & flag) && where->size == out->size);
}

/* Elements per vector access: 16 bytes of the widest operand, halved
 * until every array's pointer is aligned to its own vector. */
static int vector_width(const em_gen_ewise *d, const em_gen_ewise_call *c,
                        int nin)
{
    size_t widest = em_dtype_size((em_dtype)d->out);
    int vw;
    for (int k = 0; k < nin; k++)
        if (d->src[k] != EM_GEN_SCALAR &&
            em_dtype_size((em_dtype)d->src[k]) > widest)
            widest = em_dtype_size((em_dtype)d->src[k]);
    for (vw = (int)(16 / widest); vw > 1; vw /= 2) {
        int ok = (uintptr_t)c->ptr[EM_GEN_SLOT_OUT] %
                     (vw * em_dtype_size((em_dtype)d->out)) ==
                 0;
        for (int k = 0; k < nin && ok; k++)
            if (d->src[k] != EM_GEN_SCALAR)
                ok = (uintptr_t)c->ptr[EM_GEN_SLOT_IN0 + k] %
                         (vw * em_dtype_size((em_dtype)d->src[k])) ==
                     0;
        if (ok)
            break;
    }
    return vw < 1 ? 1 : vw;
}

/* The element size of an operand slot of d. */
static int64_t slot_size(const em_gen_ewise *d, int s)
{
    em_dtype dt = s == EM_GEN_SLOT_OUT ? (em_dtype)d->out
                  : s == EM_GEN_SLOT_MASK
                      ? EM_BOOL
                      : (em_dtype)d->src[s - EM_GEN_SLOT_IN0];
    return (int64_t)em_dtype_size(dt);
}

/* Two axes, the output running along the inner one and some input along
 * the outer one (x.T + y, ascontiguousarray(x.T)): on the GPU such an
 * input goes through shared-memory tiles, else every warp's loads of it
 * would touch 32 rows. Marks those inputs and switches d to the tiled
 * layout. */
static int runs_along_outer(const layout *L, const em_gen_ewise *d, int s)
{
    int64_t size = slot_size(d, s), s0 = L->st[s][0], s1 = L->st[s][1];
    return L->used[s] && (s0 == size || s0 == -size) && s1 != size && s1 != 0;
}

/* Pairs of 2-byte elements as 32-bit words (see emit_tiled_pairs_cuda):
 * every operand 2 bytes wide, even extents, 4-byte aligned pointers and
 * row steps, the tiled inputs stepping one element along axis 0 and the
 * others one element along axis 1. */
static int tile_pairs(const layout *L, const em_gen_ewise *d,
                      const em_gen_ewise_call *c)
{
    if (d->where || L->shape[0] % 2 || L->shape[1] % 2)
        return 0;
    for (int s = 0; s < EM_GEN_SLOTS; s++) {
        int t = d->inner[s] == EM_GEN_INNER_TILE;
        if (!L->used[s])
            continue;
        if (slot_size(d, s) != 2 || (uintptr_t)c->ptr[s] % 4 ||
            L->st[s][t ? 0 : 1] != 2 || L->st[s][t ? 1 : 0] % 4)
            return 0;
    }
    return 1;
}

static int use_tiles(const layout *L, em_gen_ewise *d,
                     const em_gen_ewise_call *c)
{
    int tiled[2];
    if (L->nd != 2 ||
        L->st[EM_GEN_SLOT_OUT][1] != slot_size(d, EM_GEN_SLOT_OUT) ||
        (L->shape[0] + 31) / 32 > 65535 || L->shape[0] < 2 || L->shape[1] < 2)
        return 0;
    tiled[0] = runs_along_outer(L, d, EM_GEN_SLOT_IN0);
    tiled[1] = runs_along_outer(L, d, EM_GEN_SLOT_IN1);
    if (!tiled[0] && !tiled[1])
        return 0;
    d->layout = EM_GEN_TILED;
    for (int s = 0; s < EM_GEN_SLOTS; s++)
        d->inner[s] = 0;
    for (int k = 0; k < 2; k++)
        if (tiled[k])
            d->inner[EM_GEN_SLOT_IN0 + k] = EM_GEN_INNER_TILE;
    if (tile_pairs(L, d, c))
        d->vec = 2;
    return 1;
}

/* Strided on the GPU: vectors along the last axis when every operand
 * steps it by one element or not at all (a row plus a broadcast column or
 * scalar), the extent divides, and every row of every unit operand starts
 * on its vector's alignment. */
static int strided_vector_width(const layout *L, const em_gen_ewise *d,
                                const em_gen_ewise_call *c)
{
    int last = L->nd - 1, vw;
    int64_t widest = 1, size[EM_GEN_SLOTS];
    for (int s = 0; s < EM_GEN_SLOTS; s++) {
        if (!L->used[s])
            continue;
        size[s] = slot_size(d, s);
        if (d->inner[s] == EM_GEN_INNER_ANY ||
            (s == EM_GEN_SLOT_OUT && d->inner[s] != EM_GEN_INNER_UNIT))
            return 1;
        if (size[s] > widest)
            widest = size[s];
    }
    for (vw = (int)(16 / widest); vw > 1; vw /= 2) {
        int ok = L->shape[last] % vw == 0;
        for (int s = 0; s < EM_GEN_SLOTS && ok; s++) {
            int64_t al = vw * size[s];
            if (!L->used[s] || d->inner[s] != EM_GEN_INNER_UNIT)
                continue;
            ok = (uintptr_t)c->ptr[s] % (uintptr_t)al == 0;
            for (int i = 0; i < last && ok; i++)
                ok = L->st[s][i] % al == 0;
        }
        if (ok)
            break;
    }
    return vw;
}

/* GPU loads need each element on its component's alignment. */
static em_status check_alignment(const em_array *a, const char *what)
{
    size_t al = em_dtype_get(a->dtype)->align;
    if (a->size == 0)
        return EM_OK;
    if ((uintptr_t)a->data % al)
        return em_error(EM_ERR_NOT_SUPPORTED,
                        "%s (%s) is not aligned to %zu bytes, "
                        "which the GPU needs: copy it first",
                        what, em_dtype_get(a->dtype)->name, al);
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] > 1 && a->strides[i] % (int64_t)al)
            return em_error(
                EM_ERR_NOT_SUPPORTED,
                "%s (%s) has a stride of %lld bytes, "
                "not a multiple of its %zu-byte alignment, which the GPU "
                "needs: copy it first",
                what, em_dtype_get(a->dtype)->name, (long long)a->strides[i],
                al);
    return EM_OK;
}

/* ---- the entry point --------------------------------------------------- */

static int is_signed_int(em_dtype d)
{
    return em_dtype_get(d)->kind_id == EM_KIND_INT;
}

static em_status launch(em_op op, const operand_view *v, int nin,
                        const em_dtype *loop_in, em_dtype loop_out,
                        em_array *out, const em_array *where,
                        const em_operand *in, int nd, const int64_t *shape,
                        em_stream *s)
{
    em_device *dev = out->device;
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    em_gen_ewise d;
    em_gen_ewise_call call, *c = &call;
    em_function *fn;
    em_status st;
    layout L;
    int contig;

    memset(&d, 0, sizeof d);
    memset(c, 0, sizeof *c);
    d.op = (uint8_t)op;
    d.out = (uint8_t)out->dtype;
    d.loop_out = (uint8_t)loop_out;
    d.where = where != NULL;
    d.vec = 1;
    d.ndim = 1;
    c->n = out->size;
    c->ptr[EM_GEN_SLOT_OUT] = out->data;
    for (int k = 0; k < nin; k++) {
        d.loop_in[k] = (uint8_t)loop_in[k];
        if (v[k].a) {
            d.src[k] = (uint8_t)v[k].a->dtype;
            c->ptr[EM_GEN_SLOT_IN0 + k] = v[k].a->data;
        } else {
            d.src[k] = EM_GEN_SCALAR;
            em_scalar_cast(&in[k].value, in[k].dtype, c->scalar[k], loop_in[k]);
        }
    }
    if (where)
        c->ptr[EM_GEN_SLOT_MASK] = where->data;

    contig = all_contiguous(out, v, nin, where, EM_ARRAY_C_CONTIGUOUS) ||
             all_contiguous(out, v, nin, where, EM_ARRAY_F_CONTIGUOUS);
    if (contig) {
        d.layout = EM_GEN_CONTIG;
        d.idx64 = !cuda || !em_layout_fits32(0, NULL, 0, NULL, NULL, c->n, 0);
        if (cuda && !where)
            d.vec = (uint8_t)vector_width(&d, c, nin);
    } else {
        memset(&L, 0, sizeof L);
        L.nd = nd;
        memcpy(L.shape, shape, (size_t)nd * sizeof *shape);
        memcpy(L.st[EM_GEN_SLOT_OUT], out->strides, (size_t)nd * sizeof *shape);
        L.used[EM_GEN_SLOT_OUT] = 1;
        for (int k = 0; k < nin; k++)
            if (v[k].a) {
                memcpy(L.st[EM_GEN_SLOT_IN0 + k], v[k].strides,
                       (size_t)nd * sizeof *shape);
                L.used[EM_GEN_SLOT_IN0 + k] = 1;
            }
        if (where) {
            broadcast_strides(where, nd, shape, L.st[EM_GEN_SLOT_MASK]);
            L.used[EM_GEN_SLOT_MASK] = 1;
        }
        collapse(&L);
        d.layout = EM_GEN_STRIDED;
        d.ndim = (uint8_t)L.nd;
        /* bounds every partial offset the strided kernel computes */
        d.idx64 = !cuda || !em_layout_fits32(L.nd, L.shape, EM_GEN_SLOTS,
                                             (const int64_t(*)[EM_MAX_NDIM])L.st,
                                             L.used, c->n, 0);
        for (int s2 = 0; s2 < EM_GEN_SLOTS; s2++) {
            int64_t last;
            if (!L.used[s2])
                continue;
            last = L.st[s2][L.nd - 1];
            d.inner[s2] = last == 0                   ? EM_GEN_INNER_ZERO
                          : last == slot_size(&d, s2) ? EM_GEN_INNER_UNIT
                                                      : EM_GEN_INNER_ANY;
        }
        /* The tiled kernel keeps the index width chosen above. */
        if (cuda && !use_tiles(&L, &d, c) && !where)
            d.vec = (uint8_t)strided_vector_width(&L, &d, c);
        c->ndim = L.nd;
        memcpy(c->shape, L.shape, sizeof c->shape);
        memcpy(c->strides, L.st, sizeof c->strides);
    }

    /* em_launch copies the arguments, so the call may live here. */
    st = em_gen_ewise_function(dev, &d, &fn);
    if (st == EM_OK) {
        em_gen_ewise_pack(dev, &d, c);
        if (em_prof_on) /* "add float32" in a profile, not the kernel's name */
            em_prof_label(fn, em_op_get(op)->name, em_dtype_get(loop_in[0])->name);
        st = em_launch(fn, c->grid, c->block, 0, s, c->args);
    }
    return st;
}

/* NumPy refuses integer powers with a negative integer exponent, which
 * for an array exponent means looking at every element before computing:
 * one min-reduction over the exponent and a read of its one-element
 * result (which waits for the stream). Only signed integer exponents pay
 * it; unsigned and bool ones cannot be negative. */
static em_status check_negative_exponent(const em_array *e, em_stream *on)
{
    em_reduce_args args;
    em_array m;
    unsigned char bytes[16];
    int64_t v = 0;
    em_status st;
    if (e->size == 0)
        return EM_OK;
    memset(&args, 0, sizeof args);
    memset(&m, 0, sizeof m);
    st = em_reduce(EM_RED_MIN, e, &args, &m, on);
    if (st == EM_OK)
        st = em_array_to_host(&m, bytes, NULL, on);
    em_array_release(&m);
    if (st != EM_OK)
        return st;
    em_scalar_cast(bytes, e->dtype, &v, EM_INT64);
    if (v < 0)
        return em_error(EM_ERR_INVALID_VALUE,
                        "Integers to negative integer powers are not allowed.");
    return EM_OK;
}

/* Records instead of launching where fusion may (src/fuse/fuse.h):
 * EM_ERR_NOT_SUPPORTED when it may not. */
static em_status record(em_op op, const operand_view *v, int nin,
                        const em_dtype *loop_in, em_dtype loop_out,
                        em_array *out, const em_operand *in, int nd,
                        const int64_t *shape, em_stream *s, int nowait)
{
    const em_array *ins[2];
    int64_t str[2][EM_MAX_NDIM];
    unsigned char sv[2][16];
    for (int k = 0; k < nin; k++) {
        ins[k] = v[k].a;
        if (v[k].a)
            memcpy(str[k], v[k].strides, (size_t)nd * sizeof *str[k]);
        else
            em_scalar_cast(&in[k].value, in[k].dtype, sv[k], loop_in[k]);
    }
    return em_fuse_record(op, ins, (const int64_t(*)[EM_MAX_NDIM])str,
                          (const unsigned char(*)[16])sv, loop_in, loop_out,
                          nin, out, nd, shape, s, nowait);
}

/* Eager work reads its inputs' memory: an input that is a pending fused
 * result (its storage deferred, data NULL: src/fuse/fuse.h) has its group
 * run, which gives it memory, and is read through a copy whose data is
 * filled in (local[k]). */
static em_status settle_inputs(operand_view *v, int nin, em_array *local)
{
    int pending = 0;
    em_status st;
    for (int k = 0; k < nin; k++)
        if (v[k].a && !v[k].a->data && v[k].a->storage &&
            v[k].a->storage->deferred)
            pending |= !em_arr_storage_base(v[k].a->storage);
    if (pending && (st = em_fuse_flush()) != EM_OK)
        return st;
    for (int k = 0; k < nin; k++)
        if (v[k].a && !v[k].a->data && v[k].a->storage) {
            local[k] = *v[k].a;
            em_array_settle_slow(&local[k]);
            v[k].a = &local[k];
        }
    return EM_OK;
}

/* may_record: 0 launches (em_ufunc_apply), 1 may record
 * (em_ufunc_apply_lazy), TRY records without waiting or nothing is done
 * and *blocked is set (em_ufunc_apply_try). */
#define TRY 2
static em_status apply(em_op op, const em_operand *in, int nin, em_array *out,
                       const em_array *where, em_stream *s, int may_record,
                       int *blocked)
{
    static const char *const in_names[2] = {"input 0", "input 1"};
    const em_op_info *info = em_op_get(op);
    em_device *dev = NULL;
    const char *dev_what = NULL;
    em_dtype loop_in[2] = {EM_BOOL, EM_BOOL}, loop_out;
    operand_view v[2];
    em_array tmp[3], settled[2];
    int nd = 0, made_out = 0, ntmp = 0, in_nd[2], fz, neg_check, recorded = 0;
    int64_t shape[EM_MAX_NDIM], out_st[EM_MAX_NDIM], size = 1;
    const int64_t *in_shape[2];
    em_stream *on = NULL;
    em_status st;
    char b1[SHAPE_STR], b2[SHAPE_STR];

    if (!info)
        return em_error(EM_ERR_INVALID_VALUE, "em_ufunc_apply: invalid op %d",
                        (int)op);
    if (nin != info->nin || !in || !out)
        return em_error(EM_ERR_INVALID_VALUE, "ufunc '%s': %s", info->name,
                        nin != info->nin ? "wrong number of inputs"
                        : !in            ? "inputs are NULL"
                                         : "out is NULL");
    /* Whether a new result may be recorded: asked once (a thread-local
     * read, which a shared library pays a __tls_get_addr call for). A try
     * that cannot record goes back to its caller as early as it can tell,
     * so eager work does little of itself twice. */
    fz = may_record && !where && !out->storage && em_fuse_enabled();
    if (may_record == TRY && !fz) {
        *blocked = 1;
        return EM_OK;
    }
    for (int k = 0; k < nin; k++)
        if (in[k].array &&
            (st = check_array(in[k].array, in_names[k], &dev, &dev_what)))
            return st;
    if (out->storage && (st = check_array(out, "the output", &dev, &dev_what)))
        return st;
    if (where && (st = check_array(where, "where", &dev, &dev_what)))
        return st;
    if (where && where->dtype != EM_BOOL)
        return em_error(EM_ERR_TYPE,
                        "ufunc '%s': where= must be a bool array, not %s",
                        info->name, em_dtype_get(where->dtype)->name);
    if (!dev && (st = em_current_device(&dev)) != EM_OK)
        return st;

    /* The call's shape: the inputs' (and the mask's) broadcast, which the
     * output must equal. */
    for (int k = 0; k < nin; k++) {
        in_nd[k] = in[k].array ? in[k].array->ndim : 0;
        in_shape[k] = in[k].array ? in[k].array->shape : NULL;
    }
    if ((st = em_layout_broadcast(nin, in_nd, in_shape, &nd, shape)) != EM_OK)
        return em_error(
            st, "ufunc '%s': operands could not be broadcast together: %s",
            info->name, em_last_error());
    if (where && (st = em_shape_broadcast(nd, shape, where->ndim, where->shape,
                                          &nd, shape)) != EM_OK)
        return em_error(
            st, "ufunc '%s': where= does not broadcast with the operands: %s",
            info->name, em_last_error());
    /* a new result's size (read only where there is no output given,
     * whose shape may extend this one's) */
    for (int k = 0; k < nd; k++)
        size *= shape[k];
    if (may_record == TRY) {
        if (size <= 0 || !em_fuse_size_ok(dev, size)) {
            *blocked = 1;
            return EM_OK;
        }
    }
    if (out->storage) {
        int n2;
        int64_t s2[EM_MAX_NDIM];
        st = em_shape_broadcast(nd, shape, out->ndim, out->shape, &n2, s2);
        if (st != EM_OK || n2 != out->ndim ||
            memcmp(s2, out->shape, (size_t)n2 * sizeof *s2))
            return em_error(
                EM_ERR_INVALID_VALUE,
                "ufunc '%s': non-broadcastable output "
                "operand with shape %s doesn't match the broadcast shape %s",
                info->name,
                em_shape_format(out->ndim, out->shape, b1, sizeof b1),
                em_shape_format(nd, shape, b2, sizeof b2));
        nd = out->ndim;
        memcpy(shape, out->shape, (size_t)nd * sizeof *shape);
    }

    /* Types. A copy keeps its input's dtype to the output (a fill casts
     * its scalar to the output's dtype here, once). */
    if (op == EM_OP_COPY) {
        if (in[0].array) {
            loop_in[0] = in[0].array->dtype;
        } else if (out->storage) {
            loop_in[0] = out->dtype;
            /* NumPy 2 refuses a Python int that its target cannot hold. */
            if ((st = em_ufunc_check_pyint(&in[0], out->dtype)) != EM_OK)
                return st;
        } else {
            st = em_ufunc_resolve_full(op, in, 1, loop_in, &loop_out);
            if (st != EM_OK)
                return st;
        }
        loop_out = loop_in[0];
    } else {
        st = em_ufunc_resolve_full(op, in, nin, loop_in, &loop_out);
        if (st == EM_OK)
            st = em_ufunc_check_supported(op, loop_in);
        if (st != EM_OK)
            return st;
    }
    if (op == EM_OP_POWER && !in[1].array && is_signed_int(loop_in[1])) {
        int64_t e = 0;
        em_scalar_cast(&in[1].value, in[1].dtype, &e, EM_INT64);
        if (e < 0)
            return em_error(
                EM_ERR_INVALID_VALUE,
                "Integers to negative integer powers are not allowed.");
    }

    /* an integer power of an array of signed exponents reads them */
    neg_check = op == EM_OP_POWER && in[1].array && is_signed_int(loop_in[1]) &&
                is_signed_int(in[1].array->dtype);
    if (may_record == TRY) {
        /* Only a result that will be recorded is made without waiting;
         * anything else (an eager launch, which may compile; the exponent
         * check, which reads the device) goes back to the caller before
         * any of it is made. */
        const em_array *ins[2] = {in[0].array, nin > 1 ? in[1].array : NULL};
        if (!em_fuse_may_record(dev, size, loop_in, loop_out, nin, ins) || neg_check) {
            *blocked = 1;
            return EM_OK;
        }
    }
    if (!(on = em_arr_stream(dev, s, info->name)))
        return EM_ERR_INVALID_VALUE;
    if (neg_check && (st = check_negative_exponent(in[1].array, on)) != EM_OK)
        return st;
    if (!out->storage) {
        /* A result that may be recorded gets its memory only when its
         * group runs, and only if it is still referenced then. */
        if (fz && size > 0)
            st = em_arr_empty_deferred(dev, loop_out, nd, shape, on, out);
        else
            st = em_array_empty(dev, loop_out, nd, shape, 'C', on, out);
        if (st != EM_OK)
            return st;
        made_out = 1;
    } else {
        if (!(out->flags & EM_ARRAY_WRITEABLE))
            return em_error(EM_ERR_INVALID_VALUE,
                            "ufunc '%s': output array is read-only",
                            info->name);
        if (op != EM_OP_COPY &&
            !em_dtype_can_cast(loop_out, out->dtype, EM_CASTING_SAME_KIND))
            return em_error(EM_ERR_TYPE,
                            "Cannot cast ufunc '%s' output from dtype('%s') "
                            "to dtype('%s') with casting rule 'same_kind'",
                            info->name, em_dtype_get(loop_out)->name,
                            em_dtype_get(out->dtype)->name);
    }
    if (out->size == 0)
        return EM_OK;

    /* The inputs as views of the call's shape; overlapping ones copied. */
    memcpy(out_st, out->strides, (size_t)nd * sizeof *out_st);
    for (int k = 0; k < nd; k++)
        if (shape[k] == 1)
            out_st[k] = 0;
    for (int k = 0; k < nin; k++)
        v[k].a = in[k].array;
    /* only a result made here may be recorded: otherwise this is eager
     * work, which reads its inputs (and may copy them) below */
    st = made_out && may_record && !where ? EM_OK
                                          : settle_inputs(v, nin, settled);
    for (int k = 0; k < nin && st == EM_OK; k++) {
        if (!v[k].a)
            continue;
        broadcast_strides(v[k].a, nd, shape, v[k].strides);
        /* a result made here overlaps nothing */
        if (!made_out && needs_copy(out, out_st, v[k].a, v[k].strides, nd, shape)) {
            st = em_arr_copy_new(v[k].a, v[k].a->dtype, on, &tmp[ntmp]);
            if (st == EM_OK) {
                v[k].a = &tmp[ntmp++];
                broadcast_strides(v[k].a, nd, shape, v[k].strides);
            }
        }
    }
    if (st == EM_OK && where) {
        int64_t wst[EM_MAX_NDIM];
        broadcast_strides(where, nd, shape, wst);
        if (!made_out && needs_copy(out, out_st, where, wst, nd, shape) &&
            (st = em_arr_copy_new(where, where->dtype, on, &tmp[ntmp])) ==
                EM_OK)
            where = &tmp[ntmp++];
    }
    if (st == EM_OK && em_device_get_type(dev) == EM_DEVICE_CUDA) {
        st = check_alignment(out, "the output");
        for (int k = 0; k < nin && st == EM_OK; k++)
            if (v[k].a)
                st = check_alignment(v[k].a, in_names[k]);
    }
    /* only a deferred result is recorded: it was made so because fusion
     * is on for this thread (fz) */
    if (st == EM_OK && may_record && made_out && !where && ntmp == 0 &&
        out->storage->deferred) {
        st = record(op, v, nin, loop_in, loop_out, out, in, nd, shape, on,
                    may_record == TRY);
        if (st == EM_ERR_NOT_SUPPORTED && may_record == TRY) {
            /* it would wait or launch: the caller retries lazily */
            em_array_release(out);
            *blocked = 1;
            return EM_OK;
        }
        recorded = st != EM_ERR_NOT_SUPPORTED;
        if (!recorded)
            st = EM_OK;
    }
    if (st == EM_OK && !recorded) {
        st = settle_inputs(v, nin, settled);
        if (st == EM_OK && !out->data && out->storage->deferred &&
            (st = em_arr_storage_materialize(out->storage)) == EM_OK)
            out->data = out->storage->base;
        if (st == EM_OK)
            st = launch(op, v, nin, loop_in, loop_out, out, where, in, nd,
                        shape, on);
    }
    for (int k = 0; k < ntmp; k++)
        em_array_release(&tmp[k]);
    if (st != EM_OK && made_out)
        em_array_release(out);
    return st;
}

em_status em_ufunc_apply(em_op op, const em_operand *in, int nin, em_array *out,
                         const em_array *where, em_stream *s)
{
    return apply(op, in, nin, out, where, s, 0, NULL);
}

em_status em_ufunc_apply_lazy(em_op op, const em_operand *in, int nin,
                              em_array *out, const em_array *where,
                              em_stream *s)
{
    return apply(op, in, nin, out, where, s, 1, NULL);
}

em_status em_ufunc_apply_try(em_op op, const em_operand *in, int nin,
                             em_array *out, int *done)
{
    int blocked = 0;
    em_status st = apply(op, in, nin, out, NULL, NULL, TRY, &blocked);
    *done = st == EM_OK && !blocked;
    return st;
}
