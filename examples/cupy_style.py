"""A CuPy program after one import change (`import cupy as cp` ->
`import ember as cp`, `cupyx.profiler` -> `ember.profiler`): a RawKernel
SAXPY on its own stream, timed with the profiler's benchmark, checked with
cupy.testing's assertion, with the memory pool's figures. It runs on the
GPU, and on the cpu device, where Device(0) is the cpu when no GPU exists."""
import numpy as np

import ember as cp
from ember import testing
from ember.profiler import benchmark
from _common import SMALL, devices

saxpy = cp.RawKernel(r"""
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
""", "saxpy")


def program():
    """The CuPy program itself, unchanged from what it was."""
    n = 1 << (14 if SMALL else 20)
    props = cp.cuda.runtime.getDeviceProperties(0)
    print("  device 0:", props["name"].decode(), "with",
          props["multiProcessorCount"], "multiprocessors")
    mempool = cp.get_default_memory_pool()
    x = cp.arange(n, dtype=cp.float32)
    y = cp.ones(n, dtype=cp.float32)
    # a blocking stream: it waits for x and y, made on the default stream
    stream = cp.cuda.stream.Stream()
    with stream:
        saxpy(((n + 255) // 256,), (256,), (cp.float32(2.0), x, y, cp.int32(n)))
    stream.synchronize()
    testing.assert_allclose(y, 2 * np.arange(n, dtype=np.float32) + 1)
    print("  saxpy ok; pool holds", mempool.used_bytes(), "bytes in use,",
          mempool.total_bytes(), "in all")
    print(" ", benchmark(lambda: (x * y).sum(), n_repeat=20, name="dot"))


def main():
    for dev in devices():
        print(f"CuPy-style program on {dev}")
        with cp.Device(dev):
            program()


if __name__ == "__main__":
    main()
