/* ember backend (internal): how a CUDA library is found (vendor.c). The
 * search is its own function so a test can run it for a library that
 * does not exist. */
#ifndef EMBER_BACKEND_VENDOR_H
#define EMBER_BACKEND_VENDOR_H

#include <stddef.h>
#include "ember/ember.h"

#define EM_VENDOR_MAX_SONAMES 3

typedef struct em_vendor_desc {
    const char *name;                           /* "cuFFT" */
    const char *sonames[EM_VENDOR_MAX_SONAMES]; /* newest first; NULL ends */
    const char *package;                        /* what pip installs it from */
    int cpu;                                    /* a host library, not CUDA's */
    int driver;                                 /* comes with the driver */
} em_vendor_desc;

/* d's library opened from the first place that has it (em_vendor_open's
 * order; dirs are the added folders), with the file in path; or NULL with
 * the message in why. */
void *em_vendor_search(const em_vendor_desc *d, const char *const *dirs, int n_dirs,
                       char *path, size_t n, char *why, size_t why_n);

#endif
