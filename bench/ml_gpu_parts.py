"""Where the time of bench/ml.py's KMeans and kNN rows goes on a GPU: the
whole call and each launch of it, ms (medians of --repeat after a
warm-up, each timed to a device synchronize), with the earlier paths
beside them (KMeans: the GEMM composition; kNN: the block-a-row top-k)
and a check that both give the same answer.

usage: python bench/ml_gpu_parts.py [--device cuda:0] [--repeat 5] [--scale 1]"""
import argparse
import time

import numpy as np

import _frames_mod  # noqa: E402  (first: its load() takes bench/ off sys.path)

_frames_mod.load()

import ember  # noqa: E402
from ember.ml.cluster import KMeans  # noqa: E402
from ember.ml.cluster import _lloyd as L  # noqa: E402
from ember.ml.neighbors import NearestNeighbors  # noqa: E402
from ember.ml.neighbors import _search  # noqa: E402
from ember.ml.neighbors import _split  # noqa: E402


def timer(dev, repeat):
    sync = ember.Device(dev).synchronize

    def t(fn):
        fn()
        sync()
        ts = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            sync()
            ts.append((time.perf_counter() - t0) * 1e3)
        return float(np.median(ts))
    return t


def blobs(n, d, k, seed):
    rng = np.random.default_rng(seed)
    c = rng.uniform(-10, 10, (k, d))
    return (c[rng.integers(0, k, n)] + rng.standard_normal((n, d))).astype(np.float32)


def kmeans(dev, t, scale):
    n = int(10 ** 6 * scale)
    X = ember.asarray(blobs(n, 32, 64, 0), device=dev)
    init = ember.asnumpy(X[:64])

    def fit():
        return KMeans(64, init=init, n_init=1, max_iter=20, tol=0).fit(X)
    res = {"fit (kernels)": t(fit)}
    inert = fit().inertia_
    Xc = X - X.mean(axis=0)[None, :]
    C = Xc[:64].copy()
    lp = L.Lloyd(Xc, None, 64)
    res["labels kernel"] = t(lambda: lp._label_pass(C, 1, False))
    res["labels + sums kernels"] = t(lambda: lp._label_pass(C, 1, True))
    Cn = ember.empty_like(C)
    res["finish kernel"] = t(lambda: lp._finish(C, Cn, 1))
    res["one iteration (step, with its host read)"] = t(lambda: lp.step(C, True))
    saved = L.DEVICES
    L.DEVICES = set()
    try:
        res["fit (composition)"] = t(fit)
        inert0 = fit().inertia_
    finally:
        L.DEVICES = saved
    for k, v in res.items():
        print(f"KMeans {n} x 32, k=64: {k}: {v:.3f} ms", flush=True)
    print(f"KMeans inertia kernels {inert:.6g}, composition {inert0:.6g}", flush=True)


def knn(dev, t, scale):
    T = ember.asarray(blobs(int(10 ** 5 * scale), 64, 16, 2), device=dev)
    Q = ember.asarray(blobs(int(20000 * scale), 64, 16, 1), device=dev)

    def run():
        return NearestNeighbors(n_neighbors=10).fit(T).kneighbors(Q)
    res = {"fit + kneighbors": t(run)}
    d_split, i_split = (ember.asnumpy(a) for a in run())
    saved = _search.STREAM_DEVICES
    _search.STREAM_DEVICES = set()
    try:
        res["fit + kneighbors, one stream"] = t(run)
    finally:
        _search.STREAM_DEVICES = saved
    saved = _split.SPLIT_DEVICES
    _split.SPLIT_DEVICES = set()
    try:
        res["fit + kneighbors, float32 GEMM (no 3xTF32 split)"] = t(run)
        d_f32, i_f32 = (ember.asnumpy(a) for a in run())
    finally:
        _split.SPLIT_DEVICES = saved
    b = max(1, _search.GPU_BLOCK // T.shape[0])
    Qb = Q[:b]
    G = Qb @ (T.T * -2.0)
    yy = (T * T).sum(axis=1)
    res[f"GEMM of one block ({b} queries)"] = t(lambda: Qb @ (T.T * -2.0))
    A3, B3 = _split.with_norms(_split.left(Qb), _split.right(T * -2.0), yy)
    B3T = B3.T
    res["3xTF32 split GEMM of one block"] = t(lambda: _split.split_scores(A3, B3T))
    res["top-k warp kernel, one block"] = t(lambda: _search.top_k_warp(G, 10, yy))
    res["top-k warp kernel, one block, norms in the GEMM (one load a score)"] = t(
        lambda: _search.top_k_warp(G, 10))
    res["top-k block-a-row kernel, one block"] = t(lambda: _search.top_k_kernel(G, 10, yy))
    a = ember.asnumpy(_search.top_k_warp(G, 10, yy)[1])
    c = ember.asnumpy(_search.top_k_kernel(G, 10, yy)[1])
    for k, v in res.items():
        print(f"kNN {Q.shape[0]} over {T.shape[0]} x 64, k=10: {k}: {v:.3f} ms", flush=True)
    print(f"kNN one block: warp and block-a-row indices equal {np.mean(a == c):.6f}",
          flush=True)
    print(f"kNN 3xTF32 split against float32 GEMM: indices equal "
          f"{np.mean(i_split == i_f32):.6f}, largest distance difference "
          f"{np.max(np.abs(d_split - d_f32)):.3g} (distances up to {d_f32.max():.3g})",
          flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--only", default="knn,kmeans")
    a = ap.parse_args()
    t = timer(a.device, a.repeat)
    if "knn" in a.only:
        knn(a.device, t, a.scale)
    if "kmeans" in a.only:
        kmeans(a.device, t, a.scale)


if __name__ == "__main__":
    main()
