"""NumPy names added in session 20 against NumPy on every device: cov,
corrcoef, cross, kron, fabs, isposinf/isneginf, sort_complex,
bitwise_count, packbits/unpackbits, piecewise, apply_along_axis,
apply_over_axes, block, row_stack, matvec, vecmat, mask_indices and
ember.emath; the ndarray methods clip, tobytes, tofile, dump/dumps,
resize, __contains__, setflags, getfield/setfield."""
import pickle
import warnings

import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np


def E(a, device, dtype=None):
    return ember.asarray(np.asarray(a, dtype=dtype), device=device)


def close(got, want, device, rtol=1e-12, atol=1e-12):
    """Same dtype, shape and device; values within tolerance (the GPU's
    reductions and products sum in their own order)."""
    want = np.asarray(want)
    assert isinstance(got, ember.ndarray), type(got)
    assert got.device == ember.Device(device)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(ember.asnumpy(got), want, rtol=rtol, atol=atol)


def raises_like(np_call, em_call):
    """ember raises NumPy's exception class (or a subclass) for the same
    bad input."""
    with pytest.raises(Exception) as want:
        np_call()
    with pytest.raises(want.type):
        em_call()


RNG = np.random.default_rng(20)


# ---- cov and corrcoef ------------------------------------------------------

@pytest.mark.parametrize("shape", [(3, 7), (1, 5), (5,), (4, 1), (2, 2)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex128])
@pytest.mark.parametrize("rowvar", [True, False])
def test_cov_corrcoef(device, shape, dtype, rowvar):
    m = RNG.standard_normal(shape) * 4
    if np.dtype(dtype).kind == "c":
        m = m + 1j * RNG.standard_normal(shape)
    m = m.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.cov(m, rowvar=rowvar)
        want_r = np.corrcoef(m, rowvar=rowvar)
        got = ember.cov(E(m, device), rowvar=rowvar)
        got_r = ember.corrcoef(E(m, device), rowvar=rowvar)
    close(got, want, device, 1e-10, 1e-10)
    close(got_r, want_r, device, 1e-10, 1e-10)


@pytest.mark.parametrize("kw", [dict(bias=True), dict(ddof=0), dict(ddof=2),
                                dict(dtype=np.float32), dict(bias=True, ddof=1)])
def test_cov_keywords(device, kw):
    m = RNG.standard_normal((3, 9))
    want = np.cov(m, **kw)
    got = ember.cov(E(m, device), **kw)
    close(got, want, device, 1e-5 if kw.get("dtype") else 1e-12, 1e-6)


def test_cov_y_and_weights(device):
    m = RNG.standard_normal((2, 8))
    y = RNG.standard_normal((8, 3))
    f = RNG.integers(1, 4, 8)
    a = RNG.random(8)
    for kw in [dict(), dict(fweights=f), dict(aweights=a), dict(fweights=f, aweights=a),
               dict(fweights=f, aweights=a, ddof=0), dict(aweights=a, bias=True)]:
        close(ember.cov(E(m, device), E(y.T, device), **kw), np.cov(m, y.T, **kw),
              device)
        close(ember.cov(E(m.T, device), E(y, device), rowvar=False, **kw),
              np.cov(m.T, y, rowvar=False, **kw), device)
    # weights given as host lists, corrcoef with y
    close(ember.cov(E(m, device), fweights=f.tolist()), np.cov(m, fweights=f), device)
    close(ember.corrcoef(E(m[0], device), E(m[1], device)), np.corrcoef(m[0], m[1]),
          device)


def test_cov_degenerate(device):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.cov(np.ones((2, 1)))
        with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
            got = ember.cov(E(np.ones((2, 1)), device))
    assert_array_equal_np(got, want, device)
    assert_array_equal_np(ember.cov(E(np.zeros((0, 3)), device)), np.cov(np.zeros((0, 3))))
    # a scalar covariance: corrcoef is c / c
    close(ember.corrcoef(E([1.0, 2.0, 4.0], device)), np.corrcoef([1.0, 2.0, 4.0]), device)


def test_cov_errors(device):
    m = np.ones((2, 3))
    for kw in [dict(fweights=[1, 2.5, 1]), dict(fweights=[1, 2]),
               dict(fweights=[[1, 2, 3]]), dict(aweights=[1, -2, 1]),
               dict(fweights=[1, -1, 1]), dict(aweights=[1, 2]), dict(ddof=1.5)]:
        raises_like(lambda: np.cov(m, **kw), lambda: ember.cov(E(m, device), **kw))
    raises_like(lambda: np.cov(np.ones((2, 2, 2))),
                lambda: ember.cov(E(np.ones((2, 2, 2)), device)))
    raises_like(lambda: np.cov(m, np.ones((2, 2, 2))),
                lambda: ember.cov(E(m, device), E(np.ones((2, 2, 2)), device)))
    with pytest.raises(ValueError, match="ddof must be integer"):
        ember.cov(E(m, device), ddof=0.5)


# ---- cross, kron, matvec, vecmat ---------------------------------------------

@pytest.mark.parametrize("sa,sb,kw", [
    ((3,), (3,), {}), ((4, 3), (3,), {}), ((2, 1, 3), (5, 3), {}),
    ((3, 4), (3, 4), dict(axisa=0, axisb=0)), ((3, 4), (4, 3), dict(axisa=0, axisc=0)),
    ((2, 3, 5), (3, 5), dict(axis=-2)), ((5, 3), (5, 3), dict(axisc=0)),
])
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64])
def test_cross(device, sa, sb, kw, dtype):
    a = (RNG.standard_normal(sa) * 5).astype(dtype)
    b = (RNG.standard_normal(sb) * 5).astype(dtype)
    close(ember.cross(E(a, device), E(b, device), **kw), np.cross(a, b, **kw), device,
          1e-6, 1e-5)


@pytest.mark.parametrize("sa,sb", [((2,), (2,)), ((4, 2), (3,)), ((3,), (2,)),
                                   ((2, 3), (2, 2))])
def test_cross_2d_vectors(device, sa, sb):
    a, b = RNG.standard_normal(sa), RNG.standard_normal(sb)
    # NumPy 2.0-2.4 warn and compute; 2.5 ended the deprecation with a
    # ValueError. ember keeps 2.4's answer (with its warning), which is the
    # product of the vectors padded with a zero third component.
    def pad(v):
        return np.concatenate([v, np.zeros(v.shape[:-1] + (1,))], -1) \
            if v.shape[-1] == 2 else v
    want = np.cross(pad(a), pad(b))
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        want = want[..., 2]
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors"):
        got = ember.cross(E(a, device), E(b, device))
    close(got, want, device)


def test_cross_errors_and_linalg(device):
    raises_like(lambda: np.cross(np.ones((2, 4)), np.ones(3)),
                lambda: ember.cross(E(np.ones((2, 4)), device), E(np.ones(3), device)))
    raises_like(lambda: np.cross(np.ones(3), np.ones(3), axisc=2),
                lambda: ember.cross(E(np.ones(3), device), E(np.ones(3), device), axisc=2))
    raises_like(lambda: np.cross(np.ones(()), np.ones(3)),
                lambda: ember.cross(E(np.ones(()), device), E(np.ones(3), device)))
    raises_like(lambda: np.cross(np.ones(3), np.ones(3), axisa=1),
                lambda: ember.cross(E(np.ones(3), device), E(np.ones(3), device), axisa=1))
    raises_like(lambda: np.cross(np.ones(3, bool), np.ones(3, bool)),
                lambda: ember.cross(E(np.ones(3, bool), device), E(np.ones(3, bool), device)))
    # ember.linalg.cross shares the implementation, with its 3-vector rule
    a, b = RNG.standard_normal((4, 3)), RNG.standard_normal((4, 3))
    close(ember.linalg.cross(E(a, device), E(b, device)), np.linalg.cross(a, b), device)
    close(ember.linalg.cross(E(a.T, device), E(b.T, device), axis=0),
          np.linalg.cross(a.T, b.T, axis=0), device)
    raises_like(lambda: np.linalg.cross(np.ones(2), np.ones(2)),
                lambda: ember.linalg.cross(E(np.ones(2), device), E(np.ones(2), device)))


@pytest.mark.parametrize("sa,sb", [((2, 3), (4, 5)), ((3,), (2, 2)), ((2, 2, 2), (3,)),
                                   ((), (3, 2)), ((4,), ()), ((2, 0), (3, 2)),
                                   ((1, 2, 1), (3, 1, 2))])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128, np.bool_])
def test_kron(device, sa, sb, dtype):
    a = (RNG.standard_normal(sa) * 3).astype(dtype)
    b = (RNG.standard_normal(sb) * 3).astype(dtype)
    got, want = ember.kron(E(a, device), E(b, device)), np.kron(a, b)
    if want.dtype.kind == "c":   # a GPU may fuse a complex product's terms (FMA)
        close(got, want, device, 1e-15, 1e-14)
    else:
        assert_array_equal_np(got, want, device)


@pytest.mark.parametrize("sa,sb", [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (5, 4)),
                                   ((1, 2, 3), (4, 1, 3))])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex128])
def test_matvec_vecmat(device, sa, sb, dtype):
    a = (RNG.standard_normal(sa) * 3).astype(dtype)
    b = (RNG.standard_normal(sb) * 3).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * a[..., ::-1]
        b = b + 2j * b
    tol = 1e-5 if dtype == np.float32 else 1e-12
    close(ember.matvec(E(a, device), E(b, device)), np.matvec(a, b), device, tol, tol)
    at = np.swapaxes(a, -1, -2)
    close(ember.vecmat(E(b, device), E(at, device)), np.vecmat(b, at), device, tol, tol)
    out = ember.empty(np.matvec(a, b).shape, dtype, device=device)
    r = ember.matvec(E(a, device), E(b, device), out=out)
    assert r is out
    close(out, np.matvec(a, b), device, tol, tol)


def test_matvec_vecmat_errors(device):
    for f, x, y in [("matvec", np.ones((2, 3)), np.ones(2)), ("matvec", np.ones((2, 3)),
                    np.ones(())), ("matvec", np.ones(3), np.ones(3)),
                    ("vecmat", np.ones(3), np.ones((2, 3))),
                    ("vecmat", np.ones(3), np.ones(3))]:
        with pytest.raises(ValueError) as want:
            getattr(np, f)(x, y)
        with pytest.raises(ValueError) as got:
            getattr(ember, f)(E(x, device), E(y, device))
        assert str(got.value) == str(want.value)


# ---- fabs, isposinf, isneginf, sort_complex -------------------------------------

VALUES = [0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan, 7.0]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int8, np.uint8,
                                   np.int16, np.uint16, np.int32, np.int64, np.uint64,
                                   np.bool_])
def test_fabs_isposinf_isneginf(device, dtype):
    if np.dtype(dtype).kind == "f":
        x = np.array(VALUES, dtype)
    else:
        x = np.array([0, 1, 5, 100, 3, 0, 1, 2]).astype(dtype)
        if np.dtype(dtype).kind == "i":
            x[1] = -7
    assert_array_equal_np(ember.fabs(E(x, device)), np.fabs(x), device)
    assert_array_equal_np(ember.isposinf(E(x, device)), np.isposinf(x), device)
    assert_array_equal_np(ember.isneginf(E(x, device)), np.isneginf(x), device)


def test_fabs_isinf_keywords_and_errors(device):
    x = np.array(VALUES).reshape(2, 4)
    out = ember.empty((2, 4), ember.bool, device=device)
    assert ember.isposinf(E(x, device), out) is out
    assert_array_equal_np(out, np.isposinf(x))
    assert ember.isneginf(E(x, device), out=out) is out
    assert_array_equal_np(out, np.isneginf(x))
    o = ember.zeros((2, 4), device=device)
    ember.fabs(E(x, device), out=o)
    assert_array_equal_np(o, np.fabs(x))
    assert_array_equal_np(ember.fabs(E(x, device), dtype=np.float32),
                          np.fabs(x, dtype=np.float32))
    c = np.array([1 + 1j, -1j])
    for f in ("fabs", "isposinf", "isneginf"):
        raises_like(lambda: getattr(np, f)(c), lambda: getattr(ember, f)(E(c, device)))
    with pytest.raises(TypeError, match="complex128"):
        ember.isposinf(E(c, device))


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.float32, np.float64,
                                   np.float16, np.bool_, np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(9,), (3, 5), (0,)])
def test_sort_complex(device, dtype, shape):
    x = (RNG.standard_normal(shape) * 4).astype(dtype)
    if np.dtype(dtype).kind == "c":
        x.imag = RNG.integers(-2, 3, shape)
        x.real = RNG.integers(-2, 3, shape)
    assert_array_equal_np(ember.sort_complex(E(x, device)), np.sort_complex(x), device)


# ---- bits ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32,
                                   np.uint32, np.int64, np.uint64, np.bool_])
def test_bitwise_count(device, dtype):
    info = np.iinfo(dtype) if dtype != np.bool_ else None
    if info is None:
        x = np.array([True, False, True])
    else:
        x = RNG.integers(info.min, info.max, (4, 5), dtype=dtype, endpoint=True)
        x.flat[:2] = [info.min, info.max]
    assert_array_equal_np(ember.bitwise_count(E(x, device)), np.bitwise_count(x), device)


def test_bitwise_count_out_and_errors(device):
    x = np.arange(-5, 5, dtype=np.int32)
    out = ember.zeros(10, ember.uint8, device=device)
    assert ember.bitwise_count(E(x, device), out) is out
    assert_array_equal_np(out, np.bitwise_count(x))
    for bad in (np.ones(3), np.ones(3, np.complex64)):
        raises_like(lambda: np.bitwise_count(bad),
                    lambda: ember.bitwise_count(E(bad, device)))


@pytest.mark.parametrize("shape,axis", [((13,), None), ((13,), 0), ((3, 10), 1),
                                        ((3, 10), 0), ((2, 3, 9), -1), ((2, 3, 9), None),
                                        ((4, 16), 1), ((), None), ((), 0), ((0, 5), 1)])
@pytest.mark.parametrize("bitorder", ["big", "little"])
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32])
def test_packbits_unpackbits(device, shape, axis, bitorder, dtype):
    x = RNG.integers(0, 3, shape).astype(dtype)
    want = np.packbits(x, axis=axis, bitorder=bitorder)
    got = ember.packbits(E(x, device), axis=axis, bitorder=bitorder)
    assert_array_equal_np(got, want, device)
    for count in (None, 0, 3, 20, -2):
        try:
            w = np.unpackbits(want, axis=axis, count=count, bitorder=bitorder)
        except ValueError:
            with pytest.raises(ValueError):
                ember.unpackbits(got, axis=axis, count=count, bitorder=bitorder)
            continue
        assert_array_equal_np(ember.unpackbits(got, axis=axis, count=count,
                                               bitorder=bitorder), w, device)


def test_pack_unpack_errors(device):
    raises_like(lambda: np.packbits(np.array([1.5])),
                lambda: ember.packbits(E([1.5], device)))
    raises_like(lambda: np.packbits(np.array([1]), bitorder="x"),
                lambda: ember.packbits(E([1], device), bitorder="x"))
    raises_like(lambda: np.packbits(np.ones((2, 2), int), axis=2),
                lambda: ember.packbits(E(np.ones((2, 2), int), device), axis=2))
    raises_like(lambda: np.unpackbits(np.array([3], np.int8)),
                lambda: ember.unpackbits(E(np.array([3], np.int8), device)))
    u = np.array([255], np.uint8)
    raises_like(lambda: np.unpackbits(u, count=-10),
                lambda: ember.unpackbits(E(u, device), count=-10))
    raises_like(lambda: np.unpackbits(u, count=1.5),
                lambda: ember.unpackbits(E(u, device), count=1.5))
    raises_like(lambda: np.unpackbits(u, bitorder="middle"),
                lambda: ember.unpackbits(E(u, device), bitorder="middle"))


# ---- piecewise, apply_along_axis, apply_over_axes, mask_indices ---------------------

def test_piecewise(device):
    x = np.linspace(-3, 3, 13)
    xe = E(x, device)
    assert_array_equal_np(
        ember.piecewise(xe, [xe < 0, xe >= 0], [lambda v: -v, lambda v: v * 2]),
        np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 2]), device)
    # one condition and an "otherwise" value; a constant; args and kw
    assert_array_equal_np(ember.piecewise(xe, xe > 1, [lambda v, k: v + k, 9.0], 5),
                          np.piecewise(x, x > 1, [lambda v, k: v + k, 9.0], 5))
    assert_array_equal_np(
        ember.piecewise(xe, [xe < -1, xe > 1], [lambda v, k=0: v * k, 2.0], k=3),
        np.piecewise(x, [x < -1, x > 1], [lambda v, k=0: v * k, 2.0], k=3))
    # a condition given as a list of bools, an int array, a 0-d x
    i = np.arange(5)
    cond = [True, False, True, False, False]
    assert_array_equal_np(ember.piecewise(E(i, device), cond, [7, 8]),
                          np.piecewise(i, cond, [7, 8]))
    z = np.array(2.0)
    assert_array_equal_np(ember.piecewise(E(z, device), [True, False], [lambda v: v + 1, 0]),
                          np.piecewise(z, [True, False], [lambda v: v + 1, 0]))
    # no condition true: zeros
    assert_array_equal_np(ember.piecewise(xe, [xe > 10], [1.0]),
                          np.piecewise(x, [x > 10], [1.0]))
    raises_like(lambda: np.piecewise(i, [[True] * 5], [1, 2, 3]),
                lambda: ember.piecewise(E(i, device), [[True] * 5], [1, 2, 3]))


@pytest.mark.parametrize("shape,axis", [((3, 4), 0), ((3, 4), 1), ((2, 3, 4), 1),
                                        ((2, 3, 4), -1), ((5,), 0)])
def test_apply_along_axis(device, shape, axis):
    x = RNG.standard_normal(shape)
    xe = E(x, device)
    for f_np, f_em in [(lambda v: v.sum(), lambda v: v.sum()),
                       (lambda v: v * 2, lambda v: v * 2),
                       (lambda v: np.outer(v, v[:2]), lambda v: ember.outer(v, v[:2])),
                       (lambda v: float(v[0]), lambda v: float(v[0]))]:
        close(ember.apply_along_axis(f_em, axis, xe), np.apply_along_axis(f_np, axis, x),
              device)
    # extra args and kwargs; the first result's dtype wins
    close(ember.apply_along_axis(lambda v, a, b=0: v[:2] * a + b, axis, xe, 3, b=1),
          np.apply_along_axis(lambda v, a, b=0: v[:2] * a + b, axis, x, 3, b=1), device)
    i = np.arange(np.prod(shape)).reshape(shape)
    assert_array_equal_np(
        ember.apply_along_axis(lambda v: v.max() // 2, axis, E(i, device)),
        np.apply_along_axis(lambda v: v.max() // 2, axis, i))


def test_apply_along_axis_errors(device):
    z = np.zeros((0, 3))
    raises_like(lambda: np.apply_along_axis(np.sum, 1, z),
                lambda: ember.apply_along_axis(ember.sum, 1, E(z, device)))
    raises_like(lambda: np.apply_along_axis(np.sum, 2, np.ones((2, 2))),
                lambda: ember.apply_along_axis(ember.sum, 2, E(np.ones((2, 2)), device)))
    close(ember.apply_along_axis(ember.sum, 0, E(z, device)),
          np.apply_along_axis(np.sum, 0, z), device)


def test_apply_over_axes(device):
    x = RNG.standard_normal((2, 3, 4))
    xe = E(x, device)
    for axes in [0, [0, 2], (1, -1), [2, 1, 0]]:
        close(ember.apply_over_axes(ember.sum, xe, axes), np.apply_over_axes(np.sum, x, axes),
              device)
    close(ember.apply_over_axes(lambda a, ax: ember.mean(a, axis=ax, keepdims=True), xe,
                                [0, 1]),
          np.apply_over_axes(lambda a, ax: np.mean(a, axis=ax, keepdims=True), x, [0, 1]),
          device)
    raises_like(lambda: np.apply_over_axes(lambda a, ax: a.sum(), x, [0]),
                lambda: ember.apply_over_axes(lambda a, ax: a.sum(), xe, [0]))


@pytest.mark.parametrize("k", [0, 1, -1, 3])
def test_mask_indices(device, k):
    with ember.Device(device):
        for name in ("triu", "tril"):
            got = ember.mask_indices(4, getattr(ember, name), k)
            want = np.mask_indices(4, getattr(np, name), k)
            assert len(got) == 2
            for g, w in zip(got, want):
                assert_array_equal_np(g, w, device)


# ---- block and row_stack ----------------------------------------------------------

def test_block(device):
    A = np.eye(2) * 2
    B = np.eye(3) * 3
    Z = np.zeros((2, 3))
    Ae, Be, Ze = E(A, device), E(B, device), E(Z, device)
    cases = [
        (lambda m, a, b, z: m.block([[a, z], [z.T, b]])),
        (lambda m, a, b, z: m.block([a[0], b[1], 5])),
        (lambda m, a, b, z: m.block([[1, 2], [3, 4]])),
        (lambda m, a, b, z: m.block([[[a]], [[a]]])),
        (lambda m, a, b, z: m.block(a)),
        (lambda m, a, b, z: m.block(3)),
        (lambda m, a, b, z: m.block([[a[0]], [a[1]]])),
        (lambda m, a, b, z: m.block([[a, m.ones((2, 1), dtype=m.int32)]])),
    ]
    for f in cases:
        # blocks of scalars alone, and m.ones, are made on the current device
        with ember.Device(device):
            got = f(ember, Ae, Be, Ze)
        assert_array_equal_np(got, f(np, A, B, Z), device)
    # scalars beside arrays join the arrays' device, whatever is current
    assert_array_equal_np(ember.block([Ae[0], Be[1], 5]), np.block([A[0], B[1], 5]), device)


def test_block_errors(device):
    a = E(np.ones(2), device)
    for arg_np, arg_em in [([], []), ([[1, 2], 3], [[a, a], a]), (([1],), ([a],)),
                           ([[1], []], [[a], []]), ([np.ones((2, 2)), np.ones((3, 3))],
                                                   [E(np.ones((2, 2)), device),
                                                    E(np.ones((3, 3)), device)])]:
        with pytest.raises(Exception) as want:
            np.block(arg_np)
        with pytest.raises(want.type) as got:
            ember.block(arg_em)
        if want.type is not ValueError or "depth" in str(want.value) \
                or "empty" in str(want.value):
            assert str(got.value) == str(want.value)


def test_row_stack(device):
    a, b = np.arange(3), np.arange(3, 6)
    with pytest.warns(DeprecationWarning, match="row_stack"):
        got = ember.row_stack([E(a, device), E(b, device)])
    # NumPy's own row_stack warns up to 2.4 (2.5's does not): compare with
    # the vstack it names
    assert_array_equal_np(got, np.vstack([a, b]), device)


# ---- emath ------------------------------------------------------------------------

EMATH_VALUES = [-4.0, -1.0, -0.5, 0.0, 0.25, 1.0, 2.0, 9.0]


@pytest.mark.parametrize("name", ["sqrt", "log", "log2", "log10", "arccos", "arcsin",
                                  "arctanh"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int8, np.int64, np.uint8,
                                   np.complex64, np.complex128])
@pytest.mark.parametrize("sign", ["mixed", "positive"])
def test_emath_unary(device, name, dtype, sign):
    v = np.array(EMATH_VALUES)
    if sign == "positive":
        v = np.abs(v) / (10 if name in ("arccos", "arcsin", "arctanh") else 1) + 0.01
    if np.dtype(dtype).kind in "iu":
        v = np.round(v)
        if np.dtype(dtype).kind == "u":
            v = np.abs(v)
    x = v.astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(np.emath, name)(x)
    got = getattr(ember.emath, name)(E(x, device))
    tol = 1e-5 if want.dtype in (np.float32, np.complex64, np.float16) else 1e-12
    close(got, want, device, tol, tol)


def test_emath_power_logn(device):
    x = np.array([-8.0, -1.0, 2.0, 4.0])
    p = np.array([2, -1, 3, -2])
    close(ember.emath.power(E(x, device), E(p, device)), np.emath.power(x, p), device)
    xi = np.array([2, 4, 3])
    close(ember.emath.power(E(xi, device), -1), np.emath.power(xi, -1), device)
    close(ember.emath.power(E(xi, device), E([1, 2, 0], device)),
          np.emath.power(xi, np.array([1, 2, 0])), device)
    close(ember.emath.logn(2, E(x, device)), np.emath.logn(2, x), device)
    close(ember.emath.logn(E([-2.0, 3.0, 10.0, 0.5], device), E(x, device)),
          np.emath.logn(np.array([-2.0, 3.0, 10.0, 0.5]), x), device)


def test_emath_module():
    import ember.emath as em
    assert em is ember.emath
    assert set(em.__all__) >= {"sqrt", "log", "log2", "log10", "logn", "power", "arccos",
                               "arcsin", "arctanh"}


# ---- ndarray methods ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8])
def test_method_clip(device, dtype):
    x = (RNG.standard_normal((3, 4)) * 10).astype(dtype)
    xe = E(x, device)
    assert_array_equal_np(xe.clip(1, 5), x.clip(1, 5), device)
    assert_array_equal_np(xe.clip(max=3), x.clip(max=3))
    assert_array_equal_np(xe.clip(min=2), x.clip(min=2))
    out = ember.empty_like(xe)
    assert xe.clip(0, 4, out=out) is out
    assert_array_equal_np(out, x.clip(0, 4))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128, np.bool_])
def test_tobytes(device, order, dtype):
    x = (RNG.standard_normal((3, 4, 2)) * 10).astype(dtype)
    for v in (x, np.asfortranarray(x), x[:, ::2], x.transpose(2, 0, 1), x[:0]):
        assert E(v, device).tobytes(order) == v.tobytes(order)
    assert E(x, device).tobytes() == x.tobytes()
    with pytest.raises(ValueError):
        x.tobytes("X")
    with pytest.raises(ValueError, match="order must be one of"):
        E(x, device).tobytes("X")


def test_tofile(device, tmp_path):
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    xe = E(x, device)[:, ::2]
    xn = x[:, ::2]
    xe.tofile(tmp_path / "e.bin")
    xn.tofile(tmp_path / "n.bin")
    assert (tmp_path / "e.bin").read_bytes() == (tmp_path / "n.bin").read_bytes()
    with open(tmp_path / "e2.bin", "wb") as f:
        f.write(b"hdr")
        xe.tofile(f)
    assert (tmp_path / "e2.bin").read_bytes() == b"hdr" + xn.tobytes()
    xe.tofile(str(tmp_path / "e.txt"), sep=",", format="%.3f")
    xn.tofile(str(tmp_path / "n.txt"), sep=",", format="%.3f")
    assert (tmp_path / "e.txt").read_text() == (tmp_path / "n.txt").read_text()
    E(x, device).tofile(tmp_path / "e3.txt", sep=" ")
    x.tofile(tmp_path / "n3.txt", sep=" ")
    assert (tmp_path / "e3.txt").read_text() == (tmp_path / "n3.txt").read_text()


def test_dump_dumps(device, tmp_path):
    x = RNG.standard_normal((2, 3))
    xe = E(x, device)
    back = pickle.loads(xe.dumps())
    assert isinstance(back, ember.ndarray) and back.device == xe.device
    assert_array_equal_np(back, x)
    xe.dump(tmp_path / "a.pkl")
    with open(tmp_path / "a.pkl", "rb") as f:
        assert_array_equal_np(pickle.load(f), x)
    with open(tmp_path / "b.pkl", "wb") as f:
        xe.dump(f)
    with open(tmp_path / "b.pkl", "rb") as f:
        assert_array_equal_np(pickle.load(f), x)


@pytest.mark.parametrize("new", [(8,), (2, 4), (3,), (2, 3), (0,), (3, 3, 3), ()])
@pytest.mark.parametrize("fortran", [False, True])
def test_resize(device, new, fortran):
    x = np.arange(6.0).reshape(2, 3).copy()
    if fortran:
        x = np.asfortranarray(x)
    # an array owning its memory (E's cpu arrays adopt NumPy's), in x's order
    xe = E(x, device).copy("F" if fortran else "C")
    if new == ():
        x = np.arange(1.0)
        xe = E(x, device).copy()
    assert xe.flags.owndata and xe.flags.f_contiguous == x.flags.f_contiguous
    x.resize(new)
    r = xe.resize(new)
    assert r is None
    assert_array_equal_np(xe, x, device)
    assert xe.flags.c_contiguous == x.flags.c_contiguous
    assert xe.flags.f_contiguous == x.flags.f_contiguous
    assert xe.flags.owndata


def test_resize_forms_and_refcheck(device):
    x = np.arange(4)
    xe = E(x, device).copy()
    with pytest.raises(ValueError, match="does not own its data"):
        E(x, "cpu").resize(8)   # NumPy's memory, adopted
    xe.resize(2, 3)
    x.resize(2, 3, refcheck=False)
    assert_array_equal_np(xe, x)
    xe.resize([6])
    assert xe.shape == (6,)
    xe.resize()
    assert xe.shape == (6,)
    # a view holds xe: NumPy's refcheck refuses, refcheck=False allows
    v = xe[:2]
    with pytest.raises(ValueError, match="referenced"):
        xe.resize(8)
    xe.resize(8, refcheck=False)
    assert xe.shape == (8,)
    assert_array_equal_np(v, np.arange(2))
    del v
    # a view does not own its data; same-size views reinterpret in place
    w = xe[2:6]
    with pytest.raises(ValueError, match="does not own its data"):
        w.resize(6)
    w.resize(2, 2)
    assert_array_equal_np(w, np.array([[2, 3], [0, 0]]))
    s = xe[::2]
    with pytest.raises(ValueError, match="single-segment"):
        s.resize(4)
    with pytest.raises(ValueError, match="negative dimensions"):
        xe.resize(-1)
    with pytest.raises(TypeError):
        xe.resize(2.5)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex64, np.bool_])
def test_contains(device, dtype):
    x = (np.arange(12) % 5).reshape(3, 4).astype(dtype)
    xe = E(x, device)
    for v in (0, 3, 7, 2.5, True, [0, 1, 2, 3], [9, 1, 2, 0]):
        assert (v in xe) == (v in x), v
    assert (E(np.array(3), device) in xe) == (3 in x)
    raises_like(lambda: [1, 2] in x, lambda: [1, 2] in xe)


def test_setflags(device):
    x = E(np.arange(5.0), device).copy()   # owning its memory, as NumPy's arange
    x.setflags(write=False)
    assert not x.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        x[0] = 1
    v = x[1:]
    assert not v.flags.writeable
    with pytest.raises(ValueError, match="WRITEABLE"):
        v.setflags(write=True)
    x.setflags(write=True)
    x[0] = 9
    v2 = x[1:]
    v2.setflags(write=False)
    v2.setflags(write=True)
    v2[0] = 8
    assert_array_equal_np(x, np.array([9.0, 8, 2, 3, 4]))
    with pytest.raises(ValueError, match="WRITEBACKIFCOPY"):
        x.setflags(uic=True)
    x.setflags(align=False)
    assert not x.flags.aligned
    x.setflags(align=True)
    assert x.flags.aligned
    # adopted NumPy memory is writeable again where NumPy's buffer is
    n = np.arange(3.0)
    a = ember.asarray(n, device="cpu")
    a.setflags(write=False)
    a.setflags(write=True)
    n.setflags(write=False)
    r = ember.asarray(n, device="cpu")
    assert not r.flags.writeable
    with pytest.raises(ValueError, match="WRITEABLE"):
        r.setflags(write=True)


def test_getfield_setfield(device):
    x = np.array([1 + 2j, -3 + 4.5j, 0.5j])
    xe = E(x, device)
    assert_array_equal_np(xe.getfield(np.float64), x.getfield(np.float64), device)
    assert_array_equal_np(xe.getfield(np.float64, 8), x.getfield(np.float64, 8))
    xe.setfield(7.0, np.float64, 8)
    x.setfield(7.0, np.float64, 8)
    assert_array_equal_np(xe, x)
    i = np.array([0x01020304, -1], np.int32)
    assert_array_equal_np(E(i, device).getfield(np.int16, 2), i.getfield(np.int16, 2))
    for off in (-1, 9, 16):
        raises_like(lambda: x.getfield(np.float64, off),
                    lambda: xe.getfield(np.float64, off))
    raises_like(lambda: i.getfield(np.int64), lambda: E(i, device).getfield(np.int64))
    with pytest.raises(ValueError, match="multiple"):
        xe.getfield(np.float64, 4)


def test_bitwise_count_kernel_compiles_for_the_gpu(need_nvrtc):
    """kernels/bitwise_count.c's operation through NVRTC for a signed and
    an unsigned type of each width (the cpu runs it through cc only)."""
    import os
    from ember._api import bits
    path = os.path.join(os.path.dirname(bits.__file__), "kernels", "bitwise_count.c")
    body = open(path).read().partition("/* operation */")[2]
    types = ["signed char", "unsigned char", "short", "unsigned short", "int",
             "unsigned int", "long long", "unsigned long long"]
    src = "".join(f"extern \"C\" __global__ void k{i}(const {t} *xs, unsigned char *ys)"
                  f" {{ {t} x = xs[threadIdx.x]; unsigned char y; {body} "
                  "ys[threadIdx.x] = y; }\n" for i, t in enumerate(types))
    ptx = ember.cuda.Program(src).compile("ptx").code
    assert ptx.count(b".entry") == len(types)


def test_numpy_spellings_dispatch(device):
    """np.fabs, np.bitwise_count, np.matvec, np.vecmat and np.emath's functions
    on ember arrays run ember's (NumPy's ufunc and module dispatch)."""
    h = np.array([-4.0, 2.5, -0.0])
    x = E(h, device)
    assert_array_equal_np(np.fabs(x), np.fabs(h), device)
    for got, want in [(np.emath.sqrt(x), np.emath.sqrt(h)), (np.emath.log(x), np.emath.log(h)),
                      (np.emath.power(x, 2), np.emath.power(h, 2))]:
        close(got, want, device, rtol=1e-14, atol=0)
    b = np.array([7, 255, 0], dtype=np.uint8)
    got = np.bitwise_count(E(b, device))
    assert isinstance(got, ember.ndarray)
    assert_array_equal_np(got, np.bitwise_count(b), device)
    a, v = np.arange(6.0).reshape(2, 3), np.arange(3.0)
    assert_array_equal_np(np.matvec(E(a, device), E(v, device)), np.matvec(a, v), device)
    w = np.array([1.0, 2.0])
    assert_array_equal_np(np.vecmat(E(w, device), E(a, device)), np.vecmat(w, a), device)
