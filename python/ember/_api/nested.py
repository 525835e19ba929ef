"""asarray of the Python objects that are not memory: lists and tuples,
other sequences, subclasses of Python's numbers and objects with
__array__ (python/ember/_ext/array/creation.c reads buffers, the array
interfaces, DLPack and Python's own numbers, and passes the rest here),
and array()'s ndmin.

Lists of Python numbers are packed without NumPy (pylists.py). Lists that
also hold NumPy's scalars or arrays (so NumPy is loaded) are NumPy's to
read, as CuPy has them read. Lists that hold ember arrays or other
libraries' arrays are neither: NumPy would pull GPU data through the host,
so each item becomes an array on its own and one stack joins them on the
device, promoted as NumPy's discovery would."""
import sys
from collections.abc import Mapping
from itertools import chain

from ember import _ember as _e
from ember._api import pylists

_SEQUENCES = frozenset((list, tuple))


def _numpy_reads(seq, np):
    """True when seq nests only lists, tuples, Python's numbers and NumPy's
    scalars and arrays: all numpy.asarray reads without asking another
    library for its data."""
    host = (int, float, complex, np.generic, np.ndarray)
    level = seq
    for _ in range(_e._MAX_NDIM):
        types = set(map(type, level))
        seqs = types & _SEQUENCES
        if not all(issubclass(t, host) for t in types - seqs):
            return False
        level = list(chain.from_iterable(x for x in level if type(x) in seqs))
        if not level:
            return True
    raise pylists.too_deep()


def _not_numbers(h):
    """The error for an object array NumPy made of _numpy_reads lists:
    Python ints past uint64, or the items of NumPy arrays of objects."""
    for x in h.flat:
        if isinstance(x, int):
            return OverflowError(f"Python integer {x} out of bounds for int64 "
                                 "and uint64")
        if not isinstance(x, (float, complex)):
            break
    return TypeError("ember arrays hold numbers: cannot make an array element "
                     f"from {type(x).__name__}")


def _from_sequence(seq, dtype, device, copy, order):
    if copy is False:
        raise ValueError("Unable to avoid copy while creating an array as "
                         "requested.")
    found = pylists.read(seq)
    if found is not None:
        return pylists.pack(*found, dtype, device, order)
    np = sys.modules.get("numpy")
    if np is None or not _numpy_reads(seq, np):
        return nested(seq, dtype, device, order)
    # bfloat16 is not NumPy's: cast from the discovered dtype on the way.
    known = dtype is not None and dtype != _e.bfloat16
    h = np.asarray(seq, dtype=dtype.name if known else None)
    if h.dtype.hasobject:
        raise _not_numbers(h)
    # copy=True: the result owns its memory, as one made from a list does.
    return _e.asarray(h, dtype=dtype, device=device, copy=True, order=order)


def from_python(obj, dtype, device, copy, order):
    """_e.asarray(obj, ...) of whatever the C layer does not read itself
    (device is resolved, order one letter)."""
    if isinstance(obj, (list, tuple)):
        return _from_sequence(obj, dtype, device, copy, order)
    if hasattr(type(obj), "__ember_array__"):
        # a struct array (python/ember/_struct_array.py): not numbers, and
        # not worth its __array__'s copy to the host to find that out
        raise TypeError(f"an array of a structured dtype ({type(obj).__name__}) "
                        "is not an array of numbers: use one of its fields")
    array = getattr(obj, "__array__", None)
    if array is not None:
        # pandas and friends: their NumPy array, then the buffer.
        h = array()
        try:
            memoryview(h).release()
        except TypeError:
            raise TypeError(f"{type(obj).__name__}.__array__() returned "
                            f"{type(h).__name__}, which has no buffer") from None
        return _e.asarray(h, dtype=dtype, device=device, copy=copy, order=order)
    for number in (int, float, complex):
        if isinstance(obj, number):
            return _e.asarray(number(obj), dtype=dtype, device=device, copy=copy)
    # A sequence as Python's C API tells one: __getitem__ on the type itself
    # (not its metaclass, as an Enum's), and not a mapping.
    if (any("__getitem__" in vars(t) for t in type(obj).__mro__)
            and not isinstance(obj, Mapping)):
        return _from_sequence(list(obj), dtype, device, copy, order)
    raise TypeError(f"cannot make an ember array from {type(obj).__name__}")


def nested(seq, dtype, device, order):
    """A list or tuple holding arrays, stacked on the device, promoted as
    NumPy's discovery would promote them."""
    from ember._api.joining import stack
    items = [_e.asarray(x, dtype=dtype, device=device) for x in seq]
    if any(a.shape != items[0].shape for a in items):
        raise pylists.ragged([len(items)])
    r = stack(items)
    return _e.asarray(r, order="F") if order == "F" else r


def ndmin(a, n):
    """a with leading axes of extent 1 up to n dimensions: a view."""
    if n > _e._MAX_NDIM:
        raise ValueError(f"ndmin bigger than allowable number of dimensions "
                         f"{_e._MAX_NDIM}")
    return a.reshape((1,) * (n - a.ndim) + a.shape, copy=False)
