"""The logistic loss (binary, and multinomial up to KMAX classes) and its
gradient in one pass over X on cpu
(python/ember/ml/kernels/logistic_host.cuh). The composition in
_logistic._Loss reads X twice (X w, then R^T X) and runs about ten
elementwise passes between, which made LogisticRegression 1.3x
scikit-learn's time on one core; one pass reads X once. The GPU keeps the
composition (cuBLAS's two products and fused elementwise kernels)."""
import pathlib

import numpy as np

import ember
from ember.ml._launch import launch

_KERNEL = pathlib.Path(__file__).parent.parent / "kernels" / "logistic_host.cuh"
_CTYPE = {"float32": "float", "float64": "double"}
# blocks (partial sums) a call: fixed, so the order of the sums does not
# depend on the thread count, and enough to spread over a large host
_BLOCKS = 64
# classes of the multinomial kernel at most (EM_LGH_KMAX: its scratch of
# scores is on the stack)
KMAX = 64
_modules = {}

# devices the kernel is used on; tests take cpu out to check the
# composition against it
DEVICES = {"cpu"}


def applies(X):
    return X.device.type in DEVICES and X.dtype.name in _CTYPE and X.ndim == 2


def _module(dev):
    mod = _modules.get(str(dev))
    if mod is None:
        with dev:
            mod = ember.RawModule(code=_KERNEL.read_text(), name_expressions=[
                f"{f}<{c}>" for c in _CTYPE.values()
                for f in ("em_logistic_host", "em_logistic_multi_host")])
        _modules[str(dev)] = mod
    return mod


class _HostLoss:
    """What both losses hold: X in C order, the weights in X's dtype, the
    rows split into at most _BLOCKS blocks, the kernel for X's dtype and
    its per-block partial sums (width float64 each)."""

    def __init__(self, X, sw, fit_intercept, kernel, width):
        self.X = ember.ascontiguousarray(X)
        self.sw = None if sw is None else ember.ascontiguousarray(sw.astype(X.dtype))
        self.fi = fit_intercept
        self.n, self.p = X.shape
        self.rpb = max(1, -(-self.n // _BLOCKS))
        self.grid = max(1, -(-self.n // self.rpb))
        self.f = _module(X.device).get_function(f"{kernel}<{_CTYPE[X.dtype.name]}>")
        self.part = ember.empty((self.grid, width), dtype=ember.float64, device=X.device)


class MultiLoss(_HostLoss):
    """loss(x) -> (sum of the weighted losses, gradient of W (K x p), of
    the intercepts (K)) as float64 device arrays, not yet divided by S; x
    is the flat parameter vector (W by rows, then the K intercepts when
    fit_intercept); codes the class of each row (0..K-1)."""

    def __init__(self, X, codes, K, sw, fit_intercept):
        super().__init__(X, sw, fit_intercept, "em_logistic_multi_host",
                         K * (X.shape[1] + 1) + 1)
        self.codes = ember.ascontiguousarray(codes.astype(ember.int64))
        self.K = K

    def __call__(self, x):
        x = ember.ascontiguousarray(x.astype(self.X.dtype))
        hs = self.sw is not None
        launch(self.X.device, self.f, (self.grid,), (1,),
               (self.X, self.codes, self.sw if hs else self.X, np.int32(hs), x,
                np.int32(self.fi), np.int64(self.n), np.int32(self.p), np.int32(self.K),
                np.int64(self.rpb), self.part))
        tot = self.part.sum(axis=0)
        kp = self.K * self.p
        return tot[-1], tot[:kp].reshape(self.K, self.p), tot[kp:kp + self.K]


class BinaryLoss(_HostLoss):
    """loss(x) -> (sum of the weighted losses, gradient of the
    coefficients, of the intercept) as float64 device arrays, the sums
    not yet divided by S; x is the flat parameter vector (p coefficients,
    then the intercept when fit_intercept)."""

    def __init__(self, X, y, sw, fit_intercept):
        super().__init__(X, sw, fit_intercept, "em_logistic_host", X.shape[1] + 2)
        self.y = ember.ascontiguousarray(y.astype(X.dtype))

    def __call__(self, x):
        x = ember.ascontiguousarray(x.astype(self.X.dtype))
        hs = self.sw is not None
        launch(self.X.device, self.f, (self.grid,), (1,),
               (self.X, self.y, self.sw if hs else self.y, np.int32(hs), x,
                np.int32(self.fi), np.int64(self.n), np.int32(self.p),
                np.int64(self.rpb), self.part))
        # the blocks' rows added in order: the same sums every run
        tot = self.part.sum(axis=0)
        return tot[self.p + 1], tot[:self.p], tot[self.p]
