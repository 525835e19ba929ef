"""Type questions: isscalar and real_if_close."""
import sys

from ember import _ember as _e

_PY_SCALARS = (int, float, complex, bool, bytes, str, memoryview)


def isscalar(element):
    """NumPy's isscalar: Python and NumPy scalars and numbers.Number
    instances; arrays (0-d ones too) are not scalars."""
    if isinstance(element, _PY_SCALARS):
        return True
    np = sys.modules.get("numpy")          # a NumPy scalar implies NumPy loaded
    if np is not None and isinstance(element, np.generic):
        return True
    if isinstance(element, _e.ndarray):
        return False
    import numbers
    return isinstance(element, numbers.Number)


def real_if_close(a, tol=100):
    """a.real when every imaginary part is below tol machine epsilons (tol
    > 1) or below tol itself; else a. One reduction and a one-byte read."""
    a = a if isinstance(a, _e.ndarray) else _e.asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = _e.finfo(a.dtype).eps * tol
    if bool(_e.all(_e.abs(a.imag) < tol)):
        return a.real
    return a
