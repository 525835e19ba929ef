/* ember codegen: elementwise kernel source and launch packing.
 *
 * The source is built by composing names from kernels/ewise_ops.h:
 * loads convert each input from its array dtype to the loop dtype
 * (ew_<to>_from_<category>) and widen 16-bit floats to float, the op is
 * ew_<op>_<compute type>, and the result is rounded back to the loop's
 * output dtype and converted to the output array's. Every identifier the
 * kernel defines carries its name as a suffix (see ewise.h).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "codegen/ewise.h"
#include "codegen/ewise_embedded.h"

/* ---- the ops header, by section --------------------------------------- */

/* kernels/ewise_ops.h in pieces: the base (types, conversions) that every
 * kernel needs, then the op sections, of which a kernel takes only those
 * of its loop's types (and scipy.special's own section for its ufuncs),
 * comments stripped. The cache keeps each kernel's
 * source in memory and on disk, so this keeps a float32 add at a third of
 * the whole header's size. */
enum {
    SEC_BASE,
    SEC_BOOL,
    SEC_INT,
    SEC_FLOAT,
    SEC_SCIPY,
    SEC_COMPLEX,
    SEC_END,
    SEC_COUNT
};
static const char *const section_names[SEC_COUNT] = {
    "", "bool", "int", "float", "scipy", "complex", "end"};
static char *sections[SEC_COUNT];
static pthread_once_t sections_once = PTHREAD_ONCE_INIT;

/* Copy text[0, n) without its comments, blank lines and runs of blanks
 * (the header's aligned macro continuations are mostly spaces; it has no
 * string literal whose spacing matters). */
static char *strip_comments(const char *text, size_t n)
{
    char *out = malloc(n + 1), *o = out;
    size_t i = 0;
    if (!out)
        return NULL;
    while (i < n) {
        if (text[i] == '/' && i + 1 < n && text[i + 1] == '*') {
            const char *end = strstr(text + i + 2, "*/");
            i = end ? (size_t)(end - text) + 2 : n;
            continue;
        }
        if (text[i] == '\n' && (o == out || o[-1] == '\n')) {
            i++;
            continue;
        }
        if ((text[i] == ' ' || text[i] == '\t') &&
            (o == out || o[-1] == ' ' || o[-1] == '\n')) {
            i++;
            continue;
        }
        *o++ = text[i++];
    }
    *o = 0;
    return out;
}

static void split_sections(void)
{
    const char *text = em_embedded_ewise_ops_h, *start = text;
    char *parts[SEC_COUNT] = {0};
    for (int k = 0; k < SEC_COUNT; k++) {
        char marker[48];
        const char *end;
        if (k + 1 < SEC_COUNT) {
            snprintf(marker, sizeof marker, "/* @ew-section %s */",
                     section_names[k + 1]);
            end = strstr(start, marker);
        } else {
            marker[0] = 0;
            end = start + strlen(start);
        }
        if (!end ||
            !(parts[k] = strip_comments(start, (size_t)(end - start)))) {
            for (int j = 0; j < k; j++)
                free(parts[j]);
            return; /* the whole header is used instead */
        }
        start = end + strlen(marker);
    }
    memcpy(sections, parts, sizeof sections);
}

/* ---- names of types and conversions ---------------------------------- */

const char *const em_gen_ew_storage[EM_DTYPE_COUNT] = {
    "ew_b",    "ew_i8",  "ew_i16", "ew_i32", "ew_i64",
    "ew_u8",   "ew_u16", "ew_u32", "ew_u64", "ew_f16",
    "ew_bf16", "float",  "double", "ew_c64", "ew_c128"};
const char *const em_gen_ew_sfx[EM_DTYPE_COUNT] = {
    "b",   "i8",  "i16",  "i32", "i64", "u8",  "u16", "u32",
    "u64", "f16", "bf16", "f32", "f64", "c64", "c128"};
/* The type ops compute in: 16-bit floats widen to float. */
static const char *const compute_sfx[EM_DTYPE_COUNT] = {
    "b",   "i8",  "i16", "i32", "i64", "u8",  "u16", "u32",
    "u64", "f32", "f32", "f32", "f64", "c64", "c128"};
const char *const em_gen_ew_category[EM_DTYPE_COUNT] = {
    "b",   "i64", "i64", "i64", "i64", "u64", "u64", "u64",
    "u64", "f32", "f32", "f32", "f64", "c64", "c128"};

/* Casts widen 16-bit floats exactly (NaN payloads too); the loads and
 * stores around an op use the _ld/_st forms (see ewise_ops.h). */
static const char *widen_fn(int d)
{
    return d == EM_FLOAT16    ? "ew_f16_to_f32"
           : d == EM_BFLOAT16 ? "ew_bf16_to_f32"
                              : NULL;
}

static const char *load_fn(int d)
{
    return d == EM_FLOAT16    ? "ew_f16_ld"
           : d == EM_BFLOAT16 ? "ew_bf16_ld"
                              : NULL;
}

static const char *store_fn(int d)
{
    return d == EM_FLOAT16    ? "ew_f16_st"
           : d == EM_BFLOAT16 ? "ew_bf16_st"
                              : NULL;
}

/* Conversions are emitted as nested calls, each as an opening and a
 * closing part. */
static void cvt_open(em_sb *b, int from, int to)
{
    if (from == to)
        return;
    em_sb_printf(b, "ew_%s_from_%s(", em_gen_ew_sfx[to],
                 em_gen_ew_category[from]);
    if (widen_fn(from))
        em_sb_printf(b, "%s(", widen_fn(from));
}

static void cvt_close(em_sb *b, int from, int to)
{
    if (from != to)
        em_sb_puts(b, widen_fn(from) ? "))" : ")");
}

static void wrap_open(em_sb *b, const char *fn)
{
    if (fn)
        em_sb_printf(b, "%s(", fn);
}

static void wrap_close(em_sb *b, const char *fn)
{
    if (fn)
        em_sb_puts(b, ")");
}

/* The C type of input k's parameter and element. */
static int input_dtype(const em_gen_ewise *d, int k)
{
    return d->src[k] == EM_GEN_SCALAR ? d->loop_in[k] : d->src[k];
}

static int is_array(const em_gen_ewise *d, int k)
{
    return d->src[k] != EM_GEN_SCALAR;
}

/* ---- descriptor checks ----------------------------------------------- */

static em_status check_desc(const em_gen_ewise *d, int *nin)
{
    const em_op_info *info = em_op_get((em_op)d->op);
    if (!info)
        return em_error(EM_ERR_INVALID_VALUE, "ewise generator: bad op %d",
                        d->op);
    *nin = info->nin;
    if (d->layout > EM_GEN_TILED || d->ndim < 1 || d->ndim > EM_MAX_NDIM ||
        (d->layout == EM_GEN_CONTIG && d->ndim != 1) ||
        d->out >= EM_DTYPE_COUNT || d->loop_out >= EM_DTYPE_COUNT || !d->vec ||
        d->vec > 16 || (d->vec & (d->vec - 1)))
        return em_error(EM_ERR_INVALID_VALUE,
                        "ewise generator: bad descriptor for '%s'", info->name);
    for (int k = 0; k < *nin; k++)
        if (d->loop_in[k] >= EM_DTYPE_COUNT ||
            (d->src[k] != EM_GEN_SCALAR && d->src[k] >= EM_DTYPE_COUNT))
            return em_error(EM_ERR_INVALID_VALUE,
                            "ewise generator: bad dtype of input "
                            "%d of '%s'",
                            k, info->name);
    return EM_OK;
}

/* ---- the per-element function ---------------------------------------- */

static void op_function_name(const em_gen_ewise *d, int nin, char *out,
                             size_t n)
{
    const char *name = em_op_get((em_op)d->op)->name;
    int half = d->loop_in[0] == EM_FLOAT16 || d->loop_in[0] == EM_BFLOAT16;
    /* Internal ops ("_modf_frac") are ew_modf_frac_<t>: C++ reserves
     * names with a double underscore. */
    if (name[0] == '_')
        name++;
    /* The 16-bit float loops with their own corner rules (ewise_ops.h). */
    if (half && (d->op == EM_OP_NEXTAFTER || d->op == EM_OP_SPACING)) {
        snprintf(out, n, "ew_%s_%s", name, em_gen_ew_sfx[d->loop_in[0]]);
        return;
    }
    if (half && (d->op == EM_OP_MAXIMUM || d->op == EM_OP_MINIMUM ||
                 d->op == EM_OP_FMAX || d->op == EM_OP_FMIN)) {
        snprintf(out, n, "ew_%s_f16", name);
        return;
    }
    if (nin == 2 &&
        strcmp(compute_sfx[d->loop_in[0]], compute_sfx[d->loop_in[1]]))
        snprintf(out, n, "ew_%s_%s_%s", name, compute_sfx[d->loop_in[0]],
                 compute_sfx[d->loop_in[1]]);
    else
        snprintf(out, n, "ew_%s_%s", name, compute_sfx[d->loop_in[0]]);
}

static void emit_elem(em_sb *b, const em_gen_ewise *d, int nin, const char *name)
{
    char fn[64];
    em_sb_printf(b, "EW_FN %s ew_elem_%s(", em_gen_ew_storage[d->out], name);
    for (int k = 0; k < nin; k++)
        em_sb_printf(b, "%s%s x%d", k ? ", " : "",
                     em_gen_ew_storage[input_dtype(d, k)], k);
    em_sb_puts(b, ")\n{\n    return ");
    if (d->op == EM_OP_COPY) {
        /* A cast: straight from the input's dtype to the output's. */
        cvt_open(b, input_dtype(d, 0), d->out);
        em_sb_puts(b, "x0");
        cvt_close(b, input_dtype(d, 0), d->out);
        em_sb_puts(b, ";\n}\n");
        return;
    }
    /* out <- store(op(load(loop <- x0), ...)) */
    op_function_name(d, nin, fn, sizeof fn);
    cvt_open(b, d->loop_out, d->out);
    wrap_open(b, store_fn(d->loop_out));
    em_sb_printf(b, "%s(", fn);
    for (int k = 0; k < nin; k++) {
        if (k)
            em_sb_puts(b, ", ");
        wrap_open(b, load_fn(d->loop_in[k]));
        cvt_open(b, input_dtype(d, k), d->loop_in[k]);
        em_sb_printf(b, "x%d", k);
        cvt_close(b, input_dtype(d, k), d->loop_in[k]);
        wrap_close(b, load_fn(d->loop_in[k]));
    }
    em_sb_puts(b, ")");
    wrap_close(b, store_fn(d->loop_out));
    cvt_close(b, d->loop_out, d->out);
    em_sb_puts(b, ";\n}\n");
}

/* ---- kernels ----------------------------------------------------------- */

/* The parameters shared by every layout: out, the inputs, the mask. */
static void emit_params(em_sb *b, const em_gen_ewise *d, int nin, int bytes)
{
    if (bytes)
        em_sb_puts(b, "char *out");
    else
        em_sb_printf(b, "%s *out", em_gen_ew_storage[d->out]);
    for (int k = 0; k < nin; k++) {
        if (!is_array(d, k))
            em_sb_printf(b, ", %s in%d", em_gen_ew_storage[input_dtype(d, k)],
                         k);
        else if (bytes)
            em_sb_printf(b, ", const char *in%d", k);
        else
            em_sb_printf(b, ", const %s *in%d",
                         em_gen_ew_storage[input_dtype(d, k)], k);
    }
    if (d->where)
        em_sb_puts(b, bytes ? ", const char *mask" : ", const ew_b *mask");
}

/* The call of the element function on contiguous element t. */
static void contig_statement(em_sb *b, const em_gen_ewise *d, int nin,
                             const char *name, const char *t,
                             const char *indent)
{
    em_sb_printf(b, "%s", indent);
    if (d->where)
        em_sb_printf(b, "if (mask[%s]) ", t);
    em_sb_printf(b, "out[%s] = ew_elem_%s(", t, name);
    for (int k = 0; k < nin; k++)
        em_sb_printf(b, is_array(d, k) ? "%sin%d[%s]" : "%sin%d", k ? ", " : "", k,
                  t);
    em_sb_puts(b, ");\n");
}

/* ew_v<tag>_<name>: vw elements of dtype dt that one access moves. */
static void emit_vec_type(em_sb *b, const char *tag, int dt, int vw,
                          const char *name)
{
    em_sb_printf(b,
                 "typedef struct __align__(%d) ew_v%s_%s { %s v[%d]; } "
                 "ew_v%s_%s;\n",
                 vw * (int)em_dtype_size((em_dtype)dt), tag, name,
                 em_gen_ew_storage[dt], vw, tag, name);
}

static void emit_contig_cuda(em_sb *b, const em_gen_ewise *d, int nin,
                             const char *name)
{
    const char *ix = d->idx64 ? "unsigned long long" : "unsigned";
    int vw = d->vec;
    if (vw > 1) {
        emit_vec_type(b, "o", d->out, vw, name);
        for (int k = 0; k < nin; k++)
            if (is_array(d, k)) {
                char tag[12];
                snprintf(tag, sizeof tag, "%d", k);
                emit_vec_type(b, tag, input_dtype(d, k), vw, name);
            }
    }
    em_sb_printf(b, "extern \"C\" __global__ void %s(", name);
    emit_params(b, d, nin, 0);
    em_sb_printf(b, ", %s n)\n{\n", ix);
    em_sb_printf(b, "    const %s step = (%s)gridDim.x * blockDim.x;\n", ix, ix);
    em_sb_printf(b,
              "    const %s i = (%s)blockIdx.x * blockDim.x + threadIdx.x;\n",
              ix, ix);
    if (vw > 1) {
        em_sb_printf(b, "    const %s nv = n / %d;\n", ix, vw);
        em_sb_printf(b, "    for (%s v = i; v < nv; v += step) {\n", ix);
        for (int k = 0; k < nin; k++)
            if (is_array(d, k))
                em_sb_printf(b,
                          "        const ew_v%d_%s a%d = ((const ew_v%d_%s "
                          "*)in%d)[v];\n",
                          k, name, k, k, name, k);
        em_sb_printf(b, "        ew_vo_%s r;\n#pragma unroll\n", name);
        em_sb_printf(b,
                  "        for (int k = 0; k < %d; k++)\n            r.v[k] = "
                  "ew_elem_%s(",
                  vw, name);
        for (int k = 0; k < nin; k++)
            em_sb_printf(b, is_array(d, k) ? "%sa%d.v[k]" : "%sin%d",
                      k ? ", " : "", k);
        em_sb_printf(b, ");\n        ((ew_vo_%s *)out)[v] = r;\n    }\n", name);
        em_sb_printf(b, "    for (%s t = nv * %d + i; t < n; t += step)\n", ix,
                  vw);
    } else {
        em_sb_printf(b, "    for (%s t = i; t < n; t += step)\n", ix);
    }
    contig_statement(b, d, nin, name, "t", "        ");
    em_sb_puts(b, "}\n");
}

static void emit_contig_host(em_sb *b, const em_gen_ewise *d, int nin,
                             const char *name)
{
    em_sb_printf(b, "extern \"C\" __global__ void %s(", name);
    emit_params(b, d, nin, 0);
    em_sb_puts(b, ", long long n, long long chunk)\n{\n"
               "    const long long lo = (long long)blockIdx.x * chunk;\n"
               "    const long long hi = n - lo > chunk ? lo + chunk : n;\n"
               "    for (long long t = lo; t < hi; t++)\n");
    contig_statement(b, d, nin, name, "t", "        ");
    em_sb_puts(b, "}\n");
}

/* The array operands in slot order: out, array inputs, mask. */
static int array_slots(const em_gen_ewise *d, int nin, int *slots)
{
    int na = 0;
    slots[na++] = EM_GEN_SLOT_OUT;
    for (int k = 0; k < nin; k++)
        if (is_array(d, k))
            slots[na++] = EM_GEN_SLOT_IN0 + k;
    if (d->where)
        slots[na++] = EM_GEN_SLOT_MASK;
    return na;
}

static const char *slot_ptr(int slot)
{
    static const char *const names[EM_GEN_SLOTS] = {"out", "in0", "in1",
                                                    "mask"};
    return names[slot];
}

static int slot_dtype(const em_gen_ewise *d, int slot)
{
    return slot == EM_GEN_SLOT_OUT    ? d->out
           : slot == EM_GEN_SLOT_MASK ? EM_BOOL
                                      : d->src[slot - 1];
}

/* The strided store statement; element j of the current row is at offset
 * o<a> plus j inner strides (j NULL: the offset itself). */
static void strided_statement(em_sb *b, const em_gen_ewise *d, int nin,
                              const char *name, const int *slots, int na,
                              const char *j, const char *indent)
{
    char e[EM_GEN_SLOTS][160];
    int last = d->ndim - 1;
    for (int a = 0; a < na; a++) {
        int s = slots[a];
        const char *ty = em_gen_ew_storage[slot_dtype(d, s)];
        const char *cq = s == EM_GEN_SLOT_OUT ? "" : "const ";
        if (!j || d->inner[s] == EM_GEN_INNER_ZERO)
            snprintf(e[s], sizeof e[s], "*(%s%s *)(%s + o%d)", cq, ty,
                     slot_ptr(s), a);
        else if (d->inner[s] == EM_GEN_INNER_UNIT)
            snprintf(e[s], sizeof e[s], "((%s%s *)(%s + o%d))[%s]", cq, ty,
                     slot_ptr(s), a, j);
        else
            snprintf(e[s], sizeof e[s],
                     "*(%s%s *)(%s + o%d + %s * g.st[%d][%d])", cq, ty,
                     slot_ptr(s), a, j, a, last);
    }
    em_sb_printf(b, "%s", indent);
    if (d->where)
        em_sb_printf(b, "if (%s) ", e[EM_GEN_SLOT_MASK]);
    em_sb_printf(b, "%s = ew_elem_%s(", e[EM_GEN_SLOT_OUT], name);
    for (int k = 0; k < nin; k++) {
        if (is_array(d, k))
            em_sb_printf(b, "%s%s", k ? ", " : "", e[EM_GEN_SLOT_IN0 + k]);
        else
            em_sb_printf(b, "%sin%d", k ? ", " : "", k);
    }
    em_sb_puts(b, ");\n");
}

static void emit_geom(em_sb *b, const em_gen_ewise *d, int na, const char *name,
                      int w32)
{
    int nd = d->ndim;
    if (w32)
        em_sb_printf(b,
                  "struct ew_geom_%s { unsigned n; unsigned shape[%d]; "
                  "unsigned mul[%d]; "
                  "unsigned shr[%d]; int st[%d][%d]; };\n",
                  name, nd, nd, nd, na, nd);
    else
        em_sb_printf(b,
                  "struct ew_geom_%s { long long n; long long shape[%d]; "
                  "long long st[%d][%d]; };\n",
                  name, nd, na, nd);
}

/* The arguments of the CUDA kernels' ew_elem call: an input passed by
 * value as in<k>, an array input whose inner class is `inner` as
 * `special`, any other as `plain` (formats of k). */
static void emit_elem_args(em_sb *b, const em_gen_ewise *d, int nin,
                           int inner, const char *special, const char *plain)
{
    for (int k = 0; k < nin; k++) {
        if (k)
            em_sb_puts(b, ", ");
        if (!is_array(d, k))
            em_sb_printf(b, "in%d", k);
        else
            em_sb_printf(b,
                         d->inner[EM_GEN_SLOT_IN0 + k] == inner ? special
                                                                : plain,
                         k);
    }
}

/* The tiled kernels' extents and each operand's strides along the two
 * axes, as index type ix. */
static void emit_tile_axes(em_sb *b, int na, const char *ix)
{
    em_sb_printf(b, "    const %s rows = (%s)g.shape[0], cols = (%s)g.shape[1];\n",
              ix, ix, ix);
    for (int a = 0; a < na; a++)
        em_sb_printf(
            b, "    const %s s%d0 = (%s)g.st[%d][0], s%d1 = (%s)g.st[%d][1];\n",
            ix, a, ix, a, a, ix, a);
}

/* Elements per thread per pass of the strided CUDA loop: their loads are
 * all issued before the first store, so each thread keeps several memory
 * requests in flight. */
#define EW_UNROLL 4

static void emit_strided_cuda(em_sb *b, const em_gen_ewise *d, int nin,
                              const char *name)
{
    int slots[EM_GEN_SLOTS], na = array_slots(d, nin, slots), nd = d->ndim,
                             w32 = !d->idx64;
    int vw = d->vec;
    const char *ix = w32 ? "unsigned" : "long long",
               *ox = w32 ? "int" : "long long";
    emit_geom(b, d, na, name, w32);
    /* vw > 1: the last axis counts vectors of vw elements, which UNIT
     * operands load whole and ZERO ones (broadcast along it) load once. */
    if (vw > 1)
        for (int a = 0; a < na; a++)
            if (d->inner[slots[a]] == EM_GEN_INNER_UNIT) {
                char tag[12];
                snprintf(tag, sizeof tag, "%d", a);
                emit_vec_type(b, tag, slot_dtype(d, slots[a]), vw, name);
            }
    em_sb_printf(b, "extern \"C\" __global__ void %s(", name);
    emit_params(b, d, nin, 1);
    em_sb_printf(b, ", struct ew_geom_%s g)\n{\n", name);
    em_sb_printf(b, "    const %s step = (%s)gridDim.x * blockDim.x;\n", ix, ix);
    em_sb_printf(b,
              "    for (%s base = (%s)blockIdx.x * blockDim.x + threadIdx.x; "
              "base < g.n; "
              "base += %d * step) {\n",
              ix, ix, EW_UNROLL);
    em_sb_printf(b, "        %s", ox);
    for (int a = 0; a < na; a++)
        em_sb_printf(b, "%so%d[%d]", a ? ", " : " ", a, EW_UNROLL);
    em_sb_printf(b, ";\n        int ok[%d];\n", EW_UNROLL);
    for (int a = 0; a < na; a++) {
        int sl = slots[a], k = sl - EM_GEN_SLOT_IN0;
        if (sl != EM_GEN_SLOT_IN0 && sl != EM_GEN_SLOT_IN1)
            continue;
        if (vw > 1 && d->inner[sl] == EM_GEN_INNER_UNIT)
            em_sb_printf(b, "        ew_v%d_%s x%d[%d];\n", a, name, k, EW_UNROLL);
        else
            em_sb_printf(b, "        %s x%d[%d];\n",
                      em_gen_ew_storage[input_dtype(d, k)], k, EW_UNROLL);
    }
    if (d->where)
        em_sb_printf(b, "        ew_b m[%d];\n", EW_UNROLL);
    em_sb_printf(b,
              "#pragma unroll\n        for (int u = 0; u < %d; u++) {\n"
              "            %s r = base + u * step, c;\n"
              "            ok[u] = r < g.n;\n"
              "            if (!ok[u])\n                continue;\n",
              EW_UNROLL, ix);
    for (int a = 0; a < na; a++)
        em_sb_printf(b, "            o%d[u] = 0;\n", a);
    for (int dim = nd - 1; dim >= 0; dim--) {
        if (dim > 0) {
            if (w32)
                em_sb_printf(b,
                          "            { unsigned q = (__umulhi(r, g.mul[%d]) "
                          "+ r) >> "
                          "g.shr[%d]; c = r - q * g.shape[%d]; r = q; }\n",
                          dim, dim, dim);
            else
                em_sb_printf(
                    b, "            c = r %% g.shape[%d]; r /= g.shape[%d];\n",
                    dim, dim);
        } else {
            em_sb_puts(b, "            c = r;\n");
        }
        for (int a = 0; a < na; a++) {
            int sl = slots[a];
            if (dim == nd - 1 && d->inner[sl] == EM_GEN_INNER_ZERO)
                continue;
            if (dim == nd - 1 && d->inner[sl] == EM_GEN_INNER_UNIT)
                em_sb_printf(b, "            o%d[u] += (%s)c * %d;\n", a, ox,
                          vw * (int)em_dtype_size((em_dtype)slot_dtype(d, sl)));
            else
                em_sb_printf(b, "            o%d[u] += (%s)c * g.st[%d][%d];\n", a,
                          ox, a, dim);
        }
    }
    for (int a = 0; a < na; a++) {
        int sl = slots[a], k = sl - EM_GEN_SLOT_IN0;
        if (sl == EM_GEN_SLOT_OUT)
            continue;
        if (sl == EM_GEN_SLOT_MASK)
            em_sb_printf(b, "            m[u] = *(const ew_b *)(mask + o%d[u]);\n",
                      a);
        else if (vw > 1 && d->inner[sl] == EM_GEN_INNER_UNIT)
            em_sb_printf(
                b,
                "            x%d[u] = *(const ew_v%d_%s *)(in%d + o%d[u]);\n",
                k, a, name, k, a);
        else
            em_sb_printf(b, "            x%d[u] = *(const %s *)(in%d + o%d[u]);\n",
                      k, em_gen_ew_storage[input_dtype(d, k)], k, a);
    }
    em_sb_printf(
        b,
        "        }\n#pragma unroll\n        for (int u = 0; u < %d; u++) {\n"
        "            if (!ok[u]%s)\n                continue;\n",
        EW_UNROLL, d->where ? " || !m[u]" : "");
    if (vw > 1) {
        em_sb_printf(b,
                  "            ew_v0_%s y;\n#pragma unroll\n"
                  "            for (int e = 0; e < %d; e++)\n"
                  "                y.v[e] = ew_elem_%s(",
                  name, vw, name);
    } else {
        em_sb_printf(b, "            *(%s *)(out + o0[u]) = ew_elem_%s(",
                  em_gen_ew_storage[d->out], name);
    }
    emit_elem_args(b, d, nin, vw > 1 ? EM_GEN_INNER_UNIT : -1, "x%d[u].v[e]",
                   "x%d[u]");
    em_sb_puts(b, ");\n");
    if (vw > 1)
        em_sb_printf(b, "            *(ew_v0_%s *)(out + o0[u]) = y;\n", name);
    em_sb_puts(b, "        }\n    }\n}\n");
}

/* The compute phase of both tiled kernels opens the same way: each thread
 * takes rows ty, ty+8, ... of the tile (nk of them) at column c0 + col,
 * and notes which are in bounds and where their outputs go. */
static void emit_tile_out_rows(em_sb *b, const char *ix, int nk,
                               const char *col)
{
    em_sb_printf(b,
              "#pragma unroll\n"
              "    for (int k = 0; k < %d; k++) {\n"
              "        const %s r = r0 + ty + 8 * k, c = c0 + %s;\n"
              "        ok[k] = r < rows && c < cols;\n"
              "        if (!ok[k])\n            continue;\n"
              "        o0[k] = r * s00 + c * s01;\n",
              nk, ix, col);
}

/* Two axes where some input runs along the outer one (a transposed
 * operand): 32x32 tiles, each such input read along its contiguous axis
 * into shared memory, the output written along its own. CUDA only: the
 * host runs a block's threads one after another and has no barrier. */
static void emit_tiled_cuda(em_sb *b, const em_gen_ewise *d, int nin,
                            const char *name)
{
    int slots[EM_GEN_SLOTS], na = array_slots(d, nin, slots), w32 = !d->idx64;
    const char *ix = w32 ? "int" : "long long";
    emit_geom(b, d, na, name, 0);
    em_sb_printf(b, "extern \"C\" __global__ void %s(", name);
    emit_params(b, d, nin, 1);
    em_sb_printf(b, ", struct ew_geom_%s g)\n{\n", name);
    for (int a = 0; a < na; a++)
        if (slots[a] >= EM_GEN_SLOT_IN0 && slots[a] <= EM_GEN_SLOT_IN1 &&
            d->inner[slots[a]] == EM_GEN_INNER_TILE)
            em_sb_printf(b, "    __shared__ %s t%d[32][33];\n",
                      em_gen_ew_storage[input_dtype(
                          d, slots[a] - EM_GEN_SLOT_IN0)],
                      slots[a] - EM_GEN_SLOT_IN0);
    /* 32-bit offsets when every operand's span fits (the caller's idx64).
     * Each thread handles rows ty, ty+8, ty+16, ty+24 of the tile; the
     * loops have a fixed trip count so that all four loads of a phase are
     * in flight before the first store. */
    emit_tile_axes(b, na, ix);
    em_sb_printf(
        b,
        "    const %s r0 = (%s)blockIdx.y * 32, c0 = (%s)blockIdx.x * 32;\n"
        "    const int tx = threadIdx.x, ty = threadIdx.y;\n"
        "#pragma unroll\n"
        "    for (int k = 0; k < 4; k++) {\n"
        "        const %s r = r0 + tx, c = c0 + ty + 8 * k;\n"
        "        if (r < rows && c < cols) {\n",
        ix, ix, ix, ix);
    for (int a = 0; a < na; a++) {
        int sl = slots[a];
        if (sl >= EM_GEN_SLOT_IN0 && sl <= EM_GEN_SLOT_IN1 &&
            d->inner[sl] == EM_GEN_INNER_TILE) {
            int k = sl - EM_GEN_SLOT_IN0;
            em_sb_printf(b,
                      "            t%d[tx][ty + 8 * k] = *(const %s *)(in%d + "
                      "r * s%d0 + "
                      "c * s%d1);\n",
                      k, em_gen_ew_storage[input_dtype(d, k)], k, a, a);
        }
    }
    em_sb_printf(b,
              "        }\n    }\n    __syncthreads();\n"
              "    %s o0[4];\n    int ok[4];\n",
              ix);
    for (int k = 0, a = 1; k < nin; k++) {
        if (!is_array(d, k))
            continue;
        if (d->inner[EM_GEN_SLOT_IN0 + k] != EM_GEN_INNER_TILE)
            em_sb_printf(b, "    %s x%d[4];\n",
                         em_gen_ew_storage[input_dtype(d, k)], k);
        a++;
    }
    if (d->where)
        em_sb_puts(b, "    ew_b m[4];\n");
    emit_tile_out_rows(b, ix, 4, "tx");
    for (int k = 0, a = 1; k < nin; k++) {
        if (!is_array(d, k))
            continue;
        if (d->inner[EM_GEN_SLOT_IN0 + k] != EM_GEN_INNER_TILE)
            em_sb_printf(
                b,
                "        x%d[k] = *(const %s *)(in%d + r * s%d0 + c * s%d1);\n",
                k, em_gen_ew_storage[input_dtype(d, k)], k, a, a);
        a++;
    }
    if (d->where)
        em_sb_printf(
            b, "        m[k] = *(const ew_b *)(mask + r * s%d0 + c * s%d1);\n",
            na - 1, na - 1);
    em_sb_printf(b,
              "    }\n#pragma unroll\n    for (int k = 0; k < 4; k++)\n"
              "        if (ok[k]%s)\n"
              "            *(%s *)(out + o0[k]) = ew_elem_%s(",
              d->where ? " && m[k]" : "", em_gen_ew_storage[d->out], name);
    emit_elem_args(b, d, nin, EM_GEN_INNER_TILE, "t%d[ty + 8 * k][tx]",
                   "x%d[k]");
    em_sb_puts(b, ");\n}\n");
}

/* The tiled layout for 2-byte operands (d->vec == 2): every access moves
 * a pair of elements as one 32-bit word, so a warp's loads and stores are
 * 128 bytes, as they are for 4-byte types in the kernel above (with single
 * 2-byte accesses the float16 transpose ran at three quarters of copy
 * bandwidth). A tile is 64x64; the caller guarantees even extents, 4-byte
 * aligned pointers and row strides, a transposed input whose stride along
 * axis 0 is one element, and unit strides along axis 1 elsewhere. Shared
 * memory holds the transposed input column by column ([c][r], 33 words
 * per column), so the loads store whole words without bank conflicts and
 * the compute phase reads single elements with at most two-way ones. */
static void emit_tiled_pairs_cuda(em_sb *b, const em_gen_ewise *d, int nin,
                                  const char *name)
{
    int slots[EM_GEN_SLOTS], na = array_slots(d, nin, slots), w32 = !d->idx64;
    const char *ix = w32 ? "int" : "long long";
    em_sb_printf(b, "typedef struct __align__(4) ew_po_%s { %s v[2]; } ew_po_%s;\n",
              name, em_gen_ew_storage[d->out], name);
    for (int k = 0; k < nin; k++)
        if (is_array(d, k))
            em_sb_printf(b,
                      "typedef struct __align__(4) ew_p%d_%s { %s v[2]; } "
                      "ew_p%d_%s;\n",
                      k, name, em_gen_ew_storage[input_dtype(d, k)], k, name);
    emit_geom(b, d, na, name, 0);
    em_sb_printf(b, "extern \"C\" __global__ void %s(", name);
    emit_params(b, d, nin, 1);
    em_sb_printf(b, ", struct ew_geom_%s g)\n{\n", name);
    for (int k = 0; k < nin; k++)
        if (is_array(d, k) && d->inner[EM_GEN_SLOT_IN0 + k] == EM_GEN_INNER_TILE)
            em_sb_printf(b, "    __shared__ ew_p%d_%s t%d[64 * 33];\n", k, name, k);
    emit_tile_axes(b, na, ix);
    em_sb_printf(b,
              "    const %s r0 = (%s)blockIdx.y * 64, c0 = (%s)blockIdx.x * 64;\n"
              "    const int tx = threadIdx.x, ty = threadIdx.y;\n"
              "#pragma unroll\n"
              "    for (int k = 0; k < 8; k++) {\n"
              "        const %s r = r0 + 2 * tx, c = c0 + ty + 8 * k;\n"
              "        if (r < rows && c < cols) {\n",
              ix, ix, ix, ix);
    for (int k = 0, a = 1; k < nin; k++) {
        if (!is_array(d, k))
            continue;
        if (d->inner[EM_GEN_SLOT_IN0 + k] == EM_GEN_INNER_TILE)
            em_sb_printf(b,
                      "            t%d[(ty + 8 * k) * 33 + tx] = *(const "
                      "ew_p%d_%s *)(in%d + r * s%d0 + c * s%d1);\n",
                      k, k, name, k, a, a);
        a++;
    }
    em_sb_printf(b, "        }\n    }\n    __syncthreads();\n"
                 "    %s o0[8];\n    int ok[8];\n", ix);
    for (int k = 0; k < nin; k++)
        if (is_array(d, k) && d->inner[EM_GEN_SLOT_IN0 + k] != EM_GEN_INNER_TILE)
            em_sb_printf(b, "    ew_p%d_%s x%d[8];\n", k, name, k);
    emit_tile_out_rows(b, ix, 8, "2 * tx");
    for (int k = 0, a = 1; k < nin; k++) {
        if (!is_array(d, k))
            continue;
        if (d->inner[EM_GEN_SLOT_IN0 + k] != EM_GEN_INNER_TILE)
            em_sb_printf(b,
                      "        x%d[k] = *(const ew_p%d_%s *)(in%d + r * s%d0 + "
                      "c * s%d1);\n",
                      k, k, name, k, a, a);
        a++;
    }
    em_sb_printf(b,
              "    }\n#pragma unroll\n    for (int k = 0; k < 8; k++) {\n"
              "        const int rr = ty + 8 * k;\n"
              "        ew_po_%s y;\n"
              "        if (!ok[k])\n            continue;\n"
              "#pragma unroll\n"
              "        for (int h = 0; h < 2; h++)\n"
              "            y.v[h] = ew_elem_%s(",
              name, name);
    emit_elem_args(b, d, nin, EM_GEN_INNER_TILE,
                   "t%d[(2 * tx + h) * 33 + (rr >> 1)].v[rr & 1]",
                   "x%d[k].v[h]");
    em_sb_printf(b, ");\n        *(ew_po_%s *)(out + o0[k]) = y;\n    }\n}\n",
              name);
}

static void emit_strided_host(em_sb *b, const em_gen_ewise *d, int nin,
                              const char *name)
{
    int slots[EM_GEN_SLOTS], na = array_slots(d, nin, slots), nd = d->ndim,
                             last = nd - 1;
    emit_geom(b, d, na, name, 0);
    em_sb_printf(b, "extern \"C\" __global__ void %s(", name);
    emit_params(b, d, nin, 1);
    em_sb_printf(b, ", struct ew_geom_%s g, long long chunk)\n{\n", name);
    em_sb_printf(b,
              "    const long long lo = (long long)blockIdx.x * chunk;\n"
              "    const long long hi = g.n - lo > chunk ? lo + chunk : g.n;\n"
              "    long long c[%d], i = lo, r = lo, cnt, j",
              nd);
    for (int a = 0; a < na; a++)
        em_sb_printf(b, ", o%d = 0", a);
    em_sb_puts(b, ";\n");
    /* Where the chunk starts. */
    for (int dim = last; dim >= 0; dim--) {
        if (dim > 0)
            em_sb_printf(b, "    c[%d] = r %% g.shape[%d]; r /= g.shape[%d];\n",
                      dim, dim, dim);
        else
            em_sb_puts(b, "    c[0] = r;\n");
        for (int a = 0; a < na; a++)
            em_sb_printf(b, "    o%d += c[%d] * g.st[%d][%d];\n", a, dim, a, dim);
    }
    em_sb_puts(b, "    (void)j;\n    while (i < hi) {\n");
    em_sb_printf(b,
              "        cnt = g.shape[%d] - c[%d];\n"
              "        if (cnt > hi - i)\n            cnt = hi - i;\n"
              "        for (j = 0; j < cnt; j++)\n",
              last, last);
    strided_statement(b, d, nin, name, slots, na, "j", "            ");
    em_sb_puts(b, "        i += cnt;\n        if (i >= hi)\n            break;\n");
    /* The row is done: back to its start, then carry into outer axes. */
    for (int a = 0; a < na; a++)
        em_sb_printf(b, "        o%d -= c[%d] * g.st[%d][%d];\n", a, last, a,
                  last);
    em_sb_printf(b, "        c[%d] = 0;\n", last);
    for (int dim = last - 1; dim >= 0; dim--) {
        em_sb_printf(b, "        c[%d]++;\n", dim);
        for (int a = 0; a < na; a++)
            em_sb_printf(b, "        o%d += g.st[%d][%d];\n", a, a, dim);
        em_sb_printf(b,
                  "        if (c[%d] < g.shape[%d])\n            continue;\n",
                  dim, dim);
        for (int a = 0; a < na; a++)
            em_sb_printf(b, "        o%d -= c[%d] * g.st[%d][%d];\n", a, dim, a,
                      dim);
        em_sb_printf(b, "        c[%d] = 0;\n", dim);
    }
    em_sb_puts(b, "    }\n}\n");
}

static int section_of(int dtype)
{
    if (dtype == EM_BOOL)
        return SEC_BOOL;
    if (dtype <= EM_UINT64)
        return SEC_INT;
    return dtype <= EM_FLOAT64 ? SEC_FLOAT : SEC_COMPLEX;
}

void em_gen_ewise_emit_ops(em_sb *b, const em_gen_ewise *d, int n)
{
    int need[SEC_COUNT] = {0};
    pthread_once(&sections_once, split_sections);
    if (!sections[SEC_BASE]) {
        em_sb_puts(b, em_embedded_ewise_ops_h);
        em_sb_puts(b, "\n");
        return;
    }
    /* An op's loop types pick its sections; the conversions around it
     * (and a cast's) are in the base. */
    need[SEC_BASE] = need[SEC_END] = 1;
    for (int i = 0; i < n; i++) {
        const em_op_info *info = em_op_get((em_op)d[i].op);
        if (d[i].op == EM_OP_COPY)
            continue;
        for (int k = 0; info && k < info->nin; k++)
            need[section_of(d[i].loop_in[k])] = 1;
        if (info && info->scipy)
            need[SEC_SCIPY] = 1;
    }
    for (int k = 0; k < SEC_COUNT; k++)
        if (need[k])
            em_sb_puts(b, sections[k]);
}

void em_gen_ewise_emit_elem(em_sb *b, const em_gen_ewise *d, const char *name)
{
    const em_op_info *info = em_op_get((em_op)d->op);
    emit_elem(b, d, info ? info->nin : 1, name);
}

static const char *layout_name(const em_gen_ewise *d)
{
    return d->layout == EM_GEN_CONTIG  ? "contiguous"
           : d->layout == EM_GEN_TILED ? "tiled"
                                       : "strided";
}

em_status em_gen_ewise_source(const em_gen_ewise *d, em_device_type target,
                              const char *name, char **out)
{
    em_sb b = {0};
    int nin = 0;
    em_status st;
    if (!d || !name || !out)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_gen_ewise_source: NULL argument");
    *out = NULL;
    if ((st = check_desc(d, &nin)) != EM_OK)
        return st;
    if (d->layout == EM_GEN_TILED &&
        (target != EM_DEVICE_CUDA || d->ndim != 2 || d->vec > 2 ||
         (d->vec == 2 && (d->where || em_dtype_size((em_dtype)d->out) != 2))))
        return em_error(EM_ERR_INVALID_VALUE,
                        "ewise generator: the tiled layout is for two axes "
                        "on cuda, in pairs only for 2-byte operands");
    if (d->layout == EM_GEN_STRIDED && d->vec > 1) {
        /* Vectors along the last axis: cuda, no mask, every operand unit
         * or zero stride there, the output unit. */
        int ok = target == EM_DEVICE_CUDA && !d->where &&
                 d->inner[EM_GEN_SLOT_OUT] == EM_GEN_INNER_UNIT;
        for (int k = 0; k < nin && ok; k++)
            ok = !is_array(d, k) ||
                 d->inner[EM_GEN_SLOT_IN0 + k] == EM_GEN_INNER_UNIT ||
                 d->inner[EM_GEN_SLOT_IN0 + k] == EM_GEN_INNER_ZERO;
        if (!ok)
            return em_error(
                EM_ERR_INVALID_VALUE,
                "ewise generator: a strided layout "
                "with vectors needs unit or zero inner strides on cuda");
    }
    em_sb_printf(&b, "/* ember elementwise: %s, loop %s",
              em_op_get((em_op)d->op)->name,
              em_dtype_get((em_dtype)d->loop_in[0])->name);
    if (nin == 2)
        em_sb_printf(&b, ",%s", em_dtype_get((em_dtype)d->loop_in[1])->name);
    em_sb_printf(&b, "->%s, out %s, %s, ndim %d, vec %d, %s indices%s */\n",
              em_dtype_get((em_dtype)d->loop_out)->name,
              em_dtype_get((em_dtype)d->out)->name, layout_name(d), d->ndim,
              d->vec, d->idx64 ? "64-bit" : "32-bit",
              d->where ? ", where" : "");
    em_gen_ewise_emit_ops(&b, d, 1);
    emit_elem(&b, d, nin, name);
    if (d->layout == EM_GEN_CONTIG) {
        if (target == EM_DEVICE_CUDA)
            emit_contig_cuda(&b, d, nin, name);
        else
            emit_contig_host(&b, d, nin, name);
    } else if (d->layout == EM_GEN_TILED && d->vec == 2) {
        emit_tiled_pairs_cuda(&b, d, nin, name);
    } else if (d->layout == EM_GEN_TILED) {
        emit_tiled_cuda(&b, d, nin, name);
    } else {
        if (target == EM_DEVICE_CUDA)
            emit_strided_cuda(&b, d, nin, name);
        else
            emit_strided_host(&b, d, nin, name);
    }
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating an elementwise "
                        "kernel");
    }
    *out = b.p;
    return EM_OK;
}

const char *const *em_gen_ewise_options(em_device_type target, int *n)
{
    /* The host: -O3 so GCC vectorises the contiguous loops fully (its -O2
     * cost model skips many). NVRTC needs nothing beyond the
     * architecture, which the backend adds. */
    /* CUDA: --fmad=false, because ptxas contracts a multiply and an add
     * whenever both are in one kernel, which NumPy (and the host, with
     * -ffp-contract=off) never does; inside one op (a complex product)
     * and across the ops of a fused kernel alike. */
    static const char *const host_opts[] = {"-O3"};
    static const char *const cuda_opts[] = {"--fmad=false"};
    if (target == EM_DEVICE_CPU) {
        *n = 1;
        return host_opts;
    }
    *n = 1;
    return cuda_opts;
}

/* ---- launch packing ---------------------------------------------------- */

void em_gen_divider(uint32_t d, uint32_t *mul, uint32_t *shift)
{
    uint32_t s = 0;
    while (s < 31 && (1u << s) < d)
        s++;
    *shift = s;
    *mul = (uint32_t)((((uint64_t)1 << 32) * (((uint64_t)1 << s) - d)) / d + 1);
}

/* CUDA: enough blocks of 256 to fill every SM eight times over at most
 * (2048 resident threads each); the kernels stride over the rest. */
static unsigned cuda_blocks(int64_t work, int sms)
{
    int64_t blocks = (work + 255) / 256, cap = (int64_t)(sms > 0 ? sms : 1) * 8;
    if (blocks > cap)
        blocks = cap;
    return blocks < 1 ? 1u : (unsigned)blocks;
}

/* Host: a few chunks per core so the pool balances, but never chunks so
 * small that the per-block setup shows. */
static int64_t host_chunk(int64_t n, int cores)
{
    int64_t per = n / ((int64_t)(cores > 0 ? cores : 1) * 4);
    if (per < 16384)
        per = 16384;
    return (per + 63) & ~(int64_t)63;
}

void em_gen_ewise_pack(em_device *dev, const em_gen_ewise *d,
                       em_gen_ewise_call *c)
{
    const em_op_info *info = em_op_get((em_op)d->op);
    int nin = info ? info->nin : 1, na = 0, slots[EM_GEN_SLOTS];
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    int units = em_gen_device_units(dev);

    c->nargs = 0;
    c->args[c->nargs++] = &c->ptr[EM_GEN_SLOT_OUT];
    for (int k = 0; k < nin; k++)
        c->args[c->nargs++] = is_array(d, k)
                                  ? (void *)&c->ptr[EM_GEN_SLOT_IN0 + k]
                                  : (void *)c->scalar[k];
    if (d->where)
        c->args[c->nargs++] = &c->ptr[EM_GEN_SLOT_MASK];
    c->block.x = cuda ? 256 : 1;
    c->block.y = c->block.z = 1;
    c->grid.y = c->grid.z = 1;

    if (d->layout == EM_GEN_CONTIG) {
        if (cuda && !d->idx64) {
            c->count.n32 = (uint32_t)c->n;
            c->args[c->nargs++] = &c->count.n32;
        } else {
            c->count.n64 = c->n;
            c->args[c->nargs++] = &c->count.n64;
        }
    } else {
        int nd = d->ndim;
        na = array_slots(d, nin, slots);
        /* With vectors the last axis counts them, not elements. */
        int vw = d->layout == EM_GEN_STRIDED ? d->vec : 1;
        if (cuda && !d->idx64 && d->layout == EM_GEN_STRIDED) {
            uint32_t *w = c->geom.w32;
            w[0] = (uint32_t)(c->n / vw);
            for (int i = 0; i < nd; i++) {
                uint32_t e =
                    (uint32_t)(i == nd - 1 ? c->shape[i] / vw : c->shape[i]);
                w[1 + i] = e;
                em_gen_divider(e, &w[1 + nd + i], &w[1 + 2 * nd + i]);
            }
            for (int a = 0; a < na; a++)
                for (int i = 0; i < nd; i++)
                    w[1 + 3 * nd + a * nd + i] =
                        (uint32_t)(int32_t)c->strides[slots[a]][i];
            c->args[c->nargs++] = c->geom.w32;
        } else {
            int64_t *w = c->geom.w64;
            w[0] = c->n / vw;
            for (int i = 0; i < nd; i++)
                w[1 + i] = i == nd - 1 ? c->shape[i] / vw : c->shape[i];
            for (int a = 0; a < na; a++)
                for (int i = 0; i < nd; i++)
                    w[1 + nd + a * nd + i] = c->strides[slots[a]][i];
            c->args[c->nargs++] = c->geom.w64;
        }
    }
    if (cuda && d->layout == EM_GEN_TILED) {
        int64_t t = d->vec == 2 ? 64 : 32;
        c->block.x = 32;
        c->block.y = 8;
        c->grid.x = (unsigned)((c->shape[1] + t - 1) / t);
        c->grid.y = (unsigned)((c->shape[0] + t - 1) / t);
    } else if (cuda) {
        int64_t work = c->n / (d->vec > 0 ? d->vec : 1);
        c->grid.x = cuda_blocks(work, units);
    } else {
        c->chunk = host_chunk(c->n, units);
        c->args[c->nargs++] = &c->chunk;
        c->grid.x = (unsigned)((c->n + c->chunk - 1) / c->chunk);
    }
}
