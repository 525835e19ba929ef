/* ember codegen: ElementwiseKernel, the generator and the call.
 *
 * One kernel per specialisation: a loop over the flat index `i` (grid-
 * stride on CUDA, one contiguous chunk per block on the host, whose blocks
 * have one thread), each non-raw operand's element offset from `i` (the
 * same `i` when every operand is contiguous along the collapsed shape,
 * else a division chain over the collapsed extents), then the user's
 * operation with inputs as const locals and outputs as macros naming the
 * element, so `z = x + y` and `z += x` both write memory directly.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/ckernel.h"
#include "core/layout.h"

#define MAX_ARGS (EM_CK_MAX_PARAMS * (EM_MAX_NDIM + 2) + EM_MAX_NDIM + 2)

/* Geometry of one call: operand element strides over the collapsed
 * shape, for params that are non-raw arrays. */
typedef struct ew_geom {
    int nd, contig;
    int64_t n;
    int64_t shape[EM_MAX_NDIM];
    int64_t st[EM_CK_MAX_PARAMS][EM_MAX_NDIM];
    int isarr[EM_CK_MAX_PARAMS];
} ew_geom;

static void emit_loop(em_sb *sb, em_device_type target)
{
    if (target == EM_DEVICE_CUDA)
        em_sb_puts(sb, "    for (long long i = (long long)blockIdx.x * "
                       "blockDim.x + threadIdx.x; i < _ind_size; i += "
                       "(long long)gridDim.x * blockDim.x) {\n");
    else
        em_sb_puts(sb,
                   "    long long _ck_nt = (long long)gridDim.x * blockDim.x,"
                   " _ck_t = (long long)blockIdx.x * blockDim.x + "
                   "threadIdx.x;\n"
                   "    long long _ck_per = (_ind_size + _ck_nt - 1) / "
                   "_ck_nt, _ck_beg = _ck_t * _ck_per;\n"
                   "    long long _ck_end = _ck_beg + _ck_per < _ind_size ? "
                   "_ck_beg + _ck_per : _ind_size;\n"
                   "    for (long long i = _ck_beg; i < _ck_end; i++) {\n");
}

static em_status gen_ewise(const em_ckernel *k, const ck_bound *b,
                           const ck_key *key, em_device_type target,
                           char **src)
{
    em_sb sb = {0};
    int nd = key->nd0, contig = key->nd1, first = 1;
    ck_emit_head(&sb, k, b, target);
    em_sb_printf(&sb, "extern \"C\" __global__ void %s(", k->name);
    for (int j = 0; j < k->np; j++) {
        const ck_param *p = &k->p[j];
        const char *ct = ck_ctype(b->dt[j]);
        em_sb_puts(&sb, first ? "" : ", ");
        first = 0;
        if (p->raw)
            em_sb_printf(&sb, "%s *%s, long long %s_size", ct, p->name,
                         p->name);
        else if (key->dt[j] & CK_SCALAR)
            em_sb_printf(&sb, "%s %s", ct, p->name);
        else {
            em_sb_printf(&sb, "%s%s *_ck_p_%s", p->out ? "" : "const ",
                         ck_stype(b->dt[j]), p->name);
            if (!contig)
                for (int a = 0; a < nd; a++)
                    em_sb_printf(&sb, ", long long _ck_s_%s_%d", p->name, a);
        }
    }
    em_sb_printf(&sb, "%slong long _ind_size", first ? "" : ", ");
    if (!contig)
        for (int a = 0; a < nd; a++)
            em_sb_printf(&sb, ", long long _ck_sh%d", a);
    em_sb_printf(&sb, ")\n{\n%s\n", k->loop_prep);
    emit_loop(&sb, target);
    if (!contig) {
        em_sb_puts(&sb, "        long long _ck_r = i, _ck_c;\n");
        for (int j = 0; j < k->np; j++)
            if (!k->p[j].raw && !(key->dt[j] & CK_SCALAR))
                em_sb_printf(&sb, "        long long _ck_o_%s = 0;\n",
                             k->p[j].name);
        for (int a = nd - 1; a >= 0; a--) {
            if (a > 0)
                em_sb_printf(&sb,
                             "        _ck_c = _ck_r %% _ck_sh%d; _ck_r /= "
                             "_ck_sh%d;\n",
                             a, a);
            else
                em_sb_puts(&sb, "        _ck_c = _ck_r;\n");
            for (int j = 0; j < k->np; j++)
                if (!k->p[j].raw && !(key->dt[j] & CK_SCALAR))
                    em_sb_printf(&sb, "        _ck_o_%s += _ck_c * _ck_s_%s_%d;\n",
                                 k->p[j].name, k->p[j].name, a);
        }
    }
    em_sb_puts(&sb, "        {\n");
    for (int j = 0; j < k->np && strstr(k->operation, "_ck_ptr_"); j++) {
        /* element pointers, for generated operations that pass operands
         * on (the gufunc loops) */
        const ck_param *p = &k->p[j];
        if (p->raw || (key->dt[j] & CK_SCALAR))
            continue;
        em_sb_printf(&sb, "        %s%s *_ck_ptr_%s = _ck_p_%s + %s%s;\n",
                     p->out ? "" : "const ", ck_stype(b->dt[j]), p->name,
                     p->name, contig ? "i" : "_ck_o_", contig ? "" : p->name);
    }
    for (int j = 0; j < k->np; j++) {
        const ck_param *p = &k->p[j];
        if (p->raw || (key->dt[j] & CK_SCALAR))
            continue;
        const char *ld = ck_load(b->dt[j]);
        const char *off = contig ? "i" : "_ck_o_";
        const char *on = contig ? "" : p->name;
        if (p->out && !ld)
            em_sb_printf(&sb, "#define %s (_ck_p_%s[%s%s])\n", p->name,
                         p->name, off, on);
        else if (p->out) /* a float local, stored back after */
            em_sb_printf(&sb, "        float %s = %s(_ck_p_%s[%s%s]);\n",
                         p->name, ld, p->name, off, on);
        else
            em_sb_printf(&sb, "        const %s %s = %s(_ck_p_%s[%s%s]);\n",
                         ck_ctype(b->dt[j]), p->name, ld ? ld : "", p->name,
                         off, on);
    }
    em_sb_printf(&sb, "%s;\n", k->operation);
    for (int j = 0; j < k->np; j++) {
        const char *stf = ck_store(b->dt[j]);
        if (!k->p[j].out || k->p[j].raw)
            continue;
        if (stf)
            em_sb_printf(&sb, "        _ck_p_%s[%s%s] = %s(%s);\n",
                         k->p[j].name, contig ? "i" : "_ck_o_",
                         contig ? "" : k->p[j].name, stf, k->p[j].name);
        else
            em_sb_printf(&sb, "#undef %s\n", k->p[j].name);
    }
    em_sb_printf(&sb, "        }\n    }\n%s\n}\n", k->after_loop);
    if (sb.oom) {
        free(sb.p);
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory generating %s",
                        k->name);
    }
    *src = sb.p;
    return EM_OK;
}

/* Element strides of a over the shape (nd, shape), right-aligned, 0 on
 * broadcast axes. */
static em_status elem_strides(const em_ckernel *k, int j, const em_array *a,
                              int nd, const int64_t *shape, int64_t *st)
{
    int64_t isz = (int64_t)em_dtype_size(a->dtype);
    em_layout_broadcast_strides(a->ndim, a->shape, a->strides, nd, shape, st);
    for (int ax = 0; ax < nd; ax++) {
        if (st[ax] % isz)
            return em_error(EM_ERR_NOT_SUPPORTED,
                            "ElementwiseKernel '%s': the argument for '%s' "
                            "has a byte stride (%lld) that is not a multiple "
                            "of its item size; pass a copy",
                            k->name, k->p[j].name, (long long)st[ax]);
        st[ax] /= isz;
    }
    return EM_OK;
}

static em_status geometry(const em_ckernel *k, const em_operand *in,
                          const em_array *out, const ck_bound *b, int nd,
                          const int64_t *shape, ew_geom *g)
{
    em_status s;
    memset(g, 0, sizeof *g);
    g->n = 1;
    for (int ax = 0; ax < nd; ax++)
        g->n *= shape[ax];
    for (int j = 0; j < k->np; j++) {
        const em_array *a = j < k->nin ? in[j].array : &out[j - k->nin];
        if (k->p[j].raw || !a || b->scalar[j])
            continue;
        g->isarr[j] = 1;
        if ((s = elem_strides(k, j, a, nd, shape, g->st[j])) != EM_OK)
            return s;
    }
    if (nd > 0)
        memcpy(g->shape, shape, (size_t)nd * sizeof *shape);
    g->nd = em_layout_collapse(nd, g->shape, k->np, g->st, g->isarr, -1,
                               k->reduce_dims);
    g->contig = g->nd <= 1;
    for (int j = 0; j < k->np && g->nd == 1; j++)
        if (g->isarr[j] && g->st[j][0] != 1)
            g->contig = 0;
    return EM_OK;
}

em_status em_ckernel_elementwise(em_ckernel *k, const em_operand *in,
                                 em_array *out, int64_t size, em_stream *s)
{
    ck_bound b;
    ck_key key;
    ew_geom g;
    ck_raw raw;
    em_function *fn;
    int nd = 0, narr = 0, alloc[EM_CK_MAX_PARAMS] = {0};
    int64_t shape[EM_MAX_NDIM];
    void *args[MAX_ARGS], *ptrs[EM_CK_MAX_PARAMS];
    long long words[MAX_ARGS];
    int na = 0, nw = 0;
    em_dim3 grid, block;
    em_status st;

    if (k->reduction)
        return em_error(EM_ERR_INVALID_VALUE,
                        "'%s' is a reduction kernel", k->name);
    if ((st = ck_bind(k, in, out, &b)) != EM_OK)
        return st;
    /* the broadcast shape of the non-raw arrays */
    if ((st = ck_broadcast(k, in, out, k->np, &nd, shape, &narr)) != EM_OK)
        return st;
    if (narr == 0) {
        if (size < 0)
            return em_error(EM_ERR_INVALID_VALUE,
                            "ElementwiseKernel '%s': no non-raw array "
                            "argument gives the loop's size; pass size=",
                            k->name);
        nd = 1;
        shape[0] = size;
    } else if (size >= 0) {
        return em_error(EM_ERR_INVALID_VALUE,
                        "ElementwiseKernel '%s': size= is given, but the "
                        "non-raw array arguments already set the size",
                        k->name);
    }
    if ((st = ck_check_outputs(k, out, nd, shape,
                               "the arguments broadcast to")) != EM_OK)
        return st;
    if ((st = ck_make_outputs(k, &b, out, nd, shape, s, alloc)) != EM_OK)
        goto fail;
    if ((st = geometry(k, in, out, &b, nd, shape, &g)) != EM_OK)
        goto fail;
    if (g.n == 0)
        return EM_OK;
    ck_key_init(&key, k, &b);
    key.nd0 = (uint8_t)(g.contig ? 0 : g.nd);
    key.nd1 = (uint8_t)g.contig;
    if ((st = ck_function(k, b.dev, &b, &key, gen_ewise, &fn, NULL)) !=
        EM_OK)
        goto fail;
    if ((st = ck_raw_prepare(k, in, out, &raw, s)) != EM_OK) {
        st = ck_raw_finish(k, in, out, &raw, s, st);
        goto fail;
    }
    for (int j = 0; j < k->np; j++) {
        const em_array *a = j < k->nin ? in[j].array : &out[j - k->nin];
        if (k->p[j].raw) {
            const em_array *r = raw.used[j] ? &raw.tmp[j] : a;
            ptrs[j] = r->data;
            args[na++] = &ptrs[j];
            words[nw] = (long long)r->size;
            args[na++] = &words[nw++];
        } else if (b.scalar[j]) {
            args[na++] = b.val[j];
        } else {
            ptrs[j] = a->data;
            args[na++] = &ptrs[j];
            for (int ax = 0; ax < g.nd && !g.contig; ax++) {
                words[nw] = (long long)g.st[j][ax];
                args[na++] = &words[nw++];
            }
        }
    }
    words[nw] = (long long)g.n;
    args[na++] = &words[nw++];
    for (int ax = 0; ax < g.nd && !g.contig; ax++) {
        words[nw] = (long long)g.shape[ax];
        args[na++] = &words[nw++];
    }
    ck_geometry(b.dev, g.n, &grid, &block);
    if (em_function_param_count(fn) >= 0 &&
        em_function_param_count(fn) != na)
        st = em_error(EM_ERR_INTERNAL,
                      "ElementwiseKernel '%s': %d arguments packed for %d "
                      "parameters",
                      k->name, na, em_function_param_count(fn));
    else
        st = em_launch(fn, grid, block, 0, s, args);
    st = ck_raw_finish(k, in, out, &raw, s, st);
    if (st != EM_OK)
        goto fail;
    return EM_OK;
fail:
    ck_drop_outputs(k, out, alloc);
    return st;
}
