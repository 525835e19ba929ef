"""pad: NumPy's signature, modes, keyword rules and _as_pairs here; the
padding itself is the C core's kernels (src/array/manip_pad.c), reached
through the extension's entry `_pad`."""
import operator
from array import array as _packed

from ember import _ember as _e
from ember._api._util import as_array

# Each mode's keywords, as NumPy's pad allows them.
_KEYWORDS = {
    "constant": {"constant_values"}, "edge": set(), "wrap": set(),
    "empty": set(), "reflect": {"reflect_type"}, "symmetric": {"reflect_type"},
    "maximum": {"stat_length"}, "minimum": {"stat_length"},
    "mean": {"stat_length"}, "linear_ramp": {"end_values"},
}
_NUMBER = (bool, int, float, complex)
# em_pad_mode's order (include/ember/manip.h)
_MODES = ("constant", "edge", "reflect", "symmetric", "wrap", "reflect_odd",
          "symmetric_odd", "empty", "maximum", "minimum", "mean", "linear_ramp")


def _nested(x):
    """x as nested lists: arrays (ember's or NumPy's), tuples and ranges
    opened; anything else is one item."""
    if hasattr(x, "tolist") and not isinstance(x, _NUMBER):
        x = x.tolist()
    if isinstance(x, (list, tuple, range)):
        return [_nested(e) for e in x]
    return x


def _shape(x, what):
    if not isinstance(x, list):
        return ()
    inner = [_shape(e, what) for e in x]
    if any(s != inner[0] for s in inner):
        raise ValueError(f"{what} is ragged")
    return (len(x),) + (inner[0] if inner else ())


def _as_pairs(x, ndim, what):
    """NumPy's _as_pairs: x broadcast to ndim (before, after) pairs, as a
    flat list of 2 * ndim items."""
    if ndim == 0:
        return []
    x = _nested(x)
    shape = _shape(x, what)
    flat = x
    while flat and isinstance(flat, list) and isinstance(flat[0], list):
        flat = [e for row in flat for e in row]
    if not isinstance(flat, list):
        flat = [flat]
    if len(shape) < 3 and len(flat) == 1:
        return flat * (2 * ndim)
    if len(shape) < 3 and len(flat) == 2 and shape != (2, 1):
        return flat * ndim
    if len(shape) == 2 and shape[0] in (1, ndim) and shape[1] in (1, 2):
        return [x[i if shape[0] > 1 else 0][j if shape[1] > 1 else 0]
                for i in range(ndim) for j in (0, 1)]
    raise ValueError(f"{what}: operands could not be broadcast to "
                     f"({ndim}, 2)")


def _integral(v):
    return not isinstance(v, (bool, float)) and hasattr(type(v), "__index__")


def _widths(pad_width, ndim):
    widths = _as_pairs(pad_width, ndim, "pad_width")
    if not all(_integral(w) for w in widths):
        raise TypeError("`pad_width` must be of integral type.")
    return [operator.index(w) for w in widths]


def _values(values, ndim, what):
    """The fill or end values and their dtype: NumPy makes one array of
    them (complex128, float64 or int64) and assigns with an unsafe cast."""
    vals = _as_pairs(values, ndim, what)
    for v in vals:
        if not isinstance(v, _NUMBER):
            raise TypeError(f"{what} must be numbers, not {type(v).__name__}")
    if any(isinstance(v, complex) for v in vals):
        return _packed("d", [p for v in vals for p in (v.real, v.imag)]), _e.complex128
    if any(isinstance(v, float) for v in vals):
        return _packed("d", vals), _e.float64
    vals = [int(v) for v in vals]
    if not all(-2**63 <= v < 2**63 for v in vals):
        raise OverflowError("Python int too large to convert to C long")
    return _packed("q", vals), _e.int64


def _stat_lengths(stat_length, ndim):
    lengths = []
    for v in _as_pairs(stat_length, ndim, "stat_length"):
        if v is None:
            lengths.append(-1)             # the whole axis
            continue
        if not _integral(v):
            raise TypeError("`stat_length` must be of integral type.")
        v = operator.index(v)
        if v < 0:
            raise ValueError("index can't contain negative values")
        lengths.append(v)
    return lengths


def pad(array, pad_width, mode="constant", **kwargs):
    """array padded by pad_width (before, after) elements on each axis,
    filled as `mode` says."""
    if mode is None:
        mode = "constant"
    if not isinstance(mode, str):
        raise NotImplementedError("pad: a callable mode is not supported by "
                                  "ember")
    if mode == "median":
        raise NotImplementedError("pad mode 'median' is not supported by "
                                  "ember yet")
    if mode not in _KEYWORDS:
        raise ValueError(f"mode '{mode}' is not supported")
    unsupported = set(kwargs) - _KEYWORDS[mode]
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': "
                         f"{unsupported}")
    name = mode
    if "reflect_type" in kwargs:
        rt = kwargs["reflect_type"]
        if not isinstance(rt, str) or rt not in ("even", "odd"):
            raise ValueError("reflect_type must be 'even' or 'odd'")
        if rt == "odd":
            name = mode + "_odd"
    a = as_array(array)
    widths = _widths(pad_width, a.ndim)
    given = kwargs.get("end_values" if mode == "linear_ramp"
                       else "constant_values")
    values, vdtype = (None, _e.int64) if given is None else _values(
        given, a.ndim, "end_values" if mode == "linear_ramp"
        else "constant_values")
    sl = kwargs.get("stat_length")
    return _e._pad(a, _packed("q", widths), _MODES.index(name), values, vdtype,
                   None if sl is None else _packed("q", _stat_lengths(sl, a.ndim)))
