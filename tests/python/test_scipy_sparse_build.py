"""ember.scipy.sparse's dok and lil formats against SciPy's: element and
fancy assignment (pointwise, outer grids, repeats, zeros erasing),
indexing, conversions, and bad indices, as the lectures' DOK and LIL
pages use them."""
import numpy as np
import pytest
import scipy.sparse as ss

import ember
import ember.scipy.sparse as es

rng = np.random.default_rng(5)


def N(x):
    return ember.asnumpy(x)


def dense_of(m):
    return N(m.toarray()) if isinstance(m.toarray(), ember.ndarray) else m.toarray()


@pytest.mark.parametrize("fmt", ["dok", "lil"])
def test_assignments_match_scipy(device, fmt):
    a = getattr(es, f"{fmt}_array")((5, 6), device=device)
    b = getattr(ss, f"{fmt}_array")((5, 6))
    for ir in range(5):
        for ic in range(0, 6, 2):
            a[ir, ic] = 1.0 * (ir != ic)
            b[ir, ic] = 1.0 * (ir != ic)
    data = np.round(rng.random((2, 3)) * 4)
    steps = [((slice(None, 2), [1, 2, 3]), data),
             (([0, 3], [5, 1]), [7.0, -2.0]),                   # pointwise
             ((4, slice(1, 5)), np.arange(4.0)),                # an int drops its axis
             ((slice(None), 0), 0.0),                           # zeros erase
             (([1, 1], [2, 2]), [3.0, 9.0]),                    # the last write wins
             ((-1, -1), 5.5),
             ((slice(1, 4), slice(2, 5)), ember.asarray(np.eye(3), device=device)),
             ((2, slice(3, 6)), "row 1's first three")]          # a sparse value
    for key, value in steps:
        if isinstance(value, str):             # the lectures' mtx[1, 100:200] = mtx[[0], :100]
            a[key], b[key] = a[[1], :3], b[[1], :3]
        else:
            a[key] = value
            b[key] = N(value) if isinstance(value, ember.ndarray) else value
        np.testing.assert_array_equal(N(a.toarray()), b.toarray())
    assert a.nnz == b.nnz and a.shape == b.shape and a.format == b.format
    assert a.toarray().device == ember.Device(device)
    np.testing.assert_array_equal(N(a.tocsr().toarray()), b.toarray())
    np.testing.assert_array_equal(N(a.tocsc().toarray()), b.toarray())
    x = rng.standard_normal(6)
    np.testing.assert_allclose(N(a @ ember.asarray(x, device=device)), b @ x)
    # SciPy's DOK lists in insertion order (a dict), ember's row-major
    assert sorted(str(a).splitlines()[1:]) == sorted(str(b).splitlines()[2:])


@pytest.mark.parametrize("fmt", ["dok", "lil"])
def test_indexing_and_construction(device, fmt):
    d = np.array([[0, 1, 2, 0], [3, 0, 1, 0], [1, 0, 0, 1]])
    a = getattr(es, f"{fmt}_array")(ember.asarray(d, device=device))
    b = getattr(ss, f"{fmt}_array")(d)
    assert a.dtype == b.dtype and a.nnz == b.nnz
    assert float(a[1, 0]) == b[1, 0] and float(a[0, 0]) == b[0, 0]
    for key in [([1], slice(1, 3)), ([2, 1], slice(1, 3)), (slice(None, 2), slice(None)),
                (slice(1, 2), [0, 2])]:
        got = a[key]
        assert got.format == fmt
        np.testing.assert_array_equal(N(got.toarray()), b[key].toarray())
    c = getattr(es, f"{fmt}_array")(es.csr_matrix(ember.asarray(d, device=device)),
                                    dtype=np.float32)
    assert c.dtype == np.float32
    np.testing.assert_array_equal(N(c.toarray()), d)


@pytest.mark.parametrize("fmt", ["dok", "lil"])
def test_setdiag(device, fmt):
    a = getattr(es, f"{fmt}_array")((4, 6), device=device)
    b = getattr(ss, f"{fmt}_array")((4, 6))
    for values, k in [(2.0, 0), (np.arange(1.0, 3.0), 1), (np.arange(1.0, 9.0), -1),
                      (0.0, 0), (7.0, 5)]:
        a.setdiag(ember.asarray(values, device=device) if np.ndim(values) else values, k)
        b.setdiag(values, k)
        np.testing.assert_array_equal(N(a.toarray()), b.toarray())
    with pytest.raises(ValueError, match="exceeds"):
        a.setdiag(1.0, 6)


def test_bad_indices(device):
    a = es.dok_array((3, 3), device=device)
    with pytest.raises(IndexError, match="out of range"):
        a[3, 0] = 1.0
    with pytest.raises(IndexError, match="pair"):
        a[1] = 1.0
    with pytest.raises(IndexError, match="integers"):
        a[[0.5], 1] = 1.0
    with pytest.raises(ValueError):
        a[:2, :2] = np.ones(3)
