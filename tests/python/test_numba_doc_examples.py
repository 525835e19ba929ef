"""Numba-CUDA's own documentation examples (numba_cuda/numba/cuda/tests/
doc_examples/test_*.py), each run as a Numba user would: the example's code
with only `from numba import cuda` -> `from ember import cuda` (and
`import numba` -> `import ember as numba`), checked against NumPy with the
example's own assertions. Sizes are cut down where the example's would be
slow on cpu (random's 450M-element array, laplace's 10000 steps); the code
is otherwise the example's. docs/kernels.md, "Numba-CUDA's documentation
examples", says which needed fixes."""
import math

import numpy as np
import pytest

import ember
from ember import cuda


def test_vecadd(device):
    @cuda.jit
    def f(a, b, c):
        tid = cuda.grid(1)
        size = len(c)
        if tid < size:
            c[tid] = a[tid] + b[tid]

    rng = np.random.default_rng(1)
    with ember.Device(device):
        N = 1000
        a = cuda.to_device(rng.random(N))
        b = cuda.to_device(rng.random(N))
        c = cuda.device_array_like(a)
        f.forall(len(a))(a, b, c)
        np.testing.assert_equal(c.copy_to_host(), a.copy_to_host() + b.copy_to_host())
        c = cuda.device_array_like(a)
        nthreads = 256
        nblocks = (len(a) // nthreads) + 1
        f[nblocks, nthreads](a, b, c)
        np.testing.assert_equal(c.copy_to_host(), a.copy_to_host() + b.copy_to_host())


def test_matmul(device):
    from ember.cuda import float32

    @cuda.jit
    def matmul(A, B, C):
        i, j = cuda.grid(2)
        if i < C.shape[0] and j < C.shape[1]:
            tmp = 0.0
            for k in range(A.shape[1]):
                tmp += A[i, k] * B[k, j]
            C[i, j] = tmp

    TPB = 16

    @cuda.jit
    def fast_matmul(A, B, C):
        sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
        sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
        x, y = cuda.grid(2)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        bpg = cuda.gridDim.x
        tmp = float32(0.0)
        for i in range(bpg):
            sA[ty, tx] = 0
            sB[ty, tx] = 0
            if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
                sA[ty, tx] = A[y, tx + i * TPB]
            if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
                sB[ty, tx] = B[ty + i * TPB, x]
            cuda.syncthreads()
            for j in range(TPB):
                tmp += sA[ty, j] * sB[j, tx]
            cuda.syncthreads()
        if y < C.shape[0] and x < C.shape[1]:
            C[y, x] = tmp

    with ember.Device(device):
        x_h = np.arange(16).reshape([4, 4])
        y_h = np.ones([4, 4])
        z_d = cuda.to_device(np.zeros([4, 4]))
        threadsperblock = (16, 16)
        matmul[(1, 1), threadsperblock](cuda.to_device(x_h), cuda.to_device(y_h), z_d)
        assert np.all(z_d.copy_to_host() == x_h @ y_h)
        z_d = cuda.to_device(np.zeros([4, 4]))
        fast_matmul[(1, 1), (TPB, TPB)](cuda.to_device(x_h), cuda.to_device(y_h), z_d)
        assert np.all(z_d.copy_to_host() == x_h @ y_h)
        # the non-square case: the grid covers the larger extents
        x_h = np.arange(115).reshape([5, 23])
        y_h = np.ones([23, 7])
        z_d = cuda.to_device(np.zeros([5, 7]))
        bpg = (math.ceil(23 / TPB), math.ceil(23 / TPB))
        fast_matmul[bpg, (TPB, TPB)](cuda.to_device(x_h), cuda.to_device(y_h), z_d)
        assert np.all(z_d.copy_to_host() == x_h @ y_h)


def test_reduction(device):
    from ember.cuda.types import int32
    with ember.Device(device):
        a = cuda.to_device(np.arange(1024))
        nelem = len(a)   # a closure variable sizing the shared array

        @cuda.jit
        def array_sum(data):
            tid = cuda.threadIdx.x
            size = len(data)
            if tid < size:
                i = cuda.grid(1)
                shr = cuda.shared.array(nelem, int32)
                shr[tid] = data[i]
                cuda.syncthreads()
                s = 1
                while s < cuda.blockDim.x:
                    if tid % (2 * s) == 0:
                        shr[tid] += shr[tid + s]
                    s *= 2
                    cuda.syncthreads()
                if tid == 0:
                    data[tid] = shr[tid]

        array_sum[1, nelem](a)
        np.testing.assert_equal(a[0], sum(np.arange(1024)))


def test_montecarlo(device):
    import ember as numba
    from ember.cuda.random import (create_xoroshiro128p_states,
                                   xoroshiro128p_uniform_float32)

    @cuda.jit
    def mc_integrator_kernel(out, rng_states, lower_lim, upper_lim):
        size = len(out)
        gid = cuda.grid(1)
        if gid < size:
            samp = xoroshiro128p_uniform_float32(rng_states, gid)
            samp = samp * (upper_lim - lower_lim) + lower_lim
            y = func(samp)   # defined below, before the first launch
            out[gid] = y

    @cuda.reduce
    def sum_reduce(a, b):
        return a + b

    def mc_integrate(lower_lim, upper_lim, nsamps):
        out = cuda.to_device(np.zeros(nsamps, dtype="float32"))
        rng_states = create_xoroshiro128p_states(nsamps, seed=42)
        mc_integrator_kernel.forall(nsamps)(out, rng_states, lower_lim, upper_lim)
        factor = (upper_lim - lower_lim) / (nsamps - 1)
        total = sum_reduce(out)
        np.testing.assert_allclose(total, out.copy_to_host().sum(dtype=np.float64),
                                   rtol=1e-5)
        return total * factor

    @numba.jit
    def func(x):
        return 1.0 / x

    with ember.Device(device):
        np.testing.assert_allclose(mc_integrate(1, 2, 100_000), np.log(2), atol=0.003)
        np.testing.assert_allclose(mc_integrate(2, 3, 100_000), np.log(1.5), atol=0.003)


def test_laplace(device):
    with ember.Device(device):
        size = 201
        data = np.zeros(size)
        data[100] = 10000
        buf_0 = cuda.to_device(data)
        buf_1 = cuda.device_array_like(buf_0)
        niter = 200

        @cuda.jit
        def solve_heat_equation(buf_0, buf_1, timesteps, k):
            i = cuda.grid(1)
            if i >= len(buf_0):
                return
            grid = cuda.cg.this_grid()
            for step in range(timesteps):
                if (step % 2) == 0:
                    data = buf_0
                    next_data = buf_1
                else:
                    data = buf_1
                    next_data = buf_0
                curr_temp = data[i]
                if i == 0:
                    next_temp = curr_temp + k * (data[i + 1] - (2 * curr_temp))
                elif i == len(data) - 1:
                    next_temp = curr_temp + k * (data[i - 1] - (2 * curr_temp))
                else:
                    next_temp = curr_temp + k * (data[i - 1] - (2 * curr_temp) + data[i + 1])
                next_data[i] = next_temp
                grid.sync()

        solve_heat_equation.forall(len(data))(buf_0, buf_1, niter, 0.25)
        results = buf_1.copy_to_host()
        final = buf_0.copy_to_host()
    # the same steps in NumPy: an even niter ends in buf_0, buf_1 holds the
    # step before (the example only checks buf_1's sum)
    cur, k = data.copy(), 0.25
    for step in range(niter):
        if step == niter - 1:
            np.testing.assert_allclose(results, cur, rtol=1e-12, atol=1e-9)
        nxt = np.empty_like(cur)
        nxt[1:-1] = cur[1:-1] + k * (cur[:-2] - (2 * cur[1:-1]) + cur[2:])
        nxt[0] = cur[0] + k * (cur[1] - (2 * cur[0]))
        nxt[-1] = cur[-1] + k * (cur[-2] - (2 * cur[-1]))
        cur = nxt
    np.testing.assert_allclose(final, cur, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(results.sum(), 10000)


def test_sessionize(device):
    session_timeout = np.int64(np.timedelta64("3600", "s"))
    ids_h = np.array([1] * 6 + [2] * 3 + [3] * 10 + [4] * 9)
    sec_h = np.array([1, 2, 3, 5000, 5001, 5002, 1, 2, 3, 1, 2, 5000, 5001, 10000,
                      10001, 10002, 10003, 15000, 150001, 1, 5000, 50001, 15000,
                      20000, 25000, 25001, 25002, 25003],
                     dtype="datetime64[ns]").astype("int64")

    @cuda.jit
    def sessionize(user_id, timestamp, results):
        gid = cuda.grid(1)
        size = len(user_id)
        if gid >= size:
            return
        is_first_datapoint = gid == 0
        if not is_first_datapoint:
            new_user = user_id[gid] != user_id[gid - 1]
            timed_out = (timestamp[gid] - timestamp[gid - 1] > session_timeout)
            is_sess_boundary = new_user or timed_out
        else:
            is_sess_boundary = True
        if is_sess_boundary:
            results[gid] = gid
            grid = cuda.cg.this_grid()
            grid.sync()
            look_ahead = 1
            while results[gid + look_ahead] == 0:
                results[gid + look_ahead] = gid
                look_ahead += 1
                if gid + look_ahead == size - 1:
                    results[gid + look_ahead] = gid
                    break

    with ember.Device(device):
        ids = cuda.to_device(ids_h)
        sec = cuda.to_device(sec_h)
        results = cuda.to_device(np.zeros(len(ids)))
        sessionize.forall(len(ids))(ids, sec, results)
        got = results.copy_to_host()
    # NumPy: a session starts at a new user or after a gap over the timeout
    # (the timestamps are ns, so none here is), and is labelled by its start
    start = np.r_[True, (ids_h[1:] != ids_h[:-1]) | (np.diff(sec_h) > session_timeout)]
    expect = np.maximum.accumulate(np.where(start, np.arange(len(ids_h)), 0))
    np.testing.assert_equal(expect, got)
    np.testing.assert_equal(got, [0, 0, 0, 3, 3, 3, 6, 6, 6, 9, 9, 11, 11, 13, 13, 13,
                                  13, 17, 18, 19, 20, 21, 21, 23, 24, 24, 24, 24])


def test_ufunc(device):
    @cuda.jit
    def f(r, x):
        np.sin(x, r)

    x = np.arange(10, dtype=np.float32) - 5
    r = np.zeros_like(x)
    with ember.Device(device):
        f[1, 1](r, x)
    np.testing.assert_allclose(r, np.sin(x), rtol=1e-6)


def test_cg(device):
    from ember.cuda import int32
    sig = (int32[:, ::1],)

    @cuda.jit(sig)
    def sequential_rows(M):
        col = cuda.grid(1)
        g = cuda.cg.this_grid()
        rows = M.shape[0]
        cols = M.shape[1]
        for row in range(1, rows):
            opposite = cols - col - 1
            M[row, col] = M[row - 1, opposite] + 1
            g.sync()

    with ember.Device(device):
        A = np.zeros((96, 128), dtype=np.int32)
        blockdim = 32
        griddim = A.shape[1] // blockdim
        mb = sequential_rows.overloads[sig].max_cooperative_grid_blocks(blockdim)
        assert mb >= griddim
        sequential_rows[griddim, blockdim](A)
    np.testing.assert_equal(A, np.tile(np.arange(96), (128, 1)).T)


def test_random_3d_grid(device):
    from ember.cuda.random import (create_xoroshiro128p_states,
                                   xoroshiro128p_uniform_float32)

    @cuda.jit
    def random_3d(arr, rng_states):
        startx, starty, startz = cuda.grid(3)
        stridex, stridey, stridez = cuda.gridsize(3)
        tid = (startz * stridey * stridex) + (starty * stridex) + startx
        for i in range(startz, arr.shape[0], stridez):
            for j in range(starty, arr.shape[1], stridey):
                for k in range(startx, arr.shape[2], stridex):
                    arr[i, j, k] = xoroshiro128p_uniform_float32(rng_states, tid)

    X, Y, Z = 71, 90, 73
    bx, by, bz = 4, 4, 4
    gx, gy, gz = 4, 4, 4
    nthreads = bx * by * bz * gx * gy * gz
    with ember.Device(device):
        rng_states = create_xoroshiro128p_states(nthreads, seed=1)
        # (the example's device_array, filled so that an unwritten element shows)
        arr = cuda.to_device(np.full((X, Y, Z), -1, dtype=np.float32))
        random_3d[(gx, gy, gz), (bx, by, bz)](arr, rng_states)
        host_arr = arr.copy_to_host()
        again = cuda.to_device(np.full((X, Y, Z), -1, dtype=np.float32))
        random_3d[(gx, gy, gz), (bx, by, bz)](again, create_xoroshiro128p_states(nthreads, seed=1))
    assert 0.49 < np.mean(host_arr) < 0.51
    assert np.all(host_arr <= 1.0) and np.all(host_arr >= 0.0)
    np.testing.assert_array_equal(host_arr, again.copy_to_host())   # a seed's numbers


def test_cpu_gpu_compat(device):
    from math import pi
    import ember as numba

    @numba.jit
    def business_logic(x, y, z):
        return 4 * z * (2 * x - (4 * y) / 2 * pi)

    assert business_logic(1, 2, 3) == -126.79644737231007

    @cuda.jit
    def f(res, xarr, yarr, zarr):
        tid = cuda.grid(1)
        if tid < len(xarr):
            res[tid] = business_logic(xarr[tid], yarr[tid], zarr[tid])

    with ember.Device(device):
        X = cuda.to_device([1, 10, 234])
        Y = cuda.to_device([2, 2, 4014])
        Z = cuda.to_device([3, 14, 2211])
        results = cuda.to_device([0.0, 0.0, 0.0])
        f.forall(len(X))(results, X, Y, Z)
        expect = [business_logic(x, y, z) for x, y, z in zip(X, Y, Z)]
        got = results.copy_to_host()
    # the GPU contracts 4*z*(...) into FMAs: within an ulp there, exact on cpu
    np.testing.assert_allclose(got, expect, rtol=0 if device == "cpu" else 1e-15)
    np.testing.assert_allclose(got, [-126.79644737231007, 416.28324559588634,
                                     -218912930.2987788], rtol=1e-15)


def test_globals_constant_capture(device):
    TAX_RATE = 0.08
    PRICES = np.array([10.0, 25.0, 5.0, 15.0, 30.0], dtype=np.float64)

    @cuda.jit
    def compute_totals(quantities, totals):
        i = cuda.grid(1)
        if i < totals.size:
            totals[i] = quantities[i] * PRICES[i] * (1 + TAX_RATE)

    with ember.Device(device):
        d_quantities = cuda.to_device(np.array([1, 2, 3, 4, 5], dtype=np.float64))
        d_totals = cuda.device_array(5, dtype=np.float64)
        compute_totals[1, 32](d_quantities, d_totals)
        TAX_RATE = 0.10  # noqa: F841
        PRICES[:] = [20.0, 50.0, 10.0, 30.0, 60.0]
        compute_totals[1, 32](d_quantities, d_totals)
        np.testing.assert_allclose(d_totals.copy_to_host(),
                                   np.array([10.8, 54.0, 16.2, 64.8, 162.0]))


def test_globals_device_array_capture(device):
    with ember.Device(device):
        PRICES = cuda.to_device(np.array([10.0, 25.0, 5.0, 15.0, 30.0], dtype=np.float32))

        @cuda.jit
        def compute_totals(quantities, totals):
            i = cuda.grid(1)
            if i < totals.size:
                totals[i] = quantities[i] * PRICES[i]

        d_quantities = cuda.to_device(np.ones(5, dtype=np.float32))
        d_totals = cuda.device_array(5, dtype=np.float32)
        compute_totals[1, 32](d_quantities, d_totals)
        np.testing.assert_equal(d_totals.copy_to_host(), [10.0, 25.0, 5.0, 15.0, 30.0])
        PRICES.copy_to_device(np.array([20.0, 50.0, 10.0, 30.0, 60.0], dtype=np.float32))
        compute_totals[1, 32](d_quantities, d_totals)
        np.testing.assert_allclose(d_totals.copy_to_host(),
                                   np.array([20.0, 50.0, 10.0, 30.0, 60.0], dtype=np.float32))


def test_cpointer(device):
    from ember.cuda import types
    sig = types.void(types.CPointer(types.uint8), types.uint32)

    with ember.Device(device):
        @cuda.jit(sig)
        def add_one(x, n):
            i = cuda.grid(1)
            if i < n:
                x[i] += 1

        x = cuda.to_device(np.arange(10, dtype=np.uint8))
        if not hasattr(x, "__cuda_array_interface__"):
            # cpu with a CUDA driver present (docs/kernels.md)
            pytest.skip("no __cuda_array_interface__ on cpu where a driver loads")
        x_ptr = x.__cuda_array_interface__["data"][0]
        add_one[1, 32](x_ptr, len(x))
        np.testing.assert_equal(x.copy_to_host(), np.arange(10, dtype=np.uint8) + 1)


_FUNCTIONS_CU = r"""
extern "C" __device__ int
mul_f32_f32(float* return_value, float x, float y)
{
  *return_value = x * y;
  return 0;
}

extern "C" __device__ int sum_reduce(float* return_value, float* array, int n);

extern "C" __device__ int
sum_reduce(float* return_value, float* array, int n)
{
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) {
    sum += array[i];
  }
  *return_value = (float)sum;
  return 0;
}
"""


def test_ffi_linking_cu(device, tmp_path):
    functions_cu = tmp_path / "functions.cu"
    functions_cu.write_text(_FUNCTIONS_CU)
    mul = cuda.declare_device("mul_f32_f32", "float32(float32, float32)",
                              link=str(functions_cu))

    @cuda.jit
    def multiply_vectors(r, x, y):
        i = cuda.grid(1)
        if i < len(r):
            r[i] = mul(x[i], y[i])

    rng = np.random.default_rng(1)
    x = rng.random(32).astype(np.float32)
    y = rng.random(32).astype(np.float32)
    r = np.zeros_like(x)
    with ember.Device(device):
        multiply_vectors[1, 32](r, x, y)
    np.testing.assert_array_equal(r, x * y)


def test_ffi_from_buffer(device, tmp_path):
    cffi = pytest.importorskip("cffi")
    functions_cu = tmp_path / "functions.cu"
    functions_cu.write_text(_FUNCTIONS_CU)
    signature = "float32(CPointer(float32), int32)"
    sum_reduce = cuda.declare_device("sum_reduce", signature, link=str(functions_cu))
    ffi = cffi.FFI()

    @cuda.jit
    def reduction_caller(result, array):
        array_ptr = ffi.from_buffer(array)
        result[()] = sum_reduce(array_ptr, len(array))

    x = np.arange(10).astype(np.float32)
    r = np.ndarray((), dtype=np.float32)
    with ember.Device(device):
        reduction_caller[1, 1](r, x)
    np.testing.assert_allclose(np.sum(x), r[()])


def test_ffi_extra_includes(device, tmp_path, monkeypatch):
    """saxpy.cu includes its headers with angle brackets, found through
    config.CUDA_NVRTC_EXTRA_SEARCH_PATHS (NVRTC's -I in Numba)."""
    mul_dir = tmp_path / "ffi" / "include"
    add_dir = tmp_path / "data" / "include"
    mul_dir.mkdir(parents=True)
    add_dir.mkdir(parents=True)
    (mul_dir / "mul.cuh").write_text(
        "template <typename T>\n__device__ T mymul(T a, T b) { return a * b; }\n")
    (add_dir / "add.cuh").write_text(
        "template <typename T>\n__device__ T myadd(T a, T b) { return a + b; }\n")
    saxpy_cu = tmp_path / "ffi" / "saxpy.cu"
    saxpy_cu.write_text(
        "#include <add.cuh> // In numba/cuda/tests/data/include\n"
        "#include <mul.cuh> // In numba/cuda/tests/doc_examples/ffi/include\n\n"
        'extern "C"\n__device__ int saxpy(float *ret, float a, float x, float y)\n'
        "{\n    *ret = myadd(mymul(a, x), y);\n    return 0;\n}\n")
    from ember.cuda import config
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", config.CUDA_NVRTC_EXTRA_SEARCH_PATHS)
    config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = ":".join([str(mul_dir), str(add_dir)])
    saxpy = cuda.declare_device("saxpy", sig="float32(float32, float32, float32)",
                                link=str(saxpy_cu))

    @cuda.jit
    def vector_saxpy(a, x, y, res):
        i = cuda.grid(1)
        if i < len(res):
            res[i] = saxpy(a, x[i], y[i])

    size = 1000
    a = 3.0
    X = np.arange(size, dtype="float32")
    Y = np.ones((size,), dtype="float32")
    R = np.zeros((size,), dtype="float32")
    with ember.Device(device):
        vector_saxpy[(size // 32) + 1, 32](a, X, Y, R)
    np.testing.assert_equal(R, np.float32(a) * X + Y)


def test_angle_include_outside_search_paths_left_to_compiler(tmp_path, monkeypatch):
    """A `<name>` in no search path (a system or CUDA header) stays an
    #include for the compiler; one in a search path is put in place."""
    from ember.cuda import config, ffi
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "h.cuh").write_text("// the header\n")
    cu = tmp_path / "f.cu"
    cu.write_text("#include <cuda_fp16.h>\n#include <h.cuh> /* here */\n"
                  "#include <h.cuh> /* open\n*/\n")
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", str(tmp_path / "inc"))
    (_, text), = ffi.read_links([str(cu)])
    lines = text.split("\n")
    assert lines[0] == "#include <cuda_fp16.h>"
    assert "// the header" in lines
    assert "#include <h.cuh> /* open" in lines   # a comment that goes on: not touched
    # the file's own angle include is not looked up beside it
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", "")
    (tmp_path / "h.cuh").write_text("// beside\n")
    (_, text), = ffi.read_links([str(cu)])
    assert "// beside" not in text and "#include <h.cuh> /* here */" in text
