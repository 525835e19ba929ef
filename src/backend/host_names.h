/* ember host backend: the symbol a kernel's launcher is exported under.
 *
 * host_compile.c writes launchers named __em_blocks_<sym> (and the
 * parameter tables __em_nparams_<sym>, __em_psizes_<sym>); host.c finds
 * them with dlsym. A kernel named by an identifier uses it as <sym>, as C
 * modules always did. A C++ name expression ("axpy<float>", "ns::k") is no
 * identifier: <sym> is then "_X" and the hex of its bytes, which both
 * files compute here so they cannot disagree.
 */
#ifndef EMBER_BACKEND_HOST_NAMES_H
#define EMBER_BACKEND_HOST_NAMES_H

#include <stddef.h>

static inline int em_host_is_identifier(const char *s)
{
    if (!*s || (*s >= '0' && *s <= '9'))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

/* The symbol suffix of kernel `name` into out[n]; 0 if it does not fit. */
static inline int em_host_kernel_symbol(const char *name, char *out, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    if (em_host_is_identifier(name)) {
        for (; *name; name++) {
            if (k + 1 >= n)
                return 0;
            out[k++] = *name;
        }
    } else {
        if (n < 3)
            return 0;
        out[k++] = '_';
        out[k++] = 'X';
        for (; *name; name++) {
            if (k + 2 >= n)
                return 0;
            out[k++] = hex[(unsigned char)*name >> 4];
            out[k++] = hex[(unsigned char)*name & 15];
        }
    }
    out[k] = 0;
    return 1;
}

#endif
