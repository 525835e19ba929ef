/* ember reductions: names and dtype rules (NumPy's, see ember/reduce.h).
 *
 * Kernels compute in six types: every integer and bool as a 64-bit
 * integer (signed or not), 16-bit floats and float32 as float32, float64,
 * and the two complex types. A narrower explicit dtype for sum or prod
 * (dtype=int8) is still exact: 64-bit wrap-around arithmetic has the same
 * low bits as NumPy's 8-bit one. float16 accumulates in float32 even when
 * named as dtype=, which is at least as accurate as NumPy. */
#include "array/reduce_internal.h"

static const char *const names[EM_RED_OP_COUNT] = {
    "sum",     "prod",    "min",           "max",    "argmin",    "argmax",
    "any",     "all",     "count_nonzero", "mean",   "var",       "std",
    "nansum",  "nanprod", "nanmin",        "nanmax", "nanargmin", "nanargmax",
    "nanmean", "nanvar",  "nanstd",        "sumsq"};

const char *em_reduce_name(em_reduce_op op)
{
    return (unsigned)op < EM_RED_OP_COUNT ? names[op] : NULL;
}

static int kind(em_dtype d)
{
    return (int)em_dtype_get(d)->kind_id;
}

static int is_intlike(em_dtype d)
{
    return kind(d) == EM_KIND_BOOL || kind(d) == EM_KIND_INT ||
           kind(d) == EM_KIND_UINT;
}

static int is_complex(em_dtype d)
{
    return kind(d) == EM_KIND_COMPLEX;
}

/* The compute type of a dtype's values. */
static em_dtype natural(em_dtype d)
{
    switch (kind(d)) {
    case EM_KIND_BOOL:
    case EM_KIND_INT:
        return EM_INT64;
    case EM_KIND_UINT:
        return EM_UINT64;
    case EM_KIND_COMPLEX:
        return d;
    default:
        return d == EM_FLOAT64 ? EM_FLOAT64 : EM_FLOAT32;
    }
}

static em_dtype real_of(em_dtype d)
{
    return d == EM_COMPLEX64 ? EM_FLOAT32 : d == EM_COMPLEX128 ? EM_FLOAT64 : d;
}

static int is_double(em_dtype d)
{
    return d == EM_FLOAT64 || d == EM_COMPLEX128;
}

em_status em_red_resolve(em_reduce_op op, em_dtype in,
                         const em_reduce_args *args, em_dtype *out,
                         em_dtype *compute)
{
    int has = args && args->has_dtype;
    em_dtype D = has ? args->dtype : in, R, C;
    if ((unsigned)op >= EM_RED_OP_COUNT)
        return em_error(EM_ERR_INVALID_VALUE, "em_reduce: invalid op %d",
                        (int)op);
    if (!em_dtype_get(in) || (has && !em_dtype_get(D)))
        return em_error(EM_ERR_TYPE, "%s: invalid dtype", names[op]);
    switch (op) {
    case EM_RED_SUM:
    case EM_RED_PROD:
    case EM_RED_NANSUM:
    case EM_RED_NANPROD:
        if (has)
            R = D;
        else if (kind(in) == EM_KIND_BOOL || kind(in) == EM_KIND_INT)
            R = EM_INT64;
        else if (kind(in) == EM_KIND_UINT)
            R = EM_UINT64;
        else
            R = in;
        C = natural(R);
        break;
    case EM_RED_MEAN:
    case EM_RED_NANMEAN:
        R = has ? D : is_intlike(in) ? EM_FLOAT64 : in;
        C = has ? natural(D) : is_intlike(in) ? EM_FLOAT64 : natural(in);
        break;
    case EM_RED_VAR:
    case EM_RED_STD:
    case EM_RED_NANVAR:
    case EM_RED_NANSTD:
    case EM_RED_SUMSQ:
        R = has ? D : is_intlike(in) ? EM_FLOAT64 : real_of(in);
        if (is_complex(in))
            C = has && is_double(D) ? EM_COMPLEX128 : in;
        else if (has && !is_intlike(D))
            C = is_double(D) ? EM_FLOAT64 : natural(real_of(D));
        else
            C = is_intlike(in) ? EM_FLOAT64 : natural(in);
        break;
    default:
        if (has)
            return em_error(EM_ERR_TYPE, "%s does not take a dtype", names[op]);
        C = natural(in);
        R = op == EM_RED_MIN || op == EM_RED_MAX || op == EM_RED_NANMIN ||
                    op == EM_RED_NANMAX
                ? in
            : op == EM_RED_ANY || op == EM_RED_ALL ? EM_BOOL
                                                   : EM_INT64;
        break;
    }
    *out = R;
    if (compute)
        *compute = C;
    return EM_OK;
}

em_status em_reduce_result_dtype(em_reduce_op op, em_dtype in,
                                 const em_reduce_args *args, em_dtype *out)
{
    return em_red_resolve(op, in, args, out, NULL);
}
