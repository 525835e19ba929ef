"""Reductions (sum, mean, var, min, argmax, any, nan*, average, ...) against
NumPy on every device: dtypes, axis forms, keepdims, dtype= and out=,
layouts, empty and 0-d inputs, NaN/inf, sizes that take the multi-block
paths, and the bad inputs."""
import warnings

import numpy as np
import pytest

import ember

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", "float32", "float64", "complex64",
          "complex128"]

RTOL = {"float16": 2e-3, "float32": 2e-5, "complex64": 2e-5}


def sample(shape, dtype, seed=0):
    """Values every dtype holds, with sign changes and repeats (ties)."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == "bool":
        return (rng.integers(0, 3, n) > 0).reshape(shape)
    if np.dtype(dtype).kind == "u":
        return rng.integers(0, 9, n).astype(dtype).reshape(shape)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-9, 9, n).astype(dtype).reshape(shape)
    v = rng.integers(-20, 20, n) / 4.0
    if np.dtype(dtype).kind == "c":
        v = v + 1j * (rng.integers(-20, 20, n) / 4.0)
    return v.astype(dtype).reshape(shape)


def check(got, want, rtol=None):
    """got (an ember array) equals NumPy's want: dtype, shape, values."""
    assert isinstance(got, ember.ndarray), type(got)
    want = np.asarray(want)
    g = ember.asnumpy(got)
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    assert g.shape == want.shape, (g.shape, want.shape)
    if want.dtype.kind in "fc":
        rt = rtol if rtol is not None else RTOL.get(want.dtype.name, 1e-12)
        np.testing.assert_allclose(g, want, rtol=rt, atol=rt, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


def on(device, x):
    return ember.asarray(x, device=device)


# ---- dtypes -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["sum", "prod", "mean", "max", "argmax",
                                  "any", "var"])
def test_dtypes(device, name, dtype):
    x = sample((37,), dtype)
    if name == "prod":
        x = x[:9]
    if name in ("mean", "var") and dtype == "bool":
        pass
    want = getattr(np, name)(x)
    check(getattr(ember, name)(on(device, x)), want)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "float16", "float32",
                                   "complex64"])
@pytest.mark.parametrize("name", ["min", "argmin", "all", "count_nonzero",
                                  "std", "nansum", "nanmax"])
def test_more_dtypes(device, name, dtype):
    x = sample((5, 7), dtype, seed=1)
    check(getattr(ember, name)(on(device, x), axis=1),
          getattr(np, name)(x, axis=1))


def test_bfloat16(device):
    x = sample((101,), "float32")
    e = on(device, x).astype("bfloat16")
    s = ember.sum(e)
    assert s.dtype == ember.bfloat16
    assert float(s.astype("float32")) == pytest.approx(float(x.sum()), rel=1e-2)
    assert ember.max(e).dtype == ember.bfloat16
    assert float(ember.max(e).astype("float32")) == x.max()
    assert int(ember.argmax(e)) == int(np.argmax(x))


# ---- axes -------------------------------------------------------------------

ALL = ["sum", "prod", "mean", "var", "std", "min", "max", "amin", "amax",
       "ptp", "any", "all", "count_nonzero", "nansum", "nanprod", "nanmean",
       "nanvar", "nanstd", "nanmin", "nanmax"]


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (2, 0, 1), ()])
@pytest.mark.parametrize("name", ALL)
def test_axes(device, name, axis, keepdims):
    x = sample((2, 3, 5), "float64", seed=2)
    kw = {"keepdims": keepdims}
    if name == "count_nonzero" and axis == ():
        pytest.skip("NumPy's count_nonzero has no empty-tuple special case")
    check(getattr(ember, name)(on(device, x), axis=axis, **kw),
          getattr(np, name)(x, axis=axis, **kw))


@pytest.mark.parametrize("axis", [None, 0, 1, 2, -1])
@pytest.mark.parametrize("name", ["argmin", "argmax", "nanargmin",
                                  "nanargmax"])
def test_arg_axes(device, name, axis):
    x = sample((4, 3, 5), "float32", seed=3)
    check(getattr(ember, name)(on(device, x), axis=axis),
          getattr(np, name)(x, axis=axis))
    check(getattr(ember, name)(on(device, x), axis=axis, keepdims=True),
          getattr(np, name)(x, axis=axis, keepdims=True))


def test_methods(device):
    x = sample((4, 6), "float32", seed=4)
    e = on(device, x)
    check(e.sum(), x.sum())
    check(e.sum(0), x.sum(0))
    check(e.sum(axis=1, dtype="float64"), x.sum(axis=1, dtype="float64"))
    check(e.prod(axis=1), x.prod(axis=1))
    check(e.mean(axis=0, keepdims=True), x.mean(axis=0, keepdims=True))
    check(e.var(ddof=1), x.var(ddof=1))
    check(e.std(axis=1, ddof=2), x.std(axis=1, ddof=2))
    check(e.min(axis=1), x.min(axis=1))
    check(e.max(), x.max())
    check(e.argmin(), x.argmin())
    check(e.argmax(axis=0), x.argmax(axis=0))
    check(e.any(axis=0), x.any(axis=0))
    check(e.all(), x.all())


def test_zero_d_result_is_array(device):
    r = ember.sum(on(device, [1, 2, 3]))
    assert isinstance(r, ember.ndarray) and r.ndim == 0
    assert int(r) == 6


# ---- layouts ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["sum", "max", "argmax", "mean"])
def test_layouts(device, name):
    x = sample((6, 10), "float32", seed=5)
    e = on(device, x)
    f = getattr(ember, name)
    g = getattr(np, name)
    for axis in [None, 0, 1]:
        check(f(e.T, axis=axis), g(x.T, axis=axis))
        check(f(e[::-1, ::-2], axis=axis), g(x[::-1, ::-2], axis=axis))
        check(f(e[1:5, 2:9], axis=axis), g(x[1:5, 2:9], axis=axis))
    b = ember.broadcast_to(on(device, x[0]), (7, 10))
    check(f(b, axis=0), g(np.broadcast_to(x[0], (7, 10)), axis=0))
    check(f(b), g(np.broadcast_to(x[0], (7, 10))))


def test_interleaved_axes(device):
    x = sample((3, 4, 5, 2), "float64", seed=6)
    e = on(device, x)
    for axis in [(0, 2), (1, 3), (0, 3)]:
        check(ember.sum(e, axis=axis), x.sum(axis=axis))
        check(ember.var(e, axis=axis), x.var(axis=axis))
    check(ember.argmax(e.transpose(2, 0, 3, 1)),
          np.argmax(x.transpose(2, 0, 3, 1)))


# ---- sizes that take the multi-block and split paths ------------------------

def test_large_full(device):
    x = sample((2**20 + 3,), "float32", seed=7)
    e = on(device, x)
    check(ember.sum(e), x.sum(), rtol=1e-5)
    check(ember.mean(e), x.mean(), rtol=1e-5)
    check(ember.max(e), x.max())
    check(ember.argmax(e), x.argmax())
    check(ember.argmin(e), x.argmin())
    check(ember.var(e), x.var(), rtol=1e-4)


def test_float32_accuracy(device):
    x = np.full(10**7, 0.1, dtype=np.float32)
    got = float(ember.sum(on(device, x)))
    assert abs(got - float(x.sum())) <= 1e-6 * abs(float(x.sum()))


@pytest.mark.parametrize("shape", [(2000, 3), (3, 70000), (1, 50000),
                                   (50000, 1), (300, 1030)])
@pytest.mark.parametrize("name", ["sum", "argmax", "var", "min"])
def test_large_axes(device, shape, name):
    x = sample(shape, "float32", seed=8)
    e = on(device, x)
    for axis in [0, 1]:
        check(getattr(ember, name)(e, axis=axis), getattr(np, name)(x, axis=axis),
              rtol=1e-4)


def test_argmax_ties_first(device):
    x = np.zeros(100003, dtype=np.int32)
    x[[7, 50000, 100000]] = 5
    check(ember.argmax(on(device, x)), np.argmax(x))
    m = np.zeros((3, 5000), dtype=np.float64)
    m[:, [10, 20]] = -1
    check(ember.argmin(on(device, m), axis=1), np.argmin(m, axis=1))
    check(ember.argmin(on(device, m.T), axis=0), np.argmin(m.T, axis=0))


# ---- NaN, inf, -0.0 -------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:invalid value")
def test_nan_rules(device):
    x = np.array([1.0, np.nan, 3.0, np.nan, -np.inf, np.inf], dtype=np.float64)
    e = on(device, x)
    for name in ["min", "max", "argmin", "argmax", "sum", "mean", "nansum",
                 "nanmin", "nanmax", "nanargmin", "nanargmax", "nanmean",
                 "nanvar", "nanstd", "nanprod"]:
        check(getattr(ember, name)(e), getattr(np, name)(x))
    m = np.array([[1.0, np.nan, 2.0], [4.0, 5.0, np.inf]], dtype=np.float32)
    for name in ["max", "argmax", "nanmax", "nanargmin", "nanmean"]:
        for axis in [0, 1]:
            check(getattr(ember, name)(on(device, m), axis=axis),
                  getattr(np, name)(m, axis=axis))


def test_complex_order(device):
    x = np.array([1 + 5j, 3 - 1j, 3 + 2j, 3 + 2j, -7 + 9j], dtype=np.complex128)
    e = on(device, x)
    for name in ["max", "min", "argmax", "argmin", "sum", "prod", "mean",
                 "var", "std"]:
        check(getattr(ember, name)(e), getattr(np, name)(x))
    y = x.copy()
    y[1] = complex(np.nan, 0)
    check(ember.argmax(on(device, y)), np.argmax(y))
    check(ember.nanargmax(on(device, y)), np.nanargmax(y))


def test_negative_zero(device):
    x = np.array([-0.0, -0.0], dtype=np.float64)
    r = ember.asnumpy(ember.max(on(device, x)))
    assert r == 0 and np.signbit(r)


def test_all_nan_warnings(device):
    x = np.array([[np.nan, np.nan], [1.0, np.nan]])
    e = on(device, x)
    for name in ["nanmin", "nanmax", "nanmean", "nanvar", "nanstd"]:
        with pytest.warns(RuntimeWarning):
            r = getattr(ember, name)(e, axis=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(r, getattr(np, name)(x, axis=1))
    with pytest.raises(ValueError, match="All-NaN slice"):
        ember.nanargmin(e, axis=1)
    with pytest.raises(ValueError, match="All-NaN slice"):
        ember.nanargmax(on(device, [np.nan]))
    check(ember.nanargmax(e[1], axis=0), np.nanargmax(x[1], axis=0))


# ---- empty and 0-d ------------------------------------------------------------------

def test_empty(device):
    x = np.zeros((0, 3), dtype=np.float32)
    e = on(device, x)
    for name in ["sum", "prod", "any", "all", "count_nonzero", "nansum"]:
        check(getattr(ember, name)(e), getattr(np, name)(x))
        check(getattr(ember, name)(e, axis=0), getattr(np, name)(x, axis=0))
    for name in ["mean", "var", "nanmean"]:
        with pytest.warns(RuntimeWarning):
            r = getattr(ember, name)(e, axis=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(r, getattr(np, name)(x, axis=0))
    check(ember.max(e, axis=1), np.max(x, axis=1))
    with pytest.raises(ValueError, match="zero-size array to reduction "
                                         "operation maximum"):
        ember.max(e)
    with pytest.raises(ValueError, match="minimum which has no identity"):
        ember.min(e, axis=0)
    with pytest.raises(ValueError, match="empty sequence"):
        ember.argmax(e)
    with pytest.raises(ValueError):
        ember.max(on(device, np.zeros((0, 0))), axis=0)
    check(ember.sum(on(device, np.zeros((3, 0), np.int8)), axis=1),
          np.sum(np.zeros((3, 0), np.int8), axis=1))
    # an empty axis after a longer one: (2, 0) has strides that do not
    # chain, and the whole reduction read two elements of an empty buffer
    # (all() False, prod() 0 on the GPU)
    for shape in [(2, 0), (3, 0, 2), (0, 2)]:
        for dt in (np.bool_, np.float32):
            x = np.ones(shape, dtype=dt)
            e = on(device, x)
            for name in ["sum", "prod", "any", "all"]:
                check(getattr(ember, name)(e), getattr(np, name)(x))


def test_zero_d(device):
    x = np.array(2.5, dtype=np.float32)
    e = on(device, x)
    for name in ["sum", "prod", "mean", "max", "argmax", "var", "any"]:
        check(getattr(ember, name)(e), getattr(np, name)(x))
    with pytest.raises(ember.AxisError):
        ember.sum(e, axis=1)


# ---- dtype=, out= -----------------------------------------------------------------------

def test_dtype_arg(device):
    x = sample((5, 6), "int16", seed=9)
    e = on(device, x)
    for dt in ["float32", "int8", "uint16", "complex64", "float64"]:
        check(ember.sum(e, axis=1, dtype=dt), np.sum(x, axis=1, dtype=dt))
        check(ember.prod(e, axis=0, dtype=dt), np.prod(x, axis=0, dtype=dt))
    check(ember.mean(e, dtype="float32"), np.mean(x, dtype="float32"))
    check(ember.var(e, axis=0, dtype="float32"), np.var(x, axis=0,
                                                         dtype="float32"))
    big = np.full(300, 100, dtype=np.int8)
    check(ember.sum(on(device, big), dtype="int8"), np.sum(big, dtype="int8"))
    check(ember.sum(on(device, big)), np.sum(big))
    check(ember.mean(on(device, sample((9,), "float16"))),
          np.mean(sample((9,), "float16")))


def test_out(device):
    x = sample((4, 5), "float32", seed=10)
    e = on(device, x)
    out = ember.zeros(5, dtype="float64", device=device)
    r = ember.sum(e, axis=0, out=out)
    assert r is out
    check(out, x.sum(axis=0).astype("float64"))
    out32 = ember.zeros(4, dtype="float32", device=device)
    assert e.max(axis=1, out=out32) is out32
    check(out32, x.max(axis=1))
    big = ember.zeros((4, 2), dtype="float32", device=device)
    ember.mean(e, axis=1, out=big[:, 1])
    check(big[:, 1], x.mean(axis=1))
    check(big[:, 0], np.zeros(4, np.float32))
    idx = ember.zeros((), dtype="int64", device=device)
    ember.argmax(e, out=idx)
    check(idx, np.argmax(x))
    keep = ember.zeros((1, 5), dtype="float32", device=device)
    ember.sum(e, axis=0, keepdims=True, out=keep)
    check(keep, x.sum(axis=0, keepdims=True))


def test_out_errors(device):
    e = on(device, sample((4, 5), "float32"))
    with pytest.raises(ValueError, match=r"\(3,\).*\(5,\)"):
        ember.sum(e, axis=0, out=ember.zeros(3, dtype="float32", device=device))
    with pytest.raises(TypeError, match="Cannot cast.*float32.*int32.*same_kind"):
        ember.sum(e, axis=0, out=ember.zeros(5, dtype="int32", device=device))
    with pytest.raises(TypeError, match="out= must be an ember.ndarray"):
        ember.sum(e, out=np.zeros(()))


# ---- bad input ------------------------------------------------------------------------

def test_bad_axes(device):
    e = on(device, sample((2, 3), "float64"))
    with pytest.raises(ember.AxisError, match="axis 2 is out of bounds for "
                                              "array of dimension 2"):
        ember.sum(e, axis=2)
    with pytest.raises(ember.AxisError, match="axis -3"):
        e.mean(axis=-3)
    with pytest.raises(ValueError, match="duplicate value in 'axis'"):
        ember.sum(e, axis=(1, -1))
    with pytest.raises(TypeError):
        ember.argmax(e, axis=(0, 1))
    with pytest.raises(TypeError):
        ember.sum(e, axis=1.5)
    assert issubclass(ember.AxisError, ValueError)
    assert issubclass(ember.AxisError, IndexError)


def test_bad_keywords(device):
    e = on(device, sample((2, 3), "float64"))
    with pytest.raises(NotImplementedError, match="initial="):
        ember.sum(e, initial=5)
    with pytest.raises(NotImplementedError, match="where="):
        ember.max(e, where=np.array([True, False, True]))
    with pytest.raises(TypeError, match="unexpected keyword"):
        ember.argmax(e, dtype="int32")
    with pytest.raises(TypeError):
        ember.sum(e, 0, None, None, False, 0, True, 9)
    with pytest.raises(TypeError, match="missing required"):
        ember.sum()
    with pytest.raises(ValueError, match="ddof and correction"):
        ember.var(e, ddof=1, correction=1)
    check(ember.var(e, correction=1), np.var(ember.asnumpy(e), correction=1))


def test_host_inputs():
    """Lists and NumPy arrays go to the current device."""
    check(ember.sum([[1, 2], [3, 4]], axis=0), np.sum([[1, 2], [3, 4]], axis=0))
    check(ember.mean(np.arange(5.0)), np.mean(np.arange(5.0)))


# ---- ptp, average ---------------------------------------------------------------------

def test_ptp(device):
    x = sample((4, 5), "int32", seed=11)
    e = on(device, x)
    for axis in [None, 0, 1]:
        check(ember.ptp(e, axis=axis), np.ptp(x, axis=axis))
    check(ember.ptp(e, axis=1, keepdims=True), np.ptp(x, axis=1, keepdims=True))


def test_average(device):
    x = sample((3, 4), "float64", seed=12)
    w = np.array([1.0, 2.0, 0.5, 3.0])
    e = on(device, x)
    check(ember.average(e), np.average(x))
    check(ember.average(e, axis=1, weights=on(device, w)),
          np.average(x, axis=1, weights=w))
    ww = sample((3, 4), "float64", seed=13) ** 2 + 1
    check(ember.average(e, axis=0, weights=on(device, ww)),
          np.average(x, axis=0, weights=ww))
    check(ember.average(e, weights=on(device, ww)), np.average(x, weights=ww))
    a, s = ember.average(e, axis=1, weights=on(device, w), returned=True)
    na, ns = np.average(x, axis=1, weights=w, returned=True)
    check(a, na)
    check(s, ns)
    a, s = ember.average(e, axis=0, returned=True)
    na, ns = np.average(x, axis=0, returned=True)
    check(a, na)
    check(s, ns)
    xi = sample((3, 4), "int32", seed=14)
    check(ember.average(on(device, xi), axis=1, weights=[1, 2, 3, 4]),
          np.average(xi, axis=1, weights=[1, 2, 3, 4]))
    with pytest.raises(ZeroDivisionError):
        ember.average(e, axis=1, weights=on(device, np.zeros(4)))
    with pytest.raises(TypeError, match="Axis must be specified"):
        ember.average(e, weights=on(device, w))
    with pytest.raises(ValueError, match="Length of weights"):
        ember.average(e, axis=0, weights=on(device, w))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_nan_in_long_rows(device, dtype):
    """NaNs deep inside long rows (the vectorised paths fall back to the
    NaN-aware step for such blocks), at a block's first element and in a
    block of NaNs only."""
    x = sample((3, 5000), "float64", seed=15)
    if dtype != "int16":
        x[0, 1024] = np.nan
        x[1, 3000:4100] = np.nan
        x[2, 4999] = np.nan
    x = x.astype(dtype)
    e = on(device, x)
    for name in ["max", "min", "argmax", "argmin", "nanmax", "nanmin",
                 "nanargmax", "nanargmin", "sum", "nansum"]:
        check(getattr(ember, name)(e, axis=1), getattr(np, name)(x, axis=1),
              rtol=1e-5)
        check(getattr(ember, name)(e.ravel()), getattr(np, name)(x.ravel()),
              rtol=1e-5)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float16",
                                   "complex64"])
def test_column_dtypes(device, dtype):
    """Column reductions (the strided-axis schedule) for narrow and wide
    types."""
    x = sample((300, 40), dtype, seed=16)
    e = on(device, x)
    for name in ["sum", "argmax", "max", "any", "mean"]:
        check(getattr(ember, name)(e, axis=0), getattr(np, name)(x, axis=0))
