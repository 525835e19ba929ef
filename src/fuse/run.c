/* ember fuse: one group as one kernel - its layout, its key in the
 * per-device kernel table, its source, its launch.
 *
 * Layouts. Contiguous: every leaf is C-ordered over the group's shape
 * (the outputs always are), so element t of each is at index t; on the GPU
 * each thread then moves vectors of up to 16 bytes of the widest operand,
 * as eager's contiguous kernel does. Strided: the shape's axes are
 * collapsed (extent-1 axes dropped, runs merged) and each element's leaf
 * offsets come from a division chain; outputs are still written at t.
 *
 * Source. kernels/ewise_ops.h's sections that the nodes need, one
 * ew_elem_<kernel>_<i> per node (ewise.c writes it exactly as for the
 * node's own kernel), then the kernel: leaves are loaded once per element,
 * each node's value is a local, and only nodes whose storage is still
 * referenced are stored. Every generated kernel on cuda is compiled with
 * --fmad=false (ewise.c, reduce.c), so no node's multiply is contracted
 * into the next node's add. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/ckernel.h"
#include "codegen/kernel_table.h"
#include "core/layout.h"
#include "core/strbuf.h"
#include "fuse/fuse_internal.h"

/* Bump when the generated source changes meaning (it is in the cache
 * key). */
#define FZ_VERSION 2u
#define FZ_KEY_MAX 600

static atomic_ullong launches;

uint64_t em_fuse_launch_count(void)
{
    return atomic_load_explicit(&launches, memory_order_relaxed);
}

/* What the kernel is: the group plus the layout run.c chose. */
typedef struct fz_plan {
    const fz_group *g;
    const char *name;
    int cuda, strided, vw;
    int nd;                               /* strided: collapsed rank */
    int64_t shape[EM_MAX_NDIM];           /* strided */
    int64_t st[1 + EM_FUSE_MAX_LEAVES][EM_MAX_NDIM]; /* [0]: outputs */
} fz_plan;

int em_fz_nin(const fz_node *n)
{
    const em_op_info *info = em_op_get((em_op)n->d.op);
    return info ? info->nin : 1;
}

static size_t isz(int dt) { return em_dtype_size((em_dtype)dt); }

/* ---- layout ------------------------------------------------------------- */

int em_fz_leaf_is_c_order(const fz_group *g, int j)
{
    int64_t step = (int64_t)isz(g->leaf[j].dtype);
    for (int i = g->nd - 1; i >= 0; i--) {
        if (g->shape[i] != 1 && g->leaf_st[j][i] != step)
            return 0;
        step *= g->shape[i];
    }
    return 1;
}

/* Elements per vector: 16 bytes of the widest operand, halved until every
 * pointer sits on its vector's alignment. */
static int vector_width(const fz_group *g)
{
    size_t widest = 1;
    int vw;
    for (int j = 0; j < g->nleaves; j++)
        if (isz(g->leaf[j].dtype) > widest)
            widest = isz(g->leaf[j].dtype);
    for (int i = 0; i < g->nnodes; i++)
        if (g->node[i].out && isz(g->node[i].d.out) > widest)
            widest = isz(g->node[i].d.out);
    for (vw = (int)(16 / widest); vw > 1; vw /= 2) {
        int ok = 1;
        for (int j = 0; j < g->nleaves && ok; j++)
            ok = (uintptr_t)g->leaf[j].data % (vw * isz(g->leaf[j].dtype)) ==
                 0;
        for (int i = 0; i < g->nnodes && ok; i++)
            if (g->node[i].out)
                ok = (uintptr_t)g->node[i].out_data %
                         (vw * isz(g->node[i].d.out)) ==
                     0;
        if (ok)
            break;
    }
    return vw < 1 ? 1 : vw;
}

static void plan_layout(const fz_group *g, fz_plan *p)
{
    int contig = 1, nop = 1 + g->nleaves;
    p->cuda = em_device_get_type(g->dev) == EM_DEVICE_CUDA;
    for (int j = 0; j < g->nleaves && contig; j++)
        contig = em_fz_leaf_is_c_order(g, j);
    p->strided = !contig;
    p->vw = 1;
    if (contig) {
        if (p->cuda)
            p->vw = vector_width(g);
        return;
    }
    /* row 0: the outputs' element strides (C order) */
    {
        int64_t step = 1;
        for (int i = g->nd - 1; i >= 0; i--) {
            p->st[0][i] = g->shape[i] == 1 ? 0 : step;
            step *= g->shape[i];
        }
    }
    for (int j = 0; j < g->nleaves; j++)
        memcpy(p->st[1 + j], g->leaf_st[j], sizeof p->st[0]);
    memcpy(p->shape, g->shape, sizeof p->shape);
    p->nd = em_layout_collapse(g->nd, p->shape, nop, p->st, NULL, 0, 1);
    if (p->nd == 0) {
        p->nd = 1;
        p->shape[0] = 1;
        for (int j = 0; j < nop; j++)
            p->st[j][0] = 0;
    }
}

/* ---- key ---------------------------------------------------------------- */

int em_fz_key_group(const fz_group *g, int last, int stores,
                    unsigned char *k)
{
    int n = 0;
#define PUT(v) (k[n++] = (unsigned char)((v) + 1))
    PUT(g->nleaves);
    PUT(last + 1);
    PUT(g->nscalars);
    for (int j = 0; j < g->nleaves; j++)
        PUT(g->leaf[j].dtype);
    for (int j = 0; j < g->nscalars; j++)
        PUT(g->sdt[j]);
    for (int i = 0; i <= last; i++) {
        const fz_node *nd = &g->node[i];
        int nin = em_fz_nin(nd); /* once: a call per input before */
        PUT(nd->d.op & 0x7f);
        PUT(nd->d.op >> 7);
        PUT(nd->d.loop_in[0]);
        PUT(nd->d.loop_in[1]);
        PUT(nd->d.loop_out);
        PUT(nd->d.out);
        for (int q = 0; q < nin; q++) {
            PUT(nd->kind[q]);
            PUT(nd->idx[q]);
        }
        if (stores)
            PUT(nd->out != NULL);
    }
#undef PUT
    return n;
}

/* The key's bytes, each stored plus one so the text has no NUL: the
 * layout, then the group with what it stores, then the name. */
static int key_bytes(const fz_plan *p, unsigned char *k)
{
    int n = 0;
    k[n++] = (unsigned char)(p->cuda + 1);
    k[n++] = (unsigned char)(p->strided + 1);
    k[n++] = (unsigned char)((p->strided ? p->nd : 0) + 1);
    k[n++] = (unsigned char)(p->vw + 1);
    n += em_fz_key_group(p->g, p->g->nnodes - 1, 1, k + n);
    if (p->name)
        for (const char *c = p->name; *c; c++)
            k[n++] = (unsigned char)*c;
    k[n] = 0;
    return n;
}

/* ---- source ------------------------------------------------------------- */

static const char *stype(int dt) { return em_gen_ew_storage[dt]; }

void em_fz_emit_values(em_sb *b, const fz_group *g, int last,
                       const char *name, const char *indent)
{
    for (int i = 0; i <= last; i++) {
        const fz_node *nd = &g->node[i];
        int nin = em_fz_nin(nd);
        em_sb_printf(b, "%sconst %s t%d = ew_elem_%s_%d(", indent,
                     stype(nd->d.out), i, name, i);
        for (int q = 0; q < nin; q++)
            em_sb_printf(b, "%s%c%d", q ? ", " : "",
                         nd->kind[q] == FZ_LEAF   ? 'x'
                         : nd->kind[q] == FZ_NODE ? 't'
                                                  : 's',
                         nd->idx[q]);
        em_sb_puts(b, ");\n");
    }
}

void em_fz_emit_nodes(em_sb *b, const fz_group *g, int last, const char *name)
{
    em_gen_ewise ds[EM_FUSE_MAX_NODES];
    char fn[96];
    memset(ds, 0, sizeof ds);
    for (int i = 0; i <= last; i++)
        ds[i] = g->node[i].d;
    em_gen_ewise_emit_ops(b, ds, last + 1);
    for (int i = 0; i <= last; i++) {
        snprintf(fn, sizeof fn, "%s_%d", name, i);
        em_gen_ewise_emit_elem(b, &g->node[i].d, fn);
    }
}

/* How emit_body reaches an element: leaves by flat index, by byte offset
 * or from a loaded vector; results by flat index or into a vector. */
enum { AT_FLAT, AT_OFFSET, AT_VECTOR };

/* The statements of one element: leaves into x<j>, nodes into t<i>, the
 * referenced nodes stored. */
static void emit_body(em_sb *b, const fz_plan *p, int at, const char *indent)
{
    const fz_group *g = p->g;
    for (int j = 0; j < g->nleaves; j++) {
        const char *t = stype(g->leaf[j].dtype);
        em_sb_printf(b, "%sconst %s x%d = ", indent, t, j);
        if (at == AT_FLAT)
            em_sb_printf(b, "l%d[t];\n", j);
        else if (at == AT_OFFSET)
            em_sb_printf(b, "*(const %s *)((const char *)l%d + off%d);\n", t,
                         j, j);
        else
            em_sb_printf(b, "a%d.v[k];\n", j);
    }
    em_fz_emit_values(b, g, g->nnodes - 1, p->name, indent);
    for (int i = 0; i < g->nnodes; i++)
        if (g->node[i].out) {
            if (at == AT_VECTOR)
                em_sb_printf(b, "%sr%d.v[k] = t%d;\n", indent, i, i);
            else
                em_sb_printf(b, "%so%d[t] = t%d;\n", indent, i, i);
        }
}

static void emit_params(em_sb *b, const fz_plan *p)
{
    const fz_group *g = p->g;
    int first = 1;
    for (int i = 0; i < g->nnodes; i++)
        if (g->node[i].out) {
            em_sb_printf(b, "%s%s *__restrict__ o%d", first ? "" : ", ",
                         stype(g->node[i].d.out), i);
            first = 0;
        }
    for (int j = 0; j < g->nleaves; j++) {
        em_sb_printf(b, "%sconst %s *__restrict__ l%d", first ? "" : ", ",
                     stype(g->leaf[j].dtype), j);
        first = 0;
    }
    for (int j = 0; j < g->nscalars; j++)
        em_sb_printf(b, ", %s s%d", stype(g->sdt[j]), j);
    em_sb_puts(b, ", long long n");
    if (p->strided)
        em_sb_printf(b, ", struct fz_geom_%s geo", p->name);
}

/* The leaf offsets of element t (strided), into off<j>. */
static void emit_offsets(em_sb *b, const fz_plan *p, const char *indent)
{
    const fz_group *g = p->g;
    em_sb_printf(b, "%slong long r = t", indent);
    for (int j = 0; j < g->nleaves; j++)
        em_sb_printf(b, ", off%d = 0", j);
    em_sb_puts(b, ";\n");
    for (int d = p->nd - 1; d >= 0; d--) {
        if (d > 0)
            em_sb_printf(b, "%s{ const long long c = r %% geo.shape[%d]; "
                            "r /= geo.shape[%d];\n",
                         indent, d, d);
        else
            em_sb_printf(b, "%s{ const long long c = r;\n", indent);
        for (int j = 0; j < g->nleaves; j++)
            em_sb_printf(b, "%s  off%d += c * geo.st[%d][%d];\n", indent, j, j,
                         d);
        em_sb_printf(b, "%s}\n", indent);
    }
}

static em_status gen_source(const fz_plan *p, char **out)
{
    const fz_group *g = p->g;
    em_sb b = {0};

    em_sb_printf(&b, "/* ember fused: %d operations over %d inputs, %s */\n",
                 g->nnodes, g->nleaves, p->strided ? "strided" : "contiguous");
    em_fz_emit_nodes(&b, g, g->nnodes - 1, p->name);
    if (p->strided)
        em_sb_printf(&b,
                     "struct fz_geom_%s { long long shape[%d]; "
                     "long long st[%d][%d]; };\n",
                     p->name, p->nd, g->nleaves ? g->nleaves : 1, p->nd);
    if (p->cuda && p->vw > 1) {
        for (int j = 0; j < g->nleaves; j++)
            em_sb_printf(&b,
                         "typedef struct __align__(%d) { %s v[%d]; } fz_vl%d;\n",
                         (int)(p->vw * isz(g->leaf[j].dtype)),
                         stype(g->leaf[j].dtype), p->vw, j);
        for (int i = 0; i < g->nnodes; i++)
            if (g->node[i].out)
                em_sb_printf(&b,
                             "typedef struct __align__(%d) { %s v[%d]; } "
                             "fz_vo%d;\n",
                             (int)(p->vw * isz(g->node[i].d.out)),
                             stype(g->node[i].d.out), p->vw, i);
    }
    em_sb_printf(&b, "extern \"C\" __global__ void %s(", p->name);
    emit_params(&b, p);
    em_sb_puts(&b, ")\n{\n");
    if (p->cuda) {
        em_sb_puts(&b, "    const long long step = (long long)gridDim.x * "
                       "blockDim.x;\n"
                       "    const long long i0 = (long long)blockIdx.x * "
                       "blockDim.x + threadIdx.x;\n");
        if (p->vw > 1) {
            em_sb_printf(&b, "    const long long nv = n / %d;\n", p->vw);
            em_sb_puts(&b, "    for (long long v = i0; v < nv; v += step) {\n");
            for (int j = 0; j < g->nleaves; j++)
                em_sb_printf(&b,
                             "        const fz_vl%d a%d = ((const fz_vl%d "
                             "*)l%d)[v];\n",
                             j, j, j, j);
            for (int i = 0; i < g->nnodes; i++)
                if (g->node[i].out)
                    em_sb_printf(&b, "        fz_vo%d r%d;\n", i, i);
            em_sb_printf(&b, "#pragma unroll\n        for (int k = 0; k < %d; "
                             "k++) {\n",
                         p->vw);
            emit_body(&b, p, AT_VECTOR, "            ");
            em_sb_puts(&b, "        }\n");
            for (int i = 0; i < g->nnodes; i++)
                if (g->node[i].out)
                    em_sb_printf(&b, "        ((fz_vo%d *)o%d)[v] = r%d;\n", i,
                                 i, i);
            em_sb_printf(&b, "    }\n    for (long long t = nv * %d + i0; t < n; "
                             "t += step) {\n",
                         p->vw);
        } else {
            em_sb_puts(&b, "    for (long long t = i0; t < n; t += step) {\n");
        }
    } else {
        em_sb_puts(&b,
                   "    const long long per = (n + gridDim.x - 1) / gridDim.x;\n"
                   "    const long long lo = (long long)blockIdx.x * per;\n"
                   "    const long long hi = n - lo > per ? lo + per : n;\n"
                   "    for (long long t = lo; t < hi; t++) {\n");
    }
    if (p->strided)
        emit_offsets(&b, p, "        ");
    emit_body(&b, p, p->strided ? AT_OFFSET : AT_FLAT, "        ");
    em_sb_puts(&b, "    }\n}\n");
    return em_sb_take(&b, out, "a fused kernel");
}

/* ---- compile and launch ------------------------------------------------ */

static em_gen_ktable fz_table = EM_GEN_KTABLE(2048);

static em_status load(const void *ctx, em_device *dev, em_function **fn)
{
    const fz_plan *p = ctx;
    const char *const names[1] = {p->name};
    em_device_type t = em_device_get_type(dev);
    const char *const *opts;
    int nopts;
    char *src = NULL;
    em_status st = gen_source(p, &src);
    if (st != EM_OK)
        return st;
    opts = em_gen_ewise_options(t, &nopts);
    return em_gen_kt_compile(dev, src, opts, nopts, FZ_VERSION, names, 1, fn);
}

em_status em_fz_kt_get(em_gen_ktable *t, em_device *dev,
                       const unsigned char *kb, int klen, uint32_t version,
                       em_gen_kt_load_fn make, const void *ctx,
                       em_function **fn)
{
    em_gen_kkey key;
    /* Eight bytes a step: a byte-serial hash (FNV-1a) cost a fused
     * reduction of ten nodes ~150 key bytes times a 4-cycle dependent
     * multiply, on every call. The text still decides equality. */
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)klen, w;
    int i = 0;
    for (; i + 8 <= klen; i += 8) {
        memcpy(&w, kb + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    if (i < klen) {
        w = 0;
        memcpy(&w, kb + i, (size_t)(klen - i));
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    memset(&key, 0, sizeof key);
    key.w[0] = h;
    key.w[1] = (uint64_t)klen | (uint64_t)version << 32;
    key.text = (const char *)kb;
    return em_gen_kt_get(t, dev, &key, 1, fn, make, ctx);
}

int em_fz_valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 63 || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(s[i] == '_' || (s[i] >= '0' && s[i] <= '9') ||
              (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
            return 0;
    return 1;
}

em_status em_fz_launch(fz_group *g, const char *name)
{
    fz_plan p;
    unsigned char kb[FZ_KEY_MAX];
    em_function *fn = NULL;
    void *ptrs[EM_FUSE_MAX_NODES + EM_FUSE_MAX_LEAVES];
    void *args[EM_FUSE_MAX_NODES + EM_FUSE_MAX_LEAVES + 2 * EM_FUSE_MAX_NODES +
               2];
    int64_t geo[EM_MAX_NDIM + EM_FUSE_MAX_LEAVES * EM_MAX_NDIM];
    int64_t n = g->n;
    int na = 0, np = 0, klen;
    em_dim3 grid, block;
    em_status st;

    if (name && !em_fz_valid_name(name))
        return em_error(EM_ERR_INVALID_VALUE,
                        "a fused kernel's name must be a C identifier of at "
                        "most 63 characters, not '%.80s'",
                        name);
    memset(&p, 0, sizeof p);
    p.g = g;
    p.name = name ? name : "ember_fused";
    plan_layout(g, &p);

    klen = key_bytes(&p, kb);
    st = em_fz_kt_get(&fz_table, g->dev, kb, klen, FZ_VERSION, load, &p, &fn);
    if (st != EM_OK)
        return st;

    for (int i = 0; i < g->nnodes; i++)
        if (g->node[i].out) {
            ptrs[np] = g->node[i].out_data;
            args[na++] = &ptrs[np++];
        }
    for (int j = 0; j < g->nleaves; j++) {
        ptrs[np] = g->leaf[j].data;
        args[na++] = &ptrs[np++];
    }
    for (int j = 0; j < g->nscalars; j++)
        args[na++] = g->sval[j];
    args[na++] = &n;
    if (p.strided) {
        int nl = g->nleaves ? g->nleaves : 1;
        memcpy(geo, p.shape, (size_t)p.nd * sizeof *geo);
        memset(geo + p.nd, 0, (size_t)nl * p.nd * sizeof *geo);
        for (int j = 0; j < g->nleaves; j++)
            memcpy(geo + p.nd + j * p.nd, p.st[1 + j],
                   (size_t)p.nd * sizeof *geo);
        args[na++] = geo;
    }
    ck_geometry(g->dev, p.cuda ? (n + p.vw - 1) / p.vw : n, &grid, &block);
    st = em_launch(fn, grid, block, 0, g->s, args);
    if (st == EM_OK)
        atomic_fetch_add_explicit(&launches, 1, memory_order_relaxed);
    return st;
}
