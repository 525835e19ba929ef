"""ndarray's methods and properties that are composition over its C ones
(views by indexing or transpose, one ufunc call, one element): cold paths
that ndarray forwards here."""
import operator

from ember import _ember as _e
from ember._api._util import normalize_axis

_ONLY_ONE = "only length-1 arrays can be converted to Python scalars"


def swapaxes(a, axis1, axis2):
    perm = list(range(a.ndim))
    x = normalize_axis(operator.index(axis1), a.ndim)
    y = normalize_axis(operator.index(axis2), a.ndim)
    perm[x], perm[y] = y, x
    return a.transpose(perm)


def squeeze(a, axis=None):
    if axis is None:
        drop = {i for i, n in enumerate(a.shape) if n == 1}
    else:
        from ember._api._axes import ints
        drop = {normalize_axis(ax, a.ndim) for ax in ints(axis, "axis")}
        if any(a.shape[i] != 1 for i in drop):
            raise ValueError("cannot select an axis to squeeze out which has "
                             "size not equal to one")
    # Index 0 drops an extent-1 axis and keeps the others' strides; the
    # Ellipsis keeps a 0-d result a view.
    return a[tuple(0 if i in drop else slice(None) for i in range(a.ndim)) +
             (Ellipsis,)]


def mT(a):
    if a.ndim < 2:
        raise ValueError(f"matrix transpose with ndim < 2 is undefined (the "
                         f"array has {a.ndim})")
    perm = list(range(a.ndim))
    perm[-2:] = perm[-1], perm[-2]
    return a.transpose(perm)


def conj(a):
    # NumPy's conj of a real array is the array itself.
    return _e.conjugate(a) if a.dtype.kind == "c" else a


def deepcopy(a, memo=None):
    return a.copy("K")


def complex_(a):
    if a.size != 1:
        raise TypeError(_ONLY_ONE)
    return complex(a.item())


def format_(a, spec):
    """A 0-d array formats as its element, others as str(a), as NumPy's."""
    if not isinstance(spec, str):
        raise TypeError(f"__format__() argument must be str, not "
                        f"{type(spec).__name__}")
    return format(a.item() if a.ndim == 0 else str(a), spec)


def array_namespace(a, *args, **kw):
    import ember
    return ember


def byteswap(a, inplace=False):
    """Each element's bytes reversed (each part's, for complex: NumPy swaps
    the real and imaginary parts on their own): one copy of a C-ordered
    copy's bytes read through a view that walks each element backwards."""
    if inplace and not a.flags.writeable:
        raise ValueError("byteswap: the array is read-only")
    c = a.copy("C")
    unit = a.itemsize // 2 if a.dtype.kind == "c" else a.itemsize
    if unit > 1 and a.size:
        shape = a.shape + (a.itemsize // unit, unit)
        rev = _e.ndarray(shape, _e.uint8, c.data + (unit - 1), c.strides + (unit, -1))
        out = _e.empty(a.shape, a.dtype, device=a.device)
        _e.ndarray(shape, _e.uint8, out.data)[...] = rev
        c = out
    if not inplace:
        return c
    a[...] = c
    return a


def to_device(a, device, *, stream=None):
    """The array on device: itself if already there, else a C-ordered copy."""
    d = _e.Device(device)
    return a if d == a.device else _e.asarray(a, device=d, order="C")


def flatten(a, order="C"):
    """A 1-d copy: ravel's view copied, a copy it made kept."""
    r = a.ravel(order)
    return r.copy() if r is a or r.base is not None else r
