/* The Schur family's raw LAPACK calls (include/ember/lapack.h): shape and
 * dtype checks, then, where the scipy-openblas64 wheel is found (the
 * checkout's .venv, or $EMBER_TEST_OPENBLAS), small problems with
 * hand-computed answers: gees of a triangular matrix, trsen's swap,
 * hessenberg of a 2x2, trsyl of scalars, gebal's scaling. */
#include <math.h>
#include <string.h>

#include "lapack_check.h"

static void test_schur(void)
{
    /* column-major [[1, 5], [0, 3]]: already upper triangular, so gees
     * leaves T = A, Z = I and w = (1, 3); selecting 3 moves it first */
    static const double tri[] = {1, 0, 5, 3}, pick2[] = {0, 1};
    int64_t s22[2] = {2, 2}, s2[1] = {2}, s0[1] = {0}, s3[1] = {3};
    em_array a = {0}, w = {0}, z = {0}, info = {0}, sel = {0}, m = {0},
             wbad = {0};
    double *t, *wv;
    make(&a, EM_FLOAT64, 2, s22, tri);
    make(&w, EM_COMPLEX128, 1, s2, NULL);
    make(&z, EM_FLOAT64, 2, s22, NULL);
    make(&info, EM_INT32, 0, s0, NULL);
    make(&wbad, EM_COMPLEX128, 1, s3, NULL);
    CHECK_STATUS(em_linalg_gees(&a, &wbad, &z, &info), EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "w's core shape") != NULL);
    CHECK_STATUS(em_linalg_gees(&a, &z, &z, &info), EM_ERR_INVALID_VALUE);
    CHECK_OK(em_linalg_gees(&a, &w, &z, &info));
    t = (double *)a.data;
    wv = (double *)w.data;
    CHECK(t[0] == 1 && t[1] == 0 && t[2] == 5 && t[3] == 3);
    CHECK(wv[0] == 1 && wv[1] == 0 && wv[2] == 3 && wv[3] == 0);
    CHECK(fabs(((double *)z.data)[0]) == 1 && ((double *)z.data)[1] == 0);
    make(&sel, EM_INT64, 1, s2, pick2);
    make(&m, EM_INT64, 0, s0, NULL);
    CHECK_OK(em_linalg_trsen(&a, &z, &sel, &w, &m, &info));
    CHECK(*(int64_t *)m.data == 1 && *(int32_t *)info.data == 0);
    CHECK(fabs(t[0] - 3) < 1e-14 && fabs(t[3] - 1) < 1e-14 && t[1] == 0);
    CHECK(fabs(wv[0] - 3) < 1e-14);
    em_array *all[] = {&a, &w, &z, &info, &sel, &m, &wbad};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        em_array_release(all[k]);
}

static void test_trsyl_gehrd_gebal(void)
{
    /* 2 x + x 3 = 10 at x = 2; a 2x2 is its own Hessenberg form, Q = I;
     * [[1, 100], [0.01, 1]] balances with s0 / s1 near 100 */
    static const double two[] = {2}, three[] = {3}, ten[] = {10},
                        m2[] = {4, 1, 2, 3}, bal[] = {1, 0.01, 100, 1};
    int64_t s11[2] = {1, 1}, s22[2] = {2, 2}, s0[1] = {0}, s2[1] = {2};
    em_array a = {0}, b = {0}, c = {0}, sc = {0}, info = {0}, h = {0},
             q = {0}, g = {0}, gs = {0};
    double *hv, *qv, *s;
    make(&a, EM_FLOAT64, 2, s11, two);
    make(&b, EM_FLOAT64, 2, s11, three);
    make(&c, EM_FLOAT64, 2, s11, ten);
    make(&sc, EM_FLOAT64, 0, s0, NULL);
    make(&info, EM_INT32, 0, s0, NULL);
    CHECK_STATUS(em_linalg_trsyl(&a, &b, &c, 3, 0, 1, &sc, &info),
                 EM_ERR_INVALID_VALUE);
    CHECK_OK(em_linalg_trsyl(&a, &b, &c, 0, 2, 1, &sc, &info));
    CHECK(fabs(((double *)c.data)[0] * ((double *)sc.data)[0] - 2) < 1e-15);
    make(&h, EM_FLOAT64, 2, s22, m2);
    make(&q, EM_FLOAT64, 2, s22, NULL);
    CHECK_STATUS(em_linalg_gehrd(&h, &c, &info), EM_ERR_INVALID_VALUE);
    CHECK_OK(em_linalg_gehrd(&h, &q, &info));
    hv = (double *)h.data;
    qv = (double *)q.data;
    CHECK(hv[0] == 4 && hv[1] == 1 && hv[2] == 2 && hv[3] == 3);
    CHECK(qv[0] == 1 && qv[1] == 0 && qv[2] == 0 && qv[3] == 1);
    make(&g, EM_FLOAT64, 2, s22, bal);
    make(&gs, EM_FLOAT64, 1, s2, NULL);
    CHECK_OK(em_linalg_gebal(&g, &gs, &info));
    s = (double *)gs.data;
    /* gebal scales by powers of 2: 64 or 128 for a ratio of 100 */
    CHECK(s[0] / s[1] >= 64 && s[0] / s[1] <= 128);
    em_array *all[] = {&a, &b, &c, &sc, &info, &h, &q, &g, &gs};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        em_array_release(all[k]);
}

int main(void)
{
    if (em_device_parse("cpu", &dev) != EM_OK) {
        fprintf(stderr, "test_lapack_schur: %s\n", em_last_error());
        return 1;
    }
    add_dirs();
    if (find_openblas()) {
        test_schur();
        test_trsyl_gehrd_gebal();
    }
    return check_report("test_lapack_schur");
}
