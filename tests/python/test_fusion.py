"""Automatic fusion and ember.fuse (issue 25, parts 1, 2 and 5; docs/fusion.md).

Every fused result is compared byte for byte with the same code run eagerly
(`ember.fusion(False)`), and where the value is exact also with NumPy, so a
fused kernel that computes a different value, in any bit, fails. Launch
counts (`_fusion_launches()`) show that the fused path really ran: on cpu a
group runs fused only from 65,536 elements (src/fuse/record.c), so the
arrays here are larger than that.
"""
import operator
import threading
import warnings

import numpy as np
import pytest

import ember
from ember import _ember
from ember._api.fusion import _kernel_name

from helpers import run_python

N = 70_000                 # over the cpu device's smallest fused group
ROWS, COLS = 280, 250      # 70,000 elements as a matrix


def launches():
    return _ember._fusion_launches()


def pending():
    return _ember._fusion_pending()


@pytest.fixture
def dev(device):
    with ember.Device(device):
        yield device
    # a test that fails half way leaves no group or override behind
    _ember._fusion_flush()
    _ember._fusion_state(-1)


def put(h, device):
    # a copy: on cpu ember.asarray of a NumPy array is a view of NumPy's
    # memory, which the core never records (test_numpy_memory_is_read_at_once)
    return ember.array(h, device=device)


def values(dtype, shape=N, seed=0, nonzero=False):
    """Values of dtype that exercise it: both signs, fractions, large and
    small magnitudes for floats; small integers for integer dtypes."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        v = rng.integers(0, 2, shape).astype(bool)
        return np.ones(shape, bool) if nonzero else v
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(max(info.min, -100), min(info.max, 100), shape,
                         endpoint=True).astype(dt)
        if nonzero:
            v[v == 0] = 7
        return v
    v = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 4, shape)
    if dt.kind == "c":
        v = v + 1j * rng.standard_normal(shape)
    return v.astype(dt)


def kernels(device, *dtypes):
    """The fused kernels one group of operations over dtypes makes: none
    on cpu where a complex dtype takes part (there complex operations run
    op by op: GCC compiles a complex multiply inside a larger loop into
    other instructions than eager's, src/fuse/record.c), else one."""
    if device == "cpu" and any(np.dtype(d).kind == "c" for d in dtypes):
        return 0
    return 1


def assert_same_bits(got, want):
    """The same dtype, shape and bytes (NaN payloads and zero signs too)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(np.ascontiguousarray(got).view(np.uint8),
                                  np.ascontiguousarray(want).view(np.uint8))


def assert_same_values(got, want):
    """The same dtype, shape and values, NaN equal to NaN whatever its
    bits (a GPU makes its own NaNs), zeros of the same sign."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    if got.dtype.kind == "c":
        got, want = np.stack([got.real, got.imag]), np.stack([want.real,
                                                              want.imag])
    if got.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(got) | np.isnan(got),
                                      np.signbit(want) | np.isnan(want))


def _as_list(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


def run_both(device, fn, *hosts, fused_launches=None):
    """fn over fresh device copies of hosts, eagerly and fused; asserts the
    results have the same bytes and returns the fused ones on the host.
    fused_launches: the exact number of fused kernels the fused run makes
    (None: at least one); the eager run must make none."""
    out = {}
    for on in (False, True):
        args = [put(h, device) for h in hosts]
        with ember.fusion(on):
            n0 = launches()
            res = _as_list(fn(*args))
            if not on:
                assert pending() == 0
            host = [ember.asnumpy(r) if isinstance(r, ember.ndarray) else r
                    for r in res]
            made = launches() - n0
        assert pending() == 0
        if on:
            if fused_launches is None:
                assert made >= 1, "nothing was fused"
            else:
                assert made == fused_launches
        else:
            assert made == 0, "eager ran a fused kernel"
        out[on] = host
    for f, e in zip(out[True], out[False]):
        assert_same_bits(f, e)
    return out[True]


# ---- values over dtypes ----------------------------------------------------

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "uint32", "uint64", "float16", "float32", "float64", "complex64",
          "complex128"]


def exprs(kind):
    """A group of elementwise expressions over x, y and nz (y without
    zeros) that NumPy defines for dtypes of this kind."""
    if kind == "b":
        return lambda x, y, nz: [(x & y) | ~x, x ^ y, x == y, x + y, x * y,
                                 ember.logical_and(x, ~y), x < y]
    if kind in "iu":
        return lambda x, y, nz: [x * y + x - y, x // nz, x % nz, (x ^ y) & x,
                                 -x, x < y, ember.maximum(x, y) * 3 + 1,
                                 x == nz]
    if kind == "f":
        return lambda x, y, nz: [x * y + x - y, ember.sqrt(ember.abs(x)) * y,
                                 x / nz, ember.exp(x / 100), ember.sin(x),
                                 x < y, ember.maximum(x, y), ember.floor(x),
                                 x ** 2]
    return lambda x, y, nz: [x * y + x - y, x / nz, ember.abs(x),
                             ember.sqrt(x), ember.exp(x / 10), x == y,
                             ember.conj(x) * y]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dtypes_bit_identical(dev, dtype):
    # N + 3 elements: a tail past any vector width; the second group reads
    # views one element off, so no vector load of them is aligned
    x, y = values(dtype, N + 3, seed=1), values(dtype, N + 3, seed=2)
    nz = values(dtype, N + 3, seed=3, nonzero=True)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = run_both(dev, exprs(np.dtype(dtype).kind), x, y, nz,
                       fused_launches=kernels(dev, dtype))
        def off_by_one(a, b):
            a1, b0, a0 = a[1:], b[:-1], a[:-1]
            return (a1 * b0) + a0
        off = run_both(dev, off_by_one, x, y,
                       fused_launches=kernels(dev, dtype))
        want = (x[1:] * y[:-1]) + x[:-1]
        if np.dtype(dtype).kind == "c":
            # NumPy 2.5 on a host with FMA contracts its complex multiply
            # (2.4 did not), so its bits are not a reference there; run_both
            # already held the fused result to eager's bits
            eps = np.finfo(np.dtype(dtype)).eps
            bound = 4 * eps * (np.abs(x[1:]) * np.abs(y[:-1]) + np.abs(x[:-1]))
            assert (np.abs(np.asarray(off[0]) - want) <= bound).all()
        else:
            assert_same_values(off[0], want)
        # the first expression is exact for integers: NumPy's value too
        if np.dtype(dtype).kind in "iu":
            assert_same_bits(got[0], x * y + x - y)
            assert_same_bits(got[1], x // nz)


def test_special_float_values(dev):
    x = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, 3.4e38,
                  -1.0, 1.0] * 7000, np.float32)
    y = np.roll(x, 3)
    with np.errstate(all="ignore"):
        got = run_both(dev, lambda a, b: [a * b + a, a / b, ember.sqrt(a) - b,
                                          ember.minimum(a, b) * -1.0],
                       x, y, fused_launches=1)
        assert_same_values(got[0], x * y + x)
        assert_same_values(got[1], x / y)


def test_no_fma_contraction(dev):
    # c = -(a*b rounded to float32): with a rounding after the product the
    # sum is exactly 0; fma(a, b, c) would give the product's rounding error
    rng = np.random.default_rng(4)
    a = rng.random(N, dtype=np.float32) + np.float32(1)
    b = rng.random(N, dtype=np.float32) + np.float32(1)
    c = -(a * b)
    exact = a.astype(np.float64) * b + c      # what fma would keep
    assert np.count_nonzero(exact) > N // 2   # the test can tell them apart
    got = run_both(dev, lambda x, y, z: x * y + z, a, b, c, fused_launches=1)
    assert_same_bits(got[0], a * b + c)
    assert not got[0].any()


# ---- broadcasting, scalars, promotion --------------------------------------

def test_broadcast_row_column_scalar_0d(dev):
    row = values("float32", COLS, seed=5)
    col = values("float32", (ROWS, 1), seed=6)
    m = values("float32", (ROWS, COLS), seed=7)
    zero_d = np.array(2.5, np.float32)

    def f(r, c, mm, z):
        t = r + c                         # (ROWS, COLS) from a row and a column
        return [t * mm - z, (t > 0) & (mm < z), t / 3.0 + 1]
    got = run_both(dev, f, row, col, m, zero_d, fused_launches=1)
    assert_same_bits(got[0], (row + col) * m - zero_d)
    assert_same_bits(got[1], ((row + col) > 0) & (m < zero_d))


@pytest.mark.parametrize("dtype,scalar,op", [
    ("uint8", 200, operator.add), ("int8", -3, operator.mul),
    ("int32", 1.5, operator.mul), ("float16", 2.5, operator.sub),
    ("float32", 1j, operator.add), ("int16", True, operator.add),
    ("int64", 2.0, operator.truediv), ("uint16", 3, operator.floordiv),
    ("bool", 1.5, operator.mul), ("complex64", 2.0, operator.mul),
    ("uint64", 2**63, operator.add), ("float32", 1e30, operator.mul),
])
def test_weak_python_scalars(dev, dtype, scalar, op):
    x = values(dtype, seed=8, nonzero=True)
    if x.dtype.kind in "iu":
        x = np.abs(x)          # no negative integers under floor division
    with np.errstate(all="ignore"):
        want = [op(x, scalar), op(scalar, x)]
    got = run_both(dev, lambda a: [op(op(a, scalar), scalar), op(a, scalar),
                                   op(scalar, a)], x,
                   fused_launches=kernels(dev, want[0].dtype))
    # NEP 50: the Python scalar does not widen the array's dtype
    assert got[1].dtype == want[0].dtype and got[2].dtype == want[1].dtype
    if np.dtype(dtype).kind in "iub":
        assert_same_bits(got[1], want[0])


def test_python_int_out_of_range_raises_as_eager(dev):
    x = put(values("uint8", seed=9), dev)
    with ember.fusion(True):
        t = x * 2
        assert pending() >= 1
        with pytest.raises(OverflowError) as fused:
            x + 300
        del t
    with ember.fusion(False):
        with pytest.raises(OverflowError) as eager:
            x + 300
    assert str(fused.value) == str(eager.value)


@pytest.mark.parametrize("a_t,b_t", [
    ("int8", "uint8"), ("int8", "int64"), ("uint8", "float16"),
    ("int32", "float32"), ("uint64", "int64"), ("float32", "float64"),
    ("float32", "complex64"), ("bool", "int8"), ("uint32", "int8"),
    ("float16", "int64")])
def test_mixed_dtype_promotion(dev, a_t, b_t):
    a, b = values(a_t, seed=10), values(b_t, seed=11, nonzero=True)
    with np.errstate(all="ignore"):
        want = [a + b, a * b - a, a < b]
        got = run_both(dev, lambda x, y: [x + y, x * y - x, x < y], a, b,
                       fused_launches=kernels(dev, a_t, b_t))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
    if np.result_type(a, b).kind in "iub":
        assert_same_bits(got[0], want[0])
        assert_same_bits(got[1], want[1])
    assert_same_bits(got[2], want[2])


def test_strided_and_high_rank_layouts(dev):
    # leaves that are not C-ordered over the group's shape: transposed,
    # stepped, reversed, broadcast along middle axes, rank 5
    m = values("float32", (ROWS, COLS), seed=53)
    t3 = values("float64", (10, 70, 100), seed=54)
    mid = values("float64", (10, 1, 100), seed=55)
    r5 = values("int32", (4, 5, 6, 7, 100), seed=56)

    def f(mm, a3, b3, c5):
        return [mm.T * 2 - mm.T[::-1], mm[:, ::2] + mm[:, 1::2],
                a3 * b3 - b3, (a3[:, ::-1, :] + b3) * a3.transpose(0, 1, 2),
                c5 * 3 + c5.transpose(1, 0, 2, 3, 4).transpose(1, 0, 2, 3, 4),
                c5[:, :, :, ::-1, :] - c5]
    got = run_both(dev, f, m, t3, mid, r5)
    assert_same_bits(got[0], m.T * np.float32(2) - m.T[::-1])
    assert_same_bits(got[4], r5 * 3 + r5)
    assert_same_bits(got[5], r5[:, :, :, ::-1, :] - r5)


def test_empty_and_zero_d(dev):
    # a group over no elements, and over one: nothing fused runs for the
    # first, and the values are eager's for both
    e = np.zeros((0, 4), np.float32)
    z = np.array(3.5, np.float64)
    for on in (False, True):
        with ember.fusion(on):
            x, y = put(e, dev), put(z, dev)
            r = [x * 2 + 1, (x > 0) | (x < 1), y * y - 1, ember.sqrt(y) + y]
            host = [ember.asnumpy(v) for v in r]
        assert_same_bits(host[0], e * np.float32(2) + np.float32(1))
        assert_same_bits(host[1], (e > 0) | (e < 1))
        assert_same_bits(host[2], z * z - 1)
        assert_same_bits(host[3], np.sqrt(z) + z)


# ---- long chains and the group's bounds ------------------------------------

def chain(x, n):
    y = x
    for i in range(n):
        y = (y * 1.0001 + 0.5) if i % 2 == 0 else (y - x * 0.25)
    return y


def test_chain_of_ten_then_sum(dev):
    h = values("float32", seed=12)
    got = run_both(dev, lambda x: chain(x, 10), h, fused_launches=1)
    np.testing.assert_allclose(got[0], chain(h, 10), rtol=1e-5, atol=1e-5)
    # a reduction of a recorded expression: on cuda the reduction's kernel
    # computes the chain where it loads it (no fused launch); on cpu the
    # chain runs first as one loop
    got = run_both(dev, lambda x: chain(x, 10).sum(), h,
                   fused_launches=0 if dev.startswith("cuda") else 1)
    np.testing.assert_allclose(float(got[0]), chain(h, 10).sum(dtype=np.float64),
                               rtol=1e-3)


def test_intermediates_never_take_pool_memory(dev):
    # a chain's temporaries die before its group runs: only the result that
    # is still referenced gets memory from the pool, once, when it runs
    # (eager takes a block an operation)
    x = put(values("float32", seed=13), dev)
    pool = ember.get_default_memory_pool()   # the current device: dev
    _ember._fusion_flush()
    before = pool.stats()["n_allocs"]
    y = chain(x, 10)
    assert pool.stats()["n_allocs"] == before
    ember.asnumpy(y)
    assert pool.stats()["n_allocs"] == before + 1
    with ember.fusion(False):
        before = pool.stats()["n_allocs"]
        chain(x, 10)
        assert pool.stats()["n_allocs"] >= before + 10


def test_chain_past_the_node_bound(dev):
    # 40 binary nodes where the bound is 32 (x * 0.25 is a node too): the
    # group runs when the 33rd arrives, then the rest at the read
    h = values("float64", seed=13)
    ops = [lambda y, x: y * 1.5, lambda y, x: y - x, lambda y, x: y / 1.25,
           lambda y, x: y + x]

    def f(x):
        y = x
        for i in range(40):
            y = ops[i % 4](y, x)
        return y
    got = run_both(dev, f, h, fused_launches=2)
    np.testing.assert_allclose(got[0], f(h), rtol=1e-12)


def test_sum_of_twenty_inputs_past_the_leaf_bound(dev):
    hs = [values("float32", seed=100 + i) for i in range(20)]

    def f(*xs):
        s = xs[0]
        for x in xs[1:]:
            s = s + x
        return s
    got = run_both(dev, f, *hs, fused_launches=2)
    np.testing.assert_allclose(got[0], f(*hs), rtol=1e-5, atol=1e-4)


# ---- in-place operations, aliasing, views ----------------------------------

def test_inplace_add_of_own_product(dev):
    h = values("float32", seed=14)

    def f(a):
        a += a * 2
        a *= a - 1
        return a
    got = run_both(dev, f, h)
    want = h.copy()
    want += want * 2
    want *= want - 1
    assert_same_bits(got[0], want)


def test_write_through_a_view_after_recording(dev):
    h = values("int32", seed=15)

    def f(a):
        b = a[1:]
        c = a * 2
        d = c + a              # a node over a node and the leaf a
        b[...] = 0             # writes a after c and d were recorded
        return [c, d, a]
    got = run_both(dev, f, h)
    assert_same_bits(got[0], h * 2)
    assert_same_bits(got[1], h * 3)
    assert_same_bits(got[2], np.concatenate([h[:1], np.zeros(N - 1, np.int32)]))


@pytest.mark.parametrize("writer", ["setitem", "fill", "ufunc_out", "iadd",
                                    "copyto"])
def test_writes_to_an_input_after_recording(dev, writer):
    h = values("float64", seed=16)
    other = values("float64", seed=17)

    def f(a, o):
        c = a * 3 - 1
        if writer == "setitem":
            a[...] = 7.0
        elif writer == "fill":
            a.fill(7.0)
        elif writer == "ufunc_out":
            ember.multiply(o, 2, out=a)
        elif writer == "iadd":
            a += o
        else:
            ember.copyto(a, o)
        e = c + a              # recorded after the write: sees the new a
        return [c, e, a]
    got = run_both(dev, f, h, other)
    assert_same_bits(got[0], h * 3 - 1)
    assert_same_bits(got[1], (h * 3 - 1) + got[2])


def test_overlapping_views_of_one_buffer(dev):
    h = values("float32", seed=18)
    m = values("float64", (ROWS, ROWS), seed=19)

    def f(a, mm):
        return [a[:-1] * a[1:] + a[:-1], a[::-1] - a, mm.T + mm * 0.5,
                mm[::2, 1::2] * mm[1::2, ::2]]
    got = run_both(dev, f, h, m)
    assert_same_bits(got[0], h[:-1] * h[1:] + h[:-1])
    assert_same_bits(got[1], h[::-1] - h)
    assert_same_bits(got[2], m.T + m * 0.5)


def test_inplace_on_a_pending_result_and_views_of_it(dev):
    h = values("int64", seed=20)

    def f(a):
        c = a * 5
        c += 1                 # out= a pending result
        d = c * 2
        v = d[::3]             # a view of a pending result
        w = d[5:10].copy()
        return [c, d, v, w, d[7], d.sum()]
    got = run_both(dev, f, h)
    assert_same_bits(got[0], h * 5 + 1)
    assert_same_bits(got[1], (h * 5 + 1) * 2)
    assert_same_bits(got[2], ((h * 5 + 1) * 2)[::3])
    assert_same_bits(got[5], ((h * 5 + 1) * 2).sum())


def test_unreferenced_intermediates(dev):
    # only c is left: a * b and its sum with a are never needed again
    h1, h2 = values("float32", seed=21), values("float32", seed=22)

    def f(a, b):
        c = (a * b + a) / 2 - b
        return c
    got = run_both(dev, f, h1, h2, fused_launches=1)
    assert_same_bits(got[0], (h1 * h2 + h1) / np.float32(2) - h2)


def test_numpy_memory_is_read_at_once(dev):
    # ember.asarray may share NumPy's memory (it does on cpu), which can
    # change behind ember's back: such inputs are read when written
    h = values("float32", seed=52)
    keep = h.copy()
    x = ember.asarray(h, device=dev)
    with ember.fusion(True):
        c = x * 2
        d = c + 1
        h[...] = 0
        assert_same_bits(ember.asnumpy(d), keep * np.float32(2) + np.float32(1))
        assert_same_bits(ember.asnumpy(c), keep * np.float32(2))


# ---- errors at the line that wrote the operation ---------------------------

def both_errors(dev, fn):
    """fn's exception with fusion on and off: same type, same message; a
    group recorded before it is still computed right."""
    seen = {}
    h = values("float32", seed=23)
    for on in (True, False):
        a = put(h, dev)
        with ember.fusion(on):
            t = a * 2 + 1
            before = pending()
            with pytest.raises(Exception) as e:
                fn(a)
            if on:
                assert before >= 1
            assert_same_bits(ember.asnumpy(t), h * 2 + 1)
        seen[on] = (type(e.value), str(e.value))
    assert seen[True] == seen[False]
    return seen[True][0]


def test_shape_mismatch_raises_where_written(dev):
    other = put(np.ones(7, np.float32), dev)
    assert issubclass(both_errors(dev, lambda a: a + other), ValueError)


def test_casting_error_with_out_raises_where_written(dev):
    out = ember.zeros(N, dtype=ember.int32, device=dev)
    assert issubclass(both_errors(dev, lambda a: ember.add(a, a, out=out)),
                      TypeError)
    assert not ember.asnumpy(out).any()


def test_casting_error_of_astype_raises_where_written(dev):
    assert issubclass(both_errors(
        dev, lambda a: (a * 2).astype(ember.int16, casting="safe")),
        TypeError)


def test_unsupported_loop_raises_where_written(dev):
    assert issubclass(both_errors(dev, lambda a: a << 1), TypeError)


def test_integer_division_by_zero_as_eager(dev):
    a = np.array([7, -7, 0, 5] * (N // 4), np.int32)
    z = np.tile(np.array([0, 0, 0, 1], np.int32), N // 4)
    caught = {}
    for on in (False, True):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            x, y = put(a, dev), put(z, dev)
            with ember.fusion(on):
                res = [ember.asnumpy(r) for r in (x // y, x % y, (x // y) * 2)]
        caught[on] = (res, sorted(type(m.message).__name__ for m in w
                                  if "divide" in str(m.message)))
    for f, e in zip(caught[True][0], caught[False][0]):
        assert_same_bits(f, e)
    assert caught[True][1] == caught[False][1]
    # NumPy's values where the divisor is not zero
    assert_same_bits(caught[True][0][0][3::4], a[3::4] // 1)


# ---- what runs a group -----------------------------------------------------

@pytest.mark.parametrize("reader", [
    "get", "asnumpy", "np_asarray", "item", "tolist", "index", "slice",
    "setitem", "sum", "copy", "dlpack", "repr", "astype", "where"])
def test_each_reader_runs_the_group(dev, reader):
    h = values("float32", seed=24)
    a = put(h, dev)
    with ember.fusion(True):
        c = a * 2 - 1
        assert pending() == 2
        n0 = launches()
        if reader == "get":
            v = c.get()
        elif reader == "asnumpy":
            v = ember.asnumpy(c)
        elif reader == "np_asarray":
            v = np.asarray(c)
        elif reader == "item":
            v = c[5].item()
        elif reader == "tolist":
            v = c.tolist()
        elif reader == "index":
            v = c[5]
        elif reader == "slice":
            v = c[2:9]
        elif reader == "setitem":
            c[0] = 0.0
            v = c
        elif reader == "sum":
            v = c.sum()
        elif reader == "copy":
            v = c.copy()
        elif reader == "dlpack":
            c.__dlpack__()
            v = c
        elif reader == "repr":
            v = repr(c)
        elif reader == "astype":
            v = c.astype(ember.float64)
        else:
            v = ember.where(c > 0, c, a)
        # astype and where join the group; on cuda a sum computes the
        # expression inside its own kernel and leaves c pending
        assert pending() == 0 or reader in ("astype", "where") or (
            reader == "sum" and dev.startswith("cuda"))
        want = h * np.float32(2) - np.float32(1)
        if reader == "setitem":
            want[0] = 0
        assert_same_bits(ember.asnumpy(c), want)
        assert launches() - n0 == 1
        assert v is not None


def test_cuda_array_interface_runs_the_group(need_cuda):
    with ember.Device("cuda:0"), ember.fusion(True):
        a = put(values("float32", seed=25), "cuda:0")
        c = a + 1
        assert pending() == 1
        c.__cuda_array_interface__
        assert pending() == 0


def test_another_shape_runs_the_group(dev):
    h, m = values("float32", seed=26), values("float32", (ROWS, COLS), seed=27)
    a, b = put(h, dev), put(m, dev)
    with ember.fusion(True):
        n0 = launches()
        c = a * 2 + 1
        d = b * 3 - 1          # another shape: c's group runs now
        assert launches() - n0 == 1
        assert pending() == 2
        assert_same_bits(ember.asnumpy(d), m * np.float32(3) - np.float32(1))
        assert_same_bits(ember.asnumpy(c), h * np.float32(2) + np.float32(1))
        assert launches() - n0 == 2


def test_synchronize_and_event_record_run_the_group(dev):
    h = values("float32", seed=28)
    s = ember.Stream(non_blocking=True)
    ember.get_current_device().synchronize()
    with ember.fusion(True), s:
        a = put(h, dev)
        c = a * a + 2
        assert pending() == 2
        s.synchronize()
        assert pending() == 0
        d = c - a
        assert pending() == 1
        e = ember.Event()
        e.record(s)
        assert pending() == 0
        e.synchronize()
        assert_same_bits(ember.asnumpy(d), (h * h + np.float32(2)) - h)
        f = d * 4
        ember.get_current_device().synchronize()
        assert pending() == 0
    assert_same_bits(ember.asnumpy(f), ((h * h + np.float32(2)) - h) * 4)


def test_two_streams_keep_stream_order(dev):
    h = values("float64", seed=29)
    s1, s2 = ember.Stream(non_blocking=True), ember.Stream(non_blocking=True)
    ember.get_current_device().synchronize()
    with ember.fusion(True):
        with s1:
            a = put(h, dev)
            ready = s1.record()
            c = a * 2
            assert pending() == 1
        with s2:
            s2.wait_event(ready)
            n0 = launches()
            d = a + 1          # another stream: c's group runs first, on s1
            assert launches() - n0 == 1
            assert pending() == 1
        with s1:
            e = c - 1
        s1.synchronize()
        s2.synchronize()
    assert_same_bits(ember.asnumpy(d), h + 1)
    assert_same_bits(ember.asnumpy(e), h * 2 - 1)


def test_stream_order_against_a_later_write(dev):
    h = values("float32", seed=30)
    s = ember.Stream(non_blocking=True)
    ember.get_current_device().synchronize()
    with ember.fusion(True), s:
        a = put(h, dev)
        c = a + 1
        a[...] = put(np.zeros(N, np.float32), dev)   # after c in s's order
        s.synchronize()
    assert_same_bits(ember.asnumpy(c), h + np.float32(1))
    assert not ember.asnumpy(a).any()


# ---- launch counts and the switch ------------------------------------------

def test_launch_counts(dev):
    h = values("float32", seed=31)
    a = put(h, dev)
    for on, want in ((True, 1), (False, 0)):
        with ember.fusion(on):
            n0 = launches()
            y = chain(a, 10)
            y.get()
            assert launches() - n0 == want


def test_fusion_switch_is_per_block_and_restored(dev):
    state = _ember._fusion_state
    before = state()
    assert before in (0, 1)
    with ember.fusion(False):
        assert state() == 0
        with ember.fusion(True):
            assert state() == 1
            with ember.fusion(None):      # EMBER_FUSION's setting
                assert state() == before
        assert state() == 0
    assert state() == before
    with pytest.raises(RuntimeError):
        with ember.fusion(True):
            raise RuntimeError("restored on the way out")
    assert state() == before

    @ember.fusion(False)
    def eager_sum(x):
        assert state() == 0
        return (x * 2 + 1).get()
    a = put(values("float64", seed=32), dev)
    with ember.fusion(True):
        n0 = launches()
        eager_sum(a)
        assert launches() == n0
        assert state() == 1
    with pytest.raises(TypeError):
        ember.fusion("no")


def test_fusion_state_function(dev):
    prev = _ember._fusion_state(0)
    try:
        assert _ember._fusion_state() == 0
        assert _ember._fusion_state(1) == 0     # the previous override
        assert _ember._fusion_state() == 1
    finally:
        _ember._fusion_state(prev)


SUBPROCESS = """
import numpy as np, ember
from ember import _ember
a = ember.array(np.arange(%d, dtype=np.float32), device=%r)
n0 = _ember._fusion_launches()
y = ((a * 2 + 1) - a) / 3
y.get()
print(int(_ember._fusion_state()), _ember._fusion_launches() - n0)
with ember.fusion(True):
    n0 = _ember._fusion_launches()
    ((a * 2 + 1) - a).get()
    print(int(_ember._fusion_state()), _ember._fusion_launches() - n0)
"""


@pytest.mark.parametrize("env,first", [("0", ["0 0"]), ("1", ["1 1"]),
                                       (None, ["1 1"])])
def test_env_var_in_a_subprocess(dev, monkeypatch, env, first):
    # without the variable: on (docs/knobs.md)
    if env is None:
        monkeypatch.delenv("EMBER_FUSION", raising=False)
    else:
        monkeypatch.setenv("EMBER_FUSION", env)
    r = run_python("-c", SUBPROCESS % (N, dev))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")
    assert lines[0] in first and lines[1] == "1 1", lines


FAILING = """
import numpy as np, ember
x = ember.array(np.arange(70000, dtype=np.float32), device="cpu")  # owned: recorded
y = x * 2 + 1                      # recorded: nothing compiles yet
for read in (lambda: y.get(), lambda: y.get(), lambda: memoryview(y),
             lambda: np.asarray(y), lambda: y.data.ptr, lambda: y + 1):
    try:
        read()
        print("read")
    except Exception as e:
        print(type(e).__name__, "never computed" in str(e) or "compil" in str(e))
"""


def test_failed_group_results_are_refused(tmp_path, monkeypatch):
    # the fused kernel cannot compile (no C compiler): every later read of
    # its results raises, the second one too, and no export hands out the
    # memory it never wrote (an ignored status once let a read see it)
    monkeypatch.setenv("EMBER_CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setenv("EMBER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("EMBER_FUSION", "1")
    r = run_python("-c", FAILING)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")[:6]
    assert all(ln.endswith(" True") and not ln.startswith("read") for ln in lines), lines


# ---- ember.fuse ------------------------------------------------------------

def _axpy(x, y, z):
    return x * y + z


def test_fuse_spellings(dev):
    hs = [values("float32", seed=40 + i) for i in range(3)]
    want = hs[0] * hs[1] + hs[2]
    args = [put(h, dev) for h in hs]

    @ember.fuse
    def bare(x, y, z):
        return x * y + z

    @ember.fuse()
    def called(x, y, z):
        return x * y + z

    spellings = [bare, called, ember.fuse(kernel_name="axpy_k")(_axpy),
                 ember.fuse(lambda x, y, z: x * y + z), ember.fuse(_axpy)]
    for f in spellings:
        n0 = launches()
        r = f(*args)
        # the call ran its kernel: nothing pending, no host read needed
        assert pending() == 0
        assert launches() - n0 == 1
        assert_same_bits(ember.asnumpy(r), want)
    assert bare.__name__ == "bare" and spellings[2].__wrapped__ is _axpy


def test_fuse_forces_fusion_and_restores_the_state(dev):
    f = ember.fuse(lambda x: (x - 1) * (x + 1))
    h = values("float64", seed=45)
    a = put(h, dev)
    with ember.fusion(False):
        n0 = launches()
        r = f(a)
        assert launches() - n0 == 1
        assert _ember._fusion_state() == 0
    assert_same_bits(ember.asnumpy(r), (h - 1) * (h + 1))

    @ember.fuse
    def fails(x):
        return x * 2 + x[:3]
    with ember.fusion(False):
        with pytest.raises(ValueError):
            fails(a)
        assert _ember._fusion_state() == 0


def test_reduction_of_a_pending_expression(dev):
    # ((a - b) ** 2).sum(): on cuda one kernel, the reduction's, computing
    # the expression where it loads it; the temporary is never stored, not
    # even after the sum (a read of the input's shape once ran the group)
    h1, h2 = values("float32", seed=48), values("float32", seed=49)
    a, b = put(h1, dev), put(h2, dev)
    with ember.fusion(True):
        n0 = launches()
        s = ((a - b) ** 2).sum()
        m = (a * b).sum(axis=0)
        ember.asnumpy(s)
        fused = launches() - n0
    with ember.fusion(False):
        want_s, want_m = ((a - b) ** 2).sum(), (a * b).sum(axis=0)
    assert fused == (0 if dev.startswith("cuda") else 2)
    assert_same_bits(ember.asnumpy(s), ember.asnumpy(want_s))
    assert_same_bits(ember.asnumpy(m), ember.asnumpy(want_m))


@pytest.mark.parametrize("case", ["aligned views", "unaligned views",
                                  "mixed dtypes", "axis"])
def test_reduction_of_a_pending_expression_over_views(dev, case):
    # on cuda the fused sum reads its leaves a vector at a time only where
    # each is of the reduced dtype and aligned as its vectors are; the
    # other cases read them an element at a time: every way, eager's bits
    h1, h2 = values("float32", seed=50), values("float32", seed=51)
    a, b = put(h1, dev), put(h2, dev)
    if case == "mixed dtypes":
        b = put(h2.astype(np.float64), dev)

    def expr(a, b):
        if case == "aligned views":       # 16 bytes in: still aligned
            return ((a[4:] - b[:-4]) ** 2).sum()
        if case == "unaligned views":     # 4 bytes in
            return ((a[1:] - b[:-1]) ** 2).sum()
        if case == "mixed dtypes":
            return ((a - b) * 3).sum()
        return (a[:ROWS * COLS].reshape(ROWS, COLS) *
                b[:ROWS * COLS].reshape(ROWS, COLS)).sum(axis=1)
    with ember.fusion(True):
        got = ember.asnumpy(expr(a, b))
    with ember.fusion(False):
        want = ember.asnumpy(expr(a, b))
    assert_same_bits(got, want)
    hb = h2.astype(np.float64) if case == "mixed dtypes" else h2
    np.testing.assert_allclose(got, expr(h1.astype(np.float64), hb), rtol=1e-4)


def test_fuse_scalars_tuples_and_reduction(dev):
    h1, h2 = values("float32", seed=46), values("float32", seed=47)
    a, b = put(h1, dev), put(h2, dev)

    @ember.fuse(kernel_name="sqdiff")
    def sqdiff(x, y):
        return ((x - y) ** 2).sum()

    @ember.fuse
    def pair(x, y, k):
        return x * k + y, x > y

    n0 = launches()
    s = sqdiff(a, b)
    # cuda: the sum computes the expression where it loads it (no
    # elementwise kernel at all); cpu: the group runs, then the sum
    assert launches() - n0 == (0 if dev.startswith("cuda") else 1)
    with ember.fusion(False):
        eager = ((a - b) ** 2).sum()
    assert_same_bits(ember.asnumpy(s), ember.asnumpy(eager))
    np.testing.assert_allclose(float(s), ((h1.astype(np.float64) - h2) ** 2).sum(),
                               rtol=1e-4)
    p, q = pair(a, b, 2.5)
    assert p.dtype == ember.float32
    assert_same_bits(ember.asnumpy(p), h1 * np.float32(2.5) + h2)
    assert_same_bits(ember.asnumpy(q), h1 > h2)


def test_fuse_on_numpy_arrays_calls_the_function(dev):
    f = ember.fuse(lambda x, y: x * y + 1)
    h1, h2 = values("float64", seed=48), values("float64", seed=49)
    n0 = launches()
    r = f(h1, h2)
    assert isinstance(r, np.ndarray)
    assert launches() == n0
    assert_same_bits(r, h1 * h2 + 1)
    assert f(3, 4) == 13


def test_fuse_nested_joins_the_outer_kernel(dev):
    inner = ember.fuse(lambda x: x * 2 + 1)

    @ember.fuse
    def outer(x):
        return inner(x) - x

    h = values("float32", seed=50)
    n0 = launches()
    r = outer(put(h, dev))
    assert launches() - n0 == 1
    assert_same_bits(ember.asnumpy(r), (h * np.float32(2) + np.float32(1)) - h)


def test_fuse_runs_earlier_work_apart(dev):
    h = values("float32", seed=51)
    a = put(h, dev)
    f = ember.fuse(lambda x: x + 1)
    with ember.fusion(True):
        t = a * 3
        n0 = launches()
        r = f(a)
        assert launches() - n0 == 2      # t's group, then f's own
    assert_same_bits(ember.asnumpy(t), h * np.float32(3))
    assert_same_bits(ember.asnumpy(r), h + np.float32(1))


@pytest.mark.parametrize("name,want", [
    ("<lambda>", "lambda"), ("axpy", "axpy"), ("_private", "_private"),
    ("my kernel", "my_kernel"), ("f.<locals>.g", "f__locals__g"),
    ("2fast", "_2fast"), ("double", "_double"), ("", "fused"), ("<>", "fused"),
    ("σ", "fused"), ("k" * 80, "k" * 63)])
def test_kernel_name_is_a_c_identifier(name, want):
    assert _kernel_name(name) == want


NAMED = """
import os, numpy as np, ember
a = ember.array(np.arange(%d, dtype=np.float32), device=%r)
ember.fuse(kernel_name="fz_named_kernel")(lambda x: x * 3 + 1)(a).get()
ember.fuse(lambda x: x * 5 - 2)(a).get()
blob = b""
for root, _, files in os.walk(os.environ["EMBER_CACHE_DIR"]):
    for f in files:
        blob += open(os.path.join(root, f), "rb").read()
print(b"fz_named_kernel" in blob, b"<lambda>" in blob, b"lambda" in blob)
"""


def test_kernel_names_reach_the_compiled_kernel(dev, tmp_path, monkeypatch):
    # the kernel cache holds each compiled kernel under its source and
    # binary: the names given are there, a lambda's as a C identifier
    monkeypatch.setenv("EMBER_CACHE_DIR", str(tmp_path))
    r = run_python("-c", NAMED % (N, dev))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "False", "True"]


# ---- threads ---------------------------------------------------------------

def test_two_threads_computing_chains(dev):
    hs = [values("float32", seed=60), values("float64", seed=61)]
    with ember.fusion(False):
        want = [ember.asnumpy(chain(put(h, dev), 12)) for h in hs]
    got = [[], []]
    errors = []
    start = threading.Barrier(2)

    def work(i):
        try:
            with ember.Device(dev), ember.fusion(True):
                a = put(hs[i], dev)
                start.wait()
                for _ in range(5):
                    got[i].append(ember.asnumpy(chain(a, 12)))
        except BaseException as e:   # reported by the main thread
            errors.append(e)
    ts = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors
    for i in range(2):
        assert len(got[i]) == 5
        for g in got[i]:
            assert_same_bits(g, want[i])


def test_switch_is_per_thread(dev):
    seen = {}
    inside, leave = threading.Event(), threading.Event()

    def other():
        with ember.fusion(False):
            seen["other"] = _ember._fusion_state()
            inside.set()
            leave.wait(30)

    with ember.fusion(True):
        t = threading.Thread(target=other)
        t.start()
        assert inside.wait(30)
        seen["main"] = _ember._fusion_state()
        leave.set()
        t.join()
    assert seen == {"other": 0, "main": 1}


# ---- graph capture ---------------------------------------------------------

def test_graph_capture_of_fused_work(dev):
    # work recorded before begin_capture runs before it (not in the graph);
    # work recorded inside runs before end_capture (in the graph), so a
    # replay over new input values gives new results
    h = values("float32", seed=70)
    s = ember.Stream(non_blocking=True)
    a = put(h, dev)
    work = lambda: ember.sqrt(ember.abs(a * 3 - 1)) + a   # noqa: E731
    with ember.fusion(True):
        work().get()                  # warm-up: compiles the fused kernel
        before = a * 2
        assert pending() == 1
        ember.get_current_device().synchronize()
        with s:
            s.begin_capture()
            assert pending() == 0     # `before` ran outside the graph
            out = work()
            g = s.end_capture()
        assert pending() == 0
        for k in (1.0, -2.5):
            h1 = (h * k).astype(np.float32)
            a[...] = put(h1, dev)
            ember.get_current_device().synchronize()
            g.launch(s)
            s.synchronize()
            with ember.fusion(False):
                want = ember.asnumpy(ember.sqrt(ember.abs(a * 3 - 1)) + a)
            assert_same_bits(ember.asnumpy(out), want)
            assert_same_bits(ember.asnumpy(before), h * np.float32(2))
        g.release()


def test_fuse_keyword_arguments_and_repr(dev):
    @ember.fuse(kernel_name="scaled")
    def scaled(x, *, k=2.0):
        return x * k + 1
    h = values("float64", seed=71)
    a = put(h, dev)
    n0 = launches()
    assert_same_bits(ember.asnumpy(scaled(a, k=3.0)), h * 3.0 + 1)
    assert launches() - n0 == 1
    assert_same_bits(scaled(h, k=3.0), h * 3.0 + 1)     # NumPy: the function
    assert "scaled" in repr(scaled)

    class Model:
        k = 4.0

        @ember.fuse
        def apply(self, x):
            return x * self.k - 1
    n0 = launches()
    assert_same_bits(ember.asnumpy(Model().apply(a)), h * 4.0 - 1)
    assert launches() - n0 == 1
    with pytest.raises(TypeError):
        ember.fuse(3)


def test_one_switch_object_entered_by_several_threads(dev):
    off = ember.fusion(False)
    inside, leave = threading.Event(), threading.Event()
    seen = []

    def other():
        with ember.fusion(True):
            with off:
                inside.set()
                leave.wait(30)
            seen.append(_ember._fusion_state())   # its own setting back

    with ember.fusion(True):
        t = threading.Thread(target=other)
        t.start()
        assert inside.wait(30)
        with off:                  # entered here while the thread is in it
            with off:
                assert _ember._fusion_state() == 0
            leave.set()
            t.join()
            assert _ember._fusion_state() == 0
        assert _ember._fusion_state() == 1
    assert seen == [1]


def test_bad_kernel_name_leaves_the_group_intact(dev):
    # a kernel name that is no C identifier raises ValueError, and the
    # recorded work still runs with its right values afterwards
    h = values("float32", seed=77)
    x = put(h, dev)
    with ember.fusion(True):
        y = x * 2
        with pytest.raises(ValueError, match="C identifier"):
            _ember._fusion_flush("1bad name")
        assert_same_bits(ember.asnumpy(y), h * np.float32(2))
    with pytest.raises(TypeError):
        _ember._fusion_state("on")


@pytest.mark.parametrize("n", [5, 17, 399, 4097, N])
def test_any_of_a_difference_of_overlapping_views(dev, n):
    # auc's monotonicity test, (x[1:] - x[:-1] < 0).any() over x copied from
    # NumPy and cast: on cuda the reduction computes the comparison of the
    # two views of one buffer where it loads it. The H200 run of
    # 2026-11-28 saw True for a non-decreasing x (test_ml_metrics_curves)
    rng = np.random.default_rng(n)
    h = np.sort(rng.random(n))
    h[1::7] = h[0::7][:len(h[1::7])]
    h = np.sort(h)
    for cast in (False, True):
        x = ember.asarray(h, device=dev)
        if cast:
            x = x.astype(ember.float64)
        d = x[1:] - x[:-1]
        assert not bool((d < 0).any())
        assert bool((d >= 0).all())
        assert float(d.sum()) == pytest.approx(h[-1] - h[0], rel=1e-12, abs=1e-15)
        r = -x
        rd = r[1:] - r[:-1]
        assert bool((rd <= 0).all()) and not bool((rd > 0).any())
