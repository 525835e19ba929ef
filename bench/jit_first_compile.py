"""First call of a small Python kernel in a new process with an empty cache.

usage: python bench/jit_first_compile.py [--device cuda|cpu] [--runs 5]

Each measurement is a fresh process with a fresh, empty EMBER_CACHE_DIR
(and CUPY_CACHE_DIR); the device context exists before timing, as in
bench/compile_probe.py. It prints the median over the runs of
  ember      import of ember, then the first k[g, b](...) of a @cuda.jit kernel
             with its phases from ember.jit.compile_times() (import of the
             translator, parse, translate, emit, disk index, compile: NVRTC
             and module load on cuda, the host C compiler on cpu)
  cupy       cupy.RawKernel(...).compile() of the same kernel written in C
  numba      numba.cuda's first call of the same Python kernel
(cupy and numba only on cuda, and only where installed), then the emitted
C's size. The issue's target: ember's first call <= 40 ms on the GPU.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.abspath(__file__)

C_SRC = r'''
extern "C" __global__ void add(const float *x, const float *y, float *out, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
'''


def child(which, device):
    import time
    t0 = time.perf_counter()
    if which == "ember":
        import ember
        from ember import cuda
    elif which == "cupy":
        import cupy
    else:
        from numba import cuda
        import numpy as np
    t_import = time.perf_counter() - t0
    res = {"import": t_import}
    n = 1000
    if which == "cupy":
        cupy.cuda.Device(0).use()
        cupy.empty(64, dtype=cupy.float32)      # the context, before timing
        t0 = time.perf_counter()
        cupy.RawKernel(C_SRC, "add").compile()
        res["first"] = time.perf_counter() - t0
        return res

    # the kernel is defined in this file so the translator reads its source
    @cuda.jit
    def add(x, y, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] + y[i]

    if which == "ember":
        ember.Device(device).use()
        x = ember.arange(n, dtype="float32")
        y = ember.ones(n, dtype="float32")
        out = ember.empty(n, dtype="float32")
        t0 = time.perf_counter()
        add[4, 256](x, y, out)
        cuda.synchronize()
        res["first"] = time.perf_counter() - t0
        rec = ember.jit.compile_times()[-1]
        res["phases"] = rec["phases"]
        res["source_bytes"] = rec["source_bytes"]
        ok = ember.asnumpy(out)[:3].tolist() == [1.0, 2.0, 3.0]
    else:
        x = cuda.to_device(np.arange(n, dtype=np.float32))
        y = cuda.to_device(np.ones(n, dtype=np.float32))
        out = cuda.device_array(n, dtype=np.float32)
        cuda.synchronize()
        t0 = time.perf_counter()
        add[4, 256](x, y, out)
        cuda.synchronize()
        res["first"] = time.perf_counter() - t0
        ok = out.copy_to_host()[:3].tolist() == [1.0, 2.0, 3.0]
    if not ok:
        raise SystemExit("%s: wrong result" % which)
    return res


def measure(which, device, runs):
    out = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, EMBER_CACHE_DIR=os.path.join(d, "ember"),
                       CUPY_CACHE_DIR=os.path.join(d, "cupy"))
            env.pop("EMBER_COMPILE_LOG", None)
            p = subprocess.run([sys.executable, HERE, "--child", which, device],
                               env=env, capture_output=True, text=True)
        if p.returncode != 0:
            return None, p.stderr.strip().splitlines()[-1:] or ["failed"]
        out.append(json.loads(p.stdout.strip().splitlines()[-1]))
    return out, None


def med(rows, key):
    return statistics.median(r[key] for r in rows) * 1e3


def main():
    args = sys.argv[1:]
    if args and args[0] == "--child":
        print(json.dumps(child(args[1], args[2])))
        return
    device, runs = "cuda", 5
    if "--device" in args:
        device = args[args.index("--device") + 1]
    if "--runs" in args:
        runs = int(args[args.index("--runs") + 1])
    print("first call of a small jit kernel, new process, empty cache; device %s; "
          "median of %d processes (ms)" % (device, runs))
    whos = ["ember"] + (["cupy", "numba"] if device.startswith("cuda") else [])
    for which in whos:
        rows, err = measure(which, device, runs)
        if rows is None:
            print("  %-6s not measured: %s" % (which, err[0]))
            continue
        line = "  %-6s import %7.1f   first call %7.1f" % (
            which, med(rows, "import"), med(rows, "first"))
        if which == "ember":
            phases = rows[0]["phases"]
            line += "   (" + ", ".join(
                "%s %.1f" % (p, statistics.median(r["phases"][p] for r in rows) * 1e3)
                for p in phases) + "; %d bytes of C)" % rows[0]["source_bytes"]
        print(line)


if __name__ == "__main__":
    main()
