"""Scans: ember vs CuPy vs PyTorch on the scan cases of the algorithms
issue, as fractions of this run's device-to-device copy bandwidth (bytes
read plus written).

usage: python bench/scan.py                    (on the GPU machine)
       python bench/scan.py --device cpu --log2n 20   (a check of the script)

Cases: cumsum of float32 (8 bytes per element), cumsum of int32 to int64
(12 bytes per element), the same float32 scan with a user operator
("a + b", which must be within 10% of the built-in add), and select of
float32 with a bool mask (bytes of input, mask and output). Each figure is
the median of 20 event-timed calls after 3 warm-up calls; a peer that does
not import shows as n/a."""
import argparse
import statistics
import time

import numpy as np


def timed(fn, sync, ev, reps=20):
    for _ in range(3):
        fn()
    sync()
    ts = []
    for _ in range(reps):
        if ev is None:
            t = time.perf_counter()
            fn()
            sync()
            ts.append((time.perf_counter() - t) * 1e3)
            continue
        start, end, elapsed = ev
        start.record()
        fn()
        end.record()
        end.synchronize()
        ts.append(elapsed(start, end))
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--log2n", type=int, default=28)
    args = ap.parse_args()
    n = 1 << args.log2n
    import ember as em
    dev = em.Device(args.device)
    cuda = args.device.startswith("cuda")
    ev = (em.Event(), em.Event(), em.get_elapsed_time) if cuda else None
    rng = np.random.default_rng(0)
    hf = rng.standard_normal(n).astype(np.float32)
    hi = rng.integers(0, 100, n).astype(np.int32)
    hm = rng.integers(0, 2, n).astype(bool)
    xf, xi, xm = (em.asarray(h, device=args.device) for h in (hf, hi, hm))
    ms = timed(lambda: em.copy(xf), dev.synchronize, ev)
    copy_gbs = 8 * n / ms / 1e6
    print(f"copy float32: {ms:.3f} ms, {copy_gbs:.0f} GB/s (read + write)")
    cases = [
        ("cumsum float32", 8, lambda m, x, i, k: m.cumsum(x)),
        ("cumsum int32->int64", 12, lambda m, x, i, k: m.cumsum(i)),
    ]
    rows = []
    for name, per, fn in cases:
        ms = timed(lambda: fn(em, xf, xi, xm), dev.synchronize, ev)
        rows.append((name, "ember", ms, per * n / ms / 1e6))
    ms_add = timed(lambda: em.parallel.inclusive_scan(xf, "add"),
                   dev.synchronize, ev)
    ms_usr = timed(lambda: em.parallel.inclusive_scan(xf, "a + b"),
                   dev.synchronize, ev)
    rows.append(("scan 'add' float32", "ember", ms_add, 8 * n / ms_add / 1e6))
    rows.append(("scan 'a + b' float32", "ember", ms_usr, 8 * n / ms_usr / 1e6))
    ms = timed(lambda: em.parallel.select(xf, xm), dev.synchronize, ev)
    rows.append(("select float32 (mask)", "ember", ms,
                 (5 * n + 4 * int(hm.sum())) / ms / 1e6))
    if cuda:
        try:
            import cupy as cp
            cf, ci, cm = (cp.asarray(h) for h in (hf, hi, hm))
            cev = (cp.cuda.Event(), cp.cuda.Event(), cp.cuda.get_elapsed_time)
            sync = cp.cuda.Device().synchronize
            for name, per, fn in cases:
                ms = timed(lambda: fn(cp, cf, ci, cm), sync, cev)
                rows.append((name, "cupy", ms, per * n / ms / 1e6))
            ms = timed(lambda: cf[cm], sync, cev)
            rows.append(("select float32 (mask)", "cupy", ms,
                         (5 * n + 4 * int(hm.sum())) / ms / 1e6))
        except Exception as e:  # noqa: BLE001 - a missing peer is n/a
            print("cupy: n/a", e)
        try:
            import torch
            tf = torch.as_tensor(hf, device="cuda")
            ti = torch.as_tensor(hi, device="cuda")
            tev = (torch.cuda.Event(enable_timing=True),
                   torch.cuda.Event(enable_timing=True),
                   lambda a, b: a.elapsed_time(b))
            ms = timed(lambda: torch.cumsum(tf, 0), torch.cuda.synchronize, tev)
            rows.append(("cumsum float32", "torch", ms, 8 * n / ms / 1e6))
            ms = timed(lambda: torch.cumsum(ti, 0), torch.cuda.synchronize, tev)
            rows.append(("cumsum int32->int64", "torch", ms, 12 * n / ms / 1e6))
        except Exception as e:  # noqa: BLE001
            print("torch: n/a", e)
    print(f"| case (n = 2^{args.log2n}) | lib | ms | GB/s | % of copy |")
    print("|---|---|---|---|---|")
    for name, lib, ms, gbs in rows:
        print(f"| {name} | {lib} | {ms:.3f} | {gbs:.0f} | "
              f"{100 * gbs / copy_gbs:.0f}% |")
    print(f"user operator / built-in add: {ms_usr / ms_add:.2f}x time")


if __name__ == "__main__":
    main()
