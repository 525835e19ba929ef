"""The merges of hierarchical clustering and the walks of its tree, on the
device of the data, for ember.scipy.cluster.hierarchy and ember.ml's
AgglomerativeClustering: python/ember/ml/kernels/linkage.cuh (one launch
of one block for all n - 1 merges: the nearest-neighbour chain over the
n x n dissimilarity matrix of linkage_dist.cuh, or Prim's tree for single
linkage, over that matrix or measured from the observations as it
grows), a stable sort
of the merges by distance (ember.argsort), and one-thread kernels that
number the clusters (linkage.cuh's em_linkage_label) and walk the tree
(linkage_tree.cuh). Everything is float64, as SciPy and scikit-learn
compute, so the merges are theirs wherever distances do not tie."""
import pathlib

import numpy

import ember
from ember.ml._launch import launch

_DIR = pathlib.Path(__file__).resolve().parent.parent.parent / "ml" / "kernels"
METHODS = {"single": 0, "complete": 1, "average": 2, "weighted": 3, "ward": 4}
# threads of the one block: a GPU's largest block reads a row in n/1024
# steps; on cpu one thread (the simulator runs a block's threads as fibers
# of one core, so more would only add switches at the barriers). Tests set
# cpu higher to run the block's reductions there.
THREADS = {"cpu": 1, "cuda": 1024}
# kernels/linkage_dist.cuh's metrics, under SciPy's names
DIST_METRICS = {"euclidean": 0, "sqeuclidean": 1, "cityblock": 2, "chebyshev": 3,
                "cosine": 4}
_DIST_THREADS = 256
_TREE_NAMES = ["em_linkage_leaves", "em_linkage_maxdist", "em_linkage_fcluster",
               "em_linkage_parents", "em_linkage_inconsistent"]
_ROW_THREADS = 256
_modules = {}


def _threads(dev):
    return THREADS.get(dev.type, THREADS["cuda"])


def _names(t):
    return ([f"em_linkage_chain<{m}, {t}>" for m in range(1, 5)]
            + [f"em_linkage_prim<{t}>", "em_linkage_label"]
            + [f"em_linkage_prim_x<{m}, {t}>" for m in DIST_METRICS.values()])



def _fn(dev, file, name, exprs):
    key = (str(dev), file, tuple(exprs))
    mod = _modules.get(key)
    if mod is None:
        # linkage.cuh measures single linkage's pairs with linkage_dist.cuh's
        # em_ld_pair, so both give the same bits
        files = ("linkage_dist.cuh", file) if file == "linkage.cuh" else (file,)
        code = "\n".join((_DIR / f).read_text() for f in files)
        # SciPy rounds every product and sum on its own: no contraction
        # into fused multiply-adds (the host compiler drops the option;
        # ember's host build never contracts)
        with dev:
            mod = ember.RawModule(code=code, options=("--fmad=false",),
                                  name_expressions=exprs)
        _modules[key] = mod
    return mod.get_function(name)


def symmetric(D):
    """A fresh n x n float64 matrix from D's upper triangle (mirrored, zero
    diagonal): SciPy reads only the pairs i < j, and the merge kernel
    needs both triangles equal bit for bit (a GEMM-made matrix is not)."""
    n = D.shape[0]
    dev = D.device
    r = ember.arange(n, device=dev).reshape(-1, 1)
    c = ember.arange(n, device=dev).reshape(1, -1)
    D = D.astype(ember.float64, copy=False)
    return ember.ascontiguousarray(ember.where(r < c, D, ember.where(r > c, D.T, 0.0)))


def distances(X, metric):
    """The n x n float64 matrix of metric (a DIST_METRICS name) between the
    rows of X, symmetric bit for bit, by kernels/linkage_dist.cuh."""
    dev = X.device
    X = ember.ascontiguousarray(X.astype(ember.float64, copy=False))
    n, d = X.shape
    D = ember.empty((n, n), dtype=ember.float64, device=dev)
    names = [f"em_linkage_dist<{m}>" for m in DIST_METRICS.values()]
    f = _fn(dev, "linkage_dist.cuh", f"em_linkage_dist<{DIST_METRICS[metric]}>", names)
    launch(dev, f, (n,), (_DIST_THREADS,), (X, numpy.int64(n), numpy.int32(d), D))
    return D


def merges(D, method):
    """The n - 1 merges on D (n x n float64, C-contiguous, overwritten), in
    the order made: (zx, zy, zd)."""
    dev = D.device
    n = D.shape[0]
    t = _threads(dev)
    i64 = ember.int64
    zx = ember.empty(n - 1, dtype=i64, device=dev)
    zy = ember.empty(n - 1, dtype=i64, device=dev)
    zd = ember.empty(n - 1, dtype=ember.float64, device=dev)
    if method == "single":
        dmin = ember.empty(n, dtype=ember.float64, device=dev)
        merged = ember.empty(n, dtype=ember.int32, device=dev)
        f = _fn(dev, "linkage.cuh", f"em_linkage_prim<{t}>", _names(t))
        launch(dev, f, (1,), (t,), (D, numpy.int64(n), dmin, merged, zx, zy, zd))
    else:
        size = ember.empty(n, dtype=ember.int32, device=dev)
        chain = ember.empty(n, dtype=ember.int32, device=dev)
        f = _fn(dev, "linkage.cuh", f"em_linkage_chain<{METHODS[method]}, {t}>", _names(t))
        launch(dev, f, (1,), (t,), (D, numpy.int64(n), size, chain, zx, zy, zd))
    return zx, zy, zd


def single_from_points(X, metric):
    """Single linkage's merges (as merges() returns them) measured from the
    rows of X with metric (a DIST_METRICS name) as the tree grows."""
    dev = X.device
    X = ember.ascontiguousarray(X.astype(ember.float64, copy=False))
    n, d = X.shape
    t = _threads(dev)
    zx = ember.empty(n - 1, dtype=ember.int64, device=dev)
    zy = ember.empty(n - 1, dtype=ember.int64, device=dev)
    zd = ember.empty(n - 1, dtype=ember.float64, device=dev)
    dmin = ember.empty(n, dtype=ember.float64, device=dev)
    merged = ember.empty(n, dtype=ember.int32, device=dev)
    f = _fn(dev, "linkage.cuh", f"em_linkage_prim_x<{DIST_METRICS[metric]}, {t}>",
            _names(t))
    launch(dev, f, (1,), (t,), (X, numpy.int64(n), numpy.int32(d), dmin, merged, zx, zy,
                               zd))
    return zx, zy, zd


def tree(D, method, ordered=True):
    """SciPy's linkage matrix Z of D (as merges() takes it) and the merges'
    two points in Z's row order (each lies in its row's two clusters).
    ordered=False: each row names first the cluster of the point its merge
    came from (scikit-learn's single-linkage labelling), not the smaller."""
    return numbered(*merges(D, method), ordered=ordered)


def numbered(zx, zy, zd, ordered=True):
    """tree()'s result from merges in the order made."""
    dev = zx.device
    n = zx.shape[0] + 1
    order = ember.argsort(zd, kind="stable")
    Z = ember.empty((n - 1, 4), dtype=ember.float64, device=dev)
    parent = ember.empty(2 * n - 1, dtype=ember.int64, device=dev)
    t = _threads(dev)
    f = _fn(dev, "linkage.cuh", "em_linkage_label", _names(t))
    launch(dev, f, (1,), (1,), (zx, zy, zd, order, numpy.int64(n), numpy.int32(ordered),
                               parent, Z))
    return Z, ember.take(zx, order), ember.take(zy, order)


def _tree_fn(dev, name):
    return _fn(dev, "linkage_tree.cuh", name, _TREE_NAMES)


def leaves(Z):
    """The leaves of Z left to right (int32), as SciPy's leaves_list."""
    dev = Z.device
    n = Z.shape[0] + 1
    out = ember.empty(n, dtype=ember.int32, device=dev)
    stack = ember.empty(2 * n + 2, dtype=ember.int64, device=dev)
    launch(dev, _tree_fn(dev, "em_linkage_leaves"), (1,), (1,),
           (Z, numpy.int64(n), stack, out))
    return out


def max_dists(Z, V=None, col=2):
    """The largest V[:, col] (default: Z's distances) under each cluster of
    Z, as SciPy's fcluster takes its criterion."""
    dev = Z.device
    n = Z.shape[0] + 1
    MC = ember.empty(n - 1, dtype=ember.float64, device=dev)
    launch(dev, _tree_fn(dev, "em_linkage_maxdist"), (1,), (1,),
           (Z, numpy.int64(n), Z if V is None else V, numpy.int32(col), MC))
    return MC


def inconsistent(Z, d):
    """SciPy's inconsistency matrix R of Z over d levels: a thread a row."""
    dev = Z.device
    n = Z.shape[0] + 1
    up = ember.empty(n - 1, dtype=ember.int64, device=dev)
    R = ember.empty((n - 1, 4), dtype=ember.float64, device=dev)
    grid = (-(-(n - 1) // _ROW_THREADS),)
    launch(dev, _tree_fn(dev, "em_linkage_parents"), grid, (_ROW_THREADS,),
           (Z, numpy.int64(n), up))
    launch(dev, _tree_fn(dev, "em_linkage_inconsistent"), grid, (_ROW_THREADS,),
           (Z, numpy.int64(n), numpy.int64(d), up, R))
    return R


def flat(Z, MC, cut=0.0, maxclust=0):
    """SciPy's flat clusters (int32, numbered from 1) of Z under criterion
    MC: at cutoff cut, or (maxclust > 0) at most maxclust clusters."""
    dev = Z.device
    n = Z.shape[0] + 1
    T = ember.empty(n, dtype=ember.int32, device=dev)
    stack = ember.empty(2 * n + 2, dtype=ember.int64, device=dev)
    launch(dev, _tree_fn(dev, "em_linkage_fcluster"), (1,), (1,),
           (Z, MC, numpy.int64(n), numpy.float64(cut), numpy.int64(maxclust), stack, T))
    return T
