"""ember.ml on cpu against scikit-learn on the same host, the estimators
issue 23 wants not slower there: KMeans, kNN, PCA, LinearRegression and
LogisticRegression. The two run interleaved (ember, scikit-learn, ember,
...) so load from other work hits both alike; ms a fit (or kneighbors
call), the minimum and median of --repeat after one warm-up each.

usage: python bench/ml_cpu.py [--repeat 5] [--scale 1] [--only KMeans,kNN]
Sizes at --scale 1: KMeans 10^5 x 32 float32, k=64, 20 iterations (init
given, tol=0); kNN 2,000 queries over 2 x 10^4 x 64, k=10; PCA 10^5 x 128
-> 16 (covariance_eigh); LinearRegression and LogisticRegression (100
iterations) 10^5 x 64 float64."""
import argparse
import importlib
import time

import numpy as np

import _frames_mod  # noqa: E402  (first: its load() takes bench/ off sys.path)

_frames_mod.load()

import ember  # noqa: E402


def cases(scale):
    s = lambda n: max(int(n * scale), 200)  # noqa: E731
    rng = np.random.default_rng(0)
    cen = rng.uniform(-10, 10, (64, 32))
    X = (cen[rng.integers(0, 64, s(10 ** 5))] + rng.standard_normal((s(10 ** 5), 32)))
    X = X.astype(np.float32)
    init = X[:64].copy()
    T = rng.standard_normal((s(2 * 10 ** 4), 64)).astype(np.float32)
    Q = rng.standard_normal((s(2000), 64)).astype(np.float32)
    P = rng.standard_normal((s(10 ** 5), 128)).astype(np.float32)
    L = rng.standard_normal((s(10 ** 5), 64))
    yr = L @ rng.standard_normal(64) + 0.1 * rng.standard_normal(len(L))
    yc = (yr > 0).astype(np.int64)
    return [
        ("KMeans", "cluster", lambda m: lambda a: m.KMeans(
            64, init=init, n_init=1, max_iter=20, tol=0).fit(a), (X,),
         lambda r: f"inertia {float(r.inertia_):.6g}"),
        ("kNN", "neighbors", lambda m: lambda t, q: m.NearestNeighbors(
            n_neighbors=10).fit(t).kneighbors(q), (T, Q),
         lambda r: f"sum {float(np.asarray(r[0]).sum()):.6g}"),
        ("PCA", "decomposition", lambda m: lambda a: m.PCA(
            16, svd_solver="covariance_eigh").fit(a), (P,),
         lambda r: f"explained {float(np.sum(np.asarray(r.explained_variance_ratio_))):.5f}"),
        ("LinearRegression", "linear_model", lambda m: lambda a, y: m.LinearRegression()
         .fit(a, y), (L, yr), lambda r: f"coef sum {float(np.sum(np.asarray(r.coef_))):.6g}"),
        ("LogisticRegression", "linear_model", lambda m: lambda a, y: m.LogisticRegression(
            max_iter=100).fit(a, y), (L, yc),
         lambda r: f"coef sum {float(np.sum(np.asarray(r.coef_))):.5g}"),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--only")
    a = ap.parse_args()
    print("| work | ember cpu min / median | scikit-learn min / median | ratio of minima "
          "| ember / sklearn result |")
    print("|---|---|---|---|---|")
    for name, sub, make, data, quality in cases(a.scale):
        if a.only and name not in a.only.split(","):
            continue
        em = make(importlib.import_module("ember.ml." + sub))
        sk = make(importlib.import_module("sklearn." + sub))
        ed = tuple(ember.asarray(x, device="cpu") if x.dtype.kind == "f" else x
                   for x in data)
        q = [quality(em(*ed)), quality(sk(*data))]       # warm-ups
        te, ts = [], []
        for _ in range(a.repeat):
            for fn, args, out in ((em, ed, te), (sk, data, ts)):
                t0 = time.perf_counter()
                fn(*args)
                out.append((time.perf_counter() - t0) * 1e3)
        print(f"| {name} | {min(te):.1f} / {np.median(te):.1f} | {min(ts):.1f} / "
              f"{np.median(ts):.1f} | {min(te) / min(ts):.2f} | {q[0]} / {q[1]} |",
              flush=True)


if __name__ == "__main__":
    main()
