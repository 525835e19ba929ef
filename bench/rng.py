"""Random numbers (issue 20, 4): ember.random vs CuPy vs PyTorch filling
float32 arrays of 2^28 elements, as bytes written per second, with the
same run's device copy bandwidth as the reference.

usage: python bench/rng.py [--out FILE] [--only SUBSTRING]  (on the GPU machine)
       python bench/rng.py --device cpu --log2n 16   (a check of the script)

Measurement as in bench/arrays.py (whose helpers this imports): the median
of 20 event-timed calls after 3 warm-ups. Generator rows fill a
preallocated output (out=; torch.rand/randn(out=)); legacy rows are the
module functions (cupy.random.random_sample / standard_normal with
dtype=float32), which allocate their result. A peer without the call
shows n/a."""
import argparse

import numpy as np

import arrays as A


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--only", help="run the cases whose name holds one of "
                    "these comma-separated substrings")
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--log2n", type=int, default=28)
    args = ap.parse_args()
    A.DEVICE = args.device
    n = 1 << args.log2n
    libs = A.load_libs()
    rows = []

    ref = next(l for l in ("cupy", "torch", "ember") if not isinstance(libs[l], str))
    h = libs[ref]
    src, dst = h["put"](np.zeros(n, np.float32)), h["put"](np.zeros(n, np.float32))
    copy_fn = (lambda: dst.copy_(src)) if ref == "torch" else (
        lambda: dst.__setitem__(Ellipsis, src))
    copy_bw = 8 * n / A.gpu_ms(copy_fn, h["sync"], h["ev"]) / 1e6
    del src, dst
    h["free"]()
    print(f"copy bandwidth {copy_bw:.0f} GB/s ({ref})")

    def case(name, op):
        """op(lib, mod, out) -> callable writing n float32 values (None:
        the library lacks it); the figure is bytes written per second."""
        if args.only and not any(o in name for o in args.only.split(",")):
            return
        print(name, flush=True)

        def measure(lib, h):
            out = h["put"](np.zeros(n, np.float32))
            fn = op(lib, h["mod"], out)
            if fn is None:
                raise A.Missing("no such call")
            return 4 * n / 1e6 / A.gpu_ms(fn, h["sync"], h["ev"])
        rows.append((name, A.run_each(libs, measure)))

    def gen_uniform(lib, mod, out):
        if lib == "torch":
            return lambda: mod.rand(n, out=out)
        g = A.need(mod, "random.default_rng")(0)
        return lambda: g.random(n, dtype=np.float32, out=out)
    case(f"Generator.random float32 2^{args.log2n} (torch.rand)", gen_uniform)

    def gen_normal(lib, mod, out):
        if lib == "torch":
            return lambda: mod.randn(n, out=out)
        g = A.need(mod, "random.default_rng")(0)
        return lambda: g.standard_normal(n, dtype=np.float32, out=out)
    case(f"Generator.standard_normal float32 2^{args.log2n} (torch.randn)",
         gen_normal)

    def legacy_uniform(lib, mod, out):
        if lib == "torch":
            return None
        f = A.need(mod, "random.random_sample")
        return lambda: f(n, dtype=np.float32)
    case(f"legacy random_sample float32 2^{args.log2n}", legacy_uniform)

    def legacy_normal(lib, mod, out):
        if lib == "torch":
            return None
        f = A.need(mod, "random.standard_normal")
        return lambda: f(n, dtype=np.float32)
    case(f"legacy standard_normal float32 2^{args.log2n}", legacy_normal)

    lines = []
    for name, v in rows:
        e, c, t = (v[k] for k in A.LIBS)
        vs = "" if isinstance(e, str) or isinstance(c, str) else f"{e / c:.2f}x"
        lines.append(f"| {name} | {A.fmt(e)} | {A.fmt(c)} | {A.fmt(t)} | GB/s | "
                     f"{A.frac(e, copy_bw)} | {vs} |")
    lines.append(f"| (ref) device copy, read+write ({ref}) | {copy_bw:.0f} | | | GB/s | "
                 "100% | |")
    A.write_table(("case", "ember", "CuPy", "PyTorch", "unit", "ember / copy",
                   "ember vs CuPy"), lines, args.out)


if __name__ == "__main__":
    main()
