/* ember kernels: the arithmetic of reductions, per compute type.
 *
 * The reduction generator (src/codegen/reduce.c) pastes the base part of
 * kernels/ewise_ops.h (types, conversions) and then this file in front of
 * each kernel. Reductions compute in one of six types, named by suffix:
 * i64 (bool and signed integers), u64 (unsigned integers), f32 (float16,
 * bfloat16 and float32), f64, c64, c128. Integer sums and products are
 * taken in 64-bit unsigned arithmetic: wrap-around is a ring map, so the
 * low bits equal NumPy's narrower accumulation and C has no undefined
 * behaviour. Complex numbers order lexicographically (real part, then
 * imaginary), as NumPy's maximum/minimum/argmax do; a complex number is
 * NaN when either part is.
 *
 * Read by NVRTC and by the host C compiler: C that is also C++, no
 * overloading; per-type functions come from macros.
 */
#ifndef EMBER_REDUCE_OPS_H
#define EMBER_REDUCE_OPS_H

/* clang-format off */

#define RD_INT_OPS(S, T)                                                      \
    EW_FN T rd_add_##S(T a, T b) { return (T)((ew_u64)a + (ew_u64)b); }       \
    EW_FN T rd_mul_##S(T a, T b) { return (T)((ew_u64)a * (ew_u64)b); }       \
    EW_FN T rd_zero_##S(void) { return 0; }                                   \
    EW_FN T rd_one_##S(void) { return 1; }                                    \
    EW_FN T rd_nan_##S(void) { return 0; }                                    \
    EW_FN int rd_isnan_##S(T x) { (void)x; return 0; }                        \
    EW_FN int rd_lt_##S(T a, T b) { return a < b; }                           \
    EW_FN int rd_nz_##S(T x) { return x != 0; }                               \
    EW_FN T rd_div_##S(T x, double n) { return n > 0 ? (T)((double)x / n) : 0; }

RD_INT_OPS(i64, ew_i64)
RD_INT_OPS(u64, ew_u64)

/* Real floats; R is the real type that var and sumsq accumulate in. */
#define RD_FLOAT_OPS(S, T, NAN_FN, SQRT)                                      \
    EW_FN T rd_add_##S(T a, T b) { return a + b; }                            \
    EW_FN T rd_mul_##S(T a, T b) { return a * b; }                            \
    EW_FN T rd_sub_##S(T a, T b) { return a - b; }                            \
    EW_FN T rd_zero_##S(void) { return 0; }                                   \
    EW_FN T rd_one_##S(void) { return 1; }                                    \
    EW_FN T rd_nan_##S(void) { return NAN_FN(); }                             \
    EW_FN int rd_isnan_##S(T x) { return x != x; }                            \
    EW_FN int rd_lt_##S(T a, T b) { return a < b; }                           \
    EW_FN int rd_nz_##S(T x) { return x != 0; }                               \
    EW_FN T rd_div_##S(T x, double n) { return x / (T)n; }                    \
    EW_FN T rd_scale_##S(T x, T f) { return x * f; }                          \
    EW_FN T rd_abs2_##S(T x) { return x * x; }                                \
    EW_FN T rd_redot_##S(T a, T b) { return a * b; }                          \
    EW_FN T rd_sqrt_##S(T x) { return SQRT(x); }

RD_FLOAT_OPS(f32, float, ew_nan_f32, sqrtf)
RD_FLOAT_OPS(f64, double, ew_nan_f64, sqrt)

#define RD_COMPLEX_OPS(S, C, T, NAN_FN)                                       \
    EW_FN C rd_add_##S(C a, C b) { return ew_mk_##S(a.re + b.re, a.im + b.im); } \
    EW_FN C rd_sub_##S(C a, C b) { return ew_mk_##S(a.re - b.re, a.im - b.im); } \
    EW_FN C rd_mul_##S(C a, C b)                                              \
    { return ew_mk_##S(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); } \
    EW_FN C rd_zero_##S(void) { return ew_mk_##S(0, 0); }                     \
    EW_FN C rd_one_##S(void) { return ew_mk_##S(1, 0); }                      \
    EW_FN C rd_nan_##S(void) { return ew_mk_##S(NAN_FN(), NAN_FN()); }        \
    EW_FN int rd_isnan_##S(C x) { return x.re != x.re || x.im != x.im; }      \
    EW_FN int rd_lt_##S(C a, C b)                                             \
    { return a.re < b.re || (a.re == b.re && a.im < b.im); }                  \
    EW_FN int rd_nz_##S(C x) { return x.re != 0 || x.im != 0; }               \
    EW_FN C rd_div_##S(C x, double n) { return ew_mk_##S(x.re / (T)n, x.im / (T)n); } \
    EW_FN C rd_scale_##S(C x, T f) { return ew_mk_##S(x.re * f, x.im * f); }  \
    EW_FN T rd_abs2_##S(C x) { return x.re * x.re + x.im * x.im; }            \
    EW_FN T rd_redot_##S(C a, C b) { return a.re * b.re + a.im * b.im; }

RD_COMPLEX_OPS(c64, ew_c64, float, ew_nan_f32)
RD_COMPLEX_OPS(c128, ew_c128, double, ew_nan_f64)

/* clang-format on */
#endif /* EMBER_REDUCE_OPS_H */
