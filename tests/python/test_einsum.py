"""ember.einsum against numpy.einsum: the string and sublist forms,
implicit and explicit outputs, ellipses, diagonals, broadcasting, dtypes,
out= and the errors."""
import numpy as np
import pytest

import ember

rng = np.random.default_rng(7)
A = rng.standard_normal((3, 4))
B = rng.standard_normal((4, 5))
C = rng.standard_normal((5, 3))
V = rng.standard_normal(4)
T = rng.standard_normal((2, 3, 4))
S = rng.standard_normal((4, 4))

CASES = [
    ("ij,jk->ik", A, B), ("ij,jk", A, B), ("ij,jk,ki->", A, B, C),
    ("ij,jk,kl", A, B, C), ("i,i", V, V), ("i,j->ij", V, V), ("ii", S),
    ("ii->i", S), ("ij->ji", A), ("ij->", A), ("ji", A), ("ik,k", A, V),
    ("...ij,jk->...ik", T, B), ("bij,bjk->bik", T, rng.standard_normal((2, 4, 6))),
    ("ij,ij->ij", A, A[:1]), ("...,...", rng.standard_normal((2, 1)),
                              rng.standard_normal(3)),
    ("i...->...", T), ("ijk,kj->i", T, rng.standard_normal((4, 3))),
    ("iij->j", rng.standard_normal((3, 3, 2))), ("ab,cd->abcd", A, A),
    ("i", V), ("", np.float64(3.0)), ("ij, jk -> ik", A, B),
    ("bi,bi->b", T[0], T[1]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] or "scalar" for c in CASES])
def test_einsum(device, case):
    spec, ops = case[0], case[1:]
    want = np.einsum(spec, *ops)
    got = ember.einsum(spec, *[ember.asarray(o, device=device) for o in ops])
    assert isinstance(got, ember.ndarray)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", ["int32", "bool", "complex64", "float32"])
def test_einsum_dtypes(device, dtype):
    a = (rng.standard_normal((3, 4)) * 3).astype(dtype)
    b = (rng.standard_normal((4, 2)) * 3).astype(dtype)
    got = ember.einsum("ij,jk->ik", ember.asarray(a, device=device),
                       ember.asarray(b, device=device))
    want = np.einsum("ij,jk->ik", a, b)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-5)
    wide = "complex128" if dtype == "complex64" else "float64"
    r = ember.einsum("ij->", ember.asarray(a, device=device), dtype=wide)
    want = np.einsum("ij->", a, dtype=wide)
    assert r.dtype == want.dtype
    np.testing.assert_allclose(ember.asnumpy(r), want, rtol=1e-6)


def test_einsum_sublists_out_errors(device):
    a, b = ember.asarray(A, device=device), ember.asarray(B, device=device)
    got = ember.einsum(a, [0, 1], b, [1, 2], [0, 2])
    np.testing.assert_allclose(ember.asnumpy(got), A @ B, rtol=1e-12)
    got = ember.einsum(a, [Ellipsis, 1], ember.asarray(V, device=device), [1])
    np.testing.assert_allclose(ember.asnumpy(got), A @ V, rtol=1e-12)
    out = ember.empty((3, 5), device=device)
    assert ember.einsum("ij,jk", a, b, out=out) is out
    np.testing.assert_allclose(ember.asnumpy(out), A @ B, rtol=1e-12)
    for spec, ops in [("ij,jk", (A, A)), ("ij->k", (A,)), ("i...->i", (T,)),
                      ("ii->i", (A,)), ("ij,j", (A,)), ("i->ii", (V,)),
                      ("i1", (V,)), ("ij", (V,))]:
        with pytest.raises(ValueError):
            np.einsum(spec, *ops)
        with pytest.raises(ValueError):
            ember.einsum(spec, *[ember.asarray(o, device=device) for o in ops])
    with pytest.raises(TypeError):
        ember.einsum("i,i", ember.asarray(V, device=device),
                     ember.asarray(V, device=device), dtype=ember.int32)
