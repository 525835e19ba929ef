"""Arrays: ember vs CuPy vs PyTorch on the arrays issue's cases, in one run,
as fractions of this run's device-to-device copy bandwidth.

usage: python bench/arrays.py [--out FILE]   (on the GPU machine)
Large cases count bytes read plus written (reductions: bytes read); small
cases are per-op host time on 1,000 elements."""
import argparse
import statistics
import time

import numpy as np

N = 1 << 28
rows = []


def gpu_ms(fn, sync, event_pair, reps=20):
    """Median device time of fn with events, after warm-up."""
    for _ in range(3):
        fn()
    sync()
    start, end, elapsed = event_pair
    ts = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        ts.append(elapsed(start, end))
    return statistics.median(ts)


def host_us(fn, sync, reps=2000):
    for _ in range(100):
        fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    sync()
    return (time.perf_counter() - t0) / reps * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    args = ap.parse_args()
    import cupy as cp
    import torch
    import ember as em

    ev_cp = (cp.cuda.Event(), cp.cuda.Event(), cp.cuda.get_elapsed_time)
    ev_em = (em.Event(), em.Event(), em.get_elapsed_time)
    ev_t = (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True),
            lambda a, b: a.elapsed_time(b))
    sync_cp = cp.cuda.runtime.deviceSynchronize
    dev = em.Device("cuda:0")
    dev.use()
    sync_em = dev.synchronize
    sync_t = torch.cuda.synchronize

    a8 = cp.empty(N * 4, dtype=cp.uint8)
    b8 = cp.empty_like(a8)
    copy_ms = gpu_ms(lambda: b8.__setitem__(Ellipsis, a8), sync_cp, ev_cp)
    copy_bw = 2 * a8.nbytes / copy_ms / 1e6
    del a8, b8
    print(f"copy bandwidth {copy_bw:.0f} GB/s")

    def case(name, nbytes, make):
        out = {}
        for lib, ev, sync in (("ember", ev_em, sync_em), ("cupy", ev_cp, sync_cp),
                              ("torch", ev_t, sync_t)):
            try:
                fn = make(lib)
                out[lib] = nbytes / gpu_ms(fn, sync, ev) / 1e6
            except Exception as exc:
                print(f"{name} {lib}: {exc!r}")
                out[lib] = float("nan")
        rows.append((name, out, "GB/s", copy_bw))

    host = np.random.default_rng(0).standard_normal(N, dtype=np.float32)
    libs = {"ember": lambda x: em.asarray(x, device="cuda:0"),
            "cupy": cp.asarray, "torch": lambda x: torch.from_numpy(x).cuda()}
    arr = {lib: (f(host), f(host[::-1].copy())) for lib, f in libs.items()}

    case("a+b float32 2^28", 3 * 4 * N, lambda lib: (lambda: arr[lib][0] + arr[lib][1]))
    # Two distinct operands: x + x would read one buffer and count it twice.
    h16 = host.astype(np.float16)
    a16 = {lib: (f(h16), f(h16[::-1].copy())) for lib, f in libs.items()}
    case("a+b float16 2^28", 3 * 2 * N, lambda lib: (lambda: a16[lib][0] + a16[lib][1]))
    del a16
    case("a.sum() float32 2^28", 4 * N,
         lambda lib: (lambda: arr[lib][0].sum()))

    small = np.ones(1000, dtype=np.float32)
    s = {lib: f(small) for lib, f in libs.items()}
    for lib, sync in (("ember", sync_em), ("cupy", sync_cp), ("torch", sync_t)):
        try:
            us = host_us(lambda: s[lib] + s[lib], sync)
        except Exception as exc:
            print("small add", lib, repr(exc))
            us = float("nan")
        rows.append((f"a+b 1,000 float32, per op ({lib})", {lib: us}, "us", None))
    for lib, f in (("ember", lambda: em.asarray(small, device="cuda:0")),
                   ("cupy", lambda: cp.asarray(small)),
                   ("torch", lambda: torch.from_numpy(small).cuda())):
        try:
            us = host_us(f, lambda: None, reps=500)
        except Exception as exc:
            print("asarray", lib, repr(exc))
            us = float("nan")
        rows.append((f"asarray 1,000 float32 from NumPy ({lib})", {lib: us}, "us", None))

    lines = ["| case | ember | CuPy | PyTorch | unit | ember / copy | CuPy / copy |",
             "|---|---|---|---|---|---|---|"]
    for name, v, unit, bw in rows:
        e, c, t = (v.get(k, float("nan")) for k in ("ember", "cupy", "torch"))
        frac = (lambda x: f"{x / bw:.0%}") if bw else (lambda x: "")
        lines.append(f"| {name} | {e:.4g} | {c:.4g} | {t:.4g} | {unit} | {frac(e)} | {frac(c)} |")
    lines.append(f"| (ref) device copy, read+write | {copy_bw:.0f} | | | GB/s | 100% | |")
    table = "\n".join(lines)
    print(table)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(table + "\n")


if __name__ == "__main__":
    main()
