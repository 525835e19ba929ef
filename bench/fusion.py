"""Automatic fusion (issue 25, 1 and 2): the four cases of the issue's
speed table, for ember (with fusion on, through ember.fuse, and off when
ember.fusion exists, else eager only), CuPy (plain and cupy.fuse) and
PyTorch in the same run. The small case has no decorated form: its
ember.fuse and cupy.fuse rows repeat the plain `a + b`.

usage: python bench/fusion.py [--out FILE] [--ember-only] (on the GPU machine)
       python bench/fusion.py --device cpu (a check of the script and the
                                            cpu overhead; ember only)

Cases (sizes from the issue; --small divides the large ones by 256):
  axpy    `a * b + c` on 2^28 float32, ms per expression (target <= 1.10,
          traffic floor 1.04 on the H200);
  chain   ten elementwise ops and a sum on 1,000 float32, host us per chain
          (chains issued back to back, one synchronize at the end);
  sqdiff  `((a - b) ** 2).sum()` on 2^28 float32, ms and the share of the
          read bandwidth a copy of the same bytes reaches in the same run
          (target >= 95%);
  small   `a + b` followed by a host read on 1,000 float32, us per pair
          (with fusion on it must stay within 10% of eager; after the
          table the two are compared round by round, see small_abba).
Each figure is the median of 7 rounds (a round of chains is 2,000 of
them: rounds of 200, some 3 ms, moved by 25% between runs on one host);
every result is checked against NumPy on the host, so a case that
computes the wrong thing prints WRONG rather than a time."""
import argparse
import contextlib
import statistics
import time

import numpy as np

BIG = 1 << 28
SMALL = 1000


def median_time(step, sync, reps):
    times = []
    for _ in range(7):
        sync()
        t0 = time.perf_counter()
        for _ in range(reps):
            step()
        sync()
        times.append((time.perf_counter() - t0) / reps)
    return statistics.median(times)


def chain(xp, x):
    # ten elementwise ops then a sum; written as a program would write it
    y = x * 1.5
    y = y + 2.0
    y = y - x
    y = y * y
    y = y / 3.0
    y = y + 1.0
    y = xp.sqrt(y)
    y = y * x
    y = xp.abs(y)
    y = y - 0.5
    return y.sum()


def axpy_expr(a, b, c):
    return a * b + c


def sqdiff_sum(a, b):
    return ((a - b) ** 2).sum()


def inputs(n, k, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.random(n, dtype=np.float32) for _ in range(k)]


def check(name, got, want, rtol=1e-4):
    return "ok" if np.allclose(got, want, rtol=rtol) else "WRONG (%s)" % name


def cases(xp, to_dev, to_host, sync, big, fuse=None, keep=None):
    """(case, seconds, check) rows for one array library. keep(r) makes
    sure a result that the step holds is computed (ember's automatic
    fusion computes nothing for a result nobody holds)."""
    keep = keep or (lambda r: r)
    rows = []
    fa, fb, fc = inputs(big, 3)
    a, b, c = to_dev(fa), to_dev(fb), to_dev(fc)
    # named functions: cupy.fuse names its kernel after the function, and
    # a lambda's name does not compile there
    axpy = fuse(axpy_expr) if fuse else axpy_expr
    axpy(a, b, c)                                   # compile
    t = median_time(lambda: keep(axpy(a, b, c)), sync, 5)
    rows.append(("axpy ms", t * 1e3,
                 check("axpy", to_host(axpy(a, b, c)), fa * fb + fc)))

    sq = fuse(sqdiff_sum) if fuse else sqdiff_sum
    sq(a, b)
    t = median_time(lambda: sq(a, b), sync, 5)
    # a copy of a reads and writes 2N*4 bytes (PyTorch's spelling: clone)
    tc = median_time(a.clone if hasattr(a, "clone") else a.copy, sync, 5)
    want = float(((fa.astype(np.float64) - fb) ** 2).sum())
    got = float(to_host(sq(a, b)))
    share = (2 * 4 * big / t) / (2 * 4 * big / tc) * 100
    rows.append(("sqdiff ms", t * 1e3, "%s, %.0f%% of copy bandwidth"
                 % (check("sqdiff", got, want, 1e-3), share)))
    a = b = c = None                                # free 3 GiB before the small cases

    fx = inputs(SMALL, 1, 1)[0]
    x = to_dev(fx)
    def chain_xp(x):
        return chain(xp, x)
    ch = fuse(chain_xp) if fuse else chain_xp
    ch(x)
    t = median_time(lambda: ch(x), sync, 2000)
    rows.append(("chain us", t * 1e6,
                 check("chain", float(to_host(ch(x))), float(chain(np, fx)),
                       1e-3)))

    fy = inputs(SMALL, 1, 2)[0]
    y = to_dev(fy)
    to_host(x + y)
    t = median_time(lambda: to_host(x + y), sync, 500)
    rows.append(("small us", t * 1e6, check("small", to_host(x + y), fx + fy)))
    return rows


def ember_rows(device, big, fusion, fused=False):
    import ember
    with ember.Device(device):
        s = ember.Stream(non_blocking=True)
        toggle = (ember.fusion(enabled=fusion) if hasattr(ember, "fusion")
                  else contextlib.nullcontext())
        with s, toggle:
            return cases(ember, ember.asarray, ember.asnumpy, s.synchronize,
                         big, ember.fuse if fused else None,
                         keep=lambda r: (ember._ember._fusion_flush(), r)[1])


def small_abba(device, rounds=21, reps=500):
    """The small case's target is a ratio (fused within 10% of eager), and
    rows timed seconds apart drift by more than that (session 17: the same
    code 19.3 and 16.5 us in two rows). Here each round times both, back
    to back, alternating which goes first (ABBA); the answer is the median
    of the rounds' ratios and their interquartile range."""
    import ember
    with ember.Device(device):
        s = ember.Stream(non_blocking=True)
        with s:
            fx, fy = inputs(SMALL, 2, 3)
            x, y = ember.asarray(fx), ember.asarray(fy)

            def loop(on):
                with ember.fusion(enabled=on):
                    ember.asnumpy(x + y)
                    s.synchronize()
                    t0 = time.perf_counter()
                    for _ in range(reps):
                        ember.asnumpy(x + y)
                    return (time.perf_counter() - t0) / reps
            ratios, on_t, off_t = [], [], []
            for i in range(rounds):
                first = i % 4 in (0, 3)
                a = loop(first)
                b = loop(not first)
                t_on, t_off = (a, b) if first else (b, a)
                on_t.append(t_on)
                off_t.append(t_off)
                ratios.append(t_on / t_off)
            ok = check("small", ember.asnumpy(x + y), fx + fy)
    q = statistics.quantiles(ratios, n=4)
    return ("small, fused against eager (ABBA, %d rounds of %d): fused %.3f us, "
            "eager %.3f us (medians), ratio %+.1f%% (IQR %+.1f..%+.1f%%), %s"
            % (rounds, reps, statistics.median(on_t) * 1e6,
               statistics.median(off_t) * 1e6,
               (statistics.median(ratios) - 1) * 100, (q[0] - 1) * 100,
               (q[2] - 1) * 100, ok))


def cupy_rows(big, fused):
    import cupy as cp
    return cases(cp, cp.asarray, cp.asnumpy,
                 cp.cuda.get_current_stream().synchronize, big,
                 cp.fuse if fused else None)


def torch_rows(big):
    import torch

    def to_dev(h):
        return torch.from_numpy(h).to("cuda")

    def to_host(t):
        return t.cpu().numpy()
    return cases(torch, to_dev, to_host, torch.cuda.synchronize, big)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--small", action="store_true",
                    help="2^20 instead of 2^28 for the large cases")
    ap.add_argument("--out", help="also write the table to this file")
    ap.add_argument("--ember-only", action="store_true",
                    help="ember's rows alone (a short call on the GPU)")
    args = ap.parse_args()
    big = BIG >> 8 if args.small or args.device == "cpu" else BIG
    runs = []
    import ember
    if hasattr(ember, "fusion"):
        runs += [("ember fused", lambda: ember_rows(args.device, big, True)),
                 ("ember.fuse", lambda: ember_rows(args.device, big, True,
                                                   fused=True)),
                 ("ember eager", lambda: ember_rows(args.device, big, False))]
    else:
        runs += [("ember (no fusion yet)",
                  lambda: ember_rows(args.device, big, None))]
    if args.device != "cpu" and not args.ember_only:
        runs += [("CuPy", lambda: cupy_rows(big, False)),
                 ("cupy.fuse", lambda: cupy_rows(big, True)),
                 ("PyTorch", lambda: torch_rows(big))]
    lines = ["n = %d for axpy/sqdiff, %d for chain/small" % (big, SMALL),
             "", "| library | case | time | check |", "|---|---|---|---|"]
    print("\n".join(lines))
    for name, run in runs:
        try:
            rows = [(case, "%.3f" % value, ok) for case, value, ok in run()]
        except Exception as e:          # a library missing or failing: say so
            rows = [("all", "n/a", "%s: %s" % (type(e).__name__, e))]
        for row in rows:                # printed as each library finishes
            lines.append("| %s | %s | %s | %s |" % ((name,) + row))
            print(lines[-1])
    if hasattr(ember, "fusion"):
        lines += ["", small_abba(args.device)]
        print(lines[-1])
    if args.out:
        with open(args.out, "w") as fh:
            fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
