/* PyCUDA's ElementwiseKernel: the user's operation for each i of
 * range(start__, stop__, step__), grid-stride, with n the size of the first
 * array argument, as PyCUDA names it. ember.pycuda.elementwise fills the
 * @...@ fields from the kernel's arguments, operation and name. */
@PREAMBLE@

extern "C" __global__ void @NAME@(@ARGUMENTS@, long long n,
                                  long long start__, long long stop__,
                                  long long step__)
{
    const long long tid__ = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long total__ = (long long)blockDim.x * gridDim.x;
    @LOOP_PREP@;
    for (long long i = start__ + tid__ * step__;
         step__ > 0 ? i < stop__ : i > stop__; i += total__ * step__) {
        @OPERATION@;
    }
    @AFTER_LOOP@;
}
