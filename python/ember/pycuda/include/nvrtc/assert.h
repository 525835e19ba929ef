/* <assert.h> for NVRTC: assert() is one of its builtins. */
