"""groupby(observed=False) by categorical keys: every category a group
(every combination with several keys), the empty ones given pandas'
values; observed=True is the default, as in pandas 3."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

AGGS = ["sum", "mean", "count", "size", "min", "max", "std", "var", "median",
        "nunique", "first", "last", "prod"]


@pytest.fixture
def pair(device):
    pdf = pd.DataFrame({
        "c": pd.Categorical(["b", "a", "b", None, "a", "b"],
                            categories=["d", "b", "a", "z"]),
        "o": pd.Categorical([3, 1, 3, 1, 1, 2], categories=[1, 2, 3, 4], ordered=True),
        "k": [1, 2, 1, 2, 2, 1],
        "v": [1, 2, 3, 4, 5, 6],
        "f": [1.5, np.nan, 2.5, 0.5, 1.0, -2.0],
        "I": pd.array([1, None, 3, 4, None, 7], dtype="Int64"),
        "s": ["x", "y", "z", "w", None, "x"],
    })
    return pdf, ef.from_pandas(pdf, device=device)


def _both(f, pdf, df):
    try:
        e = f(pdf)
    except Exception as ex:   # pandas' error class is the one to raise
        with pytest.raises(type(ex)):
            f(df)
        return
    r = f(df)
    r = r.to_pandas() if hasattr(r, "to_pandas") else r
    if isinstance(e, pd.DataFrame):
        tm.assert_frame_equal(r, e)
    elif isinstance(e, pd.Series):
        tm.assert_series_equal(r, e)
    else:
        assert r == e


@pytest.mark.parametrize("how", AGGS)
def test_reductions_of_empty_groups(pair, how):
    _both(lambda d: getattr(d.groupby("c", observed=False)[["v", "f", "I"]], how)(), *pair)
    _both(lambda d: getattr(d.groupby(["o", "k"], observed=False)["f"], how)(), *pair)


STEPS = [
    lambda d: d.groupby("c", observed=False)["v"].sum(),
    lambda d: d.groupby("c", observed=False, sort=False)["v"].sum(),
    lambda d: d.groupby("o", observed=False, sort=False)["f"].mean(),
    lambda d: d.groupby("c", observed=False).size(),
    lambda d: d.groupby(["c", "k"], observed=False)["v"].sum(),
    lambda d: d.groupby(["k", "o"], observed=False)["f"].mean(),
    lambda d: d.groupby(["c", "o"], observed=False)["f"].count(),
    lambda d: d.groupby("c", observed=False).agg({"v": "sum", "f": "max"}),
    lambda d: d.groupby("c", observed=False).agg(total=("v", "sum"), n=("s", "count")),
    lambda d: d.groupby("c", observed=False, as_index=False)["v"].sum(),
    lambda d: d.groupby("c", observed=False)["v"].cumsum(),
    lambda d: d.groupby("c", observed=False)["v"].transform("sum"),
    lambda d: d.groupby("c", observed=False)["s"].count(),
    lambda d: d.groupby("c", observed=False)["f"].describe(),
    lambda d: d.groupby("c", observed=False).ngroups,
    lambda d: d.groupby("c", observed=False).get_group("b"),
    lambda d: d.groupby("c", observed=False).get_group("d"),   # KeyError: no rows
    lambda d: d.groupby("k", observed=False)["v"].sum(),   # no categorical key
    lambda d: d.groupby("c")["v"].sum(),   # observed=True by default
    lambda d: d["v"].groupby(d["c"], observed=False).sum(),
    lambda d: d.groupby("c", observed=0)["v"].sum(),   # read as a truth value, as pandas
]


@pytest.mark.parametrize("i", range(len(STEPS)))
def test_observed_false(pair, i):
    _both(STEPS[i], *pair)


def test_iteration(pair):
    pdf, df = pair
    want = [(k, len(g)) for k, g in pdf.groupby("c", observed=False)]
    assert [(k, len(g)) for k, g in df.groupby("c", observed=False)] == want


def test_refused(pair):
    _, df = pair
    with pytest.raises(NotImplementedError, match="dropna=False"):
        df.groupby("c", observed=False, dropna=False)["v"].sum()
    with pytest.raises(NotImplementedError, match="sort=False"):
        df.groupby(["c", "k"], observed=False, sort=False)["v"].sum()
    with pytest.raises(NotImplementedError, match="observed=False"):
        df.pivot_table(values="v", index="c", columns="k", observed=False)
