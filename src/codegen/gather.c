/* ember codegen: gather/scatter and mask-compaction kernel source.
 *
 * See gather.h for what each kernel does. The source needs none of the
 * elementwise ops header: elements move as bytes, indices are plain C
 * integers, so a kernel is a few hundred bytes and compiles quickly.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "codegen/ctype.h"
#include "codegen/gather.h"

static int index_unsigned(int dt)
{
    return dt >= EM_UINT8 && dt <= EM_UINT64;
}

/* The C type an index array's elements are read as (integers only). */
static const char *index_ctype(int dt)
{
    return (dt >= EM_INT8 && dt <= EM_INT64) || index_unsigned(dt)
               ? em_gen_ctype((em_dtype)dt)
               : NULL;
}

static const char *elem_ctype(int elem)
{
    return elem > 0 ? em_gen_word_type((size_t)elem) : NULL;
}

/* The C type of one element of d->elem bytes: a word, or for 16 bytes a
 * struct of two, <prefix>_e_<name>, declared here (its name in buf). */
static const char *emit_elem_type(em_sb *b, const em_gen_gather *d,
                                  const char *prefix, const char *name,
                                  char *buf, size_t n)
{
    const char *et = elem_ctype(d->elem);
    if (et)
        return et;
    em_sb_printf(b,
                 "typedef struct %s_e_%s { unsigned long long w[2]; } "
                 "%s_e_%s;\n",
                 prefix, name, prefix, name);
    snprintf(buf, n, "%s_e_%s", prefix, name);
    return buf;
}

static em_status check_desc(const em_gen_gather *d)
{
    if (d->op > EM_GEN_WHERE || d->ndim < 1 || d->ndim > EM_MAX_NDIM)
        return em_error(EM_ERR_INVALID_VALUE,
                        "gather generator: bad descriptor (op %d, rank %d)",
                        d->op, d->ndim);
    if (d->op == EM_GEN_COMPACT)
        return EM_OK;
    if (d->op == EM_GEN_WHERE)
        return d->elem == 16 || elem_ctype(d->elem)
                   ? EM_OK
                   : em_error(EM_ERR_INVALID_VALUE,
                              "where generator: element size %d", d->elem);
    if (d->nidx < 1 || d->nidx > EM_GEN_GATHER_MAX_IDX ||
        d->mode > EM_INDEX_CLIP || (d->elem != 16 && !elem_ctype(d->elem)))
        return em_error(EM_ERR_INVALID_VALUE,
                        "gather generator: bad descriptor (%d index arrays, "
                        "mode %d, element size %d)",
                        d->nidx, d->mode, d->elem);
    if (em_gen_gather_words(d->ndim, d->nidx) > EM_GEN_GATHER_MAX_WORDS)
        return em_error(EM_ERR_NOT_SUPPORTED,
                        "advanced indexing with %d index arrays over a "
                        "%d-dimensional result is beyond ember's kernel "
                        "parameter space",
                        d->nidx, d->ndim);
    for (int k = 0; k < d->nidx; k++)
        if (!index_ctype(d->idx[k]))
            return em_error(EM_ERR_INVALID_VALUE,
                            "gather generator: index array %d has dtype %d, "
                            "not an integer",
                            k, d->idx[k]);
    return EM_OK;
}

/* The loop head: a grid-stride loop on cuda, a chunk per block on the
 * host (a scatter runs as one chunk, so that the last write in C order
 * wins there). */
static void loop_head(em_sb *b, em_device_type target, const char *n)
{
    if (target == EM_DEVICE_CUDA)
        em_sb_printf(b,
                   "    const long long step = (long long)gridDim.x * "
                   "blockDim.x;\n"
                   "    for (long long t = (long long)blockIdx.x * blockDim.x "
                   "+ threadIdx.x; t < %s; t += step) {\n",
                   n);
    else
        em_sb_printf(b,
                   "    const long long lo = (long long)blockIdx.x * chunk;\n"
                   "    const long long hi = %s - lo > chunk ? lo + chunk : "
                   "%s;\n"
                   "    for (long long t = lo; t < hi; t++) {\n",
                   n, n);
}

/* Index k of a gather or scatter, per the index dtype's signedness
 * ([0] signed, [1] unsigned): ix_load (the index type, k, k, k) reads it
 * as x next to its extent e; ix_raise (the kernel's name, k), ix_wrap or
 * ix_clip handle x out of range as the mode says (a signed x is first
 * counted from the end when negative, Python's way); ix_add (k) moves
 * the offset os. */
static const char *const ix_load[2] = {
    "        {\n            const long long x0 = (long long)*(const %s *)(i%d "
    "+ q%d), e = g.ext[%d];\n            long long x = x0;\n",
    "        {\n            unsigned long long x = (unsigned long long)*(const "
    "%s *)(i%d + q%d);\n            const unsigned long long e = (unsigned "
    "long long)g.ext[%d];\n"};
static const char *const ix_raise[2] = {
    "            if (x < 0)\n                x += e;\n"
    "            if (x < 0 || x >= e) {\n                gg_bad_%s(err, %d, "
    "(unsigned long long)x0);\n                continue;\n            }\n",
    "            if (x >= e) {\n                gg_bad_%s(err, %d, x);\n"
    "                continue;\n            }\n"};
static const char *const ix_wrap[2] = {
    "            if (e) {\n                x %= e;\n                if (x < "
    "0)\n                    x += e;\n            }\n",
    "            x = e ? x % e : x;\n"};
static const char *const ix_clip[2] = {
    "            if (x >= e)\n                x = e - 1;\n            if (x < "
    "0)\n                x = 0;\n",
    "            if (x >= e)\n                x = e - 1;\n"};
static const char *const ix_add[2] = {
    "            os += x * g.st[%d];\n        }\n",
    "            os += (long long)x * g.st[%d];\n        }\n"};
static void emit_gather(em_sb *b, const em_gen_gather *d, em_device_type target,
                        const char *name)
{
    int R = d->ndim, K = d->nidx;
    char etbuf[64];
    const char *et = emit_elem_type(b, d, "gg", name, etbuf, sizeof etbuf);
    em_sb_printf(b,
               "struct gg_geom_%s { long long n; long long shape[%d]; "
               "long long vst[%d]; long long sst[%d]; long long ist[%d][%d]; "
               "long long ext[%d]; long long st[%d]; };\n",
               name, R, R, R, K, R, K, K);
    if (d->mode == EM_INDEX_RAISE)
        em_sb_printf(b,
                   "__device__ void gg_bad_%s(unsigned long long *err, int k, "
                   "unsigned long long v)\n{\n"
                   "    if (atomicCAS(err, 0ull, 1ull) == 0ull) {\n"
                   "        err[1] = (unsigned long long)k;\n"
                   "        err[2] = v;\n    }\n}\n",
                   name);
    em_sb_printf(b, "extern \"C\" __global__ void %s(char *val, char *src", name);
    for (int k = 0; k < K; k++)
        em_sb_printf(b, ", const char *i%d", k);
    em_sb_printf(b,
               ", unsigned long long *err, struct gg_geom_%s g, long long "
               "chunk)\n{\n",
               name);
    em_sb_printf(b, "    (void)err;\n    (void)chunk;\n");
    loop_head(b, target, "g.n");
    em_sb_printf(b, "        long long r = t, c, ov = 0, os = 0");
    for (int k = 0; k < K; k++)
        em_sb_printf(b, ", q%d = 0", k);
    em_sb_printf(b, ";\n");
    for (int dim = R - 1; dim >= 0; dim--) {
        if (dim > 0)
            em_sb_printf(b,
                       "        c = r %% g.shape[%d];\n        r /= "
                       "g.shape[%d];\n",
                       dim, dim);
        else
            em_sb_printf(b, "        c = r;\n");
        em_sb_printf(b,
                   "        ov += c * g.vst[%d];\n        os += c * "
                   "g.sst[%d];\n",
                   dim, dim);
        for (int k = 0; k < K; k++)
            em_sb_printf(b, "        q%d += c * g.ist[%d][%d];\n", k, k, dim);
    }
    for (int k = 0; k < K; k++) {
        int u = index_unsigned(d->idx[k]) != 0;
        em_sb_printf(b, ix_load[u], index_ctype(d->idx[k]), k, k, k);
        if (d->mode == EM_INDEX_RAISE)
            em_sb_printf(b, ix_raise[u], name, k);
        else
            em_sb_puts(b, d->mode == EM_INDEX_WRAP ? ix_wrap[u] : ix_clip[u]);
        em_sb_printf(b, ix_add[u], k);
    }
    if (d->op == EM_GEN_GATHER)
        em_sb_printf(b, "        *(%s *)(val + ov) = *(const %s *)(src + os);\n",
                   et, et);
    else
        em_sb_printf(b, "        *(%s *)(src + os) = *(const %s *)(val + ov);\n",
                   et, et);
    em_sb_printf(b, "    }\n}\n");
}

static void emit_compact(em_sb *b, const em_gen_gather *d, em_device_type target,
                         const char *name)
{
    int R = d->ndim, cuda = target == EM_DEVICE_CUDA;
    const char *range =
        "    const long long lo = (long long)blockIdx.x * chunk;\n"
        "    const long long hi = n - lo > chunk ? lo + chunk : n;\n";
    em_sb_printf(b, "struct gc_shape_%s { long long s[%d]; };\n", name, R);
    /* counts */
    em_sb_printf(b,
               "extern \"C\" __global__ void %s_count(const unsigned char *m, "
               "long long n, long long chunk, long long *counts)\n{\n%s"
               "    long long cnt = 0;\n",
               name, range);
    if (cuda)
        em_sb_printf(b,
                   "    for (long long base = lo; base < hi; base += %d)\n"
                   "        cnt += __syncthreads_count(base + threadIdx.x "
                   "< hi && m[base + threadIdx.x] != 0);\n"
                   "    if (threadIdx.x == 0)\n"
                   "        counts[blockIdx.x] = cnt;\n}\n",
                   EM_GEN_GATHER_BLOCK);
    else
        em_sb_printf(b, "    for (long long t = lo; t < hi; t++)\n"
                      "        cnt += m[t] != 0;\n"
                      "    counts[blockIdx.x] = cnt;\n}\n");
    /* the scan: few blocks, so one thread */
    em_sb_printf(b,
               "extern \"C\" __global__ void %s_scan(long long *counts, "
               "long long nb, long long *total)\n{\n"
               "    if (threadIdx.x != 0 || blockIdx.x != 0)\n        return;\n"
               "    long long s = 0;\n"
               "    for (long long i = 0; i < nb; i++) {\n"
               "        const long long c = counts[i];\n"
               "        counts[i] = s;\n        s += c;\n    }\n"
               "    *total = s;\n}\n",
               name);
    /* the coordinates */
    em_sb_printf(b,
               "extern \"C\" __global__ void %s_write(const unsigned char *m, "
               "long long n, long long chunk, const long long *offs, long "
               "long *out, long long count, struct gc_shape_%s g)\n{\n%s"
               "    long long off = offs[blockIdx.x];\n",
               name, name, range);
    if (cuda) {
        em_sb_printf(b,
                   "    __shared__ int wc[%d];\n"
                   "    const int lane = threadIdx.x & 31, w = threadIdx.x >> "
                   "5;\n"
                   "    for (long long base = lo; base < hi; base += %d) {\n"
                   "        const long long t = base + threadIdx.x;\n"
                   "        const int f = t < hi && m[t] != 0;\n"
                   "        const unsigned bal = __ballot_sync(0xffffffffu, "
                   "f);\n"
                   "        if (lane == 0)\n            wc[w] = __popc(bal);\n"
                   "        __syncthreads();\n"
                   "        int before = 0, all = 0;\n"
                   "        for (int i = 0; i < %d; i++) {\n"
                   "            const int c = wc[i];\n"
                   "            before += i < w ? c : 0;\n"
                   "            all += c;\n        }\n"
                   "        if (f) {\n"
                   "            const long long pos = off + before + "
                   "__popc(bal & ((1u << lane) - 1u));\n"
                   "            long long r = t;\n",
                   EM_GEN_GATHER_BLOCK / 32, EM_GEN_GATHER_BLOCK,
                   EM_GEN_GATHER_BLOCK / 32);
    } else {
        em_sb_printf(b, "    for (long long t = lo; t < hi; t++) {\n"
                      "        if (m[t] != 0) {\n"
                      "            const long long pos = off++;\n"
                      "            long long r = t;\n");
    }
    for (int dim = R - 1; dim > 0; dim--)
        em_sb_printf(b,
                   "            out[%d * count + pos] = r %% g.s[%d];\n"
                   "            r /= g.s[%d];\n",
                   dim, dim, dim);
    em_sb_printf(b, "            out[pos] = r;\n        }\n");
    if (cuda)
        em_sb_printf(b, "        off += all;\n        __syncthreads();\n");
    em_sb_printf(b, "    }\n    (void)n;\n}\n");
}

static void emit_where(em_sb *b, const em_gen_gather *d, em_device_type target,
                       const char *name)
{
    int R = d->ndim;
    char etbuf[64];
    const char *et = emit_elem_type(b, d, "gw", name, etbuf, sizeof etbuf);
    em_sb_printf(b,
               "struct gw_geom_%s { long long n; long long shape[%d]; "
               "long long st[4][%d]; };\n",
               name, R, R);
    em_sb_printf(b,
               "extern \"C\" __global__ void %s(char *out, const char *c, "
               "const char *x, const char *y, %s xs, %s ys, struct "
               "gw_geom_%s g, long long chunk)\n{\n"
               "    (void)chunk;\n    (void)x;\n    (void)y;\n"
               "    (void)xs;\n    (void)ys;\n",
               name, et, et, name);
    loop_head(b, target, "g.n");
    em_sb_printf(b, "        long long r = t, k, o0 = 0, o1 = 0, o2 = 0, "
                  "o3 = 0;\n");
    for (int dim = R - 1; dim >= 0; dim--) {
        if (dim > 0)
            em_sb_printf(b,
                       "        k = r %% g.shape[%d];\n        r /= "
                       "g.shape[%d];\n",
                       dim, dim);
        else
            em_sb_printf(b, "        k = r;\n");
        for (int a = 0; a < 4; a++)
            em_sb_printf(b, "        o%d += k * g.st[%d][%d];\n", a, a, dim);
    }
    em_sb_printf(b,
               "        *(%s *)(out + o0) = *(const unsigned char *)(c + "
               "o1) ? ",
               et);
    if (d->idx[0])
        em_sb_printf(b, "xs");
    else
        em_sb_printf(b, "*(const %s *)(x + o2)", et);
    em_sb_printf(b, " : ");
    if (d->idx[1])
        em_sb_printf(b, "ys");
    else
        em_sb_printf(b, "*(const %s *)(y + o3)", et);
    em_sb_printf(b, ";\n    }\n}\n");
}

em_status em_gen_gather_source(const em_gen_gather *d, em_device_type target,
                               const char *name, char **out)
{
    static const char *const ops[] = {"gather", "scatter", "compaction",
                                      "where"};
    em_sb b = {0};
    em_status st;
    if (!d || !name || !out)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_gen_gather_source: NULL argument");
    *out = NULL;
    if ((st = check_desc(d)) != EM_OK)
        return st;
    em_sb_printf(&b,
               "/* ember %s: rank %d, %d index arrays, %d-byte elements, "
               "mode %d */\n",
               ops[d->op], d->ndim, d->nidx, d->elem, d->mode);
    if (d->op == EM_GEN_COMPACT)
        emit_compact(&b, d, target, name);
    else if (d->op == EM_GEN_WHERE)
        emit_where(&b, d, target, name);
    else
        emit_gather(&b, d, target, name);
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a gather kernel");
    }
    *out = b.p;
    return EM_OK;
}
