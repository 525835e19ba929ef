/* ember: fast Fourier transforms on CUDA devices (the math layer).
 *
 * One call is one cuFFT plan execution: a batch of 1- to 3-dimensional
 * transforms over the last `rank` axes of C-contiguous arrays. NumPy's
 * semantics (lengths n and s, any axes, norm, hfft) are composed above
 * this in python/ember/fft. cuFFT is opened at run time
 * (em_vendor_open(EM_VENDOR_CUFFT)); a missing library is
 * EM_ERR_UNAVAILABLE naming the pip package. The cpu device's transforms
 * are pocketfft through NumPy, so on cpu this is EM_ERR_NOT_SUPPORTED.
 */
#ifndef EMBER_FFT_H
#define EMBER_FFT_H

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum em_fft_type {
    EM_FFT_C2C, /* complex64 -> complex64, complex128 -> complex128 */
    EM_FFT_R2C, /* float32 -> complex64, float64 -> complex128 */
    EM_FFT_C2R  /* complex64 -> float32, complex128 -> float64 */
} em_fft_type;

/* out = the unnormalised transform of in over its last rank (1 to 3) axes,
 * batched over the others: sign -1 forward, +1 inverse (C2C only; R2C is
 * forward and C2R inverse). The lengths are the real side's (in's for C2C
 * and R2C, out's for C2R), the complex side's last axis n/2 + 1. C2R
 * overwrites in, as cuFFT does. Queued on stream s (NULL: the thread's
 * current stream when it is on the arrays' device, else the device's
 * default). Plans are made once per device, type, lengths and batch and
 * kept (a few dozen, least recently used first out); one mutex orders
 * their use, so any thread may call. */
em_status em_fft_exec(const em_array *in, em_array *out, int rank,
                      em_fft_type type, int sign, em_stream *s);

/* The plan cache (CuPy's cupy.fft.config.PlanCache): at most EM_FFT_PLANS
 * plans, one table for every device and thread. em_fft_plans reports its
 * capacity and the plans held; em_fft_plans_resize sets the capacity (0
 * makes each plan for one call and destroys it after), destroying the
 * least recently used past it; em_fft_plans_clear destroys them all. */
#define EM_FFT_PLANS 32
void em_fft_plans(int *capacity, int *held);
em_status em_fft_plans_resize(int capacity);
em_status em_fft_plans_clear(void);

#ifdef __cplusplus
}
#endif
#endif
