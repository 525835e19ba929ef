"""Arrays of NumPy structured dtypes (python/ember/_struct_array.py) on
every device, against NumPy on the same records: the constructors, the
properties, host copies, indexing, fields (views and copies), field and
record assignment, views to and from numbers, kernel arguments, and the
errors NumPy gives (wrong field names, ufuncs on a whole struct array)."""
import numpy as np
import pytest

import ember
from ember._struct_array import StructArray

PT = np.dtype([("x", "f4"), ("y", "i4")])                 # aligned, 8 bytes
PACKED = np.dtype([("u", "u1"), ("f", "f4"), ("d", "f8")])  # 13 bytes
NESTED = np.dtype([("id", "i8"), ("pos", PT), ("v", "f4", (3,))],
                  align=True)


def records(dt, n, seed=0):
    rng = np.random.default_rng(seed)
    h = np.zeros(n, dt)
    for name in dt.names:
        f = h[name]
        if f.dtype.names is not None:
            h[name] = records(f.dtype, n, seed + 1)
        else:
            h[name] = rng.integers(-50, 50, f.shape).astype(f.dtype)
    return h


def assert_records(got, want):
    assert isinstance(got, StructArray)
    h = got.get()
    assert h.dtype == want.dtype and h.shape == want.shape
    np.testing.assert_array_equal(h, want)


# ---- constructors ---------------------------------------------------------

@pytest.mark.parametrize("spec", [PT, [("x", "f4"), ("y", "i4")],
                                  {"names": ["x", "y"],
                                   "formats": ["f4", "i4"]}, "f4,i4"])
def test_empty_zeros_ones_full(device, spec):
    dt = np.dtype(spec)
    e = ember.empty((2, 3), dtype=spec, device=device)
    assert isinstance(e, StructArray)
    assert e.dtype == dt and e.shape == (2, 3) and e.ndim == 2
    assert e.size == 6 and e.itemsize == dt.itemsize
    assert e.nbytes == 6 * dt.itemsize and len(e) == 2
    assert str(e.device) == str(ember.Device(device))
    assert_records(ember.zeros(4, dtype=spec, device=device), np.zeros(4, dt))
    assert_records(ember.ones(4, spec, device=device), np.ones(4, dt))
    assert_records(ember.full(3, (1.5, -2), dtype=spec, device=device),
                   np.array([(1.5, -2)] * 3, dtype=dt))
    z = ember.zeros((), dtype=spec, device=device)
    assert z.shape == () and z.get().shape == ()


def test_fortran_order(device):
    a = ember.zeros((2, 3), dtype=PT, order="F", device=device)
    assert a.flags.f_contiguous and not a.flags.c_contiguous
    assert a.strides == (PT.itemsize, 2 * PT.itemsize)
    h = records(PT, 6).reshape(2, 3)
    a[...] = h
    assert_records(a, h)


@pytest.mark.parametrize("dt", [PT, PACKED, NESTED])
def test_asarray_get_set_roundtrip(device, dt):
    h = records(dt, 7)
    a = ember.asarray(h, device=device)
    assert_records(a, h)
    np.testing.assert_array_equal(ember.asnumpy(a), h)
    np.testing.assert_array_equal(np.asarray(a), h)
    assert ember.asarray(a) is a
    b = ember.array(h, device=device)
    assert_records(b, h)
    h2 = records(dt, 7, seed=5)
    e = ember.empty(7, dtype=dt, device=device)
    e.set(h2)
    assert_records(e, h2)
    with pytest.raises(ValueError, match="shape"):
        e.set(h2[:3])


def test_from_lists_and_records(device):
    a = ember.array([(1.0, 2), (3.0, 4)], dtype=PT, device=device)
    assert_records(a, np.array([(1.0, 2), (3.0, 4)], PT))
    r = ember.asarray(np.zeros(3, PT)[1], device=device)    # a np.void
    assert r.shape == () and r.dtype == PT
    c = ember.ascontiguousarray(np.zeros(3, PT)[::2], device=device)
    assert c.shape == (2,) and c.flags.c_contiguous
    m = ember.array(np.zeros(2, PT), ndmin=3, device=device)
    assert m.shape == (1, 1, 2)


def test_like_functions(device):
    h = records(PT, 5)
    a = ember.empty_like(h, device=device)
    assert isinstance(a, StructArray) and a.shape == (5,) and a.dtype == PT
    z = ember.zeros_like(ember.asarray(h, device=device))
    assert_records(z, np.zeros(5, PT))


def test_to_another_device(device):
    h = records(PT, 4)
    a = ember.asarray(h, device=device)
    c = ember.asarray(a, device="cpu")
    assert str(c.device) == "cpu"
    assert_records(c, h)


# ---- indexing -----------------------------------------------------------------

def test_basic_and_advanced_indexing(device):
    h = records(PT, 10).reshape(2, 5)
    a = ember.asarray(h, device=device)
    for key in [0, (1, 2), (slice(None), 1), (Ellipsis, 3), slice(None, None, -1),
                (slice(0, 2), slice(1, 5, 2)), (None, 1), ()]:
        got = a[key]
        want = h[key]
        assert isinstance(got, StructArray)
        np.testing.assert_array_equal(got.get(), np.asarray(want))
    mask = h["y"] > 0
    np.testing.assert_array_equal(a[ember.asarray(mask, device=device)].get(),
                                  h[mask])
    idx = np.array([4, 0, 2])
    np.testing.assert_array_equal(a[1, ember.asarray(idx, device=device)].get(),
                                  h[1, idx])
    # a record is a 0-d struct array, as in CuPy
    r = a[1, 2]
    assert r.shape == () and r.get()[()] == h[1, 2]
    assert a[1, 2].item() == h[1, 2].item()


def test_iteration_and_len(device):
    h = records(PT, 3)
    a = ember.asarray(h, device=device)
    assert [r.item() for r in a] == h.tolist()
    assert a.tolist() == h.tolist()
    with pytest.raises(TypeError):
        len(ember.zeros((), PT, device=device))


# ---- fields -------------------------------------------------------------------

def test_aligned_field_is_a_view(device):
    h = records(PT, 6)
    a = ember.asarray(h, device=device, copy=True)
    x = a["x"]
    assert isinstance(x, ember.ndarray) and x.dtype == ember.float32
    np.testing.assert_array_equal(ember.asnumpy(x), h["x"])
    assert x.strides == (PT.itemsize,)
    x[...] = 7            # a view: the records change
    h["x"] = 7
    assert_records(a, h)
    np.testing.assert_array_equal(ember.asnumpy(a[1:4]["y"]), h[1:4]["y"])


def test_unaligned_field_is_a_copy(device):
    h = records(PACKED, 5)
    a = ember.asarray(h, device=device, copy=True)
    f = a["f"]
    np.testing.assert_array_equal(ember.asnumpy(f), h["f"])
    np.testing.assert_array_equal(ember.asnumpy(a["d"]), h["d"])
    f[...] = 99           # a copy: the records stay
    assert_records(a, h)
    a["f"] = np.arange(5)   # assignment always writes the records
    h["f"] = np.arange(5)
    a["d"] = -1.5
    h["d"] = -1.5
    assert_records(a, h)


def test_nested_and_subarray_fields(device):
    h = records(NESTED, 4)
    a = ember.asarray(h, device=device, copy=True)
    pos = a["pos"]
    assert isinstance(pos, StructArray) and pos.dtype == PT
    np.testing.assert_array_equal(ember.asnumpy(a["pos"]["y"]), h["pos"]["y"])
    v = a["v"]
    assert v.shape == (4, 3)
    np.testing.assert_array_equal(ember.asnumpy(v), h["v"])
    a["pos"]["x"] = 2.5
    h["pos"]["x"] = 2.5
    a["v"] = [1, 2, 3]
    h["v"] = [1, 2, 3]
    a["pos"] = np.array([(1, 1)], PT)
    h["pos"] = np.array([(1, 1)], PT)
    assert_records(a, h)


def test_multi_field_index(device):
    h = records(PT, 3)
    a = ember.asarray(h, device=device)
    got = a[["y"]]
    assert got.dtype == h[["y"]].dtype
    np.testing.assert_array_equal(got.get(), h[["y"]])


def test_field_errors(device):
    a = ember.zeros(3, PT, device=device)
    with pytest.raises(ValueError, match="no field of name z"):
        a["z"]
    with pytest.raises(ValueError, match="no field of name z"):
        a["z"] = 1
    with pytest.raises(KeyError):
        a[["x", "z"]]
    with pytest.raises(ValueError):
        np.zeros(3, PT)["z"]        # NumPy's own, for comparison


def test_non_numeric_field(device):
    dt = np.dtype([("tag", "S4"), ("v", "i4")])
    h = np.array([(b"ab", 1), (b"cd", 2)], dt)
    a = ember.asarray(h, device=device)
    np.testing.assert_array_equal(a.get(), h)          # bytes travel
    np.testing.assert_array_equal(ember.asnumpy(a["v"]), h["v"])
    with pytest.raises(TypeError, match="tag"):
        a["tag"]


# ---- assignment of records ---------------------------------------------------

def test_record_assignment(device):
    h = records(PT, 6)
    a = ember.asarray(h, device=device, copy=True)
    a[1] = (9.5, 9)
    h[1] = (9.5, 9)
    a[2:4] = np.array([(1, 1), (2, 2)], PT)
    h[2:4] = np.array([(1, 1), (2, 2)], PT)
    a[ember.asarray([0, 5], device=device)] = a[1]
    h[[0, 5]] = h[1]
    assert_records(a, h)
    a[...] = 3           # NumPy: a number into every field
    h[...] = 3
    assert_records(a, h)
    a.fill((4, 5))
    h.fill((4, 5))
    assert_records(a, h)


def test_struct_to_struct_by_position(device):
    other = np.dtype([("p", "f8"), ("q", "i2")])
    h = records(other, 4)
    a = ember.zeros(4, PT, device=device)
    a[...] = ember.asarray(h, device=device)
    want = np.zeros(4, PT)
    want[...] = h
    assert_records(a, want)
    assert_records(ember.asarray(h, device=device).astype(PT), want)
    with pytest.raises(ValueError):
        a[...] = ember.zeros(4, [("only", "f4")], device=device)


# ---- views, shapes, comparisons ----------------------------------------------

def test_view_numbers_as_records(device):
    rgb = np.dtype([("r", "i4"), ("g", "i4"), ("b", "i4")])
    h = np.arange(30, dtype=np.int32).reshape(10, 3)
    a = ember.asarray(h, device=device).view(rgb)
    assert isinstance(a, StructArray) and a.shape == h.view(rgb).shape
    np.testing.assert_array_equal(a.get(), h.view(rgb))
    back = a.view(np.int32)
    assert isinstance(back, ember.ndarray)
    np.testing.assert_array_equal(ember.asnumpy(back), h)
    same = a.view(np.dtype([("a", "i4"), ("b", "i4"), ("c", "i4")]))
    assert same.shape == a.shape
    with pytest.raises(ValueError, match="divisor"):
        ember.arange(4, dtype="int32", device=device).view(rgb)


def test_reshape_transpose_copy(device):
    h = records(PT, 6)
    a = ember.asarray(h, device=device)
    np.testing.assert_array_equal(a.reshape(2, 3).get(), h.reshape(2, 3))
    np.testing.assert_array_equal(a.reshape(2, 3).T.get(), h.reshape(2, 3).T)
    np.testing.assert_array_equal(a.reshape(3, -1).ravel().get(), h)
    c = a.copy()
    c["y"] = 0
    np.testing.assert_array_equal(a.get(), h)


def test_equality(device):
    h = records(PT, 5)
    h2 = h.copy()
    h2["y"][2] += 1
    a, b = ember.asarray(h, device=device), ember.asarray(h2, device=device)
    np.testing.assert_array_equal(ember.asnumpy(a == b), h == h2)
    np.testing.assert_array_equal(ember.asnumpy(a != b), h != h2)


# ---- what NumPy refuses ------------------------------------------------------

def test_ufuncs_are_type_errors(device):
    a = ember.zeros(3, PT, device=device)
    with pytest.raises(TypeError, match="ufunc 'add'"):
        a + 1
    with pytest.raises(TypeError):
        1 + a
    with pytest.raises(TypeError):
        -a
    with pytest.raises(TypeError):
        a < a
    with pytest.raises(TypeError):
        ember.add(a, a)
    with pytest.raises(TypeError):
        ember.sqrt(a)
    with pytest.raises(TypeError):
        np.zeros(3, PT) + 1          # NumPy's own, for comparison
    with pytest.raises(TypeError):
        ember.asarray(a, dtype="float32")
    with pytest.raises(TypeError):
        a.astype("float32")


def test_other_errors_stand(device):
    # the fallback answers only for structured dtypes
    with pytest.raises(TypeError, match="not understood"):
        ember.empty(3, dtype=object())
    with pytest.raises(TypeError):
        ember.asarray("text")
    with pytest.raises(ValueError, match="negative"):
        ember.empty(-1, dtype=PT)


# ---- the pointer: kernels and other libraries -------------------------------

SCALE = r"""
struct pt { float x; int y; };
extern "C" __global__ void scale(pt *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { p[i].x *= 2.0f; p[i].y += 1; }
}
"""


def test_rawkernel_takes_a_struct_array(device):
    h = records(PT, 37)
    with ember.Device(device):
        a = ember.asarray(h, copy=True)
        k = ember.RawKernel(SCALE, "scale")
        k((1,), (64,), (a, np.int32(37)))
    want = h.copy()
    want["x"] *= 2
    want["y"] += 1
    assert_records(a, want)


def test_cuda_array_interface(device):
    a = ember.zeros(4, PT, device=device)
    if ember.Device(device).type == "cpu":
        assert not hasattr(a, "__cuda_array_interface__")
        return
    cai = a.__cuda_array_interface__
    assert cai["shape"] == (4,) and cai["typestr"] == PT.str
    assert cai["descr"] == PT.descr and cai["data"][0] == a.data.ptr
    assert cai["strides"] is None
    assert a[::2].__cuda_array_interface__["strides"] == (2 * PT.itemsize,)


def test_pickle(device):
    import pickle
    h = records(NESTED, 3)
    a = ember.asarray(h, device=device)
    b = pickle.loads(pickle.dumps(a))
    assert str(b.device) == str(a.device)
    assert_records(b, h)


def test_pycuda_kernel_takes_a_struct_array(device):
    from ember.pycuda.compiler import SourceModule
    with ember.Device(device):
        mod = SourceModule(r"""
        struct pt { float x; int y; };
        __global__ void inc(pt *p, int n) {
            int i = threadIdx.x;
            if (i < n) { p[i].y += 10; p[i].x = 0.5f; }
        }""")
        a = ember.zeros(5, PT)
        mod.get_function("inc")(a, np.int32(5), block=(32, 1, 1),
                                grid=(1, 1))
    assert_records(a, np.array([(0.5, 10)] * 5, PT))


def test_concatenate(device):
    from ember._struct_array import concatenate
    dt = np.dtype([("v", "f8"), ("i", "i8")])
    a = np.zeros((2, 3), dt)
    a["v"], a["i"] = np.arange(6).reshape(2, 3) * 0.5, np.arange(6).reshape(2, 3)
    b = np.zeros((2, 1), dt)
    b["v"], b["i"] = [[9.5], [7.5]], [[-1], [-2]]
    ea = ember.asarray(a, device=device)
    eb = ember.asarray(b, device=device)
    got = concatenate([ea, eb], axis=1)
    assert isinstance(got, StructArray) and got.dtype == dt
    np.testing.assert_array_equal(got.get(), np.concatenate([a, b], axis=1))
    np.testing.assert_array_equal(concatenate([ea, ea], axis=None).get(),
                                  np.concatenate([a, a], axis=None))
    with pytest.raises(np.exceptions.AxisError):
        concatenate([ea, eb], axis=2)
    other = ember.zeros(3, np.dtype([("v", "f4")]), device=device)
    with pytest.raises(TypeError, match="dtypes differ"):
        concatenate([ea.ravel(), other])


def test_dask_arg_reduction_over_struct_partials(device):
    """dask's argmax keeps (value, index) partials in structured arrays made
    by empty_like of the chunk: struct arrays, joined by concatenate."""
    da = pytest.importorskip("dask.array")
    import ember.dask.array  # noqa: F401  (registers the dispatch)
    h = np.random.default_rng(3).random((12, 10))
    x = da.from_array(ember.asarray(h, device=device), chunks=(5, 4))
    got = x.argmax(axis=0).compute(scheduler="sync")
    assert isinstance(got, ember.ndarray)
    np.testing.assert_array_equal(ember.asnumpy(got), h.argmax(axis=0))
    assert int(x.argmin().compute(scheduler="sync")) == h.argmin()
