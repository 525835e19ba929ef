/* ember fuse: recording elementwise operations into the open group, and
 * running the group (fuse.h says when and why). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ember/util.h"
#include "fuse/fuse_internal.h"

/* On the cpu device a group over fewer elements runs op by op: a new
 * fused loop costs a C compile, which a few passes over a small array
 * never pay back. */
#define FZ_HOST_MIN_ELEMENTS 65536

static int64_t host_min(void)
{
    static int64_t v = -1;
    int64_t m = __atomic_load_n(&v, __ATOMIC_RELAXED);
    if (m < 0) {
        const char *t = em_knob_text(EM_KNOB_TEST_FUSION_HOST_MIN);
        m = t ? atoll(t) : FZ_HOST_MIN_ELEMENTS;
        __atomic_store_n(&v, m, __ATOMIC_RELAXED);
    }
    return m;
}

atomic_int em_fuse_pending_n;
atomic_int em_fuse_taping;
uint64_t em_fz_runs, em_fz_gen;
_Thread_local int em_fz_running;
fz_group em_fz_open;
pthread_mutex_t em_fz_mutex;

static pthread_once_t lock_once = PTHREAD_ONCE_INIT;
static _Thread_local int tl_state = -1;
static int env_state = -1;
/* A group that failed to run: its status is returned by the next guard,
 * so the failure reaches the operation that needed the values. */
static em_status failed_status;
static char failed_msg[512];

static void lock_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&em_fz_mutex, &a);
    pthread_mutexattr_destroy(&a);
}

void em_fz_lock(void)
{
    pthread_once(&lock_once, lock_init);
    pthread_mutex_lock(&em_fz_mutex);
}

void em_fz_unlock(void) { pthread_mutex_unlock(&em_fz_mutex); }

int em_fuse_enabled(void)
{
    int e;
    if (tl_state >= 0)
        return tl_state;
    e = __atomic_load_n(&env_state, __ATOMIC_RELAXED);
    if (e < 0) {
        const char *t = em_knob_text(EM_KNOB_FUSION);
        /* On unless switched off ("0") */
        e = !(t && t[0] == '0' && !t[1]);
        __atomic_store_n(&env_state, e, __ATOMIC_RELAXED);
    }
    return e;
}

int em_fuse_set_state(int state)
{
    int prev = tl_state;
    tl_state = state < 0 ? -1 : state != 0;
    return prev;
}

/* ---- running ------------------------------------------------------------ */

/* Runs the open group with the lock held and empties it. */
static em_status run_locked(const char *name)
{
    fz_group *g = &em_fz_open;
    em_status st;
    int was_running = em_fz_running;
    if (g->nnodes == 0)
        return EM_OK;
    /* The launches below pass this thread's guards (em_fz_running) while
     * every other thread's guard still sees the count and waits for the
     * lock: zeroing it first let another thread launch a reader of the
     * results before their kernel was in the stream (Dask's threads). */
    em_fz_running = 1;
    em_fz_runs++;
    for (int i = 0; i < g->nnodes; i++)
        if (g->node[i].out)
            atomic_store_explicit(&g->node[i].out->fuse_node, NULL,
                                  memory_order_relaxed);
    /* Only results still referenced get memory, now: a temporary that died
     * before the group ran never touched the pool. A group none of whose
     * results is referenced has nothing to show (its values went into a
     * fused reduction, or nowhere). */
    st = EM_OK;
    for (int i = 0; i < g->nnodes && st == EM_OK; i++)
        if (g->node[i].out &&
            (st = em_arr_storage_materialize(g->node[i].out)) == EM_OK)
            g->node[i].out_data = g->node[i].out->base;
    for (int i = 0; i < g->nnodes && st == EM_OK; i++)
        if (g->node[i].out) {
            st = em_fz_launch(g, name);
            break;
        }
    /* Its results were never written: each refuses to be read from now
     * on, whoever reports the failure first (a host read that ignores a
     * guard's status must not see stale memory). */
    if (st != EM_OK) {
        snprintf(failed_msg, sizeof failed_msg, "%s", em_last_error());
        for (int i = 0; i < g->nnodes; i++)
            if (g->node[i].out)
                atomic_store_explicit(&g->node[i].out->fuse_failed, (int)st,
                                      memory_order_relaxed);
    }
    for (int i = 0; i < g->nleaves; i++)
        em_array_release(&g->leaf[i]);
    g->nnodes = g->nleaves = g->nscalars = 0;
    atomic_store_explicit(&em_fuse_pending_n, 0, memory_order_release);
    em_fz_running = was_running;
    if (st != EM_OK) {
        failed_status = st;
        atomic_store_explicit(&em_fuse_pending_n, -1, memory_order_relaxed);
    }
    return st;
}

static em_status flush(const char *name)
{
    em_status st;
    if (em_fz_running)
        return EM_OK;
    if (em_fuse_tl_tape)
        em_fz_tape_guarded();
    em_fz_lock();
    if (atomic_load_explicit(&em_fuse_pending_n, memory_order_relaxed) < 0) {
        /* The failure of an earlier run, reported once. */
        st = failed_status;
        atomic_store_explicit(&em_fuse_pending_n, em_fz_open.nnodes,
                              memory_order_relaxed);
        em_fz_unlock();
        return em_error(st, "a fused elementwise kernel failed: %s",
                        failed_msg);
    }
    st = run_locked(name);
    em_fz_unlock();
    return st;
}

em_status em_fuse_flush(void) { return flush(NULL); }

const char *em_fuse_failure_message(void) { return failed_msg; }

em_status em_fuse_flush_named(const char *name)
{
    /* a bad name is the caller's error: the group stays open, intact */
    if (name && !em_fz_valid_name(name))
        return em_error(EM_ERR_INVALID_VALUE,
                        "a fused kernel's name must be a C identifier of at "
                        "most 63 characters, not '%.80s'",
                        name);
    return flush(name);
}

void em_fuse_storage_dropped(void *storage)
{
    em_storage *sto = storage;
    fz_node *n;
    em_fz_lock();
    n = atomic_load_explicit(&sto->fuse_node, memory_order_relaxed);
    if (n) {
        fz_group *g = &em_fz_open;
        int live = 0;
        n->out = NULL;
        atomic_store_explicit(&sto->fuse_node, NULL, memory_order_relaxed);
        /* No result of the group is referenced any more, so nothing can
         * read it or record onto it: drop it now. Otherwise the next
         * expression of the same shape grew it, and a fused reduction
         * recomputed (and compiled a kernel for) every dead node before
         * its own: ((a - b) ** 2).sum() in a loop. */
        for (int i = 0; i < g->nnodes && !live; i++)
            live = g->node[i].out != NULL;
        if (!live && !em_fz_running &&
            atomic_load_explicit(&em_fuse_pending_n, memory_order_relaxed) > 0) {
            for (int i = 0; i < g->nleaves; i++)
                em_array_release(&g->leaf[i]);
            g->nnodes = g->nleaves = g->nscalars = 0;
            atomic_store_explicit(&em_fuse_pending_n, 0, memory_order_release);
        }
    }
    em_fz_unlock();
}

/* ---- recording ---------------------------------------------------------- */

/* Whether a (strides st against the group's shape) is exactly node n's
 * result: the same memory, dtype and C order. */
static int is_node_result(const fz_group *g, const fz_node *n,
                          const em_array *a, const int64_t *st)
{
    int64_t step = (int64_t)em_dtype_size(a->dtype);
    if (a->data != n->out_data || a->dtype != (em_dtype)n->d.out)
        return 0;
    for (int i = g->nd - 1; i >= 0; i--) {
        if (g->shape[i] != 1 && st[i] != step)
            return 0;
        step *= g->shape[i];
    }
    return 1;
}

/* Where a's elements are: an input may be a result of a group that just
 * ran (inside em_fuse_record), whose caller's copy has no data yet. */
static char *leaf_data(const em_array *a)
{
    return a->data ? a->data : (char *)em_arr_storage_base(a->storage);
}

static int find_leaf(const fz_group *g, const em_array *a, const int64_t *st)
{
    char *data = leaf_data(a);
    for (int i = 0; i < g->nleaves; i++)
        if (g->leaf[i].data == data && g->leaf[i].dtype == a->dtype &&
            g->leaf[i].storage == a->storage &&
            !memcmp(g->leaf_st[i], st, (size_t)g->nd * sizeof *st))
            return i;
    return -1;
}

/* Classifies the inputs against the open group: 0 when they fit (kinds
 * and indices filled, *newleaves counted), 1 when the group must run
 * first. */
static int classify(const fz_group *g, const em_array *const *in,
                    const int64_t (*strides)[EM_MAX_NDIM], int nin,
                    uint8_t *kind, int *idx, int *newleaves)
{
    *newleaves = 0;
    for (int k = 0; k < nin; k++) {
        fz_node *n;
        if (!in[k]) {
            kind[k] = FZ_SCALAR;
            continue;
        }
        n = atomic_load_explicit(&in[k]->storage->fuse_node,
                                 memory_order_relaxed);
        if (n) {
            /* Only the open group has pending nodes. */
            if (!is_node_result(g, n, in[k], strides[k]))
                return 1;
            kind[k] = FZ_NODE;
            idx[k] = (int)(n - g->node);
            continue;
        }
        kind[k] = FZ_LEAF;
        idx[k] = find_leaf(g, in[k], strides[k]);
        if (idx[k] < 0) {
            /* the second input may be the first one again */
            if (k == 1 && kind[0] == FZ_LEAF && idx[0] < 0 &&
                in[0]->storage == in[1]->storage &&
                in[0]->data == in[1]->data && in[0]->dtype == in[1]->dtype &&
                !memcmp(strides[0], strides[1],
                        (size_t)g->nd * sizeof **strides))
                idx[k] = -2;
            else
                (*newleaves)++;
        }
    }
    return g->nnodes + 1 > EM_FUSE_MAX_NODES ||
           g->nleaves + *newleaves > EM_FUSE_MAX_LEAVES;
}

int em_fuse_size_ok(em_device *dev, int64_t size)
{
    return em_device_get_type(dev) == EM_DEVICE_CUDA || size >= host_min();
}

int em_fuse_may_record(em_device *dev, int64_t size, const em_dtype *loop_in,
                       em_dtype loop_out, int nin, const em_array *const *in)
{
    /* On the host, complex operations stay op by op too: GCC compiles a
     * complex multiply inside a larger loop body into other instructions
     * than in eager's one-op loop (seen with GCC 12 at -O3, with
     * -ffp-contract=off), and fused results must keep eager's bits. (A
     * new result's dtype is loop_out.) */
    if (em_device_get_type(dev) != EM_DEVICE_CUDA &&
        (size < host_min() || loop_out >= EM_COMPLEX64 ||
         loop_in[0] >= EM_COMPLEX64 ||
         (nin > 1 && loop_in[1] >= EM_COMPLEX64)))
        return 0;
    /* Memory ember does not own may change behind its back (a NumPy
     * array under a zero-copy view, a tensor of another library): it is
     * read at once, by the eager kernel. */
    for (int k = 0; k < nin; k++)
        if (in[k] && !in[k]->storage->owned)
            return 0;
    return 1;
}

em_status em_fuse_record(em_op op, const em_array *const *in,
                         const int64_t (*strides)[EM_MAX_NDIM],
                         const unsigned char (*sval)[16],
                         const em_dtype *loop_in, em_dtype loop_out, int nin,
                         em_array *out, int nd, const int64_t *shape,
                         em_stream *s, int nowait)
{
    fz_group *g = &em_fz_open;
    em_device *dev = out->device;
    uint8_t kind[2];
    int idx[2], newleaves;
    em_status st;
    fz_node *n;

    /* Inside a graph capture groups record as outside, so the warm-up
     * run of the same code has compiled their kernels (nothing compiles
     * inside a capture). Whether fusion is on was asked by the caller,
     * and with nowait whether it may record (each asking was a fortieth
     * of a record's time). */
    if (nd > EM_MAX_NDIM ||
        (!nowait &&
         (!em_fuse_may_record(dev, out->size, loop_in, loop_out, nin, in) ||
          (em_device_get_type(dev) != EM_DEVICE_CUDA &&
           out->dtype >= EM_COMPLEX64))))
        return EM_ERR_NOT_SUPPORTED;

    if (nowait) {
        /* the caller holds a lock another thread may wait on while it
         * holds this one (Python's GIL): never wait here */
        pthread_once(&lock_once, lock_init);
        if (pthread_mutex_trylock(&em_fz_mutex))
            return EM_ERR_NOT_SUPPORTED;
    } else {
        em_fz_lock();
    }
    if (atomic_load_explicit(&em_fuse_pending_n, memory_order_relaxed) < 0) {
        em_fz_unlock();
        return nowait ? EM_ERR_NOT_SUPPORTED : em_fuse_flush();
    }
    for (;;) {
        if (g->nnodes &&
            (g->dev != dev || g->s != s || g->nd != nd ||
             memcmp(g->shape, shape, (size_t)nd * sizeof *shape))) {
            if (nowait) { /* running a group launches, may compile */
                em_fz_unlock();
                return EM_ERR_NOT_SUPPORTED;
            }
            if ((st = run_locked(NULL)) != EM_OK)
                break;
            continue;
        }
        if (g->nnodes == 0) {
            em_fz_gen++;
            g->dev = dev;
            g->s = s;
            g->nd = nd;
            memcpy(g->shape, shape, (size_t)nd * sizeof *shape);
            g->n = out->size;
        }
        if (classify(g, in, strides, nin, kind, idx, &newleaves)) {
            if (g->nnodes == 0 || nowait) {
                /* a pending view that no group holds cannot happen;
                 * refuse rather than loop */
                em_fz_unlock();
                return EM_ERR_NOT_SUPPORTED;
            }
            if ((st = run_locked(NULL)) != EM_OK)
                break;
            continue;
        }
        st = EM_OK;
        break;
    }
    if (st != EM_OK) {
        em_fz_unlock();
        return st;
    }

    n = &g->node[g->nnodes];
    memset(n, 0, sizeof *n);
    n->d.op = (uint8_t)op;
    n->d.out = (uint8_t)out->dtype;
    n->d.loop_out = (uint8_t)loop_out;
    n->d.ndim = 1;
    n->d.vec = 1;
    for (int k = 0; k < nin; k++) {
        n->d.loop_in[k] = (uint8_t)loop_in[k];
        n->kind[k] = kind[k];
        if (kind[k] == FZ_SCALAR) {
            memcpy(g->sval[g->nscalars], sval[k], 16);
            g->sdt[g->nscalars] = loop_in[k];
            n->idx[k] = (uint8_t)g->nscalars++;
            n->d.src[k] = EM_GEN_SCALAR;
        } else if (kind[k] == FZ_NODE) {
            n->idx[k] = (uint8_t)idx[k];
            n->d.src[k] = g->node[idx[k]].d.out;
        } else {
            if (idx[k] == -2) {
                idx[k] = idx[0];
            } else if (idx[k] < 0) {
                idx[k] = g->nleaves++;
                em_array_retain(in[k], &g->leaf[idx[k]]);
                g->leaf[idx[k]].data = leaf_data(in[k]);
                memcpy(g->leaf_st[idx[k]], strides[k],
                       (size_t)nd * sizeof **strides);
            }
            n->idx[k] = (uint8_t)idx[k];
            n->d.src[k] = (uint8_t)in[k]->dtype;
        }
    }
    n->out = out->storage;
    n->out_data = out->data;
    atomic_store_explicit(&out->storage->fuse_node, n, memory_order_relaxed);
    g->nnodes++;
    atomic_store_explicit(&em_fuse_pending_n, g->nnodes, memory_order_relaxed);
    em_fz_unlock();
    return EM_OK;
}
