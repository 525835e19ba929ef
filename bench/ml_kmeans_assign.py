"""One k-means assignment step with its weighted sums (what a Lloyd
iteration spends its time on), the fused kernel (python/ember/ml/kernels/
kmeans_assign.cuh) against the GEMM composition it replaces, on each
device; ms, median of 5 after a warm-up. The issue's case is 10^6 x 32
float32, k=64 (the kernel's floor on an H200: ~0.1 ms; aim < 0.3 ms).

usage: python bench/ml_kmeans_assign.py [--devices cuda:0,cpu] [--scale 1]"""
import argparse

import numpy as np

import _frames_mod  # noqa: E402  (first: it takes bench/ off sys.path)

import ember
from ember.ml.cluster import _kmeans_fused as F
from ember.ml.cluster import _kmeans_steps as S

timed = _frames_mod.load().timed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--devices", default="cuda:0,cpu")
    ap.add_argument("--scale", type=float, default=1.0)
    a = ap.parse_args()
    n, d, k = int(1e6 * a.scale), 32, 64
    X = np.random.default_rng(0).standard_normal((n, d)).astype(np.float32)
    for dev in a.devices.split(","):
        Xe = ember.asarray(X, device=dev)
        C = Xe[:k].copy()
        sync = ember.Device(dev).synchronize
        res = {}
        for path, on in (("fused", {"cuda", "cpu"}), ("composition", set())):
            F.DEVICES = on
            labels = S.assign(Xe, C, update=True)[0]
            res[path] = (timed(lambda: S.assign(Xe, C, update=True), 5, sync),
                         ember.asnumpy(labels))
        same = (res["fused"][1] == res["composition"][1]).mean()
        print(f"{dev}: {n} x {d} float32, k={k}: fused {res['fused'][0]:.3f} ms, "
              f"composition {res['composition'][0]:.3f} ms; labels equal {same:.6f}")


if __name__ == "__main__":
    main()
