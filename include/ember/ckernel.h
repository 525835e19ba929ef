/* ember: kernels from C strings, with CuPy's spellings (ElementwiseKernel,
 * ReductionKernel).
 *
 * A kernel is described by its parameter lists ("T x, raw T y, float32 z")
 * and C snippets. A parameter has a type that is a dtype name ("float32",
 * "int64", "bool", ...) or a placeholder (any other identifier: "T",
 * "Tin"), resolved at each call from the arguments' dtypes: arrays and
 * NumPy scalars bind a placeholder strictly (two different dtypes for one
 * placeholder are EM_ERR_TYPE naming the parameter and both dtypes); a
 * Python scalar only when nothing else binds it. `raw` parameters are not
 * broadcast: the snippet gets `T *name` over C-contiguous memory (a
 * non-contiguous argument goes through a contiguous copy, written back
 * after the launch) and `name_size`, and `name.size()` reads as that.
 *
 * Elementwise: every non-raw array argument broadcasts to one shape; an
 * output not given is allocated with it (C order). In the operation each
 * non-raw input is a const value of its type, each non-raw output an
 * lvalue, `i` the flat index and `_ind.size()` (or `_ind_size`) the
 * element count. Specialisations (argument dtypes, collapsed rank, layout
 * class) are cached in the kernel object by a fixed-size key, so a
 * repeated call builds no source and no strings.
 *
 * Reduction: map_expr over the inputs gives a value of the reduce type
 * (reduce_type, else the first output's type), reduce_expr combines `a`
 * and `b`, post_map_expr writes the outputs from `a`; identity is a C
 * expression of the reduce type or NULL (then an empty reduction is
 * EM_ERR_INVALID_VALUE). Reduced axes are given as in NumPy.
 *
 * Element types: bool, the integers, float16, bfloat16, float32, float64;
 * the 16-bit floats are stored as such and seen by the snippets as float
 * (raw 16-bit parameters are EM_ERR_NOT_SUPPORTED, as is complex). A
 * snippet that
 * does not compile is EM_ERR_COMPILE whose message holds the kernel's
 * name, the snippet and the compiler's log.
 */
#ifndef EMBER_CKERNEL_H
#define EMBER_CKERNEL_H

#include "ember/array.h"
#include "ember/ufunc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EM_CK_MAX_PARAMS 24

typedef struct em_ckernel em_ckernel;

typedef struct em_ckernel_desc {
    const char *in_params, *out_params;
    const char *operation;        /* elementwise */
    const char *map_expr, *reduce_expr, *post_map_expr; /* reduction */
    const char *identity;         /* reduction; NULL: none */
    const char *reduce_type;      /* reduction; NULL: the first output's */
    const char *name;             /* NULL: "kernel" / "reduce_kernel" */
    const char *preamble, *loop_prep, *after_loop; /* NULL: "" */
    const char *const *options;   /* compiler options (NVRTC's; the host
                                   * compiler gets the ones it knows) */
    int n_options;
    int reduce_dims;              /* elementwise: collapse axes (default 1) */
} em_ckernel_desc;

/* Parse and check the description (parameter lists, names, duplicates);
 * EM_ERR_INVALID_VALUE naming the offending text. Nothing is compiled
 * until a call. The strings are copied. */
em_status em_ckernel_create_elementwise(const em_ckernel_desc *d,
                                        em_ckernel **out);
em_status em_ckernel_create_reduction(const em_ckernel_desc *d,
                                      em_ckernel **out);
void em_ckernel_destroy(em_ckernel *k);

/* Counts of input and output parameters, and parameter i of all (inputs
 * first): its name, whether raw, and its fixed dtype or -1 (placeholder). */
int em_ckernel_nin(const em_ckernel *k);
int em_ckernel_nout(const em_ckernel *k);
const char *em_ckernel_param_name(const em_ckernel *k, int i);
int em_ckernel_param_raw(const em_ckernel *k, int i);
int em_ckernel_param_dtype(const em_ckernel *k, int i);
const char *em_ckernel_name(const em_ckernel *k);

/* Run an elementwise kernel. in: nin operands (arrays or scalars); out:
 * nout arrays, each either given (storage set) or zeroed, then allocated
 * on the arguments' device (the current device when there are none) and
 * owned by the caller after success. size >= 0 sets the element count of
 * a kernel without non-raw arrays (with such arrays it is
 * EM_ERR_INVALID_VALUE). The stream s may be NULL (current stream). */
em_status em_ckernel_elementwise(em_ckernel *k, const em_operand *in,
                                 em_array *out, int64_t size, em_stream *s);

/* Run a reduction kernel over axes (naxis < 0: all; axes may be
 * negative; repeated or out-of-range axes are EM_ERR_AXIS), keeping
 * reduced axes as extent 1 when keepdims. out as for the elementwise
 * call; a given output must have the result's shape. */
em_status em_ckernel_reduce(em_ckernel *k, const em_operand *in,
                            em_array *out, const int *axes, int naxis,
                            int keepdims, em_stream *s);

/* How many distinct specialisations k has compiled (for tests). */
int em_ckernel_cached(const em_ckernel *k);

/* Tests: when on, each specialisation compiled for the cpu is also
 * generated for CUDA and compiled to PTX (sm_90) with NVRTC, a failure
 * being the call's EM_ERR_COMPILE; so machines without a GPU check every
 * CUDA variant too. $EMBER_CKERNEL_CHECK_CUDA=1 turns it on for kernels
 * created afterwards (the ufunc builders' kernels, in tests). */
void em_ckernel_set_check_cuda(em_ckernel *k, int on);

#ifdef __cplusplus
}
#endif
#endif
