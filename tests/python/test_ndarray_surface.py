"""The ndarray and ufunc surface of the C extension against NumPy: NumPy's
exception classes, memory orders of copies and views, .flat, round,
byteswap, .data and the MemoryPointer constructor, subclasses, the ufunc
methods, foreign arrays by __cuda_array_interface__ and DLPack, and the
memory advanced indexing takes."""
import itertools
import warnings

import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np, run_python


# ---- NumPy's exception classes ------------------------------------------

def test_axis_error_is_numpys(device):
    a = ember.arange(6, device=device).reshape(2, 3)
    with pytest.raises(np.exceptions.AxisError, match="axis 4 is out of bounds"):
        a.sum(axis=4)
    with pytest.raises(ember.AxisError):
        a.sum(axis=-3)
    assert issubclass(ember.AxisError, np.exceptions.AxisError)
    assert issubclass(ember.AxisError, ValueError)
    assert issubclass(ember.AxisError, IndexError)
    with pytest.raises(np.exceptions.AxisError):
        a.swapaxes(0, 5)


def test_complex_warning_is_numpys(device):
    a = ember.asarray([1 + 2j, 3 - 1j], device=device)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = a.astype(ember.float64)
    assert any(issubclass(x.category, np.exceptions.ComplexWarning) for x in w)
    assert_array_equal_np(r, np.array([1.0, 3.0]))
    for name in ("DTypePromotionError", "VisibleDeprecationWarning", "TooHardError"):
        assert issubclass(getattr(ember, name), getattr(np.exceptions, name))


def test_exceptions_without_numpy_imported():
    # ember's own class until NumPy is loaded (import ember imports no NumPy
    # itself); caught by NumPy's once NumPy comes, whichever was looked up.
    code = (
        "import sys, ember\n"
        "before = 'numpy' in sys.modules\n"
        "E0 = ember.AxisError\n"
        "assert issubclass(E0, ValueError) and issubclass(E0, IndexError)\n"
        "try:\n"
        "    ember.arange(3).sum(axis=2)\n"
        "except E0:\n"
        "    pass\n"
        "assert before or 'numpy' not in sys.modules\n"
        "import numpy as np\n"
        "try:\n"
        "    ember.arange(3).sum(axis=2)\n"
        "except np.exceptions.AxisError as e:\n"
        "    assert isinstance(e, E0) and isinstance(e, ember.AxisError)\n"
        "print('ok')\n")
    r = run_python("-c", code)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


# ---- memory orders -------------------------------------------------------

def _layouts(shape, device):
    n0 = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    e0 = ember.asarray(n0, device=device)
    yield "C", n0, e0
    yield "T", n0.T, e0.T
    yield "step", n0[..., ::2], e0[..., ::2]
    yield "neg", n0[::-1], e0[::-1]
    if n0.ndim == 3:
        yield "perm", n0.transpose(1, 0, 2), e0.transpose(1, 0, 2)
        yield "permstep", n0.transpose(2, 0, 1)[:, ::2], e0.transpose(2, 0, 1)[:, ::2]
    yield "F", np.asfortranarray(n0), ember.asarray(np.asfortranarray(n0), device=device)


def _order_cases(order):
    def mod(x):
        return ember if isinstance(x, ember.ndarray) else np
    cases = [("flatten", lambda x: x.flatten(order=order)),
             ("ravel", lambda x: x.ravel(order=order)),
             ("copy", lambda x: x.copy(order=order)),
             ("astype", lambda x: x.astype("float64", order=order)),
             ("asarray", lambda x: mod(x).asarray(x, order=order)),
             ("array", lambda x: mod(x).array(x, order=order)),
             ("module ravel", lambda x: mod(x).ravel(x, order=order))]
    if order != "K":
        cases.append(("reshape", lambda x: x.reshape(-1, order=order)))
    return cases


@pytest.mark.parametrize("shape", [(5,), (2, 3), (3, 4, 5), (1, 4), (4, 1),
                                   (2, 3, 1, 2), (2, 1, 3)])
def test_orders_match_numpy(device, shape):
    for name, nv, ev in _layouts(shape, device):
        for order in "CFAK":
            for fn, f in _order_cases(order):
                r, rn = f(ev), f(nv)
                where = (name, fn, order)
                assert_array_equal_np(r, rn)
                assert r.strides == rn.strides, where
                assert r.flags.c_contiguous == rn.flags.c_contiguous, where
                assert r.flags.f_contiguous == rn.flags.f_contiguous, where
                # a view exactly where NumPy gives one: ev itself, a view
                # of it, or of what it wraps (on cpu, ev is a view of nv;
                # on a GPU it is a copy, so ev itself stands for nv)
                view = r is ev or r.base is ev or (r.base is not None and
                                                   r.base is ev.base)
                assert np.shares_memory(rn, nv) == view, where


def test_ravel_view_writes_through(device):
    a = ember.zeros((3, 4), device=device).T      # F-contiguous
    r = a.ravel(order="K")
    r[5] = 7.0
    n = np.zeros((3, 4)).T
    n.ravel(order="K")[5] = 7.0
    assert_array_equal_np(a, n)


# ---- foreign arrays: __cuda_array_interface__ and DLPack ------------------

class _CAI:
    """What PyTorch, Numba and CuPy arrays show: only the interface."""

    def __init__(self, d):
        self.__cuda_array_interface__ = d


def _address(a):
    face = (a.__cuda_array_interface__ if a.device.type == "cuda"
            else a.__array_interface__)
    return face["data"][0]


def test_asarray_cuda_array_interface_zero_copy(device):
    src = ember.arange(12, dtype=ember.float64, device=device)
    face = {"shape": (3, 2), "typestr": "<f8", "data": (_address(src) + 16, False),
            "version": 3, "strides": (32, 8)}
    x = ember.asarray(_CAI(face))
    assert x.device == src.device
    assert_array_equal_np(x, np.arange(12.0)[2:].reshape(5, 2)[::2][:3])
    x[1, 1] = -1.0               # write through the wrap, read the source
    assert float(src[7]) == -1.0
    src[2] = 42.0                # and the other way
    assert float(x[0, 0]) == 42.0


def test_asarray_cuda_array_interface_host_memory(device):
    # Host memory handed over as if it were device memory (a cpu array's
    # or NumPy's address in a CUDA interface): where a CUDA driver works
    # it is asked, and the pointer is wrapped on cpu, never taken for
    # device memory (which faulted the GPU's context for the process).
    with ember.Device(device):               # the current device: any
        for src in (ember.arange(12, dtype=ember.float64, device="cpu"),
                    np.arange(12.0)):
            addr = (src.__array_interface__["data"][0])
            face = {"shape": (5,), "typestr": "<f8", "data": (addr + 8, False),
                    "version": 3, "strides": (16,)}
            x = ember.asarray(_CAI(face))
            assert x.device == ember.Device("cpu")
            assert_array_equal_np(x, np.arange(1.0, 11.0, 2.0))
            x[0] = -5.0                      # the wrap writes through
            assert float(src[1]) == -5.0
            y = ember.asarray(_CAI(face), device=device)   # a copy onto device
            assert y.device == ember.Device(device)
            assert_array_equal_np(y, np.array([-5.0, 3.0, 5.0, 7.0, 9.0]))
        g = ember.arange(4.0, device=device)  # device memory keeps its device
        if device != "cpu":
            face = dict(g.__cuda_array_interface__)
            assert ember.asarray(_CAI(face)).device == g.device
            with ember.Device("cpu"):
                assert ember.asarray(_CAI(face)).device == g.device


def test_asarray_dlpack_zero_copy(device):
    n = np.arange(6.0)
    if device == "cpu":
        x = ember.asarray(n, device="cpu")   # the default device may be a GPU
        x[1] = 9.0
        assert n[1] == 9.0
        y = ember.from_dlpack(n)
        y[2] = 8.0
        assert n[2] == 8.0
        e = ember.arange(4.0, device=device)
        back = np.from_dlpack(e)         # NumPy over ember's memory
        back[0] = 5.0
        assert float(e[0]) == 5.0

    class Producer:                     # only the DLPack protocol
        def __init__(self, x):
            self.x = x

        def __dlpack__(self, **kw):
            return self.x.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self.x.__dlpack_device__()
    e = ember.arange(5.0, device=device)
    z = ember.asarray(Producer(e))
    z[3] = -3.0
    assert float(e[3]) == -3.0
    assert z.device == e.device


# ---- .flat -----------------------------------------------------------------

@pytest.mark.parametrize("layout", ["C", "T", "step"])
def test_flat_reads(device, layout):
    n0 = np.arange(24.0).reshape(4, 6)
    e0 = ember.asarray(n0, device=device)
    n, e = {"C": (n0, e0), "T": (n0.T, e0.T), "step": (n0[:, ::2], e0[:, ::2])}[layout]
    f = e.flat
    assert len(f) == n.size and f.base is e
    assert [float(x) for x in f] == list(n.flat)
    for key in (5, -1, slice(2, 9), slice(None, None, -3), [1, 3, 2],
                np.array([[0, 4], [7, 1]]), n.ravel() > 9.0, Ellipsis):
        got = e.flat[key]
        want = n.flat[key]
        if np.ndim(want) == 0:
            assert float(got) == want, key
        else:
            assert_array_equal_np(got, want)
    assert_array_equal_np(e.flat.copy(), n.flatten())
    with pytest.raises(IndexError):
        e.flat[n.size]
    with pytest.raises(IndexError, match="too many indices for flat iterator"):
        e.flat[n > 3]
    # a slice of a.flat is a copy, as NumPy's
    s = e0.flat[0:3]
    s[0] = -5.0
    assert float(e0[0, 0]) == 0.0


@pytest.mark.parametrize("layout", ["C", "T", "step"])
def test_flat_writes(device, layout):
    n0 = np.arange(24.0).reshape(4, 6)
    e0 = ember.asarray(n0, device=device)
    n, e = {"C": (n0, e0), "T": (n0.T, e0.T), "step": (n0[:, ::2], e0[:, ::2])}[layout]
    writes = [(3, -1.0), (-2, -2.0), (slice(1, 8, 2), -3.0),
              (slice(0, 6), [10.0, 11.0]),            # cycled, as NumPy's
              ([0, 5, 7], [20.0, 21.0, 22.0]), ([2, 4, 9], [30.0, 31.0]),
              (np.arange(n.size) % 5 == 0, 0.5), (np.arange(n.size) % 3 == 0, [7.0, 8.0]),
              (Ellipsis, 1.5)]
    for key, val in writes[:-1]:
        n.flat[key] = val
        e.flat[key] = val
        assert_array_equal_np(e0, n0)
    n.flat[writes[-1][0]] = writes[-1][1]
    e.flat[writes[-1][0]] = writes[-1][1]
    assert_array_equal_np(e0, n0)
    f = e.flat                    # reads after writes through one flatiter
    assert float(f[4]) == n.flat[4]
    f[4] = -9.0
    assert float(f[4]) == -9.0
    with pytest.raises(IndexError):
        e.flat[[0, n.size]] = 1.0


# ---- .data, MemoryPointer, UnownedMemory, the constructor ------------------

def test_data_is_a_memory_pointer(device):
    a = ember.arange(12, dtype=ember.float64, device=device).reshape(3, 4)
    p = a.data
    assert isinstance(p, ember.cuda.MemoryPointer)
    assert p.ptr == _address(a) == int(p)
    assert p.device == a.device and p.mem.ptr == p.ptr and p.mem.size == a.nbytes
    assert (p + 16).ptr == p.ptr + 16 and (p + 16 - 8).ptr == p.ptr + 8
    assert a[1:].data.ptr == p.ptr + 32
    assert a[::-1].data.ptr == p.ptr + 64          # its first element, as CuPy's
    assert a[::-1].data.mem.ptr == p.ptr
    with pytest.raises(ValueError):
        p + 200                                      # past the memory's end
    del a
    assert p.mem.owner.shape == (12,) or p.mem.owner.shape == (3, 4)  # kept alive


def test_ndarray_over_memptr(device):
    with ember.Device(device):
        a = ember.arange(12, dtype=ember.float64).reshape(3, 4)
        b = ember.ndarray((2, 2), dtype=ember.float64, memptr=a.data + 8)
        assert_array_equal_np(b, np.arange(1.0, 5.0).reshape(2, 2))
        b[0, 0] = 99.0                                # aliases a
        assert float(a[0, 1]) == 99.0
        c = ember.ndarray((2, 3), dtype=ember.float64, memptr=a.data, strides=(8, 32))
        want = np.arange(12.0).reshape(3, 4)
        want[0, 1] = 99.0
        assert_array_equal_np(c, np.lib.stride_tricks.as_strided(want.ravel(), (2, 3),
                                                                 (8, 32)))
        u = ember.cuda.UnownedMemory(a.data.ptr, a.nbytes, a, device_id=a.device)
        assert u.owner is a and u.size == 96 and u.device == a.device
        d = ember.ndarray((12,), memptr=ember.cuda.MemoryPointer(u, 0))
        d[11] = -1.0
        assert float(a[2, 3]) == -1.0
        with pytest.raises(ValueError):
            ember.ndarray((13,), memptr=ember.cuda.MemoryPointer(u, 0))
        with pytest.raises(ValueError):
            ember.cuda.MemoryPointer(u, 97)
        with pytest.raises(TypeError):
            ember.ndarray((2,), memptr=12345)
        empty = ember.cuda.MemoryPointer(ember.cuda.UnownedMemory(0, 0, None), 0)
        with pytest.raises(ValueError):          # a size-0 memory holds nothing
            ember.ndarray((3,), memptr=empty)
        assert ember.ndarray((0,), memptr=empty).size == 0
        # fresh memory: dtype, order, strides as asked
        f = ember.ndarray((2, 3), dtype="int32", order="F")
        assert f.dtype == ember.int32 and f.strides == (4, 8) and f.device == ember.Device(device)
        g = ember.ndarray((2, 3), strides=(8, 16))
        assert g.strides == (8, 16)
        g[...] = 1.0
        assert_array_equal_np(g, np.ones((2, 3)))
        with pytest.raises(ValueError):
            ember.ndarray((-1, 2))
        with pytest.raises((ValueError, OverflowError, MemoryError)):
            ember.ndarray((2 ** 40, 2 ** 30))
        with pytest.raises(ValueError, match="too big"):
            ember.ndarray((2 ** 20,), strides=(2 ** 60,))


# ---- subclasses --------------------------------------------------------------

class _Tagged(ember.ndarray):
    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "new")


def test_subclass(device):
    with ember.Device(device):
        a = ember.arange(6.0).reshape(2, 3)
        t = a.view(_Tagged)
        assert type(t) is _Tagged and t.tag == "new"
        t.tag = "mine"
        for v in (t[1:], t.T, t.reshape(3, 2), t.ravel(), t[0]):
            assert type(v) is _Tagged and v.tag == "mine", type(v)
        assert_array_equal_np(t + 1, np.arange(1.0, 7.0).reshape(2, 3))
        assert float(t.sum()) == 15.0 and float(ember.sum(t)) == 15.0
        assert type(t.view(ember.ndarray)) is ember.ndarray
        fresh = _Tagged((4,), dtype=ember.int64)
        assert type(fresh) is _Tagged and fresh.shape == (4,)
        fresh[...] = 3
        assert_array_equal_np(fresh * 2, np.full(4, 6))
        assert isinstance(t, ember.ndarray)


# ---- round, byteswap ---------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int32", "int8"])
def test_round_method(device, dtype):
    n = (np.array([1.25, 2.5, -3.456, 1234.5678, 0.5, -0.5]) * 3).astype(dtype)
    e = ember.asarray(n, device=device)
    for dec in (0, 1, 2, -1, -2):
        assert_array_equal_np(e.round(dec), n.round(dec))
        assert_array_equal_np(e.round(decimals=dec), n.round(decimals=dec))
    out = ember.empty_like(e)
    r = e.round(1, out=out)
    assert r is out
    assert_array_equal_np(out, n.round(1))


@pytest.mark.parametrize("dtype", ["int16", "uint32", "int64", "float32", "float64",
                                   "complex64", "complex128", "uint8", "bool"])
def test_byteswap(device, dtype):
    n = (np.arange(12) * 1234567.891 - 5e6).astype(dtype).reshape(3, 4)
    e = ember.asarray(n, device=device)
    assert_array_equal_np(e.byteswap(), n.byteswap())
    assert_array_equal_np(e.T[::2].byteswap(), n.T[::2].byteswap())
    assert_array_equal_np(e, n)                       # not in place
    v = e.T
    assert v.byteswap(inplace=True) is v
    n.T.byteswap(inplace=True)
    assert_array_equal_np(e, n)


# ---- ufunc methods -------------------------------------------------------------

_BINARY = ["add", "multiply", "maximum", "minimum", "subtract", "power", "true_divide",
           "bitwise_xor", "bitwise_and", "logical_and", "logical_or", "fmax", "fmin",
           "floor_divide", "arctan2", "hypot", "gcd"]


def _operands(name):
    n = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    if name in ("true_divide", "fmax", "fmin", "arctan2", "hypot", "power"):
        n = n.astype(np.float64) / 3
    return n


def _fold(nu, n, axis):
    """reduce's definition, op(op(op(x0, x1), x2), ...), one NumPy call a
    step: NumPy 2.5.2's own power.reduce and arctan2.reduce along a
    contiguous axis give x0 op x_last (seen on the GPU host), so the fold,
    not NumPy's reduce, is the reference."""
    rows = np.moveaxis(n, axis, 0)
    r = rows[0]
    for x in rows[1:]:
        r = nu(r, x)
    return r


def _reduceat(nu, n, idx, axis):
    """reduceat's definition over _fold: each piece idx[i]:idx[i+1], or the
    element idx[i] alone where the next index is not past it (NumPy's rule);
    integer adds and multiplies go through NumPy's own, for its wider dtype."""
    if n.dtype.kind != "f":
        return nu.reduceat(n, idx, axis=axis)
    rows = np.moveaxis(n, axis, 0)
    out = []
    for i, lo in enumerate(idx):
        hi = idx[i + 1] if i + 1 < len(idx) else len(rows)
        out.append(_fold(nu, rows[lo:hi], 0) if hi > lo else rows[lo])
    return np.moveaxis(np.stack(out), 0, axis)


def _same(got, want):
    if isinstance(want, Exception):
        assert isinstance(got, type(want)), (got, want)
        return
    assert not isinstance(got, Exception), got
    assert_array_equal_np(got, want) if np.asarray(want).dtype.kind not in "fc" else (
        np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-12),
        _dtype_shape(got, want))


def _dtype_shape(got, want):
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)


def _both(f):
    try:
        return f()
    except Exception as ex:      # the same class of error as NumPy's
        return ex


@pytest.mark.parametrize("name", _BINARY)
def test_ufunc_reduce_accumulate_reduceat_outer(device, name):
    n = _operands(name)
    e = ember.asarray(n, device=device)
    eu, nu = getattr(ember, name), getattr(np, name)
    for ax in (0, 1, -1):
        # integer adds and multiplies reduce in NumPy's wider dtype: its reduce
        want = _fold(nu, n, ax) if n.dtype.kind == "f" else nu.reduce(n, axis=ax)
        _same(eu.reduce(e, axis=ax), want)
    for ax in (None, (0, 1)):
        _same(_both(lambda: eu.reduce(e, axis=ax)), _both(lambda: nu.reduce(n, axis=ax)))
    want = (np.expand_dims(_fold(nu, n, 1), 1) if n.dtype.kind == "f"
            else nu.reduce(n, axis=1, keepdims=True))
    _same(eu.reduce(e, axis=1, keepdims=True), want)
    _same(eu.accumulate(e), nu.accumulate(n))
    _same(eu.accumulate(e, axis=1), nu.accumulate(n, axis=1))
    for idx in ([0, 2, 1, 3], [3], [0, 0, 1]):
        _same(eu.reduceat(e, idx, axis=1), _reduceat(nu, n, idx, 1))
    _same(eu.reduceat(e, [0, 2]), _reduceat(nu, n, [0, 2], 0))
    _same(eu.outer(e[0], e[:, 1]), nu.outer(n[0], n[:, 1]))
    _same(eu.outer(e, e[1]), nu.outer(n, n[1]))
    # NumPy's ufunc methods on ember arrays run ember's
    _same(nu.reduce(e, axis=0),
          _fold(nu, n, 0) if n.dtype.kind == "f" else nu.reduce(n, axis=0))


def test_ufunc_method_dtypes_and_arguments(device):
    i8 = np.array([100, 100, -3], np.int8)
    e8 = ember.asarray(i8, device=device)
    _same(ember.add.reduce(e8), np.add.reduce(i8))                  # int64
    _same(ember.add.accumulate(e8), np.add.accumulate(i8))
    _same(ember.add.accumulate(e8, dtype="int8"), np.add.accumulate(i8, dtype="int8"))
    _same(ember.maximum.reduce(e8, dtype="float32"), np.maximum.reduce(i8, dtype="float32"))
    _same(ember.subtract.accumulate(e8), np.subtract.accumulate(i8))
    _same(ember.add.reduce(e8, initial=5), np.add.reduce(i8, initial=5))
    z = np.zeros((0, 3))
    ez = ember.asarray(z, device=device)
    _same(ember.maximum.reduce(ez, axis=0, initial=-1.0),
          np.maximum.reduce(z, axis=0, initial=-1.0))
    _same(ember.add.reduce(ez, axis=0), np.add.reduce(z, axis=0))
    with pytest.raises(ValueError, match="no identity"):
        ember.subtract.reduce(ez, axis=0)
    zi = np.zeros((0, 3), np.int64)
    for name in ("bitwise_and", "bitwise_or", "gcd"):
        _same(getattr(ember, name).reduce(ember.asarray(zi, device=device), axis=0),
              getattr(np, name).reduce(zi, axis=0))
    _same(ember.hypot.reduce(ez, axis=0), np.hypot.reduce(z, axis=0))
    _same(ember.logaddexp.reduce(ez, axis=0), np.logaddexp.reduce(z, axis=0))
    with pytest.raises(ValueError, match="not reorderable"):
        ember.subtract.reduce(ember.ones((2, 2), device=device), axis=None)
    with pytest.raises(TypeError, match="No loop matching"):
        ember.less.reduce(e8)
    with pytest.raises(ValueError, match="only supported for binary functions"):
        ember.sqrt.reduce(e8)
    with pytest.raises(IndexError):
        ember.add.reduceat(e8, [0, 3])
    n = np.arange(12.0).reshape(3, 4) - 4
    e = ember.asarray(n, device=device)
    w = n % 3 != 0
    ew = ember.asarray(w, device=device)
    for name, kw in (("add", {}), ("multiply", {}), ("add", {"initial": 2.0}),
                     ("maximum", {"initial": -100.0}), ("minimum", {"initial": 100.0}),
                     ("logical_or", {})):
        for ax in (0, 1, None):
            _same(getattr(ember, name).reduce(e, axis=ax, where=ew, **kw),
                  getattr(np, name).reduce(n, axis=ax, where=w, **kw))
    _same(ember.add.reduce(e, axis=1, where=ember.asarray([True, False, True, True],
                                                           device=device)),
          np.add.reduce(n, axis=1, where=[True, False, True, True]))
    with pytest.raises(ValueError, match="initial"):
        ember.maximum.reduce(e, where=ew)
    out = ember.empty(3, dtype=ember.float64, device=device)
    assert ember.multiply.accumulate(e8, out=out) is out
    _same(out, np.multiply.accumulate(i8).astype(np.float64))


def test_ufunc_at(device):
    def both(fn):
        n = np.arange(12.0).reshape(3, 4)
        e = ember.asarray(n, device=device)
        fn(ember, e)
        fn(np, n)
        assert_array_equal_np(e, n)
    both(lambda m, x: m.add.at(x, (0, [0, 1, 0, 0]), [1.0, 2.0, 3.0, 4.0]))  # repeats add up
    both(lambda m, x: m.subtract.at(x, ([1, 1, 2], [3, 3, 0]), 1.5))
    both(lambda m, x: m.multiply.at(x, (slice(None), [0, 0, 3]), 2.0))
    both(lambda m, x: m.maximum.at(x, [2, 0, 2], 5.0))                     # rows
    both(lambda m, x: m.negative.at(x, (2, [1, 2])))                       # unary
    both(lambda m, x: m.power.at(x, (np.array([[0], [1]]), np.array([1, 2])), 2.0))
    n = np.zeros(5, np.int64)
    e = ember.zeros(5, dtype=ember.int64, device=device)
    idx = [0, 4, 4, 4, 1, 0]
    ember.add.at(e, idx, 1)
    np.add.at(n, idx, 1)
    assert_array_equal_np(e, n)
    with pytest.raises(ValueError):
        ember.add.at(e, [0])                     # no second operand
    with pytest.raises(IndexError):
        ember.add.at(e, [7], 1)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.float64, np.complex128, bool])
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract",
                                  "bitwise_xor"])
def test_ufunc_at_repeats(device, dtype, name):
    """Many repeats of few positions (folded by key, or applied in rounds)
    give NumPy's values; a float operand on an integer array casts each
    step back as NumPy's at() does."""
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 7, 400)
    b = rng.integers(0, 3, 400).astype(dtype)
    n = (np.arange(7) % 3 + 1).astype(dtype)
    try:
        getattr(np, name).at(n, idx, b)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(ember, name).at(ember.asarray(n, device=device), idx,
                                    ember.asarray(b, device=device))
        return
    e = ember.asarray((np.arange(7) % 3 + 1).astype(dtype), device=device)
    getattr(ember, name).at(e, ember.asarray(idx, device=device),
                            ember.asarray(b, device=device))
    if np.dtype(dtype).kind in "fc":
        np.testing.assert_allclose(ember.asnumpy(e), n, rtol=1e-12)
    else:
        assert_array_equal_np(e, n)


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.uint16, bool])
@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_and",
                                  "logical_or", "subtract"])
def test_ufunc_reduceat_every_axis(device, dtype, name):
    """reduceat along each axis: increasing bounds (one segmented reduction
    for the ufuncs that have one, the first bound past 0 too), and
    repeated and decreasing ones (a bound that does not increase takes its
    first element); NumPy's values and dtypes."""
    a = np.random.default_rng(1).integers(0, 5, (4, 13, 3)).astype(dtype)
    e = ember.asarray(a, device=device)
    for axis, idx in itertools.product((0, 1, 2), ("rising", "late", "mixed")):
        n = a.shape[axis]
        idx = {"rising": [0, 1, n - 1], "late": [1, 2] if n > 2 else [1],
               "mixed": [0, 2, 2, 1, n - 1] if n > 2 else [0, 1, 1, 0]}[idx]
        try:
            want = getattr(np, name).reduceat(a, idx, axis=axis)
        except TypeError:
            with pytest.raises(TypeError):
                getattr(ember, name).reduceat(e, idx, axis=axis)
            return
        got = getattr(ember, name).reduceat(e, idx, axis=axis)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-12)
    with pytest.raises(IndexError):
        getattr(ember, name).reduceat(e, [0, 99], axis=1)


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.uint16, bool])
@pytest.mark.parametrize("name", ["maximum", "minimum", "logical_and", "logical_xor",
                                  "bitwise_or", "fmax"])
def test_ufunc_accumulate_scans(device, dtype, name):
    """accumulate along each axis (one scan for maximum, minimum and the
    logical and bitwise ufuncs, a NaN carried forward as NumPy's maximum
    carries it), NumPy's values and dtypes."""
    a = np.random.default_rng(2).integers(0, 5, (4, 13, 3)).astype(dtype)
    if a.dtype.kind == "f":
        a[1, 3, 1], a[2, 0, 0] = np.nan, -np.inf
    e = ember.asarray(a, device=device)
    for axis in (0, 1, 2):
        try:
            want = getattr(np, name).accumulate(a, axis=axis)
        except TypeError:
            with pytest.raises(TypeError):
                getattr(ember, name).accumulate(e, axis=axis)
            return
        got = getattr(ember, name).accumulate(e, axis=axis)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(ember.asnumpy(got), want)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, bool])
@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "logical_xor"])
def test_ufunc_bitwise_reduce(device, dtype, name):
    """The bitwise and logical reductions (one parallel reduction each),
    over one axis, several and all, keepdims and initial (cast to the
    reduction's dtype first, as NumPy's), NumPy's values, dtypes, shapes."""
    a = np.random.default_rng(4).integers(0, 50, (4, 13, 3)).astype(dtype)
    e = ember.asarray(a, device=device)
    for axis in (0, 2, (0, 2), None):
        for keepdims in (False, True):
            for initial in (None, 5):
                kw = dict(axis=axis, keepdims=keepdims, initial=initial)
                want = getattr(np, name).reduce(a, **kw)
                got = getattr(ember, name).reduce(e, **kw)
                assert got.dtype == want.dtype and got.shape == want.shape
                np.testing.assert_array_equal(ember.asnumpy(got), want)


def test_ufunc_at_unsafe_step_cast(device):
    n = np.zeros(3, np.int64)
    np.add.at(n, [0, 0, 2], 1.5)
    e = ember.zeros(3, dtype=ember.int64, device=device)
    ember.add.at(e, [0, 0, 2], 1.5)
    assert_array_equal_np(e, n)                  # 0 + 1.5 -> 1, 1 + 1.5 -> 2
    with ember.Device(device):
        x = ember.arange(12.0).reshape(3, 4)
    ember.add.at(x, (slice(None), [1, 1]), ember.ones((3, 2), device=device))
    m = np.arange(12.0).reshape(3, 4)
    np.add.at(m, (slice(None), [1, 1]), np.ones((3, 2)))
    assert_array_equal_np(x, m)


def test_ufunc_dtype_argument(device):
    i8 = np.array([100, 100, -3], np.int8)
    e8 = ember.asarray(i8, device=device)
    ef = ember.asarray([1.5, 2.5], device=device)
    _same(ember.add(e8, e8, dtype="float32"), np.add(i8, i8, dtype="float32"))
    _same(ember.add(e8, 1, dtype="int16"), np.add(i8, 1, dtype="int16"))
    _same(ember.multiply(e8, 2.5, dtype="float64"), np.multiply(i8, 2.5, dtype="float64"))
    _same(ember.sqrt(ember.abs(e8), dtype="float32"), np.sqrt(np.abs(i8), dtype="float32"))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' input 0"):
        ember.add(ef, 1, dtype="int8")
    with pytest.raises(TypeError, match="No loop matching"):
        ember.less(ef, 1, dtype="float64")


def test_ufunc_dtype_with_bad_out(device):
    # The fuzzer's crash: a positional out that is no array, with dtype=,
    # read as an array before it was checked. NumPy's TypeError instead,
    # whatever the current device and wherever the input lives.
    swapped = np.ones((3, 0, 2), bool).astype(np.dtype(bool).newbyteorder())
    x = ember.asarray(swapped, device=device)
    with ember.Device(device):
        for inp in (swapped, x, np.ones(3)):
            with pytest.raises(TypeError):
                ember.sinh(inp, 7, dtype="F")
            with pytest.raises(TypeError):
                ember.sinh(inp, out=(7,), dtype="F")
        for call in (lambda: ember.add.reduce(x, out=7),
                     lambda: ember.add.reduce(x, 0, "f4", 7),
                     lambda: ember.add.accumulate(x, out=7),
                     lambda: ember.add.reduceat(ember.ones(3, device=device), [0, 1],
                                                out=7),
                     lambda: ember.add.outer(x, x, out=7)):
            with pytest.raises(TypeError, match="out must be an ember array"):
                call()
    with ember.Device("cpu"):           # the array's device decides, not the current one
        r = ember.sinh(x, dtype="F")
    assert r.device == x.device and r.dtype == ember.complex64 and r.shape == (3, 0, 2)
    e = ember.asarray([0.5, -1.0], device=device)
    out = ember.empty(2, dtype=ember.complex64, device=device)
    assert ember.sinh(e, out, dtype="F") is out
    _same(out, np.sinh(np.array([0.5, -1.0]), dtype="F"))
    # only Python scalars: dtype= alone gives the loop's type, as NumPy's
    with ember.Device(device):
        _same(ember.sinh(2.0, dtype="f4"), np.sinh(2.0, dtype="f4"))
        _same(ember.add(2, 3, dtype="i1"), np.add(2, 3, dtype="i1"))
        with pytest.raises(OverflowError):
            ember.add(2, 300, dtype="i1")


def test_matmul_axes(device):
    rng = np.random.default_rng(0)
    A = rng.standard_normal((3, 4, 5))
    B = rng.standard_normal((5, 3, 6))
    eA, eB = ember.asarray(A, device=device), ember.asarray(B, device=device)
    for axes in ([(1, 2), (0, 2), (1, 2)], [(-2, -1), (0, 2), (0, 1)]):
        got = ember.matmul(eA, eB, axes=axes)
        want = np.matmul(A, B, axes=axes)
        assert got.shape == want.shape
        np.testing.assert_allclose(ember.asnumpy(got), want, rtol=1e-12)
    v = rng.standard_normal(5)
    got = ember.matmul(eA, ember.asarray(v, device=device), axes=[(1, 2), (0,), (1,)])
    np.testing.assert_allclose(ember.asnumpy(got), np.matmul(A, v, axes=[(1, 2), (0,), (1,)]))
    Bt = B.transpose(1, 0, 2)
    out, wout = ember.empty((3, 6, 4), device=device), np.empty((3, 6, 4))
    assert ember.matmul(eA, ember.asarray(Bt, device=device), axes=[(1, 2), (1, 2), (2, 1)],
                        out=out) is out
    np.matmul(A, Bt, axes=[(1, 2), (1, 2), (2, 1)], out=wout)
    np.testing.assert_allclose(ember.asnumpy(out), wout, rtol=1e-12)
    with pytest.raises(ValueError):
        ember.matmul(eA, eB, axes=[(1,), (0, 2), (1, 2)])
    with pytest.raises(np.exceptions.AxisError):
        ember.matmul(eA, eB, axes=[(1, 7), (0, 2), (1, 2)])


# ---- memory of advanced indexing -------------------------------------------------

# Made without temporaries; should the setup still leave a peak above what
# is in use, a balloon fills the gap, so the peak after the statement tells
# what the statement took.
_MEM_SETUP = (
    "import sys, ember, numpy as np\n"
    "dev = sys.argv[1]\n"
    "pool = ember.MemoryPool(dev)\n"
    "a = ember.zeros((40, 50, 60), dtype=ember.float32, device=dev)\n"
    "m = ember.asarray(np.arange(a.size).reshape(a.shape) % 3 == 0, device=dev)\n"
    "i = ember.asarray(np.arange(50) % 7, device=dev)\n"
    "x, y, z = i[:, None, None] % 40, i[None, :, None], i[None, None, :]\n"
    "v = ember.asarray(np.arange(40000, dtype=np.float32), device=dev)\n"
    "res = None\n"
    "gap = pool.stats()['peak_bytes'] - pool.stats()['used_bytes']\n"
    "balloon = ember.empty(gap, dtype=ember.uint8, device=dev) if gap else None\n"
    "used = pool.stats()['used_bytes']\n")
_MEM_CASES = {
    # name: (statement, bytes the result holds, allowed multiple of them)
    "mask fill": ("a[m] = 1.0", 0, 0),
    # the positions (8 bytes a True) and the values cast: 3 times the values
    "mask assign": ("a[m] = v", 40000 * 4, 4),
    "mask get": ("res = a[m]", 40000 * 4, 3),
    "broadcast ints": ("res = a[x, y, z]", 50 * 50 * 50 * 4, 3),
    "inner ints": ("res = a[:, i]", 40 * 50 * 60 * 4, 3),
    # a mask past the first axis: its True positions (8 bytes each) and one
    # take, no coordinates
    "inner mask": ("res = a[:, m[0]]", 40 * 1000 * 4, 2),
    "last-axis mask": ("res = a[..., m[0, 0]]", 40 * 50 * 20 * 4, 2),
    "ints assign": ("a[:, i[:, None], i[None, :50]] = 2.0", 40 * 50 * 50 * 4, 3),
}


@pytest.mark.parametrize("case", sorted(_MEM_CASES))
def test_advanced_indexing_memory(device, case):
    stmt, result_bytes, k = _MEM_CASES[case]
    code = (_MEM_SETUP + stmt + "\n"
            "print(pool.stats()['peak_bytes'] - used)\n")
    r = run_python("-c", code, device)
    assert r.returncode == 0, r.stderr
    transient = int(r.stdout.split()[-1])
    # the result (and for masks the compacted positions) and nothing of the
    # size of the coordinates of every True, or of the broadcast index space
    assert transient <= k * result_bytes + 64 * 1024, (case, transient, result_bytes)


def test_mask_assignment_values(device):
    n = np.arange(24.0).reshape(2, 3, 4)
    m = n % 3 == 0
    for layout in ("C", "T"):
        nn = n.copy() if layout == "C" else n.transpose(2, 0, 1).copy()
        mm = m if layout == "C" else m.transpose(2, 0, 1)
        e = ember.asarray(n, device=device)
        e = e if layout == "C" else e.transpose(2, 0, 1)
        for val in (5.0, np.arange(8.0) * 10, [7.0], np.float32(2)):
            nn[mm] = val
            e[ember.asarray(mm, device=device)] = val
            assert_array_equal_np(e, nn)
        with pytest.raises(ValueError):
            e[ember.asarray(mm, device=device)] = [1.0, 2.0]
    e = ember.asarray(n, device=device)
    assert_array_equal_np(e[m], n[m])              # a NumPy mask, compacted
    assert_array_equal_np(e[m[:, :, 0]], n[m[:, :, 0]])  # over the leading axes


def test_mask_past_the_first_axis(device):
    rng = np.random.default_rng(1)
    n = rng.standard_normal((4, 5, 6, 3))
    layouts = {"C": (n, ember.asarray(n, device=device)),
               "T": (n, ember.asarray(n.T.copy(), device=device).T),   # not mergeable
               "step": (n[:, :, ::2], ember.asarray(n, device=device)[:, :, ::2])}
    for name, (nn, e) in layouts.items():
        for k in range(4):
            for md in range(1, 5 - k):
                m = rng.random(nn.shape[k:k + md]) < 0.4
                rest = (slice(None),) * (4 - k - md)
                for key in ((slice(None),) * k + (m,), (slice(None),) * k + (m,) + rest,
                            (Ellipsis, m) + rest, (slice(None),) * k + (m, Ellipsis)):
                    want = nn[key]
                    for kk in (key, tuple(ember.asarray(x, device=device)
                                          if isinstance(x, np.ndarray) else x
                                          for x in key)):
                        assert_array_equal_np(e[kk], want)
    e = ember.zeros((3, 4), device=device)
    with pytest.raises(IndexError, match="boolean index did not match"):
        e[:, np.ones(3, bool)]
    with pytest.raises(IndexError):
        e[:, np.ones((4, 1), bool)]
    assert e[:, np.zeros(4, bool)].shape == (3, 0)


def test_memory_pointer_copies(device):
    a = ember.arange(8, dtype=ember.float64, device=device)
    b = ember.zeros(8, dtype=ember.float64, device=device)
    b.data.copy_from_device(a.data + 16, 24)               # a[2:5] -> b[0:3]
    assert_array_equal_np(b, np.array([2, 3, 4, 0, 0, 0, 0, 0], np.float64))
    h = np.zeros(4)
    a.data.copy_to_host(h, 32)
    np.testing.assert_array_equal(h, [0, 1, 2, 3])
    b.data.copy_from_host(np.full(2, 9.0), 16)
    b.data.copy_from_host_async(np.full(1, 8.0), 8, stream=None)
    (b.data + 56).memset(0xFF, 8)
    (b.data + 24).memset_async(0, 8)
    want = np.array([8, 9, 4, 0, 0, 0, 0, 0], np.float64)
    want.view(np.uint8)[56:] = 0xFF
    assert_array_equal_np(b, want)
    with pytest.raises(ValueError):
        b.data.copy_from_device(a.data, 72)                 # past a's 64 bytes
    with pytest.raises(ValueError):
        (b.data + 8).memset(0, 64)
    with pytest.raises(ValueError):
        a.data.copy_to_host(np.zeros(2), 32)                # host buffer too small
