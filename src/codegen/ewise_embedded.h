/* ember internal: the device headers of the elementwise generator,
 * embedded from kernels/ at build time (tools/embed.c). */
#ifndef EMBER_CODEGEN_EWISE_EMBEDDED_H
#define EMBER_CODEGEN_EWISE_EMBEDDED_H

extern const char em_embedded_ewise_ops_h[];

#endif
