"""pandas' signatures that libraries call ember.frame with (dask among
them): the same results as pandas for each, and pandas' errors."""
import numpy as np
import pandas as pd
import pandas.testing as tm
import pytest

import ember
import ember.frame as ef


def _pd(x):
    return x.to_pandas() if hasattr(x, "to_pandas") else x


@pytest.fixture
def frames(device):
    p = pd.DataFrame({"a": [3, 1, 2, 5], "b": [0.5, -1.0, 2.0, 4.0],
                      "s": ["x", "yy", "", "zzz"]},
                     index=pd.date_range("2000-01-01", periods=4, freq="D"))
    return p, ef.from_pandas(p, device=device)


def test_series_reduction_keywords(frames):
    p, e = frames
    for how in ("sum", "prod", "mean", "min", "max", "std", "var"):
        assert getattr(e.b, how)(axis=0, numeric_only=True) == \
            pytest.approx(getattr(p.b, how)(axis=0, numeric_only=True))
    with pytest.raises(TypeError, match="numeric_only"):
        e.s.sum(numeric_only=True)
    with pytest.raises(ValueError, match="No axis named 1"):
        e.b.sum(axis=1)
    tm.assert_series_equal(_pd(e[["a", "b"]].max(axis=0)), p[["a", "b"]].max(axis=0),
                           check_dtype=False)
    with pytest.raises(TypeError):   # a str column, as pandas' TypeError
        p.sum(axis=1)
    with pytest.raises(TypeError, match="numeric_only"):
        e.sum(axis=1)
    tm.assert_series_equal(_pd(e.sum(axis=1, numeric_only=True)),
                           p.sum(axis=1, numeric_only=True), check_freq=False)


def test_renames_and_to_frame(frames):
    p, e = frames
    # (ember keeps no DatetimeIndex freq: pandas' is a hint, not the labels)
    tm.assert_series_equal(_pd(e.b.rename("z")), p.b.rename("z"), check_freq=False)
    tm.assert_series_equal(_pd(e.b.rename(index="w")), p.b.rename(index="w"),
                           check_freq=False)
    with pytest.raises(NotImplementedError, match="mapping"):
        e.b.rename({1: 2})
    tm.assert_frame_equal(_pd(e.b.to_frame()), p.b.to_frame(), check_freq=False)
    tm.assert_frame_equal(_pd(e.b.to_frame("q")), p.b.to_frame("q"), check_freq=False)
    tm.assert_frame_equal(_pd(e.rename(columns=str.upper)), p.rename(columns=str.upper),
                          check_freq=False)


def test_index_methods(frames):
    p, e = frames
    tm.assert_series_equal(_pd(e.index.to_series()), p.index.to_series(),
                           check_freq=False)
    assert e.index.min() == p.index.min() and e.index.max() == p.index.max()
    assert e.index.unit == p.index.unit
    want = p.index.isin(p.index[[0, 2]])
    assert (ember.asnumpy(e.index.isin(list(p.index[[0, 2]]))) == want).all()
    tm.assert_frame_equal(_pd(e.index.to_frame(name="t")), p.index.to_frame(name="t"),
                          check_freq=False)
    r = ef.from_pandas(p.reset_index(drop=True), device=str(e.a._col.device))
    tm.assert_index_equal(_pd(r.index.astype("float64")),
                          p.reset_index(drop=True).index.astype("float64"))
    tm.assert_frame_equal(_pd(r.index.to_frame(index=False)),
                          p.reset_index(drop=True).index.to_frame(index=False))


def test_setitem_columns_from_frame_and_astype_errors(frames):
    p, e = frames
    p2, e2 = p.copy(), e.copy()
    p2[["a", "b"]] = p[["a", "b"]] ** 2
    e2[pd.Index(["a", "b"])] = e[["a", "b"]] ** 2
    tm.assert_frame_equal(_pd(e2), p2, check_freq=False)
    with pytest.raises(ValueError, match="same length"):
        e2[["a"]] = e[["a", "b"]]
    tm.assert_frame_equal(_pd(e.astype({"a": "float64"}, errors="ignore")),
                          p.astype({"a": "float64"}, errors="ignore"), check_freq=False)
    with pytest.raises(ValueError, match="errors must be"):
        e.astype("float64", errors="skip")
    tm.assert_frame_equal(_pd(e.set_index("a", append=True)), p.set_index("a", append=True),
                          check_freq=False)


def test_string_slices_from_pandas_concat(device):
    # pandas slices share their parent's Arrow bytes; ember's columns hold
    # only their own
    p = pd.DataFrame({"g": [f"g{i % 5}" for i in range(20)], "x": np.arange(20.0)})
    parts = [ef.from_pandas(p.iloc[a:b], device=device) for a, b in ((0, 7), (7, 14), (14, 20))]
    tm.assert_frame_equal(_pd(ef.concat(parts)), p)
