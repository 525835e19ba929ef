"""ember.scipy.ndimage's functions that SciPy's ndimage tutorial uses and
ember lacked until it was tried (docs/scipy.md): the generic and Gaussian
derivative filters, min/max filters with a footprint, grey morphology,
iterate_structure and binary_propagation, the Fourier filters, and the
measurements minimum_position, maximum_position, median,
labeled_comprehension and value_indices, each against scipy.ndimage on
the same data, bad inputs included."""
import numpy as np
import pytest
import scipy.ndimage as nd

import ember
import ember.scipy.ndimage as en

rng = np.random.default_rng(31)
CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])


def host(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else a


def check(got, want, rtol=1e-12, atol=1e-12):
    got = host(got)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def test_generic_laplace_and_gradient_magnitude(device):
    a = np.zeros((5, 5))
    a[2, 2] = 1
    x = ember.asarray(a, device=device)

    def d2(s):
        return lambda inp, axis, out, mode, cval, w=(1, -2, 1): \
            s.correlate1d(inp, list(w), axis, out, mode, cval, 0)
    check(en.generic_laplace(x, d2(en)), nd.generic_laplace(a, d2(nd)))
    check(en.generic_laplace(x, d2(en), extra_keywords={"w": [1, -3, 1]}),
          nd.generic_laplace(a, d2(nd), extra_keywords={"w": [1, -3, 1]}))
    check(en.generic_gradient_magnitude(x, en.sobel),
          nd.generic_gradient_magnitude(a, nd.sobel))
    img = rng.integers(0, 50, (12, 14)).astype(np.int32)
    xi = ember.asarray(img, device=device)
    # an integer output: squares and the root cast as SciPy's
    check(en.generic_gradient_magnitude(xi, en.prewitt),
          nd.generic_gradient_magnitude(img, nd.prewitt))
    out = ember.zeros(img.shape, dtype=ember.float64, device=device)
    r = en.generic_laplace(xi, d2(en), output=out, mode="wrap")
    assert r is out
    check(out, nd.generic_laplace(img, d2(nd), output=np.float64,
                                  mode="wrap"))
    with pytest.raises(RuntimeError):
        en.generic_laplace(xi, d2(en), mode=["wrap"] * 3)


@pytest.mark.parametrize("dtype", ["float64", "float32", "uint8"])
def test_gaussian_laplace_and_gradient(device, dtype):
    img = (rng.random((17, 19)) * 200).astype(dtype)
    x = ember.asarray(img, device=device)
    tol = 1e-5 if dtype == "float32" else 1e-12
    for sigma in (1.0, [1.5, 0.7]):
        check(en.gaussian_laplace(x, sigma), nd.gaussian_laplace(img, sigma),
              tol, tol * 100)
        want = nd.gaussian_gradient_magnitude(img, sigma, mode="nearest")
        got = en.gaussian_gradient_magnitude(x, sigma, mode="nearest")
        if dtype == "uint8":
            # sums that land within rounding of an integer truncate apart
            assert host(got).dtype == want.dtype
            assert np.abs(host(got).astype(int) - want).max() <= 1
        else:
            check(got, want, tol, tol * 100)
    check(en.gaussian_laplace(x, 2.0, axes=(1,), truncate=3.0),
          nd.gaussian_laplace(img, 2.0, axes=(1,), truncate=3.0), tol,
          tol * 100)


@pytest.mark.parametrize("shape", [(40,), (15, 18), (6, 7, 8)])
def test_min_max_filter_footprint(device, shape):
    clean = rng.standard_normal(shape)
    img = clean.copy()
    # a NaN counts where SciPy's point loop meets it first (not so the box
    # filters' 1-D passes, docs/scipy.md)
    img.flat[3] = np.nan
    x = ember.asarray(img, device=device)
    fp = rng.random((3,) * len(shape)) < 0.6
    fp.flat[0] = True
    fp.flat[-1] = False
    for f in ("minimum_filter", "maximum_filter"):
        for mode in ("reflect", "constant", "wrap", "nearest", "mirror"):
            check(getattr(en, f)(x, footprint=fp, mode=mode, cval=0.5),
                  getattr(nd, f)(img, footprint=fp, mode=mode, cval=0.5))
        # all ones: the separable box
        check(getattr(en, f)(ember.asarray(clean, device=device),
                             footprint=np.ones((2,) * len(shape))),
              getattr(nd, f)(clean, footprint=np.ones((2,) * len(shape))))
        check(getattr(en, f)(x, footprint=fp, origin=-1),
              getattr(nd, f)(img, footprint=fp, origin=-1))
        with pytest.raises(ValueError, match="All-zero"):
            getattr(en, f)(x, footprint=np.zeros(fp.shape))
        with pytest.raises(RuntimeError):
            getattr(en, f)(x, footprint=np.ones((3,) * (len(shape) + 1)))
    xi = ember.asarray((clean * 10).astype(np.int16), device=device)
    check(en.maximum_filter(xi, footprint=fp),
          nd.maximum_filter(host(xi), footprint=fp))


@pytest.mark.parametrize("shape", [(13, 16), (7, 6, 9)])
def test_grey_morphology(device, shape):
    img = rng.integers(0, 100, shape).astype(np.int32)
    x = ember.asarray(img, device=device)
    nd_ = len(shape)
    fp = rng.random((3,) * nd_) < 0.7
    fp.flat[0] = True
    st = rng.integers(0, 4, (3,) * nd_)
    st_even = rng.integers(0, 4, (2,) * nd_)
    cases = [dict(size=3), dict(size=(2,) * nd_), dict(footprint=fp),
             dict(structure=st), dict(structure=st_even),
             dict(footprint=fp, structure=st), dict(size=3, origin=1),
             dict(footprint=fp, mode="constant", cval=7)]
    for f in ("grey_erosion", "grey_dilation", "grey_opening",
              "grey_closing", "morphological_gradient",
              "morphological_laplace", "white_tophat", "black_tophat"):
        for kw in cases:
            check(getattr(en, f)(x, **kw), getattr(nd, f)(img, **kw))
    b = rng.random(shape) < 0.5
    check(en.white_tophat(ember.asarray(b, device=device), size=3),
          nd.white_tophat(b, size=3))
    out = ember.zeros(shape, dtype=ember.float64, device=device)
    assert en.grey_dilation(x, size=3, output=out) is out
    check(out, nd.grey_dilation(img, size=3, output=np.float64))
    with pytest.raises(ValueError, match="size, footprint, or structure"):
        en.grey_erosion(x)
    with pytest.raises(RuntimeError):
        en.grey_dilation(x, structure=np.ones((3,) * (nd_ + 1)))


def test_iterate_structure_and_propagation(device):
    s = nd.generate_binary_structure(2, 1)
    for it in (1, 2, 3):
        np.testing.assert_array_equal(en.iterate_structure(s, it),
                                      nd.iterate_structure(s, it))
    got, org = en.iterate_structure(s, 2, -1)
    want, worg = nd.iterate_structure(s, 2, -1)
    np.testing.assert_array_equal(got, want)
    assert list(org) == list(worg)
    s3 = nd.generate_binary_structure(3, 2)
    got = en.iterate_structure(ember.asarray(s3, device=device), 3)
    assert isinstance(got, ember.ndarray)
    np.testing.assert_array_equal(host(got), nd.iterate_structure(s3, 3))
    m = rng.random((20, 20)) < 0.6
    seed = np.zeros_like(m)
    seed[0] = True
    check(en.binary_propagation(ember.asarray(seed, device=device),
                                mask=ember.asarray(m, device=device)),
          nd.binary_propagation(seed, mask=m))


@pytest.mark.parametrize("dtype", ["complex128", "complex64", "float64",
                                   "float32", "int32"])
def test_fourier_filters(device, dtype):
    for shape in [(16,), (9, 12), (5, 6, 7), (1, 8)]:
        img = rng.standard_normal(shape)
        a = (np.fft.fftn(img) if dtype.startswith("complex")
             else img * 10).astype(dtype)
        x = ember.asarray(a, device=device)
        tol = 1e-5 if dtype in ("complex64", "float32") else 1e-11
        nd_ = len(shape)
        for f, p in (("fourier_gaussian", 1.7), ("fourier_uniform", 3.0),
                     ("fourier_shift", 1.25),
                     ("fourier_gaussian", [0.5 * (i + 1) for i in
                                           range(nd_)]),
                     ("fourier_ellipsoid", 2.5)):
            check(getattr(en, f)(x, p), getattr(nd, f)(a, p), tol, tol)
        if nd_ > 1:
            r = np.fft.rfft(img, axis=0).astype(
                "complex64" if dtype in ("complex64", "float32") else
                "complex128")
            xr = ember.asarray(r, device=device)
            for f in ("fourier_gaussian", "fourier_uniform",
                      "fourier_shift", "fourier_ellipsoid"):
                if f == "fourier_ellipsoid" and nd_ > 3:
                    continue
                check(getattr(en, f)(xr, 2.0, n=shape[0], axis=0),
                      getattr(nd, f)(r, 2.0, n=shape[0], axis=0), tol, tol)
    x = ember.asarray(np.ones((4, 4)), device=device)
    with pytest.raises(RuntimeError):
        en.fourier_gaussian(x, [1.0, 2.0, 3.0])
    with pytest.raises(NotImplementedError):
        en.fourier_ellipsoid(ember.ones((2, 2, 2, 2), device=device), 1.0)


def test_positions_median_comprehension(device):
    img = rng.integers(0, 30, (9, 11))
    lab = rng.integers(0, 4, (9, 11))
    lab[lab == 3] = 0  # label 3 absent
    x = ember.asarray(img.astype(np.float64), device=device)
    xl = ember.asarray(lab, device=device)
    f = img.astype(np.float64)
    # distinct values, so no tie picks an element
    u = rng.permutation(99).reshape(9, 11).astype(np.float64)
    xu = ember.asarray(u, device=device)
    for fn in ("minimum_position", "maximum_position"):
        for idx in (None, 1, [1, 2, 3]):
            assert getattr(en, fn)(xu, xl, idx) == \
                getattr(nd, fn)(u, lab, idx)
        assert getattr(en, fn)(xu) == getattr(nd, fn)(u)
    for idx in ([1, 2, 3], [2]):
        check(en.median(x, xl, idx), nd.median(f, lab, idx))
    assert float(en.median(x, xl, 2)) == nd.median(f, lab, 2)
    assert float(en.median(x, xl)) == nd.median(f, lab)
    assert float(en.median(x)) == nd.median(f)
    f32 = f.astype(np.float32)
    check(en.median(ember.asarray(f32, device=device), xl, [1, 2]),
          nd.median(f32, lab, [1, 2]))
    # the sum of one region keeps the input's type, of several float64
    xi = ember.asarray(img, device=device)
    assert host(en.sum(xi, xl, 2)).dtype == nd.sum(img, lab, 2).dtype
    assert int(en.sum(xi, xl, 2)) == nd.sum(img, lab, 2)
    check(en.sum(xi, xl, [1, 2]), nd.sum(img, lab, [1, 2]))
    got = en.labeled_comprehension(x, xl, [1, 2, 3], ember.mean, float, -1)
    check(got, nd.labeled_comprehension(f, lab, [1, 2, 3], np.mean, float,
                                        -1))
    got = en.labeled_comprehension(x, xl, 2, lambda v, p: ember.max(p),
                                   int, 0, pass_positions=True)
    assert int(got) == nd.labeled_comprehension(
        f, lab, 2, lambda v, p: np.max(p), int, 0, pass_positions=True)
    with pytest.raises(ValueError, match="index without defined labels"):
        en.labeled_comprehension(x, None, [1], ember.mean, float, 0)
    vi, wi = en.value_indices(xl), nd.value_indices(lab)
    assert sorted(vi) == sorted(wi)
    for k in wi:
        for g, w in zip(vi[k], wi[k]):
            np.testing.assert_array_equal(host(g), w)
    assert 0 not in en.value_indices(xl, ignore_value=0)
    with pytest.raises(ValueError, match="integer array"):
        en.value_indices(x)


def test_binary_hit_or_miss(device):
    for shape in [(9, 10), (5, 6, 7)]:
        for t in range(4):
            a = rng.random(shape) < 0.5
            x = ember.asarray(a, device=device)
            s1 = rng.random((3,) * len(shape)) < 0.5
            s1.flat[s1.size // 2] = True
            check(en.binary_hit_or_miss(x, s1), nd.binary_hit_or_miss(a, s1))
            s2 = rng.random((3,) * len(shape)) < 0.3
            s2 &= ~s1
            check(en.binary_hit_or_miss(x, s1, s2, origin1=1, origin2=-1),
                  nd.binary_hit_or_miss(a, s1, s2, origin1=1, origin2=-1))
        check(en.binary_hit_or_miss(x), nd.binary_hit_or_miss(a))
        full = np.ones((3,) * len(shape), bool)
        check(en.binary_hit_or_miss(x, full), nd.binary_hit_or_miss(a, full))
    with pytest.raises(RuntimeError):
        en.binary_hit_or_miss(x, np.ones((3, 3), bool))


@pytest.mark.parametrize("shape", [(40,), (23, 31), (7, 9, 11)])
def test_watershed_ift(device, shape):
    """SciPy's bucket queue in its order: the labels are SciPy's exactly,
    ties and the flat-index neighbours across row ends included."""
    for dtype, top in (("uint8", 255), ("uint16", 3000), ("uint8", 3)):
        img = rng.integers(0, top + 1, shape).astype(dtype)
        for mdtype in ("int8", "int32", "int64"):
            mk = np.zeros(shape, mdtype)
            flat = mk.reshape(-1)
            pos = rng.choice(flat.size, 6, replace=False)
            flat[pos] = [1, 2, 3, -1, 2, -2]
            x = ember.asarray(img, device=device)
            m = ember.asarray(mk, device=device)
            check(en.watershed_ift(x, m), nd.watershed_ift(img, mk))
            full = np.ones((3,) * len(shape), bool)
            check(en.watershed_ift(x, m, structure=full),
                  nd.watershed_ift(img, mk, structure=full))
    out = ember.zeros(shape, dtype=ember.int16, device=device)
    assert en.watershed_ift(x, m, output=out) is out
    check(out, nd.watershed_ift(img, mk, output=np.zeros(shape, np.int16)))
    with pytest.raises(TypeError, match="unsigned"):
        en.watershed_ift(x.astype(ember.int32), m)
    with pytest.raises(RuntimeError, match="marker"):
        en.watershed_ift(x, m.astype(ember.uint8))
    with pytest.raises(RuntimeError, match="equal shape"):
        en.watershed_ift(x, m.reshape(-1)[:-1] if len(shape) == 1 else
                         m[:-1])
    with pytest.raises(RuntimeError, match="equal to 3"):
        en.watershed_ift(x, m, structure=np.ones((5,) * len(shape)))
    empty = ember.zeros((0,) * len(shape), dtype=ember.uint8, device=device)
    assert en.watershed_ift(empty, empty.astype(ember.int32)).size == 0


@pytest.mark.parametrize("shape", [(50,), (21, 26), (6, 7, 9)])
def test_distance_transform_cdt(device, shape):
    """SciPy's two chamfer passes in its order: distances and the nearest
    zero's coordinates are SciPy's, ties included."""
    for density in (0.9, 0.5):
        a = (rng.random(shape) < density).astype(np.uint8)
        x = ember.asarray(a, device=device)
        # bool metric arrays: SciPy 1.17 reads another dtype's bytes as
        # bools (an int64 1 is a set byte and seven clear ones), ember
        # takes its nonzero elements
        metrics = ["chessboard", "taxicab",
                   nd.generate_binary_structure(len(shape), 1)]
        if len(shape) == 2:
            metrics.append(np.array([[0, 1, 1], [1, 1, 1], [1, 1, 0]],
                                    bool))
        for metric in metrics:
            d, i = en.distance_transform_cdt(x, metric, return_indices=True)
            wd, wi = nd.distance_transform_cdt(a, metric,
                                               return_indices=True)
            check(d, wd)
            check(i, wi)
    check(en.distance_transform_cdt(ember.ones(shape, device=device)),
          nd.distance_transform_cdt(np.ones(shape)))
    dist = ember.zeros(shape, dtype=ember.int32, device=device)
    ind = ember.zeros((len(shape),) + shape, dtype=ember.int32,
                      device=device)
    assert en.distance_transform_cdt(x, return_indices=True, distances=dist,
                                     indices=ind) is None
    check(dist, nd.distance_transform_cdt(a))
    check(ind, nd.distance_transform_cdt(a, return_distances=False,
                                         return_indices=True))
    with pytest.raises(ValueError, match="invalid metric"):
        en.distance_transform_cdt(x, "bogus")
    with pytest.raises(ValueError, match="equal to 3"):
        en.distance_transform_cdt(x, np.ones((5,) * len(shape)))
    with pytest.raises(RuntimeError, match="at least one"):
        en.distance_transform_cdt(x, return_distances=False)
    with pytest.raises(ValueError, match="int32"):
        en.distance_transform_cdt(x, distances=dist.astype(ember.int64))


@pytest.mark.parametrize("shape", [(40,), (17, 21), (6, 7, 8)])
def test_distance_transform_bf(device, shape):
    """Brute force over the border elements in SciPy's order: distances
    and the nearest border element's coordinates (ties included) are
    SciPy's, for every metric and a sampling."""
    for density in (0.8, 0.4):
        a = (rng.random(shape) < density).astype(np.int16)
        x = ember.asarray(a, device=device)
        for metric in ("euclidean", "taxicab", "chessboard"):
            d, i = en.distance_transform_bf(x, metric, return_indices=True)
            wd, wi = nd.distance_transform_bf(a, metric,
                                              return_indices=True)
            check(d, wd)
            check(i, wi)
        samp = [1.5, 0.5, 2.0][:len(shape)]
        check(en.distance_transform_bf(x, sampling=samp),
              nd.distance_transform_bf(a, sampling=samp))
    dist = ember.zeros(shape, dtype=ember.uint32, device=device)
    assert en.distance_transform_bf(x, "taxicab", distances=dist) is None
    check(dist, nd.distance_transform_bf(a, "taxicab"))
    with pytest.raises(RuntimeError, match="metric"):
        en.distance_transform_bf(x, "bogus")
    with pytest.raises(RuntimeError, match="float64"):
        en.distance_transform_bf(x, distances=dist)
    with pytest.raises(RuntimeError, match="at least one"):
        en.distance_transform_bf(x, return_distances=False)


_RMS = r'''extern "C" __global__ void rms(const double *b, int n, double *r)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += b[i] * b[i] * (i + 1);
    r[0] = s / n;
}'''
_LINE = r'''extern "C" __global__ void line3(double *il, ptrdiff_t L,
                                   double *ol, ptrdiff_t n)
{
    for (ptrdiff_t i = 0; i < n; i++)
        ol[i] = il[i] + 2 * il[i + 1] + 3 * il[i + 2] - (double)L;
}'''


def _rms(b):
    return float((b * b * np.arange(1, b.size + 1)).sum() / b.size)


def _line3(il, ol):
    ol[...] = il[:-2] + 2 * il[1:-1] + 3 * il[2:] - il.size


@pytest.mark.parametrize("shape", [(30,), (9, 12), (5, 6, 7)])
def test_generic_filters_with_raw_kernels(device, shape):
    """The tutorial's generic_filter/generic_filter1d examples as cupyx
    users write them: the function an ember.RawKernel, against SciPy
    calling the same function in Python."""
    img = rng.standard_normal(shape)
    x = ember.asarray(img, device=device)
    k = ember.RawKernel(_RMS, "rms")
    fp = rng.random((3,) * len(shape)) < 0.6
    fp.flat[0] = True
    for kw in [dict(size=3), dict(footprint=fp),
               dict(footprint=fp, mode="constant", cval=1.5),
               dict(size=2, mode="wrap", origin=-1),
               dict(size=3, mode="mirror", output=np.float32)]:
        check(en.generic_filter(x, k, **kw), nd.generic_filter(img, _rms,
                                                               **kw),
              1e-6 if kw.get("output") is np.float32 else 1e-12, 1e-6)
    k1 = ember.RawKernel(_LINE, "line3")
    ints = (img * 10).astype(np.int32)
    xi = ember.asarray(ints, device=device)
    for axis in range(len(shape)):
        for kw in [{}, dict(mode="nearest", origin=1),
                   dict(mode="constant", cval=-2.0)]:
            check(en.generic_filter1d(xi, k1, 3, axis=axis, **kw),
                  nd.generic_filter1d(ints, _line3, 3, axis=axis, **kw))
    with pytest.raises(TypeError, match="RawKernel"):
        en.generic_filter(x, _rms, size=3)
    with pytest.raises(TypeError, match="RawKernel"):
        en.generic_filter1d(x, _line3, 3)
    with pytest.raises(RuntimeError):
        en.generic_filter1d(x, k1, 0)
    with pytest.raises(RuntimeError):
        en.generic_filter(x, k)


def test_generic_filter_sources_compile_for_the_gpu(need_nvrtc):
    """The generated kernels (on cpu they run compiled by the host C
    compiler) through NVRTC."""
    from ember.scipy import ndimage_generic as g
    from ember.scipy import _kernels
    for code, name, body, n in ((_RMS, "rms", g._BODY_ND, 9),
                                (_LINE, "line3", g._BODY_1D, 0)):
        src = _kernels.source("ndindex.cuh") + "\n" + \
            g._GLOBAL.sub("__device__", code) + "\n" + \
            body.replace("USER", name).replace("EM_GF_N", str(max(n, 1)))
        ptx = ember.cuda.Program(src).compile("ptx").code
        assert ptx.count(b".entry") == 1


def test_geometric_transform(device):
    """The tutorial's three geometric_transform calls (a shift as a Python
    mapping, with extra_arguments and with extra_keywords), the docstring's
    output_shape, every order and a few modes, and a mapping that needs
    numbers (math.floor on a coordinate): TypeError saying why."""
    import math
    a = np.arange(12.).reshape((4, 3))
    x = ember.asarray(a, device=device)

    def shift_func(output_coords):
        return (output_coords[0] - 0.5, output_coords[1] - 0.5)

    def shift_func2(output_coords, s0, s1):
        return (output_coords[0] - s0, output_coords[1] - s1)
    check(en.geometric_transform(x, shift_func),
          nd.geometric_transform(a, shift_func))
    check(en.geometric_transform(x, shift_func2, extra_arguments=(0.5, 0.5)),
          nd.geometric_transform(a, shift_func2, extra_arguments=(0.5, 0.5)))
    kw = {"s0": 0.5, "s1": 0.5}
    check(en.geometric_transform(x, shift_func2, extra_keywords=kw),
          nd.geometric_transform(a, shift_func2, extra_keywords=kw))
    img = rng.standard_normal((9, 11))
    y = ember.asarray(img, device=device)

    def zoom_rot(c):   # a scaled, sheared sampling: no affine shortcut used
        return (c[0] * 0.8 + 0.1 * c[1], c[1] * 1.1 - 0.3)
    for order in range(6):
        for mode in ("constant", "nearest", "mirror", "wrap"):
            check(en.geometric_transform(y, zoom_rot, (7, 12), order=order,
                                         mode=mode, cval=1.5),
                  nd.geometric_transform(img, zoom_rot, (7, 12),
                                         order=order, mode=mode, cval=1.5),
                  1e-10, 1e-10)
    check(en.geometric_transform(y, zoom_rot, output=ember.float32),
          nd.geometric_transform(img, zoom_rot, output=np.float32),
          1e-5, 1e-5)
    ints = (img * 10).astype(np.int32)
    check(en.geometric_transform(ember.asarray(ints, device=device),
                                 zoom_rot, order=1),
          nd.geometric_transform(ints, zoom_rot, order=1))
    # a constant coordinate broadcasts, as a number from SciPy's mapping
    check(en.geometric_transform(y, lambda c: (c[0], 2.0), order=1),
          nd.geometric_transform(img, lambda c: (c[0], 2.0), order=1))
    with pytest.raises(TypeError, match="coordinate arrays"):
        en.geometric_transform(y, lambda c: (math.floor(c[0]), c[1]))
    with pytest.raises(TypeError):
        en.geometric_transform(y, "shift")
    with pytest.raises(RuntimeError):
        en.geometric_transform(y, lambda c: (c[0],))
    with pytest.raises(RuntimeError):
        en.geometric_transform(y, shift_func, order=6)


def test_spline_filter_orders(device):
    """spline_filter's orders are SciPy's: 2 to 5 (0 and 1 a RuntimeError,
    as SciPy's, where spline_filter1d gives the input back)."""
    img = rng.standard_normal((5, 6)).astype(np.float32)
    y = ember.asarray(img, device=device)
    for order in (2, 3, 4, 5):
        check(en.spline_filter(y, order), nd.spline_filter(img, order),
              1e-6, 1e-6)
        check(en.spline_filter(y, order, output=np.float32),
              nd.spline_filter(img, order, output=np.float32), 1e-6, 1e-6)
    for order in (0, 1):
        check(en.spline_filter1d(y, order), nd.spline_filter1d(img, order))
    for order in (-1, 0, 1, 6):
        with pytest.raises(RuntimeError):
            en.spline_filter(y, order)
