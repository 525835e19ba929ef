"""What every example shares: the devices to run on and a timer.

Each example runs its kernels on the CPU (the simulator) and, when a GPU
works, on the GPU, checks the result against NumPy and prints both times."""
import os
import sys
import time

import ember
from ember import cuda

# `make demo` passes --small so the tour stays short on the CPU.
SMALL = "--small" in sys.argv


def devices():
    """'cpu' always; 'cuda:0' too when a GPU works (EMBER_DEVICE=cpu: cpu only)."""
    out = ["cpu"]
    if os.environ.get("EMBER_DEVICE", "") != "cpu" and cuda.is_available():
        out.append("cuda:0")
    return out


def timed(fn, repeat=3):
    """Best wall time of fn() in ms, after one warm-up call (which compiles);
    fn must leave the device idle (it synchronises)."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def report(name, dev, ms, ok, extra=""):
    print(f"  {name:<34} {dev:<7} {ms:9.3f} ms  {'ok' if ok else 'WRONG'}"
          f"{'  ' + extra if extra else ''}")
    if not ok:
        sys.exit(f"{name} on {dev}: result differs from NumPy")
