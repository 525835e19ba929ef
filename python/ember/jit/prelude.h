/* ember.jit: the helpers every translated Python kernel starts with.
 *
 * The translator (python/ember/jit/) pastes this file in front of each
 * kernel it writes. Two compilers read it: NVRTC (CUDA C++) and the host C
 * compiler after kernels/host_prelude.h. So: C that is also C++, no
 * overloading, no templates, no compound literals, no standard headers
 * (NVRTC has none; the host prelude already includes what is used).
 *
 * The helpers give Python's and NumPy's semantics where C's differ:
 * floor division and remainder take the divisor's sign, integer division
 * by zero gives 0 (NumPy's answer; Python would raise), shifts past the
 * width give 0 or -1, float16 values round after every operation, and
 * complex numbers are a pair of floats laid out as NumPy stores them.
 * Per-type helpers come from macros; the translator writes the array
 * access helpers a kernel needs after this file. It pastes the base (up
 * to the first "@emjit-section") and only the sections whose helpers the
 * kernel calls; module.py gives each section an include guard named for
 * it, so several translations can share one program.
 */
#ifndef EMBER_JIT_PRELUDE_H
#define EMBER_JIT_PRELUDE_H

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define EMJ_CUDA 1
/* Most helpers go unused in any one kernel; that is the point. */
#pragma nv_diag_suppress 177
#pragma nv_diag_suppress 550
#endif

#define EMJ_FN __device__ __forceinline__

/* ---- bits and special values ----------------------------------------- */

#ifdef EMJ_CUDA
EMJ_FN unsigned int __emjit_f32_bits(float x) { return __float_as_uint(x); }
EMJ_FN float __emjit_bits_f32(unsigned int b) { return __uint_as_float(b); }
EMJ_FN double __emjit_bits_f64(unsigned long long b) { return __longlong_as_double((long long)b); }
#else
EMJ_FN unsigned int __emjit_f32_bits(float x) { unsigned int b; memcpy(&b, &x, 4); return b; }
EMJ_FN float __emjit_bits_f32(unsigned int b) { float x; memcpy(&x, &b, 4); return x; }
EMJ_FN double __emjit_bits_f64(unsigned long long b) { double x; memcpy(&x, &b, 8); return x; }
#endif

/* NVRTC has no INFINITY or NAN macros. */
#define __emjit_inf_f4() __emjit_bits_f32(0x7f800000u)
#define __emjit_nan_f4() __emjit_bits_f32(0x7fc00000u)
#define __emjit_inf_f8() __emjit_bits_f64(0x7ff0000000000000ull)
#define __emjit_nan_f8() __emjit_bits_f64(0x7ff8000000000000ull)

/* ---- bounds checks --------------------------------------------------- */

/* Index i of an axis of extent n, wrapped as Python wraps negative ones;
 * -1 when out of range, after recording the first such access in err
 * (docs/jit-design.md: site, index, axis, extent, block, thread). */
EMJ_FN long long __emjit_ck(long long i, long long n, int axis, int site, long long *err)
{
    long long w = i < 0 ? i + n : i;
    if (w >= 0 && w < n)
        return w;
    if (atomicCAS((unsigned long long *)err, 0ull, (unsigned long long)site + 1ull) == 0ull) {
        err[1] = i;
        err[2] = axis;
        err[3] = n;
        err[4] = blockIdx.x;
        err[5] = blockIdx.y;
        err[6] = blockIdx.z;
        err[7] = threadIdx.x;
        err[8] = threadIdx.y;
        err[9] = threadIdx.z;
        __threadfence();
    }
    return -1;
}

EMJ_FN long long __emjit_wrap(long long i, long long n) { return i < 0 ? i + n : i; }

#endif /* EMBER_JIT_PRELUDE_H */

/* @emjit-section half */
/* ---- float16: stored as bits, computed in float ---------------------- */

EMJ_FN float __emjit_h2f(unsigned short h)
{
    unsigned int sign = (unsigned int)(h & 0x8000u) << 16;
    unsigned int e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    float v;
    if (e == 0x1f)   /* inf or NaN, payload kept */
        return __emjit_bits_f32(sign | 0x7f800000u | (m << 13));
    if (e == 0) {    /* zero or subnormal: m * 2^-24, exact */
        v = (float)m * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return __emjit_bits_f32(sign | ((e + 112u) << 23) | (m << 13));
}

/* Round to nearest even, as NumPy's cast does. */
EMJ_FN unsigned short __emjit_f2h(float f)
{
    unsigned int u = __emjit_f32_bits(f);
    unsigned int sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) {   /* NaN: keep it quiet and a NaN */
        unsigned int h = sign | 0x7c00u | ((a & 0x7fffffu) >> 13);
        return (unsigned short)((h & 0x3ffu) ? h : h | 0x200u);
    }
    if (a >= 0x477ff000u)    /* 65520 and up round to infinity */
        return (unsigned short)(sign | 0x7c00u);
    if (a < 0x38800000u) {
        /* Below the smallest normal half: adding 0.5 puts the value where
         * a float's last bit is a half subnormal's step, so the FPU's own
         * rounding to nearest even does the work. */
        float v = __emjit_bits_f32(a) + 0.5f;
        return (unsigned short)(sign | (__emjit_f32_bits(v) - 0x3f000000u));
    }
    a += 0xc8000fffu + ((a >> 13) & 1u);
    return (unsigned short)(sign | (a >> 13));
}

/* A float16 operation: computed in float, rounded to float16. */
EMJ_FN float __emjit_rh(float f) { return __emjit_h2f(__emjit_f2h(f)); }

/* A double rounded to float by round-to-odd, so that rounding it again to
 * float16 gives the correctly rounded result (no double rounding). */
EMJ_FN unsigned short __emjit_f2h_d(double x)
{
    float f = (float)x;
    unsigned int b;
    if (x != x || (double)f == x)
        return __emjit_f2h(f);
    b = __emjit_f32_bits(f);
    if (!(b & 1u))
        b = (fabs((double)f) > fabs(x)) ? b - 1u : b + 1u;
    return __emjit_f2h(__emjit_bits_f32(b));
}

/* @emjit-section int */
/* ---- integers -------------------------------------------------------- */

/* Python's floor division and remainder (the divisor's sign); a zero
 * divisor gives 0 as in NumPy, and MIN // -1 wraps. */
#define EMJ_SINT(S, T, U)                                                     \
    EMJ_FN T __emjit_fdiv_##S(T a, T b)                                       \
    {                                                                         \
        T q;                                                                  \
        if (b == 0)                                                           \
            return 0;                                                         \
        if (b == -1)                                                          \
            return (T)(0 - (U)a);                                             \
        q = (T)(a / b);                                                       \
        if (a % b != 0 && ((a < 0) != (b < 0)))                               \
            q = (T)(q - 1);                                                   \
        return q;                                                             \
    }                                                                         \
    EMJ_FN T __emjit_mod_##S(T a, T b)                                        \
    {                                                                         \
        T r;                                                                  \
        if (b == 0 || b == -1)                                                \
            return 0;                                                         \
        r = (T)(a % b);                                                       \
        if (r != 0 && ((r < 0) != (b < 0)))                                   \
            r = (T)(r + b);                                                   \
        return r;                                                             \
    }                                                                         \
    EMJ_FN T __emjit_pow_##S(T a, T b)                                        \
    {                                                                         \
        U r = 1, base = (U)a;                                                 \
        if (b < 0) /* 1/a truncated, as NumPy's loops give */                 \
            return (T)(a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0);        \
        while (b) {                                                           \
            if (b & 1)                                                        \
                r *= base;                                                    \
            base *= base;                                                     \
            b >>= 1;                                                          \
        }                                                                     \
        return (T)r;                                                          \
    }                                                                         \
    EMJ_FN T __emjit_shl_##S(T a, long long b)                                \
    {                                                                         \
        return (b >= 0 && b < (long long)(8 * sizeof(T))) ? (T)((U)a << b) : (T)0; \
    }                                                                         \
    EMJ_FN T __emjit_shr_##S(T a, long long b)                                \
    {                                                                         \
        if (b < 0 || b >= (long long)(8 * sizeof(T)))                         \
            return a < 0 ? (T)-1 : (T)0;                                      \
        return (T)(a >> b);                                                   \
    }                                                                         \
    EMJ_FN T __emjit_abs_##S(T a) { return a < 0 ? (T)(0 - (U)a) : a; }

#define EMJ_UINT(S, T)                                                        \
    EMJ_FN T __emjit_fdiv_##S(T a, T b) { return b ? (T)(a / b) : (T)0; }     \
    EMJ_FN T __emjit_mod_##S(T a, T b) { return b ? (T)(a % b) : (T)0; }      \
    EMJ_FN T __emjit_pow_##S(T a, T b)                                        \
    {                                                                         \
        T r = 1;                                                              \
        while (b) {                                                           \
            if (b & 1)                                                        \
                r = (T)(r * a);                                               \
            a = (T)(a * a);                                                   \
            b >>= 1;                                                          \
        }                                                                     \
        return r;                                                             \
    }                                                                         \
    EMJ_FN T __emjit_shl_##S(T a, long long b)                                \
    {                                                                         \
        return (b >= 0 && b < (long long)(8 * sizeof(T))) ? (T)(a << b) : (T)0; \
    }                                                                         \
    EMJ_FN T __emjit_shr_##S(T a, long long b)                                \
    {                                                                         \
        return (b >= 0 && b < (long long)(8 * sizeof(T))) ? (T)(a >> b) : (T)0; \
    }

/* Python's min and max: the first argument unless the other is less
 * (greater). */
#define EMJ_MINMAX(S, T)                                                      \
    EMJ_FN T __emjit_min_##S(T a, T b) { return b < a ? b : a; }              \
    EMJ_FN T __emjit_max_##S(T a, T b) { return b > a ? b : a; }

EMJ_MINMAX(b1, bool)
EMJ_MINMAX(i1, signed char)
EMJ_MINMAX(i2, short)
EMJ_MINMAX(i4, int)
EMJ_MINMAX(i8, long long)
EMJ_MINMAX(u1, unsigned char)
EMJ_MINMAX(u2, unsigned short)
EMJ_MINMAX(u4, unsigned int)
EMJ_MINMAX(u8, unsigned long long)
EMJ_MINMAX(f4, float)
EMJ_MINMAX(f8, double)

EMJ_SINT(i1, signed char, unsigned int)
EMJ_SINT(i2, short, unsigned int)
EMJ_SINT(i4, int, unsigned int)
EMJ_SINT(i8, long long, unsigned long long)
EMJ_UINT(u1, unsigned char)
EMJ_UINT(u2, unsigned short)
EMJ_UINT(u4, unsigned int)
EMJ_UINT(u8, unsigned long long)

/* @emjit-section float */
/* ---- floats ---------------------------------------------------------- */

/* Python's float floor division and remainder (CPython's algorithm): the
 * remainder takes the divisor's sign and a // b is exact where floor(a /
 * b) would round. A zero divisor gives NumPy's inf/nan. */
#define EMJ_FLOAT(S, T, SFX)                                                  \
    EMJ_FN T __emjit_mod_##S(T a, T b)                                        \
    {                                                                         \
        T m;                                                                  \
        if (b == 0)                                                           \
            return fmod##SFX(a, b);                                           \
        m = fmod##SFX(a, b);                                                  \
        if (m != 0) {                                                         \
            if ((b < 0) != (m < 0))                                           \
                m += b;                                                       \
        } else {                                                              \
            m = copysign##SFX((T)0, b);                                       \
        }                                                                     \
        return m;                                                             \
    }                                                                         \
    EMJ_FN T __emjit_fdiv_##S(T a, T b)                                       \
    {                                                                         \
        T m, d, f;                                                            \
        if (b == 0)                                                           \
            return a / b;                                                     \
        m = fmod##SFX(a, b);                                                  \
        d = (a - m) / b;                                                      \
        if (m != 0 && ((b < 0) != (m < 0)))                                   \
            d -= 1;                                                           \
        if (d != 0) {                                                         \
            f = floor##SFX(d);                                                \
            if (d - f > (T)0.5)                                               \
                f += 1;                                                       \
        } else {                                                              \
            f = copysign##SFX((T)0, a / b);                                   \
        }                                                                     \
        return f;                                                             \
    }                                                                         \
    /* Python's round(): half to even, to an integer. */                      \
    EMJ_FN long long __emjit_round_##S(T a) { return (long long)rint##SFX(a); }

EMJ_FLOAT(f4, float, f)
EMJ_FLOAT(f8, double, )

/* @emjit-section complex */
/* ---- complex --------------------------------------------------------- */

typedef struct __emjit_c8 { float re, im; } __emjit_c8;
typedef struct __emjit_c16 { double re, im; } __emjit_c16;

#define EMJ_COMPLEX(S, C, T, SFX)                                             \
    EMJ_FN C __emjit_mk_##S(T re, T im) { C z; z.re = re; z.im = im; return z; } \
    EMJ_FN C __emjit_add_##S(C a, C b) { return __emjit_mk_##S(a.re + b.re, a.im + b.im); } \
    EMJ_FN C __emjit_sub_##S(C a, C b) { return __emjit_mk_##S(a.re - b.re, a.im - b.im); } \
    EMJ_FN C __emjit_mul_##S(C a, C b)                                        \
    {                                                                         \
        return __emjit_mk_##S(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); \
    }                                                                         \
    /* Smith's algorithm, as NumPy divides: no overflow for large parts. */  \
    EMJ_FN C __emjit_div_##S(C a, C b)                                        \
    {                                                                         \
        T r, d;                                                               \
        if (fabs##SFX(b.re) >= fabs##SFX(b.im)) {                             \
            if (b.re == 0 && b.im == 0)                                       \
                return __emjit_mk_##S(a.re / fabs##SFX(b.re), a.im / fabs##SFX(b.im)); \
            r = b.im / b.re;                                                  \
            d = b.re + b.im * r;                                              \
            return __emjit_mk_##S((a.re + a.im * r) / d, (a.im - a.re * r) / d); \
        }                                                                     \
        r = b.re / b.im;                                                      \
        d = b.im + b.re * r;                                                  \
        return __emjit_mk_##S((a.re * r + a.im) / d, (a.im * r - a.re) / d);  \
    }                                                                         \
    EMJ_FN C __emjit_neg_##S(C a) { return __emjit_mk_##S(-a.re, -a.im); }    \
    EMJ_FN C __emjit_conj_##S(C a) { return __emjit_mk_##S(a.re, -a.im); }    \
    EMJ_FN bool __emjit_eq_##S(C a, C b) { return a.re == b.re && a.im == b.im; } \
    EMJ_FN bool __emjit_truth_##S(C a) { return a.re != 0 || a.im != 0; }     \
    EMJ_FN T __emjit_abs_##S(C a) { return hypot##SFX(a.re, a.im); }          \
    EMJ_FN C __emjit_pow_##S(C a, C b)                                        \
    {                                                                         \
        T m, ph, lr, nr, np;                                                  \
        if (b.re == 0 && b.im == 0)                                           \
            return __emjit_mk_##S(1, 0);                                      \
        if (a.re == 0 && a.im == 0)                                           \
            return __emjit_mk_##S(0, 0);                                      \
        m = hypot##SFX(a.re, a.im);                                           \
        ph = atan2##SFX(a.im, a.re);                                          \
        lr = log##SFX(m);                                                     \
        nr = exp##SFX(b.re * lr - b.im * ph);                                 \
        np = b.im * lr + b.re * ph;                                           \
        return __emjit_mk_##S(nr * cos##SFX(np), nr * sin##SFX(np));          \
    }

EMJ_COMPLEX(c8, __emjit_c8, float, f)
EMJ_COMPLEX(c16, __emjit_c16, double, )
EMJ_FN __emjit_c8 __emjit_c8_of_c16(__emjit_c16 z) { return __emjit_mk_c8((float)z.re, (float)z.im); }
EMJ_FN __emjit_c16 __emjit_c16_of_c8(__emjit_c8 z) { return __emjit_mk_c16(z.re, z.im); }

/* @emjit-section atomic */
/* ---- atomics CUDA lacks ---------------------------------------------- */

/* Compare-and-swap loops on the bits. The loop stops early when the
 * stored value already wins, so a NaN in memory stays (as CUDA's integer
 * max keeps the larger). */
#define EMJ_ATOMIC_FKEEP(NAME, WINS, S, T, B, TOB, FROMB)                     \
    EMJ_FN T __emjit_##NAME##_##S(T *p, T v)                                  \
    {                                                                         \
        B *q = (B *)p, old = *(volatile B *)q, seen;                          \
        while (!(FROMB(old) WINS v) && !(FROMB(old) != FROMB(old))) {         \
            seen = atomicCAS(q, old, TOB(v));                                 \
            if (seen == old)                                                  \
                break;                                                        \
            old = seen;                                                       \
        }                                                                     \
        return FROMB(old);                                                    \
    }
#define EMJ_ATOMIC_FMINMAX(S, T, B, TOB, FROMB)                               \
    EMJ_ATOMIC_FKEEP(amax, >=, S, T, B, TOB, FROMB)                           \
    EMJ_ATOMIC_FKEEP(amin, <=, S, T, B, TOB, FROMB)

#define EMJ_F4_TOB(x) __float_as_uint(x)
#define EMJ_F4_FROMB(b) __uint_as_float(b)
#define EMJ_F8_TOB(x) ((unsigned long long)__double_as_longlong(x))
#define EMJ_F8_FROMB(b) __longlong_as_double((long long)(b))
EMJ_ATOMIC_FMINMAX(f4, float, unsigned int, EMJ_F4_TOB, EMJ_F4_FROMB)
EMJ_ATOMIC_FMINMAX(f8, double, unsigned long long, EMJ_F8_TOB, EMJ_F8_FROMB)

/* CUDA's wrapping counters for 64 bits (it has them for 32 only): NEXT
 * is the new value as an expression of old and the bound v. */
#define EMJ_ATOMIC_U8(NAME, NEXT)                                             \
    EMJ_FN unsigned long long __emjit_##NAME##_u8(unsigned long long *p,      \
                                                  unsigned long long v)       \
    {                                                                         \
        unsigned long long old = *(volatile unsigned long long *)p, seen;     \
        for (;;) {                                                            \
            seen = atomicCAS(p, old, NEXT);                                   \
            if (seen == old)                                                  \
                return old;                                                   \
            old = seen;                                                       \
        }                                                                     \
    }
EMJ_ATOMIC_U8(ainc, old >= v ? 0ull : old + 1ull)
EMJ_ATOMIC_U8(adec, (old == 0ull || old > v) ? v : old - 1ull)

/* @emjit-section slice */
/* ---- slices ---------------------------------------------------------- */

/* Python's slice of an axis of extent n (slice.indices, then the length):
 * bounds past either end are clipped, negative ones count from the end;
 * an absent start or stop (has_* 0) is the end the step walks from or to.
 * Returns the length; the first index goes to *first. */
EMJ_FN long long __emjit_slice(long long n, long long start, long long stop, long long step,
                               int has_start, int has_stop, long long *first)
{
    long long len;
    if (step == 0) {   /* Python raises; the translator refuses a literal 0 */
        *first = 0;
        return 0;
    }
    if (!has_start) {
        start = step < 0 ? n - 1 : 0;
    } else if (start < 0) {
        start += n;
        if (start < 0)
            start = step < 0 ? -1 : 0;
    } else if (start >= n) {
        start = step < 0 ? n - 1 : n;
    }
    if (!has_stop) {
        stop = step < 0 ? -1 : n;
    } else if (stop < 0) {
        stop += n;
        if (stop < 0)
            stop = step < 0 ? -1 : 0;
    } else if (stop >= n) {
        stop = step < 0 ? n - 1 : n;
    }
    if (step < 0)
        len = stop < start ? (start - stop - 1) / (-step) + 1 : 0;
    else
        len = start < stop ? (stop - start - 1) / step + 1 : 0;
    *first = len ? start : 0;
    return len;
}

/* @emjit-section grid */
/* ---- grid synchronisation (cuda.cg.this_grid().sync()) --------------- */

#ifdef EMJ_CUDA
/* g is a zeroed unsigned int of device memory, and every block is resident
 * (the dispatcher keeps the grid within max_cooperative_grid_blocks).
 * Thread 0 of each block adds to the counter: block 0 adds 2^31 - (blocks
 * - 1), the others 1, so the top bit flips when the last block arrives and
 * the lower bits are as before, ready for the next barrier. */
EMJ_FN void __emjit_grid_enter(void *g) { (void)g; }
EMJ_FN void __emjit_grid_sync(void *g)
{
    unsigned int *bar = (unsigned int *)g;
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        unsigned int nb = gridDim.x * gridDim.y * gridDim.z;
        unsigned int add = (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0)
                               ? 0x80000000u - (nb - 1u) : 1u;
        unsigned int old;
        __threadfence();
        old = atomicAdd(bar, add);
        while (((old ^ *(volatile unsigned int *)bar) & 0x80000000u) == 0u)
            ;
        __threadfence();
    }
    __syncthreads();
}
#else
/* On cpu every block of the grid runs on a thread of its own, launched as
 * a grid of one block (src/runtime/gridsync.c); g is that block's
 * record, laid out as em_grid_rec in include/ember/gridsync.h. */
typedef struct __emjit_grid_rec {
    void (*wait)(void *bar);
    void *bar;
    unsigned int block[3], grid[3];
} __emjit_grid_rec;

/* Whether a thread of this block already waits for the other blocks in
 * this barrier (the block's fibers share the OS thread's variables). */
static _Thread_local int __emjit_grid_waited;

EMJ_FN void __emjit_grid_enter(void *g)
{
    const __emjit_grid_rec *r = (const __emjit_grid_rec *)g;
    blockIdx.x = r->block[0];
    blockIdx.y = r->block[1];
    blockIdx.z = r->block[2];
    gridDim.x = r->grid[0];
    gridDim.y = r->grid[1];
    gridDim.z = r->grid[2];
}

/* The block's barrier, then one fiber blocks the OS thread until every
 * block has arrived (the others wait at the second barrier meanwhile). */
EMJ_FN void __emjit_grid_sync(void *g)
{
    const __emjit_grid_rec *r = (const __emjit_grid_rec *)g;
    __syncthreads();
    if (!__emjit_grid_waited) {
        __emjit_grid_waited = 1;
        r->wait(r->bar);
    }
    __syncthreads();
    __emjit_grid_waited = 0;
}
#endif
