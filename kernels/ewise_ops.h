/* ember kernels: NumPy's elementwise loops as inline functions.
 *
 * One function per (op, loop type): ew_<op>_<t>(...), where <t> is the
 * compute type of the loop's inputs (b i8 i16 i32 i64 u8 u16 u32 u64 f32
 * f64 c64 c128; float16 and bfloat16 loops compute in f32), joined with a
 * second suffix when a loop mixes types (ew_ldexp_f32_i64,
 * ew_less_i64_u64). Conversions between storage types are
 * ew_<to>_from_<from category>; the elementwise generator
 * (src/codegen/ewise.c) pastes this file in front of each kernel (the base
 * and the "@ew-section"s its loop types need) and composes these names,
 * and the library includes all of it, so scalars are cast on the host
 * exactly as kernels cast array elements.
 *
 * Three compilers read this file: NVRTC (CUDA C++, no standard headers),
 * the host C compiler after kernels/host_prelude.h, and the library's own
 * C build (warning-clean under -Wall -Wextra). So: C that is also C++, no
 * overloading, no templates, no compound literals; per-type functions come
 * from macros.
 *
 * Semantics are NumPy 2's, including the corners: integer overflow wraps
 * (computed in unsigned arithmetic, so C has no undefined behaviour),
 * integer division and remainder by zero give 0, floor_divide and remainder
 * take the divisor's sign, shifts past the width give 0 (or -1 for a
 * negative right_shift), maximum/minimum propagate NaN, fmax/fmin ignore
 * it, comparisons with NaN are false. Out-of-range float-to-integer casts
 * (undefined in C; NumPy warns) give what NumPy gives on x86, on CPU and
 * GPU alike: the value converts to int32 (int8/16/32, uint8/16) or int64
 * (uint32, int64, and uint64 below 2^63), NaN and values out of that range
 * becoming its minimum, and the narrow types keep the low bits.
 */
#ifndef EMBER_EWISE_OPS_H
#define EMBER_EWISE_OPS_H

/* The one-line helpers are kept as a table, which clang-format would
 * spread over three times the lines: */
/* clang-format off */

/* ---- types and the qualifier of every helper ------------------------- */

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define EW_CUDA 1
/* Most helpers go unused in any one kernel; that is the point. */
#pragma nv_diag_suppress 177
#define EW_FN static __device__ __forceinline__
typedef signed char ew_i8;
typedef short ew_i16;
typedef int ew_i32;
typedef long long ew_i64;
typedef unsigned char ew_u8;
typedef unsigned short ew_u16;
typedef unsigned int ew_u32;
typedef unsigned long long ew_u64;
#else
#include <math.h>
#include <stdint.h>
#include <string.h>
#define EW_FN static inline
typedef int8_t ew_i8;
typedef int16_t ew_i16;
typedef int32_t ew_i32;
typedef int64_t ew_i64;
typedef uint8_t ew_u8;
typedef uint16_t ew_u16;
typedef uint32_t ew_u32;
typedef uint64_t ew_u64;
#endif

typedef unsigned char ew_b;     /* bool: 0 or 1 */
typedef unsigned short ew_f16;  /* IEEE binary16, as bits */
typedef unsigned short ew_bf16; /* bfloat16 (the top half of a float), as bits */
typedef float ew_f32;
typedef double ew_f64;
typedef struct ew_c64 { float re, im; } ew_c64;
typedef struct ew_c128 { double re, im; } ew_c128;

#define EW_I64_MIN (-9223372036854775807LL - 1)
#define EW_LN2 0.693147180559945309417232121458176568
#define EW_PI 3.141592653589793238462643383279502884
#define EW_LOG2E 1.442695040888963407359924681001892137
#define EW_LOG10E 0.434294481903251827651128918916605082
#define EW_I32_MIN (-2147483647 - 1)

/* ---- bits ------------------------------------------------------------ */

#ifdef EW_CUDA
EW_FN ew_u32 ew_f32_bits(float x) { return __float_as_uint(x); }
EW_FN float ew_bits_f32(ew_u32 b) { return __uint_as_float(b); }
EW_FN ew_u64 ew_f64_bits(double x) { return (ew_u64)__double_as_longlong(x); }
EW_FN double ew_bits_f64(ew_u64 b) { return __longlong_as_double((long long)b); }
#else
EW_FN ew_u32 ew_f32_bits(float x) { ew_u32 b; memcpy(&b, &x, sizeof b); return b; }
EW_FN float ew_bits_f32(ew_u32 b) { float x; memcpy(&x, &b, sizeof x); return x; }
EW_FN ew_u64 ew_f64_bits(double x) { ew_u64 b; memcpy(&b, &x, sizeof b); return b; }
EW_FN double ew_bits_f64(ew_u64 b) { double x; memcpy(&x, &b, sizeof x); return x; }
#endif

/* lgamma: the C library's writes the global signgam, a race between the
 * cpu device's threads, where its _r form does not. */
#ifdef EW_CUDA
#define EW_LGAMMA(F, x) lgamma##F(x)
#else
#define EW_LGAMMA(F, x) ew_lgamma##F(x)
EW_FN double ew_lgamma(double x) { int s; return lgamma_r(x, &s); }
EW_FN float ew_lgammaf(float x) { int s; return lgammaf_r(x, &s); }
#endif

/* NVRTC has no INFINITY or NAN macros. */
EW_FN float ew_inf_f32(void) { return ew_bits_f32(0x7f800000u); }
EW_FN float ew_nan_f32(void) { return ew_bits_f32(0x7fc00000u); }
EW_FN double ew_inf_f64(void) { return ew_bits_f64(0x7ff0000000000000ull); }
EW_FN double ew_nan_f64(void) { return ew_bits_f64(0x7ff8000000000000ull); }

EW_FN int ew_fisinf_f32(float x) { return fabsf(x) == ew_inf_f32(); }
EW_FN int ew_fisinf_f64(double x) { return fabs(x) == ew_inf_f64(); }
EW_FN int ew_fisfinite_f32(float x) { return fabsf(x) < ew_inf_f32(); }
EW_FN int ew_fisfinite_f64(double x) { return fabs(x) < ew_inf_f64(); }

/* ---- float16 and bfloat16 ------------------------------------------- */

/* Casts between the 16-bit floats and float are exact (widening) or round
 * to nearest even, and NaNs keep their payload bits, as NumPy's casts do;
 * the GPU's cvt instructions would give one canonical NaN, so the cast
 * functions check for NaN first. Arithmetic loops widen and narrow with
 * the _ld/_st variants instead, which skip that check on the GPU: NaNs
 * that go through arithmetic come out canonical there anyway. */
EW_FN float ew_f16_nan_to_f32(ew_f16 h)
{
    return ew_bits_f32(((ew_u32)(h & 0x8000u) << 16) | 0x7f800000u |
                       ((ew_u32)(h & 0x3ffu) << 13));
}

EW_FN ew_f16 ew_f32_nan_to_f16(ew_u32 u)
{
    ew_u32 h = ((u >> 16) & 0x8000u) | 0x7c00u | ((u & 0x7fffffu) >> 13);
    return (ew_f16)((h & 0x3ffu) ? h : h | 1u);
}

EW_FN float ew_f16_to_f32(ew_f16 h)
{
#ifdef EW_CUDA
    float f;
    if ((h & 0x7fffu) > 0x7c00u)
        return ew_f16_nan_to_f32(h);
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    ew_u32 sign = (ew_u32)(h & 0x8000u) << 16;
    ew_u32 e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f)   /* inf or NaN: keep the payload */
        return ew_bits_f32(sign | 0x7f800000u | (m << 13));
    if (e == 0) {    /* zero or subnormal: m * 2^-24, exact in float */
        float v = (float)m * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return ew_bits_f32(sign | ((e + 112u) << 23) | (m << 13));
#endif
}

/* Round to nearest even; NaN stays a (quiet) NaN. */
EW_FN ew_f16 ew_f32_to_f16(float f)
{
#ifdef EW_CUDA
    unsigned short h;
    if (f != f)
        return ew_f32_nan_to_f16(ew_f32_bits(f));
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    ew_u32 u = ew_f32_bits(f);
    ew_u32 sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return ew_f32_nan_to_f16(u);
    if (a >= 0x477ff000u)   /* 65520 and up round to infinity */
        return (ew_f16)(sign | 0x7c00u);
    if (a < 0x38800000u) {
        /* Below the smallest normal half. Adding 0.5 puts the value where
         * a float's last bit is worth 2^-24, a half subnormal's step, so
         * the FPU's own round-to-nearest-even does the rounding. */
        float v = ew_bits_f32(a) + 0.5f;
        return (ew_f16)(sign | (ew_f32_bits(v) - 0x3f000000u));
    }
    /* Rebias the exponent (127 -> 15) and round on the 13 dropped bits,
     * ties to the even result. */
    a += 0xc8000fffu + ((a >> 13) & 1u);
    return (ew_f16)(sign | (a >> 13));
#endif
}

/* A double rounded to float by round-to-odd: rounding that again to a
 * format of at most 22 significant bits gives the correctly rounded
 * result, so doubles reach float16 and bfloat16 through float without a
 * double-rounding error. */
EW_FN float ew_f64_to_f32_odd(double x)
{
    float f = (float)x;
    ew_u32 b;
    if (x != x || (double)f == x)
        return f;
    b = ew_f32_bits(f);
    if (!(b & 1u)) {
        /* f is the even neighbour; x lies between f and the odd one. */
        if (fabs((double)f) > fabs(x))
            b -= 1u;
        else
            b += 1u;
    }
    return ew_bits_f32(b);
}

EW_FN ew_f16 ew_f64_to_f16(double x)
{
#ifdef EW_CUDA
    unsigned short h;
    if (x != x)
        return ew_f32_to_f16((float)x);
    asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(x));
    return h;
#else
    return ew_f32_to_f16(ew_f64_to_f32_odd(x));
#endif
}

EW_FN float ew_bf16_to_f32(ew_bf16 h) { return ew_bits_f32((ew_u32)h << 16); }

#ifdef EW_CUDA
/* NAME(f): f rounded to a 16-bit float (nearest even) by the one PTX
 * conversion instruction PTX. */
#define EW_CVT_RN16(NAME, PTX)                                                \
    EW_FN unsigned short NAME(float f)                                        \
    {                                                                         \
        unsigned short h;                                                     \
        asm(PTX : "=h"(h) : "f"(f));                                          \
        return h;                                                             \
    }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define EW_CVT_BF16 1
EW_CVT_RN16(ew_cvt_rn_bf16, "cvt.rn.bf16.f32 %0, %1;")
#endif
#endif

EW_FN ew_bf16 ew_f32_to_bf16(float f)
{
#ifdef EW_CVT_BF16
    if (f != f)
        return (ew_bf16)((ew_f32_bits(f) >> 16) | 0x40u);
    return ew_cvt_rn_bf16(f);
#else
    ew_u32 u = ew_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)   /* NaN: truncate, keep it quiet */
        return (ew_bf16)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (ew_bf16)(u >> 16);
#endif
}

EW_FN ew_bf16 ew_f64_to_bf16(double x) { return ew_f32_to_bf16(ew_f64_to_f32_odd(x)); }

#ifdef EW_CUDA
EW_FN float ew_f16_ld(ew_f16 h)
{
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}
EW_CVT_RN16(ew_f16_st, "cvt.rn.f16.f32 %0, %1;")
#else
EW_FN float ew_f16_ld(ew_f16 h) { return ew_f16_to_f32(h); }
EW_FN ew_f16 ew_f16_st(float f) { return ew_f32_to_f16(f); }
#endif
#ifdef EW_CVT_BF16
EW_FN ew_bf16 ew_bf16_st(float f) { return ew_cvt_rn_bf16(f); }
#else
EW_FN ew_bf16 ew_bf16_st(float f) { return ew_f32_to_bf16(f); }
#endif
EW_FN float ew_bf16_ld(ew_bf16 h) { return ew_bf16_to_f32(h); }

/* ---- float to integer, as x86 does it -------------------------------- */

EW_FN ew_i32 ew_f64_to_i32(double x)
{
    return (x > -2147483649.0 && x < 2147483648.0) ? (ew_i32)x : EW_I32_MIN;
}

EW_FN ew_i64 ew_f64_to_i64(double x)
{
    return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (ew_i64)x
                                                                       : EW_I64_MIN;
}

EW_FN ew_u64 ew_f64_to_u64(double x)
{
    if (x >= 9223372036854775808.0 && x < 18446744073709551616.0)
        return (ew_u64)(x - 9223372036854775808.0) + 0x8000000000000000ull;
    return (ew_u64)ew_f64_to_i64(x);
}

/* ---- complex --------------------------------------------------------- */

EW_FN ew_c64 ew_mk_c64(float re, float im)
{
    ew_c64 z;
    z.re = re;
    z.im = im;
    return z;
}

EW_FN ew_c128 ew_mk_c128(double re, double im)
{
    ew_c128 z;
    z.re = re;
    z.im = im;
    return z;
}

/* ---- conversions between storage types ------------------------------- */

/* ew_<to>_from_<from>: the source categories are b, i64 (every signed
 * integer, widened), u64 (every unsigned one), f32 (float16 and bfloat16
 * after their exact widening), f64, c64 and c128. Complex to real drops
 * the imaginary part, as NumPy does (with a warning ember does not give). */
#define EW_CVT_INT(D, T, VIA)                                                 \
    EW_FN T ew_##D##_from_b(ew_b x) { return (T)x; }                          \
    EW_FN T ew_##D##_from_i64(ew_i64 x) { return (T)x; }                      \
    EW_FN T ew_##D##_from_u64(ew_u64 x) { return (T)x; }                      \
    EW_FN T ew_##D##_from_f64(double x) { return (T)ew_f64_to_##VIA(x); }     \
    EW_FN T ew_##D##_from_f32(float x) { return ew_##D##_from_f64((double)x); } \
    EW_FN T ew_##D##_from_c64(ew_c64 x) { return ew_##D##_from_f32(x.re); }   \
    EW_FN T ew_##D##_from_c128(ew_c128 x) { return ew_##D##_from_f64(x.re); }

EW_CVT_INT(i8, ew_i8, i32)
EW_CVT_INT(i16, ew_i16, i32)
EW_CVT_INT(i32, ew_i32, i32)
EW_CVT_INT(i64, ew_i64, i64)
EW_CVT_INT(u8, ew_u8, i32)
EW_CVT_INT(u16, ew_u16, i32)
EW_CVT_INT(u32, ew_u32, i64)
EW_CVT_INT(u64, ew_u64, u64)

EW_FN ew_b ew_b_from_b(ew_b x) { return x; }
EW_FN ew_b ew_b_from_i64(ew_i64 x) { return x != 0; }
EW_FN ew_b ew_b_from_u64(ew_u64 x) { return x != 0; }
EW_FN ew_b ew_b_from_f32(float x) { return x != 0; }
EW_FN ew_b ew_b_from_f64(double x) { return x != 0; }
EW_FN ew_b ew_b_from_c64(ew_c64 x) { return x.re != 0 || x.im != 0; }
EW_FN ew_b ew_b_from_c128(ew_c128 x) { return x.re != 0 || x.im != 0; }

#define EW_CVT_REAL(D, T)                                                     \
    EW_FN T ew_##D##_from_b(ew_b x) { return (T)x; }                          \
    EW_FN T ew_##D##_from_i64(ew_i64 x) { return (T)x; }                      \
    EW_FN T ew_##D##_from_u64(ew_u64 x) { return (T)x; }                      \
    EW_FN T ew_##D##_from_f32(float x) { return (T)x; }                       \
    EW_FN T ew_##D##_from_f64(double x) { return (T)x; }                      \
    EW_FN T ew_##D##_from_c64(ew_c64 x) { return (T)x.re; }                   \
    EW_FN T ew_##D##_from_c128(ew_c128 x) { return (T)x.re; }
EW_CVT_REAL(f32, float)
EW_CVT_REAL(f64, double)

/* The 16-bit floats D (1.0 is ONE): integers reach them through the
 * float type IT (ew_<IV>_to_D). Float16 goes through float: a value float
 * rounds is far past float16's range, so the second rounding cannot
 * matter; bfloat16 has float's range, so it goes through double. */
#define EW_CVT_HALF(D, ONE, IT, IV)                                           \
    EW_FN ew_##D ew_##D##_from_b(ew_b x) { return x ? ONE : 0; }              \
    EW_FN ew_##D ew_##D##_from_i64(ew_i64 x) { return ew_##IV##_to_##D((IT)x); } \
    EW_FN ew_##D ew_##D##_from_u64(ew_u64 x) { return ew_##IV##_to_##D((IT)x); } \
    EW_FN ew_##D ew_##D##_from_f32(float x) { return ew_f32_to_##D(x); }      \
    EW_FN ew_##D ew_##D##_from_f64(double x) { return ew_f64_to_##D(x); }     \
    EW_FN ew_##D ew_##D##_from_c64(ew_c64 x) { return ew_f32_to_##D(x.re); }  \
    EW_FN ew_##D ew_##D##_from_c128(ew_c128 x) { return ew_f64_to_##D(x.re); }
EW_CVT_HALF(f16, 0x3c00, float, f32)
EW_CVT_HALF(bf16, 0x3f80, double, f64)

#define EW_CVT_COMPLEX(D, C, T, RD)                                           \
    EW_FN C ew_##D##_from_b(ew_b x) { return ew_mk_##D((T)x, 0); }            \
    EW_FN C ew_##D##_from_i64(ew_i64 x) { return ew_mk_##D(ew_##RD##_from_i64(x), 0); } \
    EW_FN C ew_##D##_from_u64(ew_u64 x) { return ew_mk_##D(ew_##RD##_from_u64(x), 0); } \
    EW_FN C ew_##D##_from_f32(float x) { return ew_mk_##D((T)x, 0); }         \
    EW_FN C ew_##D##_from_f64(double x) { return ew_mk_##D((T)x, 0); }        \
    EW_FN C ew_##D##_from_c64(ew_c64 x) { return ew_mk_##D((T)x.re, (T)x.im); } \
    EW_FN C ew_##D##_from_c128(ew_c128 x) { return ew_mk_##D((T)x.re, (T)x.im); }
EW_CVT_COMPLEX(c64, ew_c64, float, f32)
EW_CVT_COMPLEX(c128, ew_c128, double, f64)

/* Comparisons, logical ops and classification: every real type. */
#define EW_COMPARE_OPS(S, T)                                                  \
    EW_FN ew_b ew_equal_##S(T a, T b) { return a == b; }                      \
    EW_FN ew_b ew_not_equal_##S(T a, T b) { return a != b; }                  \
    EW_FN ew_b ew_less_##S(T a, T b) { return a < b; }                        \
    EW_FN ew_b ew_less_equal_##S(T a, T b) { return a <= b; }                 \
    EW_FN ew_b ew_greater_##S(T a, T b) { return a > b; }                     \
    EW_FN ew_b ew_greater_equal_##S(T a, T b) { return a >= b; }              \
    EW_FN ew_b ew_logical_and_##S(T a, T b) { return a != 0 && b != 0; }      \
    EW_FN ew_b ew_logical_or_##S(T a, T b) { return a != 0 || b != 0; }       \
    EW_FN ew_b ew_logical_xor_##S(T a, T b) { return (a != 0) != (b != 0); }  \
    EW_FN ew_b ew_logical_not_##S(T a) { return a == 0; }

/* The kernel generator pastes the base part (to here) and then only the
 * sections a kernel's loop types need; each section has its own guard so
 * that several kernels can share one program. */
#endif /* EMBER_EWISE_OPS_H */

/* @ew-section bool */
#ifndef EMBER_EWISE_OPS_BOOL
#define EMBER_EWISE_OPS_BOOL
/* ---- bool loops ------------------------------------------------------ */

EW_FN ew_b ew_add_b(ew_b a, ew_b b) { return a | b; }
EW_FN ew_b ew_multiply_b(ew_b a, ew_b b) { return a & b; }
EW_FN ew_b ew_maximum_b(ew_b a, ew_b b) { return a | b; }
EW_FN ew_b ew_minimum_b(ew_b a, ew_b b) { return a & b; }
EW_FN ew_b ew_fmax_b(ew_b a, ew_b b) { return a | b; }
EW_FN ew_b ew_fmin_b(ew_b a, ew_b b) { return a & b; }
EW_FN ew_b ew_bitwise_and_b(ew_b a, ew_b b) { return a & b; }
EW_FN ew_b ew_bitwise_or_b(ew_b a, ew_b b) { return a | b; }
EW_FN ew_b ew_bitwise_xor_b(ew_b a, ew_b b) { return a ^ b; }
EW_FN ew_b ew_absolute_b(ew_b a) { return a; }
EW_FN ew_b ew_floor_b(ew_b a) { return a; }
EW_FN ew_b ew_ceil_b(ew_b a) { return a; }
EW_FN ew_b ew_trunc_b(ew_b a) { return a; }
EW_FN ew_b ew_invert_b(ew_b a) { return !a; }

EW_COMPARE_OPS(b, ew_b)
EW_FN ew_b ew_isnan_b(ew_b a) { (void)a; return 0; }
EW_FN ew_b ew_isinf_b(ew_b a) { (void)a; return 0; }
EW_FN ew_b ew_isfinite_b(ew_b a) { (void)a; return 1; }

#endif

/* @ew-section int */
#ifndef EMBER_EWISE_OPS_INT
#define EMBER_EWISE_OPS_INT
/* ---- integer loops --------------------------------------------------- */

/* W is the wide unsigned type the arithmetic is done in (unsigned int for
 * types up to 32 bits, so no promotion to signed int can overflow), BITS
 * the width. */
#define EW_INT_OPS(S, T, W, BITS)                                             \
    EW_COMPARE_OPS(S, T)                                                      \
    EW_FN T ew_add_##S(T a, T b) { return (T)((W)a + (W)b); }                 \
    EW_FN T ew_subtract_##S(T a, T b) { return (T)((W)a - (W)b); }            \
    EW_FN T ew_multiply_##S(T a, T b) { return (T)((W)a * (W)b); }            \
    EW_FN T ew_maximum_##S(T a, T b) { return a > b ? a : b; }                \
    EW_FN T ew_minimum_##S(T a, T b) { return a < b ? a : b; }                \
    EW_FN T ew_fmax_##S(T a, T b) { return a > b ? a : b; }                   \
    EW_FN T ew_fmin_##S(T a, T b) { return a < b ? a : b; }                   \
    EW_FN T ew_bitwise_and_##S(T a, T b) { return (T)(a & b); }               \
    EW_FN T ew_bitwise_or_##S(T a, T b) { return (T)(a | b); }                \
    EW_FN T ew_bitwise_xor_##S(T a, T b) { return (T)(a ^ b); }               \
    EW_FN T ew_left_shift_##S(T a, T b)                                       \
    {                                                                         \
        return (ew_u64)(ew_i64)b < BITS ? (T)((W)a << b) : (T)0;              \
    }                                                                         \
    EW_FN T ew_negative_##S(T a) { return (T)(0 - (W)a); }                    \
    EW_FN T ew_positive_##S(T a) { return a; }                                \
    EW_FN T ew_square_##S(T a) { return (T)((W)a * (W)a); }                   \
    EW_FN T ew_invert_##S(T a) { return (T)~a; }                              \
    EW_FN T ew_conjugate_##S(T a) { return a; }                               \
    EW_FN T ew_floor_##S(T a) { return a; }                                   \
    EW_FN T ew_ceil_##S(T a) { return a; }                                    \
    EW_FN T ew_trunc_##S(T a) { return a; }                                   \
    EW_FN ew_b ew_isnan_##S(T a) { (void)a; return 0; }                       \
    EW_FN ew_b ew_isinf_##S(T a) { (void)a; return 0; }                       \
    EW_FN ew_b ew_isfinite_##S(T a) { (void)a; return 1; }                    \
    /* Square-and-multiply, wrapping. */                                      \
    EW_FN T ew_upow_##S(T a, ew_u64 e)                                        \
    {                                                                         \
        W r = 1, base = (W)a;                                                 \
        while (e) {                                                           \
            if (e & 1u)                                                       \
                r *= base;                                                    \
            base *= base;                                                     \
            e >>= 1;                                                          \
        }                                                                     \
        return (T)r;                                                          \
    }

/* gcd and lcm on magnitudes (ew_mag_<S>) in the wide unsigned type W, as
 * NumPy computes them in an unsigned C type at least as wide: gcd(MIN, 0)
 * is MIN's magnitude, which the cast back wraps to MIN, and an lcm too
 * large for the type wraps. lcm(0, x) is 0. */
#define EW_GCD_OPS(S, T, W)                                                   \
    EW_FN W ew_ugcd_##S(W a, W b)                                             \
    {                                                                         \
        while (a != 0) {                                                      \
            W c = b % a;                                                      \
            b = a;                                                            \
            a = c;                                                            \
        }                                                                     \
        return b;                                                             \
    }                                                                         \
    EW_FN T ew_gcd_##S(T a, T b)                                              \
    {                                                                         \
        return (T)ew_ugcd_##S(ew_mag_##S(a), ew_mag_##S(b));                  \
    }                                                                         \
    EW_FN T ew_lcm_##S(T a, T b)                                              \
    {                                                                         \
        W x = ew_mag_##S(a), y = ew_mag_##S(b), g = ew_ugcd_##S(x, y);        \
        return g ? (T)(x / g * y) : (T)0;                                     \
    }

/* MIN // -1 wraps to MIN and MIN % -1 is 0, without C's undefined
 * division. A negative power (which NumPy refuses, and ember refuses for
 * scalar exponents on the host) gives 1/a truncated: 1, -1 or 0. */
#define EW_SINT_OPS(S, T, W, BITS, RECIP0)                                    \
    EW_INT_OPS(S, T, W, BITS)                                                 \
    EW_FN T ew_floor_divide_##S(T a, T b)                                     \
    {                                                                         \
        T q;                                                                  \
        if (b == 0)                                                           \
            return 0;                                                         \
        if (b == -1)                                                          \
            return (T)(0 - (W)a);                                             \
        q = (T)(a / b);                                                       \
        if (a % b != 0 && ((a < 0) != (b < 0)))                               \
            q = (T)(q - 1);                                                   \
        return q;                                                             \
    }                                                                         \
    EW_FN T ew_remainder_##S(T a, T b)                                        \
    {                                                                         \
        T r;                                                                  \
        if (b == 0 || b == -1)                                                \
            return 0;                                                         \
        r = (T)(a % b);                                                       \
        if (r != 0 && ((r < 0) != (b < 0)))                                   \
            r = (T)(r + b);                                                   \
        return r;                                                             \
    }                                                                         \
    EW_FN T ew_power_##S(T a, T b)                                            \
    {                                                                         \
        if (b < 0)                                                            \
            return (T)(a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0);        \
        return ew_upow_##S(a, (ew_u64)b);                                     \
    }                                                                         \
    EW_FN T ew_right_shift_##S(T a, T b)                                      \
    {                                                                         \
        return (ew_u64)(ew_i64)b < BITS ? (T)(a >> b) : (T)(a < 0 ? -1 : 0);  \
    }                                                                         \
    EW_FN T ew_absolute_##S(T a) { return a < 0 ? (T)(0 - (W)a) : a; }       \
    EW_FN T ew_sign_##S(T a) { return (T)((a > 0) - (a < 0)); }               \
    EW_FN T ew_reciprocal_##S(T a)                                            \
    {                                                                         \
        return a == 0 ? (T)(RECIP0) : (T)(a == 1 ? 1 : a == -1 ? -1 : 0);     \
    }                                                                         \
    /* C's remainder, with the dividend's sign. A zero divisor gives 0, as */ \
    /* NumPy's loop does; so does -1, which any a divides, and that keeps */ \
    /* MIN % -1 from trapping. */                                             \
    EW_FN T ew_fmod_##S(T a, T b)                                             \
    {                                                                         \
        return (b == 0 || b == -1) ? (T)0 : (T)(a % b);                       \
    }                                                                         \
    /* |a| in W: MIN's magnitude fits there. */                               \
    EW_FN W ew_mag_##S(T a) { return a < 0 ? 0 - (W)a : (W)a; }              \
    EW_GCD_OPS(S, T, W)

#define EW_UINT_OPS(S, T, W, BITS)                                            \
    EW_INT_OPS(S, T, W, BITS)                                                 \
    EW_FN T ew_floor_divide_##S(T a, T b) { return b ? (T)(a / b) : (T)0; }   \
    EW_FN T ew_remainder_##S(T a, T b) { return b ? (T)(a % b) : (T)0; }      \
    EW_FN T ew_power_##S(T a, T b) { return ew_upow_##S(a, (ew_u64)b); }      \
    EW_FN T ew_right_shift_##S(T a, T b)                                      \
    {                                                                         \
        return (ew_u64)b < BITS ? (T)(a >> b) : (T)0;                         \
    }                                                                         \
    EW_FN T ew_absolute_##S(T a) { return a; }                                \
    EW_FN T ew_sign_##S(T a) { return (T)(a > 0); }                           \
    EW_FN T ew_reciprocal_##S(T a)                                            \
    {                                                                         \
        return (T)(a == 1);                                                   \
    }                                                                         \
    EW_FN T ew_fmod_##S(T a, T b) { return b ? (T)(a % b) : (T)0; }          \
    EW_FN W ew_mag_##S(T a) { return (W)a; }                                  \
    EW_GCD_OPS(S, T, W)

/* reciprocal(0) is 1.0/0 cast back, as NumPy computes it: x86 gives the
 * integer indefinite value, which the 8- and 16-bit types truncate to 0. */
EW_SINT_OPS(i8, ew_i8, ew_u32, 8, 0)
EW_SINT_OPS(i16, ew_i16, ew_u32, 16, 0)
EW_SINT_OPS(i32, ew_i32, ew_u32, 32, EW_I32_MIN)
EW_SINT_OPS(i64, ew_i64, ew_u64, 64, EW_I64_MIN)
EW_UINT_OPS(u8, ew_u8, ew_u32, 8)
EW_UINT_OPS(u16, ew_u16, ew_u32, 16)
EW_UINT_OPS(u32, ew_u32, ew_u32, 32)
EW_UINT_OPS(u64, ew_u64, ew_u64, 64)

/* NumPy's exact int64-with-uint64 comparison loops (qQ->?, Qq->?). */
#define EW_MIXED_COMPARE(OP, EXPR_SU, EXPR_US)                                \
    EW_FN ew_b ew_##OP##_i64_u64(ew_i64 a, ew_u64 b) { return EXPR_SU; }      \
    EW_FN ew_b ew_##OP##_u64_i64(ew_u64 a, ew_i64 b) { return EXPR_US; }
EW_MIXED_COMPARE(equal, a >= 0 && (ew_u64)a == b, b >= 0 && a == (ew_u64)b)
EW_MIXED_COMPARE(not_equal, a < 0 || (ew_u64)a != b, b < 0 || a != (ew_u64)b)
EW_MIXED_COMPARE(less, a < 0 || (ew_u64)a < b, b >= 0 && a < (ew_u64)b)
EW_MIXED_COMPARE(less_equal, a < 0 || (ew_u64)a <= b, b >= 0 && a <= (ew_u64)b)
EW_MIXED_COMPARE(greater, a >= 0 && (ew_u64)a > b, b < 0 || a > (ew_u64)b)
EW_MIXED_COMPARE(greater_equal, a >= 0 && (ew_u64)a >= b, b < 0 || a >= (ew_u64)b)

#endif

/* @ew-section float */
#ifndef EMBER_EWISE_OPS_FLOAT
#define EMBER_EWISE_OPS_FLOAT
/* ---- floating-point loops -------------------------------------------- */

/* frexp from the bits: x = m * 2^e with 0.5 <= |m| < 1, exact on both
 * backends whatever their frexp does with subnormals, which are first
 * scaled into the normal range by 2^64 (exact). Zeros, infinities and NaN
 * give (x, 0), as NumPy's; C leaves e unspecified for the last two. U is
 * the bits' type, MB the mantissa's width, EM the exponent mask, BIAS the
 * exponent bias. */
#define EW_FREXP(S, T, U, MB, EM, BIAS)                                       \
    EW_FN T ew_frexp_##S(T a, ew_i32 *e)                                      \
    {                                                                         \
        U b, field;                                                           \
        ew_i32 k = 0;                                                         \
        *e = 0;                                                               \
        if (a == 0 || !ew_fisfinite_##S(a))                                   \
            return a;                                                         \
        if (((ew_##S##_bits(a) >> MB) & EM) == 0) {                           \
            a *= (T)18446744073709551616.0;                                   \
            k = 64;                                                           \
        }                                                                     \
        b = ew_##S##_bits(a);                                                 \
        field = (b >> MB) & EM;                                               \
        *e = (ew_i32)field - (BIAS - 1) - k;                                  \
        b = (b & ~((U)EM << MB)) | ((U)(BIAS - 1) << MB);                     \
        return ew_bits_##S(b);                                                \
    }
EW_FREXP(f32, float, ew_u32, 23, 0xffu, 127)
EW_FREXP(f64, double, ew_u64, 52, 0x7ffu, 1023)

/* F is the C math suffix (f for float, nothing for double). float16 and
 * bfloat16 loops use the f32 functions on widened values and round the
 * result once, as NumPy does. */
/* scipy.special's digamma, in double on both devices: the recurrence up
 * to 6, the asymptotic series there, and the reflection below 0. */
EW_FN double ew_digamma_d(double x)
{
    double r = 0, t;
    if (x == 0)
        return ew_fisinf_f64(1 / x) && 1 / x < 0 ? ew_inf_f64() : -ew_inf_f64();
    if (x != x || x == -ew_inf_f64())
        return ew_inf_f64() * 0;
    if (x < 0) {
        if (x == floor(x))
            return ew_inf_f64() * 0;
        /* psi(x) = psi(1 - x) - pi / tan(pi x) */
        r = -EW_PI / tan(EW_PI * x);
        x = 1 - x;
    }
    while (x < 6) {
        r -= 1 / x;
        x += 1;
    }
    t = 1 / (x * x);
    return r + log(x) - 0.5 / x -
           t * (1.0 / 12 - t * (1.0 / 120 - t * (1.0 / 252 - t * (1.0 / 240 -
                t * (1.0 / 132 - t * (691.0 / 32760 - t / 12))))));
}

/* scipy.special's i1, in double on both devices: the power series
 * (x/2) sum (x^2/4)^k / (k! (k+1)!) up to 20, all of whose terms are
 * positive, and past it the asymptotic series of e^x / sqrt(2 pi x),
 * whose smallest term there is below e^-40. NaN at the infinities and
 * +0 at -0, as SciPy's. */
EW_FN double ew_i1_d(double x)
{
    double a = fabs(x), s = 1, t = 1, r;
    int k;
    if (a != a || a == ew_inf_f64())
        return ew_inf_f64() * 0;
    if (a <= 20) {
        double y = 0.25 * a * a;
        for (k = 1; k < 100 && t > 1e-17 * s; k++) {
            t *= y / ((double)k * (k + 1));
            s += t;
        }
        r = 0.5 * a * s;
    } else {
        for (k = 1; k < 40 && fabs(t) > 1e-17; k++) {
            t *= ((2.0 * k - 1) * (2.0 * k - 1) - 4) / (8.0 * k * a);
            s += t;
        }
        r = exp(a) * (s / sqrt(2 * EW_PI * a));
    }
    return x < 0 ? -r : r;
}

/* sin(pi x), exactly 0 at the integers: x is reduced by 2 exactly first. */
EW_FN double ew_sinpi_d(double x)
{
    double r = fmod(x, 2.0);
    if (r > 1)
        r -= 2;
    else if (r < -1)
        r += 2;
    if (r > 0.5)
        r = 1 - r;
    else if (r < -0.5)
        r = -1 - r;
    return sin(EW_PI * r);
}

/* The Hurwitz zeta function sum over k >= 0 of (k + q)^-x by the
 * Euler-Maclaurin formula: the sum's terms until q + k reaches w >= 10
 * (and x, so the correction series converges fast), then the integral of
 * the rest, half its first term, and 12 corrections B_2j / (2j)! x (x+1)
 * ... (x+2j-2) w^(-x-2j+1). For x > 1 the sum stops early once its next
 * term and the integral past it are below an ulp. Valid for every real
 * x != 1 (the analytic continuation), which the Riemann zeta uses; q
 * may be negative (the terms before 0 are summed as they come). */
EW_FN double ew_zeta_em_d(double x, double q)
{
    const double c[12] = {
        1.0 / 12, -1.0 / 720, 1.0 / 30240, -1.0 / 1209600, 1.0 / 47900160,
        -691.0 / 1307674368000.0, 1.0 / 74724249600.0,
        -3617.0 / 10670622842880000.0, 43867.0 / 5109094217170944000.0,
        -174611.0 / 802857662698291200000.0,
        854513.0 / 155112100433309859840000.0,
        -236364091.0 / 1693824136731743669452800000.0};
    double w = q, s = 0, t, f, wmin = x > 10 ? (x < 1000 ? x : 1000) : 10;
    int j;
    for (;;) {
        t = pow(w, -x);
        s += t;
        w += 1;
        if (x > 1 && w > 0 &&
            fabs(t) * (1 + w / (x - 1)) <= 2.2e-16 * fabs(s))
            return s;
        if (w >= wmin)
            break;
    }
    t = pow(w, -x);
    s += w * t / (x - 1) + 0.5 * t;
    f = x * t / w;
    for (j = 0; j < 12; j++) {
        s += c[j] * f;
        f *= (x + 2 * j + 1) * (x + 2 * j + 2) / (w * w);
    }
    return s;
}

/* scipy.special.zeta(x, q), SciPy's domain: infinite at x = 1 and at the
 * poles q = 0, -1, ...; NaN below x = 1 and for q < 0 with a fractional
 * x (a negative base to a fractional power); past q = 1e8 the first terms
 * of the asymptotic expansion. */
EW_FN double ew_zeta_d(double x, double q)
{
    /* in SciPy's order: zeta(1, nan) and zeta(nan, 0) are inf */
    if (x == 1)
        return ew_inf_f64();
    if (x < 1)
        return ew_inf_f64() * 0;
    if (q <= 0) {
        if (q == floor(q))
            return ew_inf_f64();
        if (x != floor(x))
            return ew_inf_f64() * 0;
    }
    if (q > 1e8)
        return (1 / (x - 1) + 1 / (2 * q)) * pow(q, 1 - x);
    if (x != x || q != q)
        return x + q;
    if (x == ew_inf_f64())
        return q == 1 ? 1 : q > 1 ? ew_inf_f64() * 0 : ew_inf_f64();
    return ew_zeta_em_d(x, q);
}

/* The Riemann zeta function (scipy.special.zeta(x)): Euler-Maclaurin
 * from -1 up, and below it the reflection zeta(x) = 2 (2 pi)^(x-1)
 * sin(pi x / 2) gamma(1 - x) zeta(1 - x), in logarithms so the factors'
 * over- and underflows cancel; 0 at the even negative integers. (The
 * Euler-Maclaurin sum for x < 0 adds terms near w^(1-x) to a small
 * result: at -1, 50 times the answer; at -20, 1e19 times.) */
EW_FN double ew_riemann_zeta_d(double x)
{
    double sn;
    if (x == 1)
        return ew_inf_f64();
    if (x == ew_inf_f64())
        return 1;
    if (x >= -1)
        return x == 0 ? -0.5 : ew_zeta_em_d(x, 1);
    sn = ew_sinpi_d(0.5 * x);
    if (sn == 0)
        return 0;
    return sn * 2 * exp(EW_LGAMMA(, 1 - x) + (x - 1) * log(2 * EW_PI)) *
           ew_zeta_em_d(1 - x, 1);
}

#define EW_FLOAT_OPS(S, T, F)                                                 \
    EW_COMPARE_OPS(S, T)                                                      \
    EW_FN T ew_add_##S(T a, T b) { return a + b; }                            \
    EW_FN T ew_subtract_##S(T a, T b) { return a - b; }                       \
    EW_FN T ew_multiply_##S(T a, T b) { return a * b; }                       \
    EW_FN T ew_true_divide_##S(T a, T b) { return a / b; }                    \
    /* Python's floor division: the quotient of the exact remainder's      */ \
    /* division, corrected to the floor and rounded to the nearest integer.*/ \
    EW_FN T ew_floor_divide_##S(T a, T b)                                     \
    {                                                                         \
        T mod, div, fl;                                                       \
        if (b == 0)                                                           \
            return a / b;                                                     \
        mod = fmod##F(a, b);                                                  \
        div = (a - mod) / b;                                                  \
        if (mod != 0 && ((b < 0) != (mod < 0)))                               \
            div -= 1;                                                         \
        if (div != 0) {                                                       \
            fl = floor##F(div);                                               \
            if (div - fl > (T)0.5)                                            \
                fl += 1;                                                      \
        } else {                                                              \
            fl = copysign##F((T)0, a / b);                                    \
        }                                                                     \
        return fl;                                                            \
    }                                                                         \
    /* The remainder takes the divisor's sign; an exact zero too. */          \
    EW_FN T ew_remainder_##S(T a, T b)                                        \
    {                                                                         \
        T mod = fmod##F(a, b);                                                \
        if (b == 0)                                                           \
            return mod;                                                       \
        if (mod != 0) {                                                       \
            if ((b < 0) != (mod < 0))                                         \
                mod += b;                                                     \
        } else {                                                              \
            mod = copysign##F((T)0, b);                                       \
        }                                                                     \
        return mod;                                                           \
    }                                                                         \
    /* CUDA's pow is within 2 ulp, not correctly rounded (3.0 ** 1.0 gave */ \
    /* 2.9999999999999996 on an H100); the exponents written most often  */ \
    /* get the correctly rounded answer NumPy gives, on both backends.   */ \
    EW_FN T ew_pow_##S(T a, T b)                                              \
    {                                                                         \
        if (b == (T)1)                                                        \
            return a;                                                         \
        if (b == (T)2)                                                        \
            return a * a;                                                     \
        if (b == (T)-1)                                                       \
            return (T)1 / a;                                                  \
        return pow##F(a, b);                                                  \
    }                                                                         \
    EW_FN T ew_power_##S(T a, T b) { return ew_pow_##S(a, b); }               \
    EW_FN T ew_float_power_##S(T a, T b) { return ew_pow_##S(a, b); }         \
    /* NaN wins (maximum) or loses (fmax); of two equal values (0.0 and   */ \
    /* -0.0) the second, as NumPy's float32/float64 loops return.         */ \
    EW_FN T ew_maximum_##S(T a, T b) { return (a > b || a != a) ? a : b; }    \
    EW_FN T ew_minimum_##S(T a, T b) { return (a < b || a != a) ? a : b; }    \
    EW_FN T ew_fmax_##S(T a, T b) { return (a > b || b != b) ? a : b; }       \
    EW_FN T ew_fmin_##S(T a, T b) { return (a < b || b != b) ? a : b; }       \
    EW_FN T ew_arctan2_##S(T a, T b) { return atan2##F(a, b); }               \
    EW_FN T ew_hypot_##S(T a, T b) { return hypot##F(a, b); }                 \
    EW_FN T ew_copysign_##S(T a, T b) { return copysign##F(a, b); }           \
    EW_FN T ew_nextafter_##S(T a, T b) { return nextafter##F(a, b); }         \
    EW_FN T ew_logaddexp_##S(T a, T b)                                        \
    {                                                                         \
        T d;                                                                  \
        if (a == b) /* also two infinities of one sign */                     \
            return a + (T)EW_LN2;                                             \
        d = a - b;                                                            \
        if (d > 0)                                                            \
            return a + log1p##F(exp##F(-d));                                  \
        if (d <= 0)                                                           \
            return b + log1p##F(exp##F(d));                                   \
        return d; /* NaN */                                                   \
    }                                                                         \
    EW_FN T ew_logaddexp2_##S(T a, T b)                                       \
    {                                                                         \
        const T log2e = (T)EW_LOG2E;                                          \
        T d;                                                                  \
        if (a == b)                                                           \
            return a + 1;                                                     \
        d = a - b;                                                            \
        if (d > 0)                                                            \
            return a + log1p##F(exp2##F(-d)) * log2e;                         \
        if (d <= 0)                                                           \
            return b + log1p##F(exp2##F(d)) * log2e;                          \
        return d;                                                             \
    }                                                                         \
    EW_FN T ew_heaviside_##S(T x, T h0)                                       \
    {                                                                         \
        if (x != x)                                                           \
            return x;                                                         \
        return x < 0 ? (T)0 : x > 0 ? (T)1 : h0;                              \
    }                                                                         \
    EW_FN T ew_ldexp_##S##_i32(T x, ew_i32 e) { return ldexp##F(x, e); }      \
    EW_FN T ew_ldexp_##S##_i64(T x, ew_i64 e)                                 \
    {                                                                         \
        return ldexp##F(x, e > 2147483647 ? 2147483647                        \
                           : e < EW_I32_MIN ? EW_I32_MIN : (int)e);           \
    }                                                                         \
    EW_FN T ew_negative_##S(T a) { return -a; }                               \
    EW_FN T ew_positive_##S(T a) { return a; }                                \
    EW_FN T ew_absolute_##S(T a) { return fabs##F(a); }                       \
    EW_FN T ew_sign_##S(T a)                                                  \
    {                                                                         \
        return a > 0 ? (T)1 : a < 0 ? (T)-1 : a == 0 ? (T)0 : a;              \
    }                                                                         \
    EW_FN T ew_square_##S(T a) { return a * a; }                              \
    EW_FN T ew_sqrt_##S(T a) { return sqrt##F(a); }                           \
    EW_FN T ew_cbrt_##S(T a) { return cbrt##F(a); }                           \
    EW_FN T ew_reciprocal_##S(T a) { return (T)1 / a; }                       \
    EW_FN T ew_exp_##S(T a) { return exp##F(a); }                             \
    EW_FN T ew_exp2_##S(T a) { return exp2##F(a); }                           \
    EW_FN T ew_expm1_##S(T a) { return expm1##F(a); }                         \
    EW_FN T ew_log_##S(T a) { return log##F(a); }                             \
    EW_FN T ew_log2_##S(T a) { return log2##F(a); }                           \
    EW_FN T ew_log10_##S(T a) { return log10##F(a); }                         \
    EW_FN T ew_log1p_##S(T a) { return log1p##F(a); }                         \
    EW_FN T ew_sin_##S(T a) { return sin##F(a); }                             \
    EW_FN T ew_cos_##S(T a) { return cos##F(a); }                             \
    EW_FN T ew_tan_##S(T a) { return tan##F(a); }                             \
    EW_FN T ew_arcsin_##S(T a) { return asin##F(a); }                         \
    EW_FN T ew_arccos_##S(T a) { return acos##F(a); }                         \
    EW_FN T ew_arctan_##S(T a) { return atan##F(a); }                         \
    EW_FN T ew_sinh_##S(T a) { return sinh##F(a); }                           \
    EW_FN T ew_cosh_##S(T a) { return cosh##F(a); }                           \
    EW_FN T ew_tanh_##S(T a) { return tanh##F(a); }                           \
    EW_FN T ew_arcsinh_##S(T a) { return asinh##F(a); }                       \
    EW_FN T ew_arccosh_##S(T a) { return acosh##F(a); }                       \
    EW_FN T ew_arctanh_##S(T a) { return atanh##F(a); }                       \
    EW_FN T ew_floor_##S(T a) { return floor##F(a); }                         \
    EW_FN T ew_ceil_##S(T a) { return ceil##F(a); }                           \
    EW_FN T ew_trunc_##S(T a) { return trunc##F(a); }                         \
    EW_FN T ew_rint_##S(T a) { return rint##F(a); }                           \
    EW_FN T ew_conjugate_##S(T a) { return a; }                               \
    EW_FN ew_b ew_isnan_##S(T a) { return a != a; }                           \
    EW_FN ew_b ew_isinf_##S(T a) { return (ew_b)ew_fisinf_##S(a); }           \
    EW_FN ew_b ew_isfinite_##S(T a) { return (ew_b)ew_fisfinite_##S(a); }     \
    /* C's fmod: exact, with the dividend's sign (CUDA's is exact too). */    \
    EW_FN T ew_fmod_##S(T a, T b) { return fmod##F(a, b); }                   \
    /* NumPy's spacing: the step to the next value away from zero, with   */ \
    /* x's sign; both zeros step up (+smallest subnormal), the largest    */ \
    /* finite values to +-inf, inf and NaN give NaN. Stepping the bits    */ \
    /* is exact on both backends, whatever their nextafter does with      */ \
    /* subnormals, and the difference of neighbours is exact.             */ \
    EW_FN T ew_spacing_##S(T a)                                               \
    {                                                                         \
        if (!ew_fisfinite_##S(a))                                             \
            return ew_nan_##S();                                              \
        if (a == 0)                                                           \
            return ew_bits_##S(1u);                                           \
        return ew_bits_##S(ew_##S##_bits(a) + 1u) - a;                        \
    }                                                                         \
    /* modf's fractional part, with x's sign also when it is zero (whole  */ \
    /* numbers, infinities); NaN stays NaN. x - trunc(x) is exact.        */ \
    EW_FN T ew_modf_frac_##S(T a)                                             \
    {                                                                         \
        return copysign##F(ew_fisinf_##S(a) ? (T)0 : a - trunc##F(a), a);    \
    }                                                                         \
    EW_FN ew_i32 ew_frexp_exp_##S(T a)                                        \
    {                                                                         \
        ew_i32 e;                                                             \
        (void)ew_frexp_##S(a, &e);                                            \
        return e;                                                             \
    }                                                                         \
    EW_FN T ew_frexp_mant_##S(T a)                                            \
    {                                                                         \
        ew_i32 e;                                                             \
        return ew_frexp_##S(a, &e);                                           \
    }

EW_FLOAT_OPS(f32, float, f)
EW_FLOAT_OPS(f64, double, )
/* scipy.special's functions (em_op_info.scipy), with SciPy's answers at
 * the poles and ends where C's differ. They need a kernel's math library
 * (CUDA's, or host_prelude.h's erfinv and erfcinv), so the C library's
 * own compile of this header (src/array/ufunc_cast.c, casts only) leaves
 * them out. */
#if defined(EW_CUDA) || defined(EMBER_HOST_PRELUDE_H)
/* ---- Bessel functions of real order: scipy.special's jv (jn), yv, yn,
 * iv and kv, and its real loggamma. ember's own, in double on both
 * devices, from the published methods: Temme's series for x < 2 (the
 * order reduced to |mu| <= 1/2), Steed's continued fraction CF2 past it,
 * CF1 (the ratio J'/J or I'/I by Lentz's method) and the recurrences
 * between, Hankel's asymptotic expansion for x >= 25. Negative orders by
 * the reflection formulas, SciPy's answers at x = 0, below 0 and at the
 * infinities. */

/* cos(pi x), exactly 0 at the half-integers (x reduced exactly first). */
EW_FN double ew_cospi_d(double x)
{
    double r = fmod(fabs(x), 2.0);
    if (r > 1)
        r = 2 - r;
    if (r < 0.25)
        return cos(EW_PI * r);
    if (r < 0.75)
        return sin(EW_PI * (0.5 - r));
    return -cos(EW_PI * (1 - r));
}

/* r e^x 2^e2, with no overflow or underflow on the way: e^x as 2^k e^f
 * (Cody and Waite's two-part ln 2), the power of two applied last. */
EW_FN double ew_exp_scaled_d(double r, double x, int e2)
{
    double k, f;
    if (r == 0 || !(fabs(x) < 1e6))
        return r * exp(x);
    k = floor(x * EW_LOG2E + 0.5);
    f = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10;
    return ldexp(0.25 * r * exp(f), (int)k + e2 + 2);
}

/* Temme's gamma factors for |mu| <= 1/2: g1 = (1/G(1-mu) - 1/G(1+mu)) /
 * (2 mu), g2 = (1/G(1-mu) + 1/G(1+mu)) / 2, gp = 1/G(1+mu), gm =
 * 1/G(1-mu), from the Taylor series of 1/Gamma (Abramowitz and Stegun
 * 6.1.34) split into its even and odd powers, so g1 has no cancellation
 * at small mu. */
EW_FN void ew_temme_gamma_d(double mu, double *g1, double *g2, double *gp,
                            double *gm)
{
    const double c[26] = {
        1.0, 0.5772156649015329, -0.6558780715202538, -0.0420026350340952,
        0.1665386113822915, -0.0421977345555443, -0.0096219715278770,
        0.0072189432466630, -0.0011651675918591, -0.0002152416741149,
        0.0001280502823882, -0.0000201348547807, -0.0000012504934821,
        0.0000011330272320, -0.0000002056338417, 0.0000000061160950,
        0.0000000050020075, -0.0000000011812746, 0.0000000001043427,
        0.0000000000077823, -0.0000000000036968, 0.0000000000005100,
        -0.0000000000000206, -0.0000000000000054, 0.0000000000000014,
        0.0000000000000001};
    double m2 = mu * mu, e = 0, o = 0;
    int j;
    for (j = 24; j >= 0; j -= 2)
        e = e * m2 + c[j];
    for (j = 25; j >= 1; j -= 2)
        o = o * m2 + c[j];
    *g1 = -o;
    *g2 = e;
    *gp = e + mu * o;
    *gm = e - mu * o;
}

/* Hankel's expansion's terms a_k(v) u^k (A&S 9.2.5-9.2.10, 9.7.1-9.7.4),
 * u = 1/x real or complex (ur + i ui), summed by k mod 4 into (sr[j],
 * si[j]) from which each function takes its signs: P = s0 - s2 and Q =
 * s1 - s3 for J and Y, s0 - s1 + s2 - s3 for I, the plain sum for K
 * (with a complex u for the complex I and K). Used for |x| >= 25 and v^2
 * <= |x|, where the terms fall below 1e-17 before they start to grow. */
EW_FN void ew_hankel_sums(double v, double ur, double ui, double *sr,
                          double *si)
{
    double m = 4 * v * v, tr = 1, ti = 0, last = 2, f, t;
    int k;
    sr[0] = 1;
    si[0] = sr[1] = si[1] = sr[2] = si[2] = sr[3] = si[3] = 0;
    for (k = 1; k < 500; k++) {
        f = (m - (2.0 * k - 1) * (2.0 * k - 1)) / (8.0 * k);
        t = f * (tr * ur - ti * ui);
        ti = f * (tr * ui + ti * ur);
        tr = t;
        t = fabs(tr) + fabs(ti);
        if (t >= last)
            break;
        last = t;
        sr[k & 3] += tr;
        si[k & 3] += ti;
        if (last < 1e-17)
            break;
    }
}

#define EW_BESSEL_MAXIT 1000000
#define EW_BESSEL_EPS 1e-16
#define EW_BESSEL_TINY 1e-300

/* J_v(x) and Y_v(x) for v >= 0 and 0 < x < inf. */
EW_FN void ew_bessel_jy_d(double v, double x, double *jo, double *yo)
{
    const double eps = EW_BESSEL_EPS, tiny = EW_BESSEL_TINY;
    double xi = 1 / x, xi2 = 2 * xi, w = xi2 / EW_PI;
    double mu, f = 0, r = 0, h, b, c, d, del, jl = 1, jpl, jmu, ymu, ymup, y1, t;
    int nl, i, sgn = 1, e2 = 0;
    /* |J_v(x)| <= (x/2)^v / G(v+1): past e^-800 J is 0 and Y -inf */
    if (v > x && v > 2 && EW_LGAMMA(, v + 1) - v * log(0.5 * x) > 800) {
        *jo = 0;
        *yo = -ew_inf_f64();
        return;
    }
    if (v > 1e7) {
        *jo = *yo = ew_inf_f64() * 0;
        return;
    }
    if (x < 1e-5) {
        /* the series' first two terms, and Temme's Y_mu, Y_mu+1 below */
        *jo = v + 1 > 171 ? 0 : pow(0.5 * x, v) / tgamma(v + 1) *
                                    (1 - 0.25 * x * x / (v + 1));
    } else if (x >= 25 && v < x) {
        /* Hankel's expansion, at v itself where v^2 <= x, else at
         * mu = v - floor(v) and mu + 1, then up: below x the recurrence
         * is stable for J, and always for Y */
        double n = v * v <= x ? 0 : floor(v), cx = cos(x), sx = sin(x);
        double a = sqrt(w), p, q, cp, sp, j0, y0, j1, y1b, k, sr[4], si[4];
        mu = v - n;
        ew_hankel_sums(mu, xi, 0, sr, si);
        p = sr[0] - sr[2];
        q = sr[1] - sr[3];
        cp = ew_cospi_d(0.5 * mu + 0.25);
        sp = ew_sinpi_d(0.5 * mu + 0.25);
        /* cos and sin of x - (mu/2 + 1/4) pi */
        c = cx * cp + sx * sp;
        d = sx * cp - cx * sp;
        j0 = a * (p * c - q * d);
        y0 = a * (p * d + q * c);
        if (n == 0) {
            *jo = j0;
            *yo = y0;
            return;
        }
        ew_hankel_sums(mu + 1, xi, 0, sr, si);
        p = sr[0] - sr[2];
        q = sr[1] - sr[3];
        cp = ew_cospi_d(0.5 * (mu + 1) + 0.25);
        sp = ew_sinpi_d(0.5 * (mu + 1) + 0.25);
        c = cx * cp + sx * sp;
        d = sx * cp - cx * sp;
        j1 = a * (p * c - q * d);
        y1b = a * (p * d + q * c);
        for (k = 1; k < n; k++) {
            t = 2 * (mu + k) / x;
            b = t * j1 - j0;
            j0 = j1;
            j1 = b;
            b = t * y1b - y0;
            y0 = y1b;
            y1b = b;
        }
        *jo = j1;
        *yo = y1b;
        return;
    }
    nl = x < 2 ? (int)(v + 0.5) : (v - x + 1.5 > 0 ? (int)(v - x + 1.5) : 0);
    mu = v - nl;
    if (x < 1e-5)
        goto temme;
    /* CF1: r = J_v+1/J_v = 1/(2(v+1)/x - 1/(2(v+2)/x - ...)) by Lentz's
     * method; the sign of J_v relative to the tail's rides along */
    b = 2 * (v + 1) / x;
    h = c = b;
    d = 0;
    for (i = 2; i <= EW_BESSEL_MAXIT; i++) {
        b = 2 * (v + i) / x;
        d = b - d;
        if (fabs(d) < tiny)
            d = tiny;
        c = b - 1 / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        del = c * d;
        h *= del;
        if (d < 0)
            sgn = -sgn;
        if (fabs(del - 1) < eps)
            break;
    }
    if (i > EW_BESSEL_MAXIT) {
        *jo = *yo = ew_inf_f64() * 0;
        return;
    }
    if (h < 0)
        sgn = -sgn;
    /* J down from v to mu (stable that way), from J_v = sgn, rescaled
     * by powers of two as it grows */
    jl = sgn;
    jpl = sgn / h;
    for (i = nl; i >= 1; i--) {
        double jt = 2 * (mu + i) / x * jl - jpl;
        jpl = jl;
        jl = jt;
        if (fabs(jl) > 1e250) {
            jl = ldexp(jl, -600);
            jpl = ldexp(jpl, -600);
            e2 += 600;
        }
    }
    if (jl == 0)
        jl = eps;
    /* r = J_mu+1/J_mu, f = J_mu'/J_mu */
    r = jpl / jl;
    f = mu / x - r;
temme:
    if (x < 2) {
        /* Temme's series for Y_mu and Y_mu+1 */
        double x2 = 0.5 * x, pimu = EW_PI * mu, g1, g2, gp, gm, fc, dd, e;
        double f2, ff, p, q, rr, s, s1, cc, del1;
        ew_temme_gamma_d(mu, &g1, &g2, &gp, &gm);
        fc = fabs(pimu) < eps ? 1 : pimu / sin(pimu);
        dd = -log(x2);
        e = mu * dd;
        f2 = fabs(e) < eps ? 1 : sinh(e) / e;
        ff = 2 / EW_PI * fc * (g1 * cosh(e) + g2 * f2 * dd);
        e = exp(e);
        p = e / (gp * EW_PI);
        q = 1 / (e * EW_PI * gm);
        t = 0.5 * pimu;
        f2 = fabs(t) < eps ? 1 : sin(t) / t;
        rr = EW_PI * t * f2 * f2;
        cc = 1;
        dd = -x2 * x2;
        s = ff + rr * q;
        s1 = p;
        for (i = 1; i <= EW_BESSEL_MAXIT; i++) {
            ff = (i * ff + p + q) / ((double)i * i - mu * mu);
            cc *= dd / i;
            p /= i - mu;
            q /= i + mu;
            del = cc * (ff + rr * q);
            s += del;
            del1 = cc * p - i * del;
            s1 += del1;
            if (fabs(del) < (1 + fabs(s)) * eps)
                break;
        }
        ymu = -s;
        y1 = -s1 * xi2;
        if (x < 1e-5)
            goto up;
        /* the Wronskian J_mu+1 Y_mu - J_mu Y_mu+1 = 2 / (pi x) */
        jmu = w / (r * ymu - y1);
    } else {
        /* Steed's CF2: p + iq = (J' + iY') / (J + iY) at mu */
        double a = 0.25 - mu * mu, p = -0.5 * xi, q = 1, br = 2 * x, bi = 2;
        double fc, cr, ci, den, dr, di, dlr, dli, gam;
        fc = a * xi / (p * p + q * q);
        cr = br + q * fc;
        ci = bi + p * fc;
        den = br * br + bi * bi;
        dr = br / den;
        di = -bi / den;
        dlr = cr * dr - ci * di;
        dli = cr * di + ci * dr;
        t = p * dlr - q * dli;
        q = p * dli + q * dlr;
        p = t;
        for (i = 2; i <= EW_BESSEL_MAXIT; i++) {
            a += 2 * (i - 1);
            bi += 2;
            dr = a * dr + br;
            di = a * di + bi;
            if (fabs(dr) + fabs(di) < tiny)
                dr = tiny;
            fc = a / (cr * cr + ci * ci);
            cr = br + cr * fc;
            ci = bi - ci * fc;
            if (fabs(cr) + fabs(ci) < tiny)
                cr = tiny;
            den = dr * dr + di * di;
            dr /= den;
            di = -di / den;
            dlr = cr * dr - ci * di;
            dli = cr * di + ci * dr;
            t = p * dlr - q * dli;
            q = p * dli + q * dlr;
            p = t;
            if (fabs(dlr - 1) + fabs(dli) < eps)
                break;
        }
        gam = (p - f) / q;
        jmu = sqrt(w / ((p - f) * gam + q));
        if (jl < 0)
            jmu = -jmu;
        ymu = jmu * gam;
        ymup = ymu * (p + q / gam);
        y1 = mu * xi * ymu - ymup;
    }
    *jo = ldexp(sgn * jmu / jl, -e2);
up:
    /* Y up from mu to v; past an overflow it stays infinite */
    for (i = 1; i <= nl; i++) {
        t = 2 * (mu + i) / x * y1 - ymu;
        ymu = y1;
        y1 = t;
        if (ew_fisinf_f64(y1)) {
            if (i < nl)
                ymu = y1;
            break;
        }
    }
    *yo = ymu;
}

/* I_v(x) and K_v(x) for v >= 0 and 0 < x < inf. */
EW_FN void ew_bessel_ik_d(double v, double x, double *io, double *ko)
{
    const double eps = EW_BESSEL_EPS;
    double xi = 1 / x, xi2 = 2 * xi, mu, r = 0, h, b, c, d, del, il, ipl, t;
    double kmu, k1, imu, ex;
    int nl, i, e2 = 0, ek = 0;
    /* I_v(x) <= (x/2)^v e^(x^2 / 4(v+1)) / G(v+1) */
    if (v > 2 && EW_LGAMMA(, v + 1) - v * log(0.5 * x) -
                         0.25 * x * x / (v + 1) > 800) {
        *io = 0;
        *ko = ew_inf_f64();
        return;
    }
    if (v > 1e7) {
        *io = *ko = ew_inf_f64() * 0;
        return;
    }
    if (x >= 25 && v * v <= x) {
        double sr[4], si[4];
        ew_hankel_sums(v, xi, 0, sr, si);
        *io = ew_exp_scaled_d((sr[0] - sr[1] + sr[2] - sr[3]) /
                                  sqrt(2 * EW_PI * x), x, 0);
        *ko = ew_exp_scaled_d((sr[0] + sr[1] + sr[2] + sr[3]) *
                                  sqrt(EW_PI / (2 * x)), -x, 0);
        return;
    }
    nl = (int)(v + 0.5);
    mu = v - nl;
    if (x < 1e-5) {
        /* the series' first two terms, and Temme's K_mu, K_mu+1 */
        *io = v + 1 > 171 ? 0 : pow(0.5 * x, v) / tgamma(v + 1) *
                                    (1 + 0.25 * x * x / (v + 1));
        il = 1;
        goto temme;
    }
    /* CF1: r = I_v+1/I_v = 1/(2(v+1)/x + 1/(2(v+2)/x + ...)) */
    b = 2 * (v + 1) / x;
    h = c = b;
    d = 0;
    for (i = 2; i <= EW_BESSEL_MAXIT; i++) {
        b = 2 * (v + i) / x;
        d = 1 / (b + d);
        c = b + 1 / c;
        del = c * d;
        h *= del;
        if (fabs(del - 1) < eps)
            break;
    }
    if (i > EW_BESSEL_MAXIT) {
        *io = *ko = ew_inf_f64() * 0;
        return;
    }
    /* I down from v to mu */
    il = 1;
    ipl = 1 / h;
    for (i = nl; i >= 1; i--) {
        double it = 2 * (mu + i) / x * il + ipl;
        ipl = il;
        il = it;
        if (il > 1e250) {
            il = ldexp(il, -600);
            ipl = ldexp(ipl, -600);
            e2 += 600;
        }
    }
    r = ipl / il;
temme:
    if (x < 2) {
        /* Temme's series for K_mu and K_mu+1 */
        double x2 = 0.5 * x, pimu = EW_PI * mu, g1, g2, gp, gm, fc, dd, e;
        double f2, ff, p, q, s, s1, cc;
        ew_temme_gamma_d(mu, &g1, &g2, &gp, &gm);
        fc = fabs(pimu) < eps ? 1 : pimu / sin(pimu);
        dd = -log(x2);
        e = mu * dd;
        f2 = fabs(e) < eps ? 1 : sinh(e) / e;
        ff = fc * (g1 * cosh(e) + g2 * f2 * dd);
        s = ff;
        e = exp(e);
        p = 0.5 * e / gp;
        q = 0.5 / (e * gm);
        cc = 1;
        dd = x2 * x2;
        s1 = p;
        for (i = 1; i <= EW_BESSEL_MAXIT; i++) {
            ff = (i * ff + p + q) / ((double)i * i - mu * mu);
            cc *= dd / i;
            p /= i - mu;
            q /= i + mu;
            del = cc * ff;
            s += del;
            s1 += cc * (p - i * ff);
            if (fabs(del) < fabs(s) * eps)
                break;
        }
        kmu = s;
        k1 = s1 * xi2;
        ex = 0;
    } else {
        /* Steed's CF2 for K (Temme's form), scaled by e^x */
        double q1 = 0, q2 = 1, a1 = 0.25 - mu * mu, q = a1, a = -a1, s, dh;
        double qn, ds;
        c = a1;
        b = 2 * (1 + x);
        d = 1 / b;
        h = dh = d;
        s = 1 + q * dh;
        for (i = 2; i <= EW_BESSEL_MAXIT; i++) {
            a -= 2 * (i - 1);
            c = -a * c / i;
            qn = (q1 - b * q2) / a;
            q1 = q2;
            q2 = qn;
            q += c * qn;
            b += 2;
            d = 1 / (b + a * d);
            dh = (b * d - 1) * dh;
            h += dh;
            ds = q * dh;
            s += ds;
            if (fabs(ds / s) < eps)
                break;
        }
        h = a1 * h;
        kmu = sqrt(EW_PI / (2 * x)) / s;
        k1 = kmu * (mu + x + 0.5 - h) * xi;
        ex = x;
    }
    /* the Wronskian I K' - I' K = -1/x gives I_mu */
    if (x >= 1e-5) {
        /* the Wronskian I_mu K_mu+1 + I_mu+1 K_mu = 1 / x */
        imu = xi / (k1 + r * kmu);
        *io = ew_exp_scaled_d(imu / il, ex, -e2);
    }
    for (i = 1; i <= nl; i++) {
        t = 2 * (mu + i) / x * k1 + kmu;
        kmu = k1;
        k1 = t;
        if (k1 > 1e250) {
            k1 = ldexp(k1, -600);
            kmu = ldexp(kmu, -600);
            ek += 600;
        }
    }
    *ko = ew_exp_scaled_d(kmu, -ex, ek);
}

EW_FN int ew_isodd_d(double v) { return fmod(v, 2.0) != 0; }

/* The sign of Gamma(z) for a z that is not a pole. */
EW_FN double ew_gamma_sign_d(double z)
{
    return z > 0 || fmod(floor(z), 2.0) == 0 ? 1 : -1;
}

/* scipy.special.jv: real order and argument; NaN below 0 unless the
 * order is an integer (then (-1)^v J_v(-x)), NaN at the infinities. */
EW_FN double ew_jv_d(double v, double x)
{
    double a = fabs(v), j, y;
    int vint;
    if (v != v || x != x || ew_fisinf_f64(x))
        return ew_inf_f64() * 0;
    vint = v == floor(v);
    if (x < 0 && (!vint || ew_fisinf_f64(v)))
        return ew_inf_f64() * 0;
    if (ew_fisinf_f64(v))
        return 0;
    if (x == 0) {
        if (v == 0)
            return 1;
        if (v > 0 || vint)
            return v < 0 && ew_isodd_d(v) ? -0.0 : 0.0;
        return ew_gamma_sign_d(1 + v) * ew_inf_f64();
    }
    ew_bessel_jy_d(a, fabs(x), &j, &y);
    if (v < 0) {
        if (vint)
            j = ew_isodd_d(a) ? -j : j;
        else
            j = ew_cospi_d(a) * j - (ew_sinpi_d(a) == 0 ? 0 : ew_sinpi_d(a) * y);
    }
    return x < 0 && ew_isodd_d(a) ? -j : j;
}

/* scipy.special.yv: NaN below 0 and at the infinities; at 0 the infinity
 * with the leading term's sign (SciPy's: a negative half-integer order
 * takes (-1)^floor(|v|)). */
EW_FN double ew_yv_d(double v, double x)
{
    double a = fabs(v), j, y, cs;
    int vint;
    if (v != v || x != x || ew_fisinf_f64(x) || x < 0)
        return ew_inf_f64() * 0;
    vint = v == floor(v);
    if (x == 0) {
        if (v >= 0 || ew_fisinf_f64(v))
            return -ew_inf_f64();
        if (vint)
            return ew_isodd_d(a) ? ew_inf_f64() : -ew_inf_f64();
        cs = ew_cospi_d(a);
        if (cs == 0)
            cs = ew_isodd_d(floor(a)) ? -1 : 1;
        return cs > 0 ? -ew_inf_f64() : ew_inf_f64();
    }
    if (ew_fisinf_f64(v))
        return ew_inf_f64() * 0;
    ew_bessel_jy_d(a, x, &j, &y);
    if (v < 0) {
        if (vint)
            y = ew_isodd_d(a) ? -y : y;
        else {
            cs = ew_cospi_d(a);
            y = ew_sinpi_d(a) * j + (cs == 0 ? 0 : cs * y);
        }
    }
    return y;
}

/* scipy.special.yn: the order truncated to an integer (its float loops);
 * an infinite order gives -inf, as SciPy's cast of it does. */
EW_FN double ew_yn_d(double n, double x)
{
    if (n != n)
        return n;
    if (ew_fisinf_f64(n))
        return x >= 0 && x < ew_inf_f64() ? -ew_inf_f64() : ew_inf_f64() * 0;
    return ew_yv_d(trunc(n), x);
}

EW_FN double ew_yn_i64_f64(ew_i64 n, double x) { return ew_yv_d((double)n, x); }

/* scipy.special.iv: NaN below 0 unless the order is an integer, NaN at
 * the infinities; at 0, 1 for order 0, 0 for positive and integer
 * orders, inf otherwise. */
EW_FN double ew_iv_d(double v, double x)
{
    double a = fabs(v), i, k, s;
    int vint;
    if (v != v || x != x || ew_fisinf_f64(x))
        return ew_inf_f64() * 0;
    if (ew_fisinf_f64(v))
        return 0;
    vint = v == floor(v);
    if (x < 0 && !vint)
        return ew_inf_f64() * 0;
    if (x == 0)
        return v == 0 ? 1 : v > 0 || vint ? 0 : ew_inf_f64();
    ew_bessel_ik_d(a, fabs(x), &i, &k);
    if (v < 0 && !vint) {
        s = ew_sinpi_d(a);
        i += (2 / EW_PI) * s * k;
    }
    return x < 0 && ew_isodd_d(a) ? -i : i;
}

/* scipy.special.kv: NaN below 0 and for infinite orders, inf at 0, 0 at
 * +inf. */
EW_FN double ew_kv_d(double v, double x)
{
    double i, k;
    if (x == 0)
        return ew_inf_f64();
    if (v != v || x != x || ew_fisinf_f64(v) || x < 0)
        return ew_inf_f64() * 0;
    if (ew_fisinf_f64(x))
        return 0;
    ew_bessel_ik_d(fabs(v), x, &i, &k);
    return k;
}

/* scipy.special.loggamma for real x: log Gamma(x) for x > 0, inf at
 * 0, NaN below (the real loop's answer; the complex plane's branch is
 * the complex loop's). */
EW_FN double ew_loggamma_d(double x)
{
    if (x == 0)
        return ew_inf_f64();
    if (x < 0)
        return ew_inf_f64() * 0;
    return EW_LGAMMA(, x);
}

#define EW_SCIPY_OPS(S, T, F)                                                 \
    EW_FN T ew_erf_##S(T a) { return erf##F(a); }                             \
    EW_FN T ew_erfc_##S(T a) { return erfc##F(a); }                           \
    /* SciPy's signed zeros: erfinv(-0) is +0, erfcinv(1) is -0          */ \
    EW_FN T ew_erfinv_##S(T a) { return a == 0 ? (T)0 : erfinv##F(a); }    \
    EW_FN T ew_erfcinv_##S(T a)                                               \
    {                                                                         \
        return a == 1 ? -(T)0 : erfcinv##F(a);                             \
    }                                                                         \
    EW_FN T ew_digamma_##S(T a) { return (T)ew_digamma_d((double)a); }       \
    EW_FN T ew_i1_##S(T a) { return (T)ew_i1_d((double)a); }                 \
    EW_FN T ew_zeta_##S(T x, T q) { return (T)ew_zeta_d((double)x, (double)q); } \
    EW_FN T ew_riemann_zeta_##S(T a) { return (T)ew_riemann_zeta_d((double)a); } \
    EW_FN T ew_jv_##S(T v, T x) { return (T)ew_jv_d((double)v, (double)x); } \
    EW_FN T ew_yv_##S(T v, T x) { return (T)ew_yv_d((double)v, (double)x); } \
    EW_FN T ew_iv_##S(T v, T x) { return (T)ew_iv_d((double)v, (double)x); } \
    EW_FN T ew_kv_##S(T v, T x) { return (T)ew_kv_d((double)v, (double)x); } \
    EW_FN T ew_yn_##S(T n, T x) { return (T)ew_yn_d((double)n, (double)x); } \
    EW_FN T ew_loggamma_##S(T a) { return (T)ew_loggamma_d((double)a); }   \
    EW_FN T ew_gamma_##S(T a) { return tgamma##F(a); }                        \
    EW_FN T ew_gammaln_##S(T a)                                               \
    {                                                                         \
        return a == -ew_inf_##S() ? a : EW_LGAMMA(F, a);                      \
    }                                                                         \
    EW_FN T ew_expit_##S(T a) { return (T)1 / ((T)1 + exp##F(-a)); }          \
    EW_FN T ew_logit_##S(T a) { return log##F(a / ((T)1 - a)); }              \
    EW_FN T ew_log_expit_##S(T a)                                             \
    {                                                                         \
        return a >= 0 ? -log1p##F(exp##F(-a)) : a - log1p##F(exp##F(a));      \
    }                                                                         \
    EW_FN T ew_ndtr_##S(T a)                                                  \
    {                                                                         \
        return (T)0.5 * erfc##F(-a * (T)0.707106781186547524400844362104849); \
    }                                                                         \
    /* Bessel functions: NaN at the infinities (C gives their limit 0)  */ \
    /* and, for y0 and y1, below 0, as SciPy's                           */ \
    EW_FN T ew_j0_##S(T a)                                                    \
    {                                                                         \
        return ew_fisfinite_##S(a) ? j0##F(a) : ew_inf_##S() * 0;            \
    }                                                                         \
    EW_FN T ew_j1_##S(T a)                                                    \
    {                                                                         \
        return ew_fisfinite_##S(a) ? j1##F(a) : ew_inf_##S() * 0;            \
    }                                                                         \
    EW_FN T ew_y0_##S(T a)                                                    \
    {                                                                         \
        return a < 0 || ew_fisinf_##S(a) ? ew_inf_##S() * 0 : y0##F(a);      \
    }                                                                         \
    EW_FN T ew_y1_##S(T a)                                                    \
    {                                                                         \
        return a < 0 || ew_fisinf_##S(a) ? ew_inf_##S() * 0 : y1##F(a);      \
    }                                                                         \
    EW_FN T ew_sinc_##S(T a)                                                  \
    {                                                                         \
        T y = (T)EW_PI * (a == 0 ? (T)1.0e-20 : a);                           \
        return sin##F(y) / y;                                                 \
    }                                                                         \
    EW_FN T ew_xlogy_##S(T x, T y)                                            \
    {                                                                         \
        return x == 0 && y == y ? (T)0 : x * log##F(y);                       \
    }                                                                         \
    EW_FN T ew_xlog1py_##S(T x, T y)                                          \
    {                                                                         \
        return x == 0 && y == y ? (T)0 : x * log1p##F(y);                     \
    }
#else
#define EW_SCIPY_OPS(S, T, F)
#endif
EW_SCIPY_OPS(f32, float, f)
EW_SCIPY_OPS(f64, double, )


EW_FN ew_b ew_signbit_f32(float a) { return (ew_b)(ew_f32_bits(a) >> 31); }
EW_FN ew_b ew_signbit_f64(double a) { return (ew_b)(ew_f64_bits(a) >> 63); }

/* The 16-bit float loops (bfloat16 too) differ from float32's in
 * corners, as NumPy's float16 loops do: of two equal values maximum,
 * minimum, fmax and fmin return the first, and nextafter(x, x) is x.
 * nextafter steps one unit of the 16-bit type, so it steps the bits (sign
 * and magnitude: away from zero is +1). */
EW_FN float ew_maximum_f16(float a, float b) { return (a >= b || a != a) ? a : b; }
EW_FN float ew_minimum_f16(float a, float b) { return (a <= b || a != a) ? a : b; }
EW_FN float ew_fmax_f16(float a, float b) { return (a >= b || b != b) ? a : b; }
EW_FN float ew_fmin_f16(float a, float b) { return (a <= b || b != b) ? a : b; }

#define EW_NEXTAFTER_16(S, TO16, FROM16)                                      \
    EW_FN float ew_nextafter_##S(float a, float b)                            \
    {                                                                         \
        unsigned short x;                                                     \
        if (a != a || b != b)                                                 \
            return a + b;                                                     \
        if (a == b)                                                           \
            return a;                                                         \
        if (a == 0)                                                           \
            return FROM16((unsigned short)(ew_signbit_f32(b) ? 0x8001u : 1u)); \
        x = TO16(a);                                                          \
        x = (unsigned short)(((a < b) == (a > 0)) ? x + 1u : x - 1u);         \
        return FROM16(x);                                                     \
    }
EW_NEXTAFTER_16(f16, ew_f32_to_f16, ew_f16_to_f32)
EW_NEXTAFTER_16(bf16, ew_f32_to_bf16, ew_bf16_to_f32)

/* NumPy's float16 spacing is its own: the step towards +inf, so it is
 * positive for negative x too (spacing(-1) is 2^-11, the step below 1 in
 * magnitude). bfloat16, which NumPy lacks, follows float32's definition:
 * the step away from zero with x's sign. Differences of neighbours are
 * exact in float. */
EW_FN float ew_spacing_f16(float a)
{
    if (!ew_fisfinite_f32(a))
        return ew_nan_f32();
    return ew_nextafter_f16(a, ew_inf_f32()) - a;
}
EW_FN float ew_spacing_bf16(float a)
{
    if (!ew_fisfinite_f32(a))
        return ew_nan_f32();
    if (a == 0)
        return ew_nextafter_bf16(a, ew_inf_f32());
    return ew_nextafter_bf16(a, copysignf(ew_inf_f32(), a)) - a;
}

#endif

/* @ew-section scipy */
/* scipy.special's second tranche, a section of its own: only kernels of
 * scipy.special's ufuncs (em_op_info.scipy) take it, so the float
 * kernels of NumPy's ufuncs do not compile it (it doubled their source). */
#ifndef EMBER_EWISE_OPS_SCIPY
#define EMBER_EWISE_OPS_SCIPY
/* ---- scipy.special's elementary, exponential-integral, Bessel-scaled and
 * incomplete-gamma ufuncs (the second tranche): ember's own, in double on
 * both devices, from the published series, continued fractions and
 * asymptotic expansions (Abramowitz and Stegun, DLMF), with SciPy's
 * answers at the ends. The float loops round the double result once. */
#if defined(EW_CUDA) || defined(EMBER_HOST_PRELUDE_H)
#define EW_EULER 0.577215664901532860606512090082402431
#define EW_SQRTPI 1.772453850905516027298167483341145183

/* scipy.special.round: the nearest integer, halves to even, and a zero
 * result is +0 unless x is -0 (SciPy rounds up from the floor). */
EW_FN double ew_sp_round_d(double x)
{
    double r = rint(x);
    return r == 0 && x != 0 ? 0.0 : r;
}

/* sin of x degrees: |x| mod 360 exactly, then the quadrant, so the
 * multiples of 90 are exact and their zeros carry SciPy's signs (the
 * quadrant's, times x's sign); SciPy's 0 past 1e14, where the degrees
 * are no longer exact. */
EW_FN double ew_dg_quad_d(double r, int q, int cosine)
{
    /* r in [0, 90): sin or cos of quadrant q's angle, as the sine of an
     * angle at most 45 degrees where it can be */
    double s, c, d = EW_PI / 180;
    s = r <= 45 ? sin(r * d) : cos((90 - r) * d);
    c = r <= 45 ? cos(r * d) : sin((90 - r) * d);
    q = (q + cosine) & 3;
    return q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
}

/* sin (cosine = 0, odd in x) or cos (cosine = 1, even) of x degrees */
EW_FN double ew_sincosdg_d(double x, int cosine)
{
    double a = fabs(x), r;
    int q;
    if (x != x)
        return x;
    if (a > 1e14)
        return 0;
    r = fmod(a, 360.0);
    q = (int)(r / 90);
    r -= 90.0 * q;
    r = ew_dg_quad_d(r, q, cosine);
    return x < 0 && !cosine ? -r : r;
}

EW_FN double ew_sindg_d(double x) { return ew_sincosdg_d(x, 0); }
EW_FN double ew_cosdg_d(double x) { return ew_sincosdg_d(x, 1); }

/* tan (cot = 0) or cot (cot = 1) of x degrees: |x| mod 180, folded to
 * [0, 90] with the sign; exact at 0, 45 and 90, where SciPy gives +0 and
 * +inf whatever the sign; an angle past 45 goes through its complement. */
EW_FN double ew_tancotdg_d(double x, int cot)
{
    double a = fabs(x), sg = x < 0 ? -1 : 1, t, d = EW_PI / 180;
    if (x != x)
        return x;
    if (a > 1e14)
        return 0;
    a = fmod(a, 180.0);
    if (a > 90) {
        a = 180 - a;
        sg = -sg;
    }
    if (a == 0)
        return cot ? ew_inf_f64() : 0;
    if (a == 90)
        return cot ? 0 : ew_inf_f64();
    if (a == 45)
        return sg;
    /* 90 - a is exact for a >= 45 (Sterbenz), not below */
    if (cot)
        t = a <= 45 ? 1 / tan(a * d) : tan((90 - a) * d);
    else
        t = a <= 45 ? tan(a * d) : 1 / tan((90 - a) * d);
    return sg * t;
}

/* cos(x) - 1: -2 sin^2(x/2) where it is small, C's cos past pi/4. */
EW_FN double ew_cosm1_d(double x)
{
    double s;
    if (fabs(x) > EW_PI / 4)
        return cos(x) - 1;
    s = sin(0.5 * x);
    return 0 - 2 * s * s; /* +0 at 0, as SciPy's */
}

/* -x log x, 0 at 0, -inf below. */
EW_FN double ew_entr_d(double x)
{
    if (x != x)
        return x;
    if (x > 0)
        return -x * log(x);
    return x == 0 ? 0 : -ew_inf_f64();
}

/* log(x / y) for x, y > 0, through log1p of the exact difference when
 * they are within a factor of 2 (the quotient's rounding would cost
 * digits near 0). */
EW_FN double ew_log_ratio_d(double x, double y)
{
    double r = x / y;
    if (r == 0 || r == ew_inf_f64())
        return log(x) - log(y); /* the quotient left the range */
    return r > 0.5 && r < 2 ? log1p((x - y) / y) : log(r);
}

/* x log(x / y), 0 for x = 0 <= y, inf off the domain; NaN in, NaN out. */
EW_FN double ew_rel_entr_d(double x, double y)
{
    if (x != x || y != y)
        return ew_inf_f64() * 0;
    if (x > 0 && y > 0)
        return x * ew_log_ratio_d(x, y);
    return x == 0 && y >= 0 ? 0 : ew_inf_f64();
}

/* x log(x / y) - x + y, as rel_entr's domain; inf - inf gives SciPy's
 * NaNs at the infinities. */
EW_FN double ew_kl_div_d(double x, double y)
{
    if (x != x || y != y)
        return ew_inf_f64() * 0;
    if (x > 0 && y > 0) {
        double u = (x - y) / y, p = -u, s = 0, t;
        int k;
        if (fabs(u) >= 0.1)
            return x * log(x / y) - x + y; /* SciPy's inf where x/y is */
        /* y ((1 + u) log1p(u) - u) = y sum (-1)^k u^k / (k (k - 1)) */
        for (k = 2; k < 40; k++) {
            p *= -u;
            t = p / (k * (k - 1.0));
            s += t;
            if (fabs(t) <= 1e-17 * fabs(s))
                break;
        }
        return y * s;
    }
    return x == 0 && y >= 0 ? y : ew_inf_f64();
}

EW_FN double ew_huber_d(double d, double r)
{
    if (d < 0)
        return ew_inf_f64();
    r = fabs(r);
    return r <= d ? 0.5 * r * r : d * (r - 0.5 * d);
}

/* d^2 (sqrt(1 + (r/d)^2) - 1), the root's excess through expm1 and log1p
 * so small ratios keep their digits; 0 when d or r is 0. */
EW_FN double ew_pseudo_huber_d(double d, double r)
{
    double u;
    if (d < 0)
        return ew_inf_f64();
    if (d == 0 || r == 0)
        return 0;
    u = r / d;
    return d * d * expm1(0.5 * log1p(u * u));
}

/* (x^l - 1) / l, log x at l = 0 (and below SciPy's 1e-19). */
EW_FN double ew_boxcox_d(double x, double l)
{
    double lx = log(x);
    if (fabs(l) < 1e-19)
        return lx;
    return expm1(l * lx) / l;
}

/* ((1 + x)^l - 1) / l; log1p(x) where l or log1p(x) is below SciPy's
 * cut-offs (the quotient would be lost to rounding). */
EW_FN double ew_boxcox1p_d(double x, double l)
{
    double lx = log1p(x);
    if (fabs(l) < 1e-19 || (fabs(lx) < 1e-289 && fabs(l) < 1e273))
        return lx;
    return expm1(l * lx) / l;
}

EW_FN double ew_inv_boxcox_d(double y, double l)
{
    if (l == 0)
        return exp(y);
    return exp(log1p(l * y) / l);
}

/* SciPy answers y itself once |l y| < 1e-154, the first term of
 * expm1(log1p(l y) / l) when l is small against 1/y. */
EW_FN double ew_inv_boxcox1p_d(double y, double l)
{
    double ly = l * y;
    if (l == 0)
        return expm1(y);
    if (fabs(ly) < 1e-154)
        return y;
    return expm1(log1p(ly) / l);
}

/* e^(x^2) with x^2 split into its rounded value and the rounding error
 * (an fma), so large x keep every digit of the exponent. */
EW_FN double ew_expx2_d(double x)
{
    double h = x * x, l = fma(x, x, -h);
    return exp(h) * (1 + l);
}

/* erfcx(x) = e^(x^2) erfc(x) for x >= 0: the product up to 25, past it
 * the asymptotic series 1/(x sqrt pi) sum (-1)^k (2k-1)!! / (2x^2)^k. */
EW_FN double ew_erfcx_pos_d(double x)
{
    double s = 1, t = 1, y;
    int k;
    if (x < 25)
        return ew_expx2_d(x) * erfc(x);
    if (x > 1e8)
        return 1 / (x * EW_SQRTPI);
    y = 0.5 / (x * x);
    for (k = 1; k < 30; k++) {
        t *= -(2 * k - 1) * y;
        s += t;
    }
    return s / (x * EW_SQRTPI);
}

/* Below 0, 2 e^(x^2) - erfcx(-x). */
EW_FN double ew_erfcx_d(double x)
{
    if (x != x)
        return x;
    if (x >= 0)
        return ew_erfcx_pos_d(x);
    if (x < -26.7)
        return ew_inf_f64();
    return 2 * ew_expx2_d(x) - ew_erfcx_pos_d(-x);
}

/* erfi(x) = -i erf(ix) = 2/sqrt(pi) sum x^(2k+1) / (k! (2k+1)) below 6,
 * all terms of one sign; past it e^(x^2)/(x sqrt pi) times the
 * asymptotic sum (2k-1)!! / (2x^2)^k, whose smallest term there is near
 * e^-36. */
EW_FN double ew_erfi_d(double x)
{
    double a = fabs(x), s, t, y, r;
    int k;
    if (x != x)
        return x;
    if (a > 26.7)
        return x > 0 ? ew_inf_f64() : -ew_inf_f64();
    y = a * a;
    if (a < 6) {
        s = t = a;
        for (k = 1; k < 500; k++) {
            t *= y / k;
            s += t / (2 * k + 1);
            if (t < 1e-17 * s)
                break;
        }
        r = 2 / EW_SQRTPI * s;
    } else {
        s = t = 1;
        for (k = 1; k < 40; k++) {
            t *= (2 * k - 1) * 0.5 / y;
            s += t;
            if (t < 1e-17 * s)
                break;
        }
        r = ew_expx2_d(a) * (s / (a * EW_SQRTPI));
    }
    return copysign(r, x);
}

/* log of the normal distribution function: log1p(-ndtr(-x)) above 0,
 * and below it log(erfcx(-x/sqrt 2) / 2) - x^2/2, which neither
 * underflows nor cancels. */
EW_FN double ew_log_ndtr_d(double x)
{
    double t = x * 0.707106781186547524400844362104849;
    if (x != x)
        return x;
    if (x > 0)
        return log1p(-0.5 * erfc(t));
    if (x == -ew_inf_f64())
        return x;
    return log(0.5 * ew_erfcx_d(-t)) - t * t;
}

/* d/dx log ndtr(x) = phi(x) / ndtr(x) = sqrt(2/pi) / erfcx(-x/sqrt 2). */
EW_FN double ew_log_ndtr_slope_d(double x)
{
    return 0.797884560802865355879892119868763737 /
           ew_erfcx_d(-x * 0.707106781186547524400844362104849);
}

/* ndtri(exp(y)): sqrt 2 erfcinv of the complementary probability
 * -expm1(y) above -ln 2 (so p near 1 keeps its digits), -sqrt 2
 * erfcinv(2 e^y) down to -700, and below (e^y is subnormal there) Newton
 * on log_ndtr(x) = y from the tail's asymptotic x = -sqrt(-2y - log(-4 pi
 * y)). */
EW_FN double ew_ndtri_exp_d(double y)
{
    double x, f;
    int k;
    if (y != y || y > 0)
        return ew_inf_f64() * 0;
    if (y == 0)
        return ew_inf_f64();
    if (y == -ew_inf_f64())
        return y;
    if (y > -EW_LN2)
        return 1.41421356237309504880168872420969808 * erfcinv(-2 * expm1(y));
    if (y > -700)
        return 0 - 1.41421356237309504880168872420969808 * erfcinv(2 * exp(y));
    x = -sqrt(-2 * y - log(-4 * EW_PI * y));
    for (k = 0; k < 8; k++) {
        f = ew_log_ndtr_d(x) - y;
        x -= f / ew_log_ndtr_slope_d(x);
    }
    return x;
}

/* The Stirling correction log Gamma(x) - ((x - 1/2) log x - x + log
 * sqrt(2 pi)) for x >= 10: sum B_2k / (2k (2k-1) x^(2k-1)), 8 terms. */
EW_FN double ew_lgam_corr_d(double x)
{
    double t = 1 / (x * x);
    return (1.0 / 12 - t * (1.0 / 360 - t * (1.0 / 1260 - t * (1.0 / 1680 -
            t * (1.0 / 1188 - t * (691.0 / 360360 - t * (1.0 / 156 -
            t * 3617.0 / 122400))))))) / x;
}

/* log(Gamma(a) / Gamma(b)) for a, b >= 10 by Stirling's series, the
 * large parts as (b - 1/2) log1p((a - b)/b) + (a - b) (log a - 1), so a
 * ratio of nearby arguments keeps its digits. */
EW_FN double ew_lgam_ratio_d(double a, double b)
{
    double m = a - b;
    return (b - 0.5) * log1p(m / b) + m * (log(a) - 1) + ew_lgam_corr_d(a) -
           ew_lgam_corr_d(b);
}

EW_FN int ew_is_npint_d(double x) { return x <= 0 && x == floor(x); }

/* The sign of Gamma(x), SciPy's: +1 at +0 and -1 at -0, NaN at the
 * negative integers and -inf. */
EW_FN double ew_gammasgn_d(double x)
{
    if (x != x)
        return x;
    if (x == 0)
        return ew_f64_bits(x) >> 63 ? -1 : 1;
    if (x > 0)
        return 1;
    if (x == floor(x))
        return ew_inf_f64() * 0;
    return fmod(floor(x), 2.0) == 0 ? 1 : -1;
}

/* 1 / Gamma(x): 0 at the poles and infinities. */
EW_FN double ew_rgamma_d(double x)
{
    double g;
    if (x != x)
        return x;
    if (x == 0)
        return x; /* 1/Gamma(-0) = 1/-inf */
    if (ew_is_npint_d(x) || ew_fisinf_f64(x))
        return 0;
    if (x > 171.6)
        return exp(-EW_LGAMMA(, x));
    if (x < -170)
        return ew_gammasgn_d(x) * exp(-EW_LGAMMA(, x));
    g = tgamma(x);
    return 1 / g;
}

/* Gamma(z + m) / Gamma(z), the rising factorial: Gamma's quotient where
 * both are finite and not poles, the product for a whole m up to 60
 * (which also gives the quotient of two poles), Stirling's ratio for
 * large positive arguments, and the reflection below. */
EW_FN double ew_poch_d(double z, double m)
{
    double r = 1, a;
    int k, n;
    /* SciPy's: 1 for m = 0 whatever z, 0 for a pole z with any m; at
     * z = +inf the limits (0 below m = 0, inf above), at -inf NaN */
    if (m == 0)
        return 1;
    if (z != z)
        return z;
    if (m != m)
        return ew_is_npint_d(z) ? 0 : m;
    if (ew_fisinf_f64(m))
        return ew_is_npint_d(z) ? 0
               : m > 0          ? ew_gammasgn_d(z) * m
                                : ew_inf_f64() * 0;
    if (ew_fisinf_f64(z))
        return z < 0 ? ew_inf_f64() * 0 : m > 0 ? z : 0;
    if (m == floor(m) && fabs(m) <= 60) {
        n = (int)fabs(m);
        if (m > 0) {
            for (k = 0; k < n; k++)
                r *= z + k;
            return r;
        }
        for (k = 1; k <= n; k++)
            r *= z - k;
        return r == 0 ? ew_inf_f64() : 1 / r;
    }
    a = z + m;
    if (ew_is_npint_d(a) && ew_is_npint_d(z)) {
        if (m != floor(m))
            return ew_inf_f64() * 0; /* z + m rounded onto a pole */
        /* both poles: the limit (-1)^m Gamma(1 - z) / Gamma(1 - a) */
        r = 1 - z < 170 ? tgamma(1 - z) / tgamma(1 - a)
                        : exp(EW_LGAMMA(, 1 - z) - EW_LGAMMA(, 1 - a));
        return fmod(m, 2.0) != 0 ? -r : r;
    }
    if (ew_is_npint_d(a))
        return ew_inf_f64();
    if (ew_is_npint_d(z))
        return 0;
    if (z > 0 && a > 0) {
        if (z < 170 && a < 170)
            return tgamma(a) / tgamma(z);
        if (z >= 10 && a >= 10)
            return exp(ew_lgam_ratio_d(a, z));
    }
    /* the signs of both gammas, the sizes through lgamma */
    r = exp(EW_LGAMMA(, a) - EW_LGAMMA(, z));
    if (a < 0 && fmod(floor(a), 2.0) != 0)
        r = -r;
    if (z < 0 && fmod(floor(z), 2.0) != 0)
        r = -r;
    return r;
}

/* binom(n, k) = Gamma(n + 1) / (Gamma(k + 1) Gamma(n - k + 1)) for real
 * n and k: the product (n - k + 1) ... n / k! for a whole k below 20
 * (after k -> n - k for a whole n, so integer answers come out exact;
 * SciPy's rule, which leaves |n| <= 1e-8 to the general case), else
 * poch(n - k + 1, k) / Gamma(k + 1), through logarithms where that
 * would overflow on the way; SciPy's NaN for a negative whole n. */
EW_FN double ew_binom_d(double n, double k)
{
    double kx = floor(k), r = 1, nx = floor(n), g, a = n - k + 1;
    int i, m;
    if (n != n || k != k)
        return n + k;
    if (n < 0 && n == nx)
        return ew_inf_f64() * 0;
    if (k == kx && (fabs(n) > 1e-8 || n == 0)) {
        if (n == nx && n > 0 && kx > 0.5 * n)
            kx = n - kx;
        if (kx >= 0 && kx < 20) {
            m = (int)kx;
            for (i = 1; i <= m; i++)
                r *= (n - kx + i) / i;
            return r;
        }
    }
    if (ew_is_npint_d(k + 1) || ew_is_npint_d(a))
        return 0;
    if (k + 1 < 171.6) {
        g = ew_poch_d(a, k);
        if (ew_fisfinite_f64(g))
            return g * ew_rgamma_d(k + 1);
    }
    if (a >= 10 && k + 1 >= 10)
        return exp(ew_lgam_ratio_d(n + 1, a) - EW_LGAMMA(, k + 1));
    return ew_gammasgn_d(n + 1) * ew_gammasgn_d(k + 1) * ew_gammasgn_d(a) *
           exp(EW_LGAMMA(, n + 1) - EW_LGAMMA(, k + 1) - EW_LGAMMA(, a));
}

/* E_n(x), the exponential integral of whole order n >= 0 (the float
 * loops truncate n): e^-x / x for n = 0; for x > 1 the continued fraction
 * e^-x / (x + n - 1 n / (x + n + 2 - 2 (n + 1) / (x + n + 4 - ...)))
 * by Lentz's method; below, the power series with its psi(n) term. */
EW_FN double ew_expn_d(double nd, double x)
{
    double b, c, d, h, del, an, fact, psi, r;
    int i, k, n;
    if (nd != nd || x != x)
        return nd + x;
    /* the float loops cast n to a C int, as SciPy's do */
    nd = trunc(nd);
    if (nd < 0 || x < 0 || nd > 2147483647.0)
        return ew_inf_f64() * 0;
    if (x == ew_inf_f64())
        return 0;
    if (x == 0)
        return nd < 2 ? ew_inf_f64() : 1 / (floor(nd) - 1);
    n = (int)nd;
    if (n == 0)
        return exp(-x) / x;
    if (x > 1) {
        b = x + n;
        c = 1 / EW_BESSEL_TINY;
        d = 1 / b;
        h = d;
        for (i = 1; i < 100000; i++) {
            an = -(double)i * (n - 1 + i);
            b += 2;
            d = 1 / (an * d + b);
            c = b + an / c;
            del = c * d;
            h *= del;
            if (fabs(del - 1) < 1e-16)
                break;
        }
        return h * exp(-x);
    }
    r = n - 1 != 0 ? 1.0 / (n - 1) : -log(x) - EW_EULER;
    fact = 1;
    for (i = 1; i < 1000; i++) {
        fact *= -x / i;
        if (i != n - 1)
            del = -fact / (i - n + 1);
        else {
            psi = -EW_EULER;
            for (k = 1; k < n; k++)
                psi += 1.0 / k;
            del = fact * (-log(x) + psi);
        }
        r += del;
        if (fabs(del) < fabs(r) * 1e-17)
            break;
    }
    return r;
}

EW_FN double ew_expn_i64_f64(ew_i64 n, double x)
{
    return n < 0 ? (x != x ? x : ew_inf_f64() * 0) : ew_expn_d((double)n, x);
}

/* Ei(x) = gamma + log x + sum x^k / (k k!) up to 40 (one sign for x > 0),
 * past it e^x / x times the asymptotic sum k! / x^k; -E_1(-x) below 0. */
EW_FN double ew_expi_d(double x)
{
    double s = 0, t = 1;
    int k;
    if (x != x)
        return x;
    if (x == 0)
        return -ew_inf_f64();
    if (x < 0)
        return -ew_expn_d(1, -x);
    if (x == ew_inf_f64())
        return x;
    if (x <= 40) {
        for (k = 1; k < 500; k++) {
            t *= x / k;
            s += t / k;
            if (t < 1e-17 * s * k)
                break;
        }
        return EW_EULER + log(x) + s;
    }
    s = t = 1;
    for (k = 1; k < 60; k++) {
        t *= k / x;
        if (t < 1e-17 * s)
            break;
        s += t;
    }
    return ew_exp_scaled_d(s / x, x, 0);
}

EW_FN double ew_exp1_d(double x)
{
    if (x != x || x < 0)
        return ew_inf_f64() * 0;
    return ew_expn_d(1, x);
}

/* e^-|x| I_0(x) (nu = 0) or e^-|x| I_1(x) (nu = 1): the power series (all
 * terms positive) up to 20, past it the asymptotic series of
 * 1/sqrt(2 pi x), whose smallest term there is below e^-40. */
EW_FN double ew_ie_d(double x, int nu)
{
    double a = fabs(x), s = 1, t = 1, y, r, mu = 4.0 * nu * nu;
    int k;
    if (a != a)
        return x;
    if (a == ew_inf_f64())
        return nu && x < 0 ? -0.0 : 0;
    if (a <= 20) {
        y = 0.25 * a * a;
        for (k = 1; k < 200 && t > 1e-17 * s; k++) {
            t *= y / ((double)k * (k + nu));
            s += t;
        }
        r = (nu ? 0.5 * a * s : s) * exp(-a);
    } else {
        for (k = 1; k < 60 && fabs(t) > 1e-17; k++) {
            t *= -(mu - (2.0 * k - 1) * (2.0 * k - 1)) / (8.0 * k * a);
            s += t;
        }
        r = s / sqrt(2 * EW_PI * a);
    }
    return nu && x < 0 ? -r : r;
}

/* e^x K_nu(x) (scaled) or K_nu(x), nu = 0 or 1: the Bessel core below 25
 * (times e^x for the scaled ones), past it Hankel's expansion of
 * sqrt(pi / 2x) sum prod (4 nu^2 - (2j-1)^2) / (k! (8x)^k). SciPy's inf
 * at 0 and NaN below. */
EW_FN double ew_kn01_d(double x, int nu, int scaled)
{
    double i, k, s = 1, t = 1, mu = 4.0 * nu * nu;
    int j;
    if (x != x)
        return x;
    if (x < 0)
        return ew_inf_f64() * 0;
    if (x == 0)
        return ew_inf_f64();
    if (x == ew_inf_f64())
        return 0;
    if (x < 25) {
        ew_bessel_ik_d((double)nu, x, &i, &k);
        return scaled ? k * exp(x) : k;
    }
    for (j = 1; j < 60 && fabs(t) > 1e-17; j++) {
        t *= (mu - (2.0 * j - 1) * (2.0 * j - 1)) / (8.0 * j * x);
        s += t;
    }
    s *= sqrt(EW_PI / (2 * x));
    return scaled ? s : ew_exp_scaled_d(s, -x, 0);
}

/* log(x^a e^-x / Gamma(a)), the incomplete gamma functions' prefactor:
 * for a >= 10 Stirling's form log sqrt(a / 2 pi) + a (log1p(t) - t) -
 * corr(a), t = (x - a)/a, whose large terms cancel analytically. */
EW_FN double ew_igam_lfac_d(double a, double x)
{
    double t, l;
    if (a < 10)
        return a * log(x) - x - EW_LGAMMA(, a);
    t = (x - a) / a;
    if (fabs(t) < 0.25) {
        /* log1p(t) - t by its series, which starts at t^2 */
        double p = t, s = 0;
        int k;
        for (k = 2; k < 60; k++) {
            p *= -t;
            s += p / k;
            if (fabs(p) < 1e-17 * fabs(s))
                break;
        }
        l = s;
    } else {
        l = log(x / a) - t;
    }
    return 0.5 * log(a / (2 * EW_PI)) + a * l - ew_lgam_corr_d(a);
}

/* x^a e^-x / Gamma(a): pow, exp and tgamma each to an ulp or so where
 * none of them leaves the range (the logarithm's route multiplies its
 * rounding by the size of the exponent), else through the logarithm. */
EW_FN double ew_igam_fac_d(double a, double x)
{
    double px, ex;
    if (a < 170 && x < 700) {
        px = pow(x, a);
        ex = exp(-x);
        if (px < 1e300 && px > 1e-300 && ex > 1e-300)
            return px * ex / tgamma(a);
    }
    return exp(ew_igam_lfac_d(a, x));
}

/* log Gamma(1 + a) for |a| <= 0.2: -gamma a + sum (-1)^k zeta(k) a^k / k
 * (Abramowitz and Stegun 6.1.33), free of the rounding of 1 + a. */
EW_FN double ew_lgamma1p_small_d(double a)
{
    double s = 0, p = -a, t;
    int k;
    for (k = 2; k < 40; k++) {
        p *= -a;
        t = ew_riemann_zeta_d((double)k) * p / k;
        s += t;
        if (fabs(t) <= 1e-17 * fabs(s))
            break;
    }
    return s - EW_EULER * a;
}

/* Q(a, x) for a < 0.2 and x < a + 1, where 1 - P would cancel: from
 * gamma(a, x) = sum (-1)^k x^(a+k) / (k! (a + k)), Q = -expm1(a log x -
 * log Gamma(1 + a)) - x^a / Gamma(1 + a) a sum_(k >= 1) (-x)^k /
 * (k! (a + k)). */
EW_FN double ew_igamc_small_d(double a, double x)
{
    double e = a * log(x) - ew_lgamma1p_small_d(a), s = 0, p = 1, t;
    int k;
    for (k = 1; k < 200; k++) {
        p *= -x / k;
        t = p / (a + k);
        s += t;
        if (fabs(t) <= 1e-17 * fabs(s))
            break;
    }
    return -expm1(e) - exp(e) * a * s;
}

/* The regularized incomplete gamma functions P(a, x) (upper = 0) and
 * Q(a, x) (upper = 1): the series x^a e^-x / Gamma(a + 1) sum x^k /
 * ((a + 1) ... (a + k)) for x < a + 1, else the continued fraction for Q
 * (Lentz's method); the other as one minus it. SciPy's domain: NaN for a
 * or x below 0 and at a = x = 0; P(0, x > 0) = 1. */
/* One step of Lentz's method for a continued fraction's next term
 * an / (bn + ...): c and d updated (kept off zero), and the factor the
 * running value is multiplied by returned. */
EW_FN double ew_lentz_d(double an, double bn, double *c, double *d)
{
    *d = an * *d + bn;
    if (fabs(*d) < EW_BESSEL_TINY)
        *d = EW_BESSEL_TINY;
    *c = bn + an / *c;
    if (fabs(*c) < EW_BESSEL_TINY)
        *c = EW_BESSEL_TINY;
    *d = 1 / *d;
    return *d * *c;
}

EW_FN double ew_igam_d(double a, double x, int upper)
{
    double p, s, t, b, c, d, h, an, del;
    int k;
    if (a != a || x != x)
        return a + x;
    if (a < 0 || x < 0 || (a == 0 && x == 0))
        return ew_inf_f64() * 0;
    if (a == 0)
        return upper ? 0 : 1;
    if (x == 0)
        return upper ? 1 : 0;
    if (ew_fisinf_f64(a))
        return ew_fisinf_f64(x) ? ew_inf_f64() * 0 : upper ? 1 : 0;
    if (ew_fisinf_f64(x))
        return upper ? 0 : 1;
    if (upper && x < a + 1 && a < 0.2)
        return ew_igamc_small_d(a, x);
    if (x < a + 1) {
        s = t = 1;
        for (k = 1; k < 100000; k++) {
            t *= x / (a + k);
            s += t;
            if (t < 1e-17 * s)
                break;
        }
        p = ew_igam_fac_d(a, x) / a * s;
        return upper ? 1 - p : p;
    }
    b = x + 1 - a;
    c = 1 / EW_BESSEL_TINY;
    d = 1 / b;
    h = d;
    for (k = 1; k < 100000; k++) {
        an = -(double)k * (k - a);
        b += 2;
        del = ew_lentz_d(an, b, &c, &d);
        h *= del;
        if (fabs(del - 1) < 1e-16)
            break;
    }
    p = ew_igam_fac_d(a, x) * h;
    return upper ? p : 1 - p;
}

/* zeta(x) - 1: for x > 1 the sum over k >= 2 of k^-x (directly from 30,
 * before as Hurwitz's zeta(x, 2)), so no digit goes to the 1; below 1
 * the Riemann zeta less 1. */
EW_FN double ew_zetac_d(double x)
{
    double s = 0, t;
    int k;
    if (x != x || x == -ew_inf_f64())
        return ew_inf_f64() * 0;
    if (x == 1)
        return ew_inf_f64();
    if (x < 1)
        return ew_riemann_zeta_d(x) - 1;
    if (x < 30)
        return ew_zeta_em_d(x, 2); /* Hurwitz's zeta(x, 2), no 1 - 1 */
    for (k = 2; k < 60; k++) {
        t = pow((double)k, -x);
        s += t;
        if (t < 1e-17 * s)
            break;
    }
    return s;
}

/* The Poisson distribution function sum_{j <= k} e^-m m^j / j! =
 * Q(floor(k) + 1, m) and its complement P(floor(k) + 1, m); SciPy's
 * NaN for k or m below 0. */
EW_FN double ew_pdtr_d(double k, double m, int upper)
{
    /* SciPy's order: pdtr(nan, 0) is 1 */
    if (m != m || k < 0 || m < 0)
        return ew_inf_f64() * 0;
    if (m == 0)
        return upper ? 0 : 1;
    return ew_igam_d(floor(k) + 1, m, !upper);
}

/* The chi-square distribution function P(v/2, x/2) and its complement;
 * NaN for x below 0. */
EW_FN double ew_chdtr_d(double v, double x, int upper)
{
    if (x < 0)
        return ew_inf_f64() * 0;
    return ew_igam_d(0.5 * v, 0.5 * x, upper);
}

#define EW_SCIPY_MORE_OPS(S, T)                                               \
    EW_FN T ew_exp10_##S(T a) { return (T)pow(10.0, (double)a); }             \
    EW_FN T ew_cosm1_##S(T a) { return (T)ew_cosm1_d((double)a); }           \
    EW_FN T ew_round_##S(T a) { return (T)ew_sp_round_d((double)a); }        \
    EW_FN T ew_sindg_##S(T a) { return (T)ew_sindg_d((double)a); }           \
    EW_FN T ew_cosdg_##S(T a) { return (T)ew_cosdg_d((double)a); }           \
    EW_FN T ew_tandg_##S(T a) { return (T)ew_tancotdg_d((double)a, 0); }     \
    EW_FN T ew_cotdg_##S(T a) { return (T)ew_tancotdg_d((double)a, 1); }     \
    EW_FN T ew_entr_##S(T a) { return (T)ew_entr_d((double)a); }             \
    EW_FN T ew_rel_entr_##S(T x, T y) { return (T)ew_rel_entr_d(x, y); }     \
    EW_FN T ew_kl_div_##S(T x, T y) { return (T)ew_kl_div_d(x, y); }         \
    EW_FN T ew_huber_##S(T d, T r) { return (T)ew_huber_d(d, r); }           \
    EW_FN T ew_pseudo_huber_##S(T d, T r) { return (T)ew_pseudo_huber_d(d, r); } \
    EW_FN T ew_boxcox_##S(T x, T l) { return (T)ew_boxcox_d(x, l); }         \
    EW_FN T ew_boxcox1p_##S(T x, T l) { return (T)ew_boxcox1p_d(x, l); }     \
    EW_FN T ew_inv_boxcox_##S(T y, T l) { return (T)ew_inv_boxcox_d(y, l); } \
    EW_FN T ew_inv_boxcox1p_##S(T y, T l) { return (T)ew_inv_boxcox1p_d(y, l); } \
    EW_FN T ew_erfcx_##S(T a) { return (T)ew_erfcx_d((double)a); }           \
    EW_FN T ew_erfi_##S(T a) { return (T)ew_erfi_d((double)a); }             \
    EW_FN T ew_log_ndtr_##S(T a) { return (T)ew_log_ndtr_d((double)a); }     \
    EW_FN T ew_ndtri_exp_##S(T a) { return (T)ew_ndtri_exp_d((double)a); }   \
    EW_FN T ew_binom_##S(T n, T k) { return (T)ew_binom_d(n, k); }           \
    EW_FN T ew_poch_##S(T z, T m) { return (T)ew_poch_d(z, m); }             \
    EW_FN T ew_expn_##S(T n, T x) { return (T)ew_expn_d(n, x); }             \
    EW_FN T ew_exp1_##S(T a) { return (T)ew_exp1_d((double)a); }             \
    EW_FN T ew_expi_##S(T a) { return (T)ew_expi_d((double)a); }             \
    EW_FN T ew_i0e_##S(T a) { return (T)ew_ie_d((double)a, 0); }             \
    EW_FN T ew_i1e_##S(T a) { return (T)ew_ie_d((double)a, 1); }             \
    EW_FN T ew_k0_##S(T a) { return (T)ew_kn01_d((double)a, 0, 0); }         \
    EW_FN T ew_k0e_##S(T a) { return (T)ew_kn01_d((double)a, 0, 1); }        \
    EW_FN T ew_k1_##S(T a) { return (T)ew_kn01_d((double)a, 1, 0); }         \
    EW_FN T ew_k1e_##S(T a) { return (T)ew_kn01_d((double)a, 1, 1); }        \
    EW_FN T ew_gammainc_##S(T a, T x) { return (T)ew_igam_d(a, x, 0); }      \
    EW_FN T ew_gammaincc_##S(T a, T x) { return (T)ew_igam_d(a, x, 1); }     \
    EW_FN T ew_gammasgn_##S(T a) { return (T)ew_gammasgn_d((double)a); }     \
    EW_FN T ew_rgamma_##S(T a) { return (T)ew_rgamma_d((double)a); }         \
    EW_FN T ew_zetac_##S(T a) { return (T)ew_zetac_d((double)a); }           \
    EW_FN T ew_pdtr_##S(T k, T m) { return (T)ew_pdtr_d(k, m, 0); }          \
    EW_FN T ew_pdtrc_##S(T k, T m) { return (T)ew_pdtr_d(k, m, 1); }         \
    EW_FN T ew_chdtr_##S(T v, T x) { return (T)ew_chdtr_d(v, x, 0); }        \
    EW_FN T ew_chdtrc_##S(T v, T x) { return (T)ew_chdtr_d(v, x, 1); }
#else
#define EW_SCIPY_MORE_OPS(S, T)
#endif
EW_SCIPY_MORE_OPS(f32, float)
EW_SCIPY_MORE_OPS(f64, double)

/* ---- scipy.special's complete elliptic integrals and Student's t
 * distribution (the second tranche's tail), in double on both devices. */
#if defined(EW_CUDA) || defined(EMBER_HOST_PRELUDE_H)
/* The arithmetic-geometric mean of 1 and sqrt(p), p = 1 - m given
 * exactly (ellipkm1's argument): K(m) = pi / (2 AGM), and with esum the
 * Legendre sum sum 2^(n-1) c_n^2 (c_0^2 = m, c_n = (a_n-1 - b_n-1) / 2)
 * that gives E(m) = K(m) (1 - esum). */
EW_FN double ew_ellip_agm_d(double p, double *esum)
{
    double a = 1, b = sqrt(p), c, an, w = 1, s = 0.5 * (1 - p);
    int n;
    for (n = 0; n < 60; n++) {
        c = 0.5 * (a - b);
        an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
        s += w * c * c;
        w *= 2;
        if (fabs(c) <= 1e-17 * a)
            break;
    }
    *esum = s;
    return 0.5 * EW_PI / a;
}

/* K(1 - p): NaN below p = 0, inf at 0, 0 at +inf. */
EW_FN double ew_ellipkm1_d(double p)
{
    double s;
    if (p != p || p < 0)
        return ew_inf_f64() * 0;
    if (p == 0)
        return ew_inf_f64();
    if (p == ew_inf_f64())
        return 0;
    return ew_ellip_agm_d(p, &s);
}

/* K(m) = ellipkm1(1 - m); NaN past m = 1. */
EW_FN double ew_ellipk_d(double m)
{
    if (m > 1)
        return ew_inf_f64() * 0;
    return ew_ellipkm1_d(1 - m);
}

/* E(m) = K(m) (1 - esum) on [0, 1), 1 at m = 1; below 0 the imaginary
 * modulus transformation E(m) = sqrt(1 - m) E(m / (m - 1)). */
EW_FN double ew_ellipe_d(double m)
{
    double s, k, f = 1;
    if (m != m || m > 1)
        return ew_inf_f64() * 0;
    if (m == 1)
        return 1;
    if (m == -ew_inf_f64())
        return ew_inf_f64();
    if (m < 0) {
        /* m / (m - 1) is in (0, 1), and 1 minus it is 1 / (1 - m) */
        f = sqrt(1 - m);
        k = ew_ellip_agm_d(1 / (1 - m), &s);
        return f * k * (1 - s);
    }
    k = ew_ellip_agm_d(1 - m, &s);
    return k * (1 - s);
}

/* log B(a, 1/2) = log Gamma(a) + log sqrt(pi) - log Gamma(a + 1/2),
 * through Stirling's ratio for a >= 10 (no large logarithms cancel). */
EW_FN double ew_lbeta_half_d(double a)
{
    if (a >= 10)
        return 0.572364942924700087071713675676529356 -
               ew_lgam_ratio_d(a + 0.5, a);
    return EW_LGAMMA(, a) + 0.572364942924700087071713675676529356 -
           EW_LGAMMA(, a + 0.5);
}

/* The regularized incomplete beta I_x(a, 1/2) with y = 1 - x given
 * exactly, by its continued fraction (Lentz's method) where x < (a + 1)
 * / (a + 5/2), else 1 - I_y(1/2, a); the prefactor x^a y^(1/2) / (a
 * B(a, 1/2)) as one exponential, a log x as a log1p(-y). */
EW_FN double ew_ibeta_half_d(double a, double x, double y)
{
    double b = 0.5, aa, c, d, h, del, f, lx, ly, lb = ew_lbeta_half_d(a);
    int m, flip = 0;
    if (x >= (a + 1) / (a + b + 2)) {
        double t = a;
        a = b;
        b = t;
        t = x;
        x = y;
        y = t;
        flip = 1;
    }
    lx = x < 0.5 ? log(x) : log1p(-y);
    ly = y < 0.5 ? log(y) : log1p(-x);
    f = exp(a * lx + b * ly - lb) / a;
    c = 1;
    d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < EW_BESSEL_TINY)
        d = EW_BESSEL_TINY;
    d = 1 / d;
    h = d;
    for (m = 1; m < 10000; m++) {
        aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        h *= ew_lentz_d(aa, 1, &c, &d);
        aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        del = ew_lentz_d(aa, 1, &c, &d);
        h *= del;
        if (fabs(del - 1) < 1e-16)
            break;
    }
    return flip ? 1 - f * h : f * h;
}

/* Student's t distribution function with df degrees of freedom: for t <
 * 0, I_x(df/2, 1/2) / 2 with x = df / (df + t^2) (and 1 - x = t^2 / (df +
 * t^2) computed as such), the complement for t > 0; ndtr at df = inf;
 * SciPy's NaN for df <= 0. */
EW_FN double ew_stdtr_d(double df, double t)
{
    double q, x, y, p;
    if (df != df || t != t || df <= 0)
        return ew_inf_f64() * 0;
    if (t == 0)
        return 0.5;
    if (ew_fisinf_f64(t))
        return t > 0 ? 1 : 0;
    if (df == ew_inf_f64())
        return 0.5 * erfc(-t * 0.707106781186547524400844362104849);
    q = t * t;
    if (q > 1e300) {
        x = df / q;
        y = 1;
    } else {
        x = df / (df + q);
        y = q / (df + q);
    }
    p = 0.5 * ew_ibeta_half_d(0.5 * df, x, y);
    return t < 0 ? p : 1 - p;
}

/* The inverses of P(a, x) (upper = 0) and Q(a, x) (upper = 1) in x:
 * Newton's iteration on whichever of P = p and Q = q has the smaller
 * target, on its logarithm, which is linear in log x for P's tail (P ~
 * c x^a) and in x for Q's (Q ~ c x^(a-1) e^-x), so the tails take a few
 * steps; both with the derivative +-x^(a-1) e^-x / Gamma(a), inside the
 * root's bracket. The start: Wilson and Hilferty's cube x = a (1 - 1/(9a)
 * + z / sqrt(9a))^3 (z the normal quantile of p) for a > 1, below that P
 * ~ x^a / Gamma(a + 1) on the left and Q ~ e^-x x^(a-1) / Gamma(a) on
 * the right. SciPy's edges: NaN for a < 0, an infinite a or y outside
 * [0, 1]; 0 and inf at the ends; NaN at a = 0 between them. */
EW_FN double ew_igami_d(double a, double y, int upper)
{
    double p, q, x, f, d, t, lo = 0, hi = ew_inf_f64(), z, s;
    int k, left;
    if (a != a || y != y || a < 0 || y < 0 || y > 1 || ew_fisinf_f64(a))
        return ew_inf_f64() * 0;
    if (y == 0 || y == 1)
        return (y == 0) != (upper != 0) ? 0 : ew_inf_f64();
    if (a == 0)
        return ew_inf_f64() * 0;
    p = upper ? 1 - y : y;
    q = upper ? y : 1 - y;
    left = p <= 0.5; /* solve P = p, else Q = q */
    if (a > 1) {
        z = ew_ndtri_exp_d(left ? log(p) : log(q));
        z = left ? z : -z;
        s = 1 / (9 * a);
        t = 1 - s + z * sqrt(s);
        x = t > 0.05 ? a * t * t * t : a * 0.05 * 0.05 * 0.05;
    } else if (left) {
        x = exp((log(p) + EW_LGAMMA(, a + 1)) / a);
    } else {
        /* Q's tail past x = 1, else P's leading term for P = 1 - q */
        x = -log(q) - EW_LGAMMA(, a);
        x = x > 1 ? x + (a - 1) * log(x)
                  : exp((log1p(-q) + EW_LGAMMA(, a + 1)) / a);
    }
    if (!(x > 0))
        return 0; /* below the smallest double */
    for (k = 0; k < 200; k++) {
        f = ew_igam_d(a, x, !left);
        if (f == (left ? p : q))
            break;
        if (left ? f > p : f < q)
            hi = x;
        else
            lo = x;
        d = exp(ew_igam_lfac_d(a, x)) / x;
        if (left)
            t = x * exp(-log(f / p) * f / (x * d));
        else
            t = x + log(f / q) * f / d;
        /* a step out of the bracket (or a NaN one) halves it instead */
        if (!(t > lo && t < hi))
            t = hi == ew_inf_f64() ? 2 * x : lo == 0 ? 0.0625 * x
                                                     : 0.5 * (lo + hi);
        s = fabs(t - x);
        x = t;
        if (s <= 1e-14 * x)
            break;
    }
    return x;
}

#define EW_SCIPY_TAIL_OPS(S, T)                                               \
    EW_FN T ew_ellipk_##S(T a) { return (T)ew_ellipk_d((double)a); }         \
    EW_FN T ew_ellipkm1_##S(T a) { return (T)ew_ellipkm1_d((double)a); }     \
    EW_FN T ew_ellipe_##S(T a) { return (T)ew_ellipe_d((double)a); }         \
    EW_FN T ew_stdtr_##S(T df, T t) { return (T)ew_stdtr_d(df, t); }         \
    EW_FN T ew_gammaincinv_##S(T a, T y) { return (T)ew_igami_d(a, y, 0); }  \
    EW_FN T ew_gammainccinv_##S(T a, T y) { return (T)ew_igami_d(a, y, 1); }
#else
#define EW_SCIPY_TAIL_OPS(S, T)
#endif
EW_SCIPY_TAIL_OPS(f32, float)
EW_SCIPY_TAIL_OPS(f64, double)
#endif

/* @ew-section complex */
#ifndef EMBER_EWISE_OPS_COMPLEX
#define EMBER_EWISE_OPS_COMPLEX
/* ---- complex loops --------------------------------------------------- */

/* maximum, minimum, fmax and fmin of complex numbers: a when the operand
 * NANX is a NaN (a for maximum and minimum, which keep a NaN; b for fmax
 * and fmin, which drop one) or when LO <= HI, else b. */
#define EW_CPICK(NAME, S, C, NANX, LO, HI)                                    \
    EW_FN C ew_##NAME##_##S(C a, C b)                                         \
    {                                                                         \
        return (ew_cnan_##S(NANX) || ew_cle_##S(LO, HI)) ? a : b;             \
    }

/* NumPy orders complex numbers lexicographically; a NaN in an imaginary
 * part makes a strict real-part comparison false. */
#define EW_COMPLEX_OPS(S, C, T, F, R)                                         \
    EW_FN int ew_nz_##S(C a) { return a.re != 0 || a.im != 0; }               \
    EW_FN int ew_cnan_##S(C a) { return a.re != a.re || a.im != a.im; }       \
    EW_FN int ew_clt_##S(C a, C b)                                            \
    {                                                                         \
        return (a.re < b.re && a.im == a.im && b.im == b.im) ||               \
               (a.re == b.re && a.im < b.im);                                 \
    }                                                                         \
    EW_FN int ew_cle_##S(C a, C b)                                            \
    {                                                                         \
        return (a.re < b.re && a.im == a.im && b.im == b.im) ||               \
               (a.re == b.re && a.im <= b.im);                                \
    }                                                                         \
    EW_FN ew_b ew_equal_##S(C a, C b) { return a.re == b.re && a.im == b.im; } \
    EW_FN ew_b ew_not_equal_##S(C a, C b) { return a.re != b.re || a.im != b.im; } \
    EW_FN ew_b ew_less_##S(C a, C b) { return (ew_b)ew_clt_##S(a, b); }       \
    EW_FN ew_b ew_less_equal_##S(C a, C b) { return (ew_b)ew_cle_##S(a, b); } \
    EW_FN ew_b ew_greater_##S(C a, C b) { return (ew_b)ew_clt_##S(b, a); }    \
    EW_FN ew_b ew_greater_equal_##S(C a, C b) { return (ew_b)ew_cle_##S(b, a); } \
    EW_FN ew_b ew_logical_and_##S(C a, C b) { return ew_nz_##S(a) && ew_nz_##S(b); } \
    EW_FN ew_b ew_logical_or_##S(C a, C b) { return ew_nz_##S(a) || ew_nz_##S(b); } \
    EW_FN ew_b ew_logical_xor_##S(C a, C b) { return ew_nz_##S(a) != ew_nz_##S(b); } \
    EW_FN ew_b ew_logical_not_##S(C a) { return !ew_nz_##S(a); }             \
    EW_FN ew_b ew_isnan_##S(C a) { return (ew_b)ew_cnan_##S(a); }             \
    EW_FN ew_b ew_isinf_##S(C a)                                              \
    {                                                                         \
        return (ew_b)(ew_fisinf_##R(a.re) || ew_fisinf_##R(a.im));              \
    }                                                                         \
    EW_FN ew_b ew_isfinite_##S(C a)                                           \
    {                                                                         \
        return (ew_b)(ew_fisfinite_##R(a.re) && ew_fisfinite_##R(a.im));        \
    }                                                                         \
    EW_CPICK(maximum, S, C, a, b, a)                                          \
    EW_CPICK(minimum, S, C, a, a, b)                                          \
    EW_CPICK(fmax, S, C, b, b, a)                                             \
    EW_CPICK(fmin, S, C, b, a, b)                                             \
    EW_FN C ew_add_##S(C a, C b) { return ew_mk_##S(a.re + b.re, a.im + b.im); } \
    EW_FN C ew_subtract_##S(C a, C b) { return ew_mk_##S(a.re - b.re, a.im - b.im); } \
    EW_FN C ew_multiply_##S(C a, C b)                                         \
    {                                                                         \
        return ew_mk_##S(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); \
    }                                                                         \
    /* Smith's method: scale by the larger part of the divisor so the      */ \
    /* intermediate products neither overflow nor underflow needlessly.    */ \
    EW_FN C ew_true_divide_##S(C a, C b)                                      \
    {                                                                         \
        T ar = fabs##F(b.re), ai = fabs##F(b.im), rat, scl;                   \
        if (ar >= ai) {                                                       \
            if (ar == 0 && ai == 0)                                           \
                return ew_mk_##S(a.re / ar, a.im / ar);                       \
            rat = b.im / b.re;                                                \
            scl = (T)1 / (b.re + b.im * rat);                                 \
            return ew_mk_##S((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl); \
        }                                                                     \
        rat = b.re / b.im;                                                    \
        scl = (T)1 / (b.im + b.re * rat);                                     \
        return ew_mk_##S((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl); \
    }                                                                         \
    EW_FN C ew_negative_##S(C a) { return ew_mk_##S(-a.re, -a.im); }          \
    EW_FN C ew_positive_##S(C a) { return a; }                                \
    EW_FN C ew_conjugate_##S(C a) { return ew_mk_##S(a.re, -a.im); }          \
    EW_FN T ew_absolute_##S(C a) { return hypot##F(a.re, a.im); }             \
    EW_FN C ew_square_##S(C a) { return ew_multiply_##S(a, a); }              \
    /* Smith's method for 1/z; zero gives NaNs, as NumPy's loop does. */   \
    EW_FN C ew_reciprocal_##S(C a)                                            \
    {                                                                         \
        T r, d;                                                               \
        if (fabs##F(a.im) <= fabs##F(a.re)) {                                 \
            r = a.im / a.re;                                                  \
            d = a.re + a.im * r;                                              \
            return ew_mk_##S(1 / d, -r / d);                                  \
        }                                                                     \
        r = a.re / a.im;                                                      \
        d = a.re * r + a.im;                                                  \
        return ew_mk_##S(r / d, -1 / d);                                      \
    }                                                                         \
    EW_FN C ew_rint_##S(C a) { return ew_mk_##S(rint##F(a.re), rint##F(a.im)); } \
    /* z/|z|; infinite parts count as +-1, NaN anywhere gives NaN. */         \
    EW_FN C ew_sign_##S(C a)                                                  \
    {                                                                         \
        T qnan = ew_nan_##R(), m;                                             \
        int ir = ew_fisinf_##R(a.re), ii = ew_fisinf_##R(a.im);                 \
        if (ew_cnan_##S(a) || (ir && ii))                                     \
            return ew_mk_##S(qnan, qnan);                                       \
        if (ir)                                                               \
            return ew_mk_##S(a.re > 0 ? (T)1 : (T)-1, 0);                     \
        if (ii)                                                               \
            return ew_mk_##S(0, a.im > 0 ? (T)1 : (T)-1);                     \
        m = hypot##F(a.re, a.im);                                             \
        if (m == 0)                                                           \
            return ew_mk_##S(0, 0);                                           \
        return ew_mk_##S(a.re / m, a.im / m);                                 \
    }                                                                         \
    EW_FN C ew_exp_##S(C a)                                                   \
    {                                                                         \
        T e;                                                                  \
        if (a.im == 0)                                                        \
            return ew_mk_##S(exp##F(a.re), a.im);                             \
        if (!ew_fisfinite_##R(a.im) && ew_fisinf_##R(a.re))                     \
            return a.re < 0 ? ew_mk_##S(0, 0)                                 \
                            : ew_mk_##S(a.re, ew_nan_##R());                  \
        e = exp##F(a.re);                                                     \
        return ew_mk_##S(e * cos##F(a.im), e * sin##F(a.im));                 \
    }                                                                         \
    EW_FN C ew_log_##S(C a)                                                   \
    {                                                                         \
        return ew_mk_##S(log##F(hypot##F(a.re, a.im)), atan2##F(a.im, a.re)); \
    }                                                                         \
    EW_FN C ew_sqrt_##S(C a)                                                  \
    {                                                                         \
        T x = a.re, y = a.im, t, scale = 1;                                   \
        if (x == 0 && y == 0)                                                 \
            return ew_mk_##S(0, y);                                           \
        if (ew_fisinf_##R(y))                                                  \
            return ew_mk_##S(ew_inf_##R(), y);                                \
        if (x != x)                                                           \
            return ew_mk_##S(x, x);                                           \
        if (ew_fisinf_##R(x)) {                                                \
            if (x > 0)                                                        \
                return ew_mk_##S(x, y != y ? y : copysign##F((T)0, y));       \
            return ew_mk_##S(y != y ? y : (T)0, copysign##F(-x, y));          \
        }                                                                     \
        if (y != y)                                                           \
            return ew_mk_##S(y, y);                                           \
        /* |z| + |x| may overflow near the top of the range. */               \
        if (fabs##F(x) > EW_##R##_BIG || fabs##F(y) > EW_##R##_BIG) {                   \
            x *= (T)0.25;                                                     \
            y *= (T)0.25;                                                     \
            scale = 2;                                                        \
        }                                                                     \
        t = sqrt##F((fabs##F(x) + hypot##F(x, y)) * (T)0.5);                  \
        if (x >= 0)                                                           \
            return ew_mk_##S(t * scale, y / (2 * t) * scale);                 \
        return ew_mk_##S(fabs##F(y) / (2 * t) * scale, copysign##F(t, y) * scale); \
    }                                                                         \
    EW_FN C ew_cmul_real_##S(C a, T k) { return ew_mk_##S(a.re * k, a.im * k); } \
    EW_FN C ew_exp2_##S(C a)                                                  \
    {                                                                         \
        return ew_exp_##S(ew_cmul_real_##S(a, (T)EW_LN2));                   \
    }                                                                         \
    EW_FN C ew_log2_##S(C a)                                                  \
    {                                                                         \
        return ew_cmul_real_##S(ew_log_##S(a), (T)EW_LOG2E);                 \
    }                                                                         \
    EW_FN C ew_log10_##S(C a)                                                 \
    {                                                                         \
        return ew_cmul_real_##S(ew_log_##S(a), (T)EW_LOG10E);                \
    }                                                                         \
    /* exp(z) - 1 without cancellation: cos y - 1 = -2 sin^2(y/2). The    */ \
    /* branches give the Array API's (C99 Annex G's) special cases, where  */ \
    /* the formula would make inf * 0 a NaN.                               */ \
    EW_FN C ew_expm1_##S(C a)                                                 \
    {                                                                         \
        T x = a.re, y = a.im, s;                                              \
        if (y == 0)   /* exp(+-0) - 1 is +0 for complex z, unlike real -0. */ \
            return ew_mk_##S(x == 0 ? (T)0 : expm1##F(x), y);                 \
        if (ew_fisinf_##R(x)) {                                               \
            if (x < 0)                                                        \
                return ew_mk_##S((T)-1, ew_fisfinite_##R(y) ? 0 * sin##F(y) : (T)0); \
            if (ew_fisfinite_##R(y))                                          \
                return ew_mk_##S(x * cos##F(y), x * sin##F(y));               \
            return ew_mk_##S(x, y - y);                                       \
        }                                                                     \
        if (!ew_fisfinite_##R(x) || !ew_fisfinite_##R(y))                     \
            return ew_mk_##S((x - x) + (y - y), (x - x) + (y - y));           \
        s = sin##F(y * (T)0.5);                                               \
        return ew_mk_##S(expm1##F(x) * cos##F(y) - 2 * s * s, exp##F(x) * sin##F(y)); \
    }                                                                         \
    EW_FN C ew_log1p_##S(C a)                                                 \
    {                                                                         \
        return ew_log_##S(ew_mk_##S(a.re + 1, a.im));                         \
    }                                                                         \
    EW_FN C ew_sin_##S(C a)                                                   \
    {                                                                         \
        return ew_mk_##S(sin##F(a.re) * cosh##F(a.im), cos##F(a.re) * sinh##F(a.im)); \
    }                                                                         \
    EW_FN C ew_cos_##S(C a)                                                   \
    {                                                                         \
        return ew_mk_##S(cos##F(a.re) * cosh##F(a.im),                       \
                         -(sin##F(a.re) * sinh##F(a.im)));                    \
    }                                                                         \
    /* sinh and cosh: the product formulas for finite parts; the branches  */ \
    /* give the Array API's (C99 Annex G's) special cases, where the       */ \
    /* formulas would make inf * 0 a NaN (cosh(0 + i inf) = NaN + 0i).     */ \
    EW_FN C ew_sinh_##S(C a)                                                  \
    {                                                                         \
        T x = a.re, y = a.im;                                                 \
        if (y == 0)                                                           \
            return ew_mk_##S(sinh##F(x), y);                                  \
        if (ew_fisfinite_##R(x) && ew_fisfinite_##R(y))                       \
            return ew_mk_##S(sinh##F(x) * cos##F(y), cosh##F(x) * sin##F(y)); \
        if (x == 0)                                                           \
            return ew_mk_##S(x, y - y);                                       \
        if (ew_fisinf_##R(x))                                                 \
            return ew_fisfinite_##R(y)                                        \
                       ? ew_mk_##S(x * cos##F(y), fabs##F(x) * sin##F(y))     \
                       : ew_mk_##S(x, y - y);                                 \
        return ew_mk_##S((x - x) + (y - y), (x - x) + (y - y));               \
    }                                                                         \
    EW_FN C ew_cosh_##S(C a)                                                  \
    {                                                                         \
        T x = a.re, y = a.im;                                                 \
        if (y == 0)                                                           \
            return ew_mk_##S(cosh##F(x), copysign##F((T)0, x) * y);           \
        if (ew_fisfinite_##R(x) && ew_fisfinite_##R(y))                       \
            return ew_mk_##S(cosh##F(x) * cos##F(y), sinh##F(x) * sin##F(y)); \
        if (x == 0)                                                           \
            return ew_mk_##S(y - y, x);                                       \
        if (ew_fisinf_##R(x))                                                 \
            return ew_fisfinite_##R(y)                                        \
                       ? ew_mk_##S(fabs##F(x) * cos##F(y), x * sin##F(y))     \
                       : ew_mk_##S(fabs##F(x), y - y);                        \
        return ew_mk_##S((x - x) + (y - y), (x - x) + (y - y));               \
    }                                                                         \
    /* Kahan's formulation, which stays finite for large real parts. */       \
    EW_FN C ew_tanh_##S(C a)                                                  \
    {                                                                         \
        T x = a.re, y = a.im, t, beta, s, rho, den;                           \
        if (x != x)                                                           \
            return ew_mk_##S(x, y == 0 ? y : x);                              \
        /* the Array API's 1 + 0j for b > 0 (C99 gives the zero the sign */ \
        /* of sin(2b); by conjugate symmetry -0 for b < 0)                 */ \
        if (ew_fisinf_##R(x))                                                  \
            return ew_mk_##S(x > 0 ? (T)1 : (T)-1,                            \
                             copysign##F((T)0, ew_fisfinite_##R(y) ? y        \
                                                                    : (T)1)); \
        if (!ew_fisfinite_##R(y))   /* tanh(+-0 + i inf) = +-0 + i NaN */   \
            return ew_mk_##S(x == 0 ? x : y - y, y - y);                      \
        if (fabs##F(x) > EW_##R##_TANH_BIG) {                                      \
            T e = exp##F(-2 * fabs##F(x));                                    \
            return ew_mk_##S(x > 0 ? (T)1 : (T)-1, 4 * sin##F(y) * cos##F(y) * e); \
        }                                                                     \
        t = tan##F(y);                                                        \
        beta = 1 + t * t;                                                     \
        s = sinh##F(x);                                                       \
        rho = sqrt##F(1 + s * s);                                             \
        den = 1 + beta * s * s;                                               \
        return ew_mk_##S(beta * rho * s / den, t / den);                      \
    }                                                                         \
    /* tan z = -i tanh(i z). */                                               \
    EW_FN C ew_tan_##S(C a)                                                   \
    {                                                                         \
        C w = ew_tanh_##S(ew_mk_##S(-a.im, a.re));                            \
        return ew_mk_##S(w.im, -w.re);                                        \
    }                                                                         \
    /* Integer exponents below 100 by repeated squaring, as NumPy, so      */ \
    /* z**2 is z*z exactly; others through exp(b log a).                   */ \
    EW_FN C ew_power_##S(C a, C b)                                            \
    {                                                                         \
        if (b.re == 0 && b.im == 0)                                           \
            return ew_mk_##S(1, 0);                                           \
        if (a.re == 0 && a.im == 0) {                                         \
            if (b.re > 0)                                                     \
                return ew_mk_##S(0, 0);                                       \
            return ew_mk_##S(ew_nan_##R(), ew_nan_##R());                     \
        }                                                                     \
        if (b.im == 0 && fabs##F(b.re) < 100 && b.re == (T)(int)b.re) {       \
            int n = (int)b.re, m = n < 0 ? -n : n;                            \
            C r = ew_mk_##S(1, 0), p = a;                                     \
            while (m) {                                                       \
                if (m & 1)                                                    \
                    r = ew_multiply_##S(r, p);                                \
                p = ew_multiply_##S(p, p);                                    \
                m >>= 1;                                                      \
            }                                                                 \
            return n < 0 ? ew_reciprocal_##S(r) : r;                          \
        }                                                                     \
        return ew_exp_##S(ew_multiply_##S(b, ew_log_##S(a)));                 \
    }                                                                         \
    EW_FN C ew_float_power_##S(C a, C b) { return ew_power_##S(a, b); }

/* Past these |re| and |im|, complex sqrt scales its argument by 1/4. */
#define EW_f32_BIG 8.5e37f
#define EW_f64_BIG 4.4e307
/* tanh(x) is 1 in the type's precision beyond these. */
#define EW_f32_TANH_BIG 9.0f
#define EW_f64_TANH_BIG 22.0

EW_COMPLEX_OPS(c64, ew_c64, float, f, f32)
EW_COMPLEX_OPS(c128, ew_c128, double, , f64)

/* ---- complex inverse trigonometric and hyperbolic functions ----------- */

/* Finite arguments use Kahan's formulas ("Branch cuts for complex
 * elementary functions", 1987), built from principal square roots of
 * 1 - z and 1 + z formed part by part, so the sign of a zero imaginary
 * part picks the side of a branch cut exactly as C99 and NumPy do and
 * nothing cancels near the cuts or near 0. Infinite and NaN parts follow
 * C99 Annex G (what NumPy returns): the helpers take |x|, |y| and the
 * caller puts the signs back, as the functions are odd and commute with
 * conjugation. The other three follow from
 *   asin z = -i asinh(i z), atan z = -i atanh(i z),
 *   acosh z = +-i acos z (the sign that gives a non-negative real part). */
#define EW_COMPLEX_ATRIG(S, C, T, F, R)                                       \
    EW_FN int ew_cfinite_##S(C a)                                             \
    {                                                                         \
        return ew_fisfinite_##R(a.re) && ew_fisfinite_##R(a.im);              \
    }                                                                         \
    /* The sign bit (-0 included); the float section's signbit is not   */ \
    /* pasted into complex-only kernels.                                 */ \
    EW_FN int ew_neg_##S(T v) { return copysign##F((T)1, v) < 0; }            \
    /* Kahan's arcsin for finite z. */                                        \
    EW_FN C ew_casin_fin_##S(C z)                                             \
    {                                                                         \
        C p = ew_sqrt_##S(ew_mk_##S(1 - z.re, -z.im));                        \
        C q = ew_sqrt_##S(ew_mk_##S(1 + z.re, z.im));                         \
        return ew_mk_##S(atan2##F(z.re, p.re * q.re - p.im * q.im),          \
                         asinh##F(p.re * q.im - p.im * q.re));                \
    }                                                                         \
    /* asinh of a non-finite (|x|, |y|), signs put back by the caller. */     \
    EW_FN C ew_casinh_nf_##S(T x, T y)                                        \
    {                                                                         \
        T nan = ew_nan_##R(), inf = ew_inf_##R();                             \
        if (x != x)                                                           \
            return ew_fisinf_##R(y) ? ew_mk_##S(inf, nan)                     \
                                    : ew_mk_##S(nan, y == 0 ? y : nan);       \
        if (ew_fisinf_##R(x)) {                                               \
            if (y != y)                                                       \
                return ew_mk_##S(inf, nan);                                   \
            return ew_mk_##S(inf, ew_fisinf_##R(y) ? (T)0.785398163397448309616 \
                                                   : (T)0);                   \
        }                                                                     \
        return ew_fisinf_##R(y) ? ew_mk_##S(inf, (T)1.57079632679489661923)   \
                                : ew_mk_##S(nan, nan);                        \
    }                                                                         \
    EW_FN C ew_arcsinh_##S(C z)                                               \
    {                                                                         \
        C w;                                                                  \
        if (ew_cfinite_##S(z)) {                                              \
            w = ew_casin_fin_##S(ew_mk_##S(-z.im, z.re));                     \
            return ew_mk_##S(w.im, -w.re);                                    \
        }                                                                     \
        w = ew_casinh_nf_##S(fabs##F(z.re), fabs##F(z.im));                   \
        return ew_mk_##S(copysign##F(w.re, z.re), copysign##F(w.im, z.im));   \
    }                                                                         \
    EW_FN C ew_arcsin_##S(C z)                                                \
    {                                                                         \
        C w;                                                                  \
        if (ew_cfinite_##S(z))                                                \
            return ew_casin_fin_##S(z);                                       \
        w = ew_arcsinh_##S(ew_mk_##S(-z.im, z.re));                           \
        return ew_mk_##S(w.im, -w.re);                                        \
    }                                                                         \
    /* acos of non-finite (x, |y|); the caller conjugates for y < 0. */      \
    EW_FN C ew_cacos_nf_##S(T x, T y)                                         \
    {                                                                         \
        T nan = ew_nan_##R(), inf = ew_inf_##R();                             \
        if (x != x)                                                           \
            return ew_mk_##S(nan, ew_fisinf_##R(y) ? -inf : nan);             \
        if (y != y) {                                                         \
            if (ew_fisinf_##R(x))                                             \
                return ew_mk_##S(nan, -inf);                                  \
            return ew_mk_##S(x == 0 ? (T)1.57079632679489661923 : nan, nan);  \
        }                                                                     \
        if (x == inf)                                                         \
            return ew_mk_##S(ew_fisinf_##R(y) ? (T)0.785398163397448309616    \
                                              : (T)0, -inf);                  \
        if (x == -inf)                                                        \
            return ew_mk_##S(ew_fisinf_##R(y) ? (T)2.35619449019234492885     \
                                              : (T)3.14159265358979323846, -inf); \
        return ew_mk_##S((T)1.57079632679489661923, -inf);                    \
    }                                                                         \
    EW_FN C ew_arccos_##S(C z)                                                \
    {                                                                         \
        C p, q, w;                                                            \
        if (ew_cfinite_##S(z)) {                                              \
            p = ew_sqrt_##S(ew_mk_##S(1 - z.re, -z.im));                      \
            q = ew_sqrt_##S(ew_mk_##S(1 + z.re, z.im));                       \
            return ew_mk_##S(2 * atan2##F(p.re, q.re),                       \
                             asinh##F(q.re * p.im - q.im * p.re));            \
        }                                                                     \
        w = ew_cacos_nf_##S(z.re, fabs##F(z.im));                             \
        return ew_mk_##S(w.re, ew_neg_##S(z.im) ? -w.im : w.im);          \
    }                                                                         \
    EW_FN C ew_arccosh_##S(C z)                                               \
    {                                                                         \
        C w = ew_arccos_##S(z);                                               \
        /* acos(+-0 + i NaN) = pi/2 + i NaN: acosh gives NaN + i pi/2.   */ \
        if (ew_neg_##S(w.im) || w.im != w.im)                                 \
            return ew_mk_##S(-w.im, w.re);                                    \
        return ew_mk_##S(w.im, -w.re);                                        \
    }                                                                         \
    /* atanh of non-finite (|x|, |y|), signs put back by the caller. */       \
    EW_FN C ew_catanh_nf_##S(T x, T y)                                        \
    {                                                                         \
        T nan = ew_nan_##R();                                                 \
        if (ew_fisinf_##R(y))                                                 \
            return ew_mk_##S(0, (T)1.57079632679489661923);                   \
        if (x != x)                                                           \
            return ew_mk_##S(nan, nan);                                       \
        if (ew_fisinf_##R(x))                                                 \
            return ew_mk_##S(0, y != y ? nan : (T)1.57079632679489661923);    \
        return ew_mk_##S(x == 0 ? (T)0 : nan, nan);                           \
    }                                                                         \
    /* Re = log(|1+z|^2 / |1-z|^2) / 4, through log1p on |x| (odd in x,   */ \
    /* so nothing cancels near x = -1) or, when |1-z|^2 would underflow,  */ \
    /* as a difference of logs of hypot; Im = arg((1+z)(1-conj z)) / 2.   */ \
    /* Past EW_<R>_ATANH_BIG the squares would overflow and atanh z is    */ \
    /* 1/z to working precision in Re.                                     */ \
    EW_FN C ew_arctanh_##S(C z)                                               \
    {                                                                         \
        T x = z.re, y = z.im, ax = fabs##F(x), ay = fabs##F(y), d, h, re;     \
        C w;                                                                  \
        if (!ew_cfinite_##S(z)) {                                             \
            w = ew_catanh_nf_##S(ax, ay);                                     \
            return ew_mk_##S(copysign##F(w.re, x), copysign##F(w.im, y));     \
        }                                                                     \
        if (ax > EW_##R##_ATANH_BIG || ay > EW_##R##_ATANH_BIG) {             \
            h = hypot##F(x, y);                                               \
            return ew_mk_##S(x / h / h,                                       \
                             copysign##F((T)1.57079632679489661923, y));      \
        }                                                                     \
        d = (1 - ax) * (1 - ax) + y * y;                                      \
        if (d > EW_##R##_ATANH_TINY)                                          \
            re = (T)0.25 * log1p##F(4 * ax / d);                              \
        else                                                                  \
            re = (T)0.5 * (log##F(hypot##F(1 + ax, y)) -                      \
                           log##F(hypot##F(1 - ax, y)));                      \
        return ew_mk_##S(copysign##F(re, x),                                  \
                         (T)0.5 * atan2##F(2 * y, (1 - x) * (1 + x) - y * y)); \
    }                                                                         \
    EW_FN C ew_arctan_##S(C z)                                                \
    {                                                                         \
        C w = ew_arctanh_##S(ew_mk_##S(-z.im, z.re));                         \
        return ew_mk_##S(w.im, -w.re);                                        \
    }

/* Past these |re| or |im|, (1 - x)^2 + y^2 could overflow in atanh. */
#define EW_f32_ATANH_BIG 1.0e18f
#define EW_f64_ATANH_BIG 1.0e150
/* Below these, |1 - z|^2 has lost precision to underflow. */
#define EW_f32_ATANH_TINY 1.0e-30f
#define EW_f64_ATANH_TINY 1.0e-290

EW_COMPLEX_ATRIG(c64, ew_c64, float, f, f32)
EW_COMPLEX_ATRIG(c128, ew_c128, double, , f64)

/* ---- Bessel functions of complex argument: scipy.special's complex
 * loops of jv, yv, iv, kv, hankel1 and hankel2 (real order). ember's own,
 * in double on both devices, from the methods of the real ones carried
 * into the complex plane (Temme, "On the numerical evaluation of the
 * modified Bessel function of the third kind", J. Comput. Phys. 19, 1975;
 * Campbell, "On Temme's algorithm for the modified Bessel function of the
 * third kind", ACM TOMS 6, 1980): for Re w >= 0, K_mu and K_mu+1 (|mu| <=
 * 1/2) by Temme's series below |w| = 2 and Steed's continued fraction CF2
 * (Temme's form) past it, the ratio I_v+1/I_v by CF1, I recurred down to
 * mu and fixed by the Wronskian I_mu K_mu+1 + I_mu+1 K_mu = 1/w, K
 * recurred up; for |w| >= 25 with v^2 <= |w| Hankel's expansions (DLMF
 * 10.40.2, 10.40.5). The rest by the connection formulas (Abramowitz and
 * Stegun 9.6.3, 9.6.4, 9.6.30, 9.6.31, 9.1.35, 9.1.36): J and H1 from I
 * and K at -iz in the upper half plane, Y = i (J - H1), H2 = 2J - H1,
 * the lower half plane by conjugation, the left half plane of I and K by
 * analytic continuation, negative orders by reflection with exact
 * sin(pi v) and cos(pi v). The negative real axis takes the upper side,
 * as SciPy's AMOS does for -x - 0j too. They need the real ones' helpers
 * of the float section, which a kernel has when it has these loops (the
 * order is real) and need not have for other complex loops. */
#ifdef EW_BESSEL_MAXIT

EW_FN ew_c128 ew_zb_scale(ew_c128 a, double s) { return ew_mk_c128(a.re * s, a.im * s); }
EW_FN double ew_zb_abs(ew_c128 a) { return fabs(a.re) + fabs(a.im); }
EW_FN ew_c128 ew_zb_nan(void) { return ew_mk_c128(ew_inf_f64() * 0, ew_inf_f64() * 0); }
/* a e^(i pi t), e^(i pi t) exact at the multiples of 1/2, and its zero
 * parts left out of the product (so an infinite part of a, past an
 * overflow, meets no 0 to make a NaN) */
EW_FN ew_c128 ew_zb_mulcis(ew_c128 a, double t)
{
    double c = ew_cospi_d(t), s = ew_sinpi_d(t);
    if (s == 0)
        return ew_zb_scale(a, c);
    if (c == 0)
        return ew_mk_c128(-a.im * s, a.re * s);
    return ew_multiply_c128(a, ew_mk_c128(c, s));
}

/* one part of m e^x 2^e2: an exact 0 stays 0 past an overflow of e^x */
EW_FN double ew_zb_expart(double r, double x, int e2)
{
    return r == 0 ? r : ew_exp_scaled_d(r, x, e2);
}

/* m e^w 2^e2 with no overflow on the way */
EW_FN ew_c128 ew_zb_expmul(ew_c128 m, ew_c128 w, int e2)
{
    ew_c128 r = w.im == 0 ? m : ew_multiply_c128(m, ew_mk_c128(cos(w.im), sin(w.im)));
    return ew_mk_c128(ew_zb_expart(r.re, w.re, e2), ew_zb_expart(r.im, w.re, e2));
}

/* One step of the recurrence both I (down) and K (up) obey: (a, b) <-
 * (2n/w a + b, a), scaled by 2^-600 (counted in *e) as it grows. */
EW_FN void ew_zb_recur(ew_c128 wi, double n, ew_c128 *a, ew_c128 *b, int *e)
{
    ew_c128 t = ew_add_c128(ew_multiply_c128(ew_zb_scale(wi, 2 * n), *a), *b);
    *b = *a;
    *a = t;
    if (ew_zb_abs(t) > 1e250) {
        *a = ew_zb_scale(*a, ldexp(1.0, -600));
        *b = ew_zb_scale(*b, ldexp(1.0, -600));
        *e += 600;
    }
}

/* I_v(w) and K_v(w) for v >= 0, Re w >= 0, 0 < |w| < inf. */
EW_FN void ew_bessel_ik_z(double v, ew_c128 w, ew_c128 *io, ew_c128 *ko)
{
    const double eps = EW_BESSEL_EPS, tiny = EW_BESSEL_TINY;
    const ew_c128 one = ew_mk_c128(1, 0);
    ew_c128 wi = ew_true_divide_c128(one, w), h, b, c, d, del, il, ipl, t;
    ew_c128 kmu, k1, r, imu, ex = ew_mk_c128(0, 0);
    double mu, aw = ew_absolute_c128(w);
    int nl, i, e2 = 0, ek = 0;
    if (v > 1e7) {
        *io = *ko = ew_zb_nan();
        return;
    }
    if (aw >= 25 && v * v <= aw) {
        /* Hankel's expansions (DLMF 10.40.2, 10.40.5): K from the sum
         * with all signs +, I from the alternating one times e^w and, on
         * the side of the imaginary axis where e^-w is not negligible,
         * +-i e^(+-i pi v) e^-w times K's sum */
        double sr[4], si[4], sg = w.im >= 0 ? 1 : -1;
        ew_c128 sk, sa, rt;
        ew_hankel_sums(v, wi.re, wi.im, sr, si);
        sk = ew_mk_c128(sr[0] + sr[1] + sr[2] + sr[3],
                        si[0] + si[1] + si[2] + si[3]);
        sa = ew_mk_c128(sr[0] - sr[1] + sr[2] - sr[3],
                        si[0] - si[1] + si[2] - si[3]);
        rt = ew_sqrt_c128(ew_zb_scale(w, 2 * EW_PI));
        *ko = ew_zb_expmul(ew_zb_scale(ew_true_divide_c128(sk, rt), EW_PI),
                           ew_negative_c128(w), 0);
        *io = ew_add_c128(
            ew_zb_expmul(ew_true_divide_c128(sa, rt), w, 0),
            ew_zb_expmul(ew_zb_mulcis(ew_true_divide_c128(sk, rt),
                                      sg * (v + 0.5)),
                         ew_negative_c128(w), 0));
        return;
    }
    nl = (int)(v + 0.5);
    mu = v - nl;
    if (aw < 1e-5) {
        /* the series' first two terms, (w/2)^v / G(v+1) (1 + (w/2)^2 /
         * (v+1)) (CF1 and the recurrence would overflow on the way) */
        ew_c128 x2 = ew_zb_scale(w, 0.5);
        t = ew_exp_c128(ew_subtract_c128(ew_zb_scale(ew_log_c128(x2), v),
                                         ew_mk_c128(EW_LGAMMA(, v + 1), 0)));
        *io = ew_multiply_c128(t, ew_add_c128(one, ew_zb_scale(
                                                      ew_multiply_c128(x2, x2),
                                                      1 / (v + 1))));
        r = il = one;
        goto kpair;
    }
    /* CF1: I_v+1/I_v = 1/(2(v+1)/w + 1/(2(v+2)/w + ...)), Lentz */
    b = ew_zb_scale(wi, 2 * (v + 1));
    h = c = b;
    d = ew_mk_c128(0, 0);
    for (i = 2; i <= EW_BESSEL_MAXIT; i++) {
        b = ew_zb_scale(wi, 2 * (v + i));
        d = ew_add_c128(b, d);
        if (ew_zb_abs(d) < tiny)
            d = ew_mk_c128(tiny, 0);
        d = ew_true_divide_c128(one, d);
        c = ew_add_c128(b, ew_true_divide_c128(one, c));
        if (ew_zb_abs(c) < tiny)
            c = ew_mk_c128(tiny, 0);
        del = ew_multiply_c128(c, d);
        h = ew_multiply_c128(h, del);
        if (ew_zb_abs(ew_subtract_c128(del, one)) < eps)
            break;
    }
    if (i > EW_BESSEL_MAXIT) {
        *io = *ko = ew_zb_nan();
        return;
    }
    /* I down from v (taken as 1) to mu, rescaled as it grows */
    il = one;
    ipl = ew_true_divide_c128(one, h);
    for (i = nl; i >= 1; i--)
        ew_zb_recur(wi, mu + i, &il, &ipl, &e2);
    r = ew_true_divide_c128(ipl, il);
kpair:
    if (aw < 2) {
        /* Temme's series for K_mu and K_mu+1 */
        ew_c128 x2 = ew_zb_scale(w, 0.5), dd, e, f2, ff, p, q, s, s1, cc, x4;
        double pimu = EW_PI * mu, g1, g2, gp, gm, fc;
        ew_temme_gamma_d(mu, &g1, &g2, &gp, &gm);
        fc = fabs(pimu) < eps ? 1 : pimu / sin(pimu);
        dd = ew_negative_c128(ew_log_c128(x2));
        e = ew_zb_scale(dd, mu);
        f2 = ew_zb_abs(e) < eps ? one : ew_true_divide_c128(ew_sinh_c128(e), e);
        ff = ew_zb_scale(ew_add_c128(ew_zb_scale(ew_cosh_c128(e), g1),
                                     ew_zb_scale(ew_multiply_c128(f2, dd), g2)),
                         fc);
        s = ff;
        e = ew_exp_c128(e);
        p = ew_zb_scale(e, 0.5 / gp);
        q = ew_true_divide_c128(ew_mk_c128(0.5 / gm, 0), e);
        cc = one;
        x4 = ew_multiply_c128(x2, x2);
        s1 = p;
        for (i = 1; i <= EW_BESSEL_MAXIT; i++) {
            ff = ew_zb_scale(ew_add_c128(ew_zb_scale(ff, i), ew_add_c128(p, q)),
                             1 / ((double)i * i - mu * mu));
            cc = ew_zb_scale(ew_multiply_c128(cc, x4), 1.0 / i);
            p = ew_zb_scale(p, 1 / (i - mu));
            q = ew_zb_scale(q, 1 / (i + mu));
            del = ew_multiply_c128(cc, ff);
            s = ew_add_c128(s, del);
            s1 = ew_add_c128(s1, ew_multiply_c128(
                                     cc, ew_subtract_c128(p, ew_zb_scale(ff, i))));
            if (ew_zb_abs(del) < ew_zb_abs(s) * eps)
                break;
        }
        kmu = s;
        k1 = ew_zb_scale(ew_multiply_c128(s1, wi), 2);
    } else {
        /* Steed's CF2 for K (Temme's form), scaled by e^w */
        double a1 = 0.25 - mu * mu, a = -a1, cr = a1, ds;
        ew_c128 q1 = ew_mk_c128(0, 0), q2 = one, q = ew_mk_c128(a1, 0);
        ew_c128 s, dh, qn;
        b = ew_add_c128(ew_zb_scale(w, 2), ew_mk_c128(2, 0));
        d = ew_true_divide_c128(one, b);
        h = dh = d;
        s = ew_add_c128(one, ew_multiply_c128(q, dh));
        for (i = 2; i <= EW_BESSEL_MAXIT; i++) {
            a -= 2 * (i - 1);
            cr = -a * cr / i;
            qn = ew_zb_scale(ew_subtract_c128(q1, ew_multiply_c128(b, q2)), 1 / a);
            q1 = q2;
            q2 = qn;
            q = ew_add_c128(q, ew_zb_scale(qn, cr));
            b = ew_add_c128(b, ew_mk_c128(2, 0));
            d = ew_true_divide_c128(one, ew_add_c128(b, ew_zb_scale(d, a)));
            dh = ew_multiply_c128(ew_subtract_c128(ew_multiply_c128(b, d), one), dh);
            h = ew_add_c128(h, dh);
            t = ew_multiply_c128(q, dh);
            s = ew_add_c128(s, t);
            ds = ew_zb_abs(t) / ew_zb_abs(s);
            if (ds < eps)
                break;
        }
        h = ew_zb_scale(h, a1);
        kmu = ew_true_divide_c128(
            ew_sqrt_c128(ew_zb_scale(wi, 0.5 * EW_PI)), s);
        k1 = ew_multiply_c128(
            ew_multiply_c128(kmu, ew_subtract_c128(
                                      ew_add_c128(w, ew_mk_c128(mu + 0.5, 0)), h)),
            wi);
        ex = w;
    }
    /* the Wronskian I_mu K_mu+1 + I_mu+1 K_mu = 1/w gives I_mu */
    if (aw >= 1e-5) {
        imu = ew_true_divide_c128(
            wi, ew_add_c128(k1, ew_multiply_c128(r, kmu)));
        *io = ew_zb_expmul(ew_true_divide_c128(imu, il), ex, -e2);
    }
    for (i = 1; i <= nl; i++)
        ew_zb_recur(wi, mu + i, &k1, &kmu, &ek);
    *ko = ew_zb_expmul(kmu, ew_negative_c128(ex), ek);
}

/* I_a(z) and K_a(z), a >= 0, anywhere off 0: the left half plane by
 * I(w e^(+-i pi)) = e^(+-i pi a) I(w), K(w e^(+-i pi)) = e^(-+i pi a)
 * K(w) -+ i pi I(w), the upper sign for Im z >= 0. */
EW_FN void ew_bessel_ik_zz(double a, ew_c128 z, ew_c128 *io, ew_c128 *ko)
{
    ew_c128 i, k, w;
    double sg;
    if (z.re >= 0) {
        ew_bessel_ik_z(a, z, io, ko);
        return;
    }
    w = ew_negative_c128(z);
    sg = z.im >= 0 ? 1 : -1;
    ew_bessel_ik_z(a, w, &i, &k);
    *io = ew_zb_mulcis(i, sg * a);
    *ko = ew_subtract_c128(ew_zb_mulcis(k, -sg * a),
                           ew_zb_mulcis(ew_zb_scale(i, EW_PI), sg * 0.5));
}

/* J_a, Y_a, H1_a, H2_a (a >= 0) at z with Im z >= 0 (w = -iz has
 * Re w >= 0); conjugated for Im z < 0. */
EW_FN void ew_bessel_jyh_z(double a, ew_c128 z, ew_c128 *jo, ew_c128 *yo,
                           ew_c128 *h1o, ew_c128 *h2o)
{
    int low = z.im < 0;
    ew_c128 w, i, k, j, h1, h2, y;
    if (low)
        z = ew_conjugate_c128(z);
    w = ew_mk_c128(z.im, -z.re);
    ew_bessel_ik_z(a, w, &i, &k);
    j = ew_zb_mulcis(i, 0.5 * a);
    /* H1 = 2/(pi i) e^(-i pi a/2) K */
    h1 = ew_zb_mulcis(ew_zb_scale(k, 2 / EW_PI), -0.5 * a - 0.5);
    y = ew_zb_mulcis(ew_subtract_c128(j, h1), 0.5);
    h2 = ew_subtract_c128(ew_zb_scale(j, 2), h1);
    if (low) {
        ew_c128 t = h1;
        j = ew_conjugate_c128(j);
        y = ew_conjugate_c128(y);
        h1 = ew_conjugate_c128(h2);
        h2 = ew_conjugate_c128(t);
    }
    *jo = j;
    *yo = y;
    *h1o = h1;
    *h2o = h2;
}

/* NaN order or argument, an infinite one, or 0 (answered by the caller):
 * 1 when the function's value is settled in *out. */
EW_FN int ew_zb_edge(double v, ew_c128 z, ew_c128 *out)
{
    if (v != v || z.re != z.re || z.im != z.im || ew_fisinf_f64(v) ||
        ew_fisinf_f64(z.re) || ew_fisinf_f64(z.im)) {
        *out = ew_zb_nan();
        return 1;
    }
    return 0;
}

/* which: 0 J, 1 Y, 2 H1, 3 H2 */
EW_FN ew_c128 ew_jyh_z(double v, ew_c128 z, int which)
{
    double a = fabs(v), cs, sn;
    int vint = v == floor(v);
    ew_c128 j, y, h1, h2, out;
    /* SciPy's Y of an infinite order at 0 is -inf, as for finite ones */
    if (which == 1 && ew_fisinf_f64(v) && z.re == 0 && z.im == 0)
        return ew_mk_c128(-ew_inf_f64(), 0);
    if (ew_zb_edge(v, z, &out))
        return out;
    if (z.re == 0 && z.im == 0) {
        if (which == 0) {
            if (v == 0)
                return ew_mk_c128(1, 0);
            if (v > 0 || vint) {
                double zr = v < 0 && ew_isodd_d(a) ? -0.0 : 0.0;
                return ew_mk_c128(zr, zr);
            }
            return ew_zb_nan();
        }
        if (which == 1) {
            if (v >= 0)
                return ew_mk_c128(-ew_inf_f64(), 0);
            if (vint)
                return ew_mk_c128(ew_isodd_d(a) ? ew_inf_f64() : -ew_inf_f64(), 0);
            return ew_mk_c128(ew_inf_f64() * 0, 0);
        }
        return ew_zb_nan();
    }
    ew_bessel_jyh_z(a, z, &j, &y, &h1, &h2);
    if (z.im == 0 && z.re > 0) {
        /* real there: no imaginary part, even past an overflow */
        j.im = 0;
        y.im = 0;
    }
    if (v < 0) {
        if (which == 2)
            return ew_zb_mulcis(h1, a);
        if (which == 3)
            return ew_zb_mulcis(h2, -a);
        if (vint) {
            double sg = ew_isodd_d(a) ? -1 : 1;
            return ew_zb_scale(which == 0 ? j : y, sg);
        }
        cs = ew_cospi_d(a);
        sn = ew_sinpi_d(a);
        if (which == 0)
            return ew_subtract_c128(ew_zb_scale(j, cs), ew_zb_scale(y, sn));
        return ew_add_c128(ew_zb_scale(j, sn), ew_zb_scale(y, cs));
    }
    return which == 0 ? j : which == 1 ? y : which == 2 ? h1 : h2;
}

/* which: 0 I, 1 K */
EW_FN ew_c128 ew_ik_z(double v, ew_c128 z, int which)
{
    double a = fabs(v);
    int vint = v == floor(v);
    ew_c128 i, k, out;
    if (ew_zb_edge(v, z, &out))
        return out;
    if (z.re == 0 && z.im == 0) {
        if (which == 0 && (v == 0 || v > 0 || vint))
            return ew_mk_c128(v == 0 ? 1 : 0, 0);
        return ew_zb_nan();
    }
    ew_bessel_ik_zz(a, z, &i, &k);
    if (z.im == 0 && z.re > 0)
        i.im = k.im = 0;   /* real there, as for J and Y */
    if (which == 1)
        return k;
    if (v < 0 && !vint)
        i = ew_add_c128(i, ew_zb_scale(k, 2 / EW_PI * ew_sinpi_d(a)));
    return i;
}

/* ew_<name>_<real order type>_<complex type>: SciPy's fF->F and dD->D
 * loops, computed in double. */
#define EW_ZBESSEL_OP(NAME, FN, WHICH, S, T, C, CS)                           \
    EW_FN C ew_##NAME##_##S##_##CS(T v, C z)                                  \
    {                                                                         \
        ew_c128 r = FN((double)v, ew_mk_c128(z.re, z.im), WHICH);             \
        return ew_mk_##CS((T)r.re, (T)r.im);                                  \
    }
#define EW_ZBESSEL_OPS(S, T, C, CS)                                           \
    EW_ZBESSEL_OP(jv, ew_jyh_z, 0, S, T, C, CS)                               \
    EW_ZBESSEL_OP(yv, ew_jyh_z, 1, S, T, C, CS)                               \
    EW_ZBESSEL_OP(hankel1, ew_jyh_z, 2, S, T, C, CS)                          \
    EW_ZBESSEL_OP(hankel2, ew_jyh_z, 3, S, T, C, CS)                          \
    EW_ZBESSEL_OP(iv, ew_ik_z, 0, S, T, C, CS)                                \
    EW_ZBESSEL_OP(kv, ew_ik_z, 1, S, T, C, CS)
EW_ZBESSEL_OPS(f32, float, ew_c64, c64)
EW_ZBESSEL_OPS(f64, double, ew_c128, c128)

#endif

#endif

/* @ew-section end */
/* clang-format on */
