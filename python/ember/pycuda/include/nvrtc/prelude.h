/* Pre-included in PyCUDA-style source under NVRTC: the names nvcc's
 * implicit cuda_runtime.h brings from the host's <sys/types.h>. */
#ifndef EMBER_PYCUDA_PRELUDE_H
#define EMBER_PYCUDA_PRELUDE_H
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
#endif
