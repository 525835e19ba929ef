/* ember codegen: scan kernel source and launch (see scan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/linalg_table.h"
#include "codegen/scan.h"
#include "ember/util.h"

enum { FAMILY_SCAN = 1, FAMILY_TRANSFORM = 2, FAMILY_FLAGS = 3,
       FAMILY_SCATTER = 4 };

static const char *builtin_name(em_par_builtin op)
{
    static const char *const names[] = {"add", "mul", "min", "max", "and",
                                        "or", "xor", "argmin", "argmax",
                                        "expression"};
    return (unsigned)op <= EM_PAR_EXPR ? names[op] : "?";
}

em_status em_gen_scan_check(em_par_builtin op, em_dtype dt, const char *fn)
{
    const em_gen_lt_type *t = em_gen_lt_type_of(dt);
    int ok;
    if (!t)
        return em_error(EM_ERR_TYPE, "%s: invalid dtype %d", fn, (int)dt);
    switch (op) {
    case EM_PAR_ADD:
    case EM_PAR_MUL:
    case EM_PAR_EXPR:
        ok = 1;
        break;
    case EM_PAR_MIN:
    case EM_PAR_MAX:
        ok = t->cls != 'c';
        break;
    case EM_PAR_AND:
    case EM_PAR_OR:
    case EM_PAR_XOR:
        ok = t->cls == 'b' || t->cls == 'i';
        break;
    default:
        ok = 0;
    }
    if (!ok)
        return em_error(EM_ERR_TYPE,
                        "%s: operator '%s' is not supported for dtype %s%s", fn,
                        builtin_name(op), em_dtype_get(dt)->name,
                        op == EM_PAR_ARGMIN || op == EM_PAR_ARGMAX
                            ? " (argmin/argmax need tuple values, which "
                              "scans do not take yet)"
                            : "");
    return EM_OK;
}

/* The C type an operator works in, with load (storage -> value) and store
 * (value -> storage) macro bodies over x. add and mul use the wrapping
 * unsigned words of the product kernels; everything else the dtype's
 * natural type, so min/max compare signed integers as signed and a user's
 * expression sees the values it expects. */
static void value_type(em_par_builtin op, em_dtype dt, const char **ty,
                       const char **ld, const char **st)
{
    const em_gen_lt_type *t = em_gen_lt_type_of(dt);
    if ((op == EM_PAR_ADD || op == EM_PAR_MUL) || t->cls != 'i') {
        *ty = t->acc;
        *ld = t->ld;
        *st = t->st;
        return;
    }
    *ty = t->storage;
    *ld = "(x)";
    *st = "(x)";
}

/* sc_acc sc_op(sc_acc a, sc_acc b), the operator in the value type. */
static void emit_op(em_gen_buf *b, em_par_builtin op, const char *expr,
                    em_dtype dt, const char *fname, const char *tname,
                    const char *ldm, const char *stm)
{
    const em_gen_lt_type *t = em_gen_lt_type_of(dt);
    const char *mk = dt == EM_COMPLEX64 ? "ew_mk_c64" : "ew_mk_c128";
    const char *body = "a";
    char cbuf[200];
    int half = dt == EM_FLOAT16 || dt == EM_BFLOAT16;
    switch (op) {
    case EM_PAR_ADD:
        if (t->cls == 'b')
            body = "a | b";
        else if (t->cls == 'c') {
            snprintf(cbuf, sizeof cbuf, "%s(a.re + b.re, a.im + b.im)", mk);
            body = cbuf;
        } else
            body = "a + b";
        break;
    case EM_PAR_MUL:
        if (t->cls == 'b')
            body = "a & b";
        else if (t->cls == 'c') {
            snprintf(cbuf, sizeof cbuf,
                     "%s(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)",
                     mk);
            body = cbuf;
        } else
            body = "a * b";
        break;
    case EM_PAR_MIN:
        body = t->cls == 'b'   ? "a & b"
               : t->cls == 'f' ? "(a < b || a != a) ? a : b"
                               : "a < b ? a : b";
        break;
    case EM_PAR_MAX:
        body = t->cls == 'b'   ? "a | b"
               : t->cls == 'f' ? "(a > b || a != a) ? a : b"
                               : "a > b ? a : b";
        break;
    case EM_PAR_AND:
        body = "a & b";
        break;
    case EM_PAR_OR:
        body = "a | b";
        break;
    case EM_PAR_XOR:
        body = "a ^ b";
        break;
    default:
        break;
    }
    if (op == EM_PAR_EXPR)
        /* On a line of its own, so the compiler's message points at it. */
        em_gen_buf_printf(b,
                          "EW_FN %s %s(%s a, %s b)\n{\n"
                          "    %s r = %s(\n%s\n    )%s;\n",
                          tname, fname, tname, tname, tname,
                          t->cls == 'b' ? "(" : "", expr,
                          t->cls == 'b' ? ") ? 1 : 0" : "");
    else
        em_gen_buf_printf(b,
                          "EW_FN %s %s(%s a, %s b)\n{\n"
                          "    %s r = %s;\n",
                          tname, fname, tname, tname, tname, body);
    /* 16-bit floats round every step to storage, as NumPy's loop does. */
    if (half)
        em_gen_buf_printf(b, "    return %s(%s(r));\n}\n", ldm, stm);
    else
        em_gen_buf_printf(b, "    return r;\n}\n");
}

int em_gen_scan_items(em_dtype in, em_dtype out)
{
    size_t sz = em_dtype_size(in) > em_dtype_size(out) ? em_dtype_size(in)
                                                       : em_dtype_size(out);
    return sz <= 4 ? 16 : sz == 8 ? 8 : 4;
}

/* Host: chunk totals, the serial pass over them, the chunk scans. A block
 * is one thread; blocks never wait on each other. */
static const char host_body[] =
    "extern \"C\" __global__ void NAME_reduce(const char *in, struct "
    "sc_slot *tot, struct sc_geom g, struct sc_init init, const unsigned "
    "char *heads)\n{\n"
    "    const long long nt = g.nrows * g.ntiles;\n"
    "    for (long long t = blockIdx.x; t < nt; t += gridDim.x) {\n"
    "        const long long row = t / g.ntiles, lo = (t % g.ntiles) * "
    "g.tile;\n"
    "        const long long hi = lo + g.tile < g.len ? lo + g.tile : g.len;\n"
    "        const char *p = in + row * g.irs;\n"
    "        sc_acc acc = SC_X(p, lo);\n"
    "        SC_SEG(acc, row, lo);\n"
    "        for (long long i = lo + 1; i < hi; i++) {\n"
    "            sc_acc x = SC_X(p, i);\n"
    "            SC_SEG(x, row, i);\n"
    "            acc = sc_op(acc, x);\n"
    "        }\n"
    "        tot[t].v = acc;\n"
    "    }\n}\n"
    "extern \"C\" __global__ void NAME_carry(struct sc_slot *tot, struct "
    "sc_geom g, struct sc_init init)\n{\n"
    "    for (long long row = blockIdx.x; row < g.nrows; row += gridDim.x) {\n"
    "        struct sc_slot *r = tot + row * g.ntiles;\n"
    "        sc_acc run = SC_LD(init.v);\n"
    "        int has = SC_HAS_INIT;\n"
    "        for (long long c = 0; c < g.ntiles; c++) {\n"
    "            sc_acc x = r[c].v;\n"
    "            r[c].v = run;\n"
    "            run = has ? sc_op(run, x) : x;\n"
    "            has = 1;\n"
    "        }\n"
    "    }\n}\n"
    "extern \"C\" __global__ void NAME_scan(const char *in, char *out, const "
    "struct sc_slot *tot, struct sc_geom g, struct sc_init init, const "
    "unsigned char *heads)\n{\n"
    "    const long long nt = g.nrows * g.ntiles;\n"
    "    for (long long t = blockIdx.x; t < nt; t += gridDim.x) {\n"
    "        const long long row = t / g.ntiles, c = t % g.ntiles, lo = c * "
    "g.tile;\n"
    "        const long long hi = lo + g.tile < g.len ? lo + g.tile : g.len;\n"
    "        const char *p = in + row * g.irs;\n"
    "        char *q = out + row * g.ors;\n"
    "        sc_acc run = c > 0 ? tot[t].v : SC_LD(init.v);\n"
    "        int has = c > 0 || SC_HAS_INIT;\n"
    "        for (long long i = lo; i < hi; i++) {\n"
    "            sc_acc x = SC_X(p, i);\n"
    "            SC_SEG(x, row, i);\n"
    "#if SC_EXCL\n"
    "            SC_Y(q, i) = SC_ST(SC_EXV(run, x));\n"
    "#endif\n"
    "            run = has ? sc_op(run, x) : x;\n"
    "            has = 1;\n"
    "#if !SC_EXCL\n"
    "            SC_Y(q, i) = SC_ST(run);\n"
    "#endif\n"
    "        }\n"
    "    }\n}\n";

/* CUDA: one tile per block. Loads and stores go through shared memory so
 * global accesses are coalesced while each thread scans SC_ITEMS
 * consecutive elements; the shared index is padded every 32 elements so
 * a thread's consecutive run does not fall into one bank. Tile status
 * words are read through L2 (__ldcg): a line cached in L1 before its
 * neighbour tile published would be stale. */
static const char cuda_body[] =
    "#define SC_BLOCK 256\n"
    "#define SC_TILE (SC_BLOCK * SC_ITEMS)\n"
    "#define SC_PAD(i) ((i) + ((i) >> 5))\n"
    "EW_FN sc_acc sc_ldcg(const struct sc_slot *p)\n{\n"
    "    struct sc_slot r;\n"
    "    const unsigned long long *s = (const unsigned long long *)p;\n"
    "    unsigned long long *d = (unsigned long long *)&r;\n"
    "#pragma unroll\n"
    "    for (int k = 0; k < (int)(sizeof(r) / 8); k++)\n"
    "        d[k] = __ldcg(s + k);\n"
    "    return r.v;\n}\n"
    "extern \"C\" __global__ void __launch_bounds__(SC_BLOCK) NAME(const char "
    "*in, char *out, unsigned *flags, struct sc_slot *agg, struct sc_slot "
    "*inc, unsigned *counter, struct sc_geom g, struct sc_init init, const "
    "unsigned char *heads)\n{\n"
    "    __shared__ unsigned s_tile;\n"
    "    __shared__ sc_acc s_part[SC_BLOCK];\n"
    "    __shared__ sc_acc s_look[32];\n"
    "    __shared__ sc_acc s_prefix;\n"
    "    __shared__ __align__(16) unsigned char s_buf[SC_PAD(SC_TILE) * "
    "SC_BUFSZ];\n"
    "    const int tid = threadIdx.x;\n"
    "    if (tid == 0)\n"
    "        s_tile = atomicAdd(counter, 1u);\n"
    "    __syncthreads();\n"
    "    const long long t = s_tile;\n"
    "    const long long row = t / g.ntiles, c = t % g.ntiles, lo = c * "
    "SC_TILE;\n"
    "    const int n = (int)(g.len - lo < SC_TILE ? g.len - lo : SC_TILE);\n"
    "    const char *pin = in + row * g.irs + lo * g.ies;\n"
    "    char *pout = out + row * g.ors + lo * g.oes;\n"
    "    sc_in *bin = (sc_in *)s_buf;\n"
    "    sc_t *bout = (sc_t *)s_buf;\n"
    "#pragma unroll\n"
    "    for (int k = 0; k < SC_ITEMS; k++) {\n"
    "        const int i = k * SC_BLOCK + tid;\n"
    "        if (i < n)\n"
    "            bin[SC_PAD(i)] = *(const sc_in *)(pin + (long long)i * "
    "g.ies);\n"
    "    }\n"
    "    __syncthreads();\n"
    "    const int i0 = tid * SC_ITEMS;\n"
    "    const int cnt = n - i0;\n"
    "    sc_acc v[SC_ITEMS];\n"
    "    sc_acc tot = SC_LD(init.v);\n"
    "#pragma unroll\n"
    "    for (int k = 0; k < SC_ITEMS; k++)\n"
    "        if (k < cnt) {\n"
    "            v[k] = SC_CONV(bin[SC_PAD(i0 + k)]);\n"
    "            SC_SEG(v[k], row, lo + i0 + k);\n"
    "            tot = k ? sc_op(tot, v[k]) : v[k];\n"
    "        }\n"
    "    s_part[tid] = tot;\n"
    "    __syncthreads();\n"
    "    for (int d = 1; d < SC_BLOCK; d <<= 1) {\n"
    "        sc_acc l = tot;\n"
    "        if (tid >= d)\n"
    "            l = s_part[tid - d];\n"
    "        __syncthreads();\n"
    "        if (tid >= d) {\n"
    "            tot = sc_op(l, tot);\n"
    "            s_part[tid] = tot;\n"
    "        }\n"
    "        __syncthreads();\n"
    "    }\n"
    "    const int nvalid = (n + SC_ITEMS - 1) / SC_ITEMS;\n"
    "    if (tid == 0) {\n"
    "        const sc_acc a = s_part[nvalid - 1];\n"
    "        if (c == 0) {\n"
    "#if SC_HAS_INIT\n"
    "            inc[t].v = sc_op(SC_LD(init.v), a);\n"
    "#else\n"
    "            inc[t].v = a;\n"
    "#endif\n"
    "            __threadfence();\n"
    "            *(volatile unsigned *)&flags[t] = 2u;\n"
    "        } else {\n"
    "            agg[t].v = a;\n"
    "            __threadfence();\n"
    "            *(volatile unsigned *)&flags[t] = 1u;\n"
    "        }\n"
    "    }\n"
    "    if (c > 0 && tid < 32) {\n"
    "        const int lane = tid;\n"
    "        const long long first = t - c;\n"
    "        sc_acc run = SC_LD(init.v);\n"
    "        int has = 0;\n"
    "        for (long long j = t - 1;; j -= 32) {\n"
    "            const long long jj = j - lane;\n"
    "            const int valid = jj >= first;\n"
    "            unsigned f = 0;\n"
    "            do {\n"
    "                if (valid)\n"
    "                    f = *(volatile unsigned *)&flags[jj];\n"
    "            } while (__any_sync(0xffffffffu, valid && f == 0));\n"
    "            __threadfence();\n"
    "            const unsigned pm = __ballot_sync(0xffffffffu, valid && f == "
    "2u);\n"
    "            const int stop = pm ? __ffs(pm) - 1 : 31;\n"
    "            if (valid && lane <= stop)\n"
    "                s_look[lane] = f == 2u ? sc_ldcg(&inc[jj]) : "
    "sc_ldcg(&agg[jj]);\n"
    "            __syncwarp();\n"
    "            if (lane == 0) {\n"
    "                sc_acc w = s_look[stop];\n"
    "                for (int k = stop - 1; k >= 0; k--)\n"
    "                    w = sc_op(w, s_look[k]);\n"
    "                run = has ? sc_op(w, run) : w;\n"
    "                has = 1;\n"
    "            }\n"
    "            __syncwarp();\n"
    "            if (pm)\n"
    "                break;\n"
    "        }\n"
    "        if (lane == 0) {\n"
    "            inc[t].v = sc_op(run, s_part[nvalid - 1]);\n"
    "            __threadfence();\n"
    "            *(volatile unsigned *)&flags[t] = 2u;\n"
    "            s_prefix = run;\n"
    "        }\n"
    "    }\n"
    "    __syncthreads();\n"
    "    sc_acc p = c > 0 ? s_prefix : SC_LD(init.v);\n"
    "    int has = c > 0 || SC_HAS_INIT;\n"
    "    if (tid > 0) {\n"
    "        const sc_acc tp = s_part[tid - 1];\n"
    "        p = has ? sc_op(p, tp) : tp;\n"
    "        has = 1;\n"
    "    }\n"
    "#pragma unroll\n"
    "    for (int k = 0; k < SC_ITEMS; k++)\n"
    "        if (k < cnt) {\n"
    "#if SC_EXCL\n"
    "            bout[SC_PAD(i0 + k)] = SC_ST(SC_EXV(p, v[k]));\n"
    "#endif\n"
    "            p = has ? sc_op(p, v[k]) : v[k];\n"
    "            has = 1;\n"
    "#if !SC_EXCL\n"
    "            bout[SC_PAD(i0 + k)] = SC_ST(p);\n"
    "#endif\n"
    "        }\n"
    "    __syncthreads();\n"
    "#pragma unroll\n"
    "    for (int k = 0; k < SC_ITEMS; k++) {\n"
    "        const int i = k * SC_BLOCK + tid;\n"
    "        if (i < n)\n"
    "            *(sc_t *)(pout + (long long)i * g.oes) = bout[SC_PAD(i)];\n"
    "    }\n}\n";

/* Appends body with every NAME replaced by name. */
static void emit_named(em_gen_buf *b, const char *body, const char *name)
{
    const char *p = body, *q;
    while ((q = strstr(p, "NAME"))) {
        em_gen_buf_printf(b, "%.*s%s", (int)(q - p), p, name);
        p = q + 4;
    }
    em_gen_buf_printf(b, "%s", p);
}

/* Types, load/store and the operator for values of dtype `out` read from
 * storage of dtype `in`: sc_t, sc_in, sc_acc, SC_LD, SC_ST, SC_CONV, sc_op,
 * struct sc_slot and struct sc_init. */
static void emit_common(em_gen_buf *b, em_par_builtin op, const char *expr,
                        em_dtype in, em_dtype out, int segmented, int nan)
{
    const char *ty, *ld, *st, *o1, *o2, *cl;
    value_type(op, out, &ty, &ld, &st);
    em_gen_convert(in, out, &o1, &o2, &cl);
    em_gen_buf_printf(b, "%s\ntypedef %s sc_t;\ntypedef %s sc_in;\n",
                      em_gen_ops_base(), em_gen_lt_type_of(out)->storage,
                      em_gen_lt_type_of(in)->storage);
    if (!segmented) {
        em_gen_buf_printf(b,
                          "typedef %s sc_acc;\n#define SC_LD(x) %s\n"
                          "#define SC_ST(x) %s\n"
                          "#define SC_SEG(x, row, i) ((void)0)\n"
                          "#define SC_EXV(run, x) (run)\n",
                          ty, ld, st);
        emit_op(b, op, expr, out, "sc_op", "sc_acc", "SC_LD", "SC_ST");
    } else {
        /* By key: a value and "a segment starts in here". Combining
         * keeps the right operand alone when it holds a head, which is
         * associative whenever op is, and keeps index order. */
        em_gen_buf_printf(b,
                          "typedef %s sc_val;\n#define SC_LD0(x) %s\n"
                          "#define SC_ST0(x) %s\n",
                          ty, ld, st);
        emit_op(b, op, expr, out, "sc_op0", "sc_val", "SC_LD0", "SC_ST0");
        em_gen_buf_printf(
            b,
            "typedef struct sc_pair { sc_val v; int f; } sc_acc;\n"
            "EW_FN sc_acc sc_mk(sc_val v, int f)\n{\n    sc_acc r;\n"
            "    r.v = v;\n    r.f = f;\n    return r;\n}\n"
            "EW_FN sc_acc sc_op(sc_acc a, sc_acc b)\n{\n"
            "    return b.f ? b : sc_mk(sc_op0(a.v, b.v), a.f);\n}\n"
            "#define SC_LD(x) sc_mk(SC_LD0(x), 0)\n"
            "#define SC_ST(x) SC_ST0((x).v)\n"
            "#define SC_SEG(x, row, i) do { (x).f = heads[(row) * g.len + "
            "(i)] != 0; if (SC_HAS_INIT && (x).f) (x).v = "
            "sc_op0(SC_LD0(init.v), (x).v); } while (0)\n"
            "#define SC_EXV(run, x) ((x).f ? SC_LD(init.v) : (run))\n");
    }
    if (nan) {
        const em_gen_lt_type *t = em_gen_lt_type_of(out);
        em_gen_buf_printf(
            b,
            "EW_FN sc_acc sc_nan(sc_acc x)\n{\n    return %s ? %s : x;\n}\n"
            "#define SC_CONV(x) sc_nan(SC_LD(%s%s(x)%s))\n",
            t->cls == 'c' ? "(x.re != x.re || x.im != x.im)" : "(x != x)",
            op == EM_PAR_MUL ? t->one : t->zero, o1, o2, cl);
    } else
        em_gen_buf_printf(b, "#define SC_CONV(x) SC_LD(%s%s(x)%s)\n", o1, o2,
                          cl);
    em_gen_buf_printf(b, "struct __align__(8) sc_slot { sc_acc v; };\n"
                         "struct sc_init { sc_t v; };\n");
}

em_status em_gen_scan_source(const em_gen_scan *d, em_device_type target,
                             const char *name, char **out)
{
    em_gen_buf b = {0};
    em_status st;
    if (!d || !name || !out)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_gen_scan_source: NULL argument");
    *out = NULL;
    if (d->in >= EM_DTYPE_COUNT || d->out >= EM_DTYPE_COUNT ||
        d->op >= EM_PAR_BUILTIN_COUNT || (d->op == EM_PAR_EXPR && !d->expr))
        return em_error(EM_ERR_INVALID_VALUE,
                        "scan generator: bad descriptor (op %d, %d -> %d)",
                        d->op, d->in, d->out);
    if ((st = em_gen_scan_check((em_par_builtin)d->op, (em_dtype)d->out,
                                "scan")) != EM_OK)
        return st;
    if (!em_gen_ops_base())
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a scan kernel");
    em_gen_buf_printf(&b, "/* ember scan: %s, %s -> %s, %s */\n",
                      builtin_name((em_par_builtin)d->op),
                      em_dtype_get((em_dtype)d->in)->name,
                      em_dtype_get((em_dtype)d->out)->name,
                      d->flags & EM_GEN_SCAN_EXCLUSIVE ? "exclusive"
                                                       : "inclusive");
    em_gen_buf_printf(
        &b,
        "struct sc_geom { long long nrows, len, irs, ies, ors, oes, tile, "
        "ntiles; };\n#define SC_EXCL %d\n#define SC_HAS_INIT %d\n",
        d->flags & EM_GEN_SCAN_EXCLUSIVE ? 1 : 0,
        d->flags & EM_GEN_SCAN_INIT ? 1 : 0);
    emit_common(&b, (em_par_builtin)d->op, d->expr, (em_dtype)d->in,
                (em_dtype)d->out, d->flags & EM_GEN_SCAN_SEGMENTED,
                (d->flags & EM_GEN_SCAN_NAN) && !(d->flags & EM_GEN_SCAN_SEGMENTED) &&
                    (d->op == EM_PAR_ADD || d->op == EM_PAR_MUL) &&
                    (em_gen_lt_type_of((em_dtype)d->out)->cls == 'f' ||
                     em_gen_lt_type_of((em_dtype)d->out)->cls == 'c'));
    if (target == EM_DEVICE_CUDA) {
        size_t si = em_dtype_size((em_dtype)d->in),
               so = em_dtype_size((em_dtype)d->out);
        em_gen_buf_printf(&b, "#define SC_ITEMS %d\n#define SC_BUFSZ %zu\n",
                          em_gen_scan_items((em_dtype)d->in, (em_dtype)d->out),
                          si > so ? si : so);
        emit_named(&b, cuda_body, name);
    } else {
        if (d->flags & EM_GEN_SCAN_CONTIG)
            em_gen_buf_printf(
                &b, "#define SC_X(p, i) SC_CONV(((const sc_in *)(p))[i])\n"
                    "#define SC_Y(q, i) (((sc_t *)(q))[i])\n");
        else
            em_gen_buf_printf(
                &b,
                "#define SC_X(p, i) SC_CONV(*(const sc_in *)((p) + (i) * "
                "g.ies))\n"
                "#define SC_Y(q, i) (*(sc_t *)((q) + (i) * g.oes))\n");
        emit_named(&b, host_body, name);
    }
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a scan kernel");
    }
    *out = b.p;
    return EM_OK;
}

static uint64_t scan_word(const em_gen_scan *d)
{
    return ((uint64_t)FAMILY_SCAN << 56) | ((uint64_t)d->flags << 24) |
           ((uint64_t)d->out << 16) | ((uint64_t)d->in << 8) | d->op;
}

static em_status scan_from_word(uint64_t w, const char *expr,
                                em_device_type target, const char *name,
                                char **out)
{
    em_gen_scan d;
    d.op = (uint8_t)(w & 0xff);
    d.in = (uint8_t)((w >> 8) & 0xff);
    d.out = (uint8_t)((w >> 16) & 0xff);
    d.flags = (uint8_t)((w >> 24) & 0xff);
    d.expr = expr;
    return em_gen_scan_source(&d, target, name, out);
}

/* The host pool's useful parallelism; more blocks only cost launches. */
#define HOST_MAX_BLOCKS 4096

em_status em_gen_scan_run(em_device *dev, const em_gen_scan *desc,
                          const void *in, void *out, long long nrows,
                          long long len, long long irs, long long ies,
                          long long ors, long long oes, const void *init,
                          em_stream *s)
{
    return em_gen_scan_run_heads(dev, desc, in, out, nrows, len, irs, ies,
                                 ors, oes, init, NULL, s);
}

em_status em_gen_scan_run_heads(em_device *dev, const em_gen_scan *desc,
                                const void *in, void *out, long long nrows,
                                long long len, long long irs, long long ies,
                                long long ors, long long oes, const void *init,
                                const unsigned char *heads, em_stream *s)
{
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    em_gen_scan d = *desc;
    em_gen_scan_geom g;
    em_function *fn[3];
    unsigned char initbuf[16] __attribute__((aligned(16))) = {0};
    size_t osz = em_dtype_size((em_dtype)d.out), slot;
    const void *pin = in;
    void *pout = out, *tmp = NULL;
    em_dim3 grid = {1, 1, 1}, threads = {1, 1, 1};
    long long total;
    em_status st;

    if (nrows <= 0 || len <= 0)
        return EM_OK;
    /* Room for any kernel's struct sc_slot (at most a complex128 and a
     * head flag, 8-aligned: 24 bytes); the kernel sets the stride. */
    slot = 32;
    if (init)
        memcpy(initbuf, init, osz);
    d.flags &= (uint8_t)~(EM_GEN_SCAN_CONTIG | EM_GEN_SCAN_SEGMENTED);
    if (heads)
        d.flags |= EM_GEN_SCAN_SEGMENTED;
    if (!cuda && ies == (long long)em_dtype_size((em_dtype)d.in) &&
        oes == (long long)osz)
        d.flags |= EM_GEN_SCAN_CONTIG;
    memset(&g, 0, sizeof g);
    g.nrows = nrows;
    g.len = len;
    g.irs = irs;
    g.ies = ies;
    g.ors = ors;
    g.oes = oes;
    if (cuda) {
        static const char *const names[] = {"sc"};
        unsigned *flags;
        void *agg, *inc;
        unsigned *counter;
        size_t fbytes;
        void *args[9];
        g.tile = (long long)EM_GEN_SCAN_BLOCK *
                 em_gen_scan_items((em_dtype)d.in, (em_dtype)d.out);
        g.ntiles = (len + g.tile - 1) / g.tile;
        total = g.ntiles * nrows;
        if (total > 0x7fffffffLL || nrows > (1LL << 40))
            return em_error(EM_ERR_NOT_SUPPORTED,
                            "scan: %lld tiles of %lld elements is more than "
                            "one launch holds",
                            total, g.tile);
        st = em_gen_scan_table_get(dev, scan_word(&d), d.expr, scan_from_word,
                                   "sc", names, 1, fn);
        if (st != EM_OK)
            return st;
        fbytes = ((size_t)total * 4 + 16 + 15) / 16 * 16;
        st = em_malloc(dev, fbytes + 2 * (size_t)total * slot, s, &tmp);
        if (st != EM_OK)
            return st;
        counter = (unsigned *)tmp;
        flags = (unsigned *)((char *)tmp + 16);
        agg = (char *)tmp + fbytes;
        inc = (char *)agg + (size_t)total * slot;
        st = em_memset_async(dev, tmp, 0, fbytes, s);
        if (st == EM_OK) {
            const void *initp = initbuf;
            args[0] = &pin;
            args[1] = &pout;
            args[2] = &flags;
            args[3] = &agg;
            args[4] = &inc;
            args[5] = &counter;
            args[6] = &g;
            args[7] = (void *)initp;
            args[8] = &heads;
            grid.x = (unsigned)total;
            threads.x = EM_GEN_SCAN_BLOCK;
            st = em_launch(fn[0], grid, threads, 0, s, args);
        }
        em_free(dev, tmp, s);
        return st;
    } else {
        static const char *const names[] = {"sc_reduce", "sc_carry",
                                            "sc_scan"};
        void *tot = NULL;
        void *args[6];
        const void *initp = initbuf;
        g.tile = EM_GEN_SCAN_HOST_CHUNK;
        g.ntiles = (len + g.tile - 1) / g.tile;
        total = g.ntiles * nrows;
        st = em_gen_scan_table_get(dev, scan_word(&d), d.expr, scan_from_word,
                                   "sc", names, 3, fn);
        if (st != EM_OK)
            return st;
        if (g.ntiles > 1) {
            st = em_malloc(dev, (size_t)total * slot, s, &tmp);
            if (st != EM_OK)
                return st;
            tot = tmp;
            args[0] = &pin;
            args[1] = &tot;
            args[2] = &g;
            args[3] = (void *)initp;
            args[4] = &heads;
            grid.x = (unsigned)(total < HOST_MAX_BLOCKS ? total
                                                        : HOST_MAX_BLOCKS);
            st = em_launch(fn[0], grid, threads, 0, s, args);
            if (st == EM_OK) {
                args[0] = &tot;
                args[1] = &g;
                args[2] = (void *)initp;
                grid.x = (unsigned)(nrows < HOST_MAX_BLOCKS ? nrows
                                                            : HOST_MAX_BLOCKS);
                st = em_launch(fn[1], grid, threads, 0, s, args);
            }
        }
        if (st == EM_OK) {
            args[0] = &pin;
            args[1] = &pout;
            args[2] = &tot;
            args[3] = &g;
            args[4] = (void *)initp;
            args[5] = &heads;
            grid.x =
                (unsigned)(total < HOST_MAX_BLOCKS ? total : HOST_MAX_BLOCKS);
            st = em_launch(fn[2], grid, threads, 0, s, args);
        }
        if (tmp)
            em_free(dev, tmp, s);
        return st;
    }
}
