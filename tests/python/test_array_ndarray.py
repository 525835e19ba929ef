"""ember.ndarray: attributes, one-element conversions, tolist, copies and
casts, shape methods, repr, and the ways NumPy and other libraries see it."""
import copy as pycopy
import pickle

import numpy as np
import pytest

import ember

from helpers import assert_array_equal_np, run_python

NUMPY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "float16", "float32", "float64", "complex64",
                "complex128"]


def host(dtype, shape=(3, 4)):
    n = int(np.prod(shape))
    if np.dtype(dtype).kind == "b":
        return (np.arange(n) % 3 == 0).reshape(shape)
    v = (np.arange(n) - n // 2)
    if np.dtype(dtype).kind == "u":
        v = np.arange(n)
    v = v.astype(dtype)
    if np.dtype(dtype).kind == "f":
        v = v / 4
    if np.dtype(dtype).kind == "c":
        v = v + 0.5j
    return v.reshape(shape).astype(dtype)


# ---- attributes ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_attributes(device, dtype):
    h = host(dtype, (3, 4))
    x = ember.asarray(h, device=device, copy=True)
    assert isinstance(x, ember.ndarray)
    assert x.shape == h.shape and x.ndim == 2 and x.size == 12
    assert x.strides == h.strides and x.itemsize == h.itemsize
    assert x.nbytes == h.nbytes and x.dtype == h.dtype
    assert isinstance(x.dtype, ember.dtype)
    assert x.device == ember.Device(device)
    assert len(x) == 3
    f = x.flags
    assert f["C_CONTIGUOUS"] and f.c_contiguous and not f["F_CONTIGUOUS"]
    assert f.writeable and f["WRITEABLE"] and f["W"]
    t = x.T
    assert t.shape == (4, 3) and t.strides == h.T.strides
    assert t.flags.f_contiguous and not t.flags.c_contiguous
    assert_array_equal_np(t, h.T)
    assert t.base is x
    assert t.T.base is x      # chains collapse to the owner, as in NumPy
    assert x.base is None


def test_mT_and_0d(device):
    x = ember.asarray(host("float32", (2, 3, 4)), device=device)
    assert_array_equal_np(x.mT, host("float32", (2, 3, 4)).mT)
    with pytest.raises(ValueError):
        ember.zeros(3, device=device).mT
    z = ember.asarray(5.0, device=device)
    assert z.shape == () and z.ndim == 0 and z.size == 1 and z.strides == ()
    with pytest.raises(TypeError, match="unsized"):
        len(z)
    with pytest.raises(TypeError, match="0-d"):
        iter(z)
    assert z.T.shape == ()


def test_flags_repr_and_errors(device):
    f = ember.zeros(3, device=device).flags
    assert "C_CONTIGUOUS : True" in repr(f) and "OWNDATA : True" in repr(f)
    with pytest.raises(KeyError):
        f["BOGUS"]
    with pytest.raises(TypeError):
        ember.ndarray()
    with pytest.raises(TypeError):
        hash(ember.zeros(1, device=device))


@pytest.mark.parametrize("make", [lambda m: m.zeros((3, 4)), lambda m: m.zeros((3, 4)).T,
                                  lambda m: m.zeros((3, 4))[:, ::2], lambda m: m.zeros((1, 4)).T,
                                  lambda m: m.zeros(5)])
def test_flags_derived_as_numpy(device, make):
    """NumPy's derived flags (np.isfortran reads a.flags.fnc of an ember array)."""
    want = make(np).flags
    with ember.Device(device):
        got = make(ember).flags
    for name in ["fnc", "forc", "behaved", "carray", "farray", "writebackifcopy"]:
        assert getattr(got, name) == getattr(want, name), name
    for key in ["FNC", "FORC", "B", "BEHAVED", "CA", "CARRAY", "FA", "FARRAY", "X"]:
        assert got[key] == want[key], key
        assert np.isfortran(make(ember)) == np.isfortran(make(np))


# ---- one element ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_item_and_scalar_conversions(device, dtype):
    h = host(dtype, (2, 3))
    x = ember.asarray(h, device=device)
    for idx in [(0, 0), (1, 2), (-1, -2)]:
        got, want = x[idx].item(), h[idx].item()
        assert type(got) is type(want) and got == want
        assert x.item(idx) == h.item(idx)
    assert x.item(4) == h.item(4)
    assert x.item(1, 1) == h.item(1, 1)
    one = x[1, 1]
    if np.dtype(dtype).kind != "c":
        assert float(one) == float(h[1, 1])
        assert int(one) == int(h[1, 1])
    assert complex(one) == complex(h[1, 1])
    assert bool(one) == bool(h[1, 1])


def test_scalar_conversion_errors(device):
    x = ember.arange(3, device=device)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(x)
    with pytest.raises(ValueError, match="empty"):
        bool(ember.zeros(0, device=device))
    with pytest.raises(TypeError, match="0-dimensional"):
        int(x)
    with pytest.raises(TypeError):
        float(x)
    with pytest.raises(ValueError, match="size 1"):
        x.item()
    with pytest.raises(IndexError):
        x.item(3)
    assert [10, 20, 30][x[1]] == 20                        # __index__
    # NumPy 2.4 refuses one element of ndim > 0 (it only warned before)
    one = ember.asarray([[7]], device=device)
    for conv in (int, float, complex):
        with pytest.raises(TypeError, match="only 0-dimensional"):
            conv(one)
        with pytest.raises(TypeError, match="only 0-dimensional"):
            conv(np.asarray([[7]]))
        assert conv(one[0, 0]) == conv(np.int64(7))
    assert bool(one) and bool(np.asarray([[7]]))
    with pytest.raises(TypeError, match="integer scalar"):
        [1][ember.asarray(0.0, device=device)]
    with pytest.raises(TypeError, match="integer scalar"):
        [1][ember.asarray([0], device=device)]
    nan = ember.asarray(float("nan"), device=device)
    with pytest.raises(ValueError):
        int(nan)


def test_specials_round_trip(device):
    h = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e-45, 65504], np.float32)
    x = ember.asarray(h, device=device)
    assert_array_equal_np(x, h)
    got = x.tolist()
    assert np.isnan(got[0]) and got[1:3] == [np.inf, -np.inf]
    assert str(got[3]) == "-0.0"
    h16 = h.astype(np.float16)
    assert x.astype(ember.float16).tolist()[1:] == h16.tolist()[1:]


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_tolist(device, dtype):
    for shape in [(), (0,), (4,), (2, 3), (2, 0, 3), (1, 2, 1, 2)]:
        h = host(dtype, shape)
        got = ember.asarray(h, device=device).tolist()
        assert got == h.tolist()
        assert type(got) is type(h.tolist())
    h = host(dtype, (3, 4))[::-1, ::2]
    assert ember.asarray(host(dtype, (3, 4)), device=device)[::-1, ::2].tolist() == h.tolist()


def to_bfloat16(values):
    """float32 values rounded to bfloat16 (nearest, ties to even), as float32."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


def test_bfloat16_values(device):
    values = [1.0, -2.5, 3.015625, 3.0078125, 1e30, -0.0]
    x = ember.asarray(values, dtype=ember.bfloat16, device=device)
    assert x.dtype == ember.bfloat16 and x.itemsize == 2
    want = to_bfloat16(values)
    assert x.tolist() == want.tolist()
    assert_array_equal_np(x.astype(ember.float32), want)
    assert_array_equal_np(ember.asarray(want, device=device).astype(ember.bfloat16)
                          .astype(ember.float64), want.astype(np.float64))
    assert "dtype=bfloat16" in repr(x)
    with pytest.raises(TypeError, match="bfloat16"):
        x.get()
    with pytest.raises(TypeError, match="bfloat16"):
        ember.asnumpy(x)


# ---- copies, casts, fill -------------------------------------------------------------------

@pytest.mark.parametrize("src", NUMPY_DTYPES)
@pytest.mark.parametrize("dst", NUMPY_DTYPES)
def test_astype_every_pair(device, src, dst):
    h = host(src, (2, 5))
    if np.dtype(src).kind == "f" and np.dtype(dst).kind in "iu":
        h = np.abs(h)      # float to unsigned of negatives is undefined in C
    if np.dtype(src).kind == "c" and np.dtype(dst).kind in "iu":
        h = np.abs(h.real).astype(src)
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = h.astype(dst)
    x = ember.asarray(h, device=device)
    assert_array_equal_np(x.astype(dst), want)
    assert_array_equal_np(x[:, ::-2].astype(dst), want[:, ::-2])


def test_astype_copy_and_casting(device):
    x = ember.arange(4, device=device)
    assert x.astype(ember.int64, copy=False) is x
    y = x.astype(ember.int64)
    assert y is not x
    assert x.astype("float32", copy=False).dtype == ember.float32
    with pytest.raises(TypeError, match="Cannot cast"):
        x.astype(ember.int8, casting="safe")
    assert x.astype(ember.float64, casting="safe").dtype == ember.float64
    with pytest.raises(ValueError, match="casting"):
        x.astype(ember.int8, casting="bogus")


def test_copy_fill_and_write_through(device):
    h = host("float32", (3, 4))
    x = ember.asarray(h, device=device)
    c = x.copy()
    assert c.base is None and c.flags.c_contiguous
    c.fill(2.5)
    assert_array_equal_np(c, np.full((3, 4), 2.5, np.float32))
    assert_array_equal_np(x, h)
    v = x[:, 1]
    v.fill(-1)
    h2 = h.copy()
    h2[:, 1] = -1
    assert_array_equal_np(x, h2)
    f = x.T.copy(order="K")
    assert f.flags.f_contiguous
    assert_array_equal_np(pycopy.copy(x), h2)
    assert_array_equal_np(pycopy.deepcopy(x), h2)
    x.fill(ember.asarray(7, device=device))
    assert_array_equal_np(x, np.full((3, 4), 7, np.float32))
    i8 = ember.zeros(3, dtype=ember.int8, device=device)
    with pytest.raises(OverflowError):
        i8.fill(300)
    with pytest.raises(TypeError):
        i8.fill("a")
    with pytest.raises(ValueError, match="NaN"):
        i8.fill(float("nan"))


# ---- shape methods ---------------------------------------------------------------------------

def test_reshape_views_and_copies(device):
    h = np.arange(24, dtype=np.int32)
    x = ember.asarray(h, device=device)
    r = x.reshape(2, 3, 4)
    assert r.base is x or r.base is x.base
    assert_array_equal_np(r, h.reshape(2, 3, 4))
    assert_array_equal_np(x.reshape((4, -1)), h.reshape(4, -1))
    assert_array_equal_np(x.reshape([6, 4], order="F"), h.reshape(6, 4, order="F"))
    assert_array_equal_np(x.reshape(shape=(3, 8)), h.reshape(3, 8))
    t = r.transpose(2, 0, 1)
    assert_array_equal_np(t, h.reshape(2, 3, 4).transpose(2, 0, 1))
    flat = t.reshape(-1)           # needs a copy
    assert flat.base is None
    assert_array_equal_np(flat, h.reshape(2, 3, 4).transpose(2, 0, 1).reshape(-1))
    with pytest.raises(ValueError, match="copy"):
        t.reshape(-1, copy=False)
    assert_array_equal_np(t.ravel(), h.reshape(2, 3, 4).transpose(2, 0, 1).ravel())
    assert_array_equal_np(t.flatten(), h.reshape(2, 3, 4).transpose(2, 0, 1).flatten())
    assert_array_equal_np(r.ravel(order="F"), h.reshape(2, 3, 4).ravel(order="F"))
    with pytest.raises(ValueError, match="cannot reshape"):
        x.reshape(5, 5)
    with pytest.raises(ValueError, match="unknown"):
        x.reshape(-1, -1)
    with pytest.raises(TypeError):
        x.reshape(2.0, 12)
    assert_array_equal_np(ember.zeros((0, 3), device=device).reshape(3, 0, 5),
                          np.zeros((3, 0, 5)))
    assert_array_equal_np(ember.asarray(3, device=device).reshape(1, 1), [[3]])


def test_transpose_swapaxes_squeeze(device):
    h = np.arange(24).reshape(2, 1, 3, 4)
    x = ember.asarray(h, device=device)
    assert_array_equal_np(x.transpose(), h.transpose())
    assert_array_equal_np(x.transpose((1, 0, 3, 2)), h.transpose((1, 0, 3, 2)))
    assert_array_equal_np(x.transpose(-1, 0, 1, 2), h.transpose(-1, 0, 1, 2))
    assert_array_equal_np(x.swapaxes(0, -1), h.swapaxes(0, -1))
    assert_array_equal_np(x.squeeze(), h.squeeze())
    assert_array_equal_np(x.squeeze(1), h.squeeze(1))
    with pytest.raises(ValueError, match="repeated"):
        x.transpose(0, 0, 1, 2)
    with pytest.raises(ValueError, match="don't match"):
        x.transpose(0, 1)
    with pytest.raises(ember.AxisError):
        x.transpose(0, 1, 2, 4)
    with pytest.raises(ValueError):
        x.squeeze(0)
    assert issubclass(ember.AxisError, ValueError) and issubclass(ember.AxisError, IndexError)


def test_view_dtype(device):
    h = np.array([1.0, -2.0], np.float32)
    x = ember.asarray(h, device=device)
    assert_array_equal_np(x.view(ember.int32), h.view(np.int32))
    assert_array_equal_np(x.view("uint32"), h.view(np.uint32))
    v = x.view()
    assert v.base is x or v.base is x.base
    # another itemsize rescales the last axis, as NumPy's view does
    assert_array_equal_np(x.view(ember.float64), h.view(np.float64))


def whole_items(v, base):
    # ember's alignment: offset and strides in whole items (a complex128
    # at 16 bytes; NumPy asks 8)
    k = v.dtype.itemsize
    return v.size == 0 or ((v.ctypes.data - base.ctypes.data) % k == 0 and all(
        st % k == 0 for n, st in zip(v.shape, v.strides) if n > 1))


def numpy_error(f):
    try:
        f()
    except ValueError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("dt", [np.int8, np.uint16, np.float32, np.float64,
                                np.complex64, np.complex128])
def test_view_other_itemsize_as_numpy(device, dt):
    # whole rows of new items or not, a strided last axis, extent 1, empty
    h = np.arange(48, dtype=np.int8).reshape(4, 12)
    cuts = [lambda a: a, lambda a: a[:, :8], lambda a: a[::2],
            lambda a: a[:, ::2], lambda a: a[:, :1], lambda a: a[:0],
            lambda a: a[:, :0], lambda a: a.reshape(48), lambda a: a[:, 2:8]]
    x = ember.asarray(h, device=device)
    for cut in cuts:
        c, e = cut(h), cut(x)
        err = numpy_error(lambda: c.view(dt))
        if err is None and not whole_items(c.view(dt), h):
            with pytest.raises(ValueError, match="not be aligned"):
                e.view(dt)
        elif err is None:
            got, want = e.view(dt), c.view(dt)
            assert (got.shape, got.dtype, got.strides) == \
                (want.shape, want.dtype, want.strides)
            assert_array_equal_np(got, want)
        else:
            with pytest.raises(ValueError, match=err[:40]):
                e.view(dt)
    with pytest.raises(ValueError, match="0d array"):
        ember.asarray(np.float32(1), device=device).view(ember.int16)


def test_view_of_buffer_bytes(device):
    # cuda.core's memory_ops example: raw bytes from DLPack seen as float32
    x = ember.zeros(4096, dtype=ember.int8, device=device)
    v = x.view(ember.float32)
    assert v.shape == (1024,) and v.strides == (4,)
    v[:] = 1.5
    assert_array_equal_np(x[:4], np.float32(1.5).reshape(1).view(np.int8))


def test_iteration(device):
    h = np.arange(6).reshape(3, 2)
    x = ember.asarray(h, device=device)
    rows = list(x)
    assert len(rows) == 3
    for r, hr in zip(rows, h):
        assert_array_equal_np(r, hr)
    assert [v.item() for v in ember.arange(4, device=device)] == [0, 1, 2, 3]


# ---- devices -------------------------------------------------------------------------------------

def test_to_device(device):
    x = ember.arange(4, device=device)
    assert x.to_device(device) is x
    c = x.to_device("cpu")
    assert c.device == ember.Device("cpu")
    assert_array_equal_np(c, np.arange(4))
    assert x.__array_namespace__() is ember


def test_to_device_gpu(need_cuda):
    x = ember.arange(4.0, device="cpu")[::2]
    g = x.to_device("cuda:0")
    assert g.device == ember.Device("cuda:0")
    assert_array_equal_np(g, np.arange(4.0)[::2])
    assert_array_equal_np(g.to_device("cpu"), np.arange(4.0)[::2])


# ---- repr and NumPy interop ----------------------------------------------------------------------

def test_repr_and_str(device):
    x = ember.asarray([1.0, 2.0], dtype=ember.float32, device=device)
    name = ember.Device(device)
    assert repr(x) == f"array([1., 2.], dtype=float32, device='{name}')"
    assert str(x) == "[1. 2.]"
    assert repr(ember.arange(3, device=device)) == f"array([0, 1, 2], device='{name}')"
    assert repr(ember.asarray(2.5, device=device)) == f"array(2.5, device='{name}')"
    big = ember.zeros((3, 40), device=device)
    assert repr(big).endswith(f"device='{name}')")
    assert repr(ember.zeros((0, 3), device=device)).startswith("array([], shape=(0, 3)")


def test_asnumpy_get_and_array(device):
    h = host("int16", (3, 4))
    x = ember.asarray(h, device=device)[:, ::2]
    for got in (x.get(), ember.asnumpy(x), np.asarray(x), np.array(x)):
        assert isinstance(got, np.ndarray)
        np.testing.assert_array_equal(got, h[:, ::2], strict=True)
    out = np.empty((3, 2), np.int16)
    assert x.get(out=out) is out
    np.testing.assert_array_equal(out, h[:, ::2])
    assert ember.asnumpy(h) is h or np.array_equal(ember.asnumpy(h), h)
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    np.testing.assert_array_equal(np.asarray(x, dtype=np.float64), h[:, ::2])
    assert np.asarray(x, dtype=np.int16).dtype == np.int16
    with pytest.raises(ValueError):
        x.get(out=np.empty((2, 2), np.int16))
    a = ember.asnumpy(x)
    a[0, 0] = 99          # a copy: the ember array does not change
    assert x[0, 0].item() == h[0, 0]


def test_cpu_exports_are_zero_copy():
    x = ember.arange(6, dtype=ember.float64, device="cpu")
    n = np.asarray(x)
    n[1] = 42
    assert x[1].item() == 42
    m = memoryview(x)
    assert m.format == "d" and m.shape == (6,) and not m.readonly
    ai = x.__array_interface__
    assert ai["version"] == 3 and ai["typestr"] == "<f8" and ai["shape"] == (6,)
    assert ai["strides"] is None
    s = x[::2]
    assert s.__array_interface__["strides"] == (16,)
    assert np.asarray(s).tolist() == [0.0, 2.0, 4.0]
    # only where no CUDA driver loads (test_numba_examples.py)
    assert hasattr(x, "__cuda_array_interface__") == (
        ember.cuda.runtime.driverGetVersion() == 0)
    y = np.asarray(x, copy=True)
    y[0] = -5
    assert x[0].item() == 0


def test_cuda_exports(need_cuda):
    x = ember.arange(6, dtype=ember.float32, device="cuda:0").reshape(2, 3)
    cai = x.__cuda_array_interface__
    assert cai["version"] == 3 and cai["typestr"] == "<f4" and cai["shape"] == (2, 3)
    assert cai["strides"] is None and cai["data"][0] != 0 and cai["data"][1] is False
    assert "stream" in cai
    assert x.T.__cuda_array_interface__["strides"] == (4, 12)
    with pytest.raises(BufferError):
        memoryview(x)
    assert not hasattr(x, "__array_interface__")
    np.testing.assert_array_equal(np.asarray(x), np.arange(6, dtype=np.float32).reshape(2, 3))
    with pytest.raises(ValueError):
        np.asarray(x, copy=False)


def test_pickle(device):
    x = ember.asarray(host("float32", (2, 3)), device=device)[:, ::2]
    y = pickle.loads(pickle.dumps(x))
    assert y.device == x.device
    assert_array_equal_np(y, host("float32", (2, 3))[:, ::2])


def test_arrays_do_not_import_numpy_until_asked():
    code = ("import ember, sys\n"
            "x = ember.arange(5, device='cpu') * 2 + 1\n"
            "y = ember.asarray([[1.5, 2], [3, 4]], device='cpu')\n"
            "assert x.tolist() == [1, 3, 5, 7, 9] and y[1, 0].item() == 3.0\n"
            "assert x.dtype == 'int64' and y.T.shape == (2, 2)\n"
            "assert 'numpy' not in sys.modules\n"
            "print('ok')\n")
    r = run_python("-c", code)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_arrays_on_a_stream_outlive_it(device):
    import gc
    with ember.Device(device):
        s = ember.Stream()
        with s:
            x = ember.arange(1000, dtype=ember.float32) * 2
            y = x + 1
        del s
        gc.collect()
        # The arrays keep the stream their memory is freed on; work on
        # them after the Stream object is gone is still right.
        z = y - x
        assert_array_equal_np(z, np.ones(1000, np.float32))
        del x, y
        gc.collect()
        assert z[999].item() == 1.0


def test_threads_share_arrays(device):
    import threading
    x = ember.arange(10000, dtype=ember.float64, device=device)
    results = []

    def work():
        r = x
        for _ in range(20):
            r = r + 1
        results.append(r.tolist()[-1])

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert results == [9999.0 + 20] * 4


def test_real_imag_conj_format(device):
    h = np.array([1 + 2j, -3.5 - 0.5j, 0j], np.complex64)
    x = ember.asarray(h, device=device, copy=True)
    assert_array_equal_np(x.real, h.real)
    assert_array_equal_np(x.imag, h.imag)
    assert x.real.base is x and x.imag.strides == h.imag.strides
    x.imag[...] = 7
    h.imag = 7
    assert_array_equal_np(x, h)
    assert_array_equal_np(x.conj(), h.conj())
    r = ember.arange(3.0, device=device)
    assert r.real is r
    assert_array_equal_np(r.imag, np.zeros(3))
    assert_array_equal_np(r.conj(), np.arange(3.0))
    assert f"{ember.asarray(2.5, device=device):.3f}" == "2.500"
    assert f"{r}" == str(np.arange(3.0))
