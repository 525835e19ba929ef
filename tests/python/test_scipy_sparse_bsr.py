"""ember.scipy.sparse.bsr_matrix/bsr_array against SciPy's: the stored
blocks, indices and indptr from each constructor the lectures' BSR page
uses, dense results, conversions and products, and bad shapes."""
import numpy as np
import pytest
import scipy.sparse as ss

import ember
import ember.scipy.sparse as es

rng = np.random.default_rng(11)


def N(x):
    return ember.asnumpy(x)


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


def same(a, b):
    # ember's blocks are sorted within each block row; SciPy's dense
    # conversion may leave them unsorted (same matrix)
    b = b.sorted_indices()
    assert a.shape == b.shape and a.blocksize == b.blocksize
    assert a.dtype == b.dtype and a.nnz == b.nnz
    np.testing.assert_array_equal(N(a.data), b.data)
    np.testing.assert_array_equal(N(a.indices), b.indices)
    np.testing.assert_array_equal(N(a.indptr), b.indptr)
    np.testing.assert_array_equal(N(a.toarray()), b.toarray())


@pytest.mark.parametrize("blocksize", [None, (3, 2)])
def test_bsr_from_shape(device, blocksize):
    a = es.bsr_array((3, 4), blocksize=blocksize, dtype=np.int8, device=device)
    same(a, ss.bsr_array((3, 4), blocksize=blocksize, dtype=np.int8))
    assert a.data.device == ember.Device(device)


def test_bsr_from_triplets_and_blocks(device):
    row, col = np.array([0, 0, 1, 2, 2, 2, 0]), np.array([0, 2, 2, 0, 1, 2, 0])
    data = np.array([1, 2, 3, 4, 5, 6, 10])        # (0, 0) twice: summed
    same(es.bsr_array((E(data, device), (E(row, device), E(col, device))), shape=(3, 3)),
         ss.bsr_array((data, (row, col)), shape=(3, 3)))
    same(es.bsr_array((E(data, device), (E(row, device), E(col, device))),
                      shape=(4, 4), blocksize=(2, 2)),
         ss.bsr_array((data, (row, col)), shape=(4, 4), blocksize=(2, 2)))
    indptr = np.array([0, 2, 3, 6])
    indices = np.array([0, 2, 2, 0, 1, 2])
    blocks = np.array([1, 2, 3, 4, 5, 6]).repeat(4).reshape(6, 2, 2)
    same(es.bsr_array((E(blocks, device), E(indices, device), E(indptr, device)),
                      shape=(6, 6)),
         ss.bsr_array((blocks, indices, indptr), shape=(6, 6)))


@pytest.mark.parametrize("blocksize", [None, (2, 3), (4, 1)])
def test_bsr_from_dense_and_sparse(device, blocksize):
    d = rng.standard_normal((8, 6))
    d[rng.random((8, 6)) > 0.3] = 0
    d[:4, :3] = 0                                  # an empty block
    want = ss.bsr_array(d, blocksize=blocksize)
    same(es.bsr_array(E(d, device), blocksize=blocksize), want)
    csr = es.csr_matrix(E(d, device))
    np.testing.assert_array_equal(N(es.bsr_array(csr, blocksize=blocksize).toarray()), d)
    a = es.bsr_array(E(d, device), blocksize=blocksize)
    assert es.issparse(a)
    np.testing.assert_array_equal(N(a.tocsr().toarray()), d)
    np.testing.assert_array_equal(N(a.tocsc().toarray()), d)
    np.testing.assert_array_equal(N(a.T.toarray()), d.T)
    np.testing.assert_array_equal(N(a.tobsr(blocksize=(2, 2)).toarray()), d)
    x = rng.standard_normal(6)
    np.testing.assert_allclose(N(a @ E(x, device)), d @ x, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(N((a * 2.0).toarray()), 2 * d)
    # the blocks' explicit zeros stay stored through tocoo, as SciPy's
    assert a.tocoo().nnz == want.tocoo().nnz


def test_bsr_bad_input(device):
    with pytest.raises(ValueError, match="divisible"):
        es.bsr_array((3, 4), blocksize=(2, 2), device=device)
    with pytest.raises(ValueError, match="3-d"):
        es.bsr_array((E(np.ones(4), device), E([0], device), E([0, 1], device)),
                     shape=(2, 2))
    with pytest.raises(ValueError, match="indptr"):
        es.bsr_array((E(np.ones((2, 1, 1)), device), E([0, 1], device),
                      E([0, 1], device)), shape=(2, 2))
