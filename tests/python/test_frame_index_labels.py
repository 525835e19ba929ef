"""An index's labels one at a time and as one Arrow array, against
pandas': idx[i] reads one label (pyarrow's Table.from_pandas, as dask's
to_parquet calls it, read an index that had no Arrow hook label by label,
and each label used to copy the whole index to the host), and a datetime
index gives Timestamps as pandas' does."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
ef = ember.frame


def _frames(device):
    n = 50
    pdfs = [
        pd.DataFrame({"x": np.arange(n) * 0.5},
                     index=pd.date_range("2000-01-01", periods=n, freq="s",
                                         name="timestamp")),
        pd.DataFrame({"x": np.arange(n)}, index=pd.Index(np.arange(n) * 3 - 7, name="k")),
        pd.DataFrame({"x": np.arange(n)},
                     index=pd.Index([f"r{i}" for i in range(n)])),
    ]
    return [(p, ef.from_pandas(p, device=device)) for p in pdfs]


def test_one_label_equals_pandas(device):
    for p, e in _frames(device):
        for i in (0, 7, -1, -50, np.int64(3), np.int32(-2)):
            assert e.index[i] == p.index[i]
            assert type(e.index[i]) is type(p.index[i]) or isinstance(p.index[i], str)
        for bad in (50, -51):
            with pytest.raises(IndexError, match="out of bounds"):
                e.index[bad]
        assert e.index.tolist() == p.index.tolist()


def test_arrow_table_equals_pandas(device):
    for p, e in _frames(device):
        got = pa.Table.from_pandas(e, nthreads=1, preserve_index=True)
        want = pa.Table.from_pandas(p, nthreads=1, preserve_index=True)
        for name in want.column_names:
            g, w = got.column(name), want.column(name)
            if pa.types.is_string(w.type) or pa.types.is_large_string(w.type):
                assert g.to_pylist() == w.to_pylist()
            else:
                assert g.type == w.type and g.equals(w), name
        arr = pa.array(e.index)
        assert arr.to_pylist() == pa.array(p.index).to_pylist()


def test_isna_notna_equal_pandas(device):
    """Index.isna/notna as pandas' (dask's from_pandas asks them of a
    frame's index), and Series.copy, whose copies a later write to the
    original leaves alone (pandas 3's copy on write, deep or not)."""
    for pidx in (pd.RangeIndex(2, 12, 3), pd.Index([1.5, np.nan, 3.0, np.nan]),
                 pd.Index(["a", None, "c"]), pd.Index([], dtype="int64")):
        e = ef.from_pandas(pd.Series(np.arange(len(pidx)), index=pidx), device=device).index
        np.testing.assert_array_equal(ember.asnumpy(e.isna()), pidx.isna())
        np.testing.assert_array_equal(ember.asnumpy(e.notna()), pidx.notna())
    ps = pd.Series([1.0, 2.0, np.nan], index=[5, 6, 7], name="v")
    s = ef.from_pandas(ps, device=device)
    deep, shallow = s.copy(), s.copy(deep=False)
    before, pshallow = ps.copy(), ps.copy(deep=False)
    s[5] = 9.0
    ps[5] = 9.0
    pd.testing.assert_series_equal(s.to_pandas(), ps)
    pd.testing.assert_series_equal(deep.to_pandas(), before)
    pd.testing.assert_series_equal(shallow.to_pandas(), pshallow)


def test_null_labels_as_pandas(device):
    # a null label of a masked or str index reads as pandas' (NA or NaN),
    # not the value under the null bit (0) or None
    for p in (pd.Index(pd.array([1, None, 3], dtype="Int64")),
              pd.Index(pd.array([1.5, None], dtype="Float64")),
              pd.Index(pd.array([True, None], dtype="boolean")),
              pd.Index(["a", None, "b"])):
        e = ef.from_pandas(pd.Series(range(len(p)), index=p), device=device).index
        got, want = e.tolist(), p.tolist()
        assert [repr(x) for x in got] == [repr(x) for x in want]
        assert repr(e[1]) == repr(p[1])
