/* ember core: the dtype table and NumPy-compatible dtype names. */
#include <string.h>
#include "ember/dtype.h"

/* Complex alignment is that of the component (as NumPy and C's _Complex
 * have it); kernels that want 8/16-byte vector access check pointers.
 * The last two columns name the type to the vendor libraries: BLAS and
 * LAPACK's s/d/c/z index, CUDA's cudaDataType (CUDA_R_16F = 2,
 * CUDA_R_16BF = 14, CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_C_32F = 4,
 * CUDA_C_64F = 5). */
static const em_dtype_info em_dtypes[EM_DTYPE_COUNT] = {
    {EM_BOOL,       "bool",       "bool",          '?', 'b', EM_KIND_BOOL,    1,  1, -1, -1},
    {EM_INT8,       "int8",       "int8_t",        'b', 'i', EM_KIND_INT,     1,  1, -1, -1},
    {EM_INT16,      "int16",      "int16_t",       'h', 'i', EM_KIND_INT,     2,  2, -1, -1},
    {EM_INT32,      "int32",      "int32_t",       'i', 'i', EM_KIND_INT,     4,  4, -1, -1},
    {EM_INT64,      "int64",      "int64_t",       'q', 'i', EM_KIND_INT,     8,  8, -1, -1},
    {EM_UINT8,      "uint8",      "uint8_t",       'B', 'u', EM_KIND_UINT,    1,  1, -1, -1},
    {EM_UINT16,     "uint16",     "uint16_t",      'H', 'u', EM_KIND_UINT,    2,  2, -1, -1},
    {EM_UINT32,     "uint32",     "uint32_t",      'I', 'u', EM_KIND_UINT,    4,  4, -1, -1},
    {EM_UINT64,     "uint64",     "uint64_t",      'Q', 'u', EM_KIND_UINT,    8,  8, -1, -1},
    {EM_FLOAT16,    "float16",    "__half",        'e', 'f', EM_KIND_FLOAT,   2,  2, -1,  2},
    {EM_BFLOAT16,   "bfloat16",   "__nv_bfloat16", 'E', 'f', EM_KIND_FLOAT,   2,  2, -1, 14},
    {EM_FLOAT32,    "float32",    "float",         'f', 'f', EM_KIND_FLOAT,   4,  4,  0,  0},
    {EM_FLOAT64,    "float64",    "double",        'd', 'f', EM_KIND_FLOAT,   8,  8,  1,  1},
    {EM_COMPLEX64,  "complex64",  "complex64",     'F', 'c', EM_KIND_COMPLEX, 8,  4,  2,  4},
    {EM_COMPLEX128, "complex128", "complex128",    'D', 'c', EM_KIND_COMPLEX, 16, 8,  3,  5},
};

const em_dtype_info *em_dtype_get(em_dtype d)
{
    if ((unsigned)d >= EM_DTYPE_COUNT)
        return NULL;
    return &em_dtypes[d];
}

size_t em_dtype_size(em_dtype d)
{
    const em_dtype_info *info = em_dtype_get(d);
    return info ? info->size : 0;
}

/* Other spellings NumPy 2 accepts for the same types (C-type names and
 * Python's builtins). "long" is int64: ember targets LP64 hosts. */
static const struct { const char *name; em_dtype id; } em_dtype_aliases[] = {
    {"bool_", EM_BOOL},       {"byte", EM_INT8},         {"ubyte", EM_UINT8},
    {"short", EM_INT16},      {"ushort", EM_UINT16},     {"intc", EM_INT32},
    {"uintc", EM_UINT32},     {"long", EM_INT64},        {"ulong", EM_UINT64},
    {"longlong", EM_INT64},   {"ulonglong", EM_UINT64},  {"intp", EM_INT64},
    {"uintp", EM_UINT64},     {"int", EM_INT64},         {"uint", EM_UINT64},
    {"half", EM_FLOAT16},     {"single", EM_FLOAT32},    {"double", EM_FLOAT64},
    {"float", EM_FLOAT64},    {"csingle", EM_COMPLEX64}, {"cdouble", EM_COMPLEX128},
    {"complex", EM_COMPLEX128},
};

/* NumPy dtypes that exist but that ember does not implement; naming them
 * "not supported" is more useful than "not understood". */
static const char *const em_dtype_unsupported[] = {
    "object", "str", "str_", "bytes", "bytes_", "void", "datetime64",
    "timedelta64", "longdouble", "float128", "clongdouble", "complex256",
    "float96", "complex192", "unicode", "string",
};

static int em_typechar_lookup(char c, em_dtype *out)
{
    int i;
    /* 'l'/'L' and 'p'/'P' are 64-bit on LP64; the table holds 'q'/'Q'. */
    if (c == 'l' || c == 'p') c = 'q';
    if (c == 'L' || c == 'P') c = 'Q';
    for (i = 0; i < EM_DTYPE_COUNT; i++) {
        if (em_dtypes[i].typechar == c) {
            *out = (em_dtype)i;
            return 1;
        }
    }
    return 0;
}

/* A kind character and a byte count: "f4", "i8", "c16", "b1". */
static int em_kindsize_lookup(const char *s, em_dtype *out)
{
    char kind = s[0];
    int size = 0, i;
    const char *p = s + 1;
    if (!*p || *p == '0')
        return 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || size > 100)
            return 0;
        size = size * 10 + (*p - '0');
    }
    if (kind == 'b' && size == 1) {
        *out = EM_BOOL;
        return 1;
    }
    /* bfloat16 has no short code in NumPy; "f2" is float16. */
    for (i = 0; i < EM_DTYPE_COUNT; i++) {
        if (em_dtypes[i].kind == kind && em_dtypes[i].size == size &&
            i != EM_BFLOAT16 && kind != 'b') {
            *out = (em_dtype)i;
            return 1;
        }
    }
    return 0;
}

static int em_is_unsupported(const char *name)
{
    size_t i;
    const char *code = name;
    for (i = 0; i < sizeof em_dtype_unsupported / sizeof *em_dtype_unsupported; i++)
        if (!strcmp(name, em_dtype_unsupported[i]))
            return 1;
    if (*code && strchr("<>=|!", *code))
        code++;
    /* Codes of NumPy's object, string, void, datetime and long double types:
     * one character, then maybe a size and a unit ("O", "U8", "M8[ns]"). */
    if (!*code || !strchr("OSUVaMmgGc", *code))
        return 0;
    if (code[0] == 'c' && code[1])
        return 0;  /* "c8" is a complex code, not NumPy's 'c' (S1) */
    for (code++; *code >= '0' && *code <= '9'; code++)
        ;
    return !*code || *code == '[';
}

em_status em_dtype_from_name(const char *name, em_dtype *out)
{
    const char *code;
    char order = 0;
    em_dtype d;
    size_t i;
    if (!name || !out)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_dtype_from_name: NULL %s", name ? "out" : "name");

    for (i = 0; i < EM_DTYPE_COUNT; i++) {
        if (!strcmp(name, em_dtypes[i].name)) {
            *out = (em_dtype)i;
            return EM_OK;
        }
    }
    for (i = 0; i < sizeof em_dtype_aliases / sizeof *em_dtype_aliases; i++) {
        if (!strcmp(name, em_dtype_aliases[i].name)) {
            *out = em_dtype_aliases[i].id;
            return EM_OK;
        }
    }

    code = name;
    if (*code && strchr("<>=|!", *code))
        order = *code++;
    if (code[0] && !code[1] ? em_typechar_lookup(code[0], &d)
                            : (code[0] && em_kindsize_lookup(code, &d))) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        const char *foreign = order == '<' ? "little-endian" : NULL;
#else
        const char *foreign =
            order == '>' || order == '!' ? "big-endian" : NULL;
#endif
        /* Byte order means nothing for one-byte types, as in NumPy. */
        if (foreign && em_dtypes[d].size > 1)
            return em_error(EM_ERR_TYPE,
                            "data type '%.64s' is %s, which ember does not "
                            "support; convert it to native byte order "
                            "('=%c%d') first", name, foreign,
                            em_dtypes[d].kind, em_dtypes[d].size);
        *out = d;
        return EM_OK;
    }

    if (em_is_unsupported(name))
        return em_error(EM_ERR_TYPE, "data type '%.64s' is not supported by "
                        "ember", name);
    return em_error(EM_ERR_TYPE, "data type '%.64s' not understood", name);
}
