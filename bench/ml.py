"""ember.ml (issue 23) against scikit-learn on the issue's work, in ms per
fit (or per kneighbors call), with the quality each reached beside it so a
fast wrong answer shows.

usage: python bench/ml.py [--out FILE] [--only SUBSTRING] [--scale 1]
                          [--devices cuda:0,cpu] [--sklearn-max-s 120]
       python bench/ml.py --devices cpu --scale 0.01     (a check)

ember is timed on each of --devices (wall clock around the call and a
device synchronize, median of 3 after one warm-up; on cpu one call after
the warm-up); scikit-learn once on all the host's cores (its calls take
seconds). --scale multiplies every row count. The data is float32 (float64
for the linear models, as the issue's peers ran them), made once by NumPy
and copied to each device before timing."""
import argparse
import time

import numpy as np

import _frames_mod  # noqa: E402  (first: it takes bench/ off sys.path)

_F = _frames_mod.load()
cell, emit, fmt, ratio, timed = _F.cell, _F.emit, _F.fmt, _F.ratio, _F.timed


def blobs(n, d, k, seed, dtype=np.float32):
    rng = np.random.default_rng(seed)
    centers = rng.uniform(-10, 10, (k, d))
    lab = rng.integers(0, k, n)
    return (centers[lab] + rng.standard_normal((n, d))).astype(dtype), lab


def cases(scale):
    s = lambda n: max(int(n * scale), 64)  # noqa: E731
    X, _ = blobs(s(10 ** 6), 32, 64, 0)
    Q, _ = blobs(s(20000), 64, 16, 1)
    T, _ = blobs(s(10 ** 5), 64, 16, 2)
    P = np.random.default_rng(3).standard_normal((s(10 ** 6), 128)).astype(np.float32)
    rng = np.random.default_rng(4)
    L = rng.standard_normal((s(10 ** 6), 64))
    w = rng.standard_normal(64)
    yr = L @ w + 0.1 * rng.standard_normal(len(L))
    yc = (yr > 0).astype(np.int64)
    F, fy = blobs(s(10 ** 6), 32, 2, 5)
    D, _ = blobs(s(10 ** 6), 3, 20, 6)
    init = X[:64].copy()

    def km(mod, dev):
        return lambda a: mod.KMeans(64, init=init, n_init=1, max_iter=20, tol=0,
                                    algorithm="lloyd").fit(a)

    def knn(mod, dev):
        def go(a):
            t, q = a
            return mod.NearestNeighbors(n_neighbors=10).fit(t).kneighbors(q)
        return go

    def pca(mod, dev):
        return lambda a: mod.PCA(16, svd_solver="full").fit(a)

    def logreg(mod, dev):
        return lambda a: mod.LogisticRegression(max_iter=100, tol=0).fit(*a)

    def linreg(mod, dev):
        return lambda a: mod.LinearRegression().fit(*a)

    def forest(mod, dev):
        return lambda a: mod.RandomForestClassifier(100, max_depth=10,
                                                    random_state=0).fit(*a)

    def dbscan(mod, dev):
        return lambda a: mod.DBSCAN(eps=0.3, min_samples=10).fit(a)

    return [
        (f"KMeans {len(X):.0e} x 32 float32, k=64, 20 iterations", "cluster", km, X,
         lambda m, a: f"inertia {float(m.inertia_):.4g}"),
        (f"kNN {len(Q)} queries over {len(T):.0e} x 64, k=10", "neighbors", knn, (T, Q),
         lambda r, a: f"sum of distances {float(np.asarray(r[0]).sum()):.6g}"),
        (f"PCA {len(P):.0e} x 128 -> 16 (full)", "decomposition", pca, P,
         lambda m, a: f"explained {float(np.asarray(m.explained_variance_ratio_).sum()):.5f}"),
        (f"LogisticRegression {len(L):.0e} x 64, L-BFGS, 100 iterations",
         "linear_model", logreg, (L, yc),
         lambda m, a: f"coef norm {float(np.linalg.norm(np.asarray(m.coef_))):.5g}"),
        (f"LinearRegression {len(L):.0e} x 64", "linear_model", linreg, (L, yr),
         lambda m, a: f"coef err {float(np.abs(np.asarray(m.coef_) - w).max()):.2e}"),
        (f"RandomForestClassifier {len(F):.0e} x 32, 100 trees, depth 10", "ensemble",
         forest, (F, fy), lambda m, a: "fitted"),
        (f"DBSCAN {len(D):.0e} points in 3-D, eps 0.3", "cluster", dbscan, D,
         lambda m, a: f"{int(np.asarray(m.labels_).max()) + 1} clusters"),
    ]


def to_device(ember, a, d):
    if isinstance(a, tuple):
        return tuple(to_device(ember, x, d) for x in a)
    return ember.asarray(a, device=d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--only")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--devices", default="cuda:0,cpu")
    ap.add_argument("--sklearn-max-s", type=float, default=120,
                    help="skip scikit-learn on the rows after one took longer")
    args = ap.parse_args()
    import importlib

    import ember
    import ember.ml
    devices = [d for d in args.devices.split(",") if d]
    head = ["work"] + [f"ember {d}" for d in devices] + ["scikit-learn",
                                                         f"ember {devices[0]} / sklearn",
                                                         "quality (ember / sklearn)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    slow = False
    for name, sub, make, data, quality in cases(args.scale):
        if args.only and not any(o in name for o in args.only.split(",")):
            continue
        print(name, flush=True)
        qual = []
        es = []
        for d in devices:
            def run(d=d):
                mod = importlib.import_module("ember.ml." + sub)
                a = to_device(ember, data, d)
                fn = make(mod, d)
                sync = ember.Device(d).synchronize
                t = timed(lambda: fn(a), 1 if d == "cpu" else 3, sync)
                qual.append(quality(fn(a), a))
                return t
            es.append(cell(run))
        if slow:
            sk = "skipped (an earlier row took too long)"
        else:
            def skrun():
                mod = importlib.import_module("sklearn." + sub)
                fn = make(mod, "sklearn")
                t0 = time.perf_counter()
                r = fn(data)
                qual.append(quality(r, data))
                return (time.perf_counter() - t0) * 1e3
            sk = cell(skrun)
            slow = isinstance(sk, float) and sk > args.sklearn_max_s * 1e3
        row = [name] + [fmt(e) for e in es] + [fmt(sk), ratio(es[0], sk),
                                              " / ".join(qual)]
        emit(lines, row, args.out)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
