/* ember math (internal): products on CUDA devices through cuBLAS
 * (blas_cuda.c), used by the array layer's matmul, dot, tensordot, ...
 * (src/array/linalg.c) in place of the generated kernel where cuBLAS
 * takes the operands' layout. */
#ifndef EMBER_MATH_BLAS_CUDA_H
#define EMBER_MATH_BLAS_CUDA_H

#include "codegen/matmul.h"

/* Queue the product g describes (codegen/matmul.h: byte strides, batch
 * axes, C disjoint from A and B) on the cuda stream s as one
 * cublasGemmStridedBatchedEx, and set *done. *done stays 0, with EM_OK,
 * where cuBLAS does not fit: a dtype other than float16, bfloat16,
 * float32, float64, complex64 or complex128, an operand strided along both
 * matrix axes, batch axes that are not one uniform stride, extents past
 * 32-bit ints, a vector product (M = N = 1, the generated dot kernel's),
 * or no cuBLAS (ember info says why); the caller then runs the generated
 * kernel. float16 and bfloat16 accumulate in float32, as the generated
 * kernel does; float32 and complex64 are not rounded to TF32 unless
 * EMBER_TF32=1 (CuPy's CUPY_TF32) or tf32 is 1 (this call asks). */
em_status em_cuda_gemm(em_dtype t, const void *A, const void *B, void *C,
                       const em_gen_mm_geom *g, int tf32, em_stream *s,
                       int *done);

#endif
