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
    # the data stays where JAX keeps it: host memory (kDLCPU, 1) on cpu,
    # a GPU JAX's on that GPU
    kind, ordinal = x.__dlpack_device__()
    want = ember.Device("cpu") if kind == 1 else ember.Device("cuda:%d" % ordinal)
    assert y.device == want and y.dtype == np.float32
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


_NUMBA = r'''
import numpy, numba
from numba import cuda
import ember as cupy

@cuda.jit
def add(x, y, out):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        out[i] = x[i] + y[i]

a = cupy.arange(10)
b = a * 2
out = cupy.zeros_like(a)
add[1, 32](a, b, out)
assert cupy.asnumpy(out).tolist() == list(range(0, 30, 3)), out
x_numba = numba.cuda.to_device(numpy.arange(10))
x_cupy = cupy.asarray(x_numba)
assert type(x_cupy) is cupy.ndarray and cupy.asnumpy(x_cupy).tolist() == list(range(10))
x_cupy[0] = 42                      # zero-copy: the same memory
assert x_numba.copy_to_host()[0] == 42
print("ok")
'''


def test_numba_snippets_under_cuda_simulator():
    """Numba's kernels on ember's cpu arrays through Numba's CUDA simulator
    (the arrays' __cuda_array_interface__ names host memory there)."""
    import os
    import subprocess
    import sys
    pytest.importorskip("numba")
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", EMBER_DEVICE="cpu",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", _NUMBA], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
