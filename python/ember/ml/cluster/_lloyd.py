"""Lloyd's iterations of KMeans in a few launches an iteration and one host
read of three figures, on both devices, with every buffer made once a fit.

An iteration is
- on a GPU: kernels/kmeans_labels.cuh (distances and argmin from a shared-
  memory tile of rows, X read once) then kernels/kmeans_sums.cuh (per-
  cluster weighted sums, warp-private accumulators, X read once more);
- on cpu: for each chunk of rows that keeps its k scores in cache, one BLAS
  GEMM (the chunk times -2 C^T) and kernels/kmeans_host.cuh (argmin, label,
  moved count and sums into per-block partials), as scikit-learn's Lloyd
  loop works chunk by chunk;
- then kernels/kmeans_finish.cuh (one block): the partials added in a
  fixed order, the new centers, the squared center shift, the empty
  clusters and the moved labels, read by the host together.
Float sums are added in the same order every run (no float atomics), so a
fit is bit-equal to itself. Where the GPU kernels' shared memory does not
hold the centers (applies()), _kmeans_steps keeps its GEMM composition."""
import pathlib

import numpy

import ember
from ember.ml._launch import launch

_DIR = pathlib.Path(__file__).parent.parent / "kernels"
_CTYPE = {"float32": "float", "float64": "double"}
# kmeans_labels.cuh: threads a block and rows a thread (a tile of 256 rows)
_THREADS, _R = 128, 2
# its centers, padded to a multiple of 16, and the bound on the tile's
# features, so shared memory stays under ~150 KiB (a GPU allows 227)
KD_MAX = {"float32": 8192, "float64": 4096}
D_MAX = {"float32": 128, "float64": 64}
# kmeans_sums.cuh: blocks (fixed, so the order of the sums does not depend
# on the GPU), warps a block at most, rows read ahead, shared memory budget
_SUM_BLOCKS, _SUM_WARPS, _SUM_U, _SUM_SMEM = 256, 8, 4, 96 * 1024
# kmeans_labels.cuh's grid at most (its blocks stride over the tiles, so
# each loads the centers once for several tiles)
_LABEL_BLOCKS = 2048
_FINISH_THREADS = 256
# kmeans_finish.cuh's em_kmeans_reduce: threads adding the partials of one
# slot (a block is 32 slots x _GS)
_GS = 8
# cpu: scores a chunk (2^22 values, 16 MiB of float32: fewer, larger GEMM
# calls measured faster on the 2-core dev host than chunks that stay in L2,
# as OpenBLAS's threads and ember's pool trade the cores at each switch),
# and blocks a pass (the count of partial sums): set by the shape, never by
# the thread count, so the sums' order is the same on every host. 64 where
# the partials stay small: the pool hands blocks out as threads come free,
# so on a 16-core host a slow thread holds a pass up by a quarter of its
# share rather than all of it; down to 16 for a large k x d, whose
# partials the finish kernel adds on one thread
CPU_CHUNK = 1 << 22
_CPU_BLOCKS, _CPU_BLOCKS_MAX, _CPU_PART_VALUES = 16, 64, 1 << 20


def cpu_blocks(k1):
    """blocks of a cpu pass whose partials are k1 values each"""
    return max(_CPU_BLOCKS, min(_CPU_BLOCKS_MAX, _CPU_PART_VALUES // max(k1, 1)))


# cpu: centers (padded) up to which kmeans_host.cuh's em_kmeans_host_fused
# scores the rows itself (no BLAS: its threads and ember's pool traded the
# cores of the 2-core host at each call); past it, BLAS chunks
HOST_FUSED_KP = 1024
_modules = {}

# devices the kernels are used on; tests take them out to check the
# composition against them
DEVICES = {"cpu", "cuda"}


def applies(X, C):
    name = X.dtype.name
    if X.device.type not in DEVICES or name not in _CTYPE or X.ndim != 2:
        return False
    if X.device.type == "cpu":
        return True
    kp = -(-C.shape[0] // 16) * 16
    return kp * X.shape[1] <= KD_MAX[name] and X.shape[1] <= D_MAX[name]


def _fn(dev, file, name, exprs):
    key = (str(dev), file)
    mod = _modules.get(key)
    if mod is None:
        with dev:
            mod = ember.RawModule(code=(_DIR / file).read_text(), name_expressions=exprs)
        _modules[key] = mod
    return mod.get_function(name)


def _names(fmt):
    return [fmt.format(c=c) for c in _CTYPE.values()]


_LABELS = "em_kmeans_labels<{c}, %d, %d>" % (_THREADS, _R)
_SUMS = "em_kmeans_sums<{c}, %d>" % _SUM_U
_HOST = "em_kmeans_host_chunk<{c}>"
_HOST_FUSED = "em_kmeans_host_fused<{c}>"
_HOST_INERTIA = "em_kmeans_host_inertia<{c}>"
_FINISH = "em_kmeans_finish<{c}, {t}>"
_REDUCE = "em_kmeans_reduce<{c}, %d>" % _GS
_FIGS = "em_kmeans_figs<{c}, %d>" % _FINISH_THREADS
_HOST_NAMES = _names(_HOST) + _names(_HOST_FUSED) + _names(_HOST_INERTIA)
_FINISH_NAMES = [f.format(c=c, t=1) for c in _CTYPE.values()
                 for f in (_FINISH, _REDUCE, _FIGS)]


def labels_smem(d, k, itemsize):
    kp = -(-k // 16) * 16
    return itemsize * (kp * d + kp + d * (_THREADS * _R + 1)), kp


def inertia_host(X, C, labels, w):
    """sum_i w_i ||x_i - c_{labels_i}||^2 (w None: unit weights) as a 0-d
    float64 array, by kmeans_host.cuh's em_kmeans_host_inertia on cpu;
    None where it does not apply (another device or dtype)."""
    dev = X.device
    if dev.type != "cpu" or "cpu" not in DEVICES or X.dtype.name not in _CTYPE \
            or X.ndim != 2:
        return None
    X = ember.ascontiguousarray(X)
    C = ember.ascontiguousarray(C.astype(X.dtype))
    labels = ember.ascontiguousarray(labels.astype(ember.int64))
    n, d = X.shape
    hw = w is not None
    w = ember.ascontiguousarray(w.astype(X.dtype)) if hw else X
    rpb = max(1, -(-n // _CPU_BLOCKS_MAX))
    grid = max(1, -(-n // rpb))
    out = ember.empty(grid, dtype=ember.float64, device=dev)
    f = _fn(dev, "kmeans_host.cuh", _HOST_INERTIA.format(c=_CTYPE[X.dtype.name]),
            _HOST_NAMES)
    launch(dev, f, (grid,), (1,), (X, C, labels, w, numpy.int32(hw), numpy.int64(n),
                                   numpy.int32(d), numpy.int64(rpb), out))
    # the blocks' sums added in order: the same inertia every run
    return out.sum()


class Lloyd:
    """The buffers and launches of one fit's iterations on X (n x d,
    C-ordered float32/float64) with weights w (None: unit weights). gpu:
    the GPU's kernels (default: on a GPU; tests run them on cpu too, in the
    block simulator, whose shared memory is 48 KiB)."""

    def __init__(self, X, w, k, gpu=None):
        self.X = ember.ascontiguousarray(X)
        self.dev = X.device
        self.n, self.d = X.shape
        self.k = k
        self.w = None if w is None else ember.ascontiguousarray(w.astype(X.dtype))
        self.c = _CTYPE[X.dtype.name]
        dev, dt = self.dev, X.dtype
        self.gpu = dev.type != "cpu" if gpu is None else gpu
        self.labels = ember.empty(self.n, dtype=ember.int64, device=dev)
        self.old = ember.empty(self.n, dtype=ember.int64, device=dev)
        self.changed = ember.zeros(1, dtype=ember.uint64, device=dev)
        self.figs = ember.empty(3, dtype=ember.float64, device=dev)
        k1 = k * (self.d + 1)
        self.tot = ember.empty(k1, dtype=dt, device=dev)
        if not self.gpu:
            self.G = cpu_blocks(k1)
            self.chunk = max(1, CPU_CHUNK // k)
            self.cc = ember.empty(k, dtype=dt, device=dev)
        else:
            self.G = max(1, min(_SUM_BLOCKS, -(-self.n // 256)))
            budget = _SUM_SMEM if dev.type != "cpu" else 48 * 1024
            warps = max(1, min(_SUM_WARPS, budget // (k1 * dt.itemsize)))
            self.sum_threads = 32 * warps
            self.sum_smem = warps * k1 * dt.itemsize
            self.nb = -(-k * self.d // 32)
            self.shp = ember.empty(self.nb, dtype=dt, device=dev)
        self.part = ember.empty((self.G, k1), dtype=dt, device=dev)

    def _label_pass(self, C, has_old, sums):
        """labels of every row against C into self.labels (moved ones
        counted against self.old) and, with sums, the partials."""
        dev, X, n, d, k = self.dev, self.X, self.n, self.d, self.k
        hw = self.w is not None
        w = self.w if hw else X
        i32, i64 = numpy.int32, numpy.int64
        if not self.gpu:
            if sums:
                self.part.fill(0)
            lanes = 4 * (32 // X.dtype.itemsize)
            kp = -(-k // lanes) * lanes
            if kp <= HOST_FUSED_KP:
                CT = ember.zeros((d, kp), dtype=X.dtype, device=dev)
                CT[:, :k] = C.T
                cn = ember.full(kp, float("inf"), dtype=X.dtype, device=dev)
                cn[:k] = (C * C).sum(axis=1)
                f = _fn(dev, "kmeans_host.cuh", _HOST_FUSED.format(c=self.c),
                        _HOST_NAMES)
                rpb = -(-n // self.G)
                launch(dev, f, (-(-n // rpb),), (1,),
                       (X, CT, cn, w, i32(hw), i64(n), i32(d), i32(k), i32(kp), i64(rpb),
                        self.labels, self.old, i32(has_old), self.changed, i32(sums),
                        self.part))
                return
            cc = (C * C).sum(axis=1)
            Ct2 = ember.ascontiguousarray(C.T * -2.0)
            f = _fn(dev, "kmeans_host.cuh", _HOST.format(c=self.c),
                    _HOST_NAMES)
            for s in range(0, n, self.chunk):
                e = min(n, s + self.chunk)
                b = e - s
                D = X[s:e] @ Ct2
                rpb = -(-b // self.G)
                launch(dev, f, (-(-b // rpb),), (1,),
                       (D, cc, X[s:e], w[s:e], i32(hw), i64(b), i32(d), i32(k),
                        i64(rpb), self.labels[s:e], self.old[s:e], i32(has_old),
                        self.changed, i32(sums), self.part))
            return
        smem, kp = labels_smem(d, k, X.dtype.itemsize)
        f = _fn(dev, "kmeans_labels.cuh", _LABELS.format(c=self.c), _names(_LABELS))
        tile = _THREADS * _R
        launch(dev, f, (max(1, min(-(-n // tile), _LABEL_BLOCKS)),), (_THREADS,),
               (X, C, i64(n), i32(d), i32(k), i32(kp), self.labels, self.old,
                i32(has_old), self.changed), shared_mem=smem)
        if sums:
            g = _fn(dev, "kmeans_sums.cuh", _SUMS.format(c=self.c), _names(_SUMS))
            launch(dev, g, (self.G,), (self.sum_threads,),
                   (X, self.labels, w, i32(hw), i64(n), i32(d), i32(k),
                    i64(-(-n // self.G)), self.part), shared_mem=self.sum_smem)

    def _finish(self, C, Cn, has_old):
        dev, i32 = self.dev, numpy.int32
        get = lambda name: _fn(dev, "kmeans_finish.cuh",  # noqa: E731
                               name.format(c=self.c, t=1), _FINISH_NAMES)
        if not self.gpu:
            launch(dev, get(_FINISH), (1,), (1,),
                   (self.part, i32(self.G), C, i32(self.k), i32(self.d), Cn,
                    self.tot, self.figs, self.changed, i32(has_old)))
            return
        launch(dev, get(_REDUCE), (self.nb,), (32 * _GS,),
               (self.part, i32(self.G), C, i32(self.k), i32(self.d), Cn,
                self.tot, self.shp))
        launch(dev, get(_FIGS), (1,), (_FINISH_THREADS,),
               (self.shp, i32(self.nb), self.tot, i32(self.k), i32(self.d),
                self.figs, self.changed, i32(has_old)))

    def step(self, C, has_old):
        """One iteration from centers C: (new centers, n_empty, shift,
        moved, sums k x d, weights k); self.labels holds the labels (the
        caller swaps labels and old before the next step)."""
        self._label_pass(C, has_old, True)
        Cn = ember.empty_like(C)
        self._finish(C, Cn, has_old)
        figs = ember.asnumpy(self.figs)
        return Cn, int(figs[0]), float(figs[1]), float(figs[2])

    def sums(self):
        """(sums k x d, weights k) of the last step, copies."""
        t = self.tot.reshape(self.k, self.d + 1)
        return ember.ascontiguousarray(t[:, :self.d]), ember.ascontiguousarray(t[:, self.d])

    def labels_only(self, C):
        self._label_pass(C, 0, False)
        return self.labels

    def swap(self):
        self.labels, self.old = self.old, self.labels
