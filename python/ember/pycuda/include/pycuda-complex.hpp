/* pycuda::complex<T>: the complex type PyCUDA's kernels use, for ember.
 *
 * ember.pycuda's SourceModule, ElementwiseKernel and ReductionKernel put
 * this folder on the include path, so `#include <pycuda-complex.hpp>`
 * compiles under NVRTC and under the cpu device's C++ compiler alike.
 * ember's own kernels keep complex numbers as plain C structs
 * (kernels/ewise_ops.h) and its host prelude has no C++ complex class,
 * so this file is the one for users' kernels.
 *
 * The layout is NumPy's complex64/complex128: the real part, then the
 * imaginary part, with nothing else, so a `pycuda::complex<float> *`
 * parameter takes a complex64 array. The default constructor is trivial
 * (T() is zero when value-initialised: complex<float>()), which keeps the
 * type usable in __shared__ arrays. The real-valued math goes through
 * detail:: overloads that call the C functions by name: inside this
 * namespace an unqualified exp(x) would find only the complex one.
 *
 * SourceModule wraps the user's source, includes and all, in extern "C"
 * { }, where templates and overloads are not allowed: the extern "C++"
 * block gives this file C++ linkage wherever it is included. */
#ifndef EMBER_PYCUDA_COMPLEX_HPP
#define EMBER_PYCUDA_COMPLEX_HPP

extern "C++" {
namespace pycuda {

namespace detail {
#define EMBER_PYC_REAL1(name, f, d)                                           \
    __host__ __device__ inline float name(float x) { return ::f(x); }         \
    __host__ __device__ inline double name(double x) { return ::d(x); }
EMBER_PYC_REAL1(r_exp, expf, exp)
EMBER_PYC_REAL1(r_log, logf, log)
EMBER_PYC_REAL1(r_sqrt, sqrtf, sqrt)
EMBER_PYC_REAL1(r_sin, sinf, sin)
EMBER_PYC_REAL1(r_cos, cosf, cos)
EMBER_PYC_REAL1(r_sinh, sinhf, sinh)
EMBER_PYC_REAL1(r_cosh, coshf, cosh)
EMBER_PYC_REAL1(r_fabs, fabsf, fabs)
#undef EMBER_PYC_REAL1
__host__ __device__ inline float r_atan2(float y, float x) { return ::atan2f(y, x); }
__host__ __device__ inline double r_atan2(double y, double x) { return ::atan2(y, x); }
__host__ __device__ inline float r_hypot(float x, float y) { return ::hypotf(x, y); }
__host__ __device__ inline double r_hypot(double x, double y) { return ::hypot(x, y); }

/* A scalar operand's type taken from the complex one, so z * 2 and
 * 2.0 * z mean complex<T> * T instead of failing to deduce T. */
template <typename T> struct same { typedef T type; };
}  // namespace detail

template <typename T> struct complex {
    T re_, im_;

    complex() = default;
    __host__ __device__ complex(const T &re, const T &im = T()) : re_(re), im_(im) {}
    template <typename U>
    __host__ __device__ explicit complex(const complex<U> &z)
        : re_(T(z.real())), im_(T(z.imag())) {}

    __host__ __device__ T real() const { return re_; }
    __host__ __device__ T imag() const { return im_; }
    __host__ __device__ void real(T v) { re_ = v; }
    __host__ __device__ void imag(T v) { im_ = v; }

    __host__ __device__ complex &operator=(const T &v) { re_ = v; im_ = T(); return *this; }
    __host__ __device__ complex &operator+=(const complex &z) { re_ += z.re_; im_ += z.im_; return *this; }
    __host__ __device__ complex &operator-=(const complex &z) { re_ -= z.re_; im_ -= z.im_; return *this; }
    __host__ __device__ complex &operator*=(const complex &z) { return *this = *this * z; }
    __host__ __device__ complex &operator/=(const complex &z) { return *this = *this / z; }
    __host__ __device__ complex &operator+=(const T &v) { re_ += v; return *this; }
    __host__ __device__ complex &operator-=(const T &v) { re_ -= v; return *this; }
    __host__ __device__ complex &operator*=(const T &v) { re_ *= v; im_ *= v; return *this; }
    __host__ __device__ complex &operator/=(const T &v) { re_ /= v; im_ /= v; return *this; }

    friend __host__ __device__ complex operator*(const complex &a, const complex &b)
    {
        return complex(a.re_ * b.re_ - a.im_ * b.im_, a.re_ * b.im_ + a.im_ * b.re_);
    }
    /* Smith's method: divides without overflowing where |b|^2 would. */
    friend __host__ __device__ complex operator/(const complex &a, const complex &b)
    {
        if (detail::r_fabs(b.re_) >= detail::r_fabs(b.im_)) {
            T r = b.im_ / b.re_, d = b.re_ + b.im_ * r;
            return complex((a.re_ + a.im_ * r) / d, (a.im_ - a.re_ * r) / d);
        }
        T r = b.re_ / b.im_, d = b.im_ + b.re_ * r;
        return complex((a.re_ * r + a.im_) / d, (a.im_ * r - a.re_) / d);
    }
};

#define EMBER_PYC_T typename detail::same<T>::type
template <typename T> __host__ __device__ complex<T> operator+(const complex<T> &a, const complex<T> &b) { return complex<T>(a.real() + b.real(), a.imag() + b.imag()); }
template <typename T> __host__ __device__ complex<T> operator-(const complex<T> &a, const complex<T> &b) { return complex<T>(a.real() - b.real(), a.imag() - b.imag()); }
template <typename T> __host__ __device__ complex<T> operator+(const complex<T> &a, const EMBER_PYC_T &b) { return complex<T>(a.real() + b, a.imag()); }
template <typename T> __host__ __device__ complex<T> operator-(const complex<T> &a, const EMBER_PYC_T &b) { return complex<T>(a.real() - b, a.imag()); }
template <typename T> __host__ __device__ complex<T> operator*(const complex<T> &a, const EMBER_PYC_T &b) { return complex<T>(a.real() * b, a.imag() * b); }
template <typename T> __host__ __device__ complex<T> operator/(const complex<T> &a, const EMBER_PYC_T &b) { return complex<T>(a.real() / b, a.imag() / b); }
template <typename T> __host__ __device__ complex<T> operator+(const EMBER_PYC_T &a, const complex<T> &b) { return complex<T>(a + b.real(), b.imag()); }
template <typename T> __host__ __device__ complex<T> operator-(const EMBER_PYC_T &a, const complex<T> &b) { return complex<T>(a - b.real(), -b.imag()); }
template <typename T> __host__ __device__ complex<T> operator*(const EMBER_PYC_T &a, const complex<T> &b) { return complex<T>(a * b.real(), a * b.imag()); }
template <typename T> __host__ __device__ complex<T> operator/(const EMBER_PYC_T &a, const complex<T> &b) { return complex<T>(a) / b; }
template <typename T> __host__ __device__ complex<T> operator+(const complex<T> &a) { return a; }
template <typename T> __host__ __device__ complex<T> operator-(const complex<T> &a) { return complex<T>(-a.real(), -a.imag()); }
template <typename T> __host__ __device__ bool operator==(const complex<T> &a, const complex<T> &b) { return a.real() == b.real() && a.imag() == b.imag(); }
template <typename T> __host__ __device__ bool operator!=(const complex<T> &a, const complex<T> &b) { return !(a == b); }
template <typename T> __host__ __device__ bool operator==(const complex<T> &a, const EMBER_PYC_T &b) { return a.real() == b && a.imag() == T(); }
template <typename T> __host__ __device__ bool operator!=(const complex<T> &a, const EMBER_PYC_T &b) { return !(a == b); }
#undef EMBER_PYC_T

template <typename T> __host__ __device__ T real(const complex<T> &z) { return z.real(); }
template <typename T> __host__ __device__ T imag(const complex<T> &z) { return z.imag(); }
template <typename T> __host__ __device__ T abs(const complex<T> &z) { return detail::r_hypot(z.real(), z.imag()); }
template <typename T> __host__ __device__ T arg(const complex<T> &z) { return detail::r_atan2(z.imag(), z.real()); }
template <typename T> __host__ __device__ T norm(const complex<T> &z) { return z.real() * z.real() + z.imag() * z.imag(); }
template <typename T> __host__ __device__ complex<T> conj(const complex<T> &z) { return complex<T>(z.real(), -z.imag()); }
template <typename T> __host__ __device__ complex<T> polar(const T &r, const T &theta = T())
{
    return complex<T>(r * detail::r_cos(theta), r * detail::r_sin(theta));
}
template <typename T> __host__ __device__ complex<T> exp(const complex<T> &z) { return polar(detail::r_exp(z.real()), z.imag()); }
template <typename T> __host__ __device__ complex<T> log(const complex<T> &z) { return complex<T>(detail::r_log(abs(z)), arg(z)); }
template <typename T> __host__ __device__ complex<T> log10(const complex<T> &z) { return log(z) / T(2.30258509299404568402); }
/* The principal root, through half the modulus (no cancellation). */
template <typename T> __host__ __device__ complex<T> sqrt(const complex<T> &z)
{
    T x = z.real(), y = z.imag();
    if (x == T() && y == T())
        return complex<T>(T(), y);
    T t = detail::r_sqrt((detail::r_fabs(x) + abs(z)) / T(2));
    if (x >= T())
        return complex<T>(t, y / (T(2) * t));
    return complex<T>(detail::r_fabs(y) / (T(2) * t), y < T() ? -t : t);
}
template <typename T> __host__ __device__ complex<T> pow(const complex<T> &a, const complex<T> &b)
{
    return (a.real() == T() && a.imag() == T()) ? complex<T>() : exp(b * log(a));
}
template <typename T> __host__ __device__ complex<T> pow(const complex<T> &a, const typename detail::same<T>::type &b)
{
    return pow(a, complex<T>(b));
}
template <typename T> __host__ __device__ complex<T> pow(const typename detail::same<T>::type &a, const complex<T> &b)
{
    return pow(complex<T>(a), b);
}
template <typename T> __host__ __device__ complex<T> sin(const complex<T> &z)
{
    return complex<T>(detail::r_sin(z.real()) * detail::r_cosh(z.imag()), detail::r_cos(z.real()) * detail::r_sinh(z.imag()));
}
template <typename T> __host__ __device__ complex<T> cos(const complex<T> &z)
{
    return complex<T>(detail::r_cos(z.real()) * detail::r_cosh(z.imag()), -detail::r_sin(z.real()) * detail::r_sinh(z.imag()));
}
template <typename T> __host__ __device__ complex<T> tan(const complex<T> &z) { return sin(z) / cos(z); }
template <typename T> __host__ __device__ complex<T> sinh(const complex<T> &z)
{
    return complex<T>(detail::r_sinh(z.real()) * detail::r_cos(z.imag()), detail::r_cosh(z.real()) * detail::r_sin(z.imag()));
}
template <typename T> __host__ __device__ complex<T> cosh(const complex<T> &z)
{
    return complex<T>(detail::r_cosh(z.real()) * detail::r_cos(z.imag()), detail::r_sinh(z.real()) * detail::r_sin(z.imag()));
}
template <typename T> __host__ __device__ complex<T> tanh(const complex<T> &z) { return sinh(z) / cosh(z); }

}  // namespace pycuda
}  // extern "C++"

#endif
