/* ember math: em_random_fill (include/ember/random.h). Generates the
 * kernel of one (distribution, dtype) pair from kernels/random_*.cuh,
 * keeps it in a kernel table, and launches it over the output. */
#include <stdlib.h>
#include <string.h>

#include "ember/random.h"
#include "codegen/ctype.h"
#include "codegen/ewise.h"
#include "codegen/kernel_table.h"
#include "core/embedded.h"
#include "core/strbuf.h"
#include "ember/runtime.h"
#include "ember/util.h"

#define RND_VERSION 13u
/* A cuda thread's run of consecutive elements, in bytes (the kernel's
 * RND_PER elements), and the shared memory a thread stages it in (RND_SV
 * 16-byte vectors: the run and one that spreads the lanes over the banks;
 * a warp then writes its 32 runs out together, kernels/random_fill.cuh
 * says why). Moving to the next run costs one LCG step of the stride's
 * power (the first run's log-time jump is once a thread), so short runs
 * are cheap. */
#define RND_RUN_BYTES 64
#define RND_STAGE_BYTES (RND_RUN_BYTES + 16)
#define RND_BLOCK 256
/* The lane layout's words a lane takes in a warp's segment (the kernel's
 * RND_LANE_R, random_fill.cuh): on the H200, 16 wrote 4,200 GB/s of
 * float32 uniforms where 8 wrote 4,000 (bench/README.md). */
#define RND_LANE_R 16

static em_gen_ktable random_table = EM_GEN_KTABLE(64);

typedef struct rnd_desc {
    uint32_t dist, dtype, gen; /* gen: 0 for the keyed draws, which read
                                * Philox blocks whatever the stream */
} rnd_desc;

/* The dtypes each distribution writes. */
static int dtype_ok(em_random_dist dist, em_dtype t)
{
    switch (dist) {
    case EM_RANDOM_BITS64:
        return t == EM_UINT64 || t == EM_INT64;
    case EM_RANDOM_BITS32:
        return t == EM_UINT32 || t == EM_INT32;
    case EM_RANDOM_UNIFORM:
        return t == EM_FLOAT64;
    case EM_RANDOM_UNIFORM32:
        return t == EM_FLOAT32;
    case EM_RANDOM_NORMAL:
    case EM_RANDOM_EXPONENTIAL:
    case EM_RANDOM_GAMMA:
    case EM_RANDOM_LOGNORMAL:
    case EM_RANDOM_LAPLACE:
    case EM_RANDOM_LOGISTIC:
    case EM_RANDOM_GUMBEL:
    case EM_RANDOM_RAYLEIGH:
    case EM_RANDOM_WEIBULL:
    case EM_RANDOM_PARETO:
    case EM_RANDOM_POWER:
    case EM_RANDOM_CAUCHY:
        return t == EM_FLOAT32 || t == EM_FLOAT64;
    case EM_RANDOM_VONMISES:
        return t == EM_FLOAT64;
    case EM_RANDOM_POISSON:
    case EM_RANDOM_BINOMIAL:
    case EM_RANDOM_GEOMETRIC:
    case EM_RANDOM_ZIPF:
    case EM_RANDOM_LOGSERIES:
    case EM_RANDOM_HYPERGEOMETRIC:
        return t == EM_INT64;
    case EM_RANDOM_INTEGERS:
        return t == EM_INT32 || t == EM_INT64 || t == EM_UINT32 ||
               t == EM_UINT64;
    default:
        return 0;
    }
}

/* The 16-byte vector of a 4- or 8-byte element type. */
static const char *vec_type(em_dtype t)
{
    switch (t) {
    case EM_FLOAT32:
        return "float4";
    case EM_FLOAT64:
        return "double2";
    case EM_INT32:
        return "int4";
    case EM_UINT32:
        return "uint4";
    case EM_INT64:
        return "longlong2";
    default:
        return "ulonglong2";
    }
}

/* The LCG power for k steps of PCG64's LCG (or PCG64DXSM's, `cheap`:
 * its 64-bit multiplier) with increment inc: state' = m state + a
 * (Brown's method, as the kernels' jump). 128-bit integers are a GCC and
 * Clang extension, which every host ember builds on has. */
static void pcg_power(int cheap, uint64_t inc_hi, uint64_t inc_lo, uint64_t k,
                      uint64_t out[4])
{
    typedef unsigned __int128 u128;
    u128 am = 1, aa = 0,
         m = cheap ? (u128)0xDA942042E4DD58B5ULL
                   : ((u128)0x2360ED051FC65DA4ULL << 64) | 0x4385DF649FCCF645ULL,
         a = ((u128)inc_hi << 64) | inc_lo;
    for (; k; k >>= 1) {
        if (k & 1) {
            am *= m;
            aa = aa * m + a;
        }
        a *= m + 1;
        m *= m;
    }
    out[0] = (uint64_t)(am >> 64);
    out[1] = (uint64_t)am;
    out[2] = (uint64_t)(aa >> 64);
    out[3] = (uint64_t)aa;
}

/* Whether d's cuda module has the lane layout's kernel, rnd_fill_lanes
 * (kernels/random_lanes.cuh): PCG64 word draws, float32 normals too. */
static int lane_kind(const rnd_desc *d)
{
    return d->gen == EM_RANDOM_PCG64 &&
           (d->dist <= EM_RANDOM_EXPONENTIAL || d->dist == EM_RANDOM_LOGNORMAL);
}

/* The kernel source of d for a cuda or a host device (NULL: out of
 * memory). */
static char *source(const rnd_desc *d, int cuda)
{
    em_dtype t = (em_dtype)d->dtype;
    em_sb b = {0};
    em_sb_printf(&b,
                 "/* ember random: distribution %u, %s */\n"
                 "#define RND_CUDA %d\n#define RND_DIST %u\n#define RND_GEN %u\n"
                 "#define RND_T %s\n#define RND_F32 %d\n#define RND_VEC %s\n"
                 "#define RND_VW %d\n#define RND_LANE_R %d\n",
                 d->dist, em_dtype_get(t)->name, cuda, d->dist, d->gen,
                 em_gen_ctype(t), t == EM_FLOAT32, vec_type(t),
                 16 / (int)em_dtype_size(t), RND_LANE_R);
    em_sb_puts(&b, em_embedded_random_bits_cuh);
    em_sb_puts(&b, em_embedded_random_math_cuh);
    em_sb_puts(&b, em_embedded_random_ziggurat_cuh);
    em_sb_puts(&b, em_embedded_random_fill_cuh);
    if (cuda && lane_kind(d))
        em_sb_puts(&b, em_embedded_random_lanes_cuh);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

static em_status load(const void *ctx, em_device *dev, em_function **fn)
{
    static const char *const names[2] = {"rnd_fill", "rnd_fill_lanes"};
    static const char *const host_opts[] = {"-O2"};
    /* No fused multiply-adds: the draws must round as on the host. The
     * PCG64 step is a 128-bit multiply (random_bits.cuh's rnd_madd128),
     * which NVRTC compiles as such only with __int128 allowed. */
    static const char *const cuda_opts[] = {"--fmad=false",
                                            "--device-int128"};
    const rnd_desc *d = ctx;
    int cuda = em_device_get_type(dev) == EM_DEVICE_CUDA;
    const char *check = em_knob_text(EM_KNOB_CKERNEL_CHECK_CUDA);
    char *src;

    /* Tests on a machine without a GPU: NVRTC reads the cuda variant too,
     * so a CUDA-only slip fails there and not first on a GPU. */
    if (!cuda && check && strcmp(check, "0")) {
        em_code *code = NULL;
        em_status st;
        if (!(src = source(d, 1)))
            return em_error(EM_ERR_OUT_OF_MEMORY,
                            "out of memory generating a random kernel");
        st = em_compile_cuda(src, "ember_random", cuda_opts, 2, 90,
                             EM_CODE_PTX, &code, NULL);
        free(src);
        em_code_free(code);
        if (st != EM_OK)
            return st;
    }
    if (!(src = source(d, cuda)))
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of memory generating a random kernel");
    return em_gen_kt_compile(dev, src, cuda ? cuda_opts : host_opts,
                             cuda ? 2 : 1,
                             RND_VERSION, names, cuda && lane_kind(d) ? 2 : 1,
                             fn);
}

em_status em_random_fill(em_array *out, const em_random_stream *st,
                         em_random_dist dist, const em_random_params *p,
                         em_stream *s)
{
    em_function *fn[EM_GEN_KT_FNS] = {NULL};
    em_gen_kkey key = {{0}, NULL};
    rnd_desc d;
    em_device *dev;
    em_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    int64_t n, per;
    unsigned shmem = 0;
    int vec, words;
    uint64_t jump[4] = {0, 1, 0, 0}; /* the identity (unused by Philox) */
    em_status rc;
    int half, lanes;

    if (!out || !st || !p)
        return em_error(EM_ERR_INVALID_VALUE, "em_random_fill: NULL argument");
    if ((unsigned)dist >= EM_RANDOM_DIST_COUNT ||
        (st->gen != EM_RANDOM_PCG64 && st->gen != EM_RANDOM_PHILOX &&
         st->gen != EM_RANDOM_PCG64DXSM) ||
        st->npre < 0 || st->npre > 3)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_random_fill: distribution %d, generator %d, %d "
                        "buffered words",
                        (int)dist, (int)st->gen, st->npre);
    if (!dtype_ok(dist, out->dtype))
        return em_error(EM_ERR_TYPE,
                        "random distribution %d cannot write dtype %s",
                        (int)dist, em_dtype_get(out->dtype)->name);
    if (!(out->flags & EM_ARRAY_C_CONTIGUOUS) ||
        !(out->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE,
                        "random output must be C-contiguous and writeable");
    n = out->size;
    for (int i = 0; i < 2; i++) {
        const em_array *q = i ? p->pb : p->pa;
        if (q && (q->dtype != EM_FLOAT64 || q->size != n ||
                  q->device != out->device ||
                  !(q->flags & EM_ARRAY_C_CONTIGUOUS) ||
                  dist < EM_RANDOM_UNIFORM || dist == EM_RANDOM_UNIFORM32))
            return em_error(EM_ERR_INVALID_VALUE,
                            "random parameter array %s: needs float64, "
                            "C-contiguous, %lld elements on the output's "
                            "device, for a distribution with parameters (got "
                            "%s, %lld "
                            "elements, distribution %d)",
                            i ? "pb" : "pa", (long long)n,
                            em_dtype_get(q->dtype)->name, (long long)q->size,
                            (int)dist);
    }
    if (n == 0)
        return EM_OK;
    dev = out->device;
    /* a family shares its kernel (dist is an argument): the one-word
     * transforms, and the keyed integer draws */
    d.dist = (uint32_t)((dist >= EM_RANDOM_ZIPF &&
                         dist <= EM_RANDOM_HYPERGEOMETRIC)
                            ? EM_RANDOM_ZIPF
                        : (dist >= EM_RANDOM_LOGNORMAL && dist < EM_RANDOM_ZIPF)
                            ? EM_RANDOM_LOGNORMAL
                            : dist);
    d.dtype = (uint32_t)out->dtype;
    /* the draws from the word stream (the rest are keyed) */
    words = d.dist <= EM_RANDOM_EXPONENTIAL || d.dist == EM_RANDOM_LOGNORMAL;
    d.gen = words ? (uint32_t)st->gen : 0;
    memcpy(key.w, &d, sizeof d);

    /* two elements a word: the draws from 32-bit halves */
    half = dist == EM_RANDOM_BITS32 || dist == EM_RANDOM_UNIFORM32 ||
           (dist == EM_RANDOM_NORMAL && out->dtype == EM_FLOAT32);
    vec = ((uintptr_t)out->data & 15) == 0;
    /* the lane layout where the stream starts on a word at element 0 and
     * the output is aligned for its pair stores (float32 normals: the
     * ziggurat's deferred draws, about 1%, are read back from out at a
     * segment's end, random_lanes.cuh) */
    lanes = em_device_get_type(dev) == EM_DEVICE_CUDA && lane_kind(&d) &&
            st->npre == 0 && !(half && st->has32) && vec &&
            /* the lane normals take loc and scale as scalars only */
            !(dist == EM_RANDOM_NORMAL && half && (p->pa || p->pb));
    if ((rc = em_gen_kt_get(&random_table, dev, &key, lanes ? 2 : 1, fn, load,
                            &d)) != EM_OK)
        return rc;
    if (lanes) {
        int64_t nw = half ? (n + 1) / 2 : n,
                segs = (nw + 32 * RND_LANE_R - 1) / (32 * RND_LANE_R),
                blocks = (segs * 32 + RND_BLOCK - 1) / RND_BLOCK,
                /* 4 blocks an SM wrote 3,340 GB/s; 2: 3,100, 8: 3,320 */
                cap = (int64_t)em_gen_device_units(dev) * 4;
        per = 0;
        block.x = RND_BLOCK;
        grid.x = (unsigned)(blocks < cap ? blocks : cap);
    } else if (em_device_get_type(dev) == EM_DEVICE_CUDA) {
        int64_t runs, blocks,
            /* a full device (2048 threads an SM): each thread's first run
             * costs a log-time jump, so no more threads than fill the
             * device */
            cap = (int64_t)em_gen_device_units(dev) * 8;
        per = RND_RUN_BYTES / (int64_t)em_dtype_size(out->dtype);
        runs = (n + per - 1) / per;
        blocks = (runs + RND_BLOCK - 1) / RND_BLOCK;
        block.x = RND_BLOCK;
        grid.x = (unsigned)(blocks < cap ? blocks : cap);
        if (words)
            shmem = RND_BLOCK * RND_STAGE_BYTES; /* their runs are staged */
    } else {
        /* One run a host thread: a few per core, and at least 16384
         * elements each, so the jump at a run's start costs nothing. */
        int64_t units = em_gen_device_units(dev) * 4;
        per = (n + units - 1) / units;
        if (per < 16384)
            per = 16384;
        per = (per + 7) & ~(int64_t)7;
        grid.x = (unsigned)((n + per - 1) / per);
    }
    if (lanes) {
        /* from a lane's word past its segment to its next segment's */
        pcg_power(0, st->words[2], st->words[3],
                  ((uint64_t)grid.x * block.x - 32) * RND_LANE_R, jump);
    } else if (st->gen == EM_RANDOM_PCG64 || st->gen == EM_RANDOM_PCG64DXSM) {
        /* the words between a thread's successive runs' starts */
        uint64_t stride = (uint64_t)grid.x * block.x * (uint64_t)per;
        if (half)
            stride /= 2;
        pcg_power(st->gen == EM_RANDOM_PCG64DXSM, st->words[2], st->words[3],
                  stride, jump);
    }
    {
        void *op = out->data, *pa = p->pa ? p->pa->data : NULL,
             *pb = p->pb ? p->pb->data : NULL;
        unsigned long long j[4] = {jump[0], jump[1], jump[2], jump[3]};
        unsigned long long w[6], pre[3], c0 = p->c0, c1 = p->c1;
        int npre = st->npre, has32 = st->has32 ? 1 : 0, kd = (int)dist;
        unsigned h32 = st->half;
        double a = p->a, b = p->b;
        /* the generator is the kernel's RND_GEN, built in */
        void *args[] = {&op,     &n,      &per,    &w[0],  &w[1],
                        &w[2],   &w[3],   &w[4],   &w[5],  &npre,  &pre[0],
                        &pre[1], &pre[2], &has32,  &h32,   &a,     &b,
                        &c0,     &c1,     &vec,   &pa,    &pb,
                        &j[0],   &j[1],   &j[2],  &j[3],  &kd};
        for (int i = 0; i < 6; i++)
            w[i] = st->words[i];
        for (int i = 0; i < 3; i++)
            pre[i] = st->pre[i];
        return em_launch(fn[lanes ? 1 : 0], grid, block, shmem, s, args);
    }
}
