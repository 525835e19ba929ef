"""GroupBy.describe, GroupBy.quantile and agg with lists on a frame (the
(column, statistic) labels of pandas' MultiIndex columns), against pandas."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing


@pytest.fixture
def pair(device):
    rng = np.random.default_rng(10)
    pdf = pd.DataFrame({
        "A": ["foo", "bar", "foo", "bar", "foo", "bar", "foo", "foo", "baz", None],
        "B": ["one", "one", "two", "three", "two", "two", "one", "three", "one", "two"],
        "C": rng.standard_normal(10), "D": rng.integers(0, 10, 10),
        "I": pd.array([1, None, 3, 4, 5, None, 7, 8, None, 2], dtype="Int64"),
        "u": rng.integers(0, 200, 10).astype(np.uint8),
    })
    pdf.loc[2, "C"] = np.nan
    pdf.loc[8, "C"] = np.nan   # baz: no value of C
    return pdf, ef.from_pandas(pdf, device=device)


def _both(f, pdf, df):
    try:
        e = f(pdf)
    except Exception as ex:   # pandas' error class is the one to raise
        with pytest.raises(type(ex)):
            f(df)
        return
    r = f(df).to_pandas()
    if isinstance(e, pd.DataFrame):
        tm.assert_frame_equal(r, e)
    else:
        tm.assert_series_equal(r, e)


STEPS = [
    lambda d: d.groupby("A")["C"].describe(),
    lambda d: d.groupby("A")["D"].describe(),
    lambda d: d.groupby("A")["I"].describe(),
    lambda d: d.groupby("A")["u"].describe(),
    lambda d: d.groupby("A")[["C", "D"]].describe(),
    lambda d: d.groupby("A").describe(),
    lambda d: d.groupby("A", dropna=False).describe(),
    lambda d: d.groupby(["A", "B"])["C"].describe(percentiles=[0.1, 0.9]),
    lambda d: d.groupby("B", sort=False)["D"].describe(percentiles=[0.025, 0.5]),
    lambda d: d.groupby("A")["C"].quantile(0.3),
    lambda d: d.groupby("A")[["C", "D", "I"]].quantile(0.75),
    lambda d: d.groupby("A")["D"].quantile(),
    lambda d: d.groupby(["A", "B"])["D"].quantile(0),
    lambda d: d.groupby("A")["D"].quantile(1),
    lambda d: d.groupby("A")["C"].quantile([0.25, 0.75]),   # a level of q
    lambda d: d.groupby(["A", "B"])[["C", "D", "I"]].quantile([0.5, 0.1, 1]),
    lambda d: d.groupby("B", sort=False)["u"].quantile(np.array([0.3])),
    lambda d: d.groupby("A")[["C", "D"]].agg(["sum", "mean"]),
    lambda d: d.groupby("A").agg({"C": ["sum", "max"], "D": "min"}),
    lambda d: d.groupby("A", as_index=False).agg({"C": ["sum", "max"], "D": "min"}),
    lambda d: d.groupby(["A", "B"]).agg(["min", np.max]),
    lambda d: d.groupby("A")[["C", "D"]].agg(["sum", "mean"])["C"],
    # errors as pandas raises them
    lambda d: d.groupby("A")["B"].quantile(),
    lambda d: d.groupby("A")["D"].quantile(1.5),
    lambda d: d.groupby("A")["D"].describe(percentiles=[2]),
    lambda d: d.groupby("A").agg({"Z": ["sum"]}),
]


@pytest.mark.parametrize("i", range(len(STEPS)))
def test_describe_quantile_agg(pair, i):
    _both(STEPS[i], *pair)


def test_guide_snippet(device):
    """pandas' groupby guide: describe of a group's column."""
    rng = np.random.default_rng(10)
    pdf = pd.DataFrame({"A": ["foo", "bar", "foo", "bar", "foo", "bar", "foo", "foo"],
                        "C": rng.standard_normal(8)})
    _both(lambda d: d.groupby("A")["C"].describe(), pdf, ef.from_pandas(pdf, device=device))


def test_not_supported(pair):
    _, df = pair
    with pytest.raises(NotImplementedError, match="str"):
        df.groupby("A")["B"].describe()
    with pytest.raises(NotImplementedError, match="numeric"):
        df.groupby("A")[["B"]].describe()
    with pytest.raises(NotImplementedError, match="list of q"):
        df.groupby("A", as_index=False)[["C"]].quantile([0.25, 0.75])
    with pytest.raises(NotImplementedError, match="interpolation"):
        df.groupby("A")["C"].quantile(0.5, interpolation="nearest")
