"""The parallel algorithms issue's speed cases: ember vs CuPy vs PyTorch in
one process, with the same run's device copy bandwidth as the reference.

usage: python bench/algorithms.py [--out FILE] [--only SUBSTRING]
       python bench/algorithms.py --device cpu --log2n 16   (a check)

Measurement as in bench/arrays.py (whose helpers this imports): device
cases are the median of 20 event-timed calls after 3 warm-ups. Scans
count bytes read plus written (cumsum float32: 8 bytes per element;
int32 to int64: 12), histogram and bincount bytes read; sorts are keys per
second; unique, a[mask] and nonzero are milliseconds (lower is
better; the last column then says how many times faster ember is). A peer without the
operation shows n/a."""
import numpy as np

import arrays as A


def main():
    args = A.parse_case_args()
    n = 1 << args.log2n
    n27, n26 = n >> 1, n >> 2
    libs = A.load_libs()
    rng = np.random.default_rng(0)
    rows = []

    ref, copy_bw = A.copy_reference(libs, n)

    def case(name, unit, hosts, op, scale, bw=None):
        """op(lib, mod, *arrays) -> callable (None: the library lacks it);
        the figure is scale / milliseconds, or milliseconds when scale is
        None."""
        if args.only and not any(o in name for o in args.only.split(",")):
            return
        print(name, flush=True)

        def measure(lib, h):
            xs = [h["put"](a) for a in hosts]
            fn = op(lib, h["mod"], *xs)
            if fn is None:
                raise A.Missing("no such operation")
            ms = A.gpu_ms(fn, h["sync"], h["ev"])
            return ms if scale is None else scale / ms
        rows.append((name, A.run_each(libs, measure), unit, bw))

    f32 = rng.standard_normal(n).astype(np.float32)
    i32 = rng.integers(0, 100, n).astype(np.int32)

    def cumsum(lib, mod, x):
        if lib == "torch":
            return lambda: mod.cumsum(x, 0)
        return lambda: A.need(mod, "cumsum")(x)
    case("cumsum float32 2^%d" % args.log2n, "GB/s", (f32,), cumsum, 8 * n / 1e6, copy_bw)
    case("cumsum int32 -> int64 2^%d" % args.log2n, "GB/s", (i32,), cumsum, 12 * n / 1e6,
         copy_bw)

    def scan(expr):
        def op(lib, mod, x):
            if lib != "ember":
                return None
            return lambda: A.need(mod, "parallel.inclusive_scan")(x, expr)
        return op
    case("inclusive_scan 'add' float32 2^%d" % args.log2n, "GB/s", (f32,), scan("add"),
         8 * n / 1e6, copy_bw)
    case("inclusive_scan 'a + b' (user) float32 2^%d" % args.log2n, "GB/s", (f32,),
         scan("a + b"), 8 * n / 1e6, copy_bw)
    del i32

    u32 = rng.integers(0, 2**32, n27, dtype=np.uint32)
    # float64 twice: float32 values held as float64 (29 low bits zero, so
    # a radix sort may skip 3 of its 8 digit passes) and full 53-bit
    # mantissas (every pass runs)
    keys = {"uint32": u32, "float32": f32[:n27].copy(),
            "float64 (float32 values)": f32[:n27].astype(np.float64),
            "float64 (53-bit)": rng.standard_normal(n27)}
    del u32

    def sort(lib, mod, x):
        if lib == "torch":
            if x.dtype == mod.uint32:
                return None
            return lambda: mod.sort(x)
        return lambda: A.need(mod, "sort")(x)
    for dt, k in keys.items():
        case(f"sort {dt} 2^{args.log2n - 1}", "Gkeys/s", (k,), sort, n27 / 1e6)

    def argsort(lib, mod, x):
        if lib == "torch":
            return lambda: mod.sort(x, stable=True)
        return lambda: A.need(mod, "argsort")(x)
    case(f"argsort float32 2^{args.log2n - 1} (PyTorch: sort with indices)", "Gkeys/s",
         (keys["float32"],), argsort, n27 / 1e6)

    def pairs(lib, mod, k, v):
        if lib == "ember":
            return lambda: A.need(mod, "parallel.radix_sort")(k, v)
        if lib == "torch":
            return lambda: mod.sort(k, stable=True)
        return None
    case(f"sort pairs float32 keys + int64 values 2^{args.log2n - 1}", "Gkeys/s",
         (keys["float32"], np.arange(n27, dtype=np.int64)), pairs, n27 / 1e6)
    del keys

    u01 = rng.random(n, dtype=np.float32)

    def warmed(fn, calls=200):
        """fn after `calls` untimed calls (tens of milliseconds of GPU work):
        the counting cases follow seconds of host-side data generation, and
        a GPU that idled that long may not be at full clocks for gpu_ms's
        three warm-ups (every library gets the same)."""
        for _ in range(calls):
            fn()
        return fn

    def hist(lib, mod, x):
        if lib == "torch":
            return warmed(lambda: mod.histc(x, bins=256, min=0, max=1))
        return warmed(lambda: A.need(mod, "histogram")(x, bins=256, range=(0, 1)))
    case("histogram 256 bins float32 2^%d (bytes read)" % args.log2n, "GB/s", (u01,), hist,
         4 * n / 1e6, copy_bw)

    small = rng.integers(0, 4096, n26).astype(np.int32)

    def bincount(lib, mod, x):
        return warmed(lambda: A.need(mod, "bincount")(x))
    case(f"bincount int32 2^{args.log2n - 2}, 4,096 values (bytes read)", "GB/s", (small,),
         bincount, 4 * n26 / 1e6, copy_bw)
    del small

    uq = rng.integers(0, 1 << 20, n26).astype(np.int32)

    def unique(lib, mod, x):
        return lambda: A.need(mod, "unique")(x)
    case(f"unique int32 2^{args.log2n - 2}, 1M distinct", "ms", (uq,), unique, None)

    def unique_counts(lib, mod, x):
        if lib == "torch":
            return lambda: mod.unique(x, return_counts=True)
        return lambda: A.need(mod, "unique")(x, return_counts=True)
    case(f"unique return_counts int32 2^{args.log2n - 2}, 1M distinct", "ms", (uq,),
         unique_counts, None)
    del uq

    mask = u01 < 0.5

    def masked(lib, mod, x, m):
        return lambda: x[m]
    case("a[mask] float32 2^%d, half true" % args.log2n, "ms", (f32, mask), masked, None)

    def nonzero(lib, mod, m):
        return lambda: A.need(mod, "nonzero")(m)
    case("nonzero bool 2^%d, half true" % args.log2n, "ms", (mask,), nonzero, None)
    side = 1 << (args.log2n // 2)
    case("nonzero bool (2^%d, 2^%d), half true" % (args.log2n // 2, args.log2n // 2), "ms",
         (mask[:side * side].reshape(side, side),), nonzero, None)
    r16 = f32[:n >> 4 << 4].reshape(-1, 16)
    case("a[mask] float32 rows (2^%d, 16), half the rows" % (args.log2n - 4), "ms",
         (r16, mask[:r16.shape[0]]), masked, None)
    del r16

    A.write_ratio_table(rows, ref, copy_bw, args.out)


if __name__ == "__main__":
    main()
