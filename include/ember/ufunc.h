/* ember: elementwise operations (NumPy's ufuncs) on em_arrays.
 *
 * A ufunc is an op id. Type resolution follows NumPy 2 (NEP 50): Python
 * scalars are weak (they take the array's dtype when their value fits its
 * kind), NumPy scalars and arrays are strong. The kernel for a call is
 * found by a compact descriptor (op, loop dtypes, layout class, vector
 * width, index width) in a per-device table, so a repeated call builds no
 * source and no strings; only a first call generates and compiles.
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
    EM_OP_COUNT
} em_op;

typedef struct em_op_info {
    const char *name;    /* NumPy's ufunc name: "add", "true_divide" */
    int nin, nout;
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
 * (bitwise on floats, for example). */
em_status em_ufunc_resolve(em_op op, const em_operand *in, int nin,
                           em_dtype *loop_dtype, em_dtype *out_dtype);

/* out = op(in...). If out->storage is NULL, a new array of the broadcast
 * shape and resolved dtype is made on the inputs' device; otherwise out
 * must have the broadcast shape and is written with casting ('same_kind'
 * for ufunc out=, as NumPy; EM_ERR_TYPE otherwise). `where` (may be NULL)
 * is a bool array broadcast to the shape: elements where it is false keep
 * out's values. */
em_status em_ufunc_apply(em_op op, const em_operand *in, int nin,
                         em_array *out, const em_array *where, em_stream *s);

#ifdef __cplusplus
}
#endif
#endif
