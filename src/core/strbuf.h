/* ember core (internal): a growable string for generated source and
 * compiler command lines. Appends after a failed allocation are no-ops and
 * set `oom`, so a generator writes its whole text and checks once. */
#ifndef EMBER_CORE_STRBUF_H
#define EMBER_CORE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "ember/status.h"

typedef struct em_sb {
    char *p;        /* NUL-terminated once anything was appended */
    size_t n, cap;
    int oom;
} em_sb;

void em_sb_vprintf(em_sb *b, const char *fmt, va_list ap);
void em_sb_printf(em_sb *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void em_sb_puts(em_sb *b, const char *s);

/* The text into *out (the caller frees it), or EM_ERR_OUT_OF_MEMORY naming
 * `what` ("a fused kernel") when an append failed. The one check a
 * generator makes at its end. */
em_status em_sb_take(em_sb *b, char **out, const char *what);

#endif
