"""NumPy's bit functions: bitwise_count (a ufunc: one kernel,
kernels/bitwise_count.c) and packbits/unpackbits, each a broadcast
product, shift or mask with one reduction over groups of 8 bits."""
import operator

from ember import _ember as _e
from ember._api._util import kernel, normalize_axis

_NO_LOOP = ("ufunc 'bitwise_count' not supported for the input types, and the "
            "inputs could not be safely coerced to any supported types according "
            "to the casting rule ''safe''")


def _arr(x):
    return x if isinstance(x, _e.ndarray) else _e.asarray(x)


def bitwise_count(x, /, out=None):
    """The number of 1-bits in |x|, as uint8 (integers and bools)."""
    x = _arr(x)
    if x.dtype.kind not in "biu":
        raise TypeError(_NO_LOOP)
    if x.dtype.kind == "b":
        x = x.astype(_e.int8)   # NumPy's b->B loop takes bools
    k = kernel("bitwise_count", "T x", "uint8 y")
    return k(x) if out is None else k(x, out)


def _weights(bitorder, device):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    w = [1 << i for i in range(8)]
    return _e.asarray(w[::-1] if bitorder == "big" else w, dtype=_e.uint8,
                      device=device)


def _along(x, axis):
    """x with the bit axis last (flattened for axis None), and where the
    result's axis goes back (a 0-d array counts as 1-d, as NumPy's)."""
    if x.ndim == 0:
        x = x.reshape(1)
    if axis is None:
        return x.reshape(-1), 0
    axis = normalize_axis(operator.index(axis), x.ndim)
    return _e.moveaxis(x, axis, -1), axis


def packbits(a, /, axis=None, bitorder="big"):
    """Each run of 8 elements along axis (the flattened array for None)
    as one uint8, nonzero elements as 1-bits, the last run padded with
    0s; bitorder 'big' puts the first element in the high bit."""
    x = _arr(a)
    if x.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    w = _weights(bitorder, x.device)
    x, axis = _along(x, axis)
    n = x.shape[-1]
    m = (n + 7) // 8
    bits = _e.zeros(x.shape[:-1] + (m * 8,), _e.bool, device=x.device)
    bits[..., :n] = x != 0
    bits = bits.reshape(x.shape[:-1] + (m, 8))
    r = _e.sum(bits * w, axis=-1, dtype=_e.uint8)
    return _e.moveaxis(r, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of each uint8 along axis as 8 uint8 elements of 0 or 1
    (the flattened array for None); count keeps that many of them (0s
    added past the end), or drops -count from the end."""
    x = _arr(a)
    if x.dtype != _e.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    if count is not None:
        count = operator.index(count)
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    shifts = _e.asarray(list(range(7, -1, -1)) if bitorder == "big" else list(range(8)),
                        dtype=_e.uint8, device=x.device)
    x, axis = _along(x, axis)
    n8 = x.shape[-1] * 8
    keep = n8 if count is None else count if count >= 0 else n8 + count
    if keep < 0:
        raise ValueError("-count larger than number of elements")
    bits = ((x[..., None] >> shifts) & 1).reshape(x.shape[:-1] + (n8,))
    if keep <= n8:
        r = bits[..., :keep]
    else:
        r = _e.zeros(x.shape[:-1] + (keep,), _e.uint8, device=x.device)
        r[..., :n8] = bits
    return _e.moveaxis(r, -1, axis)
