/* ember codegen: the small one-pass kernels of ember.parallel around the
 * scan: transform (a user expression elementwise), the compaction flags
 * (a user predicate or a mask) and the compaction scatter.
 *
 * Each thread walks a grid-stride range on CUDA (coalesced) and one
 * contiguous chunk on the host (one OS thread per block, so locality is
 * what matters there); blocks never cooperate, so one source serves both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/linalg_table.h"
#include "codegen/par_prelude.h"
#include "codegen/scan.h"

enum { FAMILY_TRANSFORM = 2, FAMILY_FLAGS = 3, FAMILY_SCATTER = 4,
       FAMILY_HEADS = 5, FAMILY_SEGMENTS = 6 };

#define MAX_INPUTS 8

/* Every transform kernel's source opens with a comment naming it, the
 * ops base and TR_FOR(n): i over this thread's share of [0, n). */
static void emit_head(em_gen_buf *b, const char *what, em_device_type target)
{
    em_gen_buf_printf(b, "/* ember %s */\n%s\n", what, em_gen_ops_base());
    if (target == EM_DEVICE_CUDA)
        em_gen_buf_printf(
            b, "#define TR_FOR(n) for (long long i = (long long)blockIdx.x * "
               "blockDim.x + threadIdx.x, i_step_ = (long long)gridDim.x * "
               "blockDim.x, i_end_ = (n); i < i_end_; i += i_step_)\n");
    else
        em_gen_buf_printf(
            b, "#define TR_FOR(n) for (long long i_t_ = (long long)blockIdx.x "
               "* blockDim.x + threadIdx.x, i_nt_ = (long long)gridDim.x * "
               "blockDim.x, i_per_ = ((n) + i_nt_ - 1) / i_nt_, i = i_t_ * "
               "i_per_, i_end_ = i + i_per_ < (n) ? i + i_per_ : (n); i < "
               "i_end_; i++)\n");
}

/* The natural C type of dt's values (a 16-bit float as float) and load. */
static void natural(em_dtype dt, const char **ty, const char **ld,
                    const char **st)
{
    const em_gen_lt_type *t = em_gen_lt_type_of(dt);
    if (t->cls == 'i') {
        *ty = t->storage;
        *ld = *st = "(x)";
    } else {
        *ty = t->acc;
        *ld = t->ld;
        *st = t->st;
    }
}

static em_status finish(em_gen_buf *b, char **out)
{
    if (b->oom) {
        free(b->p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a kernel");
    }
    *out = b->p;
    return EM_OK;
}

em_status em_gen_transform_source(const char *expr, int nin,
                                  const em_dtype *in, em_dtype out_dt,
                                  em_device_type target, const char *name,
                                  char **out)
{
    em_gen_buf b = {0};
    const char *vty, *vld, *vst, *oty, *old, *ost;
    em_dtype vt = in[0];
    *out = NULL;
    if (nin < 1 || nin > MAX_INPUTS || !expr)
        return em_error(EM_ERR_INVALID_VALUE,
                        "transform: 1 to %d inputs, not %d", MAX_INPUTS, nin);
    natural(vt, &vty, &vld, &vst);
    natural(out_dt, &oty, &old, &ost);
    (void)vst;
    (void)old;
    em_gen_par_prelude(&b, expr);
    expr = em_gen_par_expr(expr);
    emit_head(&b, "transform", target);
    em_gen_buf_printf(&b,
                      "typedef %s tr_v;\ntypedef %s tr_vs;\ntypedef %s tr_o;\n"
                      "typedef %s tr_os;\n#define TR_LD(x) %s\n"
                      "#define TR_ST(x) %s\n",
                      vty, em_gen_lt_type_of(vt)->storage, oty,
                      em_gen_lt_type_of(out_dt)->storage, vld, ost);
    em_gen_buf_printf(&b, "EW_FN tr_o tr_f(");
    for (int k = 0; k < nin; k++)
        em_gen_buf_printf(&b, "%str_v %c", k ? ", " : "", 'a' + k);
    em_gen_buf_printf(&b, ")\n{\n    return %s(\n%s\n    )%s;\n}\n",
                      out_dt == EM_BOOL ? "(" : "", expr,
                      out_dt == EM_BOOL ? ") ? 1 : 0" : "");
    em_gen_buf_printf(&b, "extern \"C\" __global__ void %s(", name);
    for (int k = 0; k < nin; k++)
        em_gen_buf_printf(&b, "const tr_vs *in%d, ", k);
    em_gen_buf_printf(&b, "tr_os *out, long long n)\n{\n    TR_FOR(n) {\n"
                          "        tr_o r = tr_f(");
    for (int k = 0; k < nin; k++)
        em_gen_buf_printf(&b, "%sTR_LD(in%d[i])", k ? ", " : "", k);
    em_gen_buf_printf(&b, ");\n        out[i] = TR_ST(r);\n    }\n}\n");
    return finish(&b, out);
}

em_status em_gen_flags_source(const char *pred, em_dtype dt,
                              em_device_type target, const char *name,
                              char **out)
{
    em_gen_buf b = {0};
    const char *ty, *ld, *st;
    *out = NULL;
    if (pred)
        natural(dt, &ty, &ld, &st);
    else
        ty = ld = st = "";
    (void)st;
    em_gen_par_prelude(&b, pred);
    pred = em_gen_par_expr(pred);
    emit_head(&b, "select flags", target);
    if (pred)
        em_gen_buf_printf(&b,
                          "typedef %s fl_v;\ntypedef %s fl_s;\n"
                          "#define FL_LD(x) %s\n"
                          "EW_FN long long fl_pred(fl_v a)\n{\n"
                          "    return (\n%s\n    ) ? 1 : 0;\n}\n"
                          "extern \"C\" __global__ void %s(const fl_s *x, "
                          "const ew_b *mask, long long *flags, long long n)\n"
                          "{\n    TR_FOR(n) flags[i] = fl_pred(FL_LD(x[i]));\n"
                          "}\n",
                          ty, em_gen_lt_type_of(dt)->storage, ld, pred, name);
    else
        em_gen_buf_printf(&b,
                          "extern \"C\" __global__ void %s(const void *x, "
                          "const ew_b *mask, long long *flags, long long n)\n"
                          "{\n    TR_FOR(n) flags[i] = mask[i] != 0;\n}\n",
                          name);
    return finish(&b, out);
}

em_status em_gen_scatter_source(em_dtype dt, int partition,
                                em_device_type target, const char *name,
                                char **out)
{
    em_gen_buf b = {0};
    *out = NULL;
    emit_head(&b, "select scatter", target);
    em_gen_buf_printf(
        &b,
        "typedef %s sc_s;\n"
        "extern \"C\" __global__ void %s(const sc_s *x, const long long "
        "*flags, const long long *pos, sc_s *out, long long n, long long "
        "nsel)\n{\n    TR_FOR(n) {\n"
        "        if (flags[i])\n            out[pos[i] - 1] = x[i];\n%s"
        "    }\n}\n",
        em_gen_lt_type_of(dt)->storage, name,
        partition ? "        else\n            out[nsel + i - pos[i]] = x[i];\n"
                  : "");
    return finish(&b, out);
}

em_status em_gen_heads_source(em_dtype dt, int tails, em_device_type target,
                              const char *name, char **out)
{
    em_gen_buf b = {0};
    const char *ty, *ld, *st;
    *out = NULL;
    natural(dt, &ty, &ld, &st);
    (void)st;
    emit_head(&b, "by-key heads", target);
    if (tails)
        em_gen_buf_printf(&b,
                          "extern \"C\" __global__ void %s(const ew_b *heads, "
                          "ew_b *tails, long long n)\n{\n"
                          "    TR_FOR(n) tails[i] = i == n - 1 || heads[i + "
                          "1];\n}\n",
                          name);
    else
        /* Equality of values: -0.0 equals 0.0, a NaN equals nothing. */
        em_gen_buf_printf(
            &b,
            "typedef %s hd_v;\ntypedef %s hd_s;\n#define HD_LD(x) %s\n"
            "EW_FN int hd_ne(hd_v a, hd_v b)\n{\n    return %s;\n}\n"
            "extern \"C\" __global__ void %s(const hd_s *keys, ew_b *heads, "
            "long long n)\n{\n"
            "    TR_FOR(n) heads[i] = i == 0 || hd_ne(HD_LD(keys[i - 1]), "
            "HD_LD(keys[i]));\n}\n",
            ty, em_gen_lt_type_of(dt)->storage, ld,
            em_gen_lt_type_of(dt)->cls == 'c' ? "a.re != b.re || a.im != b.im"
                                              : "a != b",
            name);
    return finish(&b, out);
}

/* Segments [off[i], off[i + 1]) of n values, offsets clamped to [0, n]
 * (so no offset can reach outside the values). Mode 0 marks each
 * non-empty segment's first element in heads; mode 1 gathers each
 * segment's last scanned value (init for an empty one). */
em_status em_gen_segments_source(em_dtype dt, int gather,
                                 em_device_type target, const char *name,
                                 char **out)
{
    em_gen_buf b = {0};
    *out = NULL;
    emit_head(&b, "segments", target);
    em_gen_buf_printf(&b,
                      "EW_FN long long sg_clamp(long long v, long long n)\n"
                      "{\n    return v < 0 ? 0 : v > n ? n : v;\n}\n");
    if (!gather)
        em_gen_buf_printf(&b,
                          "extern \"C\" __global__ void %s(const long long "
                          "*off, ew_b *heads, long long m, long long n)\n{\n"
                          "    TR_FOR(m) {\n"
                          "        long long a = sg_clamp(off[i], n), e = "
                          "sg_clamp(off[i + 1], n);\n"
                          "        if (a < e)\n            heads[a] = 1;\n"
                          "    }\n}\n",
                          name);
    else
        em_gen_buf_printf(&b,
                          "typedef %s sg_t;\n"
                          "extern \"C\" __global__ void %s(const long long "
                          "*off, const sg_t *scan, sg_t *out, const sg_t "
                          "*init, long long m, long long n)\n{\n"
                          "    TR_FOR(m) {\n"
                          "        long long a = sg_clamp(off[i], n), e = "
                          "sg_clamp(off[i + 1], n);\n"
                          "        out[i] = a < e ? scan[e - 1] : init[0];\n"
                          "    }\n}\n",
                          em_gen_lt_type_of(dt)->storage, name);
    return finish(&b, out);
}

/* Words: family in the top byte, then dtypes and counts. */
static em_status from_word(uint64_t w, const char *expr,
                           em_device_type target, const char *name,
                           char **out)
{
    int fam = (int)(w >> 56);
    em_dtype a = (em_dtype)(w & 0xff), o = (em_dtype)((w >> 8) & 0xff);
    int k = (int)((w >> 16) & 0xff);
    if (fam == FAMILY_TRANSFORM) {
        em_dtype in[MAX_INPUTS];
        for (int i = 0; i < k && i < MAX_INPUTS; i++)
            in[i] = a;
        return em_gen_transform_source(expr, k, in, o, target, name, out);
    }
    if (fam == FAMILY_FLAGS)
        return em_gen_flags_source(expr, a, target, name, out);
    if (fam == FAMILY_SEGMENTS)
        return em_gen_segments_source(a, k, target, name, out);
    if (fam == FAMILY_HEADS)
        return em_gen_heads_source(a, k, target, name, out);
    return em_gen_scatter_source(a, k, target, name, out);
}

static void geometry(em_device *dev, long long n, em_dim3 *grid,
                     em_dim3 *threads)
{
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    long long per = cuda ? 256 * 8 : 65536, blocks = (n + per - 1) / per;
    long long cap = cuda ? 65536 : 256;
    *grid = (em_dim3){1, 1, 1};
    *threads = (em_dim3){cuda ? 256u : 1u, 1, 1};
    grid->x = (unsigned)(blocks < 1 ? 1 : blocks > cap ? cap : blocks);
}

static em_status launch(em_device *dev, uint64_t w, const char *expr,
                        void **args, long long n, em_stream *s)
{
    static const char *const names[] = {"tr"};
    em_function *fn;
    em_dim3 grid, threads;
    em_status st;
    if (n <= 0)
        return EM_OK;
    st = em_gen_scan_table_get(dev, w, expr, from_word, "tr", names, 1, &fn);
    if (st != EM_OK)
        return st;
    geometry(dev, n, &grid, &threads);
    return em_launch(fn, grid, threads, 0, s, args);
}

em_status em_gen_transform_run(em_device *dev, const char *expr, int nin,
                               const em_dtype *in, em_dtype out_dt,
                               const void *const *inputs, void *out,
                               long long n, em_stream *s)
{
    void *args[MAX_INPUTS + 2];
    const void *ptrs[MAX_INPUTS];
    uint64_t w;
    if (nin < 1 || nin > MAX_INPUTS)
        return em_error(EM_ERR_INVALID_VALUE,
                        "transform: 1 to %d inputs, not %d", MAX_INPUTS, nin);
    for (int k = 1; k < nin; k++)
        if (in[k] != in[0])
            return em_error(EM_ERR_INTERNAL,
                            "transform: inputs of mixed dtypes");
    w = ((uint64_t)FAMILY_TRANSFORM << 56) | ((uint64_t)nin << 16) |
        ((uint64_t)out_dt << 8) | in[0];
    for (int k = 0; k < nin; k++) {
        ptrs[k] = inputs[k];
        args[k] = &ptrs[k];
    }
    args[nin] = &out;
    args[nin + 1] = &n;
    return launch(dev, w, expr, args, n, s);
}

em_status em_gen_heads_run(em_device *dev, em_dtype dt, int tails,
                           const void *in, unsigned char *out, long long n,
                           em_stream *s)
{
    void *args[3];
    uint64_t w = ((uint64_t)FAMILY_HEADS << 56) |
                 ((uint64_t)(tails ? 1 : 0) << 16) | (tails ? 0 : dt);
    args[0] = &in;
    args[1] = &out;
    args[2] = &n;
    return launch(dev, w, NULL, args, n, s);
}

em_status em_gen_segments_run(em_device *dev, em_dtype dt, int gather,
                              const int64_t *off, void *heads_or_scan,
                              void *out, const void *init, long long m,
                              long long n, em_stream *s)
{
    void *args[6];
    uint64_t w = ((uint64_t)FAMILY_SEGMENTS << 56) |
                 ((uint64_t)(gather ? 1 : 0) << 16) | (gather ? dt : 0);
    args[0] = &off;
    args[1] = &heads_or_scan;
    if (!gather) {
        args[2] = &m;
        args[3] = &n;
    } else {
        args[2] = &out;
        args[3] = &init;
        args[4] = &m;
        args[5] = &n;
    }
    return launch(dev, w, NULL, args, m, s);
}
