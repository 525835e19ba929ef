/* LAPACK on the cpu (include/ember/lapack.h): argument checks without the
 * library, then, where the scipy-openblas64 wheel is found (the checkout's
 * .venv, or the folder in $EMBER_TEST_OPENBLAS), small solves, a singular
 * matrix and a Cholesky factor against hand-computed values. */
#include <math.h>
#include <string.h>

#include "lapack_check.h"

static void test_checks(void)
{
    em_array a = {0}, v = {0}, i = {0}, r = {0};
    int64_t s23[2] = {2, 3}, s3[1] = {3}, s22[2] = {2, 2};
    make(&a, EM_FLOAT64, 2, s23, NULL);
    make(&v, EM_FLOAT64, 1, s3, NULL);
    make(&i, EM_INT32, 2, s22, NULL);
    CHECK_STATUS(em_linalg_inv(&a, &r), EM_ERR_LINALG);
    CHECK(strstr(em_last_error(), "must be square") != NULL);
    CHECK(r.storage == NULL);
    CHECK_STATUS(em_linalg_det(&v, &r, NULL, NULL), EM_ERR_LINALG);
    CHECK(strstr(em_last_error(), "at least two-dimensional") != NULL);
    CHECK_STATUS(em_linalg_cholesky(&i, 0, &r), EM_ERR_TYPE);
    CHECK_STATUS(em_linalg_inv(NULL, &r), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_linalg_qr(&a, EM_QR_R, &r, &r), EM_ERR_INVALID_VALUE);
    em_array_release(&a);
    em_array_release(&v);
    em_array_release(&i);
}

static void test_solve_det_cholesky(void)
{
    /* [[4, 1], [2, 3]] x = [1, 2]: x = [0.1, 0.6]; det 10 */
    static const double av[] = {4, 1, 2, 3}, bv[] = {1, 2},
                        sing[] = {1, 2, 2, 4}, spd[] = {4, 2, 2, 5};
    int64_t s22[2] = {2, 2}, s21[2] = {2, 1};
    em_array a = {0}, b = {0}, x = {0}, d = {0}, sg = {0}, la = {0}, s = {0},
             l = {0}, f = {0}, fx = {0}, fb = {0};
    make(&a, EM_FLOAT64, 2, s22, av);
    make(&b, EM_FLOAT64, 2, s21, bv);
    CHECK_OK(em_linalg_solve(&a, &b, &x));
    CHECK(x.ndim == 2 && x.shape[0] == 2 && x.shape[1] == 1);
    CHECK(fabs(((double *)x.data)[0] - 0.1) < 1e-14 &&
          fabs(((double *)x.data)[1] - 0.6) < 1e-14);
    CHECK_OK(em_linalg_det(&a, &d, &sg, &la));
    CHECK(fabs(*(double *)d.data - 10) < 1e-12 && *(double *)sg.data == 1 &&
          fabs(*(double *)la.data - log(10.0)) < 1e-14);
    make(&f, EM_FLOAT32, 2, s22, av);
    make(&fb, EM_FLOAT32, 2, s21, bv);
    CHECK_OK(em_linalg_solve(&f, &fb, &fx));
    CHECK(fx.dtype == EM_FLOAT32 && fabsf(((float *)fx.data)[1] - 0.6f) < 1e-6f);
    make(&s, EM_FLOAT64, 2, s22, sing);
    em_array_release(&x); /* results go into zeroed arrays */
    CHECK_STATUS(em_linalg_inv(&s, &x), EM_ERR_LINALG);
    CHECK(x.storage == NULL);
    CHECK(strstr(em_last_error(), "Singular matrix") != NULL);
    /* [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]] */
    em_array_release(&s);
    make(&s, EM_FLOAT64, 2, s22, spd);
    CHECK_OK(em_linalg_cholesky(&s, 0, &l));
    CHECK(((double *)l.data)[0] == 2 && ((double *)l.data)[1] == 0 &&
          ((double *)l.data)[2] == 1 && ((double *)l.data)[3] == 2);
    em_array_release(&l);
    CHECK_OK(em_linalg_cholesky(&s, 1, &l));
    CHECK(((double *)l.data)[1] == 1 && ((double *)l.data)[2] == 0);
    em_array_release(&l);
    CHECK_STATUS(em_linalg_cholesky(&a, 0, &l), EM_OK); /* reads the lower */
    em_array_release(&l);
    ((double *)s.data)[0] = -1;
    CHECK_STATUS(em_linalg_cholesky(&s, 0, &l), EM_ERR_LINALG);
    CHECK(strstr(em_last_error(), "not positive definite") != NULL);
    em_array *all[] = {&a, &b, &x, &d, &sg, &la, &s, &l, &f, &fx, &fb};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        em_array_release(all[k]);
}

/* The raw pair (scipy.linalg's lu_factor/lu_solve): column-major stacks
 * in place, LAPACK's pivots and info, cuSOLVER's conventions. */
static void test_getrf_getrs(void)
{
    /* A = [[4, 1], [2, 3]] column-major: LU [[4, 1], [0.5, 2.5]], no
     * interchange; A x = [1, 2] at x = [0.1, 0.6], A^T x at [-0.1, 0.7] */
    static const double acm[] = {4, 2, 1, 3}, bv[] = {1, 2},
                        sing[] = {1, 2, 2, 4}, tall[] = {1, 5, 3, 2, 4, 6};
    int64_t s22[2] = {2, 2}, s12[2] = {1, 2}, s2[1] = {2}, s0[1] = {0},
            s23[2] = {2, 3}, s1[1] = {1};
    em_array a = {0}, ip = {0}, info = {0}, b = {0}, t = {0}, ip3 = {0};
    double *lu, *x;
    make(&a, EM_FLOAT64, 2, s22, acm);
    make(&ip, EM_INT64, 1, s2, NULL);
    make(&info, EM_INT32, 0, s0, NULL);
    CHECK_OK(em_linalg_getrf(&a, &ip, &info));
    lu = (double *)a.data;
    CHECK(lu[0] == 4 && lu[1] == 0.5 && lu[2] == 1 && lu[3] == 2.5);
    CHECK(((int64_t *)ip.data)[0] == 1 && ((int64_t *)ip.data)[1] == 2);
    CHECK(*(int32_t *)info.data == 0);
    make(&b, EM_FLOAT64, 2, s12, bv);
    CHECK_OK(em_linalg_getrs(&a, &ip, &b, 0, &info));
    x = (double *)b.data;
    CHECK(fabs(x[0] - 0.1) < 1e-15 && fabs(x[1] - 0.6) < 1e-15);
    x[0] = 1;
    x[1] = 2;
    CHECK_OK(em_linalg_getrs(&a, &ip, &b, 1, &info));
    CHECK(fabs(x[0] + 0.1) < 1e-15 && fabs(x[1] - 0.7) < 1e-15);
    CHECK_STATUS(em_linalg_getrs(&a, &ip, &b, 3, &info), EM_ERR_INVALID_VALUE);
    /* a singular matrix is info, not an error: U's zero at (2, 2) */
    em_array_release(&a);
    make(&a, EM_FLOAT64, 2, s22, sing);
    CHECK_OK(em_linalg_getrf(&a, &ip, &info));
    CHECK(*(int32_t *)info.data == 2);
    /* rectangular: 3 rows, 2 columns, min(3, 2) pivots; the 3-row
     * column-major stack is (2, 3) in C order */
    make(&t, EM_FLOAT64, 2, s23, tall);
    CHECK_OK(em_linalg_getrf(&t, &ip, &info));
    CHECK(((int64_t *)ip.data)[0] == 2); /* |5| leads the first column */
    make(&ip3, EM_INT64, 1, s1, NULL);
    CHECK_STATUS(em_linalg_getrf(&t, &ip3, &info), EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "ipiv") != NULL);
    CHECK_STATUS(em_linalg_getrf(&t, &info, &info), EM_ERR_INVALID_VALUE);
    em_array *all[] = {&a, &ip, &info, &b, &t, &ip3};
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        em_array_release(all[k]);
}

int main(void)
{
    if (em_device_parse("cpu", &dev) != EM_OK) {
        fprintf(stderr, "test_lapack: %s\n", em_last_error());
        return 1;
    }
    add_dirs();
    test_checks();
    if (find_openblas()) {
        test_solve_det_cholesky();
        test_getrf_getrs();
    }
    return check_report("test_lapack");
}
