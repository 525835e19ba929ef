"""The interoperability page of CuPy's user guide on ember's cpu device
with the libraries it names that run without a GPU: NumPy's dispatch,
JAX's DLPack exchange and MArray's masked arrays (each skipped where the
package is not installed; the CI environment has neither JAX nor MArray)."""
import numpy as np
import pytest

import ember


def test_numpy_functions_dispatch_to_ember(device):
    arr = ember.asarray(np.random.default_rng(0).standard_normal((1, 2, 3, 4)),
                        device=device).astype(ember.float32)
    r = np.sum(arr)
    assert type(r) is ember.ndarray and r.shape == () and r.device == arr.device
    np.testing.assert_allclose(float(r), ember.asnumpy(arr).sum(dtype=np.float64), rtol=1e-5)


def test_jax_dlpack_round_trip():
    jnp = pytest.importorskip("jax.numpy")
    x = jnp.arange(5.0)
    y = ember.from_dlpack(x)
    assert y.device == ember.Device("cpu") and y.dtype == np.float32
    np.testing.assert_array_equal(ember.asnumpy(y), np.arange(5.0, dtype=np.float32))
    z = jnp.from_dlpack(y)
    np.testing.assert_array_equal(np.asarray(z), np.arange(5.0, dtype=np.float32))


def test_marray_over_ember():
    pytest.importorskip("marray")
    from marray import ember as mxp     # the guide's spelling, its cupy swapped
    x = mxp.asarray([1, 2, 3], mask=[False, True, False])
    s = mxp.sum(x)
    assert int(ember.asnumpy(s.data)) == 4 and not bool(ember.asnumpy(s.mask))
    assert str(x) == "[1 _ 3]"
