"""ember.frame (issue 22) against pandas, pyarrow and DuckDB on the issue's
work, in ms per call: columns id1 (1,000 distinct int64), id2 (n/10
distinct int64), v1, v2 (float64).

usage: python bench/frames.py [--out FILE] [--only SUBSTRING] [--log10n 8]
                              [--devices cuda:0,cpu] [--pandas-max 1e8]
       python bench/frames.py --devices cpu --log10n 5   (a check)
       python bench/frames.py --devices cpu --log10n 6
           --only value_counts,drop_duplicates,nlargest   (cpu rows; one line)

ember is timed on each of --devices (wall clock around the call and a
device synchronize, median of 3 after one warm-up; on cpu one call after
the warm-up above 10^7 rows, else the median of 5); pandas the same way
as ember on cpu (its calls take seconds at full size; --pandas-max skips
it above that many rows); pyarrow and DuckDB, on all the host's cores, median of 3.
Results are materialised by every library (DuckDB to Arrow). The CSV
and Parquet files hold n/10 rows (10^7 at full size), written once by
pyarrow into a temporary directory that stays in the page cache."""
import argparse
import os
import statistics
import tempfile
import time

import numpy as np


def timed(fn, reps, sync=None):
    fn()
    if sync:
        sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        if sync:
            sync()
        ts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ts)


def cell(fn):
    try:
        return fn()
    except Exception as e:   # a peer or an ember call that cannot run says why
        return f"n/a ({type(e).__name__}: {str(e)[:60]})"


def fmt(v):
    return v if isinstance(v, str) else f"{v:,.1f}" if v >= 10 else f"{v:.2f}"


def ratio(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return ""
    return f"{a / b:.3g}"


def emit(lines, row, out):
    """Add a table row, print it, and rewrite `out` with the table so far:
    a run cut off by a time limit keeps its rows."""
    lines.append("| " + " | ".join(row) + " |")
    print(lines[-1], flush=True)
    if out:
        with open(out, "w") as f:
            f.write("\n".join(lines) + "\n")


def make_data(n):
    rng = np.random.default_rng(0)
    return {"id1": rng.integers(0, 1000, n), "id2": rng.integers(0, max(n // 10, 1), n),
            "v1": rng.random(n), "v2": rng.random(n)}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out")
    ap.add_argument("--only")
    ap.add_argument("--log10n", type=float, default=8)
    ap.add_argument("--devices", default="cuda:0,cpu")
    ap.add_argument("--pandas-max", type=float, default=1e8)
    args = ap.parse_args()
    n = int(10 ** args.log10n)
    m = max(n // 10, 1)
    few = 1 if n > 10 ** 7 else 5   # cpu calls and pandas': median of 5 up to 10^7 rows
    import ember
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq
    try:
        import duckdb
        con = duckdb.connect()
        con.execute(f"PRAGMA threads={os.cpu_count()}")
    except ImportError:
        duckdb = con = None

    cols = make_data(n)
    right = {"id2": np.random.default_rng(1).permutation(m).astype(np.int64),
             "w": np.random.default_rng(2).random(m)}
    pdf, pright = pd.DataFrame(cols), pd.DataFrame(right)
    at, aright = pa.table(cols), pa.table(right)
    small = {k: v[:m] for k, v in cols.items()}
    tmp = tempfile.mkdtemp(prefix="ember-frames-")
    csv, parquet = os.path.join(tmp, "t.csv"), os.path.join(tmp, "t.parquet")
    pacsv.write_csv(pa.table(small), csv)
    pq.write_table(pa.table(small), parquet)
    mb = os.path.getsize(csv) / 1e6
    if con is not None:
        con.register("t", at)
        con.register("r", aright)

    devices = [d for d in args.devices.split(",") if d]
    frames = {}
    for d in devices:
        frames[d] = cell(lambda d=d: (ember.DataFrame(cols, device=d),
                                      ember.DataFrame(right, device=d),
                                      ember.Device(d).synchronize))

    def ember_case(d, op):
        f = frames[d]
        if isinstance(f, str):
            return f
        df, dr, sync = f
        # a cpu call at full size takes seconds: one after the warm-up
        return cell(lambda: timed(lambda: op(df, dr, d), few if d == "cpu" else 3, sync))

    def duck(sql):
        if con is None:
            return "n/a (duckdb not installed)"
        # a relation's Arrow table: a DB-API result's copies the rows once
        # more (DuckDB's own warning); runs before 2026-11-29 05:00 paid it
        return cell(lambda: timed(lambda: con.sql(sql).to_arrow_table(), 3))

    def pandas(fn):
        if n > args.pandas_max:
            return f"skipped (n > {args.pandas_max:.0e})"
        return cell(lambda: timed(fn, few))

    cases = [
        (f"groupby id1, sum v1; {n:.0e} rows",
         lambda df, dr, d: df.groupby("id1")["v1"].sum(),
         lambda: pdf.groupby("id1")["v1"].sum(),
         lambda: cell(lambda: timed(lambda: at.group_by("id1").aggregate([("v1", "sum")]), 3)),
         "SELECT id1, sum(v1) FROM t GROUP BY id1"),
        (f"groupby id2 ({m:.0e} groups), sum v1, mean v2; {n:.0e} rows",
         lambda df, dr, d: df.groupby("id2").agg({"v1": "sum", "v2": "mean"}),
         lambda: pdf.groupby("id2").agg({"v1": "sum", "v2": "mean"}),
         lambda: cell(lambda: timed(lambda: at.group_by("id2").aggregate(
             [("v1", "sum"), ("v2", "mean")]), 3)),
         "SELECT id2, sum(v1), avg(v2) FROM t GROUP BY id2"),
        (f"inner join {n:.0e} x {m:.0e} rows on id2",
         lambda df, dr, d: df.merge(dr, on="id2"),
         lambda: pdf.merge(pright, on="id2"),
         lambda: cell(lambda: timed(lambda: at.join(aright, "id2"), 3)),
         "SELECT * FROM t JOIN r USING (id2)"),
        (f"sort_values v1, {n:.0e} rows",
         lambda df, dr, d: df.sort_values("v1"),
         lambda: pdf.sort_values("v1"),
         lambda: cell(lambda: timed(lambda: at.sort_by("v1"), 3)),
         "SELECT * FROM t ORDER BY v1"),
        (f"read_csv {m:.0e} rows ({mb:.0f} MB)",
         lambda df, dr, d: ember.read_csv(csv, device=d),
         lambda: pd.read_csv(csv),
         lambda: cell(lambda: timed(lambda: pacsv.read_csv(csv), 3)),
         f"SELECT * FROM read_csv('{csv}')"),
        (f"read_parquet {m:.0e} rows",
         lambda df, dr, d: ember.read_parquet(parquet, device=d),
         lambda: pd.read_parquet(parquet),
         lambda: cell(lambda: timed(lambda: pq.read_table(parquet), 3)),
         f"SELECT * FROM read_parquet('{parquet}')"),
        (f"rolling(100).mean, {m:.0e} rows",
         lambda df, dr, d: df.head(m)["v1"].rolling(100).mean(),
         lambda: pdf["v1"].iloc[:m].rolling(100).mean(),
         lambda: "n/a (no such call)",
         None),
        # pandas hashes these, or selects (nlargest); DuckDB's plans are
        # its nearest equivalents, not the same result order
        (f"value_counts id2, {n:.0e} rows",
         lambda df, dr, d: df["id2"].value_counts(),
         lambda: pdf["id2"].value_counts(),
         lambda: cell(lambda: timed(lambda: pc.value_counts(at["id2"]), 3)),
         "SELECT id2, count(*) AS c FROM t GROUP BY id2 ORDER BY c DESC"),
        (f"drop_duplicates id1, {n:.0e} rows",
         lambda df, dr, d: df.drop_duplicates(["id1"]),
         lambda: pdf.drop_duplicates(["id1"]),
         lambda: "n/a (no such call)",
         "SELECT DISTINCT ON (id1) * FROM t"),
        (f"nlargest(5, v1), {n:.0e} rows",
         lambda df, dr, d: df.nlargest(5, "v1"),
         lambda: pdf.nlargest(5, "v1"),
         lambda: cell(lambda: timed(lambda: pc.take(at, pc.select_k_unstable(
             at, 5, [("v1", "descending")])), 3)),
         "SELECT * FROM t ORDER BY v1 DESC LIMIT 5"),
    ]
    head = ["work"] + [f"ember {d}" for d in devices] + ["pandas", "pyarrow", "DuckDB"]
    head += [f"ember {devices[0]} / DuckDB", f"ember {devices[0]} / pandas"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, op, pd_fn, pa_fn, sql in cases:
        if args.only and not any(o in name for o in args.only.split(",")):
            continue
        print(name, flush=True)
        es = [ember_case(d, op) for d in devices]
        p = pandas(pd_fn)
        a = pa_fn()
        k = duck(sql) if sql else "n/a (no such call)"
        row = [name] + [fmt(e) for e in es] + [fmt(p), fmt(a), fmt(k),
                                              ratio(es[0], k), ratio(es[0], p)]
        emit(lines, row, args.out)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
