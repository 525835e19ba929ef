"""NumPy's print options and number formatting. ember prints an array by
NumPy's formatting of a host copy (array_print.py), so its print options
are NumPy's own: set here or through numpy.set_printoptions, they decide
repr and str of ember and NumPy arrays alike. The formatters take an
ember 0-d array as the NumPy scalar of its dtype."""
from ember import _ember as _e
from ember._api.interop import _numpy, to_numpy


def _np():
    return _numpy("print options and number formatting")


def _scalar(x):
    if not isinstance(x, _e.ndarray):
        return x
    if x.dtype == _e.bfloat16:
        x = x.astype(_e.float32)
    return to_numpy(x)[()]


def set_printoptions(*args, **kwargs):
    """NumPy's set_printoptions (precision, threshold, edgeitems,
    linewidth, suppress, nanstr, infstr, formatter, sign, floatmode,
    legacy, override_repr)."""
    return _np().set_printoptions(*args, **kwargs)


def get_printoptions():
    return _np().get_printoptions()


def printoptions(*args, **kwargs):
    """A context manager setting print options inside its block."""
    return _np().printoptions(*args, **kwargs)


def format_float_positional(x, *args, **kwargs):
    return _np().format_float_positional(_scalar(x), *args, **kwargs)


def format_float_scientific(x, *args, **kwargs):
    return _np().format_float_scientific(_scalar(x), *args, **kwargs)


def base_repr(number, base=2, padding=0):
    return _np().base_repr(_scalar(number), base, padding)


def binary_repr(num, width=None):
    return _np().binary_repr(_scalar(num), width)
