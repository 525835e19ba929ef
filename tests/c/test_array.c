/* The array core on the cpu device: making arrays, references, views
 * (expected strides are NumPy 2's for the same calls), copies and fill. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "array/array_internal.h"
#include "runtime/runtime.h"

static em_device *cpu;

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define NDIM(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))

static int layout_is(const em_array *a, int ndim, const int64_t *shape,
                     const int64_t *strides)
{
    int i;
    if (a->ndim != ndim)
        return 0;
    for (i = 0; i < ndim; i++)
        if (a->shape[i] != shape[i] || a->strides[i] != strides[i])
            return 0;
    return 1;
}

#define CHECK_LAYOUT(a, shp, str) do { \
    const int64_t sh_[] = shp, st_[] = str; \
    int ok_ = layout_is(&(a), (int)(sizeof sh_ / sizeof sh_[0]), sh_, st_); \
    CHECK(ok_); \
    if (!ok_) { \
        char b1_[256], b2_[256]; \
        fprintf(stderr, "  got shape %s strides %s\n", \
                em_shape_format((a).ndim, (a).shape, b1_, sizeof b1_), \
                em_shape_format((a).ndim, (a).strides, b2_, sizeof b2_)); \
    } \
} while (0)
#define L(...) {__VA_ARGS__}

static int msg_has(const char *needle)
{
    int ok = strstr(em_last_error(), needle) != NULL;
    if (!ok)
        fprintf(stderr, "  message \"%s\" lacks \"%s\"\n", em_last_error(), needle);
    return ok;
}

static long long refs(const em_array *a) { return em_arr_storage_refs(a->storage); }

/* ---- making ------------------------------------------------------------ */

static void test_empty(void)
{
    em_array a, b;
    em_pool_stats st0, st1;
    CHECK_OK(em_pool_get_stats(cpu, &st0));

    CHECK_OK(em_array_empty(cpu, EM_FLOAT32, 3, SHAPE(2, 3, 4), 'C', NULL, &a));
    CHECK_LAYOUT(a, L(2, 3, 4), L(48, 16, 4));
    CHECK(a.size == 24 && a.dtype == EM_FLOAT32 && a.device == cpu);
    CHECK(a.flags == (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_WRITEABLE | EM_ARRAY_ALIGNED));
    CHECK(a.data && a.storage && a.data == (char *)a.storage->base);
    CHECK(refs(&a) == 1);
    CHECK_OK(em_pool_get_stats(cpu, &st1));
    CHECK(st1.used_bytes >= st0.used_bytes + 96);
    em_array_release(&a);
    CHECK(a.storage == NULL && a.data == NULL && a.ndim == 0);
    em_array_release(&a);   /* a zeroed array: a no-op */
    CHECK_OK(em_pool_get_stats(cpu, &st1));
    CHECK(st1.used_bytes == st0.used_bytes);

    CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 3, SHAPE(2, 3, 4), 'F', NULL, &a));
    CHECK_LAYOUT(a, L(2, 3, 4), L(8, 16, 48));
    CHECK(a.flags == (EM_ARRAY_F_CONTIGUOUS | EM_ARRAY_WRITEABLE | EM_ARRAY_ALIGNED));
    em_array_release(&a);

    /* One axis, and none: both orders at once. */
    CHECK_OK(em_array_empty(cpu, EM_INT16, 1, SHAPE(5), 'C', NULL, &a));
    CHECK((a.flags & (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS))
          == (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS));
    em_array_release(&a);
    CHECK_OK(em_array_empty(cpu, EM_COMPLEX128, 0, NULL, 'C', NULL, &a));
    CHECK(a.ndim == 0 && a.size == 1 && a.data);
    CHECK(a.flags & EM_ARRAY_C_CONTIGUOUS && a.flags & EM_ARRAY_F_CONTIGUOUS);
    em_array_release(&a);

    /* Empty arrays still own distinct, valid storage. */
    CHECK_OK(em_array_empty(cpu, EM_FLOAT32, 2, SHAPE(0, 3), 'C', NULL, &a));
    CHECK_OK(em_array_empty(cpu, EM_FLOAT32, 2, SHAPE(0, 3), 'C', NULL, &b));
    CHECK(a.size == 0 && a.storage && a.data && a.data != b.data);
    CHECK_LAYOUT(a, L(0, 3), L(12, 4));
    CHECK(a.flags & EM_ARRAY_C_CONTIGUOUS && a.flags & EM_ARRAY_F_CONTIGUOUS);
    em_array_release(&a);
    em_array_release(&b);

    memset(&a, 0x5a, sizeof a);
    CHECK_STATUS(em_array_empty(cpu, EM_FLOAT64, 2, SHAPE(1ll << 40, 1ll << 40), 'C',
                                NULL, &a), EM_ERR_OVERFLOW);
    CHECK(a.storage == NULL);   /* zeroed on failure: releasing is safe */
    CHECK_STATUS(em_array_empty(cpu, EM_FLOAT64, 1, SHAPE(1ll << 61), 'C', NULL, &a),
                 EM_ERR_OVERFLOW);
    CHECK_STATUS(em_array_empty(cpu, EM_FLOAT64, 2, SHAPE(2, -1), 'C', NULL, &a),
                 EM_ERR_INVALID_VALUE);
    CHECK(msg_has("negative"));
    CHECK_STATUS(em_array_empty(cpu, EM_FLOAT64, 1, SHAPE(2), 'K', NULL, &a),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_empty(cpu, (em_dtype)99, 1, SHAPE(2), 'C', NULL, &a),
                 EM_ERR_TYPE);
    CHECK_STATUS(em_array_empty(cpu, EM_FLOAT64, EM_MAX_NDIM + 1, SHAPE(2), 'C',
                                NULL, &a), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_empty(NULL, EM_FLOAT64, 1, SHAPE(2), 'C', NULL, &a),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_empty(cpu, EM_FLOAT64, 1, SHAPE(2), 'C', NULL, NULL),
                 EM_ERR_INVALID_VALUE);
}

static int released;
static void *released_ctx;
static void on_release(void *ctx)
{
    __atomic_add_fetch(&released, 1, __ATOMIC_SEQ_CST);
    released_ctx = ctx;
}

static void test_wrap(void)
{
    static double buf[64];
    int tag;
    em_array a, t, s, v;
    released = 0;
    CHECK_OK(em_array_wrap(cpu, buf, EM_FLOAT64, 2, SHAPE(4, 8), NULL, 0,
                           on_release, &tag, &a));
    CHECK_LAYOUT(a, L(4, 8), L(64, 8));
    CHECK(a.data == (char *)buf && a.size == 32);
    CHECK(a.flags == (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_WRITEABLE | EM_ARRAY_ALIGNED));
    CHECK_OK(em_array_transpose(&a, NULL, &t));
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{1, 3, 1}, {7, -1, -2}}, &s));
    CHECK(refs(&a) == 3);
    em_array_release(&a);
    em_array_release(&t);
    CHECK(released == 0);
    CHECK_OK(em_array_view_dtype(&s, EM_INT64, &v));
    em_array_release(&s);
    CHECK(released == 0);
    em_array_release(&v);
    CHECK(released == 1 && released_ctx == &tag);

    /* Read-only, explicit (negative) strides, misaligned data, no callback. */
    CHECK_OK(em_array_wrap(cpu, (char *)buf + 8 * 7, EM_FLOAT64, 1, SHAPE(8),
                           SHAPE(-8), 1, NULL, NULL, &a));
    CHECK(a.flags == EM_ARRAY_ALIGNED);
    em_array_release(&a);
    CHECK_OK(em_array_wrap(cpu, (char *)buf + 4, EM_FLOAT64, 1, SHAPE(3), NULL, 0,
                           NULL, NULL, &a));
    CHECK(a.flags == (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS | EM_ARRAY_WRITEABLE));
    em_array_release(&a);
    CHECK_OK(em_array_wrap(cpu, buf, EM_FLOAT64, 2, SHAPE(4, 4), SHAPE(8, 32), 0,
                           NULL, NULL, &a));
    CHECK(a.flags == (EM_ARRAY_F_CONTIGUOUS | EM_ARRAY_WRITEABLE | EM_ARRAY_ALIGNED));
    em_array_release(&a);
    /* An empty array may come with a NULL pointer; a non-empty one not. */
    CHECK_OK(em_array_wrap(cpu, NULL, EM_FLOAT64, 1, SHAPE(0), NULL, 0, NULL,
                           NULL, &a));
    em_array_release(&a);
    CHECK_STATUS(em_array_wrap(cpu, NULL, EM_FLOAT64, 1, SHAPE(2), NULL, 0, NULL,
                               NULL, &a), EM_ERR_INVALID_VALUE);
    released = 0;
    CHECK_STATUS(em_array_wrap(cpu, buf, EM_FLOAT64, 1, SHAPE(-2), NULL, 0,
                               on_release, NULL, &a), EM_ERR_INVALID_VALUE);
    CHECK(released == 0);   /* on failure the caller keeps its memory */
}

/* ---- references ---------------------------------------------------------- */

#define STRESS_THREADS 8
#define STRESS_ROUNDS 20000

static void *stress(void *arg)
{
    const em_array *a = arg;
    em_array held[4], v;
    int r, k;
    for (r = 0; r < STRESS_ROUNDS; r++) {
        for (k = 0; k < 4; k++)
            em_array_retain(a, &held[k]);
        if (em_array_transpose(&held[r & 3], NULL, &v) == EM_OK)
            em_array_release(&v);
        for (k = 3; k >= 0; k--)
            em_array_release(&held[k]);
    }
    return NULL;
}

static void test_refcount(void)
{
    em_array a, b, c;
    pthread_t th[STRESS_THREADS];
    int i, started = 0;
    CHECK_OK(em_array_empty(cpu, EM_INT32, 1, SHAPE(10), 'C', NULL, &a));
    em_array_retain(&a, &b);
    CHECK(refs(&a) == 2 && b.storage == a.storage && b.data == a.data);
    em_array_retain(&b, &c);
    CHECK(refs(&a) == 3);
    em_array_retain(&c, &c);   /* onto itself: nothing changes */
    CHECK(refs(&a) == 3);
    em_array_release(&b);
    em_array_release(&c);
    CHECK(refs(&a) == 1);
    em_array_release(&a);

    released = 0;
    {
        static int buf[16];
        CHECK_OK(em_array_wrap(cpu, buf, EM_INT32, 2, SHAPE(4, 4), NULL, 0,
                               on_release, NULL, &a));
    }
    for (i = 0; i < STRESS_THREADS; i++)
        if (pthread_create(&th[i], NULL, stress, &a) == 0)
            started++;
    CHECK(started == STRESS_THREADS);
    for (i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    CHECK(refs(&a) == 1);
    CHECK(released == 0);
    em_array_release(&a);
    CHECK(released == 1);
}

/* ---- views ------------------------------------------------------------- */

static void test_reshape(void)
{
    em_array a, t, v, c, full, z;
    CHECK_OK(em_array_empty(cpu, EM_INT64, 3, SHAPE(2, 3, 4), 'C', NULL, &a));
    CHECK_OK(em_array_reshape_view(&a, 2, SHAPE(6, 4), 'C', &v));
    CHECK_LAYOUT(v, L(6, 4), L(32, 8));
    CHECK(v.data == a.data && v.storage == a.storage && refs(&a) == 2);
    CHECK(v.flags & EM_ARRAY_C_CONTIGUOUS);
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&a, 1, SHAPE(-1), 'C', &v));
    CHECK_LAYOUT(v, L(24), L(8));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&a, 2, SHAPE(4, -1), 'C', &v));
    CHECK_LAYOUT(v, L(4, 6), L(48, 8));
    em_array_release(&v);
    /* A C-ordered block read in Fortran index order needs a copy. */
    CHECK_STATUS(em_array_reshape_view(&a, 1, SHAPE(24), 'F', &v),
                 EM_ERR_NOT_SUPPORTED);

    /* a.T: shape (4, 3, 2), strides (8, 32, 96), as NumPy reports. */
    CHECK_OK(em_array_transpose(&a, NULL, &t));
    CHECK_LAYOUT(t, L(4, 3, 2), L(8, 32, 96));
    CHECK(t.flags & EM_ARRAY_F_CONTIGUOUS && !(t.flags & EM_ARRAY_C_CONTIGUOUS));
    CHECK_STATUS(em_array_reshape_view(&t, 2, SHAPE(4, 6), 'C', &v),
                 EM_ERR_NOT_SUPPORTED);
    CHECK(msg_has("needs a copy"));
    CHECK_STATUS(em_array_reshape_view(&t, 2, SHAPE(12, 2), 'C', &v),
                 EM_ERR_NOT_SUPPORTED);
    CHECK_OK(em_array_reshape_view(&t, 4, SHAPE(2, 2, 3, 2), 'C', &v));
    CHECK_LAYOUT(v, L(2, 2, 3, 2), L(16, 8, 32, 96));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&t, 4, SHAPE(4, 3, 2, 1), 'C', &v));
    CHECK_LAYOUT(v, L(4, 3, 2, 1), L(8, 32, 96, 96));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&t, 5, SHAPE(1, 4, 1, 3, 2), 'C', &v));
    CHECK_LAYOUT(v, L(1, 4, 1, 3, 2), L(32, 8, 96, 32, 96));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&t, 2, SHAPE(4, 6), 'F', &v));
    CHECK_LAYOUT(v, L(4, 6), L(8, 32));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&t, 3, SHAPE(2, 2, 6), 'F', &v));
    CHECK_LAYOUT(v, L(2, 2, 6), L(8, 16, 32));
    em_array_release(&v);

    /* zeros((4, 6))[:, :4]: shape (4, 4), strides (48, 8). */
    CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 2, SHAPE(4, 6), 'C', NULL, &full));
    CHECK_OK(em_array_slice(&full, (const em_slice[]){{0, 4, 1}, {0, 4, 1}}, &c));
    CHECK_LAYOUT(c, L(4, 4), L(48, 8));
    CHECK_STATUS(em_array_reshape_view(&c, 1, SHAPE(16), 'C', &v), EM_ERR_NOT_SUPPORTED);
    CHECK_STATUS(em_array_reshape_view(&c, 2, SHAPE(2, 8), 'C', &v), EM_ERR_NOT_SUPPORTED);
    CHECK_OK(em_array_reshape_view(&c, 3, SHAPE(4, 2, 2), 'C', &v));
    CHECK_LAYOUT(v, L(4, 2, 2), L(48, 16, 8));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&c, 3, SHAPE(2, 2, 4), 'C', &v));
    CHECK_LAYOUT(v, L(2, 2, 4), L(96, 48, 8));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&c, 3, SHAPE(4, 4, 1), 'C', &v));
    CHECK_LAYOUT(v, L(4, 4, 1), L(48, 8, 8));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&c, 3, SHAPE(1, 4, 4), 'C', &v));
    CHECK_LAYOUT(v, L(1, 4, 4), L(192, 48, 8));
    em_array_release(&v);
    em_array_release(&c);
    /* zeros((4, 6))[:, ::2] is every other element: one stride of 16. */
    CHECK_OK(em_array_slice(&full, (const em_slice[]){{0, 4, 1}, {0, 6, 2}}, &c));
    CHECK_LAYOUT(c, L(4, 3), L(48, 16));
    CHECK_OK(em_array_reshape_view(&c, 1, SHAPE(12), 'C', &v));
    CHECK_LAYOUT(v, L(12), L(16));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&c, 3, SHAPE(2, 2, 3), 'C', &v));
    CHECK_LAYOUT(v, L(2, 2, 3), L(96, 48, 16));
    em_array_release(&v);
    em_array_release(&c);
    em_array_release(&full);

    /* zeros((3, 1, 4), int64)[:, :, ::2]: extent-1 axes do not matter. */
    CHECK_OK(em_array_empty(cpu, EM_INT64, 3, SHAPE(3, 1, 4), 'C', NULL, &full));
    CHECK_OK(em_array_slice(&full, (const em_slice[]){{0, 3, 1}, {0, 1, 1}, {0, 4, 2}},
                            &c));
    CHECK_LAYOUT(c, L(3, 1, 2), L(32, 32, 16));
    CHECK_OK(em_array_reshape_view(&c, 2, SHAPE(3, 2), 'C', &v));
    CHECK_LAYOUT(v, L(3, 2), L(32, 16));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&c, 1, SHAPE(6), 'C', &v));
    CHECK_LAYOUT(v, L(6), L(16));
    em_array_release(&v);
    CHECK_OK(em_array_reshape_view(&c, 5, SHAPE(1, 3, 1, 2, 1), 'C', &v));
    CHECK_LAYOUT(v, L(1, 3, 1, 2, 1), L(96, 32, 32, 16, 16));
    em_array_release(&v);
    em_array_release(&c);
    em_array_release(&full);

    /* Errors, worded as NumPy's. */
    CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 1, SHAPE(6), 'C', NULL, &v));
    CHECK_STATUS(em_array_reshape_view(&v, 1, SHAPE(4), 'C', &c), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("cannot reshape array of size 6 into shape (4,)"));
    CHECK_STATUS(em_array_reshape_view(&v, 2, SHAPE(-1, -1), 'C', &c), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("can only specify one unknown dimension"));
    CHECK_STATUS(em_array_reshape_view(&v, 2, SHAPE(-1, 4), 'C', &c), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("cannot reshape array of size 6 into shape (-1, 4)"));
    CHECK_STATUS(em_array_reshape_view(&v, 2, SHAPE(0, -1), 'C', &c), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_reshape_view(&v, 2, SHAPE(-2, 3), 'C', &c), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_reshape_view(&v, 2, SHAPE(1ll << 40, 1ll << 40), 'C', &c),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_reshape_view(&v, 1, SHAPE(6), 'A', &c), EM_ERR_INVALID_VALUE);
    /* In place: the reference moves, so the count stays. */
    CHECK_OK(em_array_reshape_view(&v, 2, SHAPE(3, 2), 'C', &v));
    CHECK_LAYOUT(v, L(3, 2), L(16, 8));
    CHECK(refs(&v) == 1);
    CHECK_STATUS(em_array_reshape_view(&v, 0, NULL, 'C', &c), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("cannot reshape array of size 6 into shape ()"));
    /* Fortran index order over a C block can still be a view. */
    CHECK_OK(em_array_reshape_view(&v, 3, SHAPE(3, 1, 2), 'F', &c));
    CHECK_LAYOUT(c, L(3, 1, 2), L(16, 8, 8));
    em_array_release(&c);
    em_array_release(&v);

    /* Empty arrays reshape freely; 0-d ones to any shape of size 1. */
    CHECK_OK(em_array_empty(cpu, EM_FLOAT32, 2, SHAPE(0, 3), 'C', NULL, &z));
    CHECK_OK(em_array_reshape_view(&z, 2, SHAPE(5, -1), 'C', &v));
    CHECK_LAYOUT(v, L(5, 0), L(4, 4));
    CHECK(v.size == 0);
    em_array_release(&v);
    em_array_release(&z);
    CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 0, NULL, 'C', NULL, &z));
    CHECK_OK(em_array_reshape_view(&z, 2, SHAPE(1, 1), 'C', &v));
    CHECK_LAYOUT(v, L(1, 1), L(8, 8));
    CHECK_OK(em_array_reshape_view(&v, 0, NULL, 'C', &v));
    CHECK(v.ndim == 0 && v.size == 1);
    em_array_release(&v);
    em_array_release(&z);

    em_array_release(&t);
    CHECK(refs(&a) == 1);
    em_array_release(&a);
}

static void test_transpose(void)
{
    em_array a, v;
    CHECK_OK(em_array_empty(cpu, EM_FLOAT32, 3, SHAPE(2, 3, 4), 'C', NULL, &a));
    CHECK_OK(em_array_transpose(&a, (const int[]){1, 0, 2}, &v));
    CHECK_LAYOUT(v, L(3, 2, 4), L(16, 48, 4));
    CHECK(!(v.flags & (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS)));
    CHECK(v.flags & EM_ARRAY_WRITEABLE);
    em_array_release(&v);
    CHECK_OK(em_array_transpose(&a, (const int[]){-1, 0, 1}, &v));
    CHECK_LAYOUT(v, L(4, 2, 3), L(4, 48, 16));
    em_array_release(&v);
    CHECK_STATUS(em_array_transpose(&a, (const int[]){0, 0, 1}, &v), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("repeated axis"));
    CHECK_STATUS(em_array_transpose(&a, (const int[]){0, 1, 3}, &v), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("axis 3 is out of bounds for array of dimension 3"));
    CHECK_STATUS(em_array_transpose(&a, (const int[]){0, 1, -4}, &v), EM_ERR_INVALID_VALUE);
    /* Twice reversed is the original, in place. */
    CHECK_OK(em_array_transpose(&a, NULL, &a));
    CHECK_OK(em_array_transpose(&a, NULL, &a));
    CHECK_LAYOUT(a, L(2, 3, 4), L(48, 16, 4));
    CHECK(refs(&a) == 1 && a.flags & EM_ARRAY_C_CONTIGUOUS);
    em_array_release(&a);
    CHECK_STATUS(em_array_transpose(&a, NULL, &v), EM_ERR_INVALID_VALUE);  /* released */
}

static void test_slice(void)
{
    em_array a, v, m;
    CHECK_OK(em_array_empty(cpu, EM_INT32, 1, SHAPE(10), 'C', NULL, &a));
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{2, 8, 2}}, &v));     /* [2:8:2] */
    CHECK_LAYOUT(v, L(3), L(8));
    CHECK(v.data == a.data + 8 && !(v.flags & EM_ARRAY_C_CONTIGUOUS));
    em_array_release(&v);
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{1, 10, 3}}, &v));    /* [1::3] */
    CHECK_LAYOUT(v, L(3), L(12));
    em_array_release(&v);
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{9, -1, -1}}, &v));   /* [::-1] */
    CHECK_LAYOUT(v, L(10), L(-4));
    CHECK(v.data == a.data + 36);
    em_array_release(&v);
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{8, 2, -3}}, &v));    /* [8:2:-3] */
    CHECK_LAYOUT(v, L(2), L(-12));
    CHECK(v.data == a.data + 32);
    em_array_release(&v);
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{5, 2, 1}}, &v));     /* [5:2] */
    CHECK_LAYOUT(v, L(0), L(4));
    CHECK(v.data == a.data && v.size == 0);
    em_array_release(&v);
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{-1, -1, -1}}, &v));  /* [-11::-1] */
    CHECK(v.shape[0] == 0 && v.data == a.data);
    em_array_release(&v);
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{3, 0, 0}}, &v));     /* [3] */
    CHECK(v.ndim == 0 && v.size == 1 && v.data == a.data + 12);
    em_array_release(&v);
    CHECK_STATUS(em_array_slice(&a, (const em_slice[]){{10, 0, 0}}, &v), EM_ERR_INDEX);
    CHECK(msg_has("index 10 is out of bounds for axis 0 with size 10"));
    CHECK_STATUS(em_array_slice(&a, (const em_slice[]){{-1, 0, 0}}, &v), EM_ERR_INDEX);
    CHECK_STATUS(em_array_slice(&a, (const em_slice[]){{11, 12, 1}}, &v),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_slice(&a, (const em_slice[]){{10, 0, -1}}, &v),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_slice(&a, (const em_slice[]){{0, 5, INT64_MIN}}, &v),
                 EM_ERR_INVALID_VALUE);
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{0, 10, INT64_MAX}}, &v));
    CHECK_LAYOUT(v, L(1), L(4));
    em_array_release(&v);
    em_array_release(&a);

    CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 2, SHAPE(3, 4), 'C', NULL, &m));
    CHECK_OK(em_array_slice(&m, (const em_slice[]){{1, 0, 0}, {3, -1, -1}}, &v));
    CHECK_LAYOUT(v, L(4), L(-8));
    CHECK(v.data == m.data + 32 + 24);
    em_array_release(&v);
    CHECK_OK(em_array_slice(&m, (const em_slice[]){{0, 3, 1}, {1, 3, 1}}, &v));
    CHECK_LAYOUT(v, L(3, 2), L(32, 8));
    CHECK(!(v.flags & (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS)));
    em_array_release(&v);
    CHECK_OK(em_array_slice(&m, (const em_slice[]){{2, 3, 1}, {0, 4, 1}}, &v));
    CHECK(v.flags & EM_ARRAY_C_CONTIGUOUS);   /* one row: contiguous */
    em_array_release(&v);
    CHECK_STATUS(em_array_slice(&m, (const em_slice[]){{0, 3, 1}, {5, 0, 0}}, &v),
                 EM_ERR_INDEX);
    CHECK(msg_has("index 5 is out of bounds for axis 1 with size 4"));
    CHECK_STATUS(em_array_slice(&m, NULL, &v), EM_ERR_INVALID_VALUE);
    em_array_release(&m);
}

static void test_broadcast(void)
{
    em_array a, v;
    CHECK_OK(em_array_empty(cpu, EM_FLOAT32, 1, SHAPE(3), 'C', NULL, &a));
    CHECK_OK(em_array_broadcast_to(&a, 2, SHAPE(2, 3), &v));
    CHECK_LAYOUT(v, L(2, 3), L(0, 4));
    CHECK(v.size == 6 && !(v.flags & EM_ARRAY_WRITEABLE));
    CHECK(!(v.flags & (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS)));
    em_array_release(&v);
    CHECK_STATUS(em_array_broadcast_to(&a, 1, SHAPE(4), &v), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("(3,)") && msg_has("(4,)"));
    CHECK_OK(em_array_broadcast_to(&a, 2, SHAPE(0, 3), &v));
    CHECK(v.size == 0);
    em_array_release(&v);
    em_array_release(&a);

    CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 2, SHAPE(1, 3), 'C', NULL, &a));
    CHECK_OK(em_array_broadcast_to(&a, 3, SHAPE(4, 2, 3), &v));
    CHECK_LAYOUT(v, L(4, 2, 3), L(0, 0, 8));
    em_array_release(&v);
    CHECK_OK(em_array_broadcast_to(&a, 2, SHAPE(1, 3), &v));
    CHECK_LAYOUT(v, L(1, 3), L(0, 8));   /* NumPy zeroes extent-1 strides too */
    CHECK(v.flags & EM_ARRAY_C_CONTIGUOUS && !(v.flags & EM_ARRAY_WRITEABLE));
    em_array_release(&v);
    CHECK_STATUS(em_array_broadcast_to(&a, 1, SHAPE(3), &v), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_array_broadcast_to(&a, 2, SHAPE(2, -3), &v), EM_ERR_INVALID_VALUE);
    em_array_release(&a);
}

static void test_view_dtype(void)
{
    em_array a, v, t;
    CHECK_OK(em_array_empty(cpu, EM_FLOAT32, 2, SHAPE(2, 3), 'C', NULL, &a));
    CHECK_OK(em_array_view_dtype(&a, EM_INT32, &v));
    CHECK(v.dtype == EM_INT32 && v.data == a.data && v.storage == a.storage);
    CHECK_LAYOUT(v, L(2, 3), L(12, 4));
    em_array_release(&v);
    CHECK_OK(em_array_transpose(&a, NULL, &t));
    CHECK_OK(em_array_view_dtype(&t, EM_UINT32, &t));
    CHECK(t.dtype == EM_UINT32 && t.flags & EM_ARRAY_F_CONTIGUOUS && refs(&a) == 2);
    em_array_release(&t);
    /* another itemsize rescales the last axis (NumPy's rule) */
    CHECK_OK(em_array_view_dtype(&a, EM_INT16, &v));
    CHECK(v.size == 12 && v.data == a.data);
    CHECK_LAYOUT(v, L(2, 6), L(12, 2));
    em_array_release(&v);
    /* 12 bytes a row hold no whole float64 */
    CHECK_STATUS(em_array_view_dtype(&a, EM_FLOAT64, &v), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("float32") && msg_has("float64") && msg_has("12 bytes"));
    CHECK_OK(em_array_transpose(&a, NULL, &t));   /* last axis strided */
    CHECK_STATUS(em_array_view_dtype(&t, EM_INT16, &v), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("last axis must be contiguous"));
    em_array_release(&t);
    CHECK_STATUS(em_array_view_dtype(&a, EM_DTYPE_COUNT, &v), EM_ERR_TYPE);
    em_array_release(&a);
}

/* ---- copies and fill -------------------------------------------------- */

static int32_t *i32(const em_array *a) { return (int32_t *)(void *)a->data; }

static void iota32(em_array *a)
{
    int64_t i;
    for (i = 0; i < a->size; i++)
        i32(a)[i] = (int32_t)i;
}

/* Contiguous copies are a memcpy and need no kernel. */
static void test_copy_memcpy(void)
{
    em_array a, b, f, v;
    int i, ok = 1;
    CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(3, 4), 'C', NULL, &a));
    CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(3, 4), 'C', NULL, &b));
    iota32(&a);
    memset(b.data, 0, 48);
    CHECK_OK(em_array_copy(&b, &a, NULL));
    CHECK(memcmp(a.data, b.data, 48) == 0);
    /* An F-ordered pair is one block too; so is a (1, 3, 4) source. */
    CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(3, 4), 'F', NULL, &f));
    CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(3, 4), 'F', NULL, &v));
    iota32(&f);
    CHECK_OK(em_array_copy(&v, &f, NULL));
    CHECK(memcmp(v.data, f.data, 48) == 0);
    em_array_release(&f);
    em_array_release(&v);
    em_array_release(&b);
    CHECK_OK(em_array_empty(cpu, EM_INT32, 3, SHAPE(1, 3, 4), 'C', NULL, &b));
    memset(b.data, 0, 48);
    {
        em_array d;
        CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(3, 4), 'C', NULL, &d));
        CHECK_OK(em_array_copy(&b, &a, NULL));      /* (3,4) into (1,3,4) */
        CHECK_OK(em_array_copy(&d, &b, NULL));      /* (1,3,4) into (3,4) */
        CHECK(memcmp(d.data, a.data, 48) == 0);
        em_array_release(&d);
    }
    em_array_release(&b);

    /* Overlap: a[1:] = a[:-1] on a flat view shifts by one, as NumPy. */
    {
        em_array flat, lo, hi;
        CHECK_OK(em_array_reshape_view(&a, 1, SHAPE(12), 'C', &flat));
        CHECK_OK(em_array_slice(&flat, (const em_slice[]){{1, 12, 1}}, &hi));
        CHECK_OK(em_array_slice(&flat, (const em_slice[]){{0, 11, 1}}, &lo));
        CHECK_OK(em_array_copy(&hi, &lo, NULL));
        for (i = 0; i < 12; i++)
            ok &= i32(&a)[i] == (i ? i - 1 : 0);
        CHECK(ok);
        CHECK_OK(em_array_copy(&flat, &flat, NULL));   /* itself: nothing */
        em_array_release(&flat);
        em_array_release(&lo);
        em_array_release(&hi);
    }

    /* Bad input. */
    CHECK_OK(em_array_empty(cpu, EM_INT32, 1, SHAPE(4), 'C', NULL, &b));
    CHECK_STATUS(em_array_copy(&b, &a, NULL), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("could not broadcast input array from shape (3, 4) into shape (4,)"));
    CHECK_OK(em_array_broadcast_to(&b, 2, SHAPE(3, 4), &v));
    CHECK_STATUS(em_array_copy(&v, &a, NULL), EM_ERR_INVALID_VALUE);
    CHECK(msg_has("read-only"));
    em_array_release(&v);
    em_array_release(&b);

    /* fill: zero bytes, and a value whose bytes repeat, are memsets. */
    {
        double zero = 0.0;
        int32_t minus1 = -1;
        CHECK_OK(em_array_fill(&a, &zero, EM_FLOAT64, NULL));
        for (i = 0, ok = 1; i < 12; i++)
            ok &= i32(&a)[i] == 0;
        CHECK(ok);
        CHECK_OK(em_array_fill(&a, &minus1, EM_INT32, NULL));
        for (i = 0, ok = 1; i < 12; i++)
            ok &= i32(&a)[i] == -1;
        CHECK(ok);
        CHECK_STATUS(em_array_fill(&a, NULL, EM_INT32, NULL), EM_ERR_INVALID_VALUE);
        CHECK_STATUS(em_array_fill(&a, &minus1, (em_dtype)-1, NULL), EM_ERR_TYPE);
    }
    em_array_release(&a);
}

/* Copies between layouts and dtypes: the generated copy kernel. */
static void test_copy_kernel(void)
{
    em_array a, b, t, r, d, row;
    int i, j, ok = 1;
    CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(3, 4), 'C', NULL, &a));
    iota32(&a);

    /* Transposed into C order: b[i][j] = a[j][i]. */
    CHECK_OK(em_array_transpose(&a, NULL, &t));
    CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(4, 3), 'C', NULL, &b));
    CHECK_OK(em_array_copy(&b, &t, NULL));
    for (i = 0; i < 4; i++)
        for (j = 0; j < 3; j++)
            ok &= i32(&b)[i * 3 + j] == j * 4 + i;
    CHECK(ok);
    em_array_release(&b);

    /* Reversed rows with negative strides. */
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{2, -1, -1}, {3, -1, -1}}, &r));
    CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(3, 4), 'C', NULL, &b));
    CHECK_OK(em_array_copy(&b, &r, NULL));
    for (i = 0, ok = 1; i < 12; i++)
        ok &= i32(&b)[i] == 11 - i;
    CHECK(ok);
    em_array_release(&r);

    /* Broadcast a row over every row, cast to float64. */
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{1, 0, 0}, {0, 4, 1}}, &row));
    CHECK_OK(em_array_empty(cpu, EM_FLOAT64, 2, SHAPE(3, 4), 'C', NULL, &d));
    CHECK_OK(em_array_copy(&d, &row, NULL));
    for (i = 0, ok = 1; i < 12; i++)
        ok &= ((double *)(void *)d.data)[i] == (double)(4 + i % 4);
    CHECK(ok);

    /* Into a strided destination: every other column of a (3, 8). */
    {
        em_array wide, cols;
        CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(3, 8), 'C', NULL, &wide));
        memset(wide.data, 0, 96);
        CHECK_OK(em_array_slice(&wide, (const em_slice[]){{0, 3, 1}, {0, 8, 2}},
                                &cols));
        CHECK_OK(em_array_copy(&cols, &a, NULL));
        for (i = 0, ok = 1; i < 24; i++)
            ok &= i32(&wide)[i] == (i % 2 ? 0 : (i / 8) * 4 + (i % 8) / 2);
        CHECK(ok);
        /* fill through the kernel: a strided view, and a cast value. */
        {
            int32_t seven = 7;
            double half = 2.5;
            CHECK_OK(em_array_fill(&cols, &seven, EM_INT32, NULL));
            for (i = 0, ok = 1; i < 24; i++)
                ok &= i32(&wide)[i] == (i % 2 ? 0 : 7);
            CHECK(ok);
            CHECK_OK(em_array_fill(&d, &half, EM_FLOAT64, NULL));
            CHECK(((double *)(void *)d.data)[11] == 2.5);
            CHECK_OK(em_array_fill(&b, &half, EM_FLOAT64, NULL));   /* unsafe cast */
            CHECK(i32(&b)[5] == 2);
        }
        em_array_release(&cols);
        em_array_release(&wide);
    }

    /* Overlapping and not the same layout: a = a.T on a square array. */
    {
        em_array sq, sqt;
        CHECK_OK(em_array_empty(cpu, EM_INT32, 2, SHAPE(3, 3), 'C', NULL, &sq));
        iota32(&sq);
        CHECK_OK(em_array_transpose(&sq, NULL, &sqt));
        CHECK_OK(em_array_copy(&sq, &sqt, NULL));
        for (i = 0, ok = 1; i < 3; i++)
            for (j = 0; j < 3; j++)
                ok &= i32(&sq)[i * 3 + j] == j * 3 + i;
        CHECK(ok);
        em_array_release(&sqt);
        em_array_release(&sq);
    }

    em_array_release(&row);
    em_array_release(&d);
    em_array_release(&b);
    em_array_release(&t);
    em_array_release(&a);
}

/* A full device: the failure is reported, *out is zeroed and nothing
 * leaks, also from inside a copy that needs a temporary. */
static void test_out_of_memory(void)
{
    em_array a, lo, hi;
    uint64_t allocs0, frees0, allocs1, frees1;
    em_pool_stats st0, st1;
    CHECK_OK(em_pool_free_all(cpu));
    CHECK_OK(em_pool_get_stats(cpu, &st0));
    em_rt_pool_raw_counts(&allocs0, &frees0);
    em_rt_pool_inject_alloc_failures(1, 2);   /* the try and the retry */
    memset(&a, 0x5a, sizeof a);
    CHECK_STATUS(em_array_empty(cpu, EM_FLOAT64, 1, SHAPE(1000), 'C', NULL, &a),
                 EM_ERR_OUT_OF_MEMORY);
    CHECK(msg_has("8000 bytes"));
    CHECK(a.storage == NULL);
    em_rt_pool_inject_alloc_failures(0, 0);

    CHECK_OK(em_array_empty(cpu, EM_INT32, 1, SHAPE(1000), 'C', NULL, &a));
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{1, 1000, 1}}, &hi));
    CHECK_OK(em_array_slice(&a, (const em_slice[]){{0, 999, 1}}, &lo));
    em_rt_pool_inject_alloc_failures(1, 2);
    CHECK_STATUS(em_array_copy(&hi, &lo, NULL), EM_ERR_OUT_OF_MEMORY);
    em_rt_pool_inject_alloc_failures(0, 0);
    em_array_release(&hi);
    em_array_release(&lo);
    em_array_release(&a);
    CHECK_OK(em_pool_free_all(cpu));
    CHECK_OK(em_pool_get_stats(cpu, &st1));
    em_rt_pool_raw_counts(&allocs1, &frees1);
    CHECK(st1.used_bytes == st0.used_bytes);
    CHECK(allocs1 - allocs0 == frees1 - frees0);
}

int main(void)
{
    em_pool_stats st;
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &cpu));
    if (!cpu)
        return check_report("test_array");
    test_empty();
    test_wrap();
    test_refcount();
    test_reshape();
    test_transpose();
    test_slice();
    test_broadcast();
    test_view_dtype();
    test_copy_memcpy();
    test_copy_kernel();
    test_out_of_memory();
    CHECK_OK(em_pool_get_stats(cpu, &st));
    CHECK(st.used_bytes == 0);   /* every array above was released */
    return check_report("test_array");
}
