"""The k-means assignment step as one kernel a call
(python/ember/ml/kernels/kmeans_assign.cuh, NVRTC on cuda, the host
compiler on cpu): labels, each row's squared distance to its center, and
the weighted per-cluster sums and weights, X read once. It holds the
centers in shared memory, so it applies while k * d fits there (KD_MAX
values); _kmeans_steps.assign keeps the GEMM composition past that."""
import pathlib

import numpy

import ember

_KERNEL = pathlib.Path(__file__).parent.parent / "kernels" / "kmeans_assign.cuh"
_CTYPE = {"float32": "float", "float64": "double"}
# shared memory: 16 KiB of centers, 16 KiB of the block's partial sums and
# 2 KiB each of the centers' norms and the weights (so k is at most
# KD_MAX / 8), 36 KiB in all, under every GPU's static 48 KiB
KD_MAX = {"float32": 4096, "float64": 2048}
_THREADS = 128
_JB = 16  # EM_KM_JB: k is padded to a multiple of it in shared memory
# blocks of the grid: the partial sums are blocks x (k*d + k) values, so the
# grid is capped; 1024 blocks of 128 fill an H200's 132 SMs many times over
_GRID_GPU = 1024
_GRID_CPU = 64
_modules = {}


# Devices the kernel is used on: none yet, as it lost to the composition
# (GEMMs) on both. On the H200 (bench/ml_kmeans_assign.py, 10^6 x 32
# float32, k=64, one assignment with sums): 1.579 ms against 1.247 ms, and
# the 20-iteration fit 36.0 ms against 30.6 with the GEMMs. On cpu (the
# 2-core dev machine, 100,000 x 32, k=64): 24-26 ms against 20-21 ms
# (medians of 5, -O2, 256 rows a tile; a tile of one row was 29-32 ms, -O3
# 51 ms). Its rows are read with a stride and a few threads do the sums
# (docs/ml.md); tests add the devices to check it on both.
DEVICES = set()


def applies(X, C):
    if X.device.type not in DEVICES:
        return False
    name = X.dtype.name
    kp = -(-C.shape[0] // _JB) * _JB
    return (name in KD_MAX and kp * X.shape[1] <= KD_MAX[name]
            and C.shape[0] <= KD_MAX[name] // 8)


def _shape(dev):
    # (threads, rows a thread) of a tile: one thread a block on cpu, as
    # kernels/topk_rows.cuh (fibers cost more than they share there), with
    # 256 rows a tile so the tile's synchronizations are few
    return (_THREADS, 1) if dev.type != "cpu" else (1, 256)


def _names():
    return [f"em_kmeans_assign<{c}, {t}, {r}, {KD_MAX[n]}>"
            for n, c in _CTYPE.items() for t, r in ((1, 256), (_THREADS, 1))]


def assign_fused(X, C, w=None):
    """(labels int64, min squared distances, sums k x d, weights k) of one
    pass; w=None is unit weights. X C-ordered float32/float64 with
    applies(X, C)."""
    dev = X.device
    mod = _modules.get(str(dev))
    if mod is None:
        with dev:
            mod = ember.RawModule(code=_KERNEL.read_text(), name_expressions=_names(),)
        _modules[str(dev)] = mod
    n, d = X.shape
    k = C.shape[0]
    X = ember.ascontiguousarray(X)
    C = ember.ascontiguousarray(C.astype(X.dtype))
    has_w = w is not None
    w = ember.ascontiguousarray(w.astype(X.dtype)) if has_w else X
    t, rows = _shape(dev)
    grid = max(1, min(-(-n // (t * rows)), _GRID_CPU if dev.type == "cpu" else _GRID_GPU))
    labels = ember.empty(n, dtype=ember.int64, device=dev)
    mind = ember.empty(n, dtype=X.dtype, device=dev)
    part = ember.empty((grid, k * d + k), dtype=X.dtype, device=dev)
    f = mod.get_function(f"em_kmeans_assign<{_CTYPE[X.dtype.name]}, {t}, {rows}, "
                         f"{KD_MAX[X.dtype.name]}>")
    with dev:
        f((grid,), (t,), (X, C, w, numpy.int32(has_w), numpy.int64(n),
                          numpy.int32(d), numpy.int32(k), labels, mind, part))
    # a reduction over the blocks in a fixed order: the same sums each run
    tot = part.sum(axis=0)
    return labels, mind, tot[:k * d].reshape(k, d), tot[k * d:]
