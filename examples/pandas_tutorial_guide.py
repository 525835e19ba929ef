"""Snippets of pandas' user guide (groupby, merge/join/concat, reshaping,
time series, missing data, text data) run on ember.frame with the harness
of examples/pandas_tutorial.py: each section under pandas and under
`import ember.frame as pd`, every yielded value compared. Steps are
yielded as lambdas, so one that raises does not stop its section.

    python examples/pandas_tutorial_guide.py [--device cpu] [--all]"""
import numpy as np

from pandas_tutorial import main


def groupby_guide(pd):
    """Group by: split-apply-combine"""
    rng = np.random.default_rng(10)
    df = pd.DataFrame({
        "A": ["foo", "bar", "foo", "bar", "foo", "bar", "foo", "foo"],
        "B": ["one", "one", "two", "three", "two", "two", "one", "three"],
        "C": rng.standard_normal(8),
        "D": rng.standard_normal(8),
    })
    grouped = df.groupby("A")
    yield "groupby('A')[['C', 'D']].mean()", lambda: grouped[["C", "D"]].mean()
    yield "groupby(['A', 'B']).size()", lambda: df.groupby(["A", "B"]).size()
    yield "groupby('A').C.agg(['sum', 'mean', 'std'])", lambda: grouped["C"].agg(["sum", "mean", "std"])
    yield "agg dict", lambda: grouped.agg({"C": "sum", "D": "min"})
    yield "named aggregation", lambda: grouped.agg(c_min=("C", "min"), d_max=("D", "max"))
    yield "groupby(...).transform('mean')", lambda: grouped["C"].transform("mean")
    yield "transform(lambda: x - x.mean())", lambda: grouped["C"].transform(lambda x: x - x.mean())
    yield "as_index=False", lambda: df.groupby(["A", "B"], as_index=False)[["C"]].sum()
    yield "cumcount", lambda: grouped.cumcount()
    yield "cumsum", lambda: grouped["D"].cumsum()
    yield "first", lambda: grouped[["B", "C"]].first()
    yield "nunique", lambda: grouped["B"].nunique()
    yield "filter", lambda: grouped.filter(lambda x: len(x) > 3)
    yield "describe of a group's column", lambda: grouped["C"].describe()


def merge_guide(pd):
    """Merge, join, concatenate and compare"""
    df1 = pd.DataFrame({"A": ["A0", "A1", "A2", "A3"], "B": ["B0", "B1", "B2", "B3"],
                        "C": ["C0", "C1", "C2", "C3"], "D": ["D0", "D1", "D2", "D3"]},
                       index=[0, 1, 2, 3])
    df2 = pd.DataFrame({"A": ["A4", "A5", "A6", "A7"], "B": ["B4", "B5", "B6", "B7"],
                        "C": ["C4", "C5", "C6", "C7"], "D": ["D4", "D5", "D6", "D7"]},
                       index=[4, 5, 6, 7])
    yield "concat([df1, df2])", lambda: pd.concat([df1, df2])
    yield "concat(ignore_index=True)", lambda: pd.concat([df1, df2], ignore_index=True)
    df4 = pd.DataFrame({"B": ["B2", "B3", "B6", "B7"], "D": ["D2", "D3", "D6", "D7"],
                        "F": ["F2", "F3", "F6", "F7"]}, index=[2, 3, 6, 7])
    yield "concat(axis=1)", lambda: pd.concat([df1, df4], axis=1)
    yield "concat(axis=1, join='inner')", lambda: pd.concat([df1, df4], axis=1, join="inner")
    left = pd.DataFrame({"key1": ["K0", "K0", "K1", "K2"], "key2": ["K0", "K1", "K0", "K1"],
                         "A": ["A0", "A1", "A2", "A3"], "B": ["B0", "B1", "B2", "B3"]})
    right = pd.DataFrame({"key1": ["K0", "K1", "K1", "K2"], "key2": ["K0", "K0", "K0", "K0"],
                          "C": ["C0", "C1", "C2", "C3"], "D": ["D0", "D1", "D2", "D3"]})
    for how in ("inner", "left", "right", "outer", "cross"):
        on = None if how == "cross" else ["key1", "key2"]
        yield f"merge how={how!r}", lambda: pd.merge(left, right, how=how, on=on)
    yield "merge indicator=True", lambda: pd.merge(left, right, on=["key1", "key2"], how="outer",
                                           indicator=True)
    left = pd.DataFrame({"k": ["K0", "K1", "K2"], "v": [1, 2, 3]})
    right = pd.DataFrame({"k": ["K0", "K0", "K3"], "v": [4, 5, 6]})
    yield "merge suffixes", lambda: pd.merge(left, right, on="k", suffixes=("_l", "_r"))
    left = pd.DataFrame({"A": ["A0", "A1", "A2"], "B": ["B0", "B1", "B2"]},
                        index=["K0", "K1", "K2"])
    right = pd.DataFrame({"C": ["C0", "C2", "C3"], "D": ["D0", "D2", "D3"]},
                         index=["K0", "K2", "K3"])
    yield "join", lambda: left.join(right)
    yield "join how='outer'", lambda: left.join(right, how="outer")
    yield "merge left_index/right_index", lambda: pd.merge(left, right, left_index=True,
                                                   right_index=True, how="inner")


def reshaping_guide(pd):
    """Reshaping and pivot tables"""
    data = {"value": range(12),
            "variable": ["A"] * 3 + ["B"] * 3 + ["C"] * 3 + ["D"] * 3,
            "date": pd.to_datetime(["2020-01-03", "2020-01-04", "2020-01-05"] * 4)}
    df = pd.DataFrame(data)
    yield "pivot(index=, columns=, values=)", lambda: df.pivot(index="date", columns="variable",
                                                      values="value")
    cheese = pd.DataFrame({"first": ["John", "Mary"], "last": ["Doe", "Bo"],
                           "height": [5.5, 6.0], "weight": [130, 150]})
    yield "melt(id_vars=)", lambda: cheese.melt(id_vars=["first", "last"])
    yield "melt(var_name=)", lambda: cheese.melt(id_vars=["first", "last"], var_name="quantity")
    rng = np.random.default_rng(11)
    df = pd.DataFrame({"A": ["one", "one", "two", "three"] * 6,
                       "B": ["A", "B", "C"] * 8,
                       "C": ["foo", "foo", "foo", "bar", "bar", "bar"] * 4,
                       "D": rng.standard_normal(24), "E": rng.standard_normal(24)})
    yield "pivot_table(values='D', index=['A', 'B'], columns=['C'])", \
        lambda: pd.pivot_table(df, values="D", index=["A", "B"], columns=["C"])
    yield "pivot_table(aggfunc='sum')", lambda: pd.pivot_table(df, values="D", index=["B"],
                                                       columns=["A", "C"], aggfunc="sum")
    yield "pivot_table(margins=True)", lambda: pd.pivot_table(df, values="D", index="A",
                                                      columns="C", margins=True)
    yield "crosstab", lambda: pd.crosstab(df["A"], df["C"])
    yield "get_dummies", lambda: pd.get_dummies(pd.Series(list("abca")))
    yield "cut", lambda: pd.cut(pd.Series([1, 7, 5, 4, 6, 3]), 3)
    yield "factorize", lambda: pd.factorize(pd.Series(["b", "a", "b", "c"]))[0]
    yield "explode", lambda: pd.Series([[1, 2], [3]]).explode()


def time_series_guide(pd):
    """Time series / date functionality"""
    dti = pd.to_datetime(["2018-01-01", "2018-01-03"])
    yield "to_datetime of mixed values", dti
    idx = pd.date_range("2018-01-01", periods=72, freq="h")
    ts = pd.Series(range(len(idx)), index=idx)
    yield "resample('2h').mean()", lambda: ts.resample("2h").mean()
    yield "resample('D').agg(['min', 'max'])", lambda: ts.resample("D").agg(["min", "max"])
    yield "rolling(3).mean()", lambda: ts.rolling(3).mean()
    yield "rolling('3h').sum()", lambda: ts.rolling("3h").sum()
    yield "expanding().max()", lambda: ts.expanding().max()
    yield "ewm(span=5).mean()", lambda: ts.ewm(span=5).mean()
    yield "shift(1)", lambda: ts.shift(1)
    yield "diff()", lambda: ts.diff()
    yield "pct_change()", lambda: ts.pct_change()
    s = pd.Series(pd.date_range("2018-01-01 10:30", periods=4, freq="37h"))
    yield ".dt.day_name()", lambda: s.dt.day_name()
    yield ".dt.hour", lambda: s.dt.hour
    yield ".dt.floor('D')", lambda: s.dt.floor("D")
    yield ".dt.strftime", lambda: s.dt.strftime("%Y/%m/%d")
    yield "Timedelta arithmetic", lambda: s - pd.Timestamp("2018-01-01")
    yield "to_timedelta", lambda: pd.to_timedelta(pd.Series([1, 2, 3]), unit="D")
    yield "date_range(freq='ME')", lambda: pd.date_range("2018-01-31", periods=4, freq="ME")
    yield "date_range(freq='B')", lambda: pd.date_range("2018-01-05", periods=4, freq="B")
    yield "between_time", lambda: ts.between_time("09:00", "11:00")
    yield "asfreq('6h')", lambda: ts.asfreq("6h")


def missing_data_guide(pd):
    """Working with missing data"""
    df = pd.DataFrame({"one": [1.0, np.nan, 3.0, np.nan], "two": [np.nan, 2.0, 3.0, 4.0],
                       "three": ["a", None, "c", "d"]})
    yield "isna()", lambda: df.isna()
    yield "notna().sum()", lambda: df.notna().sum()
    yield "fillna(0) of numbers", lambda: df[["one", "two"]].fillna(0)
    yield "fillna(dict)", lambda: df.fillna({"one": -1.0, "three": "z"})
    yield "ffill()", lambda: df.ffill()
    yield "bfill()", lambda: df.bfill()
    yield "dropna()", lambda: df.dropna()
    yield "dropna(axis=1)", lambda: df.dropna(axis=1)
    yield "dropna(subset=)", lambda: df.dropna(subset=["two"])
    yield "interpolate()", lambda: df[["one", "two"]].interpolate()
    yield "sum skips NaN", lambda: df[["one", "two"]].sum()
    yield "mean with NaN", lambda: df["one"].mean()
    s = pd.Series([1, 2, None], dtype="Int64")
    yield "nullable Int64", lambda: s
    yield "Int64 + 1", lambda: s + 1
    yield "pd.NA in a nullable", lambda: s.isna()
    yield "replace(np.nan, 0)", lambda: df["one"].replace(np.nan, 0)
    yield "where", lambda: df["two"].where(df["two"] > 2)
    yield "mask", lambda: df["two"].mask(df["two"] > 2, 0)
    yield "combine_first", lambda: df["one"].combine_first(df["two"])


def text_guide(pd):
    """Working with text data"""
    s = pd.Series(["A", "B", "C", "Aaba", "Baca", None, "CABA", "dog", "cat"])
    yield "str.lower", lambda: s.str.lower()
    yield "str.upper", lambda: s.str.upper()
    yield "str.len", lambda: s.str.len()
    idx = pd.Series([" jack", "jill ", " jesse ", "frank"])
    yield "str.strip", lambda: idx.str.strip()
    yield "str.lstrip", lambda: idx.str.lstrip()
    s2 = pd.Series(["a_b_c", "c_d_e", None, "f_g_h"])
    yield "str.split(expand=True)", lambda: s2.str.split("_", expand=True)
    yield "str.split().str.get(1)", lambda: s2.str.split("_").str.get(1)
    yield "str.replace(regex)", lambda: pd.Series(["foo", "fuz", None]).str.replace(
        "^.a|dog", "XX-XX ", case=False, regex=True)
    yield "str.replace(literal)", lambda: s.str.replace("a", "-", regex=False)
    yield "str.cat(sep=)", lambda: pd.Series(["a", "b", "c", "d"]).str.cat(sep=",")
    yield "str.cat(others)", lambda: pd.Series(["a", "b"]).str.cat(pd.Series(["x", "y"]), sep="-")
    yield "str[0]", lambda: s.str[0]
    yield "str.slice", lambda: s.str.slice(0, 2)
    yield "str.contains(regex)", lambda: pd.Series(["1", "2", "3a", "3b", "03c", "4dx"]).str.contains(
        r"[0-9][a-z]")
    yield "str.startswith", lambda: s.str.startswith("A")
    yield "str.extract", lambda: pd.Series(["a1", "b2", "c3"]).str.extract(r"([ab])(\d)")
    yield "str.findall", lambda: pd.Series(["a1b2", "c3"]).str.findall(r"\d")
    yield "str.count", lambda: s.str.count("a")
    yield "str.pad", lambda: s.str.pad(6, fillchar="*")
    yield "str.zfill", lambda: pd.Series(["1", "22"]).str.zfill(4)
    yield "str.get_dummies", lambda: pd.Series(["a|b", "a", "a|c"]).str.get_dummies()
    yield "str.title", lambda: s.str.title()
    yield "str.isdigit", lambda: pd.Series(["1", "a", "22"]).str.isdigit()


def basics_guide(pd):
    """Essential basic functionality"""
    rng = np.random.default_rng(12)
    df = pd.DataFrame({"one": rng.standard_normal(4), "two": rng.standard_normal(4),
                       "three": [1, 2, 3, 4]}, index=list("abcd"))
    yield "shape", lambda: df.shape
    yield "df.values", lambda: df.values
    yield "describe()", lambda: df.describe()
    yield "describe(include='all') of mixed", lambda: pd.DataFrame(
        {"a": ["x", "y", "x"], "b": [1.0, 2.0, 3.0]}).describe(include="all")
    yield "idxmax()", lambda: df.idxmax()
    yield "apply(np.mean)", lambda: df.apply(np.mean)
    yield "apply(lambda x: x.max() - x.min())", lambda: df.apply(lambda x: x.max() - x.min())
    yield "apply(axis=1)", lambda: df.apply(lambda row: row["one"] + row["two"], axis=1)
    yield "map of a Series", lambda: df["three"].map(lambda v: v * 2)
    yield "map of a dict", lambda: df["three"].map({1: 10, 2: 20})
    yield "rename(columns=str.upper)", lambda: df.rename(columns=str.upper)
    yield "rename(index=dict)", lambda: df.rename(index={"a": "A"})
    yield "astype(dict)", lambda: df.astype({"three": "float32"})
    yield "select_dtypes(include='number')", lambda: df.select_dtypes(include="number")
    yield "sort_values(ascending=False)", lambda: df.sort_values("one", ascending=False)
    yield "nlargest", lambda: df.nlargest(2, "two")
    yield "value_counts of a frame", lambda: pd.DataFrame(
        {"a": [1, 1, 2], "b": ["x", "x", "y"]}).value_counts()
    yield "cumsum of a frame", lambda: df.cumsum()
    yield "diff of a frame", lambda: df.diff()
    yield "round(2)", lambda: df.round(2)
    yield "clip", lambda: df.clip(-0.5, 0.5)
    yield "itertuples", lambda: [tuple(r) for r in df.itertuples()]
    yield "iterrows index", lambda: [i for i, _ in df.iterrows()]
    yield "to_dict", lambda: df.to_dict()
    yield "corr()", lambda: df.corr()


def indexing_guide(pd):
    """Indexing and selecting data"""
    df = pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [5.0, 4.0, 3.0, 2.0, 1.0],
                       "c": ["x", "y", "x", "z", "y"]})
    yield "query('a > b')", lambda: df.query("a > b")
    yield "query with @", lambda: df.query("a > 2 and c == 'y'")
    yield "loc with a callable", lambda: df.loc[lambda d: d["a"] > 2]
    yield "isin dict", lambda: df.isin({"a": [1, 3], "c": ["y"]})
    yield "where(frame)", lambda: df[["a", "b"]].where(df[["a", "b"]] > 2)
    yield "set_index", lambda: df.set_index("c")
    yield "set_index(['c', 'a'])", lambda: df.set_index(["c", "a"])
    yield "reset_index", lambda: df.set_index("c").reset_index()
    yield "drop_duplicates(subset=)", lambda: df.drop_duplicates(subset=["c"])
    yield "duplicated(keep=False)", lambda: df.duplicated("c", keep=False)
    yield "loc[mask, col] = v", lambda: _set(df.copy(), "loc")
    yield "assign(lambda)", lambda: df.assign(d=lambda d: d["a"] * 2)
    yield "sample(n, random_state)", lambda: len(df.sample(n=3, random_state=1))
    yield "get with default", lambda: df.get("zz", default=-1)
    yield "between", lambda: df["a"].between(2, 4)
    yield "nunique of a frame", lambda: df.nunique()
    yield "drop(index=)", lambda: df.drop(index=[0, 2])
    yield "drop(columns=)", lambda: df.drop(columns=["b"])
    yield "insert", lambda: _insert(df.copy())
    yield "pop", lambda: df.copy().pop("b")


def windows_guide(pd):
    """Windowing operations"""
    s = pd.Series(np.arange(10.0) ** 1.5)
    yield "rolling(3).sum()", lambda: s.rolling(3).sum()
    yield "rolling(3, min_periods=1).mean()", lambda: s.rolling(3, min_periods=1).mean()
    yield "rolling(3, center=True).max()", lambda: s.rolling(3, center=True).max()
    yield "rolling(4).std()", lambda: s.rolling(4).std()
    yield "rolling(3).apply(np.sum)", lambda: s.rolling(3).apply(np.sum)
    yield "expanding().mean()", lambda: s.expanding().mean()
    yield "ewm(alpha=0.5).mean()", lambda: s.ewm(alpha=0.5).mean()
    df = pd.DataFrame({"k": ["a", "b"] * 5, "v": np.arange(10.0)})
    yield "groupby().rolling(2).sum()", lambda: df.groupby("k")["v"].rolling(2).sum()
    yield "frame rolling(2).mean()", lambda: df[["v"]].rolling(2).mean()
    yield "cummax", lambda: s.cummax()
    yield "rank", lambda: pd.Series([3, 1, 4, 1, 5]).rank()


def categorical_guide(pd):
    """Categorical data"""
    s = pd.Series(["a", "b", "c", "a"], dtype="category")
    yield "dtype='category'", lambda: s
    yield "cat.categories", lambda: s.cat.categories
    yield "cat.codes", lambda: s.cat.codes
    yield "value_counts", lambda: s.value_counts()
    cat = pd.CategoricalDtype(categories=["b", "c", "d"], ordered=True)
    yield "CategoricalDtype", lambda: pd.Series(["b", "c", "d", "b"], dtype=cat)
    yield "ordered comparison", lambda: pd.Series(["b", "c", "d"], dtype=cat) > "b"
    yield "add_categories", lambda: s.cat.add_categories(["z"])
    yield "remove_unused_categories", lambda: s[s != "c"].cat.remove_unused_categories()
    yield "astype(str)", lambda: s.astype(str)
    yield "sort_values of ordered", lambda: pd.Series(["c", "b", "d"], dtype=cat).sort_values()
    yield "groupby categorical", lambda: pd.DataFrame(
        {"k": s, "v": [1, 2, 3, 4]}).groupby("k", observed=True)["v"].sum()


def io_guide(pd):
    """IO tools: read_csv options"""
    import io
    text = "date,a,b,c\n2020-01-01,1,x,1.5\n2020-01-02,NA,y,\n2020-01-03,3,,2.5\n"
    yield "read_csv", lambda: pd.read_csv(io.StringIO(text))
    yield "parse_dates", lambda: pd.read_csv(io.StringIO(text), parse_dates=["date"])
    yield "index_col", lambda: pd.read_csv(io.StringIO(text), index_col=0)
    yield "usecols + dtype", lambda: pd.read_csv(io.StringIO(text), usecols=["a", "c"],
                                                dtype={"c": "float32"})
    yield "na_values", lambda: pd.read_csv(io.StringIO(text), na_values=["x"])
    yield "skiprows + nrows", lambda: pd.read_csv(io.StringIO(text), skiprows=[1], nrows=1)
    yield "sep=';'", lambda: pd.read_csv(io.StringIO(text.replace(",", ";")), sep=";")
    yield "to_csv(index=False)", lambda: pd.DataFrame({"a": [1, 2], "b": ["x", None]}) \
        .to_csv(index=False)
    yield "read_json(lines=True)", lambda: pd.read_json(
        io.StringIO('{"a": 1, "b": "x"}\n{"a": 2, "b": null}\n'), lines=True)


def cookbook(pd):
    """Cookbook idioms: if-then, grouping, time series by column"""
    df = pd.DataFrame({"AAA": [4, 5, 6, 7], "BBB": [10, 20, 30, 40],
                       "CCC": [100, 50, -30, -50]})
    yield "loc[mask, col] = v", lambda: _assign(df.copy())
    yield "np.where as a column", lambda: df.assign(
        logic=np.where(df["AAA"] > 5, "high", "low"))
    yield "mask with another frame", lambda: df.where(df > 0, -1000)
    yield "idxmin of abs distance", lambda: (df["CCC"] - 43).abs().idxmin()
    yield "sort by abs", lambda: df.loc[(df["CCC"] - 43).abs().argsort()]
    yield "multiple criteria", lambda: df[(df["AAA"] <= 6) & (df.index.isin([0, 2, 4]))]
    dates = pd.to_datetime(["2021-01-03", "2021-01-10", "2021-02-07", "2021-02-14",
                            "2021-03-01"])
    ts = pd.DataFrame({"date": dates, "v": [1.0, 2.0, 3.0, 4.0, 5.0],
                       "g": ["a", "b", "a", "b", "a"]})
    yield "dt.month of a column", lambda: ts["date"].dt.month
    yield "groupby a dt field", lambda: ts.groupby(ts["date"].dt.month)["v"].sum()
    yield "set_index(date).resample('W').sum()", lambda: ts.set_index("date")[["v"]] \
        .resample("W").sum()
    yield "resample('MS').mean()", lambda: ts.set_index("date")["v"].resample("MS").mean()
    yield "groupby(g).agg(lambda)", lambda: ts.groupby("g")["v"].agg(lambda x: x.max() - x.min())
    yield "groupby size().reset_index(name=)", lambda: ts.groupby("g").size() \
        .reset_index(name="n")
    yield "value_counts(normalize=True)", lambda: ts["g"].value_counts(normalize=True)
    yield "str.contains(na=False)", lambda: pd.Series(["ab", None, "cd"]).str.contains(
        "a", na=False)
    yield "astype('category') of a frame column", lambda: ts.astype({"g": "category"})
    yield "to_datetime(format=)", lambda: pd.to_datetime(
        pd.Series(["03/01/2021", "04/02/2021"]), format="%d/%m/%Y")
    yield "sort_values two keys", lambda: ts.sort_values(["g", "v"], ascending=[True, False])
    yield "merge how='left' on a key", lambda: ts.merge(
        pd.DataFrame({"g": ["a", "c"], "w": [1, 2]}), on="g", how="left")
    yield "concat axis=1 of Series", lambda: pd.concat([ts["v"], ts["g"]], axis=1)
    yield "cumsum().shift()", lambda: ts["v"].cumsum().shift()
    yield "pct_change of groups", lambda: ts.groupby("g")["v"].pct_change()


def _assign(df):
    df.loc[df["AAA"] >= 5, "BBB"] = -1
    return df


def _set(df, how):
    df.loc[df["a"] > 3, "b"] = 0.0
    return df


def _insert(df):
    df.insert(1, "new", [9, 8, 7, 6, 5])
    return df


SECTIONS = [basics_guide, indexing_guide, groupby_guide, merge_guide, reshaping_guide,
            time_series_guide, missing_data_guide, text_guide, windows_guide,
            categorical_guide, io_guide, cookbook]


if __name__ == "__main__":
    main(SECTIONS)
