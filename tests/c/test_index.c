/* Gather/scatter and compaction kernels: every descriptor class compiles
 * with NVRTC (PTX for sm_90, no GPU needed) and with the host compiler;
 * on cpu, take, nonzero, put and where agree with hand-computed results
 * and out-of-range indices give NumPy's message. NVRTC missing fails the
 * test unless EMBER_TEST_NO_NVRTC=1. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "codegen/gather.h"

static void compile_one(const em_gen_gather *d, em_device_type target)
{
    char *src = NULL, *log = NULL;
    em_code *c = NULL;
    em_status st;
    static const char *const o0[] = {"-O0"};
    CHECK_OK(em_gen_gather_source(d, target,
                                  d->op == EM_GEN_COMPACT ? "gc"
                                  : d->op == EM_GEN_WHERE ? "gw"
                                                          : "gg",
                                  &src));
    if (!src)
        return;
    if (target == EM_DEVICE_CUDA)
        st = em_compile_cuda(src, "gather", NULL, 0, 90, EM_CODE_PTX, &c, &log);
    else
        st = em_compile_host(src, "gather", o0, 1, &c, &log);
    check_count++;
    if (st != EM_OK) {
        check_failures++;
        fprintf(stderr, "compile (%s) failed: %s\n%s\n%s\n",
                target == EM_DEVICE_CUDA ? "nvrtc" : "cc", em_last_error(),
                log ? log : "", src);
    }
    em_code_free(c);
    free(log);
    free(src);
}

static void test_compile(em_device_type target)
{
    static const int elems[] = {1, 2, 4, 8, 16};
    static const int idt[] = {EM_INT8,   EM_INT64, EM_UINT8,
                              EM_UINT64, EM_INT32, EM_UINT16};
    em_gen_gather d;
    for (int op = EM_GEN_GATHER; op <= EM_GEN_SCATTER; op++)
        for (int e = 0; e < 5; e++)
            for (int mode = 0; mode < 3; mode++) {
                memset(&d, 0, sizeof d);
                d.op = (uint8_t)op;
                d.elem = (uint8_t)elems[e];
                d.ndim = (uint8_t)(1 + (e + mode) % 3);
                d.nidx = (uint8_t)(1 + (e + op) % 3);
                d.mode = (uint8_t)mode;
                for (int k = 0; k < d.nidx; k++)
                    d.idx[k] = (uint8_t)idt[(e + k + mode) % 6];
                compile_one(&d, target);
            }
    for (int e = 0; e < 5; e++)
        for (int sc = 0; sc < 4; sc++) {
            memset(&d, 0, sizeof d);
            d.op = EM_GEN_WHERE;
            d.elem = (uint8_t)elems[e];
            d.ndim = (uint8_t)(1 + (e + sc) % 4);
            d.idx[0] = (uint8_t)(sc & 1);
            d.idx[1] = (uint8_t)(sc >> 1);
            compile_one(&d, target);
        }
    for (int r = 1; r <= 4; r++) {
        memset(&d, 0, sizeof d);
        d.op = EM_GEN_COMPACT;
        d.elem = 1;
        d.ndim = (uint8_t)r;
        compile_one(&d, target);
    }
}

static void test_bad_desc(void)
{
    em_gen_gather d;
    char *src = NULL;
    memset(&d, 0, sizeof d);
    d.elem = 3;
    d.ndim = 1;
    d.nidx = 1;
    d.idx[0] = EM_INT64;
    CHECK_STATUS(em_gen_gather_source(&d, EM_DEVICE_CPU, "gg", &src),
                 EM_ERR_INVALID_VALUE);
    d.elem = 4;
    d.idx[0] = EM_FLOAT32;
    CHECK_STATUS(em_gen_gather_source(&d, EM_DEVICE_CPU, "gg", &src),
                 EM_ERR_INVALID_VALUE);
    d.idx[0] = EM_INT64;
    d.ndim = 32;
    d.nidx = 24;
    CHECK_STATUS(em_gen_gather_source(&d, EM_DEVICE_CPU, "gg", &src),
                 EM_ERR_NOT_SUPPORTED);
    CHECK(src == NULL);
}

static em_array host_array(em_device *dev, em_dtype dt, int nd,
                           const int64_t *shape, const void *data)
{
    em_array a;
    memset(&a, 0, sizeof a);
    CHECK_OK(em_array_empty(dev, dt, nd, shape, 'C', NULL, &a));
    if (a.storage)
        CHECK_OK(em_array_from_host(&a, data, NULL, NULL));
    return a;
}

static void test_cpu(void)
{
    em_device *cpu;
    em_array a, ind, out, nz, vals;
    int64_t s1 = 6, s2[2] = {2, 3}, s3 = 3;
    int32_t av[6] = {10, 11, 12, 13, 14, 15}, got[6];
    int64_t iv[3] = {5, -1, 0}, bad[3] = {0, 6, 1}, nzv[6];
    unsigned char mv[6] = {0, 1, 1, 0, 0, 1};
    memset(&out, 0, sizeof out);
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &cpu));
    a = host_array(cpu, EM_INT32, 1, &s1, av);
    ind = host_array(cpu, EM_INT64, 1, &s3, iv);
    CHECK_OK(em_take(&a, &ind, 0, EM_INDEX_RAISE, &out, NULL));
    CHECK_OK(em_array_to_host(&out, got, NULL, NULL));
    CHECK(got[0] == 15 && got[1] == 15 && got[2] == 10);
    em_array_release(&out);
    em_array_release(&ind);

    ind = host_array(cpu, EM_INT64, 1, &s3, bad);
    CHECK_STATUS(em_take(&a, &ind, 0, EM_INDEX_RAISE, &out, NULL),
                 EM_ERR_INDEX);
    CHECK(strstr(em_last_error(),
                 "index 6 is out of bounds for axis 0 with size 6") != NULL);
    CHECK(out.storage == NULL);
    CHECK_OK(em_take(&a, &ind, 0, EM_INDEX_WRAP, &out, NULL));
    CHECK_OK(em_array_to_host(&out, got, NULL, NULL));
    CHECK(got[0] == 10 && got[1] == 10 && got[2] == 11);
    em_array_release(&out);
    CHECK_OK(em_take(&a, &ind, 0, EM_INDEX_CLIP, &out, NULL));
    CHECK_OK(em_array_to_host(&out, got, NULL, NULL));
    CHECK(got[0] == 10 && got[1] == 15 && got[2] == 11);
    em_array_release(&out);

    /* put with a scalar-sized value, then read back */
    {
        int32_t seven = 7;
        int64_t one = 1, pi[3] = {0, 2, 2};
        em_array pind = host_array(cpu, EM_INT64, 1, &s3, pi);
        vals = host_array(cpu, EM_INT32, 1, &one, &seven);
        CHECK_OK(em_put(&a, &pind, &vals, EM_INDEX_RAISE, NULL));
        CHECK_OK(em_array_to_host(&a, got, NULL, NULL));
        CHECK(got[0] == 7 && got[1] == 11 && got[2] == 7 && got[3] == 13);
        em_array_release(&vals);
        em_array_release(&pind);
    }

    /* nonzero of a (2, 3) mask */
    {
        em_array m = host_array(cpu, EM_BOOL, 2, s2, mv);
        CHECK_OK(em_nonzero(&m, &nz, NULL));
        CHECK(nz.ndim == 2 && nz.shape[0] == 2 && nz.shape[1] == 3);
        CHECK_OK(em_array_to_host(&nz, nzv, NULL, NULL));
        CHECK(nzv[0] == 0 && nzv[1] == 0 && nzv[2] == 1);
        CHECK(nzv[3] == 1 && nzv[4] == 2 && nzv[5] == 2);
        em_array_release(&nz);
        em_array_release(&m);
    }
    /* where(mask, a[:2, :3] viewed (2, 3), 1.5 as a weak scalar) */
    {
        em_array m = host_array(cpu, EM_BOOL, 2, s2, mv), w, f;
        float fv[6] = {0, 1, 2, 3, 4, 5}, wv[6];
        em_operand x, y;
        memset(&w, 0, sizeof w);
        f = host_array(cpu, EM_FLOAT32, 2, s2, fv);
        memset(&x, 0, sizeof x);
        memset(&y, 0, sizeof y);
        x.array = &f;
        x.dtype = EM_FLOAT32;
        y.dtype = EM_FLOAT64;
        y.weak = 1;
        y.value.f = 1.5;
        CHECK_OK(em_where(&m, &x, &y, &w, NULL));
        CHECK(w.dtype == EM_FLOAT32);
        CHECK_OK(em_array_to_host(&w, wv, NULL, NULL));
        CHECK(wv[0] == 1.5f && wv[1] == 1 && wv[2] == 2 && wv[3] == 1.5f &&
              wv[5] == 5);
        em_array_release(&w);
        em_array_release(&f);
        em_array_release(&m);
    }
    em_array_release(&ind);
    em_array_release(&a);
    CHECK_OK(em_device_synchronize(cpu));
}

int main(void)
{
    int nvrtc = check_nvrtc("test_index");
    if (nvrtc < 0)
        return 1;
    test_bad_desc();
    if (nvrtc)
        test_compile(EM_DEVICE_CUDA);
    test_compile(EM_DEVICE_CPU);
    test_cpu();
    return check_report("test_index");
}
