"""SGDClassifier and SGDRegressor as mini-batch SGD on the device.

scikit-learn's SGD takes one sample at a time, a sequential loop that a GPU
cannot run well; ember takes blocks of rows: each step is the mean gradient
of a block (one matmul for the scores, one for the gradient), so the
coefficients differ from scikit-learn's while the fitted model's accuracy
or R^2 is of the same quality. The block is n/200 rows, at least 32 and at
most 4096. The learning rates are scikit-learn's formulas with t counting
samples as there ('optimal': 1/(alpha (t0 + t)), t0 from the same
heuristic; 'invscaling': eta0 / t^power_t; 'constant': eta0). A block of
m rows stands for m per-sample steps: one step of m * eta on its mean
gradient, capped at the longest stable step (1 / (the loss's curvature
times the mean squared row norm and the largest sample weight); hinge
has no cap), so an epoch moves about as far as scikit-learn's n
per-sample steps. The l2 part of the penalty is weight decay; the l1
part is scikit-learn's cumulative penalty (weights clipped at zero),
applied after each block. An epoch ends with one sync for its objective (mean loss plus
penalty); the stopping rule is scikit-learn's: n_iter_no_change epochs
without an improvement of tol. With early_stopping the rows of
scikit-learn's validation split (its StratifiedShuffleSplit or ShuffleSplit
of validation_fraction, seeded by random_state: the same rows) are held
out, and the rule looks at their score (accuracy or R^2, with their sample
weights) after each epoch instead of the objective. The classifier trains
the one-versus-rest problems of all classes together (targets -1 and 1
per class), so its early stop looks at the whole model's accuracy where
scikit-learn stops each binary problem on its own. average (True or a
sample count) makes coef_ and intercept_ the mean of the iterates from
that sample on, as scikit-learn's averaged SGD, a block's iterate weighted
by its rows; early stopping then scores the averaged model, as there."""
import numbers
import warnings

import numpy as np

import ember
from ember._progress import progress
from ember.ml import _validation as V
from ember.ml._random import check_random_state
from ember.ml.base import BaseEstimator, ClassifierMixin, RegressorMixin
from ember.ml.exceptions import ConvergenceWarning
from ember.ml.linear_model._base import (LinearClassifierMixin, LinearModel,
                                         check_sample_weight, class_weights,
                                         classes_in_fit, require_y)

_MAX_DLOSS = 1e12
_CURVATURE = {"hinge": 0.0, "log_loss": 0.25, "modified_huber": 2.0,
              "squared_error": 1.0}


def _host2(a, b):
    return [float(v) for v in ember.asnumpy(ember.stack([a, b]))]


def _loss_and_grad(name, z, y, eps):
    """Per-sample loss and its derivative in the score z (y is -1/1 for the
    classification losses)."""
    if name == "squared_error":
        r = z - y
        return 0.5 * r * r, r
    m = y * z
    if name == "hinge":
        act = (m < 1).astype(z.dtype)
        return ember.maximum(1 - m, 0), -y * act
    if name == "log_loss":
        # log(1 + e^-m) and -y sigmoid(-m), stably
        loss = ember.maximum(-m, 0) + ember.log1p(ember.exp(-ember.abs(m)))
        return loss, -y * (0.5 * (1 - ember.tanh(0.5 * m)))
    # modified_huber
    mid = (1 - m) * (m >= -1).astype(z.dtype) * (m < 1).astype(z.dtype)
    low = (m < -1).astype(z.dtype)
    loss = mid * mid + low * (-4 * m)
    return loss, y * (-2 * mid - 4 * low)


def _accuracy(Z, codes, w):
    """The (weighted) accuracy of the scores Z (n x rows; one row is the
    binary problem's positive class) against class codes."""
    pred = (Z[:, 0] > 0).astype(codes.dtype) if Z.shape[1] == 1 else ember.argmax(Z, axis=1)
    hit = (pred == codes).astype(Z.dtype)
    if w is None:
        return float(hit.mean())
    return float((hit * w).sum() / w.sum())


def _r2(z, y, w):
    """The (weighted) R^2 of predictions z against y."""
    w = ember.ones_like(y) if w is None else w
    ybar = (w * y).sum() / w.sum()
    den = float((w * (y - ybar) ** 2).sum())
    num = float((w * (y - z) ** 2).sum())
    if den == 0:
        return 1.0 if num == 0 else 0.0
    return 1.0 - num / den


def _slope_at(name, z):
    """|dloss/dz| at y = 1, score z, as a host float (the 'optimal' rate's
    heuristic)."""
    if name == "hinge":
        return 1.0 if z < 1 else 0.0
    if name == "log_loss":
        return 1.0 / (1.0 + np.exp(z))
    if name == "squared_error":
        return abs(z - 1.0)
    return 4.0 if z < -1 else 2 * (1 - z) if z < 1 else 0.0


class _SGDBase(BaseEstimator):
    _losses = ()

    def _check(self):
        V.check_option(self.loss, "loss", self._losses + self._other_losses, self)
        if self.loss not in self._losses:
            raise NotImplementedError(f"{type(self).__name__}(loss={self.loss!r}) is "
                                      "not built in ember.ml; the losses built are "
                                      f"{', '.join(self._losses)}")
        V.check_option(self.penalty, "penalty", ("l2", "l1", "elasticnet", None), self)
        V.check_scalar(self.alpha, "alpha", numbers.Real, min_val=0, est=self)
        V.check_scalar(self.l1_ratio, "l1_ratio", numbers.Real, min_val=0, max_val=1,
                       est=self)
        V.check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=1, est=self)
        if self.tol is not None:
            V.check_scalar(self.tol, "tol", numbers.Real, est=self)
        V.check_scalar(self.eta0, "eta0", numbers.Real, min_val=0, est=self)
        V.check_scalar(self.n_iter_no_change, "n_iter_no_change", numbers.Integral,
                       min_val=1, est=self)
        V.check_option(self.learning_rate, "learning_rate",
                       ("constant", "optimal", "invscaling", "adaptive", "pa1", "pa2"),
                       self)
        if self.learning_rate not in ("constant", "optimal", "invscaling"):
            raise NotImplementedError(f"learning_rate={self.learning_rate!r} is not "
                                      "built in ember.ml")
        if self.learning_rate == "optimal" and self.alpha == 0:
            raise ValueError("alpha must be > 0 since learning_rate is 'optimal'. "
                             "alpha is used to compute the optimal learning rate.")
        if self.learning_rate != "optimal" and self.eta0 <= 0:
            raise ValueError("eta0 must be > 0")
        V.check_scalar(self.validation_fraction, "validation_fraction", numbers.Real,
                       min_val=0, max_val=1, include_boundaries="neither", est=self)
        avg = self.average
        if not isinstance(avg, (bool, np.bool_)) and (
                not isinstance(avg, numbers.Integral) or avg <= 0):
            raise ValueError(f"The 'average' parameter of {type(self).__name__} must be "
                             "an int in the range (0, inf) or an instance of 'bool' or "
                             f"an instance of 'numpy.bool'. Got {avg!r} instead.")

    def _validation_split(self, X, y, sw):
        """scikit-learn's held-out rows for early_stopping: (train index,
        validation index) as ember arrays on X's device, or None."""
        if not self.early_stopping:
            return None
        from ember.ml.model_selection import ShuffleSplit, StratifiedShuffleSplit
        cv = (StratifiedShuffleSplit if isinstance(self, ClassifierMixin)
              else ShuffleSplit)(test_size=self.validation_fraction,
                                 random_state=self.random_state)
        n = X.shape[0]
        tr, va = next(cv.split(np.zeros((n, 1)), y))
        if tr.shape[0] == 0 or va.shape[0] == 0:
            raise ValueError(f"Splitting {n} samples into a train set and a validation "
                             f"set with validation_fraction={self.validation_fraction} "
                             f"led to an empty set ({tr.shape[0]} and {va.shape[0]} "
                             "samples). Please either change validation_fraction, "
                             "increase number of samples, or disable early_stopping.")
        tr, va = (ember.asarray(i, device=X.device) for i in (tr, va))
        if sw is not None and not bool((ember.take(sw, va) != 0).any()):
            raise ValueError("The sample weights for validation set are all zero, "
                             "consider using a different random state.")
        return tr, va

    @staticmethod
    def _hold_out(split, *arrays):
        """(train parts, validation parts) of arrays along rows."""
        tr, va = split
        take = (lambda a, i: None if a is None else ember.take(a, i, axis=0))
        return [take(a, tr) for a in arrays], [take(a, va) for a in arrays]

    def _sgd(self, X, Y, sw, W, b, val_score=None):
        """Mini-batch SGD on scores X @ W.T + b against targets Y (n x rows);
        W and b are updated in place. val_score(W, b): the held-out score
        that early stopping watches (None: the training objective).
        Returns the epochs run."""
        n = X.shape[0]
        bs = min(max(32, n // 200), 4096, n)
        cap = self._step_cap(X, sw)
        alpha = float(self.alpha)
        pen = self.penalty
        l1 = 0.0 if pen in ("l2", None) else (1.0 if pen == "l1" else self.l1_ratio)
        l1 *= alpha if pen is not None else 0.0
        l2 = 0.0 if pen in ("l1", None) else alpha * (1 - (self.l1_ratio
                                                             if pen == "elasticnet"
                                                             else 0.0))
        if self.learning_rate == "optimal":
            typw = np.sqrt(1.0 / np.sqrt(alpha))
            t0 = 1.0 / (typw / max(1.0, _slope_at(self.loss, -typw)) * alpha)
        rng = check_random_state(self.random_state, X.device)
        tol = -np.inf if self.tol is None else float(self.tol)
        best, stale, t = np.inf, 0, getattr(self, "_steps", 0)
        best_score = -np.inf
        eps = getattr(self, "epsilon", 0.1)
        epoch = 0
        # the cumulative l1 penalty (Tsuruoka et al. 2009), as scikit-learn:
        # u the penalty each weight could have had, Q what it has had
        u, Q = 0.0, ember.zeros_like(W) if l1 else None
        # averaged SGD (scikit-learn's average): the mean of the iterates from
        # the average-th sample on, a block's iterate counted once for each
        # of its samples past that point
        avg_from = int(self.average)
        Wa, ba, cnt = self.__dict__.get("_average", (None, None, 0)) if avg_from \
            else (None, None, 0)
        if avg_from and Wa is None:
            Wa, ba = ember.zeros_like(W), ember.zeros_like(b)
        with progress(self.max_iter, type(self).__name__ + ".fit", "epoch") as bar:
            for epoch in range(1, self.max_iter + 1):
                if self.shuffle:
                    perm = rng.permutation(n)
                    Xe, Ye = ember.take(X, perm, axis=0), ember.take(Y, perm, axis=0)
                    swe = ember.take(sw, perm) if sw is not None else None
                else:
                    Xe, Ye, swe = X, Y, sw
                total = ember.zeros((), dtype=X.dtype, device=X.device)
                for s in range(0, n, bs):
                    eta = (1.0 / (alpha * (t0 + t)) if self.learning_rate == "optimal"
                           else self.eta0 / (t + 1) ** self.power_t
                           if self.learning_rate == "invscaling" else self.eta0)
                    Xb, Yb = Xe[s:s + bs], Ye[s:s + bs]
                    Z = Xb @ W.T
                    if self.fit_intercept:
                        Z = Z + b
                    loss, d = _loss_and_grad(self.loss, Z, Yb, eps)
                    d = ember.clip(d, -_MAX_DLOSS, _MAX_DLOSS)
                    if swe is not None:
                        loss = loss * swe[s:s + bs, None]
                        d = d * swe[s:s + bs, None]
                    total += loss.sum()
                    m = Xb.shape[0]
                    # m per-sample steps of eta, taken as one step on the block's
                    # mean gradient, no longer than the curvature allows
                    lr = min(eta * m, cap)
                    if l2:
                        W *= max(0.0, 1.0 - lr * l2)
                    W -= (lr / m) * (d.T @ Xb)
                    if l1:
                        u += lr * l1
                        Wz = W.copy()
                        W[...] = (ember.maximum(W - (u + Q), 0) * (W > 0)
                                  + ember.minimum(W + (u - Q), 0) * (W < 0))
                        Q += W - Wz
                    if self.fit_intercept:
                        b -= (lr / m) * d.sum(axis=0)
                    k = min(m, t + m - avg_from + 1) if avg_from else 0
                    if k > 0:
                        cnt += k
                        Wa += (k / cnt) * (W - Wa)
                        ba += (k / cnt) * (b - ba)
                    t += m
                obj = total / n
                if pen is not None:
                    obj = obj + (0.5 * l2 * (W * W).sum() + l1 * ember.abs(W).sum()) \
                        / max(W.shape[0], 1)
                obj = float(obj)
                if not np.isfinite(obj):
                    raise ValueError(f"Floating-point under-/overflow occurred at epoch "
                                     f"#{epoch}. Scaling input data with StandardScaler "
                                     "or MinMaxScaler might help.")
                if val_score is not None:
                    score = val_score(Wa, ba) if cnt else val_score(W, b)
                    stale = stale + 1 if score < best_score + tol else 0
                    best_score = max(best_score, score)
                else:
                    stale = stale + 1 if obj > best - tol else 0
                    best = min(best, obj)
                bar.update()
                if stale >= self.n_iter_no_change:
                    break
            else:
                if self.tol is not None:
                    warnings.warn("Maximum number of iteration reached before convergence. "
                                  "Consider increasing max_iter to improve the fit.",
                                  ConvergenceWarning, stacklevel=3)
        self._steps = t
        self.t_ = float(t + 1)
        if avg_from:
            # warm_start goes on from the plain iterate and the running mean
            self._average = (Wa, ba, cnt)
            self._standard = (W.copy(), b.copy())
            if cnt:
                W[...] = Wa
                b[...] = ba
        return epoch

    def _step_cap(self, X, sw):
        """The longest stable step on a mean gradient: 1 / (the loss's
        curvature times the mean squared row norm, the largest weight);
        hinge has no curvature and no cap."""
        c = _CURVATURE[self.loss]
        if not c:
            return np.inf
        L = (X * X).sum() / X.shape[0] + (1.0 if self.fit_intercept else 0.0)
        L, wmax = _host2(L, sw.max() if sw is not None else L * 0 + 1)
        return 1.0 / (c * L * max(wmax, 1e-30))

    def _init_coef(self, rows, X):
        prev = self.__dict__.get("coef_") if self.warm_start else None
        p = X.shape[1]
        std = self.__dict__.get("_standard") if self.average else None
        if prev is not None and std is not None and tuple(std[0].shape) == (rows, p):
            return std[0].astype(X.dtype).copy(), std[1].astype(X.dtype).copy()
        self.__dict__.pop("_average", None)
        self.__dict__.pop("_standard", None)
        if prev is not None and tuple(prev.shape) in ((rows, p), (p,)):
            W = self._dev("coef_").astype(X.dtype).reshape(rows, p).copy()
            b = ember.asarray(self.__dict__["intercept_"], device=X.device).astype(
                X.dtype).reshape(rows).copy()
            return W, b
        self._steps = 0
        return (ember.zeros((rows, p), dtype=X.dtype, device=X.device),
                ember.zeros((rows,), dtype=X.dtype, device=X.device))


class SGDClassifier(ClassifierMixin, LinearClassifierMixin, _SGDBase):
    """scikit-learn's SGDClassifier as mini-batch SGD (hinge, log_loss,
    modified_huber and squared_error losses)."""

    _losses = ("hinge", "log_loss", "modified_huber", "squared_error")
    _other_losses = ("squared_hinge", "perceptron", "huber", "epsilon_insensitive",
                     "squared_epsilon_insensitive")

    def __init__(self, loss="hinge", *, penalty="l2", alpha=0.0001, l1_ratio=0.15,
                 fit_intercept=True, max_iter=1000, tol=1e-3, shuffle=True, verbose=0,
                 epsilon=0.1, n_jobs=None, random_state=None, learning_rate="optimal",
                 eta0=0.01, power_t=0.5, early_stopping=False, validation_fraction=0.1,
                 n_iter_no_change=5, class_weight=None, warm_start=False,
                 average=False):
        for k, v in list(locals().items()):
            if k != "self":
                setattr(self, k, v)

    def fit(self, X, y, sample_weight=None):
        self._check()
        X, _ = self._fit_input(X)
        classes, codes = classes_in_fit(self, y, X)
        k = len(classes)
        if k < 2:
            raise ValueError("The number of classes has to be greater than one; got "
                             "1 class")
        sw = check_sample_weight(sample_weight, X)
        cw = class_weights(self.class_weight, classes, codes, X.dtype)
        if cw is not None:
            sw = cw if sw is None else sw * cw
        rows = 1 if k == 2 else k
        ks = ember.arange(k, device=X.device)[k - rows:]
        split = self._validation_split(X, codes, sw)
        val_score = None
        if split is not None:
            (X, codes, sw), (Xv, cv, swv) = self._hold_out(split, X, codes, sw)
            val_score = (lambda W, b: _accuracy(Xv @ W.T + b, cv, swv))
        Y = (codes[:, None] == ks[None, :]).astype(X.dtype) * 2 - 1
        W, b = self._init_coef(rows, X)
        self.n_iter_ = self._sgd(X, Y, sw, W, b, val_score)
        self.coef_ = W
        self.intercept_ = b
        return self

    def _proba(self, X):
        s = self._scores(X)
        s = s[:, None] if s.ndim == 1 else s
        if self.loss == "log_loss":
            P = 0.5 * (1 + ember.tanh(0.5 * s))
        else:
            P = (ember.clip(s, -1, 1) + 1) / 2
        if P.shape[1] == 1:
            return ember.concatenate([1 - P, P], axis=1)
        tot = P.sum(axis=1, keepdims=True)
        k = P.shape[1]
        return ember.where(tot == 0, 1.0 / k, P / ember.where(tot == 0, 1, tot))

    def _check_proba(self):
        # scikit-learn's available_if: hasattr is False for other losses
        if self.loss not in ("log_loss", "modified_huber"):
            raise AttributeError(f"probability estimates are not available for loss="
                                 f"{self.loss!r}")

    # the functions carry the methods' names: scikit-learn's scorers call a
    # response method by the __name__ of what getattr gave them
    @property
    def predict_proba(self):
        self._check_proba()

        def predict_proba(X):
            """Class probabilities (log_loss: the logistic; modified_huber:
            scikit-learn's clipped scores, normalised)."""
            return self._out(self._proba(X))
        return predict_proba

    @property
    def predict_log_proba(self):
        self._check_proba()

        def predict_log_proba(X):
            """The log of predict_proba."""
            return self._out(ember.log(self._proba(X)))
        return predict_log_proba


class SGDRegressor(RegressorMixin, LinearModel, _SGDBase):
    """scikit-learn's SGDRegressor as mini-batch SGD (squared_error loss)."""

    _losses = ("squared_error",)
    _other_losses = ("huber", "epsilon_insensitive", "squared_epsilon_insensitive")

    def __init__(self, loss="squared_error", *, penalty="l2", alpha=0.0001,
                 l1_ratio=0.15, fit_intercept=True, max_iter=1000, tol=1e-3,
                 shuffle=True, verbose=0, epsilon=0.1, random_state=None,
                 learning_rate="invscaling", eta0=0.01, power_t=0.25,
                 early_stopping=False, validation_fraction=0.1, n_iter_no_change=5,
                 warm_start=False, average=False):
        for k, v in list(locals().items()):
            if k != "self":
                setattr(self, k, v)

    def fit(self, X, y, sample_weight=None):
        self._check()
        require_y(self, y)
        X, y = self._fit_input(X, y, y_numeric=True)
        y = y.astype(X.dtype) if y.dtype != X.dtype else y
        sw = check_sample_weight(sample_weight, X)
        split = self._validation_split(X, None, sw)
        val_score = None
        if split is not None:
            (X, y, sw), (Xv, yv, swv) = self._hold_out(split, X, y, sw)
            val_score = (lambda W, b: _r2(Xv @ W[0] + b[0], yv, swv))
        W, b = self._init_coef(1, X)
        self.n_iter_ = self._sgd(X, y[:, None], sw, W, b, val_score)
        self.coef_ = W[0].copy()
        self.intercept_ = b
        return self

    def _decision(self, X):
        Xa = self._predict_input(X)
        coef = self._dev("coef_").astype(Xa.dtype)
        return Xa @ coef + self._dev("intercept_").astype(Xa.dtype)

