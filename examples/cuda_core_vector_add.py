"""The cuda.core lesson's vector add after one import change
(`from cuda.core.experimental import ...` -> `from ember.cuda.core import
...`): a C++ template kernel compiled with Program and a name expression,
launched on a stream with LaunchConfig, timed with events. It runs on the
GPU, and on the cpu device (Device(0) there without a GPU)."""
import numpy as np

import ember
from ember.cuda.core import (Device, EventOptions, LaunchConfig, Program,
                             ProgramOptions, launch)
from _common import SMALL, devices, report

code = """
template<typename T>
__global__ void vector_add(const T* A, const T* B, T* C, size_t N) {
    const unsigned int tid = threadIdx.x + blockIdx.x * blockDim.x;
    for (size_t i = tid; i < N; i += gridDim.x * blockDim.x) {
        C[i] = A[i] + B[i];
    }
}
"""


def program(dev):
    """The lesson's program, as written for cuda.core."""
    dev.set_current()
    s = dev.create_stream()
    arch = "".join(f"{i}" for i in dev.compute_capability)
    program_options = ProgramOptions(std="c++17", arch=f"sm_{arch}")
    prog = Program(code, code_type="c++", options=program_options)
    mod = prog.compile("cubin", name_expressions=("vector_add<float>",))
    ker = mod.get_kernel("vector_add<float>")

    size = 1 << (16 if SMALL else 22)
    rng = np.random.default_rng(0)
    a = ember.asarray(rng.random(size, dtype=np.float32))
    b = ember.asarray(rng.random(size, dtype=np.float32))
    c = ember.empty_like(a)
    dev.sync()

    block = 256
    grid = (size + block - 1) // block
    config = LaunchConfig(grid=grid, block=block)
    timing = EventOptions(enable_timing=True)
    start = s.record(options=timing)
    launch(s, config, ker, a.data.ptr, b.data.ptr, c.data.ptr, np.uint64(size))
    end = s.record(options=timing)
    s.sync()
    ok = np.array_equal(ember.asnumpy(c), ember.asnumpy(a) + ember.asnumpy(b))
    return end - start, ok, size


def main():
    print("cuda.core vector add")
    for spec in devices():
        ms, ok, size = program(Device(ember.Device(spec)))
        report("launch(s, config, vector_add<float>)", spec, ms, ok,
               f"{3 * 4 * size / ms / 1e6:.1f} GB/s")


if __name__ == "__main__":
    main()
