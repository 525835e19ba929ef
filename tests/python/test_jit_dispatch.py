"""ember.cuda.jit's dispatcher: launches, argument types, specialisation,
NumPy transfers, streams, forall, bounds errors, the disk cache and the
errors of bad launches; on cpu (the simulator) and on cuda:0."""
import os
import sys
import textwrap

import numpy as np
import pytest

import ember
from ember import cuda
from conftest import HAVE_NVRTC
from helpers import run_python

HERE = os.path.dirname(os.path.abspath(__file__))


@cuda.jit
def vadd(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


@cuda.jit
def scale2d(a, out, s):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] * s + i


@cuda.jit
def store(out, x):
    if cuda.grid(1) == 0:
        out[0] = x


@cuda.jit
def past_end(a, n):
    i = cuda.grid(1)
    if i < n:
        a[i + 1] = 1.0


@cuda.jit(device=True)
def twice(x):
    return x * 2


@cuda.jit
def use_twice(a, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = twice(a[i])


@cuda.jit
def block_sum(a, out):
    buf = cuda.shared.array(0, dtype=np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = a[i] if i < a.size else 0.0
    cuda.syncthreads()
    if t == 0:
        s = 0.0
        for k in range(cuda.blockDim.x):
            s += buf[k]
        out[cuda.blockIdx.x] = s


def arr(x, device):
    return ember.asarray(x, device=device)


def blocks(n, t=128):
    return max(1, (n + t - 1) // t)


# ---- launches -----------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize("n", [0, 1, 127, 1025])
def test_vector_add(device, dtype, n):
    rng = np.random.default_rng(n)
    a = (rng.random(n) * 100).astype(dtype)
    b = (rng.random(n) * 100).astype(dtype)
    da, db = arr(a, device), arr(b, device)
    out = ember.zeros(n, dtype=dtype, device=device)
    vadd[blocks(n), 128](da, db, out)
    np.testing.assert_array_equal(ember.asnumpy(out), a + b)


def test_vector_add_large(device):
    n = 3_000_001
    a = np.arange(n, dtype=np.float32)
    da = arr(a, device)
    out = ember.empty(n, dtype=np.float32, device=device)
    vadd.forall(n)(da, da, out)
    np.testing.assert_array_equal(ember.asnumpy(out), a + a)


def test_2d_grid(device):
    a = np.arange(37 * 45, dtype=np.float64).reshape(37, 45)
    out = ember.zeros((37, 45), dtype=np.float64, device=device)
    scale2d[(5, 6), (8, 8)](arr(a, device), out, 1.5)
    i = np.arange(37)[:, None]
    np.testing.assert_array_equal(ember.asnumpy(out), a * 1.5 + i)


def test_strided_and_transposed_arrays(device):
    a = np.arange(60, dtype=np.float32).reshape(6, 10)
    da = arr(a, device)
    out = ember.zeros((10, 6), dtype=np.float32, device=device)
    scale2d[(2, 2), (8, 8)](da.T, out, 2.0)       # an 'A' layout specialisation
    np.testing.assert_array_equal(ember.asnumpy(out), a.T * 2 + np.arange(10)[:, None])
    assert any(c[0] == "Af4_2A" for c in scale2d.overloads)
    b = arr(np.arange(20, dtype=np.float32), device)
    o = ember.zeros(10, dtype=np.float32, device=device)
    vadd[1, 32](b[::2], b[1::2], o)
    np.testing.assert_array_equal(ember.asnumpy(o), np.arange(0, 20, 2) * 2 + 1)


SCALARS = [
    (2.5, np.float64, "f8"),
    (-7, np.int64, "i8"),
    (True, np.bool_, "b1"),
    (np.float32(1.25), np.float32, "f4"),
    (np.int32(-3), np.int32, "i4"),
    (np.uint8(200), np.uint8, "u1"),
    (np.int16(-300), np.int16, "i2"),
    (np.uint64(2**63 + 5), np.uint64, "u8"),
]


@pytest.mark.parametrize("value,dtype,code", SCALARS, ids=[s[2] for s in SCALARS])
def test_scalars(device, value, dtype, code):
    out = ember.zeros(1, dtype=dtype, device=device)
    store[1, 1](out, value)
    assert ember.asnumpy(out)[0] == value
    assert ("A%s_1C" % np.dtype(dtype).str[1:], code) in store.overloads


def test_complex_scalar(device):
    out = ember.zeros(1, dtype=np.complex128, device=device)
    store[1, 1](out, 1.5 - 2j)
    assert ember.asnumpy(out)[0] == 1.5 - 2j


def test_python_int_past_int64_is_uint64(device):
    out = ember.zeros(1, dtype=np.uint64, device=device)
    store[1, 1](out, 2**64 - 1)
    assert ember.asnumpy(out)[0] == 2**64 - 1
    for big in (-2**70, 2**70):
        with pytest.raises(OverflowError, match="argument 'x' .*64 bits"):
            store[1, 1](out, big)
    with pytest.raises(TypeError, match="bfloat16"):
        store[1, 1](ember.zeros(1, dtype=ember.bfloat16, device=device), 1.0)


def test_numpy_auto_transfer(device):
    a = np.arange(1000, dtype=np.float32)
    b = np.ones(1000, dtype=np.float32)
    out = np.zeros(1000, dtype=np.float32)
    with ember.Device(device):
        vadd[8, 128](a, b, out)
    np.testing.assert_array_equal(out, a + 1)
    # non-contiguous NumPy arrays, and a read-only input
    big = np.zeros(2000, dtype=np.float32)
    b.flags.writeable = False
    with ember.Device(device):
        vadd[8, 128](a, b, big[::2])
    np.testing.assert_array_equal(big[::2], a + 1)
    assert not big[1::2].any()
    # mixed: NumPy arrays go to the ember arrays' device
    out2 = ember.zeros(1000, dtype=np.float32, device=device)
    vadd[8, 128](a, b, out2)
    np.testing.assert_array_equal(ember.asnumpy(out2), a + 1)


def _copy(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i]


def _axpy(x, y, n):
    i = cuda.grid(1)
    if i < n:
        y[i] = 2 * x[i] + y[i]


def _over(a, n):
    i = cuda.grid(1)
    if i < n:
        a[i + 1] = 1.0


def test_specialisation_count(device):
    copy = cuda.jit(_copy)
    for dt in (np.float32, np.float64, np.float32, np.float64):
        x = arr(np.arange(10, dtype=dt), device)
        o = ember.zeros(10, dtype=dt, device=device)
        copy[1, 32](x, o)
        np.testing.assert_array_equal(ember.asnumpy(o), np.arange(10, dtype=dt))
    assert set(copy.overloads) == {("Af4_1C", "Af4_1C"), ("Af8_1C", "Af8_1C")}
    assert copy.definitions.keys() == copy.overloads.keys()
    src = copy.inspect_source(("Af4_1C", "Af4_1C"))
    assert "__global__" in src
    with pytest.raises(KeyError):
        copy.inspect_source(("Ai4_1C", "Ai4_1C"))


def test_device_function(device):
    a = np.arange(50, dtype=np.float32)
    out = ember.zeros(50, dtype=np.float32, device=device)
    use_twice[1, 64](arr(a, device), out)
    np.testing.assert_array_equal(ember.asnumpy(out), a * 2)
    assert twice.py_func(3) == 6
    with pytest.raises(TypeError, match="device function"):
        twice[1, 1]
    with pytest.raises(TypeError, match="device function"):
        twice(1.0)


def test_stream_and_dynamic_shared(device):
    n = 1000
    a = np.arange(n, dtype=np.float32)
    da = arr(a, device)
    out = ember.zeros(blocks(n), dtype=np.float32, device=device)
    s = ember.Stream(device=device)
    block_sum[blocks(n), 128, s, 128 * 4](da, out)
    s.synchronize()
    expect = np.add.reduceat(a, np.arange(0, n, 128))
    np.testing.assert_allclose(ember.asnumpy(out), expect, rtol=1e-6)
    out2 = ember.zeros(blocks(n), dtype=np.float32, device=device)
    block_sum[blocks(n), 128, 0, 512](da, out2)
    np.testing.assert_allclose(ember.asnumpy(out2), expect, rtol=1e-6)
    # the stream form also works for kernels without shared memory
    o3 = ember.zeros(n, dtype=np.float32, device=device)
    vadd[blocks(n), 128, s](da, da, o3)
    s.synchronize()
    np.testing.assert_array_equal(ember.asnumpy(o3), a * 2)


def test_forall(device):
    for n in (0, 1, 255, 256, 257, 5000):
        a = arr(np.arange(n, dtype=np.float64), device)
        out = ember.zeros(n, dtype=np.float64, device=device)
        vadd.forall(n)(a, a, out)
        np.testing.assert_array_equal(ember.asnumpy(out), np.arange(n) * 2.0)
    cfg = vadd.forall(1000, tpb=64)
    assert cfg.griddim == (16, 1, 1) and cfg.blockdim == (64, 1, 1)
    with pytest.raises(ValueError):
        vadd.forall(-1)


def test_launch_configs_are_reused():
    assert vadd[4, 32] is vadd[4, 32]
    assert vadd[(4, 1), (32,)].griddim == (4, 1, 1)
    c = vadd[2, 3, 0, 16]
    assert c.sharedmem == 16 and c.stream is None and c.dispatcher is vadd
    assert vadd.configure(2, 3, sharedmem=16) is c
    assert vadd.configure((4,), 32) is vadd[4, 32]


# ---- bounds errors -------------------------------------------------------------

def test_bounds_error_on_cpu():
    a = ember.zeros(10, dtype=np.float32, device="cpu")
    with pytest.raises(IndexError) as ei:
        past_end[1, 32](a, 10)
    msg = str(ei.value)
    assert "kernel 'past_end'" in msg
    assert "index 10 is out of bounds for axis 0 with size 10" in msg
    assert "array 'a'" in msg
    assert "test_jit_dispatch.py:%d" % (past_end.py_func.__code__.co_firstlineno + 4) in msg
    assert "thread (9, 0, 0) of block (0, 0, 0)" in msg
    # the access was dropped, the rest done
    assert ember.asnumpy(a)[1:].all() and ember.asnumpy(a)[0] == 0
    # on a created stream too, and a good launch after a bad one is fine
    s = ember.Stream(device="cpu")
    b = ember.zeros(10, dtype=np.float32, device="cpu")
    with pytest.raises(IndexError, match="block \\(1, 0, 0\\)"):
        past_end[2, 5, s](b, 10)
    past_end[1, 32](b, 9)


def test_bounds_error_with_debug_on_cuda(need_cuda):
    over = cuda.jit(debug=True)(_over)
    a = ember.zeros(10, dtype=np.float32, device="cuda:0")
    with pytest.raises(IndexError, match="index 10 is out of bounds"):
        over[1, 32](a, 10)


# ---- explicit signatures ---------------------------------------------------------

def test_explicit_signature(device):
    with ember.Device(device):
        axpy = cuda.jit("void(float32[:], float32[:], int32)")(_axpy)
        assert len(axpy.overloads) == 1          # compiled at decoration
    x = arr(np.arange(100, dtype=np.float32), device)
    y = arr(np.ones(100, dtype=np.float32), device)
    axpy[1, 128](x, y, 100)                       # 'C' arrays, a Python int
    np.testing.assert_array_equal(ember.asnumpy(y), np.arange(100) * 2 + 1)
    assert len(axpy.overloads) == 1
    assert axpy.signatures == [("Af4_1A", "Af4_1A", "i4")]
    with pytest.raises(TypeError, match="no matching definition"):
        axpy[1, 128](arr(np.ones(3), device), y, 3)
    with pytest.raises(OverflowError, match="does not fit"):
        axpy[1, 128](x, y, 2**40)


# ---- errors ------------------------------------------------------------------------

def test_bad_launches(device):
    a = ember.zeros(4, dtype=np.float32, device=device)
    with pytest.raises(TypeError, match="takes 3 arguments \\(2 given\\)"):
        vadd[1, 4](a, a)
    with pytest.raises(TypeError, match="argument 'b' \\(position 1\\)"):
        vadd[1, 4](a, "x", a)
    with pytest.raises(TypeError, match="positional"):
        vadd[1, 4](a, a, out=a)
    with pytest.raises(TypeError, match="launched with a configuration"):
        vadd(a, a, a)
    for bad in [(0, 4), (1, 0), ((1, 2, 3, 4), 4), ("x", 4), (1.5, 4), ((), 4), (-1, 4)]:
        with pytest.raises(ValueError):
            vadd[bad]
    with pytest.raises(ValueError):
        vadd[1]
    with pytest.raises(ValueError):
        vadd[1, 2, 0, 0, 5]
    with pytest.raises(TypeError, match="stream"):
        vadd[1, 2, "s"]
    with pytest.raises(ValueError, match=">= 0"):
        vadd[1, 2, 0, -5]
    with pytest.raises(ValueError, match="2048 threads"):
        vadd[1, 2048](a, a, a)          # the device's limit, from em_launch


def test_mixed_devices(need_cuda):
    a = ember.zeros(4, dtype=np.float32, device="cpu")
    b = ember.zeros(4, dtype=np.float32, device="cuda:0")
    with pytest.raises(ValueError, match="'a' is on cpu but 'b' is on cuda:0"):
        vadd[1, 4](a, b, a)
    with pytest.raises(ValueError, match="the stream is on cuda:0 but 'a' is on cpu"):
        vadd[1, 4, ember.Stream(device="cuda:0")](a, a, a)


def test_translator_errors_propagate(device):
    @cuda.jit
    def bad(a):
        d = {}
        a[0] = d

    with pytest.raises(ember.CompileError):
        bad[1, 1](ember.zeros(1, dtype=np.float32, device=device))


def test_jit_arguments():
    with pytest.raises(TypeError):
        cuda.jit(5)
    with pytest.raises(TypeError):
        cuda.jit(lambda *a: None)
    k = cuda.jit(fastmath=True, lineinfo=True, opt=False, cache=False)(vadd.py_func)
    assert k.targetoptions == {"debug": False, "fastmath": True, "lineinfo": True,
                               "cache": False, "opt": False}
    assert k.__name__ == "vadd" and k.py_func is vadd.py_func
    cuda.jit(max_registers=32, inline=True)(vadd.py_func)
    with pytest.raises(ValueError, match="max_registers"):
        cuda.jit(max_registers=0)
    with pytest.raises(FileNotFoundError, match="link file 'x.cu' not found"):
        cuda.jit(link=["x.cu"])      # linking works (test_numba_examples.py)
    with pytest.raises(TypeError, match="unexpected keyword"):
        cuda.jit(nonsense=True)
    d = cuda.jit("float32(float32)", device=True)(twice.py_func)
    assert isinstance(d, cuda.DeviceFunction) and d.signatures == ["float32(float32)"]
    assert isinstance(vadd, cuda.Dispatcher) and vadd.signatures == []
    assert isinstance(vadd[1, 1], cuda.LaunchConfig)
    a = ember.ones(3, dtype=np.float32, device="cpu")
    k[1, 4](a, a, a)
    np.testing.assert_array_equal(ember.asnumpy(a), [2, 2, 2])


def test_kernel_cache_stats():
    s = ember._ember._kernel_cache_stats()
    assert set(s) == {"memory_hits", "disk_hits", "compiles", "disk_rejects", "entries"}


# ---- the disk cache ------------------------------------------------------------

CACHE_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import ember
    from ember import cuda

    @cuda.jit
    def add(a, b, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a[i] + b[i]

    dev = sys.argv[1]
    args = [(ember.asarray(np.arange(100, dtype=dt), device=dev),
             ember.zeros(100, dtype=dt, device=dev)) for dt in (np.float32, np.float64)]
    before = ember._ember._kernel_cache_stats()["compiles"]
    for a, out in args:
        add[1, 128](a, a, out)
        assert (ember.asnumpy(out) == np.arange(100) * 2).all()
    s = ember._ember._kernel_cache_stats()
    print("compiles", s["compiles"] - before, "translator", "ember.jit" in sys.modules,
          "overloads", len(add.overloads))
""")


def test_disk_cache_in_a_new_process(device, tmp_path, monkeypatch):
    script = tmp_path / "k.py"
    script.write_text(CACHE_SCRIPT)
    env_dir = tmp_path / "cache"
    monkeypatch.setenv("EMBER_CACHE_DIR", str(env_dir))
    first = run_python(str(script), device)
    second = run_python(str(script), device)
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    assert first.stdout.split() == ["compiles", "2", "translator", "True", "overloads", "2"]
    assert second.stdout.split() == ["compiles", "0", "translator", "False", "overloads", "2"]
    assert len([f for f in os.listdir(env_dir) if f.startswith("jit-")]) == 2


def test_cuda_array_interface_arguments(need_cuda):
    class Foreign:
        """Another library's device array: only __cuda_array_interface__."""
        def __init__(self, a):
            self.__cuda_array_interface__ = a.__cuda_array_interface__
            self.keep = a

    x = ember.asarray(np.arange(10, dtype=np.float32), device="cuda:0")
    out = ember.zeros(10, dtype=np.float32, device="cuda:0")
    vadd[1, 32](Foreign(x), x, Foreign(out))
    np.testing.assert_array_equal(ember.asnumpy(out), np.arange(10) * 2)


@cuda.jit
def nothing():
    pass


@cuda.jit
def many(a0, a1, a2, a3, a4, a5, a6, a7, out, x):
    if cuda.grid(1) == 0:
        out[1, 0, 0, 1] = (a0[0, 1, 0, 0] + a1[0, 1, 0, 0] + a2[0, 1, 0, 0] + a3[0, 1, 0, 0]
                           + a4[0, 1, 0, 0] + a5[0, 1, 0, 0] + a6[0, 1, 0, 0]
                           + a7[0, 1, 0, 0] + x)


def test_no_arguments_and_many_arguments(device):
    nothing[1, 1]()
    # 9 arrays of 4 dimensions: 81 flattened parameters, past the stack's
    arrs = [arr(np.full((2, 2, 2, 2), k, dtype=np.float64), device) for k in range(8)]
    out = ember.zeros((2, 2, 2, 2), dtype=np.float64, device=device)
    many[1, 1](*arrs, out, 0.5)
    got = ember.asnumpy(out)
    assert got[1, 0, 0, 1] == sum(range(8)) + 0.5 and got.sum() == got[1, 0, 0, 1]


# ---- every CUDA variant the tests make compiles with NVRTC -------------------------

def _cuda_variants():
    f4, f8 = "Af4_1C", "Af8_1C"
    out = [(vadd, (c,) * 3) for c in (f4, f8, "Ai4_1C")]
    out += [(vadd, ("Af4_1A", "Af4_1A", f4)), (vadd, ("Af8_1A", "Af8_1A", f8)),
            (scale2d, ("Af8_2C", "Af8_2C", "f8")), (scale2d, ("Af4_2A", "Af4_2C", "f8")),
            (store, ("Ac16_1C", "c16")), (store, ("Au8_1C", "u8")),
            (use_twice, (f4, f4)), (block_sum, (f4, f4)), (past_end, (f4, "i8")),
            (_copy, (f4, f4)), (_copy, (f8, f8)), (_axpy, ("Af4_1A", "Af4_1A", "i4")),
            (_over, (f4, "i8")), (nothing, ()), (many, ("Af8_4C",) * 9 + ("f8",))]
    out += [(store, ("A%s_1C" % np.dtype(dt).str[1:], code)) for _, dt, code in SCALARS]
    return out


@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
@pytest.mark.parametrize("debug", [False, True])
def test_cuda_variants_compile_with_nvrtc(debug):
    import ember.jit
    for k, codes in _cuda_variants():
        f = getattr(k, "py_func", k)
        t = ember.jit.translate(f, codes, debug=debug, target="cuda")
        ember.cuda.Program(t.source, name=t.name).compile("ptx", arch=90)


@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
def test_cuda_options_compile_with_nvrtc():
    import ember.jit
    t = ember.jit.translate(vadd.py_func, ("Af4_1C",) * 3, debug=True, target="cuda")
    # what jit(fastmath=True, lineinfo=True, opt=False, max_registers=32) passes
    opts = ("--use_fast_math", "-lineinfo", "-G", "-maxrregcount=32")
    ember.cuda.Program(t.source, options=opts, name=t.name).compile("cubin", arch=90)
