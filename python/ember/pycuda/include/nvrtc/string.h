/* <string.h> for NVRTC: memcpy and memset are among its builtins. */
