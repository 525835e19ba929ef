"""Scalers: StandardScaler, MinMaxScaler, Normalizer and the functions
scale and normalize. Statistics are column reductions on the device (the
mean and variance with float64 accumulators, as scikit-learn's); NaN is
ignored in fit and kept in transform, as scikit-learn does."""
import numpy as np

import ember
from ember.ml import _validation as V
from ember.ml.base import BaseEstimator, TransformerMixin, fitted
from ember.ml.metrics._base import out as out_like


def _zeros_to_one(scale, constant=None):
    """scale with near-zero entries (or those marked constant) set to 1, so
    dividing by it leaves constant columns alone."""
    if constant is None:
        constant = scale < 10 * float(ember.finfo(scale.dtype).eps)
    return ember.where(constant, 1.0, scale).astype(scale.dtype)


def _check_features(est, X):
    n = est.n_features_in_
    if X.shape[1] != n:
        raise ValueError(f"X has {X.shape[1]} features, but {type(est).__name__} "
                         f"is expecting {n} features as input.")


def _sample_weight(sample_weight, X):
    if sample_weight is None:
        return None
    w = V.column_or_1d(sample_weight, device=X.device, input_name="sample_weight")
    if w.shape[0] != X.shape[0]:
        raise ValueError(f"sample_weight.shape == ({w.shape[0]},), expected "
                         f"({X.shape[0]},)!")
    w = w.astype(ember.float64)
    if not bool((w != 0).any()):
        raise ValueError("Sample weights must contain at least one non-zero number.")
    return w


def _no_inf(X):
    """scikit-learn's 'allow-nan': NaN passes, infinity does not."""
    if X.dtype.kind == "f" and X.size and bool(ember.isinf(X).any()):
        raise ValueError("Input X contains infinity or a value too large for "
                         f"dtype('{X.dtype}').")
    return X


class _NanScaler(TransformerMixin, BaseEstimator):
    """Scalers that ignore NaN in fit and keep it in transform."""

    def _fit_nan(self, X, first):
        Xa, _ = self._fit_input(X, reset=first, allow_nan=True)
        if not first:
            _check_features(self, Xa)
        return _no_inf(Xa)

    def _input_nan(self, X):
        return _no_inf(self._predict_input(X, allow_nan=True))

    def get_feature_names_out(self, input_features=None):
        return _same_names(self, input_features)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags


def _batch_stats(X, w, want_var):
    """Per column: the (weighted) count of non-NaN values, their mean and
    their sum of squared deviations, all float64."""
    Xd = X.astype(ember.float64)
    nan = ember.isnan(Xd)
    has_nan = bool(nan.any())
    X0 = ember.where(nan, 0.0, Xd) if has_nan else Xd
    present = (~nan).astype(ember.float64)
    if w is None:
        count = present.sum(axis=0) if has_nan else ember.full(
            X.shape[1], float(X.shape[0]), device=X.device)
        total = X0.sum(axis=0)
    else:
        count, total = w @ present, w @ X0
    mean = total / count
    if not want_var:
        return count, mean, None
    dev = Xd - mean
    if has_nan:
        dev = ember.where(nan, 0.0, dev)
    if w is None:
        sq, lin = (dev * dev).sum(axis=0), dev.sum(axis=0)
    else:
        sq, lin = w @ (dev * dev), w @ dev
    # the second term removes the rounding error of the mean (two-pass)
    return count, mean, sq - lin * lin / count


class StandardScaler(_NanScaler):
    """(x - mean_) / scale_ per feature; partial_fit merges batches with
    Chan, Golub and LeVeque's update."""
    mean_ = fitted()
    var_ = fitted()
    scale_ = fitted()

    def __init__(self, *, copy=True, with_mean=True, with_std=True):
        self.copy = copy
        self.with_mean = with_mean
        self.with_std = with_std

    def _reset(self):
        for k in ("mean_", "var_", "scale_", "n_samples_seen_", "_count", "_m2"):
            self.__dict__.pop(k, None)

    def fit(self, X, y=None, sample_weight=None):
        self._reset()
        return self.partial_fit(X, y, sample_weight)

    def partial_fit(self, X, y=None, sample_weight=None):
        first = "_count" not in self.__dict__
        Xa = self._fit_nan(X, first)
        w = _sample_weight(sample_weight, Xa)
        stats = self.with_mean or self.with_std
        count, mean, m2 = _batch_stats(Xa, w if stats else None, self.with_std)
        if not first:
            na = self._count
            n = na + count
            if stats:
                old = self._dev("mean_")
                delta = mean - old
                if m2 is not None:
                    m2 = ember.where(na > 0, self._m2 + m2 + delta * delta * na * count / n,
                                     m2)
                mean = ember.where(na > 0, old + delta * count / n, mean)
            count = n
        self._count = count
        if stats:
            self.mean_ = mean
        self._m2 = m2
        if self.with_std:
            var = m2 / count
            self.var_ = var
            eps = float(np.finfo(np.float64).eps)
            constant = var <= count * eps * var + (count * mean * eps) ** 2
            self.scale_ = _zeros_to_one(ember.sqrt(var), constant)
        else:
            self.var_ = None
            self.scale_ = None
        if not stats:
            self.mean_ = None
        # scikit-learn's types: float64 once statistics are kept; without
        # them, the rows counted (weights ignored) in int64 or X's dtype
        self._set_seen(count, np.float64 if stats else
                       np.int64 if w is None else np.dtype(str(Xa.dtype)).type)
        return self

    def _set_seen(self, count, kind):
        """n_samples_seen_ as scikit-learn's: one number when every feature saw
        as many values, a per-feature array otherwise (NaN in X)."""
        lo, hi = (float(v) for v in ember.asnumpy(ember.stack([count.min(),
                                                                count.max()])))
        if lo == hi:
            self.n_samples_seen_ = kind(lo)
        else:
            c = count.astype(ember.dtype(np.dtype(kind).name))
            self.n_samples_seen_ = self._out(c)

    def transform(self, X, copy=None):
        Xa = self._input_nan(X)
        if self.with_mean:
            Xa = Xa - self._dev("mean_").astype(Xa.dtype)
        if self.with_std:
            Xa = Xa / self._dev("scale_").astype(Xa.dtype)
        return self._out(Xa)

    def inverse_transform(self, X, copy=None):
        Xa = self._input_nan(X)
        if self.with_std:
            Xa = Xa * self._dev("scale_").astype(Xa.dtype)
        if self.with_mean:
            Xa = Xa + self._dev("mean_").astype(Xa.dtype)
        return self._out(Xa)



def _same_names(est, input_features):
    V.check_is_fitted(est)
    if input_features is not None:
        names = np.asarray(input_features, dtype=object)
        if len(names) != est.n_features_in_:
            raise ValueError(f"input_features should have length equal to number of "
                             f"features ({est.n_features_in_}), got {len(names)}")
        return names
    names = getattr(est, "feature_names_in_", None)
    if names is not None:
        return np.asarray(names, dtype=object)
    return np.asarray([f"x{i}" for i in range(est.n_features_in_)], dtype=object)


class MinMaxScaler(_NanScaler):
    """x * scale_ + min_ maps each feature's [data_min_, data_max_] onto
    feature_range."""
    data_min_ = fitted()
    data_max_ = fitted()
    data_range_ = fitted()
    scale_ = fitted()
    min_ = fitted()

    def __init__(self, feature_range=(0, 1), *, copy=True, clip=False):
        self.feature_range = feature_range
        self.copy = copy
        self.clip = clip

    def fit(self, X, y=None):
        self.__dict__.pop("n_samples_seen_", None)
        return self.partial_fit(X, y)

    def partial_fit(self, X, y=None):
        lo, hi = self.feature_range
        if lo >= hi:
            raise ValueError("Minimum of desired feature range must be smaller than "
                             f"maximum. Got {tuple(self.feature_range)!r}.")
        first = "n_samples_seen_" not in self.__dict__
        Xa = self._fit_nan(X, first)
        dmin, dmax = ember.nanmin(Xa, axis=0), ember.nanmax(Xa, axis=0)
        if first:
            self.n_samples_seen_ = Xa.shape[0]
        else:
            dmin = ember.fmin(dmin, self._dev("data_min_"))
            dmax = ember.fmax(dmax, self._dev("data_max_"))
            self.n_samples_seen_ += Xa.shape[0]
        rng = dmax - dmin
        scale = ((hi - lo) / _zeros_to_one(rng)).astype(Xa.dtype)
        self.data_min_, self.data_max_, self.data_range_ = dmin, dmax, rng
        self.scale_ = scale
        self.min_ = (lo - dmin * scale).astype(Xa.dtype)
        return self

    def transform(self, X):
        Xa = self._input_nan(X)
        out = Xa * self._dev("scale_").astype(Xa.dtype) + self._dev("min_").astype(
            Xa.dtype)
        if self.clip:
            out = ember.clip(out, self.feature_range[0], self.feature_range[1])
        return self._out(out.astype(Xa.dtype))

    def inverse_transform(self, X):
        Xa = self._input_nan(X)
        out = (Xa - self._dev("min_").astype(Xa.dtype)) / self._dev("scale_").astype(
            Xa.dtype)
        return self._out(out)


def _norms(Xa, norm, axis):
    if norm == "l1":
        n = ember.abs(Xa).sum(axis=axis)
    elif norm == "l2":
        n = ember.sqrt((Xa * Xa).sum(axis=axis))
    else:
        n = ember.abs(Xa).max(axis=axis)
    return n


def normalize(X, norm="l2", *, axis=1, copy=True, return_norm=False):
    """Each sample (axis=1) or feature (axis=0) divided by its norm; zero
    norms leave the vector as it is."""
    V.check_option(norm, "norm", ("l1", "l2", "max"))
    if axis not in (0, 1):
        raise ValueError(f"'{axis}' is not a supported axis")
    Xa = V.check_array(X)
    n = _norms(Xa, norm, axis)
    safe = _zeros_to_one(n)
    out = Xa / (safe.reshape(-1, 1) if axis == 1 else safe.reshape(1, -1))
    res = out_like(out, X)
    return (res, out_like(n, X)) if return_norm else res


class Normalizer(TransformerMixin, BaseEstimator):
    """normalize(X, norm) per sample; fit only checks X."""

    def __init__(self, norm="l2", *, copy=True):
        self.norm = norm
        self.copy = copy

    def fit(self, X, y=None):
        V.check_option(self.norm, "norm", ("l1", "l2", "max"), self)
        self._fit_input(X)
        return self

    def transform(self, X, copy=None):
        Xa = self._predict_input(X)
        out = normalize(Xa, self.norm)
        return self._out(out)

    def get_feature_names_out(self, input_features=None):
        return _same_names(self, input_features)


def scale(X, *, axis=0, with_mean=True, with_std=True, copy=True):
    """Standardize along an axis: StandardScaler's fit_transform of X (axis=0)
    or of its transpose (axis=1)."""
    if axis not in (0, 1):
        raise ValueError(f"'{axis}' is not a supported axis")
    s = StandardScaler(with_mean=with_mean, with_std=with_std)
    if axis == 0:
        return s.fit_transform(X)
    Xa = V.check_array(X, allow_nan=True)
    return out_like(s.fit_transform(Xa.T).T, X)
