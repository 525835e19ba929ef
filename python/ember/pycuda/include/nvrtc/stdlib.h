/* <stdlib.h> for NVRTC: malloc and free are among its builtins. */
