"""ember.scipy.ndimage's label and region measurements against
scipy.ndimage: identical labels (numbering in C order of each region's
first pixel) in 1, 2 and 3 dimensions for every connectivity, and the
measurements for lists, scalars and no index."""
import numpy as np
import pytest
import scipy.ndimage as nd

import ember
import ember.scipy.ndimage as en

rng = np.random.default_rng(8)


@pytest.mark.parametrize("shape", [(300,), (64, 80), (9, 13, 11)])
def test_label_matches_scipy(device, shape):
    for density in (0.3, 0.6):
        a = rng.random(shape) < density
        for conn in range(1, len(shape) + 1):
            st = nd.generate_binary_structure(len(shape), conn)
            want, n = nd.label(a, st)
            got, m = en.label(ember.asarray(a, device=device), st)
            assert m == n and got.dtype == want.dtype
            np.testing.assert_array_equal(ember.asnumpy(got), want)
    # one large serpentine region: unions across the whole image
    s = np.zeros((41, 41), bool)
    s[::2, :] = True
    s[1::4, -1] = True
    s[3::4, 0] = True
    got, m = en.label(ember.asarray(s, device=device))
    assert m == 1 and np.array_equal(ember.asnumpy(got), nd.label(s)[0])


def test_label_arguments(device):
    a = np.array([[0, 1, 1, 0, 1], [1, 0, 1, 0, 1], [0, 0, 0, 1, 1]])
    out = ember.zeros(a.shape, dtype=ember.int32, device=device)
    assert en.label(ember.asarray(a, device=device), output=out) == 3
    np.testing.assert_array_equal(ember.asnumpy(out), nd.label(a)[0])
    lab, n = en.label(ember.asarray(np.zeros((0, 4)), device=device))
    assert n == 0 and lab.shape == (0, 4)
    with pytest.raises(RuntimeError, match="equal rank"):
        en.label(ember.asarray(a, device=device), np.ones((3,), bool))
    with pytest.raises(ValueError, match="equal to 3"):
        en.label(ember.asarray(a, device=device), np.ones((2, 2), bool))
    with pytest.raises(TypeError, match="Complex"):
        en.label(ember.asarray(a + 1j, device=device))
    assert np.array_equal(en.generate_binary_structure(3, 2),
                          nd.generate_binary_structure(3, 2))


def test_measurements_match_scipy(device):
    img = rng.random((50, 60))
    lab, n = nd.label(img > 0.7)
    e, el = ember.asarray(img, device=device), ember.asarray(lab, device=device)
    idx = [1, 2, 5, n, n + 3]
    for name in ("sum_labels", "mean", "variance", "standard_deviation",
                 "minimum", "maximum"):
        f, g = getattr(en, name), getattr(nd, name)
        with np.errstate(invalid="ignore", divide="ignore"):
            want = g(img, lab, idx)
        np.testing.assert_allclose(ember.asnumpy(f(e, el, idx)), want,
                                   rtol=1e-12, equal_nan=True)
        np.testing.assert_allclose(float(f(e, el, 3)), g(img, lab, 3),
                                   rtol=1e-12)
        np.testing.assert_allclose(float(f(e, el)), g(img, lab), rtol=1e-12)
    np.testing.assert_allclose(en.center_of_mass(e, el, idx[:4]),
                               nd.center_of_mass(img, lab, idx[:4]))
    np.testing.assert_allclose(en.center_of_mass(e, el, 2),
                               nd.center_of_mass(img, lab, 2))
    np.testing.assert_allclose(en.center_of_mass(e), nd.center_of_mass(img))


def test_indices(device):
    for dims in [(2, 3), (4,), (), (2, 0, 3)]:
        a = ember.indices(dims, device=device)
        np.testing.assert_array_equal(ember.asnumpy(a), np.indices(dims))
        assert a.dtype == np.indices(dims).dtype
        for x, y in zip(ember.indices(dims, sparse=True, device=device),
                        np.indices(dims, sparse=True)):
            assert x.shape == y.shape
            np.testing.assert_array_equal(ember.asnumpy(x), y)
    assert ember.indices((2, 2), dtype=ember.float32).dtype == ember.float32
