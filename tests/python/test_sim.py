"""CUDA C kernels whose threads cooperate (shared memory with __syncthreads,
warp shuffles and votes, dynamic shared memory), run through RawModule on
every device: on 'cpu' the block simulator runs each block as fibers, on
'cuda:0' the GPU runs them. Results are compared with NumPy. Each source
also compiles with NVRTC, so what runs on the CPU is what a GPU would run."""
import numpy as np
import pytest

import ember
from ember.cuda import Program

from helpers import run_python, to_device, to_numpy

# One module per device holds every kernel here, so the file compiles each
# source once per device.
TYPES = {"f4": "float", "f8": "double", "i4": "int", "i8": "long long"}

WARP_SUM = r'''
extern "C" __global__ void warp_sum_{code}(const {T} *x, {T} *out, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    {T} v = i < n ? x[i] : ({T})0;
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0 && i < n)
        out[i / 32] = v;
}}
'''

SOURCE = "".join(WARP_SUM.format(code=c, T=t) for c, t in TYPES.items()) + r'''
#define TILE 16

extern "C" __global__ void block_sum(const int *x, long long *out, int n)
{
    __shared__ long long s[256];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? x[i] : 0;
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {
        if (t < w)
            s[t] += s[t + w];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

/* Inclusive scan of each block of 256: warp scans by __shfl_up_sync, the
 * warps' totals scanned by the first warp through shared memory. */
extern "C" __global__ void block_scan(const int *x, int *out, int n)
{
    __shared__ int totals[8];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    int i = blockIdx.x * blockDim.x + t;
    int v = i < n ? x[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int y = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += y;
    }
    if (lane == 31)
        totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int s = lane < 8 ? totals[lane] : 0;
        for (int d = 1; d < 8; d <<= 1) {
            int y = __shfl_up_sync(0xffffffffu, s, d);
            if (lane >= d)
                s += y;
        }
        if (lane < 8)
            totals[lane] = s;
    }
    __syncthreads();
    if (warp > 0)
        v += totals[warp - 1];
    if (i < n)
        out[i] = v;
}

/* How many x[i] > t: one __ballot_sync and __popc per warp. */
extern "C" __global__ void count_greater(const float *x, float t, int n,
                                         unsigned long long *count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned b = __ballot_sync(0xffffffffu, i < n && x[i] > t);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(count, (unsigned long long)__popc(b));
}

/* A histogram of bytes in 64 bins: per-block counts in shared memory. */
extern "C" __global__ void hist64(const unsigned char *x, int n, unsigned *bins)
{
    __shared__ unsigned local[64];
    for (int b = threadIdx.x; b < 64; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
        atomicAdd(&local[x[i] & 63], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 64; b += blockDim.x)
        if (local[b])
            atomicAdd(&bins[b], local[b]);
}

/* C = A B for row-major A (m x k) and B (k x n): tiles of A and B in
 * shared memory, two barriers per tile. */
extern "C" __global__ void matmul(const double *a, const double *b, double *c,
                                  int m, int k, int n)
{
    __shared__ double ta[TILE][TILE], tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    double acc = 0.0;
    for (int t0 = 0; t0 < k; t0 += TILE) {
        int ac = t0 + threadIdx.x, br = t0 + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] = row < m && ac < k ? a[row * k + ac] : 0.0;
        tb[threadIdx.y][threadIdx.x] = br < k && col < n ? b[br * n + col] : 0.0;
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            acc += ta[threadIdx.y][j] * tb[j][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = acc;
}

/* Each block reverses its part of x through dynamic shared memory (the
 * launch's shared_mem bytes: blockDim.x floats). */
extern "C" __global__ void reverse_blocks(const float *x, float *out, int n)
{
    extern __shared__ float buf[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? x[i] : -1.0f;
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - t);
    if (j < n)
        out[j] = buf[t];
}

/* Threads at different __syncthreads: undefined on a GPU. */
extern "C" __global__ void divergent(int *p)
{
    if (threadIdx.x < 16) {
        __syncthreads();
        p[0] = 1;
    } else {
        __syncthreads();
        p[1] = 1;
    }
}
'''

DIVERGENT_LINE = SOURCE[:SOURCE.index("if (threadIdx.x < 16) {")].count("\n") + 2

_modules = {}


def module(device):
    if device not in _modules:
        with ember.Device(device):
            _modules[device] = ember.RawModule(code=SOURCE, name="sim_test.cu")
    return _modules[device]


def launch(device, name, grid, block, args, shared_mem=0):
    with ember.Device(device):
        module(device).get_function(name)(grid, block, args, shared_mem=shared_mem)
        ember.Device(device).synchronize()


def test_source_compiles_with_nvrtc(need_nvrtc):
    obj = Program(SOURCE, name="sim_test.cu").compile("ptx", arch=90)
    for name in ["block_sum", "block_scan", "count_greater", "hist64", "matmul",
                 "reverse_blocks", "divergent"] + ["warp_sum_" + c for c in TYPES]:
        assert name.encode() in obj.code
    obj = Program(STACKS, name="stacks.cu").compile("ptx", arch=90)
    assert b"big_local" in obj.code and b"recurse" in obj.code


@pytest.mark.parametrize("n", [1, 255, 256, 257, 1000, (1 << 20) + 3])
def test_block_reduction(device, n):
    x = np.random.default_rng(n).integers(-1000, 1000, n, dtype=np.int32)
    nb = (n + 255) // 256
    out = ember.alloc(8 * nb, device=device)
    launch(device, "block_sum", nb, 256, (to_device(x, device), out, n))
    pad = np.zeros(nb * 256, np.int64)
    pad[:n] = x
    np.testing.assert_array_equal(to_numpy(out, np.int64), pad.reshape(nb, 256).sum(1))


@pytest.mark.parametrize("code", list(TYPES))
@pytest.mark.parametrize("n", [1, 31, 32, 33, 1000])
def test_warp_reduction(device, code, n):
    dt = np.dtype(code)
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(n) * 100).astype(dt) if dt.kind == "f" else \
        rng.integers(-10**6, 10**6, n).astype(dt)
    nw = (n + 31) // 32
    out = to_device(np.zeros(nw, dt), device)
    launch(device, "warp_sum_" + code, (n + 127) // 128, 128, (to_device(x, device), out, n))
    pad = np.zeros(nw * 32, dt)
    pad[:n] = x
    want = pad.reshape(nw, 32).sum(1, dtype=dt)
    got = to_numpy(out, dt)
    if dt.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5 if dt == np.float32 else 1e-12,
                                   atol=1e-3)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("n", [1, 32, 255, 256, 257, 4097])
def test_block_scan(device, n):
    x = np.random.default_rng(n).integers(-50, 50, n, dtype=np.int32)
    out = ember.alloc(4 * n, device=device)
    launch(device, "block_scan", (n + 255) // 256, 256, (to_device(x, device), out, n))
    nb = (n + 255) // 256
    pad = np.zeros(nb * 256, np.int32)
    pad[:n] = x
    want = np.cumsum(pad.reshape(nb, 256), axis=1, dtype=np.int32).ravel()[:n]
    np.testing.assert_array_equal(to_numpy(out, np.int32), want)


@pytest.mark.parametrize("n", [1, 33, 1024, 100003])
def test_ballot_popc_count(device, n):
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    x[::7] = np.nan          # NaN > t is false, as in NumPy
    x[::11] = np.inf
    x[::13] = -0.0
    count = to_device(np.zeros(1, np.uint64), device)
    launch(device, "count_greater", (n + 255) // 256, 256,
           (to_device(x, device), np.float32(0.25), n, count))
    assert to_numpy(count, np.uint64)[0] == np.count_nonzero(x > np.float32(0.25))


@pytest.mark.parametrize("n,grid,block", [(1, 1, 64), (1000, 3, 96), (1 << 20, 64, 256)])
def test_histogram(device, n, grid, block):
    x = np.random.default_rng(n).integers(0, 256, n, dtype=np.uint8)
    bins = to_device(np.zeros(64, np.uint32), device)
    launch(device, "hist64", grid, block, (to_device(x, device), n, bins))
    np.testing.assert_array_equal(to_numpy(bins, np.uint32),
                                  np.bincount(x & 63, minlength=64).astype(np.uint32))


@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (16, 16, 16), (33, 47, 18), (64, 100, 70)])
def test_tiled_matmul(device, m, k, n):
    rng = np.random.default_rng(m * k * n)
    a = rng.standard_normal((m, k))
    b = rng.standard_normal((k, n))
    c = ember.alloc(8 * m * n, device=device)
    launch(device, "matmul", ((n + 15) // 16, (m + 15) // 16), (16, 16),
           (to_device(a, device), to_device(b, device), c, m, k, n))
    np.testing.assert_allclose(to_numpy(c, np.float64, (m, n)), a @ b, rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("n,block", [(1, 1), (100, 32), (1000, 128), (5000, 1024)])
def test_dynamic_shared_memory(device, n, block):
    x = np.arange(n, dtype=np.float32)
    out = ember.alloc(4 * n, device=device)
    nb = (n + block - 1) // block
    launch(device, "reverse_blocks", nb, block, (to_device(x, device), out, n),
           shared_mem=4 * block)
    pad = np.full(nb * block, -1.0, np.float32)
    pad[:n] = x
    want = pad.reshape(nb, block)[:, ::-1].ravel()[:n]
    np.testing.assert_array_equal(to_numpy(out, np.float32), want)


def test_divergent_barrier_is_reported_on_cpu():
    p = ember.alloc(8, device="cpu")
    with pytest.raises(ValueError) as e:
        launch("cpu", "divergent", 2, 64, (p,))
    msg = str(e.value)
    assert "kernel 'divergent'" in msg and "different __syncthreads" in msg
    assert f"line {DIVERGENT_LINE}" in msg and f"line {DIVERGENT_LINE + 3}" in msg
    # The device goes on working.
    test_block_reduction("cpu", 300)


STACKS = r'''
__device__ int down(int d)
{
    volatile char buf[8192];
    buf[d & 8191] = (char)d;
    if (d == 0)
        return buf[0];
    return down(d - 1) ^ buf[(d * 7) & 8191];
}

extern "C" __global__ void big_local(int *p, int i)
{
    volatile int big[1 << 20];          /* 4 MiB: sized from the frame */
    big[i] = i;
    big[i + 1] = threadIdx.x;
    __syncthreads();
    p[threadIdx.x] = big[i] + big[i + 1];
}

extern "C" __global__ void recurse(int *p, int d)
{
    __syncthreads();
    p[threadIdx.x] = down(d);
}
'''


def test_fiber_stacks_on_cpu():
    with ember.Device("cpu"):
        m = ember.RawModule(code=STACKS)
        p = ember.alloc(4 * 64)
        m.get_function("big_local")(2, 64, (p, 1000))
        np.testing.assert_array_equal(to_numpy(p, np.int32), 1000 + np.arange(64))
        m.get_function("recurse")(1, 32, (p, 20))
        # Recursion past the stack hits the guard page: an error, no crash.
        with pytest.raises(ValueError, match="overflowed its stack.*EMBER_SIM_STACK"):
            m.get_function("recurse")(1, 32, (p, 5000))
        m.get_function("big_local")(1, 64, (p, 7))
        np.testing.assert_array_equal(to_numpy(p, np.int32), 7 + np.arange(64))


RECURSE_ONLY = STACKS[:STACKS.index('extern "C" __global__ void big_local')] + \
    STACKS[STACKS.index('extern "C" __global__ void recurse'):]

STACK_CHECK = """
import ember
with ember.Device("cpu"):
    k = ember.RawModule(code=%r).get_function("recurse")
    p = ember.alloc(128)
    try:
        k(1, 32, (p, 40))
        print("ran")
    except ValueError as e:
        print(e)
""" % RECURSE_ONLY


@pytest.mark.parametrize("env,want", [(None, "overflowed its stack of 262144 bytes"),
                                      ("4194304", "ran"),
                                      ("junk", "overflowed its stack of 262144 bytes")])
def test_sim_stack_from_environment(monkeypatch, env, want):
    """About 40 frames of 8-11 KiB: more than the default 256 KiB stack."""
    if env is None:
        monkeypatch.delenv("EMBER_SIM_STACK", raising=False)
    else:
        monkeypatch.setenv("EMBER_SIM_STACK", env)
    r = run_python("-c", STACK_CHECK)
    assert r.returncode == 0, r.stderr
    assert want in r.stdout, r.stdout + r.stderr
    if env == "junk":
        assert "EMBER_SIM_STACK=junk" in r.stderr


def test_unsupported_construct_on_cpu():
    src = r'''
extern "C" __global__ void old(int *p) { p[0] = __any(p[0]); }
'''
    with ember.Device("cpu"):
        with pytest.raises(NotImplementedError, match="__any.*simulator"):
            ember.RawKernel(src, "old").compile()
