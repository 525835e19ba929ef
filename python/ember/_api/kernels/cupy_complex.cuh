/* complex<T> for users' raw kernels that include <cupy/complex.cuh>, as
 * CuPy's documentation shows: ember puts this text where that #include
 * line was (python/ember/_api/rawsource.py), for NVRTC and the host C++
 * compiler alike, since neither has the file.
 *
 * complex<float> and complex<double> have the layout of T[2], aligned to
 * their size, so a complex64 or complex128 array's pointer is a
 * complex<float>* or complex<double>*, and one passed by value is the
 * array element. The arithmetic, comparisons and functions are those of
 * std::complex (the ones CUDA code calls); a real operand may be of any
 * type that converts to T. Division scales by the larger of the
 * divisor's parts (Smith's method), so it neither overflows nor
 * underflows early. Only the real-valued math of float and double is
 * used (sqrt, hypot, atan2, exp, log, sin, cos, sinh, cosh, fabs,
 * copysign), which NVRTC and the host's <cmath> both overload. */
#ifndef EMBER_CUPY_COMPLEX_CUH
#define EMBER_CUPY_COMPLEX_CUH

namespace ember_complex
{

template <typename T> struct alignas(2 * sizeof(T)) complex {
    typedef T value_type;
    T re, im;

    __host__ __device__ complex(const T &r = T(), const T &i = T())
        : re(r), im(i)
    {
    }
    template <typename U>
    __host__ __device__ complex(const complex<U> &z)
        : re(T(z.real())), im(T(z.imag()))
    {
    }

    __host__ __device__ T real() const { return re; }
    __host__ __device__ T imag() const { return im; }
    __host__ __device__ void real(T r) { re = r; }
    __host__ __device__ void imag(T i) { im = i; }

    __host__ __device__ complex &operator=(const T &r)
    {
        re = r;
        im = T();
        return *this;
    }
    __host__ __device__ complex &operator+=(const complex &z)
    {
        re += z.re;
        im += z.im;
        return *this;
    }
    __host__ __device__ complex &operator-=(const complex &z)
    {
        re -= z.re;
        im -= z.im;
        return *this;
    }
    __host__ __device__ complex &operator*=(const complex &z)
    {
        return *this = *this * z;
    }
    __host__ __device__ complex &operator/=(const complex &z)
    {
        return *this = *this / z;
    }
    __host__ __device__ complex &operator+=(const T &r)
    {
        re += r;
        return *this;
    }
    __host__ __device__ complex &operator-=(const T &r)
    {
        re -= r;
        return *this;
    }
    __host__ __device__ complex &operator*=(const T &r)
    {
        re *= r;
        im *= r;
        return *this;
    }
    __host__ __device__ complex &operator/=(const T &r)
    {
        re /= r;
        im /= r;
        return *this;
    }

    friend __host__ __device__ complex operator+(const complex &a,
                                                 const complex &b)
    {
        return complex(a.re + b.re, a.im + b.im);
    }
    friend __host__ __device__ complex operator-(const complex &a,
                                                 const complex &b)
    {
        return complex(a.re - b.re, a.im - b.im);
    }
    friend __host__ __device__ complex operator*(const complex &a,
                                                 const complex &b)
    {
        return complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
    }
    friend __host__ __device__ complex operator/(const complex &a,
                                                 const complex &b)
    {
        T c = b.re, d = b.im;
        if (fabs(c) >= fabs(d)) {
            T r = d / c, den = c + d * r;
            return complex((a.re + a.im * r) / den, (a.im - a.re * r) / den);
        }
        T r = c / d, den = c * r + d;
        return complex((a.re * r + a.im) / den, (a.im * r - a.re) / den);
    }
    /* a real operand on either side: friends found by argument-dependent
     * lookup, so an int or a double converts to T instead of failing to
     * deduce */
    friend __host__ __device__ complex operator+(const complex &a, const T &r)
    {
        return complex(a.re + r, a.im);
    }
    friend __host__ __device__ complex operator+(const T &r, const complex &a)
    {
        return complex(r + a.re, a.im);
    }
    friend __host__ __device__ complex operator-(const complex &a, const T &r)
    {
        return complex(a.re - r, a.im);
    }
    friend __host__ __device__ complex operator-(const T &r, const complex &a)
    {
        return complex(r - a.re, -a.im);
    }
    friend __host__ __device__ complex operator*(const complex &a, const T &r)
    {
        return complex(a.re * r, a.im * r);
    }
    friend __host__ __device__ complex operator*(const T &r, const complex &a)
    {
        return complex(r * a.re, r * a.im);
    }
    friend __host__ __device__ complex operator/(const complex &a, const T &r)
    {
        return complex(a.re / r, a.im / r);
    }
    friend __host__ __device__ complex operator/(const T &r, const complex &a)
    {
        return complex(r) / a;
    }
    friend __host__ __device__ complex operator+(const complex &a) { return a; }
    friend __host__ __device__ complex operator-(const complex &a)
    {
        return complex(-a.re, -a.im);
    }
    friend __host__ __device__ bool operator==(const complex &a,
                                               const complex &b)
    {
        return a.re == b.re && a.im == b.im;
    }
    friend __host__ __device__ bool operator!=(const complex &a,
                                               const complex &b)
    {
        return !(a == b);
    }
    friend __host__ __device__ bool operator==(const complex &a, const T &r)
    {
        return a.re == r && a.im == T();
    }
    friend __host__ __device__ bool operator==(const T &r, const complex &a)
    {
        return a == r;
    }
    friend __host__ __device__ bool operator!=(const complex &a, const T &r)
    {
        return !(a == r);
    }
    friend __host__ __device__ bool operator!=(const T &r, const complex &a)
    {
        return !(a == r);
    }
};

template <typename T> __host__ __device__ inline T real(const complex<T> &z)
{
    return z.re;
}
template <typename T> __host__ __device__ inline T imag(const complex<T> &z)
{
    return z.im;
}
template <typename T> __host__ __device__ inline T abs(const complex<T> &z)
{
    return ::hypot(z.re, z.im);
}
template <typename T> __host__ __device__ inline T arg(const complex<T> &z)
{
    return ::atan2(z.im, z.re);
}
template <typename T> __host__ __device__ inline T norm(const complex<T> &z)
{
    return z.re * z.re + z.im * z.im;
}
template <typename T>
__host__ __device__ inline complex<T> conj(const complex<T> &z)
{
    return complex<T>(z.re, -z.im);
}
template <typename T>
__host__ __device__ inline complex<T> polar(const T &m, const T &theta = T())
{
    return complex<T>(m * ::cos(theta), m * ::sin(theta));
}

template <typename T>
__host__ __device__ inline complex<T> exp(const complex<T> &z)
{
    T e = ::exp(z.re);
    return complex<T>(e * ::cos(z.im), e * ::sin(z.im));
}
template <typename T>
__host__ __device__ inline complex<T> log(const complex<T> &z)
{
    return complex<T>(::log(abs(z)), arg(z));
}
template <typename T>
__host__ __device__ inline complex<T> log10(const complex<T> &z)
{
    return log(z) / ::log(T(10));
}
template <typename T>
__host__ __device__ inline complex<T> sqrt(const complex<T> &z)
{
    T x = z.re, y = z.im;
    if (x == T() && y == T())
        return complex<T>(T(), y);
    T t = ::sqrt((::fabs(x) + ::hypot(x, y)) / T(2));
    if (x >= T())
        return complex<T>(t, y / (T(2) * t));
    return complex<T>(::fabs(y) / (T(2) * t), ::copysign(t, y));
}
template <typename T>
__host__ __device__ inline complex<T> pow(const complex<T> &z,
                                          const complex<T> &w)
{
    return (z == T() && w.re > T()) ? complex<T>() : exp(w * log(z));
}
template <typename T>
__host__ __device__ inline complex<T> pow(const complex<T> &z, const T &w)
{
    return pow(z, complex<T>(w));
}
template <typename T>
__host__ __device__ inline complex<T> pow(const T &z, const complex<T> &w)
{
    return pow(complex<T>(z), w);
}
template <typename T>
__host__ __device__ inline complex<T> sin(const complex<T> &z)
{
    return complex<T>(::sin(z.re) * ::cosh(z.im), ::cos(z.re) * ::sinh(z.im));
}
template <typename T>
__host__ __device__ inline complex<T> cos(const complex<T> &z)
{
    return complex<T>(::cos(z.re) * ::cosh(z.im), -::sin(z.re) * ::sinh(z.im));
}
template <typename T>
__host__ __device__ inline complex<T> tan(const complex<T> &z)
{
    return sin(z) / cos(z);
}
template <typename T>
__host__ __device__ inline complex<T> sinh(const complex<T> &z)
{
    return complex<T>(::sinh(z.re) * ::cos(z.im), ::cosh(z.re) * ::sin(z.im));
}
template <typename T>
__host__ __device__ inline complex<T> cosh(const complex<T> &z)
{
    return complex<T>(::cosh(z.re) * ::cos(z.im), ::sinh(z.re) * ::sin(z.im));
}
template <typename T>
__host__ __device__ inline complex<T> tanh(const complex<T> &z)
{
    return sinh(z) / cosh(z);
}

} /* namespace ember_complex */

using ember_complex::abs;
using ember_complex::arg;
using ember_complex::complex;
using ember_complex::conj;
using ember_complex::cos;
using ember_complex::cosh;
using ember_complex::exp;
using ember_complex::imag;
using ember_complex::log;
using ember_complex::log10;
using ember_complex::norm;
using ember_complex::polar;
using ember_complex::pow;
using ember_complex::real;
using ember_complex::sin;
using ember_complex::sinh;
using ember_complex::sqrt;
using ember_complex::tan;
using ember_complex::tanh;

#endif /* EMBER_CUPY_COMPLEX_CUH */
