"""How read_parquet's time splits, on the file bench/frames.py reads (10^7
rows of id1, id2, v1, v2 at full size): pyarrow's decode by its two
readers, and each way ember can take the decoded columns to a device.

  read_table          pq.read_table (the dataset scanner): 128Ki-row chunks
  ParquetFile.read    pq.ParquetFile(...).read(): one chunk a column,
                      decoded a column a thread
  table then copy     read_table, then from_arrow (the chunks of a column
                      by one staged copy)
  file then copy      ParquetFile.read, then from_arrow (on cpu nothing is
                      copied: the columns are shared)
  ember.read_parquet  one (row group, number column) a task on a thread,
                      each piece copied as it finishes
                      (frame/_io_parquet.py)

Medians of --reps runs, interleaved so that load on the machine falls on
every row alike; ms.
    python bench/parquet_paths.py --devices cuda:0,cpu"""
import argparse
import os
import statistics
import tempfile
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log10n", type=float, default=7)
    ap.add_argument("--devices", default="cuda:0,cpu")
    ap.add_argument("--reps", type=int, default=7)
    args = ap.parse_args()
    import ember
    import pyarrow as pa
    import pyarrow.parquet as pq
    from ember.frame._arrow import from_arrow
    n = int(10 ** args.log10n)
    rng = np.random.default_rng(0)
    cols = {"id1": rng.integers(0, 1000, n), "id2": rng.integers(0, max(n // 10, 1), n),
            "v1": rng.random(n), "v2": rng.random(n)}
    path = os.path.join(tempfile.mkdtemp(prefix="ember-parquet-"), "t.parquet")
    pq.write_table(pa.table(cols), path)

    cases = {"read_table": lambda: pq.read_table(path),
             "ParquetFile.read": lambda: pq.ParquetFile(path).read()}
    syncs = {}
    for d in [d for d in args.devices.split(",") if d]:
        sync = ember.Device(d).synchronize
        cases[f"table then copy, {d}"] = lambda d=d: from_arrow(pq.read_table(path), d)
        cases[f"file then copy, {d}"] = lambda d=d: from_arrow(pq.ParquetFile(path).read(), d)
        cases[f"ember.read_parquet, {d}"] = lambda d=d: ember.read_parquet(path, device=d)
        for k in list(cases)[-3:]:
            syncs[k] = sync
    want = pq.read_table(path).to_pandas()
    for k, fn in cases.items():   # warm-up, and every path gives the file's values
        got = fn()
        if hasattr(got, "to_pandas") and not got.to_pandas().equals(want):
            raise AssertionError(f"{k}: the frame differs from the file")
    times = {k: [] for k in cases}
    for _ in range(args.reps):
        for k, fn in cases.items():
            t = time.perf_counter()
            fn()
            if k in syncs:
                syncs[k]()
            times[k].append((time.perf_counter() - t) * 1e3)
    print(f"read_parquet of {n:.0e} rows ({os.path.getsize(path) / 1e6:.0f} MB "
          f"on disk), {os.cpu_count()} cores, median of {args.reps}")
    print("| path | ms |\n|---|---|")
    for k, v in times.items():
        print(f"| {k} | {statistics.median(v):.1f} |")


if __name__ == "__main__":
    main()
