"""Every construct a Python kernel may use (issue 5, item 2), run through
ember.cuda.jit on cpu and cuda:0 and checked against NumPy; and every
kernel here translated for the GPU (with and without debug checks) and
compiled by NVRTC, which needs no GPU."""
import math

import numpy as np
import pytest

import ember
from ember import cuda
from ember.jit import translate
from conftest import HAVE_NVRTC
from helpers import run_python

# (kernel, argcodes) of every specialisation the tests below launch, for
# the NVRTC test at the end.
CASES = []


def kern(*codes_list, **options):
    """@cuda.jit, remembering the argument codes it will be called with."""
    def deco(f):
        k = cuda.jit(**options)(f) if options else cuda.jit(f)
        for codes in codes_list:
            CASES.append((f, tuple(codes)))
        return k
    return deco


def dev(f):
    return cuda.jit(device=True)(f)


def run(k, device, griddim, blockdim, *args):
    with ember.Device(device):
        k[griddim, blockdim](*args)


# ---- thread coordinates --------------------------------------------------------

@kern(["Ai8_2C"])
def coords1(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i, 0] = cuda.threadIdx.x
        out[i, 1] = cuda.blockIdx.x
        out[i, 2] = cuda.blockDim.x
        out[i, 3] = cuda.gridDim.x
        out[i, 4] = cuda.gridsize(1)
        out[i, 5] = cuda.laneid
        out[i, 6] = cuda.warpsize


def test_grid_1d(device):
    n = 100
    out = np.full((n, 7), -1, np.int64)
    run(coords1, device, 3, 40, out)
    i = np.arange(n)
    exp = np.stack([i % 40, i // 40, np.full(n, 40), np.full(n, 3), np.full(n, 120),
                    (i % 40) % 32, np.full(n, 32)], axis=1)
    np.testing.assert_array_equal(out, exp)


@kern(["Ai4_3C"])
def coords3(out):
    x, y, z = cuda.grid(3)
    sx, sy, sz = cuda.gridsize(3)
    if x < out.shape[0] and y < out.shape[1] and z < out.shape[2]:
        out[x, y, z] = (x * 100 + y * 10 + z + (sx * sy * sz) * 1000
                        + (cuda.threadIdx.y + cuda.threadIdx.z * 2) * 0
                        + cuda.blockIdx.z * 0 + cuda.blockDim.z * 0 + cuda.gridDim.y * 0)


@kern(["Af8_2C"])
def coords2(out):
    g = cuda.grid(2)
    i = g[0]
    j = g[1]
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = i - j * 0.5 + cuda.gridsize(2)[1]


def test_grid_2d_3d(device):
    out = np.zeros((5, 6, 7), np.int32)
    run(coords3, device, (2, 2, 2), (4, 4, 4), out)
    x, y, z = np.meshgrid(np.arange(5), np.arange(6), np.arange(7), indexing="ij")
    np.testing.assert_array_equal(out, x * 100 + y * 10 + z + 512 * 1000)
    out2 = np.zeros((9, 11))
    run(coords2, device, (3, 4), (4, 4), out2)
    i, j = np.meshgrid(np.arange(9), np.arange(11), indexing="ij")
    np.testing.assert_array_equal(out2, i - j * 0.5 + 16)


# ---- arrays: dtypes, dimensions, layouts, negative indices ------------------------

DTYPES = ["b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]


@kern(*[["A%s_1C" % d, "A%s_1C" % d] for d in DTYPES])
def copy_rev(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[-1 - i]


@pytest.mark.parametrize("dt", DTYPES)
def test_every_dtype(device, dt):
    n = 37
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(n) * 50).astype(dt) if dt[0] not in "bc" else (
        rng.integers(0, 2, n).astype(dt) if dt == "b1" else
        (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt))
    if dt == "f2":
        a[:3] = [np.nan, -0.0, np.inf]
    out = np.zeros_like(a)
    run(copy_rev, device, 1, 64, a, out)
    np.testing.assert_array_equal(out, a[::-1])
    if dt == "f2":
        assert np.signbit(out[-2]) and out[-2] == 0


@kern(["Af4_0C", "Af4_3A", "Af8_1A"], ["Af4_0C", "Af4_3C", "Af8_1A"])
def shapes(z, a, out):
    out[0] = a.shape[0]
    out[1] = a.shape[1]
    out[2] = a.shape[2]
    out[3] = a.size
    out[4] = a.ndim
    out[5] = len(a)
    out[6] = z[()]
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s += a[i, j, k] * (i * 100 + j * 10 + k)
    out[7] = s
    out[8] = a[-1, -2, -3]
    n0, n1, n2 = a.shape
    out[9] = n0 * n1 * n2


@pytest.mark.parametrize("layout", ["C", "T", "strided"])
def test_shapes_and_layouts(device, layout):
    base = np.arange(4 * 5 * 6, dtype=np.float32).reshape(4, 5, 6) * 0.5
    a = {"C": base, "T": base.transpose(2, 0, 1).copy().transpose(1, 2, 0),
         "strided": np.arange(8 * 5 * 12, dtype=np.float32).reshape(8, 5, 12)[::2, :, ::2]}[layout]
    out = np.zeros(20)[::2]          # a strided output too
    z = np.array(7.5, np.float32)
    run(shapes, device, 1, 1, z, a, out)
    i, j, k = np.meshgrid(np.arange(a.shape[0]), np.arange(a.shape[1]),
                          np.arange(a.shape[2]), indexing="ij")
    exp = [a.shape[0], a.shape[1], a.shape[2], a.size, 3, a.shape[0], 7.5,
           float((a.astype(np.float64) * (i * 100 + j * 10 + k)).sum()), a[-1, -2, -3], a.size]
    np.testing.assert_allclose(out, exp, rtol=1e-6)


# ---- control flow ------------------------------------------------------------

@kern(["Ai8_2C", "i8"])
def control(out, n):
    i = cuda.grid(1)
    if i >= n:
        return
    # range with negative and non-unit steps
    s = 0
    for j in range(i, -1, -2):
        s += j
    out[i, 0] = s
    # while, break, continue
    k = 0
    c = 0
    while True:
        k += 1
        if k % 3 == 0:
            continue
        if k > i:
            break
        c += k
    out[i, 1] = c
    # if / elif / else
    if i % 4 == 0:
        out[i, 2] = 10
    elif i % 4 == 1:
        out[i, 2] = 11
    elif i % 4 == 2:
        out[i, 2] = 12
    else:
        out[i, 2] = 13
    # conditional expression, chained comparison, and/or/not
    out[i, 3] = 1 if 2 <= i < 7 else (2 if not i > 9 else 3)
    out[i, 4] = (i > 3 and i < 8) or i == 11
    t = 0 or i          # Python's value of or/and
    u = i and 5
    out[i, 5] = t * 100 + u
    # tuple assignment, swapping, unpacking
    a, b = i, 2 * i
    a, b = b, a + 1
    (p, q), r = (a, b), 3
    out[i, 6] = p * 10000 + q * 100 + r
    # loop variable after the loop, step from a variable
    st = -3 if i % 2 else 3
    last = -1
    for m in range(10, -10, st):
        last = m
    out[i, 7] = last + m * 0
    # augmented assignment on elements
    out[i, 8] = i
    out[i, 8] += 5
    out[i, 8] *= 3
    out[i, 8] //= 2
    out[i, 8] -= i % 3


def control_ref(n):
    out = np.zeros((n, 9), np.int64)
    for i in range(n):
        out[i, 0] = sum(range(i, -1, -2))
        k = c = 0
        while True:
            k += 1
            if k % 3 == 0:
                continue
            if k > i:
                break
            c += k
        out[i, 1] = c
        out[i, 2] = 10 + i % 4
        out[i, 3] = 1 if 2 <= i < 7 else (2 if not i > 9 else 3)
        out[i, 4] = (i > 3 and i < 8) or i == 11
        out[i, 5] = (0 or i) * 100 + (i and 5)
        a, b = 2 * i, i + 1
        out[i, 6] = a * 10000 + b * 100 + 3
        r = list(range(10, -10, -3 if i % 2 else 3))
        out[i, 7] = r[-1] if r else -1
        out[i, 8] = ((i + 5) * 3) // 2 - i % 3
    return out


def test_control_flow(device):
    n = 13
    out = np.zeros((n, 9), np.int64)
    run(control, device, 2, 8, out, n)
    np.testing.assert_array_equal(out, control_ref(n))


@kern(["Af8_1C", "Ai8_1C"])
def short_circuit(a, out):
    i = cuda.grid(1)
    # a[i] must not be read when i is out of range: on cpu that would be
    # a bounds error
    if i < a.size and a[i] > 0:
        out[i] = 1
    if i >= a.size or a[i] < 0:
        if i < out.size:
            out[i] = 2


@kern(["Au4_1C", "Ai1_1C", "Ab1_2C"])
def cmp_wide(u, s, out):
    i = cuda.grid(1)
    if i < u.size:
        out[i, 0] = u[i] == -1          # a Python int outside uint32
        out[i, 1] = s[i] < 300          # and outside int8: compared by value
        out[i, 2] = u[i] > -5
        out[i, 3] = s[i] != 128


def test_compare_with_python_ints_out_of_range(device):
    u = np.array([0, 4294967295, 5], np.uint32)
    s = np.array([-128, 127, 0], np.int8)
    out = np.zeros((3, 4), bool)
    run(cmp_wide, device, 1, 4, u, s, out)
    np.testing.assert_array_equal(out, np.stack([u == -1, s < 300, u > -5, s != 128], axis=1))


def test_short_circuit(device):
    a = np.array([1.0, -1.0, 0.0, 2.0])
    out = np.zeros(8, np.int64)
    run(short_circuit, device, 1, 8, a, out)
    np.testing.assert_array_equal(out, [1, 2, 0, 1, 2, 2, 2, 2])


THREE = 3

# ---- arithmetic and NumPy's promotion ------------------------------------------

@kern(["Ai8_1C", "Ai8_1C", "Af8_2C", "Ai4_1C"], ["Ai4_1C", "Ai4_1C", "Af8_2C", "Ai4_1C"],
      ["Au8_1C", "Au8_1C", "Af8_2C", "Ai4_1C"])
def arith(a, b, out, i4):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x // y
        out[i, 1] = x % y
        out[i, 2] = x / y
        out[i, 3] = x ** 3
        out[i, 4] = (x << 2) >> 1
        out[i, 5] = (x & 6) | (y ^ 3)
        out[i, 6] = -x + ~y
        out[i, 7] = i4[i] + x          # int32 + int64 -> int64
        out[i, 8] = abs(x - 2 * y)


def arith_ref(a, b, i4):
    with np.errstate(all="ignore"):
        cols = [a // b, a % b, a / b, a ** 3, (a << 2) >> 1, (a & 6) | (b ^ 3),
                -a + ~b, i4.astype(np.int64) + a if a.dtype.kind == "i" else i4 + a,
                np.abs(a - 2 * b)]
    return np.stack([np.asarray(c).astype(np.float64) for c in cols], axis=1)


@pytest.mark.parametrize("dt", ["i8", "i4", "u8"])
def test_integer_arithmetic(device, dt):
    a = np.array([7, -7, 7, -7, 0, 100, -100, 3, 5], dtype=np.int64)
    b = np.array([2, 2, -2, -2, 5, 7, 7, -3, 0], dtype=np.int64)
    if dt == "u8":
        a, b = np.abs(a), np.abs(b)
    a, b = a.astype(dt), b.astype(dt)
    b[b == 0] = 1 if dt == "u8" else b[b == 0]
    i4 = np.arange(a.size, dtype=np.int32) - 4
    out = np.zeros((a.size, 9))
    run(arith, device, 1, 16, a, b, out, i4)
    np.testing.assert_array_equal(out, arith_ref(a, b, i4))


@kern(["Ai8_1C", "Ai8_1C", "Ai8_2C"], ["Ai4_1C", "Ai4_1C", "Ai4_2C"],
      ["Ai1_1C", "Ai1_1C", "Ai1_2C"], ["Au2_1C", "Au2_1C", "Au2_2C"])
def int_edges(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x // y
        out[i, 1] = x % y
        out[i, 2] = x << y
        out[i, 3] = x >> y
        out[i, 4] = x * y
        out[i, 5] = x - y
        out[i, 6] = -x


@pytest.mark.parametrize("dt", ["i8", "i4", "i1", "u2"])
def test_integer_edges(device, dt):
    info = np.iinfo(dt)
    xs = [info.min, info.max, -1 if info.min else 1, 0, 7]
    ys = [-1 if info.min else 1, 0, 1, info.bits, info.bits + 3, 3]
    a = np.array([x for x in xs for _ in ys], dt)
    b = np.array([y for _ in xs for y in ys], dt)
    out = np.zeros((a.size, 7), dt)
    run(int_edges, device, 1, 64, a, b, out)
    with np.errstate(all="ignore"):
        exp = np.stack([a // b, a % b, a << b, a >> b, a * b, a - b, -a], axis=1)
    np.testing.assert_array_equal(out, exp)


@kern(["Af4_1C", "Af4_2C"], ["Af8_1C", "Af8_2C"])
def farith(a, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        out[i, 0] = x * 2.5 + 1          # weak literals keep float32
        out[i, 1] = x // 0.75
        out[i, 2] = x % -0.75
        out[i, 3] = x ** 2
        out[i, 4] = x ** 0.5 if x > 0 else -x
        out[i, 5] = round(x * 3)
        out[i, 6] = min(x, 0.5) + max(x, -0.5, -1)
        out[i, 7] = float(int(x * 10))
        out[i, 8] = x / 3


def test_float_arithmetic(device):
    for dt in (np.float32, np.float64):
        a = np.array([1.5, -1.5, 2.25, -0.0, 7.0, 0.3, -2.5, 2.5], dtype=dt)
        out = np.zeros((a.size, 9), dt)
        run(farith, device, 1, 8, a, out)
        two, one, q = dt(2.5), dt(1), dt(0.75)
        with np.errstate(all="ignore"):
            exp = np.stack([a * two + one, a // q, a % dt(-0.75), a * a,
                            np.where(a > 0, np.sqrt(np.abs(a)), -a),
                            np.round(a * dt(3)), np.minimum(a, dt(0.5)) + np.maximum(a, dt(-0.5)),
                            np.trunc(a * dt(10)), a / dt(3)], axis=1).astype(dt)
        np.testing.assert_allclose(out, exp, rtol=2e-7 if dt == np.float32 else 1e-15)
        assert np.signbit(out[3, 2]) == np.signbit(np.float64(-0.0) % -0.75)


@kern(["Af8_1C", "Af8_1C", "Af8_2C"], ["Af4_1C", "Af4_1C", "Af4_2C"])
def special_floats(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x // y
        out[i, 1] = x % y
        out[i, 2] = min(x, y)
        out[i, 3] = max(x, y)
        out[i, 4] = x / y
        out[i, 5] = -x
        out[i, 6] = abs(x)


def test_nan_inf_signed_zero(device):
    v = [0.0, -0.0, 1.5, -1.5, np.inf, -np.inf, np.nan, 5.0, -5.0]
    a = np.array([x for x in v for _ in v])
    b = np.array([y for _ in v for y in v])
    for dt in (np.float64, np.float32):
        aa, bb = a.astype(dt), b.astype(dt)
        out = np.zeros((a.size, 7), dt)
        run(special_floats, device, 1, 128, aa, bb, out)
        with np.errstate(all="ignore"):
            exp = np.stack([np.floor_divide(aa, bb), np.remainder(aa, bb),
                            [min(x, y) for x, y in zip(aa, bb)],
                            [max(x, y) for x, y in zip(aa, bb)],
                            aa / bb, -aa, np.abs(aa)], axis=1).astype(dt)
        np.testing.assert_array_equal(out, exp)
        # the sign of zeros (a NaN's sign is the hardware's choice)
        num = ~np.isnan(exp)
        np.testing.assert_array_equal(np.signbit(out[num]), np.signbit(exp[num]))


@kern(["Af8_2C", "f8", "i8", "b1"])
def scalars(out, f, n, flag):
    # Python scalars as arguments, bool arithmetic, mixed promotions
    out[0, 0] = f * n
    out[0, 1] = n / 4
    out[0, 2] = n // 4
    out[0, 3] = flag + flag
    out[0, 4] = 1 if flag else 0
    out[0, 5] = np.float32(f) * np.float32(3)
    out[0, 6] = np.int8(n * 100)     # wraps as NumPy's cast does
    out[0, 7] = bool(n) + int(f) + float(n)
    out[0, 8] = np.uint8(n) - 1 if n < 0 else 0
    out[0, 9] = 2 ** -2 + THREE ** -1      # Python numbers: a float


def test_scalars_and_casts(device):
    out = np.zeros((1, 10))
    run(scalars, device, 1, 1, out, 1.1, 7, True)
    exp = [1.1 * 7, 7 / 4, 1, 2, 1, float(np.float32(1.1) * np.float32(3)),
           float(np.int64(700).astype(np.int8)), 1 + 1 + 7.0, 0, 0.25 + 1 / 3]
    np.testing.assert_array_equal(out[0], exp)


@kern(*[["Af8_1C", d] for d in DTYPES if d[0] != "c"], ["Ac16_1C", "c8"], ["Ac16_1C", "c16"])
def store_scalar(out, x):
    out[0] = x
    out[1] = x * 2


@pytest.mark.parametrize("dt", DTYPES)
def test_numpy_scalar_arguments(device, dt):
    x = np.dtype(dt).type({"b": True, "c": 1.5 - 2j, "f": -1.5}.get(dt[0], 7))
    out = np.zeros(2, np.complex128 if dt[0] == "c" else np.float64)
    run(store_scalar, device, 1, 1, out, x)
    exp = [x, x * 2] if dt != "b1" else [1, 2]
    np.testing.assert_array_equal(out, np.array(exp).astype(out.dtype))


# ---- math and builtins --------------------------------------------------------

@kern(["Af4_1C", "Af4_2C"], ["Af8_1C", "Af8_2C"])
def mathfns(a, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        ax = abs(x) + 0.5
        out[i, 0] = math.sqrt(ax)
        out[i, 1] = math.exp(x)
        out[i, 2] = math.log(ax) + math.log2(ax) + math.log10(ax)
        out[i, 3] = math.sin(x) + math.cos(x) + math.tan(x)
        out[i, 4] = math.asin(x / 4) + math.acos(x / 4) + math.atan(x)
        out[i, 5] = math.sinh(x) + math.cosh(x) + math.tanh(x)
        out[i, 6] = math.pow(ax, 1.5) + math.hypot(x, 2) + math.atan2(x, 2)
        out[i, 7] = math.floor(x) + math.ceil(x) * 100 + math.trunc(x) * 10000
        out[i, 8] = math.fabs(x) + math.copysign(2, x) + math.fmod(x, 0.7)
        out[i, 9] = math.erf(x) + math.erfc(x) + math.lgamma(ax) + math.gamma(ax)
        out[i, 10] = math.isnan(x) + 2 * math.isinf(x) + 4 * math.isfinite(x)
        out[i, 11] = math.pi + math.e + math.expm1(x / 8) + math.log1p(ax)
        out[i, 12] = np.sqrt(ax) + np.exp(x / 4) + np.floor(x) + np.arctan2(x, 1.0)


def mathfns_ref(a):
    lg = np.vectorize(math.lgamma)
    ga = np.vectorize(math.gamma)
    erf = np.vectorize(math.erf)
    with np.errstate(all="ignore"):
        ax = np.abs(a) + 0.5
        fin = np.isfinite(a)
        af = np.where(fin, a, 0)
        cols = [np.sqrt(ax), np.exp(a), np.log(ax) + np.log2(ax) + np.log10(ax),
                np.sin(a) + np.cos(a) + np.tan(a),
                np.arcsin(a / 4) + np.arccos(a / 4) + np.arctan(a),
                np.sinh(a) + np.cosh(a) + np.tanh(a),
                ax ** 1.5 + np.hypot(a, 2) + np.arctan2(a, 2),
                np.floor(af) + np.ceil(af) * 100 + np.trunc(af) * 10000,
                np.abs(a) + np.copysign(2, a) + np.fmod(a, 0.7),
                erf(af) + (1 - erf(af)) + lg(np.where(fin, ax, 1)) + ga(np.where(fin, ax, 1)),
                np.isnan(a) + 2 * np.isinf(a) + 4 * np.isfinite(a),
                np.pi + np.e + np.expm1(a / 8) + np.log1p(ax),
                np.sqrt(ax) + np.exp(a / 4) + np.floor(a) + np.arctan2(a, 1.0)]
    return np.stack(cols, axis=1)


def test_math(device):
    for dt, tol in ((np.float64, 1e-12), (np.float32, 2e-5)):
        a = np.array([0.3, -1.7, 2.0, 3.5, -0.0, 1.25, -3.9], dtype=dt)
        out = np.zeros((a.size, 13), dt)
        run(mathfns, device, 1, 8, a, out)
        np.testing.assert_allclose(out, mathfns_ref(a.astype(np.float64)), rtol=tol, atol=tol)
    a = np.array([np.nan, np.inf, -np.inf], np.float64)
    out = np.zeros((3, 13))
    run(mathfns, device, 1, 8, a, out)
    np.testing.assert_array_equal(out[:, 10], [1, 2, 2])


# ---- complex and float16 ---------------------------------------------------------

@kern(["Ac16_1C", "Ac16_1C", "Ac16_2C"], ["Ac8_1C", "Ac8_1C", "Ac8_2C"])
def cplx(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x + y * 2
        out[i, 1] = x * y - 1j
        out[i, 2] = x / y
        out[i, 3] = x.conjugate() + abs(y) + x.real - x.imag * 1j
        out[i, 4] = complex(x.imag, 2.0) if x != y else 0
        out[i, 5] = x ** 2


def test_complex(device):
    for dt, tol in ((np.complex128, 1e-14), (np.complex64, 1e-6)):
        a = np.array([1 + 2j, -3.5 + 0.5j, 2j, 4], dt)
        b = np.array([0.5 - 1j, 2 + 2j, -1j, 4], dt)
        out = np.zeros((4, 6), dt)
        run(cplx, device, 1, 4, a, b, out)
        exp = np.stack([a + b * 2, a * b - 1j, a / b, np.conj(a) + np.abs(b) + a.real - a.imag * 1j,
                        np.where(a != b, a.imag + 2j, 0), a * a], axis=1).astype(dt)
        np.testing.assert_allclose(out, exp, rtol=tol)


@kern(["Af2_1C", "Af2_1C"])
def half(a, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = x * x + x          # float16 rounds after each operation
        out[i] = y / 3


def test_float16(device):
    a = np.array([0.1, 1.5, -2.7, 100.3, 250.0, 65000.0, 1e-5, np.nan], np.float16)
    out = np.zeros_like(a)
    run(half, device, 1, 8, a, out)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(out, (a * a + a) / np.float16(3))


# ---- globals, closures, tuples of constants -----------------------------------------

SCALE = 3
OFFSETS = (1.5, -2.0, 0.25)
TABLE = np.array([[1, 2, 3], [4, 5, 6]], np.int32)


@kern(["Af8_2C"])
def globs(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        for k in range(3):
            out[i, k] = OFFSETS[k] * SCALE + TABLE[i % 2, k]
        c = cuda.const.array_like(TABLE)
        out[i, 3] = c[1, 2] + c.shape[1]


def make_closure_kernel(mult):
    def closure(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = i * mult
    CASES.append((closure, ("Ai8_1C",)))
    return cuda.jit(closure)


def test_globals_and_closures(device):
    out = np.zeros((4, 4))
    run(globs, device, 1, 4, out)
    exp = np.zeros((4, 4))
    for i in range(4):
        exp[i, :3] = np.array(OFFSETS) * SCALE + TABLE[i % 2]
        exp[i, 3] = 6 + 3
    np.testing.assert_array_equal(out, exp)
    k = make_closure_kernel(7)
    o = np.zeros(5, np.int64)
    run(k, device, 1, 8, o)
    np.testing.assert_array_equal(o, np.arange(5) * 7)


# ---- device functions ----------------------------------------------------------

@dev
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@dev
def dot3(a, b, i):
    s = 0.0
    for k in range(3):
        s += a[i, k] * clamp(b[k], -1.0, 1.0)
    return s


@dev
def nothing(out, i):
    out[i] = out[i] + 0
    return


@dev
def cmul_conj(z, w):
    return z * w.conjugate()


@dev
def halve(h):
    return h / 2


@kern(["Ac8_1C", "Ac16_1C", "Af2_1C"])
def use_dev_kinds(z, out, h):
    i = cuda.grid(1)
    if i < z.size:
        out[i] = cmul_conj(z[i], z[i] + 1j) + cmul_conj(2.0, z[i]) if i % 2 else 0
        h[i] = halve(h[i])


def test_device_functions_complex_half(device):
    z = np.array([1 + 1j, 2 - 1j, -3j, 4], np.complex64)
    h = np.array([1, 3, 5, 7], np.float16)
    out = np.zeros(4, np.complex128)
    exp = np.where(np.arange(4) % 2, (z * np.conj(z + 1j)).astype(np.complex128)
                   + 2.0 * np.conj(z.astype(np.complex128)), 0)
    run(use_dev_kinds, device, 1, 4, z, out, h)
    np.testing.assert_allclose(out, exp, rtol=1e-6)
    np.testing.assert_array_equal(h, np.array([0.5, 1.5, 2.5, 3.5], np.float16))


@dev
def divmod_py(a, b):
    if b == 0:
        return 0, 0
    return a // b, a % b


@kern(["Ai8_2C"])
def use_tuple_dev(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        q, r = divmod_py(i - 5, 3)
        out[i, 0] = q
        out[i, 1] = r
        t = divmod_py(i, 0)
        out[i, 2] = t[0] + t[1] + divmod_py(i, 2)[1]


def test_device_function_returning_tuple(device):
    out = np.zeros((9, 3), np.int64)
    run(use_tuple_dev, device, 1, 16, out)
    i = np.arange(9)
    np.testing.assert_array_equal(out, np.stack([(i - 5) // 3, (i - 5) % 3, i % 2], axis=1))


@kern(["Af8_2C", "Af8_1C", "Af8_1C"], ["Af4_2C", "Af4_1C", "Af8_1C"])
def use_dev(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = dot3(a, b, i) + clamp(i, 1, 3)
        nothing(out, i)


def test_device_functions(device):
    rng = np.random.default_rng(5)
    for dt in (np.float64, np.float32):
        a = rng.standard_normal((6, 3)).astype(dt)
        b = np.array([0.5, -3.0, 2.0], dt)
        out = np.zeros(6)
        run(use_dev, device, 1, 8, a, b, out)
        exp = a.astype(np.float64) @ np.clip(b, -1, 1).astype(np.float64) + np.clip(np.arange(6), 1, 3)
        np.testing.assert_allclose(out, exp, rtol=1e-6)


# ---- memory spaces: local, shared (static and dynamic), constant --------------------------

@kern(["Ai4_1C", "Ai4_1C"])
def local_arr(a, out):
    i = cuda.grid(1)
    if i < a.size:
        tmp = cuda.local.array(4, a.dtype)
        t2 = cuda.local.array((2, 2), dtype=np.float64)
        for k in range(4):
            tmp[k] = a[i] * (k + 1)
            t2[k // 2, k % 2] = k
        out[i] = tmp[0] + tmp[-1] + t2[1, 1]


@kern(["Af2_1C", "Ab1_1C", "Ac8_1C", "Ai4_2C"])
def local_kinds(h, b, c, counts):
    i = cuda.grid(1)
    if i < h.size:
        th = cuda.local.array(2, np.float16)
        tb = cuda.local.array(2, np.bool_)
        tc = cuda.local.array(2, np.complex64)
        th[0] = h[i]
        th[1] = th[0] * 2
        tb[0] = b[i]
        tb[1] = not tb[0]
        tc[0] = c[i]
        tc[1] = tc[0] * 1j
        h[i] = th[1]
        b[i] = tb[1]
        c[i] = tc[1]
        cuda.atomic.add(counts, (i % 2, 1), 1)


def test_local_array_dtypes_and_tuple_atomics(device):
    h = np.array([0.5, -3.25, 100.0], np.float16)
    b = np.array([True, False, True])
    c = np.array([1 + 2j, -1j, 3], np.complex64)
    counts = np.zeros((2, 2), np.int32)
    exp = (h * 2, ~b, c * 1j)
    run(local_kinds, device, 1, 4, h, b, c, counts)
    np.testing.assert_array_equal(h, exp[0])
    np.testing.assert_array_equal(b, exp[1])
    np.testing.assert_array_equal(c, exp[2])
    np.testing.assert_array_equal(counts, [[0, 2], [0, 1]])


def test_local_array(device):
    a = np.arange(10, dtype=np.int32)
    out = np.zeros_like(a)
    run(local_arr, device, 1, 16, a, out)
    np.testing.assert_array_equal(out, a * 5 + 3)


TPB = 64


@kern(["Af4_1C", "Af4_1C"])
def block_reduce(a, out):
    buf = cuda.shared.array(TPB, np.float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = a[i] if i < a.size else 0
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if t < s:
            buf[t] += buf[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


@kern(["Af8_1C", "Af8_1C"])
def dyn_reverse(a, out):
    buf = cuda.shared.array(0, dtype=np.float64)
    t = cuda.threadIdx.x
    n = cuda.blockDim.x
    i = cuda.grid(1)
    buf[t] = a[i]
    cuda.syncthreads()
    out[i] = buf[n - 1 - t]


def test_shared_memory(device):
    a = np.arange(300, dtype=np.float32)
    out = np.zeros(5, np.float32)
    run(block_reduce, device, 5, TPB, a, out)
    np.testing.assert_array_equal(out, [a[k * 64:(k + 1) * 64].sum() for k in range(5)])
    b = np.arange(96, dtype=np.float64)
    o = np.zeros_like(b)
    with ember.Device(device):
        dyn_reverse[3, 32, 0, 32 * 8](b, o)
    np.testing.assert_array_equal(o, b.reshape(3, 32)[:, ::-1].ravel())


# ---- barriers with results, warps ---------------------------------------------------

@kern(["Ai4_2C"])
def votes(out):
    t = cuda.threadIdx.x
    b = cuda.blockIdx.x
    c = cuda.syncthreads_count(t % 3 == 0)
    x = cuda.syncthreads_and(t < 100)
    y = cuda.syncthreads_or(t == 5)
    cuda.syncwarp()
    m = cuda.activemask()
    al = cuda.all_sync(0xffffffff, t < 64)
    an = cuda.any_sync(0xffffffff, t == 40)
    bal = cuda.ballot_sync(0xffffffff, t % 2 == 0)
    i = b * cuda.blockDim.x + t
    out[i, 0] = c
    out[i, 1] = x != 0
    out[i, 2] = y != 0
    out[i, 3] = m == 0xffffffff
    out[i, 4] = al != 0
    out[i, 5] = an != 0
    out[i, 6] = bal == 0x55555555
    cuda.threadfence_block()
    cuda.threadfence()
    cuda.threadfence_system()


def test_barriers_and_votes(device):
    out = np.zeros((128, 7), np.int32)
    run(votes, device, 2, 64, out)
    t = np.arange(128) % 64
    exp = np.stack([np.full(128, 22), np.ones(128), np.ones(128), np.ones(128),
                    np.ones(128), (t >= 32), np.ones(128)], axis=1)
    np.testing.assert_array_equal(out, exp)


@kern(["Af4_1C", "Af4_2C"], ["Ai8_1C", "Ai8_2C"])
def shuffles(a, out):
    i = cuda.grid(1)
    x = a[i]
    out[i, 0] = cuda.shfl_sync(0xffffffff, x, 3)
    out[i, 1] = cuda.shfl_up_sync(0xffffffff, x, 1)
    out[i, 2] = cuda.shfl_down_sync(0xffffffff, x, 2)
    out[i, 3] = cuda.shfl_xor_sync(0xffffffff, x, 1)
    # a warp reduction
    v = x
    off = 16
    while off > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, off)
        off //= 2
    out[i, 4] = v


def test_shuffles(device):
    for dt in (np.float32, np.int64):
        a = np.arange(64).astype(dt) * 3
        out = np.zeros((64, 5), dt)
        run(shuffles, device, 1, 64, a, out)
        lane = np.arange(64) % 32
        w = np.arange(64) // 32 * 32
        np.testing.assert_array_equal(out[:, 0], a[w + 3])
        np.testing.assert_array_equal(out[:, 1], a[np.where(lane >= 1, np.arange(64) - 1, np.arange(64))])
        np.testing.assert_array_equal(out[:, 2], a[np.where(lane < 30, np.arange(64) + 2, np.arange(64))])
        np.testing.assert_array_equal(out[:, 3], a[w + (lane ^ 1)])
        np.testing.assert_array_equal(out[::32, 4], [a[:32].sum(), a[32:].sum()])


# ---- atomics -------------------------------------------------------------------------

@kern(["Ai4_1C", "Ai4_1C", "Ai4_1C"], ["Ai8_1C", "Ai8_1C", "Ai4_1C"],
      ["Au4_1C", "Au4_1C", "Ai4_1C"], ["Au8_1C", "Au8_1C", "Ai4_1C"])
def int_atomics(x, acc, old):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        old[i] = cuda.atomic.add(acc, 0, v)
        cuda.atomic.sub(acc, 1, v)
        cuda.atomic.max(acc, 2, v)
        cuda.atomic.min(acc, 3, v)
        cuda.atomic.and_(acc, 4, v)
        cuda.atomic.or_(acc, 5, v)
        cuda.atomic.xor(acc, 6, v)
        if i == 7:
            cuda.atomic.exch(acc, 7, v)
        cuda.atomic.cas(acc, 8, 0, v)    # only the first one succeeds


@pytest.mark.parametrize("dt", ["i4", "i8", "u4", "u8"])
def test_integer_atomics(device, dt):
    rng = np.random.default_rng(7)
    x = rng.integers(1, 1000, 500).astype(dt)
    acc = np.array([0, 10 ** 6, 0, 10 ** 6, -1 if dt[0] == "i" else 2 ** 31 - 1, 0, 0, 0, 0],
                   dtype=np.int64).astype(dt)
    old = np.zeros(500, np.int32)
    run(int_atomics, device, 4, 128, x, acc, old)
    exp_and = np.bitwise_and.reduce(x) & acc.dtype.type(-1 if dt[0] == "i" else 2 ** 31 - 1)
    assert acc[0] == x.sum() and acc[1] == acc.dtype.type(10 ** 6) - x.sum()
    assert acc[2] == x.max() and acc[3] == x.min() and acc[4] == exp_and
    assert acc[5] == np.bitwise_or.reduce(x) and acc[6] == np.bitwise_xor.reduce(x)
    assert acc[7] == x[7] and acc[8] in x
    # the old values are the partial sums in some order: all distinct, < total
    assert len(set(old.tolist())) == 500 and old.max() < x.sum()


@kern(["Af4_1C", "Af4_1C"], ["Af8_1C", "Af8_1C"])
def float_atomics(x, acc):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(acc, 0, x[i])
        cuda.atomic.sub(acc, 1, x[i])
        cuda.atomic.max(acc, 2, x[i])
        cuda.atomic.min(acc, 3, x[i])
        if i == 3:
            cuda.atomic.exch(acc, 4, x[i])


@kern(["Au4_1C"], ["Au8_1C"])
def inc_dec(acc):
    cuda.atomic.inc(acc, 0, 9)     # wraps to 0 past 9
    cuda.atomic.dec(acc, 1, 100)


def test_float_atomics_and_counters(device):
    for dt in (np.float32, np.float64):
        x = (np.arange(200) % 17 - 8).astype(dt) * 0.5
        acc = np.array([0, 0, -1e9, 1e9, 0], dt)
        run(float_atomics, device, 2, 128, x, acc)
        np.testing.assert_array_equal(acc, [x.sum(), -x.sum(), x.max(), x.min(), x[3]])
    for dt in (np.uint32, np.uint64):
        acc = np.array([0, 50], dt)
        run(inc_dec, device, 1, 25, acc)
        np.testing.assert_array_equal(acc, [25 % 10, 25])


@kern(["Af4_1C", "Ai4_1C"])
def histogram(x, bins):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < x.size:
        b = int(x[i] * bins.size)
        cuda.atomic.add(bins, min(b, bins.size - 1), 1)
        i += stride


def test_histogram_grid_stride(device):
    x = np.random.default_rng(9).random(10007).astype(np.float32)
    bins = np.zeros(16, np.int32)
    run(histogram, device, 4, 64, x, bins)
    exp = np.bincount(np.minimum((x * 16).astype(np.int64), 15), minlength=16)
    np.testing.assert_array_equal(bins, exp)


@kern(["f4", "Af4_1C", "Af4_1C"], ["f8", "Af4_1A", "Af8_1C"])
def saxpy_stride(alpha, x, y):
    start, step = cuda.grid(1), cuda.gridsize(1)
    for i in range(start, x.size, step):
        y[i] = alpha * x[i] + y[i]


@pytest.mark.parametrize("n", [0, 1, 255, 257, 4096, 3_000_001])
def test_grid_stride_sizes(device, n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(2 * n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    exp = np.float32(1.5) * x[:n] + y
    with ember.Device(device):
        dx, dy = ember.asarray(x[:n]), ember.asarray(y)
        saxpy_stride[64, 128](np.float32(1.5), dx, dy)
        # NVRTC fuses a * x + y into one fma, as CUDA C does: last-bit
        # differences from NumPy's two roundings on the GPU
        if device == "cpu":
            np.testing.assert_array_equal(ember.asnumpy(dy), exp)
        else:
            np.testing.assert_allclose(ember.asnumpy(dy), exp, rtol=1e-6, atol=1e-6)
        # a strided float32 input, a float64 output, a Python float
        y8 = y.astype(np.float64)
        saxpy_stride[64, 128](1.5, x[::2], y8)
    np.testing.assert_allclose(y8, 1.5 * x[::2].astype(np.float64) + y, rtol=1e-15)


def test_print(device, tmp_path):
    script = tmp_path / "kernel_print.py"
    script.write_text(
        "import numpy as np, ember\n"
        "from ember import cuda\n"
        "@cuda.jit\n"
        "def k(a):\n"
        "    i = cuda.grid(1)\n"
        "    if i == 1:\n"
        "        print('a[1] =', a[i], a[i] > 0, (i, 2), 1 - 0.5j, '100%', end='!\\n')\n"
        "        print(i, np.uint8(255), np.float32(0.1), sep='--')\n"
        "with ember.Device(DEVICE):\n"
        "    k[1, 4](np.array([1.5, -2.25]))\n"
        "    cuda.synchronize()\n".replace("DEVICE", repr(device)))
    r = run_python(str(script))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "a[1] = -2.25 False (1, 2) (1-0.5j) 100%!\n1--255--0.100000001\n"


# ---- bounds checks on cpu ---------------------------------------------------------

@kern(["Af8_2C", "i8"])
def oob(a, j):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i, j] = 1.0


def test_bounds_error_cpu():
    a = np.zeros((4, 3))
    with ember.Device("cpu"):
        oob[1, 4](a, 2)
        np.testing.assert_array_equal(a[:, 2], 1)
        oob[1, 4](a, -3)
        np.testing.assert_array_equal(a[:, 0], 1)
        with pytest.raises(IndexError, match=r"index 3 is out of bounds for axis 1 with "
                           r"size 3.*'a'.*test_jit_constructs.py"):
            oob[1, 4](a, 3)
        with pytest.raises(IndexError, match=r"-4.*axis 1"):
            oob[1, 4](a, -4)


# ---- every specialisation above compiles with NVRTC --------------------------------

@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
@pytest.mark.parametrize("debug", [False, True])
def test_nvrtc_compiles_every_case(debug):
    seen = set()
    for f, codes in CASES:
        if (f, codes) in seen:
            continue
        seen.add((f, codes))
        t = translate(f, codes, debug=debug, target="cuda")
        obj = cuda.Program(t.source, name=f.__name__ + ".cu").compile("ptx", arch=90)
        assert b".entry" in obj.code and t.name.encode() in obj.code, f.__name__
