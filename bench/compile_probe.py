"""One timing in a fresh process: compile-and-load a small kernel.

usage: compile_probe.py ember|cupy
Prints milliseconds for the call that turns source into a launchable
kernel (NVRTC and module load, or the disk cache and module load), with the
cache directory taken from the environment (EMBER_CACHE_DIR, CUPY_CACHE_DIR).
The source carries a per-run tag so the in-process caches start empty."""
import os
import sys
import time

SRC = r'''
extern "C" __global__ void saxpy_probe(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];  /* TAG */
}
'''.replace("TAG", os.environ.get("PROBE_TAG", "0"))

which = sys.argv[1]
if which == "ember":
    import ember
    ember.Device("cuda:0").use()
    ember.alloc(256)   # the context exists before timing, as for CuPy below
    t0 = time.perf_counter()
    mod = ember.RawModule(code=SRC)
    mod.get_function("saxpy_probe")
    t1 = time.perf_counter()
else:
    import cupy
    cupy.cuda.Device(0).use()
    cupy.empty(64, dtype=cupy.float32)   # create the context before timing
    t0 = time.perf_counter()
    k = cupy.RawKernel(SRC, "saxpy_probe")
    k.compile()
    t1 = time.perf_counter()
print(f"{(t1 - t0) * 1e3:.4f}")
