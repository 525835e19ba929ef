"""The Numba-CUDA surface of ember.cuda.jit beyond the basic constructs
(issue 18, item 3): type objects and signatures, grid synchronisation,
ember.cuda.random, thread-coordinate objects bound to names, array views,
ufuncs with an output array, undecorated functions as device functions,
arrays in globals, and turning bounds checks off. Each kernel runs on cpu
and cuda:0 and is checked against NumPy or a hand-computed value; each is
also translated for the GPU and compiled by NVRTC (no GPU needed)."""
import math

import numpy as np
import pytest

import ember
from ember import cuda
from ember.cuda import float32, float64, int32, int64, void
from ember.cuda import types as T
from ember.cuda.random import (create_xoroshiro128p_states, init_xoroshiro128p_states,
                               xoroshiro128p_next, xoroshiro128p_uniform_float32,
                               xoroshiro128p_uniform_float64, xoroshiro128p_normal_float32,
                               xoroshiro128p_normal_float64)
from ember.jit import translate
from conftest import HAVE_NVRTC

CASES = []   # (python function, argcodes) for the NVRTC test at the end


def case(*codes):
    def deco(f):
        CASES.append((f, codes))
        return f
    return deco


def host(a):
    return a.get() if hasattr(a, "get") else np.asarray(a)


# ---- 1. types and signatures --------------------------------------------------------

def test_type_objects_print_as_signatures():
    assert str(T.float32[:, ::1]) == "float32[:, ::1]"
    assert T.float32[:, ::1].layout == "C"
    assert T.float32[::1, :].layout == "F"
    assert T.int8[:].layout == "A"
    assert str(void(float32[:], int32)) == "void(float32[:], int32)"
    assert str(float32(float32, float64)) == "float32(float32, float64)"
    assert str(T.CPointer(T.uint8)) == "uint8[:]"
    assert T.boolean._ember_type_code == "b1" and T.complex64._ember_type_code == "c8"
    assert cuda.uint64 is T.uint64 and cuda.complex128 is T.complex128
    with pytest.raises(TypeError, match="::1"):
        T.float32[::2]
    with pytest.raises(TypeError, match="signature"):
        float32(3)


def _fill_rows(a, n):
    i = cuda.grid(1)
    if i < a.shape[0]:
        for j in range(a.shape[1]):
            a[i, j] = float32(i * n + j)


@pytest.mark.parametrize("sig", ["void(float32[:, ::1], int32)", (float32[:, :], int32),
                                 void(float32[:, ::1], int32), [(float32[:, :], int32)]])
def test_signature_forms(device, sig):
    with ember.Device(device):
        k = cuda.jit(sig)(_fill_rows)
        a = ember.asarray(np.zeros((5, 3), np.float32))
        k[2, 4](a, 10)
    exp = (np.arange(5)[:, None] * 10 + np.arange(3)).astype(np.float32)
    np.testing.assert_array_equal(host(a), exp)


def test_signature_rejects_other_types(device):
    with ember.Device(device):
        k = cuda.jit("void(float32[:, ::1], int32)")(_fill_rows)
        with pytest.raises(TypeError, match="no matching definition"):
            k[1, 1](ember.asarray(np.zeros((2, 2), np.int64)), 1)


@cuda.jit("float32(float32)", device=True)
def _half_f4(x):
    return x / 3


@case("Af8_1C", "Af8_1C")
def _use_half(x, y):
    i = cuda.grid(1)
    if i < x.shape[0]:
        y[i] = _half_f4(x[i])   # a float64 argument, converted to float32


def test_device_function_signature(device):
    x = np.array([1.0, 2.0, 1e-3, 7.0])
    y = np.zeros(4)
    with ember.Device(device):
        cuda.jit(_use_half)[1, 4](x, y)
    np.testing.assert_array_equal(y, (x.astype(np.float32) / np.float32(3)).astype(np.float64))


@case("Af8_1C",)
def _types_inside(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        tmp = cuda.local.array(2, T.float32)
        tmp[0] = T.float32(0.1)
        out[i] = tmp[0] + T.int8(300) + cuda.uint8(257)


def test_types_inside_kernels(device):
    out = np.zeros(3)
    with ember.Device(device):
        cuda.jit(_types_inside)[1, 3](out)
    # float32 + int8 + uint8 stays float32 (NumPy's promotion); 300 wraps to 44
    exp = np.float32(0.1) + np.float32(44) + np.float32(1)
    np.testing.assert_array_equal(out, np.full(3, float(exp)))


# ---- 2. grid synchronisation ------------------------------------------------------

@case("Ai8_1C", "Ai8_1C")
def _two_phase(a, out):
    g = cuda.cg.this_grid()
    i = cuda.grid(1)
    n = a.shape[0]
    if i < n:
        a[i] = i + 1
    g.sync()           # every block's writes before any block reads
    if i < n:
        out[i] = a[n - 1 - i] * 10


@case("Ai8_1C", "i8")
def _rotate(a, rounds):
    i = cuda.grid(1)
    v = 0
    for r in range(rounds):
        if i < a.shape[0]:
            v = a[(i + 1) % a.shape[0]]
        cuda.cg.this_grid().sync()
        if i < a.shape[0]:
            a[i] = v
        cuda.cg.this_grid().sync()


@cuda.jit(device=True)
def _shift_once(a, i):
    g = cuda.cg.this_grid()
    v = _read_after_sync(a, i)    # a device function may wait for the grid too
    g.sync()
    a[i] = v


@cuda.jit(device=True)
def _read_after_sync(a, i):
    cuda.cg.this_grid().sync()
    return a[(i + 1) % a.shape[0]]


@case("Ai8_1C",)
def _shift_twice(a):
    i = cuda.grid(1)
    _shift_once(a, i)
    _shift_once(a, i)


def test_grid_sync_in_device_functions(device):
    k = cuda.jit(_shift_twice)
    with ember.Device(device):
        a = ember.asarray(np.arange(24, dtype=np.int64))
        k[3, 8](a)
    np.testing.assert_array_equal(host(a), np.roll(np.arange(24), -2))


def test_grid_sync_two_phases(device):
    k = cuda.jit(_two_phase)
    with ember.Device(device):
        blocks = min(6, k.max_cooperative_grid_blocks(32))
        n = blocks * 32 - 5
        a = ember.asarray(np.zeros(n, np.int64))
        out = ember.asarray(np.zeros(n, np.int64))
        k[blocks, 32](a, out)
    np.testing.assert_array_equal(host(out), (n - np.arange(n)) * 10)


def test_grid_sync_rounds(device):
    k = cuda.jit(_rotate)
    with ember.Device(device):
        blocks = min(5, k.max_cooperative_grid_blocks((8, 1, 1)))
        a = ember.asarray(np.arange(blocks * 8, dtype=np.int64))
        k[blocks, 8](a, 7)
    np.testing.assert_array_equal(host(a), np.roll(np.arange(blocks * 8), -7))


def test_grid_too_large(device):
    k = cuda.jit(_two_phase)
    with ember.Device(device):
        a = ember.asarray(np.zeros(4, np.int64))
        k[1, 32](a, ember.asarray(np.zeros(4, np.int64)))
        # compiled now: on the GPU the driver's occupancy of this kernel
        lim = k.max_cooperative_grid_blocks(32)
        assert lim >= 1
        assert k.max_cooperative_grid_blocks((16, 2), 0) == lim
        with pytest.raises(ValueError, match="max_cooperative_grid_blocks"):
            k[lim + 1, 32](a, a)


# ---- 3. ember.cuda.random ----------------------------------------------------------

M64 = (1 << 64) - 1


class Xoroshiro128p:
    """The reference: Numba's xoroshiro128+ in plain Python."""

    def __init__(self, seed):
        z = (seed + 0x9E3779B97F4A7C15) & M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        z ^= z >> 31
        self.s = [z, z]

    def next(self):
        s0, s1 = self.s
        r = (s0 + s1) & M64
        s1 ^= s0
        self.s = [(((s0 << 55) | (s0 >> 9)) & M64) ^ s1 ^ ((s1 << 14) & M64),
                  ((s1 << 36) | (s1 >> 28)) & M64]
        return r

    def jump(self):
        a = b = 0
        for word in (0xbeac0467eba5facb, 0xd86b048b86aa9922):
            for bit in range(64):
                if (word >> bit) & 1:
                    a ^= self.s[0]
                    b ^= self.s[1]
                self.next()
        self.s = [a, b]


def reference_states(n, seed, sub=0):
    g = Xoroshiro128p(seed)
    for _ in range(sub):
        g.jump()
    out = []
    for i in range(n):
        out.append(list(g.s))
        g.jump()
    return out


def test_reference_matches_xoroshiro128plus():
    # the generator itself, from a state written by hand: xoroshiro128+
    # returns s0 + s1, then s1 ^= s0, s0 = rotl(s0, 55) ^ s1 ^ s1 << 14,
    # s1 = rotl(s1, 36)
    g = Xoroshiro128p(0)
    g.s = [1, 2]
    assert g.next() == 3
    assert g.s == [(1 << 55) ^ 3 ^ (3 << 14), 3 << 36]


@case("Au8_2C", "Au8_2C")
def _raw(states, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        for j in range(out.shape[1]):
            out[i, j] = xoroshiro128p_next(states, i)


def test_states_and_raw_draws(device):
    with ember.Device(device):
        st = create_xoroshiro128p_states(5, seed=1234, subsequence_start=2)
        ref = reference_states(5, 1234, 2)
        assert host(st).tolist() == ref
        out = ember.asarray(np.zeros((5, 4), np.uint64))
        cuda.jit(_raw)[2, 4](st, out)
    exp = []
    for s in ref:
        g = Xoroshiro128p(0)
        g.s = list(s)
        exp.append([g.next() for _ in range(4)])
    assert host(out).tolist() == exp


def test_init_existing_states(device):
    with ember.Device(device):
        st = ember.asarray(np.zeros((3, 2), np.uint64))
        init_xoroshiro128p_states(st, seed=99)
    assert host(st).tolist() == reference_states(3, 99)
    arr = np.zeros((2, 2), np.uint64)
    init_xoroshiro128p_states(arr, seed=7, subsequence_start=1)
    assert arr.tolist() == reference_states(2, 7, 1)


@case("Au8_2C", "Af4_1C", "Af8_1C", "Af4_1C", "Af8_1C")
def _draws(states, u4, u8, n4, n8):
    i = cuda.grid(1)
    if i < u4.shape[0]:
        u4[i] = xoroshiro128p_uniform_float32(states, i)
        u8[i] = xoroshiro128p_uniform_float64(states, i)
        n4[i] = xoroshiro128p_normal_float32(states, i)
        n8[i] = xoroshiro128p_normal_float64(states, i)


def test_uniform_and_normal(device):
    n = 20000
    with ember.Device(device):
        st = create_xoroshiro128p_states(n, seed=5)
        bufs = [ember.asarray(np.zeros(n, dt)) for dt in (np.float32, np.float64) * 2]
        cuda.jit(_draws)[(n + 127) // 128, 128](st, *bufs)
    u4, u8, n4, n8 = (host(b) for b in bufs)
    # the first threads' values, from the reference's raw draws
    for i, s in enumerate(reference_states(4, 5)):
        g = Xoroshiro128p(0)
        g.s = list(s)
        raw = [g.next() for _ in range(6)]
        unit = [(x >> 11) * 2.0 ** -53 for x in raw]
        assert u4[i] == np.float32(unit[0])
        assert u8[i] == unit[1]
        f4 = [np.float32(x) for x in unit[2:4]]
        exp4 = math.sqrt(-2.0 * math.log(f4[0])) * math.cos(np.float32(2 * math.pi) * f4[1])
        assert n4[i] == pytest.approx(exp4, rel=1e-5, abs=1e-6)
        exp8 = math.sqrt(-2.0 * math.log(unit[4])) * math.cos(2 * math.pi * unit[5])
        assert n8[i] == pytest.approx(exp8, rel=1e-12, abs=1e-13)
    for u in (u4, u8):
        assert 0.0 <= u.min() and u.max() <= 1.0
        assert abs(u.mean() - 0.5) < 0.01 and abs(u.var() - 1 / 12) < 0.005
    for z in (n4, n8):
        assert abs(z.mean()) < 0.03 and abs(z.var() - 1.0) < 0.05


# ---- 4. coordinate objects bound to names -------------------------------------------

@case("Ai4_2C",)
def _bound_names(out):
    bi, bd, ti = cuda.blockIdx, cuda.blockDim, cuda.threadIdx
    gd = cuda.gridDim
    i = bi.x * bd.x + ti.x
    if i < out.shape[0]:
        out[i, 0] = bi.x
        out[i, 1] = ti.x
        out[i, 2] = bd.x * gd.x
        tx = cuda.threadIdx.x
        out[i, 3] = tx + ti.y


def test_coordinates_bound_to_names(device):
    out = np.zeros((10, 4), np.int32)
    with ember.Device(device):
        cuda.jit(_bound_names)[3, 4](out)
    i = np.arange(10)
    np.testing.assert_array_equal(out, np.stack([i // 4, i % 4, np.full(10, 12), i % 4], 1))


# ---- 5. array views ------------------------------------------------------------------

@cuda.jit(device=True)
def _total(v):
    s = 0.0
    for x in v:
        s += x
    return s


@case("Af8_2C", "Af8_2C", "i8")
def _views(a, out, n):
    i = cuda.grid(1)
    sh = cuda.shared.array(16, np.float64)
    loc = cuda.local.array(8, np.float64)
    for j in range(8):
        loc[j] = j
    if i < a.shape[0]:
        row = a[i, :]
        out[i, 0] = _total(row)
        out[i, 1] = _total(a[i, 1:5])
        out[i, 2] = _total(row[::-2])
        out[i, 3] = len(a[i, 2:100])
        sh[cuda.threadIdx.x] = i
        out[i, 4] = _total(loc[:n])
        r2 = a[i]
        out[i, 5] = r2[-1]
        col = a[:, 0]
        out[i, 6] = col[i] + col.shape[0]
        out[i, 7] = _total(a[i, 1:-1:3])
        row = a[i, -3:]            # the same variable, another view
        out[i, 8] = row[0] + len(row)
    cuda.syncthreads()
    if i < a.shape[0]:
        out[i, 9] = _total(sh[:n])


def test_views(device):
    a = np.arange(60, dtype=np.float64).reshape(6, 10)
    out = np.zeros((6, 10))
    with ember.Device(device):
        cuda.jit(_views)[1, 8](a, out, 3)
    exp = np.stack([a.sum(1), a[:, 1:5].sum(1), a[:, ::-2].sum(1), np.full(6, 8),
                    np.full(6, 3.0), a[:, -1], a[:, 0] + 6, a[:, 1:-1:3].sum(1),
                    a[:, -3] + 3, np.full(6, 3.0)], 1)
    np.testing.assert_array_equal(out, exp)


@case("Af8_2C", "Af8_1C")
def _iterate_rows(a, out):
    s = 0.0
    for row in a:                  # rows of a 2-d array are views
        for x in row[1:]:
            s += x
    out[0] = s
    n = 0
    for r in a[::2]:
        n += len(r)
    out[1] = n


def test_iterate_rows(device):
    a = np.arange(12.0).reshape(3, 4)
    out = np.zeros(2)
    with ember.Device(device):
        cuda.jit(_iterate_rows)[1, 1](a, out)
    np.testing.assert_array_equal(out, [a[:, 1:].sum(), a[::2].size])


@case("Af8_2C", "Af8_2C")
def _slice_assign(a, b):
    i = cuda.grid(1)
    sh = cuda.shared.array((4, 3), np.float64)
    if i < a.shape[0]:
        sh[cuda.threadIdx.x] = 1.5          # a row of a 2-d array, one number
        a[i, :] = b[i, :]                   # a view from another view
        a[i, 1:3] += 5
        a[i, -1:] *= sh[cuda.threadIdx.x, 0:1]
        row = b[i]
        row[::2] = -1


def test_slice_assignment(device):
    a, b = np.zeros((4, 3)), np.arange(12.0).reshape(4, 3)
    ea, eb = b.copy(), b.copy()
    ea[:, 1:3] += 5
    ea[:, -1:] *= 1.5
    eb[:, ::2] = -1
    with ember.Device(device):
        cuda.jit(_slice_assign)[1, 4](a, b)
    np.testing.assert_array_equal(a, ea)
    np.testing.assert_array_equal(b, eb)


@case("Af4_1C", "Ai8_1C")
def _view_bounds(a, out):
    v = a[2:6]
    if cuda.grid(1) == 0:
        out[0] = len(v)
        out[1] = len(a[8:2])
        out[2] = len(a[::-3])
        out[3] = int(v[4])       # past the view's end: IndexError on cpu


def test_view_bounds_checked_on_cpu():
    a = np.arange(10, dtype=np.float32)
    out = np.zeros(4, np.int64)
    with ember.Device("cpu"):
        with pytest.raises(IndexError, match=r"index 4 is out of bounds for axis 0 with "
                                             r"size 4 of array 'v'"):
            cuda.jit(_view_bounds)[1, 1](a, out)
    assert out[:3].tolist() == [4, 0, len(a[::-3])]


# ---- 6. ufuncs with out, undecorated functions --------------------------------------

def _plain_scale(x, k):
    return x * k + 1


class NjitLike:
    """What numba.njit makes: a dispatcher whose .py_func is the function."""

    def __init__(self, f):
        self.py_func = f

    def __call__(self, *a):
        return self.py_func(*a)


def _square(x):
    return x * x


_njit_square = NjitLike(_square)


@case("Af8_2C", "Af8_2C", "Af8_2C", "Af8_1C")
def _ufuncs(a, o1, o2, o3):
    i = cuda.grid(1)
    if i < a.shape[0]:
        np.sin(a[i, :], o1[i, :])
        np.add(a[i, :], 0.5, out=o2[i, :])
        o3[i] = _plain_scale(a[i, 0], 2.0) + _njit_square(a[i, 1])


def test_ufunc_out_and_plain_functions(device):
    a = np.linspace(-2, 2, 12).reshape(4, 3)
    o1, o2, o3 = np.zeros_like(a), np.zeros_like(a), np.zeros(4)
    with ember.Device(device):
        cuda.jit(_ufuncs)[1, 4](a, o1, o2, o3)
    # CUDA's double sin is within 2 ulp of the rounded result, and NVRTC
    # contracts x * k + 1 into one FMA (one rounding, NumPy's two): tolerances
    np.testing.assert_allclose(o1, np.sin(a), rtol=1e-14)
    np.testing.assert_array_equal(o2, a + 0.5)
    np.testing.assert_allclose(o3, a[:, 0] * 2 + 1 + a[:, 1] ** 2, rtol=1e-12)


@case("Af4_2C", "Af4_1C", "Af4_2C")
def _ufunc_broadcast(a, b, out):
    if cuda.grid(1) == 0:
        np.multiply(a, b, out)     # b lines up with out's last axis


def test_ufunc_out_broadcasts(device):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([1, 10, 100], np.float32)
    out = np.zeros_like(a)
    with ember.Device(device):
        cuda.jit(_ufunc_broadcast)[1, 1](a, b, out)
    np.testing.assert_array_equal(out, a * b)


def test_ufunc_needs_out():
    def k(a):
        np.sin(a)

    with pytest.raises(ember.CompileError, match=r"numpy.sin\(\) of an array needs an "
                                                 r"output array"):
        translate(k, ("Af8_1C",), target="cpu")


# ---- 7. arrays in globals ----------------------------------------------------------

_TABLE = np.array([1.0, 10.0, 100.0])


@case("Af8_1C",)
def _const_table(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = _TABLE[i % 3] + _TABLE.shape[0]


def test_numpy_global_is_a_constant(device):
    out = np.zeros(5)
    with ember.Device(device):
        cuda.jit(_const_table)[1, 5](out)
    np.testing.assert_array_equal(out, _TABLE[np.arange(5) % 3] + 3)


def test_device_array_global_captured(device):
    with ember.Device(device):
        acc = ember.asarray(np.zeros(6, np.float32))
        src = ember.asarray(np.arange(6, dtype=np.float32))

        @cuda.jit
        def k(scale):
            i = cuda.grid(1)
            if i < acc.shape[0]:
                acc[i] = src[i] * scale     # both read from the closure

        k[1, 8](3.0)
        k[1, 8](4.0)
    np.testing.assert_array_equal(host(acc), np.arange(6, dtype=np.float32) * 4)


def test_device_array_global_wrong_device():
    g = ember.asarray(np.zeros(3), device="cpu")

    def k(out):
        out[0] = g[0]

    with pytest.raises(ember.CompileError, match="on cpu but the kernel is compiled for cuda"):
        translate(k, ("Af8_1C",), target="cuda")


class _OtherGpuArray:
    """Another library's GPU array, as CuPy's or PyTorch's present
    themselves: only __cuda_array_interface__ (not launched here)."""
    __cuda_array_interface__ = {"shape": (4, 5), "typestr": "<f4", "data": (0x7000, False),
                                "strides": (40, 4), "version": 3}


_OTHER = _OtherGpuArray()


def _reads_other(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = _OTHER[i, 1] + _OTHER.shape[1]


def test_cuda_array_interface_global_captured():
    t = translate(_reads_other, ("Af4_1C",), target="cuda")
    # its pointer, extents and strides in elements (40 bytes = 10 floats)
    assert "((float *)%dULL)" % 0x7000 in t.source and "(10LL)" in t.source
    if HAVE_NVRTC:
        obj = cuda.Program(t.source, name="reads_other.cu").compile("ptx", arch=90)
        assert t.name.encode() in obj.code
    with pytest.raises(ember.CompileError, match="is on cuda but the kernel is compiled "
                                                 "for cpu"):
        translate(_reads_other, ("Af4_1C",), target="cpu")


# ---- 8. bounds checks off ------------------------------------------------------------

def _shifted(a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = a[i + 1]        # reads a[n] for the last thread


def _oob_args(device):
    # the read past `a` lands in `big`, so turning checks off is safe here
    big = ember.asarray(np.arange(9, dtype=np.float64) * 2, device=device)
    return big[:8], ember.asarray(np.zeros(8), device=device)


def test_bounds_checked_by_default_on_cpu():
    a, out = _oob_args("cpu")
    with ember.Device("cpu"):
        with pytest.raises(IndexError, match=r"index 8 .* size 8 of array 'a'.*thread "
                                             r"\(7, 0, 0\) of block \(0, 0, 0\)"):
            cuda.jit(_shifted)[1, 8](a, out)


def test_boundscheck_false(device):
    a, out = _oob_args(device)
    with ember.Device(device):
        cuda.jit(boundscheck=False)(_shifted)[1, 8](a, out)
    np.testing.assert_array_equal(host(out), np.arange(1, 9) * 2.0)


def test_boundscheck_true_on_every_device(device):
    a, out = _oob_args(device)
    with ember.Device(device):
        with pytest.raises(IndexError, match="array 'a'"):
            cuda.jit(boundscheck=True)(_shifted)[1, 8](a, out)


def test_boundscheck_env(device, monkeypatch):
    a, out = _oob_args(device)
    monkeypatch.setenv("EMBER_BOUNDSCHECK", "0")
    with ember.Device(device):
        cuda.jit(_shifted)[1, 8](a, out)
    np.testing.assert_array_equal(host(out), np.arange(1, 9) * 2.0)
    monkeypatch.setenv("EMBER_BOUNDSCHECK", "1")   # wins over the decorator
    with ember.Device(device):
        with pytest.raises(IndexError, match="array 'a'"):
            cuda.jit(boundscheck=False)(_shifted)[1, 8](a, out)


# ---- every kernel above compiles with NVRTC ----------------------------------------

@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
@pytest.mark.parametrize("debug", [False, True])
def test_nvrtc_compiles_every_case(debug):
    for f, codes in CASES + [(_shifted, ("Af8_1A", "Af8_1C"))]:
        t = translate(f, codes, debug=debug, target="cuda")
        obj = cuda.Program(t.source, name=f.__name__ + ".cu").compile("ptx", arch=90)
        assert b".entry" in obj.code and t.name.encode() in obj.code, f.__name__
