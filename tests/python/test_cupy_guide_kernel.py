"""The user-defined-kernels page of CuPy's user guide on ember: raw kernels
that include <cupy/complex.cuh> get ember's complex<T> (its layout is the
complex64/complex128 element; its arithmetic and functions are checked
here against NumPy's), with the compiler's line numbers kept the user's."""
import numpy as np
import pytest

import ember

_GUIDE = r'''
#include <cupy/complex.cuh>
extern "C" __global__
void my_func(const complex<float>* x1, const complex<float>* x2,
             complex<float>* y, float a) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    y[tid] = x1[tid] + a * x2[tid];
}
'''


def test_guide_complex_kernel(device):
    with ember.Device(device):
        k = ember.RawKernel(_GUIDE, "my_func")
        x1 = ember.arange(25, dtype=ember.complex64).reshape(5, 5)
        x2 = 1j * ember.arange(25, dtype=ember.complex64).reshape(5, 5)
        y = ember.zeros((5, 5), dtype=ember.complex64)
        k((5,), (5,), (x1, x2, y, np.float32(2.0)))
        h = np.arange(25, dtype=np.complex64).reshape(5, 5)
        np.testing.assert_array_equal(ember.asnumpy(y), h + 2 * (1j * h))


# every operation once, for float and double: out[k, i] is the k-th result
_OPS = r'''
#include "cupy/complex.cuh"
template<typename T>
__global__ void ops(const complex<T>* a, const complex<T>* b, complex<T>* out,
                    T* re, bool* eq, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i >= n) return;
    complex<T> x = a[i], y = b[i];
    int k = 0;
    out[k++ * n + i] = x + y;
    out[k++ * n + i] = x - y;
    out[k++ * n + i] = x * y;
    out[k++ * n + i] = x / y;
    out[k++ * n + i] = 2 * x - y / 4.0 + 1;      // int and double operands
    out[k++ * n + i] = T(3) / x;
    out[k++ * n + i] = -x;
    out[k++ * n + i] = conj(x);
    out[k++ * n + i] = exp(x);
    out[k++ * n + i] = log(x);
    out[k++ * n + i] = log10(x);
    out[k++ * n + i] = sqrt(x);
    out[k++ * n + i] = pow(x, y);
    out[k++ * n + i] = pow(x, T(2));
    out[k++ * n + i] = sin(x);
    out[k++ * n + i] = cos(x);
    out[k++ * n + i] = tan(x);
    out[k++ * n + i] = sinh(x);
    out[k++ * n + i] = cosh(x);
    out[k++ * n + i] = tanh(x);
    out[k++ * n + i] = polar(abs(x), arg(x));
    complex<T> z = x;
    z += y; z *= y; z -= T(1); z /= y;
    out[k++ * n + i] = z;
    re[0 * n + i] = abs(x);
    re[1 * n + i] = arg(x);
    re[2 * n + i] = norm(x);
    re[3 * n + i] = real(x) + imag(y);
    eq[0 * n + i] = (x == x) && !(x != x) && (x != y);
    eq[1 * n + i] = complex<T>(x.real()) == x.real();
}
'''


def _want(x, y):
    z = ((x + y) * y - 1) / y
    with np.errstate(over="ignore", invalid="ignore"):
        p = x ** y
    return [x + y, x - y, x * y, x / y, 2 * x - y / 4 + 1, 3 / x, -x,
            np.conj(x), np.exp(x), np.log(x), np.log10(x), np.sqrt(x),
            p, x ** 2, np.sin(x), np.cos(x), np.tan(x), np.sinh(x),
            np.cosh(x), np.tanh(x), x, z]


@pytest.mark.parametrize("ct,name,rtol", [(np.complex64, "ops<float>", 2e-5),
                                          (np.complex128, "ops<double>", 1e-12)])
def test_complex_header_matches_numpy(device, ct, name, rtol):
    rng = np.random.default_rng(0)
    n = 64
    x = (rng.uniform(-2, 2, n) + 1j * rng.uniform(-2, 2, n)).astype(ct)
    y = (rng.uniform(-2, 2, n) + 1j * rng.uniform(-2, 2, n)).astype(ct)
    x[:4] = [-4, 4j, -1e-3 - 2j, 3]     # sqrt/log on the axes and the cut
    y[:2] = [1e30, 1e-30j]             # division scaled, not overflowing
    rt = np.float32 if ct == np.complex64 else np.float64
    with ember.Device(device):
        mod = ember.RawModule(code=_OPS, options=("-std=c++11",),
                              name_expressions=["ops<float>", "ops<double>"])
        k = mod.get_function(name)
        want = _want(x.astype(np.complex128), y.astype(np.complex128))
        out = ember.zeros((len(want), n), dtype=ct)
        re = ember.zeros((4, n), dtype=rt)
        eq = ember.zeros((2, n), dtype=ember.bool_)
        k((1,), (n,), (ember.asarray(x), ember.asarray(y), out, re, eq, np.int32(n)))
        got = ember.asnumpy(out)
        for i, w in enumerate(want):
            # pow(-4, 1e30) and (x + 1e30) * 1e30 overflow: those two only on the rest
            cols = slice(2, None) if i in (12, 21) else slice(None)
            np.testing.assert_allclose(got[i][cols], w.astype(ct)[cols], rtol=rtol,
                                       atol=rtol * 10, err_msg=f"result {i}")
        r = ember.asnumpy(re)
        np.testing.assert_allclose(r[0], np.abs(x), rtol=rtol)
        np.testing.assert_allclose(r[1], np.angle(x), rtol=rtol, atol=rtol)
        np.testing.assert_allclose(r[2], np.abs(x) ** 2, rtol=rtol * 4)
        np.testing.assert_allclose(r[3], x.real + y.imag, rtol=rtol)
        assert ember.asnumpy(eq).all()


def test_complex_include_keeps_line_numbers(device):
    src = ('#include <cupy/complex.cuh>\n'
           'extern "C" __global__ void f(complex<float>* y) {\n'
           '    y[0] = undefined_name;\n'
           '}\n')
    with ember.Device(device):
        with pytest.raises(ember.CompileError, match="undefined_name") as e:
            ember.RawKernel(src, "f")((1,), (1,), (ember.zeros(1, ember.complex64),))
    assert "line 3" in str(e.value)


def test_complex_include_twice_and_other_cupy_headers(device):
    src = ('#include <cupy/complex.cuh>\n#include <cupy/complex.cuh>\n'
           'extern "C" __global__ void f(complex<double>* y) { y[0] = sqrt(complex<double>(-4)); }\n')
    with ember.Device(device):
        y = ember.zeros(1, ember.complex128)
        ember.RawKernel(src, "f")((1,), (1,), (y,))
        assert ember.asnumpy(y)[0] == 2j
        with pytest.raises(ember.CompileError, match="carray"):
            ember.RawKernel('#include <cupy/carray.cuh>\nextern "C" __global__ void g() {}\n',
                            "g")((1,), (1,), ())
