/* ember fuse: recorded elementwise groups against eager results, on the
 * cpu device (EMBER_TEST_DEVICE=cuda:0 runs them on a GPU): one kernel a
 * group, dropped temporaries, a write to an input after its read was
 * recorded, a group of another shape, and the switch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "codegen/reduce.h"
#include "ember/array.h"
#include "fuse/fuse_internal.h"
#include "sample.h"
#include "ember/fuse.h"
#include "ember/ufunc.h"

#define N 200000 /* half of it still over the cpu device's smallest fused group */

static em_device *dev;

static void filled(float base, em_array *out)
{
    float *h = malloc(N * sizeof *h);
    int64_t n = N;
    for (int i = 0; i < N; i++)
        h[i] = base + (float)(i % 97) * 0.37f;
    CHECK_OK(em_array_empty(dev, EM_FLOAT32, 1, &n, 'C', NULL, out));
    CHECK_OK(em_array_from_host(out, h, NULL, NULL));
    free(h);
}

static em_operand arr(em_array *a)
{
    em_operand o;
    memset(&o, 0, sizeof o);
    o.array = a;
    o.dtype = a->dtype;
    return o;
}

/* out = op(x, y), recorded where fusion may (lazy) or launched. */
static void bin(em_op op, em_array *x, em_array *y, em_array *out, int lazy)
{
    em_operand in[2] = {arr(x), arr(y)};
    memset(out, 0, sizeof *out);
    CHECK_OK(lazy ? em_ufunc_apply_lazy(op, in, 2, out, NULL, NULL)
                  : em_ufunc_apply(op, in, 2, out, NULL, NULL));
}

static float *host(em_array *a)
{
    float *h = malloc((size_t)a->size * sizeof *h);
    CHECK_OK(em_array_to_host(a, h, NULL, NULL));
    return h;
}

static void same(em_array *got, em_array *want)
{
    float *g = host(got), *w = host(want);
    CHECK(!memcmp(g, w, (size_t)want->size * sizeof *g));
    free(g);
    free(w);
}

/* a * b + c - a: one kernel, the temporaries dropped before it runs. */
static void test_group(void)
{
    em_array a, b, c, t, u, r, e1, e2, e3;
    uint64_t k0;
    filled(1.0f, &a);
    filled(2.5f, &b);
    filled(-3.0f, &c);
    k0 = em_fuse_launch_count();
    bin(EM_OP_MULTIPLY, &a, &b, &t, 1);
    bin(EM_OP_ADD, &t, &c, &u, 1);
    em_array_release(&t);
    bin(EM_OP_SUBTRACT, &u, &a, &r, 1);
    em_array_release(&u);
    CHECK(atomic_load(&em_fuse_pending_n) == 3);
    bin(EM_OP_MULTIPLY, &a, &b, &e1, 0); /* eager: runs the group first */
    CHECK(atomic_load(&em_fuse_pending_n) == 0);
    CHECK(em_fuse_launch_count() == k0 + 1);
    bin(EM_OP_ADD, &e1, &c, &e2, 0);
    bin(EM_OP_SUBTRACT, &e2, &a, &e3, 0);
    same(&r, &e3);
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&c);
    em_array_release(&r);
    em_array_release(&e1);
    em_array_release(&e2);
    em_array_release(&e3);
}

/* t = a * a recorded, then a written in place: t keeps the old a's. */
static void test_write_after_read(void)
{
    em_array a, a2, t, want;
    em_operand in[2];
    filled(0.5f, &a);
    filled(0.5f, &a2);
    bin(EM_OP_MULTIPLY, &a, &a, &t, 1);
    in[0] = arr(&a);
    in[1] = arr(&a);
    CHECK_OK(em_ufunc_apply(EM_OP_ADD, in, 2, &a, NULL, NULL)); /* a += a */
    bin(EM_OP_MULTIPLY, &a2, &a2, &want, 0);
    same(&t, &want);
    em_array_release(&a);
    em_array_release(&a2);
    em_array_release(&t);
    em_array_release(&want);
}

/* An operation of another shape runs the open group, then starts one. */
static void test_shapes_and_switch(void)
{
    em_array a, b, t, s, v, w;
    em_slice half = {0, N / 2, 1};
    uint64_t k0 = em_fuse_launch_count();
    filled(1.0f, &a);
    filled(2.0f, &b);
    bin(EM_OP_ADD, &a, &b, &t, 1);
    CHECK_OK(em_array_slice(&a, &half, &v));
    CHECK_OK(em_array_slice(&b, &half, &w));
    bin(EM_OP_ADD, &v, &w, &s, 1);
    CHECK(em_fuse_launch_count() == k0 + 1);
    CHECK(atomic_load(&em_fuse_pending_n) == 1);
    CHECK_OK(em_fuse_flush());
    CHECK(em_fuse_launch_count() == k0 + 2);
    em_fuse_set_state(0);
    em_array_release(&s);
    bin(EM_OP_ADD, &v, &w, &s, 1);
    CHECK(atomic_load(&em_fuse_pending_n) == 0);
    CHECK(em_fuse_launch_count() == k0 + 2);
    em_fuse_set_state(1);
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&t);
    em_array_release(&s);
    em_array_release(&v);
    em_array_release(&w);
}

/* The cuda source of a fused reduction over a recorded a * b + c, for
 * each schedule and vector width, its leaves read an element or (with
 * vectors) a vector at a time, compiles with NVRTC (no GPU needed). */
static void test_reduce_sources_compile(void)
{
    static const uint8_t scheds[][3] = {
        /* sched, vec, split */
        {EM_GEN_RED_ROWS, 1, 0}, {EM_GEN_RED_ROWS, 4, 0},
        {EM_GEN_RED_ROWS, 4, 1}, {EM_GEN_RED_WARP, 1, 0},
        {EM_GEN_RED_COLS, 1, 0}, {EM_GEN_RED_COLS, 1, 1}};
    em_array a, b, c, t, u;
    filled(1.0f, &a);
    filled(2.0f, &b);
    filled(3.0f, &c);
    bin(EM_OP_MULTIPLY, &a, &b, &t, 1);
    bin(EM_OP_ADD, &t, &c, &u, 1);
    CHECK(atomic_load(&em_fuse_pending_n) == 2);
    for (size_t i = 0; i < sizeof scheds / sizeof *scheds; i++)
        for (int op = 0; op < 4; op++) {
            const int vleaf = op >> 1;
            em_gen_reduce d;
            em_code *code = NULL;
            char *src = NULL, *log = NULL;
            memset(&d, 0, sizeof d);
            d.op = (uint8_t)(op & 1 ? EM_RED_MAX : EM_RED_SUM);
            d.in = EM_FLOAT32;
            d.compute = EM_FLOAT32;
            d.out = EM_FLOAT32;
            d.sched = scheds[i][0];
            d.vec = scheds[i][1];
            d.split = scheds[i][2];
            if (vleaf && d.vec == 1)
                continue;
            CHECK_OK(em_fz_reduce_source(&d, 1, vleaf, &src));
            if (src) {
                em_status st = em_compile_cuda(src, "fused_reduce",
                                               sample_nvrtc_opts,
                                               SAMPLE_NVRTC_NOPTS, 90,
                                               EM_CODE_PTX, &code, &log);
                CHECK(st == EM_OK);
                if (st != EM_OK)
                    fprintf(stderr, "%s\n%s\n", em_last_error(),
                            log ? log : "");
            }
            em_code_free(code);
            free(log);
            free(src);
        }
    CHECK_OK(em_fuse_flush());
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&c);
    em_array_release(&t);
    em_array_release(&u);
}

int main(void)
{
    int nvrtc;
    const char *spec = getenv("EMBER_TEST_DEVICE");
    if (em_device_parse(spec && *spec ? spec : "cpu", &dev) != EM_OK) {
        fprintf(stderr, "no device %s: %s\n", spec, em_last_error());
        return 77;
    }
    em_fuse_set_state(1);
    test_group();
    test_write_after_read();
    test_shapes_and_switch();
    if ((nvrtc = check_nvrtc("test_fuse")) < 0)
        return 1;
    if (nvrtc)
        test_reduce_sources_compile();
    CHECK_OK(em_device_synchronize(dev));
    return check_report("test_fuse");
}
