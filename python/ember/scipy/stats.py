"""ember.scipy.stats: the functions of scipy.stats that cupyx.scipy.stats
has (boxcox_llf, entropy, trim_mean, zmap, zscore), over ember arrays on
their device, with SciPy's results, dtypes and errors (docs/scipy.md,
"stats"). Each is a few reductions and one elementwise expression; only
the argument checks run on the host."""
import math
import numbers

import numpy
from numpy.lib.array_utils import normalize_axis_index

import ember
from ember.scipy import special as _special

__all__ = ["boxcox_llf", "entropy", "trim_mean", "zmap", "zscore"]


def _device(*xs):
    for x in xs:
        if isinstance(x, ember.ndarray):
            return x.device
    return None


def _floating(x, device, other=None):
    """x as an ember array of SciPy's floating result type (integers and
    bools in float64, float32 kept; `other` joins the promotion)."""
    a = x if isinstance(x, ember.ndarray) else ember.asarray(x, device=device)
    dtypes = [a.dtype] + ([other.dtype] if other is not None else [])
    dt = ember.result_type(*dtypes)
    if dt.kind in "biu":
        dt = ember.float64
    elif dt.kind not in "fc":
        raise TypeError(f"scipy.stats functions take numbers, not {dt}")
    return a if a.dtype == dt else a.astype(dt)


def _policy(nan_policy, a, omit_ok):
    """SciPy's check of nan_policy, then its 'raise' (a ValueError where a
    holds a NaN). 'omit' where the function has no NaN-skipping form is
    refused rather than answered as 'propagate'."""
    policies = {"propagate", "raise", "omit"}
    if nan_policy not in policies:
        raise ValueError(f"nan_policy must be one of {policies}.")
    if nan_policy == "omit" and not omit_ok:
        raise NotImplementedError("nan_policy='omit' is not supported here; "
                                  "ember.scipy.stats has it for zscore and zmap")
    if nan_policy == "raise" and a.size and a.dtype.kind == "f" \
            and bool(ember.isnan(a.max())):
        raise ValueError("The input contains nan values")


def _axis(a, axis):
    """(a, axis): axis None reduces over the flattened array, as does a
    0-d a (SciPy's one-sample case)."""
    if axis is None or a.ndim == 0:
        return a.reshape(-1), 0
    return a, normalize_axis_index(axis, a.ndim)


def _keep(res, axis, keepdims):
    return ember.expand_dims(res, axis) if keepdims else res


def _nan_result(a, axis, keepdims):
    shape = list(a.shape)
    if keepdims:
        shape[axis] = 1
    else:
        del shape[axis]
    return ember.full(tuple(shape), numpy.nan, dtype=a.dtype, device=a.device)


def boxcox_llf(lmb, data, *, axis=0, keepdims=False, nan_policy="propagate"):
    """The Box-Cox log-likelihood of data at lmb along axis. The variance
    of data**lmb is taken after dividing by its largest value along the
    axis (SciPy takes it in log space for the same reason: data**lmb
    overflows where the log-likelihood does not)."""
    if not isinstance(lmb, numbers.Real):
        raise TypeError(f"lmb must be a real scalar, not {type(lmb).__name__}")
    a = _floating(data, _device(data))
    _policy(nan_policy, a, omit_ok=False)
    a, axis = _axis(a, axis)
    n = a.shape[axis]
    if n == 0:
        return _nan_result(a, axis, keepdims)
    logdata = ember.log(a)
    if lmb == 0:
        logvar = ember.log(logdata.var(axis=axis))
    else:
        logx = logdata * lmb
        top = logx.max(axis=axis, keepdims=True)
        scaled = ember.exp(logx - top)
        logvar = (ember.log(scaled.var(axis=axis)) + 2 * top.squeeze(axis)
                  - 2 * math.log(abs(lmb)))
    res = (lmb - 1) * logdata.sum(axis=axis) - (n / 2) * logvar
    return _keep(res.astype(a.dtype, copy=False), axis, keepdims)


def entropy(pk, qk=None, base=None, axis=0, *, nan_policy="propagate",
            keepdims=False):
    """Shannon entropy of pk, or the Kullback-Leibler divergence of pk from
    qk, along axis (each normalised to sum 1), in units of base (e by
    default): sum(entr(pk)) or sum(rel_entr(pk, qk))."""
    if base is not None and base <= 0:
        raise ValueError("`base` must be a positive number or `None`.")
    dev = _device(pk, qk)
    p = _floating(pk, dev)
    q = None
    if qk is not None:
        q = _floating(qk, p.device, p)
        p = p.astype(q.dtype, copy=False)
        try:
            shape = ember.broadcast_shapes(p.shape, q.shape)
        except ValueError:
            raise ValueError("Array shapes are incompatible for broadcasting.") from None
        p, q = ember.broadcast_to(p, shape), ember.broadcast_to(q, shape)
    _policy(nan_policy, p, omit_ok=False)
    if q is not None:
        _policy(nan_policy, q, omit_ok=False)
    if axis is None or p.ndim == 0:
        p = p.reshape(-1)
        q = None if q is None else q.reshape(-1)
        axis = 0
    axis = normalize_axis_index(axis, p.ndim)
    p = p / p.sum(axis=axis, keepdims=True)
    if q is None:
        vec = _special.entr(p)
    else:
        q = q / q.sum(axis=axis, keepdims=True)
        vec = _special.rel_entr(p, q)
    S = vec.sum(axis=axis)
    if base is not None:
        S = S / math.log(base)
    return _keep(S.astype(p.dtype, copy=False), axis, keepdims)


def trim_mean(a, proportiontocut, axis=0, *, nan_policy="propagate", keepdims=False):
    """The mean of a along axis after cutting int(proportiontocut * n)
    values off each end of the sorted slice (ember.sort along the axis)."""
    x = a if isinstance(a, ember.ndarray) else ember.asarray(a)
    _policy(nan_policy, x, omit_ok=False)
    x, axis = _axis(x, axis)
    out_dtype = ember.float64 if x.dtype.kind in "biu" else x.dtype
    if x.size == 0:
        return _nan_result(x.astype(out_dtype), axis, keepdims)
    nobs = x.shape[axis]
    lowercut = int(proportiontocut * nobs)
    uppercut = nobs - lowercut
    if lowercut > uppercut:
        raise ValueError("Proportion too big.")
    s = ember.sort(x, axis=axis)
    sl = [slice(None)] * s.ndim
    sl[axis] = slice(lowercut, uppercut)
    kept = s[tuple(sl)].astype(out_dtype, copy=False)
    count = uppercut - lowercut
    # mean of an empty slice is NaN (SciPy's, through NumPy's mean)
    res = kept.sum(axis=axis) / count if count else _nan_result(kept, axis, False)
    if x.dtype.kind == "f":
        # a NaN sorts last and may be cut off; SciPy's slice is NaN then
        res = ember.where(ember.isnan(x).any(axis=axis), numpy.nan, res)
    return _keep(res.astype(out_dtype, copy=False), axis, keepdims)


def _mean_std(c, axis, ddof, omit):
    """Mean and standard deviation of c along axis (None: all of it), kept
    as dims; with omit the NaNs are left out of both and of the count.
    Where n - ddof <= 0 the deviation is NaN (SciPy's _xp_var)."""
    kw = dict(axis=axis, keepdims=True)
    if omit:
        valid = ember.logical_not(ember.isnan(c))
        n = valid.sum(**kw).astype(c.dtype)
        mean = ember.where(valid, c, 0).sum(**kw) / n
        dev = ember.where(valid, c - mean, 0)
    else:
        n = c.size if axis is None else c.shape[axis]
        mean = c.sum(**kw) / n
        dev = c - mean
    nc = n - ddof
    if omit:
        factor = ember.where(nc > 0, n / nc, numpy.nan)
    else:
        factor = n / nc if nc > 0 else numpy.nan
    var = (dev * dev).sum(**kw) / n * factor
    return mean, ember.sqrt(var.astype(c.dtype, copy=False))


def _z(scores, compare, axis, ddof, nan_policy, like_zscore):
    dev = _device(scores, compare)
    c = _floating(compare, dev)
    s = c if like_zscore else _floating(scores, c.device, c)
    c = c.astype(s.dtype, copy=False)
    _policy(nan_policy, c, omit_ok=True)
    if axis is not None:
        normalize_axis_index(axis, c.ndim)
    mean, std = _mean_std(c, axis, ddof, nan_policy == "omit")
    z = (s - mean) / std
    if like_zscore:
        # a slice whose spread is rounding noise has no z-scores (SciPy's
        # rule for zscore, which knows the scores are the sample)
        eps = float(numpy.finfo(numpy.dtype(z.dtype.name)).eps)
        z = ember.where(std <= ember.abs(mean * eps), numpy.nan, z)
    return z.astype(s.dtype, copy=False)


def zscore(a, axis=0, ddof=0, nan_policy="propagate"):
    """(a - mean) / std along axis (None: over the whole array);
    nan_policy 'omit' leaves NaNs out of the mean and the deviation (and
    keeps them in the result)."""
    return _z(a, a, axis, ddof, nan_policy, True)


def zmap(scores, compare, axis=0, ddof=0, nan_policy="propagate"):
    """(scores - mean(compare)) / std(compare), compare reduced along axis
    and broadcast against scores."""
    return _z(scores, compare, axis, ddof, nan_policy, False)


# after the helpers above, which these modules import
from ember.scipy.stats_means import gmean  # noqa: E402
from ember.scipy.stats_norm import norm  # noqa: E402
from ember.scipy.stats_normaltest import (  # noqa: E402
    kurtosistest, normaltest, skewtest)

__all__ += ["gmean", "norm", "normaltest", "skewtest", "kurtosistest"]
