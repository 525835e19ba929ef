/* ember Python extension: what the C-string kernel types
 * (ckernel_elementwise.c, ckernel_reduction.c) share: turning call
 * arguments into operands and running a kernel object of
 * include/ember/ckernel.h. The ufunc builders over them (vectorize,
 * guvectorize, reduce) are Python: python/ember/_api/vectorize.py. */
#ifndef EMPY_CKERNEL_H
#define EMPY_CKERNEL_H

#include "array/ndarray.h"
#include "ember/ckernel.h"

int empy_ckernel_init(PyObject *m, empy_state *st);    /* both kernel types */
int empy_ckreduction_init(PyObject *m);                /* ckernel_reduction.c */

/* How both kernel types' objects begin, so one method table serves both.
 * spec: the constructor's arguments as python/ember/_api/kernel_args.py
 * checked them, which the attributes read. */
#define EMPY_CK_HEAD                                                        \
    PyObject_HEAD                                                           \
    vectorcallfunc vectorcall;                                              \
    em_ckernel *k;                                                          \
    PyObject *spec;                                                         \
    int nin, nout, nargs;
typedef struct empy_ck_object {
    EMPY_CK_HEAD
} empy_ck_object;

/* _set_check_cuda and _cached_count, for the tests. */
extern PyMethodDef empy_ck_methods[];

/* An attribute of both types: item (intptr_t)closure of spec. */
PyObject *empy_ck_spec_item(PyObject *self, void *closure);
#define EMPY_CK_SPEC(NAME, I) {NAME, empy_ck_spec_item, NULL, NULL, (void *)(intptr_t)(I)}
#define EMPY_CK_MEMBERS(T)                                                  \
    {"nin", T_INT, offsetof(T, nin), READONLY, NULL},                       \
    {"nout", T_INT, offsetof(T, nout), READONLY, NULL},                     \
    {"nargs", T_INT, offsetof(T, nargs), READONLY, NULL}

/* A new object of type: spec from kernel_args.<function>(type, *args,
 * **kw); fields[i] (where not NULL) set to spec's item i's UTF-8 (NULL for
 * None), d->reduce_dims to item reduce_dims_at, the options to its last
 * item; the kernel from create(d). NULL with an exception. */
empy_ck_object *empy_ck_new(PyTypeObject *type, PyObject *args, PyObject *kw,
                            const char *function, vectorcallfunc call,
                            em_ckernel_desc *d, const char **const *fields,
                            int reduce_dims_at,
                            em_status (*create)(const em_ckernel_desc *,
                                                em_ckernel **));
void empy_ck_dealloc(PyObject *self);

/* The operands of one call: ember arrays as they are, Python and NumPy
 * scalars by value, other array-likes (NumPy arrays, lists) copied to the
 * current device (kept alive in keep[]). */
typedef struct empy_ck_args {
    em_operand in[EM_CK_MAX_PARAMS];
    PyObject *keep[EM_CK_MAX_PARAMS];
    em_array out[EM_CK_MAX_PARAMS];
    PyObject *outobj[EM_CK_MAX_PARAMS]; /* given outputs (borrowed) */
} empy_ck_args;

/* A call's count of positional arguments (nin, or nin + nout) checked,
 * its keywords (names) read into kw, and kw[1], the stream= (None: the
 * current stream), resolved into *s (NULL for the current); -1 with an
 * exception. */
int empy_ck_call_args(const empy_ck_object *o, PyObject *const *args, Py_ssize_t n,
                      PyObject *kwnames, const char *const *names, PyObject **kw,
                      em_stream **s);

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

/* The UTF-8 of each str of tuple t, valid while t lives (a PyMem_Malloc'd
 * array with room for one more; NULL with an exception). program.c. */
const char **empy_options_array(PyObject *t, int *n);

#endif
