"""Issue 26's Dask dataframe rows, in ms per call: groupby-sum, a join and
a reduction on ember partitions over every visible GPU
(ember.dask.LocalCluster, one worker per GPU) against one GPU on 1/N of
the data (weak scaling: N * t1 / tN, target >= 3 on 4 GPUs) and against
dask with pandas partitions on the host's cores on the same full data
(dask's threaded scheduler, target >= 10x).

usage: python bench/scale.py [--out FILE] [--log10n-per-gpu 7.3]
                             [--parts-per-gpu 4] [--workers N]
       python bench/scale.py --log10n-per-gpu 4 --workers 2   (a check, no
                             GPU: cpu workers)

Columns id1 (1,000 distinct int64), id2 (n/10 distinct), v1, v2
(float64), as bench/frames.py's, with n the rows of the whole frame; the
join's right side has the n/10 values of id2 once each, and a float w.
Partition i of the frame is drawn by ember.random.default_rng(i), whose
numbers are the same on every device, so the GPUs' partitions and the
pandas ones hold the same rows: the workers draw theirs on their own GPU
(nothing crosses the host) and persist them before timing, the host draws
the pandas ones on ember's cpu device. Each case is timed around
persist() of its result and waiting for it (the result stays where it was
made, on the workers or in the threaded scheduler's memory, as the next
step of a pipeline would find it), median of 3 after a warm-up. Shuffles
are dask's task shuffle (ember.dask.dataframe sets it): partitions move
between workers through host memory."""
import argparse

F = None   # bench/frames.py's helpers, loaded in main(): the workers'
           # processes re-import this file and need none of them


def _cases():
    return [("groupby id1, sum v1", lambda d, r: d.groupby("id1").v1.sum()),
            ("groupby id2, sum v1, mean v2",
             lambda d, r: d.groupby("id2").agg({"v1": "sum", "v2": "mean"})),
            ("join on id2 (n/10 right rows)", lambda d, r: d.merge(r, on="id2")),
            # the right side sent whole to every worker instead of both
            # sides hash-shuffled between them
            ("join on id2, broadcast=True",
             lambda d, r: d.merge(r, on="id2", broadcast=True)),
            ("sum v1 * v2", lambda d, r: (d.v1 * d.v2).sum())]


def _part(side, i, nparts, n_total, device, to_pandas):
    """Partition i of nparts of the frame (side "left": n_total / nparts
    rows) or of the right side (its share of the n/10 values of id2, each
    once, shuffled, and a float w), drawn on device (None: the calling
    thread's current device, a worker's GPU)."""
    import contextlib

    import ember
    import ember.frame as ef
    m = max(n_total // 10, 1)
    with ember.Device(device) if device else contextlib.nullcontext():
        if side == "left":
            g = ember.random.default_rng(i)
            rows = n_total // nparts
            p = ef.DataFrame({"id1": g.integers(0, 1000, rows),
                              "id2": g.integers(0, m, rows),
                              "v1": g.random(rows), "v2": g.random(rows)})
        else:
            g = ember.random.default_rng(10 ** 6 + i)
            lo, hi = i * m // nparts, (i + 1) * m // nparts
            p = ef.DataFrame({"id2": g.permutation(ember.arange(lo, hi, dtype="int64")),
                              "w": g.random(hi - lo)})
    return p.to_pandas() if to_pandas else p


def _metas():
    import pandas as pd
    left = pd.DataFrame({c: pd.Series([], dtype=t) for c, t in
                         (("id1", "int64"), ("id2", "int64"), ("v1", "float64"),
                          ("v2", "float64"))})
    right = pd.DataFrame({"id2": pd.Series([], dtype="int64"),
                          "w": pd.Series([], dtype="float64")})
    return left, right


def _frames(parts, rows, make):
    """The frame (parts partitions of rows rows) and the right side (parts
    // 4 partitions) as dask collections over make(side, i, nparts,
    n_total), delayed objects or futures."""
    import dask.dataframe as dd
    n = parts * rows
    rparts = max(parts // 4, 1)
    meta_l, meta_r = _metas()
    d = dd.from_delayed([make("left", i, parts, n) for i in range(parts)],
                        meta=meta_l, verify_meta=False)
    r = dd.from_delayed([make("right", j, rparts, n) for j in range(rparts)],
                        meta=meta_r, verify_meta=False)
    return d, r


def _held(dask_worker):
    """What a worker's store holds: {module of each value's type: count}."""
    out = {}
    for v in dask_worker.data.values():
        m = type(v).__module__
        out[m] = out.get(m, 0) + 1
    return out


def _time_cases(d, r, persist):
    out = {}
    for name, f in _cases():
        out[name] = F.cell(lambda: F.timed(lambda: persist(f(d, r)), 3))
    return out


def _on_cluster(n_workers, parts, rows):
    """{case: ms} on an ember.dask.LocalCluster of n_workers, the frame's
    partitions made and persisted on the workers."""
    import distributed

    import importlib

    import ember.dask as ed
    importlib.import_module("ember.dask.dataframe")   # the task shuffle, the dispatch
    with ed.LocalCluster(n_workers=n_workers) as c, distributed.Client(c) as cl:
        # partition i made on worker i % N, so each holds the same rows
        addrs = sorted(cl.scheduler_info(n_workers=-1)["workers"])

        def make(side, i, nparts, n):
            return cl.submit(_part, side, i, nparts, n, None, False, pure=False,
                             workers=[addrs[i % len(addrs)]],
                             allow_other_workers=False)
        d, r = _frames(parts, rows, make)
        d, r = cl.persist([d, r])
        distributed.wait(distributed.futures_of([d, r]))
        # every partition an ember frame, and on which worker
        held = cl.run(_held)
        print(f"{n_workers} worker(s) hold: {held}", flush=True)
        if any(not k.startswith("ember.frame") for h in held.values() for k in h):
            raise RuntimeError(f"the workers hold {held}, not only ember frames")

        def persist(x):
            fs = distributed.futures_of(cl.persist(x))
            distributed.wait(fs)
            bad = [f for f in fs if f.status != "finished"]
            if bad:
                bad[0].result()   # raises the task's error
        return _time_cases(d, r, persist)


def _pandas(parts, rows):
    import importlib

    import dask
    importlib.import_module("ember.dask.dataframe")   # the same task shuffle
    with dask.config.set(scheduler="threads"):
        d, r = _frames(parts, rows, lambda *a: dask.delayed(_part)(*a, "cpu", True))
        d, r = dask.persist(d, r)
        return _time_cases(d, r, lambda x: x.persist())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--log10n-per-gpu", type=float, default=7.3)
    ap.add_argument("--parts-per-gpu", type=int, default=4)
    ap.add_argument("--workers", type=int,
                    help="N (default: every visible GPU, or one cpu worker a NUMA node)")
    ap.add_argument("--no-pandas", action="store_true")
    args = ap.parse_args()
    global F
    import _frames_mod   # it takes bench/ off sys.path
    F = _frames_mod.load()
    import ember
    from ember.dask import worker as ew
    n = args.workers or len(ew.plan())
    rows = int(10 ** args.log10n_per_gpu) // args.parts_per_gpu
    p1 = args.parts_per_gpu
    kind = "GPU" if ember.cuda.runtime.getDeviceCount() else "cpu worker"
    head = [f"| case ({rows * p1:.2e} rows, {p1} partitions per {kind}) "
            f"| 1 {kind}, 1/{n} of the rows, ms | {n} {kind}s ms "
            f"| weak scaling N*t1/tN | dask + pandas ms | pandas / ember |",
            "|---|---|---|---|---|---|"]

    def table(one, alln, host, show):
        """The table so far, written to --out (a run cut off by a time
        limit keeps the GPUs' rows); printed when show."""
        lines = list(head)
        if show:
            print("\n".join(lines), flush=True)
        for name, _ in _cases():
            t1, tn, th = one[name], alln[name], host[name]
            weak = "" if isinstance(t1, str) or isinstance(tn, str) else f"{n * t1 / tn:.3g}"
            row = [name, F.fmt(t1), F.fmt(tn), weak, F.fmt(th), F.ratio(th, tn)]
            if show:
                F.emit(lines, row, args.out)
            else:
                lines.append("| " + " | ".join(row) + " |")
        if not show and args.out:
            with open(args.out, "w") as f:
                f.write("\n".join(lines) + "\n")

    one = _on_cluster(1, p1, rows)
    alln = _on_cluster(n, p1 * n, rows)
    table(one, alln, {k: "not yet measured" for k in one}, False)
    host = {k: "skipped" for k in one} if args.no_pandas else _pandas(p1 * n, rows)
    table(one, alln, host, True)

if __name__ == "__main__":
    main()
