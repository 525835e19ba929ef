"""The ndarray and ufunc surface of the C extension against NumPy: NumPy's
exception classes, memory orders of copies and views, .flat, round,
byteswap, .data and the MemoryPointer constructor, subclasses, the ufunc
methods, foreign arrays by __cuda_array_interface__ and DLPack, and the
memory advanced indexing takes."""
import itertools
import warnings

import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np, run_python


# ---- NumPy's exception classes ------------------------------------------

def test_axis_error_is_numpys(device):
    a = ember.arange(6, device=device).reshape(2, 3)
    with pytest.raises(np.exceptions.AxisError, match="axis 4 is out of bounds"):
        a.sum(axis=4)
    with pytest.raises(ember.AxisError):
        a.sum(axis=-3)
    assert issubclass(ember.AxisError, np.exceptions.AxisError)
    assert issubclass(ember.AxisError, ValueError)
    assert issubclass(ember.AxisError, IndexError)
    with pytest.raises(np.exceptions.AxisError):
        a.swapaxes(0, 5)


def test_complex_warning_is_numpys(device):
    a = ember.asarray([1 + 2j, 3 - 1j], device=device)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = a.astype(ember.float64)
    assert any(issubclass(x.category, np.exceptions.ComplexWarning) for x in w)
    assert_array_equal_np(r, np.array([1.0, 3.0]))
    for name in ("DTypePromotionError", "VisibleDeprecationWarning", "TooHardError"):
        assert issubclass(getattr(ember, name), getattr(np.exceptions, name))


def test_exceptions_without_numpy_imported():
    # import ember imports no NumPy; ember's class is caught by NumPy's once
    # NumPy comes, whichever was looked up first.
    code = (
        "import sys, ember\n"
        "assert 'numpy' not in sys.modules\n"
        "E0 = ember.AxisError\n"
        "assert issubclass(E0, ValueError) and issubclass(E0, IndexError)\n"
        "try:\n"
        "    ember.arange(3).sum(axis=2)\n"
        "except E0:\n"
        "    pass\n"
        "assert 'numpy' not in sys.modules\n"
        "import numpy as np\n"
        "try:\n"
        "    ember.arange(3).sum(axis=2)\n"
        "except np.exceptions.AxisError as e:\n"
        "    assert isinstance(e, E0) and isinstance(e, ember.AxisError)\n"
        "print('ok')\n")
    r = run_python("-c", code)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
