"""numpy.ma's constructors: masked_array/array and the masked_* family
(each one comparison on the device), make_mask and mask_or."""
import numpy as np

import ember
from ember.ma.core import MaskedArray, nomask, getmask, _to_mask


def masked_array(data=None, mask=nomask, dtype=None, copy=False, fill_value=None,
                 keep_mask=True, hard_mask=False, shrink=True, device=None):
    return MaskedArray(data, mask=mask, dtype=dtype, copy=copy, fill_value=fill_value,
                       keep_mask=keep_mask, hard_mask=hard_mask, shrink=shrink,
                       device=device)


def array(data, dtype=None, copy=False, mask=nomask, fill_value=None,
          keep_mask=True, hard_mask=False, shrink=True, device=None):
    return MaskedArray(data, mask=mask, dtype=dtype, copy=copy, fill_value=fill_value,
                       keep_mask=keep_mask, hard_mask=hard_mask, shrink=shrink,
                       device=device)


def make_mask(m, copy=False, shrink=True, dtype=None):
    """m as a bool ember array; nomask when shrink and nothing is True."""
    if m is nomask:
        return nomask
    if isinstance(m, MaskedArray):
        m = m.filled(True)
    if not isinstance(m, ember.ndarray):
        m = ember.asarray(np.asarray(m))
    out = _to_mask(m, m.shape, m.device, copy=copy)
    if shrink and not bool(ember.any(out)):
        return nomask
    return out


def make_mask_none(newshape, dtype=None, device=None):
    return ember.zeros(newshape, dtype=ember.bool_, device=device)


def mask_or(m1, m2, copy=False, shrink=True):
    """The or of two masks, nomask when both are (NumPy's shapes rule)."""
    if m1 is nomask or m1 is False:
        return make_mask(m2, copy=copy, shrink=shrink)
    if m2 is nomask or m2 is False:
        return make_mask(m1, copy=copy, shrink=shrink)
    m1 = ember.asarray(m1) if not isinstance(m1, ember.ndarray) else m1
    m2 = ember.asarray(m2, device=m1.device) if not isinstance(m2, ember.ndarray) else m2
    if m1.shape != m2.shape and m1.ndim and m2.ndim and m1.size != 1 and m2.size != 1:
        try:
            ember.broadcast_shapes(m1.shape, m2.shape)
        except ValueError:
            raise ValueError(f"Incompatible shapes for masks: {m1.shape} and {m2.shape}")
    return make_mask(ember.logical_or(m1, m2), shrink=shrink)


def masked_where(condition, a, copy=True):
    """a with entries masked where condition is True (or'd with a's mask)."""
    cond = condition.filled(True) if isinstance(condition, MaskedArray) else condition
    if not isinstance(a, MaskedArray):
        a = MaskedArray(a, device=cond.device if isinstance(cond, ember.ndarray) else None)
    cond = _to_mask(cond, np.shape(cond) if not isinstance(cond, ember.ndarray)
                    else cond.shape, a.device)
    if cond.shape != a.shape:
        raise IndexError(f"Inconsistent shape between the condition and the input "
                         f"(got {cond.shape} and {a.shape})")
    res = a.copy() if copy else a.view()
    old = getmask(a)
    res._mask = cond if old is nomask else ember.logical_or(old, cond)
    return res


def _cmp(name, opname):
    op = getattr(ember, opname)

    def f(x, value, copy=True):
        x = x if isinstance(x, MaskedArray) else MaskedArray(x)
        out = masked_where(op(x.data, value), x, copy=copy)
        if opname == "equal":   # numpy.ma's masked_equal fills with value
            out.fill_value = value
        return out
    f.__name__ = name
    f.__doc__ = f"x masked where x {opname.replace('_', ' ')} value."
    return f


masked_equal = _cmp("masked_equal", "equal")
masked_not_equal = _cmp("masked_not_equal", "not_equal")
masked_greater = _cmp("masked_greater", "greater")
masked_greater_equal = _cmp("masked_greater_equal", "greater_equal")
masked_less = _cmp("masked_less", "less")
masked_less_equal = _cmp("masked_less_equal", "less_equal")


def masked_equal_fill(x, value, copy=True):
    r = masked_equal(x, value, copy)
    r.fill_value = value
    return r


def masked_inside(x, v1, v2, copy=True):
    """x masked where v1 <= x <= v2 (the bounds in either order)."""
    lo, hi = (v2, v1) if v2 < v1 else (v1, v2)
    x = x if isinstance(x, MaskedArray) else MaskedArray(x)
    d = x.data
    return masked_where(ember.logical_and(d >= lo, d <= hi), x, copy=copy)


def masked_outside(x, v1, v2, copy=True):
    """x masked where x < v1 or x > v2 (the bounds in either order)."""
    lo, hi = (v2, v1) if v2 < v1 else (v1, v2)
    x = x if isinstance(x, MaskedArray) else MaskedArray(x)
    d = x.data
    return masked_where(ember.logical_or(d < lo, d > hi), x, copy=copy)


def masked_invalid(a, copy=True):
    """a masked where it is NaN or infinite."""
    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    if a.dtype.kind not in "fc":
        return a.copy() if copy else a
    return masked_where(ember.logical_not(ember.isfinite(a.data)), a, copy=copy)


def masked_values(x, value, rtol=1e-5, atol=1e-8, copy=True, shrink=True):
    """x masked where it is close to value (isclose for floats, == for
    integers); value becomes the fill value."""
    x = x if isinstance(x, MaskedArray) else MaskedArray(x)
    d = x.data
    if d.dtype.kind in "fc":
        cond = ember.isclose(d, value, rtol=rtol, atol=atol)
    else:
        cond = ember.equal(d, value)
    res = masked_where(cond, x, copy=copy)
    res.fill_value = value
    if shrink:
        res.shrink_mask()
    return res


def masked_object(x, value, copy=True, shrink=True):
    raise NotImplementedError("ember.ma has no object arrays")
