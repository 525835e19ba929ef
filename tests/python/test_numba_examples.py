"""What Numba-CUDA's documentation examples need of ember (issue 18 item 3):
trimmed versions of those programs in our own words, each checked against
NumPy or a hand-computed value on every device: overloads keyed by type
tuples, array variables rebound to another buffer, Numba-style device
arrays (scalars from integer indexing), CPointer arguments, and
`import ember as numba; @numba.jit` functions reused in kernels."""
import math
import os

import numpy as np
import pytest

import ember
from ember import cuda
from ember.cuda import int32, float64, types
from conftest import HAVE_NVRTC


def host(a):
    return a.copy_to_host() if hasattr(a, "copy_to_host") else np.asarray(a)


# ---- kernel.overloads[sig] and max_cooperative_grid_blocks ------------------------

def _rows_from_previous(m):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, m.shape[0]):
        m[row, col] = m[row - 1, m.shape[1] - col - 1] + 1
        g.sync()


def test_overloads_keyed_by_type_tuple(device):
    sig = (int32[:, ::1],)
    with ember.Device(device):
        k = cuda.jit(sig)(_rows_from_previous)
        ov = k.overloads[sig]
        assert sig in k.overloads and ("Ai4_2C",) in k.overloads
        assert k.overloads["void(int32[:, ::1])"] == ov
        mb = ov.max_cooperative_grid_blocks(8)
        assert mb == k.max_cooperative_grid_blocks(8) and mb >= 4
        a = np.zeros((6, 32), np.int32)
        k[4, 8](a)
    np.testing.assert_array_equal(a, np.tile(np.arange(6), (32, 1)).T)
    with pytest.raises(KeyError):
        k.overloads[(float64[:],)]


# ---- array variables rebound: the heat equation's two buffers ---------------------

def _heat(b0, b1, steps, k):
    i = cuda.grid(1)
    if i >= len(b0):
        return
    g = cuda.cg.this_grid()
    for step in range(steps):
        if step % 2 == 0:
            cur = b0
            nxt = b1
        else:
            cur = b1
            nxt = b0
        t = cur[i]
        left = cur[i - 1] if i > 0 else 0.0
        right = cur[i + 1] if i < len(cur) - 1 else 0.0
        nxt[i] = t + k * (left - 2 * t + right)
        g.sync()


def test_array_variable_rebound(device):
    n, steps = 41, 30
    data = np.zeros(n)
    data[20] = 100.0
    exp = [data.copy(), np.zeros(n)]
    for s in range(steps):
        cur, nxt = exp[s % 2], exp[(s + 1) % 2]
        padded = np.concatenate([[0.0], cur, [0.0]])
        nxt[:] = cur + 0.25 * (padded[:-2] - 2 * cur + padded[2:])
    with ember.Device(device):
        b0 = cuda.to_device(data)
        b1 = cuda.device_array_like(b0)
        cuda.jit(_heat).forall(n)(b0, b1, steps, 0.25)
        got = b1.copy_to_host() if steps % 2 else b0.copy_to_host()
    np.testing.assert_allclose(got, exp[steps % 2], rtol=1e-12, atol=1e-12)


def test_array_variable_of_two_kinds_is_an_error():
    def k(a, b):
        x = a
        if cuda.grid(1) == 0:
            x = b
        x[0] = 1

    with ember.Device("cpu"):
        with pytest.raises(ember.CompileError, match="'x' would hold arrays of two kinds"):
            cuda.jit(k)[1, 1](np.zeros(2), np.zeros(2, np.int32))


# ---- Numba's device arrays: scalars from integer indexing -------------------------

def _block_sum(data):
    tid = cuda.threadIdx.x
    sh = cuda.shared.array(64, int32)
    sh[tid] = data[tid]
    cuda.syncthreads()
    s = 1
    while s < cuda.blockDim.x:
        if tid % (2 * s) == 0:
            sh[tid] += sh[tid + s]
        s *= 2
        cuda.syncthreads()
    if tid == 0:
        data[0] = sh[0]


def test_device_array_indexing_gives_scalars(device):
    with ember.Device(device):
        a = cuda.to_device(np.arange(64))
        assert isinstance(a, cuda.DeviceNDArray) and isinstance(a, ember.ndarray)
        cuda.jit(_block_sum)[1, 64](a)
        first = a[0]
        assert type(first) is np.int64 and first == 2016
        np.testing.assert_equal(a[0], sum(range(64)))
        m = cuda.to_device(np.arange(6.0).reshape(2, 3))
        assert type(m[1, 2]) is np.float64 and m[1, 2] == 5.0
        row = m[1]                       # a view, still Numba's kind
        assert isinstance(row, cuda.DeviceNDArray) and row[0] == 3.0
        np.testing.assert_array_equal(host(m[:, 1:]), [[1, 2], [4, 5]])
        assert list(cuda.to_device(np.array([1, 10, 234]))) == [1, 10, 234]
        e = cuda.device_array((2, 2), np.float32)
        assert isinstance(e, cuda.DeviceNDArray) and e.dtype == np.float32
        assert e.is_c_contiguous() and not e.is_f_contiguous()
        # ember's own arrays keep CuPy's answer, a 0-d array
        z = ember.asarray(np.arange(3))[1]
        assert isinstance(z, ember.ndarray) and z.ndim == 0 and int(z) == 1
        assert type(a + 1) is ember.ndarray


# ---- CPointer: an address from __cuda_array_interface__ ---------------------------

def _add_one(x, n):
    i = cuda.grid(1)
    if i < n:
        x[i] += 1


def test_cpointer_address_argument(device):
    sig = types.void(types.CPointer(types.uint8), types.uint32)
    with ember.Device(device):
        k = cuda.jit(sig)(_add_one)
        x = cuda.to_device(np.arange(10, dtype=np.uint8))
        # The doc example reads the interface; a cpu array has one only
        # where no CUDA driver loads, and a.data.ptr (CuPy's) everywhere.
        if device.startswith("cuda"):
            ptr = x.__cuda_array_interface__["data"][0]
        else:
            ptr = x.data.ptr
        k[1, 32](ptr, len(x))
        np.testing.assert_array_equal(x.copy_to_host(), np.arange(1, 11))
        with pytest.raises(TypeError, match="no matching definition"):
            k[1, 32](1.5, 3)


def test_cpu_cuda_array_interface_only_without_a_driver():
    a = ember.asarray(np.arange(4, dtype=np.float32), device="cpu")
    if cuda.runtime.driverGetVersion() != 0:      # a CUDA driver loads
        with pytest.raises(AttributeError, match="this array is on cpu"):
            a.__cuda_array_interface__
        return
    ci = a.__cuda_array_interface__
    assert ci["data"][0] == a.__array_interface__["data"][0]
    assert ci["shape"] == (4,) and ci["typestr"] == "<f4" and ci["stream"] is None


# ---- import ember as numba: @numba.jit reused inside a kernel ---------------------

def test_numba_jit_function_reused_in_kernel(device):
    import ember as numba

    @numba.jit
    def logic(x, y, z):
        return 4 * z * (2 * x - (4 * y) / 2 * math.pi)

    @numba.njit
    def inv(x):
        return 1.0 / x

    assert numba.jit(nopython=True)(inv.py_func)(2.0) == 0.5
    assert logic(1, 2, 3) == pytest.approx(-126.79644737231007, rel=1e-15)
    assert inv(4.0) == 0.25

    def k(res, x, y, z):
        i = cuda.grid(1)
        if i < len(x):
            res[i] = logic(x[i], y[i], z[i]) + inv(x[i])

    x, y, z = np.array([1, 10, 234]), np.array([2, 2, 4014]), np.array([3, 14, 2211])
    with ember.Device(device):
        res = cuda.to_device(np.zeros(3))
        cuda.jit(k).forall(3)(res, cuda.to_device(x), cuda.to_device(y), cuda.to_device(z))
        got = res.copy_to_host()
    exp = [logic(a, b, c) + 1.0 / a for a, b, c in zip(x, y, z)]
    np.testing.assert_allclose(got, exp, rtol=1e-12)
    with pytest.raises(TypeError, match="unexpected keyword"):
        numba.jit(bogus=True)


# ---- CuPy's cupyx.jit kernels on the same translator ------------------------------

def test_cupyx_jit_rawkernel(device):
    from ember.cupyx import jit

    @jit.rawkernel()
    def copy_scaled(x, y, size):
        tid = jit.blockIdx.x * jit.blockDim.x + jit.threadIdx.x
        ntid = jit.gridDim.x * jit.blockDim.x
        for i in range(tid, size, ntid):
            y[i] = x[i] * 2

    @jit.rawkernel()
    def block_sum(x, y, size):
        tid = jit.threadIdx.x
        ntid = jit.blockDim.x
        value = np.float64(0)
        for i in range(tid, size, ntid):
            value += x[i]
        smem = jit.shared_memory(np.float64, 64)
        smem[tid] = value
        jit.syncthreads()
        if tid == 0:
            total = np.float64(0)
            for i in range(ntid):
                total += smem[i]
            y[0] = total
        jit.atomic_add(y, 1, 1.0)

    x = np.random.default_rng(3).random(1000)
    with ember.Device(device):
        ex = ember.asarray(x)
        ey = ember.zeros(1000)
        copy_scaled((4,), (32,), (ex, ey, np.uint32(1000)))
        np.testing.assert_array_equal(host(ey), x * 2)
        ey2 = ember.zeros(1000)
        copy_scaled[3, 64](ex, ey2, 1000)
        np.testing.assert_array_equal(host(ey2), x * 2)
        out = ember.zeros(2)
        block_sum((1,), (64,), (ex, out, 1000))
        got = host(out)
    np.testing.assert_allclose(got[0], x.sum(), rtol=1e-12)
    assert got[1] == 64.0
    if HAVE_NVRTC:
        from ember.jit import translate
        for f, codes in ((copy_scaled, ["Af8_1C", "Af8_1C", "u4"]),
                         (block_sum, ["Af8_1C", "Af8_1C", "i8"])):
            t = translate(f.py_func, codes, target="cuda")
            obj = cuda.Program(t.source, name="c.cu").compile("ptx", arch=90)
            assert b".entry" in obj.code
    with pytest.raises(TypeError, match="args must be a tuple"):
        copy_scaled((1,), (1,), [ex, ey, 3])
    with pytest.raises(RuntimeError, match="only be used inside"):
        jit.syncthreads()


# ---- cuda.declare_device: CUDA C++ device functions linked from a file ------------

_FOREIGN_CU = r"""
// Numba's ABI: the result through the first pointer, a status returned
extern "C" __device__ int scaled_product(float *out, float a, float b)
{
    *out = 2.0f * a * b;
    return 0;
}

template <typename T> __device__ T sum_of(const T *p, int n)
{
    T s = T(0);
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}

extern "C" __device__ int prefix_total(double *out, double *p, int n)
{
    *out = sum_of(p, n);
    return 0;
}
"""


def _foreign(tmp_path):
    cu = tmp_path / "foreign.cu"
    cu.write_text(_FOREIGN_CU)
    prod = cuda.declare_device("scaled_product", "float32(float32, float32)", link=str(cu))
    tot = cuda.declare_device("prefix_total", "float64(CPointer(float64), int32)",
                              link=str(cu))
    return prod, tot


def test_declare_device_links_cuda_cxx(device, tmp_path):
    prod, tot = _foreign(tmp_path)

    @cuda.jit
    def k(r, x, y, acc):
        i = cuda.grid(1)
        if i < len(r):
            r[i] = prod(x[i], y[i])
        if i == 0:
            acc[3] = tot(acc, 3)

    x = np.linspace(-1, 1, 9).astype(np.float32)
    y = (x * 3 + 1).astype(np.float32)
    r = np.zeros_like(x)
    acc = np.array([1.5, 2.0, 3.25, 0.0])
    with ember.Device(device):
        k[1, 16](r, x, y, acc)
    np.testing.assert_array_equal(r, np.float32(2) * x * y)
    assert acc[3] == 6.75
    if HAVE_NVRTC:   # the same source compiles for the GPU
        from ember.jit import translate
        t = translate(k.py_func, ["Af4_1C"] * 3 + ["Af8_1C"], target="cuda")
        obj = cuda.Program(t.source, name="k.cu").compile("ptx", arch=90)
        assert b".entry" in obj.code and t.name.encode() in obj.code


def test_declare_device_errors(tmp_path):
    prod, tot = _foreign(tmp_path)
    with pytest.raises(FileNotFoundError, match="not found"):
        cuda.declare_device("f", "float32(float32)", link=str(tmp_path / "none.cu"))
    with pytest.raises(TypeError, match="returns a value"):
        cuda.declare_device("f", "void(float32)", link=str(tmp_path / "foreign.cu"))
    with pytest.raises(RuntimeError, match="call it from a @cuda.jit kernel"):
        prod(1.0, 2.0)

    @cuda.jit
    def wrong(acc):
        acc[0] = tot(acc, 3)

    with ember.Device("cpu"):
        with pytest.raises(ember.CompileError, match=r"CPointer\(float64\)"):
            wrong[1, 1](np.zeros(3, np.float32))


# ---- a captured DeviceNDArray is never cached on disk -----------------------------

_CAPTURE_SCRIPT = '''
import sys
import numpy as np
from ember import cuda
import ember
with ember.Device(sys.argv[1]):
    table = cuda.to_device(np.arange(4.0))

    @cuda.jit
    def k(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = table[i] * 2

    out = cuda.device_array(4)
    k[1, 4](out)
    print(out.copy_to_host().tolist())
'''


def test_captured_device_array_not_cached_on_disk(device, tmp_path, monkeypatch):
    # its address is baked into the source: a later process must translate anew
    from helpers import run_python
    script = tmp_path / "k.py"
    script.write_text(_CAPTURE_SCRIPT)
    monkeypatch.setenv("EMBER_CACHE_DIR", str(tmp_path / "cache"))
    for _ in range(2):
        r = run_python(str(script), device)
        assert r.returncode == 0, r.stderr
        assert r.stdout.split("\n")[0] == "[0.0, 2.0, 4.0, 6.0]"
    assert not [f for f in os.listdir(tmp_path / "cache") if f.startswith("jit-")]


def test_declare_device_search_paths(device, tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "twice.cuh").write_text(
        "#pragma once\n__device__ inline float twice(float v) { return 2.0f * v; }\n")
    (tmp_path / "b" / "plus.cuh").write_text(
        '#pragma once\n#include "twice.cuh"\n'
        "__device__ inline float plus_twice(float a, float b) { return a + twice(b); }\n")
    cu = tmp_path / "f.cu"
    cu.write_text('#include "plus.cuh"\nextern "C" __device__ int f(float *r, float a, '
                  'float b) { *r = plus_twice(a, b); return 0; }\n')
    from ember.cuda import config
    monkeypatch.setattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS",
                        "%s:%s" % (tmp_path / "a", tmp_path / "b"))
    f = cuda.declare_device("f", "float32(float32, float32)", link=str(cu))

    @cuda.jit
    def k(r, x):
        i = cuda.grid(1)
        if i < len(r):
            r[i] = f(x[i], 1.5)

    x = np.arange(5, dtype=np.float32)
    r = np.zeros_like(x)
    with ember.Device(device):
        k[1, 8](r, x)
    np.testing.assert_array_equal(r, x + np.float32(3))


def test_cffi_from_buffer(device, tmp_path):
    cffi = pytest.importorskip("cffi")
    _, tot = _foreign(tmp_path)
    ffi = cffi.FFI()

    @cuda.jit
    def k(result, values):
        p = ffi.from_buffer(values)
        result[()] = tot(p, len(values))

    v = np.arange(6, dtype=np.float64)
    r = np.zeros((), np.float64)
    with ember.Device(device):
        k[1, 1](r, v)
    assert r[()] == v.sum()


def test_jit_link_argument(device, tmp_path):
    cu = tmp_path / "foreign.cu"
    cu.write_text(_FOREIGN_CU)
    prod = cuda.declare_device("scaled_product", "float32(float32, float32)")

    def k(r, x):
        i = cuda.grid(1)
        if i < len(r):
            r[i] = prod(x[i], x[i])

    x = np.arange(4, dtype=np.float32)
    r = np.zeros_like(x)
    with ember.Device(device):
        cuda.jit(link=[str(cu)])(k)[1, 4](r, x)
    np.testing.assert_array_equal(r, 2 * x * x)
    with pytest.raises(FileNotFoundError, match="not found"):
        cuda.jit(link=[str(tmp_path / "nope.cu")])
    with pytest.raises(NotImplementedError, match="PTX"):
        (tmp_path / "f.ptx").write_text("")
        cuda.jit(link=str(tmp_path / "f.ptx"))


# ---- the kernels above compile with NVRTC (what the GPU run will build) -----------

@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
@pytest.mark.parametrize("f, codes", [
    (_rows_from_previous, ["Ai4_2C"]),
    (_heat, ["Af8_1C", "Af8_1C", "i8", "f8"]),
    (_block_sum, ["Ai8_1C"]),
    (_add_one, ["Au1_1A", "u4"]),
])
def test_nvrtc_compiles(f, codes):
    from ember.jit import translate
    t = translate(f, codes, target="cuda")
    obj = cuda.Program(t.source, name=f.__name__ + ".cu").compile("ptx", arch=90)
    assert b".entry" in obj.code and t.name.encode() in obj.code
