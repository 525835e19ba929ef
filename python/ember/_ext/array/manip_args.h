/* ember Python extension: the result helper shared by the array entry
 * points (keywords: empy_parse_args). */
#ifndef EMPY_MANIP_ARGS_H
#define EMPY_MANIP_ARGS_H

#include <string.h>
#include "array/ndarray.h"
#include "runtime/errors.h"
#include "runtime/args.h"

/* The result of a C call that made *a: the new ndarray, or the exception. */
static inline PyObject *manip_result(empy_state *st, em_status rc, em_array *a)
{
    if (rc != EM_OK)
        return empy_raise(st, rc);
    return empy_ndarray_new(st, a, NULL);
}

#endif
