/* Tests of the core layer: status, dtype, shape, hash, log. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

#define LEN(a) ((int)(sizeof(a) / sizeof *(a)))

/* ---- status ----------------------------------------------------------- */

struct thread_result {
    char seen_before[64];
    char seen_after[64];
    int native;
};

static void *other_thread(void *arg)
{
    struct thread_result *r = arg;
    snprintf(r->seen_before, sizeof r->seen_before, "%s", em_last_error());
    em_error_native(EM_ERR_CUDA, 2, "CUDA_ERROR_OUT_OF_MEMORY",
                    "thread message %d", 7);
    snprintf(r->seen_after, sizeof r->seen_after, "%s", em_last_error());
    r->native = em_last_error_native();
    return NULL;
}

static void test_status(void)
{
    static const char *const names[] = {
        "EM_OK", "EM_ERR_INVALID_VALUE", "EM_ERR_TYPE", "EM_ERR_INDEX",
        "EM_ERR_OUT_OF_MEMORY", "EM_ERR_NOT_FOUND", "EM_ERR_UNAVAILABLE",
        "EM_ERR_CUDA", "EM_ERR_DEVICE_FAULT", "EM_ERR_COMPILE", "EM_ERR_IO",
        "EM_ERR_NOT_SUPPORTED", "EM_ERR_OVERFLOW", "EM_ERR_INTERNAL",
        "EM_ERR_AXIS", "EM_ERR_LINALG", "EM_ERR_CAPTURE",
    };
    struct thread_result r;
    pthread_t t;
    char big[20000];
    int i;

    CHECK(LEN(names) == EM_STATUS_COUNT);
    for (i = 0; i < EM_STATUS_COUNT; i++)
        CHECK(!strcmp(em_status_name((em_status)i), names[i]));
    CHECK(!strcmp(em_status_name(EM_STATUS_COUNT), "EM_ERR_UNKNOWN"));
    CHECK(!strcmp(em_status_name((em_status)-1), "EM_ERR_UNKNOWN"));

    CHECK(em_error(EM_ERR_INDEX, "index %d out of range for %s", 5, "axis 0")
          == EM_ERR_INDEX);
    CHECK(!strcmp(em_last_error(), "index 5 out of range for axis 0"));
    CHECK(em_last_error_native() == 0);
    CHECK(!strcmp(em_last_error_native_name(), ""));

    CHECK(em_error_native(EM_ERR_CUDA, 700, "CUDA_ERROR_ILLEGAL_ADDRESS",
                          "cuCtxSynchronize: %s", "fault") == EM_ERR_CUDA);
    CHECK(em_last_error_native() == 700);
    CHECK(!strcmp(em_last_error_native_name(), "CUDA_ERROR_ILLEGAL_ADDRESS"));
    CHECK(!strcmp(em_last_error(), "cuCtxSynchronize: fault"));
    /* A plain error clears the native part of the previous one. */
    em_error(EM_ERR_TYPE, "plain");
    CHECK(em_last_error_native() == 0);
    CHECK(!strcmp(em_last_error_native_name(), ""));
    em_error_native(EM_ERR_IO, 2, NULL, "x");
    CHECK(!strcmp(em_last_error_native_name(), ""));

    /* Wrapping the previous message in a new one must not corrupt it. */
    em_error(EM_ERR_COMPILE, "inner %d", 1);
    em_error(EM_ERR_COMPILE, "outer: %s", em_last_error());
    CHECK(!strcmp(em_last_error(), "outer: inner 1"));

    /* An overlong message is truncated, never overflows. */
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    em_error(EM_ERR_COMPILE, "%s", big);
    CHECK(strlen(em_last_error()) > 1000 && strlen(em_last_error()) < 20000);
    CHECK(em_last_error()[0] == 'x');

    /* Messages are per thread. */
    em_error(EM_ERR_INVALID_VALUE, "main thread message");
    memset(&r, 0, sizeof r);
    CHECK(pthread_create(&t, NULL, other_thread, &r) == 0);
    CHECK(pthread_join(t, NULL) == 0);
    CHECK(!strcmp(r.seen_before, ""));
    CHECK(!strcmp(r.seen_after, "thread message 7"));
    CHECK(r.native == 2);
    CHECK(!strcmp(em_last_error(), "main thread message"));
    CHECK(em_last_error_native() == 0);
}

/* ---- dtype ------------------------------------------------------------ */

struct dtype_row {
    em_dtype id;
    const char *name, *c_type, *code;
    char typechar, kind;
    em_dtype_kind kind_id;
    int size, align;
};

static const struct dtype_row dtype_rows[] = {
    {EM_BOOL, "bool", "bool", "b1", '?', 'b', EM_KIND_BOOL, 1, 1},
    {EM_INT8, "int8", "int8_t", "i1", 'b', 'i', EM_KIND_INT, 1, 1},
    {EM_INT16, "int16", "int16_t", "i2", 'h', 'i', EM_KIND_INT, 2, 2},
    {EM_INT32, "int32", "int32_t", "i4", 'i', 'i', EM_KIND_INT, 4, 4},
    {EM_INT64, "int64", "int64_t", "i8", 'q', 'i', EM_KIND_INT, 8, 8},
    {EM_UINT8, "uint8", "uint8_t", "u1", 'B', 'u', EM_KIND_UINT, 1, 1},
    {EM_UINT16, "uint16", "uint16_t", "u2", 'H', 'u', EM_KIND_UINT, 2, 2},
    {EM_UINT32, "uint32", "uint32_t", "u4", 'I', 'u', EM_KIND_UINT, 4, 4},
    {EM_UINT64, "uint64", "uint64_t", "u8", 'Q', 'u', EM_KIND_UINT, 8, 8},
    {EM_FLOAT16, "float16", "__half", "f2", 'e', 'f', EM_KIND_FLOAT, 2, 2},
    {EM_BFLOAT16, "bfloat16", "__nv_bfloat16", NULL, 'E', 'f', EM_KIND_FLOAT, 2, 2},
    {EM_FLOAT32, "float32", "float", "f4", 'f', 'f', EM_KIND_FLOAT, 4, 4},
    {EM_FLOAT64, "float64", "double", "f8", 'd', 'f', EM_KIND_FLOAT, 8, 8},
    {EM_COMPLEX64, "complex64", "complex64", "c8", 'F', 'c', EM_KIND_COMPLEX, 8, 4},
    {EM_COMPLEX128, "complex128", "complex128", "c16", 'D', 'c', EM_KIND_COMPLEX, 16, 8},
};

static em_dtype parse(const char *name)
{
    em_dtype d = EM_DTYPE_COUNT;
    if (em_dtype_from_name(name, &d) != EM_OK) {
        fprintf(stderr, "em_dtype_from_name(\"%s\"): %s\n", name,
                em_last_error());
        return EM_DTYPE_COUNT;
    }
    return d;
}

static void test_dtype(void)
{
    static const struct { const char *s; em_dtype d; } ok[] = {
        {"float", EM_FLOAT64}, {"int", EM_INT64}, {"complex", EM_COMPLEX128},
        {"bool", EM_BOOL}, {"<f4", EM_FLOAT32}, {"=f8", EM_FLOAT64},
        {"|b1", EM_BOOL}, {"|u1", EM_UINT8}, {">i1", EM_INT8},
        {">u1", EM_UINT8}, {"<c16", EM_COMPLEX128}, {"f2", EM_FLOAT16},
        {"l", EM_INT64}, {"L", EM_UINT64}, {"<f", EM_FLOAT32}, {"=d", EM_FLOAT64},
        {"double", EM_FLOAT64}, {"single", EM_FLOAT32}, {"half", EM_FLOAT16},
        {"intc", EM_INT32}, {"longlong", EM_INT64}, {"ubyte", EM_UINT8},
        {"p", EM_INT64}, {"<?", EM_BOOL},
    };
    static const char *const bad[] = {
        "xyz", "", "f3", "i16", "f0", "float33", "Float32", "b2", "u",
        "<", "<<f4", "f4 ", " f4", "i04", "e2", "bf16", "c3", "Mystery",
    };
    static const char *const unsupported[] = {
        "object", "O", "U8", "<U8", "S5", "M8[ns]", "datetime64", "g", "V16",
        "c",
    };
    em_dtype d;
    int i;

    CHECK(LEN(dtype_rows) == EM_DTYPE_COUNT);
    for (i = 0; i < LEN(dtype_rows); i++) {
        const struct dtype_row *w = &dtype_rows[i];
        const em_dtype_info *info = em_dtype_get(w->id);
        char tc[2] = {w->typechar, 0};
        CHECK(info != NULL);
        if (!info)
            continue;
        CHECK((int)w->id == i);
        CHECK(info->id == w->id);
        CHECK(!strcmp(info->name, w->name));
        CHECK(!strcmp(info->c_type, w->c_type));
        CHECK(info->typechar == w->typechar);
        CHECK(info->kind == w->kind);
        CHECK(info->kind_id == w->kind_id);
        CHECK(info->size == w->size);
        CHECK(info->align == w->align);
        CHECK(em_dtype_size(w->id) == (size_t)w->size);
        CHECK(parse(w->name) == w->id);
        CHECK(parse(tc) == w->id);
        if (w->code) {
            char code[8];
            CHECK(parse(w->code) == w->id);
            snprintf(code, sizeof code, "<%s", w->code);
            CHECK(parse(code) == w->id);
            snprintf(code, sizeof code, "=%s", w->code);
            CHECK(parse(code) == w->id);
            snprintf(code, sizeof code, "|%s", w->code);
            CHECK(parse(code) == w->id);
        }
    }
    /* the vendor columns: BLAS's s d c z, and cudaDataType's values from
     * library_types.h; integers and bool have neither */
    {
        static const struct { em_dtype d; int blas, cuda; } vendor[] = {
            {EM_FLOAT16, -1, 2}, {EM_BFLOAT16, -1, 14}, {EM_FLOAT32, 0, 0},
            {EM_FLOAT64, 1, 1}, {EM_COMPLEX64, 2, 4}, {EM_COMPLEX128, 3, 5},
        };
        int named = 0;
        for (i = 0; i < LEN(vendor); i++) {
            CHECK(em_dtype_get(vendor[i].d)->blas == vendor[i].blas);
            CHECK(em_dtype_get(vendor[i].d)->cuda_type == vendor[i].cuda);
        }
        for (i = 0; i < EM_DTYPE_COUNT; i++) {
            const em_dtype_info *info = em_dtype_get((em_dtype)i);
            if (info->kind_id == EM_KIND_FLOAT || info->kind_id == EM_KIND_COMPLEX)
                named++;
            else
                CHECK(info->blas == -1 && info->cuda_type == -1);
        }
        CHECK(named == LEN(vendor));
    }
    CHECK(em_dtype_get(EM_DTYPE_COUNT) == NULL);
    CHECK(em_dtype_get((em_dtype)-1) == NULL);
    CHECK(em_dtype_size(EM_DTYPE_COUNT) == 0);

    for (i = 0; i < LEN(ok); i++)
        CHECK(parse(ok[i].s) == ok[i].d);

    for (i = 0; i < LEN(bad); i++) {
        char want[128];
        d = EM_INT8;
        CHECK_STATUS(em_dtype_from_name(bad[i], &d), EM_ERR_TYPE);
        CHECK(d == EM_INT8);  /* untouched on failure */
        snprintf(want, sizeof want, "data type '%s' not understood", bad[i]);
        CHECK(!strcmp(em_last_error(), want));
    }
    for (i = 0; i < LEN(unsupported); i++) {
        CHECK_STATUS(em_dtype_from_name(unsupported[i], &d), EM_ERR_TYPE);
        CHECK(strstr(em_last_error(), "not supported") != NULL);
        CHECK(strstr(em_last_error(), unsupported[i]) != NULL);
    }

    /* Big-endian multi-byte types are refused, naming the order. */
    CHECK_STATUS(em_dtype_from_name(">f4", &d), EM_ERR_TYPE);
    CHECK(strstr(em_last_error(), "'>f4'") != NULL);
    CHECK(strstr(em_last_error(), "big-endian") != NULL);
    CHECK_STATUS(em_dtype_from_name("!i8", &d), EM_ERR_TYPE);
    CHECK_STATUS(em_dtype_from_name(">d", &d), EM_ERR_TYPE);

    CHECK_STATUS(em_dtype_from_name(NULL, &d), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_dtype_from_name("f4", NULL), EM_ERR_INVALID_VALUE);

    /* A long unknown name is quoted, cut short, in the message. */
    {
        char lng[300];
        memset(lng, 'z', sizeof lng - 1);
        lng[sizeof lng - 1] = 0;
        CHECK_STATUS(em_dtype_from_name(lng, &d), EM_ERR_TYPE);
        CHECK(strlen(em_last_error()) < 120);
    }
}

/* ---- shape ------------------------------------------------------------ */

static int same(int n, const int64_t *a, const int64_t *b)
{
    return memcmp(a, b, (size_t)n * sizeof *a) == 0;
}

static void test_shape_size(void)
{
    int64_t n = -1;
    int64_t s1[] = {2, 3, 4}, s0[] = {2, 0, 5}, neg[] = {2, -1};
    int64_t big[] = {INT64_C(1) << 32, INT64_C(1) << 31};      /* 2^63 */
    int64_t fits[] = {INT64_C(1) << 31, INT64_C(1) << 31, 3}; /* 3*2^62 ovf */
    int64_t edge[] = {INT64_C(1) << 31, (INT64_C(1) << 31) - 1, 2};
    int64_t emptybig[] = {0, INT64_MAX, INT64_MAX};
    int64_t many[EM_MAX_NDIM + 1];

    CHECK_OK(em_shape_size(0, NULL, &n));
    CHECK(n == 1);
    CHECK_OK(em_shape_size(3, s1, &n));
    CHECK(n == 24);
    CHECK_OK(em_shape_size(3, s0, &n));
    CHECK(n == 0);
    CHECK_OK(em_shape_size(3, emptybig, &n));
    CHECK(n == 0);
    CHECK_OK(em_shape_size(3, edge, &n));
    CHECK(n == INT64_MAX - 1 - ((INT64_C(1) << 32) - 2));
    CHECK(n == (INT64_C(1) << 31) * ((INT64_C(1) << 31) - 1) * 2);

    CHECK_STATUS(em_shape_size(2, neg, &n), EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "(2, -1)") != NULL);
    CHECK_STATUS(em_shape_size(2, big, &n), EM_ERR_OVERFLOW);
    CHECK(strstr(em_last_error(), "(4294967296, 2147483648)") != NULL);
    CHECK_STATUS(em_shape_size(3, fits, &n), EM_ERR_OVERFLOW);
    for (int i = 0; i < LEN(many); i++)
        many[i] = 1;
    CHECK_OK(em_shape_size(EM_MAX_NDIM, many, &n));
    CHECK(n == 1);
    CHECK_STATUS(em_shape_size(EM_MAX_NDIM + 1, many, &n),
                 EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_shape_size(-1, many, &n), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_shape_size(2, NULL, &n), EM_ERR_INVALID_VALUE);
}

static void test_strides(void)
{
    int64_t st[4];
    int64_t s[] = {2, 3, 4};
    int64_t c_want[] = {96, 32, 8}, f_want[] = {8, 16, 48};
    int64_t z[] = {2, 0, 3};
    int64_t zc[] = {12, 12, 4}, zf[] = {4, 8, 8};
    int64_t huge[] = {INT64_C(1) << 60, 8};

    CHECK_OK(em_strides_contiguous(3, s, 8, 'C', st));
    CHECK(same(3, st, c_want));
    CHECK_OK(em_strides_contiguous(3, s, 8, 'F', st));
    CHECK(same(3, st, f_want));
    CHECK_OK(em_strides_contiguous(3, z, 4, 'C', st));
    CHECK(same(3, st, zc));
    CHECK_OK(em_strides_contiguous(3, z, 4, 'F', st));
    CHECK(same(3, st, zf));
    CHECK_OK(em_strides_contiguous(0, NULL, 8, 'C', st));

    CHECK_STATUS(em_strides_contiguous(2, huge, 1, 'C', st), EM_ERR_OVERFLOW);
    CHECK(strstr(em_last_error(), "(1152921504606846976, 8)") != NULL);
    CHECK_STATUS(em_strides_contiguous(2, huge, 1, 'F', st), EM_ERR_OVERFLOW);
    CHECK_OK(em_strides_contiguous(1, huge, 4, 'C', st));  /* 2^62 bytes */
    CHECK(st[0] == 4);
    CHECK_STATUS(em_strides_contiguous(1, huge, 8, 'C', st), EM_ERR_OVERFLOW);
    CHECK_STATUS(em_strides_contiguous(3, s, 8, 'A', st), EM_ERR_INVALID_VALUE);
    CHECK_STATUS(em_strides_contiguous(3, s, 0, 'C', st), EM_ERR_INVALID_VALUE);
    {
        int64_t neg[] = {3, -2};
        CHECK_STATUS(em_strides_contiguous(2, neg, 8, 'C', st),
                     EM_ERR_INVALID_VALUE);
    }
}

static void test_contiguity(void)
{
    int64_t s[] = {2, 3, 4};
    int64_t c[] = {96, 32, 8}, f[] = {8, 16, 48};
    int64_t one[] = {1, 3, 1}, one_st[] = {12345, 8, -7};
    int64_t row[] = {1, 5}, row_st[] = {0, 4};   /* C and F both */
    int64_t neg_st[] = {-96, 32, 8};
    int64_t bc_st[] = {0, 32, 8};
    int64_t gap_st[] = {192, 64, 8};
    int64_t empty[] = {2, 0, 3}, junk[] = {-1, 99, 5};
    int64_t st[3];

    CHECK(em_is_c_contiguous(3, s, c, 8));
    CHECK(!em_is_f_contiguous(3, s, c, 8));
    CHECK(em_is_f_contiguous(3, s, f, 8));
    CHECK(!em_is_c_contiguous(3, s, f, 8));
    CHECK(!em_is_c_contiguous(3, s, c, 4));  /* wrong itemsize */
    /* Extent-1 axes may carry any stride. */
    CHECK(em_is_c_contiguous(3, one, one_st, 8));
    CHECK(em_is_f_contiguous(3, one, one_st, 8));
    CHECK(em_is_c_contiguous(2, row, row_st, 4));
    CHECK(em_is_f_contiguous(2, row, row_st, 4));
    /* Negative, broadcast and gapped strides are not contiguous. */
    CHECK(!em_is_c_contiguous(3, s, neg_st, 8));
    CHECK(!em_is_f_contiguous(3, s, neg_st, 8));
    CHECK(!em_is_c_contiguous(3, s, bc_st, 8));
    CHECK(!em_is_c_contiguous(3, s, gap_st, 8));
    {
        int64_t one_neg[] = {3}, neg1[] = {-8};
        CHECK(!em_is_c_contiguous(1, one_neg, neg1, 8));
    }
    /* Empty arrays and 0-d are contiguous both ways. */
    CHECK(em_is_c_contiguous(3, empty, junk, 8));
    CHECK(em_is_f_contiguous(3, empty, junk, 8));
    CHECK(em_is_c_contiguous(0, NULL, NULL, 8));
    CHECK(em_is_f_contiguous(0, NULL, NULL, 8));
    /* What em_strides_contiguous makes, em_is_*_contiguous accepts. */
    CHECK_OK(em_strides_contiguous(3, s, 2, 'C', st));
    CHECK(em_is_c_contiguous(3, s, st, 2));
    CHECK_OK(em_strides_contiguous(3, s, 2, 'F', st));
    CHECK(em_is_f_contiguous(3, s, st, 2));
}

static void test_extent(void)
{
    int64_t lo = 1, hi = 1;
    int64_t s[] = {2, 3, 4}, c[] = {96, 32, 8};
    int64_t neg[] = {-96, 32, -8};
    int64_t bc[] = {0, 0, 8};
    int64_t empty[] = {2, 0, 3};
    int64_t big[] = {INT64_C(1) << 62, 2}, big_st[] = {INT64_C(1) << 62, 8};

    em_layout_extent(3, s, c, 8, &lo, &hi);
    CHECK(lo == 0 && hi == 192);
    /* Reversed axes 0 and 2: starts 96 + 24 bytes below the base. */
    em_layout_extent(3, s, neg, 8, &lo, &hi);
    CHECK(lo == -96 - 24);
    CHECK(hi == 64 + 8);
    em_layout_extent(3, s, bc, 8, &lo, &hi);
    CHECK(lo == 0 && hi == 32);
    em_layout_extent(3, empty, c, 8, &lo, &hi);
    CHECK(lo == 0 && hi == 0);
    em_layout_extent(0, NULL, NULL, 4, &lo, &hi);
    CHECK(lo == 0 && hi == 4);
    em_layout_extent(2, big, big_st, 8, &lo, &hi);   /* saturates */
    CHECK(lo == 0 && hi == INT64_MAX);
}

static void test_broadcast(void)
{
    int64_t out[EM_MAX_NDIM];
    int n = -1;
    int64_t a[] = {2, 3}, b[] = {3}, c[] = {4}, d[] = {5, 1, 3}, e[] = {1};
    int64_t z[] = {0, 3}, z1[] = {1, 1}, s8[] = {8, 1, 6, 1}, s7[] = {7, 1, 5};
    int64_t neg[] = {-1};

    CHECK_OK(em_shape_broadcast(2, a, 1, b, &n, out));
    CHECK(n == 2 && out[0] == 2 && out[1] == 3);
    CHECK_OK(em_shape_broadcast(1, b, 2, a, &n, out));
    CHECK(n == 2 && out[0] == 2 && out[1] == 3);
    CHECK_OK(em_shape_broadcast(3, d, 2, a, &n, out));  /* (5,1,3)+(2,3) */
    CHECK(n == 3 && out[0] == 5 && out[1] == 2 && out[2] == 3);
    CHECK_OK(em_shape_broadcast(4, s8, 3, s7, &n, out));
    {
        int64_t want[] = {8, 7, 6, 5};
        CHECK(n == 4 && same(4, out, want));
    }
    CHECK_OK(em_shape_broadcast(2, z, 2, z1, &n, out));  /* 0 beats 1 */
    CHECK(n == 2 && out[0] == 0 && out[1] == 3);
    CHECK_OK(em_shape_broadcast(0, NULL, 1, e, &n, out));
    CHECK(n == 1 && out[0] == 1);
    CHECK_OK(em_shape_broadcast(0, NULL, 0, NULL, &n, out));
    CHECK(n == 0);

    /* out may be one of the inputs. */
    {
        int64_t x[4] = {3, 1, 0, 0}, y[] = {2, 3, 4};
        CHECK_OK(em_shape_broadcast(2, x, 3, y, &n, x));
        CHECK(n == 3 && x[0] == 2 && x[1] == 3 && x[2] == 4);
    }

    n = -1;
    CHECK_STATUS(em_shape_broadcast(2, a, 1, c, &n, out), EM_ERR_INVALID_VALUE);
    CHECK(!strcmp(em_last_error(), "shapes (2, 3) and (4,) do not broadcast"));
    CHECK(n == -1);
    CHECK_STATUS(em_shape_broadcast(2, z, 1, c, &n, out), EM_ERR_INVALID_VALUE);
    CHECK(!strcmp(em_last_error(), "shapes (0, 3) and (4,) do not broadcast"));
    CHECK_STATUS(em_shape_broadcast(1, neg, 1, e, &n, out),
                 EM_ERR_INVALID_VALUE);
}

static void test_format(void)
{
    char buf[64];
    int64_t s[] = {2, 3}, one[] = {4}, neg[] = {-1, 7};
    CHECK(!strcmp(em_shape_format(2, s, buf, sizeof buf), "(2, 3)"));
    CHECK(!strcmp(em_shape_format(1, one, buf, sizeof buf), "(4,)"));
    CHECK(!strcmp(em_shape_format(0, NULL, buf, sizeof buf), "()"));
    CHECK(!strcmp(em_shape_format(2, neg, buf, sizeof buf), "(-1, 7)"));
    CHECK(!strcmp(em_shape_format(2, s, buf, 4), "(2,"));
    CHECK(!strcmp(em_shape_format(2, s, buf, 1), ""));
    CHECK(em_shape_format(2, s, buf, 0) == buf);
    {
        int64_t m[] = {INT64_MAX, INT64_MIN};
        CHECK(!strcmp(em_shape_format(2, m, buf, sizeof buf),
                      "(9223372036854775807, -9223372036854775808)"));
    }
}

/* ---- hash and log ----------------------------------------------------- */

static void test_hash(void)
{
    static const char fox[] = "The quick brown fox jumps over the lazy dog";
    unsigned char buf[80];
    uint64_t h[2][65];
    int i, j, dup = 0;

    /* Fixed values: entries on disk are named by these hashes, so a change
     * to the function must be deliberate (and bump the cache version). */
    CHECK(em_hash64("ember", 5, 0) == UINT64_C(0x8cbcdcc99c9c3deb));
    CHECK(em_hash64(fox, 43, 42) == UINT64_C(0x8054265a028c0326));
    CHECK(em_hash64("", 0, 0) == UINT64_C(0xd81091dcc86b3d6d));
    CHECK(em_hash_combine(1, 2) == UINT64_C(0xf9122d6051144cc9));
    CHECK(em_hash_combine(1, 2) != em_hash_combine(2, 1));
    CHECK(em_hash64(fox, 43, 0) != em_hash64(fox, 43, 1));
    CHECK(em_hash64(fox, 43, 0) == em_hash64(fox, 43, 0));

    /* Alignment must not matter. */
    memcpy(buf + 1, fox, 43);
    CHECK(em_hash64(buf + 1, 43, 42) == UINT64_C(0x8054265a028c0326));

    /* Every length 0..64, of zeros and of a pattern, hashes differently;
     * so does flipping any one bit of a 64-byte input. */
    for (i = 0; i < 80; i++)
        buf[i] = (unsigned char)(i * 37 + 11);
    {
        static const unsigned char zeros[64];
        for (i = 0; i <= 64; i++) {
            h[0][i] = em_hash64(zeros, (size_t)i, 0);
            h[1][i] = em_hash64(buf, (size_t)i, 0);
        }
    }
    /* (Index 65, the pattern's empty prefix, is the zeros' one again.) */
    CHECK(h[0][0] == h[1][0]);
    for (i = 0; i < 130; i++)
        for (j = i + 1; j < 130; j++)
            dup += j != 65 && h[i / 65][i % 65] == h[j / 65][j % 65];
    CHECK(dup == 0);
    {
        uint64_t base = em_hash64(buf, 64, 7);
        int same_count = 0;
        for (i = 0; i < 64 * 8; i++) {
            buf[i / 8] ^= (unsigned char)(1u << (i % 8));
            same_count += em_hash64(buf, 64, 7) == base;
            buf[i / 8] ^= (unsigned char)(1u << (i % 8));
        }
        CHECK(same_count == 0);
    }
}

/* Run em_log with stderr sent to a temporary file; return what it wrote. */
static void capture_log(em_log_level level, const char *msg, char *out,
                        size_t n)
{
    FILE *tmp = tmpfile();
    int saved = dup(2);
    size_t got;
    out[0] = 0;
    if (!tmp || saved < 0) {
        CHECK(!"cannot redirect stderr");
        return;
    }
    fflush(stderr);
    dup2(fileno(tmp), 2);
    em_log(level, "test", "%s %d", msg, 42);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    got = fread(out, 1, n - 1, tmp);
    out[got] = 0;
    fclose(tmp);
}

static void test_log(void)
{
    em_log_level old = em_log_level_get();
    char out[256];

    CHECK(old >= EM_LOG_DEBUG && old <= EM_LOG_OFF);
    em_log_level_set(EM_LOG_DEBUG);
    CHECK(em_log_level_get() == EM_LOG_DEBUG);
    CHECK(em_log_enabled(EM_LOG_DEBUG));
    capture_log(EM_LOG_DEBUG, "hello", out, sizeof out);
    CHECK(!strcmp(out, "ember[debug] test: hello 42\n"));

    em_log_level_set(EM_LOG_WARN);
    CHECK(em_log_level_get() == EM_LOG_WARN);
    CHECK(!em_log_enabled(EM_LOG_INFO));
    CHECK(em_log_enabled(EM_LOG_WARN));
    capture_log(EM_LOG_INFO, "quiet", out, sizeof out);
    CHECK(!strcmp(out, ""));
    capture_log(EM_LOG_WARN, "loud", out, sizeof out);
    CHECK(!strcmp(out, "ember[warn] test: loud 42\n"));

    em_log_level_set(EM_LOG_OFF);
    CHECK(em_log_level_get() == EM_LOG_OFF);
    capture_log(EM_LOG_WARN, "silenced", out, sizeof out);
    CHECK(!strcmp(out, ""));

    em_log_level_set(old);
    CHECK(em_log_level_get() == old);
}

int main(void)
{
    test_status();
    test_dtype();
    test_shape_size();
    test_strides();
    test_contiguity();
    test_extent();
    test_broadcast();
    test_format();
    test_hash();
    test_log();
    return check_report("test_core");
}
