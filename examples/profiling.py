"""Where the time goes: ember.profile() around a small pipeline.

A batch of rows is copied to the device, standardised column by column,
passed through a Python kernel and summed per row, on two streams; the
profile's summary says which operations took the device time and its
trace (ember-profile-<device>.json in the temporary folder; the path is
printed) shows them on a timeline: open it in https://ui.perfetto.dev or
chrome://tracing."""
import os
import tempfile

import numpy as np

import ember
from ember import cuda
from _common import SMALL, devices


@cuda.jit
def clip(x, lo, hi):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = min(max(x[i], lo), hi)


def pipeline(host, s):
    with s, ember.profiler.range("standardise"):
        x = ember.empty(host.shape, dtype=host.dtype)
        x[...] = host                                   # H2D
        z = (x - x.mean(axis=0)) / x.std(axis=0)
        flat = z.reshape(-1)
        clip[(flat.size + 255) // 256, 256](flat, np.float32(-3), np.float32(3))
        return ember.asnumpy(z.sum(axis=1))             # D2H


def main():
    rows = 1 << (10 if SMALL else 14)
    host = np.random.default_rng(3).standard_normal((rows, 256)).astype(np.float32)
    halves = np.array_split(host, 2)      # each half standardised on its own
    want = np.concatenate([np.clip((h - h.mean(0)) / h.std(0), -3, 3).sum(1)
                           for h in halves])
    for dev in devices():
        with ember.Device(dev):
            streams = [ember.Stream(non_blocking=True) for _ in range(2)]
            pipeline(halves[0], streams[0])             # compiles the kernels
            with ember.profile() as p:
                got = np.concatenate([pipeline(h, s) for h, s in zip(halves, streams)])
            ok = np.allclose(got, want, rtol=1e-4, atol=1e-3)
            print(f"{dev}: {'ok' if ok else 'WRONG'}")
            p.summary()
            path = os.path.join(tempfile.gettempdir(),
                                f"ember-profile-{dev.replace(':', '')}.json")
            p.export(path)
            print(f"trace: {path}")
            if not ok:
                raise SystemExit(f"profiling example on {dev}: result differs from NumPy")


if __name__ == "__main__":
    main()
