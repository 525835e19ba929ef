/* ember.scipy.sparse: spmv.cuh's products for complex64 and complex128
 * values on the host (cuSPARSE has them on a GPU), with T complex<float> or
 * complex<double>: ember's complex<T> (the text RawModule puts where the
 * <cupy/complex.cuh> line is) has the layout of the arrays' elements and
 * the + and * the template needs, so one template serves every value type.
 * Kept out of spmv.cuh so that the GPU's integer instances compile without
 * the header. */
#include <cupy/complex.cuh>
#include "spmv.cuh"
