/* cuSPARSE's CSR products (include/ember/cusparse.h): the argument checks
 * on cpu arrays (no library needed), the library found or named with its
 * pip package, then, where a GPU is, a 3 x 4 matrix with an empty row
 * times a vector and a two-column matrix, and its transpose times a
 * vector, against hand-computed values: float64 with int32 and int64
 * indices, complex64, and a product queued on a non-blocking stream. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ember/cusparse.h"

/*   [1 0 2 0]        x = [1 2 3 4]: A x = [7 0 22]
 *   [0 0 0 0]
 *   [0 3 0 4] */
static const double vals[4] = {1, 2, 3, 4};
static const int32_t cols32[4] = {0, 2, 1, 3}, rows32[4] = {0, 2, 2, 4};
static const int64_t cols64[4] = {0, 2, 1, 3}, rows64[4] = {0, 2, 2, 4};

/* a (dtype t, shape) on d, filled from host when host is not NULL */
static void put(em_array *a, em_device *d, em_dtype t, int nd,
                const int64_t *shape, const void *host)
{
    CHECK_OK(em_array_empty(d, t, nd, shape, 'C', NULL, a));
    if (host && a->data)
        CHECK_OK(em_memcpy_async(d, a->data, host,
                                 (size_t)a->size * em_dtype_size(t), NULL));
}

static void get(const em_array *a, void *host)
{
    CHECK_OK(em_memcpy_async(a->device, host, a->data,
                             (size_t)a->size * em_dtype_size(a->dtype), NULL));
    CHECK_OK(em_stream_synchronize(em_stream_default(a->device)));
}

static void release(em_array **all, int n)
{
    for (int i = 0; i < n; i++)
        em_array_release(all[i]);
}

static void test_checks(void)
{
    em_device *cpu;
    em_array d = {0}, d64 = {0}, i = {0}, p = {0}, p64 = {0}, x = {0},
             x5 = {0}, y = {0}, y2 = {0}, xf = {0}, x2 = {0};
    em_array *all[] = {&d, &d64, &i, &p, &p64, &x, &x5, &y, &y2, &xf, &x2};
    int64_t n4 = 4, n5 = 5, n3 = 3, s32[2] = {3, 2}, s42[2] = {4, 2};
    CHECK_OK(em_device_parse("cpu", &cpu));
    put(&d, cpu, EM_FLOAT64, 1, &n4, vals);
    put(&d64, cpu, EM_INT64, 1, &n4, NULL);
    put(&i, cpu, EM_INT32, 1, &n4, cols32);
    put(&p, cpu, EM_INT32, 1, &n4, rows32);
    put(&p64, cpu, EM_INT64, 1, &n4, rows64);
    put(&x, cpu, EM_FLOAT64, 1, &n4, NULL);
    put(&x5, cpu, EM_FLOAT64, 1, &n5, NULL);
    put(&y, cpu, EM_FLOAT64, 1, &n3, NULL);
    put(&y2, cpu, EM_FLOAT64, 2, s32, NULL);
    put(&xf, cpu, EM_FLOAT32, 1, &n4, NULL);
    put(&x2, cpu, EM_FLOAT64, 2, s42, NULL);

    CHECK_STATUS(em_cusparse_csr_matmul(&d64, &i, &p, 4, 0, &x, &y), EM_ERR_TYPE);
    CHECK(strstr(em_last_error(), "no cuSPARSE product for int64") != NULL);
    CHECK_STATUS(em_cusparse_csr_matmul(&d, &i, &p64, 4, 0, &x, &y),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "indices must be") != NULL &&
          strstr(em_last_error(), "int64") && strstr(em_last_error(), "int32"));
    CHECK_STATUS(em_cusparse_csr_matmul(&d, &i, &p, 4, 0, &x5, &y),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "x (5,) does not fit a 3 x 4 matrix") != NULL);
    CHECK_STATUS(em_cusparse_csr_matmul(&d, &i, &p, 4, 0, &x, &y2),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "y must be") &&
          strstr(em_last_error(), "(3,)") && strstr(em_last_error(), "(3, 2)"));
    CHECK_STATUS(em_cusparse_csr_matmul(&d, &i, &p, 4, 0, &xf, &y),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "not float32") != NULL);
    CHECK_STATUS(em_cusparse_csr_matmul(NULL, &i, &p, 4, 0, &x, &y),
                 EM_ERR_INVALID_VALUE);
    /* transposed: x has the arrays' 3 rows, y their 4 columns */
    CHECK_STATUS(em_cusparse_csr_matmul(&d, &i, &p, 4, 1, &x, &y),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "x (4,) does not fit a 4 x 3 matrix (the "
                 "transpose") != NULL);
    CHECK_STATUS(em_cusparse_csr_matmul(&d, &i, &p, 4, 1, &y2, &x2),
                 EM_ERR_NOT_SUPPORTED);
    CHECK(strstr(em_last_error(), "not wired") != NULL);
    CHECK_STATUS(em_cusparse_csr_matmul(&d, &i, &p, 4, 1, &y, &x),
                 EM_ERR_NOT_SUPPORTED);
    CHECK(strstr(em_last_error(), "runs on CUDA devices") != NULL);
    CHECK_STATUS(em_cusparse_csr_matmul(&d, &i, &p, 4, 0, &x, &y),
                 EM_ERR_NOT_SUPPORTED);
    CHECK(strstr(em_last_error(), "runs on CUDA devices") != NULL);
    release(all, (int)(sizeof all / sizeof *all));
}

/* A x and A X (X's columns x and 10 x) with index arrays of type it. */
static void test_real(em_device *gpu, em_dtype it)
{
    const double xh[4] = {1, 2, 3, 4};
    const double Xh[8] = {1, 10, 2, 20, 3, 30, 4, 40};
    double yh[3] = {-1, -1, -1}, Yh[6], th[4];
    em_array d = {0}, i = {0}, p = {0}, x = {0}, X = {0}, y = {0}, Y = {0},
             t3 = {0}, t4 = {0};
    em_array *all[] = {&d, &i, &p, &x, &X, &y, &Y, &t3, &t4};
    int64_t n4 = 4, n3 = 3, s42[2] = {4, 2}, s32[2] = {3, 2};
    put(&d, gpu, EM_FLOAT64, 1, &n4, vals);
    put(&i, gpu, it, 1, &n4, it == EM_INT32 ? (const void *)cols32
                                            : (const void *)cols64);
    put(&p, gpu, it, 1, &n4, it == EM_INT32 ? (const void *)rows32
                                            : (const void *)rows64);
    put(&x, gpu, EM_FLOAT64, 1, &n4, xh);
    put(&X, gpu, EM_FLOAT64, 2, s42, Xh);
    put(&y, gpu, EM_FLOAT64, 1, &n3, NULL);
    put(&Y, gpu, EM_FLOAT64, 2, s32, NULL);
    put(&t3, gpu, EM_FLOAT64, 1, &n3, xh);
    put(&t4, gpu, EM_FLOAT64, 1, &n4, NULL);
    CHECK_OK(em_cusparse_csr_matmul(&d, &i, &p, 4, 0, &x, &y));
    get(&y, yh);
    CHECK(yh[0] == 7 && yh[1] == 0 && yh[2] == 22);
    CHECK_OK(em_cusparse_csr_matmul(&d, &i, &p, 4, 0, &X, &Y));
    get(&Y, Yh);
    CHECK(Yh[0] == 7 && Yh[1] == 70 && Yh[2] == 0 && Yh[3] == 0 &&
          Yh[4] == 22 && Yh[5] == 220);
    /* A^T [1 2 3] = [1 9 2 12]: x's first three entries, y the four */
    CHECK_OK(em_cusparse_csr_matmul(&d, &i, &p, 4, 1, &t3, &t4));
    get(&t4, th);
    CHECK(th[0] == 1 && th[1] == 9 && th[2] == 2 && th[3] == 12);
    release(all, (int)(sizeof all / sizeof *all));
}

/* complex64 values [1+i, 2, 3i, 4] times x = [1 2 3 4] on a non-blocking
 * stream: [7+i, 0, 16+6i] */
static void test_complex_on_a_stream(em_device *gpu)
{
    const float dh[8] = {1, 1, 2, 0, 0, 3, 4, 0};
    const float xh[8] = {1, 0, 2, 0, 3, 0, 4, 0};
    float yh[6];
    em_array d = {0}, i = {0}, p = {0}, x = {0}, y = {0};
    em_array *all[] = {&d, &i, &p, &x, &y};
    int64_t n4 = 4, n3 = 3;
    em_stream *s = NULL;
    put(&d, gpu, EM_COMPLEX64, 1, &n4, dh);
    put(&i, gpu, EM_INT32, 1, &n4, cols32);
    put(&p, gpu, EM_INT32, 1, &n4, rows32);
    put(&x, gpu, EM_COMPLEX64, 1, &n4, xh);
    put(&y, gpu, EM_COMPLEX64, 1, &n3, NULL);
    CHECK_OK(em_stream_synchronize(em_stream_default(gpu)));
    CHECK_OK(em_stream_create(gpu, EM_STREAM_NON_BLOCKING, &s));
    em_set_current_stream(s);
    CHECK_OK(em_cusparse_csr_matmul(&d, &i, &p, 4, 0, &x, &y));
    em_set_current_stream(NULL);
    CHECK_OK(em_stream_synchronize(s));
    get(&y, yh);
    CHECK(yh[0] == 7 && yh[1] == 1 && yh[2] == 0 && yh[3] == 0 &&
          yh[4] == 16 && yh[5] == 6);
    release(all, (int)(sizeof all / sizeof *all));
    CHECK_OK(em_stream_destroy(s));
}

/* Found, or a message naming the library and its pip package. */
static void test_library(void)
{
    void *h = NULL;
    if (em_vendor_open(EM_VENDOR_CUSPARSE, &h) == EM_OK)
        CHECK(h && strstr(em_vendor_path(EM_VENDOR_CUSPARSE), "libcusparse"));
    else
        CHECK(strstr(em_last_error(), "cuSPARSE (libcusparse.so") &&
              strstr(em_last_error(), "pip install nvidia-cusparse"));
}

int main(void)
{
    em_device *gpu = NULL;
    int n = 0;
    test_checks();
    test_library();
    if (em_device_count(EM_DEVICE_CUDA, &n) != EM_OK || n == 0) {
        const char *require = getenv("EMBER_TEST_REQUIRE_GPU");
        printf("no GPU: only the argument checks ran (%s)\n",
               em_backend_status(EM_DEVICE_CUDA));
        /* the GPU suite's run must not pass without its half */
        return require && !strcmp(require, "1")
                   ? 1 : check_report("test_cusparse");
    }
    CHECK_OK(em_device_get(EM_DEVICE_CUDA, 0, &gpu));
    if (gpu) {
        test_real(gpu, EM_INT32);
        test_real(gpu, EM_INT64);
        test_complex_on_a_stream(gpu);
    }
    return check_report("test_cusparse");
}
