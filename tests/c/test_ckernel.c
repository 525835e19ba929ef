/* C-string kernels through the public C API alone (include/ember/ckernel.h):
 * an elementwise kernel with a placeholder, a scalar, broadcasting and a
 * raw parameter, a reduction over an axis and over everything (the split
 * schedule), the error statuses, and each new cpu variant's CUDA twin
 * compiled with NVRTC (em_ckernel_set_check_cuda). Runs on cpu
 * (EMBER_TEST_DEVICE=cuda:0 runs it on a GPU). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static em_device *dev;
static int check_cuda;

static em_array from_host(em_dtype dt, int nd, const int64_t *shape,
                          const void *data)
{
    em_array a;
    memset(&a, 0, sizeof a);
    CHECK_OK(em_array_empty(dev, dt, nd, shape, 'C', NULL, &a));
    CHECK_OK(em_array_from_host(&a, data, NULL, NULL));
    return a;
}

static em_operand arr_op(const em_array *a)
{
    em_operand o;
    memset(&o, 0, sizeof o);
    o.array = a;
    o.dtype = a->dtype;
    return o;
}

static em_ckernel *make_ew(const char *in, const char *out, const char *op,
                           const char *name)
{
    em_ckernel_desc d;
    em_ckernel *k = NULL;
    memset(&d, 0, sizeof d);
    d.in_params = in;
    d.out_params = out;
    d.operation = op;
    d.name = name;
    d.reduce_dims = 1;
    CHECK_OK(em_ckernel_create_elementwise(&d, &k));
    if (k)
        em_ckernel_set_check_cuda(k, check_cuda);
    return k;
}

/* z = a * x + y[n - 1 - i], x (3, 4) broadcast with y's (4,) rows. */
static void test_elementwise(void)
{
    int64_t sx[2] = {3, 4}, sy[1] = {4};
    double x[12], y[4], z[12];
    em_array ax, ay, out[1];
    em_operand in[3];
    em_ckernel *k = make_ew("T x, T a, raw T y", "T z",
                            "z = a * x + y[_ind.size() - i - 1] - y[0]",
                            "axpy_rev");
    em_ckernel *b = make_ew("T x, T y", "T z", "z = x - y", "bsub");
    for (int i = 0; i < 12; i++)
        x[i] = i * 0.5;
    for (int i = 0; i < 4; i++)
        y[i] = 100 + i;
    ax = from_host(EM_FLOAT64, 2, sx, x);
    ay = from_host(EM_FLOAT64, 1, sy, y);
    if (!k || !b)
        return;
    /* the raw y is indexed by the flat index of the (3, 4) loop: use a
     * 12-element y for that one */
    {
        double y12[12];
        int64_t s12[1] = {12};
        em_array a12;
        for (int i = 0; i < 12; i++)
            y12[i] = 10.0 * i;
        a12 = from_host(EM_FLOAT64, 1, s12, y12);
        in[0] = arr_op(&ax);
        memset(&in[1], 0, sizeof in[1]);
        in[1].dtype = EM_FLOAT64;
        in[1].weak = 1;
        in[1].value.f = 2.0;
        in[2] = arr_op(&a12);
        memset(out, 0, sizeof out);
        CHECK_OK(em_ckernel_elementwise(k, in, out, -1, NULL));
        CHECK(out[0].ndim == 2 && out[0].shape[0] == 3 &&
              out[0].dtype == EM_FLOAT64);
        CHECK_OK(em_array_to_host(&out[0], z, NULL, NULL));
        for (int i = 0; i < 12; i++)
            CHECK(z[i] == 2.0 * x[i] + y12[11 - i] - y12[0]);
        em_array_release(&out[0]);
        em_array_release(&a12);
    }
    in[0] = arr_op(&ax);
    in[1] = arr_op(&ay);
    memset(out, 0, sizeof out);
    CHECK_OK(em_ckernel_elementwise(b, in, out, -1, NULL));
    CHECK_OK(em_array_to_host(&out[0], z, NULL, NULL));
    for (int i = 0; i < 12; i++)
        CHECK(z[i] == x[i] - y[i % 4]);
    /* the same types again: no new specialisation */
    CHECK(em_ckernel_cached(b) == 1);
    em_array_release(&out[0]);
    CHECK_OK(em_ckernel_elementwise(b, in, out, -1, NULL));
    CHECK(em_ckernel_cached(b) == 1);
    em_array_release(&out[0]);
    /* errors: placeholder conflict, size with arrays, missing size */
    {
        int32_t xi[4] = {1, 2, 3, 4};
        em_array ai = from_host(EM_INT32, 1, sy, xi);
        in[1] = arr_op(&ai);
        CHECK_STATUS(em_ckernel_elementwise(b, in, out, -1, NULL),
                     EM_ERR_TYPE);
        CHECK(strstr(em_last_error(), "'y'") != NULL);
        CHECK(out[0].storage == NULL);
        in[1] = arr_op(&ay);
        CHECK_STATUS(em_ckernel_elementwise(b, in, out, 5, NULL),
                     EM_ERR_INVALID_VALUE);
        em_array_release(&ai);
    }
    em_ckernel_destroy(k);
    em_ckernel_destroy(b);
    em_array_release(&ax);
    em_array_release(&ay);
}

static void test_reduction(void)
{
    const int64_t n = 100003;
    int64_t s1[1] = {n}, s2[2] = {3, 5};
    float *x = malloc((size_t)n * sizeof *x);
    float r, m2[15], rows[3];
    double want = 0;
    em_ckernel_desc d;
    em_ckernel *k = NULL;
    em_array ax, am, out[1];
    em_operand in[1];
    int axis = 1;
    for (int64_t i = 0; i < n; i++) {
        x[i] = (float)((i % 17) - 8) * 0.25f;
        want += x[i] * x[i];
    }
    for (int i = 0; i < 15; i++)
        m2[i] = (float)i;
    memset(&d, 0, sizeof d);
    d.in_params = "T x";
    d.out_params = "T y";
    d.map_expr = "x * x";
    d.reduce_expr = "a + b";
    d.post_map_expr = "y = sqrt(a)";
    d.identity = "0";
    d.name = "l2norm";
    CHECK_OK(em_ckernel_create_reduction(&d, &k));
    if (!k) {
        free(x);
        return;
    }
    em_ckernel_set_check_cuda(k, check_cuda);
    ax = from_host(EM_FLOAT32, 1, s1, x);
    am = from_host(EM_FLOAT32, 2, s2, m2);
    in[0] = arr_op(&ax);
    memset(out, 0, sizeof out);
    CHECK_OK(em_ckernel_reduce(k, in, out, NULL, -1, 0, NULL));
    CHECK(out[0].ndim == 0 && out[0].dtype == EM_FLOAT32);
    CHECK_OK(em_array_to_host(&out[0], &r, NULL, NULL));
    CHECK(fabs(r - sqrt(want)) <= 1e-5 * sqrt(want));
    em_array_release(&out[0]);
    in[0] = arr_op(&am);
    CHECK_OK(em_ckernel_reduce(k, in, out, &axis, 1, 0, NULL));
    CHECK(out[0].ndim == 1 && out[0].shape[0] == 3);
    CHECK_OK(em_array_to_host(&out[0], rows, NULL, NULL));
    for (int i = 0; i < 3; i++) {
        double s = 0;
        for (int j = 0; j < 5; j++)
            s += m2[5 * i + j] * m2[5 * i + j];
        CHECK(fabs(rows[i] - sqrt(s)) <= 1e-5 * sqrt(s));
    }
    em_array_release(&out[0]);
    axis = 2;
    CHECK_STATUS(em_ckernel_reduce(k, in, out, &axis, 1, 0, NULL),
                 EM_ERR_AXIS);
    em_ckernel_destroy(k);
    em_array_release(&ax);
    em_array_release(&am);
    free(x);
}

static void test_create_errors(void)
{
    em_ckernel_desc d;
    em_ckernel *k = NULL;
    memset(&d, 0, sizeof d);
    d.in_params = "T x, T x";
    d.out_params = "T y";
    d.operation = "y = x";
    CHECK_STATUS(em_ckernel_create_elementwise(&d, &k), EM_ERR_INVALID_VALUE);
    d.in_params = "float x";
    CHECK_STATUS(em_ckernel_create_elementwise(&d, &k), EM_ERR_INVALID_VALUE);
    d.in_params = "T x";
    d.out_params = "";
    CHECK_STATUS(em_ckernel_create_elementwise(&d, &k), EM_ERR_INVALID_VALUE);
    d.out_params = "T y";
    d.operation = "y = x +* 1";
    d.name = "broken";
    CHECK_OK(em_ckernel_create_elementwise(&d, &k));
    if (k) {
        int64_t s[1] = {3};
        double v[3] = {1, 2, 3};
        em_array a = from_host(EM_FLOAT64, 1, s, v), out[1];
        em_operand in[1] = {arr_op(&a)};
        memset(out, 0, sizeof out);
        CHECK_STATUS(em_ckernel_elementwise(k, in, out, -1, NULL),
                     EM_ERR_COMPILE);
        CHECK(strstr(em_last_error(), "broken") != NULL);
        CHECK(strstr(em_last_error(), "y = x +* 1") != NULL);
        em_ckernel_destroy(k);
        em_array_release(&a);
    }
}

int main(void)
{
    const char *spec = getenv("EMBER_TEST_DEVICE");
    if (em_device_parse(spec && *spec ? spec : "cpu", &dev) != EM_OK) {
        fprintf(stderr, "no device %s: %s\n", spec, em_last_error());
        return 77;
    }
    if ((check_cuda = check_nvrtc("test_ckernel")) < 0)
        return 1;
    em_set_current_device(dev);
    test_elementwise();
    test_reduction();
    test_create_errors();
    CHECK_OK(em_device_synchronize(dev));
    return check_report("test_ckernel");
}
