/* ember: the element types every layer shares.
 *
 * The enum order is fixed (it is part of cache keys and the Python module's
 * tables); new types go at the end.
 */
#ifndef EMBER_DTYPE_H
#define EMBER_DTYPE_H

#include <stddef.h>
#include "ember/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum em_dtype {
    EM_BOOL = 0,
    EM_INT8, EM_INT16, EM_INT32, EM_INT64,
    EM_UINT8, EM_UINT16, EM_UINT32, EM_UINT64,
    EM_FLOAT16, EM_BFLOAT16, EM_FLOAT32, EM_FLOAT64,
    EM_COMPLEX64, EM_COMPLEX128,
    EM_DTYPE_COUNT
} em_dtype;

typedef enum em_dtype_kind {
    EM_KIND_BOOL,     /* 'b' */
    EM_KIND_INT,      /* 'i' */
    EM_KIND_UINT,     /* 'u' */
    EM_KIND_FLOAT,    /* 'f' (bfloat16 too, though NumPy has no such type) */
    EM_KIND_COMPLEX   /* 'c' */
} em_dtype_kind;

typedef struct em_dtype_info {
    em_dtype id;
    const char *name;      /* NumPy's name: "float32"; "bfloat16" */
    const char *c_type;    /* the kernel-side C type: "float", "__half" */
    char typechar;         /* NumPy's type character: 'f'; bfloat16 has 'E' */
    char kind;             /* NumPy's kind character: 'b' 'i' 'u' 'f' 'c' */
    em_dtype_kind kind_id;
    unsigned char size;    /* bytes */
    unsigned char align;   /* bytes */
    signed char blas;      /* BLAS/LAPACK precision: 0..3 for s d c z; -1 none */
    signed char cuda_type; /* CUDA's cudaDataType (cuBLAS, cuSOLVER); -1 none */
} em_dtype_info;

/* The table row of a dtype, or NULL if d is out of range. */
const em_dtype_info *em_dtype_get(em_dtype d);

/* Find a dtype by NumPy name ("float32"), short code ("f4", "<f4", "i8",
 * "?", "b1") or type character ("f", "d", "e"); EM_ERR_TYPE if unknown. */
em_status em_dtype_from_name(const char *name, em_dtype *out);

/* Item size in bytes (0 for an invalid dtype). */
size_t em_dtype_size(em_dtype d);

#ifdef __cplusplus
}
#endif
#endif
