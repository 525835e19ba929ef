/* NVRTC compilation (em_compile_cuda). Runs without a GPU: CI has NVRTC
 * but no driver, so a missing NVRTC fails this test rather than skipping
 * it, unless EMBER_TEST_NO_NVRTC=1 says the machine has none on purpose. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static const char vadd_src[] =
    "extern \"C\" __global__ void vadd(const float *a, const float *b,\n"
    "                                  float *c, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

/* Templates, a device function and static shared memory: the C++ that
 * real kernels use, instantiated behind an extern "C" entry point. */
static const char reduce_src[] =
    "template <typename T, int BLOCK>\n"
    "__device__ T block_sum(T v)\n"
    "{\n"
    "    __shared__ T buf[BLOCK];\n"
    "    buf[threadIdx.x] = v;\n"
    "    __syncthreads();\n"
    "    for (int s = BLOCK / 2; s > 0; s >>= 1) {\n"
    "        if (threadIdx.x < s)\n"
    "            buf[threadIdx.x] += buf[threadIdx.x + s];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    return buf[0];\n"
    "}\n"
    "extern \"C\" __global__ void block_sums(const double *in, double *out)\n"
    "{\n"
    "    double s = block_sum<double, 256>(in[blockIdx.x * 256 + threadIdx.x]);\n"
    "    if (threadIdx.x == 0)\n"
    "        out[blockIdx.x] = s;\n"
    "}\n";

static const char uses_n_src[] =
    "extern \"C\" __global__ void put_n(int *out) { out[0] = N * 7; }\n";

/* The error is on line 3. */
static const char bad_src[] =
    "extern \"C\" __global__ void broken(int *out)\n"
    "{\n"
    "    out[0] = undeclared_thing + ;\n"
    "}\n";

static int contains(const void *hay, const char *needle)
{
    return hay && strstr((const char *)hay, needle) != NULL;
}

static void test_version(void)
{
    int v = em_nvrtc_version();
    CHECK(v >= 11000);
    printf("NVRTC %d.%d\n", v / 1000, (v % 1000) / 10);
}

static void test_ptx(int arch)
{
    em_code *c = NULL;
    char target[32];
    snprintf(target, sizeof target, ".target sm_%d", arch);

    CHECK_OK(em_compile_cuda(vadd_src, "vadd.cu", NULL, 0, arch, EM_CODE_PTX,
                             &c, NULL));
    if (c) {
        CHECK(c->kind == EM_CODE_PTX);
        CHECK(c->size > 0 && c->size == strlen((const char *)c->data));
        CHECK(contains(c->data, ".visible .entry vadd("));
        CHECK(contains(c->data, target));
        CHECK(c->log != NULL);
        em_code_free(c);
        c = NULL;
    }

    const char *opts[] = { "--use_fast_math", "--std=c++17" };
    CHECK_OK(em_compile_cuda(reduce_src, "reduce.cu", opts, 2, arch,
                             EM_CODE_PTX, &c, NULL));
    if (c) {
        CHECK(contains(c->data, ".visible .entry block_sums("));
        CHECK(contains(c->data, ".shared"));
        CHECK(contains(c->data, target));
        em_code_free(c);
    }
}

static void test_cubin(void)
{
    em_code *c = NULL;
    CHECK_OK(em_compile_cuda(vadd_src, "vadd.cu", NULL, 0, 90, EM_CODE_CUBIN,
                             &c, NULL));
    if (c) {
        CHECK(c->kind == EM_CODE_CUBIN);
        CHECK(c->size > 64);
        CHECK(memcmp(c->data, "\x7f" "ELF", 4) == 0);
        em_code_free(c);
    }
}

/* LTO-IR starts with NVVM's magic, 0x7F4E43ED stored little-endian. */
static const unsigned char ltoir_magic[4] = { 0xED, 0x43, 0x4E, 0x7F };

static void test_ltoir(void)
{
    em_code *c = NULL;
    char *log = NULL;
    CHECK_OK(em_compile_cuda(vadd_src, "vadd.cu", NULL, 0, 90, EM_CODE_LTOIR,
                             &c, NULL));
    if (c) {
        CHECK(c->kind == EM_CODE_LTOIR);
        CHECK(c->size > 64);
        CHECK(memcmp(c->data, ltoir_magic, 4) == 0);
        em_code_free(c);
        c = NULL;
    }
    /* The user's own -dlto and architecture change nothing of that. */
    const char *own[] = { "-dlto", "--gpu-architecture=sm_80" };
    CHECK_OK(em_compile_cuda(reduce_src, "reduce.cu", own, 2, 90,
                             EM_CODE_LTOIR, &c, NULL));
    if (c) {
        CHECK(memcmp(c->data, ltoir_magic, 4) == 0);
        em_code_free(c);
        c = NULL;
    }
    /* -dlto implies relocatable device code: NVRTC says so. */
    const char *no_rdc[] = { "-rdc=false" };
    CHECK_STATUS(em_compile_cuda(vadd_src, "vadd.cu", no_rdc, 1, 90,
                                 EM_CODE_LTOIR, &c, &log),
                 EM_ERR_COMPILE);
    CHECK(c == NULL);
    CHECK(contains(log, "dlto"));
    free(log);
    /* LTO-IR instead of a CUBIN: none to hand back. */
    const char *dlto[] = { "-dlto" };
    CHECK_STATUS(em_compile_cuda(vadd_src, "vadd.cu", dlto, 1, 90,
                                 EM_CODE_CUBIN, &c, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK(contains(em_last_error(), "NVRTC made no CUBIN for 'vadd.cu'"));
}

static void test_defines(void)
{
    em_code *c = NULL;
    char *log = NULL;
    /* Without -DN the kernel does not compile... */
    CHECK_STATUS(em_compile_cuda(uses_n_src, "n.cu", NULL, 0, 90, EM_CODE_PTX,
                                 &c, &log),
                 EM_ERR_COMPILE);
    CHECK(c == NULL);
    CHECK(contains(log, "N"));
    free(log);
    log = NULL;

    /* ...with it, N reaches the code: 3 * 7 is folded to 21. */
    const char *opts[] = { "-DN=3" };
    CHECK_OK(em_compile_cuda(uses_n_src, "n.cu", opts, 1, 90, EM_CODE_PTX, &c,
                             &log));
    CHECK(log == NULL);
    if (c) {
        CHECK(contains(c->data, ".visible .entry put_n("));
        CHECK(contains(c->data, "21;"));
        em_code_free(c);
    }
}

static void test_syntax_error(void)
{
    em_code *c = NULL;
    char *log = NULL;
    CHECK_STATUS(em_compile_cuda(bad_src, "bad.cu", NULL, 0, 90, EM_CODE_PTX,
                                 &c, &log),
                 EM_ERR_COMPILE);
    CHECK(c == NULL);
    CHECK(log != NULL);
    CHECK(contains(log, "error"));
    CHECK(contains(log, "bad.cu(3)"));
    CHECK(contains(em_last_error(), "NVRTC compilation of 'bad.cu' failed"));
    CHECK(contains(em_last_error(), "bad.cu(3)"));
    CHECK(strcmp(em_last_error_native_name(), "NVRTC_ERROR_COMPILATION") == 0);
    free(log);

    /* Without out_log the message still carries the log. */
    CHECK_STATUS(em_compile_cuda(bad_src, "bad.cu", NULL, 0, 90, EM_CODE_PTX,
                                 &c, NULL),
                 EM_ERR_COMPILE);
    CHECK(contains(em_last_error(), "error"));
}

static void test_bad_options(void)
{
    em_code *c = NULL;
    char *log = NULL;
    const char *bogus[] = { "--no-such-option-anywhere" };
    em_status s = em_compile_cuda(vadd_src, "vadd.cu", bogus, 1, 90,
                                  EM_CODE_PTX, &c, &log);
    CHECK(s == EM_ERR_COMPILE || s == EM_ERR_INVALID_VALUE);
    CHECK(c == NULL);
    CHECK(contains(em_last_error(), "no-such-option-anywhere"));
    free(log);

    /* A virtual architecture cannot give machine code. */
    const char *virt[] = { "--gpu-architecture=compute_90" };
    s = em_compile_cuda(vadd_src, "vadd.cu", virt, 1, 90, EM_CODE_CUBIN, &c,
                        NULL);
    CHECK(s == EM_ERR_COMPILE || s == EM_ERR_INVALID_VALUE);
    CHECK(c == NULL);
    CHECK(em_last_error()[0] != 0);

    /* Arguments ember itself rejects. */
    CHECK_STATUS(em_compile_cuda(NULL, "x.cu", NULL, 0, 90, EM_CODE_PTX, &c,
                                 NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_compile_cuda(vadd_src, "x.cu", NULL, 0, 90, EM_CODE_HOST,
                                 &c, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_compile_cuda(vadd_src, "x.cu", NULL, -1, 90, EM_CODE_PTX,
                                 &c, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_compile_cuda(vadd_src, "x.cu", NULL, 0, -5, EM_CODE_PTX,
                                 &c, NULL),
                 EM_ERR_INVALID_VALUE);
}

static void test_user_arch(void)
{
    em_code *c = NULL;
    /* The user's architecture wins over the arch argument. */
    const char *opts[] = { "-arch=compute_80" };
    CHECK_OK(em_compile_cuda(vadd_src, "vadd.cu", opts, 1, 90, EM_CODE_PTX,
                             &c, NULL));
    if (c) {
        CHECK(contains(c->data, ".target sm_80"));
        em_code_free(c);
        c = NULL;
    }
    const char *opts2[] = { "--gpu-architecture=sm_80" };
    CHECK_OK(em_compile_cuda(vadd_src, "vadd.cu", opts2, 1, 90,
                             EM_CODE_CUBIN, &c, NULL));
    if (c) {
        CHECK(memcmp(c->data, "\x7f" "ELF", 4) == 0);
        em_code_free(c);
        c = NULL;
    }
    /* arch 0: the first GPU's, or a default without one. */
    CHECK_OK(em_compile_cuda(vadd_src, NULL, NULL, 0, 0, EM_CODE_PTX, &c,
                             NULL));
    if (c) {
        CHECK(contains(c->data, ".target sm_"));
        em_code_free(c);
    }
}

static void *compile_thread(void *arg)
{
    int *ok = arg;
    em_code *c = NULL;
    *ok = em_compile_cuda(reduce_src, "reduce.cu", NULL, 0, 80, EM_CODE_PTX,
                          &c, NULL) == EM_OK
          && contains(c->data, ".visible .entry block_sums(");
    em_code_free(c);
    return NULL;
}

static void test_threads(void)
{
    enum { N = 4 };
    pthread_t t[N];
    int ok[N] = { 0 };
    for (int i = 0; i < N; i++)
        CHECK(pthread_create(&t[i], NULL, compile_thread, &ok[i]) == 0);
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        CHECK(ok[i]);
    }
}

int main(void)
{
    const char *no_nvrtc = getenv("EMBER_TEST_NO_NVRTC");
    if (em_nvrtc_version() == 0) {
        em_code *c = NULL;
        em_status s = em_compile_cuda(vadd_src, "vadd.cu", NULL, 0, 90,
                                      EM_CODE_PTX, &c, NULL);
        if (no_nvrtc && strcmp(no_nvrtc, "1") == 0) {
            printf("SKIP: %s\n", em_last_error());
            return 0;
        }
        fprintf(stderr, "NVRTC unavailable (%s): %s\n", em_status_name(s),
                em_last_error());
        fprintf(stderr, "set EMBER_TEST_NO_NVRTC=1 on machines without it\n");
        return 1;
    }
    test_version();
    test_ptx(90);
    test_ptx(80);
    test_cubin();
    test_ltoir();
    test_defines();
    test_syntax_error();
    test_bad_options();
    test_user_arch();
    test_threads();
    return check_report("test_nvrtc");
}
