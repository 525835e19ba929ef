"""groupby(...).rolling and .expanding against pandas: windows stop at
each group's first row, results are indexed by (keys, row label)."""
import numpy as np
import pandas as pd
import pytest

import ember.frame as ef

STATS = ("sum", "mean", "min", "max", "std", "var", "count", "median")


def data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    pdf = pd.DataFrame({"k": rng.integers(0, 5, n), "j": rng.integers(0, 2, n),
                        "v": rng.standard_normal(n), "w": rng.integers(0, 9, n) * 1.0},
                       index=rng.permutation(n) + 100)
    pdf.loc[pdf.index[3], "v"] = np.nan
    return pdf


@pytest.mark.parametrize("how", STATS)
def test_row_windows(device, how):
    pdf = data()
    e = ef.from_pandas(pdf, device=device)
    for kw in ({"window": 3}, {"window": 4, "min_periods": 2}, {"window": 1}):
        pd.testing.assert_frame_equal(
            getattr(e.groupby("k").rolling(**kw), how)().to_pandas(),
            getattr(pdf.groupby("k").rolling(**kw), how)(), check_dtype=False)
    pd.testing.assert_series_equal(
        getattr(e.groupby(["k", "j"])["v"].rolling(2), how)().to_pandas(),
        getattr(pdf.groupby(["k", "j"])["v"].rolling(2), how)(), check_dtype=False)
    pd.testing.assert_frame_equal(getattr(e.groupby("k").expanding(), how)().to_pandas(),
                                  getattr(pdf.groupby("k").expanding(), how)(),
                                  check_dtype=False)


@pytest.mark.parametrize("closed", [None, "left", "both", "neither"])
def test_time_windows(device, closed):
    pdf = data()
    pt = pdf.set_index(pd.date_range("2024-01-01", periods=len(pdf), freq="5h"))
    e = ef.from_pandas(pt, device=device)
    for how in ("sum", "mean", "max", "count", "std"):
        pd.testing.assert_frame_equal(
            getattr(e.groupby("k").rolling("1D", closed=closed), how)().to_pandas(),
            getattr(pt.groupby("k").rolling("1D", closed=closed), how)(),
            check_dtype=False, check_freq=False)
    on = pdf.assign(t=pd.date_range("2024-01-01", periods=len(pdf), freq="3h"))
    eo = ef.from_pandas(on, device=device)
    pd.testing.assert_frame_equal(
        eo.groupby("k").rolling("12h", on="t").sum().to_pandas(),
        on.groupby("k").rolling("12h", on="t").sum(), check_dtype=False)


def test_null_keys_and_errors(device):
    pdf = data()
    pdf["k"] = pdf["k"].astype("Int64")
    pdf.loc[pdf.index[5], "k"] = pd.NA
    e = ef.from_pandas(pdf, device=device)
    pd.testing.assert_frame_equal(e.groupby("k").rolling(2).sum().to_pandas(),
                                  pdf.groupby("k").rolling(2).sum(), check_dtype=False,
                                  check_index_type=False)
    with pytest.raises(ValueError, match="window must be an integer"):
        e.groupby("k").rolling(-1)
    with pytest.raises(ValueError, match="window must be an integer"):
        e.groupby("k").rolling("2D")         # no datetime index
    with pytest.raises(NotImplementedError, match="center"):
        e.groupby("k").rolling(2, center=True)
    t = pd.DatetimeIndex(pd.date_range("2024-01-01", periods=len(pdf), freq="h")[::-1])
    with pytest.raises(ValueError, match="monotonic"):
        ef.from_pandas(pdf.set_index(t), device=device).groupby("j").rolling("2h")
