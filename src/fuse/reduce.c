/* ember fuse: a reduction whose input is a pending node's result, run as
 * one kernel that computes the value where the reduction loads it.
 *
 * The reduction generator (codegen/reduce.c) is used unchanged: the same
 * schedule, vector width and partials as eager's reduction of the stored
 * array, so the result has eager's bits. Only its loads change: the
 * prelude defines RD_LD / RD_VLD to turn a byte offset from `in` (the
 * pending result's memory, never read) into an element index and compute
 * the group's value there, over leaves passed as extra parameters.
 *
 * The group stays open afterwards: nothing of it is stored, and when it
 * runs later only the results still referenced are written; the usual
 * temporary (`((a - b) ** 2).sum()`) is dropped by then, so it never
 * runs at all. Fused reductions need a contiguous group (every leaf
 * C-ordered over its shape) on cuda; anything else runs the group first
 * and reduces its stored result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/kernel_table.h"
#include "codegen/reduce.h"
#include "fuse/fuse_internal.h"

#define FZR_VERSION 3u
#define FZR_KEY_MAX 700
#define FZR_NAME "ember_fused_reduce"

typedef struct fzr_ctx {
    const fz_group *g;
    const em_gen_reduce *d;
    int target; /* the reduced node */
    int vleaf;  /* the leaves read a vector at a time (all of the reduced
                   input's dtype, aligned as its vectors) */
} fzr_ctx;

static em_gen_ktable fzr_table = EM_GEN_KTABLE(1024);

static const char *stype(int dt) { return em_gen_ew_storage[dt]; }

/* The leaves' and scalars' parameters (decl) or names (call). */
static void emit_extra(em_sb *b, const fz_group *g, int decl)
{
    for (int j = 0; j < g->nleaves; j++)
        if (decl)
            em_sb_printf(b, ", const %s *__restrict__ l%d",
                         stype(g->leaf[j].dtype), j);
        else
            em_sb_printf(b, ", l%d", j);
    for (int j = 0; j < g->nscalars; j++)
        if (decl)
            em_sb_printf(b, ", %s s%d", stype(g->sdt[j]), j);
        else
            em_sb_printf(b, ", s%d", j);
}

/* The scalars' parameters (decl) or names (call), after the leaves'
 * values. */
static void emit_scalars(em_sb *b, const fz_group *g, int decl)
{
    for (int j = 0; j < g->nscalars; j++)
        if (decl)
            em_sb_printf(b, ", %s s%d", stype(g->sdt[j]), j);
        else
            em_sb_printf(b, ", s%d", j);
}

static em_status gen_prelude(const fzr_ctx *c, char **out)
{
    const fz_group *g = c->g;
    const char *rt = stype(g->node[c->target].d.out);
    em_sb b = {0};
    em_sb_printf(&b, "/* ember fused reduction: %d operations over %d "
                     "inputs */\n",
                 c->target + 1, g->nleaves);
    em_fz_emit_nodes(&b, g, c->target, FZR_NAME);
    /* the value from the leaves' values (fz_at), and from an element
     * index (fz_val) */
    em_sb_printf(&b, "EW_FN %s fz_at(", rt);
    for (int j = 0; j < g->nleaves; j++)
        em_sb_printf(&b, "%sconst %s x%d", j ? ", " : "",
                     stype(g->leaf[j].dtype), j);
    emit_scalars(&b, g, 1);
    em_sb_puts(&b, ")\n{\n");
    em_fz_emit_values(&b, g, c->target, FZR_NAME, "    ");
    em_sb_printf(&b, "    return t%d;\n}\n", c->target);
    em_sb_printf(&b, "EW_FN %s fz_val(long long e", rt);
    emit_extra(&b, g, 1);
    em_sb_puts(&b, ")\n{\n    return fz_at(");
    for (int j = 0; j < g->nleaves; j++)
        em_sb_printf(&b, "%sl%d[e]", j ? ", " : "", j);
    emit_scalars(&b, g, 0);
    em_sb_puts(&b, ");\n}\n");
    em_sb_puts(&b, "#define RD_EXTRA");
    emit_extra(&b, g, 1);
    em_sb_puts(&b, "\n#define RD_LD(T, p) fz_val((long long)(((const char "
                   "*)(p) - in) / (long long)sizeof(T))");
    emit_extra(&b, g, 0);
    em_sb_puts(&b, ")\n");
    /* a vector of the reduced dtype: from a vector of each leaf, or
     * element by element. The leaves' vectors move 16 bytes a load where
     * single elements moved 4, for the read bandwidth a fused
     * `((a - b) ** 2).sum()` is judged by. */
    em_sb_printf(&b,
                 "#define RD_VLD(p, j) ([&]() { vec_%s r_; const long long "
                 "e_ = (long long)(((const char *)((p) + (j)) - in) / "
                 "(long long)sizeof(r_.v[0]));",
                 FZR_NAME);
    if (c->vleaf) {
        for (int j = 0; j < g->nleaves; j++)
            em_sb_printf(&b, " const vec_%s v%d_ = *(const vec_%s *)(l%d + e_);",
                         FZR_NAME, j, FZR_NAME, j);
        em_sb_puts(&b, " for (int q_ = 0; q_ < (int)(sizeof r_.v / sizeof "
                       "r_.v[0]); q_++) r_.v[q_] = fz_at(");
        for (int j = 0; j < g->nleaves; j++)
            em_sb_printf(&b, "%sv%d_.v[q_]", j ? ", " : "", j);
        emit_scalars(&b, g, 0);
    } else {
        em_sb_puts(&b, " for (int q_ = 0; q_ < (int)(sizeof r_.v / sizeof "
                       "r_.v[0]); q_++) r_.v[q_] = fz_val(e_ + q_");
        emit_extra(&b, g, 0);
    }
    em_sb_puts(&b, "); return r_; }())\n");
    return em_sb_take(&b, out, "a fused reduction");
}

static em_status source(const fzr_ctx *c, char **src)
{
    char *prelude = NULL;
    em_status st = gen_prelude(c, &prelude);
    if (st != EM_OK)
        return st;
    st = em_gen_reduce_source_with(c->d, EM_DEVICE_CUDA, FZR_NAME, prelude,
                                   src);
    free(prelude);
    return st;
}

em_status em_fz_reduce_source(const em_gen_reduce *d, int target, int vleaf,
                              char **src)
{
    fzr_ctx c = {&em_fz_open, d, target, vleaf};
    return source(&c, src);
}

static em_status load(const void *ctx, em_device *dev, em_function **fn)
{
    const char *const names[1] = {FZR_NAME};
    const fzr_ctx *c = ctx;
    const char *const *opts;
    char *src = NULL;
    int nopts = 0;
    em_status st = source(c, &src);
    if (st != EM_OK)
        return st;
    opts = em_gen_reduce_options(c->d, EM_DEVICE_CUDA, &nopts);
    return em_gen_kt_compile(dev, src, opts, nopts, FZR_VERSION, names, 1, fn);
}

/* The key: the nodes up to the target (what they compute, not what they
 * store), the leaves' and scalars' dtypes and the reduction's descriptor,
 * each byte stored plus one. */
static int key_bytes(const fzr_ctx *c, unsigned char *k)
{
    const unsigned char *dd = (const unsigned char *)c->d;
    int n = em_fz_key_group(c->g, c->target, 0, k);
    for (size_t i = 0; i < sizeof *c->d; i++) {
        k[n++] = (unsigned char)((dd[i] & 0x7f) + 1);
        k[n++] = (unsigned char)((dd[i] >> 7) + 1);
    }
    k[n++] = (unsigned char)(c->vleaf + 1);
    k[n] = 0;
    return n;
}

/* Whether a is exactly node n's result, C-ordered over the group's
 * shape. */
static int whole_result(const fz_group *g, const fz_node *n,
                        const em_array *a)
{
    if (a->data != n->out_data || a->dtype != (em_dtype)n->d.out ||
        a->ndim != g->nd ||
        memcmp(a->shape, g->shape, (size_t)g->nd * sizeof *a->shape) ||
        !(a->flags & EM_ARRAY_C_CONTIGUOUS))
        return 0;
    return 1;
}

/* Whether the leaves can be read as the reduction reads its input, a
 * vector at a time: each of that dtype and aligned as its vectors are
 * (the vectors' offsets from `in` are then offsets from each leaf). */
static int vector_leaves(const fz_group *g, const em_gen_reduce *d,
                         const em_array *a)
{
    const uintptr_t vb = (uintptr_t)d->vec * em_dtype_size((em_dtype)d->in);
    if (d->vec <= 1 || (uintptr_t)a->data % vb)
        return 0;
    for (int j = 0; j < g->nleaves; j++)
        if (g->leaf[j].dtype != d->in || (uintptr_t)g->leaf[j].data % vb)
            return 0;
    return 1;
}

em_status em_fuse_reduce_begin(const em_array *a, const em_gen_reduce *d,
                               em_stream *s, em_function **fn, void **args,
                               int *nargs, int *fused)
{
    fz_group *g = &em_fz_open;
    fz_node *n;
    fzr_ctx c;
    unsigned char kb[FZR_KEY_MAX];
    int klen, na = 0;
    em_status st;

    *fused = 0;
    if (!a->storage ||
        !atomic_load_explicit(&a->storage->fuse_node, memory_order_relaxed) ||
        em_device_get_type(a->device) != EM_DEVICE_CUDA)
        return EM_OK;
    em_fz_lock();
    n = atomic_load_explicit(&a->storage->fuse_node, memory_order_relaxed);
    /* on the group's stream only: another stream would read the leaves
     * without the order eager's launches had */
    if (!n || !whole_result(g, n, a) || d->in != n->d.out ||
        em_arr_stream_lenient(a->device, s) != g->s) {
        em_fz_unlock();
        return EM_OK;
    }
    for (int j = 0; j < g->nleaves; j++)
        if (!em_fz_leaf_is_c_order(g, j)) {
            em_fz_unlock();
            return EM_OK;
        }
    c.g = g;
    c.d = d;
    c.target = (int)(n - g->node);
    c.vleaf = vector_leaves(g, d, a);
    klen = key_bytes(&c, kb);
    st = em_fz_kt_get(&fzr_table, g->dev, kb, klen, FZR_VERSION, load, &c, fn);
    if (st != EM_OK) {
        em_fz_unlock();
        return st;
    }
    for (int j = 0; j < g->nleaves; j++)
        args[na++] = &g->leaf[j].data;
    for (int j = 0; j < g->nscalars; j++)
        args[na++] = g->sval[j];
    *nargs = na;
    *fused = 1;
    /* the lock stays held, so the group and its leaves stay as they are
     * until em_fuse_reduce_end */
    em_fz_running = 1;
    return EM_OK;
}

void em_fuse_reduce_end(void)
{
    em_fz_running = 0;
    em_fz_unlock();
}
