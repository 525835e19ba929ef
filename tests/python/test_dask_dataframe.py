"""dask.dataframe with ember.frame partitions (ember.dask.dataframe): the
same programs with the 'ember' backend and with pandas give the same
frames, on each device, under dask's synchronous, threaded and
distributed schedulers."""
import numpy as np
import pandas as pd
import pandas.testing as tm
import pytest

import ember

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
edd = pytest.importorskip("ember.dask.dataframe")
import ember.frame as ef  # noqa: E402


def _data(n=400):
    rng = np.random.default_rng(7)
    return pd.DataFrame({"k": rng.integers(0, 9, n), "g": [f"g{i % 5}" for i in range(n)],
                         "x": rng.random(n), "y": rng.integers(-50, 50, n)})


def _pair(device, npartitions=4):
    pdf = _data()
    base = dd.from_pandas(pdf, npartitions=npartitions)
    return base, edd.EmberBackend.to_backend(base, device=device)


def _host(x):
    return x.to_pandas() if hasattr(x, "to_pandas") else x


def _same(got, want, sort=True):
    got = _host(got)
    if sort and isinstance(want, pd.DataFrame):
        got = got.sort_values(list(got.columns)).reset_index(drop=True)
        want = want.sort_values(list(want.columns)).reset_index(drop=True)
    elif sort and isinstance(want, pd.Series):
        got, want = got.sort_index(), want.sort_index()
    if isinstance(want, pd.DataFrame):
        tm.assert_frame_equal(got, want, check_dtype=False, check_index_type=False)
    elif isinstance(want, pd.Series):
        tm.assert_series_equal(got, want, check_dtype=False, check_index_type=False)
    else:
        assert got == pytest.approx(want)


@pytest.fixture(params=["sync", "threads"])
def scheduler(request):
    with dask.config.set(scheduler=request.param):
        yield request.param


CASES = {
    "sum": lambda d: d.x.sum(),
    "mean": lambda d: d.y.mean(),
    "len": lambda d: d.k.count(),
    "arith": lambda d: (d.x * 2 + d.y).rename("z"),
    "filter": lambda d: d[d.x > 0.5],
    "assign": lambda d: d.assign(z=d.x - d.y),
    "groupby_sum": lambda d: d.groupby("k").x.sum(),
    "groupby_str_mean": lambda d: d.groupby("g").y.mean(),
    "groupby_agg": lambda d: d.groupby("k").agg({"x": "sum", "y": "max"}),
    # var and std: partial sums under tuple column names, np.sqrt of a
    # partition, sums of squares grouped by grouping.keys, aligned by label
    "groupby_std": lambda d: d.groupby("k").x.std(),
    "groupby_var_frame": lambda d: d.groupby("g")[["x", "y"]].var(),
    "groupby_agg_var_std": lambda d: d.groupby("k").agg({"x": "var", "y": "std"}),
    "merge": lambda d: d.merge(d[["k", "y"]].rename(columns={"y": "y2"}), on="k"),
    "merge_str": lambda d: d[["g", "x"]].merge(d[["g", "y"]], on="g", npartitions=3),
    "merge_broadcast": lambda d: d.merge(d.groupby("g").y.max().rename("y2")
                                         .reset_index(), on="g", broadcast=True),
    # dask names the result's index with rename_axis when the sides' differ
    "merge_right_index": lambda d: d.merge(
        d.groupby("g").agg({"x": "sum", "y": "max"}).repartition(npartitions=1),
        left_on="g", right_index=True, suffixes=("_o", "_a")),
    "sort_values": lambda d: d.sort_values("x"),
    "set_index": lambda d: d.set_index("x"),
    # dask's boundaries of a string column: pd.array(values, dtype=<the
    # partition's dtype>), which takes an ember Dtype through its .dtype
    "set_index_str": lambda d: d.set_index("g"),
    "drop_duplicates": lambda d: d.drop_duplicates(subset=["k", "g"]),
    "nunique": lambda d: d.g.nunique(),
    "value_counts": lambda d: d.g.value_counts(),
    "max": lambda d: d[["x", "y"]].max(),
    "map_partitions": lambda d: d.map_partitions(lambda p: p.assign(w=p.x * 3)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_ops_equal_pandas(device, scheduler, case):
    base, ember_ddf = _pair(device)
    f = CASES[case]
    want = f(base).compute()
    got = f(ember_ddf).compute()
    if isinstance(got, (ef.DataFrame, ef.Series)):
        assert str(got.device if hasattr(got, "device") else
                   next(iter(got._cols.values())).device) == str(ember.Device(device))
    keep_order = case in ("sort_values", "set_index", "set_index_str")
    if keep_order:
        tm.assert_frame_equal(_host(got), want, check_dtype=False, check_index_type=False)
    else:
        _same(got, want)


def test_partitions_are_ember_on_device(device):
    _, e = _pair(device)
    parts = [p for p in dask.compute(*e.to_delayed(), scheduler="sync")]
    assert len(parts) == 4
    for p in parts:
        assert isinstance(p, ef.DataFrame)
        assert str(p._device()) == str(ember.Device(device))


def test_backend_config_and_readers(device, tmp_path):
    pdf = _data(3000)
    for i in range(3):
        pdf.iloc[i * 1000:(i + 1) * 1000].to_csv(tmp_path / f"p{i}.csv", index=False)
        pdf.iloc[i * 1000:(i + 1) * 1000].to_parquet(tmp_path / f"p{i}.parquet")
    with dask.config.set({"dataframe.backend": "ember", "scheduler": "sync"}):
        c = dd.read_csv(str(tmp_path / "p*.csv"), device=device)
        q = dd.read_parquet(str(tmp_path), device=device)
        # blocks cut inside the file, each read with the file's header
        small = dd.read_csv(str(tmp_path / "p0.csv"), blocksize=8000, device=device)
        fd = dd.from_dict({"a": [1, 2, 3, 4]}, npartitions=2, device=device)
        assert isinstance(c.partitions[0].compute(), ef.DataFrame)
        assert small.npartitions > 1
        got_c, got_q, got_s = dask.compute(c, q, small)
        assert isinstance(fd.compute(), ef.DataFrame)
    tm.assert_frame_equal(_host(got_c).reset_index(drop=True), pdf, check_dtype=False)
    tm.assert_frame_equal(_host(got_q).reset_index(drop=True), pdf, check_dtype=False)
    tm.assert_frame_equal(_host(got_s).reset_index(drop=True), pdf.iloc[:1000],
                          check_dtype=False)
    with pytest.raises(ValueError, match="index_col"):
        with dask.config.set({"dataframe.backend": "ember"}):
            dd.read_csv(str(tmp_path / "p*.csv"), index_col="k")


def test_hash_rows_agree_across_partitions(device):
    from ember.dask._hash import hash_rows
    pdf = _data(60)
    pdf.loc[3, "x"] = np.nan
    pdf.loc[4, "x"] = -0.0
    pdf.loc[5, "x"] = 0.0
    with ember.Device(device):
        whole = _host(hash_rows(ef.from_pandas(pdf), index=False)).to_numpy()
        parts = np.concatenate([_host(hash_rows(ef.from_pandas(pdf.iloc[a:a + 20]),
                                                index=False)).to_numpy()
                                for a in (0, 20, 40)])
    np.testing.assert_array_equal(whole, parts)
    # equal rows hash alike, different rows (almost surely) differ
    keys = pdf[["k", "g"]].astype(str).agg("-".join, axis=1).to_numpy()
    same = keys[:, None] == keys[None, :]
    hk = _host(hash_rows(ef.from_pandas(pdf[["k", "g"]], device=device),
                         index=False)).to_numpy()
    assert ((hk[:, None] == hk[None, :]) == same).all()
    assert whole[4] == whole[4] and whole.dtype == np.uint64
    # with the index, and of an index alone: still by value, partition-free
    with ember.Device(device):
        e = ef.from_pandas(pdf)
        wi = _host(hash_rows(e, index=True)).to_numpy()
        pi = np.concatenate([_host(hash_rows(ef.from_pandas(pdf.iloc[a:a + 30]),
                                             index=True)).to_numpy() for a in (0, 30)])
        ix = _host(hash_rows(e.index)).to_numpy()
    np.testing.assert_array_equal(wi, pi)
    assert not (wi == whole).all()
    assert len(set(ix.tolist())) == len(pdf)


def test_distributed_local_cluster(device):
    distributed = pytest.importorskip("distributed")
    base, e = _pair(device)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        got = client.compute(e.groupby("k").x.sum()).result()
    _same(got, base.groupby("k").x.sum().compute())


def test_cluster_processes_partitions_made_on_workers():
    distributed = pytest.importorskip("distributed")
    import ember.dask as ed
    pdf = _data(100)
    with ed.LocalCluster(n_workers=1, processes=True) as c, \
            distributed.Client(c) as client:
        # partitions made by ember.frame's own function on the worker (on
        # its current device): that process never imported this test module
        # or ember.dask.dataframe, whose dispatch its shuffle needs
        e = dd.from_map(ef.from_pandas, [pdf.iloc[i:i + 25] for i in range(0, 100, 25)],
                        meta=pdf.iloc[:0], enforce_metadata=False)
        got_sum = client.compute(e.groupby("k").x.sum()).result()
        got_merge = client.compute(
            e.merge(e[["k", "y"]].rename(columns={"y": "y2"}), on="k")).result()
        where = ed.worker_devices(client)
    want = dd.from_pandas(pdf, npartitions=4)
    _same(got_sum, want.groupby("k").x.sum().compute())
    _same(got_merge, want.merge(want[["k", "y"]].rename(columns={"y": "y2"}),
                                on="k").compute())
    assert isinstance(got_sum, ef.Series)
    dev, = {w["device"] for w in where.values()}
    assert str(got_sum.device) == dev


def test_frame_pieces_dask_relies_on(device):
    """What dask's groupby var/std does to partitions, against pandas:
    a frame of Series whose indexes differ (aligned on the sorted union),
    tuple and mixed column names, np.sqrt of a frame."""
    a = pd.Series([1.0, 2.0, 5.0], index=[3, 1, 2], name="a")
    b = pd.Series([3.0, 4.0], index=[1, 2], name="b")
    with ember.Device(device):
        for data in ({"a": a, "b": b}, {"a": a, "b": a.iloc[::-1]}):
            got = ef.DataFrame({k: ef.from_pandas(v) for k, v in data.items()})
            tm.assert_frame_equal(got.to_pandas(), pd.DataFrame(data),
                                  check_index_type=False)
        pdf = _data(20)[["x", "y"]]
        e = ef.from_pandas(pdf)
        mixed = ef.concat([e, e.rename(columns=lambda c: (c, "-x2"))], axis=1)
        assert list(mixed.columns) == ["x", "y", ("x", "-x2"), ("y", "-x2")]
        pairs = e.rename(columns=lambda c: (c, "n"))
        assert list(pairs.columns) == [("x", "n"), ("y", "n")]
        assert pairs.columns.nlevels == 2
        tm.assert_frame_equal(np.sqrt(e.abs()).to_pandas(), np.sqrt(pdf.abs()))
        tm.assert_series_equal(np.exp(e.x).to_pandas(), np.exp(pdf.x))
        tm.assert_series_equal(np.negative(e.y).to_pandas(), np.negative(pdf.y))


def test_tokens_hash_on_device(device, monkeypatch):
    """dask's tokens of ember partitions: equal for equal frames made
    apart, different when a value, the row order, a name or the index
    differs; computed without pickling the partition to the host."""
    from dask.base import tokenize
    pdf = _data(50)
    monkeypatch.setattr(ef.DataFrame, "__reduce_ex__", None, raising=False)
    with ember.Device(device):
        a, b = ef.from_pandas(pdf), ef.from_pandas(pdf.copy())
        changed = pdf.copy()
        changed.loc[7, "x"] += 1e-9
        assert tokenize(a) == tokenize(b)
        others = [ef.from_pandas(changed), ef.from_pandas(pdf.iloc[::-1]),
                  ef.from_pandas(pdf.rename(columns={"x": "x2"})),
                  ef.from_pandas(pdf.set_axis(pdf.index + 1)),
                  ef.from_pandas(pdf.iloc[:49])]
        assert len({tokenize(o) for o in others} | {tokenize(a)}) == len(others) + 1
        assert tokenize(a.x) == tokenize(b.x) != tokenize(a.y)
        assert tokenize(a.index) == tokenize(b.index)
        g = ef.from_pandas(pdf.set_index(["k", "g"]))   # a MultiIndex: via pandas
        assert tokenize(g) == tokenize(ef.from_pandas(pdf.set_index(["k", "g"])))


def _times(n=300):
    rng = np.random.default_rng(5)
    return pd.DataFrame({"t": pd.date_range("2024-01-01", periods=n, freq="37min"),
                         "v": rng.random(n), "w": rng.integers(0, 9, n)}).set_index("t")


@pytest.mark.parametrize("case", ["sum", "mean", "count"])
def test_resample_equal_pandas(device, scheduler, case):
    base = dd.from_pandas(_times(), npartitions=4)
    e = edd.EmberBackend.to_backend(base, device=device)
    f = {"sum": lambda d: d.v.resample("1D").sum(),
         "mean": lambda d: d.resample("6h").mean(),
         "count": lambda d: d.w.resample("4h").count()}[case]
    want, got = f(base).compute(), _host(f(e).compute())
    # pandas' result carries the index's freq hint, which ember does not keep
    if isinstance(want, pd.Series):
        tm.assert_series_equal(got, want, check_freq=False, check_dtype=False)
    else:
        tm.assert_frame_equal(got, want, check_freq=False, check_dtype=False)


def test_frame_pieces_resample_relies_on(device):
    """What dask's resample does to partitions, against pandas: index
    monotonicity and slice bounds, Series.reindex and DataFrame.reindex
    with fill_value, isin of instants given in another unit."""
    t = _times(40)
    idx = [t.index, t.index[::-1], pd.Index([3, 1, 2]), pd.Index([1, 2, 2, 5]),
           pd.Index(["a", "b", "b"]), pd.Index(["b", "a"]), pd.RangeIndex(4),
           pd.Index([1.0, np.nan, 2.0]), pd.Index([], dtype="int64")]
    with ember.Device(device):
        for p in idx:
            e = ef.from_pandas(p)
            assert e.is_monotonic_increasing == p.is_monotonic_increasing, p
            assert e.is_monotonic_decreasing == p.is_monotonic_decreasing, p
        e = ef.from_pandas(t)
        for label in (t.index[5], t.index[5] + pd.Timedelta("1min"), t.index[0],
                      pd.Timestamp("2023-12-31"), pd.Timestamp("2030-01-01")):
            for side in ("left", "right"):
                assert e.index.get_slice_bound(label, side) == \
                    t.index.get_slice_bound(label, side)
        n = ef.from_pandas(pd.Series([1, 2, 2, 5], index=[10, 20, 30, 40]))
        assert n.index.get_slice_bound(25, "left") == 2
        target = pd.date_range("2023-12-31 22:00", periods=12, freq="2h", unit="us")
        for fill in (None, 0, np.nan):
            tm.assert_series_equal(e.w.reindex(target, fill_value=fill).to_pandas(),
                                   t.w.reindex(target, fill_value=fill),
                                   check_freq=False)
            tm.assert_frame_equal(e.reindex(target, fill_value=fill).to_pandas(),
                                  t.reindex(target, fill_value=fill), check_freq=False)
        for unit in ("s", "ms", "us", "ns"):
            other = t.index[::3].as_unit(unit)
            np.testing.assert_array_equal(ember.asnumpy(e.index.isin(other)),
                                          t.index.isin(other))
        late = t.index.as_unit("ns") + pd.Timedelta("1ns")   # not a us instant
        assert not ember.asnumpy(e.index.isin(late)).any()


def test_to_parquet_of_ember_partitions(device, tmp_path):
    # dask's pyarrow engine hands each partition to pa.Table.from_pandas,
    # which reads a frame's attrs and its index dtype's .type
    base, e = _pair(device, npartitions=3)
    with dask.config.set(scheduler="sync"):
        e.to_parquet(str(tmp_path / "e"), engine="pyarrow")
        base.to_parquet(str(tmp_path / "p"), engine="pyarrow")
    got = pd.read_parquet(tmp_path / "e").sort_index()
    want = pd.read_parquet(tmp_path / "p").sort_index()
    tm.assert_frame_equal(got, want, check_dtype=False)
    back = dd.read_parquet(str(tmp_path / "e"), engine="pyarrow", device=device)
    _same(back.compute(), want.reset_index(drop=True))
    # the label to_parquet gives an unnamed index (here one held as a
    # column, not a range) comes off, as in dask's own read_parquet
    with dask.config.set(scheduler="sync"):
        e.set_index("y", drop=False).rename_axis(None).to_parquet(
            str(tmp_path / "e2"), engine="pyarrow")
    with dask.config.set({"dataframe.backend": "ember"}):
        back = dd.read_parquet(str(tmp_path / "e2"), engine="pyarrow", device=device)
    with dask.config.set({"dataframe.backend": "pandas"}):
        pandas_back = dd.read_parquet(str(tmp_path / "e2"), engine="pyarrow")
    assert pandas_back.compute().index.name is None
    assert back._meta.index.name is None and back.compute().index.name is None


def test_dask_cudf_spellings(device, tmp_path):
    """A dask_cudf program after `import ember.dask.dataframe as dask_cudf`
    (cuDF's "10 minutes" notebook): from_cudf of a Series and a DataFrame,
    concat, read_csv and read_parquet give ember partitions with pandas'
    values."""
    pdf = _data(300)
    df = ef.from_pandas(pdf, device=device)
    with dask.config.set(scheduler="sync"):
        d = edd.from_cudf(df, npartitions=3)
        assert d.npartitions == 3
        assert isinstance(d.partitions[0].compute(), ef.DataFrame)
        _same(d.compute(), pdf, sort=False)
        s = edd.from_ember(df["x"], npartitions=2)
        _same(s.head(n=4, npartitions=2), pdf["x"].head(4), sort=False)
        _same(edd.concat([s, s]).compute(), pd.concat([pdf["x"], pdf["x"]]), sort=False)
        pdf.to_csv(tmp_path / "a.csv", index=False)
        pdf.to_parquet(tmp_path / "a.parquet")
        c = edd.read_csv(str(tmp_path / "a.csv"), device=device)
        q = edd.read_parquet(str(tmp_path / "a.parquet"), device=device)
        assert isinstance(c.partitions[0].compute(), ef.DataFrame)
        _same(c.compute().reset_index(drop=True), pdf, sort=False)
        _same(q.compute().reset_index(drop=True), pdf, sort=False)
    with pytest.raises(TypeError):
        edd.from_cudf(df, npartitions=2, chunks=3)
