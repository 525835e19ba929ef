/* ember: status codes and the thread-local error message.
 *
 * Every fallible ember function returns em_status. EM_OK is zero; anything
 * else is a failure whose detail (what failed, with the values involved) is
 * fetched with em_last_error() on the same thread, until the next failure on
 * that thread replaces it. Success does not clear the message.
 */
#ifndef EMBER_STATUS_H
#define EMBER_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum em_status {
    EM_OK = 0,
    EM_ERR_INVALID_VALUE,   /* a bad argument: ValueError */
    EM_ERR_TYPE,            /* a wrong type or kind of argument: TypeError */
    EM_ERR_INDEX,           /* an index out of range: IndexError */
    EM_ERR_OUT_OF_MEMORY,   /* host or device memory exhausted: MemoryError */
    EM_ERR_NOT_FOUND,       /* a name, file or entry that does not exist */
    EM_ERR_UNAVAILABLE,     /* a library, driver or device is missing */
    EM_ERR_CUDA,            /* a CUDA driver call failed: ember.CUDAError */
    EM_ERR_DEVICE_FAULT,    /* a sticky device fault: the context is dead */
    EM_ERR_COMPILE,         /* a compiler rejected source: ember.CompileError */
    EM_ERR_IO,              /* a file-system failure: OSError */
    EM_ERR_NOT_SUPPORTED,   /* valid but not implemented on this backend */
    EM_ERR_OVERFLOW,        /* a value does not fit its destination */
    EM_ERR_INTERNAL,        /* a broken invariant inside ember */
    EM_ERR_AXIS,            /* an axis out of range: ember.AxisError */
    EM_ERR_LINALG,          /* a matrix LAPACK cannot take (singular, not
                               positive definite, no convergence):
                               ember.linalg.LinAlgError */
    EM_ERR_CAPTURE,         /* an operation a stream capture cannot record:
                               ember.StreamCaptureError */
    EM_STATUS_COUNT
} em_status;

/* The message of the last failure on this thread ("" if none). The string
 * belongs to ember and stays valid until the next failure on this thread. */
const char *em_last_error(void);

/* The native error code behind the last failure on this thread, when a
 * backend library gave one (a CUresult, an nvrtcResult, errno), else 0. */
int em_last_error_native(void);

/* The native error's symbolic name ("CUDA_ERROR_OUT_OF_MEMORY"), or "". */
const char *em_last_error_native_name(void);

/* A short stable name of a status ("EM_ERR_CUDA"). */
const char *em_status_name(em_status s);

/* Record a failure for this thread and return s, so a caller can write
 * `return em_error(EM_ERR_INVALID_VALUE, "bad size %zu", n);`. */
em_status em_error(em_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* As em_error, also recording a backend's native code and its name. */
em_status em_error_native(em_status s, int native, const char *native_name,
                          const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
