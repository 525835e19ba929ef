/* ember internal: the ufunc table, type resolution and scalar casts shared
 * by src/array/ufunc*.c. */
#ifndef EMBER_UFUNC_INTERNAL_H
#define EMBER_UFUNC_INTERNAL_H

#include "ember/ufunc.h"

/* Per-op rules that NumPy keeps in special type resolvers. */
enum {
    EM_UF_NO_BOOL =
        1u << 0, /* all-bool inputs are a TypeError (subtract, negative, ...) */
    EM_UF_TRUE_DIVIDE = 1u << 1, /* integer and bool inputs divide in float64 */
    EM_UF_LOGICAL = 1u << 2,     /* mixed input types use the bool loop */
    EM_UF_COMPARE = 1u << 3,     /* out-of-range Python ints compare exactly */
    EM_UF_NO_COMPLEX =
        1u << 4, /* NumPy has complex loops that ember lacks yet */
    EM_UF_SCIPY = 1u << 5 /* scipy.special's, not NumPy's (em_op_info) */
};

/* One loop: input dtypes (in[1] unused for unary ops) and output dtype. */
typedef struct em_ufunc_loop {
    unsigned char in[2];
    unsigned char out;
} em_ufunc_loop;

/* The loops of an op in NumPy's search order (NULL, *n = 0 for a bad op). */
const em_ufunc_loop *em_ufunc_loops(em_op op, int *n);
unsigned em_ufunc_flags(em_op op);

/* Kind rank for casting: bool 0, integers 1, floats 2, complex 3. */
int em_ufunc_kind_rank(em_dtype d);

/* The full resolution: loop input dtypes (nin of them), the loop output,
 * and for each input whether it is a Python int whose value must be
 * checked against its loop dtype (done here: EM_ERR_OVERFLOW). */
em_status em_ufunc_resolve_full(em_op op, const em_operand *in, int nin,
                                em_dtype *loop_in, em_dtype *loop_out);

/* EM_ERR_TYPE when NumPy has the loop but ember has no kernel for it yet
 * (complex inverse trigonometric and hyperbolic functions). */
em_status em_ufunc_check_supported(em_op op, const em_dtype *loop_in);

/* EM_ERR_OVERFLOW ("Python integer 300 out of bounds for int8") when o is
 * a weak Python int that an integer dtype `to` cannot hold. */
em_status em_ufunc_check_pyint(const em_operand *o, em_dtype to);

/* A short name for an operand's type in messages: "float32" or
 * "Python int". */
const char *em_ufunc_operand_type_name(const em_operand *o);

#endif
