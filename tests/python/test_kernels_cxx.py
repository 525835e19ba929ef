"""Users' kernels are CUDA C++ on every device: RawKernel, RawModule,
ElementwiseKernel and ReductionKernel source with overloaded math,
templates, structs with methods, vector types and CUDA's math library and
intrinsics (on cpu compiled by the system C++ compiler against the host
prelude), ember arrays as kernel arguments, CuPy's call keywords and
RawModule.get_global. Results are checked against NumPy, Python's math
module or hand-computed values."""
import math

import numpy as np
import pytest

import ember
from conftest import HAVE_NVRTC
from helpers import assert_array_equal_np


def arr(x, device):
    return ember.asarray(np.asarray(x), device=device)


def launch1(k, n, args, **kw):
    k(((n + 63) // 64,), (64,), args, **kw)


# ---- CUDA's overloads: abs, min, max, pow, sqrt, ... -----------------------

OVERLOADS = r'''
extern "C" __global__ void ov_double(const double *x, const double *y, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[5 * i + 0] = abs(x[i]);
    out[5 * i + 1] = min(x[i], y[i]);
    out[5 * i + 2] = max(x[i], y[i]);
    out[5 * i + 3] = pow(fabs(x[i]), y[i]);
    out[5 * i + 4] = floor(x[i]) + sqrt(fabs(y[i]));
}
extern "C" __global__ void ov_float(const float *x, const float *y, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[5 * i + 0] = abs(x[i]);
    out[5 * i + 1] = min(x[i], y[i]);
    out[5 * i + 2] = max(x[i], y[i]);
    out[5 * i + 3] = pow(fabs(x[i]), y[i]);
    out[5 * i + 4] = floor(x[i]) + sqrt(fabs(y[i]));
}
extern "C" __global__ void ov_int(const int *x, const long long *y, long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[3 * i + 0] = abs(x[i]);
    out[3 * i + 1] = min((long long)x[i], y[i]);
    out[3 * i + 2] = max(abs(y[i]), (long long)x[i]);
}
'''


def test_overloaded_math_double_float_int(device):
    rng = np.random.default_rng(3)
    n = 200
    xd = rng.uniform(-5, 5, n)
    yd = rng.uniform(-3, 3, n)
    with ember.Device(device):
        m = ember.RawModule(code=OVERLOADS)
        for name, dt in (("ov_double", np.float64), ("ov_float", np.float32)):
            x, y = xd.astype(dt), yd.astype(dt)
            out = ember.zeros(5 * n, dtype=dt, device=device)
            launch1(m.get_function(name), n, (arr(x, device), arr(y, device), out, np.int32(n)))
            got = ember.asnumpy(out).reshape(n, 5)
            # abs of a floating value is never C's int abs (abs(-1.5) == 1.5)
            np.testing.assert_array_equal(got[:, 0], np.abs(x))
            np.testing.assert_array_equal(got[:, 1], np.minimum(x, y))
            np.testing.assert_array_equal(got[:, 2], np.maximum(x, y))
            rtol = 1e-6 if dt == np.float32 else 1e-14
            np.testing.assert_allclose(got[:, 3], np.power(np.abs(x), y), rtol=rtol)
            np.testing.assert_allclose(got[:, 4], np.floor(x) + np.sqrt(np.abs(y)), rtol=rtol)
        xi = rng.integers(-1000, 1000, n).astype(np.int32)
        yi = rng.integers(-2**40, 2**40, n).astype(np.int64)
        out = ember.zeros(3 * n, dtype=ember.int64, device=device)
        launch1(m.get_function("ov_int"), n, (arr(xi, device), arr(yi, device), out, n))
        got = ember.asnumpy(out).reshape(n, 3)
        np.testing.assert_array_equal(got[:, 0], np.abs(xi).astype(np.int64))
        np.testing.assert_array_equal(got[:, 1], np.minimum(xi.astype(np.int64), yi))
        np.testing.assert_array_equal(got[:, 2], np.maximum(np.abs(yi), xi.astype(np.int64)))


def test_abs_in_elementwise_and_reduction_kernels(device):
    x = np.array([-1.5, 2.25, -0.75, 3.0, -1e-3])
    ek = ember.ElementwiseKernel("T x", "T y", "y = abs(x) + max(x, T(0))", "absmax_cxx")
    if device == "cpu" and HAVE_NVRTC:
        ek._set_check_cuda(True)   # the same snippet through NVRTC too
    assert_array_equal_np(ek(arr(x, device)), np.abs(x) + np.maximum(x, 0), device)
    rk = ember.ReductionKernel("T x", "T y", "abs(x)", "max(a, b)", "y = a", "0",
                               "absmax_red_cxx")
    if device == "cpu" and HAVE_NVRTC:
        rk._set_check_cuda(True)
    r = ember.asnumpy(rk(arr(x, device)))
    assert r == 3.0 and r.dtype == np.float64
    xf = x.astype(np.float32)
    assert ember.asnumpy(rk(arr(xf, device))) == np.float32(3.0)


# ---- templates, structs, vector types --------------------------------------

TEMPLATES = r'''
template <typename T> struct Accum {
    T sum, sq;
    __device__ Accum() : sum(T(0)), sq(T(0)) {}
    __device__ void add(T v) { sum += v; sq += v * v; }
    __device__ T mean(int n) const { return sum / T(n); }
};

template <typename T>
__device__ T axpy1(T a, T x, T y) { return a * x + y; }

template <typename T>
__global__ void stats(const T *x, T *out, int n) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    Accum<T> acc;
    for (int i = 0; i < n; i++) acc.add(x[i]);
    out[0] = acc.mean(n);
    out[1] = acc.sq;
    out[2] = axpy1(T(2), acc.sum, T(1));
}

extern "C" __global__ void stats_f64(const double *x, double *out, int n) {
    stats<double>(x, out, n);
}
extern "C" __global__ void stats_i32(const int *x, int *out, int n) {
    stats<int>(x, out, n);
}
'''


def test_template_struct_methods_extern_c_wrapper(device):
    x = np.array([1.5, -2.0, 4.25, 0.5])
    xi = np.array([3, -4, 10, 7], dtype=np.int32)
    with ember.Device(device):
        m = ember.RawModule(code=TEMPLATES)
        out = ember.zeros(3, dtype=ember.float64, device=device)
        m.get_function("stats_f64")((1,), (1,), (arr(x, device), out, x.size))
        np.testing.assert_array_equal(ember.asnumpy(out),
                                      [x.mean(), (x * x).sum(), 2 * x.sum() + 1])
        outi = ember.zeros(3, dtype=ember.int32, device=device)
        m.get_function("stats_i32")((1,), (1,), (arr(xi, device), outi, xi.size))
        np.testing.assert_array_equal(ember.asnumpy(outi),
                                      [16 // 4, (xi * xi).sum(), 2 * xi.sum() + 1])


NAMED = r'''
template <typename T, int K>
__global__ void scale_k(T *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * T(K) + T(1) / T(2);
}
__global__ void plain_cxx(float *x, int n) {   // a C++ (mangled) name
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = -x[i];
}
namespace ns {
__global__ void twice(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2 * x[i];
}
}
'''


def test_name_expressions(device):
    exprs = ("scale_k<float, 3>", "scale_k<double, 5>", "plain_cxx", "ns::twice")
    with ember.Device(device):
        m = ember.RawModule(code=NAMED, name_expressions=exprs)
        xf = arr(np.arange(10, dtype=np.float32), device)
        launch1(m.get_function("scale_k<float, 3>"), 10, (xf, 10))
        np.testing.assert_array_equal(ember.asnumpy(xf),
                                      np.arange(10, dtype=np.float32) * 3 + 0.5)
        xd = arr(np.arange(10, dtype=np.float64), device)
        f = m.get_function("scale_k<double, 5>")
        if device == "cpu":   # the GPU knows them only from CUDA 12.4's drivers
            assert f.num_params == 2 and f.param_sizes == (8, 4)
        launch1(f, 10, (xd, 10))
        np.testing.assert_array_equal(ember.asnumpy(xd), np.arange(10.0) * 5 + 0.5)
        launch1(m.get_function("plain_cxx"), 10, (xf, 10))
        np.testing.assert_array_equal(ember.asnumpy(xf),
                                      -(np.arange(10, dtype=np.float32) * 3 + 0.5))
        launch1(m.get_function("ns::twice"), 10, (xf, 10))
        np.testing.assert_array_equal(ember.asnumpy(xf),
                                      -2 * (np.arange(10, dtype=np.float32) * 3 + 0.5))
        with pytest.raises(AttributeError):
            m.get_function("scale_k<int, 2>")   # not instantiated


VEC3 = r'''
__device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ float3 operator*(float s, float3 a) { return make_float3(s * a.x, s * a.y, s * a.z); }
__device__ float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

extern "C" __global__ void vec3(const float *p, const float *q, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float3 a = make_float3(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    float3 b = make_float3(q[3 * i], q[3 * i + 1], q[3 * i + 2]);
    float3 c = a + 2.0f * b;
    double4 d = make_double4(c.x, c.y, c.z, dot(a, b));
    out[4 * i] = (float)d.x; out[4 * i + 1] = (float)d.y;
    out[4 * i + 2] = (float)d.z; out[4 * i + 3] = (float)d.w;
}
'''


def test_float3_arithmetic(device):
    rng = np.random.default_rng(5)
    n = 50
    p = rng.integers(-8, 8, (n, 3)).astype(np.float32)
    q = rng.integers(-8, 8, (n, 3)).astype(np.float32)
    with ember.Device(device):
        k = ember.RawKernel(VEC3, "vec3")
        out = ember.zeros(4 * n, dtype=ember.float32, device=device)
        launch1(k, n, (arr(p, device), arr(q, device), out, n))
        got = ember.asnumpy(out).reshape(n, 4)
    np.testing.assert_array_equal(got[:, :3], p + 2 * q)
    np.testing.assert_array_equal(got[:, 3], (p * q).sum(axis=1))


# ---- CUDA's math library ---------------------------------------------------

SPECIAL = r'''
extern "C" __global__ void special(const double *x, double *out, float *outf, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    out[6 * i + 0] = erfcinv(v);            /* v in (0, 2) */
    out[6 * i + 1] = erfinv(v - 1.0);
    out[6 * i + 2] = normcdf(4.0 * v - 4.0);
    out[6 * i + 3] = normcdfinv(v / 2.0);
    out[6 * i + 4] = rsqrt(v) + rcbrt(v);
    double s, c;
    sincos(v, &s, &c);
    out[6 * i + 5] = s * c;
    outf[2 * i] = erfcinv((float)v);
    outf[2 * i + 1] = __fdividef(__expf((float)v), 2.0f) + fmaf((float)v, 2.0f, 1.0f);
}
'''


def test_special_functions(device):
    x = np.array([1e-300, 1e-20, 1e-5, 0.01, 0.3, 0.5, 0.9, 1.0, 1.2, 1.7, 1.99999])
    n = x.size
    with ember.Device(device):
        k = ember.RawKernel(SPECIAL, "special")
        out = ember.zeros(6 * n, dtype=ember.float64, device=device)
        outf = ember.zeros(2 * n, dtype=ember.float32, device=device)
        launch1(k, n, (arr(x, device), out, outf, n))
        got = ember.asnumpy(out).reshape(n, 6)
        gotf = ember.asnumpy(outf).reshape(n, 2)
    for i, v in enumerate(x):
        t = got[i, 0]
        # erfc(erfcinv(v)) == v, and known values
        assert math.isclose(math.erfc(t), v, rel_tol=1e-12), (v, t)
        e = got[i, 1]
        assert math.isclose(math.erf(e), v - 1.0, rel_tol=1e-12, abs_tol=1e-300), (v, e)
        z = 4.0 * v - 4.0
        assert math.isclose(got[i, 2], 0.5 * math.erfc(-z / math.sqrt(2)), rel_tol=1e-14)
        p = v / 2.0
        assert math.isclose(0.5 * math.erfc(-got[i, 3] / math.sqrt(2)), p, rel_tol=1e-12)
        assert math.isclose(got[i, 4], 1 / math.sqrt(v) + v ** (-1 / 3), rel_tol=1e-14)
        assert math.isclose(got[i, 5], math.sin(v) * math.cos(v), rel_tol=1e-14,
                            abs_tol=1e-300)
        assert math.isclose(gotf[i, 0], float(np.float32(t)), rel_tol=2e-6) or \
            math.isclose(math.erfc(gotf[i, 0]), float(np.float32(v)), rel_tol=1e-5)
        vf = float(np.float32(v))
        assert math.isclose(gotf[i, 1], math.exp(vf) / 2 + (2 * vf + 1), rel_tol=1e-6)
    # reference values: erfcinv(0.5) = erfinv(0.5), normcdfinv(0.975)
    assert math.isclose(got[list(x).index(0.5), 0], 0.4769362762044699, rel_tol=1e-14)
    assert got[list(x).index(1.0), 0] == 0.0


# ---- intrinsics, atomics, user stdint types --------------------------------

INTRINSICS = r'''
typedef unsigned long long uint64_t;
typedef unsigned int uint32_t;

__device__ uint64_t splitmix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

extern "C" __global__ void bits(const uint32_t *x, uint64_t *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t v = x[i];
    out[8 * i + 0] = __popc(v);
    out[8 * i + 1] = __clz((int)v);
    out[8 * i + 2] = __ffs((int)v);
    out[8 * i + 3] = __brev(v);
    out[8 * i + 4] = (uint32_t)__mul24((int)v, 77);
    out[8 * i + 5] = __umulhi(v, 0xdeadbeefu);
    out[8 * i + 6] = splitmix64(v);
    atomicAdd(&out[8 * n], (uint64_t)v);
    atomicMax(&out[8 * n + 1], (uint64_t)v);
    atomicMin((unsigned int *)&out[8 * i + 7], v);
}
'''


def _brev32(v):
    return int(f"{v:032b}"[::-1], 2)


def _splitmix64(z):
    m = (1 << 64) - 1
    z = (z + 0x9E3779B97F4A7C15) & m
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    return z ^ (z >> 31)


def _mul24(a, b):
    def s24(v):
        v &= 0xFFFFFF
        return v - (1 << 24) if v & 0x800000 else v
    return (s24(a) * s24(b)) & 0xFFFFFFFF


def test_intrinsics_atomics_user_uint64(device):
    x = np.array([1, 2, 3, 0x80000000, 0xFFFFFFFF, 12345678, 0x00F0F000, 7],
                 dtype=np.uint32)
    n = x.size
    init = np.zeros(8 * n + 2, dtype=np.uint64)
    init[7::8][:n] = 0xFFFFFFFF   # low word of each slot for atomicMin
    with ember.Device(device):
        k = ember.RawKernel(INTRINSICS, "bits")
        out = arr(init, device)
        launch1(k, n, (arr(x, device), out, n))
        got = ember.asnumpy(out)
    for i, v in enumerate(int(t) for t in x):
        row = [int(t) for t in got[8 * i: 8 * i + 8]]
        assert row[0] == bin(v).count("1")
        assert row[1] == 32 - v.bit_length()
        assert row[2] == ((v & -v).bit_length() if v else 0)
        assert row[3] == _brev32(v)
        assert row[4] == _mul24(v, 77)
        assert row[5] == (v * 0xDEADBEEF) >> 32
        assert row[6] == _splitmix64(v)
        assert row[7] == v
    assert int(got[8 * n]) == int(x.astype(np.uint64).sum())
    assert int(got[8 * n + 1]) == int(x.max())


# ---- warps and shared memory in C++ ----------------------------------------

WARP = r'''
template <typename T>
__device__ T warp_sum(T v) {
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffffu, v, d);
    return v;
}

extern "C" __global__ void block_sum(const double *x, double *out) {
    __shared__ double part[8];
    double v = warp_sum(x[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        double s = 0;
        for (int w = 0; w < (int)blockDim.x / 32; w++) s += part[w];
        out[blockIdx.x] = s;
    }
}
'''


def test_warp_shuffle_template(device):
    x = np.arange(4 * 128, dtype=np.float64) * 0.5
    with ember.Device(device):
        k = ember.RawKernel(WARP, "block_sum")
        out = ember.zeros(4, dtype=ember.float64, device=device)
        k(4, 128, (arr(x, device), out))
        np.testing.assert_array_equal(ember.asnumpy(out), x.reshape(4, 128).sum(axis=1))


# ---- arguments and keywords ------------------------------------------------

ADD = r'''
extern "C" __global__ void add3(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
'''


def test_ndarray_args_and_keywords(device):
    a = np.arange(100, dtype=np.float32)
    b = np.full(100, 0.25, dtype=np.float32)
    with ember.Device(device):
        k = ember.RawKernel(ADD, "add3")
        da, db = arr(a, device), arr(b, device)
        dc = ember.empty(100, dtype=ember.float32, device=device)
        k((2,), (64,), args=(da, db, dc, 100))
        assert_array_equal_np(dc, a + b, device)
        dc.fill(0)
        k(grid=(2,), block=(64,), args=(da, db, dc, np.int32(100)), shared_mem=0,
          stream=None)
        assert_array_equal_np(dc, a + b, device)
        with pytest.raises(TypeError, match="args"):
            k((2,), (64,))
        with pytest.raises(TypeError, match="multiple values"):
            k((2,), (64,), (da, db, dc, 100), args=(da, db, dc, 100))


def test_ndarray_on_other_device_is_refused(need_cuda):
    with ember.Device("cpu"):
        k = ember.RawKernel(ADD, "add3")
        x = ember.zeros(4, dtype=ember.float32, device="cuda:0")
        with pytest.raises(ValueError, match="cuda:0"):
            k(1, 4, (x, x, x, 4))


# ---- RawModule.get_global --------------------------------------------------

GLOBALS = r'''
__constant__ float coeffs[4];
__device__ int counter;

extern "C" __global__ void poly(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    y[i] = coeffs[0] + v * (coeffs[1] + v * (coeffs[2] + v * coeffs[3]));
    atomicAdd(&counter, 1);
}
'''


def test_get_global_constant_memory(device):
    """CuPy's pattern: get_global gives a MemoryPointer, ember.ndarray views
    it, the host writes through the view and kernels read the variable."""
    c = np.array([1.0, -2.0, 0.5, 0.25], dtype=np.float32)
    x = np.linspace(-2, 2, 33).astype(np.float32)
    with ember.Device(device):
        m = ember.RawModule(code=GLOBALS)
        g = m.get_global("coeffs")
        assert isinstance(g, ember.cuda.MemoryPointer)
        assert g.mem.size == 16 and g.ptr != 0 and g.device == ember.Device(device)
        coeffs = ember.ndarray((4,), ember.float32, g)
        coeffs[...] = arr(c, device)
        cnt = ember.ndarray((1,), ember.int32, m.get_global("counter"))
        assert m.get_global("counter").mem.size == 4
        cnt[...] = 5
        y = ember.empty(x.size, dtype=ember.float32, device=device)
        launch1(m.get_function("poly"), x.size, (arr(x, device), y, x.size))
        expect = c[0] + x * (c[1] + x * (c[2] + x * c[3]))
        np.testing.assert_allclose(ember.asnumpy(y), expect, rtol=1e-6)
        assert int(ember.asnumpy(cnt)[0]) == 5 + x.size
        # written again (reversed): the kernel sees the new values
        coeffs[...] = arr(c[::-1].copy(), device)
        launch1(m.get_function("poly"), x.size, (arr(x, device), y, x.size))
        r = c[::-1]
        np.testing.assert_allclose(ember.asnumpy(y), r[0] + x * (r[1] + x * (r[2] + x * r[3])),
                                   rtol=1e-6)
        np.testing.assert_array_equal(ember.asnumpy(coeffs), r)
        # CuPy's MemoryPointer copies: from the host, back, from the device
        g.copy_from_host(c, 16)
        back = np.zeros(4, dtype=np.float32)
        g.copy_to_host(back, 16)
        np.testing.assert_array_equal(back, c)
        launch1(m.get_function("poly"), x.size, (arr(x, device), y, x.size))
        np.testing.assert_allclose(ember.asnumpy(y), expect, rtol=1e-6)
        g.copy_from_device(arr(r.copy(), device).data, 16)
        np.testing.assert_array_equal(ember.asnumpy(coeffs), r)
        with pytest.raises(AttributeError, match="nope"):
            m.get_global("nope")


DYNSHARED = r'''
#define BLOCK 64
template <typename T> struct Pair {
    T a, b;
    __host__ __device__ Pair operator+(const Pair &o) const { return {a + o.a, b + o.b}; }
};

template <typename T>
__global__ void __launch_bounds__(BLOCK) tree_sum(const T *__restrict__ x, T *out, int n) {
    extern __shared__ unsigned char smem[];        // dynamic, in a template
    Pair<T> *s = reinterpret_cast<Pair<T> *>(smem);
    unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    s[t] = Pair<T>{g < (unsigned)n ? x[g] : T(0), T(1)};
    __syncthreads();
    #pragma unroll
    for (int d = BLOCK / 2; d > 0; d >>= 1) {
        if (t < (unsigned)d) s[t] = s[t] + s[t + d];
        __syncthreads();
    }
    if (t == 0) { out[2 * blockIdx.x] = s[0].a; out[2 * blockIdx.x + 1] = s[0].b; }
}

extern "C" __global__ void tree_sum_f32(const float *x, float *out, int n) {
    tree_sum<float>(x, out, n);   // the C-linkage wrapper, for every device
}
'''


def test_template_dynamic_shared_memory(device):
    x = np.arange(200, dtype=np.float64) * 0.25
    with ember.Device(device):
        m = ember.RawModule(code=DYNSHARED, name_expressions=("tree_sum<double>",))
        out = ember.zeros(8, dtype=ember.float64, device=device)
        m.get_function("tree_sum<double>")(4, 64, (arr(x, device), out, x.size),
                                           shared_mem=64 * 16)
        got = ember.asnumpy(out).reshape(4, 2)
        np.testing.assert_array_equal(got[:, 0], np.pad(x, (0, 56)).reshape(4, 64).sum(1))
        np.testing.assert_array_equal(got[:, 1], [64.0] * 4)
        xf = x.astype(np.float32)
        outf = ember.zeros(8, dtype=ember.float32, device=device)
        m.get_function("tree_sum_f32")(4, 64, (arr(xf, device), outf, xf.size),
                                       shared_mem=64 * 8)
        np.testing.assert_array_equal(ember.asnumpy(outf).reshape(4, 2)[:, 0],
                                      np.pad(xf, (0, 56)).reshape(4, 64).sum(1))


HALF = r'''
#include <cuda_fp16.h>

extern "C" __global__ void half_ops(const __half *x, const __half *y, __half *out,
                                    float *outf, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half a = x[i], b = y[i];
    out[4 * i + 0] = a + b;
    out[4 * i + 1] = __hmul(a, b);
    out[4 * i + 2] = a / b;
    out[4 * i + 3] = __float2half(__half2float(a) * 3.0f);
    outf[i] = __half2float(__hmax(a, b));
}
'''


def _cuda_include_options():
    """The toolkit's include directory by name (ember also adds the one it
    finds itself, after these)."""
    import os
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.path.exists(os.path.join(root, "include", "cuda_fp16.h")):
            return ("-I" + os.path.join(root, "include"),)
    return None


def test_half(device):
    rng = np.random.default_rng(9)
    n = 64
    x = rng.uniform(-4, 4, n).astype(np.float16)
    y = rng.uniform(0.5, 3, n).astype(np.float16)
    opts = ()
    if device.startswith("cuda"):
        opts = _cuda_include_options()
        if opts is None:
            pytest.skip("cuda_fp16.h not found for NVRTC (set CUDA_HOME)")
    with ember.Device(device):
        k = ember.RawKernel(HALF, "half_ops", options=opts)
        out = ember.zeros(4 * n, dtype=ember.float16, device=device)
        outf = ember.zeros(n, dtype=ember.float32, device=device)
        launch1(k, n, (arr(x, device), arr(y, device), out, outf, n))
        got = ember.asnumpy(out).reshape(n, 4)
    # NumPy's float16 operations round the exact result once, as the GPU does
    np.testing.assert_array_equal(got[:, 0], x + y)
    np.testing.assert_array_equal(got[:, 1], x * y)
    np.testing.assert_array_equal(got[:, 2], x / y)
    np.testing.assert_array_equal(got[:, 3], (x.astype(np.float32) * 3).astype(np.float16))
    np.testing.assert_array_equal(ember.asnumpy(outf), np.maximum(x, y).astype(np.float32))
