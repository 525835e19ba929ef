/* The elementwise generator: every op's every loop compiles contiguous,
 * and every layout class with a rotating sample of the loops (sample.h:
 * each op meets each layout, each dtype meets each layout), with NVRTC
 * (to PTX for sm_90: no GPU needed, so CI catches CUDA-side errors) and
 * with the host C compiler; contiguous kernels use
 * 16-byte vector accesses; the 32-bit divider is exact; and a repeated
 * ufunc call compiles nothing. NVRTC missing fails the test unless
 * EMBER_TEST_NO_NVRTC=1 says so on purpose. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "array/ufunc_internal.h"
#include "check.h"
#include "codegen/ewise.h"
#include "sample.h"
#include "ember/ufunc.h"

static int have_nvrtc = 1;
static double compile_seconds[2];

/* One loop in LAYOUT_EVERY gets each non-contiguous layout in a run. The
 * layout code is shared by all loops and the dtype code by all layouts;
 * their meeting points (vector width, half pairs, casts on load) are
 * reached through the rotation, which walks every dtype and every op. */
enum { LAYOUT_EVERY = 6, CAST_EVERY = 4 };

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A growing program of several kernels (k0, k1, ...). */
typedef struct prog {
    char *src;
    size_t len;
    int n;
} prog;

static void prog_add(prog *p, const em_gen_ewise *d, em_device_type target)
{
    char name[32], *s = NULL;
    size_t l;
    snprintf(name, sizeof name, "k%d", p->n);
    CHECK_OK(em_gen_ewise_source(d, target, name, &s));
    if (!s)
        return;
    l = strlen(s);
    p->src = realloc(p->src, p->len + l + 2);
    memcpy(p->src + p->len, s, l + 1);
    p->len += l;
    p->n++;
    free(s);
}

static void prog_compile(prog *p, em_device_type target, const char *what)
{
    em_code *c = NULL;
    char *log = NULL;
    em_status st;
    int n_opts;
    const char *const *opts = em_gen_ewise_options(target, &n_opts);
    double t0 = now_s();
    if (!p->n)
        return;
    if (target == EM_DEVICE_CUDA) {
        /* The generator's options and the compile-check ones. */
        const char *all[8];
        int n_all = 0;
        for (int i = 0; i < n_opts && n_all < 7; i++)
            all[n_all++] = opts[i];
        all[n_all++] = sample_nvrtc_opts[0];
        st = em_compile_cuda(p->src, what, all, n_all, 90, EM_CODE_PTX, &c,
                             &log);
    } else {
        /* Whether the C compiles is the question here; optimising
         * thousands of kernels would take minutes (test_ufunc runs the
         * optimised ones). */
        static const char *const o0[] = {"-O0"};
        (void)opts;
        st = em_compile_host(p->src, what, o0, 1, &c, &log);
    }
    compile_seconds[target == EM_DEVICE_CUDA] += now_s() - t0;
    check_count++;
    if (st != EM_OK) {
        check_failures++;
        fprintf(stderr, "%s (%s, %d kernels) failed: %s\n", what,
                target == EM_DEVICE_CUDA ? "nvrtc" : "cc", p->n,
                em_last_error());
    }
    em_code_free(c);
    free(log);
    free(p->src);
    memset(p, 0, sizeof *p);
}

/* Descriptors covering one loop: contiguous (widest vectors, and a scalar
 * operand), strided 32-bit with a mask and every inner-stride class, and
 * strided 64-bit reading another dtype and writing another. */
static int loop_descs(em_op op, const em_ufunc_loop *l, em_device_type target,
                      em_gen_ewise *d)
{
    const em_op_info *info = em_op_get(op);
    int n = 0, nin = info->nin;
    size_t widest = em_dtype_size((em_dtype)l->out);
    for (int k = 0; k < nin; k++)
        if (em_dtype_size((em_dtype)l->in[k]) > widest)
            widest = em_dtype_size((em_dtype)l->in[k]);
    memset(d, 0, 8 * sizeof *d);
    for (int i = 0; i < 8; i++) {
        d[i].op = (uint8_t)op;
        d[i].out = d[i].loop_out = l->out;
        d[i].ndim = 1;
        d[i].vec = 1;
        for (int k = 0; k < nin; k++)
            d[i].loop_in[k] = d[i].src[k] = l->in[k];
        if (target == EM_DEVICE_CPU)
            d[i].idx64 = 1;
    }
    d[n].layout = EM_GEN_CONTIG;
    if (target == EM_DEVICE_CUDA)
        d[n].vec = (uint8_t)(16 / widest);
    n++;
    d[n].layout = EM_GEN_CONTIG;
    d[n].src[nin - 1] = EM_GEN_SCALAR;
    d[n].idx64 = 1;
    n++;
    d[n].layout = EM_GEN_STRIDED;
    d[n].ndim = 3;
    d[n].where = 1;
    d[n].inner[EM_GEN_SLOT_OUT] = EM_GEN_INNER_UNIT;
    d[n].inner[EM_GEN_SLOT_IN0] = EM_GEN_INNER_ZERO;
    d[n].inner[EM_GEN_SLOT_IN1] = EM_GEN_INNER_ANY;
    d[n].inner[EM_GEN_SLOT_MASK] = EM_GEN_INNER_UNIT;
    n++;
    d[n].layout = EM_GEN_STRIDED;
    d[n].ndim = 2;
    d[n].idx64 = 1;
    /* Read input 0 as int8 (cast in the kernel: safe into any loop but
     * bool) and write complex128 or float64. */
    if (l->in[0] != EM_BOOL)
        d[n].src[0] = EM_INT8;
    d[n].out =
        em_ufunc_kind_rank((em_dtype)l->out) == 3 ? EM_COMPLEX128 : EM_FLOAT64;
    n++;
    if (target == EM_DEVICE_CUDA && widest < 16) {
        /* Strided with vectors along the last axis: input 0 a row, input
         * 1 broadcast along it. */
        d[n].layout = EM_GEN_STRIDED;
        d[n].ndim = 2;
        d[n].vec = (uint8_t)(16 / widest);
        d[n].inner[EM_GEN_SLOT_OUT] = EM_GEN_INNER_UNIT;
        d[n].inner[EM_GEN_SLOT_IN0] = EM_GEN_INNER_UNIT;
        d[n].inner[EM_GEN_SLOT_IN1] = EM_GEN_INNER_ZERO;
        n++;
    }
    if (target == EM_DEVICE_CUDA) {
        /* Tiled: input 0 through shared memory, input 1 read directly. */
        d[n].layout = EM_GEN_TILED;
        d[n].ndim = 2;
        d[n].idx64 = 0;
        d[n].where = 1;
        d[n].inner[EM_GEN_SLOT_IN0] = EM_GEN_INNER_TILE;
        n++;
        if (nin == 2) {
            /* Both tiled, the first a scalar-free float16 read. */
            d[n] = d[n - 1];
            d[n].where = 0;
            d[n].inner[EM_GEN_SLOT_IN1] = EM_GEN_INNER_TILE;
            n++;
        }
        if (widest == 2 && em_dtype_size((em_dtype)l->out) == 2) {
            /* 2-byte operands in pairs; input 1 (if any) read directly. */
            int all2 = 1;
            for (int k = 0; k < nin; k++)
                all2 &= em_dtype_size((em_dtype)l->in[k]) == 2;
            if (all2) {
                d[n].layout = EM_GEN_TILED;
                d[n].ndim = 2;
                d[n].vec = 2;
                d[n].inner[EM_GEN_SLOT_IN0] = EM_GEN_INNER_TILE;
                n++;
            }
        }
    }
    return n;
}

static void test_all_loops(em_device_type target)
{
    int kernels = 0;
    for (int op = 0; op < EM_OP_COUNT; op++) {
        int nl;
        const em_ufunc_loop *loops = em_ufunc_loops((em_op)op, &nl);
        prog p = {0};
        char what[64];
        int ok = 0, every;
        CHECK(nl > 0);
        for (int i = 0; i < nl; i++) {
            em_dtype li[2] = {(em_dtype)loops[i].in[0],
                              (em_dtype)loops[i].in[1]};
            ok += em_ufunc_check_supported((em_op)op, li) == EM_OK;
        }
        /* An op with fewer loops than the stride is checked whole. */
        every = ok < LAYOUT_EVERY ? 1 : LAYOUT_EVERY;
        for (int i = 0; i < nl; i++) {
            em_gen_ewise d[8];
            em_dtype li[2] = {(em_dtype)loops[i].in[0],
                              (em_dtype)loops[i].in[1]};
            int nd;
            if (em_ufunc_check_supported((em_op)op, li) != EM_OK)
                continue;
            nd = loop_descs((em_op)op, &loops[i], target, d);
            for (int k = 0; k < nd; k++)
                if (k == 0 || sample_pick((unsigned)op, loops[i].in[0],
                                           (unsigned)k, (unsigned)every))
                    prog_add(&p, &d[k], target);
        }
        kernels += p.n;
        snprintf(what, sizeof what, "ewise_%s.cu", em_op_get((em_op)op)->name);
        prog_compile(&p, target, what);
    }
    printf("%s: %d elementwise kernels compiled in %.1f s\n",
           target == EM_DEVICE_CUDA ? "nvrtc" : "cc", kernels,
           compile_seconds[target == EM_DEVICE_CUDA]);
}

/* Every cast contiguous; strided and tiled for a rotating 1 in CAST_EVERY
 * of the pairs (each source and each target dtype in each layout). */
static void test_all_casts(em_device_type target)
{
    prog p = {0};
    int kernels = 0;
    for (int s = 0; s < EM_DTYPE_COUNT; s++)
        for (int t = 0; t < EM_DTYPE_COUNT; t++) {
            em_gen_ewise d;
            memset(&d, 0, sizeof d);
            d.op = EM_OP_COPY;
            d.loop_in[0] = d.src[0] = d.loop_out = (uint8_t)s;
            d.out = (uint8_t)t;
            d.ndim = 1;
            d.vec = target == EM_DEVICE_CUDA ? 2 : 1;
            d.idx64 = target == EM_DEVICE_CPU;
            prog_add(&p, &d, target);
            if (!sample_pick((unsigned)s, (unsigned)t, 0, CAST_EVERY))
                continue;
            d.layout = EM_GEN_STRIDED;
            d.ndim = 4;
            d.vec = 1;
            prog_add(&p, &d, target);
            if (target == EM_DEVICE_CUDA) {
                d.layout = EM_GEN_TILED;
                d.ndim = 2;
                d.idx64 = 1;
                d.inner[EM_GEN_SLOT_IN0] = EM_GEN_INNER_TILE;
                prog_add(&p, &d, target);
                if (em_dtype_size((em_dtype)s) == 2 &&
                    em_dtype_size((em_dtype)t) == 2) {
                    d.vec = 2;
                    prog_add(&p, &d, target);
                    d.vec = 1;
                }
            }
        }
    kernels = p.n;
    prog_compile(&p, target, "ewise_casts.cu");
    printf("%s: %d cast kernels\n", target == EM_DEVICE_CUDA ? "nvrtc" : "cc",
           kernels);
}

static int contains(const void *hay, const char *needle)
{
    return hay && strstr((const char *)hay, needle) != NULL;
}

/* A contiguous float32 add with vec 4 loads and stores 16 bytes at a time. */
static void test_vector_ptx(void)
{
    em_gen_ewise d;
    char *src = NULL;
    em_code *c = NULL;
    memset(&d, 0, sizeof d);
    d.op = EM_OP_ADD;
    d.out = d.loop_out = d.loop_in[0] = d.loop_in[1] = d.src[0] = d.src[1] =
        EM_FLOAT32;
    d.ndim = 1;
    d.vec = 4;
    CHECK_OK(em_gen_ewise_source(&d, EM_DEVICE_CUDA, "vadd4", &src));
    CHECK_OK(
        em_compile_cuda(src, "vadd4.cu", NULL, 0, 90, EM_CODE_PTX, &c, NULL));
    if (c) {
        CHECK(contains(c->data, "ld.global.v4.f32") ||
              contains(c->data, "ld.global.v4.u32") ||
              contains(c->data, "ld.global.v4.b32"));
        CHECK(contains(c->data, "st.global.v4.f32") ||
              contains(c->data, "st.global.v4.u32") ||
              contains(c->data, "st.global.v4.b32"));
        em_code_free(c);
        c = NULL;
    }
    free(src);
    /* float16 with vec 8: still 16-byte accesses. */
    d.out = d.loop_out = d.loop_in[0] = d.loop_in[1] = d.src[0] = d.src[1] =
        EM_FLOAT16;
    d.vec = 8;
    CHECK_OK(em_gen_ewise_source(&d, EM_DEVICE_CUDA, "hadd8", &src));
    CHECK_OK(
        em_compile_cuda(src, "hadd8.cu", NULL, 0, 90, EM_CODE_PTX, &c, NULL));
    if (c) {
        CHECK(contains(c->data, ".v4.") || contains(c->data, ".v2.u64") ||
              contains(c->data, ".v2.b64"));
        CHECK(contains(c->data, "cvt.rn.f16.f32"));
        em_code_free(c);
    }
    free(src);
}

/* Bad descriptors are refused, not miscompiled. */
static void test_bad_desc(void)
{
    em_gen_ewise d;
    char *src = NULL;
    memset(&d, 0, sizeof d);
    d.op = EM_OP_COUNT;
    d.ndim = 1;
    d.vec = 1;
    CHECK_STATUS(em_gen_ewise_source(&d, EM_DEVICE_CPU, "x", &src),
                 EM_ERR_INVALID_VALUE);
    d.op = EM_OP_ADD;
    d.vec = 3;
    CHECK_STATUS(em_gen_ewise_source(&d, EM_DEVICE_CPU, "x", &src),
                 EM_ERR_INVALID_VALUE);
    d.vec = 1;
    d.src[0] = 40;
    CHECK_STATUS(em_gen_ewise_source(&d, EM_DEVICE_CPU, "x", &src),
                 EM_ERR_INVALID_VALUE);
    CHECK(src == NULL);
}

/* q = (umulhi(n, mul) + n) >> shift must be n / d for n < 2^31. */
static void test_divider(void)
{
    uint64_t x = 88172645463325252ull;
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        uint32_t d, n, mul, sh, q;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        d = (uint32_t)(x % 3 == 0 ? (x >> 33) % 64 + 1
                                  : (x >> 20) % 0x7fffffffu + 1);
        n = (uint32_t)((x >> 7) % 0x80000000u);
        if (i < 64) {
            d = (uint32_t)i + 1;
            n = 0x7fffffffu - (uint32_t)i;
        }
        em_gen_divider(d, &mul, &sh);
        q = (uint32_t)(((uint64_t)n * mul >> 32) + n) >> sh;
        bad += q != n / d;
    }
    em_gen_divider(0x80000000u, &(uint32_t){0}, &(uint32_t){0});
    CHECK(bad == 0);
}

/* A repeated apply builds no source and compiles nothing. */
static void test_repeat(void)
{
    em_device *cpu;
    em_array a, out;
    em_operand in[2];
    em_kernel_cache_stats s0, s1;
    int64_t n = 1000;
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &cpu));
    CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 1, &n, 'C', NULL, &a));
    CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 1, &n, 'C', NULL, &out));
    if (!a.storage || !out.storage)
        return;
    memset(in, 0, sizeof in);
    in[0].array = &a;
    in[1].weak = 1;
    in[1].dtype = EM_FLOAT64;
    in[1].value.f = 0.25;
    CHECK_OK(em_ufunc_apply(EM_OP_LOGADDEXP, in, 2, &out, NULL, NULL));
    em_kernel_cache_get_stats(&s0);
    for (int i = 0; i < 50; i++) {
        in[1].value.f = i; /* scalars are arguments, not part of the kernel */
        CHECK_OK(em_ufunc_apply(EM_OP_LOGADDEXP, in, 2, &out, NULL, NULL));
    }
    em_kernel_cache_get_stats(&s1);
    CHECK(s1.compiles == s0.compiles);
    CHECK(s1.memory_hits == s0.memory_hits && s1.disk_hits == s0.disk_hits);
    CHECK_OK(em_device_synchronize(cpu));
    em_array_release(&a);
    em_array_release(&out);
}

int main(void)
{
    if ((have_nvrtc = check_nvrtc("test_ewise_gen")) < 0)
        return 1;
    sample_seed("test_ewise_gen");
    test_divider();
    test_bad_desc();
    if (have_nvrtc) {
        test_vector_ptx();
        test_all_loops(EM_DEVICE_CUDA);
        test_all_casts(EM_DEVICE_CUDA);
    }
    test_all_loops(EM_DEVICE_CPU);
    test_all_casts(EM_DEVICE_CPU);
    test_repeat();
    return check_report("test_ewise_gen");
}
