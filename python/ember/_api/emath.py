"""numpy.emath (numpy.lib.scimath): sqrt, log, log2, log10, logn, power,
arccos, arcsin and arctanh that return complex values where the real
function has none, by NumPy's rule: if any real element lies outside the
real domain (below 0; |x| > 1 for the inverse sines and cosine and
arctanh), the whole argument is cast to complex first (complex64 for
float32 and the 8- and 16-bit integers, complex128 otherwise), so the
result's dtype depends on the values, as NumPy's does. The domain test is
one fused reduction read back on the host, as NumPy reads its own.

`ember.emath` is this module; `import ember.emath` finds it through
python/ember/emath.py."""
import sys

from ember import _ember as _e
from ember._api._util import device_of

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin",
           "arctanh"]


def _arr(x, device=None):
    return x if isinstance(x, _e.ndarray) else _e.asarray(x, device=device)


def _to_complex(x):
    if x.dtype.kind == "c":
        return x
    small = x.dtype.char in "fbhBH"
    return x.astype(_e.complex64 if small else _e.complex128)


def _real_and(x, test):
    """Whether a real element of x (an element with zero imaginary part)
    passes test."""
    if x.dtype.kind == "c":
        return bool(_e.any((x.imag == 0) & test(x)))
    return bool(_e.any(test(x)))


def _fix_real_lt_zero(x, device=None):
    x = _arr(x, device)
    return _to_complex(x) if _real_and(x, lambda v: v < 0) else x


def _fix_int_lt_zero(x, device=None):
    x = _arr(x, device)
    return x * 1.0 if _real_and(x, lambda v: v < 0) else x


def _fix_real_abs_gt_1(x):
    x = _arr(x)
    return _to_complex(x) if _real_and(x, lambda v: _e.absolute(v) > 1) else x


def sqrt(x):
    """The square root, complex for a negative real argument."""
    return _e.sqrt(_fix_real_lt_zero(x))


def log(x):
    """The natural logarithm, complex for a negative real argument."""
    return _e.log(_fix_real_lt_zero(x))


def log10(x):
    return _e.log10(_fix_real_lt_zero(x))


def log2(x):
    return _e.log2(_fix_real_lt_zero(x))


def logn(n, x):
    """The logarithm of x to base n, complex where either is negative."""
    dev = device_of(x, n)   # a scalar joins the array operand's device
    return _e.log(_fix_real_lt_zero(x, dev)) / _e.log(_fix_real_lt_zero(n, dev))


def power(x, p):
    """x**p, complex for a negative real x; a negative integer power makes
    the integers float64 (NumPy's integer power would refuse it)."""
    dev = device_of(x, p)   # a scalar joins the array operand's device
    return _e.power(_fix_real_lt_zero(x, dev), _fix_int_lt_zero(p, dev))


def arccos(x):
    return _e.arccos(_fix_real_abs_gt_1(x))


def arcsin(x):
    return _e.arcsin(_fix_real_abs_gt_1(x))


def arctanh(x):
    return _e.arctanh(_fix_real_abs_gt_1(x))


# the _WHERE table names module attributes: `ember.emath` is this module
emath = sys.modules[__name__]
