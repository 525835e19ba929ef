"""Series/DataFrame.interpolate against pandas on the same data: methods
'linear', 'index'/'values', 'time' and 'nearest'; limits, directions and
areas; gaps at the ends and inside, all missing and none missing; the
dtypes pandas interpolates (float32/64, Float64, nullable ints, datetimes)
and those it returns or refuses; pandas' errors."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

GAPS = [np.nan, 1.0, np.nan, np.nan, 4.0, np.nan, 10.0, np.nan, np.nan]


def _check(pobj, device, *args, **kwargs):
    """ember's interpolate of pobj equals pandas' (or raises pandas' error
    class with pandas' message)."""
    eobj = ef.from_pandas(pobj, device=device)
    try:
        want = pobj.interpolate(*args, **kwargs)
    except Exception as err:   # pandas' error: ember raises the same
        with pytest.raises(type(err)) as got:
            eobj.interpolate(*args, **kwargs)
        assert str(got.value) == str(err)
        return
    out = eobj.interpolate(*args, **kwargs).to_pandas()
    if isinstance(want, pd.DataFrame):
        tm.assert_frame_equal(out, want)
    else:
        tm.assert_series_equal(out, want)


@pytest.mark.parametrize("values", [
    GAPS,
    [np.nan, np.nan, 2.0, 3.0],                     # leading only
    [1.0, 2.0, np.nan, np.nan],                     # trailing only
    [1.0, np.nan, np.nan, np.nan, 5.0],             # inner only
    [np.nan, np.nan, np.nan],                       # all missing
    [1.0, 2.5, -3.0],                               # none missing
    [np.nan, 5.0, np.nan],                          # one valid value
    [1.0, np.nan, np.inf, np.nan, -np.inf, np.nan],  # infinite ends
    [np.inf, np.nan, np.inf, np.nan, -np.inf, np.nan, -np.inf],  # inf - inf
    [np.inf, np.nan, 1.0, np.nan, -np.inf],         # from the upper end
    [],
])
def test_linear_gaps(device, values):
    _check(pd.Series(values, dtype="float64", name="v"), device)


@pytest.mark.parametrize("limit", [None, 1, 2, 5])
@pytest.mark.parametrize("direction", [None, "forward", "backward", "both", "BOTH"])
@pytest.mark.parametrize("area", [None, "inside", "outside"])
def test_limits_directions_areas(device, limit, direction, area):
    s = pd.Series(GAPS, index=list(range(100, 100 + len(GAPS))))
    _check(s, device, limit=limit, limit_direction=direction, limit_area=area)


@pytest.mark.parametrize("method", ["index", "values", "nearest"])
@pytest.mark.parametrize("direction", ["forward", "both"])
def test_index_methods(device, method, direction):
    s = pd.Series(GAPS, index=[0, 1, 3, 4, 10, 11, 12.5, 20, 21])
    _check(s, device, method=method, limit_direction=direction)
    _check(s, device, method=method, limit=1, limit_direction=direction)


@pytest.mark.parametrize("method", ["index", "nearest"])
def test_index_unsorted_and_repeated(device, method):
    # pandas reads the valid rows in label order, whatever their order
    # in the frame; a null at a repeated label takes the last valid one's
    s = pd.Series([1.0, np.nan, 3.0, np.nan, 10.0], index=[4, 3, 0, 1, 2])
    _check(s, device, method=method)
    _check(pd.Series([1.0, 3.0, np.nan, 4.0, np.nan], index=[0, 1, 1, 1, 5]),
           device, method=method)
    _check(pd.Series([1.0, np.nan, 3.0], index=[0, 0, 1]), device, method=method)
    # at a valid row's label the value is that row's, even beside an inf
    _check(pd.Series([0.0, 1.0, np.nan, np.inf], index=[0, 1, 1, 2]), device,
           method=method)


def test_index_not_numeric(device):
    s = pd.Series([1.0, np.nan, 3.0], index=list("abc"))
    _check(s, device)    # linear reads positions: any index works
    for method in ("index", "values", "nearest"):
        with pytest.raises(TypeError):
            ef.from_pandas(s, device=device).interpolate(method=method)
        with pytest.raises(TypeError):
            s.interpolate(method=method)
    _check(s, device, method="time")                     # ValueError


def test_index_with_nan_label(device):
    s = pd.Series([1.0, np.nan, 3.0], index=[0.0, np.nan, 2.0])
    _check(s, device, method="index")                    # NotImplementedError
    _check(s, device)


def test_time(device):
    idx = pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-05", "2020-01-06",
                          "2020-01-10"])
    s = pd.Series([1.0, np.nan, 3.0, np.nan, 11.0], index=idx)
    for method in ("time", "index", "linear", "nearest"):
        _check(s, device, method=method)
    _check(pd.DataFrame({"a": s, "b": s * 2}), device, method="time")
    _check(pd.Series([1.0, np.nan, 3.0]), device, method="time")   # ValueError


@pytest.mark.parametrize("dtype", ["float32", "Float64", "Float32", "Int64", "Int8",
                                   "UInt32"])
def test_dtypes(device, dtype):
    s = pd.Series([None, 1, None, 4, None, None, 10, None], dtype=dtype)
    _check(s, device)
    _check(s, device, limit_direction="both", limit=1)
    _check(s, device, method="nearest")
    _check(pd.Series([1, 2, 7], dtype=dtype), device)   # Int64 -> Float64 all the same


def test_ints_and_bools_unchanged(device):
    # no nulls to fill: pandas returns them, before checking the arguments
    for s in (pd.Series([1, 2, 3]), pd.Series([1, 2], dtype="uint8"),
              pd.Series([True, False, True])):
        _check(s, device)
        _check(s, device, limit_direction="up")
        _check(s, device, method="time")


def test_datetimes(device):
    d = pd.Series(pd.to_datetime(["2020-01-01 00:00", None, None, "2020-01-04 06:00",
                                  None]))
    _check(d, device)
    _check(d, device, limit=1)
    _check(d, device, limit_area="inside")
    t = pd.Series(pd.to_timedelta([1, None, 4, None], unit="s"))
    _check(t, device)
    with pytest.raises(NotImplementedError):
        ef.from_pandas(d, device=device).interpolate(method="index")


def test_refused_dtypes(device):
    _check(pd.Series(["a", None, "b"]), device)                         # TypeError
    _check(pd.Series(["a", None, "b"], dtype="string"), device)
    _check(pd.Series(["a", None, "a"], dtype="category"), device)       # NotImpl.
    _check(pd.Series([True, None], dtype="boolean"), device)


def test_frames(device):
    df = pd.DataFrame({"one": [1.0, np.nan, 3.0, np.nan], "two": [np.nan, 2.0, 3.0, 4.0],
                       "i": [1, 2, 3, 4], "I": pd.array([1, None, 3, None], dtype="Int64"),
                       "f32": np.array([np.nan, 1, np.nan, 2], dtype="float32")},
                      index=[5, 6, 8, 9])
    _check(df, device)
    _check(df, device, method="index", limit_direction="both")
    _check(df, device, limit=1, limit_area="inside")
    _check(df.assign(s=["a", None, "c", "d"]), device)                 # str: TypeError


def test_empty(device):
    _check(pd.DataFrame({"a": pd.Series([], dtype=float),
                         "s": pd.Series([], dtype=str)}), device)
    # pandas returns an empty object before looking at the method
    _check(pd.Series([], dtype=float), device, method="bogus")
    _check(pd.DataFrame(index=[1, 2]), device, method="bogus")


@pytest.mark.parametrize("kwargs", [
    dict(method="bogus"), dict(method="pad"), dict(method="ffill"),
    dict(method="bfill"), dict(method="backfill"), dict(method=None),
    dict(method="pad", limit_direction="both"),
    dict(method="bfill", limit_direction="forward"),
    dict(limit=0), dict(limit=-1), dict(limit=1.5), dict(limit="1"),
    dict(limit=True), dict(limit_direction="up"), dict(limit_area="middle"),
    dict(method="spline"), dict(method="polynomial"), dict(inplace="yes"),
    dict(axis=2), dict(limit=np.int64(1)),
])
def test_pandas_errors(device, kwargs):
    _check(pd.Series(GAPS), device, **kwargs)


def test_multiindex(device):
    mi = pd.MultiIndex.from_tuples([(1, 1), (1, 2), (2, 1), (2, 2)])
    s = pd.Series([1.0, np.nan, 3.0, np.nan], index=mi)
    _check(s, device)
    _check(s, device, method="index")                    # ValueError


@pytest.mark.parametrize("method", ["polynomial", "spline", "akima", "pchip", "krogh",
                                    "cubic", "cubicspline", "zero", "slinear"])
def test_scipy_methods_refused(device, method):
    s = ef.Series(GAPS, device=device)
    with pytest.raises(NotImplementedError, match=method):
        s.interpolate(method=method, order=2)


def test_inplace_and_axis(device):
    pdf = pd.DataFrame({"a": [1.0, np.nan, 3.0], "b": [np.nan, 2.0, np.nan]})
    df = ef.from_pandas(pdf, device=device)
    assert df.interpolate(inplace=True) is None
    tm.assert_frame_equal(df.to_pandas(), pdf.interpolate())
    s = ef.Series([1.0, np.nan, 2.0], device=device)
    assert s.interpolate(inplace=True) is None
    assert s.to_pandas().tolist() == [1.0, 1.5, 2.0]
    tm.assert_frame_equal(ef.from_pandas(pdf, device=device)
                          .interpolate(axis="index").to_pandas(), pdf.interpolate())
    for kwargs in ({}, dict(limit=1, limit_direction="both")):
        _check(pdf, device, axis=1, **kwargs)    # along rows: pandas transposes
        _check(pdf, device, axis="columns", **kwargs)
    with pytest.raises(TypeError, match="index"):    # the str column labels as x
        ef.from_pandas(pdf, device=device).interpolate(method="index", axis=1)
    _check(pd.DataFrame({"a": [1, 2], "b": [np.nan, 2.0], "c": [3, 4]}), device, axis=1)
    with pytest.raises(ValueError, match="No axis named 1"):
        s.interpolate(axis=1)


def test_random_against_pandas(device):
    rng = np.random.default_rng(7)
    for _ in range(20):
        n = int(rng.integers(1, 40))
        v = rng.standard_normal(n)
        v[rng.random(n) < 0.5] = np.nan
        x = np.sort(rng.choice(100, n, replace=False)).astype(float)
        s = pd.Series(v, index=x)
        limit = [None, 1, 3][int(rng.integers(3))]
        direction = ["forward", "backward", "both"][int(rng.integers(3))]
        area = [None, "inside", "outside"][int(rng.integers(3))]
        for method in ("linear", "index", "nearest"):
            _check(s, device, method=method, limit=limit, limit_direction=direction,
                   limit_area=area)
        _check(s.sample(frac=1.0, random_state=1), device, method="index",
               limit=limit, limit_direction=direction, limit_area=area)


def test_guide_snippet(device):
    pdf = pd.DataFrame({"one": [1.0, np.nan, 3.0, np.nan], "two": [np.nan, 2.0, 3.0, 4.0]})
    _check(pdf, device)


def test_ffill_scans_still_fill(device):
    # interpolate shares the neighbour scans with ffill/bfill (_fill.py)
    s = pd.Series([np.nan, 1.0, np.nan, np.nan, 4.0, np.nan])
    e = ef.from_pandas(s, device=device)
    tm.assert_series_equal(e.ffill().to_pandas(), s.ffill())
    tm.assert_series_equal(e.bfill().to_pandas(), s.bfill())


@pytest.mark.parametrize("limit", [None, 1, 2, np.int64(3)])
def test_ffill_bfill_limit(device, limit):
    # the gap lengths interpolate's limits read from the scans limit
    # ffill/bfill the same way
    for s in (pd.Series([np.nan, 1.0, np.nan, np.nan, np.nan, 4.0, np.nan, np.nan]),
              pd.Series(["a", None, None, "b", None], dtype="str"),
              pd.Series([1, None, None, None, 5], dtype="Int64"),
              pd.Series([1, 2, 3])):
        e = ef.from_pandas(s, device=device)
        tm.assert_series_equal(e.ffill(limit=limit).to_pandas(), s.ffill(limit=limit))
        tm.assert_series_equal(e.bfill(limit=limit).to_pandas(), s.bfill(limit=limit))
    pdf = pd.DataFrame({"a": [np.nan, 1.0, np.nan, np.nan], "b": [1.0, np.nan, np.nan, 2.0]})
    df = ef.from_pandas(pdf, device=device)
    tm.assert_frame_equal(df.ffill(limit=limit).to_pandas(), pdf.ffill(limit=limit))


@pytest.mark.parametrize("limit", [0, -2, 1.5, True, "1"])
def test_ffill_limit_errors(device, limit):
    s = pd.Series([1.0, np.nan])
    e = ef.from_pandas(s, device=device)
    for fill in ("ffill", "bfill"):
        with pytest.raises(ValueError) as want:
            getattr(s, fill)(limit=limit)
        with pytest.raises(ValueError, match=str(want.value)):
            getattr(e, fill)(limit=limit)
    # no nulls to hold: pandas returns an int column before the check
    tm.assert_series_equal(ef.from_pandas(pd.Series([1, 2]), device=device)
                           .ffill(limit=limit).to_pandas(), pd.Series([1, 2]))
