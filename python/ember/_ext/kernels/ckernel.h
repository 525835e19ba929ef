/* ember Python extension: what the C-string kernel types
 * (ckernel_elementwise.c, ckernel_reduction.c) and the ufunc builders
 * (vectorize.c) share: turning call arguments into operands and running
 * a kernel object of include/ember/ckernel.h. */
#ifndef EMPY_CKERNEL_H
#define EMPY_CKERNEL_H

#include "array/ndarray.h"
#include "ember/ckernel.h"

int empy_ckernel_init(PyObject *m, empy_state *st);    /* both kernel types */
int empy_ckreduction_init(PyObject *m);                /* ckernel_reduction.c */
int empy_vectorize_init(PyObject *m, empy_state *st);   /* vectorize.c */
int empy_guvectorize_init(PyObject *m, empy_state *st); /* guvectorize.c */
int empy_vzreduce_init(PyObject *m, empy_state *st);    /* vectorize_reduce.c */

/* How both kernel types' objects begin (each checks its layout against
 * this), so one method table serves both. */
typedef struct empy_ck_object {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    em_ckernel *k;
} empy_ck_object;

/* _set_check_cuda and _cached_count, for the tests. */
extern PyMethodDef empy_ck_methods[];

/* The operands of one call: ember arrays as they are, Python and NumPy
 * scalars by value, other array-likes (NumPy arrays, lists) copied to the
 * current device (kept alive in keep[]). */
typedef struct empy_ck_args {
    em_operand in[EM_CK_MAX_PARAMS];
    PyObject *keep[EM_CK_MAX_PARAMS];
    em_array out[EM_CK_MAX_PARAMS];
    PyObject *outobj[EM_CK_MAX_PARAMS]; /* given outputs (borrowed) */
} empy_ck_args;

/* Fill a->in[0..nin) from objs; -1 with an exception naming the kernel
 * and the parameter. */
int empy_ck_inputs(empy_state *st, const em_ckernel *k, PyObject *const *objs,
                   int nin, empy_ck_args *a);
/* Record a given output (None: allocate); -1 with TypeError unless an
 * ember ndarray. */
int empy_ck_output(const em_ckernel *k, int j, PyObject *o, empy_ck_args *a);
void empy_ck_args_clear(empy_ck_args *a, int nout);

/* The result objects after a successful call: each output as an ndarray
 * (the given object for given ones); a single one alone unless as_tuple.
 * Allocated outputs move into the result (zeroed in a->out). */
PyObject *empy_ck_results(empy_state *st, empy_ck_args *a, int nout,
                          int as_tuple);

/* A stream= argument (NULL/None: the current stream); -1 with an
 * exception. */
int empy_ck_stream(empy_state *st, PyObject *o, em_stream **s);

/* Options as a NULL-ended list of strings (a str, or a sequence of str),
 * copied with PyMem_Malloc; -1 with TypeError. */
int empy_ck_options(PyObject *o, char ***out, int *n);
void empy_ck_options_free(char **opts, int n);

/* vectorize.c, shared with vectorize_reduce.c: the translated device
 * function (source, C name, result code) of pyfunc for n scalar dtypes;
 * NotImplementedError unless dtype d is one the ufunc builders take;
 * operands from call arguments (ember arrays stay on their device, other
 * array-likes go to the target's: cpu when cpu_target, else the current
 * device; keep[] holds the copies; *host_only: no ember array among them;
 * *any_array: some argument was an array); and a result returned as NumPy
 * (a scalar when `scalar`) when to_host. */
PyObject *empy_vz_translate(PyObject *pyfunc, const em_dtype *in, int n);
int empy_vz_check_supported(const char *what, PyObject *name, em_dtype d);
int empy_vz_operands(empy_state *st, int cpu_target, PyObject *const *objs,
                     int n, em_operand *ops, PyObject **keep, int *host_only,
                     int *any_array);
PyObject *empy_vz_finish(empy_state *st, PyObject *r, int to_host,
                         int scalar);
/* Also shared with guvectorize.c: the kernel-side C type of a dtype the
 * ufunc builders take (NULL for the others); a stream= argument (None or
 * 0: the current stream, *s NULL); a target= argument ('cuda', the
 * default: *cpu 0; 'cpu' or 'parallel': *cpu 1). -1 with an exception. */
const char *empy_vz_ctype(em_dtype d);
int empy_vz_stream(empy_state *st, PyObject *o, em_stream **s);
int empy_vz_target(PyObject *t, int *cpu);

#endif
