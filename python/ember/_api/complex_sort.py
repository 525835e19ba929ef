"""numpy.sort_complex: a sorted copy (last axis; complex values by real
part, then imaginary) returned as complex: complex64 for the small
integers, complex128 for every other real type, as NumPy's."""
from ember import _ember as _e


def sort_complex(a):
    a = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    b = _e.sort(a)
    if b.dtype.kind == "c":
        return b
    return b.astype(_e.complex64 if b.dtype.char in "bhBH" else _e.complex128)
