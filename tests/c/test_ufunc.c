/* ember ufuncs against NumPy: type resolution, promotion, casting, edge
 * values of every op family, every dtype through every layout class, and
 * the errors. Runs on the cpu device; EMBER_TEST_DEVICE=cuda:0 runs the
 * same checks on a GPU (transcendental results then get the GPU's looser
 * tolerance). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "check.h"
#include "ember/ufunc.h"

typedef struct {
    const char *op;
    int exact;
    double r[81];
} edge_row;
typedef struct {
    const char *op;
    const char *bits;
} bool_row;
typedef struct {
    const char *op;
    long long r[64];
} int_row;
typedef struct {
    const char *op;
    int exact;
    double r[64][2];
} cplx_row;
typedef struct {
    const char *op;
    unsigned short r[144];
} f16_row;
typedef struct {
    char src;
    const char *value;
    const char *targets;
} cast_row;
#include "ufunc_numpy_data.h"

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

static em_device *dev;
static int on_gpu;

/* ---- helpers ----------------------------------------------------------- */

static const char dtype_chars[] = "?bhiqBHIQeEfdFD";

static em_dtype dt_of(char c)
{
    static const em_dtype ids[] = {
        EM_BOOL,     EM_INT8,    EM_INT16,   EM_INT32,     EM_INT64,
        EM_UINT8,    EM_UINT16,  EM_UINT32,  EM_UINT64,    EM_FLOAT16,
        EM_BFLOAT16, EM_FLOAT32, EM_FLOAT64, EM_COMPLEX64, EM_COMPLEX128};
    return ids[strchr(dtype_chars, c) - dtype_chars];
}

static em_op op_named(const char *name)
{
    em_op op = EM_OP_COUNT;
    CHECK_OK(em_op_from_name(name, &op));
    return op;
}

static int dsize(em_dtype d)
{
    return (int)em_dtype_size(d);
}

/* A C-contiguous array holding host data (or uninitialised if NULL). */
static em_array mk(em_dtype dt, int nd, const int64_t *shape, const void *host)
{
    em_array a;
    memset(&a, 0, sizeof a);
    CHECK_OK(em_array_empty(dev, dt, nd, shape, 'C', NULL, &a));
    if (host && a.storage)
        CHECK_OK(em_array_from_host(&a, host, NULL, NULL));
    return a;
}

static em_array mk1(em_dtype dt, int64_t n, const void *host)
{
    return mk(dt, 1, &n, host);
}

static void fetch(const em_array *a, void *host)
{
    CHECK_OK(em_array_to_host(a, host, NULL, NULL));
}

/* n values given as doubles, as dtype dt, in a malloc'd buffer. */
static void *cast_doubles(const double *v, int n, em_dtype dt)
{
    unsigned char *buf = calloc((size_t)n, (size_t)dsize(dt));
    for (int i = 0; i < n; i++)
        em_scalar_cast(&v[i], EM_FLOAT64, buf + (size_t)i * dsize(dt), dt);
    return buf;
}

static double elem_double(const void *buf, int i, em_dtype dt)
{
    double d = 0;
    em_scalar_cast((const unsigned char *)buf + (size_t)i * dsize(dt), dt, &d,
                   EM_FLOAT64);
    return d;
}

static em_operand arr_op(const em_array *a)
{
    em_operand o;
    memset(&o, 0, sizeof o);
    o.array = a;
    o.dtype = a->dtype;
    return o;
}

static em_operand py_int(int64_t v)
{
    em_operand o;
    memset(&o, 0, sizeof o);
    o.dtype = EM_INT64;
    o.weak = 1;
    o.value.i = v;
    return o;
}

static em_operand py_uint(uint64_t v)
{
    em_operand o = py_int(0);
    o.dtype = EM_UINT64;
    o.value.u = v;
    return o;
}

static em_operand py_float(double v)
{
    em_operand o;
    memset(&o, 0, sizeof o);
    o.dtype = EM_FLOAT64;
    o.weak = 1;
    o.value.f = v;
    return o;
}

/* A NumPy scalar: strong, any dtype, value given as a double. */
static em_operand np_scalar(em_dtype dt, double v)
{
    em_operand o;
    memset(&o, 0, sizeof o);
    o.dtype = dt;
    em_scalar_cast(&v, EM_FLOAT64, o.value.bytes, dt);
    return o;
}

static em_status apply2(em_op op, em_operand a, em_operand b, em_array *out)
{
    em_operand in[2] = {a, b};
    return em_ufunc_apply(op, in, 2, out, NULL, NULL);
}

static em_status apply1(em_op op, em_operand a, em_array *out)
{
    return em_ufunc_apply(op, &a, 1, out, NULL, NULL);
}

static int same_double(double got, double want, int exact, double tol)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want) || want == 0 || exact)
        return got == want && signbit(got) == signbit(want);
    return fabs(got - want) <= tol * fabs(want);
}

static int failures_shown;

static void report(const char *what, const char *op, int i, double got,
                   double want)
{
    if (failures_shown++ < 40)
        fprintf(stderr, "  %s %s [%d]: got %.17g, want %.17g\n", what, op, i,
                got, want);
}

/* ---- promotion and casting rules ---------------------------------------- */

static void test_promote(void)
{
    static const char np_chars[] = "?bhiqBHIQefdFD";
    for (int i = 0; i < 14; i++)
        for (int j = 0; j < 14; j++) {
            em_dtype a = dt_of(np_chars[i]), b = dt_of(np_chars[j]),
                     r = EM_BOOL;
            int want_safe = np_safe[i][j] == '1',
                want_sk = np_same_kind[i][j] == '1';
            CHECK_OK(em_dtype_promote(a, b, &r));
            CHECK(r == dt_of(np_promote[i][j]));
            CHECK(em_dtype_can_cast(a, b, EM_CASTING_SAFE) == want_safe);
            CHECK(em_dtype_can_cast(a, b, EM_CASTING_SAME_KIND) == want_sk);
            CHECK(em_dtype_can_cast(a, b, EM_CASTING_UNSAFE));
            CHECK(em_dtype_can_cast(a, b, EM_CASTING_NO) == (a == b));
        }
    /* bfloat16: a float16 look-alike, but neither holds the other. */
    {
        static const struct {
            em_dtype a, b, r;
        } bf[] = {
            {EM_BFLOAT16, EM_BOOL, EM_BFLOAT16},
            {EM_BFLOAT16, EM_INT8, EM_BFLOAT16},
            {EM_BFLOAT16, EM_UINT8, EM_BFLOAT16},
            {EM_BFLOAT16, EM_INT16, EM_FLOAT32},
            {EM_BFLOAT16, EM_FLOAT16, EM_FLOAT32},
            {EM_FLOAT16, EM_BFLOAT16, EM_FLOAT32},
            {EM_BFLOAT16, EM_FLOAT32, EM_FLOAT32},
            {EM_BFLOAT16, EM_INT64, EM_FLOAT64},
            {EM_BFLOAT16, EM_COMPLEX64, EM_COMPLEX64},
            {EM_BFLOAT16, EM_BFLOAT16, EM_BFLOAT16},
        };
        for (int i = 0; i < N_OF(bf); i++) {
            em_dtype r = EM_BOOL;
            CHECK_OK(em_dtype_promote(bf[i].a, bf[i].b, &r));
            CHECK(r == bf[i].r);
        }
        CHECK(em_dtype_can_cast(EM_BFLOAT16, EM_FLOAT32, EM_CASTING_SAFE));
        CHECK(!em_dtype_can_cast(EM_BFLOAT16, EM_FLOAT16, EM_CASTING_SAFE));
        CHECK(em_dtype_can_cast(EM_BFLOAT16, EM_FLOAT16, EM_CASTING_SAME_KIND));
        CHECK(em_dtype_can_cast(EM_UINT8, EM_BFLOAT16, EM_CASTING_SAFE));
    }
    CHECK_STATUS(em_dtype_promote((em_dtype)99, EM_BOOL, &(em_dtype){EM_BOOL}),
                 EM_ERR_TYPE);
}

/* An operand for a cell of the NumPy tables: a dtype character, or n, r,
 * x for a Python int, float, complex (value 0, which fits anything). */
static em_operand table_operand(char c)
{
    em_operand o;
    memset(&o, 0, sizeof o);
    if (c == 'n' || c == 'r' || c == 'x') {
        o.weak = 1;
        o.dtype = c == 'n' ? EM_INT64 : c == 'r' ? EM_FLOAT64 : EM_COMPLEX128;
    } else {
        o.dtype = dt_of(c);
    }
    return o;
}

static void test_resolve_table(void)
{
    static const char args[] = "?bhiqBHIQefdFDnrx";
    int na = (int)strlen(args), cells = 0, bad = 0;
    for (int r = 0; r < N_OF(np_resolve); r++) {
        em_op op = op_named(np_resolve[r].name);
        const em_op_info *info = em_op_get(op);
        const char *p = np_resolve[r].table;
        int n = info->nin == 1 ? na : na * na;
        for (int c = 0; c < n; c++) {
            char want[4] = {0};
            int len = 0;
            em_operand in[2];
            em_dtype loop[2] = {EM_BOOL, EM_BOOL}, out = EM_BOOL;
            em_status st;
            while (*p && *p != ' ')
                want[len++] = *p++;
            while (*p == ' ')
                p++;
            if (want[0] == '.')
                continue; /* NumPy's object answer for two Python scalars */
            in[0] = table_operand(args[info->nin == 1 ? c : c / na]);
            in[1] = table_operand(args[c % na]);
            st = em_ufunc_resolve(op, in, info->nin, loop, &out);
            cells++;
            if (want[0] == '-') {
                if (st != EM_ERR_TYPE) {
                    bad++;
                    if (bad < 20)
                        fprintf(
                            stderr,
                            "  resolve %s cell %d: wanted TypeError, got %s\n",
                            info->name, c, em_status_name(st));
                }
                continue;
            }
            if (st != EM_OK || loop[0] != dt_of(want[0]) ||
                (info->nin == 2 && loop[1] != dt_of(want[1])) ||
                out != dt_of(want[info->nin])) {
                bad++;
                if (bad < 20)
                    fprintf(stderr,
                            "  resolve %s(%c%c): want %s, got %s %s%s->%s\n",
                            info->name, in[0].weak ? 'w' : ' ',
                            args[info->nin == 1 ? c : c / na], want,
                            em_status_name(st), em_dtype_get(loop[0])->name,
                            info->nin == 2 ? em_dtype_get(loop[1])->name : "",
                            em_dtype_get(out)->name);
            }
        }
    }
    printf("resolution: %d NumPy cells, %d differ\n", cells, bad);
    CHECK(cells > 10000);
    CHECK(bad == 0);
}

/* Python ints keep their value: out of range is an OverflowError, except
 * in comparisons, which compare the value itself. */
static void test_resolve_values(void)
{
    em_operand in[2];
    em_dtype loop[2], out;
    in[0] = np_scalar(EM_INT8, 0);
    in[1] = py_int(300);
    CHECK_STATUS(em_ufunc_resolve(EM_OP_ADD, in, 2, loop, &out),
                 EM_ERR_OVERFLOW);
    CHECK(strstr(em_last_error(),
                 "Python integer 300 out of bounds for int8") != NULL);
    in[1] = py_int(127);
    CHECK_OK(em_ufunc_resolve(EM_OP_ADD, in, 2, loop, &out));
    CHECK(out == EM_INT8);
    in[0] = np_scalar(EM_UINT8, 0);
    in[1] = py_int(-1);
    CHECK_STATUS(em_ufunc_resolve(EM_OP_SUBTRACT, in, 2, loop, &out),
                 EM_ERR_OVERFLOW);
    CHECK(strstr(em_last_error(), "-1 out of bounds for uint8") != NULL);
    CHECK_OK(em_ufunc_resolve(EM_OP_EQUAL, in, 2, loop, &out));
    CHECK(out == EM_BOOL && loop[0] == EM_INT64 && loop[1] == EM_INT64);
    in[0] = np_scalar(EM_UINT64, 0);
    CHECK_OK(em_ufunc_resolve(EM_OP_LESS, in, 2, loop, &out));
    CHECK(loop[0] == EM_UINT64 && loop[1] == EM_INT64);
    in[0] = np_scalar(EM_INT64, 0);
    in[1] = py_uint(UINT64_MAX);
    CHECK_OK(em_ufunc_resolve(EM_OP_GREATER, in, 2, loop, &out));
    CHECK(loop[0] == EM_INT64 && loop[1] == EM_UINT64);
    /* A Python int may go to an int loop input of another width. */
    in[0] = np_scalar(EM_FLOAT16, 0);
    in[1] = py_int(3);
    CHECK_OK(em_ufunc_resolve(EM_OP_LDEXP, in, 2, loop, &out));
    CHECK(loop[0] == EM_FLOAT16 && loop[1] == EM_INT32 && out == EM_FLOAT16);
    /* bfloat16 follows float16's rules. */
    in[0] = np_scalar(EM_BFLOAT16, 0);
    CHECK_OK(em_ufunc_resolve(EM_OP_LDEXP, in, 2, loop, &out));
    CHECK(loop[0] == EM_BFLOAT16 && out == EM_BFLOAT16);
    in[1] = py_float(0.5);
    CHECK_OK(em_ufunc_resolve(EM_OP_MULTIPLY, in, 2, loop, &out));
    CHECK(out == EM_BFLOAT16);
    in[1] = np_scalar(EM_FLOAT16, 0);
    CHECK_OK(em_ufunc_resolve(EM_OP_ADD, in, 2, loop, &out));
    CHECK(out == EM_FLOAT32);
    CHECK_OK(em_ufunc_resolve(EM_OP_SQRT, in, 1, loop, &out));
    CHECK(out == EM_BFLOAT16);
    in[0] = np_scalar(EM_INT8, 0);
    CHECK_OK(em_ufunc_resolve(EM_OP_SQRT, in, 1, loop, &out));
    CHECK(out == EM_FLOAT16);
    {
        em_dtype r;
        in[0] = np_scalar(EM_INT8, 0);
        in[1] = py_int(5);
        CHECK_OK(em_result_type(in, 2, &r));
        CHECK(r == EM_INT8);
        in[1] = py_float(5);
        CHECK_OK(em_result_type(in, 2, &r));
        CHECK(r == EM_FLOAT64);
        in[0] = np_scalar(EM_FLOAT32, 0);
        in[1].dtype = EM_COMPLEX128;
        CHECK_OK(em_result_type(in, 2, &r));
        CHECK(r == EM_COMPLEX64);
        in[0] = py_int(1);
        in[1] = py_float(2);
        CHECK_OK(em_result_type(in, 2, &r));
        CHECK(r == EM_FLOAT64);
    }
}

static void test_op_names(void)
{
    em_op op;
    for (int i = 0; i < EM_OP_COUNT; i++) {
        const em_op_info *info = em_op_get((em_op)i);
        CHECK(info && info->name && info->nout == 1);
        CHECK_OK(em_op_from_name(info->name, &op));
        CHECK(op == (em_op)i);
    }
    CHECK_OK(em_op_from_name("divide", &op));
    CHECK(op == EM_OP_TRUE_DIVIDE);
    CHECK_STATUS(em_op_from_name("frobnicate", &op), EM_ERR_NOT_FOUND);
    CHECK(em_op_get(EM_OP_COUNT) == NULL);
}

/* ---- edge values against NumPy ----------------------------------------- */

static double tol_for(em_dtype dt)
{
    /* NumPy's float32 transcendental functions are its own SIMD code;
     * CUDA's are a few ulps off too. */
    if (dt == EM_FLOAT32 || dt == EM_COMPLEX64)
        return on_gpu ? 2e-5 : 4e-6;
    return on_gpu ? 1e-12 : 1e-14;
}

static void run_float_edges(em_dtype dt, const double *bvals, int nb,
                            const edge_row *bin, int nbin, const bool_row *binb,
                            int nbinb, const double *uvals, int nu,
                            const edge_row *un, int nun, const bool_row *unb,
                            int nunb)
{
    double a[81], b[81], *got = malloc(81 * sizeof *got);
    unsigned char bits[81];
    em_array A, B, U, out;
    void *ha, *hb, *hu, *ho = malloc(81 * 8);
    int bad = 0;
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < nb; j++) {
            a[i * nb + j] = bvals[i];
            b[i * nb + j] = bvals[j];
        }
    ha = cast_doubles(a, nb * nb, dt);
    hb = cast_doubles(b, nb * nb, dt);
    hu = cast_doubles(uvals, nu, dt);
    A = mk1(dt, nb * nb, ha);
    B = mk1(dt, nb * nb, hb);
    U = mk1(dt, nu, hu);
    for (int r = 0; r < nbin + nun; r++) {
        const edge_row *row = r < nbin ? &bin[r] : &un[r - nbin];
        int n = r < nbin ? nb * nb : nu;
        memset(&out, 0, sizeof out);
        CHECK_OK(r < nbin
                     ? apply2(op_named(row->op), arr_op(&A), arr_op(&B), &out)
                     : apply1(op_named(row->op), arr_op(&U), &out));
        if (!out.storage)
            continue;
        fetch(&out, ho);
        for (int i = 0; i < n; i++) {
            double g = elem_double(ho, i, out.dtype);
            if (!same_double(g, row->r[i], row->exact, tol_for(dt))) {
                bad++;
                report(em_dtype_get(dt)->name, row->op, i, g, row->r[i]);
            }
        }
        em_array_release(&out);
    }
    for (int r = 0; r < nbinb + nunb; r++) {
        const bool_row *row = r < nbinb ? &binb[r] : &unb[r - nbinb];
        int n = (int)strlen(row->bits);
        memset(&out, 0, sizeof out);
        CHECK_OK(r < nbinb
                     ? apply2(op_named(row->op), arr_op(&A), arr_op(&B), &out)
                     : apply1(op_named(row->op), arr_op(&U), &out));
        if (!out.storage)
            continue;
        CHECK(out.dtype == EM_BOOL);
        fetch(&out, bits);
        for (int i = 0; i < n; i++)
            if (bits[i] != (row->bits[i] == '1')) {
                bad++;
                report(em_dtype_get(dt)->name, row->op, i, bits[i],
                       row->bits[i] == '1');
            }
        em_array_release(&out);
    }
    CHECK(bad == 0);
    em_array_release(&A);
    em_array_release(&B);
    em_array_release(&U);
    free(ha);
    free(hb);
    free(hu);
    free(ho);
    free(got);
}

static void test_float_edges(void)
{
    run_float_edges(EM_FLOAT64, ef64_bin_vals, N_OF(ef64_bin_vals), ef64_bin,
                    N_OF(ef64_bin), ef64_binb, N_OF(ef64_binb), ef64_un_vals,
                    N_OF(ef64_un_vals), ef64_un, N_OF(ef64_un), ef64_unb,
                    N_OF(ef64_unb));
    run_float_edges(EM_FLOAT32, ef32_bin_vals, N_OF(ef32_bin_vals), ef32_bin,
                    N_OF(ef32_bin), ef32_binb, N_OF(ef32_binb), ef32_un_vals,
                    N_OF(ef32_un_vals), ef32_un, N_OF(ef32_un), ef32_unb,
                    N_OF(ef32_unb));
}

static void run_int_edges(em_dtype dt, const long long *vals, int nv,
                          const int_row *bin, int nbin, const int_row *un,
                          int nun)
{
    long long a[64], b[64];
    void *ha, *hb, *hu, *ho = malloc(64 * 8);
    em_array A, B, U, out;
    int is_signed = em_dtype_get(dt)->kind_id == EM_KIND_INT, bad = 0;
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++) {
            a[i * nv + j] = vals[i];
            b[i * nv + j] = vals[j];
        }
    ha = calloc(64, 8);
    hb = calloc(64, 8);
    hu = calloc(64, 8);
    for (int i = 0; i < nv * nv; i++) {
        em_scalar_cast(&a[i], EM_INT64, (char *)ha + i * dsize(dt), dt);
        em_scalar_cast(&b[i], EM_INT64, (char *)hb + i * dsize(dt), dt);
    }
    for (int i = 0; i < nv; i++)
        em_scalar_cast(&vals[i], EM_INT64, (char *)hu + i * dsize(dt), dt);
    A = mk1(dt, nv * nv, ha);
    B = mk1(dt, nv * nv, hb);
    U = mk1(dt, nv, hu);
    for (int r = 0; r < nbin + nun; r++) {
        const int_row *row = r < nbin ? &bin[r] : &un[r - nbin];
        int n = r < nbin ? nv * nv : nv;
        em_op op = op_named(row->op);
        memset(&out, 0, sizeof out);
        if (op == EM_OP_POWER && is_signed) {
            /* B holds negative exponents: NumPy (and ember) refuse. */
            CHECK_STATUS(apply2(op, arr_op(&A), arr_op(&B), &out),
                         EM_ERR_INVALID_VALUE);
            CHECK(strstr(em_last_error(), "negative integer powers"));
            continue;
        }
        CHECK_OK(r < nbin ? apply2(op, arr_op(&A), arr_op(&B), &out)
                          : apply1(op, arr_op(&U), &out));
        if (!out.storage)
            continue;
        CHECK(out.dtype == dt);
        fetch(&out, ho);
        for (int i = 0; i < n; i++) {
            long long g = 0;
            if (op == EM_OP_POWER && is_signed && b[i] < 0)
                continue; /* NumPy raises; see test_errors */
            memcpy(&g, (char *)ho + i * dsize(dt), (size_t)dsize(dt));
            /* Sign-extend the narrow signed types. */
            if (is_signed && dsize(dt) < 8) {
                int sh = 64 - 8 * dsize(dt);
                g = (long long)((unsigned long long)g << sh) >> sh;
            }
            if (g != row->r[i]) {
                bad++;
                if (failures_shown++ < 40)
                    fprintf(stderr,
                            "  %s %s(%lld, %lld): got %lld, want %lld\n",
                            em_dtype_get(dt)->name, row->op, a[i], b[i], g,
                            row->r[i]);
            }
        }
        em_array_release(&out);
    }
    CHECK(bad == 0);
    em_array_release(&A);
    em_array_release(&B);
    em_array_release(&U);
    free(ha);
    free(hb);
    free(hu);
    free(ho);
}

static void test_int_edges(void)
{
    run_int_edges(EM_INT8, i8_vals, N_OF(i8_vals), i8_bin, N_OF(i8_bin), i8_un,
                  N_OF(i8_un));
    run_int_edges(EM_UINT8, u8_vals, N_OF(u8_vals), u8_bin, N_OF(u8_bin), u8_un,
                  N_OF(u8_un));
    run_int_edges(EM_INT32, i32_vals, N_OF(i32_vals), i32_bin, N_OF(i32_bin),
                  i32_un, N_OF(i32_un));
    run_int_edges(EM_INT64, i64_vals, N_OF(i64_vals), i64_bin, N_OF(i64_bin),
                  i64_un, N_OF(i64_un));
    run_int_edges(EM_UINT64, u64_vals, N_OF(u64_vals), u64_bin, N_OF(u64_bin),
                  u64_un, N_OF(u64_un));
}

static void run_complex_edges(em_dtype dt, const cplx_row *bin, int nbin,
                              const bool_row *binb, int nbinb,
                              const cplx_row *un, int nun)
{
    enum { NV = 8 };
    double a[NV * NV][2], b[NV * NV][2], g[2];
    unsigned char *ha = calloc(NV * NV, 16), *hb = calloc(NV * NV, 16),
                  *hu = calloc(NV, 16);
    unsigned char *ho = calloc(NV * NV, 16);
    em_array A, B, U, out;
    int cs = dsize(dt), bad = 0;
    for (int i = 0; i < NV; i++)
        for (int j = 0; j < NV; j++) {
            memcpy(a[i * NV + j], cplx_vals[i], 16);
            memcpy(b[i * NV + j], cplx_vals[j], 16);
        }
    for (int i = 0; i < NV * NV; i++) {
        em_scalar_cast(a[i], EM_COMPLEX128, ha + i * cs, dt);
        em_scalar_cast(b[i], EM_COMPLEX128, hb + i * cs, dt);
    }
    for (int i = 0; i < NV; i++)
        em_scalar_cast(cplx_vals[i], EM_COMPLEX128, hu + i * cs, dt);
    A = mk1(dt, NV * NV, ha);
    B = mk1(dt, NV * NV, hb);
    U = mk1(dt, NV, hu);
    for (int r = 0; r < nbin + nun; r++) {
        const cplx_row *row = r < nbin ? &bin[r] : &un[r - nbin];
        int n = r < nbin ? NV * NV : NV;
        memset(&out, 0, sizeof out);
        CHECK_OK(r < nbin
                     ? apply2(op_named(row->op), arr_op(&A), arr_op(&B), &out)
                     : apply1(op_named(row->op), arr_op(&U), &out));
        if (!out.storage)
            continue;
        fetch(&out, ho);
        for (int i = 0; i < n; i++) {
            /* Components near zero next to large ones carry the large
             * one's rounding: compare on the magnitude of the pair. */
            double scale = fabs(row->r[i][0]) + fabs(row->r[i][1]),
                   t = tol_for(dt);
            int ok;
            em_scalar_cast(ho + (size_t)i * dsize(out.dtype), out.dtype, g,
                           EM_COMPLEX128);
            if (row->exact || isnan(row->r[i][0]) || isnan(row->r[i][1]) ||
                !isfinite(scale))
                ok = same_double(g[0], row->r[i][0], row->exact, t) &&
                     same_double(g[1], row->r[i][1], row->exact, t);
            else
                ok = fabs(g[0] - row->r[i][0]) <= 4 * t * scale &&
                     fabs(g[1] - row->r[i][1]) <= 4 * t * scale;
            if (!ok) {
                bad++;
                if (failures_shown++ < 40)
                    fprintf(stderr,
                            "  %s %s [%d]: got (%.17g, %.17g), want (%.17g, "
                            "%.17g)\n",
                            em_dtype_get(dt)->name, row->op, i, g[0], g[1],
                            row->r[i][0], row->r[i][1]);
            }
        }
        em_array_release(&out);
    }
    for (int r = 0; r < nbinb; r++) {
        memset(&out, 0, sizeof out);
        CHECK_OK(apply2(op_named(binb[r].op), arr_op(&A), arr_op(&B), &out));
        if (!out.storage)
            continue;
        fetch(&out, ho);
        for (int i = 0; i < NV * NV; i++)
            if (ho[i] != (binb[r].bits[i] == '1')) {
                bad++;
                if (failures_shown++ < 40)
                    fprintf(stderr, "  %s %s [%d]: got %d\n",
                            em_dtype_get(dt)->name, binb[r].op, i, ho[i]);
            }
        em_array_release(&out);
    }
    CHECK(bad == 0);
    em_array_release(&A);
    em_array_release(&B);
    em_array_release(&U);
    free(ha);
    free(hb);
    free(hu);
    free(ho);
}

static void test_complex_edges(void)
{
    run_complex_edges(EM_COMPLEX128, c128_bin, N_OF(c128_bin), c128_binb,
                      N_OF(c128_binb), c128_un, N_OF(c128_un));
    run_complex_edges(EM_COMPLEX64, c64_bin, N_OF(c64_bin), c64_binb,
                      N_OF(c64_binb), c64_un, N_OF(c64_un));
}

/* float16 results as bits: exact ops exactly, the rest within one ulp. */
static void test_f16_edges(void)
{
    enum { NV = N_OF(f16_vals) };
    unsigned short a[NV * NV], b[NV * NV], o[NV * NV];
    static const char *const inexact[] = {"power", "arctan2", "exp",
                                          "log",   "tanh",    "cbrt"};
    em_array A, B, U, out;
    int bad = 0;
    for (int i = 0; i < NV; i++)
        for (int j = 0; j < NV; j++) {
            a[i * NV + j] = f16_vals[i];
            b[i * NV + j] = f16_vals[j];
        }
    A = mk1(EM_FLOAT16, NV * NV, a);
    B = mk1(EM_FLOAT16, NV * NV, b);
    U = mk1(EM_FLOAT16, NV, f16_vals);
    for (int r = 0; r < N_OF(f16_bin) + N_OF(f16_un); r++) {
        int isbin = r < N_OF(f16_bin), n = isbin ? NV * NV : NV, exact = 1;
        const f16_row *row = isbin ? &f16_bin[r] : &f16_un[r - N_OF(f16_bin)];
        for (int k = 0; k < N_OF(inexact); k++)
            exact = exact && strcmp(inexact[k], row->op);
        memset(&out, 0, sizeof out);
        CHECK_OK(isbin ? apply2(op_named(row->op), arr_op(&A), arr_op(&B), &out)
                       : apply1(op_named(row->op), arr_op(&U), &out));
        if (!out.storage)
            continue;
        CHECK(out.dtype == EM_FLOAT16);
        fetch(&out, o);
        for (int i = 0; i < n; i++) {
            int want = row->r[i], got = o[i];
            int wnan = (want & 0x7c00) == 0x7c00 && (want & 0x3ff);
            int gnan = (got & 0x7c00) == 0x7c00 && (got & 0x3ff);
            int ok = wnan ? gnan
                          : got == want ||
                                (!exact && !gnan && (want & 0x7fff) != 0x7c00 &&
                                 abs(got - want) <= 1);
            if (!ok) {
                bad++;
                if (failures_shown++ < 40)
                    fprintf(stderr,
                            "  float16 %s [%d]: got 0x%04x, want 0x%04x\n",
                            row->op, i, got, want);
            }
        }
        em_array_release(&out);
    }
    CHECK(bad == 0);
    em_array_release(&A);
    em_array_release(&B);
    em_array_release(&U);
}

/* ---- casts ----------------------------------------------------------------
 */

static void hex_bytes(const char *hex, unsigned char *out, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (unsigned char)v;
    }
}

static void test_casts(void)
{
    static const char np_chars[] = "?bhiqBHIQefdFD";
    int bad = 0, cells = 0;
    /* One array per source dtype with every value of its rows, cast by one
     * copy kernel per target dtype. */
    for (int s = 0; s < 14; s++) {
        em_dtype sd = dt_of(np_chars[s]);
        int n = 0, rows[32];
        unsigned char src[32 * 16], dst[32 * 16], want[16];
        em_array S;
        for (int r = 0; r < N_OF(np_casts) && n < 32; r++)
            if (np_casts[r].src == np_chars[s]) {
                hex_bytes(np_casts[r].value, src + n * dsize(sd), dsize(sd));
                rows[n++] = r;
            }
        if (!n)
            continue;
        S = mk1(sd, n, src);
        for (int t = 0; t < 14; t++) {
            em_dtype td = dt_of(np_chars[t]);
            em_array D = mk1(td, n, NULL);
            CHECK_OK(apply1(EM_OP_COPY, arr_op(&S), &D));
            fetch(&D, dst);
            for (int i = 0; i < n; i++) {
                const char *p = np_casts[rows[i]].targets;
                unsigned char host[16];
                for (int k = 0; k < t; k++)
                    p = strchr(p, ' ') + 1;
                if (*p == '-')
                    continue;
                hex_bytes(p, want, dsize(td));
                cells++;
                em_scalar_cast(src + i * dsize(sd), sd, host, td);
                if (memcmp(dst + i * dsize(td), want, (size_t)dsize(td)) ||
                    memcmp(host, want, (size_t)dsize(td))) {
                    bad++;
                    if (failures_shown++ < 40)
                        fprintf(stderr, "  cast %s %s -> %s: want %.*s\n",
                                em_dtype_get(sd)->name, np_casts[rows[i]].value,
                                em_dtype_get(td)->name, 2 * dsize(td), p);
                }
            }
            em_array_release(&D);
        }
        em_array_release(&S);
    }
    printf("casts: %d NumPy cells, %d differ\n", cells, bad);
    CHECK(cells > 1000);
    CHECK(bad == 0);
}

/* Rounding into the 16-bit float types, by hand. */
static void test_half_rounding(void)
{
    static const struct {
        double v;
        unsigned short f16, bf16;
    } cases[] = {
        {1.0 / 3.0, 0x3555, 0x3eab},
        {65504.0, 0x7bff, 0x4780},
        {65519.99, 0x7bff, 0x4780},
        {65520.0, 0x7c00, 0x4780}, /* the tie rounds to even: infinity */
        {5.9604644775390625e-08, 0x0001,
         0x3380}, /* 2^-24, smallest subnormal */
        {2.98023223876953125e-08, 0x0000, 0x3300}, /* 2^-25: a tie, to even 0 */
        {8.94069671630859375e-08, 0x0002, 0x33c0}, /* 3 * 2^-25: tie, to 2 */
        {1.00048828125, 0x3c00, 0x3f80},           /* 1 + 2^-11: tie, to even */
        {1.00390625, 0x3c04, 0x3f80}, /* 1 + 2^-8: bf16 tie, to even */
        {1.01171875, 0x3c0c, 0x3f82}, /* 1 + 3 * 2^-8: bf16 tie up */
        {-2.5, 0xc100, 0xc020},
        {1e10, 0x7c00, 0x5015},
        {-0.0, 0x8000, 0x8000},
    };
    double v[N_OF(cases)];
    unsigned short h[N_OF(cases)], bf[N_OF(cases)];
    em_array D, H, B;
    for (int i = 0; i < N_OF(cases); i++) {
        unsigned short x = 0, y = 0;
        v[i] = cases[i].v;
        em_scalar_cast(&v[i], EM_FLOAT64, &x, EM_FLOAT16);
        em_scalar_cast(&v[i], EM_FLOAT64, &y, EM_BFLOAT16);
        if (x != cases[i].f16 || y != cases[i].bf16)
            fprintf(stderr, "  host cast %.17g: f16 0x%04x bf16 0x%04x\n", v[i],
                    x, y);
        CHECK(x == cases[i].f16);
        CHECK(y == cases[i].bf16);
    }
    D = mk1(EM_FLOAT64, N_OF(cases), v);
    H = mk1(EM_FLOAT16, N_OF(cases), NULL);
    B = mk1(EM_BFLOAT16, N_OF(cases), NULL);
    CHECK_OK(apply1(EM_OP_COPY, arr_op(&D), &H));
    CHECK_OK(apply1(EM_OP_COPY, arr_op(&D), &B));
    fetch(&H, h);
    fetch(&B, bf);
    for (int i = 0; i < N_OF(cases); i++) {
        CHECK(h[i] == cases[i].f16);
        CHECK(bf[i] == cases[i].bf16);
    }
    em_array_release(&D);
    em_array_release(&H);
    em_array_release(&B);
    /* float32 1/3 to float16 through a kernel (the f32 path, not f64). */
    {
        float third = 1.0f / 3.0f;
        unsigned short r = 0;
        em_array F = mk1(EM_FLOAT32, 1, &third), R;
        memset(&R, 0, sizeof R);
        R = mk1(EM_FLOAT16, 1, NULL);
        CHECK_OK(apply1(EM_OP_COPY, arr_op(&F), &R));
        fetch(&R, &r);
        CHECK(r == 0x3555);
        em_array_release(&F);
        em_array_release(&R);
    }
}

/* ---- every dtype through every layout ------------------------------------ */

/* Small integers are exact in every dtype, so one expected table serves
 * all of them; bool results come from the same arithmetic (add is or). */
static double expect_add(em_dtype dt, double x, double y)
{
    double r = x + y;
    return dt == EM_BOOL ? (double)(x != 0 || y != 0) : r;
}

static void check_values(const char *what, em_dtype dt, const void *buf,
                         const double *want, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double g = elem_double(buf, i, dt), w = want[i];
        if (dt == EM_BOOL)
            w = w != 0;
        if (g != w) {
            bad++;
            if (failures_shown++ < 40)
                fprintf(stderr, "  %s %s [%d]: got %g, want %g\n", what,
                        em_dtype_get(dt)->name, i, g, w);
        }
    }
    CHECK(bad == 0);
}

static void test_layouts_dtype(em_dtype dt)
{
    unsigned char host[4096];
    double want[256], x[256], y[256];
    em_array a, b, out, t, v;
    int64_t s31[2] = {3, 1}, s14[2] = {1, 4}, s43[2] = {4, 3}, s34[2] = {3, 4};

    /* Broadcast (3,1) + (1,4). */
    for (int i = 0; i < 3; i++)
        x[i] = i + 1;
    for (int j = 0; j < 4; j++)
        y[j] = 2 * j;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            want[i * 4 + j] = expect_add(dt, x[i], y[j]);
    {
        void *hx = cast_doubles(x, 3, dt), *hy = cast_doubles(y, 4, dt);
        a = mk(dt, 2, s31, hx);
        b = mk(dt, 2, s14, hy);
        free(hx);
        free(hy);
    }
    memset(&out, 0, sizeof out);
    CHECK_OK(apply2(EM_OP_ADD, arr_op(&a), arr_op(&b), &out));
    CHECK(out.ndim == 2 && out.shape[0] == 3 && out.shape[1] == 4 &&
          out.dtype == dt);
    if (out.storage) {
        fetch(&out, host);
        check_values("broadcast add", dt, host, want, 12);
    }
    em_array_release(&out);
    em_array_release(&a);
    em_array_release(&b);

    /* A transposed operand: t is (4,3) C-order, viewed as (3,4). */
    for (int i = 0; i < 12; i++)
        x[i] = i % 7;
    {
        void *hx = cast_doubles(x, 12, dt);
        t = mk(dt, 2, s43, hx);
        b = mk(dt, 2, s34, hx);
        free(hx);
    }
    CHECK_OK(em_array_transpose(&t, NULL, &v));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            want[i * 4 + j] = expect_add(dt, x[j * 3 + i], x[i * 4 + j]);
    memset(&out, 0, sizeof out);
    CHECK_OK(apply2(EM_OP_ADD, arr_op(&v), arr_op(&b), &out));
    if (out.storage) {
        fetch(&out, host);
        check_values("transposed add", dt, host, want, 12);
    }
    em_array_release(&out);

    /* Negative strides: b[::-1, ::-1] (copy: the strided copy kernel). */
    {
        em_slice sl[2] = {{2, -1, -1}, {3, -1, -1}};
        em_array r;
        CHECK_OK(em_array_slice(&b, sl, &r));
        memset(&out, 0, sizeof out);
        CHECK_OK(apply1(EM_OP_COPY, arr_op(&r), &out));
        for (int i = 0; i < 12; i++)
            want[i] = x[11 - i];
        if (out.storage) {
            fetch(&out, host);
            check_values("reversed copy", dt, host, want, 12);
        }
        em_array_release(&out);
        em_array_release(&r);
    }
    em_array_release(&v);
    em_array_release(&t);
    em_array_release(&b);

    /* 0-d with 0-d, and a scalar operand. */
    {
        double one = 1, two = 2;
        void *h1 = cast_doubles(&one, 1, dt), *h2 = cast_doubles(&two, 1, dt);
        a = mk(dt, 0, NULL, h1);
        b = mk(dt, 0, NULL, h2);
        memset(&out, 0, sizeof out);
        CHECK_OK(apply2(EM_OP_MAXIMUM, arr_op(&a), arr_op(&b), &out));
        CHECK(out.ndim == 0 && out.size == 1);
        want[0] = dt == EM_BOOL ? 1 : 2;
        if (out.storage) {
            fetch(&out, host);
            check_values("0-d maximum", dt, host, want, 1);
        }
        em_array_release(&out);
        memset(&out, 0, sizeof out);
        CHECK_OK(apply2(EM_OP_MULTIPLY, arr_op(&b), np_scalar(dt, 3), &out));
        want[0] = dt == EM_BOOL ? 1 : 6;
        if (out.storage) {
            fetch(&out, host);
            check_values("0-d times scalar", dt, host, want, 1);
        }
        em_array_release(&out);
        em_array_release(&a);
        em_array_release(&b);
        free(h1);
        free(h2);
    }

    /* Empty: (0,3) + (3,) is (0,3), no launch. */
    {
        int64_t s03[2] = {0, 3}, s3 = 3;
        a = mk(dt, 2, s03, NULL);
        b = mk(dt, 1, &s3, NULL);
        memset(&out, 0, sizeof out);
        CHECK_OK(apply2(EM_OP_ADD, arr_op(&a), arr_op(&b), &out));
        CHECK(out.storage && out.ndim == 2 && out.shape[0] == 0 &&
              out.size == 0);
        em_array_release(&out);
        em_array_release(&a);
        em_array_release(&b);
    }

    /* where: only the true elements change. */
    {
        unsigned char mask[8] = {1, 0, 1, 1, 0, 0, 1, 0};
        double base[8], add[8];
        em_array m, o2;
        void *hb, *ha;
        for (int i = 0; i < 8; i++) {
            base[i] = dt == EM_BOOL ? 0 : 9;
            add[i] = i;
            want[i] = mask[i] ? expect_add(dt, 1, add[i]) : base[i];
        }
        hb = cast_doubles(base, 8, dt);
        ha = cast_doubles(add, 8, dt);
        a = mk1(dt, 8, ha);
        o2 = mk1(dt, 8, hb);
        m = mk1(EM_BOOL, 8, mask);
        {
            em_operand in[2] = {np_scalar(dt, 1), arr_op(&a)};
            CHECK_OK(em_ufunc_apply(EM_OP_ADD, in, 2, &o2, &m, NULL));
        }
        fetch(&o2, host);
        check_values("where add", dt, host, want, 8);
        em_array_release(&a);
        em_array_release(&o2);
        em_array_release(&m);
        free(ha);
        free(hb);
    }
}

static void test_layouts(void)
{
    for (int i = 0; dtype_chars[i]; i++)
        test_layouts_dtype(dt_of(dtype_chars[i]));
}

/* Larger shapes: several host chunks, rows split across them, collapse of
 * contiguous axes, and output in a different dtype. */
static void test_large_strided(void)
{
    enum { R = 301, C = 257 };
    int64_t shape[2] = {R, C}, tshape[2] = {C, R};
    float *x = malloc(sizeof(float) * R * C),
          *g = malloc(sizeof(float) * R * C);
    double *gd = malloc(sizeof(double) * R * C);
    em_array a, t, v, out, o64;
    int bad = 0;
    for (int i = 0; i < R * C; i++)
        x[i] = (float)(i % 1000);
    a = mk(EM_FLOAT32, 2, shape, x);
    t = mk(EM_FLOAT32, 2, tshape, x);
    CHECK_OK(em_array_transpose(&t, NULL, &v)); /* (R, C), strided */
    memset(&out, 0, sizeof out);
    CHECK_OK(apply2(EM_OP_SUBTRACT, arr_op(&a), arr_op(&v), &out));
    fetch(&out, g);
    for (int i = 0; i < R && bad < 5; i++)
        for (int j = 0; j < C; j++)
            if (g[i * C + j] != x[i * C + j] - x[j * R + i]) {
                bad++;
                break;
            }
    CHECK(bad == 0);
    /* The same into a float64 output (same_kind): a cast on store. */
    o64 = mk(EM_FLOAT64, 2, shape, NULL);
    CHECK_OK(apply2(EM_OP_SUBTRACT, arr_op(&v), arr_op(&a), &o64));
    fetch(&o64, gd);
    bad = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            bad += gd[i * C + j] != (double)(x[j * R + i] - x[i * C + j]);
    CHECK(bad == 0);
    em_array_release(&o64);
    em_array_release(&out);
    /* A 3-d view whose two inner axes merge: [:, :, ::1] of (7, 11, 13)
     * sliced [1:6, :, 2:13] stays 3-d; full inner extent merges. */
    {
        int64_t s3[3] = {7, 11, 13};
        double *d = malloc(sizeof(double) * 7 * 11 * 13),
               *r = malloc(sizeof(double) * 5 * 11 * 11);
        em_array A3, V3, O3;
        em_slice sl[3] = {{1, 6, 1}, {0, 11, 1}, {2, 13, 1}};
        for (int i = 0; i < 7 * 11 * 13; i++)
            d[i] = i;
        A3 = mk(EM_FLOAT64, 3, s3, d);
        CHECK_OK(em_array_slice(&A3, sl, &V3));
        memset(&O3, 0, sizeof O3);
        CHECK_OK(apply2(EM_OP_MULTIPLY, arr_op(&V3), py_float(2.0), &O3));
        fetch(&O3, r);
        bad = 0;
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 11; j++)
                for (int k = 0; k < 11; k++)
                    bad += r[(i * 11 + j) * 11 + k] !=
                           2.0 * d[((i + 1) * 11 + j) * 13 + k + 2];
        CHECK(bad == 0);
        em_array_release(&O3);
        em_array_release(&V3);
        em_array_release(&A3);
        free(d);
        free(r);
    }
    em_array_release(&v);
    em_array_release(&t);
    em_array_release(&a);
    free(x);
    free(g);
    free(gd);
}

/* Large contiguous: many chunks on the host, vector loads on the GPU with
 * a tail (n not a multiple of the vector width). */
static void test_large_contiguous(void)
{
    const int64_t n = 1000003;
    int16_t *x = malloc(sizeof(int16_t) * n), *g = malloc(sizeof(int16_t) * n);
    em_array a, out;
    int bad = 0;
    for (int64_t i = 0; i < n; i++)
        x[i] = (int16_t)(i * 7919);
    a = mk1(EM_INT16, n, x);
    memset(&out, 0, sizeof out);
    CHECK_OK(apply2(EM_OP_MULTIPLY, arr_op(&a), py_int(-3), &out));
    CHECK(out.dtype == EM_INT16);
    fetch(&out, g);
    for (int64_t i = 0; i < n; i++)
        bad += g[i] != (int16_t)(uint16_t)((uint32_t)x[i] * (uint32_t)-3);
    CHECK(bad == 0);
    em_array_release(&out);
    em_array_release(&a);
    free(x);
    free(g);
}

/* In place: element for element needs no copy; a shifted view does. */
static void test_overlap(void)
{
    int32_t v[6] = {1, 2, 3, 4, 5, 6}, g[6];
    em_array a = mk1(EM_INT32, 6, v), lo, hi;
    em_slice s_hi = {1, 6, 1}, s_lo = {0, 5, 1};
    CHECK_OK(apply2(EM_OP_ADD, arr_op(&a), py_int(10), &a));
    fetch(&a, g);
    CHECK(g[0] == 11 && g[5] == 16);
    CHECK_OK(em_array_slice(&a, &s_hi, &hi));
    CHECK_OK(em_array_slice(&a, &s_lo, &lo));
    /* a[1:] += a[:-1], as if a[:-1] were read first (NumPy's rule). */
    CHECK_OK(apply2(EM_OP_ADD, arr_op(&hi), arr_op(&lo), &hi));
    fetch(&a, g);
    CHECK(g[0] == 11 && g[1] == 23 && g[2] == 25 && g[3] == 27 && g[4] == 29 &&
          g[5] == 31);
    em_array_release(&lo);
    em_array_release(&hi);
    em_array_release(&a);
}

/* ---- errors ---------------------------------------------------------------
 */

static void test_errors(void)
{
    float f[3] = {1, 2, 3};
    int32_t iv[4] = {1, 2, 3, 4};
    unsigned char bb[3] = {1, 0, 1};
    em_array a = mk1(EM_FLOAT32, 3, f), b = mk1(EM_INT32, 4, iv),
             m = mk1(EM_BOOL, 3, bb);
    em_array out, o2;
    struct em_device fake;

    memset(&out, 0, sizeof out);
    CHECK_STATUS(apply2(EM_OP_BITWISE_AND, arr_op(&a), arr_op(&a), &out),
                 EM_ERR_TYPE);
    CHECK(strstr(em_last_error(), "bitwise_and") &&
          strstr(em_last_error(), "float32"));
    CHECK(out.storage == NULL);
    CHECK_STATUS(apply2(EM_OP_LEFT_SHIFT, arr_op(&a), py_int(1), &out),
                 EM_ERR_TYPE);
    CHECK(strstr(em_last_error(), "left_shift"));
    CHECK_STATUS(apply2(EM_OP_ADD, arr_op(&a), arr_op(&b), &out),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "(3,)") && strstr(em_last_error(), "(4,)"));
    CHECK_STATUS(apply2(EM_OP_SUBTRACT, arr_op(&m), arr_op(&m), &out),
                 EM_ERR_TYPE);
    CHECK(strstr(em_last_error(), "boolean subtract"));
    CHECK_STATUS(apply1(EM_OP_NEGATIVE, arr_op(&m), &out), EM_ERR_TYPE);
    CHECK_STATUS(apply2(EM_OP_POWER, arr_op(&b), py_int(-1), &out),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "negative integer powers"));
    CHECK_STATUS(apply2(EM_OP_ADD, arr_op(&b), py_int(1LL << 40), &out),
                 EM_ERR_OVERFLOW);
    CHECK(strstr(em_last_error(), "1099511627776 out of bounds for int32"));
    {
        /* Complex arcsin has a loop now (kernels/ewise_ops.h). */
        em_array c = mk1(EM_COMPLEX64, 3, NULL), r;
        memset(&r, 0, sizeof r);
        CHECK_OK(apply1(EM_OP_ARCSIN, arr_op(&c), &r));
        CHECK(r.dtype == EM_COMPLEX64);
        em_array_release(&r);
        em_array_release(&c);
    }
    /* out=: shape, casting, read-only. */
    o2 = mk1(EM_INT32, 4, NULL);
    CHECK_STATUS(apply2(EM_OP_ADD, arr_op(&a), arr_op(&a), &o2),
                 EM_ERR_INVALID_VALUE);
    CHECK(strstr(em_last_error(), "(4,)") && strstr(em_last_error(), "(3,)"));
    em_array_release(&o2);
    o2 = mk1(EM_INT32, 3, NULL);
    CHECK_STATUS(apply2(EM_OP_ADD, arr_op(&a), arr_op(&a), &o2), EM_ERR_TYPE);
    CHECK(strstr(em_last_error(), "same_kind") &&
          strstr(em_last_error(), "float32"));
    CHECK_OK(apply1(EM_OP_COPY, arr_op(&a), &o2)); /* copies cast unsafely */
    o2.flags &= ~(unsigned)EM_ARRAY_WRITEABLE;
    CHECK_STATUS(apply1(EM_OP_COPY, arr_op(&a), &o2), EM_ERR_INVALID_VALUE);
    em_array_release(&o2);
    /* where= must be bool and broadcast. */
    {
        em_operand in[2] = {arr_op(&a), arr_op(&a)};
        em_array w4 = mk1(EM_BOOL, 4, NULL);
        CHECK_STATUS(em_ufunc_apply(EM_OP_ADD, in, 2, &out, &a, NULL),
                     EM_ERR_TYPE);
        CHECK_STATUS(em_ufunc_apply(EM_OP_ADD, in, 2, &out, &w4, NULL),
                     EM_ERR_INVALID_VALUE);
        em_array_release(&w4);
        CHECK_STATUS(em_ufunc_apply(EM_OP_ADD, in, 1, &out, NULL, NULL),
                     EM_ERR_INVALID_VALUE);
        CHECK_STATUS(em_ufunc_apply(EM_OP_COUNT, in, 2, &out, NULL, NULL),
                     EM_ERR_INVALID_VALUE);
    }
    /* Two devices: an array that claims another device is refused before
     * any work. */
    {
        em_array other = b;
        memset(&fake, 0, sizeof fake);
        fake.type = EM_DEVICE_CUDA;
        fake.id = 7;
        strcpy(fake.name, "cuda:7");
        other.device = &fake;
        em_array o3 = mk1(EM_INT32, 4, NULL);
        CHECK_STATUS(apply2(EM_OP_ADD, arr_op(&b), arr_op(&other), &o3),
                     EM_ERR_INVALID_VALUE);
        CHECK(strstr(em_last_error(), "cuda:7") &&
              strstr(em_last_error(), em_device_name(dev)));
        em_array_release(&o3);
    }
    /* A weak int fill that does not fit. */
    {
        em_array i8 = mk1(EM_INT8, 2, NULL);
        CHECK_STATUS(apply1(EM_OP_COPY, py_int(300), &i8), EM_ERR_OVERFLOW);
        CHECK_OK(apply1(EM_OP_COPY, py_int(-128), &i8));
        em_array_release(&i8);
    }
    CHECK(out.storage == NULL);
    em_array_release(&a);
    em_array_release(&b);
    em_array_release(&m);
}

/* Out-of-range Python ints in comparisons give the exact answer. */
static void test_compare_values(void)
{
    int8_t i8[3] = {-128, 0, 127};
    uint64_t u64[2] = {0, UINT64_MAX};
    unsigned char r[3];
    em_array a = mk1(EM_INT8, 3, i8), u = mk1(EM_UINT64, 2, u64), out;
    memset(&out, 0, sizeof out);
    CHECK_OK(apply2(EM_OP_LESS, arr_op(&a), py_int(300), &out));
    fetch(&out, r);
    CHECK(r[0] && r[1] && r[2]);
    em_array_release(&out);
    CHECK_OK(apply2(EM_OP_EQUAL, arr_op(&u), py_int(-1), &out));
    fetch(&out, r);
    CHECK(!r[0] && !r[1]);
    em_array_release(&out);
    CHECK_OK(apply2(EM_OP_GREATER, arr_op(&u), py_int(-1), &out));
    fetch(&out, r);
    CHECK(r[0] && r[1]);
    em_array_release(&out);
    /* uint64 with int64 arrays: the exact mixed loop, not float64. */
    {
        int64_t s[2] = {-1, (int64_t)9007199254740993LL};
        uint64_t t[2] = {UINT64_MAX, 9007199254740992ULL};
        em_array S = mk1(EM_INT64, 2, s), T = mk1(EM_UINT64, 2, t);
        CHECK_OK(apply2(EM_OP_EQUAL, arr_op(&S), arr_op(&T), &out));
        fetch(&out, r);
        CHECK(!r[0] && !r[1]);
        em_array_release(&out);
        CHECK_OK(apply2(EM_OP_LESS, arr_op(&T), arr_op(&S), &out));
        fetch(&out, r);
        CHECK(!r[0] && r[1]);
        em_array_release(&out);
        em_array_release(&S);
        em_array_release(&T);
    }
    em_array_release(&a);
    em_array_release(&u);
}

/* A repeated call finds its kernel in the generator's table: no compile,
 * not even a kernel-cache lookup (which would mean source was built). */
static void test_no_recompile(void)
{
    float v[5] = {1, 2, 3, 4, 5};
    em_array a = mk1(EM_FLOAT32, 5, v), out = mk1(EM_FLOAT32, 5, NULL);
    em_kernel_cache_stats s0, s1;
    CHECK_OK(apply2(EM_OP_HYPOT, arr_op(&a), arr_op(&a), &out));
    em_kernel_cache_get_stats(&s0);
    for (int i = 0; i < 100; i++)
        CHECK_OK(apply2(EM_OP_HYPOT, arr_op(&a), arr_op(&a), &out));
    em_kernel_cache_get_stats(&s1);
    CHECK(s1.compiles == s0.compiles);
    CHECK(s1.memory_hits == s0.memory_hits);
    CHECK(s1.disk_hits == s0.disk_hits);
    em_array_release(&a);
    em_array_release(&out);
}

int main(void)
{
    const char *spec = getenv("EMBER_TEST_DEVICE");
    if (em_device_parse(spec && *spec ? spec : "cpu", &dev) != EM_OK) {
        fprintf(stderr, "test_ufunc: device %s: %s\n", spec, em_last_error());
        return spec ? 77 : 1;
    }
    on_gpu = em_device_get_type(dev) == EM_DEVICE_CUDA;
    em_set_current_device(dev);
    printf("test_ufunc on %s\n", em_device_name(dev));
    test_op_names();
    test_promote();
    test_resolve_table();
    test_resolve_values();
    test_half_rounding();
    test_float_edges();
    test_int_edges();
    test_complex_edges();
    test_f16_edges();
    test_casts();
    test_layouts();
    test_large_strided();
    test_large_contiguous();
    test_overlap();
    test_compare_values();
    test_errors();
    test_no_recompile();
    CHECK_OK(em_device_synchronize(dev));
    return check_report("test_ufunc");
}
