/* ember Python extension: Python device functions (cuda.jit(device=True))
 * as ember.parallel operators, predicates and transforms.
 *
 * A device function is translated once per (function, argument dtypes) by
 * ember.jit.translate_device into a __device__ C function; the operator is
 * then the expression "name(a, b)" with that source as its definitions
 * (ember/parallel.h, EM_PAR_PRELUDE_SEP), so the kernels are generated,
 * keyed and cached as for a C expression. The joined string is kept in a
 * dict on the Python function (its __dict__), so a repeated call runs no
 * translator and builds no string. */
#ifndef EMPY_PARALLEL_DEVFN_H
#define EMPY_PARALLEL_DEVFN_H

#include "array/ndarray.h"

/* Whether o is a device function (jit(device=True)). */
int empy_par_is_devfn(empy_state *st, PyObject *o);

/* The expression of device function f applied to nargs (1 to 8) arguments
 * named a, b, c, ... of dtype dt. *res receives the function's result
 * dtype; want >= 0 requires it to cast to dtype `want` under NumPy's
 * same_kind rule (TypeError naming fn, the function and both types
 * otherwise). *expr points into *keep, a new reference the caller releases
 * after the call. -1 with an exception. */
int empy_par_devfn_expr(empy_state *st, PyObject *f, const char *fn,
                        em_dtype dt, int nargs, int want, const char **expr,
                        em_dtype *res, PyObject **keep);

/* Tuple values of n components (dtypes dts): f takes (a0, ..., a{n-1},
 * b0, ..., b{n-1}) and returns an n-tuple whose components cast to dts
 * (same_kind). exprs[k] is component k's expression (exprs[0] with the
 * definitions), held by *keep (a new reference). -1 with an exception. */
int empy_par_devfn_tuple(empy_state *st, PyObject *f, const char *fn, int n,
                         const em_dtype *dts, const char **exprs,
                         PyObject **keep);

#endif
