"""ember.frame's data model against pandas: construction, dtypes, nulls,
strings, pandas and Arrow round trips, on every device."""
import subprocess
import sys

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
ef = ember.frame
tm = pd.testing


def _mixed():
    return pd.DataFrame({
        "i8": np.array([1, -2, 3, 4], dtype=np.int8),
        "u32": np.array([1, 2, 3, 2**32 - 1], dtype=np.uint32),
        "f32": np.array([0.5, np.nan, -1.0, 2.0], dtype=np.float32),
        "f": [1.5, np.nan, 2.0, 0.5],
        "b": [True, False, True, True],
        "I": pd.array([1, None, 3, 4], dtype="Int64"),
        "U8": pd.array([None, 2, 255, 0], dtype="UInt8"),
        "F": pd.array([0.25, None, 3.0, None], dtype="Float64"),
        "B": pd.array([True, None, False, True], dtype="boolean"),
        "s": ["x", None, "yé日本", ""],
        "S": pd.array(["a", "bb", None, "ü"], dtype="string"),
        "t": pd.to_datetime(["2020-01-01", None, "2021-06-30", "1999-12-31"]
                            ).astype("datetime64[ns]"),
        "d": pd.to_timedelta([1, 2, None, 4], unit="s").astype("timedelta64[ns]"),
    })


def test_pandas_round_trip(device):
    pdf = _mixed()
    df = ef.from_pandas(pdf, device=device)
    assert df.shape == pdf.shape and len(df) == 4
    assert list(df.columns) == list(pdf.columns)
    for k, d in df.dtypes.items():
        assert d == pdf.dtypes[k], k
    out = df.to_pandas()
    tm.assert_frame_equal(out, pdf)
    assert str(df["I"].device) == device


def test_series_round_trip_keeps_index_and_name(device):
    s = pd.Series([3.0, None, 1.0], index=pd.Index([10, 20, 5], name="k"), name="v")
    es = ef.from_pandas(s, device=device)
    tm.assert_series_equal(es.to_pandas(), s)
    assert es.name == "v" and es.index.name == "k"


def test_frame_from_dict_of_lists_numpy_ember(device):
    df = ef.DataFrame({"a": [1, 2, 3], "b": np.array([0.5, 1.0, 2.0]),
                       "c": ember.asarray([True, False, True]),
                       "s": ["é", None, "z"], "n": [1, None, 3]}, device=device)
    exp = pd.DataFrame({"a": [1, 2, 3], "b": [0.5, 1.0, 2.0], "c": [True, False, True],
                        "s": ["é", None, "z"], "n": [1, None, 3]})
    tm.assert_frame_equal(df.to_pandas(), exp)


def test_series_dtypes_and_nullable_lists(device):
    s = ef.Series([1, None, 3], dtype="Int64", name="x", device=device)
    tm.assert_series_equal(s.to_pandas(), pd.Series([1, None, 3], dtype="Int64", name="x"))
    s = ef.Series(np.array([1, 2], dtype=np.uint16), index=[7, 9], device=device)
    tm.assert_series_equal(s.to_pandas(), pd.Series(np.array([1, 2], np.uint16), index=[7, 9]))
    s = ef.Series(["a", None], dtype="string", device=device)
    tm.assert_series_equal(s.to_pandas(), pd.Series(["a", None], dtype="string"))


def test_empty_one_row_all_null(device):
    for pdf in (pd.DataFrame({"a": pd.Series([], dtype="int64"),
                              "s": pd.Series([], dtype="str")}),
                pd.DataFrame({"a": [7], "s": ["ü"], "I": pd.array([None], dtype="Int64")}),
                pd.DataFrame({"f": [np.nan, np.nan], "I": pd.array([None, None], dtype="Int64"),
                              "s": pd.Series([None, None], dtype="str")})):
        tm.assert_frame_equal(ef.from_pandas(pdf, device=device).to_pandas(), pdf)
    assert ef.DataFrame().shape == (0, 0)


def test_validity_bitmap_is_arrow_layout(device):
    valid = np.random.default_rng(0).random(21) > 0.4
    s = pd.Series(pd.array(np.arange(21), dtype="Int64"))
    s[~valid] = pd.NA
    col = ef.from_pandas(s, device=device)._col
    assert str(col.validity.dtype) == "uint8"
    np.testing.assert_array_equal(ember.asnumpy(col.validity),
                                  np.packbits(valid, bitorder="little"))
    assert ef.from_pandas(pd.Series([1, 2], dtype="Int64"))._col.validity is None


def test_strings_are_offsets_and_bytes(device):
    s = ef.Series(["ab", None, "日本", ""], device=device)
    col = s._col
    np.testing.assert_array_equal(ember.asnumpy(col.offsets), [0, 2, 2, 8, 8])
    assert bytes(ember.asnumpy(col.values)) == "ab日本".encode()
    assert len(s) == 4 and s.dtype == "str"
    tm.assert_series_equal((s == "日本").to_pandas(), pd.Series([False, False, True, False]))
    tm.assert_series_equal((s != "ab").to_pandas(), pd.Series([False, True, True, True]))
    other = ef.Series(["ab", "x", "日本", None], device=device)
    tm.assert_series_equal((s == other).to_pandas(),
                           pd.Series(["ab", None, "日本", ""]) == pd.Series(["ab", "x", "日本", None]))


def test_arrow_round_trip_and_zero_copy_on_cpu(device):
    pdf = _mixed().drop(columns=["S"])
    df = ef.from_pandas(pdf, device=device)
    t = df.to_arrow()
    assert t.column("s").type == pa.large_string()
    assert t.column("t").type == pa.timestamp("ns") and t.column("t").null_count == 1
    assert t.column("I").null_count == 1
    assert t.column("i8").to_pylist() == [1, -2, 3, 4]
    back = ef.from_arrow(t, device=device).to_pandas()
    tm.assert_frame_equal(back, pdf)
    if device == "cpu":
        col = df["f"]._col
        buf = t.column("f").chunks[0].buffers()[1]
        assert buf.address == col.values.__array_interface__["data"][0]
        arr = pa.array([1, 2, None, 4], type=pa.int32())
        got = ef.from_arrow(arr, device="cpu")
        assert got._col.values.__array_interface__["data"][0] == arr.buffers()[1].address
        assert got.dtype == "Int32"


def test_arrow_slices_and_pycapsules(device):
    arr = pa.array(["a", None, "bcd", "é", None, "f"])[2:5]
    s = ef.from_arrow(arr, device=device)
    tm.assert_series_equal(s.to_pandas(), pd.Series(["bcd", "é", None], dtype="str"))
    b = pa.array([True, None, False, True, True, None, False, False, True])[1:]
    tm.assert_series_equal(ef.from_arrow(b, device=device).to_pandas(),
                           pd.Series(b.to_pylist(), dtype="boolean"))
    df = ef.DataFrame({"a": [1, 2], "s": ["x", "y"]}, device=device)
    assert pa.table(df).equals(df.to_arrow())
    assert pa.array(df["s"]).to_pylist() == ["x", "y"]
    assert pa.chunked_array(df["a"]).to_pylist() == [1, 2]
    if device == "cpu":   # pa.record_batch reads the device capsule: CUDA memory on cuda
        tm.assert_frame_equal(ef.from_arrow(pa.record_batch(df), device=device).to_pandas(),
                              df.to_pandas())


def test_errors_name_what_is_wrong(device):
    with pytest.raises(TypeError, match="complex128"):
        ef.from_pandas(pd.Series([1j]), device=device)
    with pytest.raises(TypeError, match="float16"):   # object columns exist now
        ef.Series(np.array([1, 2], dtype=np.float16), device=device)
    with pytest.raises(ValueError, match="same length"):
        ef.DataFrame({"a": [1, 2], "b": [1]}, device=device)
    with pytest.raises(ValueError, match="Length"):
        ef.Series([1, 2], index=[1], device=device)
    df = ef.DataFrame({"a": [1, 2]}, device=device)
    with pytest.raises(KeyError, match="nope"):
        df["nope"]
    with pytest.raises(KeyError, match="nope"):
        df[["a", "nope"]]


def test_import_ember_imports_no_frame():
    code = ("import sys, ember; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('pandas', 'pyarrow')"
            " or m.startswith('ember.frame')]; assert not bad, bad; "
            "assert ember.DataFrame is ember.frame.DataFrame; "
            "assert ember.from_pandas is ember.frame.from_pandas; "
            "assert 'pandas' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_repr_and_constructors(device):
    df = ef.DataFrame({"a": np.arange(100), "s": ["é"] * 100}, device=device)
    text = repr(df)
    assert "[100 rows x 2 columns" in text and device in text and "99" in text
    assert "Length: 100" in repr(df["a"])
    s = ef.Series(df["a"], name="z")
    assert s.name == "z" and len(s) == 100
    tm.assert_frame_equal(ef.DataFrame({"x": df["a"], "y": df["a"] * 2}).head(2).to_pandas(),
                          pd.DataFrame({"x": [0, 1], "y": [0, 2]}))
    assert ef.DataFrame(df).shape == (100, 2)
    assert ef.Series([2.5], device=device).to_pandas().equals(pd.Series([2.5]))


def test_scalars_broadcast(device):
    df = ef.DataFrame({"a": [1, 2, 3]}, device=device)
    df["s"] = "é"
    df["f"] = 2.5
    df["b"] = True
    exp = pd.DataFrame({"a": [1, 2, 3], "s": ["é"] * 3, "f": [2.5] * 3, "b": [True] * 3})
    tm.assert_frame_equal(df.to_pandas(), exp)
    tm.assert_series_equal(ef.Series(7, index=[4, 5], device=device).to_pandas(),
                           pd.Series(7, index=[4, 5]))


def test_first_column_sets_length_and_devices_stay(device):
    df = ef.DataFrame()
    df["a"] = [1, 2, 3]
    tm.assert_frame_equal(df.to_pandas(), pd.DataFrame({"a": [1, 2, 3]}))
    df = ef.DataFrame({"a": [1, 2]}, device=device)
    other = "cpu" if device != "cpu" else None
    if other:
        with pytest.raises(ValueError, match="device"):
            df["b"] = ember.asarray([1, 2], device=other)
        with pytest.raises(ValueError, match="devices"):
            ef.DataFrame({"a": ember.asarray([1], device=device),
                          "b": ember.asarray([1], device=other)})


def test_truth_iteration_numpy(device):
    s = ef.Series([1.5, None, 3.0], device=device)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(s)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(ef.DataFrame({"a": [1]}, device=device))
    assert [x for x in ef.Series([3, 4], device=device)] == [3, 4]
    np.testing.assert_array_equal(np.asarray(s), [1.5, np.nan, 3.0])
    b = ef.Series([True, None, False], dtype="boolean", device=device)
    assert b.any() and not b.all()
    assert (s > 1).all() is False and (s > 1).any() is True


def test_arrow_chunked_columns(device):
    """A table of several row groups (chunks, one an empty one and one a
    slice) arrives whole, nulls and all, on either device."""
    pa = pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    a = pa.chunked_array([pa.array(np.arange(5)), pa.array(np.arange(9))[3:],
                          pa.array(np.array([], np.int64)), pa.array([7, 8])])
    f = pa.chunked_array([pa.array([1.5, None] * 4), pa.array([2.5, 3.5, 4.5, 5.5, 6.5])])
    v = pa.chunked_array([pa.array([0.25, 0.5], pa.float32()),
                          pa.array([1, 2, 4, 8, 16] * 2 + [32], pa.float32())])
    t = pa.table({"a": a, "f": f, "v": v})
    df = ember.from_arrow(t, device=device)
    # a float column with nulls arrives nullable, as from_arrow documents
    pd.testing.assert_frame_equal(df.to_pandas(), t.to_pandas().astype({"f": "Float64"}))


def test_works_without_pandas_and_pyarrow():
    code = ("import sys; sys.modules['pandas'] = None; sys.modules['pyarrow'] = None\n"
            "import ember\n"
            "df = ember.DataFrame({'a': [3, 1, None], 's': ['x', 'é', None]}, device='cpu')\n"
            "assert df.sum(numeric_only=True)['a'] == 4.0\n"
            "assert df.sort_values('a')['a'].iloc[0] == 1.0\n"
            "assert 'rows' in repr(df)\n"
            "try:\n    df.to_pandas()\nexcept ImportError as e:\n"
            "    assert 'pip install pandas' in str(e)\nelse:\n    raise AssertionError\n"
            "try:\n    df.to_arrow()\nexcept ImportError as e:\n"
            "    assert 'pip install pyarrow' in str(e)\nelse:\n    raise AssertionError\n")
    subprocess.run([sys.executable, "-c", code], check=True)



def test_values_of_strings_is_a_type_error_too(device):
    # a string column's values have no ember array form; the error is also
    # a TypeError, which libraries catch for that (dask's quantiles of a
    # string column fall back to the Series itself on it)
    s = ef.Series(["a", "b", None], dtype="string", device=device)
    with pytest.raises(TypeError, match="values of a string Series"):
        s.values
    with pytest.raises(NotImplementedError):
        s.values


def test_dtype_as_numpy_and_pandas_take_it(device):
    # pandas' numeric dtypes are NumPy's, so np.dtype(s.dtype) and
    # pd.array(v, dtype=s.dtype) work on them; ember's Dtype converts the
    # same way, strings to NumPy's StringDType; nullable ones do not, as
    # pandas' Int64 does not
    pdf = pd.DataFrame({
        "f": [1.5, 2.5], "i": np.array([1, 2], np.int32), "b": [True, False],
        "t": pd.to_datetime(["2026-01-01", "2026-01-02"]),
        "s": pd.array(["a", "b"], dtype="str"), "n": pd.array([1, None], dtype="Int64")})
    df = ef.from_pandas(pdf, device=device)
    for c in "fibt":
        want = pdf[c].dtype            # NumPy's, in pandas
        v = np.array([0, 1]).astype(want)
        assert np.dtype(df[c].dtype) == want
        assert pd.array(v, dtype=df[c].dtype).dtype == pd.array(v, dtype=want).dtype
    assert np.dtype(df["s"].dtype) == np.dtypes.StringDType()
    assert list(pd.array(np.array(["x", "y"], object), dtype=df["s"].dtype)) == ["x", "y"]
    # and back: a NumPy StringDType names ember's str
    assert ef.Series(["x"], dtype=np.dtypes.StringDType(), device=device).dtype == "str"
    with pytest.raises(TypeError):
        np.dtype(df["n"].dtype)


def test_index_uniqueness_levels_and_attrs(device):
    pdf = pd.DataFrame({"a": [1, 2, 2], "s": ["x", "y", "x"]})
    df = ef.from_pandas(pdf, device=device)
    for col in ("a", "s"):
        ix, pix = df.set_index(col).index, pdf.set_index(col).index
        assert (ix.is_unique, ix.has_duplicates) == (pix.is_unique, pix.has_duplicates)
        assert ix.get_level_values(0).equals(ix) and ix.get_level_values(col).equals(ix)
        for bad in (1, -2, "nope"):
            with pytest.raises(type(_raised(lambda: pix.get_level_values(bad)))):
                ix.get_level_values(bad)
    assert df.index.is_unique and df.columns.is_unique
    assert ef.from_pandas(pdf.set_index("a").iloc[:2], device=device).index.is_unique
    df.attrs["source"] = "test"
    assert df.attrs == {"source": "test"} and df["a"].attrs == {}
    assert df.index.dtype.type is np.int64 and df["s"].dtype.type is str


def _raised(f):
    try:
        f()
    except Exception as e:
        return e
    raise AssertionError("pandas did not raise")
