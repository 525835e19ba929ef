"""Products (issue 20, 2): ember's matmul (cuBLAS on CUDA devices) vs CuPy
vs PyTorch on square matrices, in TFLOP/s (2 n^3 per product).

usage: python bench/matmul.py [--out FILE] [--only SUBSTRING] [--n 8192]
       python bench/matmul.py --device cpu --n 256   (a check of the script)

Measurement as in bench/arrays.py (whose helpers this imports): the median
of 20 event-timed calls after 3 warm-ups, each allocating its result.
bfloat16 has no CuPy dtype: PyTorch is its peer."""
import sys

import numpy as np

import arrays as A


def main():
    args = A.parse_case_args(n=8192)
    n = args.n
    libs = A.load_libs()
    rng = np.random.default_rng(0)
    lines = []
    for dt in ("float32", "float16", "bfloat16", "float64"):
        name = f"matmul {dt} {n}"
        if args.only and not any(o in name for o in args.only.split(",")):
            continue
        print(name, flush=True)
        h = rng.standard_normal((n, n)).astype(np.float32)

        def measure(lib, hd):
            if lib == "torch":
                import torch
                t = getattr(torch, dt)
                a = hd["put"](h).to(t)
            elif dt == "bfloat16" and lib == "cupy":
                raise A.Missing("no bfloat16 dtype")
            else:
                a = hd["put"](h).astype(dt)
            return 2 * n ** 3 / A.gpu_ms(lambda: a @ a, hd["sync"],
                                         hd["ev"]) / 1e9
        v = A.run_each(libs, measure)
        e, c, t = (v[k] for k in A.LIBS)
        peer = t if dt == "bfloat16" else c
        vs = "" if isinstance(e, str) or isinstance(peer, str) else \
            f"{e / peer:.2f}x"
        lines.append(f"| {name} | {A.fmt(e)} | {A.fmt(c)} | {A.fmt(t)} | "
                     f"TFLOP/s | {vs} |")
        for lib in A.LIBS:
            if not isinstance(libs[lib], str):
                libs[lib]["free"]()
    A.write_table(["case", "ember", "CuPy", "PyTorch", "unit",
                   "ember vs CuPy (bfloat16: vs PyTorch)"], lines, args.out)


if __name__ == "__main__":
    sys.exit(main())
