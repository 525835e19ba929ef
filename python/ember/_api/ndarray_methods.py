"""ndarray's methods and properties that are composition over its C ones
(views by indexing or transpose, one ufunc call, one element): cold paths
that ndarray forwards here."""
import operator

from ember import _ember as _e
from ember._api._util import normalize_axis


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
    if a.ndim != 0:     # NumPy 2.4's rule, as int() and float() (ndarray.c)
        raise TypeError("only 0-dimensional arrays can be converted to Python "
                        "scalars")
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


def clip(a, min=None, max=None, out=None, **kwargs):
    from ember._api.elementwise import clip
    return clip(a, min, max, out, **kwargs)


def contains(a, x):
    """`x in a`, NumPy's (a == x).any(): a broadcast comparison, so a row
    of a 2-d array is found anywhere it matches along the last axis."""
    return bool(_e.any(a == x))


# ---- bytes, files and pickles ------------------------------------------
# The host copy is one contiguous transfer of a C-ordered ember copy's
# bytes (CuPy's methods hand the array to NumPy on the host instead).

def tobytes(a, order="C"):
    if order is None:
        order = "C"
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    # NumPy reads 'K' as 'C' here
    fortran = order == "F" or (order == "A" and a.flags.f_contiguous
                               and not a.flags.c_contiguous)
    # a's F-order bytes are its transpose's C-order bytes
    c = (a.T if fortran else a).copy("C")
    if c.nbytes == 0:
        return b""
    return _e.ndarray((c.nbytes,), _e.uint8, c.data).get().tobytes()


def _host_file(fid, mode):
    import os
    if isinstance(fid, (str, bytes, os.PathLike)):
        return open(fid, mode), True
    return fid, False


def tofile(a, fid, sep="", format="%s"):
    """As NumPy's: the raw C-ordered bytes when sep is '', else each
    element as text (format % element, joined by sep), which is NumPy's
    own formatting of the host copy's scalars (float32's shortest repr,
    for one, is not Python float's)."""
    f, close = _host_file(fid, "wb" if sep == "" else "w")
    try:
        if sep == "":
            f.write(tobytes(a, "C"))
        else:
            a.get().tofile(f, sep=sep, format=format)
    finally:
        if close:
            f.close()


def dumps(a):
    import pickle
    return pickle.dumps(a, protocol=2)


def dump(a, file):
    import pickle
    f, close = _host_file(file, "wb")
    try:
        pickle.dump(a, f, protocol=2)
    finally:
        if close:
            f.close()


# ---- fields --------------------------------------------------------------

def getfield(a, dtype, offset=0):
    """Each element's bytes at offset read as dtype: a view of a's memory.
    ember's kernels load an element at its own alignment, so offset must
    be a multiple of dtype's size (NumPy allows any offset)."""
    t = _e.dtype(dtype)
    offset = operator.index(offset)
    if offset < 0:
        raise ValueError("offset is negative")
    if offset + t.itemsize > a.itemsize:
        raise ValueError("new type plus offset is larger than original type")
    if offset % t.itemsize:
        raise ValueError(f"getfield: offset {offset} is not a multiple of "
                         f"{t.name}'s size {t.itemsize} (ember reads aligned "
                         "fields only)")
    v = _e.ndarray(a.shape, t, a.data + offset, a.strides)
    if not a.flags.writeable:
        v.setflags(write=False)
    return v


def setfield(a, val, dtype, offset=0):
    if not a.flags.writeable:
        raise ValueError("assignment destination is read-only")
    getfield(a, dtype, offset)[...] = val


# ---- resize ----------------------------------------------------------------

def _new_shape(args):
    if len(args) == 1 and not hasattr(args[0], "__index__"):
        args = tuple(args[0])
    shape = tuple(operator.index(n) for n in args)
    if any(n < 0 for n in shape):
        raise ValueError("negative dimensions not allowed")
    return shape


_REFERENCED = ("cannot resize an array that references or is referenced\nby another "
               "object in this way.\nUse the np.resize function to get a new resized "
               "copy or\n set refcheck=False to disable this check")


def resized(a, refs, *new_shape, refcheck=True):
    """ndarray.resize's rules (the C method swaps the result in): None
    for no shape (nothing changes); the new shape alone when the size
    stays (the C method reads a's memory in a's order, as NumPy
    reinterprets it); else a fresh array holding a's elements in memory
    order followed by zeros, laid out in a's order (Fortran for a Fortran
    array, as NumPy's). refs is a's reference count at the call: above two
    (the caller's name and the call), something else holds a."""
    if not new_shape or new_shape == (None,):
        return None
    shape = _new_shape(new_shape)
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        raise ValueError("resize only works on single-segment arrays")
    size = 1
    for n in shape:
        size *= n
    if size == a.size:
        return shape
    if a.base is not None:
        raise ValueError("cannot resize this array: it does not own its data")
    if refcheck and refs > 2:
        raise ValueError(_REFERENCED)
    # the new array owns its memory (and the stream it came from), as the
    # C method's swap needs
    order = "F" if _fortran(a) else "C"
    new = _e.zeros(shape, a.dtype, order=order, device=a.device)
    k = min(size, a.size)
    if k:
        new.reshape(-1, order=order, copy=False)[:k] = a.ravel("K")[:k]
    return new


def _fortran(a):
    """Whether NumPy lays a's resized memory out in Fortran order."""
    return a.ndim > 1 and a.flags.f_contiguous and not a.flags.c_contiguous
