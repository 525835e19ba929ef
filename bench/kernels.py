"""Python kernels (ember.cuda.jit): the kernels issue's speed cases, with
CuPy's RawKernel and the same run's copy bandwidth as the references.

usage: python bench/kernels.py [--out FILE] [--only SUBSTRING]  (on the GPU machine)
       python bench/kernels.py --device cpu --log2n 16 --matmul 128   (a check)

Cases:
- launch: host time per call of a compiled 3-argument jit kernel,
  `add[4, 256](a, b, out)` on 1,000 float32 (the config built in the call,
  as user code writes it, and kept in a variable), against CuPy's
  RawKernel and ember's RawKernel launching the same kernel in C;
  100 warm-ups, then the mean of 20,000 calls queued back to back.
- first call: wall time of the first `add[...]` call in a new process
  (device already started), with an empty cache directory (cold: translate
  and NVRTC) and again with the cache it left (warm disk cache); CuPy's
  RawKernel first call under the same two conditions. Median of 3.
- vector add: the jit kernel on 2^log2n float32, bytes read plus written
  over event-timed device time (median of 20), against a device copy.
- simulator: the jit vector add on 10^6 float32 on device cpu, wall time.
- tiled matmul: the shared-memory tiled kernel (examples/matmul.py's) as a
  jit kernel and as the same algorithm in CUDA C through ember's and
  CuPy's RawKernel, float32 n x n, event-timed median of 20."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import arrays as A

TPB = 16
EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "examples")

CUDA_ADD = r'''
extern "C" __global__ void add(const float *a, const float *b, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) out[i] = a[i] + b[i];
}
'''

CUDA_MATMUL = r'''
#define TPB 16
extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float sA[TPB][TPB];
    __shared__ float sB[TPB][TPB];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int t = 0; t < (n + TPB - 1) / TPB; t++) {
        sA[tx][ty] = 0.0f;
        sB[tx][ty] = 0.0f;
        if (x < n && ty + t * TPB < n) sA[tx][ty] = A[x * n + ty + t * TPB];
        if (y < n && tx + t * TPB < n) sB[tx][ty] = B[(tx + t * TPB) * n + y];
        __syncthreads();
        for (int k = 0; k < TPB; k++) acc += sA[tx][k] * sB[k][ty];
        __syncthreads();
    }
    if (x < n && y < n) C[x * n + y] = acc;
}
'''

FIRST_CALL = r'''
import sys, time
import numpy as np
import ember
from ember import cuda
dev = sys.argv[1]
d = ember.Device(dev)
a = ember.asarray(np.ones(1 << 20, np.float32), device=dev)
out = ember.empty_like(a)
d.synchronize()

@cuda.jit
def add(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]

t = time.perf_counter()
add[(1 << 20) // 256, 256](a, a, out)
d.synchronize()
print((time.perf_counter() - t) * 1e3)
'''

FIRST_CALL_CUPY = r'''
import sys, time
import cupy as cp
SRC = sys.argv[1]
a = cp.ones(1 << 20, cp.float32)
out = cp.empty_like(a)
cp.cuda.runtime.deviceSynchronize()
t = time.perf_counter()
k = cp.RawKernel(SRC, "add")
k(((1 << 20) // 256,), (256,), (a, a, out))
cp.cuda.runtime.deviceSynchronize()
print((time.perf_counter() - t) * 1e3)
'''


def first_call_ms(script, args, env_var):
    """(cold, warm) median ms of the first call in new processes."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    cold, warm = [], []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as d:
            # a file, not -c: the translator reads the kernel's source
            path = os.path.join(d, "first_call.py")
            with open(path, "w") as fh:
                fh.write(script)
            env[env_var] = os.path.join(d, "cache")
            for dst in (cold, warm):
                r = subprocess.run([sys.executable, path, *args], env=env,
                                   capture_output=True, text=True, timeout=600)
                if r.returncode != 0:
                    raise RuntimeError(r.stderr.strip().splitlines()[-1])
                dst.append(float(r.stdout.split()[-1]))
    return statistics.median(cold), statistics.median(warm)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--only")
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--log2n", type=int, default=28)
    ap.add_argument("--matmul", type=int, default=4096)
    args = ap.parse_args()
    A.DEVICE = dev = args.device
    libs = A.load_libs()
    import ember as em
    from ember import cuda
    cp = libs["cupy"]["mod"] if not isinstance(libs["cupy"], str) else None
    rows = []        # (case, ember, reference, reference name, unit)

    def wanted(name):
        ok = not args.only or args.only in name
        if ok:
            print(name, flush=True)
        return ok

    def attempt(fn):
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 (one case must not end the run)
            print(f"  {type(exc).__name__}: {exc}")
            return f"n/a ({type(exc).__name__})"

    @cuda.jit
    def add(a, b, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a[i] + b[i]

    # the tiled kernel of examples/matmul.py, so the bench times the code
    # the tutorial shows; CUDA_MATMUL is the same algorithm in CUDA C
    sys.path.insert(0, EXAMPLES)
    try:
        import matmul as example
    finally:
        sys.path.remove(EXAMPLES)
    if example.TPB != TPB:
        raise RuntimeError(f"examples/matmul.py has TPB {example.TPB}, CUDA_MATMUL {TPB}")
    matmul_tiled = example.matmul_tiled

    d = em.Device(dev)
    sync = d.synchronize

    # ---- launch cost -------------------------------------------------------
    if wanted("launch"):
        h = np.ones(1000, np.float32)
        a, b, o = (em.asarray(h, device=dev) for _ in range(3))
        e_cfg = attempt(lambda: A.host_us(lambda: add[4, 256](a, b, o), sync, 20000))
        cfg = add[4, 256]
        e_kept = attempt(lambda: A.host_us(lambda: cfg(a, b, o), sync, 20000))
        bufs = [em.alloc(4000, device=dev) for _ in range(3)]
        rk = em.RawKernel(CUDA_ADD, "add", options=("-DN=1000",))
        e_raw = attempt(lambda: A.host_us(lambda: rk((4,), (256,), tuple(bufs)), sync,
                                          20000))
        c_raw = "n/a (no CuPy)"
        if cp is not None:
            ca, cb, co = (cp.ones(1000, cp.float32) for _ in range(3))
            crk = cp.RawKernel(CUDA_ADD, "add", options=("-DN=1000",))
            c_raw = attempt(lambda: A.host_us(lambda: crk((4,), (256,), (ca, cb, co)),
                                              cp.cuda.runtime.deviceSynchronize, 20000))
        rows.append(("launch, 3-argument jit kernel `add[4, 256](a, b, out)`", e_cfg,
                     c_raw, "CuPy RawKernel", "us"))
        rows.append(("launch, the same with the config kept (`cfg(a, b, out)`)", e_kept,
                     c_raw, "CuPy RawKernel", "us"))
        rows.append(("launch, ember RawKernel (C source, 3 pointers)", e_raw, c_raw,
                     "CuPy RawKernel", "us"))

    # ---- first call in a new process ------------------------------------------
    if wanted("first call"):
        r = attempt(lambda: first_call_ms(FIRST_CALL, [dev], "EMBER_CACHE_DIR"))
        cr = ("n/a (no CuPy)",) * 2
        if cp is not None:
            cr = attempt(lambda: first_call_ms(FIRST_CALL_CUPY,
                                               ["#define N (1 << 20)\n" + CUDA_ADD],
                                               "CUPY_CACHE_DIR"))
            if isinstance(cr, str):
                cr = (cr, cr)
        if isinstance(r, str):
            r = (r, r)
        rows.append(("first call of the vector add, cold cache (new process)", r[0], cr[0],
                     "CuPy RawKernel", "ms"))
        rows.append(("first call of the vector add, warm disk cache (new process)", r[1],
                     cr[1], "CuPy RawKernel", "ms"))

    # ---- bandwidth ---------------------------------------------------------------
    if wanted("vector add"):
        n = 1 << args.log2n
        src, dst = em.empty(n, dtype=np.float32, device=dev), em.empty(
            n, dtype=np.float32, device=dev)
        copy_bw = attempt(lambda: 8 * n / A.gpu_ms(lambda: dst.__setitem__(Ellipsis, src),
                                                   sync, libs["ember"]["ev"]) / 1e6)
        del src, dst
        a = em.ones(n, dtype=np.float32, device=dev)
        b = em.ones(n, dtype=np.float32, device=dev)
        o = em.empty(n, dtype=np.float32, device=dev)
        blocks = (n + 255) // 256
        bw = attempt(lambda: 12 * n / A.gpu_ms(lambda: add[blocks, 256](a, b, o), sync,
                                               libs["ember"]["ev"]) / 1e6)
        del a, b, o
        em.get_default_memory_pool().free_all_blocks()
        rows.append((f"jit vector add float32 2^{args.log2n} (read+write)", bw, copy_bw,
                     "ember device copy", "GB/s"))

    # ---- the simulator ---------------------------------------------------------------
    if wanted("simulator"):
        n = 10 ** 6
        a = em.ones(n, dtype=np.float32, device="cpu")
        o = em.empty(n, dtype=np.float32, device="cpu")
        cpu_sync = em.Device("cpu").synchronize
        ms = attempt(lambda: A.wall_ms(lambda: add[(n + 255) // 256, 256](a, a, o),
                                       cpu_sync))
        rows.append(("simulator: jit vector add, 10^6 float32 on cpu", ms, "", "", "ms"))

    # ---- tiled matmul ------------------------------------------------------------------
    if wanted("matmul"):
        n = args.matmul
        rng = np.random.default_rng(0)
        ha = rng.random((n, n), dtype=np.float32)
        hb = rng.random((n, n), dtype=np.float32)
        grid = ((n + TPB - 1) // TPB, (n + TPB - 1) // TPB)
        ea, eb = em.asarray(ha, device=dev), em.asarray(hb, device=dev)
        ec = em.empty((n, n), dtype=np.float32, device=dev)
        ev = libs["ember"]["ev"]
        jit_ms = attempt(lambda: A.gpu_ms(lambda: matmul_tiled[grid, (TPB, TPB)](ea, eb, ec),
                                          sync, ev))
        bufs = [em.alloc(4 * n * n, device=dev) for _ in range(3)]
        bufs[0].copy_from_host(ha)
        bufs[1].copy_from_host(hb)
        rk = em.RawKernel(CUDA_MATMUL, "matmul_tiled")
        raw_ms = attempt(lambda: A.gpu_ms(
            lambda: rk(grid, (TPB, TPB), (bufs[0], bufs[1], bufs[2], np.int32(n))), sync, ev))
        want = None
        if not isinstance(jit_ms, str) and not isinstance(raw_ms, str):
            got_raw = np.empty((n, n), np.float32)
            bufs[2].copy_to_host(got_raw)
            want = em.asnumpy(ec)
            if not np.array_equal(want, got_raw):
                print("  WARNING: jit and RawKernel matmul results differ")
        rows.append((f"tiled matmul float32 {n} (jit vs ember RawKernel, same algorithm)",
                     jit_ms, raw_ms, "ember RawKernel (CUDA C)", "ms"))
        if cp is not None:
            crk = cp.RawKernel(CUDA_MATMUL, "matmul_tiled")
            ca, cb = cp.asarray(ha), cp.asarray(hb)
            cc = cp.empty((n, n), cp.float32)
            cev = libs["cupy"]["ev"]
            c_ms = attempt(lambda: A.gpu_ms(
                lambda: crk(grid, (TPB, TPB), (ca, cb, cc, np.int32(n))),
                cp.cuda.runtime.deviceSynchronize, cev))
            rows.append((f"tiled matmul float32 {n} (jit vs CuPy RawKernel, same algorithm)",
                         jit_ms, c_ms, "CuPy RawKernel (CUDA C)", "ms"))

    lines = []
    for name, e, r, rname, unit in rows:
        vs = ""
        if not isinstance(e, str) and not isinstance(r, str) and r != "":
            vs = (f"{r / e:.2f}x faster" if unit in ("ms", "us")
                  else f"{e / r:.0%}")
        lines.append(f"| {name} | {A.fmt(e)} | {A.fmt(r)} | {rname} | {unit} | {vs} |")
    A.write_table(("case", "ember", "reference", "reference is", "unit", "ember vs reference"),
                  lines, args.out)


if __name__ == "__main__":
    main()
