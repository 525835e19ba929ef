/* ember: what the parallel algorithms share (transform, reduce, scan,
 * sort, select, histogram and the by-key operations).
 *
 * An algorithm takes its combining operator as an em_par_op: a built-in,
 * or a C expression over `a` and `b` (and, for comparators, meaning
 * "a goes before b"). The expression is pasted into the generated kernel
 * as the body of an inline function of the value type, so it costs what
 * a built-in costs; its source text is part of the kernel's descriptor
 * (hashed once per call, never compiled twice). A user operator must be
 * associative; it need not be commutative: every algorithm combines in
 * index order (a from the lower index, b from the higher).
 *
 * The families have their own headers: scan.h (scans, reductions by key,
 * select and partition), sort.h (radix and merge sort, merge, bounds,
 * top-k) and histogram.h (histograms and counting).
 */
#ifndef EMBER_PARALLEL_H
#define EMBER_PARALLEL_H

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The order is part of cache keys: append only. */
typedef enum em_par_builtin {
    EM_PAR_ADD = 0, EM_PAR_MUL, EM_PAR_MIN, EM_PAR_MAX,
    EM_PAR_AND, EM_PAR_OR, EM_PAR_XOR,
    EM_PAR_ARGMIN, EM_PAR_ARGMAX,
    EM_PAR_EXPR,         /* the C expression in em_par_op.expr */
    EM_PAR_BUILTIN_COUNT
} em_par_builtin;

typedef struct em_par_op {
    em_par_builtin kind;
    /* EM_PAR_EXPR: a C expression over `a` and `b` of the value type
     * ("a < b ? a : b"); NUL-terminated, copied by the callee. A source
     * that does not compile is EM_ERR_COMPILE with the expression and the
     * compiler's message. NULL otherwise. */
    const char *expr;
} em_par_op;

/* An expression may bring C definitions it calls (e.g. a Python device
 * function's translation): "DEFINITIONS" EM_PAR_PRELUDE_SEP "EXPRESSION".
 * The definitions are pasted before the generated kernel(s) and, being part
 * of the string, of its cache key. For tuple operators (scan.h) the first
 * expression carries them; for select/partition predicates and transform
 * expressions the same form holds. The definitions must be C that both
 * NVRTC and the host C compiler accept (__device__ functions). */
#define EM_PAR_PRELUDE_SEP '\x1e'

/* Parse a built-in's name ("add", "mul", "min", "max", "and", "or", "xor",
 * "argmin", "argmax"); anything else is taken as a C expression.
 * expr_out receives `name` for expressions (not copied). */
void em_par_op_parse(const char *name, em_par_op *out);

#ifdef __cplusplus
}
#endif
#endif
