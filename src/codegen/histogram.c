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

#include "codegen/ctype.h"
#include "codegen/histogram.h"
#include "core/strbuf.h"

/* How the kernels read x: bool as its byte, others as their C type. */
static const char *x_ctype(int dt)
{
    return dt == EM_BOOL ? "unsigned char" : em_gen_ctype((em_dtype)dt);
}

double em_gen_hist_eps(int64_t nbins, double dev, int fp32)
{
    /* (v - lo) and the product with norm round once each, and norm was
     * rounded once: under 3.01 units in the last place of a guess of at
     * most nbins; the constant covers the double arithmetic that found
     * dev. */
    const double u = fp32 ? 0x1p-24 : 0x1p-53;
    double eps = 3.01 * u * (double)(nbins + 1) + dev + 1e-9;
    return eps < 0.25 ? eps : 2.0;
}

double em_gen_hist_unkey(uint64_t k)
{
    uint64_t bits = k >> 63 ? k ^ 0x8000000000000000ull : ~k;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

int em_gen_hist_native(int dt)
{
    return x_ctype(dt) != NULL;
}

/* The counting ops' types: CT the arithmetic of the bin guess and the
 * edges' element type (float for float32 input with float32 edges, as
 * NumPy computes in the bin dtype; double otherwise), IT the bin index. */
static const char *calc_t(const em_gen_hist *d)
{
    return d->op == EM_GEN_HIST_UNIFORM && d->xdt == EM_FLOAT32 &&
                   (d->flags & EM_GEN_HIST_FP32)
               ? "float"
               : "double";
}

static const char *idx_t(const em_gen_hist *d)
{
    return d->idx32 ? "int" : "long long";
}

/* hb(): the bin of value xv, or -1 when it is not counted; for the
 * counting ops only. */
static void emit_bin(em_sb *b, const em_gen_hist *d, const char *xt)
{
    const char *ct = calc_t(d), *it = idx_t(d);
    em_sb_printf(b,
                 "typedef %s CT;\ntypedef %s IT;\ntypedef %s XT;\n"
                 "__device__ __forceinline__ IT hb(XT xv, const CT "
                 "*__restrict__ edges, IT nbins, CT lo, CT hi, CT norm, CT "
                 "eps)\n{\n"
                 "    (void)edges;\n    (void)nbins;\n    (void)lo;\n"
                 "    (void)hi;\n    (void)norm;\n    (void)eps;\n",
                 ct, it, xt);
    switch (d->op) {
    case EM_GEN_HIST_EVEN:
        /* CUB's rule; the clamp absorbs rounding just below upper. */
        em_sb_printf(b, "    const double v = (double)xv;\n"
                        "    if (!(v >= lo && v < hi))\n        return -1;\n"
                        "    const IT b = (IT)((v - lo) * norm);\n"
                        "    return b >= nbins ? nbins - 1 : b;\n");
        break;
    case EM_GEN_HIST_UNIFORM:
        /* NumPy's rule: a computed guess, corrected by one step against
         * the edges, which decide. lo and hi are the first and last edge.
         * The caller's eps bounds the guess's error plus the edges'
         * distance from exact equal spacing, in bins: a guess whose
         * fraction is at least eps from a whole number is the edges'
         * answer already, so the edges are read only next to a bin
         * boundary (eps >= 1 reads them always). */
        em_sb_printf(b, "    const CT v = (CT)xv;\n"
                        "    if (!(v >= lo && v <= hi))\n        return -1;\n"
                        "    const CT f = (v - lo) * norm;\n"
                        "    IT b = (IT)f;\n"
                        "    const CT t = f - (CT)b;\n"
                        "    if (t >= eps && t <= (CT)1 - eps && b < nbins)\n"
                        "        return b;\n"
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
                        "    IT b = 0, e = nbins;\n"
                        "    while (e - b > 1) {\n"
                        "        const IT m = b + ((e - b) >> 1);\n"
                        "        if (edges[m] <= v)\n            b = m;\n"
                        "        else\n            e = m;\n    }\n"
                        "    return b;\n");
        break;
    default: /* bincount: values past nbins are left to the caller */
        /* one unsigned compare: a negative value wraps past nbins */
        if (d->idx32 && em_dtype_size((em_dtype)d->xdt) <= 4)
            em_sb_printf(b, "    const unsigned v = (unsigned)xv;\n"
                            "    return v < (unsigned)nbins ? (IT)v : -1;\n");
        else
            em_sb_printf(b, "    const unsigned long long v = (unsigned long "
                            "long)(long long)xv;\n"
                            "    return v < (unsigned long long)nbins ? (IT)v "
                            ": -1;\n");
        break;
    }
    em_sb_printf(b, "}\n");
}

/* The counting kernel's parameters (both targets). */
static void emit_count_head(em_sb *b, const em_gen_hist *d, const char *launch)
{
    em_sb_printf(b,
                 "extern \"C\" __global__ void %shk(const XT *__restrict__ x, "
                 "const double *__restrict__ w, long long n, long long chunk, "
                 "const CT *__restrict__ edges, long long nbins_, double lo_, "
                 "double hi_, double norm_, double eps_, long long sbins_, "
                 "long long cshift_, %s *out, long long *mm, long long *mmh)\n{\n"
                 "    (void)chunk;\n    (void)w;\n    (void)mm;\n    (void)mmh;\n"
                 "    (void)sbins_;\n    (void)cshift_;\n"
                 "    const IT nbins = (IT)nbins_;\n"
                 "    const CT lo = (CT)lo_, hi = (CT)hi_, norm = (CT)norm_, "
                 "eps = (CT)eps_;\n",
                 launch, d->weighted ? "double" : "unsigned long long");
    if (d->op == EM_GEN_HIST_BINCOUNT)
        /* min(0, min x) and max(0, max x): all the caller needs to know
         * whether every value was counted, or the first negative one;
         * kept in x's type, one instruction each */
        em_sb_printf(b, "    XT mnv = 0, mxv = 0;\n");
}

/* ADD(e, wv): count value e of weight wv (and track bincount's extremes). */
static void emit_add_macro(em_sb *b, const em_gen_hist *d, int cuda)
{
    const char *mm = d->op == EM_GEN_HIST_BINCOUNT
                         ? " mnv = (e) < mnv ? (e) : mnv;"
                           " mxv = (e) > mxv ? (e) : mxv;"
                         : "";
    if (cuda)
        em_sb_printf(b,
                     "#define ADD(e, wv) do {%s const IT b_ = hb((e), edges, "
                     "nbins, lo, hi, norm, eps); if (b_ >= 0) { if (b_ < "
                     "sbins) atomicAdd(&sc[(b_ << cs) | ln], (wv)); else "
                     "atomicAdd(&out[b_], (%s)(wv)); } } while (0)\n",
                     mm, d->weighted ? "double" : "unsigned long long");
    else
        em_sb_printf(b,
                     "#define ADD(e, wv) do {%s const IT b_ = hb((e), edges, "
                     "nbins, lo, hi, norm, eps); if (b_ >= 0) row[b_] += "
                     "(wv); } while (0)\n",
                     mm);
}

/* cuda: a grid of a few blocks per SM loops over x in 16-byte vectors, two
 * in flight per thread. The first sbins bins are counted in dynamic
 * shared memory, 2^cshift copies of each (bin-major, a thread uses copy
 * lane mod 2^cshift), so the lanes of a warp hit different banks and a
 * run of equal values does not serialise on one counter; bins past sbins
 * are global atomics. At the end each block sums its copies (starting
 * at a different copy per thread: no bank conflicts) and adds its
 * nonzero counts to out with one global atomic per bin. The caller keeps
 * a block's share of x below 2^31 elements (32-bit shared counters). */
static void emit_count_cuda(em_sb *b, const em_gen_hist *d, const char *xt)
{
    const char *st = d->weighted ? "double" : "unsigned int";
    int vec = 16 / (int)em_dtype_size((em_dtype)d->xdt);
    /* 16-byte loads in flight per thread: bincount runs 2 blocks per SM,
     * the others 4 (4 loads helped bincount a little and slowed the
     * histogram; bench/README.md, 'histogram') */
    const int unroll = d->op == EM_GEN_HIST_BINCOUNT ? 4 : 2;
    char launch[64];
    emit_bin(b, d, xt);
    snprintf(launch, sizeof launch, "__launch_bounds__(%d, %d) ",
             EM_GEN_HIST_BLOCK, EM_GEN_HIST_BLOCKS_PER_SM);
    if (!d->weighted)
        em_sb_printf(b, "union hq {\n    uint4 q;\n    XT e[%d];\n};\n", vec);
    if (d->op == EM_GEN_HIST_BINCOUNT)
        /* bincount with mmh: the blocks zero out themselves, 1,024 bins
         * a claim (mm[3] counts claims, mm[4] zeroed parts). all: claim
         * until none is left, then wait for the parts others claimed;
         * those blocks are running, so the wait ends. */
        em_sb_printf(b,
                     "__device__ void hz(%s *out, long long nbins, long long *mm, int all)\n"
                     "{\n"
                     "    __shared__ long long zc;\n"
                     "    const long long parts = (nbins + 1023) >> 10;\n"
                     "    for (;;) {\n"
                     "        __syncthreads();\n"
                     "        if (threadIdx.x == 0)\n"
                     "            zc = (long long)atomicAdd((unsigned long long *)&mm[3], 1ull);\n"
                     "        __syncthreads();\n"
                     "        const long long c = zc;\n"
                     "        if (c >= parts)\n            break;\n"
                     "        const long long e = (c + 1) << 10 < nbins ? (c + 1) << 10 : nbins;\n"
                     "        for (long long k = (c << 10) + threadIdx.x; k < e; k += blockDim.x)\n"
                     "            out[k] = 0;\n"
                     "        __threadfence();\n"
                     "        __syncthreads();\n"
                     "        if (threadIdx.x == 0)\n"
                     "            atomicAdd((unsigned long long *)&mm[4], 1ull);\n"
                     "        if (!all)\n            return;\n"
                     "    }\n"
                     "    if (all) {\n"
                     "        if (threadIdx.x == 0)\n"
                     "            while (*(volatile long long *)&mm[4] < parts)\n                ;\n"
                     "        __syncthreads();\n"
                     "        __threadfence();\n"
                     "    }\n"
                     "}\n",
                     d->weighted ? "double" : "unsigned long long");
    emit_count_head(b, d, launch);
    em_sb_printf(b,
                 "    extern __shared__ %s sc[];\n"
                 "    const IT sbins = (IT)sbins_;\n"
                 "    const int cs = (int)cshift_;\n"
                 "    const IT ln = (IT)(threadIdx.x & ((1u << cs) - 1u));\n"
                 "    for (IT k = threadIdx.x; k < (sbins << cs); k += "
                 "blockDim.x)\n        sc[k] = 0;\n"
                 "    __syncthreads();\n"
                 "    const long long step = (long long)gridDim.x * "
                 "blockDim.x;\n"
                 "    const long long gt = (long long)blockIdx.x * blockDim.x "
                 "+ threadIdx.x;\n",
                 st);
    if (d->op == EM_GEN_HIST_BINCOUNT)
        em_sb_printf(b, "    if (mmh)\n        hz(out, nbins_, mm, 0);\n");
    emit_add_macro(b, d, 1);
    if (d->weighted) {
        /* weights stay scalar: x and w need not share an alignment */
        em_sb_printf(b,
                     "    long long i = gt;\n"
                     "    for (; i + 3 * step < n; i += 4 * step) {\n"
                     "        const XT x0 = x[i], x1 = x[i + step], x2 = "
                     "x[i + 2 * step], x3 = x[i + 3 * step];\n"
                     "        const double w0 = w[i], w1 = w[i + step], w2 = "
                     "w[i + 2 * step], w3 = w[i + 3 * step];\n"
                     "        ADD(x0, w0);\n        ADD(x1, w1);\n"
                     "        ADD(x2, w2);\n        ADD(x3, w3);\n    }\n"
                     "    for (; i < n; i += step)\n"
                     "        ADD(x[i], w[i]);\n");
    } else {
        /* the elements before x's first 16-byte boundary and after the
         * last whole vector are counted one per thread */
        em_sb_printf(b,
                     "    long long head = (long long)((16u - ((unsigned)"
                     "(unsigned long long)x & 15u)) & 15u) / (long long)"
                     "sizeof(XT);\n"
                     "    if (head > n)\n        head = n;\n"
                     "    const long long nv = (n - head) / %d, tail = head + "
                     "nv * %d;\n"
                     "    if (gt < head)\n        ADD(x[gt], 1u);\n"
                     "    if (gt < n - tail)\n        ADD(x[tail + gt], 1u);\n"
                     "    const uint4 *p = (const uint4 *)(x + head);\n"
                     "    long long j = gt;\n"
                     "    for (; j + %d * step < nv; j += %d * step) {\n"
                     "        union hq u[%d];\n"
                     "#pragma unroll\n"
                     "        for (int r = 0; r < %d; r++)\n"
                     "            u[r].q = p[j + r * step];\n"
                     "#pragma unroll\n"
                     "        for (int r = 0; r < %d; r++)\n"
                     "#pragma unroll\n"
                     "            for (int k = 0; k < %d; k++)\n"
                     "                ADD(u[r].e[k], 1u);\n    }\n"
                     "    for (; j < nv; j += step) {\n"
                     "        union hq u0;\n        u0.q = p[j];\n"
                     "#pragma unroll\n"
                     "        for (int k = 0; k < %d; k++)\n"
                     "            ADD(u0.e[k], 1u);\n    }\n",
                     vec, vec, unroll - 1, unroll, unroll, unroll, unroll,
                     vec, vec);
    }
    if (d->op == EM_GEN_HIST_BINCOUNT)
        em_sb_printf(b,
                     "    long long mn = (long long)mnv, mx = (long long)mxv;\n"
                     "    for (int o = 16; o > 0; o >>= 1) {\n"
                     "        const long long a = __shfl_xor_sync(0xffffffffu, "
                     "mn, o), c = __shfl_xor_sync(0xffffffffu, mx, o);\n"
                     "        mn = a < mn ? a : mn;\n"
                     "        mx = c > mx ? c : mx;\n    }\n"
                     "    if ((threadIdx.x & 31u) == 0) {\n"
                     "        if (mn < 0)\n            atomicMin(&mm[0], mn);\n"
                     "        if (mx > 0)\n            atomicMax(&mm[1], mx);\n"
                     "        __threadfence();\n"
                     "    }\n"
                     /* mmh (page-locked host memory): the last block to
                      * get here leaves the extremes there and then sets
                      * mmh[2], before the blocks add their counts to out:
                      * the host learns the output's length from host
                      * memory while the kernel still runs, and builds the
                      * result (stream-ordered) meanwhile, not waiting for
                      * the stream (bench/README.md, 'histogram'). mm[2]
                      * counts the blocks. */
                     "    if (mmh) {\n"
                     "        __shared__ int last;\n"
                     "        __syncthreads();\n"
                     "        if (threadIdx.x == 0)\n"
                     "            last = atomicAdd((unsigned long long *)&mm[2], 1ull) == gridDim.x - 1;\n"
                     "        __syncthreads();\n"
                     "        if (last && threadIdx.x == 0) {\n"
                     "            __threadfence();\n"
                     "            mmh[0] = atomicAdd((unsigned long long *)&mm[0], 0ull);\n"
                     "            mmh[1] = atomicAdd((unsigned long long *)&mm[1], 0ull);\n"
                     "            __threadfence_system();\n"
                     "            *(volatile long long *)&mmh[2] = 1;\n"
                     "        }\n"
                     "        hz(out, nbins_, mm, 1);\n"
                     "    }\n");
    /* Block i starts its sweep at bin 512 i (mod sbins): blocks that
     * finish together then add to different bins, where the same order
     * in every block queued them on one bin's L2 slice at a time. */
    em_sb_printf(b,
                 "    __syncthreads();\n"
                 "    const IT rot = (IT)(((long long)blockIdx.x * blockDim.x) %% "
                 "(long long)sbins);\n"
                 "    for (IT k0 = threadIdx.x; k0 < sbins; k0 += blockDim.x) {\n"
                 "        const IT k = k0 + rot < sbins ? k0 + rot : k0 + rot - sbins;\n"
                 "        %s s = 0;\n"
                 "        for (IT c = 0; c < ((IT)1 << cs); c++)\n"
                 "            s += sc[(k << cs) | ((c + k) & (((IT)1 << cs) - "
                 "1))];\n"
                 "        if (s != 0)\n"
                 "            atomicAdd(&out[k], (%s)s);\n    }\n",
                 st, d->weighted ? "double" : "unsigned long long");
    if (d->op == EM_GEN_HIST_BINCOUNT)
        /* the last block past its flush sets the counters back to zero
         * (mm[5] counts the blocks) and then says so in mmh[7]: the
         * host lends this part of the scratch again only after that */
        em_sb_printf(b,
                     "    if (mmh) {\n"
                     "        __threadfence();\n"
                     "        __syncthreads();\n"
                     "        if (threadIdx.x == 0 && atomicAdd((unsigned long long *)&mm[5], 1ull) == gridDim.x - 1) {\n"
                     "            volatile long long *v = mm;\n"
                     "            for (int k = 0; k < 6; k++)\n                v[k] = 0;\n"
                     "            __threadfence_system();\n"
                     "            *(volatile long long *)&mmh[7] = 1;\n"
                     "        }\n"
                     "    }\n");
    em_sb_printf(b, "}\n");
}

/* hm: the host counting kernels' second pass, adding the blocks' rows of
 * private counters (of counter type ct) into out, a chunk of bins each. */
static void emit_merge(em_sb *b, const char *ct)
{
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

/* host: block b counts [b*chunk, (b+1)*chunk) into its own row
 * out + b*nbins, with no atomics; bincount's extremes are merged with one
 * atomic per block. */
static void emit_count_host(em_sb *b, const em_gen_hist *d, const char *xt)
{
    const char *ct = d->weighted ? "double" : "unsigned long long";
    emit_bin(b, d, xt);
    emit_count_head(b, d, "");
    em_sb_printf(
        b,
        "    %s *row = out + (long long)blockIdx.x * nbins_;\n"
        "    for (long long k = 0; k < nbins_; k++)\n"
        "        row[k] = 0;\n"
        "    const long long beg = (long long)blockIdx.x * chunk;\n"
        "    const long long end = n - beg > chunk ? beg + chunk : n;\n",
        ct);
    emit_add_macro(b, d, 0);
    em_sb_printf(b,
                 "    for (long long i = beg; i < end; i++)\n"
                 "        ADD(x[i], %s);\n",
                 d->weighted ? "w[i]" : "1u");
    if (d->op == EM_GEN_HIST_BINCOUNT)
        em_sb_printf(b, "    if (mnv < 0)\n        atomicMin(&mm[0], (long "
                        "long)mnv);\n"
                        "    if (mxv > 0)\n        atomicMax(&mm[1], (long "
                        "long)mxv);\n");
    em_sb_printf(b, "}\n");
    emit_merge(b, ct);
}

static void loop_head(em_sb *b, em_device_type target);
static void loop_for(em_sb *b, em_device_type target);

/* histogram2d: see histogram.h. */
static void emit_hist2d(em_sb *b, const em_gen_hist *d, em_device_type target,
                        const char *xt)
{
    int cuda = target == EM_DEVICE_CUDA;
    const char *ct = d->weighted ? "double" : "unsigned long long";
    em_sb_printf(b,
                 "__device__ __forceinline__ long long h2b(double v, const "
                 "double *__restrict__ e, long long ne)\n{\n"
                 "    if (!(v >= e[0] && v <= e[ne - 1]))\n        return -1;\n"
                 "    if (v == e[ne - 1])\n        return ne - 2;\n"
                 "    long long lo = 0, hi = ne;\n"
                 "    while (lo < hi) {\n"
                 "        const long long m = lo + ((hi - lo) >> 1);\n"
                 "        if (e[m] <= v)\n            lo = m + 1;\n"
                 "        else\n            hi = m;\n    }\n"
                 "    return lo - 1;\n}\n");
    em_sb_printf(b,
                 "extern \"C\" __global__ void hk(const %s *__restrict__ x, "
                 "const %s *__restrict__ y, const double *__restrict__ w, "
                 "long long n, long long chunk, const double *__restrict__ "
                 "xe, long long nxe, const double *__restrict__ ye, long long "
                 "nye, long long sbins, %s *out)\n{\n"
                 "    (void)w;\n    (void)sbins;\n"
                 "    const long long ny = nye - 1;\n",
                 xt, xt, ct);
    if (cuda) {
        em_sb_printf(b,
                     "    extern __shared__ %s sc[];\n"
                     "    for (long long k = threadIdx.x; k < sbins; k += "
                     "blockDim.x)\n        sc[k] = 0;\n"
                     "    __syncthreads();\n",
                     d->weighted ? "double" : "unsigned int");
    } else {
        em_sb_printf(b,
                     "    %s *row = out + (long long)blockIdx.x * (nxe - "
                     "1) * ny;\n"
                     "    for (long long k = 0; k < (nxe - 1) * ny; k++)\n"
                     "        row[k] = 0;\n",
                     ct);
    }
    loop_head(b, target);
    em_sb_printf(b, "        const long long bx = h2b((double)x[i], xe, nxe), "
                    "by = h2b((double)y[i], ye, nye);\n"
                    "        if (bx < 0 || by < 0)\n            continue;\n"
                    "        const long long k = bx * ny + by;\n");
    if (cuda)
        em_sb_printf(b,
                     "        if (k < sbins)\n"
                     "            atomicAdd(&sc[k], %s);\n"
                     "        else\n"
                     "            atomicAdd(&out[k], (%s)%s);\n    }\n"
                     "    __syncthreads();\n"
                     "    for (long long k = threadIdx.x; k < sbins; k += "
                     "blockDim.x)\n"
                     "        if (sc[k] != 0)\n"
                     "            atomicAdd(&out[k], (%s)sc[k]);\n}\n",
                     d->weighted ? "w[i]" : "1u", ct,
                     d->weighted ? "w[i]" : "1u", ct);
    else
        em_sb_printf(b, "        row[k] += %s;\n    }\n}\n",
                     d->weighted ? "w[i]" : "1u");
    if (!cuda)
        emit_merge(b, ct);
}

/* The range pass: the order-preserving key of (double)v + 0.0 (so -0.0
 * and 0.0 are one value), NaN flagged apart. */
static void emit_minmax(em_sb *b, em_device_type target, const char *xt)
{
    em_sb_printf(b,
                 "__device__ __forceinline__ unsigned long long hkey(double "
                 "v)\n{\n"
                 "    const long long s = __double_as_longlong(v + 0.0);\n"
                 "    return s >= 0 ? (unsigned long long)s ^ "
                 "0x8000000000000000ull : ~(unsigned long long)s;\n}\n"
                 "extern \"C\" __global__ void hx(const %s *__restrict__ x, "
                 "long long n, long long chunk, unsigned long long *mm)\n{\n"
                 "    unsigned long long lo = 0, hi = 0, nan = 0;\n",
                 xt);
    loop_head(b, target);
    em_sb_printf(b, "        const double v = (double)x[i];\n"
                    "        if (v != v) {\n            nan = 1;\n"
                    "            continue;\n        }\n"
                    "        const unsigned long long k = hkey(v);\n"
                    "        lo = ~k > lo ? ~k : lo;\n"
                    "        hi = k > hi ? k : hi;\n    }\n");
    if (target == EM_DEVICE_CUDA)
        em_sb_printf(b, "    for (int o = 16; o > 0; o >>= 1) {\n"
                        "        const unsigned long long a = __shfl_xor_sync("
                        "0xffffffffu, lo, o), c = __shfl_xor_sync(0xffffffffu, "
                        "hi, o), d = __shfl_xor_sync(0xffffffffu, nan, o);\n"
                        "        lo = a > lo ? a : lo;\n"
                        "        hi = c > hi ? c : hi;\n"
                        "        nan |= d;\n    }\n"
                        "    if ((threadIdx.x & 31u) != 0)\n        return;\n");
    em_sb_printf(b, "    if (lo)\n        atomicMax(&mm[0], lo);\n"
                    "    if (hi)\n        atomicMax(&mm[1], hi);\n"
                    "    if (nan)\n        atomicMax(&mm[2], nan);\n}\n");
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
    loop_for(b, target);
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

/* The loop over a block's elements i of [0, n): grid-stride on CUDA, a
 * chunk per block on the host. */
static void loop_for(em_sb *b, em_device_type target)
{
    if (target == EM_DEVICE_CUDA)
        em_sb_printf(b, "    const long long step = (long long)gridDim.x * "
                        "blockDim.x;\n"
                        "    for (long long i = (long long)blockIdx.x * "
                        "blockDim.x + threadIdx.x; i < n; i += step) {\n");
    else
        em_sb_printf(b,
                     "    const long long beg = (long long)blockIdx.x * "
                     "chunk;\n"
                     "    const long long end = n - beg > chunk ? beg + chunk "
                     ": n;\n"
                     "    for (long long i = beg; i < end; i++) {\n");
}

/* loop_for, in a kernel that has not used chunk yet. */
static void loop_head(em_sb *b, em_device_type target)
{
    if (target == EM_DEVICE_CUDA)
        em_sb_printf(b, "    (void)chunk;\n");
    loop_for(b, target);
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
            em_sb_printf(b,
                         "        {\n            long long lo = 0, hi = len;\n"
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
            em_sb_printf(
                b,
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
    else if (d->op == EM_GEN_HIST_MINMAX)
        emit_minmax(&b, target, xt);
    else if (d->op == EM_GEN_HIST_2D)
        emit_hist2d(&b, d, target, xt);
    else if (d->op >= EM_GEN_UNIQ_FLAGS && d->op <= EM_GEN_QUANTILE)
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
