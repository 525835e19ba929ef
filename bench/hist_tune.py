"""Tuning the counting kernels' grid on the GPU: ember's histogram and
bincount in GB/s of bytes read (the figure bench/algorithms.py reports)
for each $EMBER_HIST_BLOCKS_PER_SM, plus the cases the table leaves out
(more bins, no range, skewed values). One process per setting, since the
variable is read once. Not part of the comparison table.

usage: python bench/hist_tune.py [--device cuda:0] [--log2n 28] [--bps 0,1,2,4]
                                [--peers] [--env VAR=VALUE ...]
--env runs one more process per VAR=VALUE (for example
EMBER_HIST_SHARED_KB=64, the shared memory per block).
--peers loads CuPy and PyTorch first and has CuPy measure the copy, as
bench/algorithms.py does, and times the two table cases three times in a
row, with the host time per call (queued back to back) beside them.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

import arrays as A


def one(device, log2n, peers):
    A.DEVICE = device
    em = __import__("ember")
    if peers:
        libs = A.load_libs()
        h = libs["cupy"] if not isinstance(libs["cupy"], str) else libs["ember"]
        n0 = 1 << log2n
        src, dst = h["put"](np.zeros(n0, np.float32)), h["put"](np.zeros(n0, np.float32))
        ms = A.gpu_ms(lambda: dst.__setitem__(Ellipsis, src), h["sync"], h["ev"])
        print(f"  copy bandwidth {8 * n0 / ms / 1e6:.0f} GB/s", flush=True)
        del src, dst
        h["free"]()
    dev = em.Device(device)
    dev.use()
    ev = (em.Event(), em.Event(), em.get_elapsed_time)
    rng = np.random.default_rng(0)
    n, n26 = 1 << log2n, 1 << (log2n - 2)

    def rate(name, fn, nbytes):
        ms = A.gpu_ms(fn, dev.synchronize, ev)
        print(f"  {name:48s} {nbytes / ms / 1e6:7.0f} GB/s {ms:8.3f} ms", flush=True)

    u01 = em.asarray(rng.random(n, dtype=np.float32), device=device)
    if peers:
        small = em.asarray(rng.integers(0, 4096, n26).astype(np.int32), device=device)
        for rep in range(3):
            rate(f"[{rep}] histogram 256 bins range=(0, 1)",
                 lambda: em.histogram(u01, bins=256, range=(0, 1)), 4 * n)
            rate(f"[{rep}] bincount < 4096", lambda: em.bincount(small), 4 * n26)
            # the same counting kernel without bincount's small read
            rate(f"[{rep}] histogram_even(int32 of bincount, 4096 bins)",
                 lambda: em.parallel.histogram_even(small, 4096, 0.0, 4096.0), 4 * n26)
        for name, fn in (("histogram 256", lambda: em.histogram(u01, bins=256, range=(0, 1))),
                         ("histogram_even 256",
                          lambda: em.parallel.histogram_even(u01, 256, 0.0, 1.0)),
                         ("bincount < 4096", lambda: em.bincount(small))):
            print(f"  host time per call, {name}: "
                  f"{A.host_us(fn, dev.synchronize, reps=200):.1f} us", flush=True)
        del small
    for bins in (256, 1024, 4096):
        rate(f"histogram {bins} bins range=(0, 1) float32 2^{log2n}",
             lambda: em.histogram(u01, bins=bins, range=(0, 1)), 4 * n)
    rate(f"histogram 256 bins, no range, float32 2^{log2n}",
         lambda: em.histogram(u01, bins=256), 4 * n)
    rate(f"histogram_even 256 float32 2^{log2n}",
         lambda: em.parallel.histogram_even(u01, 256, 0.0, 1.0), 4 * n)
    del u01
    for top in (4096, 256, 1):
        small = em.asarray(rng.integers(0, top, n26).astype(np.int32), device=device)
        rate(f"bincount int32 2^{log2n - 2}, values < {top}",
             lambda: em.bincount(small), 4 * n26)
    big = em.asarray(rng.integers(0, 100_000, n26).astype(np.int32), device=device)
    rate(f"bincount int32 2^{log2n - 2}, values < 100,000 (2 passes)",
         lambda: em.bincount(big), 4 * n26)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--log2n", type=int, default=28)
    ap.add_argument("--bps", default="0,1,2,4")
    ap.add_argument("--peers", action="store_true")
    ap.add_argument("--env", nargs="*", default=[])
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        one(args.device, args.log2n, args.peers)
        return
    runs = [("EMBER_HIST_BLOCKS_PER_SM", b) for b in args.bps.split(",") if b]
    runs += [tuple(e.split("=", 1)) for e in args.env]
    for var, val in runs:
        print(f"{var}={val}" + (" (default)" if val == "0" else ""), flush=True)
        env = dict(os.environ, **{var: val})
        subprocess.run([sys.executable, __file__, "--one", "--device", args.device,
                        "--log2n", str(args.log2n)] + (["--peers"] if args.peers else []),
                       env=env, check=False)


if __name__ == "__main__":
    main()
