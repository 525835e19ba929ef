/* ember core: status names and the thread-local error message. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "ember/status.h"

/* A fixed buffer per thread: a compiler log may be long, so it is large,
 * but failures must not allocate (one may be out-of-memory itself). */
#define EM_ERRMSG_SIZE 16384

static _Thread_local char em_errmsg[EM_ERRMSG_SIZE];
static _Thread_local int em_errnative;
static _Thread_local char em_errnative_name[64];

static const char *const em_status_names[EM_STATUS_COUNT] = {
    "EM_OK", "EM_ERR_INVALID_VALUE", "EM_ERR_TYPE", "EM_ERR_INDEX",
    "EM_ERR_OUT_OF_MEMORY", "EM_ERR_NOT_FOUND", "EM_ERR_UNAVAILABLE",
    "EM_ERR_CUDA", "EM_ERR_DEVICE_FAULT", "EM_ERR_COMPILE", "EM_ERR_IO",
    "EM_ERR_NOT_SUPPORTED", "EM_ERR_OVERFLOW", "EM_ERR_INTERNAL",
    "EM_ERR_AXIS", "EM_ERR_LINALG", "EM_ERR_CAPTURE",
};

const char *em_last_error(void) { return em_errmsg; }
int em_last_error_native(void) { return em_errnative; }
const char *em_last_error_native_name(void) { return em_errnative_name; }

const char *em_status_name(em_status s)
{
    if ((unsigned)s >= EM_STATUS_COUNT)
        return "EM_ERR_UNKNOWN";
    return em_status_names[s];
}

static void em_set_message(const char *fmt, va_list ap)
{
    /* Format into a scratch copy first: callers may pass em_last_error()
     * itself as an argument to wrap an inner failure's message. */
    static _Thread_local char scratch[EM_ERRMSG_SIZE];
    vsnprintf(scratch, sizeof scratch, fmt, ap);
    memcpy(em_errmsg, scratch, sizeof em_errmsg);
}

em_status em_error(em_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    em_set_message(fmt, ap);
    va_end(ap);
    em_errnative = 0;
    em_errnative_name[0] = 0;
    return s;
}

em_status em_error_native(em_status s, int native, const char *native_name,
                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    em_set_message(fmt, ap);
    va_end(ap);
    em_errnative = native;
    snprintf(em_errnative_name, sizeof em_errnative_name, "%s",
             native_name ? native_name : "");
    return s;
}
