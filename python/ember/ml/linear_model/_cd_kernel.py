"""Launching kernels/cd_fit.cuh, the whole coordinate-descent fit of
Lasso/ElasticNet (python/ember/ml/linear_model/_cd.py): one block a
problem, compiled once a device through RawModule (NVRTC on cuda, the
host C++ compiler on cpu) and launched by ember.ml._launch, as
kernels/cd_path.cuh is for LassoCV (_cv.py)."""
import pathlib

import numpy as np

import ember
from ember.ml._launch import launch

_DIR = pathlib.Path(__file__).parent.parent / "kernels"
_CTYPE = {"float32": "float", "float64": "double"}
_NAMES = [f"em_cd_{form}<{c}>" for form in ("resid", "gram") for c in _CTYPE.values()]
_modules = {}


def kernel_source(name):
    """kernels/<name> with cd_gap.cuh, the duality gap that cd_fit.cuh and
    cd_path.cuh share, pasted in front."""
    return (_DIR / "cd_gap.cuh").read_text() + (_DIR / name).read_text()

# threads a block on a GPU: a multiple of the warp, up to what the
# coordinate's length (n or p) fills; the kernel's shared slots allow 1024
_GPU_THREADS = 256


def _fn(dev, form, dtype):
    mod = _modules.get(str(dev))
    if mod is None:
        with dev:
            mod = ember.RawModule(code=kernel_source("cd_fit.cuh"), name_expressions=_NAMES)
        _modules[str(dev)] = mod
    return mod.get_function(f"em_cd_{form}<{_CTYPE[dtype.name]}>")


def _threads(dev, length):
    """One thread a block on cpu: the host runs a block's threads as fibers
    of one core, so more would only add switches at every barrier."""
    if dev.type == "cpu":
        return 1
    return min(_GPU_THREADS, max(32, -(-length // 32) * 32))


def fit(P, W, l1, l2, max_iter, tol, positive, seed):
    """Every sweep of each of P's B problems until scikit-learn's stopping
    rule, in one launch. P: a _cd._Problem; W: its B x p coefficients (C
    order), updated in place; seed: 0 for the cyclic order, else the
    random order's seed. Returns (gap, n_iter) as host arrays (B)."""
    dev, dt = W.device, W.dtype
    B, p = W.shape
    gap = ember.zeros(B, dtype=ember.float64, device=dev)
    n_iter = ember.zeros(B, dtype=ember.int32, device=dev)
    common = (np.float64(l1), np.float64(l2), np.float64(tol), np.int32(max_iter),
              np.int32(bool(positive)), np.uint64(seed), gap, n_iter)
    if P.gram:
        f = _fn(dev, "gram", dt)
        Gw = ember.empty((B, p), dtype=dt, device=dev)
        args = (P.G, P.Q, P.yy, W, Gw, np.int32(p)) + common
        nt = _threads(dev, p)
    else:
        f = _fn(dev, "resid", dt)
        n = P.Y.shape[1]
        R = ember.empty((B, n), dtype=dt, device=dev)
        args = (P.XT, P.norm2, P.Y, P.yy, W, R, np.int32(n), np.int32(p)) + common
        nt = _threads(dev, n)
    launch(dev, f, (B,), (nt,), args)
    return ember.asnumpy(gap), ember.asnumpy(n_iter).astype(int)
