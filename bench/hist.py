"""Histograms, bincount and unique: ember vs CuPy vs PyTorch on the cases
of the algorithms issue, as fractions of this run's device-to-device copy
bandwidth (bytes read only for histogram and bincount, as the targets
count them).

usage: python bench/hist.py                    (on the GPU machine)
       python bench/hist.py --device cpu --log2n 20   (a check of the script)

Cases: histogram(bins=256) of 2^log2n float32 (NumPy's rule, range given so
no min/max pass), parallel.histogram_even with 256 and 4,096 bins,
bincount of 2^(log2n-2) int32 below 4,096, unique of 2^(log2n-2) int32
with 1M distinct values, median of 2^(log2n-4) float32. Each figure is the
median of 20 event-timed calls after 3 warm-up calls; a peer that does not
import shows as n/a."""
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
    nb, nu, nm = n >> 2, n >> 2, n >> 4
    import ember as em
    dev = em.Device(args.device)
    cuda = args.device.startswith("cuda")
    ev = (em.Event(), em.Event(), em.get_elapsed_time) if cuda else None
    rng = np.random.default_rng(0)
    hf = rng.standard_normal(n).astype(np.float32)
    hb = rng.integers(0, 4096, nb).astype(np.int32)
    hu = rng.integers(0, 1 << 20, nu).astype(np.int32)
    hm = hf[:nm].copy()
    xf, xb, xu, xm = (em.asarray(h, device=args.device)
                      for h in (hf, hb, hu, hm))
    ms = timed(lambda: em.copy(xf), dev.synchronize, ev)
    copy_gbs = 8 * n / ms / 1e6
    print(f"copy float32: {ms:.3f} ms, {copy_gbs:.0f} GB/s (read + write)")
    cases = [
        ("histogram 256 bins f32", 4 * n,
         lambda m, f, b, u, x: m.histogram(f, bins=256, range=(-4, 4))),
        ("bincount int32 (4096)", 4 * nb,
         lambda m, f, b, u, x: m.bincount(b)),
        ("unique int32 (1M distinct)", 4 * nu,
         lambda m, f, b, u, x: m.unique(u)),
        ("median f32", 4 * nm, lambda m, f, b, u, x: m.median(x)),
    ]
    rows = []
    for name, nbytes, fn in cases:
        ms = timed(lambda: fn(em, xf, xb, xu, xm), dev.synchronize, ev)
        rows.append((name, "ember", ms, nbytes / ms / 1e6))
    for bins in (256, 4096):
        ms = timed(lambda: em.parallel.histogram_even(xf, bins, -4.0, 4.0),
                   dev.synchronize, ev)
        rows.append((f"histogram_even {bins} bins f32", "ember", ms,
                     4 * n / ms / 1e6))
    if cuda:
        try:
            import cupy as cp
            cf, cb, cu, cm = (cp.asarray(h) for h in (hf, hb, hu, hm))
            cev = (cp.cuda.Event(), cp.cuda.Event(), cp.cuda.get_elapsed_time)
            sync = cp.cuda.Device().synchronize
            for name, nbytes, fn in cases:
                ms = timed(lambda: fn(cp, cf, cb, cu, cm), sync, cev)
                rows.append((name, "cupy", ms, nbytes / ms / 1e6))
        except Exception as e:  # noqa: BLE001 - a missing peer is n/a
            print("cupy: n/a", e)
        try:
            import torch
            tf = torch.as_tensor(hf, device="cuda")
            tb = torch.as_tensor(hb, device="cuda")
            tu = torch.as_tensor(hu, device="cuda")
            tev = (torch.cuda.Event(enable_timing=True),
                   torch.cuda.Event(enable_timing=True),
                   lambda a, b: a.elapsed_time(b))
            s = torch.cuda.synchronize
            ms = timed(lambda: torch.histc(tf, 256, -4, 4), s, tev)
            rows.append(("histogram 256 bins f32", "torch", ms, 4 * n / ms / 1e6))
            ms = timed(lambda: torch.bincount(tb), s, tev)
            rows.append(("bincount int32 (4096)", "torch", ms, 4 * nb / ms / 1e6))
            ms = timed(lambda: torch.unique(tu), s, tev)
            rows.append(("unique int32 (1M distinct)", "torch", ms,
                         4 * nu / ms / 1e6))
        except Exception as e:  # noqa: BLE001
            print("torch: n/a", e)
    print(f"| case (n = 2^{args.log2n}) | lib | ms | GB/s read | % of copy |")
    print("|---|---|---|---|---|")
    for name, lib, ms, gbs in rows:
        print(f"| {name} | {lib} | {ms:.3f} | {gbs:.0f} | "
              f"{100 * gbs / copy_gbs:.0f}% |")


if __name__ == "__main__":
    main()
