/* ember math: one vendor-library handle per device (cuBLAS, cuSOLVER),
 * made on first use and kept. A handle must not serve two threads at once
 * (its stream is state), so each has a mutex, held from binding the
 * stream to the last queued call of one operation. */
#ifndef EMBER_MATH_LIB_HANDLE_H
#define EMBER_MATH_LIB_HANDLE_H

#include <pthread.h>

#include "ember/runtime.h"

#define EM_LIB_DEVICES 64

typedef struct em_lib_handle {
    pthread_mutex_t lock;
    void *h;   /* the library's handle; NULL until first use */
    void *aux; /* a second per-device object the library wants, or NULL */
} em_lib_handle;

typedef struct em_lib_handles {
    const char *lib; /* "cuBLAS", for messages */
    /* make slot->h (and slot->aux) on the current device */
    em_status (*create)(em_lib_handle *slot);
    /* queue the handle's later work on a native stream */
    em_status (*bind)(void *h, void *stream);
    em_lib_handle slot[EM_LIB_DEVICES];
} em_lib_handles;

#define EM_LIB_HANDLES_INIT(lib, create, bind)                              \
    {lib, create, bind,                                                     \
     {[0 ... EM_LIB_DEVICES - 1] = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL}}}

/* The handle of s's device, locked, made if new, bound to s. On failure
 * nothing is held. */
em_status em_lib_handle_take(em_lib_handles *t, em_stream *s,
                             em_lib_handle **out);

/* Unlocks a handle from em_lib_handle_take (NULL: nothing). */
void em_lib_handle_give(em_lib_handle *slot);

#endif
