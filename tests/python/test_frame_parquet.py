"""read_parquet of one local file, decoded in (row group, column) pieces
on threads, each copied to the device as it finishes (frame/_io_parquet.py),
against pandas.read_parquet of the same file, on every device: columns
that turn out to hold nulls in a later row group, every dtype the frame
reads, the index's columns with `columns=`, empty files and one-row files.
Every test runs as on a host of many cores and of few (where the cpu
device reads a column a thread and shares it)."""
import os

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
ef = ember.frame
tm = pd.testing


@pytest.fixture(autouse=True, params=["many cores", "few cores"])
def cores(request, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 64 if request.param == "many cores" else 1)


def _mixed(n, rng):
    return pd.DataFrame({
        "i8": rng.integers(-100, 100, n).astype(np.int8),
        "u64": rng.integers(0, 2 ** 63, n, dtype=np.uint64) * np.uint64(2),
        "i": rng.integers(-9, 9, n),
        "f32": rng.random(n).astype(np.float32),
        "f": rng.random(n),
        "b": rng.random(n) < 0.5,
        "s": [f"x{k % 97}é" for k in range(n)],
        "t": pd.to_datetime(rng.integers(0, 10 ** 9, n), unit="s"),
        "c": pd.Categorical([("a", "b", "c")[k % 3] for k in range(n)]),
    })


@pytest.mark.parametrize("rows", [1, 5_000, 40_003])
def test_every_dtype_many_row_groups(device, tmp_path, rows):
    pdf = _mixed(rows, np.random.default_rng(rows))
    p = tmp_path / "m.parquet"
    pdf.to_parquet(p, row_group_size=3_001)
    got = ef.read_parquet(p, device=device)
    tm.assert_frame_equal(got.to_pandas(), pd.read_parquet(p))
    assert str(got["f"]._col.device) == str(ember.Device(device))
    # the batches go to arrays of the whole length, one a column
    assert got["f"]._col.values.shape == (rows,)


def test_nulls_in_a_later_row_group(device, tmp_path):
    # the first batches of "i" and "f" are copied to the device before
    # the one with a null arrives; the column is then built from the
    # batches, as read_table's table would be
    n = 20_000
    rng = np.random.default_rng(5)
    i = pa.array(rng.integers(0, 50, n), mask=np.arange(n) == n - 3)
    f = pa.array(rng.random(n), mask=np.arange(n) == 15_000)
    g = pa.array(rng.random(n))
    t = pa.table({"i": i, "f": f, "g": g})
    p = tmp_path / "n.parquet"
    pq.write_table(t, p, row_group_size=1_000)
    want = pd.read_parquet(p)
    assert str(want["i"].dtype) == "float64"    # pandas' NaN for a plain file
    tm.assert_frame_equal(ef.read_parquet(p, device=device).to_pandas(), want)
    # with pandas' metadata the nullable dtype comes back
    pdf = pd.DataFrame({"i": pd.array([1, 2, None] * 3000, dtype="Int64"),
                        "u": pd.array([None] + [7] * 8999, dtype="UInt8")})
    pdf.to_parquet(p, row_group_size=500)
    tm.assert_frame_equal(ef.read_parquet(p, device=device).to_pandas(),
                          pd.read_parquet(p))


def test_columns_and_the_index(device, tmp_path):
    pdf = _mixed(10_000, np.random.default_rng(1))
    p = tmp_path / "x.parquet"
    pdf.set_index("i").to_parquet(p, row_group_size=999)
    for cols in (None, ["f", "s"], ["s", "f32"], ["f"]):
        tm.assert_frame_equal(ef.read_parquet(p, columns=cols, device=device).to_pandas(),
                              pd.read_parquet(p, columns=cols))
    pdf.set_index(["s", "i8"]).to_parquet(p, row_group_size=999)
    for cols in (None, ["f", "u64"]):
        tm.assert_frame_equal(ef.read_parquet(p, columns=cols, device=device).to_pandas(),
                              pd.read_parquet(p, columns=cols))
    with pytest.raises(Exception) as e:
        pd.read_parquet(p, columns=["nope"])
    with pytest.raises(type(e.value)):
        ef.read_parquet(p, columns=["nope"], device=device)


def test_empty_file(device, tmp_path):
    pdf = _mixed(0, np.random.default_rng(0)).drop(columns=["c"])
    p = tmp_path / "e.parquet"
    pdf.to_parquet(p)
    got = ef.read_parquet(p, device=device)
    assert len(got) == 0
    tm.assert_frame_equal(got.to_pandas(), pd.read_parquet(p))


def test_folder_and_open_file_agree(device, tmp_path):
    # what read_table reads (a folder, an open file) and the batch path
    # give one frame
    pdf = _mixed(7_000, np.random.default_rng(2)).drop(columns=["c"])
    folder = tmp_path / "set"
    folder.mkdir()
    pdf.to_parquet(folder / "part-0.parquet", row_group_size=2_000)
    one = ef.read_parquet(folder / "part-0.parquet", device=device).to_pandas()
    tm.assert_frame_equal(one, pd.read_parquet(folder / "part-0.parquet"))
    with open(folder / "part-0.parquet", "rb") as fh:
        tm.assert_frame_equal(ef.read_parquet(fh, device=device).to_pandas(), one)
    tm.assert_frame_equal(ef.read_parquet(str(folder), device=device).to_pandas(), one)


def test_int_column_labels(device, tmp_path):
    # Arrow's field names are str; pandas' metadata turns int labels back
    p = pd.DataFrame(np.arange(12).reshape(4, 3) * 1.5)
    p.to_parquet(tmp_path / "p.parquet")
    tm.assert_frame_equal(ef.read_parquet(tmp_path / "p.parquet", device=device)
                          .to_pandas(), pd.read_parquet(tmp_path / "p.parquet"))
    ef.from_pandas(p, device=device).to_parquet(tmp_path / "e.parquet")
    tm.assert_frame_equal(pd.read_parquet(tmp_path / "e.parquet"), p)
    tm.assert_frame_equal(ef.read_parquet(tmp_path / "e.parquet", device=device)
                          .to_pandas(), p)
    s = pd.DataFrame({"a": [1], 0: [2]})    # mixed labels stay as pandas has them
    s.columns = ["a", "0"]
    s.to_parquet(tmp_path / "s.parquet")
    tm.assert_frame_equal(ef.read_parquet(tmp_path / "s.parquet", device=device)
                          .to_pandas(), pd.read_parquet(tmp_path / "s.parquet"))


@pytest.mark.parametrize("case", ["missing column", "missing file", "not parquet"])
def test_bad_input_raises_as_pandas(device, tmp_path, case):
    # the same exception class as pandas.read_parquet (both end in pyarrow)
    p = tmp_path / "b.parquet"
    pd.DataFrame({"a": [1, 2], "b": [0.5, 1.5]}).to_parquet(p, row_group_size=1)
    columns = None
    if case == "missing column":
        columns = ["a", "nope"]
    elif case == "missing file":
        p = tmp_path / "none.parquet"
    else:
        p = tmp_path / "t.parquet"
        p.write_text("a,b\n1,2\n")
    with pytest.raises(Exception) as want:
        pd.read_parquet(p, columns=columns)
    with pytest.raises(type(want.value)):
        ef.read_parquet(p, columns=columns, device=device)


def test_engine_as_pandas(device, tmp_path):
    # tutorials pass engine="pyarrow"; fastparquet is not ember's, and a
    # name pandas does not know is pandas' ValueError
    pdf = pd.DataFrame({"a": [1, 2, 3], "b": [0.5, 1.5, 2.5]})
    p = tmp_path / "e.parquet"
    ef.from_pandas(pdf, device=device).to_parquet(p, engine="pyarrow")
    got = ef.read_parquet(p, engine="pyarrow", device=device)
    tm.assert_frame_equal(got.to_pandas(), pd.read_parquet(p, engine="pyarrow"))
    got = ef.read_parquet(p, "auto", ["b"], device=device)   # pandas' order
    tm.assert_frame_equal(got.to_pandas(), pd.read_parquet(p, "auto", ["b"]))
    with pytest.raises(NotImplementedError, match="fastparquet"):
        ef.read_parquet(p, engine="fastparquet", device=device)
    with pytest.raises(ValueError, match="engine must be one of"):
        ef.read_parquet(p, engine="nope", device=device)
    with pytest.raises(ValueError, match="engine must be one of"):
        got.to_parquet(tmp_path / "f.parquet", engine="nope")
