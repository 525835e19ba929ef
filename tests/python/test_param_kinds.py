"""Kernel arguments checked against what the source says each parameter is:
a wrong argument is a TypeError (or OverflowError) before the launch, never
a crash, a lost GPU context or a silently wrong answer."""
import numpy as np
import pytest

import ember

from helpers import to_device, to_numpy

SAXPY = r'''
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
'''

SCALARS = r'''
#define REAL double
typedef struct { int a; float b; } pair;
extern "C" __global__ void scalars(double *out, unsigned int u, unsigned long long big,
                                   bool flag, REAL r, float4 v, pair p, float h) {
    out[0] = u; out[1] = (double)big; out[2] = flag; out[3] = r;
    out[4] = v.x + 10 * v.y + 100 * v.z + 1000 * v.w;
    out[5] = p.a; out[6] = p.b; out[7] = h;
}
'''


def saxpy_data(device, n=64):
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    return x, y, to_device(x, device), to_device(y, device)


def test_kinds_reported(device):
    with ember.Device(device):
        k = ember.RawKernel(SAXPY, "saxpy")
        assert k.kernel.param_kinds == ("float", "pointer", "pointer", "int")
        f = ember.RawModule(code=SCALARS, options=("-DUNUSED=1",)).get_function("scalars")
        assert f.param_kinds == ("pointer", "uint", "uint", "bool", "float", "other",
                                 "other", "float")


def test_float_to_pointer_refused_before_launch(device):
    n = 64
    x, y, dx, dy = saxpy_data(device, n)
    with ember.Device(device):
        k = ember.RawKernel(SAXPY, "saxpy")
        with pytest.raises(TypeError,
                           match=r"kernel 'saxpy' args\[1\] \(const float \*x\) is a "
                                 r"pointer; got float"):
            k(1, n, (2.0, 1.5, dy, n))
        for bad in (7, None, np.float32(1), np.uint64(dx.ptr), 1 + 2j):
            with pytest.raises(TypeError, match=r"args\[2\] \(float \*y\) is a pointer"):
                k(1, n, (2.0, dx, bad, n))
        # Nothing reached the device: it still computes (on a GPU, a bad
        # pointer would have killed the context).
        k(1, n, (2.0, dx, dy, n))
        ember.get_current_device().synchronize()
        np.testing.assert_array_equal(to_numpy(dy, np.float32), 2 * x + y)


def test_int_to_float_param_converted(device):
    n = 64
    x, y, dx, dy = saxpy_data(device, n)
    with ember.Device(device):
        k = ember.RawKernel(SAXPY, "saxpy")
        k(1, n, (3, dx, dy, n))                 # an int, not its bits
        np.testing.assert_array_equal(to_numpy(dy, np.float32), 3 * x + y)
        dy.copy_from_host(y)
        k(1, n, (np.int32(-2), dx, dy, n))      # NumPy 'same_kind': ints become floats
        np.testing.assert_array_equal(to_numpy(dy, np.float32), -2 * x + y)
        dy.copy_from_host(y)
        k(1, n, (np.float32(0.5), dx, dy, n))
        np.testing.assert_array_equal(to_numpy(dy, np.float32), 0.5 * x + y)


def test_float_and_buffer_to_int_param_refused(device):
    n = 64
    _, _, dx, dy = saxpy_data(device, n)
    with ember.Device(device):
        k = ember.RawKernel(SAXPY, "saxpy")
        with pytest.raises(TypeError,
                           match=r"args\[3\] \(int n\) is an integer; got float"):
            k(1, n, (2.0, dx, dy, 64.0))
        with pytest.raises(TypeError, match=r"args\[3\] \(int n\) is an integer; got "
                                            r"numpy.float32"):
            k(1, n, (2.0, dx, dy, np.float32(64)))
        with pytest.raises(TypeError, match=r"args\[3\] \(int n\) is an integer; got "
                                            r"ember.Buffer"):
            k(1, n, (2.0, dx, dy, dx))
        with pytest.raises(TypeError, match=r"args\[0\] \(float a\) is a floating-point "
                                            r"number; got ember.Buffer"):
            k(1, n, (dx, dx, dy, n))
        with pytest.raises(OverflowError, match=r"args\[3\] \(int n\)"):
            k(1, n, (2.0, dx, dy, 2**31))
        with pytest.raises(TypeError, match=r"args\[3\] \(int n\): numpy.int64 is 8 bytes "
                                            r"but the parameter is 4 bytes"):
            k(1, n, (2.0, dx, dy, np.int64(n)))


def test_numpy_float64_to_float_param_names_sizes(device):
    n = 64
    _, _, dx, dy = saxpy_data(device, n)
    with ember.Device(device):
        k = ember.RawKernel(SAXPY, "saxpy")
        with pytest.raises(TypeError, match=r"args\[0\] \(float a\): numpy.float64 is 8 "
                                            r"bytes but the parameter is 4 bytes"):
            k(1, n, (np.float64(2), dx, dy, n))


def test_unsigned_bool_and_by_value(device):
    pair = np.dtype([("a", "<i4"), ("b", "<f4")])
    p = np.zeros((), dtype=pair)
    p["a"], p["b"] = -5, 0.25
    v = np.array([1, 2, 3, 4], dtype=np.float32)
    with ember.Device(device):
        k = ember.RawKernel(SCALARS, "scalars")
        out = ember.alloc(8 * 8)
        k(1, 1, (out, 2**32 - 1, 2**64 - 1, True, 7, v, p[()], 1.5))
        assert to_numpy(out, np.float64).tolist() == [2**32 - 1, float(2**64 - 1), 1, 7,
                                                      4321, -5, 0.25, 1.5]
        k(1, 1, (out, np.uint32(3), np.int64(4), np.bool_(False), 0.5, v.tobytes(),
                 p.tobytes(), np.float32(2)))
        assert to_numpy(out, np.float64).tolist() == [3, 4, 0, 0.5, 4321, -5, 0.25, 2]
        good = [out, 1, 1, 1, 1.0, v, p[()], 1.0]

        def call(i, value):
            args = list(good)
            args[i] = value
            k(1, 1, tuple(args))

        call(3, 0)                              # int 0 and 1 are bools
        for i, bad in [(1, 2**32), (1, -1), (2, 2**64), (3, 2)]:
            with pytest.raises(OverflowError, match=rf"args\[{i}\]"):
                call(i, bad)
        for i, bad, what in [(1, 1.0, "unsigned integer"), (3, 1.0, "bool"),
                             (3, np.int8(1), "bool"), (5, 1.0, "passed by value"),
                             (5, np.float32(1), "passed by value"),
                             (6, 7, "passed by value"), (6, out, "passed by value")]:
            with pytest.raises(TypeError, match=rf"args\[{i}\] .*is (an? )?{what}"):
                call(i, bad)
        with pytest.raises(TypeError, match=r"args\[5\] \(float4 v\): bytes is 12 bytes "
                                            r"but the parameter is 16 bytes"):
            call(5, b"x" * 12)
        with pytest.raises(TypeError, match=r"args\[5\].*not contiguous"):
            call(5, np.arange(8, dtype=np.float32)[::2])


def test_raw_module_function_kinds(device):
    n = 64
    x, y, dx, dy = saxpy_data(device, n)
    with ember.Device(device):
        f = ember.RawModule(code=SAXPY).get_function("saxpy")
        with pytest.raises(TypeError, match=r"args\[1\] \(const float \*x\) is a pointer"):
            f(1, n, (2.0, 2.0, dy, n))
        f(1, n, (2, dx, dy, n))
        np.testing.assert_array_equal(to_numpy(dy, np.float32), 2 * x + y)


def test_code_without_source_keeps_size_rules(need_cuda, need_nvrtc):
    """RawModule(ptx=...) has no source: kinds are unknown, arguments are
    converted by size as before, and correct launches work."""
    n = 64
    x, y, dx, dy = saxpy_data("cuda:0", n)
    with ember.Device("cuda:0"):
        for kind in ("ptx", "cubin"):
            obj = ember.Program(SAXPY).compile(kind)
            m = ember.RawModule(**{kind: obj.code})
            f = m.get_function("saxpy")
            assert f.param_kinds is None or f.param_kinds == (None,) * 4
            dy.copy_from_host(y)
            f(1, n, (2.0, dx, dy, n))
            ember.get_current_device().synchronize()
            np.testing.assert_array_equal(to_numpy(dy, np.float32), 2 * x + y)
