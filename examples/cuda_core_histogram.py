"""A 256-bin histogram in the cuda.core lesson's style: per-block counts in
shared memory, added to the global bins with atomics, launched with
cuda.core's spellings from ember.cuda.core; the memory is a cuda.core
Buffer. It runs on the GPU, and on the cpu device."""
import numpy as np

import ember
from ember.cuda.core import (Device, EventOptions, LaunchConfig, Program,
                             launch)
from _common import SMALL, devices, report

code = """
extern "C" __global__
void histogram(const unsigned char *data, unsigned int *bins, size_t n)
{
    __shared__ unsigned int local[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        local[i] = 0;
    __syncthreads();
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        atomicAdd(&bins[i], local[i]);
}
"""


def program(dev, data):
    dev.set_current()
    s = dev.create_stream()
    ker = Program(code, code_type="c++").compile("cubin").get_kernel(
        "histogram")
    d_data = ember.asarray(data)
    bins = dev.allocate(256 * 4, stream=s)        # a cuda.core Buffer
    ember.from_dlpack(bins)[...] = 0               # its bytes, through DLPack
    dev.sync()           # that and d_data ran on the default stream; s waits
    props = dev.properties
    config = LaunchConfig(grid=2 * props.multiprocessor_count, block=256)
    timing = EventOptions(enable_timing=True)
    start = s.record(options=timing)
    launch(s, config, ker, d_data, bins, np.uint64(data.size))
    end = s.record(options=timing)
    s.sync()
    counts = ember.asnumpy(ember.from_dlpack(bins)).view(np.uint32)
    bins.close()
    return end - start, counts


def main():
    n = 1 << (18 if SMALL else 24)
    data = np.random.default_rng(1).integers(0, 256, n, dtype=np.uint8)
    expect = np.bincount(data, minlength=256).astype(np.uint32)
    print(f"cuda.core histogram, {n} bytes into 256 bins")
    for spec in devices():
        ms, counts = program(Device(ember.Device(spec)), data)
        report("launch(s, config, histogram)", spec, ms,
               np.array_equal(counts, expect), f"{n / ms / 1e6:.2f} GB/s")


if __name__ == "__main__":
    main()
