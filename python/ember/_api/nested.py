"""asarray of nested sequences that hold arrays (NumPy's, ember's, any
buffer) or sequences other than lists and tuples. The C reader
(python/ember/_ext/array/creation.c) packs lists, tuples and scalars in
one pass and passes the rest here: each item becomes an array on its own,
then one stack joins them on the device (ember arrays inside never go
through the host), promoted as NumPy's discovery would."""
from ember import _ember as _e
from ember._api.joining import stack


def nested(seq, dtype, device, order):
    if not isinstance(seq, (list, tuple)):
        return _e.asarray(list(seq), dtype=dtype, device=device, order=order)
    items = [_e.asarray(x, dtype=dtype, device=device) for x in seq]
    if any(a.shape != items[0].shape for a in items):
        raise ValueError("setting an array element with a sequence. The requested "
                         "array has an inhomogeneous shape after 1 dimensions. The "
                         f"detected shape was ({len(items)},) + inhomogeneous part.")
    r = stack(items)
    return _e.asarray(r, order="F") if order == "F" else r
