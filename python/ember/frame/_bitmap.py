"""Arrow validity bitmaps: one bit a row, least significant bit first,
1 = valid, held as an ember uint8 array on the column's device."""
import ember

_WEIGHTS = {}


def _weights(device):
    key = str(device)
    if key not in _WEIGHTS:
        _WEIGHTS[key] = ember.asarray([1, 2, 4, 8, 16, 32, 64, 128],
                                      dtype="uint8", device=device)
    return _WEIGHTS[key]


def pack(valid):
    """A bool array -> its bitmap, or None when every row is valid (a
    column without nulls carries no bitmap)."""
    n = valid.shape[0]
    if n == 0 or bool(valid.all()):
        return None
    nbytes = (n + 7) // 8
    bits = ember.zeros(nbytes * 8, dtype="uint8", device=valid.device)
    bits[:n] = valid
    return (bits.reshape(nbytes, 8) * _weights(valid.device)).sum(axis=1, dtype="uint8")


def unpack(bitmap, n, offset=0):
    """The bitmap's rows [offset, offset + n) as a bool array (True = valid)."""
    i = ember.arange(offset, offset + n, dtype="int64", device=bitmap.device)
    return ((bitmap[i >> 3] >> (i & 7).astype("uint8")) & 1).astype("bool")
