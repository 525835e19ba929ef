"""ember.linalg on device 'cpu' against NumPy on the same machine: matmul
(OpenBLAS's gemm in both, ember's generated kernel where gemm cannot take
the layout) and the LAPACK calls, as times and their ratio (issue 20's
target: matmul and solve at least 0.9x NumPy's speed, i.e. a ratio of at
most 1.11).

usage: python bench/cpu_linalg.py [--n N] [--out FILE] [--only SUBSTRING]

Conventions as bench/cpu.py: a warm-up call, then the median wall time
of several, each followed by the device's synchronize. Every ember array
is made on device "cpu" by name (the GPU host's default device is its
GPU, which once made this table time cuda launches)."""
import argparse

import numpy as np

import ember as em
import ember.linalg as la

import arrays as A


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1024, help="matrix size")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out")
    ap.add_argument("--only", help="run the cases whose name has this")
    args = ap.parse_args()
    n = args.n
    sync = em.Device("cpu").synchronize
    rng = np.random.default_rng(0)
    rows = []

    def case(name, np_fn, em_fn):
        if args.only and args.only not in name:
            return
        e = A.wall_ms(em_fn, sync, args.reps)
        h = A.wall_ms(np_fn, lambda: None, args.reps)
        rows.append((name, e, h))
        print(name, e, h, flush=True)

    for dt in ("float32", "float64", "complex64", "complex128"):
        a = rng.standard_normal((n, n)).astype(dt)
        b = rng.standard_normal((n, n)).astype(dt)
        x, y = em.asarray(a, device="cpu"), em.asarray(b, device="cpu")
        case(f"matmul {dt} {n}", lambda: a @ b, lambda: x @ y)
        case(f"matmul {dt} {n} a.T @ b", lambda: a.T @ b, lambda: x.T @ y)
    for dt, m in (("float32", 32), ("float64", 64)):
        a = rng.standard_normal((4096 * 16 // m, m, m)).astype(dt)
        x = em.asarray(a, device="cpu")
        case(f"matmul {dt} batch {a.shape}", lambda: a @ a, lambda: x @ x)
    a = rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)
    b = rng.standard_normal((n, 16))
    x, y = em.asarray(a, device="cpu"), em.asarray(b, device="cpu")
    case(f"solve float64 {n} (16 rhs)", lambda: np.linalg.solve(a, b),
         lambda: la.solve(x, y))
    h = a @ a.T
    xh = em.asarray(h, device="cpu")
    case(f"cholesky float64 {n}", lambda: np.linalg.cholesky(h),
         lambda: la.cholesky(xh))
    case(f"inv float64 {n}", lambda: np.linalg.inv(a), lambda: la.inv(x))
    s = rng.standard_normal((n, n // 4)).astype("float32")
    xs = em.asarray(s, device="cpu")
    case(f"svd float32 {n}x{n // 4}",
         lambda: np.linalg.svd(s, full_matrices=False),
         lambda: la.svd(xs, full_matrices=False))
    case(f"eigh float64 {n // 2}", lambda: np.linalg.eigh(h[: n // 2, : n // 2]),
         lambda: la.eigh(xh[: n // 2, : n // 2]))

    lines = []
    for name, e, h in rows:
        r = e / h
        lines.append(f"| {name} | {e:.3f} | {h:.3f} | {r:.2f} |")
    A.write_table(("case", "ember ms", "NumPy ms", "ember / NumPy"), lines,
                  args.out)


if __name__ == "__main__":
    main()
