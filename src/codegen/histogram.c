/* ember codegen: histogram, bincount and digitize kernel source.
 *
 * See histogram.h for the kernels' contracts. The cuda and host sources
 * come from the same pieces: only the loop head and where the counters
 * live differ, since host blocks run their threads one after another and
 * so cannot share counters through __syncthreads.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "codegen/histogram.h"

static const char *x_ctype(int dt)
{
    switch (dt) {
    case EM_BOOL:
    case EM_UINT8:
        return "unsigned char";
    case EM_INT8:
        return "signed char";
    case EM_INT16:
        return "short";
    case EM_INT32:
        return "int";
    case EM_INT64:
        return "long long";
    case EM_UINT16:
        return "unsigned short";
    case EM_UINT32:
        return "unsigned int";
    case EM_UINT64:
        return "unsigned long long";
    case EM_FLOAT32:
        return "float";
    case EM_FLOAT64:
        return "double";
    default:
        return NULL;
    }
}

int em_gen_hist_native(int dt)
{
    return x_ctype(dt) != NULL;
}

/* hb(): the bin of value xv, or -1 when it is not counted; for the
 * counting ops only. */
static void emit_bin(em_sb *b, const em_gen_hist *d, const char *xt)
{
    em_sb_printf(b,
               "__device__ __forceinline__ long long hb(%s xv, const double "
               "*__restrict__ edges, long long nbins, double lo, double hi, "
               "double norm)\n{\n"
               "    (void)edges;\n    (void)nbins;\n    (void)lo;\n"
               "    (void)hi;\n    (void)norm;\n",
               xt);
    switch (d->op) {
    case EM_GEN_HIST_EVEN:
        /* CUB's rule; the clamp absorbs rounding just below upper. */
        em_sb_printf(b, "    const double v = (double)xv;\n"
                      "    if (!(v >= lo && v < hi))\n        return -1;\n"
                      "    long long b = (long long)((v - lo) * norm);\n"
                      "    return b >= nbins ? nbins - 1 : b;\n");
        break;
    case EM_GEN_HIST_UNIFORM:
        /* NumPy's rule: a computed guess, then one step of correction
         * against the edges, which decide. */
        em_sb_printf(b, "    const double v = (double)xv;\n"
                      "    if (!(v >= edges[0] && v <= edges[nbins]))\n"
                      "        return -1;\n"
                      "    long long b = (long long)((v - lo) * norm);\n"
                      "    if (b >= nbins)\n        b = nbins - 1;\n"
                      "    if (b < 0)\n        b = 0;\n"
                      "    if (v < edges[b])\n        b--;\n"
                      "    else if (b != nbins - 1 && v >= edges[b + 1])\n"
                      "        b++;\n"
                      "    return b;\n");
        break;
    case EM_GEN_HIST_EDGES:
        /* The last edge e with e <= v: the bins are half-open except the
         * last, which the range test closes. */
        em_sb_printf(b, "    const double v = (double)xv;\n"
                      "    if (!(v >= edges[0] && v <= edges[nbins]))\n"
                      "        return -1;\n"
                      "    long long b = 0, e = nbins;\n"
                      "    while (e - b > 1) {\n"
                      "        const long long m = b + ((e - b) >> 1);\n"
                      "        if (edges[m] <= v)\n            b = m;\n"
                      "        else\n            e = m;\n    }\n"
                      "    return b;\n");
        break;
    default: /* bincount: the caller checked 0 <= x < nbins */
        em_sb_printf(b, "    return (long long)xv;\n");
        break;
    }
    em_sb_printf(b, "}\n");
}

/* cuda: four loads in flight per thread before their atomics, since one
 * load per iteration leaves the memory system idle between atomics. */
static void emit_count_cuda(em_sb *b, const em_gen_hist *d, const char *xt)
{
    const char *ct = d->weighted ? "double" : "unsigned long long";
    const char *st = d->weighted ? "double" : "unsigned int";
    const char *dst = d->shared ? "sc" : "out";
    const char *cast = d->shared     ? ""
                       : d->weighted ? "(double)"
                                     : "(unsigned long long)";
    emit_bin(b, d, xt);
    em_sb_printf(b,
               "extern \"C\" __global__ void hk(const %s *__restrict__ x, "
               "const double *__restrict__ w, long long n, long long chunk, "
               "const double *__restrict__ edges, long long nbins, double lo, "
               "double hi, double norm, %s *out)\n{\n"
               "    (void)chunk;\n    (void)w;\n",
               xt, ct);
    if (d->shared)
        em_sb_printf(b,
                   "    extern __shared__ %s sc[];\n"
                   "    for (long long k = threadIdx.x; k < nbins; k += "
                   "blockDim.x)\n        sc[k] = 0;\n"
                   "    __syncthreads();\n",
                   st);
    em_sb_printf(b,
               "    const long long step = (long long)gridDim.x * "
               "blockDim.x;\n"
               "    long long i = (long long)blockIdx.x * blockDim.x + "
               "threadIdx.x;\n"
               "    long long b;\n"
               "    for (; i + 3 * step < n; i += 4 * step) {\n"
               "        const %s x0 = x[i], x1 = x[i + step], x2 = x[i + 2 "
               "* step], x3 = x[i + 3 * step];\n",
               xt);
    if (d->weighted)
        em_sb_printf(b, "        const double w0 = w[i], w1 = w[i + step], w2 = "
                      "w[i + 2 * step], w3 = w[i + 3 * step];\n");
    for (int u = 0; u < 4; u++) {
        char one[8] = "1u";
        if (d->weighted)
            snprintf(one, sizeof one, "w%d", u);
        em_sb_printf(b,
                   "        if ((b = hb(x%d, edges, nbins, lo, hi, norm)) >= "
                   "0)\n            atomicAdd(&%s[b], %s%s);\n",
                   u, dst, cast, one);
    }
    em_sb_printf(b,
               "    }\n    for (; i < n; i += step)\n"
               "        if ((b = hb(x[i], edges, nbins, lo, hi, norm)) >= 0)\n"
               "            atomicAdd(&%s[b], %s%s);\n",
               dst, cast, d->weighted ? "w[i]" : "1u");
    if (d->shared)
        em_sb_printf(b,
                   "    __syncthreads();\n"
                   "    for (long long k = threadIdx.x; k < nbins; k += "
                   "blockDim.x) {\n"
                   "        const %s c = sc[k];\n"
                   "        if (c != 0)\n"
                   "            atomicAdd(&out[k], (%s)c);\n    }\n",
                   st, ct);
    em_sb_printf(b, "}\n");
}

static void emit_count_host(em_sb *b, const em_gen_hist *d, const char *xt)
{
    const char *ct = d->weighted ? "double" : "unsigned long long";
    emit_bin(b, d, xt);
    em_sb_printf(b,
               "extern \"C\" __global__ void hk(const %s *__restrict__ x, "
               "const double *__restrict__ w, long long n, long long chunk, "
               "const double *__restrict__ edges, long long nbins, double lo, "
               "double hi, double norm, %s *out)\n{\n"
               "    (void)w;\n"
               "    %s *row = out + (long long)blockIdx.x * nbins;\n"
               "    for (long long k = 0; k < nbins; k++)\n"
               "        row[k] = 0;\n"
               "    const long long beg = (long long)blockIdx.x * chunk;\n"
               "    const long long end = n - beg > chunk ? beg + chunk : n;\n"
               "    for (long long i = beg; i < end; i++) {\n",
               xt, ct, ct);
    em_sb_printf(b,
               "        const long long b = hb(x[i], edges, nbins, lo, hi, "
               "norm);\n"
               "        if (b >= 0)\n            row[b] += %s;\n    }\n}\n",
               d->weighted ? "w[i]" : "1u");
    em_sb_printf(b,
               "extern \"C\" __global__ void hm(const %s *rows, long long "
               "nrows, long long nbins, long long chunk, %s *out)\n{\n"
               "    const long long beg = (long long)blockIdx.x * chunk;\n"
               "    const long long end = nbins - beg > chunk ? beg + chunk "
               ": nbins;\n"
               "    for (long long k = beg; k < end; k++) {\n"
               "        %s s = 0;\n"
               "        for (long long r = 0; r < nrows; r++)\n"
               "            s += rows[r * nbins + k];\n"
               "        out[k] = s;\n    }\n}\n",
               ct, ct, ct);
}

static void emit_digitize(em_sb *b, const em_gen_hist *d, em_device_type target,
                          const char *xt)
{
    int right = d->flags & EM_GEN_HIST_RIGHT,
        dec = d->flags & EM_GEN_HIST_DECREASING;
    /* NumPy sorts NaN last: a < b in that order. */
    em_sb_printf(b, "__device__ __forceinline__ int hd_lt(double a, double b)\n"
                  "{\n    return a < b || (b != b && a == a);\n}\n");
    em_sb_printf(b,
               "extern \"C\" __global__ void hd(const %s *__restrict__ x, "
               "long long n, long long chunk, const double *__restrict__ "
               "bins, long long nb, long long *out)\n{\n"
               "    (void)chunk;\n",
               xt);
    if (target == EM_DEVICE_CUDA)
        em_sb_printf(b, "    const long long step = (long long)gridDim.x * "
                      "blockDim.x;\n"
                      "    for (long long i = (long long)blockIdx.x * "
                      "blockDim.x + threadIdx.x; i < n; i += step) {\n");
    else
        em_sb_printf(b, "    const long long beg = (long long)blockIdx.x * "
                      "chunk;\n"
                      "    const long long end = n - beg > chunk ? beg + chunk "
                      ": n;\n"
                      "    for (long long i = beg; i < end; i++) {\n");
    /* searchsorted over the increasing sequence s (bins, or bins read
     * backwards when they decrease): side 'right' counts s[k] <= v,
     * side 'left' counts s[k] < v. right=False uses side 'right'. */
    em_sb_printf(b, "        const double v = (double)x[i];\n"
                  "        long long lo = 0, hi = nb;\n"
                  "        while (lo < hi) {\n"
                  "            const long long m = lo + ((hi - lo) >> 1);\n");
    em_sb_printf(b, "            const double s = bins[%s];\n",
               dec ? "nb - 1 - m" : "m");
    if (!right)
        em_sb_printf(b, "            if (!hd_lt(v, s))\n");
    else
        em_sb_printf(b, "            if (hd_lt(s, v))\n");
    em_sb_printf(b, "                lo = m + 1;\n            else\n"
                  "                hi = m;\n        }\n");
    em_sb_printf(b, "        out[i] = %s;\n    }\n}\n", dec ? "nb - lo" : "lo");
}

static void loop_head(em_sb *b, em_device_type target)
{
    if (target == EM_DEVICE_CUDA)
        em_sb_printf(b, "    (void)chunk;\n"
                      "    const long long step = (long long)gridDim.x * "
                      "blockDim.x;\n"
                      "    for (long long i = (long long)blockIdx.x * "
                      "blockDim.x + threadIdx.x; i < n; i += step) {\n");
    else
        em_sb_printf(b, "    const long long beg = (long long)blockIdx.x * "
                      "chunk;\n"
                      "    const long long end = n - beg > chunk ? beg + chunk "
                      ": n;\n"
                      "    for (long long i = beg; i < end; i++) {\n");
}

static void emit_unique(em_sb *b, const em_gen_hist *d, em_device_type target,
                        const char *xt)
{
    int fl = d->xdt == EM_FLOAT32 || d->xdt == EM_FLOAT64;
    switch (d->op) {
    case EM_GEN_UNIQ_FLAGS:
        em_sb_printf(b,
                   "extern \"C\" __global__ void hu(const %s *__restrict__ "
                   "s, long long n, long long chunk, unsigned char *f)\n{\n",
                   xt);
        loop_head(b, target);
        if (d->flags & EM_GEN_UNIQ_DUP)
            em_sb_printf(b, "        f[i] = i + 1 < n && s[i] == s[i + 1];\n");
        else if (d->flags & EM_GEN_UNIQ_XOR)
            em_sb_printf(b, "        f[i] = (i == 0 || s[i] != s[i - 1]) && "
                          "(i + 1 == n || s[i] != s[i + 1]);\n");
        else if (fl && (d->flags & EM_GEN_UNIQ_EQUAL_NAN))
            em_sb_printf(b, "        f[i] = i == 0 || (s[i] != s[i - 1] && "
                          "!(s[i] != s[i] && s[i - 1] != s[i - 1]));\n");
        else
            em_sb_printf(b, "        f[i] = i == 0 || s[i] != s[i - 1];\n");
        break;
    case EM_GEN_UNIQ_COUNTS:
        em_sb_printf(b, "extern \"C\" __global__ void hu(const long long "
                      "*__restrict__ p, long long k, long long n, long long "
                      "chunk, long long *c)\n{\n"
                      "    { const long long total = n; n = k;\n");
        loop_head(b, target);
        em_sb_printf(b, "        c[i] = (i + 1 < k ? p[i + 1] : total) - "
                      "p[i];\n    }\n");
        break;
    case EM_GEN_UNIQ_INVERSE:
        em_sb_printf(b, "extern \"C\" __global__ void hu(const long long "
                      "*__restrict__ perm, const long long *__restrict__ cs, "
                      "long long n, long long chunk, long long *inv)\n{\n");
        loop_head(b, target);
        em_sb_printf(b, "        inv[perm[i]] = cs[i] - 1;\n");
        break;
    case EM_GEN_QUANTILE: {
        em_sb_printf(b,
                   "extern \"C\" __global__ void hu(const %s *__restrict__ "
                   "s, long long n, long long rows, long long len, const "
                   "double *__restrict__ q, long long chunk, double *out)"
                   "\n{\n    (void)q;\n",
                   xt);
        loop_head(b, target);
        em_sb_printf(b,
                   "        const long long r = i %% rows, k = i / rows;\n"
                   "        const %s *row = s + r * len;\n"
                   "        double res;\n"
                   "        long long ln = len;\n"
                   "        (void)k;\n",
                   xt);
        if (fl && (d->flags & EM_GEN_QUANT_NAN))
            /* nan*: the NaNs sorted last are left out of the row */
            em_sb_printf(b, "        {\n            long long lo = 0, hi = len;\n"
                          "            while (lo < hi) {\n"
                          "                const long long m = lo + ((hi - "
                          "lo) >> 1);\n"
                          "                if (row[m] != row[m])\n"
                          "                    hi = m;\n"
                          "                else\n"
                          "                    lo = m + 1;\n            }\n"
                          "            ln = lo;\n        }\n");
        em_sb_printf(b, "        if (ln == 0)\n            res = %s;\n",
                   target == EM_DEVICE_CUDA
                       ? "__longlong_as_double(0x7ff8000000000000ll)"
                       : "NAN");
        if (fl && !(d->flags & EM_GEN_QUANT_NAN))
            em_sb_printf(b, "        else if (row[ln - 1] != row[ln - 1])\n"
                          "            res = (double)row[ln - 1];\n");
        if (d->flags & EM_GEN_QUANT_MEDIAN)
            em_sb_printf(b, "        else if (ln %% 2)\n"
                          "            res = (double)row[ln / 2];\n"
                          "        else\n"
                          "            res = ((double)row[ln / 2 - 1] + "
                          "(double)row[ln / 2]) / 2;\n");
        else
            /* NumPy's _get_indexes and _lerp, in float64 */
            em_sb_printf(b,
                       "        else {\n"
                       "            const double v = (double)(ln - 1) * q[k];\n"
                       "            long long p0, p1;\n"
                       "            double t;\n"
                       "            if (v >= (double)(ln - 1)) {\n"
                       "                p0 = p1 = ln - 1;\n"
                       "                t = v - (double)-1;\n"
                       "            } else if (v < 0) {\n"
                       "                p0 = p1 = 0;\n                t = v;\n"
                       "            } else {\n"
                       "                p0 = (long long)floor(v);\n"
                       "                p1 = p0 + 1;\n"
                       "                t = v - (double)p0;\n            }\n"
                       "            const double a = (double)row[p0], bb = "
                       "(double)row[p1], diff = %s;\n"
                       "            res = t >= 0.5 ? bb - diff * (1 - t) : a + "
                       "diff * t;\n        }\n",
                       /* NumPy subtracts in the data's float type */
                       d->xdt == EM_FLOAT32 ? "(double)(row[p1] - row[p0])"
                                            : "bb - a");
        em_sb_printf(b, "        out[i] = res;\n");
        break;
    }
    default: /* isin */
        em_sb_printf(b,
                   "extern \"C\" __global__ void hu(const %s *__restrict__ "
                   "x, const long long *__restrict__ j, const %s "
                   "*__restrict__ s, long long n, long long m, long long "
                   "chunk, unsigned char *out)\n{\n",
                   xt, xt);
        loop_head(b, target);
        em_sb_printf(b,
                   "        const long long k = j[i];\n"
                   "        out[i] = %s(k < m && s[k] == x[i]);\n",
                   (d->flags & EM_GEN_SET_INVERT) ? "!" : "");
        break;
    }
    em_sb_printf(b, "    }\n}\n");
}

em_status em_gen_hist_source(const em_gen_hist *d, em_device_type target,
                             char **out)
{
    em_sb b = {0};
    const char *xt = x_ctype(d->xdt);
    *out = NULL;
    if (!xt || d->op >= EM_GEN_HIST_OP_COUNT)
        return em_error(EM_ERR_INVALID_VALUE,
                        "histogram generator: bad descriptor (op %d, dtype "
                        "%d)",
                        d->op, d->xdt);
    em_sb_printf(&b, "/* ember histogram v%u: op %d */\n", EM_GEN_HIST_VERSION,
               d->op);
    if (d->op == EM_GEN_HIST_DIGITIZE)
        emit_digitize(&b, d, target, xt);
    else if (d->op >= EM_GEN_UNIQ_FLAGS)
        emit_unique(&b, d, target, xt);
    else if (target == EM_DEVICE_CUDA)
        emit_count_cuda(&b, d, xt);
    else
        emit_count_host(&b, d, xt);
    if (b.oom) {
        free(b.p);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "histogram generator: out of host memory");
    }
    *out = b.p;
    return EM_OK;
}
