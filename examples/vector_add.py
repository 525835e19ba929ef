"""Vector addition: the first kernel of every CUDA tutorial."""
import numpy as np

import ember
from ember import cuda
from _common import SMALL, devices, report, timed


@cuda.jit
def add(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


def main():
    n = 1 << (16 if SMALL else 22)
    rng = np.random.default_rng(0)
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    print(f"vector add, {n} float32")
    for dev in devices():
        with ember.Device(dev):
            da, db = cuda.to_device(a), cuda.to_device(b)
            dout = cuda.device_array_like(da)
            threads = 256
            blocks = (n + threads - 1) // threads

            def run():
                add[blocks, threads](da, db, dout)
                cuda.synchronize()

            ms = timed(run)
            ok = np.array_equal(dout.copy_to_host(), a + b)
            report("add[blocks, 256](a, b, out)", dev, ms, ok,
                   f"{3 * 4 * n / ms / 1e6:.1f} GB/s")


if __name__ == "__main__":
    main()
