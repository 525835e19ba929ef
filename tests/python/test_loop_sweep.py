"""Functions whose Python loops over the data became array operations:
each compared with its peer on inputs large enough that a loop an element
(or a full pass a label) would show."""
import numpy as np
import pytest

import ember

scipy_ndimage = pytest.importorskip("scipy.ndimage")


# ---- scipy.ndimage.labeled_comprehension: one sort, a slice a region ----

def test_labeled_comprehension_many_regions(device):
    from ember.scipy import ndimage
    rng = np.random.default_rng(0)
    lab = rng.integers(0, 1500, (300, 400))
    x = rng.random((300, 400))
    # duplicates, an absent label, and labels out of order
    idx = np.concatenate([np.arange(1499, 0, -1), [7, 5000, 7]])
    X = ember.asarray(x, device=device)
    L = ember.asarray(lab, device=device)
    got = ndimage.labeled_comprehension(X, L, idx, lambda v: v.sum(),
                                        np.float64, -1.0)
    want = scipy_ndimage.labeled_comprehension(x, lab, idx, np.sum,
                                               np.float64, -1.0)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-12)


def test_labeled_comprehension_positions_in_c_order(device):
    from ember.scipy import ndimage
    rng = np.random.default_rng(1)
    lab = rng.integers(0, 50, 20_000)
    x = rng.random(20_000)
    idx = np.arange(1, 60)

    # the first position of each region: the positions come in C order
    def first(v, p):
        return p[0] if p.size else -1
    got = ndimage.labeled_comprehension(
        ember.asarray(x, device=device), ember.asarray(lab, device=device),
        ember.asarray(idx, device=device), first, np.int64, -1,
        pass_positions=True)
    want = scipy_ndimage.labeled_comprehension(
        x, lab, idx, lambda v, p: p.min(), np.int64, -1, pass_positions=True)
    np.testing.assert_array_equal(ember.asnumpy(got), want)


def test_labeled_comprehension_scalar_index_and_bad_index(device):
    from ember.scipy import ndimage
    x = np.arange(12.0).reshape(3, 4)
    lab = np.array([[1, 1, 0, 2]] * 3)
    X = ember.asarray(x, device=device)
    L = ember.asarray(lab, device=device)
    got = ndimage.labeled_comprehension(X, L, 2, lambda v: v.max(),
                                        np.float64, 0.0)
    assert float(got) == scipy_ndimage.labeled_comprehension(
        x, lab, 2, np.max, np.float64, 0.0)
    with pytest.raises(ValueError, match="labels' type"):
        ndimage.labeled_comprehension(X, L, [1.5], np.max, np.float64, 0.0)
