/* <stdio.h> for NVRTC: printf is one of its builtins. */
