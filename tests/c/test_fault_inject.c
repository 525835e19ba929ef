/* ember C tests: failure injection walked over every failure point of
 * representative operations (a ufunc, a reduction, a sort, unique, a
 * kernel compile, a launch), as SQLite's tests walk malloc failures.
 *
 * For each operation and each kind of failure, N goes 1, 2, ...: the Nth
 * attempt fails, and the operation must return an error (or recover and
 * return the right answer), leave its output untouched (zeroed), leave the
 * pool's bytes in use as they were, and leak nothing (run this program
 * under ASan/LSan: build/asan-*). The walk ends when the operation makes
 * fewer than N attempts.
 *
 * Kinds: host allocations (malloc, calloc, realloc, strdup of ember's own
 * code: CMakeLists.txt links this test with -Wl,--wrap for them), device
 * allocations, compiles and disk-cache writes (src/core/fault.h). The
 * operations run once before their walk so their kernels are cached; the
 * compile walk makes a new kernel each time, so the cold path (compile,
 * load, disk store) is walked too. */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/fault.h"
#include "runtime/runtime.h"

#define MAX_POINTS 2000

/* ---- host allocations, through the linker's --wrap ------------------- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

static uint64_t host_first, host_attempts;
static int host_armed;

static int host_hit(void)
{
    uint64_t n;
    if (!__atomic_load_n(&host_armed, __ATOMIC_ACQUIRE))
        return 0;
    n = __atomic_add_fetch(&host_attempts, 1, __ATOMIC_RELAXED);
    if (n != host_first)
        return 0;
    errno = ENOMEM;
    return 1;
}

void *__wrap_malloc(size_t n) { return host_hit() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t m) { return host_hit() ? NULL : __real_calloc(n, m); }
void *__wrap_realloc(void *p, size_t n) { return host_hit() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return host_hit() ? NULL : __real_strdup(s); }

/* The walk's kinds: the host's, then the core's. */
enum { KIND_HOST = -1 };

static void arm(int kind, uint64_t n)
{
    if (kind == KIND_HOST) {
        __atomic_store_n(&host_armed, 0, __ATOMIC_RELEASE);
        host_attempts = 0;
        host_first = n;
        __atomic_store_n(&host_armed, n != 0, __ATOMIC_RELEASE);
    } else {
        /* Two for device allocations: the pool retries once after emptying
         * its cache, and the failure must get past that to be seen. */
        em_fault_arm((em_fault_kind)kind, n, !n ? 0 : kind == EM_FAULT_DEVICE_ALLOC ? 2 : 1);
    }
}

static uint64_t attempts(int kind)
{
    return kind == KIND_HOST ? __atomic_load_n(&host_attempts, __ATOMIC_RELAXED)
                             : em_fault_attempts((em_fault_kind)kind);
}

static const char *kind_name(int kind)
{
    switch (kind) {
    case KIND_HOST: return "host alloc";
    case EM_FAULT_DEVICE_ALLOC: return "device alloc";
    case EM_FAULT_COMPILE: return "compile";
    case EM_FAULT_DISK_WRITE: return "disk write";
    default: return "?";
    }
}

/* ---- the operations ---------------------------------------------------- */

static em_device *dev;
static em_array x, y, z, xi;    /* inputs, made before any walk */
#define N 1000
static char cache_dir[256];

static em_status host_values(const em_array *a, double *out)
{
    return em_array_to_host(a, out, NULL, NULL);
}

static em_status op_ufunc(void)
{
    em_operand in[2];
    em_array out;
    em_status st;
    double h[N];
    int i, ok = 1;
    memset(in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    in[0].array = &x;
    in[1].array = &y;
    st = em_ufunc_apply(EM_OP_ADD, in, 2, &out, NULL, NULL);
    if (st != EM_OK) {
        CHECK(out.storage == NULL);
        return st;
    }
    st = host_values(&out, h);
    for (i = 0; st == EM_OK && i < N; i++)
        ok &= h[i] == 3.0 * i;
    CHECK(st != EM_OK || ok);
    em_array_release(&out);
    return st;
}

static em_status op_reduce(void)
{
    em_reduce_args ra;
    em_array out;
    em_status st;
    double h = 0;
    memset(&ra, 0, sizeof ra);
    memset(&out, 0, sizeof out);
    st = em_reduce(EM_RED_SUM, &x, &ra, &out, NULL);
    if (st != EM_OK) {
        CHECK(out.storage == NULL);
        return st;
    }
    st = host_values(&out, &h);
    CHECK(st != EM_OK || h == (double)N * (N - 1) / 2);
    em_array_release(&out);
    return st;
}

static em_status op_sort(void)
{
    em_array out;
    em_status st;
    double h[N];
    int i, ok = 1;
    memset(&out, 0, sizeof out);
    st = em_sort(&z, 0, 0, &out, NULL);        /* z is 2i, reversed */
    if (st != EM_OK) {
        CHECK(out.storage == NULL);
        return st;
    }
    st = host_values(&out, h);
    for (i = 0; st == EM_OK && i < N; i++)
        ok &= h[i] == 2.0 * i;
    CHECK(st != EM_OK || ok);
    em_array_release(&out);
    return st;
}

static em_status op_unique(void)
{
    em_array vals, counts;
    em_status st;
    int64_t h[N], c[N];
    int i, ok = 1;
    memset(&vals, 0, sizeof vals);
    memset(&counts, 0, sizeof counts);
    st = em_unique(&xi, 1, &vals, NULL, NULL, &counts, NULL);  /* xi is i % 10 */
    if (st != EM_OK) {
        CHECK(vals.storage == NULL && counts.storage == NULL);
        return st;
    }
    CHECK(vals.size == 10 && counts.size == 10);
    if (vals.size == 10 && counts.size == 10) {
        st = em_array_to_host(&vals, h, NULL, NULL);
        if (st == EM_OK)
            st = em_array_to_host(&counts, c, NULL, NULL);
        for (i = 0; st == EM_OK && i < 10; i++)
            ok &= h[i] == i && c[i] == N / 10;
        CHECK(st != EM_OK || ok);
    }
    em_array_release(&vals);
    em_array_release(&counts);
    return st;
}

/* A kernel no cache has seen: compile, load, store on disk, launch. */
/* LAPACK (math/lapack_host.c): a solve and an SVD, whose workspaces and
 * results are host allocations; skipped where OpenBLAS is not found. */
static em_array la_a, la_b;
static int have_lapack;

static void lapack_setup(void)
{
    static const double a[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2};
    static const double b[3] = {6, 10, 8}; /* a @ (1, 2, 3) */
    int64_t s33[2] = {3, 3}, s31[2] = {3, 1};
    const char *tail = strstr(__FILE__, "tests/c/");
    char pat[4096];
    glob_t g;
    void *h;
    /* the checkout's .venv, as test_lapack finds it */
    snprintf(pat, sizeof pat, "%.*s.venv/lib/python3*/site-packages/"
             "scipy_openblas64/lib", tail ? (int)(tail - __FILE__) : 0, __FILE__);
    if (glob(pat, 0, NULL, &g) == 0) {
        for (size_t k = 0; k < g.gl_pathc; k++)
            em_vendor_add_dir(g.gl_pathv[k]);
        globfree(&g);
    }
    have_lapack = em_vendor_open(EM_VENDOR_OPENBLAS, &h) == EM_OK;
    if (!have_lapack) {
        printf("SKIP the LAPACK walk: %s\n", em_last_error());
        return;
    }
    CHECK_OK(em_array_empty(dev, EM_FLOAT64, 2, s33, 'C', NULL, &la_a));
    CHECK_OK(em_array_empty(dev, EM_FLOAT64, 2, s31, 'C', NULL, &la_b));
    CHECK_OK(em_array_from_host(&la_a, a, NULL, NULL));
    CHECK_OK(em_array_from_host(&la_b, b, NULL, NULL));
}

static em_status op_lapack(void)
{
    em_array sol = {0}, s = {0}, u = {0}, vh = {0};
    double h[3];
    em_status st = em_linalg_solve(&la_a, &la_b, &sol);
    if (st != EM_OK) {
        CHECK(sol.storage == NULL);
        return st;
    }
    st = host_values(&sol, h);
    CHECK(st != EM_OK || (fabs(h[0] - 1) < 1e-12 && fabs(h[1] - 2) < 1e-12 &&
                          fabs(h[2] - 3) < 1e-12));
    em_array_release(&sol);
    if (st != EM_OK)
        return st;
    st = em_linalg_svd(&la_a, 1, &s, &u, &vh);
    if (st != EM_OK) {
        CHECK(s.storage == NULL && u.storage == NULL && vh.storage == NULL);
        return st;
    }
    em_array_release(&s);
    em_array_release(&u);
    em_array_release(&vh);
    return EM_OK;
}

static unsigned compile_serial;

static em_status op_compile_launch(void)
{
    char src[512];
    em_module *m = NULL;
    em_function *f = NULL;
    char *log = NULL;
    float *buf = NULL, h[64];
    int n = 64, i, ok = 1;
    void *args[2];
    em_dim3 grid = {1, 1, 1}, block = {64, 1, 1};
    em_status st;
    snprintf(src, sizeof src,
             "extern \"C\" __global__ void fi_k%u(float *p, int n)\n"
             "{\n"
             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < n) p[i] = (float)i + %u.0f;\n"
             "}\n", compile_serial, compile_serial);
    st = em_kernel_cache_get(dev, src, 0, NULL, 0, 1, &m, &log);
    free(log);
    if (st != EM_OK) {
        CHECK(m == NULL);
        return st;
    }
    snprintf(src, sizeof src, "fi_k%u", compile_serial);
    if ((st = em_module_get_function(m, src, &f)) != EM_OK)
        return st;
    if ((st = em_malloc(dev, sizeof h, NULL, (void **)&buf)) != EM_OK)
        return st;
    args[0] = &buf;
    args[1] = &n;
    st = em_launch(f, grid, block, 0, NULL, args);
    if (st == EM_OK)
        st = em_memcpy_async(dev, h, buf, sizeof h, NULL);
    for (i = 0; st == EM_OK && i < n; i++)
        ok &= h[i] == (float)i + (float)compile_serial;
    CHECK(st != EM_OK || ok);
    CHECK_OK(em_free(dev, buf, NULL));
    return st;
}

/* ---- the walk ---------------------------------------------------------- */

static size_t used_bytes(void)
{
    em_pool_stats s;
    memset(&s, 0, sizeof s);
    CHECK_OK(em_pool_get_stats(dev, &s));
    return s.used_bytes;
}

static int tmp_files_in_cache(void)
{
    DIR *dp = opendir(cache_dir);
    struct dirent *e;
    int n = 0;
    if (!dp)
        return 0;
    while ((e = readdir(dp)))
        n += strstr(e->d_name, ".emtmp") != NULL;
    closedir(dp);
    return n;
}

static void walk(const char *name, em_status (*op)(void), int kind, int fresh)
{
    uint64_t n;
    int failed = 0, recovered = 0;
    size_t before = used_bytes();
    for (n = 1; n <= MAX_POINTS; n++) {
        em_status st;
        uint64_t made;
        if (fresh)
            compile_serial++;
        /* An empty pool cache, so every block is a fresh (failable) one. */
        CHECK_OK(em_pool_free_all(dev));
        arm(kind, n);
        st = op();
        made = attempts(kind);
        arm(kind, 0);
        CHECK_OK(em_device_synchronize(dev));
        CHECK(used_bytes() == before);
        if (used_bytes() != before)
            fprintf(stderr, "%s, %s #%llu: %zu bytes in use, %zu before\n", name,
                    kind_name(kind), (unsigned long long)n, used_bytes(), before);
        if (made < n) {                 /* every point was walked */
            CHECK_OK(st);
            break;
        }
        if (st != EM_OK) {
            failed++;
            CHECK(em_last_error()[0] != 0);
        } else {
            recovered++;                /* a retry or a fallback took over */
        }
    }
    CHECK(n <= MAX_POINTS);
    CHECK(tmp_files_in_cache() == 0);
    printf("  %-16s %-12s %4llu points: %d failed cleanly, %d recovered\n", name,
           kind_name(kind), (unsigned long long)(n - 1), failed, recovered);
    /* After the walk the operation works again. */
    if (fresh)
        compile_serial++;
    CHECK_OK(op());
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    int64_t shape[1] = {N};
    double *h = NULL;
    int64_t *hi = NULL;
    int i;
    struct {
        const char *name;
        em_status (*op)(void);
        int fresh;
    } ops[] = {
        {"ufunc add", op_ufunc, 0},
        {"reduce sum", op_reduce, 0},
        {"sort", op_sort, 0},
        {"unique", op_unique, 0},
        {"compile+launch", op_compile_launch, 1},
        {"lapack solve+svd", op_lapack, 0},
    };
    int kinds[] = {KIND_HOST, EM_FAULT_DEVICE_ALLOC, EM_FAULT_COMPILE,
                   EM_FAULT_DISK_WRITE};

    setenv("EMBER_DEVICE", "cpu", 1);
    snprintf(cache_dir, sizeof cache_dir, "%s/ember-fi-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(cache_dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("EMBER_CACHE_DIR", cache_dir, 1);
    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &dev));
    if (!dev)
        return check_report("test_fault_inject");

    h = malloc(N * sizeof *h);
    hi = malloc(N * sizeof *hi);
    memset(&x, 0, sizeof x);
    memset(&y, 0, sizeof y);
    memset(&xi, 0, sizeof xi);
    memset(&z, 0, sizeof z);
    CHECK_OK(em_array_empty(dev, EM_FLOAT64, 1, shape, 'C', NULL, &z));
    CHECK_OK(em_array_empty(dev, EM_FLOAT64, 1, shape, 'C', NULL, &x));
    CHECK_OK(em_array_empty(dev, EM_FLOAT64, 1, shape, 'C', NULL, &y));
    CHECK_OK(em_array_empty(dev, EM_INT64, 1, shape, 'C', NULL, &xi));
    for (i = 0; i < N; i++)
        h[i] = i;
    CHECK_OK(em_array_from_host(&x, h, NULL, NULL));
    for (i = 0; i < N; i++)
        h[i] = 2.0 * (N - 1 - i);
    CHECK_OK(em_array_from_host(&z, h, NULL, NULL));
    for (i = 0; i < N; i++)
        h[i] = 2.0 * i;
    CHECK_OK(em_array_from_host(&y, h, NULL, NULL));
    for (i = 0; i < N; i++)
        hi[i] = i % 10;
    CHECK_OK(em_array_from_host(&xi, hi, NULL, NULL));
    free(h);
    free(hi);

    lapack_setup();
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        if (ops[o].op == op_lapack && !have_lapack)
            continue;
        /* Warm: kernels compiled and cached before the walk. */
        if (ops[o].fresh)
            compile_serial++;
        CHECK_OK(ops[o].op());
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            walk(ops[o].name, ops[o].op, kinds[k], ops[o].fresh);
    }

    em_array_release(&x);
    em_array_release(&y);
    em_array_release(&xi);
    em_array_release(&z);
    em_array_release(&la_a);
    em_array_release(&la_b);
    CHECK_OK(em_pool_free_all(dev));
    {
        uint64_t allocs = 0, frees = 0;
        em_rt_pool_raw_counts(&allocs, &frees);
        CHECK(allocs == frees);
    }
    {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", cache_dir);
    }
    return check_report("test_fault_inject");
}
