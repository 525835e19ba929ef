/* em_random_fill on the cpu device: PCG64 and Philox words are NumPy's
 * (values taken from numpy.random.PCG64(42) and Philox(42)), including
 * far into the stream where a thread starts by a jump; buffered words and
 * halves come first; the one-word family's shared kernel draws each
 * member's transform; the checks on the output array hold. */
#include <math.h>
#include <stdint.h>

#include "check.h"

static em_device *dev;

static int fill(em_array *out, em_dtype t, int64_t n, const em_random_stream *s,
                em_random_dist dist)
{
    em_random_params p = {0.0, 1.0, 0, 0, NULL, NULL};
    if (em_array_empty(dev, t, 1, &n, 'C', NULL, out) != EM_OK)
        return -1;
    return em_random_fill(out, s, dist, &p, NULL) == EM_OK ? 0 : -1;
}

static void test_pcg64(void)
{
    em_random_stream s = {EM_RANDOM_PCG64,
                          {0xcea44f6798798f2aULL, 0xacbc7c9d68860ac8ULL,
                           0xfa505436c9a8416eULL, 0x66caf2e28d25abffULL, 0, 0},
                          0, {0}, 0, 0};
    em_array a;
    CHECK(fill(&a, EM_UINT64, 40000, &s, EM_RANDOM_BITS64) == 0);
    if (a.storage) {
        const uint64_t *w = (const uint64_t *)a.data;
        CHECK(w[0] == 0xc621fbcd16d92688ULL);
        CHECK(w[1] == 0x705a5661a791ffc1ULL);
        CHECK(w[2] == 0xdbcd12c26eda1624ULL);
        CHECK(w[39999] == 0xa75117730416eda6ULL); /* a later thread's jump */
        em_array_release(&a);
    }
    /* the 32-bit stream: a buffered half, then low and high halves */
    s.has32 = 1;
    s.half = 0x12345678u;
    CHECK(fill(&a, EM_UINT32, 3, &s, EM_RANDOM_BITS32) == 0);
    if (a.storage) {
        const uint32_t *h = (const uint32_t *)a.data;
        CHECK(h[0] == 0x12345678u && h[1] == 0x16d92688u &&
              h[2] == 0xc621fbcdu);
        em_array_release(&a);
    }
}

static void test_philox(void)
{
    /* counter 1: NumPy's Philox increments its zero counter first */
    em_random_stream s = {EM_RANDOM_PHILOX,
                          {1, 0, 0, 0, 0x9f1e2e6dcd540ab7ULL,
                           0xd57873dc79fb94b6ULL},
                          0, {0}, 0, 0};
    em_array a;
    CHECK(fill(&a, EM_UINT64, 40001, &s, EM_RANDOM_BITS64) == 0);
    if (a.storage) {
        const uint64_t *w = (const uint64_t *)a.data;
        CHECK(w[0] == 0x16092f00ecdab98aULL);
        CHECK(w[2] == 0x4524d130684efe02ULL);
        CHECK(w[40000] == 0x2e00ca8d2de0a76cULL);
        em_array_release(&a);
    }
    /* two buffered words, then the stream from the counter */
    s.npre = 2;
    s.pre[0] = 7;
    s.pre[1] = 9;
    CHECK(fill(&a, EM_UINT64, 3, &s, EM_RANDOM_BITS64) == 0);
    if (a.storage) {
        const uint64_t *w = (const uint64_t *)a.data;
        CHECK(w[0] == 7 && w[1] == 9 && w[2] == 0x16092f00ecdab98aULL);
        em_array_release(&a);
    }
}

/* The one-word family shares one kernel, the distribution an argument:
 * lognormal is exp of the normal of the same word (to an ulp or two of
 * libm's exp), and consecutive fills of different members each get their
 * own transform, not the first one compiled. */
static void test_word_family(void)
{
    em_random_stream s = {EM_RANDOM_PCG64,
                          {0xcea44f6798798f2aULL, 0xacbc7c9d68860ac8ULL,
                           0xfa505436c9a8416eULL, 0x66caf2e28d25abffULL, 0, 0},
                          0, {0}, 0, 0};
    em_random_params p = {0.25, 0.5, 0, 0, NULL, NULL};
    int64_t n = 1000;
    em_array z, l, g;
    CHECK_OK(em_array_empty(dev, EM_FLOAT64, 1, &n, 'C', NULL, &z));
    CHECK_OK(em_array_empty(dev, EM_FLOAT64, 1, &n, 'C', NULL, &l));
    CHECK_OK(em_array_empty(dev, EM_INT64, 1, &n, 'C', NULL, &g));
    CHECK_OK(em_random_fill(&z, &s, EM_RANDOM_NORMAL, &p, NULL));
    CHECK_OK(em_random_fill(&l, &s, EM_RANDOM_LOGNORMAL, &p, NULL));
    p.a = 0.5; /* geometric's p */
    CHECK_OK(em_random_fill(&g, &s, EM_RANDOM_GEOMETRIC, &p, NULL));
    CHECK_OK(em_device_synchronize(dev));
    {
        const double *zz = (const double *)z.data, *ll = (const double *)l.data;
        const int64_t *gg = (const int64_t *)g.data;
        int bad = 0, ones = 0;
        for (int64_t i = 0; i < n; i++) {
            double w = exp(zz[i]);
            bad += !(fabs(ll[i] - w) <= 4e-16 * w);
            bad += gg[i] < 1;
            ones += gg[i] == 1;
        }
        CHECK(bad == 0);
        CHECK(ones > 420 && ones < 580); /* P(1) = p = 1/2 */
    }
    /* geometric writes int64 only; the float transforms not int64 */
    CHECK_STATUS(em_random_fill(&z, &s, EM_RANDOM_GEOMETRIC, &p, NULL),
                 EM_ERR_TYPE);
    CHECK_STATUS(em_random_fill(&g, &s, EM_RANDOM_CAUCHY, &p, NULL),
                 EM_ERR_TYPE);
    em_array_release(&z);
    em_array_release(&l);
    em_array_release(&g);
}

static void test_checks(void)
{
    em_random_stream s = {EM_RANDOM_PCG64, {0, 0, 0, 1, 0, 0}, 0, {0}, 0, 0};
    em_random_params p = {0.0, 1.0, 0, 0, NULL, NULL};
    int64_t n = 4, sh[2] = {4, 2};
    em_array a, b;
    CHECK_OK(em_array_empty(dev, EM_FLOAT32, 1, &n, 'C', NULL, &a));
    CHECK_STATUS(em_random_fill(&a, &s, EM_RANDOM_UNIFORM, &p, NULL),
                 EM_ERR_TYPE);
    CHECK_STATUS(em_random_fill(&a, &s, EM_RANDOM_DIST_COUNT, &p, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK_OK(em_random_fill(&a, &s, EM_RANDOM_NORMAL, &p, NULL));
    p.pa = &a; /* float32, and for a word distribution */
    CHECK_STATUS(em_random_fill(&a, &s, EM_RANDOM_GAMMA, &p, NULL),
                 EM_ERR_INVALID_VALUE);
    p.pa = NULL;
    CHECK_OK(em_array_empty(dev, EM_FLOAT64, 2, sh, 'F', NULL, &b));
    CHECK_STATUS(em_random_fill(&b, &s, EM_RANDOM_UNIFORM, &p, NULL),
                 EM_ERR_INVALID_VALUE);
    em_array_release(&a);
    em_array_release(&b);
}

int main(void)
{
    if (em_device_get(EM_DEVICE_CPU, 0, &dev) != EM_OK)
        return check_report("test_random");
    test_pcg64();
    test_philox();
    test_word_family();
    test_checks();
    return check_report("test_random");
}
