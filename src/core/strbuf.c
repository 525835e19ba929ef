/* ember core: the growable string of strbuf.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

void em_sb_vprintf(em_sb *b, const char *fmt, va_list ap)
{
    va_list aq;
    int k;
    if (b->oom)
        return;
    va_copy(aq, ap);
    k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, aq);
    va_end(aq);
    if (k < 0) {
        b->oom = 1;
        return;
    }
    if (!b->p || b->n + (size_t)k + 1 > b->cap) {
        /* Doubling keeps a generator's many small appends linear. */
        size_t cap = b->cap ? b->cap : 4096;
        char *p;
        while (cap < b->n + (size_t)k + 1)
            cap *= 2;
        if (!(p = realloc(b->p, cap))) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
        vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    }
    b->n += (size_t)k;
}

void em_sb_printf(em_sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    em_sb_vprintf(b, fmt, ap);
    va_end(ap);
}

void em_sb_puts(em_sb *b, const char *s)
{
    em_sb_printf(b, "%s", s);
}

em_status em_sb_take(em_sb *b, char **out, const char *what)
{
    if (b->oom) {
        free(b->p);
        memset(b, 0, sizeof *b);
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of memory generating %s",
                        what);
    }
    *out = b->p;
    return EM_OK;
}
