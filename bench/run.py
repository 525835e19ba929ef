"""ember vs CuPy (and PyTorch where it applies), side by side in one run.

Run on the lent GPU by tools/gpu_check.sh; prints a Markdown table and
writes it to --out. Each figure is the median of several repetitions; ratios
are ember / peer (lower is better for times)."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import arrays as A

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PY = sys.executable

KSRC = r'''
extern "C" __global__ void axpy4(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
'''

rows = []


def row(what, ember_v, peer_v, unit, target, peer="CuPy"):
    ratio = ember_v / peer_v if peer_v else float("nan")
    rows.append((what, ember_v, peer, peer_v, unit, ratio, target))


def launch_us(call, sync, batch=500, batches=60):
    """Host time per launch: batches short enough that the GPU queue never
    fills (so the GPU's own speed does not leak into the figure), a sync
    between batches, the median batch."""
    for _ in range(3):
        for _ in range(batch):
            call()
        sync()
    per = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(batch):
            call()
        t1 = time.perf_counter()
        sync()
        per.append((t1 - t0) / batch * 1e6)
    return statistics.median(per)


def bench_launch():
    import numpy as np
    import ember
    import cupy
    n = 1024
    dev = ember.Device("cuda:0")
    dev.use()
    xh = (np.arange(n) % 4).astype(np.float32)
    x = ember.alloc(4 * n)
    y = ember.alloc(4 * n)
    x.copy_from_host(xh)
    y.copy_from_host(np.zeros(n, dtype=np.float32))
    k = ember.RawKernel(KSRC, "axpy4")
    args = (x, y, 1.0, n)
    e = launch_us(lambda: k((4,), (256,), args), dev.synchronize)
    # What was timed must have run: y = (launches) * x, exact in float32
    # because every partial sum is an integer below 2**24.
    launches = (3 + 60) * 500
    got = np.frombuffer(y.copy_to_host(), dtype=np.float32)
    assert np.array_equal(got, xh * launches), "ember launch result wrong"
    cx = cupy.asarray(xh)
    cy = cupy.zeros(n, dtype=cupy.float32)
    ck = cupy.RawKernel(KSRC, "axpy4")
    cargs = (cx, cy, np.float32(1.0), np.int32(n))
    c = launch_us(lambda: ck((4,), (256,), cargs),
                  cupy.cuda.runtime.deviceSynchronize)
    assert np.array_equal(cy.get(), xh * launches), "CuPy launch result wrong"
    row("RawKernel launch, 4 args, from Python", e, c, "us",
        "<= 2 us and <= 1/3 CuPy")
    exe = os.path.join(ROOT, "build", "c", "bench_launch")
    if os.path.exists(exe):
        out = subprocess.run([exe], check=True, capture_output=True,
                             text=True).stdout
        print(out.strip())
        for line in out.splitlines():
            parts = line.rsplit(None, 1)
            if len(parts) == 2 and parts[0].strip().startswith(("em_launch", "cuLaunchKernel")):
                rows.append(("(ref) from C: " + parts[0].strip(),
                             float(parts[1]) / 1e3, "", "", "us", "", ""))
    try:
        import torch
        t = torch.empty(n, device="cuda")
        tt = launch_us(lambda: t.add_(1.0), torch.cuda.synchronize)
        rows.append(("(ref) PyTorch tensor.add_ launch", tt, "", "", "us", "", ""))
    except Exception as exc:  # reference only
        print("torch reference skipped:", exc)


def proc_wall(code, reps=7, env=None):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run([PY, "-c", code], check=True, env=env)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def bench_import():
    e = proc_wall("import ember")
    c = proc_wall("import cupy")
    npy = proc_wall("import numpy")
    row("`import` process wall", e, c, "ms", "<= 1/3 CuPy")
    rows.append(("(ref) `import numpy` process wall", npy, "", "", "ms", "", ""))


def probe(which, cache, tag):
    env = dict(os.environ)
    env["EMBER_CACHE_DIR"] = cache
    env["CUPY_CACHE_DIR"] = cache
    env["PROBE_TAG"] = tag
    out = subprocess.run([PY, os.path.join(HERE, "compile_probe.py"), which],
                         check=True, env=env, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def bench_compile():
    res = {}
    for which in ("ember", "cupy"):
        cold, warm = [], []
        for rep in range(5):
            with tempfile.TemporaryDirectory() as d:
                tag = f"{which}{rep}{time.time_ns()}"
                cold.append(probe(which, d, tag))
                warm.append(min(probe(which, d, tag) for _ in range(3)))
        res[which] = (statistics.median(cold), statistics.median(warm))
    row("NVRTC cold compile + load, new process", res["ember"][0],
        res["cupy"][0], "ms", "(reported)")
    row("warm disk cache load, new process", res["ember"][1],
        res["cupy"][1], "ms", "<= CuPy")


def bench_pool():
    exe = os.path.join(ROOT, "build", "c", "bench_pool")
    if not os.path.exists(exe):
        print("bench_pool not built; skipped")
        return
    out = subprocess.run([exe], check=True, capture_output=True, text=True,
                         env=dict(os.environ, EMBER_DEVICE="cuda:0")).stdout
    print(out.strip())
    ns = float("nan")
    for line in out.splitlines():
        if line.startswith("alloc+free, 1 thread"):
            ns = float(line.split()[3])
    rows.append(("pool alloc+free from C, 1 thread (target < 1000 ns)", ns,
                 "", "", "ns", "", "< 1000 ns"))
    import cupy
    pool = cupy.get_default_memory_pool()
    reps = 200000
    for _ in range(1000):
        pool.malloc(4096)
    t0 = time.perf_counter()
    for _ in range(reps):
        pool.malloc(4096)  # freed when the pointer object dies
    c = (time.perf_counter() - t0) / reps * 1e9
    rows.append(("(ref) CuPy pool malloc+free from Python", c, "", "", "ns", "", ""))


def bench_copy():
    import cupy
    n = 1 << 30
    a = cupy.empty(n, dtype=cupy.uint8)
    b = cupy.empty_like(a)
    s, e = cupy.cuda.Event(), cupy.cuda.Event()
    for _ in range(3):
        b[...] = a
    ts = []
    for _ in range(10):
        s.record()
        b[...] = a
        e.record()
        e.synchronize()
        ts.append(cupy.cuda.get_elapsed_time(s, e))
    gbs = 2 * n / (statistics.median(ts) * 1e-3) / 1e9
    rows.append(("(ref) device copy bandwidth, read+write", gbs, "", "", "GB/s", "", ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    for f in (bench_import, bench_launch, bench_compile, bench_pool, bench_copy):
        try:
            f()
        except Exception as exc:
            print(f"{f.__name__} FAILED: {exc!r}")
            rows.append((f.__name__ + " FAILED", float("nan"), "", "", "", "", str(exc)[:60]))
    lines = []
    for what, e, peer, pv, unit, ratio, target in rows:
        fmt = lambda v: f"{v:.3g}" if isinstance(v, float) else str(v)
        lines.append(f"| {what} | {fmt(e)} | {peer} | {fmt(pv)} | {unit} | {fmt(ratio)} | {target} |")
    A.write_table(("measurement", "ember", "peer", "peer value", "unit", "ember/peer", "target"),
                  lines, args.out)


if __name__ == "__main__":
    main()
