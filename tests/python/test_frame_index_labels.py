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
