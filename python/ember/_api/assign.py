"""copyto: NumPy's checked, masked, broadcasting copy into an array."""
from ember import _ember as _e
from ember._api.selection import where as _where
from ember._api._util import as_array


def copyto(dst, src, casting="same_kind", where=True):
    if not isinstance(dst, _e.ndarray):
        raise TypeError("copyto() argument 1 must be an ember array, not "
                        f"{type(dst).__name__}")
    scalar = isinstance(src, (bool, int, float, complex))
    if scalar:
        # Python scalars are weak (NEP 50): they take dst's dtype, and a
        # value it cannot hold raises as assignment does.
        s = src
        if casting != "unsafe" and not _e.can_cast(_e.result_type(dst.dtype, src), dst.dtype, casting):
            raise TypeError(f"Cannot cast scalar from {type(src).__name__} to "
                            f"dtype('{dst.dtype}') according to the rule '{casting}'")
    else:
        s = as_array(src, dst.device)
        if not _e.can_cast(s.dtype, dst.dtype, casting):
            raise TypeError(f"Cannot cast array data from dtype('{s.dtype}') to "
                            f"dtype('{dst.dtype}') according to the rule '{casting}'")
        _e.broadcast_shapes(s.shape, dst.shape)     # names both shapes
        if s.ndim > dst.ndim or _e.broadcast_shapes(s.shape, dst.shape) != dst.shape:
            raise ValueError(f"could not broadcast input array from shape {s.shape} "
                             f"into shape {dst.shape}")
    if where is True:
        dst[...] = s
        return None
    mask = as_array(where, dst.device).astype(_e.bool_, copy=False)
    if _e.broadcast_shapes(mask.shape, dst.shape) != dst.shape:
        raise ValueError(f"could not broadcast where mask from shape {mask.shape} "
                         f"into shape {dst.shape}")
    if not scalar:
        s = s.astype(dst.dtype, copy=False)
    dst[...] = _where(mask, s, dst) if not scalar else _where(
        mask, _e.asarray(s, dtype=dst.dtype, device=dst.device), dst)
    return None
