/* ember codegen: cumulate kernel source and launch (see cumulate.h). */
#include <stdlib.h>

#include "codegen/cumulate.h"
#include "codegen/linalg_table.h"

/* CU_OP(c, x) is c = c op x in the compute type; CU_NAN(x) says whether x
 * is NaN (nan ops only). */
static void emit_arith(em_gen_buf *b, em_cumulate_op op, em_dtype dt)
{
    const em_gen_lt_type *t = em_gen_lt_type_of(dt);
    int prod = op == EM_CUM_PROD || op == EM_CUM_NANPROD;
    em_gen_buf_printf(b,
                      "typedef %s cu_t;\ntypedef %s cu_acc;\n"
                      "#define CU_LD(x) %s\n#define CU_ST(x) %s\n"
                      "#define CU_NEUTRAL %s\n",
                      t->storage, t->acc, t->ld, t->st,
                      prod ? t->one : t->zero);
    switch (t->cls) {
    case 'b':
        em_gen_buf_printf(b, "#define CU_OP(c, x) ((c) %s= (x))\n",
                          prod ? "&" : "|");
        break;
    case 'c':
        if (prod)
            em_gen_buf_printf(
                b, "#define CU_OP(c, x) do { cu_acc c_ = (c); (c).re = c_.re "
                   "* (x).re - c_.im * (x).im; (c).im = c_.re * (x).im + "
                   "c_.im * (x).re; } while (0)\n");
        else
            em_gen_buf_printf(b, "#define CU_OP(c, x) do { (c).re += (x).re; "
                                 "(c).im += (x).im; } while (0)\n");
        em_gen_buf_printf(
            b, "#define CU_NAN(x) ((x).re != (x).re || (x).im != (x).im)\n");
        break;
    default:
        em_gen_buf_printf(b, "#define CU_OP(c, x) ((c) %s= (x))\n",
                          prod ? "*" : "+");
        em_gen_buf_printf(b, "#define CU_NAN(x) ((x) != (x))\n");
    }
    /* 16-bit floats: round every step to the storage type, as NumPy's
     * loop stores (and reloads) each partial result. */
    if (dt == EM_FLOAT16 || dt == EM_BFLOAT16)
        em_gen_buf_printf(b, "#define CU_ROUND(c) ((c) = CU_LD(CU_ST(c)))\n");
    else
        em_gen_buf_printf(b, "#define CU_ROUND(c) ((void)0)\n");
}

/* One thread per line, in order. The first element is taken as it is
 * (so -0.0 stays -0.0); later ones are combined, each step rounded. */
static const char thread_body[] =
    "    const long long step = (long long)gridDim.x * blockDim.x;\n"
    "    for (long long line = (long long)blockIdx.x * blockDim.x + "
    "threadIdx.x;\n"
    "         line < g.nlines; line += step) {\n"
    "        long long oi, oo;\n"
    "        cu_acc c = CU_NEUTRAL;\n"
    "        cu_line(&g, line, &oi, &oo);\n"
    "        for (long long k = 0; k < g.len; k++) {\n"
    "            cu_acc x = CU_X(k);\n"
    "            if (k == 0)\n"
    "                c = x;\n"
    "            else\n"
    "                CU_OP(c, x);\n"
    "            CU_ROUND(c);\n"
    "            CU_Y(k) = CU_ST(c);\n"
    "        }\n"
    "    }\n"
    "}\n";

/* CUDA, few long lines: a block of 256 threads per line, chunks of 256
 * scanned in shared memory (Hillis-Steele, combining only real elements,
 * left operand first, so -0.0 and NaN placement match the sequential
 * loop's), the running total carried from chunk to chunk. Every thread
 * computes the same carry from the chunk's last element. The loops are
 * uniform across the block, so every thread reaches every barrier. */
static const char block_body[] =
    "    __shared__ cu_acc sh[256];\n"
    "    const int tid = threadIdx.x;\n"
    "    for (long long line = blockIdx.x; line < g.nlines; line += "
    "gridDim.x) {\n"
    "        long long oi, oo;\n"
    "        cu_acc carry = CU_NEUTRAL;\n"
    "        cu_line(&g, line, &oi, &oo);\n"
    "        for (long long c0 = 0; c0 < g.len; c0 += 256) {\n"
    "            const long long k = c0 + tid;\n"
    "            cu_acc v = k < g.len ? CU_X(k) : CU_NEUTRAL;\n"
    "            sh[tid] = v;\n"
    "            __syncthreads();\n"
    "            for (int d = 1; d < 256; d <<= 1) {\n"
    "                if (tid >= d) {\n"
    "                    cu_acc l = sh[tid - d];\n"
    "                    CU_OP(l, v);\n"
    "                    v = l;\n"
    "                }\n"
    "                __syncthreads();\n"
    "                sh[tid] = v;\n"
    "                __syncthreads();\n"
    "            }\n"
    "            if (c0 > 0) {\n"
    "                cu_acc t = carry;\n"
    "                CU_OP(t, v);\n"
    "                v = t;\n"
    "            }\n"
    "            if (k < g.len)\n"
    "                CU_Y(k) = CU_ST(v);\n"
    "            {\n"
    "                cu_acc last = sh[255];\n"
    "                if (c0 > 0) {\n"
    "                    cu_acc t = carry;\n"
    "                    CU_OP(t, last);\n"
    "                    last = t;\n"
    "                }\n"
    "                carry = last;\n"
    "            }\n"
    "            __syncthreads();\n"
    "        }\n"
    "    }\n"
    "}\n";

em_status em_gen_cumulate_source(const em_gen_cumulate *d,
                                 em_device_type target, const char *name,
                                 char **out)
{
    em_gen_buf b = {0};
    const char *base = em_gen_ops_base(), *o1, *o2, *cl;
    int nan;
    if (!d || !name || !out)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_gen_cumulate_source: NULL argument");
    *out = NULL;
    if (d->op >= EM_CUM_OP_COUNT || d->in >= EM_DTYPE_COUNT ||
        d->out >= EM_DTYPE_COUNT || d->kind > EM_GEN_CUM_BLOCK)
        return em_error(EM_ERR_INVALID_VALUE,
                        "cumulate generator: bad descriptor (op %d, %d->%d)",
                        d->op, d->in, d->out);
    if (!base)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a cumulate kernel");
    nan = (d->op == EM_CUM_NANSUM || d->op == EM_CUM_NANPROD) &&
          em_gen_lt_type_of((em_dtype)d->out)->cls != 'b' &&
          em_gen_lt_type_of((em_dtype)d->out)->cls != 'i';
    em_gen_buf_printf(&b, "/* ember cumulate: %s, %s -> %s */\n%s\n",
                      em_cumulate_name((em_cumulate_op)d->op),
                      em_dtype_get((em_dtype)d->in)->name,
                      em_dtype_get((em_dtype)d->out)->name, base);
    emit_arith(&b, (em_cumulate_op)d->op, (em_dtype)d->out);
    em_gen_convert((em_dtype)d->in, (em_dtype)d->out, &o1, &o2, &cl);
    /* CU_X(k): element k of the line, converted to the accumulator (and
     * NaN replaced for the nan ops); CU_Y(k): the output's element k. */
    em_gen_buf_printf(
        &b,
        "struct cu_geom { long long nlines, len, sin, sout, nd; long long "
        "shape[%d], si[%d], so[%d]; };\n"
        "typedef %s cu_in;\n"
        "EW_FN cu_acc cu_x(const char *p)\n{\n"
        "    cu_acc x = CU_LD(%s%s*(const cu_in *)p%s);\n%s"
        "    return x;\n}\n"
        "#define CU_X(k) cu_x(in + oi + (k) * g.sin)\n"
        "#define CU_Y(k) (*(cu_t *)(out + oo + (k) * g.sout))\n"
        "EW_FN void cu_line(const struct cu_geom *g, long long line, long "
        "long *oi, long long *oo)\n{\n"
        "    long long r = line, a = 0, b = 0;\n"
        "    for (long long d = g->nd - 1; d >= 0; d--) {\n"
        "        const long long i = r %% g->shape[d];\n"
        "        r /= g->shape[d];\n"
        "        a += i * g->si[d];\n"
        "        b += i * g->so[d];\n"
        "    }\n"
        "    *oi = a;\n    *oo = b;\n}\n",
        EM_MAX_NDIM, EM_MAX_NDIM, EM_MAX_NDIM,
        em_gen_lt_type_of((em_dtype)d->in)->storage, o1, o2, cl,
        nan ? "    if (CU_NAN(x))\n        x = CU_NEUTRAL;\n" : "");
    em_gen_buf_printf(&b,
                      "extern \"C\" __global__ void %s(const char *in, char "
                      "*out, struct cu_geom g)\n{\n%s",
                      name,
                      target == EM_DEVICE_CUDA && d->kind == EM_GEN_CUM_BLOCK
                          ? block_body
                          : thread_body);
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a cumulate kernel");
    }
    *out = b.p;
    return EM_OK;
}

static em_status source_from_key(uint64_t key, em_device_type target,
                                 const char *name, char **out)
{
    em_gen_cumulate d;
    d.op = (uint8_t)(key & 0xff);
    d.in = (uint8_t)((key >> 8) & 0xff);
    d.out = (uint8_t)((key >> 16) & 0xff);
    d.kind = (uint8_t)((key >> 24) & 0xff);
    return em_gen_cumulate_source(&d, target, name, out);
}

em_status em_gen_cumulate_run(em_device *dev, const em_gen_cumulate *d,
                              const void *in, void *out,
                              const em_gen_cum_geom *g, em_stream *s)
{
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    int block = cuda && d->kind == EM_GEN_CUM_BLOCK;
    uint64_t key = ((uint64_t)EM_GEN_FAMILY_CUMULATE << 56) |
                   ((uint64_t)block << 24) | ((uint64_t)d->out << 16) |
                   ((uint64_t)d->in << 8) | d->op;
    em_function *fn;
    em_dim3 grid = {1, 1, 1}, threads = {1, 1, 1};
    em_gen_cum_geom geom = *g;
    const void *pi = in;
    void *po = out, *args[3];
    long long blocks;
    em_status st;

    if (g->nlines <= 0 || g->len <= 0)
        return EM_OK;
    st = em_gen_table_function(dev, key, source_from_key, "cum",
                               EM_GEN_CUMULATE_VERSION, &fn);
    if (st != EM_OK)
        return st;
    if (block) {
        threads.x = 256;
        blocks = g->nlines;
    } else {
        threads.x = cuda ? 128 : 1;
        blocks = (g->nlines + threads.x - 1) / threads.x;
    }
    grid.x = (unsigned)(blocks > (1 << 20) ? (1 << 20) : blocks);
    args[0] = &pi;
    args[1] = &po;
    args[2] = &geom;
    return em_launch(fn, grid, threads, 0, s, args);
}
