"""The columns Index of a frame without columns against pandas: str when
every column was dropped or none was selected (pandas keeps the dtype of
the str labels it had), RangeIndex(0, 0) for a frame built without any."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


def _pdf():
    return pd.DataFrame({"one": [1.0, np.nan, 3.0, np.nan], "two": [np.nan, 2.0, 3.0, 4.0],
                         "three": ["a", None, "c", "d"]})


@pytest.mark.parametrize("make", [
    lambda df: df.dropna(axis=1),
    lambda df: df.dropna(axis="columns", how="any"),
    lambda df: df[[]],
    lambda df: df.drop(columns=["one", "two", "three"]),
    lambda df: df.select_dtypes(include="bool"),
    lambda df: df.iloc[:, []],
    lambda df: df.dropna(axis=1).head(2),
    lambda df: df[[]].copy(),
], ids=["dropna", "dropna-columns", "select-none", "drop-all", "select_dtypes", "iloc",
        "head", "copy"])
def test_all_columns_dropped(device, make):
    pdf = _pdf()
    want = make(pdf)
    got = make(ef.from_pandas(pdf, device=device))
    assert want.columns.dtype == "str" and len(want.columns) == 0
    tm.assert_frame_equal(got.to_pandas(), want)
    tm.assert_index_equal(got.columns.to_pandas(), want.columns, exact=True)


@pytest.mark.parametrize("make", [
    lambda m, device: m.DataFrame(),
    lambda m, device: m.DataFrame({}),
    lambda m, device: m.DataFrame(index=[1, 2]),
], ids=["no-args", "empty-dict", "index-only"])
def test_built_without_columns(device, make):
    want = make(pd, device)
    got = make(ef, device)
    assert isinstance(want.columns, pd.RangeIndex)
    tm.assert_frame_equal(got.to_pandas(), want)
    tm.assert_index_equal(got.columns.to_pandas(), want.columns, exact=True)
    # the kind survives exchange and row selections
    back = ef.from_pandas(want, device=device)
    tm.assert_frame_equal(back.to_pandas(), want)
    tm.assert_frame_equal(back.head(1).to_pandas(), want.head(1))


def test_columns_added_after(device):
    pdf = pd.DataFrame(index=[1, 2])
    df = ef.from_pandas(pdf, device=device)
    pdf["a"] = 1.0
    df["a"] = 1.0
    tm.assert_frame_equal(df.to_pandas(), pdf)


@pytest.mark.parametrize("make", [
    lambda m: m.DataFrame(columns=[]),
    lambda m: m.DataFrame(index=[1, 2], columns=[]),
    lambda m: m.DataFrame({"a": [1]}, columns=[]),
    lambda m: m.Series([], dtype="str").str.get_dummies(),
], ids=["columns=[]", "index-columns=[]", "columns-none-kept", "get_dummies-empty"])
def test_built_from_no_labels(device, make):
    # pandas types an Index made from an empty list as object
    want = make(pd)
    got = make(ef)
    assert want.columns.dtype == object
    got = got.to_pandas()
    tm.assert_frame_equal(got, want)
    back = ef.from_pandas(want, device=device)
    tm.assert_frame_equal(back.copy().to_pandas(), want)
