"""What stopped the Scientific Python Lectures run with ember in NumPy's and
SciPy's place, each reduced to its cause and compared with NumPy/SciPy:
in-place shape assignment, memmap, NumPy's functions called with None
operands (matplotlib's bar), and find_objects' inputs."""
import numpy as np
import pytest
import scipy.ndimage

import ember
from ember import _memmap
from ember.scipy import ndimage as end
from helpers import assert_array_equal_np

MEMMAP = ember.memmap


def E(a, device):
    return ember.asarray(np.asarray(a), device=device)


def raises_like(fn_np, fn_em):
    """Both raise, the same exception class, and the message of NumPy's."""
    with pytest.raises(Exception) as want:
        fn_np()
    with pytest.raises(want.type) as got:
        fn_em()
    return want.value, got.value


# ---- a.shape = ... ----------------------------------------------------------

@pytest.mark.parametrize("make, shape", [
    (lambda m: m.arange(6.0), (2, 3)),
    (lambda m: m.arange(6.0), (2, -1)),
    (lambda m: m.arange(6.0), 6),
    (lambda m: m.arange(24).reshape(2, 3, 4), [4, 6]),
    (lambda m: m.arange(6.0).reshape(2, 3).T, (3, 2, 1)),    # only unit axes added
    (lambda m: m.arange(12)[::2], (3, 1, 2)),                 # a strided view
    (lambda m: m.asarray(5.0), (1, 1)),
    (lambda m: m.zeros((1, 1)), ()),
    (lambda m: m.zeros((0, 3)), (3, 0)),
])
def test_shape_assignment(device, make, shape):
    n = make(np)
    with ember.Device(device):
        x = make(ember)
    n.shape = shape
    x.shape = shape
    assert x.shape == n.shape and x.strides == n.strides
    assert_array_equal_np(x, n, device)


def test_shape_assignment_shares_memory(device):
    x = ember.arange(6, device=device)
    v = x.view()
    v.shape = (2, 3)
    v[1, 2] = 50
    assert int(x[5]) == 50 and x.shape == (6,)
    with ember.Device(device):
        w = x[::2]
    w.shape = (3, 1)
    w[2, 0] = -1
    assert int(x[4]) == -1


@pytest.mark.parametrize("make, shape", [
    (lambda m: m.arange(12).reshape(3, 4)[:, :2], (6,)),
    (lambda m: m.arange(6.0).reshape(2, 3).T, (6,)),
    (lambda m: m.asfortranarray(m.arange(6.0).reshape(2, 3)), (3, 2)),
])
def test_shape_assignment_needs_copy(device, make, shape):
    n = make(np)
    with ember.Device(device):
        x = make(ember)
    before = x.shape
    want, got = raises_like(lambda: setattr(n, "shape", shape),
                            lambda: setattr(x, "shape", shape))
    assert type(got) is AttributeError and str(got) == str(want)
    assert "Use `.reshape()` to make a copy" in str(got)
    assert x.shape == before


@pytest.mark.parametrize("shape, exc", [
    ((4,), ValueError), ((-1, -1), ValueError), ((-1, 4), ValueError),
    ("x", TypeError), (None, TypeError), ((2.0, 3), TypeError),
    ((1,) * 70, ValueError),
])
def test_shape_assignment_bad(device, shape, exc):
    n = np.arange(6)
    x = ember.arange(6, device=device)
    with pytest.raises(exc):
        n.shape = shape
    with pytest.raises(exc):
        x.shape = shape
    assert x.shape == (6,)
    if shape == (4,):
        with pytest.raises(ValueError, match=r"size 6 into shape \(4,?\)"):
            x.shape = shape


def test_shape_delete(device):
    x = ember.arange(6, device=device)
    with pytest.raises(AttributeError, match="Cannot delete array shape"):
        del x.shape


def test_shape_assignment_after_fused_work(device):
    # a pending fused result gets its values before its layout changes
    a = ember.arange(6.0, device=device)
    b = a * 2 + 1
    b.shape = (3, 2)
    assert_array_equal_np(b, (np.arange(6.0) * 2 + 1).reshape(3, 2), device)


# ---- memmap ------------------------------------------------------------------

@pytest.fixture
def raw(tmp_path):
    p = tmp_path / "data.raw"
    np.arange(48, dtype=np.float32).tofile(p)
    return p


def test_memmap_cpu_reads_and_writes_the_file(raw):
    assert ember.memmap is _memmap.memmap and "memmap" in ember.__all__
    m = MEMMAP(str(raw), dtype=ember.float32, mode="r+", shape=(6, 8))
    n = np.memmap(str(raw), dtype=np.float32, mode="r", shape=(6, 8))
    assert isinstance(m, ember.ndarray) and m.device == ember.Device("cpu")
    assert_array_equal_np(ember.asarray(m), np.asarray(n), "cpu")
    assert m.filename == n.filename and m.offset == 0 and m.mode == "r+"
    m[1, :] = -3.0
    m.flush()
    assert (np.fromfile(raw, dtype=np.float32)[8:16] == -3.0).all()
    # zero-copy both ways: a write to the file shows in the array
    with open(raw, "r+b") as f:
        f.seek(4)
        f.write(np.float32(7.5).tobytes())
    assert float(m[0, 1]) == 7.5
    v = m[2:4]
    assert isinstance(v, MEMMAP) and v.filename == m.filename and v.mode == "r+"
    assert type(m + 1) is ember.ndarray


@pytest.mark.parametrize("offset, shape, order", [
    (0, None, "C"), (8, (2, 5), "C"), (4, (3, 4), "F"), (12, 7, "C"), (192, (0,), "C"),
])
def test_memmap_layouts(raw, offset, shape, order):
    m = MEMMAP(raw, dtype="float32", mode="r", offset=offset, shape=shape, order=order)
    n = np.memmap(raw, dtype=np.float32, mode="r", offset=offset, shape=shape,
                  order=order)
    assert_array_equal_np(ember.asarray(m), np.asarray(n), "cpu")
    assert m.strides == n.strides and not m.flags.writeable
    assert m.filename == n.filename      # a Path stays a Path, resolved


def test_memmap_modes(tmp_path, raw):
    c = MEMMAP(raw, dtype=ember.float32, mode="c")
    c[:] = 0
    c.flush()
    np.testing.assert_array_equal(np.fromfile(raw, dtype=np.float32), np.arange(48))
    assert float(ember.sum(c)) == 0.0
    r = MEMMAP(raw, dtype=ember.float32, mode="readonly")
    with pytest.raises(ValueError, match="read-only"):
        r[0] = 1
    new = tmp_path / "new.raw"
    w = MEMMAP(new, dtype=ember.int16, mode="w+", shape=(2, 3))
    w[...] = ember.arange(6, dtype=ember.int16, device="cpu").reshape(2, 3)
    w.flush()
    del w
    np.testing.assert_array_equal(np.fromfile(new, dtype=np.int16), np.arange(6))
    # r+ grows a short file to the mapped length, as NumPy's
    grow = tmp_path / "grow.raw"
    grow.write_bytes(b"\1\2")
    g = MEMMAP(grow, mode="r+", shape=(5,))
    g.flush()
    assert grow.read_bytes() == b"\1\2\0\0\0"
    with open(raw, "rb") as f:          # an open file object
        assert_array_equal_np(ember.asarray(MEMMAP(f, dtype=ember.float32, mode="r",
                                                   shape=(3,))),
                              np.arange(3, dtype=np.float32), "cpu")


def test_memmap_bad(tmp_path, raw):
    def both(**kw):
        return raises_like(lambda: np.memmap(raw, **kw),
                           lambda: MEMMAP(raw, **{**kw, "dtype": kw.get("dtype", "uint8")}))
    want, got = both(mode="x")
    assert str(got) == str(want)
    want, got = both(mode="w+")
    assert str(got) == str(want)
    want, got = both(dtype="float64", offset=4)      # 188 bytes left
    assert str(got) == str(want)
    both(mode="r", offset=400, shape=(1,))             # mmap: past the end
    with pytest.raises(FileNotFoundError):
        MEMMAP(tmp_path / "missing.raw", mode="r")
    with pytest.raises(ValueError, match="order"):
        MEMMAP(raw, mode="r", order="K")


def test_memmap_on_gpu(need_cuda, raw):
    r = MEMMAP(raw, dtype=ember.float32, mode="r", shape=(6, 8), device="cuda:0")
    assert r.device == ember.Device("cuda:0") and not r.flags.writeable
    assert_array_equal_np(ember.asarray(r), np.arange(48, dtype=np.float32).reshape(6, 8),
                          "cuda:0")
    c = MEMMAP(raw, dtype=ember.float32, mode="c", device="cuda:0")
    c[:] = 1
    c.flush()
    np.testing.assert_array_equal(np.fromfile(raw, dtype=np.float32), np.arange(48))
    for mode in ("r+", "w+"):
        with pytest.raises(ValueError, match="cannot map a file"):
            MEMMAP(raw, dtype=ember.float32, mode=mode, shape=(4,), device="cuda:0")


# ---- NumPy's functions with None operands (matplotlib's bar) ------------------

def test_broadcast_arrays_with_none_cpu():
    h = np.array([3.0, 1.0, 2.0])
    args = (np.atleast_1d(np.arange(3) + 1), h, 0.8, np.asarray(0), None, None)
    want = np.broadcast_arrays(*args)
    got = np.broadcast_arrays(args[0], E(h, "cpu"), *args[2:])
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, np.ndarray)
        np.testing.assert_array_equal(g, w, strict=True)
    # zero-copy: the heights NumPy returns are the ember array's memory
    x = E(h, "cpu")
    r = np.broadcast_arrays(x, "ab")
    assert np.shares_memory(r[0], np.asarray(x))
    assert r[1].dtype == np.dtype("<U2") and r[1].shape == (3,)
    # NumPy's error where the shapes do not broadcast
    want, got = raises_like(lambda: np.broadcast_arrays(np.arange(3), np.arange(2), None),
                            lambda: np.broadcast_arrays(E(np.arange(3), "cpu"),
                                                        np.arange(2), None))
    assert str(got) == str(want)


def test_broadcast_arrays_numbers_stay_ember(device):
    # without None operands the call stays ember's, on the device
    r = np.broadcast_arrays(E([1.0, 2.0], device), E([[0.0], [1.0]], device))
    assert all(isinstance(a, ember.ndarray) and a.device == ember.Device(device)
               for a in r)
    assert_array_equal_np(r[0], np.broadcast_arrays([1.0, 2.0], [[0.0], [1.0]])[0],
                          device)
    # a TypeError of ember's own is not retried with NumPy
    with pytest.raises(TypeError):
        np.concatenate([E([1.0], device)], axis=1.5)


def test_broadcast_arrays_with_none_gpu(need_cuda):
    x = E([1.0, 2.0], "cuda:0")
    with pytest.raises(TypeError, match="cuda:0.*asnumpy"):
        np.broadcast_arrays(x, None)


# ---- find_objects' inputs, as SciPy's ------------------------------------------

LABELS = np.array([[0, 1, 1, 0], [0, 0, 3, 0], [2, 0, 3, 3]])


@pytest.mark.parametrize("a, max_label", [
    (LABELS, 0), (LABELS, 2), (LABELS, 5), (LABELS, -1),
    (LABELS.astype(np.uint8), 0),
    (LABELS == 3, 1), (LABELS == 3, 2),                      # bool, max_label given
    (LABELS * 1.5, 4), (np.array([0, -1.5, 2.0, 0.5, 1.99]), 2),
    (np.array([0, np.nan, 1.0, 1e30, -np.inf]), 2),
    (np.array(3), 0), (np.array(3.0), 4), (np.zeros((2, 2), int), 0),
    (np.array([0, 1, 2, -3], np.int8), 300),                # max_label past int8
])
def test_find_objects_inputs(device, a, max_label):
    want = scipy.ndimage.find_objects(a, max_label=max_label)
    assert end.find_objects(E(a, device), max_label=max_label) == want


@pytest.mark.parametrize("a, max_label", [
    (LABELS == 3, 0),                 # SciPy: 'numpy.bool' ... as an integer
    (LABELS * 1.0, 0),
    (LABELS.astype(np.complex128), 3),
    (np.array([], dtype=np.int64), 0),
    (LABELS, 2.5),
])
def test_find_objects_bad(device, a, max_label):
    want, got = raises_like(lambda: scipy.ndimage.find_objects(a, max_label=max_label),
                            lambda: end.find_objects(E(a, device), max_label=max_label))
    if a.dtype.kind in "ci" or a.size == 0:
        assert str(got) == str(want)
