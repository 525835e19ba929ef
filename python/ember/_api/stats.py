"""std and var with the Array API's `correction=` (NumPy 2's name for
ddof, which NumPy also accepts), over the C reductions."""
from ember import _ember as _e

_std = _e.std
_var = _e.var


def _ddof(ddof, correction):
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
        correction=None, **kwargs):
    """NumPy's std; `correction` is the Array API's name for ddof."""
    return _std(a, axis, dtype, out, _ddof(ddof, correction), keepdims, **kwargs)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
        correction=None, **kwargs):
    """NumPy's var; `correction` is the Array API's name for ddof."""
    return _var(a, axis, dtype, out, _ddof(ddof, correction), keepdims, **kwargs)
