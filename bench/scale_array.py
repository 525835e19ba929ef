"""Issue 26's Dask array rows, in ms per call: `(x ** 2).sum()` and
`x @ x.T` on ember chunks over every visible GPU (ember.dask.LocalCluster,
one worker per GPU) against one GPU on 1/N of the data (weak scaling:
N * t1 / tN, target >= 3.5 on 4 GPUs) and against dask with NumPy chunks
on the host's cores on the same full data (target >= 10x).

usage: python bench/scale_array.py [--out FILE] [--gib-per-gpu 16]
                                   [--rows 4096] [--chunk-cols 65536]
       python bench/scale_array.py --gib-per-gpu 0.01 --rows 64 --workers 2
                                   (a check, no GPU: cpu workers)

x is rows x (N * cols) float64, cols chosen so each GPU holds
--gib-per-gpu of it, chunked by --chunk-cols columns: x @ x.T is then a
rows x rows sum over the chunks, so its output stays small while the work
grows with the data. The chunks are made on the workers (the 'ember'
backend's da.random) and persisted before timing; NumPy's are made in host
memory and run on dask's threaded scheduler. Median of 3 after a warm-up,
timed around .compute() (results come back to the client)."""
import argparse

F = None   # bench/frames.py's helpers, loaded in main(): the workers'
           # processes re-import this file and need none of them


def _cases():
    return [("(x ** 2).sum()", lambda x: (x ** 2).sum()),
            ("x @ x.T", lambda x: x @ x.T)]


def _on_cluster(n_workers, rows, cols, chunk_cols):
    """{case: ms} on an ember.dask.LocalCluster of n_workers."""
    import dask
    import dask.array as da
    import distributed

    import ember.dask as ed
    import ember.dask.array as eda   # registers the 'ember' backend
    out = {}
    with ed.LocalCluster(n_workers=n_workers) as c, distributed.Client(c) as cl:
        with dask.config.set({"array.backend": "ember"}):
            x = da.random.random((rows, cols), chunks=(rows, chunk_cols))
        if type(x._meta) is not type(eda.meta(2)):
            raise RuntimeError("the 'ember' array backend did not make x")
        x = cl.persist(x)
        distributed.wait(x)
        for name, f in _cases():
            out[name] = F.cell(lambda: F.timed(lambda: f(x).compute(), 3))
    return out


def _numpy(rows, cols, chunk_cols):
    import dask
    import dask.array as da
    x = da.random.random((rows, cols), chunks=(rows, chunk_cols)).persist(scheduler="threads")
    out = {}
    with dask.config.set(scheduler="threads"):
        for name, f in _cases():
            out[name] = F.cell(lambda: F.timed(lambda: f(x).compute(), 3))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--gib-per-gpu", type=float, default=16.0)
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--chunk-cols", type=int, default=65536)
    ap.add_argument("--no-numpy", action="store_true")
    ap.add_argument("--workers", type=int,
                    help="N (default: every visible GPU, or one cpu worker a NUMA node)")
    args = ap.parse_args()
    global F
    import _frames_mod   # it takes bench/ off sys.path
    F = _frames_mod.load()
    import ember
    from ember.dask import worker as ew
    n = args.workers or len(ew.plan())
    per = max(int(args.gib_per_gpu * 2 ** 30 / 8 / args.rows), 1)
    chunk = min(args.chunk_cols, per)
    per -= per % chunk
    kind = "GPU" if ember.cuda.runtime.getDeviceCount() else "cpu worker"
    one = _on_cluster(1, args.rows, per, chunk)
    alln = _on_cluster(n, args.rows, per * n, chunk)
    host = {k: "skipped" for k in one} if args.no_numpy else _numpy(args.rows, per * n, chunk)
    gib = args.rows * per * 8 / 2 ** 30
    lines = [f"| case ({args.rows} x {per * n} float64, {gib:.1f} GiB per {kind}) "
             f"| 1 {kind}, 1/{n} of x, ms | {n} {kind}s ms | weak scaling N*t1/tN "
             f"| dask + NumPy ms | NumPy / ember |", "|---|---|---|---|---|---|"]
    for name, _ in _cases():
        t1, tn, th = one[name], alln[name], host[name]
        weak = "" if isinstance(t1, str) or isinstance(tn, str) else f"{n * t1 / tn:.3g}"
        F.emit(lines, [name, F.fmt(t1), F.fmt(tn), weak, F.fmt(th), F.ratio(th, tn)],
               args.out)


if __name__ == "__main__":
    main()
