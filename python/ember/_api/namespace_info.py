"""ember.__array_namespace_info__(): what the namespace supports, as the
Array API's inspection object. It holds nothing, so each call makes a new
one, as the standard shows."""
from ember import _ember as _e
from ember._api.dtype_info import of_kind

# The standard's dtypes, in its order. float16 and bfloat16 work in ember
# but are not Array API dtypes, and conformance suites check the keys.
_API_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
               "uint32", "uint64", "float32", "float64", "complex64",
               "complex128")


def _check_device(device):
    if device is not None:
        _e.get_device(device)   # raises for a device ember does not have


class ArrayNamespaceInfo:
    """What the ember namespace supports (Array API inspection)."""
    __slots__ = ()

    def capabilities(self):
        """{'boolean indexing', 'data-dependent shapes', 'max dimensions'}."""
        # Boolean-mask indexing and nonzero arrive together: the module
        # having nonzero is the sign that both are there.
        dynamic = hasattr(_e, "nonzero")
        return {"boolean indexing": dynamic, "data-dependent shapes": dynamic,
                "max dimensions": _e._MAX_NDIM}

    def default_device(self):
        """The device arrays are made on without device=."""
        return _e.get_current_device()

    def default_dtypes(self, *, device=None):
        """The default real, complex, integral and indexing dtypes."""
        _check_device(device)
        return {"real floating": _e.float64, "complex floating": _e.complex128,
                "integral": _e.int64, "indexing": _e.int64}

    def devices(self):
        """Every device ember can use: cpu, then each CUDA device."""
        try:
            n = _e._cuda_device_count()
        except _e.CUDAError:
            n = 0   # a broken driver: cpu only, as import promises
        return [_e.get_device("cpu")] + [_e.get_device(f"cuda:{i}")
                                         for i in range(n)]

    def dtypes(self, *, device=None, kind=None):
        """The Array API dtypes ember supports, by name, optionally of one
        kind (a kind name or a tuple of them)."""
        _check_device(device)
        out = {}
        for name in _API_DTYPES:
            d = _e.dtype(name)
            if kind is None or of_kind(d, kind):
                out[name] = d
        return out


def __array_namespace_info__():
    """The Array API inspection object (capabilities, default_device,
    default_dtypes, devices, dtypes)."""
    return ArrayNamespaceInfo()
