"""Block reduction: shared memory down to a warp, then warp shuffles.

Each block sums its part of the input: a grid-stride loop per thread, a
tree in shared memory down to 32 partial sums, then shfl_down_sync inside
the first warp; one atomic add per block combines the blocks."""
import numpy as np

import ember
from ember import cuda
from _common import SMALL, devices, report, timed

TPB = 256
FULL = 0xFFFFFFFF


@cuda.jit
def block_sum(x, out):
    s = cuda.shared.array(TPB, dtype=np.float32)
    t = cuda.threadIdx.x
    acc = np.float32(0)
    i = cuda.grid(1)
    while i < x.size:
        acc += x[i]
        i += cuda.gridsize(1)
    s[t] = acc
    cuda.syncthreads()
    half = TPB // 2
    while half >= 32:
        if t < half:
            s[t] += s[t + half]
        cuda.syncthreads()
        half //= 2
    if t < 32:
        v = s[t]
        off = 16
        while off > 0:
            v += cuda.shfl_down_sync(FULL, v, off)
            off //= 2
        if cuda.laneid == 0:
            cuda.atomic.add(out, 0, v)


def main():
    n = 1 << (16 if SMALL else 24)
    x = np.random.default_rng(6).random(n, dtype=np.float32)
    want = x.astype(np.float64).sum()
    print(f"block reduction of {n} float32 (shared memory + warp shuffles)")
    for dev in devices():
        with ember.Device(dev):
            d_x = cuda.to_device(x)
            d_out = cuda.device_array(1, dtype=np.float32)
            blocks = 4 * 132 if dev != "cpu" else 16

            def run():
                d_out.fill(0)
                block_sum[blocks, TPB](d_x, d_out)
                cuda.synchronize()

            ms = timed(run)
            got = float(d_out.copy_to_host()[0])
            ok = abs(got - want) <= 1e-5 * want
            report("block_sum", dev, ms, ok, f"{4 * n / ms / 1e6:.1f} GB/s")


if __name__ == "__main__":
    main()
