"""PyCUDA's tutorial after one import change (`import pycuda...` ->
`import ember.pycuda...`): memory by hand, a SourceModule kernel called with
block= and grid=, driver.In/Out, and gpuarray. It runs on the GPU, and on
the cpu device."""
import numpy as np

import ember
from _common import devices


def program():
    """The PyCUDA program itself, unchanged from what it was."""
    import ember.pycuda.autoinit  # noqa: F401
    import ember.pycuda.driver as cuda
    import ember.pycuda.gpuarray as gpuarray
    from ember.pycuda.compiler import SourceModule

    a = np.random.randn(4, 4).astype(np.float32)
    a_gpu = cuda.mem_alloc(a.nbytes)
    cuda.memcpy_htod(a_gpu, a)

    mod = SourceModule("""
    __global__ void doublify(float *a)
    {
        int idx = threadIdx.x + threadIdx.y * 4;
        a[idx] *= 2;
    }
    __global__ void multiply_them(float *dest, float *a, float *b)
    {
        const int i = threadIdx.x;
        dest[i] = a[i] * b[i];
    }
    """)
    func = mod.get_function("doublify")
    func(a_gpu, block=(4, 4, 1))
    a_doubled = np.empty_like(a)
    cuda.memcpy_dtoh(a_doubled, a_gpu)
    assert np.array_equal(a_doubled, 2 * a), "doublify differs from NumPy"

    multiply_them = mod.get_function("multiply_them")
    x = np.random.randn(400).astype(np.float32)
    y = np.random.randn(400).astype(np.float32)
    dest = np.zeros_like(x)
    multiply_them(cuda.Out(dest), cuda.In(x), cuda.In(y), block=(400, 1, 1),
                  grid=(1, 1))
    assert np.array_equal(dest, x * y), "multiply_them differs from NumPy"

    g = gpuarray.to_gpu(np.random.randn(4, 4).astype(np.float32))
    assert np.allclose((2 * g).get(), 2 * g.get())
    print("  doublify, multiply_them and gpuarray ok on",
          cuda.Context.get_device().name())


def main():
    for dev in devices():
        print(f"PyCUDA-style program on {dev}")
        with ember.Device(dev):
            program()


if __name__ == "__main__":
    main()
