"""Issue 26's scaling table, in ms per call: dask.dataframe on ember
partitions (the 'ember' backend) against dask on pandas partitions on the
host's cores, on the same data and partitions.

usage: python bench/scale.py [--out FILE] [--log10n 7.3] [--parts 8]
                             [--device cuda:0]
       python bench/scale.py --device cpu --log10n 5   (a check)

Columns id1 (1,000 distinct int64), id2 (n/10 distinct), v1, v2 (float64),
as bench/frames.py's, cut into --parts partitions; the join's right side
has n/10 rows. Each case is timed around .compute() (which returns one
frame), median of 3 after a warm-up. ember's partitions are made on
--device before timing, as a dataset already in GPU memory; pandas'
partitions are in host memory and run on dask's threaded scheduler."""
import argparse

import _frames_mod  # noqa: E402  (first: it takes bench/ off sys.path)

F = _frames_mod.load()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--log10n", type=float, default=7.3)
    ap.add_argument("--parts", type=int, default=8)
    ap.add_argument("--device", default="cuda:0")
    args = ap.parse_args()
    import dask
    import dask.dataframe as dd
    import pandas as pd

    import ember
    import ember.dask.dataframe as edd
    n = int(10 ** args.log10n)
    cols = F.make_data(n)
    rng = __import__("numpy").random.default_rng(1)
    right = pd.DataFrame({"id2": rng.permutation(max(n // 10, 1)), "w": rng.random(max(n // 10, 1))})
    pdf = dd.from_pandas(pd.DataFrame(cols), npartitions=args.parts).persist(scheduler="sync")
    pr = dd.from_pandas(right, npartitions=max(args.parts // 4, 1)).persist(scheduler="sync")
    dev = ember.Device(args.device)
    edf = edd.EmberBackend.to_backend(pdf, device=args.device).persist(scheduler="sync")
    er = edd.EmberBackend.to_backend(pr, device=args.device).persist(scheduler="sync")
    lines = [f"| case ({n:.1e} rows, {args.parts} partitions) | dask + ember {args.device} ms "
             "| dask + pandas ms | pandas / ember |", "|---|---|---|---|"]
    cases = [("groupby id1, sum v1", lambda d, r: d.groupby("id1").v1.sum()),
             ("groupby id2, sum v1, mean v2",
              lambda d, r: d.groupby("id2").agg({"v1": "sum", "v2": "mean"})),
             ("join on id2 (n/10 right rows)", lambda d, r: d.merge(r, on="id2")),
             ("sum v1 * v2", lambda d, r: (d.v1 * d.v2).sum())]
    for name, f in cases:
        with dask.config.set(scheduler="threads"):
            e = F.cell(lambda: F.timed(lambda: f(edf, er).compute(), 3, dev.synchronize))
            p = F.cell(lambda: F.timed(lambda: f(pdf, pr).compute(), 3))
        F.emit(lines, [name, F.fmt(e), F.fmt(p), F.ratio(p, e)], args.out)


if __name__ == "__main__":
    main()
