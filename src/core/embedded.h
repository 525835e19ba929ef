/* ember internal: kernel templates and device helpers from kernels/,
 * embedded at build time by tools/embed.c. */
#ifndef EMBER_EMBEDDED_H
#define EMBER_EMBEDDED_H

extern const char em_embedded_host_prelude_h[];
extern const char em_embedded_host_prelude_cxx_h[];

/* NULL-terminated parallel lists of every embedded file. */
extern const char *const em_embedded_names[];
extern const char *const em_embedded_sources[];

#endif
