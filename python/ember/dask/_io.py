"""dd.read_csv and dd.read_parquet for the 'ember' backend: dask cuts the
input (byte ranges of CSV files at line ends, Parquet files), each task
parses its piece with ember's reader on its worker's device, and pandas
reads a sample on the host for dask's meta."""
import io

import pandas as pd


def _parse_csv(block, header, kwargs, dtype, device):
    import ember.frame as ef
    return ef.read_csv(io.BytesIO(header + block), dtype=dtype or None,
                       device=device, **kwargs)


def read_csv(urlpath, blocksize="default", sample=256_000, storage_options=None,
             device=None, **kwargs):
    """Blocks of about blocksize bytes (dask's default 64 MiB; None: one a
    file), each parsed on `device` (None: the worker's current device)
    with the columns' dtypes that pandas infers from the first `sample`
    bytes, so every partition agrees."""
    import dask
    import dask.dataframe as dd
    from dask.bytes import read_bytes
    for bad in ("index_col", "chunksize", "iterator", "skipfooter"):
        if kwargs.get(bad) not in (None, False):
            raise ValueError(f"dd.read_csv with the ember backend: {bad}= is not "
                             "supported")
    if blocksize == "default":
        blocksize = 64 * 2 ** 20
    sample_bytes, blocks = read_bytes(urlpath, delimiter=b"\n", blocksize=blocksize,
                                      sample=sample, **(storage_options or {}))
    head = pd.read_csv(io.BytesIO(sample_bytes), **kwargs)
    meta = head.iloc[:0]
    # numbers, bools and dates keep the sample's dtypes; strings read as str
    dtype = {c: str(t) for c, t in head.dtypes.items()
             if t.kind in "biufmM" and c not in (kwargs.get("parse_dates") or ())}
    header = b""
    if kwargs.get("header", "infer") is not None and kwargs.get("names") is None:
        header = sample_bytes.split(b"\n", 1)[0] + b"\n"
    parts = []
    for file_blocks in blocks:
        for i, b in enumerate(file_blocks):
            # a file's first block has its own header line
            parts.append(dask.delayed(_parse_csv)(b, header if i else b"", kwargs,
                                                  dtype, device))
    return dd.from_delayed(parts, meta=meta, verify_meta=False)


# the name dask's to_parquet gives an index that had none; its own
# read_parquet takes it off again
_NONE_LABEL = "__null_dask_index__"


def _unlabel(df):
    if df.index.name == _NONE_LABEL:
        df.index.name = None
    return df


def _read_parquet_file(path, columns, device):
    import ember.frame as ef
    return _unlabel(ef.read_parquet(path, columns=columns, device=device))


def read_parquet(path, columns=None, device=None, **kwargs):
    """One partition a file (a directory or glob names several), read on
    `device` (None: the worker's current device)."""
    import glob
    import os

    import dask.dataframe as dd
    import pyarrow.parquet as pq
    # pyarrow decodes the files whatever engine= says ("pyarrow", "auto":
    # the only engines dask has left)
    if kwargs.pop("engine", "pyarrow") not in ("pyarrow", "auto"):
        raise NotImplementedError("dd.read_parquet with the ember backend reads "
                                  "through pyarrow: engine='pyarrow'")
    if kwargs:
        raise NotImplementedError("dd.read_parquet with the ember backend: "
                                  + ", ".join(sorted(kwargs)))
    paths = path if isinstance(path, (list, tuple)) else [path]
    files = []
    for p in paths:
        p = os.fspath(p)
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "*.parquet")))
        elif any(ch in p for ch in "*?["):
            files += sorted(glob.glob(p))
        else:
            files.append(p)
    if not files:
        raise FileNotFoundError(f"no Parquet files at {path!r}")
    meta = _unlabel(pq.read_schema(files[0]).empty_table().to_pandas())
    if columns is not None:
        meta = meta[list(columns)]
    return dd.from_map(_read_parquet_file, files, columns=columns, device=device,
                       meta=meta, enforce_metadata=False)
