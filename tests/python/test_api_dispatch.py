"""NEP 18 and NEP 13 on ember arrays: NumPy's functions and ufuncs called
with ember arrays run ember's, on the arrays' device, or raise TypeError;
never a silent copy to the host. Also ember.get_array_module and the lazy
loading of the composite layer."""
import subprocess
import sys

import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np, run_python


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


def test_where_std_concatenate_convolve(device):
    c = np.array([True, False, True])
    x = np.array([1.0, 2.0, 3.0])
    y = np.array([-1.0, -2.0, -3.0])
    r = np.where(E(c, device), E(x, device), E(y, device))
    assert_array_equal_np(r, np.where(c, x, y), device)
    r = np.std(E(np.arange(10.0), device))
    assert isinstance(r, ember.ndarray) and r.device == ember.Device(device)
    np.testing.assert_allclose(ember.asnumpy(r), np.std(np.arange(10.0)))
    r = np.std(E(np.arange(12.0).reshape(3, 4), device), axis=0, ddof=1)
    np.testing.assert_allclose(ember.asnumpy(r), np.std(np.arange(12.0).reshape(3, 4),
                                                        axis=0, ddof=1))
    assert r.device == ember.Device(device)
    a, b = np.arange(3, dtype=np.int32), np.arange(4, dtype=np.int64)
    r = np.concatenate([E(a, device), E(b, device)])
    assert_array_equal_np(r, np.concatenate([a, b]), device)
    v = np.array([1.0, 0.5, -2.0])
    r = np.convolve(E(x, device), E(v, device))
    assert isinstance(r, ember.ndarray) and r.device == ember.Device(device)
    np.testing.assert_allclose(ember.asnumpy(r), np.convolve(x, v))
    # a submodule's function maps to ember's submodule
    r = np.linalg.norm(E(x, device))
    np.testing.assert_allclose(ember.asnumpy(r), np.linalg.norm(x))


def test_unsupported_function_raises(device):
    x = E(np.arange(4.0), device)
    with pytest.raises(TypeError, match=r"no implementation of numpy.einsum_path for ember"):
        np.einsum_path("i,i", x, x)
    with pytest.raises(TypeError, match=r"numpy.*is_busday"):
        np.is_busday(x)


def test_foreign_type_gets_notimplemented(device):
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"
    # ember steps aside for a type it does not know, so NumPy asks Other.
    assert np.concatenate([E([1], device), Other()]) == "other"


def test_array_ufunc(device):
    a = np.arange(5, dtype=np.int16)
    r = np.add(E(a, device), 1)
    assert_array_equal_np(r, np.add(a, 1), device)
    r = np.multiply(2.5, E(a, device))
    assert_array_equal_np(r, np.multiply(2.5, a), device)
    r = np.sqrt(E(a.astype(np.float32), device))
    assert_array_equal_np(r, np.sqrt(a.astype(np.float32)), device)


def test_get_array_module(device):
    assert ember.get_array_module(E([1], device)) is ember
    assert ember.get_array_module(np.arange(2), E([1], device)) is ember
    assert ember.get_array_module(np.arange(2), 3) is np
    assert ember.get_array_module() is np


def test_import_stays_lazy():
    # The composite layer adds no module to `import ember` (only its table),
    # and using one name loads one module.
    code = ("import sys, ember; "
            "print(sorted(m for m in sys.modules if m.startswith('ember._api')))")
    r = run_python("-c", code)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['ember._api']"
    code = ("import sys, ember; ember.hanning; "
            "print(sorted(m for m in sys.modules if m.startswith('ember._api.')))")
    r = run_python("-c", code)
    assert r.stdout.strip() == "['ember._api._util', 'ember._api.window']", r.stderr


def test_all_exports_resolve():
    for name in ember._api.__all__:
        assert name in ember.__all__
        assert getattr(ember, name) is not None
    assert ember.sort is ember._api.sorting.sort


def test_composites_never_move_data_between_devices(need_cuda):
    a = ember.asarray(np.arange(4.0), device="cpu")
    b = ember.asarray(np.arange(3.0), device="cuda:0")
    for call in (lambda: ember.convolve(a, b), lambda: ember.interp(a, b, b),
                 lambda: ember.append(a, b), lambda: ember.insert(a, 1, b[:1]),
                 lambda: ember.r_[a, b], lambda: ember.putmask(a, b > 1, 0.0)):
        with pytest.raises(ValueError, match="different devices"):
            call()
