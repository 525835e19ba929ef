"""Factorisations (issue 20, 2): ember.linalg (cuSOLVER on CUDA devices)
vs CuPy (cuSOLVER) in milliseconds per call, at the sizes of the issue's
table: solve float64 8192 with 16 right-hand sides, cholesky and eigh
float64 8192, svd float32 4096 x 1024.

usage: python bench/linalg.py [--out FILE] [--only SUBSTRING] [--n 8192]
       python bench/linalg.py --device cpu --n 256   (a check of the script)

Measurement as in bench/arrays.py (whose helpers this imports): the median
of 5 event-timed calls after 3 warm-ups (eigh at 8192 takes half a second
a call)."""

import numpy as np

import arrays as A


def main():
    args = A.parse_case_args(n=8192)
    n = args.n
    libs = A.load_libs()
    libs["torch"] = "n/a (not measured)"
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n))
    spd = a @ a.T / n + np.eye(n)
    rhs = rng.standard_normal((n, 16))
    tall = rng.standard_normal((n // 2, n // 8)).astype(np.float32)
    cases = [
        (f"solve float64 {n} (16 rhs)", lambda m, h: (
            lambda x=h["put"](a), y=h["put"](rhs): m.linalg.solve(x, y))),
        (f"cholesky float64 {n}", lambda m, h: (
            lambda x=h["put"](spd): m.linalg.cholesky(x))),
        (f"eigh float64 {n}", lambda m, h: (
            lambda x=h["put"](spd): m.linalg.eigh(x))),
        (f"svd float32 {n // 2}x{n // 8}", lambda m, h: (
            lambda x=h["put"](tall): m.linalg.svd(x, full_matrices=False))),
    ]
    lines = []
    for name, make in cases:
        if args.only and not any(o in name for o in args.only.split(",")):
            continue
        print(name, flush=True)
        v = A.run_each(libs, lambda lib, h: A.gpu_ms(make(h["mod"], h),
                                                     h["sync"], h["ev"], reps=5))
        e, c = v["ember"], v["cupy"]
        vs = "" if isinstance(e, str) or isinstance(c, str) else \
            f"{c / e:.2f}x faster"
        lines.append(f"| {name} | {A.fmt(e)} | {A.fmt(c)} | ms | {vs} |")
        for lib in ("ember", "cupy"):
            if not isinstance(libs[lib], str):
                libs[lib]["free"]()
    A.write_table(["case", "ember", "CuPy", "unit", "ember vs CuPy"], lines,
                  args.out)


if __name__ == "__main__":
    main()
