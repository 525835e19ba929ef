/* ember host prelude, C++ part: what users' kernels get beyond the C
 * prelude when the host backend compiles them as CUDA C++.
 *
 * RawKernel, RawModule, ElementwiseKernel and ReductionKernel source is
 * what a CuPy user would give NVRTC: C++ with templates, overloads,
 * functional casts and structs with methods. host_compile.c compiles it
 * with the system C++ compiler, placing kernels/host_prelude.h and then
 * this file before it. The C prelude supplies everything both languages
 * share (qualifiers, coordinates, vector types, the block simulator, the
 * per-type atomic, shuffle and min/max functions, intrinsics); under
 * __cplusplus it leaves out its C-only type dispatch (_Generic) and its
 * min/max/abs/exp macros, and this file puts CUDA's overloads in their
 * place, plus the parts of CUDA's math library that C's <math.h> lacks,
 * and the launchers, which read each kernel's parameter list from its
 * type instead of from the source text. Generated kernels (ufuncs,
 * reductions, ember.cuda.jit) stay C and never see this file.
 *
 * <math.h> in C++ is libstdc++'s, which already overloads every C math
 * function for float, double and integers (abs(-1.5) is 1.5, sqrt(2.0f)
 * a float), as CUDA's headers do.
 */
#ifndef EMBER_HOST_PRELUDE_CXX_H
#define EMBER_HOST_PRELUDE_CXX_H

#include <cmath>
#include <tuple>
#include <type_traits>
#include <utility>

#define __EM_EXPORT __attribute__((visibility("default")))

/* ---- min, max ----------------------------------------------------------- */

/* CUDA overloads min and max for every pair of arithmetic types, in the
 * type the usual arithmetic conversions give the pair (min(int, unsigned)
 * is unsigned); floating types as fmin/fmax (a NaN loses to a number). */
template <class A, class B,
          class = typename std::enable_if<std::is_arithmetic<A>::value &&
                                          std::is_arithmetic<B>::value>::type>
static inline __attribute__((always_inline)) auto min(A a, B b) -> decltype(a + b)
{
    typedef decltype(a + b) T;
    if (std::is_floating_point<T>::value)
        return (T)std::fmin((T)a, (T)b);
    return (T)a < (T)b ? (T)a : (T)b;
}
template <class A, class B,
          class = typename std::enable_if<std::is_arithmetic<A>::value &&
                                          std::is_arithmetic<B>::value>::type>
static inline __attribute__((always_inline)) auto max(A a, B b) -> decltype(a + b)
{
    typedef decltype(a + b) T;
    if (std::is_floating_point<T>::value)
        return (T)std::fmax((T)a, (T)b);
    return (T)a > (T)b ? (T)a : (T)b;
}

/* ---- math: CUDA's float overloads and what <math.h> lacks ---------------- */

static inline float rsqrt(float x) { return rsqrtf(x); }
static inline float rcbrt(float x) { return rcbrtf(x); }
static inline float exp10(float x) { return exp10f(x); }
static inline void sincos(float x, float *s, float *c) { sincosf(x, s, c); }
static inline float j0(float x) { return j0f(x); }
static inline float j1(float x) { return j1f(x); }
static inline float jn(int n, float x) { return jnf(n, x); }
static inline float y0(float x) { return y0f(x); }
static inline float y1(float x) { return y1f(x); }
static inline float yn(int n, float x) { return ynf(n, x); }
static inline float saturate(float x) { return __saturatef(x); }
static inline float fdividef(float x, float y) { return x / y; }
static inline double fdivide(double x, double y) { return x / y; }

/* sin(pi x), cos(pi x): x is reduced exactly (remainder by 2 is exact),
 * so integers and halves give exact zeros and ones, as CUDA's do. Macros
 * over ember's names because C23's <math.h> declares sinpi and cospi. */
static inline double __em_sinpi(double x)
{
    double r = remainder(x, 2.0), a = fabs(r), s;   /* r in [-1, 1] */
    if (a <= 0.25)
        s = sin(M_PI * a);
    else if (a <= 0.75)
        s = cos(M_PI * (0.5 - a));
    else
        s = sin(M_PI * (1.0 - a));
    return copysign(s, r);
}
static inline double __em_cospi(double x)
{
    double a = fabs(remainder(x, 2.0));
    if (a <= 0.25)
        return cos(M_PI * a);
    if (a <= 0.75)
        return sin(M_PI * (0.5 - a));
    return -cos(M_PI * (1.0 - a));
}
static inline float __em_sinpi(float x) { return (float)__em_sinpi((double)x); }
static inline float __em_cospi(float x) { return (float)__em_cospi((double)x); }
static inline float __em_sinpif(float x) { return (float)__em_sinpi((double)x); }
static inline float __em_cospif(float x) { return (float)__em_cospi((double)x); }
static inline void __em_sincospi(double x, double *s, double *c)
{
    *s = __em_sinpi(x);
    *c = __em_cospi(x);
}
static inline void __em_sincospi(float x, float *s, float *c)
{
    *s = __em_sinpif(x);
    *c = __em_cospif(x);
}
static inline void __em_sincospif(float x, float *s, float *c) { __em_sincospi(x, s, c); }
#define sinpi __em_sinpi
#define cospi __em_cospi
#define sinpif __em_sinpif
#define cospif __em_cospif
#define sincospi __em_sincospi
#define sincospif __em_sincospif

/* erfinv and erfcinv (double, and erfinvf/erfcinvf) are in
 * host_prelude.h, shared with the elementwise kernels; the float
 * overloads CUDA C++ has: */
static inline float erfcinv(float y) { return erfcinvf(y); }
static inline float erfinv(float x) { return erfinvf(x); }
static inline float normcdf(float x) { return normcdff(x); }
static inline float normcdfinv(float p) { return normcdfinvf(p); }
static inline float erfcx(float x) { return erfcxf(x); }

/* Modified Bessel functions of the first kind, from C++17's <cmath>. */
static inline double cyl_bessel_i0(double x) { return std::cyl_bessel_i(0.0, fabs(x)); }
static inline double cyl_bessel_i1(double x)
{
    return copysign(std::cyl_bessel_i(1.0, fabs(x)), x);
}
static inline float cyl_bessel_i0f(float x) { return (float)cyl_bessel_i0((double)x); }
static inline float cyl_bessel_i1f(float x) { return (float)cyl_bessel_i1((double)x); }
static inline float cyl_bessel_i0(float x) { return cyl_bessel_i0f(x); }
static inline float cyl_bessel_i1(float x) { return cyl_bessel_i1f(x); }

/* Norms through hypot, which neither overflows nor underflows early. */
static inline double rhypot(double a, double b) { return 1.0 / hypot(a, b); }
static inline double norm3d(double a, double b, double c) { return hypot(hypot(a, b), c); }
static inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
static inline double norm4d(double a, double b, double c, double d)
{
    return hypot(hypot(a, b), hypot(c, d));
}
static inline double rnorm4d(double a, double b, double c, double d)
{
    return 1.0 / norm4d(a, b, c, d);
}
static inline double norm(int n, const double *a)
{
    double r = 0.0;
    for (int i = 0; i < n; i++)
        r = hypot(r, a[i]);
    return r;
}
static inline double rnorm(int n, const double *a) { return 1.0 / norm(n, a); }
static inline float rhypotf(float a, float b) { return 1.0f / hypotf(a, b); }
static inline float norm3df(float a, float b, float c) { return (float)norm3d(a, b, c); }
static inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
static inline float norm4df(float a, float b, float c, float d) { return (float)norm4d(a, b, c, d); }
static inline float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
static inline float normf(int n, const float *a)
{
    double r = 0.0;
    for (int i = 0; i < n; i++)
        r = hypot(r, (double)a[i]);
    return (float)r;
}
static inline float rnormf(int n, const float *a) { return 1.0f / normf(n, a); }
static inline float rhypot(float a, float b) { return rhypotf(a, b); }
static inline float norm3d(float a, float b, float c) { return norm3df(a, b, c); }
static inline float rnorm3d(float a, float b, float c) { return rnorm3df(a, b, c); }
static inline float norm4d(float a, float b, float c, float d) { return norm4df(a, b, c, d); }
static inline float rnorm4d(float a, float b, float c, float d) { return rnorm4df(a, b, c, d); }

/* ---- intrinsics: correctly rounded arithmetic ----------------------------- */

/* Round-to-nearest is the host's mode and nothing here contracts (the
 * module is built with -ffp-contract=off), so these are the plain
 * operations. The other rounding directions (_rz, _ru, _rd) are not
 * provided. */
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dsub_rn(double a, double b) { return a - b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline double __drcp_rn(double x) { return 1.0 / x; }
static inline double __dsqrt_rn(double x) { return sqrt(x); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }

/* ---- intrinsics: conversions ------------------------------------------- */

/* The GPU's float-to-integer conversions saturate and turn NaN into 0,
 * where C leaves both undefined. R rounds (rintf/truncf/ceilf/floorf). */
#define __EM_F2I(name, F, I, R, lo, hi)                                       \
    static inline I name(F x)                                                 \
    {                                                                         \
        F r = R(x);                                                           \
        if (r != r)                                                           \
            return 0;                                                         \
        if (r <= (F)(lo))                                                     \
            return (lo);                                                      \
        if (r >= (F)(hi))                                                     \
            return (hi);                                                      \
        return (I)r;                                                          \
    }
#define __EM_F2I_ALL(pre, F, sfx, I, lo, hi)                                  \
    __EM_F2I(pre##_rn, F, I, rint##sfx, lo, hi)                               \
    __EM_F2I(pre##_rz, F, I, trunc##sfx, lo, hi)                              \
    __EM_F2I(pre##_ru, F, I, ceil##sfx, lo, hi)                               \
    __EM_F2I(pre##_rd, F, I, floor##sfx, lo, hi)
__EM_F2I_ALL(__float2int, float, f, int, INT_MIN, INT_MAX)
__EM_F2I_ALL(__float2uint, float, f, unsigned int, 0u, UINT_MAX)
__EM_F2I_ALL(__float2ll, float, f, long long, LLONG_MIN, LLONG_MAX)
__EM_F2I_ALL(__float2ull, float, f, unsigned long long, 0ull, ULLONG_MAX)
__EM_F2I_ALL(__double2int, double, , int, INT_MIN, INT_MAX)
__EM_F2I_ALL(__double2uint, double, , unsigned int, 0u, UINT_MAX)
__EM_F2I_ALL(__double2ll, double, , long long, LLONG_MIN, LLONG_MAX)
__EM_F2I_ALL(__double2ull, double, , unsigned long long, 0ull, ULLONG_MAX)
static inline float __int2float_rn(int x) { return (float)x; }
static inline float __uint2float_rn(unsigned int x) { return (float)x; }
static inline float __ll2float_rn(long long x) { return (float)x; }
static inline float __ull2float_rn(unsigned long long x) { return (float)x; }
static inline double __int2double_rn(int x) { return (double)x; }
static inline double __uint2double_rn(unsigned int x) { return (double)x; }
static inline double __ll2double_rn(long long x) { return (double)x; }
static inline double __ull2double_rn(unsigned long long x) { return (double)x; }
static inline float __double2float_rn(double x) { return (float)x; }
static inline int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
static inline int __double2loint(double x) { return (int)__double_as_longlong(x); }
static inline double __hiloint2double(int hi, int lo)
{
    return __longlong_as_double((long long)((unsigned long long)(unsigned)hi << 32 |
                                            (unsigned)lo));
}

/* ---- intrinsics: integers ------------------------------------------------ */

static inline unsigned long long __brevll(unsigned long long x)
{
    return (unsigned long long)__brev((unsigned)x) << 32 | __brev((unsigned)(x >> 32));
}
/* Byte s (0..7) of the pair y:x, for each selector nibble of s. */
static inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s)
{
    unsigned long long v = (unsigned long long)y << 32 | x;
    unsigned int r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned int)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
static inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int s)
{
    return (unsigned int)((((unsigned long long)hi << 32 | lo) << (s & 31)) >> 32);
}
static inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int s)
{
    return (unsigned int)((((unsigned long long)hi << 32 | lo) << (s < 32 ? s : 32)) >> 32);
}
static inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int s)
{
    return (unsigned int)(((unsigned long long)hi << 32 | lo) >> (s & 31));
}
static inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int s)
{
    return (unsigned int)(((unsigned long long)hi << 32 | lo) >> (s < 32 ? s : 32));
}
static inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static inline unsigned int __uhadd(unsigned int a, unsigned int b)
{
    return (unsigned int)(((unsigned long long)a + b) >> 1);
}
static inline unsigned int __urhadd(unsigned int a, unsigned int b)
{
    return (unsigned int)(((unsigned long long)a + b + 1) >> 1);
}
/* The low 32 bits of the product of the operands' low 24 bits (signed:
 * sign-extended from bit 23). */
static inline int __mul24(int a, int b)
{
    long long x = (long long)((unsigned)a << 8) << 32 >> 40;
    long long y = (long long)((unsigned)b << 8) << 32 >> 40;
    return (int)(unsigned int)(unsigned long long)(x * y);
}
static inline unsigned int __umul24(unsigned int a, unsigned int b)
{
    return (unsigned int)((unsigned long long)(a & 0xffffffu) * (b & 0xffffffu));
}
static inline long long __mul64hi(long long a, long long b)
{
    return (long long)(((__int128)a * b) >> 64);
}
static inline unsigned int __sad(int x, int y, unsigned int z)
{
    return (unsigned int)(x > y ? (long long)x - y : (long long)y - x) + z;
}
static inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z)
{
    return (x > y ? x - y : y - x) + z;
}

/* Cache-hinted loads and stores: plain accesses on a CPU. */
#define __ldcg(p) (*(p))
#define __ldca(p) (*(p))
#define __ldcs(p) (*(p))
#define __ldlu(p) (*(p))
#define __ldcv(p) (*(p))
#define __stcg(p, v) ((void)(*(p) = (v)))
#define __stcs(p, v) ((void)(*(p) = (v)))
#define __stwb(p, v) ((void)(*(p) = (v)))
#define __stwt(p, v) ((void)(*(p) = (v)))

/* ---- atomics ------------------------------------------------------------ */

/* CUDA's overloads over the C prelude's per-type functions. */
#define __EM_CXX_ATOMIC_INT(T, sfx)                                           \
    static inline T atomicAdd(T *p, T v) { return __em_atomic_add_##sfx(p, v); } \
    static inline T atomicSub(T *p, T v) { return __em_atomic_sub_##sfx(p, v); } \
    static inline T atomicExch(T *p, T v) { return __em_atomic_exch_##sfx(p, v); } \
    static inline T atomicMin(T *p, T v) { return __em_atomic_min_##sfx(p, v); } \
    static inline T atomicMax(T *p, T v) { return __em_atomic_max_##sfx(p, v); } \
    static inline T atomicAnd(T *p, T v) { return __em_atomic_and_##sfx(p, v); } \
    static inline T atomicOr(T *p, T v) { return __em_atomic_or_##sfx(p, v); }  \
    static inline T atomicXor(T *p, T v) { return __em_atomic_xor_##sfx(p, v); } \
    static inline T atomicCAS(T *p, T c, T v) { return __em_atomic_cas_##sfx(p, c, v); }
__EM_CXX_ATOMIC_INT(int, i)
__EM_CXX_ATOMIC_INT(unsigned int, u)
__EM_CXX_ATOMIC_INT(long, l)
__EM_CXX_ATOMIC_INT(unsigned long, ul)
__EM_CXX_ATOMIC_INT(long long, ll)
__EM_CXX_ATOMIC_INT(unsigned long long, ull)
#define __EM_CXX_ATOMIC_FLOAT(T, sfx)                                         \
    static inline T atomicAdd(T *p, T v) { return __em_atomic_add_##sfx(p, v); } \
    static inline T atomicSub(T *p, T v) { return __em_atomic_sub_##sfx(p, v); } \
    static inline T atomicExch(T *p, T v) { return __em_atomic_exch_##sfx(p, v); }
__EM_CXX_ATOMIC_FLOAT(float, f)
__EM_CXX_ATOMIC_FLOAT(double, d)
/* Every thread of a launch shares the host's memory: the scoped forms are
 * the same operations. */
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicSub_block atomicSub
#define atomicSub_system atomicSub
#define atomicExch_block atomicExch
#define atomicExch_system atomicExch
#define atomicMin_block atomicMin
#define atomicMin_system atomicMin
#define atomicMax_block atomicMax
#define atomicMax_system atomicMax
#define atomicAnd_block atomicAnd
#define atomicAnd_system atomicAnd
#define atomicOr_block atomicOr
#define atomicOr_system atomicOr
#define atomicXor_block atomicXor
#define atomicXor_system atomicXor
#define atomicCAS_block atomicCAS
#define atomicCAS_system atomicCAS

/* ---- warps (block simulator) ------------------------------------------- */

#ifdef __EM_SIM
/* The overload sets that the C prelude's shuffle, match and reduce macros
 * name in C++ (__EM_BY_TYPE, __EM_REDUCE). */
#define __EM_CXX_WARP_T(T, sfx)                                               \
    static inline T __em_shfl_(int site, int mode, unsigned mask, T v,        \
                               int arg, int width)                            \
    { return __em_shfl_##sfx(site, mode, mask, v, arg, width); }              \
    static inline unsigned long long __em_bits_(T v) { return __em_bits_##sfx(v); }
__EM_CXX_WARP_T(int, i)
__EM_CXX_WARP_T(unsigned int, u)
__EM_CXX_WARP_T(long, l)
__EM_CXX_WARP_T(unsigned long, ul)
__EM_CXX_WARP_T(long long, ll)
__EM_CXX_WARP_T(unsigned long long, ull)
__EM_CXX_WARP_T(float, f)
__EM_CXX_WARP_T(double, d)
static inline unsigned __em_reduce_(int site, int op, unsigned mask, unsigned v)
{
    return __em_reduce_u(site, op, mask, v);
}
static inline int __em_reduce_(int site, int op, unsigned mask, int v)
{
    return __em_reduce_i(site, op, mask, v);
}
#endif

#ifdef __EM_SIM_DYN
/* A block-scope `extern __shared__ T s[];` of C++ source becomes
 * `T (*const s) = __em_dyn_ptr();` (host_compile.c): this converts to a
 * pointer of whatever type to the calling OS thread's (so the block's)
 * dynamic shared memory. */
struct __em_dyn_ptr {
    template <class T> operator T *() const { return (T *)__em_dyn_shared_mem; }
};
#endif

/* ---- half precision (cuda_fp16.h) --------------------------------------- */

#ifdef __FLT16_MAX__
/* CUDA's __half over the compiler's _Float16 (IEEE binary16). Arithmetic
 * goes through float and rounds once to half: float's 24 bits are enough
 * (2 x 11 + 2) for that double rounding to give the correctly rounded
 * half result of + - * / and sqrt, which is what the GPU computes. */
struct __half {
    _Float16 __v;
    __half() = default;
    template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type>
    __half(T v) : __v((_Float16)v) {}
    operator float() const { return (float)__v; }
    __half &operator+=(const __half &o) { __v = (_Float16)((float)__v + (float)o.__v); return *this; }
    __half &operator-=(const __half &o) { __v = (_Float16)((float)__v - (float)o.__v); return *this; }
    __half &operator*=(const __half &o) { __v = (_Float16)((float)__v * (float)o.__v); return *this; }
    __half &operator/=(const __half &o) { __v = (_Float16)((float)__v / (float)o.__v); return *this; }
};
typedef __half half;
struct __attribute__((aligned(4))) __half2 { __half x, y; };
typedef __half2 half2;

static inline __half __em_h(float f) { __half h; h.__v = (_Float16)f; return h; }
static inline __half operator+(const __half &a, const __half &b) { return __em_h((float)a + (float)b); }
static inline __half operator-(const __half &a, const __half &b) { return __em_h((float)a - (float)b); }
static inline __half operator*(const __half &a, const __half &b) { return __em_h((float)a * (float)b); }
static inline __half operator/(const __half &a, const __half &b) { return __em_h((float)a / (float)b); }
static inline __half operator-(const __half &a) { return __em_h(-(float)a); }
static inline bool operator==(const __half &a, const __half &b) { return (float)a == (float)b; }
static inline bool operator!=(const __half &a, const __half &b) { return (float)a != (float)b; }
static inline bool operator<(const __half &a, const __half &b) { return (float)a < (float)b; }
static inline bool operator>(const __half &a, const __half &b) { return (float)a > (float)b; }
static inline bool operator<=(const __half &a, const __half &b) { return (float)a <= (float)b; }
static inline bool operator>=(const __half &a, const __half &b) { return (float)a >= (float)b; }

static inline __half __float2half(float f) { return __em_h(f); }
static inline __half __float2half_rn(float f) { return __em_h(f); }
static inline __half __double2half(double d) { __half h; h.__v = (_Float16)d; return h; }
static inline float __half2float(__half h) { return (float)h; }
static inline __half __int2half_rn(int i) { __half h; h.__v = (_Float16)i; return h; }
static inline int __half2int_rz(__half h) { return __float2int_rz((float)h); }
static inline int __half2int_rn(__half h) { return __float2int_rn((float)h); }
static inline unsigned short __half_as_ushort(__half h)
{
    unsigned short u;
    memcpy(&u, &h, 2);
    return u;
}
static inline __half __ushort_as_half(unsigned short u)
{
    __half h;
    memcpy(&h, &u, 2);
    return h;
}
static inline short __half_as_short(__half h) { return (short)__half_as_ushort(h); }
static inline __half __short_as_half(short s) { return __ushort_as_half((unsigned short)s); }
static inline __half __hadd(__half a, __half b) { return a + b; }
static inline __half __hsub(__half a, __half b) { return a - b; }
static inline __half __hmul(__half a, __half b) { return a * b; }
static inline __half __hdiv(__half a, __half b) { return a / b; }
static inline __half __hneg(__half a) { return -a; }
static inline __half __habs(__half a) { return __em_h(fabsf((float)a)); }
static inline __half __hfma(__half a, __half b, __half c)
{
    /* a * b is exact in double; the sum may round twice (to double,
     * then half), which differs from one rounding only in rare ties. */
    return __double2half((double)(float)a * (float)b + (float)c);
}
static inline __half __hmax(__half a, __half b) { return __em_h(fmaxf((float)a, (float)b)); }
static inline __half __hmin(__half a, __half b) { return __em_h(fminf((float)a, (float)b)); }
static inline bool __heq(__half a, __half b) { return a == b; }
static inline bool __hne(__half a, __half b) { return a != b; }
static inline bool __hlt(__half a, __half b) { return a < b; }
static inline bool __hgt(__half a, __half b) { return a > b; }
static inline bool __hle(__half a, __half b) { return a <= b; }
static inline bool __hge(__half a, __half b) { return a >= b; }
static inline bool __hisnan(__half a) { return (float)a != (float)a; }
static inline __half hsqrt(__half a) { return __em_h(sqrtf((float)a)); }
static inline __half hrsqrt(__half a) { return __em_h(1.0f / sqrtf((float)a)); }
static inline __half hrcp(__half a) { return __em_h(1.0f / (float)a); }
static inline __half hexp(__half a) { return __em_h(expf((float)a)); }
static inline __half hlog(__half a) { return __em_h(logf((float)a)); }
static inline __half hsin(__half a) { return __em_h(sinf((float)a)); }
static inline __half hcos(__half a) { return __em_h(cosf((float)a)); }
static inline __half hfloor(__half a) { return __em_h(floorf((float)a)); }
static inline __half hceil(__half a) { return __em_h(ceilf((float)a)); }
static inline __half2 __halves2half2(__half a, __half b) { __half2 r = {a, b}; return r; }
static inline __half2 __floats2half2_rn(float a, float b) { return __halves2half2(__em_h(a), __em_h(b)); }
static inline __half2 __float2half2_rn(float a) { return __floats2half2_rn(a, a); }
static inline float2 __half22float2(__half2 h) { return make_float2((float)h.x, (float)h.y); }
static inline __half __low2half(__half2 h) { return h.x; }
static inline __half __high2half(__half2 h) { return h.y; }
static inline float __low2float(__half2 h) { return (float)h.x; }
static inline float __high2float(__half2 h) { return (float)h.y; }
static inline __half2 __hadd2(__half2 a, __half2 b) { return __halves2half2(a.x + b.x, a.y + b.y); }
static inline __half2 __hsub2(__half2 a, __half2 b) { return __halves2half2(a.x - b.x, a.y - b.y); }
static inline __half2 __hmul2(__half2 a, __half2 b) { return __halves2half2(a.x * b.x, a.y * b.y); }
static inline __half2 __hfma2(__half2 a, __half2 b, __half2 c)
{
    return __halves2half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
static inline __half atomicAdd(__half *p, __half v)
{
    unsigned short *w = (unsigned short *)p;
    unsigned short old = __atomic_load_n(w, __EM_RELAXED), nw;
    do
        nw = __half_as_ushort(__ushort_as_half(old) + v);
    while (!__atomic_compare_exchange_n(w, &old, nw, 1, __EM_RELAXED, __EM_RELAXED));
    return __ushort_as_half(old);
}
#endif

/* ---- launchers ----------------------------------------------------------- */

/* What host_compile.c writes after the user's source, one line a kernel:
 * __EM_KERNEL(sym, expr) (or __EM_SIM_KERNEL in a cooperative module),
 * where expr names one kernel (`scale`, `axpy<float>`) and sym is the
 * symbol suffix host.c looks up. The kernel's type gives the parameter
 * count and sizes, so templates and types the source reader cannot follow
 * need nothing from it. The exported symbols are those of C modules:
 * __em_nparams_<sym>, __em_psizes_<sym> (size_t[n], here the first member
 * of an object) and the launcher __em_blocks_<sym> or __em_sim2_<sym>. */
template <class F> struct __em_kernel;
template <class... P> struct __em_kernel<void (*)(P...)> {
    enum { n = (int)sizeof...(P) };
    size_t sizes[sizeof...(P) + 1] = {sizeof(P)..., 0};

    /* Every thread of blocks [b, e), the argument values read once. */
    template <void (*K)(P...), size_t... I>
    static void run(void **a, const unsigned *d, unsigned long long b,
                    unsigned long long e, std::index_sequence<I...>)
    {
        std::tuple<P...> v(*(P *)a[I]...);
        (void)a;
        __EM_FOR_EACH_THREAD(d, b, e)
            K(std::get<I>(v)...);
    }

#ifdef __EM_SIM
    template <void (*K)(P...), size_t... I>
    static void thread_(std::tuple<P...> *c, std::index_sequence<I...>)
    {
        (void)c;
        K(std::get<I>(*c)...);
    }
    /* One thread of the current block, on a fiber. */
    template <void (*K)(P...)> static void thread(void *c, unsigned t)
    {
        __em_set_thread(t);
        thread_<K>((std::tuple<P...> *)c, std::index_sequence_for<P...>());
    }
    template <void (*K)(P...), size_t... I>
    static int sim(void *l, const struct __em_sim_ops *o, void **a,
                   const unsigned *d, unsigned long long b, unsigned long long e,
                   std::index_sequence<I...>)
    {
        std::tuple<P...> c(*(P *)a[I]...);
        (void)a;
        __em_sim = o;
        for (; b < e; b++) {
            __em_set_block(d, b);
            if (o->run_block(l, thread<K>, &c, d, b))
                return 1;
        }
        return 0;
    }
#endif
};

#define __EM_KTYPE(...) __em_kernel<decltype(&__VA_ARGS__)>
#define __EM_KERNEL_INFO(sym, ...)                                            \
    extern "C" __EM_EXPORT const int __em_nparams_##sym = __EM_KTYPE(__VA_ARGS__)::n; \
    extern "C" __EM_EXPORT const __EM_KTYPE(__VA_ARGS__) __em_psizes_##sym = {};
#define __EM_KERNEL(sym, ...)                                                 \
    __EM_KERNEL_INFO(sym, __VA_ARGS__)                                        \
    extern "C" __EM_EXPORT void __em_blocks_##sym(                            \
        void **a, const unsigned *d, unsigned long long b, unsigned long long e) \
    {                                                                         \
        __EM_KTYPE(__VA_ARGS__)::run<&__VA_ARGS__>(                           \
            a, d, b, e, std::make_index_sequence<__EM_KTYPE(__VA_ARGS__)::n>()); \
    }
#define __EM_SIM_KERNEL(sym, ...)                                             \
    __EM_KERNEL_INFO(sym, __VA_ARGS__)                                        \
    extern "C" __EM_EXPORT int __em_sim2_##sym(                               \
        void *l, const struct __em_sim_ops *o, void **a, const unsigned *d,   \
        unsigned long long b, unsigned long long e)                           \
    {                                                                         \
        return __EM_KTYPE(__VA_ARGS__)::sim<&__VA_ARGS__>(                    \
            l, o, a, d, b, e, std::make_index_sequence<__EM_KTYPE(__VA_ARGS__)::n>()); \
    }

#endif /* EMBER_HOST_PRELUDE_CXX_H */
