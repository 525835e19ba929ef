/* ember C tests: include/ember/manip.h on the cpu device — values against
 * hand-computed (NumPy's) results, view layouts, and the error statuses.
 * Every function here is composed from copy/fill/ufunc kernels that
 * test_ewise_gen already compiles with NVRTC; manip adds no generator. */
#include <string.h>
#include "check.h"

static em_device *cpu;

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

/* A new int32 array of the given shape holding vals (C order). */
static em_array make_i32(int ndim, const int64_t *shape, const int32_t *vals)
{
    em_array a;
    memset(&a, 0, sizeof a);
    CHECK_OK(em_array_empty(cpu, EM_INT32, ndim, shape, 'C', NULL, &a));
    if (a.size)
        CHECK_OK(em_array_from_host(&a, vals, NULL, NULL));
    return a;
}

/* a's elements (any layout) equal want, as int32 after a cast. */
static int equals_i32(const em_array *a, const int32_t *want, int64_t n)
{
    int32_t got[256];
    em_array c;
    int ok;
    if (a->size != n || n > 256)
        return 0;
    if (!n)
        return 1;
    memset(&c, 0, sizeof c);
    if (em_array_empty(cpu, EM_INT32, a->ndim, a->shape, 'C', NULL, &c) != EM_OK)
        return 0;
    ok = em_array_copy(&c, a, NULL) == EM_OK &&
         em_array_to_host(&c, got, NULL, NULL) == EM_OK &&
         !memcmp(got, want, sizeof(int32_t) * (size_t)n);
    if (!ok) {
        int64_t i;
        fprintf(stderr, "got:");
        for (i = 0; i < n; i++)
            fprintf(stderr, " %d", got[i]);
        fprintf(stderr, "\n");
    }
    em_array_release(&c);
    return ok;
}

static void test_concatenate(void)
{
    static const int32_t v1[] = {0, 1, 2, 3}, v2[] = {4, 5, 6, 7, 8, 9};
    em_array a = make_i32(2, SHAPE(2, 2), v1), b = make_i32(2, SHAPE(3, 2), v2);
    em_array c = make_i32(2, SHAPE(2, 3), v2), r;
    const em_array *in[2] = {&a, &b};
    memset(&r, 0, sizeof r);
    CHECK_OK(em_array_concatenate(in, 2, 0, -1, EM_CASTING_SAME_KIND, &r, NULL));
    CHECK(r.ndim == 2 && r.shape[0] == 5 && r.shape[1] == 2 && r.dtype == EM_INT32);
    CHECK(equals_i32(&r, (const int32_t[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 10));
    em_array_release(&r);
    in[1] = &c;
    CHECK_OK(em_array_concatenate(in, 2, -1, EM_FLOAT64, EM_CASTING_SAME_KIND, &r, NULL));
    CHECK(r.shape[0] == 2 && r.shape[1] == 5 && r.dtype == EM_FLOAT64);
    CHECK(equals_i32(&r, (const int32_t[]){0, 1, 4, 5, 6, 2, 3, 7, 8, 9}, 10));
    em_array_release(&r);
    CHECK_STATUS(em_array_concatenate(in, 2, 0, -1, EM_CASTING_SAME_KIND, &r, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "along dimension 1, the array at index 0 has size 2 "
                                  "and the array at index 1 has size 3") != NULL);
    CHECK_STATUS(em_array_concatenate(in, 2, 2, -1, EM_CASTING_SAME_KIND, &r, NULL),
                 EM_ERR_AXIS);
    CHECK_STATUS(em_array_concatenate(in, 2, 1, EM_INT8, EM_CASTING_SAFE, &r, NULL),
                 EM_ERR_TYPE);
    CHECK(strstr(em_last_error(), "according to the rule 'safe'") != NULL);
    CHECK(r.storage == NULL);
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&c);
}

static void test_views(void)
{
    static const int32_t v[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    em_array a = make_i32(2, SHAPE(3, 4), v), f, d;
    int ax = 1;
    CHECK_OK(em_array_flip(&a, &ax, 1, &f));
    CHECK(f.strides[1] == -4 && f.storage == a.storage);
    CHECK(equals_i32(&f, (const int32_t[]){3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8}, 12));
    CHECK((f.flags & EM_ARRAY_WRITEABLE) != 0);
    em_array_release(&f);
    CHECK_OK(em_array_flip(&a, NULL, -1, &f));
    CHECK(equals_i32(&f, (const int32_t[]){11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 12));
    em_array_release(&f);
    CHECK_OK(em_array_diagonal(&a, 1, 0, 1, &d));
    CHECK(d.ndim == 1 && d.shape[0] == 3 && d.strides[0] == 20);
    CHECK(!(d.flags & EM_ARRAY_WRITEABLE));
    CHECK(equals_i32(&d, (const int32_t[]){1, 6, 11}, 3));
    em_array_release(&d);
    CHECK_OK(em_array_diagonal(&a, -2, 1, 0, &d));
    CHECK(d.shape[0] == 2 && equals_i32(&d, (const int32_t[]){2, 7}, 2));
    em_array_release(&d);
    CHECK_OK(em_array_diagonal(&a, 9, 0, 1, &d));
    CHECK(d.shape[0] == 0);
    em_array_release(&d);
    CHECK_STATUS(em_array_diagonal(&a, 0, 0, -2, &d), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_flip(&a, (const int[]){0, -2}, 2, &f), EM_ERR_INVALID_VALUE);
    em_array_release(&a);
}

static void test_tile_roll_diag(void)
{
    static const int32_t v[] = {1, 2, 3, 4, 5, 6};
    em_array a = make_i32(2, SHAPE(2, 3), v), r;
    CHECK_OK(em_array_tile(&a, 2, SHAPE(2, 2), &r, NULL));
    CHECK(r.shape[0] == 4 && r.shape[1] == 6);
    CHECK(equals_i32(&r, (const int32_t[]){1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6,
                                          1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}, 24));
    em_array_release(&r);
    CHECK_OK(em_array_tile(&a, 3, SHAPE(2, 1, 1), &r, NULL));
    CHECK(r.ndim == 3 && r.shape[0] == 2 && equals_i32(&r, (const int32_t[]){
        1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}, 12));
    em_array_release(&r);
    CHECK_OK(em_array_roll(&a, SHAPE(1, -1), (const int[]){1, 0}, 2, &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){6, 4, 5, 3, 1, 2}, 6));
    em_array_release(&r);
    CHECK_STATUS(em_array_roll(&a, SHAPE(1), (const int[]){2}, 1, &r, NULL), EM_ERR_AXIS);
    CHECK_OK(em_array_diag(&a, 1, &r, NULL));
    CHECK(r.ndim == 1 && equals_i32(&r, (const int32_t[]){2, 6}, 2));
    em_array_release(&r);
    em_array_release(&a);
    a = make_i32(1, SHAPE(2), v);
    CHECK_OK(em_array_diag(&a, -1, &r, NULL));
    CHECK(r.shape[0] == 3 &&
          equals_i32(&r, (const int32_t[]){0, 0, 0, 1, 0, 0, 0, 2, 0}, 9));
    em_array_release(&r);
    em_array_release(&a);
}

static void test_pad(void)
{
    static const int32_t v[] = {1, 2, 3};
    em_array a = make_i32(1, SHAPE(3), v), r;
    int32_t cv[2] = {-1, -2};
    CHECK_OK(em_array_pad(&a, SHAPE(2, 1), EM_PAD_CONSTANT, cv, EM_INT32, NULL,
                          &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){-1, -1, 1, 2, 3, -2}, 6));
    em_array_release(&r);
    CHECK_OK(em_array_pad(&a, SHAPE(2, 1), EM_PAD_EDGE, NULL, EM_INT32, NULL, &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){1, 1, 1, 2, 3, 3}, 6));
    em_array_release(&r);
    /* np.pad([1, 2, 3], (5, 4), 'reflect') */
    CHECK_OK(em_array_pad(&a, SHAPE(5, 4), EM_PAD_REFLECT, NULL, EM_INT32, NULL,
                          &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3}, 12));
    em_array_release(&r);
    CHECK_OK(em_array_pad(&a, SHAPE(5, 4), EM_PAD_SYMMETRIC, NULL, EM_INT32,
                          NULL, &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1}, 12));
    em_array_release(&r);
    CHECK_OK(em_array_pad(&a, SHAPE(5, 4), EM_PAD_WRAP, NULL, EM_INT32, NULL, &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1}, 12));
    em_array_release(&r);
    CHECK_OK(em_array_pad(&a, SHAPE(2, 1), EM_PAD_MAXIMUM, NULL, EM_INT32, NULL, &r,
                          NULL));
    CHECK(equals_i32(&r, (const int32_t[]){3, 3, 1, 2, 3, 3}, 6));
    em_array_release(&r);
    CHECK_OK(em_array_pad(&a, SHAPE(3, 1), EM_PAD_REFLECT_ODD, NULL, EM_INT32, NULL,
                          &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){-2, -1, 0, 1, 2, 3, 4}, 7));
    em_array_release(&r);
    {
        int32_t ev[2] = {-4, 10};
        em_array b = make_i32(1, SHAPE(3), (const int32_t[]){1, 2, 5});
        CHECK_OK(em_array_pad(&b, SHAPE(2, 3), EM_PAD_LINEAR_RAMP, ev, EM_INT32, NULL,
                              &r, NULL));
        CHECK(equals_i32(&r, (const int32_t[]){-4, -2, 1, 2, 5, 6, 8, 10}, 8));
        em_array_release(&r);
        em_array_release(&b);
        b = make_i32(1, SHAPE(2), (const int32_t[]){1, 2});
        CHECK_OK(em_array_pad(&b, SHAPE(1, 1), EM_PAD_MEAN, NULL, EM_INT32, NULL, &r,
                              NULL));
        CHECK(equals_i32(&r, (const int32_t[]){2, 1, 2, 2}, 4));
        em_array_release(&r);
        CHECK_STATUS(em_array_pad(&b, SHAPE(1, 1), EM_PAD_MINIMUM, NULL, EM_INT32,
                                  SHAPE(0, 1), &r, NULL), EM_ERR_INVALID_VALUE);
        em_array_release(&b);
    }
    CHECK_STATUS(em_array_pad(&a, SHAPE(-1, 0), EM_PAD_EDGE, NULL, EM_INT32,
                              NULL, &r, NULL),
                 EM_ERR_INVALID_VALUE);
    em_array_release(&a);
    a = make_i32(1, SHAPE(0), v);
    CHECK_STATUS(em_array_pad(&a, SHAPE(1, 0), EM_PAD_REFLECT, NULL, EM_INT32,
                              NULL, &r, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "can't extend empty axis 0") != NULL);
    em_array_release(&a);
}

static void test_ranges(void)
{
    em_array r, m;
    double step[2], got[5];
    CHECK_OK(em_linspace(cpu, 0, 0, 1, 0, 5, 1, EM_FLOAT64, step, &r, NULL));
    CHECK_OK(em_array_to_host(&r, got, NULL, NULL));
    CHECK(got[0] == 0 && got[1] == 0.25 && got[4] == 1 && step[0] == 0.25);
    em_array_release(&r);
    CHECK_OK(em_linspace(cpu, -1, 0, 2, 0, 4, 0, EM_INT32, step, &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){-1, -1, 0, 1}, 4));
    em_array_release(&r);
    CHECK_STATUS(em_linspace(cpu, 0, 0, 1, 0, -1, 1, EM_FLOAT64, NULL, &r, NULL),
                 EM_ERR_INVALID_VALUE);
    CHECK_OK(em_eye(cpu, 2, 3, 1, EM_INT32, 'C', &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){0, 1, 0, 0, 0, 1}, 6));
    em_array_release(&r);
    CHECK_OK(em_tri(cpu, 3, 2, 0, EM_INT32, &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){1, 0, 1, 1, 1, 1}, 6));
    m = make_i32(2, SHAPE(3, 2), (const int32_t[]){1, 2, 3, 4, 5, 6});
    em_array_release(&r);
    CHECK_OK(em_tril(&m, 0, 1, &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){1, 2, 0, 4, 0, 0}, 6));
    em_array_release(&r);
    CHECK_OK(em_tril(&m, -1, 0, &r, NULL));
    CHECK(equals_i32(&r, (const int32_t[]){0, 0, 3, 0, 5, 6}, 6));
    em_array_release(&r);
    em_array_release(&m);
    /* linspace([0, 10], [4, 2], 3, axis=-1) in float64, then int32 */
    {
        em_array st = make_i32(1, SHAPE(2), (const int32_t[]){0, 10});
        em_array sp = make_i32(1, SHAPE(2), (const int32_t[]){4, 2}), stp;
        memset(&r, 0, sizeof r);
        CHECK_OK(em_linspace_array(&st, &sp, 3, 1, -1, EM_FLOAT64, EM_INT32, &stp, &r,
                                   NULL));
        CHECK(r.ndim == 2 && r.shape[0] == 2 && r.shape[1] == 3 && r.dtype == EM_INT32);
        CHECK(equals_i32(&r, (const int32_t[]){0, 2, 4, 10, 6, 2}, 6));
        CHECK(stp.dtype == EM_FLOAT64 && equals_i32(&stp, (const int32_t[]){2, -4}, 2));
        em_array_release(&r);
        em_array_release(&stp);
        CHECK_STATUS(em_linspace_array(&st, &sp, 3, 1, 2, EM_FLOAT64, EM_INT32, NULL, &r,
                                       NULL), EM_ERR_AXIS);
        CHECK_STATUS(em_linspace_array(&st, &sp, 3, 1, 0, EM_INT32, EM_INT32, NULL, &r,
                                       NULL), EM_ERR_TYPE);
        em_array_release(&st);
        em_array_release(&sp);
    }
}

int main(void)
{
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &cpu));
    if (!cpu)
        return check_report("test_manip");
    test_concatenate();
    test_views();
    test_tile_roll_diag();
    test_pad();
    test_ranges();
    CHECK_OK(em_device_synchronize(cpu));
    return check_report("test_manip");
}
