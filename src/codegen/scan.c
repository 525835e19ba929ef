/* ember codegen: scan kernel source and launch (see scan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/kernel_table.h"
#include "codegen/linalg_table.h"
#include "codegen/par_prelude.h"
#include "codegen/scan.h"
#include "core/embedded.h"
#include "ember/util.h"

/* Families of the scan table's words (transform.c has 2 to 6). */
enum { FAMILY_SCAN = 1, FAMILY_SCAN_TUPLE = 7 };

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

/* Size and alignment of the C types the generators name (value and
 * storage types of em_gen_lt_type, the storage types of the dtypes). */
static size_t ctype_size(const char *ty, size_t *align)
{
    static const struct {
        const char *name;
        unsigned char size, align;
    } tab[] = {{"ew_b", 1, 1},    {"ew_i8", 1, 1},   {"ew_u8", 1, 1},
               {"ew_i16", 2, 2},  {"ew_u16", 2, 2},  {"ew_f16", 2, 2},
               {"ew_bf16", 2, 2}, {"ew_i32", 4, 4},  {"ew_u32", 4, 4},
               {"float", 4, 4},   {"ew_i64", 8, 8},  {"ew_u64", 8, 8},
               {"double", 8, 8},  {"ew_c64", 8, 4},  {"ew_c128", 16, 8}};
    for (size_t k = 0; k < sizeof tab / sizeof *tab; k++)
        if (!strcmp(tab[k].name, ty)) {
            *align = tab[k].align;
            return tab[k].size;
        }
    *align = 8;
    return 16;
}

static size_t round_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* The C layout of struct { T0 c0; T1 c1; ... } (n members). */
static size_t struct_size(int n, const char *const *ty, size_t *align)
{
    size_t off = 0, al = 1;
    for (int k = 0; k < n; k++) {
        size_t a, sz = ctype_size(ty[k], &a);
        off = round_up(off, a) + sz;
        al = a > al ? a : al;
    }
    *align = al;
    return round_up(off, al);
}

/* EMBER_SCAN_ITEMS and EMBER_SCAN_MINB: other CUDA tile shapes for a
 * benchmark (em_knob_int). */
/* Whether d's kernels take 32 items per thread: plain scans whose
 * elements and values are at most 4 bytes, where 32 items at 4 blocks per
 * SM was the fastest tile on the H100; int32 -> int64 is best at 16 items
 * and 6 blocks (32 does not fit its staging). bench/README.md, 'scan'. */
static int wide_tile(const em_gen_scan *d, size_t accsz)
{
    return !d->ncomp && !(d->flags & EM_GEN_SCAN_SEGMENTED) && accsz <= 4 &&
           em_dtype_size((em_dtype)d->in) <= 4 &&
           em_dtype_size((em_dtype)d->out) <= 4;
}

/* SC_LEAN: elements of one size in and out, 16-byte staging both ways:
 * the kernel reads and writes each lane's run 16 bytes at a time, which
 * keeps few registers live (EMBER_SCAN_LEAN=0 turns it off, to
 * compare). */
static int lean(const em_gen_scan *d, int items)
{
    size_t si = em_dtype_size((em_dtype)d->in);
    return !d->ncomp && si == em_dtype_size((em_dtype)d->out) &&
           (items * si) % 16 == 0 &&
           em_knob_int(EM_KNOB_SCAN_LEAN, 1);
}

/* Items per thread of d's CUDA kernel. */
static int items_for(const em_gen_scan *d, size_t accsz)
{
    if (d->ncomp)
        return accsz <= 8 ? 8 : 4;
    if (wide_tile(d, accsz))
        return em_knob_int(EM_KNOB_SCAN_ITEMS, 32);
    return em_gen_scan_items((em_dtype)d->in, (em_dtype)d->out);
}

int em_gen_scan_items(em_dtype in, em_dtype out)
{
    size_t sz = em_dtype_size(in) > em_dtype_size(out) ? em_dtype_size(in)
                                                       : em_dtype_size(out);
    /* 16 items of up to 8 bytes: 16-64 KiB tiles, at most 128 bytes of
     * each lane's staging (8 chunks, bank-conflict free under SC_SW; 32 KiB
     * of shared memory per block). */
    int dflt = sz <= 8 ? 16 : 8;
    int v = em_knob_int(EM_KNOB_SCAN_ITEMS, dflt);
    return v * sz > 128 ? dflt : v;
}

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

/* Expression k (of n) of a tuple operator: the k-th '\x1f'-separated
 * field of expr. */
static const char *field(const char *expr, int k, int *len)
{
    const char *p = expr, *q;
    for (int i = 0; i < k && p; i++)
        p = (p = strchr(p, '\x1f')) ? p + 1 : NULL;
    if (!p) {
        *len = 1;
        return "0";
    }
    q = strchr(p, '\x1f');
    *len = q ? (int)(q - p) : (int)strlen(p);
    return p;
}

/* Tuple values: storage struct sc_tst, value struct sc_tval, the
 * conversions between them, the loads/stores of the component arrays and
 * the operator `fname` over sc_tval. */
static void emit_tuple(em_gen_buf *b, const em_gen_scan *d,
                       const char *fname)
{
    const char *vty[EM_GEN_SCAN_MAXT], *sty[EM_GEN_SCAN_MAXT];
    const char *ld[EM_GEN_SCAN_MAXT], *stm[EM_GEN_SCAN_MAXT];
    int n = d->ncomp;
    em_par_builtin op = (em_par_builtin)d->op;
    em_par_builtin vop = op == EM_PAR_ARGMIN || op == EM_PAR_ARGMAX
                             ? EM_PAR_EXPR
                             : op;
    for (int k = 0; k < n; k++) {
        value_type(vop, (em_dtype)d->tout[k], &vty[k], &ld[k], &stm[k]);
        sty[k] = em_gen_lt_type_of((em_dtype)d->tout[k])->storage;
        em_gen_buf_printf(b, "#define SC_LDC%d(x) %s\n#define SC_STC%d(x) %s\n",
                          k, ld[k], k, stm[k]);
    }
    em_gen_buf_printf(b, "typedef struct sc_tst_ {");
    for (int k = 0; k < n; k++)
        em_gen_buf_printf(b, " %s c%d;", sty[k], k);
    em_gen_buf_printf(b, " } sc_tst;\ntypedef struct sc_tval_ {");
    for (int k = 0; k < n; k++)
        em_gen_buf_printf(b, " %s c%d;", vty[k], k);
    em_gen_buf_printf(b, " } sc_tval;\n"
                         "EW_FN sc_tval sc_tld(sc_tst x)\n{\n    sc_tval r;\n");
    for (int k = 0; k < n; k++)
        em_gen_buf_printf(b, "    r.c%d = SC_LDC%d(x.c%d);\n", k, k, k);
    em_gen_buf_printf(b, "    return r;\n}\n"
                         "EW_FN sc_tst sc_tsto(sc_tval x)\n{\n    sc_tst r;\n");
    for (int k = 0; k < n; k++)
        em_gen_buf_printf(b, "    r.c%d = SC_STC%d(x.c%d);\n", k, k, k);
    em_gen_buf_printf(b, "    return r;\n}\n"
                         "struct sc_tup { const char *in[%d]; char *out[%d]; };\n"
                         "EW_FN sc_tst sc_tload(struct sc_tup tp, long long i)\n"
                         "{\n    sc_tst r;\n",
                      EM_GEN_SCAN_MAXT, EM_GEN_SCAN_MAXT);
    for (int k = 0; k < n; k++) {
        const char *o1, *o2, *cl;
        em_gen_convert((em_dtype)d->tin[k], (em_dtype)d->tout[k], &o1, &o2,
                       &cl);
        em_gen_buf_printf(b, "    r.c%d = %s%s(((const %s *)tp.in[%d])[i])%s;\n",
                          k, o1, o2,
                          em_gen_lt_type_of((em_dtype)d->tin[k])->storage, k,
                          cl);
    }
    em_gen_buf_printf(b, "    return r;\n}\n"
                         "EW_FN void sc_tstore(struct sc_tup tp, long long i, "
                         "sc_tst v)\n{\n");
    for (int k = 0; k < n; k++)
        em_gen_buf_printf(b, "    ((%s *)tp.out[%d])[i] = v.c%d;\n", sty[k], k,
                          k);
    em_gen_buf_printf(b, "}\n");
    /* the operator */
    if (op == EM_PAR_ARGMIN || op == EM_PAR_ARGMAX) {
        /* ties and NaN as NumPy's argmin: the lower index wins a tie, a
         * NaN beats every number, the first NaN wins */
        int fl = em_gen_lt_type_of((em_dtype)d->tout[0])->cls == 'f';
        em_gen_buf_printf(
            b,
            "EW_FN sc_tval %s(sc_tval a, sc_tval b)\n{\n"
            "    const int an = %s, bn = %s;\n    int pb;\n"
            "    if (an || bn)\n        pb = an ? bn && b.c1 < a.c1 : 1;\n"
            "    else\n        pb = b.c0 %s a.c0 || (b.c0 == a.c0 && b.c1 < "
            "a.c1);\n"
            "    return pb ? b : a;\n}\n",
            fname, fl ? "a.c0 != a.c0" : "0", fl ? "b.c0 != b.c0" : "0",
            op == EM_PAR_ARGMIN ? "<" : ">");
    } else if (op == EM_PAR_EXPR) {
        em_gen_buf_printf(b, "EW_FN sc_tval %s(sc_tval a, sc_tval b)\n{\n",
                          fname);
        for (int k = 0; k < n; k++)
            em_gen_buf_printf(b,
                              "    const %s a%d = a.c%d, b%d = b.c%d;\n"
                              "    (void)a%d;\n    (void)b%d;\n",
                              vty[k], k, k, k, k, k, k);
        em_gen_buf_printf(b, "    sc_tval r;\n");
        for (int k = 0; k < n; k++) {
            int len, bl = em_gen_lt_type_of((em_dtype)d->tout[k])->cls == 'b';
            const char *e = field(d->expr, k, &len);
            /* on lines of their own, so the compiler's message points at
             * the expression */
            em_gen_buf_printf(b, "    r.c%d = %s(\n%.*s\n    )%s;\n", k,
                              bl ? "(" : "", len, e, bl ? ") ? 1 : 0" : "");
            if (d->tout[k] == EM_FLOAT16 || d->tout[k] == EM_BFLOAT16)
                em_gen_buf_printf(b, "    r.c%d = SC_LDC%d(SC_STC%d(r.c%d));\n",
                                  k, k, k, k);
        }
        em_gen_buf_printf(b, "    return r;\n}\n");
    } else {
        for (int k = 0; k < n; k++) {
            char fn[32], l[16], s[16];
            snprintf(fn, sizeof fn, "sc_opc%d", k);
            snprintf(l, sizeof l, "SC_LDC%d", k);
            snprintf(s, sizeof s, "SC_STC%d", k);
            emit_op(b, op, NULL, (em_dtype)d->tout[k], fn, vty[k], l, s);
        }
        em_gen_buf_printf(b, "EW_FN sc_tval %s(sc_tval a, sc_tval b)\n{\n"
                             "    sc_tval r;\n",
                          fname);
        for (int k = 0; k < n; k++)
            em_gen_buf_printf(b, "    r.c%d = sc_opc%d(a.c%d, b.c%d);\n", k, k,
                              k, k);
        em_gen_buf_printf(b, "    return r;\n}\n");
    }
}

/* Types, load/store and the operator for values of dtype `out` read from
 * storage of dtype `in` (or tuples of them): sc_t, sc_in, sc_acc, SC_LD,
 * SC_ST, SC_CONV, SC_SEG, SC_EXV, sc_op, struct sc_slot, struct sc_init,
 * struct sc_tup. (acc_size below gives the sizes of these types.) */
static void emit_common(em_gen_buf *b, const em_gen_scan *d, int nan)
{
    em_par_builtin op = (em_par_builtin)d->op;
    em_dtype in = (em_dtype)d->in, out = (em_dtype)d->out;
    int segmented = d->flags & EM_GEN_SCAN_SEGMENTED;
    const char *ty, *ld, *st, *o1 = "", *o2 = "", *cl = "";
    em_gen_buf_printf(b, "%s\n", em_gen_ops_base());
    if (d->ncomp) {
        emit_tuple(b, d, segmented ? "sc_op0" : "sc_op");
        em_gen_buf_printf(b, "typedef sc_tst sc_t;\ntypedef sc_tst sc_in;\n");
        ty = "sc_tval";
        ld = "sc_tld(x)";
        st = "sc_tsto(x)";
    } else {
        value_type(op, out, &ty, &ld, &st);
        em_gen_convert(in, out, &o1, &o2, &cl);
        em_gen_buf_printf(b, "typedef %s sc_t;\ntypedef %s sc_in;\n"
                             "struct sc_tup { int unused; };\n",
                          em_gen_lt_type_of(out)->storage,
                          em_gen_lt_type_of(in)->storage);
    }
    if (!segmented) {
        em_gen_buf_printf(b,
                          "typedef %s sc_acc;\n#define SC_LD(x) %s\n"
                          "#define SC_ST(x) %s\n"
                          "#define SC_SEG(x, row, i) ((void)0)\n"
                          "#define SC_EXV(run, x) (run)\n",
                          ty, ld, st);
        if (!d->ncomp)
            emit_op(b, op, d->expr, out, "sc_op", "sc_acc", "SC_LD", "SC_ST");
    } else {
        /* By key: a value and "a segment starts in here". Combining
         * keeps the right operand alone when it holds a head, which is
         * associative whenever op is, and keeps index order. */
        em_gen_buf_printf(b,
                          "typedef %s sc_val;\n#define SC_LD0(x) %s\n"
                          "#define SC_ST0(x) %s\n",
                          ty, ld, st);
        if (!d->ncomp)
            emit_op(b, op, d->expr, out, "sc_op0", "sc_val", "SC_LD0",
                    "SC_ST0");
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
    if (nan && !d->ncomp) {
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

/* sizeof(sc_acc) of d's kernels; *tsize receives sizeof(sc_t). */
static size_t acc_size(const em_gen_scan *d, size_t *tsize)
{
    const char *vty[EM_GEN_SCAN_MAXT], *sty[EM_GEN_SCAN_MAXT], *ld, *st;
    size_t al, vs;
    em_par_builtin op = (em_par_builtin)d->op;
    if (d->ncomp) {
        int n = d->ncomp < EM_GEN_SCAN_MAXT ? d->ncomp : EM_GEN_SCAN_MAXT;
        for (int k = 0; k < n; k++) {
            value_type(op == EM_PAR_ARGMIN || op == EM_PAR_ARGMAX ? EM_PAR_EXPR
                                                                  : op,
                       (em_dtype)d->tout[k], &vty[k], &ld, &st);
            sty[k] = em_gen_lt_type_of((em_dtype)d->tout[k])->storage;
        }
        *tsize = struct_size(n, sty, &al);
        vs = struct_size(n, vty, &al);
    } else {
        value_type(op, (em_dtype)d->out, &vty[0], &ld, &st);
        *tsize = em_dtype_size((em_dtype)d->out);
        vs = ctype_size(vty[0], &al);
    }
    if (d->flags & EM_GEN_SCAN_SEGMENTED)
        return round_up(round_up(vs, 4) + 4, al > 4 ? al : 4);
    return vs;
}

em_status em_gen_scan_tuple_check(const em_gen_scan *d, const char *fn)
{
    em_status st;
    if (d->ncomp < 2 || d->ncomp > EM_GEN_SCAN_MAXT)
        return em_error(EM_ERR_INVALID_VALUE,
                        "%s: a tuple value has 2 to %d components, not %d", fn,
                        EM_GEN_SCAN_MAXT, d->ncomp);
    for (int k = 0; k < d->ncomp; k++)
        if (d->tin[k] >= EM_DTYPE_COUNT || d->tout[k] >= EM_DTYPE_COUNT)
            return em_error(EM_ERR_TYPE, "%s: invalid dtype in component %d",
                            fn, k);
    switch (d->op) {
    case EM_PAR_ARGMIN:
    case EM_PAR_ARGMAX:
        if (d->ncomp != 2)
            return em_error(EM_ERR_INVALID_VALUE,
                            "%s: '%s' takes a (value, index) pair, not %d "
                            "components",
                            fn, builtin_name((em_par_builtin)d->op), d->ncomp);
        for (int k = 0; k < 2; k++)
            if (em_gen_lt_type_of((em_dtype)d->tout[k])->cls == 'c')
                return em_error(EM_ERR_TYPE,
                                "%s: '%s' needs real values and indices, not "
                                "%s",
                                fn, builtin_name((em_par_builtin)d->op),
                                em_dtype_get((em_dtype)d->tout[k])->name);
        return EM_OK;
    case EM_PAR_EXPR:
        if (!d->expr)
            return em_error(EM_ERR_INVALID_VALUE, "%s: no expressions", fn);
        return EM_OK;
    default:
        for (int k = 0; k < d->ncomp; k++)
            if ((st = em_gen_scan_check((em_par_builtin)d->op,
                                        (em_dtype)d->tout[k], fn)) != EM_OK)
                return st;
        return EM_OK;
    }
}

em_status em_gen_scan_pack_init(const em_gen_scan *d,
                                const void *const *inits, void *buf,
                                size_t cap, size_t *size)
{
    size_t off = 0, al = 1;
    if (!d->ncomp) {
        size_t sz = em_dtype_size((em_dtype)d->out);
        if (sz > cap)
            return em_error(EM_ERR_INVALID_VALUE, "scan: init too large");
        memcpy(buf, inits[0], sz);
        *size = sz;
        return EM_OK;
    }
    memset(buf, 0, cap);
    for (int k = 0; k < d->ncomp; k++) {
        size_t a, sz = ctype_size(
                      em_gen_lt_type_of((em_dtype)d->tout[k])->storage, &a);
        off = round_up(off, a);
        if (off + sz > cap)
            return em_error(EM_ERR_INVALID_VALUE, "scan: init too large");
        memcpy((char *)buf + off, inits[k], sz);
        off += sz;
        al = a > al ? a : al;
    }
    *size = round_up(off, al);
    return EM_OK;
}

/* Blocks per SM the CUDA kernel is built for (__launch_bounds__): as
 * many as its registers allow without spilling, measured with ptxas for
 * sm_90 (40 registers: 6 blocks of 256 threads; 48: 5; 64: 4). More
 * resident tiles keep more loads in flight while others look back. */
static int default_minb(const em_gen_scan *d, size_t accsz)
{
    int seg = d->flags & EM_GEN_SCAN_SEGMENTED;
    int cplx = !d->ncomp && em_gen_lt_type_of((em_dtype)d->out)->cls == 'c';
    if (d->ncomp || accsz > 8)
        return 1;
    if (wide_tile(d, accsz) && lean(d, items_for(d, accsz)))
        /* 16-byte reads of the staging leave few registers live, and
         * float32 cumsum ran fastest at 8 blocks per SM (8 caps the
         * registers at 32; bench/README.md, 'scan'). A user's expression
         * may need more registers than a built-in: 6. */
        return d->op == EM_PAR_EXPR ? 6 : 8;
    if (wide_tile(d, accsz))
        return 4; /* 64 registers at 32 items */
    if (!seg && !cplx &&
        (accsz <= 4 || em_dtype_size((em_dtype)d->in) <= 4))
        return 6;
    if (!seg && !cplx)
        return 5;
    return 4;
}

em_status em_gen_scan_source(const em_gen_scan *d, em_device_type target,
                             const char *name, char **out)
{
    em_gen_buf b = {0};
    em_gen_scan bare;
    size_t tsize = 0, accsz;
    em_status st;
    if (!d || !name || !out)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_gen_scan_source: NULL argument");
    *out = NULL;
    if (d->ncomp) {
        if (d->op >= EM_PAR_BUILTIN_COUNT)
            return em_error(EM_ERR_INVALID_VALUE,
                            "scan generator: bad descriptor (op %d)", d->op);
        if ((st = em_gen_scan_tuple_check(d, "scan")) != EM_OK)
            return st;
    } else {
        if (d->in >= EM_DTYPE_COUNT || d->out >= EM_DTYPE_COUNT ||
            d->op >= EM_PAR_BUILTIN_COUNT || (d->op == EM_PAR_EXPR && !d->expr))
            return em_error(EM_ERR_INVALID_VALUE,
                            "scan generator: bad descriptor (op %d, %d -> %d)",
                            d->op, d->in, d->out);
        if ((st = em_gen_scan_check((em_par_builtin)d->op, (em_dtype)d->out,
                                    "scan")) != EM_OK)
            return st;
    }
    if (!em_gen_ops_base())
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a scan kernel");
    /* a device function's definitions first; the rest sees the bare
     * expression */
    em_gen_par_prelude(&b, d->expr);
    bare = *d;
    bare.expr = em_gen_par_expr(d->expr);
    d = &bare;
    if (d->ncomp)
        em_gen_buf_printf(&b, "/* ember scan: %s over %d-tuples, %s */\n",
                          builtin_name((em_par_builtin)d->op), d->ncomp,
                          d->flags & EM_GEN_SCAN_EXCLUSIVE ? "exclusive"
                                                           : "inclusive");
    else
        em_gen_buf_printf(&b, "/* ember scan: %s, %s -> %s, %s */\n",
                          builtin_name((em_par_builtin)d->op),
                          em_dtype_get((em_dtype)d->in)->name,
                          em_dtype_get((em_dtype)d->out)->name,
                          d->flags & EM_GEN_SCAN_EXCLUSIVE ? "exclusive"
                                                           : "inclusive");
    em_gen_buf_printf(
        &b,
        "struct sc_geom { long long nrows, len, irs, ies, ors, oes, tile, "
        "ntiles; };\n#define SC_EXCL %d\n#define SC_HAS_INIT %d\n"
        "#define SC_TUPLE %d\n",
        d->flags & EM_GEN_SCAN_EXCLUSIVE ? 1 : 0,
        d->flags & EM_GEN_SCAN_INIT ? 1 : 0, d->ncomp ? 1 : 0);
    emit_common(&b, d,
                (d->flags & EM_GEN_SCAN_NAN) &&
                    !(d->flags & EM_GEN_SCAN_SEGMENTED) &&
                    (d->op == EM_PAR_ADD || d->op == EM_PAR_MUL) &&
                    (em_gen_lt_type_of((em_dtype)d->out)->cls == 'f' ||
                     em_gen_lt_type_of((em_dtype)d->out)->cls == 'c'));
    accsz = acc_size(d, &tsize);
    if (target == EM_DEVICE_CUDA) {
        size_t si = d->ncomp ? 1 : em_dtype_size((em_dtype)d->in),
               so = d->ncomp ? 1 : em_dtype_size((em_dtype)d->out);
        int items = items_for(d, accsz);
        em_gen_buf_printf(&b,
                          "#define SC_ITEMS %d\n#define SC_BUFSZ %zu\n"
                          "#define SC_VIN %d\n#define SC_VOUT %d\n"
                          "#define SC_ACCSZ %zu\n#define SC_PACK %d\n"
                          "#define SC_MINB %d\n#define SC_LEAN %d\n",
                          items, si > so ? si : so,
                          !d->ncomp && (items * si) % 16 == 0,
                          !d->ncomp && (items * so) % 16 == 0, accsz,
                          accsz <= 4 ? 1 : accsz <= 8 ? 2 : 0,
                          em_knob_int(EM_KNOB_SCAN_MINB, default_minb(d, accsz)),
                          lean(d, items));
        emit_named(&b, em_embedded_scan_cuda_cuh, name);
    } else {
        if (d->ncomp)
            em_gen_buf_printf(
                &b, "#define SC_X(p, i) SC_LD(sc_tload(tp, i))\n"
                    "#define SC_PUT(q, i, v) sc_tstore(tp, i, v)\n");
        else if (d->flags & EM_GEN_SCAN_CONTIG)
            em_gen_buf_printf(
                &b, "#define SC_X(p, i) SC_CONV(((const sc_in *)(p))[i])\n"
                    "#define SC_PUT(q, i, v) (((sc_t *)(q))[i] = (v))\n");
        else
            em_gen_buf_printf(
                &b,
                "#define SC_X(p, i) SC_CONV(*(const sc_in *)((p) + (i) * "
                "g.ies))\n"
                "#define SC_PUT(q, i, v) (*(sc_t *)((q) + (i) * g.oes) = "
                "(v))\n");
        emit_named(&b, em_embedded_scan_host_cuh, name);
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
    uint64_t w;
    if (!d->ncomp)
        return ((uint64_t)FAMILY_SCAN << 56) | ((uint64_t)d->flags << 24) |
               ((uint64_t)d->out << 16) | ((uint64_t)d->in << 8) | d->op;
    /* 4 bits per dtype (EM_DTYPE_COUNT <= 16), 4 components */
    w = ((uint64_t)FAMILY_SCAN_TUPLE << 56) | ((uint64_t)d->flags << 48) |
        ((uint64_t)d->op << 40) | ((uint64_t)d->ncomp << 32);
    for (int k = 0; k < d->ncomp && k < EM_GEN_SCAN_MAXT; k++)
        w |= (uint64_t)((d->tin[k] << 4) | d->tout[k]) << (8 * k);
    return w;
}

static em_status scan_from_word(uint64_t w, const char *expr,
                                em_device_type target, const char *name,
                                char **out)
{
    em_gen_scan d;
    memset(&d, 0, sizeof d);
    d.expr = expr;
    if ((w >> 56) == FAMILY_SCAN_TUPLE) {
        d.flags = (uint8_t)((w >> 48) & 0xff);
        d.op = (uint8_t)((w >> 40) & 0xff);
        d.ncomp = (uint8_t)((w >> 32) & 0xff);
        for (int k = 0; k < d.ncomp && k < EM_GEN_SCAN_MAXT; k++) {
            d.tin[k] = (uint8_t)((w >> (8 * k + 4)) & 0xf);
            d.tout[k] = (uint8_t)((w >> (8 * k)) & 0xf);
        }
        return em_gen_scan_source(&d, target, name, out);
    }
    d.op = (uint8_t)(w & 0xff);
    d.in = (uint8_t)((w >> 8) & 0xff);
    d.out = (uint8_t)((w >> 16) & 0xff);
    d.flags = (uint8_t)((w >> 24) & 0xff);
    return em_gen_scan_source(&d, target, name, out);
}

/* The host pool's useful parallelism; more blocks only cost launches. */
#define HOST_MAX_BLOCKS 4096

/* The kernels' struct sc_tup: the component arrays of a tuple scan. */
typedef struct scan_tup {
    const void *in[EM_GEN_SCAN_MAXT];
    void *out[EM_GEN_SCAN_MAXT];
} scan_tup;

static em_status run(em_device *dev, const em_gen_scan *desc, const void *in,
                     void *out, long long nrows, long long len, long long irs,
                     long long ies, long long ors, long long oes,
                     const void *init, size_t initsz,
                     const unsigned char *heads, const scan_tup *tup,
                     em_stream *s)
{
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    em_gen_scan d = *desc;
    em_gen_scan_geom g;
    em_function *fn[3];
    unsigned char initbuf[256] __attribute__((aligned(16))) = {0};
    size_t tsize, accsz, slot;
    const void *pin = in;
    void *pout = out, *tmp = NULL;
    scan_tup tp;
    em_dim3 grid = {1, 1, 1}, threads = {1, 1, 1};
    long long total;
    em_status st;

    if (nrows <= 0 || len <= 0)
        return EM_OK;
    if (init && initsz <= sizeof initbuf)
        memcpy(initbuf, init, initsz);
    memset(&tp, 0, sizeof tp);
    if (tup)
        tp = *tup;
    d.flags &= (uint8_t)~(EM_GEN_SCAN_CONTIG | EM_GEN_SCAN_SEGMENTED);
    if (heads)
        d.flags |= EM_GEN_SCAN_SEGMENTED;
    if (!cuda && !d.ncomp && ies == (long long)em_dtype_size((em_dtype)d.in) &&
        oes == (long long)em_dtype_size((em_dtype)d.out))
        d.flags |= EM_GEN_SCAN_CONTIG;
    accsz = acc_size(&d, &tsize);
    slot = round_up(accsz, 8);
    memset(&g, 0, sizeof g);
    g.nrows = nrows;
    g.len = len;
    g.irs = irs;
    g.ies = ies;
    g.ors = ors;
    g.oes = oes;
    if (cuda) {
        static const char *const names[] = {"sc"};
        unsigned *counter;
        void *status, *args[8];
        size_t sbytes;
        int items = items_for(&d, accsz);
        g.tile = (long long)EM_GEN_SCAN_BLOCK * items;
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
        /* the tile status words, as the kernel lays them out (SC_PACK) */
        sbytes = accsz <= 4   ? (size_t)total * 8
                 : accsz <= 8 ? (size_t)total * 16
                              : ((size_t)total * 4 + 15) / 16 * 16 +
                                    2 * (size_t)total * slot;
        st = em_malloc(dev, 16 + sbytes, s, &tmp);
        if (st != EM_OK)
            return st;
        counter = (unsigned *)tmp;
        status = (char *)tmp + 16;
        st = em_memset_async(dev, tmp, 0, 16 + sbytes, s);
        if (st == EM_OK) {
            args[0] = &pin;
            args[1] = &pout;
            args[2] = &status;
            args[3] = &counter;
            args[4] = &g;
            args[5] = initbuf;
            args[6] = &heads;
            args[7] = &tp;
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
        void *args[7];
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
            args[3] = initbuf;
            args[4] = &heads;
            args[5] = &tp;
            grid.x = (unsigned)(total < HOST_MAX_BLOCKS ? total
                                                        : HOST_MAX_BLOCKS);
            st = em_launch(fn[0], grid, threads, 0, s, args);
            if (st == EM_OK) {
                args[0] = &tot;
                args[1] = &g;
                args[2] = initbuf;
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
            args[4] = initbuf;
            args[5] = &heads;
            args[6] = &tp;
            grid.x =
                (unsigned)(total < HOST_MAX_BLOCKS ? total : HOST_MAX_BLOCKS);
            st = em_launch(fn[2], grid, threads, 0, s, args);
        }
        if (tmp)
            em_free(dev, tmp, s);
        return st;
    }
}

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
    if (desc->ncomp)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_gen_scan_run: a tuple descriptor needs "
                        "em_gen_scan_run_tuple");
    return run(dev, desc, in, out, nrows, len, irs, ies, ors, oes, init,
               em_dtype_size((em_dtype)desc->out), heads, NULL, s);
}

em_status em_gen_scan_run_tuple(em_device *dev, const em_gen_scan *d,
                                const void *const *ins, void *const *outs,
                                long long n, const void *init,
                                const unsigned char *heads, em_stream *s)
{
    scan_tup tp;
    size_t tsize;
    em_status st;
    if ((st = em_gen_scan_tuple_check(d, "scan")) != EM_OK)
        return st;
    memset(&tp, 0, sizeof tp);
    for (int k = 0; k < d->ncomp; k++) {
        tp.in[k] = ins[k];
        tp.out[k] = outs[k];
    }
    (void)acc_size(d, &tsize);
    return run(dev, d, NULL, NULL, 1, n, 0, 0, 0, 0, init, tsize, heads, &tp,
               s);
}
