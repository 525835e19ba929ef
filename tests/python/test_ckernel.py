"""ember.ElementwiseKernel and ember.ReductionKernel (CuPy's spellings)
against NumPy, on every device. On cpu each new variant's CUDA twin is
also compiled with NVRTC (to PTX for sm_90) when NVRTC is present, so the
GPU code is checked on machines without a GPU."""
import numpy as np
import pytest

import ember
from conftest import HAVE_NVRTC
from helpers import assert_array_equal_np

EK = ember.ElementwiseKernel
RK = ember.ReductionKernel


def mk(kernel, device):
    if device == "cpu" and HAVE_NVRTC:
        kernel._set_check_cuda(True)
    return kernel


def arr(x, device):
    return ember.asarray(np.asarray(x), device=device)


SQD = EK("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)",
         "squared_diff")
SQDG = EK("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff_generic")
ADDREV = EK("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]",
            "add_reverse")
PLUSI = EK("T x", "T y", "y = x + i", "plus_index")
COPY = EK("T x", "T y", "y = x", "copy_k")
L2 = RK("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
SUM = RK("T x", "T y", "x", "a + b", "y = a", "0", "sum_k")
MAXR = RK("T x", "T y", "x", "a > b ? a : b", "y = a", None, "max_k")


# ---- ElementwiseKernel ----------------------------------------------------

def test_squared_diff_broadcast(device):
    k = mk(SQD, device)
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    y = np.arange(5, dtype=np.float32)
    z = k(arr(x, device), arr(y, device))
    assert_array_equal_np(z, (x - y) * (x - y), device)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.uint8,
                                np.int64])
def test_placeholder_dtypes(device, dt):
    k = mk(SQDG, device)
    x = (np.arange(37) % 11).astype(dt)
    y = (np.arange(37)[::-1] % 7).astype(dt)
    assert_array_equal_np(k(arr(x, device), arr(y, device)),
                          (x - y) * (x - y), device)
    # a Python scalar takes the arrays' type, as in CuPy
    assert_array_equal_np(k(arr(x, device), 3),
                          ((x - dt(3)) * (x - dt(3))).astype(dt), device)


def test_scalars_only_with_size(device):
    k = mk(EK("T a, T b", "raw T z", "z[i] = a * b + i", "scal_sz"), device)
    z = ember.zeros(6, dtype=ember.float64, device=device)
    k(2.5, 2.0, z, size=6)
    assert_array_equal_np(z, 5.0 + np.arange(6), device)


def test_two_placeholders_and_bool_out(device):
    k = mk(EK("T x, U y", "bool z, T w", "z = x > y; w = x * 2", "two_ph"),
           device)
    x = np.array([1.5, -2, 3, np.nan, -0.0], np.float32)
    y = np.array([1, -3, 5, 0, 0], np.int32)
    z, w = k(arr(x, device), arr(y, device))
    assert_array_equal_np(z, x > y, device)
    assert_array_equal_np(w, x * 2, device)


def test_raw_argument(device):
    k = mk(ADDREV, device)
    x = np.arange(9, dtype=np.float32)
    y = np.arange(9, dtype=np.float32) * 10
    assert_array_equal_np(k(arr(x, device), arr(y, device)),
                          x + y[::-1], device)
    # a strided raw argument is read through a contiguous copy
    y2 = np.arange(18, dtype=np.float32) * 10
    assert_array_equal_np(k(arr(x, device), arr(y2, device)[::2]),
                          x + y2[::2][::-1], device)


def test_raw_size_method(device):
    k = mk(EK("raw T y", "T z", "z = y.size() + i", "rawsize"), device)
    z = ember.empty(4, dtype=ember.int64, device=device)
    k(arr(np.zeros(7, np.int64), device), z)
    assert_array_equal_np(z, 7 + np.arange(4), device)


def test_index_i(device):
    k = mk(PLUSI, device)
    x = np.zeros((3, 4), np.int64)
    assert_array_equal_np(k(arr(x, device)), np.arange(12).reshape(3, 4),
                          device)


@pytest.mark.parametrize("n", [0, 1, 2, 255, 257, 4095, 4097, 65537])
def test_sizes(device, n):
    k = mk(COPY, device)
    x = np.linspace(-1, 1, n).astype(np.float64)
    assert_array_equal_np(k(arr(x, device)), x, device)


def test_large(device):
    k = mk(SQDG, device)
    x = np.arange(3_000_001, dtype=np.float64)
    y = np.float64(1.5)
    assert_array_equal_np(k(arr(x, device), y), (x - y) * (x - y), device)


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_16_bit_floats(device, dt):
    k = mk(SQDG, device)
    x = np.linspace(-3, 3, 40).astype(np.float32)
    y = np.float32(0.5)
    ex = ember.asarray(x, device=device).astype(dt)
    r = k(ex, ember.asarray(np.full(40, y), device=device).astype(dt))
    assert r.dtype == ember.dtype(dt)
    xr = ember.asnumpy(ex.astype("float32"))
    exp = ember.asnumpy(ember.asarray((xr - y) * (xr - y)).astype(dt)
                        .astype("float32"))
    np.testing.assert_array_equal(ember.asnumpy(r.astype("float32")), exp)
    # a scalar argument, an in-place output, and a reduction
    inc = mk(EK("T x, T s", "T y", "y += x * s", "inc16"), device)
    acc = ember.zeros(40, dtype=dt, device=device)
    inc(ex, 2.0, acc)
    np.testing.assert_array_equal(ember.asnumpy(acc.astype("float32")),
                                  ember.asnumpy((ex * 2).astype("float32")))
    s = mk(SUM, device)(ex)
    assert s.dtype == ember.dtype(dt)
    assert abs(float(ember.asnumpy(s.astype("float32"))) - xr.sum()) < 0.1
    with pytest.raises(NotImplementedError, match="raw"):
        ADDREV(ex, ex)


def test_special_values_pass_through(device):
    k = mk(COPY, device)
    x = np.array([np.nan, -0.0, np.inf, -np.inf, 0.0, 1e-310], np.float64)
    assert_array_equal_np(k(arr(x, device)), x, device)


def test_layouts(device):
    k = mk(SQDG, device)
    a = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    b = np.arange(20, dtype=np.float32).reshape(4, 5)[::-1]
    ea = arr(a, device)
    cases = [
        (ea.transpose(2, 0, 1), a.transpose(2, 0, 1), np.float32(2),
         np.float32(2)),
        (ea[:, ::2, 1:], a[:, ::2, 1:], arr(b, device)[::2, 1:], b[::2, 1:]),
        (ea, a, arr(b, device), b),
        (ea[1], a[1], arr(a[:, :, :1].copy(), device)[0],
         a[:, :, :1][0]),
    ]
    for ex, nx, ey, ny in cases:
        assert_array_equal_np(k(ex, ey), (nx - ny) * (nx - ny), device)


def test_out_given_and_in_place(device):
    k = mk(SQDG, device)
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    y = np.arange(4, dtype=np.float64)
    out = ember.zeros((3, 4), dtype=ember.float64, device=device)
    r = k(arr(x, device), arr(y, device), out)
    assert r is out
    assert_array_equal_np(out, (x - y) ** 2, device)
    # a strided output
    big = ember.zeros((3, 8), dtype=ember.float64, device=device)
    k(arr(x, device), arr(y, device), big[:, ::2])
    exp = np.zeros((3, 8))
    exp[:, ::2] = (x - y) ** 2
    assert_array_equal_np(big, exp, device)
    # the output's type binds the placeholder
    inc = mk(EK("T x", "T y", "y += x", "inc_k"), device)
    acc = arr(np.ones(5, np.int32), device)
    inc(arr(np.arange(5, dtype=np.int32), device), acc)
    assert_array_equal_np(acc, 1 + np.arange(5, dtype=np.int32), device)


def test_return_modes(device):
    k = mk(EK("T x", "T y", "y = x * 2", "twice", return_tuple=True), device)
    r = k(arr(np.arange(3.0), device))
    assert isinstance(r, tuple) and len(r) == 1
    assert_array_equal_np(r[0], np.arange(3.0) * 2, device)
    k2 = mk(EK("T x", "T y", "y = x * 2", "twice", no_return=True), device)
    assert k2(arr(np.arange(3.0), device)) is None


def test_preamble_loop_prep_after_loop(device):
    k = mk(EK("T x", "T y", "y = sq(x) + bias", "pre_k",
              preamble="__device__ double sq(double v) { return v * v; }",
              loop_prep="double bias = 0.5;", after_loop="(void)bias;"),
           device)
    x = np.arange(10, dtype=np.float64)
    assert_array_equal_np(k(arr(x, device)), x * x + 0.5, device)


def test_numpy_input_is_copied(device):
    with ember.Device(device):
        k = mk(SQDG, device)
        x = np.arange(5, dtype=np.float64)
        assert_array_equal_np(k(x, x[::-1].copy()), (x - x[::-1]) ** 2)


def test_specialisation_cache(device):
    k = mk(EK("T x", "T y", "y = x + 1", "cache_k"), device)
    for _ in range(3):
        k(arr(np.arange(4, dtype=np.float32), device))
    assert k._cached_count() == 1
    k(arr(np.arange(4, dtype=np.float64), device))
    assert k._cached_count() == 2


def test_attributes():
    assert SQD.name == "squared_diff"
    assert (SQD.nin, SQD.nout, SQD.nargs) == (2, 1, 3)
    assert SQD.in_params == "float32 x, float32 y"
    assert "squared_diff" in repr(SQD)


def test_type_errors(device):
    k = mk(SQD, device)
    with pytest.raises(TypeError, match="'x'.*int32.*float32"):
        k(arr(np.arange(3, dtype=np.int32), device),
          arr(np.arange(3, dtype=np.float32), device))
    g = mk(SQDG, device)
    with pytest.raises(TypeError, match="'y'.*float64.*T is already float32"):
        g(arr(np.arange(3, dtype=np.float32), device),
          arr(np.arange(3, dtype=np.float64), device))
    out = ember.zeros(3, dtype=ember.float64, device=device)
    with pytest.raises(TypeError, match="float32"):
        g(arr(np.arange(3, dtype=np.float32), device),
          arr(np.arange(3, dtype=np.float32), device), out)
    nobind = EK("T x", "U y", "y = x", "nobind")
    with pytest.raises(TypeError, match="cannot determine the type U of 'y'"):
        nobind(arr(np.arange(3.0), device))
    with pytest.raises(TypeError, match="raw parameter 'y' needs an array"):
        ADDREV(arr(np.arange(3.0), device), 2.0)
    with pytest.raises(TypeError, match="Wrong number of arguments"):
        SQD(arr(np.arange(3.0), device))
    with pytest.raises(TypeError, match="must be an ember ndarray"):
        COPY(arr(np.arange(3.0), device), np.zeros(3))
    with pytest.raises(NotImplementedError, match="complex64"):
        COPY(arr(np.arange(3, dtype=np.complex64), device))


def test_value_errors(device):
    with pytest.raises(ValueError, match="cannot parse"):
        EK("T", "T y", "y = 1")
    with pytest.raises(ValueError, match="C type"):
        EK("float x", "float y", "y = x")
    with pytest.raises(ValueError, match="appears twice"):
        EK("T x, T x", "T y", "y = x")
    with pytest.raises(ValueError, match="not a C identifier"):
        EK("T x", "T y", "y = x", name="my kernel")
    with pytest.raises(ValueError, match="broadcast|shape"):
        SQDG(arr(np.zeros(3), device), arr(np.zeros(4), device))
    out = ember.zeros((1, 3), dtype=ember.float64, device=device)
    with pytest.raises(ValueError, match=r"output 'y' has shape \(1, 3\)"):
        COPY(arr(np.zeros((2, 3)), device), out)
    # an output larger than the inputs broadcasts them, as NumPy's out=
    out = ember.zeros((2, 3), dtype=ember.float64, device=device)
    COPY(arr(np.arange(3.0), device), out)
    assert_array_equal_np(out, np.tile(np.arange(3.0), (2, 1)), device)
    with pytest.raises(ValueError, match="size="):
        EK("raw T x", "raw T y", "y[i] = x[i]", "needsize")(
            arr(np.zeros(3), device), arr(np.zeros(3), device))
    with pytest.raises(ValueError, match="size= is given"):
        COPY(arr(np.zeros(3), device), size=3)
    with pytest.raises(ValueError, match="raw output 'y' must be given"):
        EK("T x", "raw T y", "y[i] = x", "rawout")(arr(np.zeros(3), device))


def test_compile_error(device):
    k = mk(EK("T x", "T y", "y = x +* undefined_thing", "broken_k"), device)
    with pytest.raises(ember.CompileError) as e:
        k(arr(np.zeros(3), device))
    msg = str(e.value)
    assert "broken_k" in msg and "y = x +* undefined_thing" in msg
    assert "error" in msg


# ---- ReductionKernel ------------------------------------------------------

def test_l2norm(device):
    k = mk(L2, device)
    x = np.arange(10, dtype=np.float32).reshape(2, 5)
    r = k(arr(x, device), axis=1)
    np.testing.assert_allclose(ember.asnumpy(r),
                               np.sqrt((x * x).sum(axis=1)), rtol=1e-6)
    assert r.dtype == ember.float32 and r.shape == (2,)
    r = k(arr(x, device))
    assert r.shape == ()
    np.testing.assert_allclose(ember.asnumpy(r), np.sqrt((x * x).sum()),
                               rtol=1e-6)


@pytest.mark.parametrize("n", [0, 1, 2, 31, 33, 255, 257, 1025])
def test_sum_sizes(device, n):
    k = mk(SUM, device)
    x = np.arange(n, dtype=np.int64) - n // 3
    assert_array_equal_np(k(arr(x, device)), np.array(x.sum()), device)


def test_sum_large_exact(device):
    k = mk(SUM, device)
    x = (np.arange(3_000_003, dtype=np.int64) * 7919) % 1000 - 500
    assert_array_equal_np(k(arr(x, device)), np.array(x.sum()), device)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, (0, 2), (1, 2), (0, 1, 2),
                                  ()])
def test_axes_keepdims(device, axis):
    k = mk(SUM, device)
    x = (np.arange(2 * 3 * 70, dtype=np.int64) % 13).reshape(2, 3, 70)
    assert_array_equal_np(k(arr(x, device), axis=axis),
                          x.sum(axis=axis), device)
    assert_array_equal_np(k(arr(x, device), axis=axis, keepdims=True),
                          x.sum(axis=axis, keepdims=True), device)


def test_axis_of_arrays_refused(device):
    # the entries of an array axis are arrays the sequence alone owns: the
    # error named one after letting go of it, a use after free (fuzzer)
    k = mk(SUM, device)
    x = arr(np.arange(6, dtype=np.int64).reshape(2, 3), device)
    for axis in (ember.asarray([1, 0], device=device),
                 ember.asarray(np.ones((2, 3), "uint64"), device=device)):
        with pytest.raises(TypeError, match="axis entries must be ints"):
            k(x, axis=axis)


def test_strided_reduction(device):
    k = mk(SUM, device)
    x = (np.arange(40 * 30, dtype=np.int64) % 17).reshape(40, 30)
    ex = arr(x, device)
    for e, n in [(ex.T, x.T), (ex[::3, 1::2], x[::3, 1::2])]:
        assert_array_equal_np(k(e, axis=0), n.sum(axis=0), device)
        assert_array_equal_np(k(e, axis=1), n.sum(axis=1), device)


def test_long_reductions(device):
    # few outputs of long reductions run in two passes (partials per chunk)
    rng = np.random.default_rng(5)
    x = rng.random(1_000_003).astype(np.float32)
    r = mk(L2, device)(arr(x, device))
    np.testing.assert_allclose(ember.asnumpy(r),
                               np.sqrt((x.astype(np.float64) ** 2).sum()),
                               rtol=1e-5)
    y = -rng.random(700_001)
    y[-1] = 3.0
    assert_array_equal_np(mk(MAXR, device)(arr(y, device)), np.array(3.0),
                          device)
    m = (np.arange(2 * 300_000, dtype=np.int64) % 1000).reshape(2, 300_000)
    assert_array_equal_np(mk(SUM, device)(arr(m, device), axis=1),
                          m.sum(axis=1), device)
    assert_array_equal_np(mk(MAXR, device)(arr(m.T, device), axis=0),
                          m.max(axis=1), device)
    # many outputs contiguous in memory, reduced along a strided axis
    c = (np.arange(100 * 70, dtype=np.int64) * 37 % 101 - 50).reshape(100, 70)
    assert_array_equal_np(mk(SUM, device)(arr(c, device), axis=0),
                          c.sum(axis=0), device)
    assert_array_equal_np(mk(MAXR, device)(arr(c, device), axis=0),
                          c.max(axis=0), device)
    c32 = c.astype(np.float32)
    assert_array_equal_np(mk(L2, device)(arr(c32, device), axis=0),
                          np.sqrt((c32 * c32).sum(axis=0)), device)
    c3 = c.reshape(10, 10, 70)
    assert_array_equal_np(mk(SUM, device)(arr(c3, device), axis=(0, 1),
                                          keepdims=True),
                          c3.sum(axis=(0, 1), keepdims=True), device)


def test_max_without_identity(device):
    k = mk(MAXR, device)
    x = np.array([[-5.0, -3.0, -7.0], [-1.0, -9.0, -2.0]])
    assert_array_equal_np(k(arr(x, device), axis=1), x.max(axis=1), device)
    assert_array_equal_np(k(arr(x, device)), np.array(x.max()), device)
    with pytest.raises(ValueError, match="zero-size.*no identity"):
        k(arr(np.zeros((0,)), device))
    # an empty output is fine
    assert k(arr(np.zeros((0, 3)), device), axis=1).shape == (0,)


def test_two_inputs_and_reduce_type(device):
    dot = mk(RK("T x, T y", "T z", "x * y", "a + b", "z = a", "0", "dot_k"),
             device)
    x = np.arange(100, dtype=np.float64)
    assert_array_equal_np(dot(arr(x, device), arr(x, device)),
                          np.array((x * x).sum()), device)
    # broadcasting of the inputs
    m = np.arange(12, dtype=np.float64).reshape(3, 4)
    v = np.arange(4, dtype=np.float64)
    assert_array_equal_np(dot(arr(m, device), arr(v, device), axis=1),
                          m @ v, device)
    wide = mk(RK("float32 x", "float64 y", "x", "a + b", "y = a", "0",
                 "wide_sum", reduce_type=np.float64), device)
    x32 = np.full(5000, 0.1, np.float32)
    r = wide(arr(x32, device))
    assert r.dtype == ember.float64
    np.testing.assert_allclose(ember.asnumpy(r),
                               x32.astype(np.float64).sum(), rtol=1e-12)


def test_reduction_out_and_errors(device):
    k = mk(SUM, device)
    x = np.arange(12, dtype=np.int64).reshape(3, 4)
    out = ember.zeros(3, dtype=ember.int64, device=device)
    assert k(arr(x, device), axis=1, out=out) is out
    assert_array_equal_np(out, x.sum(axis=1), device)
    with pytest.raises(ValueError, match="shape"):
        k(arr(x, device), axis=0, out=out)
    with pytest.raises(ember.AxisError):
        k(arr(x, device), axis=2)
    with pytest.raises(ValueError, match="duplicate"):
        k(arr(x, device), axis=(0, 0))
    with pytest.raises(TypeError, match="Type is mismatched"):
        k(arr(x, device), out=ember.zeros((), dtype=ember.float64,
                                          device=device))
    bad = mk(RK("T x", "T y", "x", "a ++ b +", "y = a", "0", "bad_red"),
             device)
    with pytest.raises(ember.CompileError, match="bad_red"):
        bad(arr(x, device))
