"""Two kernels overlapped on two streams, timed with events.

Each stream copies its half of the data in, runs a compute-heavy kernel
and copies the result out; events on each stream time the halves and the
whole. On the GPU the two streams run concurrently; on the CPU each
non-default stream is served by its own worker thread."""
import math

import numpy as np

import ember
from ember import cuda
from _common import SMALL, devices, report

TPB = 256


@cuda.jit
def work(x, out, iters):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        for _ in range(iters):
            v = math.sin(v) * np.float32(0.5) + np.float32(0.25)
        out[i] = v


def reference(x, iters):
    v = x.copy()
    for _ in range(iters):
        v = np.sin(v) * np.float32(0.5) + np.float32(0.25)
    return v


def main():
    n = 1 << (14 if SMALL else 22)
    iters = 16 if SMALL else 64
    x = np.random.default_rng(7).random(n, dtype=np.float32)
    want = reference(x, iters)
    print(f"two streams, {n} float32 in two halves, {iters} iterations each")
    for dev in devices():
        with ember.Device(dev):
            streams = [cuda.stream(), cuda.stream()]
            halves = np.split(x, 2)
            d_in = [cuda.to_device(h) for h in halves]
            d_out = [cuda.device_array_like(d) for d in d_in]
            blocks = (n // 2 + TPB - 1) // TPB
            work[blocks, TPB, streams[0]](d_in[0], d_out[0], iters)   # compile
            cuda.synchronize()
            start = cuda.event()
            start.record(streams[0])
            ev = []
            for s, di, do in zip(streams, d_in, d_out):
                b = cuda.event()
                b.record(s)
                work[blocks, TPB, s](di, do, iters)
                e = cuda.event()
                e.record(s)
                ev.append((b, e))
            end = cuda.event()
            for _, e in ev:
                e.synchronize()
            end.record(streams[0])
            end.synchronize()
            got = np.concatenate([d.copy_to_host() for d in d_out])
            ok = np.allclose(got, want, rtol=1e-5, atol=1e-6)
            each = [cuda.event_elapsed_time(b, e) for b, e in ev]
            total = cuda.event_elapsed_time(start, end)
            report("stream 0 / stream 1 / overall", dev, total, ok,
                   f"halves {each[0]:.3f} + {each[1]:.3f} ms")


if __name__ == "__main__":
    main()
