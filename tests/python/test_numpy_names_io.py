"""NumPy's construction, file, printing, error-state and type names at
ember's top level (python/ember/_api/fromdata, grids, npyio, array_print,
printing, fperr, scalar_types, memshare, showinfo) against NumPy on every
device, bad inputs included."""
import io
import pickle

import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np, run_python


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


# --- construction -----------------------------------------------------------

def test_import_leaves_numpy_and_names_load_lazily():
    r = run_python("-c", "import ember, sys\n"
                   "assert 'numpy' not in sys.modules\n"
                   "ember.geterr(); ember.ndindex(2); ember.s_[1:2]; ember.long\n"
                   "ember.little_endian; ember.euler_gamma; ember.iterable(3)\n"
                   "assert 'numpy' not in sys.modules, 'numpy'\n"
                   "ember.floating\n"
                   "assert 'numpy' in sys.modules\n")
    assert r.returncode == 0, r.stderr


def test_asanyarray_and_chkfinite(device):
    a = np.array([[1.5, 2.0], [3.0, 4.0]], np.float32)
    assert_array_equal_np(ember.asanyarray(a, device=device), np.asanyarray(a), device)
    x = E(a, device)
    assert ember.asanyarray(x) is x
    assert_array_equal_np(ember.asanyarray([1, 2], dtype=ember.int16, device=device),
                          np.asanyarray([1, 2], dtype=np.int16), device)
    assert_array_equal_np(ember.asarray_chkfinite(a, device=device),
                          np.asarray_chkfinite(a), device)
    assert_array_equal_np(ember.asarray_chkfinite([1, 2], device=device),
                          np.asarray_chkfinite([1, 2]), device)
    for bad in ([1.0, np.nan], [np.inf, 0.0], [1 + 0j, complex(0, np.inf)]):
        with pytest.raises(ValueError, match="infs or NaNs") as ours:
            ember.asarray_chkfinite(bad, device=device)
        with pytest.raises(ValueError) as theirs:
            np.asarray_chkfinite(bad)
        assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("req", [None, "C", "F", ["A", "W"], ["O"], ["E", "C"],
                                 ["ALIGNED", "WRITEABLE", "OWNDATA"],
                                 ["f_contiguous"]])
def test_require(device, req):
    a = np.arange(12, dtype=np.float64).reshape(3, 4)[:, ::2]
    x = E(np.arange(12, dtype=np.float64).reshape(3, 4), device)[:, ::2]
    got = ember.require(x, dtype=ember.float32, requirements=req)
    want = np.require(a, dtype=np.float32, requirements=req)
    assert_array_equal_np(got, want, device)
    for flag in ("c_contiguous", "f_contiguous", "owndata", "writeable"):
        if req and any(r.upper()[0] == flag[0].upper() for r in
                       ([req] if isinstance(req, str) else req)):
            assert getattr(got.flags, flag)


def test_require_keeps_and_errors(device):
    x = E(np.arange(6.0), device)
    assert ember.require(x, requirements="C") is x
    with pytest.raises(ValueError, match="both 'C' and 'F'"):
        ember.require(x, requirements=["C", "F"])
    with pytest.raises(KeyError):
        np.require(np.arange(3), requirements=["Z"])
    with pytest.raises(KeyError):
        ember.require(x, requirements=["Z"])


def test_fromfunction(device):
    calls = []

    def f(i, j, scale=1):
        calls.append((i.shape, j.shape))
        return (i * 10 + j) * scale

    with ember.Device(device):
        got = ember.fromfunction(f, (3, 4), dtype=ember.int32, scale=2)
    assert calls == [((3, 4), (3, 4))]      # once, with whole index arrays
    assert_array_equal_np(got, np.fromfunction(lambda i, j: (i * 10 + j) * 2, (3, 4),
                                               dtype=np.int32), device)
    with ember.Device(device):
        got = ember.fromfunction(lambda i: i / 2, (5,))
    assert_array_equal_np(got, np.fromfunction(lambda i: i / 2, (5,)), device)


@pytest.mark.parametrize("dtype,count,offset", [(np.float32, -1, 0), (np.int16, 3, 2),
                                                (np.uint8, -1, 5), (np.complex64, 1, 8)])
def test_frombuffer(device, dtype, count, offset):
    raw = np.arange(6, dtype=np.float32).tobytes()
    got = ember.frombuffer(raw, dtype=dtype, count=count, offset=offset, device=device)
    assert_array_equal_np(got, np.frombuffer(raw, dtype=dtype, count=count,
                                             offset=offset), device)


def test_frombuffer_bfloat16_and_errors(device):
    raw = np.array([1.0, -2.5, 3.0], np.float32).view(np.uint32) >> 16
    raw = raw.astype(np.uint16).tobytes()
    got = ember.frombuffer(raw, dtype=ember.bfloat16, device=device)
    assert got.dtype == ember.bfloat16
    assert_array_equal_np(got.astype(ember.float32), np.array([1.0, -2.5, 3.0],
                                                              np.float32), device)
    for kw in ({"dtype": np.float64}, {"dtype": np.float32, "count": 9},
               {"dtype": np.uint8, "offset": 99}):
        with pytest.raises(ValueError) as theirs:
            np.frombuffer(raw, **kw)
        with pytest.raises(ValueError) as ours:
            ember.frombuffer(raw, device=device, **kw)
        assert str(ours.value) == str(theirs.value)


def test_fromfile(device, tmp_path):
    a = np.arange(10, dtype=np.int32)
    p = tmp_path / "raw.bin"
    a.tofile(p)
    assert_array_equal_np(ember.fromfile(p, dtype=np.int32, device=device), a, device)
    assert_array_equal_np(ember.fromfile(p, dtype=np.int32, count=4, offset=8,
                                         device=device),
                          np.fromfile(p, dtype=np.int32, count=4, offset=8), device)
    t = tmp_path / "text.txt"
    t.write_text("1.5, 2.5, -3")
    assert_array_equal_np(ember.fromfile(t, sep=",", device=device),
                          np.fromfile(t, sep=","), device)
    with pytest.raises(FileNotFoundError):
        ember.fromfile(tmp_path / "missing.bin", device=device)


def test_fromiter(device):
    assert_array_equal_np(ember.fromiter((i * i for i in range(6)), dtype=ember.int64,
                                         device=device),
                          np.fromiter((i * i for i in range(6)), dtype=np.int64), device)
    assert_array_equal_np(ember.fromiter(iter([1.5, 2.5, 3.5]), np.float32, count=2,
                                         device=device),
                          np.fromiter(iter([1.5, 2.5, 3.5]), np.float32, count=2), device)
    got = ember.fromiter([0.5, 1.25], dtype=ember.bfloat16, device=device)
    assert got.dtype == ember.bfloat16
    assert_array_equal_np(got.astype(ember.float32), np.array([0.5, 1.25], np.float32),
                          device)
    with pytest.raises(ValueError, match="iterator too short"):
        ember.fromiter(range(2), np.int64, count=5, device=device)
    with pytest.raises(TypeError):
        ember.fromiter(range(2))


def test_fromstring(device):
    for s, kw in [("1 2 3", {"sep": " ", "dtype": np.int64}),
                  ("1.5,2,-4e3", {"sep": ","}),
                  ("1,2,3,4", {"sep": ",", "count": 2, "dtype": np.float32})]:
        assert_array_equal_np(ember.fromstring(s, device=device, **kw),
                              np.fromstring(s, **kw), device)
    with pytest.raises(TypeError):
        ember.fromstring("1 2")          # sep is keyword-only and required
    with pytest.raises(ValueError) as theirs:
        np.fromstring(b"\x00\x00\x80?", dtype=np.float32, sep="")
    with pytest.raises(ValueError) as ours:
        ember.fromstring(b"\x00\x00\x80?", dtype=np.float32, sep="", device=device)
    assert str(ours.value) == str(theirs.value)


def test_fromregex(device, tmp_path):
    p = tmp_path / "log.txt"
    p.write_text("a=1 b=2.5\na=3 b=-1.0\na=7 b=0.25\n")
    dt = [("a", np.int64), ("b", np.float64)]
    want = np.fromregex(p, r"a=(\d+) b=(\S+)", dt)
    got = ember.fromregex(p, r"a=(\d+) b=(\S+)", dt, device=device)
    assert got.device == ember.Device(device)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(ember.asnumpy(got), want)


# --- index expressions and grids --------------------------------------------

@pytest.mark.parametrize("key", [
    (slice(0, 5),), (slice(0, 3), slice(0, 2)), (slice(-1, 1, 0.5), slice(0, 2)),
    (slice(0, 1, 5j), slice(2, 3, 3j)), (slice(1, 10, 3), slice(5, 0, -2)),
    (slice(0, 1, 1j), slice(0, 4)), (), (slice(3, 0), slice(0, 2, 1j))])
def test_mgrid_ogrid(device, key):
    with ember.Device(device):
        try:
            want_m = np.mgrid[key]
        except ValueError:                  # a negative count, as NumPy's
            with pytest.raises(ValueError, match="negative"):
                ember.mgrid[key]
        else:
            assert_array_equal_np(ember.mgrid[key], want_m, device)
        got_o = ember.ogrid[key]
    want_o = np.ogrid[key]
    assert type(got_o) is type(want_o) and len(got_o) == len(want_o)
    for g, w in zip(got_o, want_o):
        assert_array_equal_np(g, w, device)


@pytest.mark.parametrize("key", [slice(0, 5), slice(2, 8, 2), slice(0, 1, 4j),
                                 slice(5, 0, -1), slice(0, 2.5, 0.5), slice(3, 3, 1j)])
def test_grid_one_slice(device, key):
    with ember.Device(device):
        assert_array_equal_np(ember.mgrid[key], np.mgrid[key], device)
        assert_array_equal_np(ember.ogrid[key], np.ogrid[key], device)


def test_grid_errors(device):
    with ember.Device(device):
        with pytest.raises(AttributeError):
            ember.mgrid[0:2, 1]
        with pytest.raises(AttributeError):
            ember.ogrid[3]
        with pytest.raises(ZeroDivisionError):
            ember.mgrid[0:2:0, 0:2]
        with pytest.raises(ValueError):
            ember.mgrid[5:0, 0:2]
    with pytest.raises(TypeError):
        len(ember.mgrid)


def test_s_index_exp(device):
    assert ember.s_[1:3] == np.s_[1:3] == slice(1, 3)
    assert ember.s_[::2, ..., None] == np.s_[::2, ..., None]
    assert ember.index_exp[1:3] == np.index_exp[1:3] == (slice(1, 3),)
    assert ember.index_exp[0, :] == np.index_exp[0, :]
    x = E(np.arange(12).reshape(3, 4), device)
    assert_array_equal_np(x[ember.s_[1:, ::2]], np.arange(12).reshape(3, 4)[1:, ::2],
                          device)


@pytest.mark.parametrize("shape", [(2, 3), ((2, 3),), (4,), (), ((),), (2, 0, 3),
                                   ((1, 2, 2),)])
def test_ndindex(shape):
    assert list(ember.ndindex(*shape)) == list(np.ndindex(*shape))
    it = ember.ndindex(*shape)
    assert iter(it) is it


def test_ndindex_errors():
    with pytest.raises(ValueError, match="negative"):
        ember.ndindex(2, -1)
    with pytest.raises(TypeError):
        ember.ndindex(2.5)
    with pytest.raises(TypeError):
        np.ndindex(2.5)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.bool_, np.complex64])
def test_ndenumerate(device, dtype):
    a = (np.arange(6).reshape(2, 3) % 3).astype(dtype)
    got = list(ember.ndenumerate(E(a, device)))
    want = list(np.ndenumerate(a))
    assert [i for i, _ in got] == [i for i, _ in want]
    assert [v for _, v in got] == [v for _, v in want]
    assert all(type(v) is type(w) for (_, v), (_, w) in zip(got, want))
    assert list(ember.ndenumerate([[1, 2]])) == list(np.ndenumerate([[1, 2]]))
    assert list(ember.ndenumerate(E(np.float64(2.5), device))) == [((), 2.5)]
    b = ember.asarray([0.5, -2.0], dtype=ember.bfloat16, device=device)
    got = list(ember.ndenumerate(b))
    assert got == [((0,), 0.5), ((1,), -2.0)] and type(got[0][1]) is np.float32


def test_iterable(device):
    for obj in ([1], (), "ab", 3, None, np.array(1), np.arange(2)):
        assert ember.iterable(obj) == np.iterable(obj)
    assert ember.iterable(E([1, 2], device))
    assert not ember.iterable(E(1, device))


# --- files ------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.complex128,
                                   np.uint8])
def test_save_load_npy(device, tmp_path, dtype):
    a = (np.arange(12).reshape(3, 4) - 5).astype(dtype)
    x = E(a, device)
    ember.save(tmp_path / "x", x)           # '.npy' appended, as NumPy's
    assert_array_equal_np(ember.load(tmp_path / "x.npy", device=device), a, device)
    np.testing.assert_array_equal(np.load(tmp_path / "x.npy"), a)
    np.save(tmp_path / "y.npy", a.T)
    assert_array_equal_np(ember.load(tmp_path / "y.npy", device=device), a.T, device)
    buf = io.BytesIO()
    ember.save(buf, x[:, ::2])
    buf.seek(0)
    assert_array_equal_np(ember.load(buf, device=device), a[:, ::2], device)


def test_load_mmap_and_pickles(device, tmp_path):
    a = np.arange(5.0)
    np.save(tmp_path / "m.npy", a)
    got = ember.load(tmp_path / "m.npy", mmap_mode="r", device=device)
    assert_array_equal_np(got, a, device)
    obj = {"k": [1, 2]}
    with open(tmp_path / "p.pkl", "wb") as f:
        pickle.dump(obj, f)
    with pytest.raises(ValueError, match="allow_pickle"):
        ember.load(tmp_path / "p.pkl")
    assert ember.load(tmp_path / "p.pkl", allow_pickle=True) == obj
    np.save(tmp_path / "o.npy", np.array([None, 1], dtype=object))
    with pytest.raises(ValueError, match="allow_pickle"):
        ember.load(tmp_path / "o.npy")
    with pytest.raises(TypeError, match="no ember dtype"):
        ember.load(tmp_path / "o.npy", allow_pickle=True, device=device)
    with pytest.raises(FileNotFoundError):
        ember.load(tmp_path / "none.npy")
    (tmp_path / "junk.npy").write_bytes(b"not an array")
    with pytest.raises((ValueError, pickle.UnpicklingError)):
        ember.load(tmp_path / "junk.npy")


@pytest.mark.parametrize("save", ["savez", "savez_compressed"])
def test_savez_load_npz(device, tmp_path, save):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([True, False])
    getattr(ember, save)(tmp_path / "z.npz", E(a, device), b=E(b, device), c=[1, 2])
    want = np.load(tmp_path / "z.npz")
    with ember.load(tmp_path / "z.npz", device=device) as z:
        assert sorted(z.files) == sorted(want.files) == ["arr_0", "b", "c"]
        assert sorted(z) == sorted(z.keys()) == sorted(want.keys())
        assert len(z) == 3 and "b" in z and "zz" not in z
        for k in want.files:
            assert_array_equal_np(z[k], want[k], device)
        assert_array_equal_np(z.f.b, b, device)
        assert dict(z.items()).keys() == {"arr_0", "b", "c"}
        with pytest.raises(KeyError):
            z["nope"]
        with pytest.raises(AttributeError):
            z.f.nope
    if save == "savez_compressed":
        import zipfile
        with zipfile.ZipFile(tmp_path / "z.npz") as zf:
            assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in zf.infolist())


def test_save_bfloat16_is_an_error(device, tmp_path):
    with pytest.raises(TypeError, match="bfloat16"):
        ember.save(tmp_path / "b.npy", ember.ones(2, dtype=ember.bfloat16, device=device))


def test_savetxt_loadtxt(device, tmp_path):
    a = np.array([[1.5, 2.0, -3.0], [4.0, 5.25, 6.0]])
    ember.savetxt(tmp_path / "t.txt", E(a, device), fmt="%.3f", delimiter=",",
                  header="x,y,z")
    np.savetxt(tmp_path / "n.txt", a, fmt="%.3f", delimiter=",", header="x,y,z")
    assert (tmp_path / "t.txt").read_text() == (tmp_path / "n.txt").read_text()
    assert_array_equal_np(ember.loadtxt(tmp_path / "t.txt", delimiter=",", device=device),
                          np.loadtxt(tmp_path / "t.txt", delimiter=","), device)
    got = ember.loadtxt(tmp_path / "t.txt", delimiter=",", unpack=True,
                        usecols=(0, 2), dtype=np.float32, device=device)
    want = np.loadtxt(tmp_path / "t.txt", delimiter=",", unpack=True, usecols=(0, 2),
                      dtype=np.float32)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_array_equal_np(g, w, device)
    like = E([1], device)
    assert ember.loadtxt(io.StringIO("1 2\n3 4"), dtype=int, like=like).device == like.device
    with pytest.raises(ValueError) as theirs:
        np.loadtxt(io.StringIO("1 2\n3 x"))
    with pytest.raises(ValueError) as ours:
        ember.loadtxt(io.StringIO("1 2\n3 x"), device=device)
    assert str(ours.value) == str(theirs.value)


def test_genfromtxt(device):
    text = "a,b,c\n1,2,\n4,,6\n7,8,9\n"
    for kw in ({"delimiter": ",", "skip_header": 1},
               {"delimiter": ",", "skip_header": 1, "filling_values": -1},
               {"delimiter": ",", "skip_header": 1, "usecols": (0, 2), "dtype": np.int64,
                "filling_values": 0}):
        assert_array_equal_np(ember.genfromtxt(io.StringIO(text), device=device, **kw),
                              np.genfromtxt(io.StringIO(text), **kw), device)
    with pytest.raises(NotImplementedError, match="masked"):
        ember.genfromtxt(io.StringIO(text), delimiter=",", usemask=True)
    with pytest.raises(ValueError) as ours:
        ember.genfromtxt(io.StringIO("1,2\n3,4,5\n"), delimiter=",", device=device)
    with pytest.raises(ValueError) as theirs:
        np.genfromtxt(io.StringIO("1,2\n3,4,5\n"), delimiter=",")
    assert str(ours.value) == str(theirs.value)


# --- printing ---------------------------------------------------------------

def _with_device(s, device):
    return s[:-1] + f", device='{ember.Device(device)}')"


def test_print_options_drive_repr_and_str(device):
    a = np.array([1.23456789, 1e-9, 123456.0, np.nan])
    x = E(a, device)
    old = ember.get_printoptions()
    assert old == np.get_printoptions()
    try:
        ember.set_printoptions(precision=3, suppress=True, nanstr="NaN")
        assert np.get_printoptions()["precision"] == 3
        assert repr(x) == _with_device(repr(a), device)
        assert str(x) == str(a) and "NaN" in str(x)
        ember.set_printoptions(threshold=5, edgeitems=2)
        big = np.arange(100.0)
        assert str(E(big, device)) == str(big) and "..." in str(big)
    finally:
        ember.set_printoptions(**old)
    with ember.printoptions(precision=1, sign="+"):
        assert str(x) == str(a)
        assert ember.get_printoptions()["sign"] == "+"
    assert ember.get_printoptions() == old
    with pytest.raises(ValueError):
        ember.set_printoptions(floatmode="nope")
    with pytest.raises(TypeError):
        ember.set_printoptions(precision="x")


def test_array_repr_str_array2string(device):
    a = np.linspace(0, 1, 7, dtype=np.float32).reshape(7, 1)[::2]
    x = E(a, device)
    assert ember.array_repr(x) == repr(x) == _with_device(np.array_repr(a), device)
    assert ember.array_repr(x, max_line_width=20, precision=2) == _with_device(
        np.array_repr(a, max_line_width=20, precision=2), device)
    assert ember.array_str(x, precision=2, suppress_small=True) == \
        np.array_str(a, precision=2, suppress_small=True)
    for kw in ({}, {"separator": ", ", "prefix": "v("},
               {"formatter": {"float": lambda v: f"<{v:.1f}>"}},
               {"threshold": 2, "edgeitems": 1, "floatmode": "fixed"}):
        assert ember.array2string(x, **kw) == np.array2string(a, **kw)
    y = E(np.array([1, 2], np.int8), device)
    assert ember.array_repr(y) == _with_device(np.array_repr(np.array([1, 2], np.int8)),
                                               device)
    assert ember.array_str(E(np.float64(2.5), device)) == np.array_str(np.array(2.5))
    b = ember.asarray([0.5, 1.5], dtype=ember.bfloat16, device=device)
    assert repr(b) == f"array([0.5, 1.5], dtype=bfloat16, device='{b.device}')"
    with pytest.raises(TypeError):
        ember.array2string(x, formatter={"float": 3}, nosuch=1)


@pytest.mark.parametrize("shape", [(2000,), (40, 50), (3, 400, 2), (7, 3, 9, 11), (1001,)])
def test_summarised_repr_copies_only_the_edges(device, shape, monkeypatch):
    from ember._api import array_print
    n = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) * 1.5 - 7
    x = E(n, device)
    copied = []

    def counting(a, *args):
        copied.append(a.size)
        return real(a, *args)
    real = array_print.to_numpy
    monkeypatch.setattr(array_print, "to_numpy", counting)
    assert repr(x) == _with_device(repr(n), device)
    assert str(x[..., ::-1]) == str(n[..., ::-1])
    assert max(copied) <= 6 ** len(shape) < n.size
    with ember.printoptions(edgeitems=1, threshold=10):
        assert str(x) == str(n)
    assert ember.array2string(x, threshold=50, edgeitems=4, separator=",") == \
        np.array2string(n, threshold=50, edgeitems=4, separator=",")
    with ember.printoptions(threshold=n.size):
        copied.clear()
        assert str(x) == str(n) and copied == [n.size]
    b = x.astype(ember.bfloat16)
    assert str(b) == str(ember.asnumpy(b.astype(ember.float32)))


def test_number_formatting(device):
    for v in (np.float32(0.1), np.float64(1 / 3), 1e300, 0.0, -2.5):
        assert ember.format_float_positional(v, precision=4) == \
            np.format_float_positional(v, precision=4)
        assert ember.format_float_scientific(v, unique=False, precision=3) == \
            np.format_float_scientific(v, unique=False, precision=3)
    x = E(np.float32(0.1), device)
    assert ember.format_float_positional(x) == np.format_float_positional(np.float32(0.1))
    assert ember.format_float_scientific(x, exp_digits=3) == \
        np.format_float_scientific(np.float32(0.1), exp_digits=3)
    with pytest.raises(TypeError):
        ember.format_float_positional("1.0")
    with pytest.raises(ValueError):
        ember.format_float_positional(1.0, precision=-1)
    for n, base, pad in ((10, 2, 0), (-255, 16, 3), (0, 36, 1), (35, 36, 0)):
        assert ember.base_repr(n, base, pad) == np.base_repr(n, base, pad)
    for n, w in ((5, None), (-5, 8), (0, 4), (2 ** 40, None), (-3, None)):
        assert ember.binary_repr(n, w) == np.binary_repr(n, w)
    assert ember.binary_repr(E(np.int64(6), device), 5) == np.binary_repr(6, 5)
    with pytest.raises(ValueError):
        ember.base_repr(3, 37)
    with pytest.raises(TypeError):
        ember.binary_repr(E(np.arange(2), device))


# --- floating-point error state ---------------------------------------------

def test_errstate_round_trip():
    default = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
    assert ember.geterr() == default == np.geterr()
    old = ember.seterr(all="raise", under="print")
    try:
        assert old == default
        assert ember.geterr() == {"divide": "raise", "over": "raise", "under": "print",
                                  "invalid": "raise"}
        assert np.geterr() == default        # NumPy's own state is separate
        with ember.errstate(divide="ignore", call=print):
            assert ember.geterr()["divide"] == "ignore"
            assert ember.geterr()["over"] == "raise"
            assert ember.geterrcall() is print
        assert ember.geterr()["divide"] == "raise" and ember.geterrcall() is None
    finally:
        ember.seterr(**old)
    assert ember.geterr() == default


def test_errstate_decorator_and_calls():
    @ember.errstate(all="ignore")
    def f():
        return ember.geterr()
    assert set(f().values()) == {"ignore"}
    assert ember.geterr()["divide"] == "warn"

    class Log:
        def write(self, msg):
            pass
    log = Log()
    assert ember.seterrcall(log) is None
    assert ember.seterrcall(None) is log and ember.geterrcall() is None
    st = ember.errstate(over="raise")
    with st:
        with pytest.raises(TypeError, match="twice"):
            with st:
                pass
    with st:                                # usable again once left
        assert ember.geterr()["over"] == "raise"


def test_errstate_errors():
    for bad in ({"divide": "loud"}, {"all": 3}):
        with pytest.raises(ValueError) as theirs:
            np.seterr(**bad)
        with pytest.raises(ValueError) as ours:
            ember.seterr(**bad)
        assert str(ours.value) == str(theirs.value)
        with pytest.raises(ValueError):
            ember.errstate(**bad)
    with pytest.raises(TypeError):
        ember.seterr(foo="ignore")
    with pytest.raises(TypeError):
        ember.errstate("ignore")
    with pytest.raises(TypeError, match="callable"):
        ember.seterrcall(3)
    with pytest.raises(TypeError, match="callable"):
        ember.errstate(call=3)
    assert ember.geterr() == np.geterr()


def test_errstate_does_not_touch_results(device):
    x = E(np.array([1.0, -1.0, 0.0]), device)
    with ember.errstate(all="raise"):
        with np.errstate(all="ignore"):
            want = np.array([1.0, -1.0, 0.0]) / 0.0
        got = x / 0.0                       # IEEE results, no error on any device
    assert_array_equal_np(got, want, device)


def test_bufsize():
    assert ember.getbufsize() == np.getbufsize() == 8192
    with ember.errstate():
        assert ember.setbufsize(4096) == 8192
        assert ember.getbufsize() == 4096
    assert ember.getbufsize() == 8192
    for bad in (-16, 0, 4, 5, 15, 17, 10_000_016):
        with pytest.raises(ValueError) as theirs:
            np.setbufsize(bad)
        with pytest.raises(ValueError) as ours:
            ember.setbufsize(bad)
        assert str(ours.value) == str(theirs.value)
    with pytest.raises(TypeError):
        ember.setbufsize(32.0)
    assert ember.getbufsize() == 8192


# --- types ------------------------------------------------------------------

def test_scalar_hierarchy_and_aliases():
    for name in ("generic", "number", "integer", "signedinteger", "unsignedinteger",
                 "inexact", "floating", "complexfloating", "flexible", "character",
                 "str_", "bytes_", "void", "object_", "True_", "False_", "sctypeDict",
                 "typecodes", "ScalarType"):
        assert getattr(ember, name) is getattr(np, name), name
    for name in ("byte", "short", "intc", "long", "longlong", "ubyte", "ushort", "uintc",
                 "uint", "ulong", "ulonglong"):
        d = getattr(ember, name)
        assert isinstance(d, ember.dtype) and d == np.dtype(getattr(np, name)), name
    assert ember.float32 is ember.dtype("float32") and ember.float32 == np.float32
    assert ember.bool_ is ember.bool
    assert ember.little_endian is np.little_endian
    assert ember.euler_gamma == np.euler_gamma
    assert ember.typename("d") == np.typename("d")


@pytest.mark.parametrize("a,b", [
    ("float32", "floating"), ("float32", "integer"), ("int8", "signedinteger"),
    ("uint16", "signedinteger"), ("uint16", "unsignedinteger"), ("complex64", "inexact"),
    ("complex64", "floating"), ("bool", "number"), ("bool", "generic"),
    ("float64", "float64"), ("float32", "float64"), ("int64", "number")])
def test_issubdtype(a, b):
    want = np.issubdtype(getattr(np, a), getattr(np, b))
    ea = getattr(ember, a)
    eb = getattr(ember, b)
    assert ember.issubdtype(ea, eb) == want
    assert ember.issubdtype(getattr(np, a), eb) == want
    assert ember.issubdtype(a, eb) == want
    assert ember.issubdtype(np.dtype(a), getattr(np, b)) == want


def test_issubdtype_more():
    assert ember.issubdtype(ember.bfloat16, ember.floating)
    assert ember.issubdtype(ember.bfloat16, ember.bfloat16)
    assert ember.issubdtype("bfloat16", ember.inexact)
    assert not ember.issubdtype(ember.bfloat16, ember.float32)
    assert not ember.issubdtype(ember.float32, ember.bfloat16)
    assert ember.issubdtype(ember.float64, float) == np.issubdtype(np.float64, float)
    assert ember.issubdtype(ember.int64, int) == np.issubdtype(np.int64, int)
    assert ember.issubdtype("U3", ember.character) == np.issubdtype("U3", np.character)
    x = ember.arange(3, dtype=ember.float32, device="cpu")
    assert ember.issubdtype(x.dtype, ember.floating)
    with pytest.raises(TypeError):
        ember.issubdtype("notatype", ember.floating)


def test_common_type(device):
    cases = [(np.int8,), (np.float16,), (np.float32, np.int32), (np.float32, np.complex64),
             (np.float64, np.complex64), (np.float16, np.float32), (np.uint64, np.float16)]
    for dts in cases:
        arrs = [np.zeros(2, t) for t in dts]
        want = np.common_type(*arrs)
        got = ember.common_type(*[E(a, device) for a in arrs])
        assert isinstance(got, ember.dtype) and got == want, (dts, got, want)
        assert got is getattr(ember, np.dtype(want).name)
    assert ember.common_type() is ember.float16 and np.common_type() is np.float16
    with pytest.raises(TypeError, match="non-numeric"):
        ember.common_type(E(np.zeros(2, bool), device))
    with pytest.raises(AttributeError):
        ember.common_type([1.0])


def test_min_scalar_type_mintypecode(device):
    for v in (3, -1, 300, 2 ** 40, 3.0, 1e300, 1 + 2j, True, -2 ** 63):
        got, want = ember.min_scalar_type(v), np.min_scalar_type(v)
        assert isinstance(got, ember.dtype) and got == want, (v, got, want)
    assert ember.min_scalar_type(E(np.array([3], np.int64), device)) is ember.int64
    assert ember.min_scalar_type(E(np.int64(3), device)) == np.min_scalar_type(
        np.array(3))
    assert ember.min_scalar_type("abc") == np.min_scalar_type("abc")
    for chars in (["d", "f"], "idF", ["f"], "", ["i", "l"]):
        assert ember.mintypecode(chars) == np.mintypecode(chars)
    assert ember.mintypecode([E(np.zeros(1, np.float32), device), "D"]) == \
        np.mintypecode([np.zeros(1, np.float32), "D"])
    assert ember.mintypecode("fd", typeset="fd", default="x") == \
        np.mintypecode("fd", typeset="fd", default="x")


# --- memory sharing ---------------------------------------------------------

def test_shares_memory(device):
    n = np.arange(24, dtype=np.int32).reshape(4, 6)
    a = E(n, device)
    b = E(n.copy(), device)
    views = {"all": (slice(None), slice(None)), "even": (slice(None), slice(0, None, 2)),
             "odd": (slice(None), slice(1, None, 2)), "row0": (0, slice(None)),
             "row1": (1, slice(None)), "rev": (slice(None, None, -1), slice(None)),
             "empty": (slice(0, 0), slice(None)), "col5": (slice(None), 5)}
    for k1, s1 in views.items():
        for k2, s2 in views.items():
            want_ex = np.shares_memory(n[s1], n[s2])
            want_may = np.may_share_memory(n[s1], n[s2])
            assert ember.shares_memory(a[s1], a[s2]) == want_ex, (k1, k2)
            assert ember.may_share_memory(a[s1], a[s2]) == want_may, (k1, k2)
            assert not ember.shares_memory(a[s1], b[s2])
            assert not ember.may_share_memory(a[s1], b[s2])
    t = a.T
    assert ember.shares_memory(t, a[2]) and not ember.shares_memory(a[0], a[1])
    assert ember.may_share_memory(a[:, :3], a[:, 3:])
    assert not ember.may_share_memory(a[:, :3], a[:, 3:], max_work=-1)
    assert not ember.shares_memory(a, [1, 2]) and not ember.shares_memory(a, 3)
    v = a.view(ember.uint8)
    assert ember.shares_memory(v[0, 1:2], a[0, 0])
    assert not ember.shares_memory(v[0, 4:5], a[0, 0])


def test_shares_memory_with_numpy():
    n = np.arange(10.0)
    x = ember.asarray(n, device="cpu")          # taken without a copy on cpu
    assert ember.shares_memory(x, n) == np.shares_memory(np.asarray(x), n)
    assert ember.shares_memory(x[2:4], n[3:])
    assert not ember.shares_memory(x[2:4], n[5:])
    assert not ember.shares_memory(ember.asarray(n, device="cpu", copy=True), n)


# --- configuration ----------------------------------------------------------

def test_show_config_and_runtime(capsys):
    cfg = ember.show_config(mode="dicts")
    assert cfg["ember"]["version"] == ember.__version__
    assert cfg["Backends"]["cpu"] == ember.backend_status("cpu")
    assert ember.show_config() is None
    out = capsys.readouterr().out
    assert "Backends:" in out and "cpu kernels:" in out
    with pytest.raises(AttributeError, match="Invalid `mode`"):
        ember.show_config(mode="json")
    assert ember.show_runtime() is None
    out = capsys.readouterr().out
    assert "devices:" in out and ember.__version__ in out
