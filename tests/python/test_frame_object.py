"""pandas' object columns: cells holding lists or mixed Python objects.
Construction and exchange, row selections, explode, .str on lists
(len, [i], get, slices) and on strings kept as objects, apply(len),
astype(object) and back, str.split(expand=False) and str.findall, and
pandas' errors. Every result is compared with pandas."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

CELLS = {
    "int lists": [[1, 2], [3], [4, 5, 6]],
    "lists, empty and null": [[1, 2], [], None, [3]],
    "str lists": [["a"], ["b", "cé"], []],
    "lists and NaN": [[1.5, 2.0], np.nan, [3.0]],
    "bool lists": [[True], [False, True]],
    "mixed objects": [{"x": 1}, [1, 2], (3, 4), "s", 5, None],
    "mixed list items": [[1, 2.5], ["a", 1]],
    "nested lists": [[[1], [2, 3]], [[4]]],
    "mixed scalars": [1, "a", None, 2.5],
}


def _eq(got, want):
    if isinstance(want, pd.Series):
        tm.assert_series_equal(got.to_pandas(), want)
    else:
        tm.assert_frame_equal(got.to_pandas(), want)


@pytest.mark.parametrize("name", list(CELLS))
def test_construct_exchange_and_rows(device, name):
    cells = CELLS[name]
    s, p = ef.Series(cells, device=device), pd.Series(cells)
    assert s.dtype == object and p.dtype == object
    assert str(s.device) == str(ember.Device(device))
    _eq(s, p)
    _eq(ef.from_pandas(p, device=device), p)
    _eq(s.iloc[::-1], p.iloc[::-1])
    _eq(s[1:], p[1:])
    _eq(s.copy(), p.copy())
    _eq(s.isna(), p.isna())
    _eq(s.to_device("cpu"), p)
    assert repr(p.to_frame("c")) in repr(s.to_frame("c"))


def test_frame_with_an_object_column(device):
    data = {"k": [3, 1, 2], "lists": [[1, 2], [3], []], "v": [0.5, 1.5, 2.5]}
    e, p = ef.DataFrame(data, device=device), pd.DataFrame(data)
    _eq(e, p)
    assert e.dtypes["lists"] == object and e.dtypes["v"] == "float64"
    # the number columns stay on the frame's device
    assert str(e["v"]._col.values.device) == str(ember.Device(device))
    assert str(e["lists"]._col.child.device) == str(ember.Device(device))
    _eq(e.sort_values("k"), p.sort_values("k"))
    _eq(e[e["v"] > 1.0], p[p["v"] > 1.0])
    _eq(e.loc[[2, 0]], p.loc[[2, 0]])
    _eq(e.head(2), p.head(2))
    _eq(ef.concat([e, e], ignore_index=True), pd.concat([p, p], ignore_index=True))
    assert "[1, 2]" in repr(e)


@pytest.mark.parametrize("name", list(CELLS))
def test_explode(device, name):
    cells = CELLS[name]
    s, p = ef.Series(cells, device=device), pd.Series(cells)
    _eq(s.explode(), p.explode())
    _eq(s.explode(ignore_index=True), p.explode(ignore_index=True))


def test_explode_frame(device):
    data = {"a": [[1, 2], [3], [], None], "b": [["x", "y"], ["z"], [], None],
            "c": ["p", "q", "r", "s"]}
    e, p = ef.DataFrame(data, device=device), pd.DataFrame(data)
    _eq(e.explode("a"), p.explode("a"))
    _eq(e.explode(["a", "b"]), p.explode(["a", "b"]))
    _eq(e.explode("c", ignore_index=True), p.explode("c", ignore_index=True))
    _eq(ef.Series([1, 2], device=device).explode(), pd.Series([1, 2]).explode())
    bad = {"a": [[1, 2], [3]], "b": [[1], [2]]}
    for obj in (ef.DataFrame(bad, device=device), pd.DataFrame(bad)):
        with pytest.raises(ValueError, match="matching element counts"):
            obj.explode(["a", "b"])
        with pytest.raises(ValueError, match="unique"):
            obj.explode(["a", "a"])


@pytest.mark.parametrize("name", ["int lists", "lists, empty and null", "str lists",
                                  "lists and NaN", "bool lists"])
def test_str_of_lists(device, name):
    cells = CELLS[name]
    s, p = ef.Series(cells, device=device), pd.Series(cells)
    _eq(s.str.len(), p.str.len())
    for i in (0, 1, -1):
        _eq(s.str[i], p.str[i])
        _eq(s.str.get(i), p.str.get(i))
    for sl in (slice(1, None), slice(None, -1), slice(-2, None), slice(0, 5)):
        _eq(s.str[sl], p.str[sl])


def test_apply_len(device):
    for name in ("int lists", "str lists", "nested lists", "mixed list items"):
        cells = CELLS[name]
        s, p = ef.Series(cells, device=device), pd.Series(cells)
        _eq(s.apply(len), p.apply(len))
        _eq(s.map(len), p.map(len))
    words = ["ab", "", "cé"]
    _eq(ef.Series(words, device=device).apply(len), pd.Series(words).apply(len))
    for cells, why in (([[1], None], "NoneType"), ([[1], np.nan], "float"),
                       ([1, "a"], "int")):
        for obj in (ef.Series(cells, device=device), pd.Series(cells)):
            with pytest.raises(TypeError, match=f"'{why}' has no len"):
                obj.apply(len)


def test_astype_object(device):
    for values, dtype in (([1, 2, 3], "int64"), ([0.5, None, 2.0], "float64"),
                          ([True, False], "bool"), (["a", None, "b"], "str"),
                          ([1, None], "Int64")):
        s = ef.Series(values, dtype=dtype, device=device)
        p = pd.Series(values, dtype=dtype)
        _eq(s.astype(object), p.astype(object))
        _eq(s.astype("O"), p.astype("O"))
        _eq(s.astype(object).astype(dtype), p.astype(object).astype(dtype))
    e = ef.DataFrame({"a": [1, 2], "b": ["x", "y"]}, device=device)
    p = pd.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    _eq(e.astype(object), p.astype(object))
    _eq(e.astype({"a": object}), p.astype({"a": object}))
    _eq(ef.Series([1, 2], dtype=object, device=device), pd.Series([1, 2], dtype=object))
    with pytest.raises(NotImplementedError, match="lists"):
        ef.Series([[1], [2]], device=device).astype("int64")


def test_strings_kept_as_objects(device):
    cells = ["Ab", None, "cé", "d"]
    s, p = ef.Series(cells, dtype=object, device=device), pd.Series(cells, dtype=object)
    _eq(s, p)
    _eq(s.str.lower(), p.str.lower())
    _eq(s.str.len(), p.str.len())
    _eq(s.str[0], p.str[0])
    _eq(s.str.startswith("A"), p.str.startswith("A"))
    _eq(s.str.upper().str.len(), p.str.upper().str.len())
    full = ["x", "yy"]
    _eq(ef.Series(full, dtype=object, device=device).str.len(),
        pd.Series(full, dtype=object).str.len())
    with pytest.raises(AttributeError, match=".str accessor"):   # as pandas'
        ef.Series([1, 2], dtype=object, device=device).str
    with pytest.raises(AttributeError, match=".str accessor"):
        pd.Series([1, 2], dtype=object).str
    with pytest.raises(NotImplementedError, match="mixed"):   # pandas: cell by cell
        ef.Series([1, "a"], device=device).str


def test_split_and_findall(device):
    text = ["a_b_c", "c_d_e", None, "f_g", ""]
    s, p = ef.Series(text, device=device), pd.Series(text)
    _eq(s.str.split("_"), p.str.split("_"))
    _eq(s.str.split("_", n=1), p.str.split("_", n=1))
    _eq(s.str.rsplit("_", n=1), p.str.rsplit("_", n=1))
    _eq(s.str.split("_").str.get(1), p.str.split("_").str.get(1))
    _eq(s.str.split("_").str.len(), p.str.split("_").str.len())
    _eq(s.str.split("_").explode(), p.str.split("_").explode())
    ws = [" a  b", "", None, "c"]
    _eq(ef.Series(ws, device=device).str.split(), pd.Series(ws).str.split())
    found = ["a1b2", "c3", None, "", "x99y"]
    fs, fp = ef.Series(found, device=device), pd.Series(found)
    for pat in (r"\d", r"\d+", r"(\d)", r"[a-z](\d)", "q", r"b?"):
        _eq(fs.str.findall(pat), fp.str.findall(pat))
    with pytest.raises(NotImplementedError, match="several groups"):
        fs.str.findall(r"([a-z])(\d)")


def test_describe_object_table(device):
    p = pd.DataFrame({"s": ["x", "y", "x", None], "n": [1.0, 2.0, 3.0, 4.0],
                      "b": [True, False, True, True],
                      "c": pd.Categorical(["a", "b", "a", "a"])})
    e = ef.from_pandas(p, device=device)
    for frame, q in ((e, p), (e[["s", "b", "c"]], p[["s", "b", "c"]])):
        _eq(frame.describe(include="all"), q.describe(include="all"))
        _eq(frame.describe(include=object), q.describe(include=object))
    _eq(e[["s"]].describe(), p[["s"]].describe())
    _eq(e.describe(), p.describe())
    t = p.assign(t=pd.to_datetime(["2020-01-01"] * 4))
    with pytest.raises(NotImplementedError, match="datetime"):
        ef.from_pandas(t, device=device).describe(include="all")


def test_arrow_and_parquet(device, tmp_path):
    pa = pytest.importorskip("pyarrow")
    data = {"l": [[1, 2], [], None], "s": [["a"], ["b", "cé"], []], "n": [1.5, 2.5, 3.5]}
    e, p = ef.DataFrame(data, device=device), pd.DataFrame(data)
    t = e.to_arrow()
    assert t.to_pydict() == pa.Table.from_pandas(p, preserve_index=False).to_pydict()
    assert pa.types.is_large_list(t.schema.field("l").type)
    f = str(tmp_path / "lists.parquet")
    e.to_parquet(f)
    _eq(ef.read_parquet(f, device=device), pd.read_parquet(f))
    sliced = pa.array([[1, 2], None, [3], []]).slice(1)
    _eq(ef.from_arrow(sliced, device=device), pd.Series(sliced.to_pandas().tolist()))
    with pytest.raises(pa.ArrowInvalid):   # mixed cells: pyarrow's own refusal
        ef.Series([1, "a"], device=device).to_arrow()


def test_unsupported_operations_say_so(device):
    # keys, ==, isin and fillna of object columns: test_frame_object_keys.py
    s = ef.Series([[1, 2], [3]], device=device)
    mixed = ef.Series([1, "a"], device=device)
    for f in (lambda: s + s, lambda: mixed + 1, lambda: mixed.sum(), lambda: mixed < 1):
        with pytest.raises(NotImplementedError, match="object column"):
            f()
    kept = ef.Series(["x", "y", "x"], dtype=object, device=device)
    _eq(kept.to_frame("s").describe(), pd.Series(["x", "y", "x"], dtype=object)
        .to_frame("s").describe())
