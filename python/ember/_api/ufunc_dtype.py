"""A ufunc called with dtype=, NumPy's meaning: the loop over that dtype
runs, so the inputs are cast to it ('same_kind', as NumPy checks it) and
the result has it; Python scalars stay weak and take it. The C ufunc
call forwards here when dtype= is given; the extension's _ufunc_operands
checks the loop and places array-likes as a plain call would (on the
device of the ember operands or of out, never a silent copy of host
memory onto a GPU)."""
from ember import _ember as _e


def _weak(x):
    # NumPy scalars (and 0-d buffers) are strong; Python's numbers and
    # their subclasses (IntEnum, ...) are weak.
    return isinstance(x, (int, float, complex)) and not hasattr(x, "dtype")


def call_with_dtype(u, dtype, out, where, *inputs):
    placed = _e._ufunc_operands(u, dtype, out, *inputs)
    if placed is None:
        # an input is not array-like: the call without dtype= names it
        return u(*inputs, out=out, where=where)
    d = _e.dtype(dtype)
    dev = next((x.device for x in placed if isinstance(x, _e.ndarray)),
               None if out is None else out.device)
    cast = []
    for i, x in enumerate(placed):
        if not isinstance(x, _e.ndarray):
            if _weak(x):
                cast.append(x)
                continue
            x = _e.asarray(x, device=dev)
        if x.dtype != d:
            if not _e._can_cast(x.dtype, d, "same_kind"):
                raise TypeError(
                    f"Cannot cast ufunc '{u.__name__}' input {i} from "
                    f"dtype('{x.dtype.name}') to dtype('{d.name}') with "
                    f"casting rule 'same_kind'")
            x = _e.asarray(x, dtype=d)
        cast.append(x)
    if not any(isinstance(x, _e.ndarray) for x in cast):
        # only Python scalars: nothing else gives the loop's dtype, so they
        # become 0-d arrays of it (NumPy: sinh(2.0, dtype='f4') is float32)
        cast = [_e.asarray(x, dtype=d, device=dev) for x in inputs]
    return u(*cast, out=out, where=where)
