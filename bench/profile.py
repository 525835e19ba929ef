"""One issue-4 case, called once on the GPU, for a profiler to watch.

usage: ncu -c 8 python bench/profile.py CASE [log2n]
CASE: sort (uint32), sortf (float32), sortn (standard normal float32,
as in bench/algorithms.py), sortd (float64), sortd32 (float32
values as float64, as in bench/algorithms.py), argsort (float32),
argsortn (standard normal float32, as in bench/algorithms.py), pairs
(float32 in [0, 1) + int64), pairsn (standard normal float32 + int64, as
in bench/algorithms.py), pairsd (float64 + int64), cumsum
(float32), cumsum64 (int32 to int64), hist256 and hist4096 (float32 in [0, 1)),
even256 and even4096 (the same through parallel.histogram_even), edges4096
(histogram_bin_edges alone), bincount (int32 below 4,096), rand and
randn (ember.random.default_rng float32 random / standard_normal into
out=, as in bench/rng.py).
The first call is the one profiled: compiling happens on the host, and
the profiler flushes the caches before each kernel anyway.

With --time the case is instead timed (median of 20 event-timed calls
after 3 warm-ups) and printed, for comparing EMBER_* knobs. With --host
also the host's time per call (queued back to back): what an event-timed
call pays before its first kernel starts. With --trace a timeline of one
call (CUPTI through torch.profiler): each kernel's duration and the gap
before it, so launch gaps show beside the kernels' own time."""
import sys

import numpy as np

import ember as em


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    case = args[0]
    log2n = int(args[1]) if len(args) > 1 else 28
    n = 1 << log2n
    rng = np.random.default_rng(0)
    dev = "cuda:0"
    put = lambda h: em.asarray(h, device=dev)  # noqa: E731
    if case == "sort":
        x = put(rng.integers(0, 1 << 32, n >> 1, dtype=np.uint32))
        fn, work = (lambda: em.sort(x)), (n >> 1, "Gkeys/s")
    elif case == "sortf":
        x = put(rng.random(n >> 1, dtype=np.float32))
        fn, work = (lambda: em.sort(x)), (n >> 1, "Gkeys/s")
    elif case == "sortn":
        x = put(rng.standard_normal(n >> 1).astype(np.float32))
        fn, work = (lambda: em.sort(x)), (n >> 1, "Gkeys/s")
    elif case == "sortd":
        x = put(rng.random(n >> 1))
        fn, work = (lambda: em.sort(x)), (n >> 1, "Gkeys/s")
    elif case == "sortd32":
        x = put(rng.random(n >> 1, dtype=np.float32).astype(np.float64))
        fn, work = (lambda: em.sort(x)), (n >> 1, "Gkeys/s")
    elif case == "pairsd":
        x = put(rng.random(n >> 1))
        v = put(np.arange(n >> 1, dtype=np.int64))
        fn, work = (lambda: em.parallel.radix_sort(x, v)), (n >> 1, "Gkeys/s")
    elif case == "argsort":
        x = put(rng.random(n >> 1, dtype=np.float32))
        fn, work = (lambda: em.argsort(x)), (n >> 1, "Gkeys/s")
    elif case == "argsortn":
        x = put(rng.standard_normal(n >> 1).astype(np.float32))
        fn, work = (lambda: em.argsort(x)), (n >> 1, "Gkeys/s")
    elif case == "pairsn":
        x = put(rng.standard_normal(n >> 1).astype(np.float32))
        v = put(np.arange(n >> 1, dtype=np.int64))
        fn, work = (lambda: em.parallel.radix_sort(x, v)), (n >> 1, "Gkeys/s")
    elif case == "pairs":
        x = put(rng.random(n >> 1, dtype=np.float32))
        v = put(np.arange(n >> 1, dtype=np.int64))
        fn, work = (lambda: em.parallel.radix_sort(x, v)), (n >> 1, "Gkeys/s")
    elif case == "cumsum":
        x = put(rng.random(n, dtype=np.float32))
        fn, work = (lambda: em.cumsum(x)), (8 * n, "GB/s")
    elif case == "cumsum64":
        x = put(rng.integers(0, 100, n).astype(np.int32))
        fn, work = (lambda: em.cumsum(x, dtype=np.int64)), (12 * n, "GB/s")
    elif case in ("hist256", "hist4096"):
        x, bins = put(rng.random(n, dtype=np.float32)), int(case[4:])
        fn, work = (lambda: em.histogram(x, bins=bins, range=(0, 1))), (4 * n, "GB/s")
    elif case in ("even256", "even4096"):
        x, bins = put(rng.random(n, dtype=np.float32)), int(case[4:])
        fn, work = (lambda: em.parallel.histogram_even(x, bins, 0.0, 1.0)), (4 * n, "GB/s")
    elif case == "edges4096":
        x = put(rng.random(1024, dtype=np.float32))
        fn, work = (lambda: em.histogram_bin_edges(x, bins=4096, range=(0, 1))), (1, "/ms")
    elif case == "bincount":
        x = put(rng.integers(0, 4096, n >> 2).astype(np.int32))
        fn, work = (lambda: em.bincount(x)), (n, "GB/s")
    elif case in ("rand", "randn"):
        import ember.random
        out = em.empty(n, dtype=np.float32, device=dev)
        g = ember.random.default_rng(0)
        f = g.random if case == "rand" else g.standard_normal
        fn, work = (lambda: f(n, dtype=np.float32, out=out)), (4 * n, "GB/s")
    else:
        raise SystemExit(f"unknown case {case!r}")
    d = em.Device(dev)
    if "--time" not in sys.argv:
        fn()
        d.synchronize()
        return
    for _ in range(3):
        fn()
    d.synchronize()
    a, b = em.Event(), em.Event()
    ts = []
    for _ in range(20):
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(em.get_elapsed_time(a, b))
    ms = float(np.median(ts))
    print(f"{case} {ms:.4f} ms {work[0] / ms / 1e6:.1f} {work[1]}", flush=True)
    if "--host" in sys.argv:
        import time
        d.synchronize()
        t0 = time.perf_counter()
        for _ in range(20):
            fn()
        t1 = time.perf_counter()
        d.synchronize()
        print(f"{case} host {(t1 - t0) / 20 * 1e6:.1f} us a call", flush=True)
    if "--trace" in sys.argv:
        trace(fn, d)


def trace(fn, d):
    import torch
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(3):
            fn()
            d.synchronize()
    ev = sorted((e for e in prof.events() if e.device_type.name == "CUDA"),
                key=lambda e: e.time_range.start)
    # the last call's kernels: those after the largest gap before the end
    gaps = [ev[i].time_range.start - ev[i - 1].time_range.end for i in range(1, len(ev))]
    first = max(range(1, len(ev)), key=lambda i: gaps[i - 1]) if len(ev) > 1 else 0
    prev = None
    for e in ev[first:]:
        gap = e.time_range.start - prev if prev is not None else 0
        print(f"  {e.name[:40]:40s} {e.time_range.elapsed_us():9.1f} us  gap {gap:6.1f}")
        prev = e.time_range.end
    span = ev[-1].time_range.end - ev[first].time_range.start
    print(f"  span {span:.1f} us", flush=True)
    del torch


main()
