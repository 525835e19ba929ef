/* ember: elementwise operations (NumPy's ufuncs) on em_arrays.
 *
 * A ufunc is an op id. Type resolution follows NumPy 2 (NEP 50): Python
 * scalars are weak (they take the array's dtype when their value fits its
 * kind), NumPy scalars and arrays are strong. Each op has NumPy's loops in
 * NumPy's order; bfloat16 (not in NumPy) has a loop wherever float16 does,
 * right after it, and computes in float32 as float16 does. The kernel for
 * a call is found by a compact descriptor (op, loop dtypes, layout class,
 * vector width, index width) in a per-device table, so a repeated call
 * builds no source and no strings; only a first call generates and
 * compiles.
 */
#ifndef EMBER_UFUNC_H
#define EMBER_UFUNC_H

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The order is part of cache keys: append only. */
typedef enum em_op {
    /* binary */
    EM_OP_ADD = 0, EM_OP_SUBTRACT, EM_OP_MULTIPLY, EM_OP_TRUE_DIVIDE,
    EM_OP_FLOOR_DIVIDE, EM_OP_REMAINDER, EM_OP_POWER,
    EM_OP_MAXIMUM, EM_OP_MINIMUM, EM_OP_FMAX, EM_OP_FMIN,
    EM_OP_EQUAL, EM_OP_NOT_EQUAL, EM_OP_LESS, EM_OP_LESS_EQUAL,
    EM_OP_GREATER, EM_OP_GREATER_EQUAL,
    EM_OP_LOGICAL_AND, EM_OP_LOGICAL_OR, EM_OP_LOGICAL_XOR,
    EM_OP_BITWISE_AND, EM_OP_BITWISE_OR, EM_OP_BITWISE_XOR,
    EM_OP_LEFT_SHIFT, EM_OP_RIGHT_SHIFT,
    EM_OP_ARCTAN2, EM_OP_HYPOT, EM_OP_COPYSIGN, EM_OP_NEXTAFTER,
    EM_OP_LOGADDEXP, EM_OP_LOGADDEXP2, EM_OP_FLOAT_POWER, EM_OP_HEAVISIDE,
    EM_OP_LDEXP,
    /* unary */
    EM_OP_NEGATIVE, EM_OP_POSITIVE, EM_OP_ABSOLUTE, EM_OP_SIGN,
    EM_OP_SQUARE, EM_OP_SQRT, EM_OP_CBRT, EM_OP_RECIPROCAL,
    EM_OP_EXP, EM_OP_EXP2, EM_OP_EXPM1, EM_OP_LOG, EM_OP_LOG2, EM_OP_LOG10,
    EM_OP_LOG1P,
    EM_OP_SIN, EM_OP_COS, EM_OP_TAN, EM_OP_ARCSIN, EM_OP_ARCCOS,
    EM_OP_ARCTAN, EM_OP_SINH, EM_OP_COSH, EM_OP_TANH, EM_OP_ARCSINH,
    EM_OP_ARCCOSH, EM_OP_ARCTANH,
    EM_OP_FLOOR, EM_OP_CEIL, EM_OP_TRUNC, EM_OP_RINT,
    EM_OP_ISNAN, EM_OP_ISINF, EM_OP_ISFINITE, EM_OP_SIGNBIT,
    EM_OP_LOGICAL_NOT, EM_OP_INVERT,
    EM_OP_CONJUGATE,
    /* y = x, cast to the output's dtype: copies and astype */
    EM_OP_COPY,
    /* added after copy, as the order is part of cache keys */
    EM_OP_FMOD, EM_OP_GCD, EM_OP_LCM,
    EM_OP_SPACING,
    /* Halves of NumPy's two-output ufuncs, which em_ufunc_apply (one
     * output) runs as two ops; the Python ember.modf and ember.frexp
     * compose them. Their names start with '_' as they are not NumPy's:
     * the fractional part of modf (its integral part is trunc of the
     * input cast to the same loop type), and frexp's mantissa and int32
     * exponent. */
    EM_OP_MODF_FRAC, EM_OP_FREXP_MANT, EM_OP_FREXP_EXP,
    /* scipy.special's ufuncs (em_op_info.scipy): ember.scipy.special.erf,
     * not ember.erf */
    EM_OP_ERF, EM_OP_ERFC, EM_OP_GAMMA, EM_OP_GAMMALN, EM_OP_EXPIT,
    EM_OP_LOGIT, EM_OP_LOG_EXPIT, EM_OP_NDTR, EM_OP_J0, EM_OP_J1, EM_OP_Y0,
    EM_OP_Y1, EM_OP_SINC, EM_OP_XLOGY, EM_OP_XLOG1PY,
    EM_OP_ERFINV, EM_OP_ERFCINV, EM_OP_DIGAMMA, EM_OP_I1, EM_OP_ZETA,
    EM_OP_RIEMANN_ZETA, EM_OP_JV, EM_OP_YV, EM_OP_YN, EM_OP_IV, EM_OP_KV,
    EM_OP_LOGGAMMA, EM_OP_HANKEL1, EM_OP_HANKEL2,
    /* scipy.special's second tranche (elementary, exponential integrals,
     * scaled Bessel, incomplete gamma and its distributions) */
    EM_OP_EXP10, EM_OP_COSM1, EM_OP_SP_ROUND, EM_OP_SINDG, EM_OP_COSDG,
    EM_OP_TANDG, EM_OP_COTDG, EM_OP_ENTR, EM_OP_REL_ENTR, EM_OP_KL_DIV,
    EM_OP_HUBER, EM_OP_PSEUDO_HUBER, EM_OP_BOXCOX, EM_OP_BOXCOX1P,
    EM_OP_INV_BOXCOX, EM_OP_INV_BOXCOX1P, EM_OP_ERFCX, EM_OP_ERFI,
    EM_OP_LOG_NDTR, EM_OP_NDTRI_EXP, EM_OP_BINOM, EM_OP_POCH, EM_OP_EXPN,
    EM_OP_EXP1, EM_OP_EXPI, EM_OP_I0E, EM_OP_I1E, EM_OP_K0, EM_OP_K0E,
    EM_OP_K1, EM_OP_K1E, EM_OP_GAMMAINC, EM_OP_GAMMAINCC, EM_OP_GAMMASGN,
    EM_OP_RGAMMA, EM_OP_ZETAC, EM_OP_PDTR, EM_OP_PDTRC, EM_OP_CHDTR,
    EM_OP_CHDTRC,
    EM_OP_ELLIPK, EM_OP_ELLIPKM1, EM_OP_ELLIPE, EM_OP_STDTR,
    EM_OP_GAMMAINCINV, EM_OP_GAMMAINCCINV,
    EM_OP_COUNT
} em_op;

typedef struct em_op_info {
    const char *name;    /* NumPy's ufunc name: "add", "true_divide";
                            "_modf_frac" and such for internal ops */
    int nin, nout;
    int scipy;           /* 1: a scipy.special ufunc, named as SciPy's */
} em_op_info;

/* The table row of an op, or NULL if out of range. */
const em_op_info *em_op_get(em_op op);
/* Find an op by NumPy name; EM_ERR_NOT_FOUND if ember has none. */
em_status em_op_from_name(const char *name, em_op *out);

/* One input: an array, or a scalar passed by value to the kernel (no
 * device memory, no copy). A weak scalar is a Python int/float/complex/
 * bool; a strong one is a NumPy scalar. */
typedef struct em_operand {
    const em_array *array;   /* NULL for a scalar */
    em_dtype dtype;          /* a scalar's dtype (int64/float64/complex128/
                                bool for weak Python scalars) */
    int weak;
    union {
        int64_t i;
        uint64_t u;
        double f;
        double c[2];
        unsigned char bytes[16];
    } value;                 /* a scalar's value, as `dtype` */
} em_operand;

/* The loop dtypes and output dtype NumPy would choose for op over these
 * inputs. EM_ERR_TYPE naming the ufunc and the dtypes when none exists
 * (bitwise on floats, for example). loop_dtype (may be NULL) receives nin
 * entries, the dtype each input is cast to (they differ only for mixed
 * loops such as ldexp's float-and-int). A Python int that does not fit its
 * loop dtype is EM_ERR_OVERFLOW ("Python integer 300 out of bounds for
 * int8"), except in comparisons, which compare such values exactly. */
em_status em_ufunc_resolve(em_op op, const em_operand *in, int nin,
                           em_dtype *loop_dtype, em_dtype *out_dtype);

/* ---- dtype promotion and casting (NumPy 2 rules) ---------------------- */

typedef enum em_casting {
    EM_CASTING_NO = 0, EM_CASTING_EQUIV, EM_CASTING_SAFE,
    EM_CASTING_SAME_KIND, EM_CASTING_UNSAFE
} em_casting;

/* numpy.promote_types(a, b). bfloat16 (not in NumPy) promotes like
 * float16, and float16 with bfloat16 gives float32. EM_ERR_TYPE for an
 * invalid dtype. */
em_status em_dtype_promote(em_dtype a, em_dtype b, em_dtype *out);

/* numpy.can_cast(from, to, casting): nonzero when allowed. */
int em_dtype_can_cast(em_dtype from, em_dtype to, em_casting casting);

/* numpy.result_type over operands, weak Python scalars included (an int
 * with an int8 array is int8; alone, Python scalars take int64, float64,
 * complex128). EM_ERR_INVALID_VALUE for n < 1. */
em_status em_result_type(const em_operand *in, int n, em_dtype *out);

/* Convert one value between dtypes as kernels convert elements (NumPy's
 * unsafe casting: wrap-around for integers, round-to-nearest-even for
 * floats, the real part of complex numbers). */
em_status em_scalar_cast(const void *src, em_dtype from, void *dst,
                         em_dtype to);

/* out = op(in...). If out->storage is NULL, a new array of the broadcast
 * shape and resolved dtype is made on the inputs' device; otherwise out
 * must have the broadcast shape and is written with casting ('same_kind'
 * for ufunc out=, as NumPy; EM_ERR_TYPE otherwise). `where` (may be NULL)
 * is a bool array broadcast to the shape: elements where it is false keep
 * out's values.
 *
 * EM_OP_COPY casts instead ('unsafe', as assignment does): from an array
 * input a strided copy, from a scalar a fill (a Python int that the
 * output's integer dtype cannot hold is EM_ERR_OVERFLOW, as in NumPy 2).
 * An input overlapping out other than element for element (a[1:] +=
 * a[:-1]) is copied first, so results are as if every input were read
 * before out is written. A negative integer exponent in an integer power
 * is EM_ERR_INVALID_VALUE ("Integers to negative integer powers are not
 * allowed."), as in NumPy: free for a scalar exponent; for a signed
 * integer array exponent it costs one min-reduction pass over the
 * exponent plus a one-element device-to-host read, which waits for the
 * stream (unsigned and bool exponents skip it). The check covers every
 * element, also those a where= mask leaves out. Complex arcsin, arccos,
 * arctan, arcsinh, arccosh and arctanh follow C99 Annex G and NumPy's
 * branch cuts (the sign of a zero part picks the side of a cut). Stream:
 * s, or NULL for the calling
 * thread's current stream when it is on the operands' device, else that
 * device's default stream. */
em_status em_ufunc_apply(em_op op, const em_operand *in, int nin,
                         em_array *out, const em_array *where, em_stream *s);

/* As em_ufunc_apply, but where it would allocate its result (no out, no
 * where) it may record the operation instead of launching it, to run
 * later fused with the ones after it (src/fuse/fuse.h). A recorded
 * result's memory is taken only when its group runs: until then its data
 * is NULL, and a copy of the struct made before then keeps NULL. The
 * extension's accessor (em_array_settle_slow after the guard) fills it
 * in, and em_array_to_host/from_host settle it themselves; nothing else
 * in the C API does. The extension's operators call this; C code that
 * goes on to use the result itself calls em_ufunc_apply. */
em_status em_ufunc_apply_lazy(em_op op, const em_operand *in, int nin,
                              em_array *out, const em_array *where,
                              em_stream *s);

/* em_ufunc_apply_lazy of a new result (out zeroed, no where, the current
 * stream) for a caller holding a lock that other threads wait on
 * (Python's GIL): does it only where it is recorded without waiting for
 * another thread, launching or compiling. Then *done = 1 and the status
 * is em_ufunc_apply_lazy's (so an error is the same one, from the same
 * call); otherwise *done = 0, EM_OK and nothing is made: the caller calls
 * em_ufunc_apply_lazy with its lock released. Saves the Python extension
 * releasing and retaking the GIL around every recorded operation. */
em_status em_ufunc_apply_try(em_op op, const em_operand *in, int nin,
                             em_array *out, int *done);

#ifdef __cplusplus
}
#endif
#endif
