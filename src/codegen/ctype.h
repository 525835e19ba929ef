/* ember codegen: the plain C spellings generated kernels give dtypes
 * whose elements they read as C scalars (indices, histogram input,
 * C-string kernels' parameters, raw element words). */
#ifndef EMBER_CODEGEN_CTYPE_H
#define EMBER_CODEGEN_CTYPE_H

#include <stddef.h>

#include "ember/dtype.h"

/* The C type of an integer, float32 or float64 dtype ("signed char",
 * "unsigned long long", "float", "double"); NULL for bool, 16-bit floats
 * and complex numbers, whose spelling depends on the kernel. */
const char *em_gen_ctype(em_dtype d);

/* The unsigned integer type of 1, 2, 4 or 8 bytes ("unsigned char" ...
 * "unsigned long long"), which moves an element as raw bits; NULL for
 * other sizes. */
const char *em_gen_word_type(size_t bytes);

#endif
