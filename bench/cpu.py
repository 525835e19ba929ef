"""ember on device 'cpu' against NumPy on the same machine: large
elementwise ops, reductions, sorts and cumsum, as times and their ratio
(the arrays and algorithms issues' target is ember within 1.5x of NumPy).

usage: python bench/cpu.py [--n LOG2] [--out FILE] [--only SUBSTRING]

Each case: one warm-up call (the first ember call compiles its kernel with
the system C compiler, or loads it from the disk cache), then the median
wall time of several calls, each followed by the device's synchronize so
ember's queued work is counted. Results are fresh arrays in both libraries,
as `a + b` makes them. An ember function that is not there yet shows as
"n/a (missing)"."""
import argparse

import numpy as np

import ember as em

import arrays as A


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=24, help="log2 of the element count")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--out")
    ap.add_argument("--only", help="run the cases whose name has this")
    args = ap.parse_args()
    n = 1 << args.n
    dev = em.Device("cpu")
    sync = dev.synchronize
    rng = np.random.default_rng(0)
    rows = []

    def case(name, np_fn, em_fn):
        if args.only and args.only not in name:
            return
        try:
            e = A.wall_ms(em_fn, sync, args.reps)
        except AttributeError as exc:
            e = f"n/a (missing: {exc})"
        except Exception as exc:  # noqa: BLE001 (one case must not end the run)
            e = f"n/a ({type(exc).__name__}: {exc})"
        h = A.wall_ms(np_fn, lambda: None, args.reps)
        rows.append((name, e, h))
        print(name, e, h, flush=True)

    for dt in ("float32", "float64"):
        a = rng.random(n).astype(dt)
        b = rng.random(n).astype(dt)
        x = em.asarray(a, device="cpu")
        y = em.asarray(b, device="cpu")
        tag = f"{dt} 2^{args.n}"
        case(f"a+b {tag}", lambda: a + b, lambda: x + y)
        case(f"a*b {tag}", lambda: a * b, lambda: x * y)
        case(f"exp(a) {tag}", lambda: np.exp(a), lambda: em.exp(x))
        case(f"sum {tag}", lambda: a.sum(), lambda: x.sum())
        case(f"max {tag}", lambda: a.max(), lambda: x.max())
        case(f"argmax {tag}", lambda: a.argmax(), lambda: x.argmax())
        case(f"mean {tag}", lambda: a.mean(), lambda: x.mean())
        del x, y

    # The algorithms issue's cpu cases: sort (and argsort, which NumPy
    # answers with its stable sort) and cumsum against NumPy.
    for dt in ("float32", "int32"):
        a = (rng.standard_normal(n) * 1e6).astype(dt)
        x = em.asarray(a, device="cpu")
        tag = f"{dt} 2^{args.n}"
        case(f"sort {tag}", lambda: np.sort(a), lambda: em.sort(x))
        case(f"argsort {tag} (NumPy: kind='stable')",
             lambda: np.argsort(a, kind="stable"), lambda: em.argsort(x))
        del x
    a = rng.random(n).astype("float32")
    x = em.asarray(a, device="cpu")
    case(f"cumsum float32 2^{args.n}", lambda: np.cumsum(a), lambda: em.cumsum(x))
    del x

    lines = []
    for name, e, h in rows:
        if isinstance(e, str):
            lines.append(f"| {name} | {e} | {h:.3f} | | |")
        else:
            r = e / h
            lines.append(f"| {name} | {e:.3f} | {h:.3f} | {r:.2f} | "
                         f"{'yes' if r <= 1.5 else 'no'} |")
    A.write_table(("case", "ember ms", "NumPy ms", "ember / NumPy", "within 1.5x"), lines,
                  args.out)


if __name__ == "__main__":
    main()
