"""may_share_memory and shares_memory, exact for ember arrays: two arrays
share memory when they are on one device (ember cpu arrays and NumPy
arrays share the host) and their elements' byte ranges meet. NumPy's
solver answers from the addresses, shapes and strides alone: it is given
arrays over those addresses and never reads them."""
from ember import _ember as _e
from ember._api.interop import _numpy


class _Extent:
    def __init__(self, ptr, shape, strides, itemsize):
        self.__array_interface__ = {"data": (ptr, True), "shape": shape,
                                    "strides": strides,
                                    "typestr": f"|V{itemsize}", "version": 3}


def _where(x, np):
    """(address space, a NumPy array over x's addresses), or None for
    what owns no memory (a list: NumPy would make a new array of it)."""
    if isinstance(x, _e.ndarray):
        if x.size == 0:
            return None
        space = "host" if x.device.type == "cpu" else str(x.device)
        ext = _Extent(x.data.ptr, x.shape, x.strides, x.itemsize)
        return space, np.asarray(ext)
    if isinstance(x, np.ndarray):
        return "host", x
    return None


def _overlap(a, b, max_work, what):
    np = _numpy(what)
    wa, wb = _where(a, np), _where(b, np)
    if wa is None or wb is None or wa[0] != wb[0]:
        return False
    fn = np.may_share_memory if what == "may_share_memory" else np.shares_memory
    return bool(fn(wa[1], wb[1], max_work=max_work))


def may_share_memory(a, b, /, max_work=0):
    """Whether a's and b's byte ranges (first to last element) meet; with
    max_work=-1 (or another limit) the exact question of shares_memory."""
    return _overlap(a, b, max_work, "may_share_memory")


def shares_memory(a, b, /, max_work=-1):
    """Whether some byte belongs to an element of both a and b (a[::2] and
    a[1::2] do not share). NumPy's TooHardError past max_work."""
    return _overlap(a, b, max_work, "shares_memory")
