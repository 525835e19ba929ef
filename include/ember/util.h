/* ember: hashing and logging, used by every layer. */
#ifndef EMBER_UTIL_H
#define EMBER_UTIL_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A fast 64-bit non-cryptographic hash of n bytes (ember's own mix of
 * multiply-rotate rounds over 8-byte words). Stable across runs, processes
 * and machines of the same byte order, so it may name files on disk. */
uint64_t em_hash64(const void *data, size_t n, uint64_t seed);

/* Combine a running hash with one more 64-bit value (order matters). */
uint64_t em_hash_combine(uint64_t h, uint64_t v);

typedef enum em_log_level {
    EM_LOG_DEBUG = 0, EM_LOG_INFO = 1, EM_LOG_WARN = 2, EM_LOG_OFF = 3
} em_log_level;

/* The level set by EMBER_LOG=debug|info|warn (read once; default warn). */
em_log_level em_log_level_get(void);

/* Set the level at run time (tests, the Python module). */
void em_log_level_set(em_log_level level);

/* Print "ember[level] module: message" to stderr when level is enabled.
 * Cheap when disabled: callers may guard with em_log_enabled(). */
void em_log(em_log_level level, const char *module, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#define em_log_enabled(level) ((level) >= em_log_level_get())

/* ember's environment variables, in one table (src/core/knob.c; docs/knobs.md
 * lists them with their meanings). Tuning knobs are integers read once, on
 * first use; the others are read where they are used, so a program or test
 * may change them between calls. */
typedef enum em_knob {
    /* configuration */
    EM_KNOB_DEVICE, EM_KNOB_CACHE_DIR, EM_KNOB_NUM_THREADS, EM_KNOB_CC,
    EM_KNOB_CXX, EM_KNOB_NVRTC_PATH, EM_KNOB_CUDA_LIBS, EM_KNOB_LOG,
    EM_KNOB_BOUNDSCHECK,
    EM_KNOB_SIM_STACK, EM_KNOB_TF32, EM_KNOB_PROGRESS,
    EM_KNOB_DIST_TIMEOUT, EM_KNOB_DIST_SLOT_BYTES, EM_KNOB_COMPILE_LOG, EM_KNOB_FUSION,
    EM_KNOB_PROFILE_CUPTI_MATCH, EM_KNOB_PROFILE_CUPTI_VARIANT,
    EM_KNOB_GPU_MEMORY_LIMIT,
    /* tuning (integers, read once) */
    EM_KNOB_SCAN_ITEMS, EM_KNOB_SCAN_MINB, EM_KNOB_SCAN_LEAN,
    EM_KNOB_SORT_ITEMS, EM_KNOB_SORT_VITEMS, EM_KNOB_SORT_DITEMS,
    EM_KNOB_SORT_WINDOW, EM_KNOB_SORT_VWINDOW, EM_KNOB_SORT_MINB,
    EM_KNOB_SORT_ADAPT, EM_KNOB_SORT_SIMPLE, EM_KNOB_SORT_ONESWEEP,
    EM_KNOB_HIST_SHARED_KB, EM_KNOB_HIST_BLOCKS_PER_SM,
    /* test hooks */
    EM_KNOB_TEST_FAIL_ALLOC, EM_KNOB_TEST_HASH_SLOTS_LOG2,
    EM_KNOB_CKERNEL_CHECK_CUDA, EM_KNOB_TEST_ARANGE_KERNELS,
    EM_KNOB_TEST_FUSION_HOST_MIN,
    EM_KNOB_COUNT
} em_knob;

/* The variable's name ("EMBER_SCAN_ITEMS") and a line saying what it does;
 * NULL past EM_KNOB_COUNT. */
const char *em_knob_name(em_knob k);
const char *em_knob_meaning(em_knob k);

/* The variable's text now; NULL when unset or empty. */
const char *em_knob_text(em_knob k);

/* A tuning knob's value when it is set to an integer within its range,
 * else dflt. Read once per process. */
int em_knob_int(em_knob k, int dflt);

#ifdef __cplusplus
}
#endif
#endif
