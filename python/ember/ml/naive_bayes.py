"""ember.ml.naive_bayes: GaussianNB and MultinomialNB. Per-class sums are
one matmul with the one-hot class matrix (classes x samples), so a fit is
two passes over X whatever the number of classes."""
import math
import numbers

import ember
from ember.ml import _labels
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, ClassifierMixin, fitted


def _one_hot(codes, k, dtype, weight=None):
    """Y with Y[i, codes[i]] = weight[i] (1 without weights), n x k."""
    Y = (codes[:, None] == ember.arange(k, device=codes.device)[None, :]).astype(dtype)
    return Y if weight is None else Y * weight[:, None]


def _codes_in(classes, y, device):
    """Codes of y against classes fixed by an earlier partial_fit."""
    import numpy as np
    if isinstance(classes, ember.ndarray):
        ya = V.column_or_1d(y, device=device)
        pos = ember.searchsorted(classes, ya)
        pos = ember.minimum(pos, len(classes) - 1)
        bad = ember.take(classes, pos) != ya
        if bool(bad.any()):
            missing = np.unique(ember.asnumpy(ya[bad]))
            raise ValueError(f"The target label(s) {missing} in y do not exist in the "
                             f"initial classes {ember.asnumpy(classes)}")
        return pos.astype(ember.int64)
    h = np.asarray(y).reshape(-1)
    pos = np.minimum(np.searchsorted(classes, h), len(classes) - 1)
    bad = classes[pos] != h
    if bad.any():
        raise ValueError(f"The target label(s) {np.unique(h[bad])} in y do not exist "
                         f"in the initial classes {classes}")
    return ember.asarray(pos.astype(np.int64), device=device)


class _BaseNB(ClassifierMixin, BaseEstimator):
    classes_ = fitted()
    class_count_ = fitted()

    def _setup(self, X, y, classes, first, sample_weight):
        """Checked X, the codes of y, the number of classes and weights."""
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the "
                             "target y is None")
        if first:
            # y is coded apart from X: string labels have no ember dtype
            X, _ = self._fit_input(X, **self._x_kw())
            if classes is None:
                cls, codes = _labels.encode(y, X.device)
                _labels.check_classification(cls, y)
            else:
                import numpy as np
                c = np.unique(np.asarray(classes))
                cls = c if c.dtype.kind not in "biuf" else ember.asarray(c, device=X.device)
                codes = _codes_in(cls, y, X.device)
            self.classes_ = cls
        else:
            X = self._predict_input(X, **self._x_kw())
            if classes is not None:
                import numpy as np
                old = self.classes_
                old = old if isinstance(old, np.ndarray) else np.asarray(old)
                if not np.array_equal(np.unique(np.asarray(classes)), old):
                    raise ValueError(f"`classes={classes!r}` is not the same as on last "
                                     f"call to partial_fit, was: {old!r}")
            codes = _codes_in(self.__dict__["classes_"], y, X.device)
        if codes.shape[0] != X.shape[0]:
            raise ValueError("Found input variables with inconsistent numbers of "
                             f"samples: [{X.shape[0]}, {codes.shape[0]}]")
        k = len(self.__dict__["classes_"])
        w = None if sample_weight is None else V.check_sample_weight(sample_weight, X)
        return X, codes, k, w

    def _x_kw(self):
        return {}

    def predict(self, X):
        jll = self._jll(self._predict_input(X, **self._x_kw()))
        return self._out(_labels.decode(self.__dict__["classes_"], ember.argmax(jll, axis=1)))

    def predict_log_proba(self, X):
        jll = self._jll(self._predict_input(X, **self._x_kw()))
        m = jll.max(axis=1, keepdims=True)
        lse = m + ember.log(ember.exp(jll - m).sum(axis=1, keepdims=True))
        return self._out(jll - lse)

    def predict_proba(self, X):
        jll = self._jll(self._predict_input(X, **self._x_kw()))
        m = jll.max(axis=1, keepdims=True)
        e = ember.exp(jll - m)
        return self._out(e / e.sum(axis=1, keepdims=True))

    def predict_joint_log_proba(self, X):
        return self._out(self._jll(self._predict_input(X, **self._x_kw())))


class GaussianNB(_BaseNB):
    """sklearn.naive_bayes.GaussianNB."""

    theta_ = fitted()
    var_ = fitted()
    class_prior_ = fitted()

    def __init__(self, *, priors=None, var_smoothing=1e-9):
        self.priors = priors
        self.var_smoothing = var_smoothing

    def fit(self, X, y, sample_weight=None):
        for k in ("classes_", "theta_"):
            self.__dict__.pop(k, None)
        return self._partial(X, y, None, sample_weight, refit=True)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        return self._partial(X, y, classes, sample_weight, refit=False)

    def _partial(self, X, y, classes, sample_weight, refit):
        V.check_scalar(self.var_smoothing, "var_smoothing", numbers.Real, min_val=0,
                       est=self)
        first = refit or "theta_" not in self.__dict__
        if first and not refit and classes is None:
            raise ValueError("classes must be passed on the first call to partial_fit.")
        X, codes, k, w = self._setup(X, y, classes, first, sample_weight)
        n, p = X.shape
        eps = self.var_smoothing * float(X.var(axis=0).max())
        Y = _one_hot(codes, k, X.dtype, w)
        cnt = Y.sum(axis=0)
        safe = ember.where(cnt > 0, cnt, 1)
        mu = (Y.T @ X) / safe[:, None]
        diff = X - ember.take(mu, codes, axis=0)
        var = (Y.T @ (diff * diff)) / safe[:, None]
        if first:
            self.epsilon_ = eps
            self.theta_, self.var_, self.class_count_ = mu, var, cnt
        else:
            # Chan et al.'s merge of the old and new per-class moments
            self.epsilon_ = eps
            old_n = self._dev("class_count_")
            old_mu = self._dev("theta_")
            old_var = self._dev("var_") - self.__dict__.get("_eps_applied", 0.0)
            tot = old_n + cnt
            tsafe = ember.where(tot > 0, tot, 1)[:, None]
            new_mu = (old_n[:, None] * old_mu + cnt[:, None] * mu) / tsafe
            ssd = (old_n[:, None] * old_var + cnt[:, None] * var +
                   (old_n * cnt)[:, None] / tsafe * (old_mu - mu) ** 2)
            keep = (cnt == 0)[:, None]
            self.theta_ = ember.where(keep, old_mu, new_mu)
            self.var_ = ember.where(keep, old_var, ssd / tsafe)
            self.class_count_ = tot
        self.var_ = self._dev("var_") + eps
        self._eps_applied = eps
        self._set_prior(k)
        return self

    def _set_prior(self, k):
        if self.priors is not None:
            import numpy as np
            pr = np.asarray(self.priors, dtype=float)
            if len(pr) != k:
                raise ValueError("Number of priors must match number of classes.")
            if not np.isclose(pr.sum(), 1.0):
                raise ValueError("The sum of the priors should be 1.")
            if (pr < 0).any():
                raise ValueError("Priors must be non-negative.")
            self.class_prior_ = ember.asarray(pr, device=self._device)
        else:
            c = self._dev("class_count_")
            self.class_prior_ = c / c.sum()

    def _jll(self, X):
        mu = self._dev("theta_").astype(X.dtype)
        var = self._dev("var_").astype(X.dtype)
        inv = 1.0 / var
        # sum_j (x_j - mu_cj)^2 / var_cj for every (sample, class), as matmuls
        quad = (X * X) @ inv.T - 2.0 * (X @ (mu * inv).T) + (mu * mu * inv).sum(axis=1)
        norm = -0.5 * ember.log(2.0 * math.pi * var).sum(axis=1)
        return ember.log(self._dev("class_prior_").astype(X.dtype)) + norm - 0.5 * quad


class MultinomialNB(_BaseNB):
    """sklearn.naive_bayes.MultinomialNB (dense counts; sparse counts, a bag
    of words, are made dense first)."""

    # scikit-learn takes a sparse X here; ember.ml makes it dense (_sparse_input.py)
    _accept_sparse = True

    feature_count_ = fitted()
    feature_log_prob_ = fitted()
    class_log_prior_ = fitted()

    def __init__(self, *, alpha=1.0, force_alpha=True, fit_prior=True, class_prior=None):
        self.alpha = alpha
        self.force_alpha = force_alpha
        self.fit_prior = fit_prior
        self.class_prior = class_prior

    def fit(self, X, y, sample_weight=None):
        for k in ("classes_", "feature_count_"):
            self.__dict__.pop(k, None)
        return self._partial(X, y, None, sample_weight, True)

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        return self._partial(X, y, classes, sample_weight, False)

    def _partial(self, X, y, classes, sample_weight, refit):
        first = refit or "feature_count_" not in self.__dict__
        if first and not refit and classes is None:
            raise ValueError("classes must be passed on the first call to partial_fit.")
        X, codes, k, w = self._setup(X, y, classes, first, sample_weight)
        if X.size and bool((X < 0).any()):
            raise ValueError("Negative values in data passed to MultinomialNB (input X).")
        Y = _one_hot(codes, k, X.dtype, w)
        fc, cc = Y.T @ X, Y.sum(axis=0)
        if not first:
            fc, cc = fc + self._dev("feature_count_"), cc + self._dev("class_count_")
        self.feature_count_, self.class_count_ = fc, cc
        alpha = self._alpha()
        sm = fc + alpha
        self.feature_log_prob_ = ember.log(sm) - ember.log(sm.sum(axis=1, keepdims=True))
        if self.class_prior is not None:
            import numpy as np
            pr = np.asarray(self.class_prior, dtype=float)
            if len(pr) != k:
                raise ValueError("Number of priors must match number of classes.")
            self.class_log_prior_ = ember.asarray(np.log(pr), device=X.device)
        elif self.fit_prior:
            self.class_log_prior_ = ember.log(cc) - math.log(float(cc.sum()))
        else:
            self.class_log_prior_ = ember.full(k, -math.log(k), device=X.device)
        return self

    def _alpha(self):
        import warnings
        a = self.alpha
        if isinstance(a, numbers.Real):
            if a < 0:
                raise ValueError("The 'alpha' parameter of MultinomialNB must be a float "
                                 f"in the range [0.0, inf). Got {a!r} instead.")
            if a < 1e-10 and not self.force_alpha:
                warnings.warn("alpha too small will result in numeric errors, setting "
                              "alpha = 1.0e-10. Use `force_alpha=True` to keep alpha "
                              "unchanged.")
                return 1e-10
            return float(a)
        raise NotImplementedError("MultinomialNB: alpha as an array of per-feature "
                                  "values; give one float")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        tags.classifier_tags.poor_score = True    # as scikit-learn's
        return tags

    def _jll(self, X):
        return X @ self._dev("feature_log_prob_").astype(X.dtype).T + \
            self._dev("class_log_prior_").astype(X.dtype)


__all__ = ["GaussianNB", "MultinomialNB"]
