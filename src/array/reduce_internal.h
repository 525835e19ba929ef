/* ember internal: what src/array/reduce.c and reduce_resolve.c share. */
#ifndef EMBER_ARRAY_REDUCE_INTERNAL_H
#define EMBER_ARRAY_REDUCE_INTERNAL_H

#include "ember/reduce.h"

/* The result dtype and the compute type (EM_INT64, EM_UINT64, EM_FLOAT32,
 * EM_FLOAT64, EM_COMPLEX64 or EM_COMPLEX128) of op over input dtype in. */
em_status em_red_resolve(em_reduce_op op, em_dtype in,
                         const em_reduce_args *args, em_dtype *out,
                         em_dtype *compute);

#endif
