"""The NumPy ufuncs added after the first set: fmod, gcd, lcm, spacing, the
two-output modf and frexp, and isclose, allclose, array_equal, array_equiv,
against NumPy 2: dtypes and values (exactly: these are exact operations on
both backends), special values, broadcasting, views, out= and errors."""
import warnings

import numpy as np
import pytest

import ember

from helpers import assert_array_equal_np

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]


def np_call(fn, *args, **kw):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def specials(dtype):
    """Corner values of dtype and a few ordinary ones."""
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return np.array([False, True], dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = [info.min, info.max, 0, 1, 2, 3, 7, 12, 100, info.max - 1]
        if dt.kind == "i":
            v += [-1, -2, -3, -7, -12, -100, info.min + 1]
        return np.array(v, dt)
    fi = np.finfo(dt)
    v = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 0.5, -0.75, 5.5, -5.5, 7.25,
         1e3, -1e3, float(fi.max), -float(fi.max), float(fi.tiny), -float(fi.tiny),
         float(fi.smallest_subnormal), -float(fi.smallest_subnormal),
         np.inf, -np.inf, np.nan]
    with np.errstate(all="ignore"):
        return np.array(v, dt)


def to_ember(h, device):
    return ember.asarray(h, device=device)


# ---- fmod ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bool"] + INTS + FLOATS)
def test_fmod_every_pair(device, dtype):
    """Every pair of corner values (zero divisors, MIN % -1, infinities, NaN,
    signed zeros) through a broadcast (n, 1) x (1, n)."""
    h = specials(dtype)
    a, b = h[:, None], h[None, :]
    want = np_call(np.fmod, a, b)
    got = ember.fmod(to_ember(a, device), to_ember(b, device))
    assert_array_equal_np(got, want, device)


@pytest.mark.parametrize("a_t,b", [("int8", 3), ("int8", -3), ("uint8", 7), ("int16", 2.5),
                                   ("float32", 2.5), ("float16", -0.75), ("int64", 0),
                                   ("bool", 2), ("uint64", 5)])
def test_fmod_python_scalars(device, a_t, b):
    h = specials(a_t)
    assert_array_equal_np(ember.fmod(to_ember(h, device), b), np_call(np.fmod, h, b))
    assert_array_equal_np(ember.fmod(b, to_ember(h, device)), np_call(np.fmod, b, h))


@pytest.mark.parametrize("a_t,b_t", [("int8", "uint8"), ("int32", "float32"), ("bool", "int8"),
                                     ("uint16", "int64"), ("float16", "float64"),
                                     ("bool", "float16")])
def test_fmod_mixed_dtypes(device, a_t, b_t):
    a, b = specials(a_t)[:, None], specials(b_t)[None, :]
    want = np_call(np.fmod, a, b)
    assert_array_equal_np(ember.fmod(to_ember(a, device), to_ember(b, device)), want)


def test_fmod_views_and_numpy_dispatch(device):
    h = np.arange(-40, 40, dtype=np.int32).reshape(8, 10)
    x = to_ember(h, device)
    assert_array_equal_np(ember.fmod(x.T, 7), np.fmod(h.T, 7))
    assert_array_equal_np(ember.fmod(x[:, ::3], x[:, 1::3][:, :1] | 1), np.fmod(h[:, ::3], h[:, 1::3][:, :1] | 1))
    f = np.linspace(-7.5, 7.5, 31)
    y = to_ember(f, device)
    r = np.fmod(y, 2.0)                       # NumPy's fmod runs in ember
    assert isinstance(r, ember.ndarray)
    assert_array_equal_np(r, np.fmod(f, 2.0))
    out = ember.empty(31, device=device)
    assert ember.fmod(y, -2.0, out=out) is out
    assert_array_equal_np(out, np.fmod(f, -2.0))


def test_fmod_errors(device):
    z = to_ember(np.array([1 + 1j]), device)
    with pytest.raises(TypeError, match="fmod.*complex128"):
        ember.fmod(z, z)
    with pytest.raises(OverflowError):
        ember.fmod(to_ember(np.array([5], np.int8), device), 300)


# ---- gcd, lcm --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("name", ["gcd", "lcm"])
def test_gcd_lcm_every_pair(device, name, dtype):
    """Including MIN (whose magnitude wraps back to MIN, as in NumPy),
    zeros (gcd(0, 0) = 0, lcm(0, x) = 0) and results that overflow."""
    h = specials(dtype)
    a, b = h[:, None], h[None, :]
    want = np_call(getattr(np, name), a, b)
    got = getattr(ember, name)(to_ember(a, device), to_ember(b, device))
    assert_array_equal_np(got, want, device)


def test_gcd_lcm_signs_and_scalars(device):
    h = np.array([-12, 12, -18, 0, 7, -7], np.int64)
    x = to_ember(h, device)
    g, m = ember.gcd(x, -18), ember.lcm(x, -18)
    assert_array_equal_np(g, np.gcd(h, -18))
    assert_array_equal_np(m, np.lcm(h, -18))
    assert (ember.asnumpy(g) >= 0).all() and (ember.asnumpy(m) >= 0).all()
    b = np.array([True, False, True])
    assert_array_equal_np(ember.gcd(to_ember(b, device), np.int8(6)), np.gcd(b, np.int8(6)))
    assert_array_equal_np(ember.lcm(to_ember(b, device), 4), np.lcm(b, 4))
    u = np.arange(1, 25, dtype=np.uint16)
    y = to_ember(u, device)
    assert_array_equal_np(ember.gcd(y[::2], y[1::2]), np.gcd(u[::2], u[1::2]))
    assert_array_equal_np(ember.lcm(y[:, None][::3], y[None, :5]), np.lcm(u[:, None][::3], u[None, :5]))
    assert_array_equal_np(np.gcd(y, 6), np.gcd(u, 6))


@pytest.mark.parametrize("name", ["gcd", "lcm"])
def test_gcd_lcm_errors(device, name):
    fn = getattr(ember, name)
    f = to_ember(np.array([1.0, 2.0]), device)
    i = to_ember(np.array([1, 2]), device)
    with pytest.raises(TypeError, match=f"'{name}'.*float64, float64"):
        fn(f, f)
    with pytest.raises(TypeError, match=name):
        fn(i, f)
    with pytest.raises(TypeError, match=name):
        fn(i, 1.5)
    b = to_ember(np.array([True]), device)
    with pytest.raises(TypeError, match=f"'{name}'.*bool, bool"):  # NumPy: no bool loop
        fn(b, b)
    with pytest.raises(TypeError, match=name):                     # common type float64
        fn(to_ember(np.array([4], np.uint64), device), i)


# ---- spacing ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_spacing_floats(device, dtype):
    """eps at 1, -eps at -1 (float16: NumPy's step towards +inf), the
    smallest subnormal at both zeros, inf past the largest value, NaN for
    inf and NaN."""
    h = specials(dtype)
    x = to_ember(h, device)
    assert_array_equal_np(ember.spacing(x), np_call(np.spacing, h), device)
    assert_array_equal_np(ember.spacing(x[::-3]), np_call(np.spacing, h[::-3]))
    r = ember.asnumpy(ember.spacing(to_ember(np.array([1, -1], dtype), device)))
    eps = np.finfo(dtype).eps
    assert r[0] == eps
    if dtype != "float16":
        assert r[1] == -eps


def test_spacing_random_and_ints(device):
    rng = np.random.default_rng(5)
    for dt in FLOATS:
        h = np_call(lambda: (rng.standard_normal(200) * 10.0 ** rng.integers(-30, 30, 200)).astype(dt))
        assert_array_equal_np(ember.spacing(to_ember(h, device)), np_call(np.spacing, h))
    for dt in ["bool", "int8", "int16", "uint32", "int64", "uint64"]:
        h = specials(dt)
        assert_array_equal_np(ember.spacing(to_ember(h, device)), np_call(np.spacing, h))


def test_spacing_errors(device):
    with pytest.raises(TypeError, match="spacing.*complex64"):
        ember.spacing(to_ember(np.array([1j], np.complex64), device))


# ---- modf, frexp --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["bool"] + INTS + FLOATS)
@pytest.mark.parametrize("name", ["modf", "frexp"])
def test_two_outputs_every_dtype(device, name, dtype):
    """modf(inf) = (+-0, +-inf), modf(nan) = (nan, nan), signed zeros;
    frexp's (x, 0) for zeros, infinities and NaN, subnormals normalised;
    integer inputs through NumPy's float loops (int8 -> float16)."""
    h = specials(dtype)
    got = getattr(ember, name)(to_ember(h, device))
    want = np_call(getattr(np, name), h)
    assert isinstance(got, tuple) and len(got) == 2
    for g, w in zip(got, want):
        assert_array_equal_np(g, w, device)


@pytest.mark.parametrize("name", ["modf", "frexp"])
def test_two_outputs_views_random(device, name):
    rng = np.random.default_rng(7)
    h = (rng.standard_normal((6, 9)) * 1e3).astype(np.float32)
    x = to_ember(h, device)
    for view in (lambda a: a.T, lambda a: a[::2, 1::3]):
        got = getattr(ember, name)(view(x))
        want = getattr(np, name)(view(h))
        for g, w in zip(got, want):
            assert_array_equal_np(g, w)


@pytest.mark.parametrize("name", ["modf", "frexp"])
def test_two_outputs_out(device, name):
    h = np.array([-3.75, 2.5, 0.0, -0.0, 1e10, -np.inf, np.nan])
    x = to_ember(h, device)
    w1, w2 = np_call(getattr(np, name), h)
    o1 = ember.empty(7, device=device)
    o2 = ember.empty(7, dtype=w2.dtype, device=device)
    r = getattr(ember, name)(x, out=(o1, o2))
    assert r[0] is o1 and r[1] is o2
    assert_array_equal_np(o1, w1)
    assert_array_equal_np(o2, w2)
    o3 = ember.empty(7, device=device)
    r = getattr(ember, name)(x, None, o3)       # positional outs, one left fresh
    assert r[1] is o3 and r[0] is not o3
    assert_array_equal_np(r[0], w1)
    # Writing over the input: both outputs still see the input as it was.
    y = to_ember(h, device)
    r = getattr(ember, name)(y, out=(y, None))
    assert r[0] is y
    assert_array_equal_np(y, w1)
    assert_array_equal_np(r[1], w2)
    # where= leaves the masked elements of out alone
    o1 = to_ember(np.full(7, 9.0), device)
    m = np.array([True, False] * 3 + [True])
    getattr(ember, name)(x, out=(o1, None), where=to_ember(m, device))
    assert_array_equal_np(o1, np.where(m, w1, 9.0))
    with pytest.raises(ValueError):
        getattr(ember, name)(x, out=(o1,))
    with pytest.raises(TypeError):
        getattr(ember, name)(x, o1, out=(o1, o2))


@pytest.mark.parametrize("name", ["modf", "frexp"])
def test_two_outputs_errors_and_names(device, name):
    with pytest.raises(TypeError, match=f"'{name}'.*complex128"):
        getattr(ember, name)(to_ember(np.array([1 + 2j]), device))
    # The single-output halves are not public ufuncs.
    public = [n for n in dir(ember) if isinstance(getattr(ember, n), ember.ufunc)]
    assert not [n for n in public if n.startswith("_")]
    assert not hasattr(ember, "_modf_frac") and not hasattr(ember, "_frexp_exp")
    for n in ("fmod", "gcd", "lcm", "spacing"):
        u = getattr(ember, n)
        assert isinstance(u, ember.ufunc) and u.__name__ == n
        assert u.nin == getattr(np, n).nin and u.nout == 1


def test_two_outputs_python_scalars(device):
    with ember.Device(device):
        f, i = ember.modf(-2.5)
        assert float(f) == -0.5 and float(i) == -2.0
        m, e = ember.frexp(8)
        assert float(m) == 0.5 and int(e) == 4 and e.dtype == ember.int32


# ---- isclose, allclose --------------------------------------------------------------------------

def close_values(dtype):
    dt = np.dtype(dtype)
    if dt.kind in "biu":
        return specials(dtype)[:8]
    base = [1.0, 1.0 + 1e-6, 1.0 + 1e-4, 0.0, 1e-9, -1e-9, 1e10, 1.00001e10,
            np.inf, -np.inf, np.nan, 100.0, -100.0]
    v = np.array(base, dtype=np.float64)
    if dt.kind == "c":
        v = np_call(lambda: v + 1j * np.array(base[::-1]))
    with np.errstate(all="ignore"):
        return v.astype(dt)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int64", "uint64"] + FLOATS
                         + ["complex64", "complex128"])
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_every_pair(device, dtype, equal_nan):
    h = close_values(dtype)
    a, b = h[:, None], h[None, :]
    want = np_call(np.isclose, a, b, equal_nan=equal_nan)
    got = ember.isclose(to_ember(a, device), to_ember(b, device), equal_nan=equal_nan)
    assert_array_equal_np(got, want, device)


@pytest.mark.parametrize("a_t,b_t", [("float32", "float64"), ("int16", "float16"),
                                     ("int8", "float32"), ("float16", "int32"),
                                     ("complex64", "float32"), ("bool", "float64"),
                                     ("int32", "int32")])
def test_isclose_mixed_and_tolerances(device, a_t, b_t):
    a, b = close_values(a_t)[:, None], close_values(b_t)[None, :]
    x, y = to_ember(a, device), to_ember(b, device)
    for kw in ({}, {"rtol": 0.0, "atol": 0.0}, {"rtol": 1e-3}, {"atol": 1.5},
               {"rtol": np.float32(1e-3), "atol": 2}, {"equal_nan": True}):
        assert_array_equal_np(ember.isclose(x, y, **kw), np_call(np.isclose, a, b, **kw))
        assert ember.allclose(x, y, **kw) is bool(np_call(np.allclose, a, b, **kw))


def test_isclose_scalars_views_arrays_tolerances(device):
    h = np.linspace(-2.0, 2.0, 24).reshape(4, 6)
    x = to_ember(h, device)
    k = h * (1 + 3e-6)
    y = to_ember(k, device)
    assert_array_equal_np(ember.isclose(x.T, y.T), np.isclose(h.T, k.T))
    assert_array_equal_np(ember.isclose(x[:, ::2], 1.0), np.isclose(h[:, ::2], 1.0))
    assert_array_equal_np(ember.isclose(0.5, x), np.isclose(0.5, h))
    assert_array_equal_np(ember.isclose(x, 1), np.isclose(h, 1))
    rt = np.array([1e-8, 1e-1, 1e-8, 1e-1, 0.5, 0.0])
    assert_array_equal_np(ember.isclose(x, y * 1.01, rtol=to_ember(rt, device)),
                          np.isclose(h, k * 1.01, rtol=rt))
    with ember.Device(device):
        r = ember.isclose(1.0, 1.0 + 1e-9)
        assert bool(r) is True and r.dtype == ember.bool and r.ndim == 0
        assert bool(ember.isclose(1e-7, 0.0)) is False
        assert bool(ember.isclose(float("nan"), float("nan"), equal_nan=True)) is True
        assert bool(ember.isclose(3, 3)) is True
        assert ember.allclose([1.0, 2.0], [1.0, 2.0 + 1e-7]) is True
        assert ember.allclose([1.0, float("inf")], [1.0, float("inf")]) is True
        assert ember.allclose([1.0, float("inf")], [1.0, -float("inf")]) is False
        assert ember.allclose([1.0, float("nan")], [1.0, float("nan")]) is False
        assert ember.allclose([1.0, float("nan")], [1.0, float("nan")], equal_nan=True) is True
    with pytest.raises(ValueError):
        ember.isclose(x, to_ember(np.zeros(5), device))


# ---- array_equal, array_equiv -----------------------------------------------------------------

@pytest.mark.parametrize("equal_nan", [False, True])
def test_array_equal(device, equal_nan):
    cases = [
        (np.arange(6.0), np.arange(6.0)),
        (np.arange(6.0), np.arange(6.0).reshape(2, 3)),          # shapes differ
        (np.arange(6), np.arange(6.0)),                          # dtypes differ
        (np.arange(6), np.arange(1, 7)),
        (np.array([1.0, np.nan]), np.array([1.0, np.nan])),
        (np.array([np.nan, 1.0]), np.array([1.0, np.nan])),
        (np.array([1 + 1j, complex(np.nan, 1)]), np.array([1 + 1j, complex(1, np.nan)])),
        (np.array([1, 2], np.int64), np.array([1, 2], np.uint64)),
        (np.array([-1], np.int64), np.array([2 ** 64 - 1], np.uint64)),
        (np.zeros((0, 3)), np.zeros((0, 3))),
        (np.ones((2, 1)), np.ones((2, 3))),                       # broadcastable, unequal shapes
        (np.array([True, False]), np.array([1, 0], np.int8)),
    ]
    for a, b in cases:
        want = np.array_equal(a, b, equal_nan=equal_nan)
        got = ember.array_equal(to_ember(a, device), to_ember(b, device), equal_nan=equal_nan)
        assert got is want, (a, b)
    h = np.arange(12.0).reshape(3, 4)
    x = to_ember(h, device)
    assert ember.array_equal(x.T, to_ember(np.ascontiguousarray(h.T), device)) is True
    assert ember.array_equal(x, x, equal_nan=equal_nan) is True
    with ember.Device(device):
        assert ember.array_equal([1, 2], [1, 2]) is True
        assert ember.array_equal([1, 2], [1, 2, 3]) is False
        assert ember.array_equal("a", [1]) is False           # not an array: False, as NumPy


def test_array_equiv(device):
    cases = [
        (np.arange(3), np.arange(3)),
        (np.arange(3), np.tile(np.arange(3), (2, 1))),
        (np.arange(3), np.array([[0, 1, 2], [0, 1, 3]])),
        (np.arange(3), np.arange(4)),                          # not broadcastable
        (np.ones((2, 1)), np.ones((1, 3))),
        (np.array([np.nan]), np.array([np.nan])),
        (np.zeros((0,)), np.zeros((2, 0))),
    ]
    for a, b in cases:
        got = ember.array_equiv(to_ember(a, device), to_ember(b, device))
        assert got is np.array_equiv(a, b), (a, b)
    with ember.Device(device):
        assert ember.array_equiv([1, 1], 1) is True
        assert ember.array_equiv([1, 2], 1) is False


def test_isclose_numpy_scalars(device):
    """NumPy scalars are strong (NumPy makes 0-d arrays of them) and, like
    ufunc operands, go to the arrays' device by value."""
    h = np.array([1.0, 1.001, 2.0, -3.0, np.inf], np.float32)
    x = to_ember(h, device)
    for b in (np.float32(1.0), np.float64(1.0), np.int8(2), np.int64(-3), np.float16(1.0)):
        assert_array_equal_np(ember.isclose(x, b), np.isclose(h, b))
        assert_array_equal_np(ember.isclose(x, b, rtol=np.float32(1e-2)),
                              np.isclose(h, b, rtol=np.float32(1e-2)))
        assert ember.allclose(x, b) is bool(np.allclose(h, b))
    i = np.array([120, -128, 127, 0], np.int8)
    assert_array_equal_np(ember.isclose(to_ember(i, device), np.int8(-128)),
                          np.isclose(i, np.int8(-128)))
    assert_array_equal_np(ember.isclose(np.float32(1.0), x), np.isclose(np.float32(1.0), h))


def test_numpy_two_output_ufuncs_dispatch_to_ember(device):
    """numpy.modf, numpy.frexp, numpy.divmod and numpy.matmul called on
    ember arrays run in ember (__array_ufunc__) and give ember arrays."""
    a = np.array([-2.5, -0.0, 0.75, 3.0, np.inf], dtype=np.float64)
    x = ember.asarray(a, device=device)
    for got, want in zip(np.modf(x), np.modf(a)):
        assert isinstance(got, ember.ndarray)
        assert_array_equal_np(got, want)
    for got, want in zip(np.frexp(x), np.frexp(a)):
        assert_array_equal_np(got, want)
    i = np.array([7, -7, 5], np.int32)
    j = np.array([2, 2, -3], np.int32)
    for got, want in zip(np.divmod(ember.asarray(i, device=device),
                                   ember.asarray(j, device=device)), np.divmod(i, j)):
        assert_array_equal_np(got, want)
    m = np.arange(6, dtype=np.float64).reshape(2, 3)
    xm = ember.asarray(m, device=device)
    assert_array_equal_np(np.matmul(xm, xm.T), m @ m.T)


def test_complex_tanh_at_infinity_signs_zero_as_the_array_api(device):
    """tanh(+-inf + i b) is +-1 + 0j with the zero signed as b (the Array
    API's special case; C99, and NumPy, sign it as sin(2b), which the
    suite found for b = 2.26e16)."""
    z = ember.asarray(np.array([complex(np.inf, 2.2636921373707076e16),
                                complex(np.inf, -3.0),
                                complex(-np.inf, 5.0)]), device=device)
    r = ember.asnumpy(ember.tanh(z))
    assert r.real.tolist() == [1.0, 1.0, -1.0]
    assert np.signbit(r.imag).tolist() == [False, True, False]
