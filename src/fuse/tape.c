/* ember fuse: tapes, so that a fused function's later calls rebuild its
 * group without running its Python body (include/ember/fuse.h).
 *
 * A tape is a snapshot of the open group (nodes, leaves' layouts, scalar
 * values), which argument each leaf is, which node or reduction each
 * output is, and the one reduction of a pending node, if any. It is
 * taken only when nothing but recording happened during the body:
 *  - no group ran (em_fz_runs) but inside the reduction (on the host it
 *    runs the group, and so will the replay's), so no node was computed
 *    early and nothing of the body's was read;
 *  - none of this thread's guards took the slow path outside a fused
 *    launch (em_fz_tape_guarded): any launch, copy or host read would
 *    have, since em_fuse_taping sends every guard there;
 *  - at most one em_reduce ran, over a pending node, and it fused;
 *  - every leaf is one of the arguments as passed, every output a
 *    pending node's whole result or the reduction's.
 * Replaying is then exactly the body's effect: the same group over the
 * new arguments (the same kernel, from the kernel table) and the same
 * em_reduce call over its node. */
#include <stdlib.h>
#include <string.h>

#include "ember/reduce.h"
#include "fuse/fuse_internal.h"

#define OUT_REDUCTION (-1)

typedef struct tape_arg {
    em_device *dev;
    em_dtype dtype;
    int ndim, same_as; /* same_as: the first earlier identical view, or -1 */
    int64_t shape[EM_MAX_NDIM], strides[EM_MAX_NDIM];
} tape_arg;

struct em_fuse_tape {
    /* while taping */
    int broken, in_reduce;
    uint64_t runs0, gen, red_runs0;
    em_array red_res;          /* the reduction's result, held to know it */
    em_storage *leaf_sto[EM_FUSE_MAX_LEAVES];
    const char *leaf_data[EM_FUSE_MAX_LEAVES];

    /* the group, as em_fz_open held it */
    int nd, nnodes, nleaves, nscalars;
    int64_t shape[EM_MAX_NDIM], n;
    fz_node node[EM_FUSE_MAX_NODES];   /* out, out_data cleared */
    int64_t leaf_st[EM_FUSE_MAX_LEAVES][EM_MAX_NDIM];
    em_dtype leaf_dt[EM_FUSE_MAX_LEAVES];
    int leaf_arg[EM_FUSE_MAX_LEAVES];
    unsigned char sval[2 * EM_FUSE_MAX_NODES][16];
    em_dtype sdt[2 * EM_FUSE_MAX_NODES];

    /* the reduction of node red_target, if has_red */
    int has_red, red_op, red_target;
    em_reduce_args red_args;
    int red_axes[EM_MAX_NDIM];

    int nargs, nouts;
    tape_arg arg[EM_FUSE_TAPE_MAX_ARGS];
    int out[EM_FUSE_TAPE_MAX_OUTS];    /* a node index or OUT_REDUCTION */
};

_Thread_local em_fuse_tape *em_fuse_tl_tape;

int em_fuse_tape_nouts(const em_fuse_tape *t) { return t->nouts; }

int em_fuse_tape_same_out(const em_fuse_tape *t, int i)
{
    for (int k = 0; k < i; k++)
        if (t->out[k] == t->out[i])
            return k;
    return i;
}

void em_fuse_tape_free(em_fuse_tape *t) { free(t); }

/* What em_reduce does inside is part of the call a replay repeats (on the
 * host it runs the group first, then reduces the stored result). */
void em_fz_tape_guarded(void)
{
    if (!em_fuse_tl_tape->in_reduce)
        em_fuse_tl_tape->broken = 1;
}

/* Copies the open group into t (the lock held). */
static void snapshot(em_fuse_tape *t, const fz_group *g)
{
    t->nd = g->nd;
    memcpy(t->shape, g->shape, sizeof t->shape);
    t->n = g->n;
    t->nnodes = g->nnodes;
    t->nleaves = g->nleaves;
    t->nscalars = g->nscalars;
    memcpy(t->node, g->node, (size_t)g->nnodes * sizeof *g->node);
    for (int i = 0; i < g->nnodes; i++) {
        t->node[i].out = NULL;
        t->node[i].out_data = NULL;
    }
    for (int j = 0; j < g->nleaves; j++) {
        t->leaf_sto[j] = g->leaf[j].storage;
        t->leaf_data[j] = g->leaf[j].data;
        t->leaf_dt[j] = g->leaf[j].dtype;
        memcpy(t->leaf_st[j], g->leaf_st[j], sizeof t->leaf_st[j]);
    }
    memcpy(t->sval, g->sval, (size_t)g->nscalars * sizeof *g->sval);
    memcpy(t->sdt, g->sdt, (size_t)g->nscalars * sizeof *g->sdt);
    t->gen = em_fz_gen;
}

em_status em_fuse_tape_begin(void)
{
    em_fuse_tape *t;
    int busy;
    if (em_fuse_tl_tape)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_fuse_tape_begin: this thread is already taping");
    if (!(t = calloc(1, sizeof *t)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "em_fuse_tape_begin: no memory");
    em_fz_lock();
    busy = em_fz_open.nnodes != 0 ||
           atomic_load_explicit(&em_fuse_pending_n, memory_order_relaxed) != 0;
    t->runs0 = em_fz_runs;
    em_fz_unlock();
    if (busy) {
        free(t);
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_fuse_tape_begin: a group is open (flush first)");
    }
    em_fuse_tl_tape = t;
    atomic_fetch_add_explicit(&em_fuse_taping, 1, memory_order_relaxed);
    return EM_OK;
}

void em_fuse_tape_reduce_begin(int op, const em_array *a,
                               const em_reduce_args *args, const em_array *out)
{
    em_fuse_tape *t = em_fuse_tl_tape;
    fz_group *g = &em_fz_open;
    fz_node *n;
    if (t->broken)
        return;
    /* one reduction, into a new array, of a pending node of the group */
    if (t->has_red || out->storage || !a->storage ||
        (args->naxes && (args->naxes > EM_MAX_NDIM || !args->axes))) {
        t->broken = 1;
        return;
    }
    em_fz_lock();
    n = atomic_load_explicit(&a->storage->fuse_node, memory_order_relaxed);
    if (!n || n < g->node || n >= g->node + g->nnodes) {
        t->broken = 1;
    } else {
        snapshot(t, g);
        t->has_red = 1;
        t->red_op = op;
        t->red_target = (int)(n - g->node);
        t->red_args = *args;
        if (args->naxes)
            memcpy(t->red_axes, args->axes,
                   (size_t)args->naxes * sizeof *args->axes);
        t->red_args.axes = NULL;
        t->red_runs0 = em_fz_runs;
        t->in_reduce = 1;
    }
    em_fz_unlock();
}

void em_fuse_tape_reduce_end(em_status st, const em_array *out)
{
    em_fuse_tape *t = em_fuse_tl_tape;
    if (t->broken || !t->has_red || t->red_res.storage)
        return;
    t->in_reduce = 0;
    em_fz_lock();
    t->runs0 += em_fz_runs - t->red_runs0;
    em_fz_unlock();
    if (st != EM_OK)
        t->broken = 1;
    else
        em_array_retain(out, &t->red_res);
}

static int same_layout(const em_array *a, const em_array *b)
{
    return a->dtype == b->dtype && a->ndim == b->ndim &&
           !memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof *a->shape) &&
           !memcmp(a->strides, b->strides,
                   (size_t)a->ndim * sizeof *a->strides);
}

static int same_view(const em_array *a, const em_array *b)
{
    return a->storage == b->storage && a->data == b->data && same_layout(a, b);
}

/* Which output t's output i is (OUT_REDUCTION or a node), or -2 for none;
 * the lock held, the group being t's. */
static int which_out(const em_fuse_tape *t, const fz_group *g,
                     const em_array *o)
{
    fz_node *n;
    if (t->has_red && same_view(o, &t->red_res))
        return OUT_REDUCTION;
    if (!o->storage)
        return -2;
    n = atomic_load_explicit(&o->storage->fuse_node, memory_order_relaxed);
    if (!n || n < g->node || n >= g->node + g->nnodes ||
        o->data != n->out_data || o->dtype != (em_dtype)n->d.out ||
        o->ndim != t->nd ||
        memcmp(o->shape, t->shape, (size_t)t->nd * sizeof *o->shape) ||
        !(o->flags & EM_ARRAY_C_CONTIGUOUS))
        return -2;
    return (int)(n - g->node);
}

/* Whether the group (the lock held) is still the one t snapshot, whole. */
static int group_is_snapshot(const em_fuse_tape *t, const fz_group *g)
{
    return g->nnodes == t->nnodes && em_fz_gen == t->gen;
}

static int take(em_fuse_tape *t, const em_array *const *args, int nargs,
                const em_array *const *outs, int nouts)
{
    fz_group *g = &em_fz_open;
    int ok = 1;

    if (t->broken || nargs < 1 || nargs > EM_FUSE_TAPE_MAX_ARGS || nouts < 1 ||
        nouts > EM_FUSE_TAPE_MAX_OUTS)
        return 0;
    em_fz_lock();
    if (em_fz_runs != t->runs0)
        ok = 0;
    else if (t->has_red)
        /* afterwards the group is gone (its results were dropped) or is
         * still exactly what the reduction saw */
        ok = g->nnodes == 0 || group_is_snapshot(t, g);
    else if (g->nnodes == 0)
        ok = 0;
    else
        snapshot(t, g);
    for (int i = 0; ok && i < nouts; i++) {
        int w = which_out(t, g, outs[i]);
        /* a node's result is an output only of a group still open */
        ok = w == OUT_REDUCTION || (w >= 0 && group_is_snapshot(t, g));
        t->out[i] = w;
    }
    em_fz_unlock();
    t->nouts = nouts;
    /* every leaf is an argument, as passed */
    for (int j = 0; ok && j < t->nleaves; j++) {
        t->leaf_arg[j] = -1;
        for (int i = 0; i < nargs && t->leaf_arg[j] < 0; i++) {
            const em_array *a = args[i];
            int64_t st[EM_MAX_NDIM];
            if (a->storage != t->leaf_sto[j] || a->data != t->leaf_data[j] ||
                a->dtype != t->leaf_dt[j] || a->ndim > t->nd)
                continue;
            em_layout_broadcast_strides(a->ndim, a->shape, a->strides, t->nd,
                                        t->shape, st);
            if (!memcmp(st, t->leaf_st[j], (size_t)t->nd * sizeof *st))
                t->leaf_arg[j] = i;
        }
        ok = t->leaf_arg[j] >= 0;
    }
    ok = ok && t->nleaves > 0;
    t->nargs = nargs;
    for (int i = 0; ok && i < nargs; i++) {
        tape_arg *r = &t->arg[i];
        const em_array *a = args[i];
        r->dev = a->device;
        r->dtype = a->dtype;
        r->ndim = a->ndim;
        memcpy(r->shape, a->shape, sizeof r->shape);
        memcpy(r->strides, a->strides, sizeof r->strides);
        r->same_as = -1;
        for (int k = 0; k < i && r->same_as < 0; k++)
            if (same_view(a, args[k]))
                r->same_as = k;
    }
    return ok;
}

void em_fuse_tape_end(const em_array *const *args, int nargs,
                      const em_array *const *outs, int nouts,
                      em_fuse_tape **tape)
{
    em_fuse_tape *t = em_fuse_tl_tape;
    int ok;
    *tape = NULL;
    if (!t)
        return;
    em_fuse_tl_tape = NULL;
    atomic_fetch_sub_explicit(&em_fuse_taping, 1, memory_order_relaxed);
    ok = args && take(t, args, nargs, outs, nouts);
    em_array_release(&t->red_res);
    memset(&t->red_res, 0, sizeof t->red_res);
    if (ok)
        *tape = t;
    else
        free(t);
}

/* Whether args are laid out and aliased as t's were, on one device, with
 * nothing pending or failed in them. */
static int args_match(const em_fuse_tape *t, const em_array *const *args,
                      int nargs)
{
    if (nargs != t->nargs)
        return 0;
    for (int i = 0; i < nargs; i++) {
        const tape_arg *r = &t->arg[i];
        const em_array *a = args[i];
        int same = -1;
        if (!a->storage || a->device != r->dev || a->dtype != r->dtype ||
            a->ndim != r->ndim ||
            memcmp(a->shape, r->shape, (size_t)a->ndim * sizeof *a->shape) ||
            memcmp(a->strides, r->strides,
                   (size_t)a->ndim * sizeof *a->strides) ||
            !a->storage->owned ||
            atomic_load_explicit(&a->storage->fuse_node, memory_order_relaxed) ||
            atomic_load_explicit(&a->storage->fuse_failed, memory_order_relaxed))
            return 0;
        for (int k = 0; k < i && same < 0; k++)
            if (same_view(a, args[k]))
                same = k;
        if (same != r->same_as)
            return 0;
    }
    return 1;
}

em_status em_fuse_replay(const em_fuse_tape *t, const em_array *const *args,
                         int nargs, em_array *outs, int *done)
{
    fz_group *g = &em_fz_open;
    em_array node_arr[EM_FUSE_MAX_NODES], res;
    unsigned char made[EM_FUSE_MAX_NODES] = {0};
    em_device *dev;
    em_stream *s;
    em_status st = EM_OK;
    int busy;

    *done = 0;
    if (!args_match(t, args, nargs))
        return EM_OK;
    dev = args[t->leaf_arg[0]]->device;
    if (!(s = em_arr_stream(dev, NULL, "ember.fuse")))
        return EM_ERR_INVALID_VALUE;
    /* the arrays the group writes or the reduction reads, made as the
     * body's operations made them */
    for (int i = 0; i < t->nouts + t->has_red && st == EM_OK; i++) {
        int k = i < t->nouts ? t->out[i] : t->red_target;
        if (k < 0 || made[k])
            continue;
        st = em_arr_empty_deferred(dev, (em_dtype)t->node[k].d.out, t->nd,
                                   t->shape, s, &node_arr[k]);
        made[k] = st == EM_OK;
    }
    em_fz_lock();
    busy = st != EM_OK || g->nnodes != 0 ||
           atomic_load_explicit(&em_fuse_pending_n, memory_order_relaxed) != 0;
    if (!busy) {
        em_fz_gen++;
        g->dev = dev;
        g->s = s;
        g->nd = t->nd;
        memcpy(g->shape, t->shape, sizeof g->shape);
        g->n = t->n;
        memcpy(g->node, t->node, (size_t)t->nnodes * sizeof *t->node);
        for (int k = 0; k < t->nnodes; k++)
            if (made[k]) {
                g->node[k].out = node_arr[k].storage;
                g->node[k].out_data = node_arr[k].data;
                atomic_store_explicit(&node_arr[k].storage->fuse_node,
                                      &g->node[k], memory_order_relaxed);
            }
        for (int j = 0; j < t->nleaves; j++) {
            em_array_retain(args[t->leaf_arg[j]], &g->leaf[j]);
            memcpy(g->leaf_st[j], t->leaf_st[j], sizeof g->leaf_st[j]);
        }
        memcpy(g->sval, t->sval, (size_t)t->nscalars * sizeof *t->sval);
        memcpy(g->sdt, t->sdt, (size_t)t->nscalars * sizeof *t->sdt);
        g->nleaves = t->nleaves;
        g->nscalars = t->nscalars;
        g->nnodes = t->nnodes;
        atomic_store_explicit(&em_fuse_pending_n, g->nnodes,
                              memory_order_relaxed);
    }
    em_fz_unlock();
    memset(&res, 0, sizeof res);
    if (!busy && t->has_red) {
        em_reduce_args ra = t->red_args;
        ra.axes = ra.naxes ? t->red_axes : NULL;
        st = em_reduce((em_reduce_op)t->red_op, &node_arr[t->red_target], &ra,
                       &res, NULL);
    }
    for (int i = 0; i < t->nouts && !busy && st == EM_OK; i++)
        if (em_fuse_tape_same_out(t, i) == i)
            em_array_retain(t->out[i] == OUT_REDUCTION ? &res
                                                       : &node_arr[t->out[i]],
                            &outs[i]);
    /* what the body dropped is dropped now (a group none of whose results
     * is referenced goes with its last one) */
    for (int k = 0; k < t->nnodes; k++)
        if (made[k])
            em_array_release(&node_arr[k]);
    em_array_release(&res);
    if (st != EM_OK)
        return st;
    *done = !busy;
    return EM_OK;
}
