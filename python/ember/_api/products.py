"""NumPy's matmul (with casting= and axes=), dot, vdot, inner, outer,
tensordot, vecdot and matrix_transpose: their signatures and axes here;
each product is one C call (the extension's `_matmul` and `_product` over
include/ember/linalg.h), which places the operands as the ufuncs do. The
@ operator calls the C matmul directly."""
import operator

from ember import _ember as _e
from ember._api._util import normalize_axis

# _product's kinds, include/ember/linalg.h's functions in this order
_DOT, _VDOT, _INNER, _OUTER, _TENSORDOT, _VECDOT = range(6)


def _out(out):
    if isinstance(out, tuple) and len(out) == 1:
        out = out[0]
    if out is not None and not isinstance(out, _e.ndarray):
        raise TypeError(f"out must be an ember array, not "
                        f"{type(out).__name__}")
    return out


def matmul(x1, x2, /, out=None, *, dtype=None, casting="same_kind",
           axes=None):
    if not isinstance(casting, str):
        raise TypeError(f"matmul: casting must be a str, not "
                        f"{type(casting).__name__}")
    if casting != "same_kind":
        raise ValueError(f"matmul: casting='{casting}' is not supported "
                         f"(only 'same_kind')")
    if axes is not None:
        return _matmul_axes(x1, x2, _out(out), dtype, axes)
    return _e._matmul(x1, x2, out, dtype)


def _core(e, ndim, ncore, what):
    """Entry e of matmul's axes= (an int stands for a 1-tuple): ncore
    distinct axes, made non-negative."""
    e = (e,) if not hasattr(e, "__len__") else tuple(e)
    if len(e) != ncore:
        raise ValueError(f"matmul: axes item for {what} should be a tuple "
                         f"with {ncore} elements, not {len(e)}")
    core = [normalize_axis(operator.index(v), ndim) for v in e]
    if len(core) == 2 and core[0] == core[1]:
        raise ValueError("matmul: repeated axis in axes")
    return core


def _to_end(x, core):
    rest = [i for i in range(x.ndim) if i not in core]
    return x.transpose(rest + core)


def _matmul_axes(x1, x2, out, dtype, axes):
    """The core axes moved to the end (views), the plain product, and the
    result's core axes moved to where axes= says (a view of it, as NumPy's
    result is laid out)."""
    a = _e.asarray(x1)
    b = _e.asarray(x2, device=a.device)
    na, nb = (1 if a.ndim < 2 else 2), (1 if b.ndim < 2 else 2)
    no = (na == 2) + (nb == 2)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand does not have enough "
                         "dimensions")
    try:
        axes = list(axes)
    except TypeError:
        raise TypeError("matmul: axes must be a list of tuples") from None
    if len(axes) != 3 and not (len(axes) == 2 and no == 0):
        raise ValueError(f"matmul: axes should be a list with an entry for "
                         f"each operand and the output (3), not {len(axes)}")
    am = _to_end(a, _core(axes[0], a.ndim, na, "operand 0"))
    bm = _to_end(b, _core(axes[1], b.ndim, nb, "operand 1"))
    if out is not None:
        # out in the axes' layout: viewed with its core axes last, the
        # product writes straight into it
        om = out
        if no:
            om = _to_end(out, _core(axes[2], out.ndim, no, "the output"))
        _e._matmul(am, bm, om, dtype)
        return out
    res = _e._matmul(am, bm, None, dtype)
    if not no:
        return res
    core = _core(axes[2], res.ndim, no, "the output")
    rest = iter(range(res.ndim - no))
    perm = [res.ndim - no + core.index(i) if i in core else next(rest)
            for i in range(res.ndim)]
    return res.transpose(perm)


def dot(a, b, out=None):
    return _e._product(_DOT, a, b, out)


def vdot(a, b):
    return _e._product(_VDOT, a, b, None)


def inner(a, b):
    return _e._product(_INNER, a, b, None)


def outer(a, b, out=None):
    return _e._product(_OUTER, a, b, out)


def vecdot(x1, x2, /, *, axis=-1, out=None):
    return _e._product(_VECDOT, x1, x2, out, operator.index(axis))


def _axes_list(o):
    if hasattr(o, "__index__"):
        return (operator.index(o),)
    try:
        return tuple(operator.index(v) for v in o)
    except TypeError:
        raise TypeError("tensordot: axes must be an int or a pair of "
                        "sequences of ints") from None


def tensordot(a, b, axes=2):
    """axes=n (the last n of a with the first n of b; the C call checks n
    against the operands) or a pair of axis sequences."""
    if isinstance(axes, int):
        if not 0 <= axes <= _e._MAX_NDIM:
            raise ValueError(f"tensordot: axes={axes} is out of range")
        axes = tuple(range(-axes, 0)), tuple(range(axes))
    else:
        try:
            pair = list(axes)
        except TypeError:
            raise TypeError("tensordot: axes must be an int or a pair of "
                            "sequences") from None
        if len(pair) != 2:
            raise ValueError("tensordot: axes must be an int or a pair of "
                             "sequences of ints")
        axes = _axes_list(pair[0]), _axes_list(pair[1])
        if len(axes[0]) != len(axes[1]):
            raise ValueError("shape-mismatch for sum")
    return _e._product(_TENSORDOT, a, b, None, axes)


def matrix_transpose(x):
    if not isinstance(x, _e.ndarray):
        raise TypeError(f"matrix_transpose: expected an ember.ndarray, not "
                        f"{type(x).__name__}")
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but "
                         f"it is {x.ndim}")
    return x.mT
