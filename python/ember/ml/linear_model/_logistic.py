"""LogisticRegression: scikit-learn's objective

    1/S sum_i s_i loss_i + 1/(C S) (1 - r)/2 |W|^2 + 1/(C S) r |W|_1

(S the sum of the sample weights times the class weights, r = l1_ratio,
the intercept not penalised), binary as one row of coefficients and
multinomial (softmax over all classes) for more than two, as scikit-learn
>= 1.5. The loss and its gradient are one matmul for the scores, a
log-sum-exp over classes and one matmul for the gradient. 'lbfgs' (and
'newton-cg', 'newton-cholesky', 'sag', whose minimiser is the same) runs
L-BFGS; an l1 part ('saga', the only scikit-learn solver for it) runs
FISTA, at most 10 * max_iter iterations (an iteration of FISTA is a full
gradient, not an epoch of SAGA), stopping when the gradient mapping is
below tol. 'liblinear' and dual=True are not built."""
import numbers
import warnings

import numpy as np

import ember
from ember._progress import progress
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, ClassifierMixin
from ember.ml.exceptions import ConvergenceWarning
from ember.ml.linear_model._base import LinearClassifierMixin, classifier_fit
from ember.ml.linear_model import _logistic_host as _host
from ember.ml.linear_model._lbfgs import fista, lbfgs

_SMOOTH = ("lbfgs", "newton-cg", "newton-cholesky", "sag")


def _log_softmax(Z):
    m = Z.max(axis=1, keepdims=True)
    Zs = Z - m
    return Zs - ember.log(ember.exp(Zs).sum(axis=1, keepdims=True))


class _Loss:
    """The data term and the l2 term of the objective and their gradient, on
    a flat parameter vector (rows of coefficients, then the intercepts)."""

    def __init__(self, X, codes, k, sw, S, l2, fit_intercept):
        self.X, self.sw, self.S, self.l2 = X, sw, S, l2
        self.fi = fit_intercept
        self.n, self.p = X.shape
        self.rows = 1 if k == 2 else k
        ks = ember.arange(self.rows if k > 2 else 1, device=X.device)
        if k == 2:
            self.Y = codes.astype(X.dtype)[:, None]
        else:
            self.Y = (codes[:, None] == ks[None, :]).astype(X.dtype)
        self.size = self.rows * (self.p + (1 if fit_intercept else 0))
        # on cpu: one pass over X a call (_logistic_host)
        self.one_pass = None
        if _host.applies(X):
            if k == 2:
                self.one_pass = _host.BinaryLoss(X, self.Y[:, 0], sw, fit_intercept)
            elif k <= _host.KMAX:
                self.one_pass = _host.MultiLoss(X, codes, k, sw, fit_intercept)

    def split(self, x):
        W = x[:self.rows * self.p].reshape(self.rows, self.p)
        b = x[self.rows * self.p:] if self.fi else None
        return W, b

    def scores(self, x):
        W, b = self.split(x)
        Z = self.X @ W.T
        return Z + b if b is not None else Z

    def __call__(self, x):
        W, _ = self.split(x)
        if self.one_pass is not None:
            return self._one_pass(x, W)
        Z = self.scores(x)
        if self.rows == 1:
            z = Z[:, 0]
            # log(1 + e^z) - y z, and its derivative sigmoid(z) - y, stably
            loss = ember.maximum(z, 0) + ember.log1p(ember.exp(-ember.abs(z))) \
                - self.Y[:, 0] * z
            R = (0.5 * (1 + ember.tanh(0.5 * z)) - self.Y[:, 0])[:, None]
        else:
            logp = _log_softmax(Z)
            loss = -(logp * self.Y).sum(axis=1)
            R = ember.exp(logp) - self.Y
        if self.sw is not None:
            loss = loss * self.sw
            R = R * self.sw[:, None]
        f = loss.sum() / self.S
        gW = (R.T @ self.X) / self.S
        if self.l2:
            f = f + 0.5 * self.l2 * (W * W).sum()
            gW = gW + self.l2 * W
        parts = [gW.reshape(-1)]
        if self.fi:
            parts.append(R.sum(axis=0) / self.S)
        return f, ember.concatenate(parts) if len(parts) > 1 else parts[0]


    def _one_pass(self, x, W):
        """__call__ through _logistic_host: the same value and gradient."""
        dt = self.X.dtype
        loss, gw, gb = self.one_pass(x)
        f = (loss / self.S).astype(dt)
        gW = (gw / self.S).astype(dt).reshape(self.rows, self.p)
        if self.l2:
            f = f + 0.5 * self.l2 * (W * W).sum()
            gW = gW + self.l2 * W
        if not self.fi:
            return f, gW.reshape(-1)
        return f, ember.concatenate([gW.reshape(-1), (gb / self.S).astype(dt).reshape(-1)])


class LogisticRegression(ClassifierMixin, LinearClassifierMixin, BaseEstimator):
    """scikit-learn's LogisticRegression (L-BFGS; FISTA for l1 parts)."""

    def __init__(self, penalty="deprecated", *, C=1.0, l1_ratio=0.0, dual=False,
                 tol=1e-4, fit_intercept=True, intercept_scaling=1, class_weight=None,
                 random_state=None, solver="lbfgs", max_iter=100, verbose=0,
                 warm_start=False, n_jobs=None):
        self.penalty = penalty
        self.C = C
        self.l1_ratio = l1_ratio
        self.dual = dual
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.random_state = random_state
        self.solver = solver
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    def _penalty(self):
        """(penalty, C, l1_ratio) as scikit-learn 1.9 resolves them."""
        V.check_scalar(self.C, "C", numbers.Real, min_val=0, include_boundaries="right",
                       est=self)
        V.check_scalar(self.tol, "tol", numbers.Real, min_val=0, est=self)
        V.check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=0, est=self)
        V.check_option(self.solver, "solver", _SMOOTH + ("saga", "liblinear"), self)
        r = self.l1_ratio
        if r is not None:
            V.check_scalar(r, "l1_ratio", numbers.Real, min_val=0, max_val=1, est=self)
        pen = self.penalty
        if pen == "deprecated":
            pen = "l2" if not r else "l1" if r == 1 else "elasticnet"
            if self.C == np.inf:
                pen = None
        else:
            V.check_option(pen, "penalty", ("l1", "l2", "elasticnet", None), self)
        if self.solver == "liblinear" or self.dual:
            raise NotImplementedError("LogisticRegression(solver='liblinear') and "
                                      "dual=True are not built in ember.ml")
        if self.solver != "saga" and pen not in ("l2", None):
            raise ValueError(f"Solver {self.solver} supports only 'l2' or None "
                             f"penalties, got {pen} penalty.")
        if pen is None:
            return None, np.inf, 0.0
        if pen == "elasticnet" and r is None:
            raise ValueError("l1_ratio must be specified when penalty is elasticnet.")
        ratio = {"l1": 1.0, "l2": 0.0}.get(pen, r)
        return pen, float(self.C), float(ratio)

    def fit(self, X, y, sample_weight=None):
        pen, C, ratio = self._penalty()
        X, _ = self._fit_input(X)
        classes, codes, sw = classifier_fit(self, X, y, sample_weight)
        k = len(classes)
        n, p = X.shape
        # scikit-learn's SAGA averages over n samples; its L-BFGS over the weights
        S = float(sw.sum()) if sw is not None and pen not in ("l1", "elasticnet") \
            and self.solver != "saga" else float(n)
        lam = 0.0 if pen is None else 1.0 / (C * S)
        loss = _Loss(X, codes, k, sw, S, lam * (1 - ratio), self.fit_intercept)
        x = self._start(loss, X)
        if ratio > 0:
            l1 = lam * ratio
            mask = ember.concatenate([
                ember.full((loss.rows * p,), l1, dtype=X.dtype, device=X.device),
                ember.zeros((loss.size - loss.rows * p,), dtype=X.dtype,
                            device=X.device)])

            def prox(v, t):
                return ember.sign(v) * ember.maximum(ember.abs(v) - t * mask, 0)

            with progress(10 * self.max_iter, "LogisticRegression.fit", "iter") as bar:
                x, it, ok = fista(loss, prox, x, 10 * self.max_iter, self.tol,
                                  tick=bar.update)
        else:
            with progress(self.max_iter, "LogisticRegression.fit", "iter") as bar:
                x, _, it, ok = lbfgs(loss, x, self.max_iter, self.tol, tick=bar.update)
        if not ok and self.max_iter > 0:
            warnings.warn(f"{self.solver} failed to converge after {it} iteration(s) "
                          "(status=1):\nSTOP: TOTAL NO. OF ITERATIONS REACHED LIMIT\n\n"
                          "Increase the number of iterations to improve the "
                          "convergence (max_iter=" f"{self.max_iter}).",
                          ConvergenceWarning, stacklevel=2)
        W, b = loss.split(x)
        self.coef_ = ember.ascontiguousarray(W)
        self.intercept_ = b.copy() if b is not None else ember.zeros(
            (loss.rows,), dtype=X.dtype, device=X.device)
        self.n_iter_ = np.asarray([it], dtype=np.int32)
        return self

    def _start(self, loss, X):
        prev = self.__dict__.get("coef_") if self.warm_start else None
        if prev is None or tuple(prev.shape) != (loss.rows, X.shape[1]):
            return ember.zeros((loss.size,), dtype=X.dtype, device=X.device)
        parts = [self._dev("coef_").astype(X.dtype).reshape(-1)]
        if self.fit_intercept:
            parts.append(self._dev("intercept_").astype(X.dtype).reshape(-1))
        return ember.concatenate(parts)

    def _proba(self, X):
        s = self._scores(X)
        if s.ndim == 1:
            p1 = 0.5 * (1 + ember.tanh(0.5 * s))
            return ember.stack([1 - p1, p1], axis=1)
        return ember.exp(_log_softmax(s))

    def predict_proba(self, X):
        return self._out(self._proba(X))

    def predict_log_proba(self, X):
        return self._out(ember.log(self._proba(X)))
