"""ember in one minute: the default device, a kernel compiled and run, timing.

The same program runs on a GPU (NVRTC compiles the kernel) and on a machine
without one (the system C compiler does): `EMBER_DEVICE=cpu` forces the CPU."""
import array
import time

import ember

SOURCE = r'''
extern "C" __global__ void saxpy(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
'''

dev = ember.default_device()
free, total = dev.mem_info()
print(f"ember {ember.__version__} on {dev} ({dev.name})")
print(f"  memory: {free / 2**30:.1f} GiB free of {total / 2**30:.1f} GiB")
if dev.type == "cuda":
    cc = dev.compute_capability
    print(f"  compute capability {cc[0]}.{cc[1]}, "
          f"{dev.properties['multiProcessorCount']} multiprocessors")

n = 1 << 22
xs = array.array("f", (float(i % 1000) for i in range(n)))
ys = array.array("f", [1.0]) * n
x = ember.alloc(4 * n)
y = ember.alloc(4 * n)
x.copy_from_host(xs)
y.copy_from_host(ys)

t0 = time.perf_counter()
kernel = ember.RawKernel(SOURCE, "saxpy")
threads = 256
blocks = (n + threads - 1) // threads
kernel((blocks,), (threads,), (x, y, 2.0, n))       # compiles on first use
dev.synchronize()
print(f"  first launch (compile or cache load + run): {(time.perf_counter() - t0) * 1e3:.1f} ms")

start, end = ember.Event(), ember.Event()
start.record()
reps = 20
for _ in range(reps):
    kernel((blocks,), (threads,), (x, y, 2.0, n))
end.record()
end.synchronize()
ms = ember.get_elapsed_time(start, end) / reps
print(f"  saxpy on {n} floats: {ms:.3f} ms per launch, "
      f"{3 * 4 * n / (ms * 1e-3) / 1e9:.1f} GB/s")

out = array.array("f", bytes(4 * n))
y.copy_to_host(out)
want = [1.0 + 2.0 * (reps + 1) * (i % 1000) for i in range(8)]
assert list(out[:8]) == want, (list(out[:8]), want)
print(f"  result checked: y[:4] = {list(out[:4])}")

# Arrays: NumPy semantics on the same device (first slice: creation,
# indexing, elementwise ufuncs with NumPy 2 promotion).
a = ember.arange(n, dtype=ember.float32)
b = ember.ones(n, dtype="float32")
t0 = time.perf_counter()
c = ember.sqrt(a * 2 + b)
dev.synchronize()
print(f"  arrays: sqrt(a * 2 + b) on {n} float32 in "
      f"{(time.perf_counter() - t0) * 1e3:.2f} ms -> {c[:4]!r}")
