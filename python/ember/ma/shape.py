"""numpy.ma's module-level shape functions and creators, each the ember
function on the data with the mask carried along."""
import ember
from ember.ma.core import MaskedArray, nomask, masked, asanyarray, getmaskarray


def _carry(a, fn):
    a = asanyarray(a)
    m = nomask if a._mask is nomask else fn(a._mask)
    return MaskedArray._wrap(fn(a._data), m, a._fill_value, a._hardmask)


def reshape(a, new_shape, order="C"):
    return asanyarray(a).reshape(new_shape, order=order)


def ravel(a, order="C"):
    return asanyarray(a).ravel(order)


def transpose(a, axes=None):
    a = asanyarray(a)
    return a.transpose() if axes is None else a.transpose(*axes)


def expand_dims(a, axis):
    return _carry(a, lambda x: ember.expand_dims(x, axis))


def anom(a, axis=None, dtype=None):
    return asanyarray(a).anom(axis, dtype)


anomalies = anom


def concatenate(arrays, axis=0):
    """Data and masks joined; nomask when no part has a mask."""
    arrays = [asanyarray(x) for x in arrays]
    d = ember.concatenate([x._data for x in arrays], axis=axis)
    if all(x._mask is nomask for x in arrays):
        return MaskedArray._wrap(d, nomask, None, False)
    m = ember.concatenate([getmaskarray(x) for x in arrays], axis=axis)
    return MaskedArray._wrap(d, m, None, False)


def where(condition, x, y):
    """x where condition, else y; masked where the chosen side is masked or
    the condition is."""
    c = asanyarray(condition)
    cd = c.filled(False).astype(ember.bool_)
    dev = cd.device

    def part(v):
        # Python scalars stay scalars (wrapped, they would land on the
        # current device rather than the condition's)
        if v is masked:
            return 0, True
        if isinstance(v, (bool, int, float, complex)):
            return v, False
        v = v if isinstance(v, MaskedArray) else MaskedArray(ember.asarray(v, device=dev))
        return v._data, getmaskarray(v)
    xs, ys = x, y
    xd, xm = part(xs)
    yd, ym = part(ys)
    d = ember.where(cd, xd, yd)
    m = ember.where(cd, xm, ym)
    if not isinstance(m, ember.ndarray) or m.shape != d.shape:
        m = ember.broadcast_to(ember.asarray(m, device=dev), d.shape)
    if c._mask is not nomask:
        m = ember.logical_or(m, c._mask)
    return MaskedArray._wrap(d, ember.broadcast_to(m, d.shape).copy(), None, False)


def _creator(fn):
    def make(*args, **kwargs):
        return MaskedArray._wrap(fn(*args, **kwargs), nomask, None, False)
    make.__name__ = fn.__name__
    return make


zeros = _creator(ember.zeros)
ones = _creator(ember.ones)
empty = _creator(ember.empty)
arange = _creator(ember.arange)


def nonzero(a):
    return asanyarray(a).nonzero()


def sort(a, axis=-1, endwith=True, fill_value=None):
    """Sorted along axis with masked entries last (endwith) or first."""
    from ember.ma.reductions import _extreme
    a = asanyarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    if a._mask is nomask:
        return MaskedArray._wrap(ember.sort(a._data, axis=axis), nomask, None, False)
    fv = _extreme(a.dtype, endwith) if fill_value is None else fill_value
    idx = ember.argsort(ember.where(a._mask, fv, a._data), axis=axis)
    return MaskedArray._wrap(ember.take_along_axis(a._data, idx, axis=axis),
                             ember.take_along_axis(a._mask, idx, axis=axis), a._fill_value, False)


def argsort(a, axis=-1, endwith=True, fill_value=None):
    from ember.ma.reductions import _extreme
    a = asanyarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    fv = _extreme(a.dtype, endwith) if fill_value is None else fill_value
    return ember.argsort(a.filled(fv), axis=axis)
