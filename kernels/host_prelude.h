/* ember host prelude: the CUDA C subset that kernels use, in plain GNU C11.
 *
 * The host backend compiles kernel source with the system C compiler. It
 * puts this file in front of the user's (or a generator's) source, strips
 * the C++ token sequence `extern "C"`, and appends a launcher per kernel
 * that runs the threads of a range of blocks one after another. So a kernel
 * written for NVRTC compiles here unchanged as long as it stays inside what
 * this file provides:
 *
 *   - the qualifiers __global__, __device__, __host__, __shared__,
 *     __constant__, __managed__, __forceinline__, __noinline__,
 *     __launch_bounds__(...), __align__(n) (__restrict__ is GNU C already);
 *   - threadIdx, blockIdx, blockDim, gridDim and warpSize (1: each thread is
 *     its own warp; 32 in the block simulator);
 *   - atomicAdd, atomicSub, atomicExch, atomicMin, atomicMax, atomicInc,
 *     atomicDec, atomicCAS, atomicAnd, atomicOr, atomicXor for the types
 *     CUDA has them (and long / unsigned long, which int64_t and uint64_t
 *     are on LP64 hosts);
 *   - min/max over any mix of integer and floating types, <math.h>, and the
 *     common CUDA intrinsics (rsqrtf, __expf, __popc, __float_as_int, ...);
 *   - the vector types (float2, float4, int4, ...) with make_<type>().
 *
 * Threads of a block run on one OS thread: one after another in a loop
 * for most kernels; as fibers of the block simulator (src/backend/
 * host_sim.c) when the source needs them to cooperate. The compiler front
 * end then defines __EM_SIM, which switches on this file's __syncthreads*,
 * __syncwarp, shuffles, votes, match and reduce operations and (with
 * __EM_SIM_DYN) dynamic shared memory.
 *
 * Users' kernels (RawKernel, RawModule, ElementwiseKernel, ...) are
 * compiled as C++ instead, with kernels/host_prelude_cxx.h after this
 * file: under __cplusplus the few C-only spellings here (_Generic
 * dispatch, the min/max/exp macros) step aside for that file's overloads,
 * and everything else is shared.
 *
 * Every definition is static: each compiled kernel module is a shared
 * object with its own copy, and only the launchers are exported (and, in
 * the simulator, the figure __em_sim_stack_need; the dynamic shared
 * memory is external only so that its assembler name can be shared). Names
 * starting with __em_ are this file's internals.
 */
#ifndef EMBER_HOST_PRELUDE_H
#define EMBER_HOST_PRELUDE_H

/* sincosf, exp10f and friends are GNU extensions of <math.h>. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

/* g++ has no _Thread_local; __thread (not thread_local) keeps the
 * variables free of C++'s dynamic-initialisation wrappers. */
#ifdef __cplusplus
#define _Thread_local __thread
#endif

/* The host compiler's front end defines __EM_USER_STDINT when the source
 * declares uint64_t and friends itself (`typedef unsigned long long
 * uint64_t;`, common in NVRTC code, which has no <stdint.h>). Those names
 * then stay the source's: <stdlib.h> (through <sys/types.h>) would declare
 * int8_t..int64_t, so they are renamed while the system headers are read,
 * and <stdint.h> is left out. This file itself uses only built-in types. */
#ifdef __EM_USER_STDINT
#define int8_t __em_sys_int8_t
#define int16_t __em_sys_int16_t
#define int32_t __em_sys_int32_t
#define int64_t __em_sys_int64_t
#endif
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#ifndef __EM_USER_STDINT
#include <stdint.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __EM_USER_STDINT
#undef int8_t
#undef int16_t
#undef int32_t
#undef int64_t
#endif

/* ---- qualifiers --------------------------------------------------------- */

/* Kernels and device functions are static so the compiler may inline them
 * into the launcher; only the launchers need to be visible. In C++ a
 * __device__ may qualify a member function, which `static` would change,
 * and __device__/__constant__ variables must be found by name
 * (RawModule.get_global, through dlsym): they are visible there, and the
 * module is built with -fno-semantic-interposition so calls still inline. */
#ifdef __cplusplus
#define __global__ static
#define __device__ __attribute__((visibility("default")))
#else
#define __global__ static
#define __device__ static
#endif
#define __host__
/* Per OS thread, hence per block in flight: the threads of a block run on
 * one OS thread, so they share it as on the GPU. A __shared__ variable
 * keeps its value from one block to the next on the same thread; CUDA
 * leaves shared memory undefined at block start, so no kernel can tell. */
#define __shared__ static _Thread_local
/* Left writable and external (no `const`) because the host may later set
 * it, as cudaMemcpyToSymbol does. */
#ifdef __cplusplus
#define __constant__ __attribute__((visibility("default")))
#else
#define __constant__
#endif
#define __managed__
#define __grid_constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __ldg(p) (*(p))

/* ---- vector types -------------------------------------------------------- */

/* The alignments are CUDA's, so a generator's 16-byte vector accesses
 * (float4, int4, double2) compile to the same layout on both backends. */
#define __EM_VEC2(T, name, al)                                                \
    typedef struct __attribute__((aligned(al))) name { T x, y; } name;        \
    static inline name make_##name(T x, T y)                                  \
    { name v = {x, y}; return v; }
#define __EM_VEC3(T, name)                                                    \
    typedef struct name { T x, y, z; } name;                                  \
    static inline name make_##name(T x, T y, T z)                             \
    { name v = {x, y, z}; return v; }
#define __EM_VEC4(T, name, al)                                                \
    typedef struct __attribute__((aligned(al))) name { T x, y, z, w; } name;  \
    static inline name make_##name(T x, T y, T z, T w)                        \
    { name v = {x, y, z, w}; return v; }

#define __EM_VEC1(T, name, al)                                                \
    typedef struct __attribute__((aligned(al))) name { T x; } name;           \
    static inline name make_##name(T x) { name v = {x}; return v; }

/* One row per element type: its 1-, 2-, 3- and 4-wide vectors, given the
 * alignments of the 1-, 2- and 4-wide ones (the 3-wide one keeps its
 * element's alignment, as in CUDA). */
#define __EM_VECS(T, base, al1, al2, al4)                                     \
    __EM_VEC1(T, base##1, al1)                                                \
    __EM_VEC2(T, base##2, al2)                                                \
    __EM_VEC3(T, base##3)                                                     \
    __EM_VEC4(T, base##4, al4)

/* Every vector type of CUDA's vector_types.h, with its alignment (long is
 * 8 bytes here, as on 64-bit Linux hosts and GPUs). */
__EM_VECS(signed char, char, 1, 2, 4)
__EM_VECS(unsigned char, uchar, 1, 2, 4)
__EM_VECS(short, short, 2, 4, 8)
__EM_VECS(unsigned short, ushort, 2, 4, 8)
__EM_VECS(int, int, 4, 8, 16)
__EM_VECS(unsigned int, uint, 4, 8, 16)
__EM_VECS(long, long, 8, 16, 16)
__EM_VECS(unsigned long, ulong, 8, 16, 16)
__EM_VECS(float, float, 4, 8, 16)
__EM_VECS(long long, longlong, 8, 16, 16)
__EM_VECS(unsigned long long, ulonglong, 8, 16, 16)
__EM_VECS(double, double, 8, 16, 16)

/* CUDA's dim3 is uint3 with constructors; C has only the layout. */
typedef uint3 dim3;

/* ---- the thread's coordinates ------------------------------------------- */

/* Thread-local because the blocks of one grid run on several pool threads
 * at once. The launcher writes them; kernels only read them. */
static _Thread_local uint3 threadIdx;
static _Thread_local uint3 blockIdx;
static _Thread_local dim3 blockDim;
static _Thread_local dim3 gridDim;

/* An enumerator, not a macro, so a local variable may still be named
 * warpSize; and a constant expression, so it may size an array. Warps
 * exist only in the block simulator (32 consecutive linear thread ids, as
 * on the GPU); elsewhere each thread is its own warp. */
#ifdef __EM_SIM
enum { warpSize = 32 };
#else
enum { warpSize = 1 };
#endif

/* Set the grid and block shape, and the coordinates of linear block b
 * (x fastest, as CUDA numbers blocks). dims = grid xyz, block xyz. */
static inline void __em_set_block(const unsigned *dims, unsigned long long b)
{
    gridDim.x = dims[0];
    gridDim.y = dims[1];
    gridDim.z = dims[2];
    blockDim.x = dims[3];
    blockDim.y = dims[4];
    blockDim.z = dims[5];
    blockIdx.x = (unsigned)(b % dims[0]);
    b /= dims[0];
    blockIdx.y = (unsigned)(b % dims[1]);
    blockIdx.z = (unsigned)(b / dims[1]);
}

/* The loops of a launcher: every thread of blocks [begin, end), threads
 * in CUDA's order (x fastest). The statement that follows runs once per
 * thread. */
#define __EM_FOR_EACH_THREAD(dims, begin, end)                                \
    for (unsigned long long __em_b = (begin); __em_b < (end); __em_b++)       \
        for (__em_set_block((dims), __em_b), threadIdx.z = 0;                 \
             threadIdx.z < blockDim.z; threadIdx.z++)                         \
            for (threadIdx.y = 0; threadIdx.y < blockDim.y; threadIdx.y++)    \
                for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++)

/* ---- the block simulator ------------------------------------------------ */

#ifdef __EM_SIM
/* host_compile.c defines __EM_SIM for source that needs the threads of a
 * block to run together. Each thread is then a fiber of the scheduler in
 * src/backend/host_sim.c, reached through this table, which must stay
 * identical to em_sim_ops in src/backend/host_sim.h. */
struct __em_sim_ops {
    int (*run_block)(void *, void (*)(void *, unsigned), void *,
                     const unsigned *, unsigned long long);
    int (*sync)(int, int, int);
    unsigned long long (*warp)(int, unsigned, unsigned long long, int, int);
};
static _Thread_local const struct __em_sim_ops *__em_sim;
/* The linear thread index (x fastest); per fiber, like threadIdx. */
static _Thread_local unsigned __em_tid;

static inline void __em_set_thread(unsigned t)
{
    __em_tid = t;
    threadIdx.x = t % blockDim.x;
    t /= blockDim.x;
    threadIdx.y = t % blockDim.y;
    threadIdx.z = t / blockDim.y;
}

/* The fibers of a block share one OS thread and so its thread-locals: a
 * fiber keeps its own coordinates on its stack across each switch. */
static inline int __em_sync(int site, int kind, int pred)
{
    uint3 t = threadIdx;
    unsigned id = __em_tid;
    int r = __em_sim->sync(site, kind, pred);
    threadIdx = t;
    __em_tid = id;
    return r;
}

static inline unsigned long long __em_warp(int op, unsigned mask,
                                           unsigned long long v, int arg,
                                           int site)
{
    uint3 t = threadIdx;
    unsigned id = __em_tid;
    unsigned long long r = __em_sim->warp(op, mask, v, arg, site);
    threadIdx = t;
    __em_tid = id;
    return r;
}

/* The site (source line) tells barriers apart: threads waiting at
 * different __syncthreads are reported, not silently matched. */
#define __syncthreads() ((void)__em_sync(__LINE__, 0, 0))
#define __syncthreads_count(p) __em_sync(__LINE__, 0, (p) != 0)
#define __syncthreads_and(p) __em_sync(__LINE__, 1, (p) != 0)
#define __syncthreads_or(p) __em_sync(__LINE__, 2, (p) != 0)
/* CUDA's default arguments: mask 0xffffffff, width warpSize. */
#define __EM_OPT(dflt, ...) ((dflt) __VA_OPT__(* 0 + (__VA_ARGS__)))
#define __syncwarp(...)                                                       \
    ((void)__em_warp(0, (unsigned)__EM_OPT(0xffffffffu, __VA_ARGS__), 0, 0,  \
                     __LINE__))

/* The lane a shuffle reads, by CUDA's rules: lanes form segments of
 * `width` (a power of two up to 32); __shfl_sync reads lane src modulo
 * width of the caller's segment; _up and _down read delta lanes away and
 * keep their own value past the segment's edge; _xor reads lane ^ mask,
 * which may lie in an earlier segment but not a later one. */
static inline int __em_shfl_src(int mode, unsigned lane, int arg, int width)
{
    unsigned w = (unsigned)width, a = (unsigned)arg, s;
    if (w - 1 >= 32 || (w & (w - 1)))
        w = 32;   /* undefined in CUDA; the whole warp here */
    switch (mode) {
    case 0:
        return (int)((lane & ~(w - 1)) | (a & (w - 1)));
    case 1:
        return (lane & (w - 1)) >= a ? (int)(lane - a) : (int)lane;
    case 2:
        return (lane & (w - 1)) + a < w ? (int)(lane + a) : (int)lane;
    default:
        s = lane ^ a;
        return s <= (lane | (w - 1)) ? (int)s : (int)lane;
    }
}

#define __EM_SHFL_T(T, sfx)                                                   \
    static inline T __em_shfl_##sfx(int site, int mode, unsigned mask, T v,   \
                                    int arg, int width)                       \
    {                                                                         \
        unsigned long long b = 0;                                             \
        memcpy(&b, &v, sizeof v);                                             \
        b = __em_warp(1, mask, b, __em_shfl_src(mode, __em_tid & 31, arg,     \
                                                width), site);                \
        memcpy(&v, &b, sizeof v);                                             \
        return v;                                                             \
    }                                                                         \
    static inline unsigned long long __em_bits_##sfx(T v)                     \
    {                                                                         \
        unsigned long long b = 0;                                             \
        memcpy(&b, &v, sizeof v);                                             \
        return b;                                                             \
    }
__EM_SHFL_T(int, i)
__EM_SHFL_T(unsigned int, u)
__EM_SHFL_T(long, l)
__EM_SHFL_T(unsigned long, ul)
__EM_SHFL_T(long long, ll)
__EM_SHFL_T(unsigned long long, ull)
__EM_SHFL_T(float, f)
__EM_SHFL_T(double, d)

/* `+ 0` promotes char and short to int, as C++ overloading would. In C++
 * the base name is an overload set (kernels/host_prelude_cxx.h). */
#ifdef __cplusplus
#define __EM_BY_TYPE(name, v) name
#else
#define __EM_BY_TYPE(name, v)                                                 \
    _Generic((v) + 0, int: name##i, unsigned int: name##u, long: name##l,     \
             unsigned long: name##ul, long long: name##ll,                    \
             unsigned long long: name##ull, float: name##f, double: name##d)
#endif
#define __EM_SHFL(mode, mask, v, arg, ...)                                    \
    __EM_BY_TYPE(__em_shfl_, v)(__LINE__, mode, (mask), (v), (int)(arg),      \
                                __EM_OPT(32, __VA_ARGS__))
#define __shfl_sync(mask, v, lane, ...) __EM_SHFL(0, mask, v, lane, __VA_ARGS__)
#define __shfl_up_sync(mask, v, d, ...) __EM_SHFL(1, mask, v, d, __VA_ARGS__)
#define __shfl_down_sync(mask, v, d, ...) __EM_SHFL(2, mask, v, d, __VA_ARGS__)
#define __shfl_xor_sync(mask, v, m, ...) __EM_SHFL(3, mask, v, m, __VA_ARGS__)

#define __ballot_sync(mask, p)                                                \
    ((unsigned)__em_warp(2, (mask), (p) != 0, 0, __LINE__))
#define __all_sync(mask, p) ((int)__em_warp(3, (mask), (p) != 0, 0, __LINE__))
#define __any_sync(mask, p) ((int)__em_warp(4, (mask), (p) != 0, 0, __LINE__))
/* The lanes that reach this __activemask together: it answers once every
 * lane of the warp that has not returned waits somewhere (here, at a
 * barrier, in a warp operation), with the lanes waiting at this line. */
#define __activemask() ((unsigned)__em_warp(15, 0, 0, 0, __LINE__))

#define __match_any_sync(mask, v)                                             \
    ((unsigned)__em_warp(5, (mask), __EM_BY_TYPE(__em_bits_, v)(v), 0,        \
                         __LINE__))
static inline unsigned __em_match_all(int site, unsigned mask,
                                      unsigned long long b, int *pred)
{
    unsigned r = (unsigned)__em_warp(6, mask, b, 0, site);
    *pred = r != 0;
    return r;
}
#define __match_all_sync(mask, v, pred)                                       \
    __em_match_all(__LINE__, (mask), __EM_BY_TYPE(__em_bits_, v)(v), (pred))

/* sm_80's warp reductions of 32-bit integers; min and max by signedness. */
static inline unsigned __em_reduce_u(int site, int op, unsigned mask, unsigned v)
{
    return (unsigned)__em_warp(op, mask, v, 0, site);
}
static inline int __em_reduce_i(int site, int op, unsigned mask, int v)
{
    op = op == 8 ? 10 : op == 9 ? 11 : op;
    return (int)(unsigned)__em_warp(op, mask, (unsigned)v, 0, site);
}
#ifdef __cplusplus
#define __EM_REDUCE(op, mask, v) __em_reduce_(__LINE__, op, (mask), (v))
#else
#define __EM_REDUCE(op, mask, v)                                              \
    _Generic((v) + 0, unsigned int: __em_reduce_u, default: __em_reduce_i)(   \
        __LINE__, op, (mask), (v))
#endif
#define __reduce_add_sync(mask, v) __EM_REDUCE(7, mask, v)
#define __reduce_min_sync(mask, v) __EM_REDUCE(8, mask, v)
#define __reduce_max_sync(mask, v) __EM_REDUCE(9, mask, v)
#define __reduce_and_sync(mask, v) __em_reduce_u(__LINE__, 12, (mask), (v))
#define __reduce_or_sync(mask, v) __em_reduce_u(__LINE__, 13, (mask), (v))
#define __reduce_xor_sync(mask, v) __em_reduce_u(__LINE__, 14, (mask), (v))

#ifdef __EM_SIM_STACK_NEED
/* What the module's large frames add up to, as host_compile.c read them
 * from the compiler: the simulator gives each fiber at least this much
 * stack (and a margin) when it runs this module's kernels. */
#ifdef __cplusplus
extern "C"   /* a const of C++ would have internal linkage */
#endif
__attribute__((visibility("default")))
const unsigned long long __em_sim_stack_need = __EM_SIM_STACK_NEED;
#endif

#ifdef __EM_SIM_DYN
/* Dynamic shared memory. host_compile.c turns `extern __shared__ T a[];`
 * into `extern __EM_DYNSH T a[] __asm__("__em_dyn_shared");`, so every
 * such array names this one per-OS-thread (so per-block) storage, as all
 * start at the block's dynamic shared memory on the GPU. It is as large
 * as the most a launch may ask for, the cpu device's 48 KiB per block. */
#define __EM_DYNSH _Thread_local
_Thread_local unsigned char __em_dyn_shared_mem[49152]
    __asm__("__em_dyn_shared") __attribute__((aligned(64)));
#endif
#endif /* __EM_SIM */

/* ---- synchronisation that needs no cooperation -------------------------- */

static inline void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_system(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

/* Nanoseconds of a monotonic clock: it only has to increase, as the
 * GPU's cycle counter does. */
static inline long long clock64(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* ---- min and max -------------------------------------------------------- */

/* CUDA overloads min/max; C selects on the type of (a) + (b), which is the
 * type the usual arithmetic conversions give the pair (so min(int,
 * unsigned) is the unsigned one, as in CUDA). Each argument is evaluated
 * once. Floating types use fminf/fmaxf like CUDA: a NaN loses to a number. */
#define __EM_MINMAX(T, sfx)                                                   \
    static inline T __em_min_##sfx(T a, T b) { return a < b ? a : b; }       \
    static inline T __em_max_##sfx(T a, T b) { return a > b ? a : b; }
__EM_MINMAX(int, i)
__EM_MINMAX(unsigned int, u)
__EM_MINMAX(long, l)
__EM_MINMAX(unsigned long, ul)
__EM_MINMAX(long long, ll)
__EM_MINMAX(unsigned long long, ull)

#ifndef __cplusplus
#define __EM_SELECT_MINMAX(op, a, b)                                          \
    _Generic((a) + (b),                                                       \
             int: __em_##op##_i, unsigned int: __em_##op##_u,                 \
             long: __em_##op##_l, unsigned long: __em_##op##_ul,              \
             long long: __em_##op##_ll, unsigned long long: __em_##op##_ull,  \
             float: f##op##f, double: f##op, long double: f##op##l)((a), (b))

#define min(a, b) __EM_SELECT_MINMAX(min, a, b)
#define max(a, b) __EM_SELECT_MINMAX(max, a, b)

/* CUDA overloads abs; C's abs takes an int, so abs(-1.5) would be 1. */
#define abs(x)                                                                \
    _Generic((x) + 0, long: labs, unsigned long: labs, long long: llabs,      \
             unsigned long long: llabs, float: fabsf, double: fabs,           \
             long double: fabsl, default: abs)(x)
#endif

static inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
static inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
static inline long long llmin(long long a, long long b) { return a < b ? a : b; }
static inline long long llmax(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

/* ---- math intrinsics ---------------------------------------------------- */

/* exp and expf without branches or calls, so GCC vectorises the loops that
 * use them (glibc's scalar expf ran elementwise exp at a third of NumPy's
 * SIMD speed). exp(x) = 2^n exp(r) with n = rint(x / ln 2), r reduced in
 * two steps (ln 2 split into a high part exact in n * hi and a low part),
 * exp(r) by its Taylor series (|r| <= 0.347: the first omitted term is
 * below 1e-8 relative for float, 2e-16 for double), and 2^n applied as
 * two powers of two so that results in the subnormal range round once.
 * Within 2 ulp, as CUDA's own expf and exp are; NaN passes through, the
 * clamps turn overflow into inf and underflow into 0 naturally. */
static inline float __em_expf(float x)
{
    float xc = x > 89.0f ? 89.0f : x < -104.0f ? -104.0f : x;
    float xs = xc == xc ? xc : 0.0f, n = rintf(xs * 1.44269504088896341f);
    float r = (xs - n * 0.693359375f) - n * -2.12194440e-4f, p, s1, s2;
    int ni = (int)n, n1 = ni >> 1, n2 = ni - n1;
    unsigned b1 = (unsigned)(n1 + 127) << 23, b2 = (unsigned)(n2 + 127) << 23;
    p = 1.0f + r * (1.0f + r * (0.5f + r * (1.66666672e-1f + r * (4.16666679e-2f +
        r * (8.33333377e-3f + r * (1.38888892e-3f + r * 1.98412701e-4f))))));
    memcpy(&s1, &b1, 4);
    memcpy(&s2, &b2, 4);
    p = p * s1 * s2;
    return x == x ? p : x;
}

static inline double __em_exp(double x)
{
    double xc = x > 710.0 ? 710.0 : x < -746.0 ? -746.0 : x;
    double xs = xc == xc ? xc : 0.0, n = rint(xs * 1.4426950408889634074);
    double r = (xs - n * 6.93147180369123816490e-01) - n * 1.90821492927058770002e-10;
    double p, s1, s2;
    int ni = (int)n, n1 = ni >> 1, n2 = ni - n1;
    unsigned long long b1 = (unsigned long long)(n1 + 1023) << 52;
    unsigned long long b2 = (unsigned long long)(n2 + 1023) << 52;
    p = 1.0 + r * (1.0 + r * (1.0 / 2 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 +
        r * (1.0 / 720 + r * (1.0 / 5040 + r * (1.0 / 40320 + r * (1.0 / 362880 +
        r * (1.0 / 3628800 + r * (1.0 / 39916800 + r * (1.0 / 479001600))))))))))));
    memcpy(&s1, &b1, 8);
    memcpy(&s2, &b2, 8);
    p = p * s1 * s2;
    return x == x ? p : x;
}
/* In C++ exp is an overload set of <cmath> that a macro would break. */
#ifndef __cplusplus
#define expf(x) __em_expf(x)
#define exp(x) __em_exp(x)
#endif


/* The fast, less exact GPU variants are the exact functions here. They
 * are macros because glibc's <math.h> already declares these names (as
 * aliases of the same functions), so they cannot be redefined static. */
#define __expf expf
#define __exp10f exp10f
#define __logf logf
#define __log2f log2f
#define __log10f log10f
#define __sinf sinf
#define __cosf cosf
#define __tanf tanf
#define __sincosf sincosf
#define __powf powf
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
static inline double rcbrt(double x) { return 1.0 / cbrt(x); }
static inline float __fdividef(float x, float y) { return x / y; }
static inline float __frcp_rn(float x) { return 1.0f / x; }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
static inline float __saturatef(float x)
{
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;   /* NaN gives 0 */
}

/* ---- bits --------------------------------------------------------------- */

static inline int __popc(unsigned int x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned int)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned int __brev(unsigned int x)
{
    unsigned int r = 0;
    for (int i = 0; i < 32; i++, x >>= 1)
        r = (r << 1) | (x & 1u);
    return r;
}
static inline unsigned int __umulhi(unsigned int a, unsigned int b)
{
    return (unsigned int)(((unsigned long long)a * b) >> 32);
}
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}

/* Reinterpretations go through memcpy, which compilers turn into a move;
 * a pointer cast would break strict aliasing. */
#define __EM_BITCAST(name, From, To)                                          \
    static inline To name(From x) { To y; memcpy(&y, &x, sizeof y); return y; }
__EM_BITCAST(__float_as_int, float, int)
__EM_BITCAST(__float_as_uint, float, unsigned int)
__EM_BITCAST(__int_as_float, int, float)
__EM_BITCAST(__uint_as_float, unsigned int, float)
__EM_BITCAST(__double_as_longlong, double, long long)
__EM_BITCAST(__longlong_as_double, long long, double)

/* ---- atomics ------------------------------------------------------------ */

/* Relaxed, as CUDA's atomics are: they order nothing but themselves. The
 * pool's join after a launch publishes every result to the caller. */
#define __EM_RELAXED __ATOMIC_RELAXED

/* The fetch-and-op family, one entry per GCC builtin. */
#define __EM_ATOMIC_FETCH(T, sfx, op)                                         \
    static inline T __em_atomic_##op##_##sfx(T *p, T v)                       \
    { return __atomic_fetch_##op(p, v, __EM_RELAXED); }
/* min and max: a CAS loop that stops once the stored value already wins. */
#define __EM_ATOMIC_BOUND(T, sfx, name, cmp)                                  \
    static inline T __em_atomic_##name##_##sfx(T *p, T v)                     \
    {                                                                         \
        T old = __atomic_load_n(p, __EM_RELAXED);                             \
        while (v cmp old && !__atomic_compare_exchange_n(                     \
                   p, &old, v, 1, __EM_RELAXED, __EM_RELAXED))                \
            ;                                                                 \
        return old;                                                           \
    }
#define __EM_ATOMIC_INT(T, sfx)                                               \
    __EM_ATOMIC_FETCH(T, sfx, add)                                            \
    __EM_ATOMIC_FETCH(T, sfx, sub)                                            \
    __EM_ATOMIC_FETCH(T, sfx, and)                                            \
    __EM_ATOMIC_FETCH(T, sfx, or)                                             \
    __EM_ATOMIC_FETCH(T, sfx, xor)                                            \
    static inline T __em_atomic_exch_##sfx(T *p, T v)                         \
    { return __atomic_exchange_n(p, v, __EM_RELAXED); }                       \
    static inline T __em_atomic_cas_##sfx(T *p, T cmp, T v)                   \
    {                                                                         \
        __atomic_compare_exchange_n(p, &cmp, v, 0, __EM_RELAXED,              \
                                    __EM_RELAXED);                            \
        return cmp; /* the old value, whether or not it matched */            \
    }                                                                         \
    __EM_ATOMIC_BOUND(T, sfx, min, <)                                         \
    __EM_ATOMIC_BOUND(T, sfx, max, >)
__EM_ATOMIC_INT(int, i)
__EM_ATOMIC_INT(unsigned int, u)
__EM_ATOMIC_INT(long, l)
__EM_ATOMIC_INT(unsigned long, ul)
__EM_ATOMIC_INT(long long, ll)
__EM_ATOMIC_INT(unsigned long long, ull)

/* Floating-point read-modify-write: a compare-and-swap loop on the bits
 * (a racing writer makes the CAS fail and the sum is redone). */
#define __EM_ATOMIC_FLOAT(T, Bits, sfx)                                       \
    static inline T __em_atomic_add_##sfx(T *p, T v)                          \
    {                                                                         \
        Bits oldb = __atomic_load_n((Bits *)p, __EM_RELAXED), newb;           \
        T oldv, newv;                                                         \
        do {                                                                  \
            memcpy(&oldv, &oldb, sizeof oldv);                                \
            newv = oldv + v;                                                  \
            memcpy(&newb, &newv, sizeof newb);                                \
        } while (!__atomic_compare_exchange_n((Bits *)p, &oldb, newb, 1,      \
                                              __EM_RELAXED, __EM_RELAXED));   \
        return oldv;                                                          \
    }                                                                         \
    static inline T __em_atomic_sub_##sfx(T *p, T v)                          \
    { return __em_atomic_add_##sfx(p, -v); }                                  \
    static inline T __em_atomic_exch_##sfx(T *p, T v)                         \
    {                                                                         \
        Bits nb, ob;                                                          \
        T old;                                                                \
        memcpy(&nb, &v, sizeof nb);                                           \
        ob = __atomic_exchange_n((Bits *)p, nb, __EM_RELAXED);                \
        memcpy(&old, &ob, sizeof old);                                        \
        return old;                                                           \
    }
__EM_ATOMIC_FLOAT(float, unsigned int, f)
__EM_ATOMIC_FLOAT(double, unsigned long long, d)

/* CUDA's wrapping counters: atomicInc stores (old >= v) ? 0 : old + 1,
 * atomicDec stores (old == 0 || old > v) ? v : old - 1. */
static inline unsigned int atomicInc(unsigned int *p, unsigned int v)
{
    unsigned int old = __atomic_load_n(p, __EM_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old, old >= v ? 0u : old + 1u, 1,
                                        __EM_RELAXED, __EM_RELAXED))
        ;
    return old;
}
static inline unsigned int atomicDec(unsigned int *p, unsigned int v)
{
    unsigned int old = __atomic_load_n(p, __EM_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old,
                                        (old == 0u || old > v) ? v : old - 1u,
                                        1, __EM_RELAXED, __EM_RELAXED))
        ;
    return old;
}

/* Dispatch on the pointer's type. A type CUDA lacks the operation for
 * (atomicMax on float) is a compile error, as it is with NVRTC. */
#define __EM_ATOMIC_INTS(op)                                                  \
    int *: __em_atomic_##op##_i, unsigned int *: __em_atomic_##op##_u,        \
    long *: __em_atomic_##op##_l, unsigned long *: __em_atomic_##op##_ul,     \
    long long *: __em_atomic_##op##_ll,                                       \
    unsigned long long *: __em_atomic_##op##_ull
#define __EM_ATOMIC_FLOATS(op)                                                \
    float *: __em_atomic_##op##_f, double *: __em_atomic_##op##_d

#ifndef __cplusplus
#define atomicAdd(p, v) _Generic((p), __EM_ATOMIC_INTS(add), __EM_ATOMIC_FLOATS(add))((p), (v))
#define atomicSub(p, v) _Generic((p), __EM_ATOMIC_INTS(sub), __EM_ATOMIC_FLOATS(sub))((p), (v))
#define atomicExch(p, v) _Generic((p), __EM_ATOMIC_INTS(exch), __EM_ATOMIC_FLOATS(exch))((p), (v))
#define atomicMin(p, v) _Generic((p), __EM_ATOMIC_INTS(min))((p), (v))
#define atomicMax(p, v) _Generic((p), __EM_ATOMIC_INTS(max))((p), (v))
#define atomicAnd(p, v) _Generic((p), __EM_ATOMIC_INTS(and))((p), (v))
#define atomicOr(p, v) _Generic((p), __EM_ATOMIC_INTS(or))((p), (v))
#define atomicXor(p, v) _Generic((p), __EM_ATOMIC_INTS(xor))((p), (v))
#define atomicCAS(p, c, v) _Generic((p), __EM_ATOMIC_INTS(cas))((p), (c), (v))
#endif

/* erfinv and erfcinv: a first guess from M. Giles' single-precision
 * approximation ("Approximating the erfinv function", GPU Computing Gems,
 * 2011), then Halley steps on erf or erfc, whichever keeps the residual
 * relative: near |x| = 1, erf(t) - x cancels, so that side goes through
 * erfcinv(1 - |x|) (exact subtraction for |x| >= 0.5). */
static inline double __em_erfinv_guess(double x, double w)
{
    double p;
    if (w < 5.0) {
        w -= 2.5;
        p = 2.81022636e-08;
        p = 3.43273939e-07 + p * w;
        p = -3.5233877e-06 + p * w;
        p = -4.39150654e-06 + p * w;
        p = 0.00021858087 + p * w;
        p = -0.00125372503 + p * w;
        p = -0.00417768164 + p * w;
        p = 0.246640727 + p * w;
        p = 1.50140941 + p * w;
    } else {
        w = sqrt(w) - 3.0;
        p = -0.000200214257;
        p = 0.000100950558 + p * w;
        p = 0.00134934322 + p * w;
        p = -0.00367342844 + p * w;
        p = 0.00573950773 + p * w;
        p = -0.0076224613 + p * w;
        p = 0.00943887047 + p * w;
        p = 1.00167406 + p * w;
        p = 2.83297682 + p * w;
    }
    return p * x;
}

#define __EM_2_SQRTPI 1.1283791670955125739   /* 2 / sqrt(pi) */

/* |x| <= 0.5 (w is -log((1-x)(1+x))): erf(t) - x is well conditioned. */
static inline double __em_erfinv_mid(double x, double w)
{
    double t = __em_erfinv_guess(x, w);
    for (int k = 0; k < 3; k++) {
        /* f = erf(t) - x, f' = d, f'' = -2 t d: Halley's step */
        double f = erf(t) - x, d = __EM_2_SQRTPI * exp(-t * t);
        t -= f / (d + t * f);
    }
    return t;
}

static inline double erfcinv(double y)
{
    double t;
    if (!(y > 0.0 && y < 2.0))
        return y == 0.0 ? INFINITY : y == 2.0 ? -INFINITY : NAN;
    if (y > 1.0)
        return -erfcinv(2.0 - y);
    if (y >= 0.5)
        return __em_erfinv_mid(1.0 - y, -log(y * (2.0 - y)));
    if (y > 1e-7) {
        t = __em_erfinv_guess(1.0 - y, -log(y * (2.0 - y)));
    } else {
        /* Past the range Giles' polynomial was fitted on: erfc(t) ~
         * exp(-t^2) / (t sqrt(pi)), solved for t by fixed point. */
        double l = -log(y);
        t = sqrt(l);
        for (int k = 0; k < 3; k++)
            t = sqrt(l - log(t * 1.7724538509055160273));
    }
    for (int k = 0; k < 4; k++) {
        /* f = erfc(t) - y, f' = -d, f'' = 2 t d: Halley's step */
        double f = erfc(t) - y, d = __EM_2_SQRTPI * exp(-t * t);
        t += f / (d - t * f);
    }
    return t;
}

static inline double erfinv(double x)
{
    if (x != x || x < -1.0 || x > 1.0)
        return NAN;
    if (fabs(x) >= 0.5)
        return copysign(erfcinv(1.0 - fabs(x)), x);
    return __em_erfinv_mid(x, -log((1.0 - x) * (1.0 + x)));
}

/* The standard normal CDF and its inverse, through erfc so the tails keep
 * their relative precision. */
static inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
static inline double normcdfinv(double p) { return -M_SQRT2 * erfcinv(2.0 * p); }

/* exp(x^2) erfc(x): directly while exp(x^2) is finite and erfc(x) has
 * not underflowed, else its asymptotic series (x >= 10: the terms fall by
 * at least (2k-1)/200 each, twelve reach double precision). */
static inline double erfcx(double x)
{
    if (x != x)
        return x;
    if (x < 0.0)
        return x < -26.7 ? INFINITY : 2.0 * exp(x * x) - erfcx(-x);
    if (x < 10.0)
        return exp(x * x) * erfc(x);
    {
        double q = 1.0 / (2.0 * x * x), term = 1.0, sum = 1.0;
        for (int k = 1; k <= 12; k++) {
            term *= -(2.0 * k - 1.0) * q;
            sum += term;
        }
        return sum / (x * 1.7724538509055160273);   /* x sqrt(pi) */
    }
}

static inline float erfcinvf(float y) { return (float)erfcinv((double)y); }
static inline float erfinvf(float x) { return (float)erfinv((double)x); }
static inline float normcdff(float x) { return (float)normcdf((double)x); }
static inline float normcdfinvf(float p) { return (float)normcdfinv((double)p); }
static inline float erfcxf(float x) { return (float)erfcx((double)x); }

#endif /* EMBER_HOST_PRELUDE_H */
