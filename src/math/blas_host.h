/* ember math (internal): the cpu device's products through OpenBLAS's
 * ?gemm (blas_host.c), used by the array layer's matmul, dot, tensordot,
 * ... (src/array/linalg.c) in place of the generated kernel where gemm
 * can take the operands' layout. */
#ifndef EMBER_MATH_BLAS_HOST_H
#define EMBER_MATH_BLAS_HOST_H

#include "codegen/matmul.h"

/* Compute the product g describes (codegen/matmul.h: byte strides, batch
 * axes, C disjoint from A and B) with one ?gemm a batch entry, on the
 * calling thread after the stream s (the host device's) has drained, and
 * set *done. *done stays 0, with EM_OK, where gemm does not fit: a dtype
 * other than float32, float64, complex64 or complex128, an operand
 * strided along both matrix axes, or negative or misaligned strides, a
 * product under 8x8x8 multiply-adds, or no OpenBLAS (the scipy-openblas64 wheel);
 * the caller then runs the generated kernel. */
em_status em_host_gemm(em_dtype t, const void *A, const void *B, void *C,
                       const em_gen_mm_geom *g, em_stream *s, int *done);

#endif
