/* ember Python extension: argument helpers shared by the array entry
 * points (axes, ints, results; keywords: empy_parse_args). */
#ifndef EMPY_MANIP_ARGS_H
#define EMPY_MANIP_ARGS_H

#include <string.h>
#include "array/ndarray.h"
#include "runtime/errors.h"
#include "runtime/args.h"

/* An int argument (not bool); dflt when absent or None. */
static inline int manip_int(PyObject *o, const char *what, int64_t dflt, int64_t *out)
{
    if (!o || o == Py_None) {
        *out = dflt;
        return 0;
    }
    return empy_index_arg(o, what, 0, out);
}

/* Normalise axis against ndim, raising ember.AxisError as NumPy does. */
static inline int manip_axis(empy_state *st, int64_t axis, int ndim, int *out)
{
    if (axis < -ndim || axis >= ndim) {
        PyErr_Format(empy_np_exc(st, EMPY_EXC_AXIS), "axis %lld is out of bounds for array of "
                     "dimension %d", (long long)axis, ndim);
        return -1;
    }
    *out = (int)(axis < 0 ? axis + ndim : axis);
    return 0;
}

/* The result of a C call that made *a: the new ndarray, or the exception. */
static inline PyObject *manip_result(empy_state *st, em_status rc, em_array *a)
{
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, a, NULL);
}

#endif
