/* ember codegen: reduction kernel source.
 *
 * Every kernel is four small functions over an accumulator struct, which
 * depend on the op only, and a loop skeleton, which depends on the
 * schedule and target only:
 *   init   the identity (an accumulator that has seen nothing);
 *   step   fold one element (in the compute type) with its index k;
 *   comb   merge two accumulators (commutative where it matters: argmin
 *          and argmax break ties and order NaNs by index, so any tree
 *          shape gives NumPy's first occurrence);
 *   fin    write the result of an accumulator to out[m].
 * The op parts are composed from kernels/reduce_ops.h (rd_<op>_<type>)
 * and the conversions of kernels/ewise_ops.h.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "codegen/ewise.h"
#include "codegen/reduce.h"

extern const char em_embedded_ewise_ops_h[];
extern const char em_embedded_reduce_ops_h[];

/* ---- the headers ------------------------------------------------------ */

/* The base of ewise_ops.h (types and conversions): everything before its
 * first op section. */
static char *ewise_base;
static pthread_once_t base_once = PTHREAD_ONCE_INIT;

static void cut_base(void)
{
    const char *end = strstr(em_embedded_ewise_ops_h, "/* @ew-section bool */");
    size_t n = end ? (size_t)(end - em_embedded_ewise_ops_h)
                   : strlen(em_embedded_ewise_ops_h);
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, em_embedded_ewise_ops_h, n);
        p[n] = 0;
    }
    ewise_base = p;
}

/* ---- names ------------------------------------------------------------- */

static const char *widen_fn(int d)
{
    return d == EM_FLOAT16    ? "ew_f16_to_f32"
           : d == EM_BFLOAT16 ? "ew_bf16_to_f32"
                              : "";
}

static int is_compute(int c)
{
    return c == EM_INT64 || c == EM_UINT64 || c == EM_FLOAT32 ||
           c == EM_FLOAT64 || c == EM_COMPLEX64 || c == EM_COMPLEX128;
}

/* The real type of a float or complex compute type. */
static int real_of(int c)
{
    return c == EM_COMPLEX64 ? EM_FLOAT32 : c == EM_COMPLEX128 ? EM_FLOAT64 : c;
}

typedef enum cls { CL_SUM, CL_MINMAX, CL_ARG, CL_LOGIC, CL_VAR } cls;

static cls class_of(int op)
{
    switch (op) {
    case EM_RED_MIN:
    case EM_RED_MAX:
    case EM_RED_NANMIN:
    case EM_RED_NANMAX:
        return CL_MINMAX;
    case EM_RED_ARGMIN:
    case EM_RED_ARGMAX:
    case EM_RED_NANARGMIN:
    case EM_RED_NANARGMAX:
        return CL_ARG;
    case EM_RED_ANY:
    case EM_RED_ALL:
    case EM_RED_COUNT_NONZERO:
        return CL_LOGIC;
    case EM_RED_VAR:
    case EM_RED_STD:
    case EM_RED_NANVAR:
    case EM_RED_NANSTD:
        return CL_VAR;
    default:
        return CL_SUM;
    }
}

static int skips_nan(int op)
{
    return op == EM_RED_NANSUM || op == EM_RED_NANPROD || op == EM_RED_NANMIN ||
           op == EM_RED_NANMAX || op == EM_RED_NANARGMIN ||
           op == EM_RED_NANARGMAX || op == EM_RED_NANMEAN ||
           op == EM_RED_NANVAR || op == EM_RED_NANSTD;
}

static int is_max(int op)
{
    return op == EM_RED_MAX || op == EM_RED_NANMAX || op == EM_RED_ARGMAX ||
           op == EM_RED_NANARGMAX;
}

size_t em_gen_reduce_acc_size(const em_gen_reduce *d)
{
    (void)d;
    return 32;
}

/* ---- the op parts ------------------------------------------------------ */

static void emit_skip(em_sb *b, int op, const char *cs)
{
    if (skips_nan(op))
        em_sb_printf(b, "    if (rd_isnan_%s(x)) return;\n", cs);
}

/* The accumulator, init and step of min/max (arg 0: a value and whether
 * there is one) and argmin/argmax (arg 1: a value and its index, -1 for
 * none): the first value, then x where bx (x beats a->v) holds; a NaN
 * wins and stays. */
static void emit_pick(em_sb *b, int op, const char *n, const char *ct,
                      const char *cs, const char *bx, int arg)
{
    em_sb_printf(b, "typedef struct acc_%s { %s v; %s; } acc_%s;\n", n, ct,
                 arg ? "long long i" : "int has", n);
    em_sb_printf(b,
                 "EW_FN acc_%s init_%s(void) { acc_%s a; a.v = rd_zero_%s(); "
                 "%s; return a; }\n",
                 n, n, n, cs, arg ? "a.i = -1" : "a.has = 0");
    em_sb_printf(b, "EW_FN void step_%s(acc_%s *a, %s x, long long k)\n{\n", n,
                 n, ct);
    if (!arg)
        em_sb_printf(b, "    (void)k;\n");
    emit_skip(b, op, cs);
    em_sb_printf(b,
                 "    if (%s) { a->v = x; %s; return; }\n"
                 "    if (rd_isnan_%s(a->v)) return;\n"
                 "    if (rd_isnan_%s(x) || %s) %s\n}\n",
                 arg ? "a->i < 0" : "!a->has", arg ? "a->i = k" : "a->has = 1",
                 cs, cs, bx, arg ? "{ a->v = x; a->i = k; }" : "a->v = x;");
}

static void emit_op(em_sb *b, const em_gen_reduce *d, const char *n)
{
    int op = d->op, C = d->compute, R = real_of(C);
    const char *ct = em_gen_ew_storage[C], *cs = em_gen_ew_sfx[C];
    const char *rt = em_gen_ew_storage[R], *rs = em_gen_ew_sfx[R];
    const char *ot = em_gen_ew_storage[d->out], *os = em_gen_ew_sfx[d->out];
    cls k = class_of(op);
    const char *better = is_max(op) ? "rd_lt_%s(%s, %s)" : "rd_lt_%s(%s, %s)";
    char bx[96], bb[96], ba[96];

    /* Load: the input's storage type to the compute type. */
    em_sb_printf(b, "EW_FN %s ld_%s(%s x) { return ew_%s_from_%s(%s(x)); }\n", ct,
              n, em_gen_ew_storage[d->in], cs, em_gen_ew_category[d->in],
              widen_fn(d->in));

    /* "x better than v", "b.v better than a.v", "a.v better than b.v". */
    if (is_max(op)) {
        snprintf(bx, sizeof bx, better, cs, "a->v", "x");
        snprintf(bb, sizeof bb, better, cs, "a.v", "b.v");
        snprintf(ba, sizeof ba, better, cs, "b.v", "a.v");
    } else {
        snprintf(bx, sizeof bx, better, cs, "x", "a->v");
        snprintf(bb, sizeof bb, better, cs, "b.v", "a.v");
        snprintf(ba, sizeof ba, better, cs, "a.v", "b.v");
    }

    switch (k) {
    case CL_SUM: {
        int prod = op == EM_RED_PROD || op == EM_RED_NANPROD;
        int sq = op == EM_RED_SUMSQ, nm = op == EM_RED_NANMEAN;
        const char *at = sq ? rt : ct, *as = sq ? rs : cs;
        em_sb_printf(b, "typedef struct acc_%s { %s v;%s } acc_%s;\n", n, at,
                  nm ? " long long n;" : "", n);
        em_sb_printf(b,
                  "EW_FN acc_%s init_%s(void) { acc_%s a; a.v = rd_%s_%s();%s "
                  "return a; }\n",
                  n, n, n, prod ? "one" : "zero", as, nm ? " a.n = 0;" : "");
        em_sb_printf(b, "EW_FN void step_%s(acc_%s *a, %s x, long long k)\n{\n", n,
                  n, ct);
        em_sb_printf(b, "    (void)k;\n");
        emit_skip(b, op, cs);
        if (sq)
            em_sb_printf(b, "    a->v += rd_abs2_%s(x);\n", cs);
        else
            em_sb_printf(b, "    a->v = rd_%s_%s(a->v, x);\n",
                      prod ? "mul" : "add", cs);
        if (nm)
            em_sb_printf(b, "    a->n++;\n");
        em_sb_printf(b, "}\n");
        em_sb_printf(b,
                  "EW_FN acc_%s comb_%s(acc_%s a, acc_%s b) { a.v = "
                  "rd_%s_%s(a.v, b.v);%s return a; }\n",
                  n, n, n, n, prod ? "mul" : "add", as,
                  nm ? " a.n += b.n;" : "");
        em_sb_printf(b,
                  "EW_FN void fin_%s(char *out, long long m, acc_%s a, double "
                  "cnt, double ddof)\n{\n    (void)cnt; (void)ddof;\n",
                  n, n);
        if (op == EM_RED_MEAN)
            em_sb_printf(b, "    a.v = rd_div_%s(a.v, cnt);\n", cs);
        else if (nm)
            em_sb_printf(b, "    a.v = rd_div_%s(a.v, (double)a.n);\n", cs);
        em_sb_printf(b, "    ((%s *)out)[m] = ew_%s_from_%s(a.v);\n}\n", ot, os,
                  sq ? rs : cs);
        break;
    }
    case CL_MINMAX:
        emit_pick(b, op, n, ct, cs, bx, 0);
        em_sb_printf(b,
                  "EW_FN acc_%s comb_%s(acc_%s a, acc_%s b)\n{\n"
                  "    if (!b.has) return a;\n    if (!a.has) return b;\n"
                  "    step_%s(&a, b.v, 0);\n    return a;\n}\n",
                  n, n, n, n, n);
        em_sb_printf(b,
                  "EW_FN void fin_%s(char *out, long long m, acc_%s a, double "
                  "cnt, double ddof)\n{\n    (void)cnt; (void)ddof;\n"
                  "    ((%s *)out)[m] = ew_%s_from_%s(a.has ? a.v : "
                  "rd_nan_%s());\n}\n",
                  n, n, ot, os, cs, cs);
        break;
    case CL_ARG:
        emit_pick(b, op, n, ct, cs, bx, 1);
        em_sb_printf(
            b,
            "EW_FN acc_%s comb_%s(acc_%s a, acc_%s b)\n{\n"
            "    int na, nb;\n"
            "    if (b.i < 0) return a;\n    if (a.i < 0) return b;\n"
            "    na = rd_isnan_%s(a.v); nb = rd_isnan_%s(b.v);\n"
            "    if (na || nb) { if (na && nb) return a.i <= b.i ? a : b; "
            "return na ? a : b; }\n"
            "    if (%s) return b;\n    if (%s) return a;\n"
            "    return a.i <= b.i ? a : b;\n}\n",
            n, n, n, n, cs, cs, bb, ba);
        em_sb_printf(b,
                  "EW_FN void fin_%s(char *out, long long m, acc_%s a, double "
                  "cnt, double ddof)\n{\n    (void)cnt; (void)ddof;\n"
                  "    ((ew_i64 *)out)[m] = a.i;\n}\n",
                  n, n);
        break;
    case CL_LOGIC: {
        const char *f = op == EM_RED_ANY   ? "|="
                        : op == EM_RED_ALL ? "&="
                                           : "+=";
        const char *g = op == EM_RED_ANY ? "|" : op == EM_RED_ALL ? "&" : "+";
        em_sb_printf(b, "typedef struct acc_%s { long long v; } acc_%s;\n", n, n);
        em_sb_printf(b,
                  "EW_FN acc_%s init_%s(void) { acc_%s a; a.v = %d; return a; "
                  "}\n",
                  n, n, n, op == EM_RED_ALL);
        em_sb_printf(b,
                  "EW_FN void step_%s(acc_%s *a, %s x, long long k) { (void)k; "
                  "a->v %s rd_nz_%s(x); }\n",
                  n, n, ct, f, cs);
        em_sb_printf(
            b,
            "EW_FN acc_%s comb_%s(acc_%s a, acc_%s b) { a.v = a.v %s b.v; "
            "return a; }\n",
            n, n, n, n, g);
        em_sb_printf(b,
                  "EW_FN void fin_%s(char *out, long long m, acc_%s a, double "
                  "cnt, double ddof)\n{\n    (void)cnt; (void)ddof;\n"
                  "    ((%s *)out)[m] = ew_%s_from_i64(a.v);\n}\n",
                  n, n, ot, os);
        break;
    }
    case CL_VAR:
        em_sb_printf(b,
                  "typedef struct acc_%s { long long n; %s mean; %s m2; } "
                  "acc_%s;\n",
                  n, ct, rt, n);
        em_sb_printf(b,
                  "EW_FN acc_%s init_%s(void) { acc_%s a; a.n = 0; a.mean = "
                  "rd_zero_%s(); a.m2 = 0; return a; }\n",
                  n, n, n, cs);
        /* Welford's update; Chan's formula merges. One pass, and both are
         * stable where the naive sum of squares is not. */
        em_sb_printf(b, "EW_FN void step_%s(acc_%s *a, %s x, long long k)\n{\n", n,
                  n, ct);
        em_sb_printf(b, "    %s dl;\n    (void)k;\n", ct);
        emit_skip(b, op, cs);
        em_sb_printf(b,
                  "    a->n++;\n    dl = rd_sub_%s(x, a->mean);\n"
                  "    a->mean = rd_add_%s(a->mean, rd_div_%s(dl, "
                  "(double)a->n));\n"
                  "    a->m2 += rd_redot_%s(dl, rd_sub_%s(x, a->mean));\n}\n",
                  cs, cs, cs, cs, cs);
        em_sb_printf(
            b,
            "EW_FN acc_%s comb_%s(acc_%s a, acc_%s b)\n{\n"
            "    acc_%s r;\n    %s dl;\n    double n;\n"
            "    if (b.n == 0) return a;\n    if (a.n == 0) return b;\n"
            "    r.n = a.n + b.n;\n    n = (double)r.n;\n"
            "    dl = rd_sub_%s(b.mean, a.mean);\n"
            "    r.mean = rd_add_%s(a.mean, rd_scale_%s(dl, (%s)((double)b.n "
            "/ n)));\n"
            "    r.m2 = a.m2 + b.m2 + rd_abs2_%s(dl) * (%s)((double)a.n * "
            "(double)b.n / n);\n"
            "    return r;\n}\n",
            n, n, n, n, n, ct, cs, cs, cs, rt, cs, rt);
        em_sb_printf(
            b,
            "EW_FN void fin_%s(char *out, long long m, acc_%s a, double "
            "cnt, double ddof)\n{\n"
            "    double dv = (double)a.n - ddof;\n    %s v;\n    (void)cnt;\n"
            "    if (dv < 0) dv = 0;\n    v = a.m2 / (%s)dv;\n",
            n, n, rt, rt);
        if (op == EM_RED_STD || op == EM_RED_NANSTD)
            em_sb_printf(b, "    v = rd_sqrt_%s(v);\n", rs);
        em_sb_printf(b, "    ((%s *)out)[m] = ew_%s_from_%s(v);\n}\n", ot, os, rs);
        break;
    }
}

/* ---- skeletons ---------------------------------------------------------- */

static void emit_sig(em_sb *b, const char *n, int cuda)
{
    em_sb_printf(b,
              "struct g_%s { long long M, K, sm, sk, S, chunk, rows; double "
              "count, ddof; };\n",
              n);
    em_sb_printf(b,
              "extern \"C\" __global__ void %s%s(const char *in, char *out, "
              "acc_%s *part, struct g_%s g%s)\n{\n",
              cuda ? "__launch_bounds__(256) " : "", n, n, n,
              cuda ? " RD_EXTRA" : "");
}

static void emit_cuda(em_sb *b, const em_gen_reduce *d, const char *n)
{
    const char *ix = d->idx64 ? "long long" : "int";
    const char *ts = em_gen_ew_storage[d->in];
    int vw = d->vec;
    if (d->sched == EM_GEN_RED_ROWS && vw > 1)
        em_sb_printf(b,
                  "typedef struct __align__(%d) vec_%s { %s v[%d]; } vec_%s;\n",
                  vw * (int)em_dtype_size((em_dtype)d->in), n, ts, vw, n);
    emit_sig(b, n, 1);
    em_sb_printf(b,
              "    const %s M = (%s)g.M, K = (%s)g.K, S = (%s)g.S, chunk = "
              "(%s)g.chunk;\n"
              "    const %s sm = (%s)g.sm, sk = (%s)g.sk;\n"
              "    const int t = threadIdx.x;\n"
              "    (void)in; (void)out; (void)part; (void)S; (void)chunk; "
              "(void)sm; (void)sk; (void)K;\n",
              ix, ix, ix, ix, ix, ix, ix, ix);
    switch (d->sched) {
    case EM_GEN_RED_ROWS:
        em_sb_printf(
            b,
            "    __shared__ acc_%s sh[256];\n"
            "    for (%s bi = (%s)blockIdx.x; bi < M * S; bi += (%s)gridDim.x) "
            "{\n"
            "        const %s m = bi %% M, s = bi / M;\n"
            "        const %s k0 = s * chunk, k1 = K - k0 > chunk ? k0 + "
            "chunk : K;\n"
            "        const char *row = in + m * sm;\n"
            "        acc_%s a = init_%s();\n",
            n, ix, ix, ix, ix, ix, n, n);
        if (vw > 1) {
            em_sb_printf(
                b,
                "        const vec_%s *p = (const vec_%s *)(row + k0 * sk);\n"
                "        const %s nv = k1 > k0 ? (k1 - k0) / %d : 0;\n"
                "        %s j = t;\n"
                "        for (; j + 256 < nv; j += 512) {\n"
                "            vec_%s x0 = RD_VLD(p, j), x1 = RD_VLD(p, j + 256);\n"
                "#pragma unroll\n"
                "            for (int e = 0; e < %d; e++) step_%s(&a, "
                "ld_%s(x0.v[e]), (long long)(k0 + j * %d + e));\n"
                "#pragma unroll\n"
                "            for (int e = 0; e < %d; e++) step_%s(&a, "
                "ld_%s(x1.v[e]), (long long)(k0 + (j + 256) * %d + e));\n"
                "        }\n"
                "        if (j < nv) {\n"
                "            vec_%s x0 = RD_VLD(p, j);\n"
                "#pragma unroll\n"
                "            for (int e = 0; e < %d; e++) step_%s(&a, "
                "ld_%s(x0.v[e]), (long long)(k0 + j * %d + e));\n"
                "        }\n"
                "        for (%s k = k0 + nv * %d + t; k < k1; k += 256)\n"
                "            step_%s(&a, ld_%s(RD_LD(%s, row + k * "
                "sk)), (long long)k);\n",
                n, n, ix, vw, ix, n, vw, n, n, vw, vw, n, n, vw, n, vw, n, n,
                vw, ix, vw, n, n, ts);
        } else {
            em_sb_printf(
                b,
                "        %s k = k0 + t;\n"
                "        for (; k + 256 < k1; k += 512) {\n"
                "            %s x0 = RD_LD(%s, row + k * sk), x1 = "
                "RD_LD(%s, row + (k + 256) * sk);\n"
                "            step_%s(&a, ld_%s(x0), (long long)k);\n"
                "            step_%s(&a, ld_%s(x1), (long long)(k + 256));\n"
                "        }\n"
                "        if (k < k1) step_%s(&a, ld_%s(RD_LD(%s, row + "
                "k * sk)), (long long)k);\n",
                ix, ts, ts, ts, n, n, n, n, n, n, ts);
        }
        em_sb_printf(b,
                  "        sh[t] = a;\n        __syncthreads();\n"
                  "        for (int w = 128; w > 0; w >>= 1) {\n"
                  "            if (t < w) sh[t] = comb_%s(sh[t], sh[t + w]);\n"
                  "            __syncthreads();\n        }\n",
                  n);
        if (d->split)
            em_sb_printf(b, "        if (t == 0) part[bi] = sh[0];\n");
        else
            em_sb_printf(b,
                      "        if (t == 0) fin_%s(out, (long long)m, sh[0], "
                      "g.count, g.ddof);\n",
                      n);
        em_sb_printf(b, "        __syncthreads();\n    }\n}\n");
        break;
    case EM_GEN_RED_WARP:
    case EM_GEN_RED_FIN:
        em_sb_printf(b,
                  "    __shared__ acc_%s sh[256];\n"
                  "    const int lane = t & 31;\n"
                  "    for (%s base = (%s)blockIdx.x * 8; base < M; base += "
                  "(%s)gridDim.x * 8) {\n"
                  "        const %s m = base + (t >> 5);\n"
                  "        acc_%s a = init_%s();\n"
                  "        if (m < M) {\n",
                  n, ix, ix, ix, ix, n, n);
        if (d->sched == EM_GEN_RED_WARP)
            em_sb_printf(
                b,
                "            const char *row = in + m * sm;\n"
                "            for (%s k = lane; k < K; k += 32)\n"
                "                step_%s(&a, ld_%s(RD_LD(%s, row + k * "
                "sk)), (long long)k);\n",
                ix, n, n, ts);
        else
            em_sb_printf(b,
                      "            for (%s s = lane; s < S; s += 32)\n"
                      "                a = comb_%s(a, part[s * M + m]);\n",
                      ix, n);
        em_sb_printf(
            b,
            "        }\n        sh[t] = a;\n"
            "        for (int w = 16; w > 0; w >>= 1) {\n"
            "            __syncwarp();\n"
            "            if (lane < w) sh[t] = comb_%s(sh[t], sh[t + w]);\n"
            "        }\n        __syncwarp();\n"
            "        if (lane == 0 && m < M) fin_%s(out, (long long)m, "
            "sh[t], g.count, g.ddof);\n"
            "        __syncwarp();\n    }\n}\n",
            n, n);
        break;
    case EM_GEN_RED_COLS:
        /* Eight rows per pass: eight independent loads in flight per
         * thread before the first is used. */
        em_sb_printf(
            b,
            "    const %s s = (%s)blockIdx.y;\n"
            "    const %s k0 = s * chunk, k1 = K - k0 > chunk ? k0 + chunk "
            ": K;\n"
            "    for (%s m = (%s)blockIdx.x * 256 + t; m < M; m += "
            "(%s)gridDim.x * 256) {\n"
            "        const char *p = in + m * sm;\n"
            "        acc_%s a = init_%s();\n"
            "        %s k = k0;\n"
            "        for (; k + 8 <= k1; k += 8) {\n"
            "            %s x[8];\n"
            "#pragma unroll\n"
            "            for (int u = 0; u < 8; u++)\n"
            "                x[u] = RD_LD(%s, p + (k + u) * sk);\n"
            "#pragma unroll\n"
            "            for (int u = 0; u < 8; u++)\n"
            "                step_%s(&a, ld_%s(x[u]), (long long)(k + u));\n"
            "        }\n"
            "        for (; k < k1; k++) step_%s(&a, ld_%s(RD_LD(%s, p "
            "+ k * sk)), (long long)k);\n",
            ix, ix, ix, ix, ix, ix, n, n, ix, ts, ts, n, n, n, n, ts);
        if (d->split)
            em_sb_printf(b, "        part[s * M + m] = a;\n    }\n}\n");
        else
            em_sb_printf(b,
                      "        fin_%s(out, (long long)m, a, g.count, g.ddof);\n"
                      "    }\n}\n",
                      n);
        break;
    }
}

/* The host ROWS entry: a split of one row into a partial, or a range of
 * rows to results. */
static void emit_host_entry(em_sb *b, const em_gen_reduce *d, const char *n)
{
    emit_sig(b, n, 0);
    if (d->split)
        em_sb_printf(b,
                  "    const long long bi = blockIdx.x, m = bi %% g.M, s = "
                  "bi / g.M;\n"
                  "    const long long k0 = s * g.chunk, k1 = g.K - k0 > "
                  "g.chunk ? k0 + g.chunk : g.K;\n"
                  "    (void)out;\n"
                  "    part[bi] = row_%s(in + m * g.sm, k0, k1, g.sk);\n}\n",
                  n);
    else
        em_sb_printf(b,
                  "    const long long m0 = (long long)blockIdx.x * g.rows;\n"
                  "    const long long m1 = g.M - m0 > g.rows ? m0 + g.rows : "
                  "g.M;\n"
                  "    (void)part;\n"
                  "    for (long long m = m0; m < m1; m++)\n"
                  "        fin_%s(out, m, row_%s(in + m * g.sm, 0, g.K, g.sk), "
                  "g.count, g.ddof);\n}\n",
                  n, n);
}

/* A host row function's pass over a strided sub-block: element k folded
 * into lane k mod 8 by step; closes the sub-block's branches. */
static void emit_host_strided_steps(em_sb *b, const char *n, const char *ts)
{
    em_sb_printf(b,
              "            for (k = j0; k + 8 <= j1; k += 8)\n"
              "                for (l = 0; l < 8; l++) step_%s(&L[l], "
              "ld_%s(*(const %s *)(row + (k + l) * sk)), k + l);\n"
              "            for (; k < j1; k++) step_%s(&L[0], ld_%s(*(const "
              "%s *)(row + k * sk)), k);\n"
              "        }\n",
              n, n, ts, n, n, ts);
}

/* The start of a host row function, which emit_host_row_merge ends: the
 * binary counter of partial results, then a loop over sub-blocks of 1024
 * elements, each folded into eight accumulators L. */
static void emit_host_row_open(em_sb *b, const char *n)
{
    em_sb_printf(b,
              "static acc_%s row_%s(const char *row, long long k0, long long "
              "k1, long long sk)\n{\n"
              "    acc_%s st[64], r = init_%s();\n    int lv[64], top = 0;\n"
              "    for (long long j0 = k0; j0 < k1; j0 += 1024) {\n"
              "        long long j1 = k1 - j0 > 1024 ? j0 + 1024 : k1, k;\n"
              "        acc_%s c, L[8];\n        int l, v = 0;\n",
              n, n, n, n, n);
}

/* The end of a host row function: a sub-block's eight accumulators
 * merged pairwise, pushed on the binary counter of partial results, and
 * the counter's partials merged into the row's result. */
/* The binary counter of partial results (st, lv, top; v the level of c,
 * 0 for a new one): push c, merging equal levels, earlier partials first
 * so arg-reductions keep the first index; then drain it into `dst`. */
static void emit_counter_push(em_sb *b, const char *n, const char *ind)
{
    em_sb_printf(b,
              "%swhile (top > 0 && lv[top - 1] == v) { c = comb_%s(st[top - 1], "
              "c); top--; v++; }\n"
              "%sst[top] = c; lv[top] = v; top++;\n",
              ind, n, ind);
}

static void emit_counter_drain(em_sb *b, const char *n, const char *dst,
                               const char *ind)
{
    em_sb_printf(b, "%swhile (top > 0) { top--; %s = comb_%s(st[top], %s); }\n",
                 ind, dst, n, dst);
}

static void emit_host_row_merge(em_sb *b, const char *n)
{
    em_sb_printf(b,
              "        c = comb_%s(comb_%s(comb_%s(L[0], L[1]), comb_%s(L[2], "
              "L[3])), comb_%s(comb_%s(L[4], L[5]), comb_%s(L[6], L[7])));\n",
              n, n, n, n, n, n, n);
    emit_counter_push(b, n, "        ");
    em_sb_puts(b, "    }\n");
    emit_counter_drain(b, n, "r", "    ");
    em_sb_puts(b, "    return r;\n}\n");
}

/* min/max/argmin/argmax over a real type on the host: eight lanes as
 * plain arrays of values (and indices) updated by one compare and a
 * select, which the SLP vectoriser turns into vector code. Each lane
 * starts at the sub-block's first element (a valid candidate with the
 * lowest index, so ties still go to the first occurrence). NaN rules
 * need more than one compare, which defeats the vectoriser, so a
 * sub-block holding a NaN (found by a loop-vectorised scan of it, in L1
 * by then) goes through the generic step instead. */
static void emit_host_select_row(em_sb *b, const em_gen_reduce *d, const char *n)
{
    const char *ts = em_gen_ew_storage[d->in],
               *ct = em_gen_ew_storage[d->compute];
    int arg = class_of(d->op) == CL_ARG;
    int flt = d->in == EM_FLOAT32 || d->in == EM_FLOAT64;
    const char *cmp = is_max(d->op) ? ">" : "<";
    char nanexpr[96], il[96], i0[96], vecpath[2048] = "";
    snprintf(il, sizeof il,
             "                    I[l] = x %s V[l] ? k + l : I[l];\n", cmp);
    snprintf(i0, sizeof i0, "                I[0] = x %s V[0] ? k : I[0];\n",
             cmp);
    snprintf(nanexpr, sizeof nanexpr, flt ? "anynan_%s(p + j0, j1 - j0)" : "0",
             n);
    /* float32 and float64: GCC's generic 32-byte vectors (one AVX2
     * register, or two SSE ones on the baseline), two per step, one
     * compare and a select per vector and a NaN flag alongside; twice the
     * speed of the lane arrays, which the SLP vectoriser keeps at 16
     * bytes. Lane l of V0 sees elements k + l, of V1 k + w + l; a lane's
     * strict compare keeps its first occurrence, and the two are merged
     * preferring the lower index on ties. */
    if (flt) {
        int w = d->in == EM_FLOAT32 ? 8 : 4;
        const char *it = d->in == EM_FLOAT32 ? "int" : "long long";
        char upd[256] = "", fin[256];
        if (arg) {
            snprintf(upd, sizeof upd,
                     "                I0 = (q0 & t0) | (I0 & ~t0);\n"
                     "                I1 = (q1 & t1) | (I1 & ~t1);\n"
                     "                q0 += %d;\n                q1 += %d;\n",
                     2 * w, 2 * w);
            snprintf(fin, sizeof fin,
                     "L[l].i = j0 + (V0[l] == V1[l] ? (I0[l] < I1[l] ? I0[l] "
                     ": I1[l]) : V0[l] %s V1[l] ? I0[l] : I1[l])", cmp);
        } else {
            snprintf(fin, sizeof fin, "L[l].has = 1");
        }
        snprintf(
            vecpath, sizeof vecpath,
            "        if (sk == %d && j1 - j0 >= %d) {\n"
            "            typedef %s vf __attribute__((vector_size(32)));\n"
            "            typedef %s vi __attribute__((vector_size(32)));\n"
            "            vf V0, V1, x0, x1;\n"
            "            vi N, I0, I1, q0, q1, t0, t1;\n"
            "            int bad = 0;\n"
            "            for (l = 0; l < %d; l++) { V0[l] = V1[l] = p[j0]; "
            "q0[l] = l; q1[l] = l + %d; N[l] = I0[l] = I1[l] = 0; }\n"
            "            for (k = j0; k + %d <= j1; k += %d) {\n"
            "                memcpy(&x0, p + k, 32);\n"
            "                memcpy(&x1, p + k + %d, 32);\n"
            "                t0 = x0 %s V0;\n                t1 = x1 %s V1;\n"
            "                V0 = (vf)(((vi)x0 & t0) | ((vi)V0 & ~t0));\n"
            "                V1 = (vf)(((vi)x1 & t1) | ((vi)V1 & ~t1));\n"
            "%s"
            "                N |= (x0 != x0) | (x1 != x1);\n"
            "            }\n"
            "            for (l = 0; l < %d; l++) bad |= N[l] != 0;\n"
            "            if (!bad) {\n"
            "                for (l = 0; l < 8; l++) L[l] = init_%s();\n"
            "                for (l = 0; l < %d; l++) {\n"
            "                    L[l].v = V0[l] %s V1[l] ? V0[l] : V1[l];\n"
            "                    %s;\n"
            "                }\n"
            "                for (; k < j1; k++) step_%s(&L[0], p[k], k);\n"
            "                goto merge_%s;\n"
            "            }\n"
            "        }\n",
            (int)em_dtype_size((em_dtype)d->in), 2 * w, ts, it, w, w, 2 * w,
            2 * w, w, cmp, cmp, upd, w, n, w, cmp, fin, n, n);
    }
    if (flt)
        em_sb_printf(b,
                  "__attribute__((optimize(\"tree-loop-vectorize\"))) static "
                  "int anynan_%s(const %s *p, long long n)\n{\n"
                  "    int r = 0;\n"
                  "    for (long long i = 0; i < n; i++) r |= p[i] != p[i];\n"
                  "    return r;\n}\n",
                  n, ts);
    emit_host_row_open(b, n);
    em_sb_printf(
        b,
        "        const %s *p = (const %s *)row;\n"
        "%s"
        "        if (sk == (long long)sizeof(%s) && !%s) {\n"
        "            %s V[8], first = ld_%s(p[j0]);\n"
        "            long long I[8];\n"
        "            for (l = 0; l < 8; l++) { V[l] = first; I[l] = j0; }\n"
        "            for (k = j0; k + 8 <= j1; k += 8)\n"
        "                for (l = 0; l < 8; l++) {\n"
        "                    %s x = ld_%s(p[k + l]);\n"
        "%s"
        "                    V[l] = x %s V[l] ? x : V[l];\n"
        "                }\n"
        "            for (; k < j1; k++) {\n"
        "                %s x = ld_%s(p[k]);\n"
        "%s"
        "                V[0] = x %s V[0] ? x : V[0];\n"
        "            }\n"
        "            for (l = 0; l < 8; l++) { L[l].v = V[l]; %s; }\n"
        "        } else {\n"
        "            for (l = 0; l < 8; l++) L[l] = init_%s();\n",
        ts, ts, vecpath, ts, nanexpr, ct, n, ct, n,
        arg ? il : "", cmp, ct, n, arg ? i0 : "", cmp,
        arg ? "L[l].i = I[l]" : "L[l].has = 1", n);
    emit_host_strided_steps(b, n, ts);
    if (flt)
        em_sb_printf(b, "    merge_%s:\n", n);
    emit_host_row_merge(b, n);
}

static void emit_host(em_sb *b, const em_gen_reduce *d, const char *n)
{
    const char *ts = em_gen_ew_storage[d->in];
    if ((d->sched == EM_GEN_RED_ROWS || d->sched == EM_GEN_RED_WARP) &&
        (class_of(d->op) == CL_MINMAX || class_of(d->op) == CL_ARG) &&
        d->compute != EM_COMPLEX64 && d->compute != EM_COMPLEX128) {
        emit_host_select_row(b, d, n);
        emit_host_entry(b, d, n);
        return;
    }
    if (d->sched == EM_GEN_RED_ROWS || d->sched == EM_GEN_RED_WARP) {
        /* Eight accumulators per sub-block of 1024 (independent chains the
         * compiler can vectorise), the sub-blocks merged pairwise through
         * a binary counter of partial results: NumPy-grade accuracy. */
        emit_host_row_open(b, n);
        em_sb_printf(
            b,
            "        for (l = 0; l < 8; l++) L[l] = init_%s();\n"
            "        if (sk == (long long)sizeof(%s)) {\n"
            "            const %s *p = (const %s *)row;\n"
            "            for (k = j0; k + 8 <= j1; k += 8)\n"
            "                for (l = 0; l < 8; l++) step_%s(&L[l], "
            "ld_%s(p[k + l]), k + l);\n"
            "            for (; k < j1; k++) step_%s(&L[0], ld_%s(p[k]), k);\n"
            "        } else {\n",
            n, ts, ts, ts, n, n, n, n);
        emit_host_strided_steps(b, n, ts);
        emit_host_row_merge(b, n);
        emit_host_entry(b, d, n);
    } else if (d->sched == EM_GEN_RED_COLS) {
        emit_sig(b, n, 0);
        em_sb_printf(
            b,
            "    const long long tiles = (g.M + 2047) / 2048;\n"
            "    const long long tl = blockIdx.x %% tiles, s = blockIdx.x / "
            "tiles;\n"
            "    const long long m0 = tl * 2048, w = g.M - m0 > 2048 ? 2048 : "
            "g.M - m0;\n"
            "    const long long k0 = s * g.chunk, k1 = g.K - k0 > g.chunk ? "
            "k0 + g.chunk : g.K;\n"
            "    acc_%s A[2048];\n    long long j, k;\n"
            "    (void)out; (void)part;\n"
            "    for (j = 0; j < w; j++) A[j] = init_%s();\n"
            /* Four rows per pass: each accumulator is loaded and
             * stored once per four elements. */
            "    for (k = k0; k + 4 <= k1; k += 4) {\n"
            "        const %s *p0 = (const %s *)(in + k * g.sk + m0 * g.sm);\n"
            "        const %s *p1 = (const %s *)((const char *)p0 + g.sk);\n"
            "        const %s *p2 = (const %s *)((const char *)p1 + g.sk);\n"
            "        const %s *p3 = (const %s *)((const char *)p2 + g.sk);\n"
            "        for (j = 0; j < w; j++) {\n"
            "            step_%s(&A[j], ld_%s(p0[j]), k);\n"
            "            step_%s(&A[j], ld_%s(p1[j]), k + 1);\n"
            "            step_%s(&A[j], ld_%s(p2[j]), k + 2);\n"
            "            step_%s(&A[j], ld_%s(p3[j]), k + 3);\n"
            "        }\n"
            "    }\n"
            "    for (; k < k1; k++) {\n"
            "        const %s *p = (const %s *)(in + k * g.sk + m0 * g.sm);\n"
            "        for (j = 0; j < w; j++) step_%s(&A[j], ld_%s(p[j]), "
            "k);\n"
            "    }\n",
            n, n, ts, ts, ts, ts, ts, ts, ts, ts, n, n, n, n, n, n, n, n, ts,
            ts, n, n);
        if (d->split)
            em_sb_printf(b, "    for (j = 0; j < w; j++) part[s * g.M + m0 + j] = "
                         "A[j];\n}\n");
        else
            em_sb_printf(b,
                      "    for (j = 0; j < w; j++) fin_%s(out, m0 + j, A[j], "
                      "g.count, g.ddof);\n}\n",
                      n);
    } else {
        emit_sig(b, n, 0);
        em_sb_printf(b,
                  "    const long long m0 = (long long)blockIdx.x * g.rows;\n"
                  "    const long long m1 = g.M - m0 > g.rows ? m0 + g.rows : "
                  "g.M;\n"
                  "    (void)in;\n"
                  "    for (long long m = m0; m < m1; m++) {\n"
                  "        acc_%s a = init_%s(), st[64], c;\n"
                  "        int lv[64], top = 0, v;\n"
                  "        for (long long s = 0; s < g.S; s++) {\n"
                  "            c = part[s * g.M + m]; v = 0;\n",
                  n, n);
        /* the splits' partials merged pairwise, as a row's sub-blocks are:
         * added in turn, the 256 partials of a 64-thread host lost 2 units
         * in a million on ten million float32 0.1s */
        emit_counter_push(b, n, "            ");
        em_sb_puts(b, "        }\n");
        emit_counter_drain(b, n, "a", "        ");
        em_sb_printf(b, "        fin_%s(out, m, a, g.count, g.ddof);\n    }\n}\n", n);
    }
}

static em_status check_desc(const em_gen_reduce *d, em_device_type target)
{
    int ok = d->op < EM_RED_OP_COUNT && d->in < EM_DTYPE_COUNT &&
             is_compute(d->compute) && d->out < EM_DTYPE_COUNT &&
             d->sched <= EM_GEN_RED_FIN && d->vec >= 1 && d->vec <= 16 &&
             !(d->vec & (d->vec - 1)) && d->split <= 1;
    if (ok && d->vec > 1)
        ok = target == EM_DEVICE_CUDA && d->sched == EM_GEN_RED_ROWS &&
             em_dtype_size((em_dtype)d->in) * d->vec == 16;
    /* Variances and squared norms need a real type to divide in. */
    if (ok && (class_of(d->op) == CL_VAR || d->op == EM_RED_SUMSQ))
        ok = d->compute != EM_INT64 && d->compute != EM_UINT64;
    if (!ok)
        return em_error(EM_ERR_INVALID_VALUE,
                        "reduction generator: bad descriptor (op %d, in %d, "
                        "compute %d, out %d, schedule %d, vec %d)",
                        d->op, d->in, d->compute, d->out, d->sched, d->vec);
    return EM_OK;
}

em_status em_gen_reduce_source(const em_gen_reduce *d, em_device_type target,
                               const char *name, char **out)
{
    return em_gen_reduce_source_with(d, target, name, NULL, out);
}

em_status em_gen_reduce_source_with(const em_gen_reduce *d,
                                    em_device_type target, const char *name,
                                    const char *prelude, char **out)
{
    static const char *const sched_names[] = {"rows", "warp", "cols", "fin"};
    em_sb b = {0};
    em_status st;
    if (!d || !name || !out)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_gen_reduce_source: NULL argument");
    *out = NULL;
    if ((st = check_desc(d, target)) != EM_OK)
        return st;
    pthread_once(&base_once, cut_base);
    if (!ewise_base)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a reduction kernel");
    em_sb_printf(&b,
              "/* ember reduction: %s, %s -> %s (compute %s), %s%s, vec %d, "
              "%s indices */\n",
              em_reduce_name((em_reduce_op)d->op),
              em_dtype_get((em_dtype)d->in)->name,
              em_dtype_get((em_dtype)d->out)->name,
              em_dtype_get((em_dtype)d->compute)->name, sched_names[d->sched],
              d->split ? " to partials" : "", d->vec,
              d->idx64 ? "64-bit" : "32-bit");
    if (prelude && target != EM_DEVICE_CUDA)
        return em_error(EM_ERR_NOT_SUPPORTED,
                        "a reduction's element prelude is for cuda kernels");
    /* A prelude brings the whole ops header and defines the loads; the
     * plain kernel reads its input's memory. */
    if (prelude)
        em_sb_printf(&b, "%s\n%s\n", prelude, em_embedded_reduce_ops_h);
    else
        em_sb_printf(&b,
                     "%s\n%s\n#define RD_EXTRA\n"
                     "#define RD_LD(T, p) (*(const T *)(p))\n"
                     "#define RD_VLD(p, j) ((p)[j])\n",
                     ewise_base, em_embedded_reduce_ops_h);
    emit_op(&b, d, name);
    if (target == EM_DEVICE_CUDA)
        emit_cuda(&b, d, name);
    else
        emit_host(&b, d, name);
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a reduction kernel");
    }
    *out = b.p;
    return EM_OK;
}

const char *const *em_gen_reduce_options(const em_gen_reduce *d,
                                         em_device_type target, int *n)
{
    /* GCC 12's -O3 loop vectoriser miscompiles the eight-lane loop of an
     * int8 sum (found by test_array_reduce); the lanes are written for the
     * SLP vectoriser, which stays on. The column loops need the loop
     * vectoriser and are plain loops it handles. */
    static const char *const rows_opts[] = {"-O3", "-fno-tree-loop-vectorize"};
    static const char *const cols_opts[] = {"-O3"};
    /* no multiply-add contraction, as elementwise kernels (ewise.c): a
     * fused reduction's loads compute a group's values inside this code */
    static const char *const cuda_opts[] = {"--fmad=false"};
    if (target == EM_DEVICE_CPU) {
        int cols =
            d && (d->sched == EM_GEN_RED_COLS || d->sched == EM_GEN_RED_FIN);
        *n = cols ? 1 : 2;
        return cols ? cols_opts : rows_opts;
    }
    *n = 1;
    return cuda_opts;
}
