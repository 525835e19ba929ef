"""Issue 26's collective rows: all_reduce of 1 GiB float32 over every
visible GPU (bus bandwidth, 2(n-1)/n x bytes / time, as nccl-tests count
it) through ember.distributed against PyTorch's torch.cuda.nccl.all_reduce
in the same run, both one process driving every GPU in one NCCL group;
then a 1 GiB copy from cuda:0 to cuda:1 (x.to_device against torch's
.to()). Target: ember >= 0.97x PyTorch's bus bandwidth.

usage: python bench/scale_allreduce.py [--out FILE] [--mib 1024] [--reps 10]
Median of --reps after two warm-ups; each timing ends with every device
synchronized. Needs 2 or more GPUs; PyTorch's column is '-' without it."""
import argparse
import statistics
import time


def timed(f, sync, reps):
    f()
    f()
    sync()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        sync()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def emit(lines, row, out):
    lines.append("| " + " | ".join(row) + " |")
    text = "\n".join(lines)
    print(lines[-1] if len(lines) > 2 else text, flush=True)
    if out:
        with open(out, "w") as f:
            f.write(text + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--reps", type=int, default=10)
    args = ap.parse_args()
    import ember
    import ember.distributed as dist
    n = ember.cuda.runtime.getDeviceCount()
    if n < 2:
        raise SystemExit("needs at least 2 GPUs, %d visible" % n)
    nbytes = args.mib << 20
    count = nbytes // 4
    devs = [ember.Device(i) for i in range(n)]
    factor = 2 * (n - 1) / n * nbytes / 1e9
    lines = ["| case (%d GPUs, %d MiB float32) | ember | PyTorch | ember / PyTorch |"
             % (n, args.mib), "|---|---|---|---|"]
    print("\n".join(lines), flush=True)

    def sync_ember():
        for d in devs:
            d.synchronize()

    comms = dist.init_all(devs)
    xs = []
    for d in devs:
        with d:
            xs.append(ember.ones(count, dtype=ember.float32))

    def ember_ar():
        with dist.group():
            for c, x in zip(comms, xs):
                c.all_reduce(x, x)

    te = timed(ember_ar, sync_ember, args.reps)
    try:
        import torch
        import torch.cuda.nccl as tn
        ts = [torch.ones(count, dtype=torch.float32, device="cuda:%d" % i)
              for i in range(n)]

        def sync_torch():
            for i in range(n):
                torch.cuda.synchronize(i)

        tt = timed(lambda: tn.all_reduce(ts), sync_torch, args.reps)
    except ImportError:
        tt = None
    fmt = (lambda t: "%.1f GB/s" % (factor / t))
    emit(lines, ["all_reduce bus bandwidth", fmt(te), fmt(tt) if tt else "-",
                 "%.3f" % (tt / te) if tt else "-"], args.out)

    x0 = xs[0]
    tc = timed(lambda: x0.to_device("cuda:1"), sync_ember, args.reps)
    if tt is not None:
        t0 = ts[0]
        tp = timed(lambda: t0.to("cuda:1"), sync_torch, args.reps)
    else:
        tp = None
    fc = (lambda t: "%.1f GB/s" % (nbytes / 1e9 / t))
    emit(lines, ["copy cuda:0 -> cuda:1", fc(tc), fc(tp) if tp else "-",
                 "%.3f" % (tp / tc) if tp else "-"], args.out)
    for c in comms:
        c.destroy()


if __name__ == "__main__":
    main()
