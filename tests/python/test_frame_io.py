"""ember.frame's files against pandas on the same bytes: read_csv (types,
nulls, quoting, options, errors, exact floats), compression, to_csv,
Parquet and JSON lines, on every device."""
import io

import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


def _same(text, device, **kw):
    want = pd.read_csv(io.StringIO(text), **kw)
    got = ef.read_csv(io.StringIO(text), device=device, **kw)
    tm.assert_frame_equal(got.to_pandas(), want)
    return got


CASES = [
    "a,b\n1,2\n3,4\n",
    "a,b\n1,2\n3,4",                      # no trailing newline
    "a,b\r\n1,2\r\n3,4\r\n",              # CRLF
    "a,b,c\n1,2.5,x\n3,,\"y,z\"\n",      # quoted separator, empty float
    "a,b\n1,\"x\"\"y\"\n2,\"multi\nline\"\n",   # doubled quote, newline in quotes
    "a\n1\n\"2\"\n",                      # a quoted number
    "a,b\nTrue,1\nfalse,2\nTRUE,3\n",     # booleans
    "a,b\n1,2\n\n3,4\n5\n",               # blank line, short row
    "a\nNA\n  \n",                        # NA, a line of spaces
    "a,b\nnan,é日本\n1e5,\n",              # unicode, NA spellings
    "a\n1\n-0\n+7\n",
    "a\n-0.0\n.5\n5.\n1E-3\n",
    "a\ninf\n-Infinity\n1\n",
    "a\n9223372036854775808\n1\n",        # uint64
    "a\n9223372036854775807\n-9223372036854775808\n",
    "a\n1.5\n99999999999999999999\n",     # beyond uint64, and a float
    "a\n1.5x\n2\n",                       # a string column
    ",a,a\n1,2,3\n",                      # Unnamed, mangled duplicates
    "a,b\n,\n,\n",                        # all null
    "x\n#N/A\nNULL\nnull\n<NA>\nn/a\n1\n",
    "a,b\n\"\",1\n\"NA\",2\nx,3\n",
    " a ,b\n 1 , 2\n",                    # spaces around numbers
    "\ufeffa,b\n1,2\n",                    # a byte order mark
]


@pytest.mark.parametrize("text", CASES)
def test_read_csv_cases(text, device):
    _same(text, device)


def test_read_csv_no_rows(device):
    # pandas makes object columns, ember str ones (it holds no objects)
    got = ef.read_csv(io.StringIO("a,b\n"), device=device)
    assert list(got.columns) == ["a", "b"] and len(got) == 0
    tm.assert_frame_equal(got.to_pandas(), pd.read_csv(io.StringIO("a,b\n")),
                          check_dtype=False, check_index_type=False)


def test_read_csv_options(device):
    text = "id,name,score,flag\n1,ann,1.5,True\n2,bob,,False\n3,\"c,d\",2.25,True\n" \
           "4,NA,3,False\n"
    _same(text, device, usecols=["id", "score"])
    _same(text, device, usecols=[3, 0])
    _same(text, device, dtype={"id": "float64", "name": "string"})
    _same(text, device, dtype={"id": "Int64"})
    _same(text, device, nrows=2)
    _same(text, device, skiprows=[1, 3])
    _same(text, device, skiprows=1)
    _same(text, device, header=None)
    _same(text, device, names=["a", "b", "c", "d"], header=0)
    _same(text, device, names=["a", "b", "c", "d"])
    _same(text, device, na_values=["bob"])
    _same(text, device, na_values={"name": ["ann"]})
    _same(text, device, keep_default_na=False)
    _same(text.replace(",", ";"), device, sep=";")
    _same(text.replace('"', "'"), device, quotechar="'")
    _same("a\tb\n1\t2\n", device, sep="\t")


def test_read_csv_index(device):
    text = "id,v,s\n3,0.5,x\n1,1.5,y\n"
    _same(text, device, index_col="id")
    _same(text, device, index_col=2)
    _same(text, device, index_col=0, usecols=["v", "s"])
    _same("a,b\n1,5,x\n2,3,y\n", device)          # implicit index: header shorter
    _same("a\n1,5\n2,3\n", device, dtype={"a": "float64"})
    _same("1,2,3\n4,5,6\n", device, header=None, names=["a", "b"])
    _same("x,y,z\n1,2,3\n4,5,6\n", device, header=0, names=["a", "b"])
    _same("a\n1,5\n2,3\n", device, usecols=["a"])
    _same("a,b\n1,5\n2,3,4\n", device, usecols=["a"])   # extra fields: no error
    _same(text, device, index_col=[0, 2])   # a MultiIndex


def test_read_csv_errors(device, tmp_path):
    with pytest.raises(FileNotFoundError):
        ef.read_csv(tmp_path / "nope.csv", device=device)
    with pytest.raises(ef.ParserError, match="Expected 2 fields in line 4, saw 3"):
        ef.read_csv(io.StringIO("a,b\n1,2\n3,4\n5,6,7\n"), device=device)
    assert issubclass(ef.ParserError, ValueError)
    with pytest.raises(ValueError, match="Usecols do not match columns"):
        ef.read_csv(io.StringIO("a,b\n1,2\n"), usecols=["a", "z"], device=device)
    with pytest.raises(ValueError):
        pd.read_csv(io.StringIO("a,b\n1,2\n"), usecols=["a", "z"])
    with pytest.raises(ef.EmptyDataError):
        ef.read_csv(io.StringIO(""), device=device)
    with pytest.raises(ValueError, match="Integer column has NA"):
        ef.read_csv(io.StringIO("a,b\n1,2\n,3\n"), dtype={"a": "int64"}, device=device)
    with pytest.raises(NotImplementedError):
        ef.read_csv(io.StringIO("a,b\nTrue,1\n,2\n"), device=device)
    with pytest.raises(NotImplementedError, match="beyond uint64"):
        ef.read_csv(io.StringIO("a\n99999999999999999999\n1\n"), device=device)


def test_read_csv_exact_floats(device):
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.random(3000), rng.standard_normal(3000) *
                        10.0 ** rng.integers(-30, 30, 3000),
                        rng.random(2000) * 1e6, [5e-324, 1.7976931348623157e308,
                                                 2.2250738585072014e-308, 0.1, 1e23]])
    forms = [repr(float(v)) for v in x] + ["%.6f" % v for v in x[:2000]] + \
        ["%.3e" % v for v in x[:2000]] + ["%.25g" % v for v in x[:500]] + \
        ["0.%s" % ("1" * 30), "123456789012345678901234567890", "1" + "0" * 40 + "e-20"]
    # exact midpoints between doubles (ties to even) with at most 19
    # digits, and 19-digit values over the whole exact 128-bit range
    from decimal import Decimal
    for m in rng.integers(2 ** 52, 2 ** 53, 300):
        for e in (0, -1, -2):
            forms.append(str((Decimal(int(m)) * 2 + 1) * Decimal(2) ** (e - 1)))
    w = rng.integers(10 ** 18, 10 ** 19, 2000, dtype=np.uint64)
    forms += [f"{int(a)}e{int(q)}" for a, q in zip(w, rng.integers(-45, 9, 2000))]
    text = "a\n" + "\n".join(forms) + "\n"
    got = _same(text, device)
    ref = np.array([float(t) for t in forms])
    assert (got["a"].to_numpy() == ref).all()


def test_read_csv_paths_and_compression(device, tmp_path):
    pdf = pd.DataFrame({"k": [1, 2, 3], "v": [0.5, None, 1e-7], "s": ["x", "yé", None]})
    for ext in ("csv", "csv.gz", "csv.bz2", "csv.xz", "csv.zip"):
        p = tmp_path / f"t.{ext}"
        pdf.to_csv(p, index=False)
        tm.assert_frame_equal(ef.read_csv(p, device=device).to_pandas(), pd.read_csv(p))
        tm.assert_frame_equal(ef.read_csv(str(p), device=device).to_pandas(),
                              pd.read_csv(p))
    raw = (tmp_path / "t.csv").read_bytes()
    tm.assert_frame_equal(ef.read_csv(io.BytesIO(raw), device=device).to_pandas(),
                          pd.read_csv(io.BytesIO(raw)))


def test_read_csv_many_rows(device):
    rng = np.random.default_rng(1)
    n = 40000
    pdf = pd.DataFrame({"id1": rng.integers(0, 100, n), "id2": rng.integers(-5, 5, n),
                        "v1": rng.random(n), "v2": rng.standard_normal(n) * 1e3,
                        "s": rng.choice(["a", "bb", "日本", "x,y", 'q"q'], n)})
    text = pdf.to_csv(index=False)
    _same(text, device)
    _same(text, device, nrows=777, usecols=["v1", "s"])


def test_csv_kernels_compile_for_the_gpu(need_nvrtc):
    """kernels/csv.cuh as the cuda backend compiles it (src/frame/csv.c
    puts CSV_CUDA 1 in front), through NVRTC here."""
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2]
    src = "#define CSV_CUDA 1\n" + "".join(
        (root / "kernels" / f).read_text() for f in ("csv_values.cuh", "csv.cuh"))
    ptx = ember.cuda.Program(src).compile("ptx").code
    assert ptx.count(b".entry") == 3


def test_csv_rows_kernel_compiles_for_the_gpu(need_nvrtc):
    """frame/kernels/csv_rows.cuh (read_csv's rows, a RawModule) through
    NVRTC here."""
    from ember.frame._kernels import source
    src = source("csv_rows.cuh")
    assert ember.cuda.Program(src).compile("ptx").code.count(b".entry") == 1


def _pdf_mixed():
    return pd.DataFrame({"i": [3, -1, 0, 7], "f": [0.1, np.nan, 1e20, -2.5e-7],
                         "b": [True, False, True, True], "s": ["x", None, "a,b", 'q"\nq'],
                         "I": pd.array([1, None, 3, 4], dtype="Int64"),
                         "u": ["é", "", "日本", "z"]}, index=pd.RangeIndex(0, 4))


def test_to_csv(device, tmp_path):
    pdf = _pdf_mixed()
    df = ef.from_pandas(pdf, device=device)
    assert df.to_csv() == pdf.to_csv()
    assert df.to_csv(index=False, na_rep="NA") == pdf.to_csv(index=False, na_rep="NA")
    assert df.to_csv(sep=";", header=False) == pdf.to_csv(sep=";", header=False)
    assert df["f"].to_csv() == pdf["f"].to_csv()
    p = tmp_path / "o.csv"
    df.to_csv(p, index=False)
    tm.assert_frame_equal(ef.read_csv(p, device=device).to_pandas(), pd.read_csv(p))
    for d in (["2020-01-01", "2021-02-03"], ["2020-01-01 10:00:01", None]):
        dates = pd.DataFrame({"d": pd.to_datetime(d), "v": [1, 2]})
        assert ef.from_pandas(dates, device=device).to_csv() == dates.to_csv()
    one = pd.DataFrame({"a": ["", "x"]})
    assert ef.from_pandas(one, device=device).to_csv(index=False) == one.to_csv(index=False)
    assert ef.from_pandas(pdf.iloc[:0], device=device).to_csv() == pdf.iloc[:0].to_csv()


def test_parquet_roundtrip(device, tmp_path):
    pytest.importorskip("pyarrow")
    pdf = _pdf_mixed()
    p = tmp_path / "t.parquet"
    pdf.to_parquet(p)
    got = ef.read_parquet(p, device=device)
    assert str(got["i"]._col.device) == str(ember.Device(device)) \
        if hasattr(ember, "Device") else True
    tm.assert_frame_equal(got.to_pandas(), pd.read_parquet(p))
    tm.assert_frame_equal(ef.read_parquet(p, columns=["f", "s"], device=device).to_pandas(),
                          pd.read_parquet(p, columns=["f", "s"]))
    q = tmp_path / "e.parquet"
    ef.from_pandas(pdf, device=device).to_parquet(q)
    tm.assert_frame_equal(pd.read_parquet(q), pdf)
    ix = pdf.set_index("i")
    ef.from_pandas(ix, device=device).to_parquet(q)
    tm.assert_frame_equal(pd.read_parquet(q), ix)
    tm.assert_frame_equal(ef.read_parquet(q, device=device).to_pandas(), ix)


def test_read_json_lines(device):
    pytest.importorskip("pyarrow")
    text = '{"a": 1, "b": "x", "c": 0.5}\n{"a": 2, "b": "日本", "c": null}\n'
    got = ef.read_json(io.StringIO(text), lines=True, device=device)
    want = pd.read_json(io.StringIO(text), lines=True)
    tm.assert_frame_equal(got.to_pandas(), want, check_dtype=False)
    assert got["a"].dtype == "int64" and got["c"].dtype in ("float64", "Float64")
    with pytest.raises(NotImplementedError, match="lines=True"):
        ef.read_json(io.StringIO("[]"), device=device)


@pytest.mark.parametrize("text", [
    "d,v\n2020-01-01,1\n2021-03-04,2\n",
    "d,v\n2020-01-01 10:11:12,1\n,2\n1969-12-31 23:59:59,3\n",
    "d,v\n2020-01-01T10:11:12.5,1\n2020-02-29T00:00:00.25,2\n",
    "d,v\n2020-01-01 10:11:12.123456789,1\n",
    "d,v\n2020-01-01 10:11,1\n",
    "d,v\nx,1\n2020-01-01,2\n",                    # not dates: strings
    "d,v\n2020-01-01 10:11:12,1\n2021-03-04T01:02:03,2\n",   # two forms
    "d,v\n2021-02-29,1\n",                          # no such day
    "d,v\n1,1\n2,2\n",
])
def test_read_csv_parse_dates(text, device):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(text, device, parse_dates=["d"])


def test_parse_dates_errors(device):
    with pytest.raises(NotImplementedError, match="parse_dates"):
        ef.read_csv(io.StringIO("d\n2020-01-01\n"), parse_dates=True, device=device)
    with pytest.raises(ValueError, match="Missing column"):
        ef.read_csv(io.StringIO("d\n2020-01-01\n"), parse_dates=["z"], device=device)


def test_read_csv_blank_lines_with_options(device):
    text = "a,b\n\n1,2\n  \n3,4\n5\n\r\n6,7\n8,9\n"
    for kw in ({}, {"nrows": 3}, {"skiprows": [2]}, {"skiprows": 1, "header": None},
               {"usecols": ["b"]}, {"nrows": 2, "skiprows": [1]}):
        _same(text, device, **kw)


@pytest.mark.parametrize("chunk", [16, 500])
def test_read_csv_in_blocks(device, tmp_path, chunk):
    """Small blocks: rows cross block boundaries (quoted newlines too),
    one column changes type between blocks, options carry over."""
    rng = np.random.default_rng(3)
    n = 200
    pdf = pd.DataFrame({"k": rng.integers(-50, 50, n), "v": rng.random(n),
                        "m": np.where(np.arange(n) < 150, "1", "2.5"),
                        "s": rng.choice(["a", "b,c", 'q"\nq', "日本", ""], n),
                        "d": pd.date_range("2020-01-01", periods=n, freq="h")
                        .strftime("%Y-%m-%d %H:%M:%S")})
    p = tmp_path / "big.csv"
    pdf.to_csv(p, index=False)
    for kw in ({}, {"nrows": 123}, {"skiprows": [5, 77, 190]}, {"usecols": ["m", "s"]},
               {"parse_dates": ["d"]}, {"dtype": {"k": "float64"}}):
        got = ef.read_csv(p, device=device, chunk_bytes=chunk, **kw)
        tm.assert_frame_equal(got.to_pandas(), pd.read_csv(p, **kw))
    raw = p.read_bytes()
    got = ef.read_csv(io.BytesIO(raw), device=device, chunk_bytes=chunk)
    tm.assert_frame_equal(got.to_pandas(), pd.read_csv(p))
    with pytest.raises(ef.ParserError, match="EOF inside string"):
        ef.read_csv(io.BytesIO(b'a\n"x\n1\n'), device=device, chunk_bytes=chunk)
    with pytest.raises(NotImplementedError, match="shorter"):
        ef.read_csv(io.BytesIO(b"a\n" + b"1,2\n" * 300), device=device, chunk_bytes=chunk)


def test_floats_left_to_the_host(device):
    """The path a GPU takes for floats past its exact kernel path (over 19
    digits, exponents past 10^27): every field marked, its value garbage,
    and the host's reading must give strtod's values."""
    from ember.frame import _io_convert as cv, _io_csv as ic
    forms = ["1.5", "-2e-300", "0.%s" % ("3" * 25), " 7 ", '"8.25"', "1e+30", "nan"]
    host = np.frombuffer(("a,b\n" + "".join(f"{t},x\n" for t in forms)).encode(), np.uint8)
    buf = ember.asarray(host, device=device)
    ends, _ = ic.tokenize(buf, 44, 34)
    for starts in (None, "gathered"):
        f = cv.Fields(buf, None, ends, 2, len(forms), 2, 34)
        if starts:
            k = ember.arange(2, 2 + 2 * len(forms), 2, device=device)
            f = cv.Fields(buf, ends[k - 1] + 1, ends[k], 0, len(forms), 1, 34)
        na = cv.na_table([], device)
        cls, vals, counts = cv.classify(f, 0, na)
        cls = cls | cv.SLOW
        counts = ember.asnumpy(ember.bincount(cls, minlength=128))
        vals = ember.zeros(len(forms), dtype="int64", device=device)
        got = ember.asnumpy(cv._floats(f, 0, cls, vals, counts))
        want = np.array([float(t.strip().strip('"')) for t in forms])
        np.testing.assert_array_equal(got, want)


def test_read_csv_parallel_file_read(device, tmp_path, monkeypatch):
    from ember.frame import _io_csv
    monkeypatch.setattr(_io_csv, "_PIECE", 1000)   # many pieces, read at once
    pdf = pd.DataFrame({"k": np.arange(3000), "s": ["é日"] * 3000})
    p = tmp_path / "p.csv"
    pdf.to_csv(p, index=False)
    tm.assert_frame_equal(ef.read_csv(p, device=device).to_pandas(), pdf)
    # the GPU's way: each piece copied to the device by its reader
    for path, text in ((p, p.read_bytes()), (tmp_path / "n.csv", b"a\n1\n2")):
        if path != p:
            path.write_bytes(text)
        buf = _io_csv._device_file(str(path), len(text), device, copy=True)
        want = text if text.endswith(b"\n") else text + b"\n"
        assert bytes(ember.asnumpy(buf)) == want


def test_parquet_many_row_groups(device, tmp_path):
    # one Arrow chunk a row group: on a GPU the chunks of a column travel
    # through one staged copy, sliced chunks (offsets) included
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq
    rng = np.random.default_rng(3)
    n = 300_000
    t = pa.table({"i": rng.integers(-9, 9, n), "f": rng.random(n),
                  "g": rng.random(n).astype(np.float32)})
    p = tmp_path / "g.parquet"
    pq.write_table(t, p, row_group_size=7_001)
    got = ef.read_parquet(p, device=device)
    tm.assert_frame_equal(got.to_pandas(), pd.read_parquet(p))
    sliced = pa.Table.from_batches(pq.read_table(p).slice(5, n - 10).to_batches())
    tm.assert_frame_equal(ef.from_arrow(sliced, device=device).to_pandas(),
                          sliced.to_pandas())


def test_read_csv_quoted_fields_long(device):
    # quoted fields of every length, with separators, newlines and doubled
    # quotes inside, over several host chunks (64 KiB and more): the
    # tokenizer reads a word with quotes by the quotes' parity within it
    rng = np.random.default_rng(11)
    pieces = np.array(["a", ",", "\n", '""', "é", "xyz", " ", "12"], dtype=object)
    n = 40000

    def field():
        k = int(rng.integers(0, 12))
        return '"' + "".join(rng.choice(pieces, k)) + '"'
    lines = ["s,v,t"] + [f"{field()},{i},{field() if i % 3 else 'plain'}" for i in range(n)]
    text = "\n".join(lines) + "\n"
    assert len(text) > 1 << 19
    _same(text, device)


def test_read_csv_number_fields_and_na_spellings(device):
    # the classify pass reads plain numbers in one scan; fields that an NA
    # string could be (same first byte and length) and everything else go
    # the general way
    rows = ["-999,1.5,0", "12,-1.#IND,7", "-0,-0.0,5.", "1,1.#QNAN,4",
            "123456789012345678,0.1,9", "1234567890123456789,2.5,13 ",
            "-123456789012345678,1e5,-3", "007,-.5,0.25"]
    text = "a,b,c\n" + "\n".join(rows) + "\n"
    _same(text, device)
    _same(text, device, na_values=["-999", "1.5", "12"])
