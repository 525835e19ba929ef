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

#ifdef __cplusplus
}
#endif
#endif
