"""Histogram with atomics: first straight to global memory, then privatized
per block in shared memory (one global atomic per bin per block)."""
import numpy as np

import ember
from ember import cuda
from _common import SMALL, devices, report, timed

NBINS = 256
TPB = 256


@cuda.jit
def hist_global(x, lo, width, counts):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < x.size:
        b = int((x[i] - lo) / width)
        if b >= 0 and b < NBINS:
            cuda.atomic.add(counts, b, 1)
        i += stride


@cuda.jit
def hist_shared(x, lo, width, counts):
    local = cuda.shared.array(NBINS, dtype=np.int32)
    t = cuda.threadIdx.x
    for k in range(t, NBINS, cuda.blockDim.x):
        local[k] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < x.size:
        b = int((x[i] - lo) / width)
        if b >= 0 and b < NBINS:
            cuda.atomic.add(local, b, 1)
        i += stride
    cuda.syncthreads()
    for k in range(t, NBINS, cuda.blockDim.x):
        cuda.atomic.add(counts, k, local[k])


def main():
    n = 1 << (16 if SMALL else 24)
    x = np.random.default_rng(5).normal(0.0, 1.0, n).astype(np.float32)
    lo, hi = np.float32(-4.0), np.float32(4.0)
    width = np.float32((hi - lo) / NBINS)
    b = ((x - lo) / width).astype(np.int64)   # the kernels' float32 arithmetic
    want = np.bincount(b[(b >= 0) & (b < NBINS)], minlength=NBINS)
    print(f"histogram of {n} float32 into {NBINS} bins")
    for dev in devices():
        with ember.Device(dev):
            d_x = cuda.to_device(x)
            d_counts = cuda.device_array(NBINS, dtype=np.int32)
            blocks = 4 * 132 if dev != "cpu" else 16
            for name, k in (("global atomics", hist_global),
                            ("shared-memory privatized", hist_shared)):
                def run():
                    d_counts.fill(0)
                    k[blocks, TPB](d_x, lo, width, d_counts)
                    cuda.synchronize()

                ms = timed(run)
                ok = np.array_equal(d_counts.copy_to_host(), want)
                report(name, dev, ms, ok, f"{4 * n / ms / 1e6:.1f} GB/s")


if __name__ == "__main__":
    main()
