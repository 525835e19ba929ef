/* ember C tests: a tiny harness. Each test file is one executable; CHECK
 * records a failure with file:line and goes on, so one run shows them all. */
#ifndef EMBER_CHECK_H
#define EMBER_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ember/ember.h"

static int check_failures;
static int check_count;

#define CHECK(cond) do { \
    check_count++; \
    if (!(cond)) { \
        check_failures++; \
        fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
    } \
} while (0)

/* An ember call that must succeed; prints em_last_error() if not. */
#define CHECK_OK(call) do { \
    em_status check_s_ = (call); \
    check_count++; \
    if (check_s_ != EM_OK) { \
        check_failures++; \
        fprintf(stderr, "%s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #call, \
                em_status_name(check_s_), em_last_error()); \
    } \
} while (0)

/* An ember call that must fail with a given status. */
#define CHECK_STATUS(call, want) do { \
    em_status check_s_ = (call); \
    check_count++; \
    if (check_s_ != (want)) { \
        check_failures++; \
        fprintf(stderr, "%s:%d: %s -> %s, wanted %s (%s)\n", __FILE__, \
                __LINE__, #call, em_status_name(check_s_), \
                em_status_name(want), em_last_error()); \
    } \
} while (0)

static inline int check_report(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

/* Whether the CUDA variants can be compiled here: 1 with NVRTC; 0 without
 * it when EMBER_TEST_NO_NVRTC=1 says that is expected (the NVRTC parts are
 * skipped); -1 otherwise, and the test fails, since every machine that
 * runs the suite has the CUDA toolkit and a silent skip would hide half
 * of it. */
static inline int check_nvrtc(const char *name)
{
    const char *skip = getenv("EMBER_TEST_NO_NVRTC");
    if (em_nvrtc_version() > 0)
        return 1;
    if (skip && !strcmp(skip, "1")) {
        printf("SKIP nvrtc parts: no NVRTC\n");
        return 0;
    }
    fprintf(stderr, "%s: NVRTC not found (%s); set EMBER_TEST_NO_NVRTC=1 on "
                    "machines without it\n",
            name, em_backend_status(EM_DEVICE_CUDA));
    return -1;
}

#endif
