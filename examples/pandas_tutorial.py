"""pandas' "10 minutes to pandas" run on ember.frame as a new user would:
the tutorial's code with `import ember.frame as pd` in place of pandas.

Each section is a generator written once against a module `pd`; it runs
with pandas and with ember.frame on the same data, and every value it
yields is compared (ember's through to_pandas()). The table says, step by
step, what matches, what differs and what raises. A step yielded as a
lambda is called by the harness, so the section goes on when it raises;
a statement of the section itself that raises stops the section (its
later steps need its result). What
ember.frame will not do raises NotImplementedError naming it; docs/frames.md
("What differs from pandas") lists those.

    python examples/pandas_tutorial.py [--device cpu] [--all]
(--all prints the steps that match too; examples/pandas_tutorial_guide.py
runs the user guide's groupby, merge, reshaping, time series, missing
data and string snippets through the same harness.)"""
import argparse
import os

import numpy as np
import pandas

import ember
import ember.frame


def _as_pandas(v):
    if hasattr(v, "to_pandas"):
        return v.to_pandas()
    if type(v).__module__.startswith("ember") and hasattr(v, "__array__"):
        return ember.asnumpy(v)
    return v


def compare(got, want):
    """None when ember's value is pandas', else how it differs."""
    got = _as_pandas(got)
    tm = pandas.testing
    try:
        if isinstance(want, pandas.DataFrame):
            tm.assert_frame_equal(got, want, check_freq=False)
        elif isinstance(want, pandas.Series):
            tm.assert_series_equal(got, want, check_freq=False)
        elif isinstance(want, pandas.Index):
            if getattr(want, "freq", None) is not None:   # ember keeps no freq
                want = pandas.DatetimeIndex(want, freq=None)
            tm.assert_index_equal(got, want, check_exact=True)
        elif isinstance(want, np.ndarray):
            np.testing.assert_array_equal(np.asarray(got), want)
            if np.asarray(got).dtype != want.dtype:
                return f"dtype {np.asarray(got).dtype} != {want.dtype}"
        elif isinstance(want, float) and np.isnan(want):
            if not (isinstance(got, float) and np.isnan(got)):
                return f"{got!r} != nan"
        elif not (got == want):
            return f"{got!r} != {want!r}"
    except AssertionError as e:
        return " ".join(str(e).split())[:160]
    except Exception as e:   # a comparison that cannot even be made
        return f"cannot compare: {type(e).__name__}: {str(e)[:120]}"
    return None


class _Raised:
    def __init__(self, e):
        self.e = e


def _steps(section, pd):
    """The (label, value) the section yields, and the exception that
    stopped it (None when it ran to the end). A step yielded as a
    function (a lambda) is called here: if it raises, the section goes on
    (nothing after it needs its result), its value being _Raised."""
    out = []
    try:
        for label, value in section(pd):
            if callable(value) and getattr(value, "__name__", "") == "<lambda>":
                try:
                    value = value()
                except Exception as e:
                    value = _Raised(e)
            out.append((label, value))
    except Exception as e:
        return out, e
    return out, None


def _why(e):
    return f"{type(e).__name__}: {' '.join(str(e).split())[:160]}"


def run(sections, device="cpu", show_all=False):
    """Runs every section under pandas and ember.frame; prints one line a
    step that is not ok (all steps with show_all) and returns the counts."""
    counts = {"ok": 0, "differs": 0, "raises": 0, "not reached": 0}
    with ember.Device(device):
        for section in sections:
            want, perr = _steps(section, pandas)
            got, err = _steps(section, ember.frame)
            print(f"== {section.__name__}: {(section.__doc__ or '').strip()}")
            if perr is not None:   # this pandas cannot run the snippet: cut there
                print(f"  (pandas {pandas.__version__} itself stops after "
                      f"{len(want)} steps: {_why(perr)[:100]})")
            for i, (label, w) in enumerate(want):
                if isinstance(w, _Raised):
                    print(f"  (pandas {pandas.__version__} itself raises at {label}: "
                          f"{_why(w.e)[:100]})")
                    continue
                if i < len(got):
                    if isinstance(got[i][1], _Raised):
                        state, why = "raises", _why(got[i][1].e)
                    else:
                        why = compare(got[i][1], w)
                        state = "ok" if why is None else "differs"
                elif i == len(got) and err is not None:
                    state, why = "raises", _why(err)
                else:
                    state, why = "not reached", ""
                counts[state] += 1
                if state != "ok" or show_all:
                    print(f"  {state:<11} {label}" + (f": {why}" if why else ""))
    return counts


# ---- "10 minutes to pandas", section by section

def object_creation(pd):
    """Object creation"""
    s = pd.Series([1, 3, 5, np.nan, 6, 8])
    yield "Series with a NaN", s
    dates = pd.date_range("20130101", periods=6)
    yield "date_range", dates
    data = np.random.default_rng(0).standard_normal((6, 4))
    df = pd.DataFrame(data, index=dates, columns=list("ABCD"))
    yield "DataFrame(ndarray, index=dates, columns=)", df
    df2 = pd.DataFrame({
        "A": 1.0,
        "B": pd.Timestamp("20130102"),
        "C": pd.Series(1, index=list(range(4)), dtype="float32"),
        "D": np.array([3] * 4, dtype="int32"),
        "E": pd.Categorical(["test", "train", "test", "train"]),
        "F": "foo",
    })
    yield "DataFrame(dict of scalars, Series, arrays, Categorical)", df2
    yield "dtypes", lambda: pandas.Series({k: str(v) for k, v in dict(df2.dtypes).items()})


def viewing_data(pd):
    """Viewing data"""
    dates = pd.date_range("20130101", periods=6)
    data = np.random.default_rng(0).standard_normal((6, 4))
    df = pd.DataFrame(data, index=dates, columns=list("ABCD"))
    yield "head", lambda: df.head()
    yield "tail(3)", lambda: df.tail(3)
    yield "index", lambda: df.index
    yield "columns", lambda: df.columns
    yield "to_numpy", lambda: df.to_numpy()
    yield "describe", lambda: df.describe()
    yield "T", lambda: df.T
    yield "sort_index(axis=1, ascending=False)", lambda: df.sort_index(axis=1, ascending=False)
    yield "sort_values(by='B')", lambda: df.sort_values(by="B")


def selection(pd):
    """Selection: getitem, loc, iloc, at, iat, boolean indexing"""
    dates = pd.date_range("20130101", periods=6)
    data = np.random.default_rng(0).standard_normal((6, 4))
    df = pd.DataFrame(data, index=dates, columns=list("ABCD"))
    yield "df['A']", lambda: df["A"]
    yield "df[0:3]", lambda: df[0:3]
    yield "df['20130102':'20130104']", lambda: df["20130102":"20130104"]
    yield "loc[dates[0]]", lambda: df.loc[dates[0]]
    yield "loc[:, ['A', 'B']]", lambda: df.loc[:, ["A", "B"]]
    yield "loc['20130102':'20130104', ['A', 'B']]", lambda: df.loc["20130102":"20130104", ["A", "B"]]
    yield "loc[dates[0], 'A']", lambda: df.loc[dates[0], "A"]
    yield "at[dates[0], 'A']", lambda: df.at[dates[0], "A"]
    yield "iloc[3]", lambda: df.iloc[3]
    yield "iloc[3:5, 0:2]", lambda: df.iloc[3:5, 0:2]
    yield "iloc[[1, 2, 4], [0, 2]]", lambda: df.iloc[[1, 2, 4], [0, 2]]
    yield "iloc[1:3, :]", lambda: df.iloc[1:3, :]
    yield "iloc[:, 1:3]", lambda: df.iloc[:, 1:3]
    yield "iloc[1, 1]", lambda: df.iloc[1, 1]
    yield "iat[1, 1]", lambda: df.iat[1, 1]
    yield "df[df['A'] > 0]", lambda: df[df["A"] > 0]
    yield "df[df > 0]", lambda: df[df > 0]
    df2 = df.copy()
    df2["E"] = ["one", "one", "two", "three", "four", "three"]
    yield "assign a list column", df2
    yield "isin", lambda: df2[df2["E"].isin(["two", "four"])]


def setting(pd):
    """Setting values"""
    dates = pd.date_range("20130101", periods=6)
    data = np.random.default_rng(0).standard_normal((6, 4))
    df = pd.DataFrame(data, index=dates, columns=list("ABCD"))
    s1 = pd.Series([1, 2, 3, 4, 5, 6], index=pd.date_range("20130102", periods=6))
    yield "Series with a date index", s1
    df["F"] = s1
    yield "a column aligned on the index", df
    df.at[dates[0], "A"] = 0
    yield "at[...] = 0", df
    df.iat[0, 1] = 0
    yield "iat[0, 1] = 0", df
    df.loc[:, "D"] = np.array([5] * len(df))
    yield "loc[:, 'D'] = array", df
    df2 = df.copy()
    df2[df2 > 0] = -df2
    yield "df2[df2 > 0] = -df2", df2


def missing_data(pd):
    """Missing data"""
    dates = pd.date_range("20130101", periods=6)
    data = np.random.default_rng(0).standard_normal((6, 4))
    df = pd.DataFrame(data, index=dates, columns=list("ABCD"))
    df1 = df.reindex(index=dates[0:4], columns=list(df.columns) + ["E"])
    yield "reindex(index=, columns=)", df1
    df1.loc[dates[0]: dates[1], "E"] = 1
    yield "loc[a:b, 'E'] = 1", df1
    yield "dropna(how='any')", lambda: df1.dropna(how="any")
    yield "fillna(value=5)", lambda: df1.fillna(value=5)
    yield "pd.isna(df1)", lambda: pd.isna(df1)


def operations(pd):
    """Operations: stats, user defined functions, value_counts, strings"""
    dates = pd.date_range("20130101", periods=6)
    data = np.random.default_rng(0).standard_normal((6, 4))
    df = pd.DataFrame(data, index=dates, columns=list("ABCD"))
    yield "mean()", lambda: df.mean()
    yield "mean(axis=1)", lambda: df.mean(axis=1)
    s = pd.Series([1, 3, 5, np.nan, 6, 8], index=dates).shift(2)
    yield "shift(2)", s
    yield "sub(s, axis='index')", lambda: df.sub(s, axis="index")
    yield "agg(lambda)", lambda: df.agg(lambda x: np.mean(x) * 5.6)
    yield "transform(lambda)", lambda: df.transform(lambda x: x * 101.2)
    s = pd.Series(np.random.default_rng(1).integers(0, 7, size=10))
    yield "value_counts", lambda: s.value_counts()
    s = pd.Series(["A", "B", "C", "Aaba", "Baca", np.nan, "CABA", "dog", "cat"])
    yield "str.lower", lambda: s.str.lower()


def merging(pd):
    """Merge: concat, join"""
    df = pd.DataFrame(np.random.default_rng(2).standard_normal((10, 4)))
    pieces = [df[:3], df[3:7], df[7:]]
    yield "concat(pieces)", lambda: pd.concat(pieces)
    left = pd.DataFrame({"key": ["foo", "foo"], "lval": [1, 2]})
    right = pd.DataFrame({"key": ["foo", "foo"], "rval": [4, 5]})
    yield "merge, duplicate keys", lambda: pd.merge(left, right, on="key")
    left = pd.DataFrame({"key": ["foo", "bar"], "lval": [1, 2]})
    right = pd.DataFrame({"key": ["foo", "bar"], "rval": [4, 5]})
    yield "merge, unique keys", lambda: pd.merge(left, right, on="key")


def grouping(pd):
    """Grouping"""
    rng = np.random.default_rng(3)
    df = pd.DataFrame({
        "A": ["foo", "bar", "foo", "bar", "foo", "bar", "foo", "foo"],
        "B": ["one", "one", "two", "three", "two", "two", "one", "three"],
        "C": rng.standard_normal(8),
        "D": rng.standard_normal(8),
    })
    yield "groupby('A')[['C', 'D']].sum()", lambda: df.groupby("A")[["C", "D"]].sum()
    yield "groupby(['A', 'B']).sum()", lambda: df.groupby(["A", "B"]).sum()


def reshaping(pd):
    """Reshaping: stack, pivot tables"""
    arrays = [["bar", "bar", "baz", "baz", "foo", "foo", "qux", "qux"],
              ["one", "two", "one", "two", "one", "two", "one", "two"]]
    index = pd.MultiIndex.from_arrays(arrays, names=["first", "second"])
    df = pd.DataFrame(np.random.default_rng(4).standard_normal((8, 2)),
                      index=index, columns=["A", "B"])
    df2 = df[:4]
    yield "MultiIndex frame[:4]", df2
    stacked = df2.stack()
    yield "stack", stacked
    yield "unstack", lambda: stacked.unstack()
    yield "unstack(1)", lambda: stacked.unstack(1)
    yield "unstack(0)", lambda: stacked.unstack(0)
    rng = np.random.default_rng(5)
    df = pd.DataFrame({
        "A": ["one", "one", "two", "three"] * 3,
        "B": ["A", "B", "C"] * 4,
        "C": ["foo", "foo", "foo", "bar", "bar", "bar"] * 2,
        "D": rng.standard_normal(12),
        "E": rng.standard_normal(12),
    })
    yield "pivot_table(values=, index=[...], columns=[...])", \
        lambda: pd.pivot_table(df, values="D", index=["A", "B"], columns=["C"])


def time_series(pd):
    """Time series"""
    rng = pd.date_range("1/1/2012", periods=100, freq="s")
    ts = pd.Series(np.random.default_rng(6).integers(0, 500, len(rng)), index=rng)
    yield "resample('5Min').sum()", lambda: ts.resample("5Min").sum()
    rng = pd.date_range("3/6/2012 00:00", periods=5, freq="D")
    ts = pd.Series(np.random.default_rng(7).standard_normal(len(rng)), rng)
    yield "Series(values, date index)", ts
    yield "tz_localize('UTC')", lambda: ts.tz_localize("UTC")
    yield "tz_convert", lambda: ts.tz_localize("UTC").tz_convert("US/Eastern")
    yield "date index + BusinessDay(5)", lambda: rng + pd.offsets.BusinessDay(5)


def categoricals(pd):
    """Categoricals"""
    df = pd.DataFrame({"id": [1, 2, 3, 4, 5, 6],
                       "raw_grade": ["a", "b", "b", "a", "a", "e"]})
    df["grade"] = df["raw_grade"].astype("category")
    yield "astype('category')", lambda: df["grade"]
    new_categories = ["very good", "good", "very bad"]
    df["grade"] = df["grade"].cat.rename_categories(new_categories)
    yield "cat.rename_categories", lambda: df["grade"]
    df["grade"] = df["grade"].cat.set_categories(
        ["very bad", "bad", "medium", "good", "very good"])
    yield "cat.set_categories", lambda: df["grade"]
    yield "sort_values(by='grade')", lambda: df.sort_values(by="grade")
    yield "groupby('grade', observed=False).size()", \
        lambda: df.groupby("grade", observed=False).size()


def importing_exporting(pd):
    """Importing and exporting data: CSV, Parquet"""
    import tempfile
    tmp = tempfile.mkdtemp(prefix="ember-tutorial-")
    df = pd.DataFrame(np.random.default_rng(8).integers(0, 5, (10, 5)))
    df.to_csv(os.path.join(tmp, "foo.csv"))
    yield "read_csv of to_csv", lambda: pd.read_csv(os.path.join(tmp, "foo.csv"))
    df.to_parquet(os.path.join(tmp, "foo.parquet"))
    yield "read_parquet of to_parquet", lambda: pd.read_parquet(os.path.join(tmp, "foo.parquet"))


SECTIONS = [object_creation, viewing_data, selection, setting, missing_data,
            operations, merging, grouping, reshaping, time_series, categoricals,
            importing_exporting]


def main(sections=SECTIONS):
    ap = argparse.ArgumentParser()
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--all", action="store_true")
    args = ap.parse_args()
    counts = run(sections, args.device, args.all)
    print(", ".join(f"{v} {k}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
