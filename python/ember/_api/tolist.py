"""a.tolist() and a.item(): the elements as Python scalars, read through
one host copy and the buffer protocol (memoryview unpacks them in C)."""
import operator

from ember import _ember as _e


def tolist(a):
    h = a.to_device("cpu")
    if h.dtype == _e.float16 or h.dtype == _e.bfloat16:
        # memoryview unpacks neither; float32 holds each value exactly.
        h = h.astype(_e.float32)
    if h.dtype.kind != "c":
        return memoryview(h).tolist()
    # memoryview has no complex format: the (real, imag) pairs of a C copy.
    h = h.copy("C")
    parts = []
    if h.size:      # memoryview casts no view with a zero extent
        fmt = "f" if h.dtype == _e.complex64 else "d"
        parts = memoryview(h).cast("B").cast(fmt).tolist()
    return _nest(iter(map(complex, parts[::2], parts[1::2])), h.shape)


def _nest(it, shape):
    return [_nest(it, shape[1:]) for _ in range(shape[0])] if shape else next(it)


def item(a, *args):
    """item(*args): one element as a Python scalar (copied to the host)."""
    if not args:
        if a.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python "
                             "scalar")
        return tolist(a.reshape(()))
    if len(args) == 1 and a.ndim != 1 and not isinstance(args[0], tuple):
        # item(i) on an n-d array: i indexes the flattened array.
        i = operator.index(args[0])
        if i < 0:
            i += a.size
        if not 0 <= i < a.size:
            raise IndexError("index out of bounds")
        key = []
        for n in reversed(a.shape):
            key.append(i % n)
            i //= n
        sub = a[tuple(reversed(key))]
    else:
        sub = a[args[0] if len(args) == 1 else args]
    if sub.size != 1:
        raise ValueError("item() needs indices that pick one element")
    return tolist(sub.reshape(()))
