"""Reductions over MaskedArrays: masked entries are filled with the
reduction's identity (0 for sum, 1 for prod, the dtype's extreme for
min/max) and ember's reduction runs once; a slice with nothing unmasked
is masked in the result (or the whole result is `masked`)."""
import builtins

import numpy as np

import ember
from ember.ma.core import MaskedArray, MaskedConstant, masked, nomask, asanyarray


def _no_out(out):
    if out is not None:
        raise NotImplementedError("ember.ma's reductions take no out= argument")


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for ax in axes:
        if not -ndim <= ax < builtins.max(ndim, 1):
            raise np.exceptions.AxisError(f"axis {ax} is out of bounds for array of "
                                          f"dimension {ndim}")
        out.append(ax % builtins.max(ndim, 1))
    return tuple(out)


def _finish(a, res, allmasked_fn, axis, keepdims, fill_value=None):
    """res from the filled data; masked where allmasked_fn says so."""
    if a._mask is nomask:
        if res.ndim == 0 and not keepdims:
            return res
        return MaskedArray._wrap(res, nomask, fill_value, False)
    dead = allmasked_fn(a._mask, axis, keepdims)
    if res.ndim == 0 and not keepdims:
        return masked if bool(dead) else res
    if dead.shape != res.shape:
        dead = ember.broadcast_to(dead, res.shape).copy()
    return MaskedArray._wrap(res, dead, fill_value, False)


def _all(m, axis, keepdims):
    return ember.all(m, axis=axis, keepdims=keepdims)


def _filled(a, value):
    if a._mask is nomask:
        return a._data
    return ember.where(a._mask, value, a._data)


def count(a, axis=None, keepdims=False):
    """Unmasked entries along axis: a Python int for axis=None."""
    a = asanyarray(a)
    if a is masked:
        return 0
    _axes(axis, a.ndim)
    if a._mask is nomask:
        if axis is None and not keepdims:
            return a.size
        shape = a.shape
        n = int(np.prod([shape[i] for i in _axes(axis, a.ndim)]))
        out_shape = tuple(1 if i in _axes(axis, a.ndim) else s for i, s in enumerate(shape)) \
            if keepdims else tuple(s for i, s in enumerate(shape) if i not in _axes(axis, a.ndim))
        return ember.full(out_shape, n, dtype=ember.intp, device=a.device)
    c = ember.sum(ember.logical_not(a._mask), axis=axis, keepdims=keepdims, dtype=ember.intp)
    if axis is None and not keepdims:
        return int(c)
    return c


def sum(a, axis=None, dtype=None, keepdims=False, out=None):
    _no_out(out)
    a = asanyarray(a)
    res = ember.sum(_filled(a, 0), axis=axis, dtype=dtype, keepdims=keepdims)
    return _finish(a, res, _all, axis, keepdims)


def prod(a, axis=None, dtype=None, keepdims=False, out=None):
    _no_out(out)
    a = asanyarray(a)
    res = ember.prod(_filled(a, 1), axis=axis, dtype=dtype, keepdims=keepdims)
    return _finish(a, res, _all, axis, keepdims)


product = prod


def _extreme(dt, high):
    """The fill that never wins a min (high=True) or a max (high=False)."""
    npdt = np.dtype(str(dt))
    if npdt.kind == "b":
        return bool(high)
    if npdt.kind in "iu":
        info = np.iinfo(npdt)
        return int(info.max if high else info.min)
    return float("inf") if high else float("-inf")


def min(a, axis=None, keepdims=False, fill_value=None, out=None):
    _no_out(out)
    a = asanyarray(a)
    fv = _extreme(a.dtype, True) if fill_value is None else fill_value
    res = ember.min(_filled(a, fv), axis=axis, keepdims=keepdims)
    return _finish(a, res, _all, axis, keepdims)


def max(a, axis=None, keepdims=False, fill_value=None, out=None):
    _no_out(out)
    a = asanyarray(a)
    fv = _extreme(a.dtype, False) if fill_value is None else fill_value
    res = ember.max(_filled(a, fv), axis=axis, keepdims=keepdims)
    return _finish(a, res, _all, axis, keepdims)


amin, amax = min, max


def ptp(a, axis=None, keepdims=False):
    return max(a, axis, keepdims) - min(a, axis, keepdims)


def argmin(a, axis=None, fill_value=None, keepdims=False, out=None):
    """Index of the least unmasked entry (masked entries never win)."""
    _no_out(out)
    a = asanyarray(a)
    fv = _extreme(a.dtype, True) if fill_value is None else fill_value
    return ember.argmin(_filled(a, fv), axis=axis, keepdims=keepdims)


def argmax(a, axis=None, fill_value=None, keepdims=False, out=None):
    _no_out(out)
    a = asanyarray(a)
    fv = _extreme(a.dtype, False) if fill_value is None else fill_value
    return ember.argmax(_filled(a, fv), axis=axis, keepdims=keepdims)


def any(a, axis=None, keepdims=False, out=None):
    _no_out(out)
    a = asanyarray(a)
    res = ember.any(_filled(a, False), axis=axis, keepdims=keepdims)
    return _finish(a, res, _all, axis, keepdims)


def all(a, axis=None, keepdims=False, out=None):
    _no_out(out)
    a = asanyarray(a)
    res = ember.all(_filled(a, True), axis=axis, keepdims=keepdims)
    return _finish(a, res, _all, axis, keepdims)


def alltrue(a, axis=None):
    return all(a, axis)


def sometrue(a, axis=None):
    return any(a, axis)


def _mean_dtype(a, dtype):
    if dtype is not None:
        return dtype
    k = a.dtype.kind
    if k in "biu":
        return ember.float64
    # numpy.ma divides a masked float32 sum by an int64 count: float64
    if a._mask is not nomask and k == "f" and a.dtype.itemsize == 4:
        return ember.float64
    if a._mask is not nomask and k == "c" and a.dtype.itemsize == 8:
        return ember.complex128
    return a.dtype


def mean(a, axis=None, dtype=None, keepdims=False, out=None):
    """Sum of the unmasked entries over their count; masked where none."""
    _no_out(out)
    a = asanyarray(a)
    dt = _mean_dtype(a, dtype)
    if a._mask is nomask:
        res = ember.mean(a._data, axis=axis, dtype=dt, keepdims=keepdims)
        return _finish(a, res, _all, axis, keepdims)
    s = ember.sum(_filled(a, 0), axis=axis, dtype=dt, keepdims=keepdims)
    n = ember.sum(ember.logical_not(a._mask), axis=axis, keepdims=keepdims, dtype=ember.intp)
    with np.errstate(all="ignore"):
        res = ember.true_divide(s, ember.maximum(n, 1).astype(s.dtype))
    return _finish(a, res, _all, axis, keepdims)


def var(a, axis=None, dtype=None, ddof=0, keepdims=False, mean_=None):
    """Mean squared deviation of the unmasked entries over (count - ddof);
    masked where count - ddof <= 0."""
    a = asanyarray(a)
    dt = _mean_dtype(a, dtype)
    m = mean(a, axis=axis, dtype=dt, keepdims=True)
    mdata = m.data if isinstance(m, MaskedArray) else ember.asarray(m)
    dev = ember.subtract(a._data.astype(dt) if a._data.dtype != dt else a._data, mdata)
    sq = ember.real(dev * ember.conj(dev)) if dev.dtype.kind == "c" else dev * dev
    if a._mask is not nomask:
        sq = ember.where(a._mask, 0, sq)
        n = ember.sum(ember.logical_not(a._mask), axis=axis, keepdims=keepdims,
                      dtype=ember.intp)
    else:
        n = count(a, axis=axis, keepdims=keepdims)
        n = ember.asarray(n, device=a.device) if not isinstance(n, ember.ndarray) else n
    s = ember.sum(sq, axis=axis, keepdims=keepdims)
    dof = n - ddof
    with np.errstate(all="ignore"):
        res = ember.true_divide(s, ember.maximum(dof, 1).astype(s.dtype))
    dead = ember.less_equal(dof, 0)
    if res.ndim == 0 and not keepdims:
        return masked if bool(dead) else res
    if a._mask is nomask and not bool(ember.any(dead)):
        return MaskedArray._wrap(res, nomask, None, False)
    return MaskedArray._wrap(res, ember.broadcast_to(dead, res.shape).copy(), None, False)


def std(a, axis=None, dtype=None, ddof=0, keepdims=False):
    v = var(a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
    if v is masked:
        return masked
    if isinstance(v, MaskedArray):
        return MaskedArray._wrap(ember.sqrt(v._data), v._mask, None, False)
    return ember.sqrt(v)


def _running(fn, skip, a, axis, dtype, out):
    """fn (cumsum or cumprod) over a with masked entries as `skip`, the
    operation's identity; the mask stays elementwise."""
    _no_out(out)
    a = asanyarray(a)
    res = fn(_filled(a, skip), axis=axis, dtype=dtype)
    m = a._mask
    if m is not nomask and axis is None:
        m = m.ravel()
    return MaskedArray._wrap(res, m if m is nomask else m.copy(), a._fill_value, False)


def cumsum(a, axis=None, dtype=None, out=None):
    """Running sums that skip masked entries; the mask stays elementwise."""
    return _running(ember.cumsum, 0, a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    """Running products that skip masked entries."""
    return _running(ember.cumprod, 1, a, axis, dtype, out)


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    """Weighted mean of the unmasked entries (weights of masked entries
    count zero); masked where the weights left sum to zero."""
    a = asanyarray(a)
    if weights is None:
        avg = mean(a, axis=axis, keepdims=keepdims)
        if not returned:
            return avg
        scl = count(a, axis=axis, keepdims=keepdims)
        rd = avg.dtype if not isinstance(avg, MaskedConstant) else ember.float64
        scl = ember.asarray(scl, device=a.device).astype(rd) if not isinstance(scl, ember.ndarray) \
            else scl.astype(rd)
        return avg, scl
    w = weights.filled(0) if isinstance(weights, MaskedArray) else weights
    w = ember.asarray(w, device=a.device) if not isinstance(w, ember.ndarray) else w
    if w.shape != a.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if w.ndim != 1:
            raise TypeError("1D weights expected when shapes of a and weights differ.")
        ax = _axes(axis, a.ndim)
        if len(ax) != 1 or w.shape[0] != a.shape[ax[0]]:
            raise ValueError("Length of weights not compatible with specified axis.")
        shape = [1] * a.ndim
        shape[ax[0]] = w.shape[0]
        w = ember.broadcast_to(w.reshape(shape), a.shape)
    rd = ember.result_type(a.dtype, w.dtype, ember.float64) if a.dtype.kind in "biu" \
        else ember.result_type(a.dtype, w.dtype)
    if a._mask is not nomask:
        w = ember.where(a._mask, 0, w)
    w = w.astype(rd)
    scl = ember.sum(w, axis=axis, keepdims=keepdims)
    num = ember.sum(ember.multiply(_filled(a, 0).astype(rd), w), axis=axis, keepdims=keepdims)
    with np.errstate(all="ignore"):
        res = ember.true_divide(num, ember.where(scl == 0, 1, scl))
    dead = ember.equal(scl, 0)
    if res.ndim == 0 and not keepdims:
        avg = masked if bool(dead) else res
    else:
        anydead = bool(ember.any(dead))
        avg = MaskedArray._wrap(res, dead if anydead or a._mask is not nomask else nomask,
                                None, False)
    if returned and scl.ndim:
        # numpy.ma's sum of the zeroed weights keeps the all-masked slices masked
        smask = nomask if a._mask is nomask else ember.all(a._mask, axis=axis, keepdims=keepdims)
        scl = MaskedArray._wrap(scl, smask, None, False)
    return (avg, scl) if returned else avg


def median(a, axis=None, keepdims=False, overwrite_input=False, out=None):
    """Median of the unmasked entries: masked entries sort last (filled
    with +inf), then the middle of each slice's count is taken."""
    _no_out(out)
    a = asanyarray(a)
    if a._mask is nomask:
        res = ember.median(a._data.astype(_mean_dtype(a, None)), axis=axis, keepdims=keepdims)
        return _finish(a, res, _all, axis, keepdims)
    d = a._data.astype(_mean_dtype(a, None))
    m = a._mask
    if axis is None:
        d, m, ax = d.ravel(), m.ravel(), 0
    else:
        ax = _axes(axis, a.ndim)[0]
    srt = ember.sort(ember.where(m, float("inf"), d), axis=ax)
    n = ember.sum(ember.logical_not(m), axis=ax, keepdims=True, dtype=ember.intp)
    lo = ember.maximum((n - 1) // 2, 0)
    hi = ember.maximum(n // 2, 0)
    vlo = ember.take_along_axis(srt, lo, axis=ax)
    vhi = ember.take_along_axis(srt, hi, axis=ax)
    res = (vlo + vhi) / 2
    dead = n == 0
    if not keepdims or axis is None:
        res = res.squeeze(ax)
        dead = dead.squeeze(ax)
        if keepdims:  # axis None with keepdims
            res = res.reshape((1,) * a.ndim)
            dead = dead.reshape((1,) * a.ndim)
    if res.ndim == 0:
        return masked if bool(dead) else res
    return MaskedArray._wrap(res, dead, None, False)


def _install():
    """The reductions as MaskedArray methods too."""
    for name, fn in (("sum", sum), ("prod", prod), ("product", prod), ("min", min),
                     ("max", max), ("ptp", ptp), ("argmin", argmin), ("argmax", argmax),
                     ("any", any), ("all", all), ("mean", mean), ("cumsum", cumsum),
                     ("cumprod", cumprod)):
        setattr(MaskedArray, name, fn)

    def _var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        _no_out(out)
        return var(self, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)

    def _std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        _no_out(out)
        return std(self, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims)
    MaskedArray.var, MaskedArray.std = _var, _std


_install()
