"""The dataframe interchange protocol and Arrow's C Device Data Interface:
round trips through pandas, pyarrow and nanoarrow against pandas' own
export, and the lifetime of the exported structs."""
import ctypes
import gc
import warnings

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyarrow.interchange")
ef = ember.frame
tm = pd.testing
dev_mod = pytest.importorskip("ember.frame._arrow_device")


@pytest.fixture
def pair(device):
    pdf = pd.DataFrame({"a": [3, 1, 2, 7], "f": [1.5, np.nan, 2.0, -0.5],
                        "u8": np.array([1, 2, 250, 0], dtype="uint8"),
                        "I": pd.array([1, None, 3, 4], dtype="Int64"),
                        "B": pd.array([True, None, False, True], dtype="boolean"),
                        "b": [True, False, True, False], "s": ["x", None, "yé", "日本"],
                        "t": pd.to_datetime(["2020-01-01", None, "2021-05-05", "1999-12-31"])},
                       index=[5, 6, 7, 8])
    return pdf, ef.from_pandas(pdf, device=device)


def _from(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # pandas 3 deprecates the protocol
        return pd.api.interchange.from_dataframe(x)


def _leaks():
    gc.collect()
    return len(dev_mod._HELD)


def test_interchange_round_trips(pair, device):
    pdf, df = pair
    if device != "cpu":
        with pytest.raises(RuntimeError, match="allow_copy"):
            df.__dataframe__(allow_copy=False)
        assert df.__dataframe__().metadata["ember.device"] == device
    x = df.__dataframe__()
    tm.assert_frame_equal(_from(x), _from(pdf.__dataframe__()))
    assert pa.interchange.from_dataframe(x).equals(
        pa.interchange.from_dataframe(pdf.__dataframe__()))
    assert x.num_columns() == 8 and x.num_rows() == 4 and x.num_chunks() == 1
    assert x.column_names() == list(pdf.columns)
    for name in pdf.columns:
        mine, theirs = x.get_column_by_name(name), pdf.__dataframe__().get_column_by_name(name)
        assert mine.size() == theirs.size() and mine.null_count == theirs.null_count
        assert tuple(mine.dtype[:2]) == tuple(theirs.dtype[:2]) or name in ("s", "B")
    sel = x.select_columns_by_name(["s", "a"])
    tm.assert_frame_equal(_from(sel), _from(pdf[["a", "s"]].__dataframe__()))
    chunks = list(x.get_chunks(3))
    assert [c.num_rows() for c in chunks] == [2, 2, 0]
    tm.assert_frame_equal(_from(chunks[1]).reset_index(drop=True),
                          _from(pdf.iloc[2:4].__dataframe__()).reset_index(drop=True))
    if device == "cpu":   # zero copy: the buffer is the ember array's memory
        data, _ = x.get_column_by_name("a").get_buffers()["data"]
        assert data.ptr == df["a"].values.__array_interface__["data"][0]
        assert data.__dlpack_device__() == (1, 0)
        assert not hasattr(df["a"], "__dataframe__")
    e = ef.from_pandas(pdf.iloc[:0], device=device)
    tm.assert_frame_equal(_from(e.__dataframe__()), _from(pdf.iloc[:0].__dataframe__()))


def _struct(capsule, name, cls):
    get = ctypes.PyDLL(ctypes.pythonapi._name, handle=ctypes.pythonapi._handle)
    get.PyCapsule_GetPointer.restype = ctypes.c_void_p
    get.PyCapsule_GetPointer.argtypes = (ctypes.py_object, ctypes.c_char_p)
    return cls.from_address(get.PyCapsule_GetPointer(capsule, name))


def _same(rb, pdf):
    expected = pa.RecordBatch.from_pandas(pdf, preserve_index=False)
    tm.assert_frame_equal(rb.to_pandas(), expected.replace_schema_metadata(None).to_pandas())


def test_device_array(pair, device):
    pdf, df = pair
    before = _leaks()
    sc, ac = df.__arrow_c_device_array__()
    d = _struct(ac, b"arrow_device_array", dev_mod.ArrowDeviceArray)
    assert (d.device_type, d.device_id) == ((1, -1) if device == "cpu" else (2, 0))
    assert d.array.length == 4 and d.array.n_children == 8
    if device != "cpu":
        return
    # the values buffer of column 'a' is the ember array's memory
    a_buf = d.array.children[0].contents.buffers[1]
    assert a_buf == df["a"].values.__array_interface__["data"][0]
    rb = pa.RecordBatch._import_from_c_device_capsule(sc, ac)
    del df, sc, ac
    gc.collect()     # the batch keeps the columns alive, not the frame
    _same(rb, pdf)
    del rb
    assert _leaks() == before
    s = ef.from_pandas(pdf["s"].rename("name"), device=device)
    arr = pa.Array._import_from_c_device_capsule(*s.__arrow_c_device_array__())
    assert arr.to_pylist() == ["x", None, "yé", "日本"]
    del arr
    unused = ef.DataFrame({"a": [1, 2]}).__arrow_c_device_array__()
    del unused       # the capsules' destructors release what nobody took
    assert _leaks() == before


def test_device_stream(pair, device):
    pdf, df = pair
    before = _leaks()
    cap = df.__arrow_c_device_stream__()
    st = _struct(cap, b"arrow_device_array_stream", dev_mod.ArrowDeviceArrayStream)
    assert st.device_type == (1 if device == "cpu" else 2)
    schema, batch = dev_mod.ArrowSchema(), dev_mod.ArrowDeviceArray()
    p = ctypes.pointer(st)
    assert st.get_schema(p, ctypes.pointer(schema)) == 0
    assert st.get_next(p, ctypes.pointer(batch)) == 0
    assert batch.array.length == 4 and batch.array.release
    if device == "cpu":
        rb = pa.RecordBatch._import_from_c_device(ctypes.addressof(batch),
                                                  ctypes.addressof(schema))
        _same(rb, pdf)
        del rb
    else:
        batch.array.release(ctypes.pointer(batch.array))
        schema.release(ctypes.pointer(schema))
    end = dev_mod.ArrowDeviceArray()
    assert st.get_next(p, ctypes.pointer(end)) == 0 and not end.array.release
    st.release(p)
    del cap, st, p
    assert _leaks() == before


def test_nanoarrow(pair, device):
    nd = pytest.importorskip("nanoarrow.device")
    pdf, df = pair
    x = nd.c_device_array(df)
    assert x.device_type_id == (1 if device == "cpu" else 2)
    if device == "cpu":
        na = pytest.importorskip("nanoarrow")
        assert na.Array(df["s"]).to_pylist() == ["x", None, "yé", "日本"]


def test_from_dlpack_frames(device):
    """ember.frame.from_dlpack (cuDF's): a 2-D array through DLPack is a
    DataFrame of its columns, a 1-D one a Series, as pandas builds them
    from the same NumPy array; C and Fortran order alike."""
    host = np.arange(24.0).reshape(6, 4)
    for a in (ember.asarray(host, device=device),
              ember.asfortranarray(ember.asarray(host, device=device))):
        tm.assert_frame_equal(ef.from_dlpack(a).to_pandas(), pd.DataFrame(host))
    tm.assert_series_equal(ef.from_dlpack(np.arange(5)).to_pandas(),
                           pd.Series(np.arange(5)))
    moved = ef.from_dlpack(np.arange(3.0), device=device)
    assert str(moved.device) == str(ember.Device(device))
    with pytest.raises(ValueError, match=r"shape \(2, 2, 2\)"):
        ef.from_dlpack(np.zeros((2, 2, 2)))
    with pytest.raises(TypeError, match="__dlpack__"):
        ef.from_dlpack([1, 2, 3])


@pytest.mark.parametrize("shape,order", [((3, 4), "C"), ((3, 4), "F"), ((5,), "C"),
                                         ((1, 4), "F"), ((3, 1), "C"), ((2, 3, 4), "F")])
def test_isfortran_equals_numpy(device, shape, order):
    h = np.zeros(shape, order=order)
    assert ember.isfortran(ember.asarray(h, device=device, order=order)) == np.isfortran(h)
    assert ember.isfortran(h) == np.isfortran(h)
    t = ember.asarray(np.zeros((3, 4)), device=device).T
    assert ember.isfortran(t) == np.isfortran(np.zeros((3, 4)).T)
