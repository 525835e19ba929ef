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


def test_label_structures_without_the_left_neighbour(device):
    """A row's runs are linked at init only where the structure joins a
    pixel to its left neighbour; columns-only and diagonals-only
    structures, and a large image near the percolation threshold (long
    chains of concurrent unions on the GPU)."""
    a = rng.random((60, 70)) < 0.6
    for st in (np.array([[0, 1, 0], [0, 1, 0], [0, 1, 0]], bool),
               np.array([[1, 0, 1], [0, 1, 0], [1, 0, 1]], bool)):
        want, n = nd.label(a, st)
        got, m = en.label(ember.asarray(a, device=device), st)
        assert m == n
        np.testing.assert_array_equal(ember.asnumpy(got), want)
    big = rng.random((700, 900)) < 0.59
    want, n = nd.label(big)
    got, m = en.label(ember.asarray(big, device=device))
    assert m == n
    np.testing.assert_array_equal(ember.asnumpy(got), want)


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


# ---- filters ------------------------------------------------------------------

MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]


def close(got, want, tol=1e-10):
    got = ember.asnumpy(got)
    assert got.dtype == want.dtype and got.shape == want.shape, \
        (got.dtype, want.dtype, got.shape, want.shape)
    if want.dtype.kind in "iu":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=tol,
                                   atol=tol * max(1, np.abs(want).max()))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int16"])
@pytest.mark.parametrize("mode", MODES)
def test_filters_match_scipy(device, dtype, mode):
    x = (rng.standard_normal((17, 23)) * 50).astype(dtype)
    e = ember.asarray(x, device=device)
    ftol = 1e-6 if dtype == "float32" else 1e-10
    for w in ([1.0, 2.0, 4.0], [1.0, 10.0], [0.5]):
        for o in (0, -(len(w) // 2)):
            close(en.correlate1d(e, w, axis=0, mode=mode, cval=1.5, origin=o),
                  nd.correlate1d(x, w, axis=0, mode=mode, cval=1.5, origin=o))
        close(en.convolve1d(e, w, mode=mode, cval=1.5),
              nd.convolve1d(x, w, mode=mode, cval=1.5))
    W = rng.standard_normal((3, 4))
    W[1, 1] = 0
    close(en.correlate(e, W, mode=mode, cval=2), nd.correlate(x, W, mode=mode,
                                                               cval=2))
    close(en.convolve(e, W, mode=mode, cval=2), nd.convolve(x, W, mode=mode,
                                                             cval=2))
    close(en.gaussian_filter(e, 1.7, mode=mode),
          nd.gaussian_filter(x, 1.7, mode=mode), ftol)
    close(en.gaussian_filter(e, (1.2, 2.0), order=(1, 2), mode=mode),
          nd.gaussian_filter(x, (1.2, 2.0), order=(1, 2), mode=mode), ftol)
    close(en.uniform_filter(e, (3, 4), mode=mode),
          nd.uniform_filter(x, (3, 4), mode=mode), ftol)
    close(en.minimum_filter(e, (3, 4), mode=mode),
          nd.minimum_filter(x, (3, 4), mode=mode))
    close(en.maximum_filter(e, 5, mode=mode), nd.maximum_filter(x, 5,
                                                                  mode=mode))
    close(en.sobel(e, 0, mode=mode), nd.sobel(x, 0, mode=mode))
    close(en.prewitt(e, mode=mode), nd.prewitt(x, mode=mode))
    close(en.laplace(e, mode=mode), nd.laplace(x, mode=mode))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_filter1d_tiles(device, dtype):
    """The 1-D passes across their tiles (2048 elements of a last axis,
    64 lines by up to 32 of the others): lengths no multiple of a tile, 1-D
    to 3-D, each axis and mode, a window longer than a tile's halo chunk
    (float64: 125 taps at 32 columns), cval that float32 holds and one it
    does not, and minimum/maximum."""
    ftol = 1e-6 if dtype == "float32" else 1e-10
    x1 = rng.standard_normal(4500).astype(dtype)
    x3 = rng.standard_normal((3, 70, 37)).astype(dtype)
    w = rng.standard_normal(9)
    for x in (x1, x3):
        e = ember.asarray(x, device=device)
        for axis in range(x.ndim):
            for mode in MODES:
                for cval in (-2.5, 0.1):
                    close(en.correlate1d(e, w, axis, mode=mode, cval=cval,
                                         origin=1),
                          nd.correlate1d(x, w, axis, mode=mode, cval=cval,
                                         origin=1), ftol)
            close(en.maximum_filter1d(e, 6, axis, mode="constant",
                                      cval=0.25),
                  nd.maximum_filter1d(x, 6, axis, mode="constant",
                                      cval=0.25))
            close(en.minimum_filter1d(e, 5, axis, mode="wrap"),
                  nd.minimum_filter1d(x, 5, axis, mode="wrap"))
    x2 = rng.standard_normal((150, 40)).astype(dtype)
    e2 = ember.asarray(x2, device=device)
    long = rng.standard_normal(201)
    for axis in (0, 1):
        close(en.correlate1d(e2, long, axis, mode="mirror"),
              nd.correlate1d(x2, long, axis, mode="mirror"), ftol)
    close(en.gaussian_filter(e2, 4.0, mode="nearest"),
          nd.gaussian_filter(x2, 4.0, mode="nearest"), ftol)
    close(en.gaussian_filter1d(e2, 3.0, 0, output=np.float64),
          nd.gaussian_filter1d(x2, 3.0, 0, output=np.float64), ftol)


def test_filter1d_sums_in_scipys_order():
    """The 1-D passes add their terms in SciPy's order (a symmetric
    window's centre, then its pairs from the outside in; an antisymmetric
    one's differences; else the last tap first), so on cpu (no FMA) the
    float64 results are SciPy's bit for bit (not uniform_filter's: SciPy
    keeps a running sum) and integer outputs truncate
    the same way: SciPy's tutorial's uint8 volume through
    gaussian_filter(sigma=1) once came out 1 or 2 apart where a sum landed
    on an integer."""
    v = np.zeros((10, 10, 10))
    i = 1
    for a in range(2):
        for b in range(2):
            for c in range(2):
                v[a * 5:a * 5 + 5, b * 5:b * 5 + 5, c * 5:c * 5 + 5] = i
                i += 1
    v = np.uint8(v * 255 / 8)
    e = ember.asarray(v, device="cpu")
    for sigma in (1, 2, 3):
        np.testing.assert_array_equal(ember.asnumpy(en.gaussian_filter(
            e, sigma)), nd.gaussian_filter(v, sigma))
    x = rng.standard_normal((30, 41))
    ex = ember.asarray(x, device="cpu")
    for w in ([1, 2, 3, 2, 1], [-1, 0, 1], [0.2, -0.7, 0.1, 1.5],
              [3.0], [1, -2, 1]):
        for axis in (0, 1):
            for origin in {0, -(len(w) // 2)}:
                got = ember.asnumpy(en.correlate1d(ex, w, axis,
                                                   origin=origin))
                assert np.array_equal(got, nd.correlate1d(
                    x, w, axis, origin=origin))
    for f in (lambda m: m.gaussian_filter(x if m is nd else ex, 1.5,
                                          order=1),
              lambda m: m.sobel(x if m is nd else ex)):
        assert np.array_equal(ember.asnumpy(f(en)), f(nd))


def test_filter1d_compiles_for_the_gpu(need_nvrtc):
    """Every instance of kernels/ndfilter1d.cuh (on cpu it runs only in
    the block simulator), through NVRTC here."""
    from ember.scipy import _kernels, ndimage_filters as mod
    names = list(mod._F1_NAMES.values())
    ptx = ember.cuda.Program(_kernels.source("ndfilter1d.cuh"), options=tuple(
        "--name-expression=" + e for e in names)).compile("ptx").code
    assert ptx.count(b".entry") == len(names) == 4


def test_filter_outputs_and_3d(device):
    x3 = rng.standard_normal((5, 6, 7))
    e3 = ember.asarray(x3, device=device)
    W3 = rng.standard_normal((3, 2, 3))
    close(en.correlate(e3, W3), nd.correlate(x3, W3))
    close(en.gaussian_filter(e3, 1.0, output=np.float32),
          nd.gaussian_filter(x3, 1.0, output=np.float32), 1e-6)
    out = ember.empty((5, 6, 7), device=device)
    assert en.uniform_filter(e3, 3, output=out) is out
    close(out, nd.uniform_filter(x3, 3))
    with pytest.raises(RuntimeError, match="boundary mode"):
        en.gaussian_filter(e3, 1.0, mode="bogus")
    with pytest.raises(ValueError, match="origin"):
        en.correlate1d(e3, [1, 2, 3], origin=2)
    # a footprint: the box as 1-D passes, any other shape point by point
    close(en.minimum_filter(e3, footprint=np.ones((3, 3, 3))),
          nd.minimum_filter(x3, footprint=np.ones((3, 3, 3))))
    ball = nd.generate_binary_structure(3, 1)
    close(en.maximum_filter(e3, footprint=ball),
          nd.maximum_filter(x3, footprint=ball))


# ---- morphology and object boxes -------------------------------------------

@pytest.mark.parametrize("shape", [(20, 25), (8, 9, 10)])
def test_binary_morphology(device, shape):
    a = rng.random(shape) > 0.55
    e = ember.asarray(a, device=device)
    structures = [None, nd.generate_binary_structure(len(shape), len(shape))]
    if len(shape) == 2:
        structures.append(np.array([[0, 1, 1], [0, 1, 0], [0, 0, 0]], bool))
    for st in structures:
        for it in (1, 2):
            for bv in (0, 1):
                np.testing.assert_array_equal(
                    ember.asnumpy(en.binary_dilation(e, st, it,
                                                     border_value=bv)),
                    nd.binary_dilation(a, st, it, border_value=bv))
                np.testing.assert_array_equal(
                    ember.asnumpy(en.binary_erosion(e, st, it,
                                                    border_value=bv)),
                    nd.binary_erosion(a, st, it, border_value=bv))
            np.testing.assert_array_equal(
                ember.asnumpy(en.binary_opening(e, st, it)),
                nd.binary_opening(a, st, it))
            np.testing.assert_array_equal(
                ember.asnumpy(en.binary_closing(e, st, it)),
                nd.binary_closing(a, st, it))
        np.testing.assert_array_equal(
            ember.asnumpy(en.binary_fill_holes(e, st)),
            nd.binary_fill_holes(a, st))
    m = rng.random(shape) > 0.3
    em = ember.asarray(m, device=device)
    for it in (2, -1):
        np.testing.assert_array_equal(
            ember.asnumpy(en.binary_dilation(e, None, it, mask=em)),
            nd.binary_dilation(a, None, it, mask=m))
    lab, n = nd.label(a)
    el = ember.asarray(lab, device=device)
    assert en.find_objects(el) == nd.find_objects(lab)
    assert en.find_objects(el, max_label=n + 2) == \
        nd.find_objects(lab, max_label=n + 2)
    with pytest.raises(TypeError):
        en.find_objects(ember.asarray(a * 1.5, device=device))


@pytest.mark.parametrize("shape", [(30,), (17, 19), (6, 7, 8)])
def test_rank_filters(device, shape):
    x = rng.standard_normal(shape)
    e = ember.asarray(x, device=device)
    for mode in MODES:
        for size in (2, 3, 4):
            close(en.median_filter(e, size=size, mode=mode, cval=0.5),
                  nd.median_filter(x, size=size, mode=mode, cval=0.5))
            close(en.rank_filter(e, 1, size=size, mode=mode),
                  nd.rank_filter(x, 1, size=size, mode=mode))
            close(en.percentile_filter(e, 30, size=size, mode=mode),
                  nd.percentile_filter(x, 30, size=size, mode=mode))
    fp = rng.random((3,) * len(shape)) > 0.4
    fp.flat[0] = True
    close(en.median_filter(e, footprint=fp), nd.median_filter(x, footprint=fp))
    close(en.rank_filter(e, -1, footprint=fp), nd.rank_filter(x, -1,
                                                              footprint=fp))
    xi = rng.integers(0, 100, shape).astype(np.int32)
    close(en.median_filter(ember.asarray(xi, device=device), 3),
          nd.median_filter(xi, 3))
    with pytest.raises(RuntimeError, match="rank"):
        en.rank_filter(e, 99, size=3)


def test_extrema_histogram_ndtri(device):
    img = rng.random((30, 40))            # no ties: positions are unique
    lab, n = nd.label(img > 0.6)
    e, el = ember.asarray(img, device=device), ember.asarray(lab, device=device)
    idx = [1, 2, n]
    g, w = en.extrema(e, el, idx), nd.extrema(img, lab, idx)
    np.testing.assert_array_equal(ember.asnumpy(g[0]), w[0])
    np.testing.assert_array_equal(ember.asnumpy(g[1]), w[1])
    assert g[2] == [tuple(map(int, t)) for t in w[2]]
    assert g[3] == [tuple(map(int, t)) for t in w[3]]
    for args in ((e, el, 2), (e,), (e, el)):
        g = en.extrema(*args)
        w = nd.extrema(*[ember.asnumpy(a) for a in args])
        assert float(g[0]) == w[0] and float(g[1]) == w[1]
        assert g[2] == tuple(map(int, w[2])) and g[3] == tuple(map(int, w[3]))
    for got, want in zip(en.histogram(e, 0, 1, 7, el, idx),
                         nd.histogram(img, 0, 1, 7, lab, idx)):
        np.testing.assert_array_equal(ember.asnumpy(got), want)
    np.testing.assert_array_equal(ember.asnumpy(en.histogram(e, 0, 1, 7)),
                                  nd.histogram(img, 0, 1, 7))
    np.testing.assert_array_equal(
        ember.asnumpy(en.histogram(e, 0.2, 0.9, 4, el, 3)),
        nd.histogram(img, 0.2, 0.9, 4, lab, 3))
    import scipy.special as sp
    import ember.scipy.special as es
    p = np.array([0, 1, 0.5, 1e-300, 0.975, 2, np.nan, 1 - 1e-12, 1e-20])
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(
            ember.asnumpy(es.ndtri(ember.asarray(p, device=device))),
            sp.ndtri(p), rtol=1e-13, equal_nan=True)
    assert es.ndtri(ember.asarray(p.astype(np.float32),
                                  device=device)).dtype == np.float32


@pytest.mark.parametrize("shape", [(50,), (30, 40), (9, 10, 11)])
def test_distance_transform_edt(device, shape):
    a = rng.random(shape) > 0.2
    e = ember.asarray(a, device=device)
    for sampling in (None, [0.5, 2.0, 1.5][:len(shape)]):
        close(en.distance_transform_edt(e, sampling),
              nd.distance_transform_edt(a, sampling))
    out = ember.empty(shape, device=device)
    assert en.distance_transform_edt(e, distances=out) is None
    close(out, nd.distance_transform_edt(a))
    # indices: each names a zero of a at the distance SciPy gives (where
    # two zeros are equally near, SciPy's choice may be the other one)
    for sampling in (None, [0.5, 2.0, 1.5][:len(shape)]):
        want_d, want_i = nd.distance_transform_edt(a, sampling,
                                                   return_indices=True)
        d, ix = en.distance_transform_edt(e, sampling, return_indices=True)
        close(d, want_d)
        ix = ember.asnumpy(ix)
        assert ix.dtype == want_i.dtype == np.int32
        assert ix.shape == want_i.shape == (len(shape),) + shape
        assert not a[tuple(ix)].any()
        w = np.ones(len(shape)) if sampling is None else np.array(sampling)
        grid = np.indices(shape)
        span = (ix - grid) * w.reshape((-1,) + (1,) * len(shape))
        np.testing.assert_allclose(np.sqrt((span ** 2).sum(axis=0)), want_d,
                                   rtol=1e-12)
        assert (ix == want_i).mean() > 0.9
        if sampling is None:
            ix0 = ix
    ix = ix0
    # indices alone, and into a given int32 array
    np.testing.assert_array_equal(
        ember.asnumpy(en.distance_transform_edt(e, return_distances=False,
                                                return_indices=True)), ix)
    given = ember.empty((len(shape),) + shape, dtype=ember.int32,
                        device=device)
    assert en.distance_transform_edt(e, indices=given) is not None
    np.testing.assert_array_equal(ember.asnumpy(given), ix)
    with pytest.raises(RuntimeError, match="int32"):
        en.distance_transform_edt(e, indices=ember.empty(
            (len(shape),) + shape, device=device))
    with pytest.raises(RuntimeError, match="wrong shape"):
        en.distance_transform_edt(e, indices=ember.empty(
            (len(shape) + 1,) + shape, dtype=ember.int32, device=device))
    with pytest.raises(RuntimeError, match="at least one"):
        en.distance_transform_edt(e, return_distances=False)
