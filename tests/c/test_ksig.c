/* Tests of the kernel signature reader (core/ksig.c) and of the parameter
 * kinds the runtime gives functions of the kernel cache's modules. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ksig.h"
#include "check.h"

#define CONTAINS(s, sub) ((s) && strstr((s), (sub)) != NULL)

static em_ksig *parse_opts(const char *src, const char *const *opts, int n)
{
    em_ksig *s = NULL;
    CHECK_OK(em_ksig_parse(src, "t.cu", opts, n, &s));
    CHECK(s != NULL);
    return s;
}

static em_ksig *parse(const char *src) { return parse_opts(src, NULL, 0); }

/* The kernel of that name in the list, trusted or not. */
static const em_ksig_kernel *any_kernel(const em_ksig *s, const char *name)
{
    for (int i = 0; s && i < s->n_kernels; i++)
        if (!strcmp(s->kernels[i].name, name))
            return &s->kernels[i];
    return NULL;
}

/* Kernel `name` is trusted and its parameters have these kinds. */
static int kinds_are(const em_ksig *s, const char *name, int n, const em_param_kind *want)
{
    const em_ksig_kernel *k = em_ksig_find(s, name);
    if (!k) {
        fprintf(stderr, "kernel %s: not found or not trusted\n", name);
        return 0;
    }
    if (k->n_params != n) {
        fprintf(stderr, "kernel %s: %d parameters, wanted %d\n", name, k->n_params, n);
        return 0;
    }
    for (int i = 0; i < n; i++)
        if (k->params[i].kind != want[i]) {
            fprintf(stderr, "kernel %s parameter %d ('%s' '%s'): %s, wanted %s\n", name,
                    i, k->params[i].type, k->params[i].name,
                    em_ksig_kind_name(k->params[i].kind), em_ksig_kind_name(want[i]));
            return 0;
        }
    return 1;
}

static int param_is(const em_ksig *s, const char *kname, int i, const char *type,
                    const char *name)
{
    const em_ksig_kernel *k = any_kernel(s, kname);
    if (!k || i >= k->n_params)
        return 0;
    if (strcmp(k->params[i].type, type) || strcmp(k->params[i].name, name)) {
        fprintf(stderr, "kernel %s parameter %d: '%s' '%s', wanted '%s' '%s'\n", kname,
                i, k->params[i].type, k->params[i].name, type, name);
        return 0;
    }
    return 1;
}

#define P EM_PARAM_POINTER
#define I EM_PARAM_INT
#define U EM_PARAM_UINT
#define F EM_PARAM_FLOAT
#define B EM_PARAM_BOOL
#define O EM_PARAM_OTHER
#define X EM_PARAM_UNKNOWN

/* ---- blanking ----------------------------------------------------------- */

static void test_blank(void)
{
    const char *src = "a /* b\n c */ d // e\n#define F \"g\" /* h */\n"
                      "'i' \"j\\\"k\" l\n#error don't\nm\n";
    size_t n = strlen(src);
    char *out = malloc(n + 1), *keep = malloc(n + 1);
    em_ksig_blank(src, n, out, 0);
    em_ksig_blank(src, n, keep, 1);
    out[n] = keep[n] = 0;
    for (size_t i = 0; i < n; i++)
        CHECK((src[i] == '\n') == (out[i] == '\n') && (src[i] == '\n') == (keep[i] == '\n'));
    CHECK(!strcmp(out, "a     \n      d     \n                     \n"
                       "           l\n            \nm\n"));
    /* Directives kept, their comments and literals blanked; the apostrophe
     * of "don't" ends with its line, so m is code. */
    CHECK(!strcmp(keep, "a     \n      d     \n#define F            \n"
                        "           l\n#error don  \nm\n"));
    free(out);
    free(keep);
}

/* ---- kinds -------------------------------------------------------------- */

static void test_basic(void)
{
    static const em_param_kind saxpy[] = {F, P, P, I};
    em_ksig *s = parse(
        "extern \"C\" __global__ void saxpy(float a, const float *__restrict__ x,\n"
        "                                   float *y, int n)\n"
        "{\n    y[0] = a * x[0];\n}\n");
    CHECK(s->status == EM_OK && s->n_kernels == 1);
    CHECK(kinds_are(s, "saxpy", 4, saxpy));
    CHECK(param_is(s, "saxpy", 0, "float", "a"));
    CHECK(param_is(s, "saxpy", 1, "const float *__restrict__", "x"));
    CHECK(param_is(s, "saxpy", 2, "float *", "y"));
    CHECK(param_is(s, "saxpy", 3, "int", "n"));
    CHECK(any_kernel(s, "saxpy")->line == 1);
    CHECK(em_ksig_find(s, "nope") == NULL);
    CHECK(em_ksig_find(NULL, "saxpy") == NULL);
    CHECK(!strcmp(em_ksig_kind_name(EM_PARAM_POINTER), "pointer"));
    CHECK(!strcmp(em_ksig_kind_name(EM_PARAM_UNKNOWN), "unknown"));
    em_ksig_free(s);
}

static void test_types(void)
{
    static const em_param_kind want[] = {
        O, O, U, P, U, I, U, B, F, O, I, I, U, X, O, O, I, U, I, I, U, X, P, P,
        U, U, I, X, U, I, P, P, O, F, F, X,
    };
    static const char *const opts[] = {"-DUNUSED", "-D", "IDX=unsigned int"};
    em_ksig *s = parse_opts(
        "struct S { int a; double b; };\n"
        "enum E { E0, E1 };\n"
        "struct Params;\n"
        "__global__ void many(\n"
        "    float4 v, double2 d,               /* 0 1 */\n"
        "    unsigned long long n, T a[],       /* 2 3 */\n"
        "    size_t z, int64_t i64, uint8_t u8, /* 4 5 6 */\n"
        "    bool flag, double x, __nv_bfloat16 h, /* 7 8 9 */\n"
        "    char c, signed char sc, unsigned u, /* 10 11 12 */\n"
        "    long double ld, struct S s1, S s2, /* 13 14 15 */\n"
        "    enum E e, std::size_t sz, short int si, long long int lli, /* 16-19 */\n"
        "    unsigned short int usi, Foo f, Foo *fp, const float *const cp, /* 20-23 */\n"
        "    cudaTextureObject_t tex, uint_fast32_t uf, int n5 = 5, /* 24-26 */\n"
        "    int &r, const size_t, int, float *, /* 27-30 (unnamed from 28) */\n"
        "    float a2[16], __grid_constant__ const Params p, __half hf, /* 31-33 */\n"
        "    half hh, thrust::complex<float> cf) /* 34 35 */\n"
        "{ }\n", opts, 3);
    const em_ksig_kernel *k = any_kernel(s, "many");
    CHECK(kinds_are(s, "many", (int)(sizeof want / sizeof *want), want));
    CHECK(param_is(s, "many", 3, "T*", "a"));
    CHECK(param_is(s, "many", 26, "int", "n5"));
    CHECK(param_is(s, "many", 28, "const size_t", ""));
    CHECK(param_is(s, "many", 29, "int", ""));
    CHECK(param_is(s, "many", 30, "float *", ""));
    CHECK(param_is(s, "many", 31, "float*", "a2"));
    CHECK(param_is(s, "many", 32, "__grid_constant__ const Params", "p"));
    CHECK(k && k->line == 4);
    em_ksig_free(s);
}

static void test_aliases(void)
{
    static const em_param_kind want[] = {F, F, U, F, I, P, O, I, P, X, X, U, X, F, X};
    static const char *const opts[] = {"-DT=float", "--define-macro=IT=int"};
    em_ksig *s = parse_opts(
        "typedef float real;\n"
        "#define REAL double\n"
        "#define RESTRICT __restrict__\n"
        "#define MAKE(x) x\n"
        "using idx = unsigned int;\n"
        "typedef struct { float x, y; } vec2;\n"
        "typedef enum { A, B } choice;\n"
        "typedef float *floatp;\n"
        "typedef real level2;\n"
        "#if WIDE\n"
        "typedef double wide;\n"
        "#else\n"
        "typedef float wide;\n"
        "#endif\n"
        "typedef float many_a, *many_b;\n"
        "typedef void (*fn)(int);\n"
        "__global__ void k(real a, REAL b, idx c, T d, IT e, RESTRICT floatp f,\n"
        "                  vec2 g, choice h, float vec[3], wide w, many_a m,\n"
        "                  std::uint32_t u, fn_holder q, level2 l2, MAKE(int) mk)\n"
        "{ }\n", opts, 2);
    CHECK(kinds_are(s, "k", (int)(sizeof want / sizeof *want), want));
    em_ksig_free(s);
}

static void test_lexing(void)
{
    static const em_param_kind one_ptr[] = {P};
    static const em_param_kind two[] = {P, I};
    em_ksig *s = parse(
        "#define OPEN { // a directive with a comment\n"
        "__global__ void zeroth(int *p) { p[3] = 1; }\n"
        "#define GREETING \"extern \\\"C\\\" __global__ void fake(int x) {}\"\n"
        "#define KERNEL __global__ void in_macro(int x) {} \\\n"
        "    __global__ void continued(int y) {}\n"
        "/*/ a comment that does not end at its own slash: __global__ void no(int a) { } */\n"
        "extern \"C\" {\n"
        "  struct s { int v; };\n"
        "  __device__ int twice(int v) { if (v) { return 2 * v; } return 0; }\n"
        "  __global__ void first(int *p) { p[0] = twice(21); }\n"
        "}\n"
        "// __global__ void commented(int x) { } \\\n"
        "   __global__ void also_commented(int x) { }\n"
        "const char *str = \"__global__ void in_string(int x) {}\";\n"
        "char q = '\"';\n"
        "extern \"C\"\n"
        "{\n"
        "  __global__ void second(int *p, char q) { p[1] = q == '\"' ? 7 : 0; }\n"
        "}\n"
        "extern \"C\" __global__ void __launch_bounds__(256, 2) third(int *p) { }\n"
        "__global__ __launch_bounds__(128) void fourth(int *p, int n)\n"
        "    __attribute__((unused)) { }\n"
        "#error don't\n"
        "__global__ void fifth(int *p) { }\n");
    const char *const names[] = {"zeroth", "first", "second", "third", "fourth", "fifth"};
    CHECK(s->status == EM_OK);
    CHECK(s->n_kernels == 6);
    for (int i = 0; i < 6 && i < s->n_kernels; i++)
        CHECK(!strcmp(s->kernels[i].name, names[i]));
    CHECK(kinds_are(s, "zeroth", 1, one_ptr));
    CHECK(kinds_are(s, "fourth", 2, two));
    CHECK(kinds_are(s, "fifth", 1, one_ptr));
    CHECK(any_kernel(s, "fifth")->line == 24);
    CHECK(any_kernel(s, "fake") == NULL && any_kernel(s, "in_macro") == NULL &&
          any_kernel(s, "continued") == NULL && any_kernel(s, "no") == NULL &&
          any_kernel(s, "commented") == NULL && any_kernel(s, "also_commented") == NULL &&
          any_kernel(s, "in_string") == NULL);
    em_ksig_free(s);
}

static void test_lists(void)
{
    em_ksig *s = parse(
        "__global__ void none() { }\n"
        "__global__ void voidp(void) { }\n"
        "__global__ void later(int *);\n"
        "__global__ void later(int *p) { }\n"
        "__global__ void differs(float a);\n"
        "__global__ void differs(int a) { }\n"
        "#ifdef USE_DOUBLE\n"
        "__global__ void twice(double *a, int s) { }\n"
        "#else\n"
        "__global__ void twice(float *a, float s) { }\n"
        "#endif\n"
        "#ifdef USE_DOUBLE\n"
        "__global__ void twice_ok(double *a) { }\n"
        "#else\n"
        "__global__ void twice_ok(float *a) { }\n"
        "#endif\n"
        "__global__ void cut(float *a,\n"
        "#ifdef WIDE\n"
        "    long n\n"
        "#else\n"
        "    int n\n"
        "#endif\n"
        ") { }\n"
        "template <typename T> __global__ void tmpl(T *a, int n) { }\n"
        "template <int N>\n__global__ void tmpl2(float *a) { }\n"
        "__global__ void after_tmpl(float *a) { }\n");
    CHECK(s->n_kernels == 10);
    CHECK(em_ksig_find(s, "none") && em_ksig_find(s, "none")->n_params == 0);
    CHECK(em_ksig_find(s, "voidp") && em_ksig_find(s, "voidp")->n_params == 0);
    CHECK(em_ksig_find(s, "later") && em_ksig_find(s, "later")->n_params == 1);
    CHECK(any_kernel(s, "differs") && any_kernel(s, "differs")->ambiguous);
    CHECK(em_ksig_find(s, "differs") == NULL);
    CHECK(any_kernel(s, "twice") && em_ksig_find(s, "twice") == NULL);
    CHECK(em_ksig_find(s, "twice_ok") != NULL);    /* both read as one pointer */
    CHECK(any_kernel(s, "cut") && any_kernel(s, "cut")->conditional);
    CHECK(em_ksig_find(s, "cut") == NULL);
    CHECK(any_kernel(s, "tmpl") && any_kernel(s, "tmpl")->templated);
    CHECK(em_ksig_find(s, "tmpl") == NULL && em_ksig_find(s, "tmpl2") == NULL);
    CHECK(em_ksig_find(s, "after_tmpl") != NULL);
    /* The host front end still sees the first definition of each name. */
    CHECK(param_is(s, "tmpl", 0, "T *", "a"));
    em_ksig_free(s);
}

static void test_errors(void)
{
    em_ksig *s = parse("__global__ void good(int *p) { }\n"
                       "__global__ void bad(int a, , int b) { }\n"
                       "__global__ void grid(float a[4][4]) { }\n"
                       "__global__ void fnptr(void (*f)(int)) { }\n"
                       "__global__ void also_good(float x) { }\n");
    const em_ksig_kernel *k;
    CHECK(s->status == EM_OK && s->n_kernels == 5);
    CHECK(em_ksig_find(s, "good") && em_ksig_find(s, "also_good"));
    k = any_kernel(s, "bad");
    CHECK(k && k->status == EM_ERR_COMPILE && k->n_params == 0);
    CHECK(k && CONTAINS(k->why, "parameter 2 of kernel 'bad' at t.cu:2"));
    k = any_kernel(s, "grid");
    CHECK(k && k->status == EM_ERR_NOT_SUPPORTED && CONTAINS(k->why, "multi-dimensional"));
    k = any_kernel(s, "fnptr");
    CHECK(k && k->status == EM_ERR_COMPILE && em_ksig_find(s, "fnptr") == NULL);
    em_ksig_free(s);

    s = parse("__global__ void first(int *p) { }\n"
              "__global__ void open_(int *p, int n { }\n");
    CHECK(s->status == EM_ERR_COMPILE && CONTAINS(s->why, "'open_' at t.cu:2"));
    CHECK(em_ksig_find(s, "first") != NULL);
    em_ksig_free(s);

    s = parse("");
    CHECK(s->n_kernels == 0 && s->status == EM_OK);
    em_ksig_free(s);
    CHECK_STATUS(em_ksig_parse(NULL, "t.cu", NULL, 0, &s), EM_ERR_INVALID_VALUE);
    CHECK(s == NULL);
}

/* ---- the runtime ---------------------------------------------------------- */

static const char kinds_src[] =
    "#define REAL float\n"
    "typedef struct { int a; float b; } pair;\n"
    "extern \"C\" __global__ void kinds(float *x, int n, REAL a, unsigned char c,\n"
    "                                  bool b, float4 v, pair p, LEN_T len)\n"
    "{\n"
    "    if (blockIdx.x == 0 && threadIdx.x == 0)\n"
    "        x[0] = a + n + c + b + v.x + p.a + p.b + (float)len;\n"
    "}\n";

static void test_runtime(void)
{
    static const em_param_kind want[] = {P, I, F, U, B, O, O, U};
    static const char *const opts[] = {"-DLEN_T=unsigned long"};
    em_device *d = NULL;
    em_module *m = NULL, *m2 = NULL;
    em_function *f = NULL, *g = NULL;
    em_code *code = NULL;

    CHECK_OK(em_device_get(EM_DEVICE_CPU, 0, &d));
    if (!d)
        return;
    CHECK_OK(em_kernel_cache_get(d, kinds_src, 0, opts, 1, 1, &m, NULL));
    if (m)
        CHECK_OK(em_module_get_function(m, "kinds", &f));
    if (f) {
        CHECK(em_function_param_count(f) == 8);
        for (int i = 0; i < 8; i++)
            CHECK(em_function_param_kind(f, i) == want[i]);
        CHECK(!strcmp(em_function_param_type(f, 0), "float *"));
        CHECK(!strcmp(em_function_param_name(f, 0), "x"));
        CHECK(!strcmp(em_function_param_type(f, 2), "REAL"));
        CHECK(!strcmp(em_function_param_type(f, 7), "LEN_T"));
        CHECK(em_function_param_kind(f, 8) == EM_PARAM_UNKNOWN);
        CHECK(em_function_param_kind(f, -1) == EM_PARAM_UNKNOWN);
        CHECK(em_function_param_type(f, 8) == NULL && em_function_param_name(f, -1) == NULL);
    }
    CHECK(em_function_param_kind(NULL, 0) == EM_PARAM_UNKNOWN);
    CHECK(em_function_param_type(NULL, 0) == NULL);

    /* A memory hit hands out the same module, kinds and all. */
    CHECK_OK(em_kernel_cache_get(d, kinds_src, 0, opts, 1, 1, &m2, NULL));
    CHECK(m2 == m);

    /* Code loaded as is has no source: every kind is unknown. */
    CHECK_OK(em_compile_host(kinds_src, "kinds.cu", opts, 1, &code, NULL));
    m2 = NULL;
    if (code)
        CHECK_OK(em_module_load(d, code, &m2));
    em_code_free(code);
    if (m2) {
        CHECK_OK(em_module_get_function(m2, "kinds", &g));
        CHECK(g && em_function_param_count(g) == 8);
        for (int i = 0; g && i < 8; i++)
            CHECK(em_function_param_kind(g, i) == EM_PARAM_UNKNOWN);
        CHECK(g && em_function_param_type(g, 0) == NULL);
        CHECK_OK(em_module_unload(m2));
    }
}

static void remove_dir(const char *path)
{
    DIR *dir = opendir(path);
    struct dirent *e;
    char p[4096 + 300];
    if (!dir)
        return;
    while ((e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        unlink(p);
    }
    closedir(dir);
    rmdir(path);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    char cache_dir[4096];
    int rc;

    snprintf(cache_dir, sizeof cache_dir, "%s/ember-ksig-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(cache_dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("EMBER_CACHE_DIR", cache_dir, 1);

    test_blank();
    test_basic();
    test_types();
    test_aliases();
    test_lexing();
    test_lists();
    test_errors();
    test_runtime();

    rc = check_report("test_ksig");
    remove_dir(cache_dir);
    return rc;
}
