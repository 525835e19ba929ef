/* ember codegen: the per-device kernel tables of the product and cumulate
 * generators (see linalg_table.h). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/ewise_embedded.h"
#include "codegen/kernel_table.h"
#include "codegen/linalg_table.h"

static em_gen_ktable linalg_table = EM_GEN_KTABLE(1024);

typedef struct linalg_miss {
    uint64_t key;
    em_gen_source_fn gen;
    const char *name;
    uint32_t gen_version;
} linalg_miss;

static em_status load(const void *ctx, em_device *dev, em_function **fn)
{
    /* -O3 lets the host compiler vectorise the packed inner loops. */
    static const char *const host_opts[] = {"-O3"};
    const linalg_miss *c = ctx;
    char *src = NULL;
    int cpu = em_device_get_type(dev) == EM_DEVICE_CPU;
    em_status st = c->gen(c->key, em_device_get_type(dev), c->name, &src);
    if (st != EM_OK)
        return st;
    return em_gen_kt_compile(dev, src, cpu ? host_opts : NULL, cpu ? 1 : 0,
                             c->gen_version, &c->name, 1, fn);
}

em_status em_gen_table_function(em_device *dev, uint64_t key,
                                em_gen_source_fn gen, const char *name,
                                uint32_t gen_version, em_function **out)
{
    em_gen_kkey k = {{key}, NULL};
    linalg_miss c = {key, gen, name, gen_version};
    return em_gen_kt_get(&linalg_table, dev, &k, 1, out, load, &c);
}

static char *ops_base;
static pthread_once_t ops_base_once = PTHREAD_ONCE_INIT;

static void cut_ops_base(void)
{
    const char *text = em_embedded_ewise_ops_h;
    const char *end = strstr(text, "/* @ew-section bool */");
    size_t n = end ? (size_t)(end - text) : strlen(text);
    char *p = malloc(n + 1);
    if (!p)
        return;
    memcpy(p, text, n);
    p[n] = 0;
    ops_base = p;
}

const char *em_gen_ops_base(void)
{
    pthread_once(&ops_base_once, cut_ops_base);
    return ops_base;
}

void em_gen_buf_printf(em_gen_buf *b, const char *fmt, ...)
{
    va_list ap, aq;
    int k;
    if (b->oom)
        return;
    va_start(ap, fmt);
    va_copy(aq, ap);
    k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, aq);
    va_end(aq);
    if (k < 0) {
        b->oom = 1;
    } else if (!b->p || b->n + (size_t)k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 8192;
        char *p;
        while (cap < b->n + (size_t)k + 1)
            cap *= 2;
        if (!(p = realloc(b->p, cap))) {
            b->oom = 1;
        } else {
            b->p = p;
            b->cap = cap;
            vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
            b->n += (size_t)k;
        }
    } else {
        b->n += (size_t)k;
    }
    va_end(ap);
}

/* clang-format off */
#define INT32(T) {T, "ew_u32", "((ew_u32)(x))", "((" T ")(x))", "0u", "1u", 'i'}
#define INT64(T) {T, "ew_u64", "((ew_u64)(x))", "((" T ")(x))", "0ull", "1ull", 'i'}
static const em_gen_lt_type lt_types[EM_DTYPE_COUNT] = {
    {"ew_b", "ew_b", "(x)", "(x)", "0", "1", 'b'},
    INT32("ew_i8"), INT32("ew_i16"), INT32("ew_i32"), INT64("ew_i64"),
    INT32("ew_u8"), INT32("ew_u16"), INT32("ew_u32"), INT64("ew_u64"),
    {"ew_f16", "float", "ew_f16_ld(x)", "ew_f16_st(x)", "0.0f", "1.0f", 'f'},
    {"ew_bf16", "float", "ew_bf16_ld(x)", "ew_bf16_st(x)", "0.0f", "1.0f", 'f'},
    {"float", "float", "(x)", "(x)", "0.0f", "1.0f", 'f'},
    {"double", "double", "(x)", "(x)", "0.0", "1.0", 'f'},
    {"ew_c64", "ew_c64", "(x)", "(x)", "ew_mk_c64(0.0f, 0.0f)",
     "ew_mk_c64(1.0f, 0.0f)", 'c'},
    {"ew_c128", "ew_c128", "(x)", "(x)", "ew_mk_c128(0.0, 0.0)",
     "ew_mk_c128(1.0, 0.0)", 'c'},
};

/* clang-format on */

const em_gen_lt_type *em_gen_lt_type_of(em_dtype d)
{
    return (unsigned)d < EM_DTYPE_COUNT ? &lt_types[d] : NULL;
}

void em_gen_convert(em_dtype from, em_dtype to, const char **open1,
                    const char **open2, const char **close)
{
    /* ew_<to>_from_<category>(widen(x)), as the elementwise casts. */
    static const char *const to_fn[EM_DTYPE_COUNT] = {
        "ew_b_from_",   "ew_i8_from_",  "ew_i16_from_",  "ew_i32_from_",
        "ew_i64_from_", "ew_u8_from_",  "ew_u16_from_",  "ew_u32_from_",
        "ew_u64_from_", "ew_f16_from_", "ew_bf16_from_", "ew_f32_from_",
        "ew_f64_from_", "ew_c64_from_", "ew_c128_from_"};
    static const char *const cat[EM_DTYPE_COUNT] = {"b(",
                                                    "i64(",
                                                    "i64(",
                                                    "i64(",
                                                    "i64(",
                                                    "u64(",
                                                    "u64(",
                                                    "u64(",
                                                    "u64(",
                                                    "f32(ew_f16_to_f32(",
                                                    "f32(ew_bf16_to_f32(",
                                                    "f32(",
                                                    "f64(",
                                                    "c64(",
                                                    "c128("};
    if (from == to) {
        *open1 = *open2 = *close = "";
        return;
    }
    *open1 = to_fn[to];
    *open2 = cat[from];
    *close = (from == EM_FLOAT16 || from == EM_BFLOAT16) ? "))" : ")";
}
