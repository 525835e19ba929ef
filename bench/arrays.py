"""Arrays: ember vs CuPy vs PyTorch on every case of the arrays issue's Speed
section, in one run, as fractions of this run's device-to-device copy
bandwidth.

usage: python bench/arrays.py [--out FILE] [--only SUBSTRING]  (on the GPU machine)
       python bench/arrays.py --device cpu --log2n 16   (a quick check of the script)

Large elementwise and copy cases count bytes read plus written; reductions
and the norm count bytes read; per-op cases are host time per call from
Python on 1,000 elements; transfers are wall time of a blocking 1 GiB
host-to-device copy. A peer that does not import, or an ember function that
is not there yet, shows as "n/a" in its column instead of stopping the run.
Each case takes a few seconds: 3 warm-up calls, then the median of 20
event-timed calls (transfers: 5 wall-timed calls)."""
import argparse
import gc
import statistics
import time

import numpy as np

N = 1 << 28          # elements of the large 1-d cases (--log2n)
M = 1 << 14          # (M, M) matrices: N elements as well
DEVICE = "cuda:0"    # ember's device (--device)
LIBS = ("ember", "cupy", "torch")
rows = []


class Missing(Exception):
    """An ember function (or peer feature) that does not exist yet."""


def need(obj, path):
    """obj.a.b for path 'a.b', or Missing naming what is absent."""
    for part in path.split("."):
        if not hasattr(obj, part):
            raise Missing(f"{path} missing")
        obj = getattr(obj, part)
    return obj


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
    """Mean host time per call, queued back to back, with one final sync."""
    for _ in range(100):
        fn()
    sync()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    sync()
    return (time.perf_counter() - t0) / reps * 1e6


def wall_ms(fn, sync, reps=5):
    fn()
    sync()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        sync()
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts)


def fmt(x):
    """A figure to 4 significant digits; a string (an "n/a" reason) as it is."""
    return x if isinstance(x, str) else f"{x:.4g}"


def frac(x, bw):
    """x as a fraction of the copy bandwidth bw ("" without one)."""
    return f"{x / bw:.0%}" if bw and not isinstance(x, str) else ""


def write_table(columns, lines, out=None):
    """Prints the Markdown table of the column names and the row lines (each
    "| a | b |"), and writes it to the file out as well when one is given."""
    table = "\n".join(["| " + " | ".join(columns) + " |",
                       "|" + "---|" * len(columns)] + lines)
    print(table)
    if out:
        with open(out, "w") as fh:
            fh.write(table + "\n")


def load_libs():
    """Each library's handles, or the reason it is not there."""
    libs = {}
    import ember as em
    dev = em.Device(DEVICE)
    dev.use()
    libs["ember"] = dict(
        mod=em, sync=dev.synchronize,
        ev=(em.Event(), em.Event(), em.get_elapsed_time),
        put=lambda h: em.asarray(h, device=DEVICE),
        free=lambda: em.get_default_memory_pool().free_all_blocks())
    if DEVICE == "cpu":
        libs["cupy"] = libs["torch"] = "n/a (cpu check)"
        return libs
    try:
        import cupy as cp
        libs["cupy"] = dict(
            mod=cp, sync=cp.cuda.runtime.deviceSynchronize,
            ev=(cp.cuda.Event(), cp.cuda.Event(), cp.cuda.get_elapsed_time),
            put=cp.asarray, free=lambda: cp.get_default_memory_pool().free_all_blocks())
    except Exception as exc:  # noqa: BLE001 (any import failure means n/a)
        libs["cupy"] = f"n/a ({type(exc).__name__})"
    try:
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("no CUDA in torch")
        libs["torch"] = dict(
            mod=torch, sync=torch.cuda.synchronize,
            ev=(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True),
                lambda a, b: a.elapsed_time(b)),
            put=lambda h: torch.from_numpy(np.ascontiguousarray(h)).cuda(),
            free=torch.cuda.empty_cache)
    except Exception as exc:  # noqa: BLE001
        libs["torch"] = f"n/a ({type(exc).__name__})"
    return libs


def parse_case_args(n=None):
    """The options of the side-by-side scripts (algorithms.py, rng.py, ...):
    --out, --only, --device (sets DEVICE), --log2n, and --n (a matrix
    order, default n) for those that pass one."""
    global DEVICE
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--only", help="run the cases whose name holds one of "
                    "these comma-separated substrings")
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--log2n", type=int, default=28)
    if n is not None:
        ap.add_argument("--n", type=int, default=n)
    args = ap.parse_args()
    DEVICE = args.device
    return args


def copy_reference(libs, n):
    """The library whose copy is the reference (CuPy, else PyTorch, else
    ember) and its device copy bandwidth over n float32, read + written,
    in GB/s."""
    ref = next(l for l in ("cupy", "torch", "ember") if not isinstance(libs[l], str))
    h = libs[ref]
    src, dst = h["put"](np.zeros(n, np.float32)), h["put"](np.zeros(n, np.float32))
    copy_fn = (lambda: dst.copy_(src)) if ref == "torch" else (
        lambda: dst.__setitem__(Ellipsis, src))
    copy_bw = 8 * n / gpu_ms(copy_fn, h["sync"], h["ev"]) / 1e6
    del src, dst
    h["free"]()
    print(f"copy bandwidth {copy_bw:.0f} GB/s ({ref})")
    return ref, copy_bw


def write_ratio_table(rows, ref, copy_bw, out=None):
    """rows of (case, {lib: value}, unit, bandwidth or None) as a table
    with ember's fraction of the copy bandwidth and ember vs CuPy (for
    milliseconds: how many times faster ember is)."""
    lines = []
    for name, v, unit, bw in rows:
        e, c, t = (v[k] for k in LIBS)
        vs = ""
        if not isinstance(e, str) and not isinstance(c, str):
            vs = f"{c / e:.2f}x faster" if unit == "ms" else f"{e / c:.2f}x"
        lines.append(f"| {name} | {fmt(e)} | {fmt(c)} | {fmt(t)} | {unit} | "
                     f"{frac(e, bw)} | {vs} |")
    lines.append(f"| (ref) device copy, read+write ({ref}) | {copy_bw:.0f} | | | GB/s | "
                 "100% | |")
    write_table(("case", "ember", "CuPy", "PyTorch", "unit", "ember / copy", "ember vs CuPy"),
                lines, out)


def run_each(libs, measure):
    """measure(lib, handles) -> number for each library; a failure becomes
    a short "n/a (...)" string in that column."""
    out = {}
    for lib in LIBS:
        h = libs[lib]
        if isinstance(h, str):
            out[lib] = h
            continue
        try:
            out[lib] = measure(lib, h)
        except Missing as exc:
            out[lib] = f"n/a ({exc})"
        except Exception as exc:  # noqa: BLE001 (one case must not end the run)
            print(f"  {lib}: {type(exc).__name__}: {exc}")
            out[lib] = f"n/a ({type(exc).__name__})"
        gc.collect()
        h["free"]()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--only", help="run only cases whose name contains this")
    ap.add_argument("--device", default="cuda:0", help="ember's device")
    ap.add_argument("--log2n", type=int, default=28, help="log2 of the large sizes (even)")
    args = ap.parse_args()
    global N, M, DEVICE
    N, M, DEVICE = 1 << args.log2n, 1 << (args.log2n // 2), args.device
    libs = load_libs()
    K = f"{M // 1024}k" if M >= 1024 else str(M)
    SZ, MAT, GIB = f"2^{args.log2n}", f"({K},{K})", f"{4 * N / 2**30:g} GiB"
    rng = np.random.default_rng(0)

    # The reference: a device-to-device copy of 1 GiB by the first peer
    # there (CuPy, else PyTorch, else ember), bytes read plus written.
    ref = next(l for l in ("cupy", "torch", "ember") if not isinstance(libs[l], str))
    h = libs[ref]
    src = h["put"](np.zeros(N, np.float32))
    dst = h["put"](np.zeros(N, np.float32))
    copy_fn = {"cupy": lambda: dst.__setitem__(Ellipsis, src),
               "torch": lambda: dst.copy_(src),
               "ember": lambda: dst.__setitem__(Ellipsis, src)}[ref]
    copy_bw = 2 * 4 * N / gpu_ms(copy_fn, h["sync"], h["ev"]) / 1e6
    del src, dst
    h["free"]()
    print(f"copy bandwidth {copy_bw:.0f} GB/s ({ref})")

    def wanted(name):
        return not args.only or args.only in name

    def case(name, nbytes, hosts, op):
        """hosts: the NumPy inputs; op(lib, mod, *device_arrays) -> a
        callable that runs the operation once."""
        if not wanted(name):
            return
        print(name)

        def measure(lib, h):
            xs = [h["put"](a) for a in hosts]
            fn = op(lib, h["mod"], *xs)
            return nbytes / gpu_ms(fn, h["sync"], h["ev"]) / 1e6
        rows.append((name, run_each(libs, measure), "GB/s", copy_bw))

    f32 = rng.random(N, dtype=np.float32)
    add = lambda lib, mod, a, b: (lambda: a + b)  # noqa: E731
    # Two distinct operands: x + x would read one buffer and count it twice.
    case(f"a+b float32 {SZ}", 3 * 4 * N, (f32, f32[::-1].copy()), add)
    h16 = f32.astype(np.float16)
    case(f"a+b float16 {SZ}", 3 * 2 * N, (h16, h16[::-1].copy()), add)
    del h16
    h64 = f32.astype(np.float64)
    case(f"a+b float64 {SZ}", 3 * 8 * N, (h64, h64[::-1].copy()), add)
    del h64

    m32 = f32.reshape(M, M)
    case(f"{MAT}+({K},) float32 broadcast", 4 * (2 * M * M + M), (m32, m32[0].copy()), add)
    case(f"m.T + m float32 {MAT}", 3 * 4 * M * M, (m32,),
         lambda lib, mod, m: (lambda: m.T + m))
    m16 = m32.astype(np.float16)
    case(f"m.T + m float16 {MAT}", 3 * 2 * M * M, (m16,),
         lambda lib, mod, m: (lambda: m.T + m))
    del m16

    def transpose_copy(lib, mod, m):
        if lib == "torch":
            return lambda: m.T.contiguous()
        return lambda: need(mod, "ascontiguousarray")(m.T)
    case(f"ascontiguousarray(m.T) float32 {MAT}", 2 * 4 * M * M, (m32,), transpose_copy)

    def reduction(axis):
        def op(lib, mod, x):
            if lib == "ember":
                need(x, "sum")   # the method arrives with the reductions
            if axis is None:
                return lambda: x.sum()
            if lib == "torch":
                return lambda: x.sum(dim=axis)
            return lambda: x.sum(axis=axis)
        return op
    case(f"sum() float32 {SZ} (bytes read)", 4 * N, (f32,), reduction(None))
    case(f"sum(axis=1) row sums float32 {MAT} (bytes read)", 4 * M * M, (m32,),
         reduction(1))
    case(f"sum(axis=0) column sums float32 {MAT} (bytes read)", 4 * M * M, (m32,),
         reduction(0))

    def norm(lib, mod, x):
        if lib == "torch":
            return lambda: mod.linalg.vector_norm(x)
        return lambda: need(mod, "linalg.norm")(x)
    case(f"linalg.norm float32 {SZ} (bytes read)", 4 * N, (f32,), norm)
    del m32

    # ---- per-op host overhead on small arrays ----
    small = np.ones(1000, dtype=np.float32)

    def per_op(name, op):
        if not wanted(name):
            return
        print(name)

        def measure(lib, h):
            a, b = h["put"](small), h["put"](small[::-1].copy())
            return host_us(op(lib, a, b), h["sync"])
        rows.append((name, run_each(libs, measure), "us", None))
    per_op("a+b 1,000 float32, per op", lambda lib, a, b: (lambda: a + b))

    def small_sum(lib, a, b):
        if lib == "ember":
            need(a, "sum")
        return lambda: a.sum()
    per_op("a.sum() 1,000 float32, per op", small_sum)

    name = "asarray 1,000 float32 from NumPy"
    if wanted(name):
        print(name)
        rows.append((name, run_each(
            libs, lambda lib, h: host_us(lambda: h["put"](small), h["sync"], reps=500)),
            "us", None))

    # ---- host to device, 1 GiB ----
    nbytes = 4 * N

    def h2d(pinned):
        def measure(lib, h):
            mod = h["mod"]
            if not pinned:
                host = f32
                fn = lambda: h["put"](host)  # noqa: E731
            elif lib == "ember":
                pm = need(mod, "alloc_pinned_memory")(nbytes)
                host = np.frombuffer(pm, dtype=np.float32, count=N)
                host[...] = f32
                fn = lambda: h["put"](host)  # noqa: E731
            elif lib == "cupy":
                pm = mod.cuda.alloc_pinned_memory(nbytes)
                host = np.frombuffer(pm, dtype=np.float32, count=N)
                host[...] = f32
                fn = lambda: mod.asarray(host)  # noqa: E731
            else:
                t = mod.from_numpy(f32).pin_memory()
                fn = lambda: t.cuda()  # noqa: E731
            return nbytes / wall_ms(fn, h["sync"]) / 1e6
        return measure
    for pinned in (False, True):
        name = f"H2D {GIB} {'pinned' if pinned else 'pageable'} (wall)"
        if wanted(name):
            print(name)
            rows.append((name, run_each(libs, h2d(pinned)), "GB/s", None))

    lines = []
    for name, v, unit, bw in rows:
        e, c, t = (v[k] for k in LIBS)
        lines.append(f"| {name} | {fmt(e)} | {fmt(c)} | {fmt(t)} | {unit} | "
                     f"{frac(e, bw)} | {frac(c, bw)} |")
    lines.append(f"| (ref) device copy, read+write ({ref}) | {copy_bw:.0f} | | | GB/s | "
                 "100% | |")
    write_table(("case", "ember", "CuPy", "PyTorch", "unit", "ember / copy", "CuPy / copy"),
                lines, args.out)


if __name__ == "__main__":
    main()
