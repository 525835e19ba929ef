"""Property tests: hypothesis draws shapes, dtypes, layouts and values, and
ember must agree with NumPy on each draw. They complement the hand-written
tables with the combinations nobody thought to write down (a broadcast
length-1 axis under a negative-stride view, a 0-d operand beside an empty
one, ...). Each device runs a bounded number of examples so the file stays
quick on cpu, where every new kernel is compiled by cc."""
import warnings

import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

# A few dtypes of each kind, so that the number of distinct kernels (each
# compiled once per process on cpu) stays small.
DTYPES = [np.bool_, np.int8, np.int32, np.int64, np.uint16, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "equal",
          "less", "true_divide"]
UNARY = ["negative", "absolute", "square", "sign", "isfinite"]

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

dtypes = st.sampled_from(DTYPES).map(np.dtype)
shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)


def values(dtype, shape):
    """Arrays of dtype and shape with NaN, inf and -0.0 among the floats and
    the integer extremes among the integers."""
    if dtype.kind == "f":
        elements = st.floats(width=min(dtype.itemsize * 8, 64),
                             allow_nan=True, allow_infinity=True)
    elif dtype.kind == "c":
        elements = st.complex_numbers(width=dtype.itemsize * 8,
                                      allow_nan=True, allow_infinity=True)
    else:
        elements = None
    return hnp.arrays(dtype, shape, elements=elements)


@st.composite
def layouts(draw, base):
    """base as stored (C order), or a transposed, reversed or strided view
    of a larger array holding the same values."""
    kind = draw(st.sampled_from(["c", "t", "rev", "step"]))
    if kind == "t" and base.ndim >= 2:
        return "t", np.ascontiguousarray(base.T)
    if kind == "rev" and base.ndim >= 1:
        return "rev", np.ascontiguousarray(base[..., ::-1])
    if kind == "step" and base.ndim >= 1:
        big = np.repeat(base, 2, axis=-1)
        return "step", big
    return "c", base


def view_of(x, kind):
    """Undo layouts(): the same values as the base, through a view."""
    if kind == "t":
        return x.T
    if kind == "rev":
        return x[..., ::-1]
    if kind == "step":
        return x[..., ::2]
    return x


@st.composite
def broadcastable_pair(draw):
    shape = draw(shapes)
    other = list(draw(hnp.broadcastable_shapes(shape, min_dims=0, max_dims=4,
                                                min_side=0, max_side=5)))
    return shape, tuple(other)


def numpy_result(fn, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args)


def ember_or_error(fn, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args)


def assert_close(x, expected, device):
    """Exact for integers, bools and the ops computed exactly; floats within
    a few ulp of their type (division and conversion to complex may round
    differently on the GPU)."""
    expected = np.asarray(expected)
    if expected.dtype.kind in "fc":
        got = ember.asnumpy(x)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        tol = {2: 2e-3, 4: 2e-6, 8: 1e-14, 16: 1e-14}[
            expected.dtype.itemsize if expected.dtype.kind == "f"
            else expected.dtype.itemsize // 2]
        np.testing.assert_allclose(got, expected, rtol=tol, atol=0,
                                   equal_nan=True)
    else:
        assert_array_equal_np(x, expected, device)


@SETTINGS
@given(data=st.data())
def test_binary_ufuncs_match_numpy(device, data):
    """Any two broadcastable shapes, any pair of dtypes, any layouts."""
    (sa, sb) = data.draw(broadcastable_pair())
    da, db = data.draw(dtypes), data.draw(dtypes)
    name = data.draw(st.sampled_from(BINARY))
    a = data.draw(values(da, sa))
    b = data.draw(values(db, sb))
    ka, ba = data.draw(layouts(a))
    kb, bb = data.draw(layouts(b))
    try:
        expected = numpy_result(getattr(np, name), a, b)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(ember, name)(view_of(ember.asarray(ba, device=device), ka),
                                 view_of(ember.asarray(bb, device=device), kb))
        return
    xa = view_of(ember.asarray(ba, device=device), ka)
    xb = view_of(ember.asarray(bb, device=device), kb)
    got = ember_or_error(getattr(ember, name), xa, xb)
    exact = name not in ("true_divide",) and np.asarray(expected).dtype.kind != "c"
    if exact and np.asarray(expected).dtype.kind != "f":
        assert_array_equal_np(got, expected, device)
    else:
        assert_close(got, expected, device)


@SETTINGS
@given(data=st.data())
def test_unary_ufuncs_and_python_scalars(device, data):
    """Unary ufuncs on any layout, and a weak Python scalar on the right
    (NEP 50: the array's dtype wins when the value fits)."""
    dt = data.draw(dtypes)
    a = data.draw(values(dt, data.draw(shapes)))
    kind, base = data.draw(layouts(a))
    x = view_of(ember.asarray(base, device=device), kind)
    name = data.draw(st.sampled_from(UNARY))
    try:
        expected = numpy_result(getattr(np, name), a)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(ember, name)(x)
        return
    assert_close(ember_or_error(getattr(ember, name), x), expected, device)
    scalar = data.draw(st.sampled_from([0, 1, 3, True, 1.5]))
    try:
        expected = numpy_result(np.multiply, a, scalar)
    except (TypeError, OverflowError) as exc:
        with pytest.raises(type(exc)):
            ember.multiply(x, scalar)
        return
    assert_close(ember_or_error(ember.multiply, x, scalar), expected, device)


@SETTINGS
@given(data=st.data())
def test_views_and_copies_match_numpy(device, data):
    """Slicing with any steps, transposes and reshapes, then a copy back."""
    dt = data.draw(dtypes)
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0,
                                       max_side=6))
    a = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape).astype(dt)
    x = ember.asarray(a, device=device)
    idx = data.draw(hnp.basic_indices(shape, allow_newaxis=True,
                                      allow_ellipsis=True))
    assert_array_equal_np(x[idx], a[idx], device)
    perm = data.draw(st.permutations(range(a.ndim)))
    assert_array_equal_np(x.transpose(perm), a.transpose(perm), device)
    assert_array_equal_np(ember.ascontiguousarray(x.transpose(perm)),
                          np.ascontiguousarray(a.transpose(perm)), device)
    order = data.draw(st.sampled_from("CF"))
    assert_array_equal_np(x.transpose(perm).reshape(-1, order=order),
                          a.transpose(perm).reshape(-1, order=order), device)


@SETTINGS
@given(data=st.data())
def test_setitem_broadcasts_and_casts(device, data):
    """x[idx] = value for a basic index and a broadcastable value of another
    dtype, as NumPy's assignment (unsafe casting) does."""
    dt = data.draw(dtypes)
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1,
                                       max_side=5))
    a = np.zeros(shape, dtype=dt)
    x = ember.asarray(a, device=device)
    idx = data.draw(hnp.basic_indices(shape))
    target = a[idx].shape
    # A shape that broadcasts TO target: leading axes dropped, others 1.
    drop = data.draw(st.integers(0, len(target)))
    vshape = tuple(1 if data.draw(st.booleans()) else n
                   for n in target[drop:])
    vdt = data.draw(st.sampled_from([np.int16, np.float32, np.bool_]))
    v = (np.arange(int(np.prod(vshape)), dtype=np.int64) % 7).reshape(vshape).astype(vdt)
    if dt.kind != "c" and v.dtype.kind == "c":
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a[idx] = v
    x[idx] = ember.asarray(v, device=device)
    assert_array_equal_np(x, a, device)
