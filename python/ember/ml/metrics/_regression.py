"""Regression metrics: r2_score, explained_variance_score,
mean_squared_error, root_mean_squared_error, mean_absolute_error,
mean_absolute_percentage_error. One weighted column reduction each on the device;
multioutput='raw_values' gives the per-output array in the output kind."""
import warnings

import numpy as np

import ember
from ember.ml.exceptions import UndefinedMetricWarning
from ember.ml.metrics import _base as B

_MULTI = ("raw_values", "uniform_average", "variance_weighted")


def _targets(y_true, y_pred, sample_weight, multioutput, allowed=_MULTI[:2]):
    """y_true and y_pred as 2-D float ember arrays of one shape, the weights,
    and the multioutput weights (a host array) if an array was given."""
    dev = B.device_of(y_true, y_pred)
    yt = B.as_values(y_true, dev, "y_true", ndim=(1, 2))
    yp = B.as_values(y_pred, dev, "y_pred", ndim=(1, 2))
    for a in (yt, yp):
        if not isinstance(a, ember.ndarray):
            raise ValueError("could not convert the targets to numbers")
    B.check_lengths(yt, yp)
    yt = yt.reshape(-1, 1) if yt.ndim == 1 else yt
    yp = yp.reshape(-1, 1) if yp.ndim == 1 else yp
    if yt.shape[1] != yp.shape[1]:
        raise ValueError("y_true and y_pred have different number of output "
                         f"({yt.shape[1]}!={yp.shape[1]})")
    dt = B.float_dtype(yt, yp)
    yt, yp = yt.astype(dt), yp.astype(dt)
    for name, a in (("y_true", yt), ("y_pred", yp)):
        if a.size and not bool(ember.isfinite(a).all()):
            raise ValueError(f"Input {name} contains NaN." if bool(ember.isnan(a).any())
                             else f"Input {name} contains infinity or a value too "
                             f"large for dtype('{a.dtype}').")
    w = B.weights(sample_weight, yt.shape[0], dev, dt)
    mw = None
    if isinstance(multioutput, str):
        if multioutput not in allowed:
            raise ValueError(f"Allowed 'multioutput' string values are {allowed}. "
                             f"You provided multioutput={multioutput!r}")
    elif multioutput is not None:
        mw = np.asarray(B.host(multioutput) if isinstance(multioutput, ember.ndarray)
                        else multioutput, dtype=np.float64)
        if yt.shape[1] == 1:
            raise ValueError("Custom weights are useful only in multi-output cases.")
        if mw.shape != (yt.shape[1],):
            raise ValueError("There must be equally many custom weights "
                             f"({mw.shape[0]}) as outputs ({yt.shape[1]}).")
    return yt, yp, w, mw


def _column_mean(v, w):
    """The (weighted) mean of each column."""
    if w is None:
        return v.mean(axis=0)
    return (w @ v) / w.sum()


def _finish(per_output, multioutput, mw, inputs, avg_weights=None):
    if isinstance(multioutput, str) and multioutput == "raw_values":
        return B.out(per_output, *inputs)
    h = ember.asnumpy(per_output).astype(np.float64)
    if mw is not None:
        return float(np.average(h, weights=mw))
    if avg_weights is not None:
        return float(np.average(h, weights=avg_weights))
    return float(np.mean(h))


def mean_squared_error(y_true, y_pred, *, sample_weight=None,
                       multioutput="uniform_average"):
    yt, yp, w, mw = _targets(y_true, y_pred, sample_weight, multioutput)
    d = yt - yp
    return _finish(_column_mean(d * d, w), multioutput, mw, (y_true, y_pred))


def root_mean_squared_error(y_true, y_pred, *, sample_weight=None,
                            multioutput="uniform_average"):
    yt, yp, w, mw = _targets(y_true, y_pred, sample_weight, multioutput)
    d = yt - yp
    return _finish(ember.sqrt(_column_mean(d * d, w)), multioutput, mw,
                   (y_true, y_pred))


def mean_absolute_error(y_true, y_pred, *, sample_weight=None,
                        multioutput="uniform_average"):
    yt, yp, w, mw = _targets(y_true, y_pred, sample_weight, multioutput)
    return _finish(_column_mean(ember.abs(yt - yp), w), multioutput, mw,
                   (y_true, y_pred))


def mean_absolute_percentage_error(y_true, y_pred, *, sample_weight=None,
                                   multioutput="uniform_average"):
    """mean |y_pred - y_true| / max(|y_true|, eps): a fraction, not percent."""
    yt, yp, w, mw = _targets(y_true, y_pred, sample_weight, multioutput)
    eps = float(np.finfo(np.float64).eps)
    ape = ember.abs(yp - yt) / ember.maximum(ember.abs(yt), eps).astype(yt.dtype)
    return _finish(_column_mean(ape, w), multioutput, mw, (y_true, y_pred))


def _one_minus_ratio(num, den, multioutput, mw, force_finite, inputs):
    """1 - num / den per output, then averaged: r2 and explained variance.
    A constant y_true (den 0) scores 1.0 when predicted exactly and 0.0
    otherwise with force_finite, NaN or -inf without."""
    both = ember.asnumpy(ember.stack([num, den])).astype(np.float64)
    num_h, den_h = both
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = 1 - num_h / den_h
    if force_finite:
        scores = np.where(den_h == 0, np.where(num_h == 0, 1.0, 0.0), scores)
    if isinstance(multioutput, str) and multioutput == "raw_values":
        return B.out(np.asarray(scores, dtype=np.float32 if num.dtype == ember.float32
                                else np.float64), *inputs)
    if mw is not None:
        return float(np.average(scores, weights=mw))
    if multioutput == "variance_weighted" and den_h.any():
        return float(np.average(scores, weights=den_h))
    return float(np.mean(scores))


def explained_variance_score(y_true, y_pred, *, sample_weight=None,
                             multioutput="uniform_average", force_finite=True):
    """1 - Var(y_true - y_pred) / Var(y_true) per output."""
    yt, yp, w, mw = _targets(y_true, y_pred, sample_weight, multioutput, _MULTI)
    d = yt - yp
    d = d - _column_mean(d, w)
    c = yt - _column_mean(yt, w)
    return _one_minus_ratio(_column_mean(d * d, w), _column_mean(c * c, w),
                            multioutput, mw, force_finite, (y_true, y_pred))


def r2_score(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average",
             force_finite=True):
    """1 - SS_res / SS_tot per output; a constant y_true gives 1.0 (perfect
    prediction) or 0.0 with force_finite, NaN or -inf without."""
    yt, yp, w, mw = _targets(y_true, y_pred, sample_weight, multioutput, _MULTI)
    if yt.shape[0] < 2:
        warnings.warn("R^2 score is not well-defined with less than two samples.",
                      UndefinedMetricWarning)
        return float("nan")
    d = yt - yp
    c = yt - _column_mean(yt, w)
    if w is None:
        num, den = (d * d).sum(axis=0), (c * c).sum(axis=0)
    else:
        num, den = w @ (d * d), w @ (c * c)
    return _one_minus_ratio(num, den, multioutput, mw, force_finite,
                            (y_true, y_pred))
