"""ember.frame under dask.dataframe: partitions are ember DataFrames (on
the worker's device), dask's meta stays pandas.

Dask infers every result's columns and dtypes by running the operation on
its meta, a small pandas frame, on the host; the work itself runs on the
partitions. ember.frame gives pandas' dtypes and column names, so a pandas
meta describes ember partitions exactly, and dask's inference needs no
device. What dask does to partitions goes through the dispatch functions
registered here: concatenation, hashing rows for a shuffle, splitting a
partition by target, conversion to and from pandas.

Importing this module registers them, and `dask.config.set({
"dataframe.backend": "ember"})` (found through the package's entry point)
makes dd.from_dict, dd.read_csv and dd.read_parquet produce ember
partitions; `ddf.to_backend("ember")` moves a pandas-backed collection."""
import numpy as np
import pandas as pd

from dask.array.dispatch import percentile_lookup
from dask.dataframe import dispatch as _d
from dask.dataframe.backends import DataFrameBackendEntrypoint
from dask.sizeof import sizeof
from dask.tokenize import normalize_token

import ember
import ember.frame as ef
from ember.dask._sizeof import register as _register_sizeof
from ember.frame._index import Index, RangeIndex

_register_sizeof(sizeof)

_FRAMES = (ef.DataFrame, ef.Series)
_INDEXES = (Index, RangeIndex)
_ALL = _FRAMES + _INDEXES


def _device():
    """The device partitions go to: the thread's current device (a worker
    of ember.dask.LocalCluster sets its GPU)."""
    return ember.get_device()


def _dev(obj):
    """The device of an ember partition (the current one for a frame with
    no column or a RangeIndex, which hold no device memory)."""
    d = obj._device() if hasattr(obj, "_cols") else \
        obj._col.device if hasattr(obj, "_col") else None
    return d if d is not None else _device()


def to_ember(obj, device=None):
    """A pandas partition as ember.frame's, on device (default: current)."""
    if isinstance(obj, _ALL):
        return obj
    return ef.from_pandas(obj, device=_device() if device is None else device)


def _to_pandas(obj, **kw):
    return obj.to_pandas() if isinstance(obj, _ALL) else obj


@_d.get_parallel_type.register(ef.DataFrame)
def _parallel_frame(_):
    from dask.dataframe.dask_expr._collection import DataFrame
    return DataFrame


@_d.get_parallel_type.register(ef.Series)
def _parallel_series(_):
    from dask.dataframe.dask_expr._collection import Series
    return Series


@_d.get_parallel_type.register(_INDEXES)
def _parallel_index(_):
    from dask.dataframe.dask_expr._collection import Index as DIndex
    return DIndex


@_d.make_meta_dispatch.register(_FRAMES)
def _meta_frame(x, index=None):
    return x.iloc[:0].to_pandas()


@_d.make_meta_dispatch.register(_INDEXES)
def _meta_index(x, index=None):
    return x[:0].to_pandas()


@_d.concat_dispatch.register(_ALL)
def _concat(dfs, axis=0, join="outer", uniform=False, filter_warning=True,
            ignore_index=False, **kwargs):
    dev = next((_dev(d) for d in dfs if isinstance(d, _ALL)), None)
    dfs = [to_ember(d, dev) for d in dfs]
    if isinstance(dfs[0], _INDEXES):
        return dfs[0].append(dfs[1:])
    return ef.concat(dfs, axis=axis, join=join, ignore_index=ignore_index)


@_d.to_pandas_dispatch.register(_ALL)
def _to_pandas_dispatch(data, **kwargs):
    return _to_pandas(data)


@_d.tolist_dispatch.register(_ALL)
def _tolist(obj):
    return obj.to_pandas().tolist()


@_d.is_categorical_dtype_dispatch.register(_ALL)
def _is_categorical(obj):
    return obj.dtype.is_categorical if hasattr(obj, "dtype") else False


@_d.hash_object_dispatch.register(_ALL)
def _hash_object(obj, index=True, encoding="utf8", hash_key=None,
                 categorize=True):
    from ember.dask._hash import hash_rows
    return hash_rows(obj, index)


@normalize_token.register(_ALL)
def _tokenize(obj):
    """dask's token of a partition (what it names tasks by, and what it
    recomputes for every new expression over persisted data): the type,
    names, dtypes, length and a digest hashed on the device. Without it
    dask pickles the partition, copying it to the host and hashing every
    byte there."""
    from ember.dask._hash import digest
    try:
        d = digest(obj)
    except (NotImplementedError, TypeError, AttributeError):   # a MultiIndex
        return normalize_token(obj.to_pandas())
    if isinstance(obj, _INDEXES):
        names = [obj.name]
        dtypes = [str(obj.dtype)]
    elif hasattr(obj, "_cols"):
        names = list(obj._cols)
        dtypes = [str(c.dtype) for c in obj._cols.values()]
    else:
        names = [obj.name]
        dtypes = [str(obj._col.dtype)]
    index_name = None if isinstance(obj, _INDEXES) else obj.index.name
    return (type(obj).__name__, normalize_token(names), dtypes,
            normalize_token(index_name), len(obj)) + d


@percentile_lookup.register((ef.Series,) + _INDEXES)
def _percentile(a, q, interpolation="linear"):
    """Quantiles of a partition's non-null numbers for dask's partition
    boundaries and describe(): computed on the device, the few results
    returned to the host as dask merges them there."""
    s = a if isinstance(a, ef.Series) else ef.Series(a)
    col = s._col
    if not (col.dtype.is_numeric or col.dtype.kind in "Mm"):
        raise NotImplementedError(f"quantiles of a {col.dtype.name} column under "
                                  "dask (sort_values or set_index by it)")
    n = len(s)
    v = s.dropna()._col.values
    if not n or not len(v):
        return None, n
    if col.dtype.kind in "Mm":
        got = ember.percentile(v.astype("int64"), list(q), method="nearest")
        return ember.asnumpy(got).astype(f"{col.dtype.name}"), n
    return ember.asnumpy(ember.percentile(v, list(q), method=interpolation)), n


@_d.group_split_dispatch.register(_FRAMES)
def _group_split(df, c, k, ignore_index=False):
    """{i: the rows of df whose c is i} for i < k, rows in order: one
    stable sort of c, then k slices."""
    from dask.dataframe.backends import ShuffleGroupResult
    dev = _dev(df)
    c = ember.asarray(np.asarray(c) if not isinstance(c, ember.ndarray) else c,
                      device=dev)
    order = ember.argsort(c, kind="stable")
    counts = ember.asnumpy(ember.bincount(c, minlength=k))
    starts = np.concatenate([[0], np.cumsum(counts)])
    part = df.iloc[order]
    if ignore_index:
        part = part.reset_index(drop=True)
    return ShuffleGroupResult(zip(range(k), [part.iloc[int(starts[i]):int(starts[i + 1])]
                                             for i in range(k)]))


def _use_task_shuffle():
    """dask's shuffles by default spill partitions to disk through partd
    (the synchronous and threaded schedulers) or move them as Arrow tables
    (p2p, distributed), both of which would take ember partitions off the
    device; its task-based shuffle (hash, split, concat, all registered
    above) keeps them there. Set unless the user chose a method."""
    import dask
    if dask.config.get("dataframe.shuffle.method", None) is None:
        dask.config.set({"dataframe.shuffle.method": "tasks"})


_use_task_shuffle()


class EmberBackend(DataFrameBackendEntrypoint):
    """dask.dataframe's creation functions with ember partitions (the
    'ember' dataframe backend)."""

    @classmethod
    def to_backend(cls, data, **kwargs):
        return data.map_partitions(to_ember, meta=data._meta,
                                   device=kwargs.get("device"))

    @staticmethod
    def from_dict(data, *, npartitions, orient="columns", device=None, **kwargs):
        import dask.dataframe as dd
        pdf = pd.DataFrame.from_dict(data, orient=orient, **kwargs)
        return EmberBackend.to_backend(dd.from_pandas(pdf, npartitions=npartitions),
                                       device=device)

    @staticmethod
    def read_csv(urlpath, **kwargs):
        from ember.dask._io import read_csv
        return read_csv(urlpath, **kwargs)

    @staticmethod
    def read_parquet(path, **kwargs):
        from ember.dask._io import read_parquet
        return read_parquet(path, **kwargs)


def from_ember(data, npartitions=None, chunksize=None, sort=True):
    """An ember DataFrame or Series cut into a dask collection of
    `npartitions` (or `chunksize`-row) ember partitions, dask_cudf's
    from_cudf; dask's from_pandas does the cutting."""
    import dask.dataframe as dd
    return dd.from_pandas(data, npartitions=npartitions, chunksize=chunksize,
                          sort=sort)


# dask_cudf's spellings, so a dask_cudf program runs after its import
# line becomes `import ember.dask.dataframe as dask_cudf`
from_cudf = from_ember


def read_csv(urlpath, **kwargs):
    """dd.read_csv with ember partitions (EmberBackend.read_csv)."""
    return EmberBackend.read_csv(urlpath, **kwargs)


def read_parquet(path, **kwargs):
    """dd.read_parquet with ember partitions, one a file."""
    return EmberBackend.read_parquet(path, **kwargs)


def concat(dfs, **kwargs):
    """dd.concat of collections of ember partitions."""
    import dask.dataframe as dd
    return dd.concat(dfs, **kwargs)


def _register_backend():
    """The 'ember' name in both of dask's dataframe creation dispatchers
    (dask-expr's, which dd.read_csv and friends use, and the legacy one),
    for a program that imported this module before setting the backend."""
    from dask.dataframe.backends import dataframe_creation_dispatch as legacy
    from dask.dataframe.dask_expr._backends import dataframe_creation_dispatch
    for d in (dataframe_creation_dispatch, legacy):
        d.register_backend("ember", EmberBackend())


_register_backend()
