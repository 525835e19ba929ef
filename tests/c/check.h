/* ember C tests: a tiny harness. Each test file is one executable; CHECK
 * records a failure with file:line and goes on, so one run shows them all. */
#ifndef EMBER_CHECK_H
#define EMBER_CHECK_H

#include <stdio.h>
#include <stdlib.h>
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

#endif
