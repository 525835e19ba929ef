"""ember.scipy.ndimage's geometric transforms against scipy.ndimage on the
same data: shift, zoom, rotate, affine_transform (every matrix form) and
map_coordinates for orders 0, 1, 2, 3 and 5 in every mode, 1-D to 3-D,
float, integer, bool and complex input, output= as a dtype and as an
array, prefilter=False, spline_filter and spline_filter1d, and the errors
SciPy raises.

Tolerances: float64 results within 1e-10 of the data's scale (ember and
SciPy add the same terms in the same order; the spline weights' formulas
differ by rounding); float32 within 1e-6 of it (a float64 value a
rounding apart can round to neighbouring float32s); integer outputs
exactly for orders 0 and 1, within 1 above (a value within rounding of
.5 may round either way).

SciPy before 1.18 initialises the 'reflect' prefilter with c[0] aliased
(scipy/scipy#24615); ember follows the fixed code, so the reflect modes
are compared on axes long enough (>= 20 samples) for the aliased term
(the pole to the power 2n) to vanish, and short axes are checked against
the spline's defining property instead."""
import warnings

import numpy as np
import pytest
import scipy
import scipy.ndimage as nd

import ember
import ember.scipy.ndimage as en
from conftest import HAVE_NVRTC

MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror",
         "mirror", "grid-wrap", "wrap"]
ORDERS = [0, 1, 2, 3, 5]
REFLECT_FIXED = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= \
    (1, 18)

rng = np.random.default_rng(21)


def close(got, want, order=3, scale=None):
    """got (ember or NumPy) equals SciPy's want: dtype, shape and values
    within the module's tolerances."""
    g = ember.asnumpy(got) if isinstance(got, ember.ndarray) else got
    assert g.dtype == want.dtype and g.shape == want.shape
    if want.dtype.kind in "iub":
        # bool: see test_dtypes
        atol = 0 if order == 0 or order == 1 and want.dtype != bool else 1
        np.testing.assert_allclose(g.astype(float), want.astype(float),
                                   rtol=0, atol=atol)
        return
    scale = scale or max(float(np.max(np.abs(want))) if want.size else 1, 1)
    atol = (1e-6 if want.dtype in (np.float32, np.complex64) else 1e-10) * \
        scale
    np.testing.assert_allclose(g, want, rtol=0, atol=atol)


def put(a, device):
    return ember.asarray(a, device=device)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", ORDERS)
def test_shift_and_zoom_2d(device, order, mode):
    x = rng.random((22, 25)) * 10 - 3
    e = put(x, device)
    kw = dict(order=order, mode=mode, cval=1.25)
    close(en.shift(e, (2.3, -4.6), **kw), nd.shift(x, (2.3, -4.6), **kw),
          order)
    close(en.shift(e, 7, **kw), nd.shift(x, 7, **kw), order)
    for z in [(1.6, 0.55), 2.0, (0.3, 1)]:
        close(en.zoom(e, z, **kw), nd.zoom(x, z, **kw), order)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        want = nd.zoom(x, (1.4, 0.7), grid_mode=True, **kw)
        n_want = len(seen)
        got = en.zoom(e, (1.4, 0.7), grid_mode=True, **kw)
        assert len(seen) == 2 * n_want  # the same advice as SciPy's
    close(got, want, order)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", ORDERS)
def test_rotate_and_affine_2d(device, order, mode):
    x = rng.random((21, 26)) * 4
    e = put(x, device)
    kw = dict(order=order, mode=mode, cval=-0.5)
    for angle, reshape in [(27, True), (-70, False), (90, True),
                           (180, False)]:
        close(en.rotate(e, angle, reshape=reshape, **kw),
              nd.rotate(x, angle, reshape=reshape, **kw), order)
    m = np.array([[0.9, 0.25], [-0.3, 1.1]])
    close(en.affine_transform(e, m, offset=(1.5, -2), **kw),
          nd.affine_transform(x, m, offset=(1.5, -2), **kw), order)
    # a 1-D diagonal: SciPy's separable path, (o + offset / d) * d
    close(en.affine_transform(e, [0.8, 1.3], offset=(1, -2.5),
                              output_shape=(25, 19), **kw),
          nd.affine_transform(x, [0.8, 1.3], offset=(1, -2.5),
                              output_shape=(25, 19), **kw), order)
    # ndim x (ndim + 1) and homogeneous: the last column is the offset
    h = np.hstack([m, [[0.5], [3.0]]])
    close(en.affine_transform(e, h, offset=99, **kw),
          nd.affine_transform(x, h, offset=99, **kw), order)
    h = np.vstack([h, [0, 0, 1]])
    close(en.affine_transform(e, h, output_shape=(30, 12), **kw),
          nd.affine_transform(x, h, output_shape=(30, 12), **kw), order)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", ORDERS)
def test_map_coordinates_2d(device, order, mode):
    x = rng.random((20, 23)) * 50
    # points well inside, near the edges and beyond them on both sides
    c = rng.random((2, 9, 7)) * np.array([40, 46])[:, None, None] - 10
    c[:, 0, :3] = [[0, 19, -0.5], [0, 22, 22.5]]
    kw = dict(order=order, mode=mode, cval=3.0)
    close(en.map_coordinates(put(x, device), put(c, device), **kw),
          nd.map_coordinates(x, c, **kw), order)
    ci = rng.integers(-4, 26, (2, 30)).astype(np.int32)
    close(en.map_coordinates(put(x, device), ci, **kw),
          nd.map_coordinates(x, ci, **kw), order)


@pytest.mark.parametrize("order", ORDERS)
def test_one_and_three_dimensions(device, order):
    x1 = rng.random(31) * 8
    e1 = put(x1, device)
    for mode in MODES:
        kw = dict(order=order, mode=mode, cval=0.75)
        close(en.shift(e1, -3.4, **kw), nd.shift(x1, -3.4, **kw), order)
        close(en.zoom(e1, 1.37, **kw), nd.zoom(x1, 1.37, **kw), order)
        c = np.linspace(-12, 44, 57)[None]
        close(en.map_coordinates(e1, c, **kw),
              nd.map_coordinates(x1, c, **kw), order)
        close(en.affine_transform(e1, [[0.7]], 2.0, (40,), **kw),
              nd.affine_transform(x1, [[0.7]], 2.0, (40,), **kw), order)
    x3 = rng.random((20, 21, 22)) * 2
    e3 = put(x3, device)
    for mode in ("constant", "nearest", "reflect", "grid-wrap",
                 "grid-constant"):
        kw = dict(order=order, mode=mode, cval=0.5)
        # every plane turns alike, prefiltered within the plane as SciPy's
        for axes, reshape in [((1, 0), True), ((0, 2), False),
                              ((2, 1), True)]:
            close(en.rotate(e3, 33, axes=axes, reshape=reshape, **kw),
                  nd.rotate(x3, 33, axes=axes, reshape=reshape, **kw), order)
        m = np.array([[1.1, 0.1, 0], [0, 0.9, 0.2], [0.1, 0, 1]])
        close(en.affine_transform(e3, m, (1, -1, 0.5), (18, 23, 20), **kw),
              nd.affine_transform(x3, m, (1, -1, 0.5), (18, 23, 20), **kw),
              order)
        close(en.zoom(e3, (0.6, 1.3, 0.9), **kw),
              nd.zoom(x3, (0.6, 1.3, 0.9), **kw), order)
    # a 3 x 2 matrix: a 2-D output sampling a 3-D input
    m = np.array([[0.5, 0.2], [1, 0], [0.3, 0.7]])
    kw = dict(order=order, mode="mirror")
    close(en.affine_transform(e3, m, 1.5, (17, 15), **kw),
          nd.affine_transform(x3, m, 1.5, (17, 15), **kw), order)


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.int8, np.int16,
                                   np.uint16, np.int32, np.int64, np.uint64,
                                   bool])
@pytest.mark.parametrize("order", [0, 1, 3])
def test_dtypes(device, dtype, order):
    x = rng.random((24, 21)) * 200 - (0 if np.dtype(dtype).kind in "ub"
                                      else 100)
    x = (x > 0) if dtype is bool else x.astype(dtype)
    e = put(x, device)
    kw = dict(order=order, mode="reflect")
    close(en.shift(e, (0.5, -1.5), **kw), nd.shift(x, (0.5, -1.5), **kw),
          order)
    close(en.zoom(e, 0.8, **kw), nd.zoom(x, 0.8, **kw), order)
    close(en.rotate(e, 15, **kw), nd.rotate(x, 15, **kw), order)
    # output as a dtype: integers rounded half away from zero and clipped
    for out in (np.float64, np.float32, np.int8, np.uint8, np.int32):
        close(en.shift(e, 0.5, output=out, **kw),
              nd.shift(x, 0.5, output=out, **kw), order)
    # a bool output is SciPy's byte cast of the value: true from |t| >= 1
    # (compared with ember's own float64 value, since one rounding of a
    # sum of weights near 1 decides it)
    t = ember.asnumpy(en.rotate(e, 15, output=np.float64, **kw))
    b = ember.asnumpy(en.rotate(e, 15, output=bool, **kw))
    np.testing.assert_array_equal(b, np.abs(t) >= 1)
    if order == 0:
        close(en.rotate(e, 15, output=bool, **kw),
              nd.rotate(x, 15, output=bool, **kw), order)


def test_output_arrays_and_prefilter(device):
    x = rng.random((25, 22)) * 9
    e = put(x, device)
    out = ember.zeros((25, 22), dtype=ember.int16, device=device)
    got = en.shift(e, 1.5, output=out)
    assert got is out
    close(out, nd.shift(x, 1.5, output=np.int16))
    out = ember.zeros((12, 10), dtype=ember.float32, device=device)
    c = rng.random((2, 12, 10)) * 20
    assert en.map_coordinates(e, c, output=out, order=5) is out
    close(out, nd.map_coordinates(x, c, output=np.float32, order=5))
    host = np.zeros((30, 40))
    assert en.zoom(e, (1.2, 1.8), output=host) is host
    close(host, nd.zoom(x, (1.2, 1.8)))
    for order in (2, 3, 5):
        for mode in MODES:
            # prefilter=False interpolates the given values as coefficients
            kw = dict(order=order, mode=mode, prefilter=False)
            close(en.rotate(e, 20, **kw), nd.rotate(x, 20, **kw))
            close(en.map_coordinates(e, c, **kw),
                  nd.map_coordinates(x, c, **kw))
        # spline_filter then prefilter=False is the default path
        coef = en.spline_filter(e, order, mode="mirror")
        close(en.shift(coef, 0.3, order=order, mode="mirror",
                       prefilter=False),
              nd.shift(x, 0.3, order=order, mode="mirror"))
    # a zoom of 1 is a copy, as SciPy's early exit (unless prefilter=False)
    close(en.zoom(e, 1), nd.zoom(x, 1))
    close(en.zoom(e, 1, prefilter=False), nd.zoom(x, 1, prefilter=False))
    # SciPy's round() of the output shape: 2.5 samples round to 2
    x5 = rng.random(5)
    close(en.zoom(put(x5, device), 0.5), nd.zoom(x5, 0.5))


@pytest.mark.parametrize("mode", MODES)
def test_spline_filter(device, mode):
    x = rng.random((20, 24, 21)) * 6
    e = put(x, device)
    for order in (2, 3, 4, 5):
        close(en.spline_filter(e, order, mode=mode),
              nd.spline_filter(x, order, mode=mode))
        for axis in (0, 1, -1):
            close(en.spline_filter1d(e, order, axis, mode=mode),
                  nd.spline_filter1d(x, order, axis, mode=mode))
    # an intermediate in the output's dtype after each axis, as SciPy
    close(en.spline_filter(e, 3, np.float32, mode),
          nd.spline_filter(x, 3, np.float32, mode))
    xi = (x * 10).astype(np.int32)
    close(en.spline_filter(put(xi, device), 3, mode=mode),
          nd.spline_filter(xi, 3, mode=mode))
    # orders 0 and 1 need no filter: the samples, in the output's dtype
    close(en.spline_filter1d(put(xi, device), 1),
          nd.spline_filter1d(xi, 1))
    close(en.spline_filter1d(e, 0, output=np.float32),
          nd.spline_filter1d(x, 0, output=np.float32))


@pytest.mark.parametrize("mode", ["reflect", "grid-mirror"])
@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_reflect_prefilter_on_short_axes(device, mode, n):
    # the coefficients' spline passes through the samples (extended as
    # mode says, so also half a sample beyond each end)
    x = rng.random(n) * 5
    pos = np.linspace(-0.5, n - 0.5, 4 * n + 1)
    for order in (2, 3, 4, 5):
        coef = en.spline_filter1d(put(x, device), order, mode=mode)
        at = en.map_coordinates(coef, pos[None], order=order, mode=mode,
                                prefilter=False)
        want = nd.map_coordinates(x, pos[None], order=order, mode=mode) \
            if REFLECT_FIXED else None
        samples = ember.asnumpy(en.map_coordinates(
            coef, np.arange(n, dtype=float)[None], order=order, mode=mode,
            prefilter=False))
        np.testing.assert_allclose(samples, x, rtol=0, atol=1e-12)
        if want is not None:
            close(at, want)


def test_complex(device):
    x = rng.random((20, 22)) + 1j * rng.random((20, 22))
    e = put(x, device)
    kw = dict(order=3, mode="mirror", cval=1 + 2j)
    close(en.shift(e, (0.5, 1.5), **kw), nd.shift(x, (0.5, 1.5), **kw))
    close(en.zoom(e, 1.5, **kw), nd.zoom(x, 1.5, **kw))
    close(en.rotate(e, 40, **kw), nd.rotate(x, 40, **kw))
    c = rng.random((2, 6)) * 19
    close(en.map_coordinates(e, c, **kw), nd.map_coordinates(x, c, **kw))
    x64 = x.astype(np.complex64)
    close(en.affine_transform(put(x64, device), [1.2, 0.8], order=1),
          nd.affine_transform(x64, [1.2, 0.8], order=1))
    close(en.spline_filter(e, 3), nd.spline_filter(x, 3))


def test_errors_as_scipy(device):
    x = rng.random((6, 7))
    e = put(x, device)
    cases = [
        (lambda m: m.shift(X, 1, order=6), RuntimeError, "order"),
        (lambda m: m.zoom(X, 2, order=-1), RuntimeError, "order"),
        (lambda m: m.shift(X, 1, mode="edge"), RuntimeError, "mode"),
        (lambda m: m.map_coordinates(X, np.zeros((3, 2)), order=1,
                                     mode="wrap"),
         RuntimeError, "coordinate"),
        (lambda m: m.map_coordinates(X, np.zeros((2, 2), complex)),
         TypeError, "Complex"),
        (lambda m: m.map_coordinates(X, np.zeros(2)), RuntimeError, "rank"),
        (lambda m: m.affine_transform(X, np.eye(3)[:, :1]), RuntimeError,
         "rows"),
        (lambda m: m.affine_transform(X, np.eye(2), output_shape=(3, 3, 3)),
         RuntimeError, "columns"),
        (lambda m: m.affine_transform(X, np.ones((3, 3))), ValueError,
         "homogeneous"),
        (lambda m: m.affine_transform(X, np.ones((2, 2, 2))), RuntimeError,
         "affine matrix"),
        (lambda m: m.shift(X, [1, 2, 3]), RuntimeError, "sequence"),
        (lambda m: m.zoom(X, 2, output=np.zeros((3, 3))), RuntimeError,
         "output shape"),
        (lambda m: m.rotate(X[0], 10), ValueError, "2D"),
        (lambda m: m.rotate(X, 10, axes=(0, 1, 2)), ValueError, "two"),
        (lambda m: m.rotate(X, 10, axes=(0, 2)), ValueError, "plane"),
        (lambda m: m.rotate(X, 10, axes=(0, 0.5)), ValueError, "integer"),
        (lambda m: m.spline_filter(X, 1), RuntimeError, "order"),
        (lambda m: m.spline_filter1d(X, 3, mode="foo"), RuntimeError,
         "mode"),
        (lambda m: m.spline_filter1d(X, 3, axis=2), np.exceptions.AxisError,
         "axis"),
    ]
    for f, exc, match in cases:
        X = x
        with pytest.raises(exc, match=match):
            f(nd)
        X = e
        with pytest.raises(exc, match=match):
            f(en)
    with pytest.raises(RuntimeError, match="rank"):
        en.shift(put(np.array(1.0), device), 1)
    with pytest.raises(RuntimeError, match="not supported"):
        en.shift(put(x.astype(np.float16), device), 1)


def test_empty_and_single_sample(device):
    x = rng.random((1, 6))
    kw = dict(order=3, mode="mirror")
    close(en.zoom(put(x, device), (3, 0.5), **kw), nd.zoom(x, (3, 0.5), **kw))
    for mode in MODES if REFLECT_FIXED else MODES[:3] + MODES[5:]:
        close(en.shift(put(x, device), (0.4, 0.4), mode=mode),
              nd.shift(x, (0.4, 0.4), mode=mode))
    got = en.zoom(put(x, device), (0.2, 1))
    assert got.shape == (0, 6) and got.dtype == ember.float64


@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
def test_interp_kernels_compile_with_nvrtc():
    # every instance the module launches, as the GPU compiles them
    from ember.cuda import core
    from ember.scipy import ndimage_interp
    src = (ndimage_interp._kernels._DIR / "interp.cuh").read_text()
    names = tuple(ndimage_interp._NAMES.values())
    ptx = core.Program(src, code_type="c++").compile(
        "ptx", name_expressions=names).code
    assert ptx.count(b".entry") == len(names) + 1
    assert b"em_spline_filter" in ptx


def test_interp_after_spline_filter_in_a_fresh_module(device):
    """interp.cuh's plain spline_filter kernel compiled first once left its
    templates out of the module, so map_coordinates then raised
    AttributeError: a module is recompiled with every instance asked."""
    from ember.scipy import _kernels
    for key in [k for k in _kernels._modules if k[1] == "interp.cuh"]:
        del _kernels._modules[key]
    a = np.arange(12.0).reshape(4, 3)
    x = ember.asarray(a, device=device)
    np.testing.assert_allclose(ember.asnumpy(en.spline_filter(x)),
                               nd.spline_filter(a), rtol=1e-12, atol=1e-12)
    c = [[0.5, 2], [0.5, 1]]
    np.testing.assert_allclose(
        ember.asnumpy(en.map_coordinates(x, ember.asarray(c, device=device))),
        nd.map_coordinates(a, c), rtol=1e-12)
