/* ember internal: kernel signatures read from CUDA C source.
 *
 * One reader of `__global__` definitions, shared by the host compiler's
 * front end (which writes a launcher per kernel from each parameter's type
 * as C text) and the runtime (which gives a module's functions the kind of
 * each parameter, so that a launch from Python can refuse a float where the
 * kernel takes a pointer). It is a scanner, not a C++ parser: it reads
 * what a definition looks like once comments, literals and preprocessor
 * lines are blanked, and says "unknown" wherever it cannot be sure: a
 * parameter's type it cannot resolve is EM_PARAM_UNKNOWN, and a kernel it
 * cannot trust as a whole (a template, two definitions that disagree, a
 * parameter list cut by #if) is left out of em_ksig_find.
 *
 * Type names resolve through the built-in types, <stdint.h>'s and CUDA's
 * (vector types, __half, __nv_bfloat16), and what the source itself
 * declares: struct/union/class/enum tags, typedef and `using` aliases,
 * object-like #defines, and -D options.
 */
#ifndef EMBER_CORE_KSIG_H
#define EMBER_CORE_KSIG_H

#include <stddef.h>
#include "ember/runtime.h"

typedef struct em_ksig_param {
    char *type;             /* C text, arrays adjusted: "const float *" */
    char *name;             /* "a"; "" when the declaration has none */
    em_param_kind kind;
} em_ksig_param;

typedef struct em_ksig_kernel {
    char *name;
    int line;               /* of the parameter list's '(' */
    int n_params;           /* entries of params (0 while status != EM_OK) */
    em_ksig_param *params;
    /* EM_OK, or why the parameter list cannot be used (a parameter that is
     * not "type name", a multi-dimensional array); `why` then says so,
     * naming the file and line. */
    em_status status;
    char *why;
    int templated;          /* under template<...>: the code holds instances */
    int ambiguous;          /* another __global__ of the name differs in kinds */
    int conditional;        /* a preprocessor line inside the parameter list */
} em_ksig_kernel;

typedef struct em_ksig {
    em_ksig_kernel *kernels;    /* the first definition of each name, in order */
    int n_kernels;
    /* EM_OK, or EM_ERR_COMPILE when a parameter list never closes: the scan
     * stopped there, and `why` names the kernel, file and line. */
    em_status status;
    char *why;
} em_ksig;

/* The small lexical helpers the parser uses, for other scanners of
 * kernel C (the host compiler's): whether c can be part of an
 * identifier; the first index from i (below n) that is not white space;
 * whether the identifier w stands at s[i] as a whole word. */
int em_ksig_is_ident(int c);
size_t em_ksig_skip_space(const char *s, size_t i, size_t n);
int em_ksig_word_at(const char *s, size_t i, size_t n, const char *w);

/* Copy n bytes of src to out with comments and string and character
 * literals turned into blanks, and preprocessor lines too unless
 * keep_directives. Newlines stay, so offsets and line numbers agree with
 * src. */
void em_ksig_blank(const char *src, size_t n, char *out, int keep_directives);

/* Read every __global__ definition of src. file names the source in
 * messages ("kernel.cu"); options are the compile options, whose -D macros
 * resolve type names as the source's #defines do. Fails only for lack of
 * memory: what cannot be read is marked in the result (free it with
 * em_ksig_free). */
em_status em_ksig_parse(const char *src, const char *file,
                        const char *const *options, int n_options,
                        em_ksig **out);
void em_ksig_free(em_ksig *s);

/* The kernel `name` if its parameter kinds can be trusted (read without
 * error, not a template, not ambiguous, not cut by #if), else NULL. */
const em_ksig_kernel *em_ksig_find(const em_ksig *s, const char *name);

/* "pointer", "int", "uint", "float", "bool", "other" or "unknown". */
const char *em_ksig_kind_name(em_param_kind k);

#endif
