"""ember.nvmath.linalg.matmul (nvmath-python's generic matmul) against NumPy:
each matrix qualifier (general, diagonal, symmetric, Hermitian,
triangular) reads only its part of the operand, alpha/beta/C, execution
spaces, the stateful object and nvmath's errors."""
import numpy as np
import pytest

import ember
from ember import nvmath
from helpers import assert_close_scaled, random_values

L = nvmath.linalg
RNG = np.random.default_rng(5)


def rand(shape, dtype="float64"):
    return random_values(RNG, shape, dtype)


def check(got, want, device=None):
    if device is not None:
        assert isinstance(got, ember.ndarray) and got.device == ember.Device(device)
        got = ember.asnumpy(got)
    assert isinstance(got, np.ndarray)
    t = 1e-4 if want.dtype in (np.float32, np.complex64) else 1e-11
    assert_close_scaled(got, want, t, rtol=t)


def quals(qa=None, qb=None):
    q = np.full((2,), L.GeneralMatrixQualifier.create(), dtype=L.matrix_qualifiers_dtype)
    if qa is not None:
        q[0] = qa
    if qb is not None:
        q[1] = qb
    return q


def dense(x, kind, lower=True, unit=False):
    tri = np.tril if lower else np.triu
    s = tri(x, -1 if lower else 1)
    if kind == "tr":
        return s + np.eye(len(x), dtype=x.dtype) if unit else tri(x)
    d = np.diag(np.diag(x))
    if kind == "he":
        return s + s.conj().T + d.real
    return s + s.T + d


@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
@pytest.mark.parametrize("kind", ["sy", "he", "tr", "tr-unit"])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("side", [0, 1])
def test_structured(device, dtype, kind, lower, side):
    if kind == "he" and dtype == "float32":
        pytest.skip("Hermitian of a real matrix is the symmetric case")
    sq, other = rand((5, 5), dtype), rand((5, 3) if side == 0 else (3, 5), dtype)
    uplo = L.FillMode.LOWER if lower else L.FillMode.UPPER
    q = {"sy": L.SymmetricMatrixQualifier.create(uplo=uplo),
         "he": L.HermitianMatrixQualifier.create(uplo=uplo),
         "tr": L.TriangularMatrixQualifier.create(uplo=uplo),
         "tr-unit": L.TriangularMatrixQualifier.create(uplo=uplo, diag=L.DiagType.UNIT)}[kind]
    full = dense(sq, kind[:2], lower, kind == "tr-unit")
    d = lambda x: ember.asarray(x, device=device)  # noqa: E731
    if side == 0:
        r = L.matmul(d(sq), d(other), qualifiers=quals(qa=q))
        check(r, full @ other, device)
    else:
        r = L.matmul(d(other), d(sq), qualifiers=quals(qb=q))
        check(r, other @ full, device)


@pytest.mark.parametrize("incx", [1, -1])
def test_diagonal(device, incx):
    a, v = rand((4, 6)), rand((6,))
    d = lambda x: ember.asarray(x, device=device)  # noqa: E731
    dq = L.DiagonalMatrixQualifier.create(incx=incx)
    w = v if incx == 1 else v[::-1]
    check(L.matmul(d(a), d(v), qualifiers=quals(qb=dq)), a @ np.diag(w), device)
    b = rand((6, 3))
    check(L.matmul(d(v), d(b), qualifiers=quals(qa=dq)), np.diag(w) @ b, device)


def test_conjugate_and_gemm(device):
    a, b, c = rand((3, 4), "complex128"), rand((4, 5), "complex128"), rand((3, 5), "complex128")
    d = lambda x: ember.asarray(x, device=device)  # noqa: E731
    q = np.full((3,), L.GeneralMatrixQualifier.create(), dtype=L.matrix_qualifiers_dtype)
    q[0] = L.GeneralMatrixQualifier.create(conjugate=True)
    r = L.matmul(d(a), d(b), d(c), alpha=0.5, beta=2.0, qualifiers=q)
    check(r, 0.5 * (a.conj() @ b) + 2.0 * c, device)


def test_numpy_execution_and_stateful():
    a, b = rand((2, 5, 4)), rand((4, 3))
    for execution in (None, "cpu", "cuda", L.ExecutionCPU(), {"name": "cuda"}):
        r = L.matmul(a, b, execution=execution)
        assert type(r) is np.ndarray
        check(r, a @ b)
    c = rand((2, 5, 3))
    c0 = c.copy()
    with L.Matmul(a, b, c=c, beta=1.0, options={"inplace": True}) as mm:
        with pytest.raises(RuntimeError, match="plan"):
            mm.execute()
        mm.plan()
        assert mm.execute() is c
        check(c, a @ b + c0)
        a2 = rand((2, 5, 4))
        mm.reset_operands(a=a2, c=c0.copy(), alpha=3.0)
        check(mm.execute(), 3.0 * (a2 @ b) + c0)
        with pytest.raises(ValueError, match="must match"):
            mm.reset_operands(a=rand((2, 5, 3)))
    with pytest.raises(L.InvalidMatmulState):
        mm.execute()


def test_errors():
    a, b = rand((4, 5)), rand((5, 3))
    with pytest.raises(ValueError, match="same dtype"):
        L.matmul(a, b.astype("float32"))
    with pytest.raises(ValueError, match="K=5 in operand A"):
        L.matmul(a, rand((4, 3)))
    with pytest.raises(ValueError, match="square"):
        L.matmul(a, b, qualifiers=quals(qa=L.SymmetricMatrixQualifier.create()))
    with pytest.raises(ValueError, match="1-D"):
        L.matmul(a, b, qualifiers=quals(qb=L.DiagonalMatrixQualifier.create()))
    with pytest.raises(ValueError, match="incx"):
        L.DiagonalMatrixQualifier.create(incx=2)
    with pytest.raises(ValueError, match="number of MatrixQualifiers"):
        L.matmul(a, b, rand((4, 3)), beta=1, qualifiers=quals())
    with pytest.raises(ValueError, match="matrix_qualifiers_dtype"):
        L.matmul(a, b, qualifiers=np.zeros(2))
    with pytest.raises(ValueError, match="beta"):
        L.matmul(a, b, rand((4, 3)))
    with pytest.raises(RuntimeError, match="create"):
        L.GeneralMatrixQualifier()
    with pytest.raises(ValueError, match="int32"):
        L.matmul(a.astype("int32"), b.astype("int32"))
