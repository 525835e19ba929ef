/* ember codegen: ReductionKernel, the generator and the call.
 *
 * The inputs broadcast to one shape; its axes split into kept ones (the
 * output's) and reduced ones, each set collapsed on its own. Schedules
 * (CK_SCHED_*, part of the key):
 *   plain: on CUDA a block reduces one output at a time (grid-stride over
 *     outputs), its threads striding over the reduced elements, then a
 *     tree in shared memory; the block size follows the reduced length
 *     (32 to 256). On the host a block is one thread reducing its outputs
 *     one after another.
 *   split: few outputs of long reductions: each output's range is cut in
 *     chunks reduced by separate blocks into partials (pool memory), then
 *     a second kernel combines each output's partials and runs
 *     post_map_expr; on the host this also bounds float rounding error.
 *   column: many outputs contiguous in memory reduced along a strided
 *     axis: on CUDA a block of 32 x 32 threads takes 32 consecutive
 *     outputs (coalesced reads), the reduction striped over y; on the host
 *     a thread keeps 64 accumulators and reads each row's stretch in order.
 * Without an identity each partial result carries a flag saying whether
 * it holds anything, so empty partials never enter reduce_expr.
 */
#include <stdlib.h>
#include <string.h>

#include "codegen/ckernel.h"
#include "core/layout.h"

#define MAX_ARGS (EM_CK_MAX_PARAMS * (2 * EM_MAX_NDIM + 1) + 2 * EM_MAX_NDIM + 8)

typedef struct rd_geom {
    int kd, rd;
    int64_t out_size, red_size;
    int64_t ksh[EM_MAX_NDIM], rsh[EM_MAX_NDIM];
    int64_t kst[EM_CK_MAX_PARAMS][EM_MAX_NDIM];
    int64_t rst[EM_CK_MAX_PARAMS][EM_MAX_NDIM];
    int isarr[EM_CK_MAX_PARAMS];
} rd_geom;

static int is_arr(const ck_key *key, const em_ckernel *k, int j)
{
    (void)k;
    return !(key->dt[j] & CK_SCALAR);
}

/* A line per array operand among the first n parameters: fmt names the
 * parameter once or twice (%s each; printf ignores an unused argument). */
static void each_array(em_sb *sb, const em_ckernel *k, const ck_key *key,
                       int n, const char *fmt)
{
    for (int j = 0; j < n; j++)
        if (is_arr(key, k, j))
            em_sb_printf(sb, fmt, k->p[j].name, k->p[j].name);
}

static void unravel(em_sb *sb, const em_ckernel *k, const ck_key *key,
                    const char *var, const char *sh, int nd, const char *off,
                    const char *st, int outputs)
{
    em_sb_printf(sb, "        { long long _ck_q = %s, _ck_d;\n", var);
    for (int a = nd - 1; a >= 0; a--) {
        if (a > 0)
            em_sb_printf(sb,
                         "          _ck_d = _ck_q %% %s%d; _ck_q /= %s%d;\n",
                         sh, a, sh, a);
        else
            em_sb_puts(sb, "          _ck_d = _ck_q;\n");
        for (int j = 0; j < k->np; j++)
            if (is_arr(key, k, j) && (outputs || !k->p[j].out))
                em_sb_printf(sb, "          %s%s += _ck_d * %s%s_%d;\n", off,
                             k->p[j].name, st, k->p[j].name, a);
    }
    em_sb_puts(sb, "        }\n");
}

static void emit_params(em_sb *sb, const em_ckernel *k, const ck_bound *b,
                        const ck_key *key, int split)
{
    int kd = key->nd0, rd = key->nd1, first = 1;
    for (int j = 0; j < k->np; j++) {
        const ck_param *p = &k->p[j];
        const char *ct = ck_ctype(b->dt[j]);
        em_sb_puts(sb, first ? "" : ", ");
        first = 0;
        if (!is_arr(key, k, j)) {
            em_sb_printf(sb, "%s %s", ct, p->name);
            continue;
        }
        em_sb_printf(sb, "%s%s *_ck_p_%s", p->out ? "" : "const ",
                     ck_stype(b->dt[j]), p->name);
        for (int a = 0; a < kd; a++)
            em_sb_printf(sb, ", long long _ck_k_%s_%d", p->name, a);
        for (int a = 0; a < rd && !p->out; a++)
            em_sb_printf(sb, ", long long _ck_r_%s_%d", p->name, a);
    }
    em_sb_printf(sb, "%slong long _ck_out_size, long long _ck_red_size",
                 first ? "" : ", ");
    for (int a = 0; a < kd; a++)
        em_sb_printf(sb, ", long long _ck_ksh%d", a);
    for (int a = 0; a < rd; a++)
        em_sb_printf(sb, ", long long _ck_rsh%d", a);
    if (split)
        em_sb_puts(sb, ", _type_reduce *_ck_part, int *_ck_pflag, long long "
                       "_ck_chunks");
    em_sb_puts(sb, ")\n{\n");
}

/* The block's tree over _ck_acc (and _ck_has when flags): the result in
 * _ck_sa[0] (and _ck_sf[0]). */
static void emit_tree(em_sb *sb, int flags)
{
    em_sb_puts(sb, "        _ck_sa[threadIdx.x] = _ck_acc;\n");
    if (flags)
        em_sb_puts(sb, "        _ck_sf[threadIdx.x] = _ck_has;\n");
    em_sb_puts(sb, "        __syncthreads();\n"
                   "        for (unsigned _ck_s = blockDim.x >> 1; _ck_s > "
                   "0; _ck_s >>= 1) {\n"
                   "            unsigned _ck_t = threadIdx.x;\n"
                   "            if (_ck_t < _ck_s) {\n");
    if (!flags)
        em_sb_puts(sb, "                _ck_sa[_ck_t] = _ck_red(_ck_sa"
                       "[_ck_t], _ck_sa[_ck_t + _ck_s]);\n");
    else
        em_sb_puts(sb, "                if (_ck_sf[_ck_t + _ck_s]) {\n"
                       "                    _ck_sa[_ck_t] = _ck_sf[_ck_t] ? "
                       "_ck_red(_ck_sa[_ck_t], _ck_sa[_ck_t + _ck_s]) : "
                       "_ck_sa[_ck_t + _ck_s];\n"
                       "                    _ck_sf[_ck_t] = 1;\n"
                       "                }\n");
    em_sb_puts(sb, "            }\n            __syncthreads();\n"
                   "        }\n");
}

/* post_map_expr with `a` in scope and the outputs as lvalues. */
static void emit_post(em_sb *sb, const em_ckernel *k, const ck_bound *b)
{
    for (int j = k->nin; j < k->np; j++) {
        const char *nm = k->p[j].name;
        if (ck_load(b->dt[j]))   /* a float local, stored back after */
            em_sb_printf(sb, "        float %s = %s(_ck_p_%s[_ck_b_%s]);\n",
                         nm, ck_load(b->dt[j]), nm, nm);
        else
            em_sb_printf(sb, "#define %s (_ck_p_%s[_ck_b_%s])\n", nm, nm, nm);
    }
    em_sb_printf(sb, "%s;\n", k->post_map_expr);
    for (int j = k->nin; j < k->np; j++) {
        const char *nm = k->p[j].name, *stf = ck_store(b->dt[j]);
        if (stf)
            em_sb_printf(sb, "        _ck_p_%s[_ck_b_%s] = %s(%s);\n", nm, nm,
                         stf, nm);
        else
            em_sb_printf(sb, "#undef %s\n", nm);
    }
}

static void emit_bases(em_sb *sb, const em_ckernel *k, const ck_key *key)
{
    each_array(sb, k, key, k->np, "        long long _ck_b_%s = 0;\n");
    unravel(sb, k, key, "_ck_o", "_ck_ksh", key->nd0, "_ck_b_", "_ck_k_", 1);
}

/* One output's reduction. Kinds: 0 whole (host: one thread; cuda: one
 * block), 1 a chunk of it into the partials (cuda, split). */
static void emit_reduce_loop(em_sb *sb, const em_ckernel *k,
                             const ck_bound *b, const ck_key *key, int cuda,
                             int chunk)
{
    /* the column schedule strides the reduction over threadIdx.y */
    int col = key->split == CK_SCHED_COLUMN;
    int ident = k->identity != NULL;
    if (ident)
        em_sb_printf(sb, "        _type_reduce _ck_acc = (%s);\n",
                     k->identity);
    else
        em_sb_puts(sb, "        _type_reduce _ck_acc;\n");
    em_sb_puts(sb, "        int _ck_has = 0;\n");
    if (chunk)
        em_sb_puts(sb, "        long long _ck_len = (_ck_red_size + "
                       "_ck_chunks - 1) / _ck_chunks, _ck_j0 = _ck_cc * "
                       "_ck_len, _ck_j1 = _ck_j0 + _ck_len < _ck_red_size ? "
                       "_ck_j0 + _ck_len : _ck_red_size;\n");
    else
        em_sb_puts(sb, "        long long _ck_j0 = 0, _ck_j1 = "
                       "_ck_red_size;\n");
    em_sb_printf(sb,
                 "        for (long long _ck_j = _ck_j0 + %s; _ck_j < _ck_j1; "
                 "_ck_j += %s) {\n",
                 !cuda ? "0" : col ? "threadIdx.y" : "threadIdx.x",
                 !cuda ? "1" : col ? "blockDim.y" : "blockDim.x");
    each_array(sb, k, key, k->nin, "        long long _ck_i_%s = _ck_b_%s;\n");
    unravel(sb, k, key, "_ck_j", "_ck_rsh", key->nd1, "_ck_i_", "_ck_r_", 0);
    em_sb_puts(sb, "        {\n");
    for (int j = 0; j < k->nin; j++)
        if (is_arr(key, k, j))
            em_sb_printf(sb, "        const %s %s = %s(_ck_p_%s[_ck_i_%s]);\n",
                         ck_ctype(b->dt[j]), k->p[j].name,
                         ck_load(b->dt[j]) ? ck_load(b->dt[j]) : "",
                         k->p[j].name, k->p[j].name);
    em_sb_printf(sb, "        _type_reduce _ck_v = (%s);\n", k->map_expr);
    if (ident)
        em_sb_puts(sb, "        _ck_acc = _ck_red(_ck_acc, _ck_v);\n");
    else
        em_sb_puts(sb, "        _ck_acc = _ck_has ? _ck_red(_ck_acc, _ck_v)"
                       " : _ck_v;\n");
    em_sb_puts(sb, "        _ck_has = 1;\n        }\n        }\n");
}

static em_status gen_reduce(const em_ckernel *k, const ck_bound *b,
                            const ck_key *key, em_device_type target,
                            char **src)
{
    em_sb sb = {0};
    int cuda = target == EM_DEVICE_CUDA;
    int split = key->split == CK_SCHED_SPLIT;
    int bs = 1 << key->bs, flags = k->identity == NULL;
    ck_emit_head(&sb, k, b, target);
    em_sb_printf(&sb,
                 "__device__ __forceinline__ _type_reduce "
                 "_ck_red(_type_reduce a, _type_reduce b)\n{\n"
                 "    return (%s);\n}\n",
                 k->reduce_expr);
    em_sb_printf(&sb, "extern \"C\" __global__ void %s(", k->name);
    emit_params(&sb, k, b, key, split);
    if (cuda) {
        em_sb_printf(&sb, "    __shared__ _type_reduce _ck_sa[%d];\n", bs);
        em_sb_printf(&sb, "    __shared__ int _ck_sf[%d];\n", bs);
    }
    if (!cuda && key->split == CK_SCHED_COLUMN) {
        /* the host's column schedule: a thread takes 64 consecutive
         * outputs and walks the reduction once for all of them, reading
         * each row's stretch in order (the cache's order) */
        int ident = k->identity != NULL;
        em_sb_puts(&sb,
                   "    for (long long _ck_g = blockIdx.x; _ck_g < "
                   "(_ck_out_size + 63) / 64; _ck_g += gridDim.x) {\n"
                   "        long long _ck_o0 = _ck_g * 64, _ck_n = "
                   "_ck_out_size - _ck_o0 < 64 ? _ck_out_size - _ck_o0 : "
                   "64;\n"
                   "        _type_reduce _ck_accs[64];\n"
                   "        int _ck_hass[64];\n");
        each_array(&sb, k, key, k->nin, "        long long _ck_B_%s[64];\n");
        em_sb_puts(&sb, "        for (long long _ck_q2 = 0; _ck_q2 < _ck_n; "
                        "_ck_q2++) {\n"
                        "        long long _ck_o = _ck_o0 + _ck_q2;\n");
        emit_bases(&sb, k, key);
        each_array(&sb, k, key, k->nin,
                   "        _ck_B_%s[_ck_q2] = _ck_b_%s;\n");
        if (ident)
            em_sb_printf(&sb, "        _ck_accs[_ck_q2] = (%s);\n",
                         k->identity);
        em_sb_puts(&sb, "        _ck_hass[_ck_q2] = 0;\n        }\n"
                        "        for (long long _ck_j = 0; _ck_j < "
                        "_ck_red_size; _ck_j++) {\n");
        each_array(&sb, k, key, k->nin, "        long long _ck_i_%s = 0;\n");
        unravel(&sb, k, key, "_ck_j", "_ck_rsh", key->nd1, "_ck_i_",
                "_ck_r_", 0);
        em_sb_puts(&sb, "        for (long long _ck_q2 = 0; _ck_q2 < _ck_n; "
                        "_ck_q2++) {\n");
        for (int j = 0; j < k->nin; j++)
            if (is_arr(key, k, j))
                em_sb_printf(&sb,
                             "        const %s %s = %s(_ck_p_%s[_ck_B_%s"
                             "[_ck_q2] + _ck_i_%s]);\n",
                             ck_ctype(b->dt[j]), k->p[j].name,
                             ck_load(b->dt[j]) ? ck_load(b->dt[j]) : "",
                             k->p[j].name, k->p[j].name, k->p[j].name);
        em_sb_printf(&sb, "        _type_reduce _ck_v = (%s);\n",
                     k->map_expr);
        if (ident)
            em_sb_puts(&sb, "        _ck_accs[_ck_q2] = _ck_red(_ck_accs"
                            "[_ck_q2], _ck_v);\n");
        else
            em_sb_puts(&sb, "        _ck_accs[_ck_q2] = _ck_hass[_ck_q2] ? "
                            "_ck_red(_ck_accs[_ck_q2], _ck_v) : _ck_v;\n"
                            "        _ck_hass[_ck_q2] = 1;\n");
        em_sb_puts(&sb, "        }\n        }\n"
                        "        for (long long _ck_q2 = 0; _ck_q2 < _ck_n; "
                        "_ck_q2++) {\n"
                        "        long long _ck_o = _ck_o0 + _ck_q2;\n");
        emit_bases(&sb, k, key);
        em_sb_puts(&sb, "        {\n        _type_reduce a = "
                        "_ck_accs[_ck_q2];\n");
        emit_post(&sb, k, b);
        em_sb_puts(&sb, "        }\n        }\n    }\n}\n");
        goto done;
    }
    if (cuda && key->split == CK_SCHED_COLUMN) {
        /* 32 consecutive outputs per block along x (coalesced reads when
         * they are contiguous), the reduction striped over y */
        em_sb_puts(&sb,
                   "    for (long long _ck_g = blockIdx.x; _ck_g < "
                   "(_ck_out_size + 31) / 32; _ck_g += gridDim.x) {\n"
                   "        int _ck_live = _ck_g * 32 + threadIdx.x < "
                   "_ck_out_size;\n"
                   "        long long _ck_o = _ck_live ? _ck_g * 32 + "
                   "threadIdx.x : 0;\n");
        emit_bases(&sb, k, key);
        emit_reduce_loop(&sb, k, b, key, cuda, 0);
        em_sb_puts(&sb,
                   "        unsigned _ck_me = threadIdx.y * 32 + threadIdx.x;\n"
                   "        _ck_sa[_ck_me] = _ck_acc;\n"
                   "        _ck_sf[_ck_me] = _ck_has;\n"
                   "        __syncthreads();\n"
                   "        for (unsigned _ck_s = blockDim.y >> 1; _ck_s > 0; "
                   "_ck_s >>= 1) {\n"
                   "            unsigned _ck_u = _ck_me + _ck_s * 32;\n"
                   "            if (threadIdx.y < _ck_s && _ck_sf[_ck_u]) {\n"
                   "                _ck_sa[_ck_me] = _ck_sf[_ck_me] ? "
                   "_ck_red(_ck_sa[_ck_me], _ck_sa[_ck_u]) : _ck_sa[_ck_u];\n"
                   "                _ck_sf[_ck_me] = 1;\n"
                   "            }\n            __syncthreads();\n        }\n"
                   "        if (threadIdx.y == 0 && _ck_live) {\n"
                   "        _type_reduce a = _ck_sa[threadIdx.x];\n");
        emit_post(&sb, k, b);
        em_sb_puts(&sb, "        }\n        __syncthreads();\n    }\n}\n");
        goto done;
    }
    if (split)
        em_sb_puts(&sb, "    for (long long _ck_vb = blockIdx.x; _ck_vb < "
                        "_ck_out_size * _ck_chunks; _ck_vb += gridDim.x) {\n"
                        "        long long _ck_o = _ck_vb / _ck_chunks, "
                        "_ck_cc = _ck_vb - _ck_o * _ck_chunks;\n");
    else
        em_sb_puts(&sb, "    for (long long _ck_o = blockIdx.x; _ck_o < "
                        "_ck_out_size; _ck_o += gridDim.x) {\n");
    emit_bases(&sb, k, key);
    emit_reduce_loop(&sb, k, b, key, cuda, split);
    if (split && !cuda) {
        /* host blocks are one thread: no tree, and a plain second pass */
        em_sb_printf(&sb,
                     "        _ck_part[_ck_vb] = _ck_acc;\n"
                     "        _ck_pflag[_ck_vb] = _ck_has;\n    }\n}\n"
                     "extern \"C\" __global__ void %s_ck_fin(",
                     k->name);
        emit_params(&sb, k, b, key, 1);
        em_sb_puts(&sb, "    for (long long _ck_o = blockIdx.x; _ck_o < "
                        "_ck_out_size; _ck_o += gridDim.x) {\n");
        emit_bases(&sb, k, key);
        em_sb_puts(&sb,
                   "        _type_reduce _ck_acc = _ck_part[_ck_o * "
                   "_ck_chunks];\n"
                   "        int _ck_has = 0;\n"
                   "        for (long long _ck_c = 0; _ck_c < _ck_chunks; "
                   "_ck_c++) {\n"
                   "            long long _ck_q = _ck_o * _ck_chunks + "
                   "_ck_c;\n"
                   "            if (_ck_pflag[_ck_q]) {\n"
                   "                _ck_acc = _ck_has ? _ck_red(_ck_acc, "
                   "_ck_part[_ck_q]) : _ck_part[_ck_q];\n"
                   "                _ck_has = 1;\n            }\n        }\n"
                   "        {\n        _type_reduce a = _ck_acc;\n");
        emit_post(&sb, k, b);
        em_sb_puts(&sb, "        }\n    }\n}\n");
    } else if (split) {
        emit_tree(&sb, 1);
        em_sb_puts(&sb, "        if (threadIdx.x == 0) {\n"
                        "            _ck_part[_ck_vb] = _ck_sa[0];\n"
                        "            _ck_pflag[_ck_vb] = _ck_sf[0];\n"
                        "        }\n        __syncthreads();\n    }\n}\n");
        /* the second pass: each output's partials, then post_map_expr */
        em_sb_printf(&sb, "extern \"C\" __global__ void %s_ck_fin(",
                     k->name);
        emit_params(&sb, k, b, key, 1);
        em_sb_printf(&sb,
                     "    __shared__ _type_reduce _ck_sa[%d];\n"
                     "    __shared__ int _ck_sf[%d];\n"
                     "    for (long long _ck_o = blockIdx.x; _ck_o < "
                     "_ck_out_size; _ck_o += gridDim.x) {\n",
                     bs, bs);
        emit_bases(&sb, k, key);
        em_sb_puts(&sb,
                   "        _type_reduce _ck_acc = _ck_part[_ck_o * "
                   "_ck_chunks];\n"
                   "        int _ck_has = 0;\n"
                   "        for (long long _ck_c = threadIdx.x; _ck_c < "
                   "_ck_chunks; _ck_c += blockDim.x) {\n"
                   "            long long _ck_q = _ck_o * _ck_chunks + "
                   "_ck_c;\n"
                   "            if (_ck_pflag[_ck_q]) {\n"
                   "                _ck_acc = _ck_has ? _ck_red(_ck_acc, "
                   "_ck_part[_ck_q]) : _ck_part[_ck_q];\n"
                   "                _ck_has = 1;\n            }\n        }\n");
        emit_tree(&sb, 1);
        em_sb_puts(&sb, "        if (threadIdx.x == 0) {\n"
                        "        _type_reduce a = _ck_sa[0];\n");
        emit_post(&sb, k, b);
        em_sb_puts(&sb, "        }\n        __syncthreads();\n    }\n}\n");
    } else if (cuda) {
        emit_tree(&sb, flags);
        em_sb_puts(&sb, "        if (threadIdx.x == 0) {\n"
                        "        _type_reduce a = _ck_sa[0];\n");
        emit_post(&sb, k, b);
        em_sb_puts(&sb, "        }\n        __syncthreads();\n    }\n}\n");
    } else {
        em_sb_puts(&sb, "        {\n        _type_reduce a = _ck_acc;\n");
        emit_post(&sb, k, b);
        em_sb_puts(&sb, "        }\n    }\n}\n");
    }
done:
    if (sb.oom) {
        free(sb.p);
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory generating %s",
                        k->name);
    }
    *src = sb.p;
    return EM_OK;
}

/* Bytes of the reduce type when it is a dtype's C type (directly, by
 * dtype name or through a placeholder); 0 when unknown (a struct). */
static size_t reduce_type_size(const em_ckernel *k, const ck_bound *b)
{
    const char *rt = k->reduce_type;
    if (!rt)
        return ck_csize(b->dt[k->nin]);
    for (int d = 0; d < EM_DTYPE_COUNT; d++)
        if (ck_ctype((em_dtype)d) &&
            (!strcmp(rt, em_dtype_get((em_dtype)d)->name) ||
             !strcmp(rt, ck_ctype((em_dtype)d))))
            return ck_csize((em_dtype)d);
    for (int h = 0; h < k->nph; h++)
        if (!strcmp(rt, k->ph[h]))
            return ck_csize(b->ph[h]);
    return 0;
}

em_status em_ckernel_reduce(em_ckernel *k, const em_operand *in,
                            em_array *out, const int *axes, int naxis,
                            int keepdims, em_stream *s)
{
    ck_bound b;
    ck_key key;
    rd_geom g;
    em_function *fn;
    int nd = 0, narr = 0, red[EM_MAX_NDIM] = {0}, ond = 0;
    int alloc[EM_CK_MAX_PARAMS] = {0}, use_k[EM_CK_MAX_PARAMS] = {0};
    int use_r[EM_CK_MAX_PARAMS] = {0};
    int64_t shape[EM_MAX_NDIM], oshape[EM_MAX_NDIM];
    void *args[MAX_ARGS], *ptrs[EM_CK_MAX_PARAMS];
    long long words[MAX_ARGS];
    int na = 0, nw = 0;
    em_dim3 grid, block, g1;
    em_function *fin = NULL;
    int64_t cap, chunks = 1;
    size_t part_bytes = 0;
    em_status st;

    if (!k->reduction)
        return em_error(EM_ERR_INVALID_VALUE,
                        "'%s' is an elementwise kernel", k->name);
    if ((st = ck_bind(k, in, out, &b)) != EM_OK)
        return st;
    if ((st = ck_broadcast(k, in, out, k->nin, &nd, shape, &narr)) !=
        EM_OK)
        return st;
    if (naxis < 0) {
        for (int a = 0; a < nd; a++)
            red[a] = 1;
    } else {
        for (int t = 0; t < naxis; t++) {
            int a = axes[t] < 0 ? axes[t] + nd : axes[t];
            if (a < 0 || a >= nd)
                return em_error(EM_ERR_AXIS,
                                "axis %d is out of bounds for array of "
                                "dimension %d",
                                axes[t], nd);
            if (red[a])
                return em_error(EM_ERR_INVALID_VALUE,
                                "duplicate value in 'axis'");
            red[a] = 1;
        }
    }
    memset(&g, 0, sizeof g);
    g.out_size = g.red_size = 1;
    for (int a = 0; a < nd; a++) {
        if (red[a]) {
            g.red_size *= shape[a];
            if (keepdims)
                oshape[ond++] = 1;
        } else {
            g.out_size *= shape[a];
            oshape[ond++] = shape[a];
        }
    }
    if ((st = ck_check_outputs(k, out, ond, oshape, "the result's is")) !=
        EM_OK)
        return st;
    if (g.red_size == 0 && g.out_size > 0 && !k->identity)
        return em_error(EM_ERR_INVALID_VALUE,
                        "zero-size array to reduction operation %s which "
                        "has no identity",
                        k->name);
    if ((st = ck_make_outputs(k, &b, out, ond, oshape, s, alloc)) != EM_OK)
        goto fail;
    if (g.out_size == 0)
        return EM_OK;
    /* strides over the kept and the reduced axes, in elements */
    for (int j = 0; j < k->np; j++) {
        const em_array *a = j < k->nin ? in[j].array : &out[j - k->nin];
        int64_t isz, bst[EM_MAX_NDIM];
        if (!a)
            continue;
        g.isarr[j] = 1;
        use_k[j] = 1;
        use_r[j] = j < k->nin;
        isz = (int64_t)em_dtype_size(a->dtype);
        if (j < k->nin)
            em_layout_broadcast_strides(a->ndim, a->shape, a->strides, nd,
                                        shape, bst);
        for (int ax = 0, ko = 0, ro = 0, oo = 0; ax < nd; ax++) {
            int64_t bs = 0;
            if (j < k->nin) {
                bs = bst[ax];
            } else if (!red[ax] || keepdims) {
                bs = a->shape[oo] != 1 ? a->strides[oo] : 0;
                oo++;
            }
            if (bs % isz) {
                st = em_error(EM_ERR_NOT_SUPPORTED,
                              "ReductionKernel '%s': the argument for '%s' "
                              "has a byte stride that is not a multiple of "
                              "its item size; pass a copy",
                              k->name, k->p[j].name);
                goto fail;
            }
            if (red[ax]) {
                g.rsh[ro] = shape[ax];
                g.rst[j][ro++] = bs / isz;
            } else {
                g.ksh[ko] = shape[ax];
                g.kst[j][ko++] = bs / isz;
            }
        }
    }
    for (int ax = 0; ax < nd; ax++) {
        if (red[ax])
            g.rd++;
        else
            g.kd++;
    }
    for (int ax = 0, ko = 0, ro = 0; ax < nd; ax++) {
        if (red[ax])
            g.rsh[ro++] = shape[ax];
        else
            g.ksh[ko++] = shape[ax];
    }
    g.kd = em_layout_collapse(g.kd, g.ksh, k->np, g.kst, use_k, -1, 1);
    g.rd = em_layout_collapse(g.rd, g.rsh, k->np, g.rst, use_r, -1, 1);

    ck_key_init(&key, k, &b);
    key.nd0 = (uint8_t)g.kd;
    key.nd1 = (uint8_t)g.rd;
    key.bs = 0;
    ck_geometry(b.dev, (int64_t)1 << 40, &g1, &block);
    cap = (int64_t)g1.x * (key.dev_type == EM_DEVICE_CUDA ? 4 : 16);
    {
        /* Few outputs of long reductions: each split over several blocks
         * (when the reduce type's size is known, for the partials). On
         * the host this also sums in two levels, which keeps float
         * rounding error far below one long running sum's. */
        int cuda = key.dev_type == EM_DEVICE_CUDA;
        size_t rts = reduce_type_size(k, &b);
        int64_t units = g1.x / (cuda ? 16 : 4);
        units = units > 0 ? units : 1;
        if (cuda) {
            key.bs = 5;
            while (key.bs < 8 && ((int64_t)1 << key.bs) < g.red_size)
                key.bs++;
        }
        if (g.kd > 0 && g.out_size >= 64 && g.red_size >= 16) {
            /* outputs contiguous in every input: the column schedule */
            int inner = 1;
            for (int j = 0; j < k->nin; j++)
                if (g.isarr[j] && g.kst[j][g.kd - 1] != 1 &&
                    g.kst[j][g.kd - 1] != 0)
                    inner = 0;
            for (int j = 0; j < k->nin && inner; j++)
                if (g.isarr[j] && g.rd > 0 && g.rst[j][g.rd - 1] == 1)
                    inner = 0;   /* the reduction is contiguous: rows */
            if (inner) {
                /* cuda: 32 x 32 threads, since few blocks when outputs
                 * are few must each keep many loads in flight */
                key.split = CK_SCHED_COLUMN;
                key.bs = cuda ? 10 : 0;
            }
        }
        if (!key.split && rts > 0 && g.red_size >= 8192 &&
            g.out_size < units * 2) {
            int64_t most = cuda ? units * 8 / g.out_size : 4096;
            chunks = (g.red_size + 4095) / 4096;
            chunks = chunks > most ? most : chunks;
            chunks = chunks > 4096 ? 4096 : chunks;
            if (chunks >= 2)
                key.split = CK_SCHED_SPLIT;
            part_bytes = (size_t)(g.out_size * chunks) * rts;
        }
    }
    if ((st = ck_function(k, b.dev, &b, &key, gen_reduce, &fn,
                          key.split == CK_SCHED_SPLIT ? &fin : NULL)) !=
        EM_OK)
        goto fail;
    for (int j = 0; j < k->np; j++) {
        const em_array *a = j < k->nin ? in[j].array : &out[j - k->nin];
        if (!g.isarr[j]) {
            args[na++] = b.val[j];
            continue;
        }
        ptrs[j] = a->data;
        args[na++] = &ptrs[j];
        for (int ax = 0; ax < g.kd; ax++) {
            words[nw] = (long long)g.kst[j][ax];
            args[na++] = &words[nw++];
        }
        for (int ax = 0; ax < g.rd && j < k->nin; ax++) {
            words[nw] = (long long)g.rst[j][ax];
            args[na++] = &words[nw++];
        }
    }
    words[nw] = (long long)g.out_size;
    args[na++] = &words[nw++];
    words[nw] = (long long)g.red_size;
    args[na++] = &words[nw++];
    for (int ax = 0; ax < g.kd; ax++) {
        words[nw] = (long long)g.ksh[ax];
        args[na++] = &words[nw++];
    }
    for (int ax = 0; ax < g.rd; ax++) {
        words[nw] = (long long)g.rsh[ax];
        args[na++] = &words[nw++];
    }
    block = (em_dim3){key.dev_type == EM_DEVICE_CUDA ? 1u << key.bs : 1u, 1,
                      1};
    if (em_function_param_count(fn) >= 0 &&
        em_function_param_count(fn) !=
            na + (key.split == CK_SCHED_SPLIT ? 3 : 0)) {
        st = em_error(EM_ERR_INTERNAL,
                      "ReductionKernel '%s': %d arguments packed for %d "
                      "parameters",
                      k->name, na, em_function_param_count(fn));
        goto fail;
    }
    if (key.split == CK_SCHED_COLUMN) {
        int cuda = key.dev_type == EM_DEVICE_CUDA;
        int64_t ng = (g.out_size + (cuda ? 31 : 63)) / (cuda ? 32 : 64);
        block = cuda ? (em_dim3){32, 32, 1} : (em_dim3){1, 1, 1};
        grid = (em_dim3){(unsigned)(ng < cap ? ng : cap), 1, 1};
        if ((st = em_launch(fn, grid, block, 0, s, args)) != EM_OK)
            goto fail;
        return EM_OK;
    }
    if (key.split) {
        em_stream *ps = s;
        void *part = NULL, *flag = NULL;
        int64_t nb = g.out_size * chunks;
        if (!ps) {
            ps = em_current_stream();
            if (!ps || em_stream_device(ps) != b.dev)
                ps = em_stream_default(b.dev);
        }
        if ((st = em_malloc(b.dev, part_bytes, ps, &part)) != EM_OK)
            goto fail;
        if ((st = em_malloc(b.dev, (size_t)nb * sizeof(int), ps, &flag)) !=
            EM_OK) {
            em_free(b.dev, part, ps);
            goto fail;
        }
        args[na++] = &part;
        args[na++] = &flag;
        words[nw] = (long long)chunks;
        args[na++] = &words[nw++];
        grid = (em_dim3){(unsigned)(nb < cap ? nb : cap), 1, 1};
        st = em_launch(fn, grid, block, 0, ps, args);
        if (st == EM_OK) {
            grid.x = (unsigned)(g.out_size < cap ? g.out_size : cap);
            st = em_launch(fin, grid, block, 0, ps, args);
        }
        em_free(b.dev, flag, ps);
        em_free(b.dev, part, ps);
        if (st != EM_OK)
            goto fail;
        return EM_OK;
    }
    /* one output per block, a grid of a few per unit */
    grid = (em_dim3){(unsigned)(g.out_size < cap ? g.out_size : cap), 1, 1};
    if ((st = em_launch(fn, grid, block, 0, s, args)) != EM_OK)
        goto fail;
    return EM_OK;
fail:
    ck_drop_outputs(k, out, alloc);
    return st;
}
