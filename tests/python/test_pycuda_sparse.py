"""PyCUDA's pycuda.sparse (ember.pycuda.sparse) on every device: SpMV,
operators, the inner product and conjugate gradients, checked against
SciPy and NumPy."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import ember


@pytest.fixture
def on(device):
    with ember.Device(device):
        yield device


def _spd(n, dtype, seed=3):
    r = sp.random(n, n, 0.01, random_state=seed)
    a = sp.diags([-1.0, 2.5, -1.0], [-1, 0, 1], shape=(n, n)) + (r + r.T) * 0.5
    return (a + sp.eye(n) * 0.5).tocsr().astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_packeted_spmv(on, dtype):
    from ember.pycuda import gpuarray
    from ember.pycuda.sparse.packeted import PacketedSpMV
    a = _spd(300, dtype)
    x = np.random.default_rng(0).standard_normal(300).astype(dtype)
    spmv = PacketedSpMV(a, True, dtype)
    assert spmv.shape == (300, 300) and spmv.dtype == np.dtype(dtype)
    xg = spmv.permute(gpuarray.to_gpu(x))
    y = spmv(xg)
    assert isinstance(y, gpuarray.GPUArray) and y.dtype == np.dtype(dtype)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(spmv.unpermute(y).get(), a @ x, rtol=tol, atol=tol)
    # a y given is added to, as PyCUDA's kernels do
    y0 = gpuarray.to_gpu(np.ones(300, dtype))
    assert spmv(xg, y0) is y0
    np.testing.assert_allclose(y0.get(), a @ x + 1, rtol=tol, atol=tol)


def test_coordinate_spmv_rectangular(on):
    from ember.pycuda import gpuarray
    from ember.pycuda.sparse.coordinate import CoordinateSpMV
    a = sp.random(50, 80, 0.1, random_state=2, format="coo")
    x = np.arange(80, dtype=np.float64)
    y = CoordinateSpMV(a, np.float64)(gpuarray.to_gpu(x))
    np.testing.assert_allclose(y.get(), a @ x, rtol=1e-12)


def test_spmv_bad_shapes(on):
    from ember.pycuda import gpuarray
    from ember.pycuda.sparse.packeted import PacketedSpMV
    with pytest.raises(ValueError, match="square"):
        PacketedSpMV(sp.random(4, 5, 0.5, format="csr"), False, np.float64)
    spmv = PacketedSpMV(_spd(10, np.float64), True, np.float64)
    with pytest.raises(ValueError, match="shape"):
        spmv(gpuarray.to_gpu(np.ones(9)))


def test_operators_and_inner_product(on):
    from ember.pycuda import gpuarray
    from ember.pycuda.sparse.inner import AsyncInnerProduct
    from ember.pycuda.sparse.operator import (DiagonalPreconditioner,
                                              IdentityOperator)
    v = np.array([1.0, -2.0, 3.0])
    w = np.array([0.5, 4.0, 2.0])
    vg, wg = gpuarray.to_gpu(v), gpuarray.to_gpu(w)
    i = IdentityOperator(np.float64, 3)
    assert i(vg) is vg and i.shape == (3, 3)
    p = DiagonalPreconditioner(vg)
    assert p.shape == (3, 3) and p.dtype == np.float64
    np.testing.assert_array_equal(p(wg).get(), v * w)
    ip = AsyncInnerProduct(vg, wg, None)
    assert ip.get_host_result() == pytest.approx(np.dot(v, w))
    assert float(ip.gpu_result.get()) == pytest.approx(-1.5)


@pytest.mark.parametrize("dtype,tol", [(np.float32, 5e-5), (np.float64, 1e-7)])
def test_solve_pkt_with_cg(on, dtype, tol):
    from ember.pycuda import gpuarray
    from ember.pycuda.sparse.cg import solve_pkt_with_cg
    from ember.pycuda.sparse.operator import DiagonalPreconditioner
    from ember.pycuda.sparse.packeted import PacketedSpMV
    a = _spd(400, dtype)
    b = np.random.default_rng(1).random(400).astype(dtype)
    spmv = PacketedSpMV(a, True, dtype)
    precon = DiagonalPreconditioner(spmv.permute(gpuarray.to_gpu(
        (1 / a.diagonal()).astype(dtype))))
    x, its, res = solve_pkt_with_cg(spmv, gpuarray.to_gpu(b), precon, tol=tol)
    assert x.dtype == np.dtype(dtype) and its > 0 and 1 <= res <= its
    want = spla.spsolve(a.astype(np.float64).tocsc(), b.astype(np.float64))
    assert np.linalg.norm(a @ x.get() - b) / np.linalg.norm(b) < 50 * tol
    np.testing.assert_allclose(x.get(), want, rtol=0, atol=200 * tol * np.abs(want).max())
    # without a preconditioner, from a given start (half the solution:
    # its residual, not b's, is what tol is relative to)
    x2, its2, _ = solve_pkt_with_cg(spmv, gpuarray.to_gpu(b), None,
                                    x=gpuarray.to_gpu((0.5 * want).astype(dtype)), tol=tol)
    assert its2 > 0
    np.testing.assert_allclose(x2.get(), want, rtol=0, atol=200 * tol * np.abs(want).max())


def test_cg_convergence_error(on):
    from ember.pycuda import gpuarray
    from ember.pycuda.sparse.cg import ConvergenceError, solve_pkt_with_cg
    from ember.pycuda.sparse.packeted import PacketedSpMV
    spmv = PacketedSpMV(_spd(200, np.float64), True, np.float64)
    b = gpuarray.to_gpu(np.ones(200))
    with pytest.raises(ConvergenceError):
        solve_pkt_with_cg(spmv, b, tol=1e-14, max_iterations=3)
    assert issubclass(ConvergenceError, RuntimeError)
    with pytest.raises(ValueError, match="shape"):
        solve_pkt_with_cg(spmv, gpuarray.to_gpu(np.ones(5)))
