/* ember internal: the parts of the CUDA driver API and NVRTC that ember uses,
 * declared here so that building needs no CUDA headers (DESIGN.md principle
 * 3), and the run-time loader that fills a table of function pointers.
 *
 * The values below are the ABI of libcuda.so.1 and libnvrtc.so.N as
 * documented in cuda.h and nvrtc.h (CUDA 12/13); they are stable across
 * releases because binaries built against old headers keep working with new
 * drivers. Only what ember calls is listed.
 */
#ifndef EMBER_CUDA_API_H
#define EMBER_CUDA_API_H

#include <stddef.h>
#include <stdint.h>
#include "ember/runtime.h"

/* ---- driver types ------------------------------------------------------ */

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;   /* 64-bit on every 64-bit host */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
/* CUstreamCaptureMode: relaxed lets other threads (and the pool's
 * cuMemAlloc) call the driver while a stream captures. */
enum { CU_STREAM_CAPTURE_MODE_RELAXED = 2 };
typedef int CUjit_option;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_DEINITIALIZED = 4,
    CUDA_ERROR_STUB_LIBRARY = 34,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_ECC_UNCORRECTABLE = 214,
    CUDA_ERROR_INVALID_PTX = 218,
    CUDA_ERROR_NVLINK_UNCORRECTABLE = 220,
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    CUDA_ERROR_CONTAINED = 226,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
    CUDA_ERROR_LAUNCH_TIMEOUT = 702,
    CUDA_ERROR_ASSERT = 710,
    CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
    CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
    CUDA_ERROR_MISALIGNED_ADDRESS = 716,
    CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
    CUDA_ERROR_INVALID_PC = 718,
    CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_TENSOR_MEMORY_LEAK = 721,
    CUDA_ERROR_MPS_CLIENT_TERMINATED = 810,
    CUDA_ERROR_EXTERNAL_DEVICE = 911,
    CUDA_ERROR_UNKNOWN = 999
};

/* CUdevice_attribute values. */
enum {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
    CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
    CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
    CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
    CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
    CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
    CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
    CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    /* the last of CUDA 13.0's cuda.h */
    CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED = 147
};

/* CUpointer_attribute values and the CUmemorytype they report. */
enum { CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
       CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9 };
enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2,
       CU_MEMORYTYPE_ARRAY = 3, CU_MEMORYTYPE_UNIFIED = 4 };

enum { CU_STREAM_DEFAULT = 0x0, CU_STREAM_NON_BLOCKING = 0x1 };
enum { CU_EVENT_DEFAULT = 0x0, CU_EVENT_BLOCKING_SYNC = 0x1,
       CU_EVENT_DISABLE_TIMING = 0x2 };
enum { CU_MEMHOSTALLOC_PORTABLE = 0x01 };
enum { CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
       CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14 };

/* cuLaunchKernelEx's configuration (CUDA 12). A CUlaunchAttribute is a
 * 4-byte id, 4 bytes of padding and a 64-byte value union whose other
 * members hold pointers (so it is 8-aligned): 72 bytes. Only the members
 * ember sets are named; the union's size and alignment are the ABI's. */
enum { CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2,
       CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4 };

typedef union CUlaunchAttributeValue_union {
    char pad[64];
    void *align_as_pointer_;
    int cooperative;
    struct { unsigned x, y, z; } clusterDim;
} CUlaunchAttributeValue;

typedef struct CUlaunchAttribute_st {
    int id;                       /* CUlaunchAttributeID, an int-sized enum */
    char pad[4];
    CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig_st {
    unsigned gridDimX, gridDimY, gridDimZ;
    unsigned blockDimX, blockDimY, blockDimZ;
    unsigned sharedMemBytes;
    CUstream hStream;
    CUlaunchAttribute *attrs;
    unsigned numAttrs;
} CUlaunchConfig;

_Static_assert(sizeof(CUlaunchAttributeValue) == 64, "cuda.h: 64-byte union");
_Static_assert(sizeof(CUlaunchAttribute) == 72 &&
               offsetof(CUlaunchAttribute, value) == 8, "cuda.h: CUlaunchAttribute");
_Static_assert(sizeof(CUlaunchConfig) == 56 &&
               offsetof(CUlaunchConfig, hStream) == 32 &&
               offsetof(CUlaunchConfig, attrs) == 40 &&
               offsetof(CUlaunchConfig, numAttrs) == 48, "cuda.h: CUlaunchConfig");
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };

/* ---- NVRTC types ------------------------------------------------------- */

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

enum {
    NVRTC_SUCCESS = 0,
    NVRTC_ERROR_OUT_OF_MEMORY = 1,
    NVRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
    NVRTC_ERROR_INVALID_INPUT = 3,
    NVRTC_ERROR_INVALID_PROGRAM = 4,
    NVRTC_ERROR_INVALID_OPTION = 5,
    NVRTC_ERROR_COMPILATION = 6
};

/* ---- the tables -------------------------------------------------------- */

/* Each member is named after the symbol it was resolved from, so a reader
 * sees exactly which ABI version is called (cuda.h maps cuMemAlloc to
 * cuMemAlloc_v2 and so on; dlsym gets no such help). Members marked
 * optional may be NULL. */
struct em_cuda_driver {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int *version);
    CUresult (*cuGetErrorName)(CUresult r, const char **name);
    CUresult (*cuGetErrorString)(CUresult r, const char **str);
    CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
    CUresult (*cuDeviceGetAttribute)(int *value, int attrib, CUdevice dev);
    CUresult (*cuDeviceTotalMem_v2)(size_t *bytes, CUdevice dev);
    /* CUuuid is a struct of 16 chars: a pointer to 16 bytes is the same */
    CUresult (*cuDeviceGetUuid_v2)(unsigned char *uuid, CUdevice dev);
    CUresult (*cuDeviceGetUuid)(unsigned char *uuid, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
    CUresult (*cuCtxGetCurrent)(CUcontext *ctx);
    CUresult (*cuCtxSetCurrent)(CUcontext ctx);
    CUresult (*cuCtxPushCurrent_v2)(CUcontext ctx);
    CUresult (*cuCtxPopCurrent_v2)(CUcontext *ctx);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuMemGetInfo_v2)(size_t *free_b, size_t *total_b);
    CUresult (*cuMemAlloc_v2)(CUdeviceptr *p, size_t n);
    CUresult (*cuMemFree_v2)(CUdeviceptr p);
    CUresult (*cuMemHostAlloc)(void **p, size_t n, unsigned flags);
    CUresult (*cuMemFreeHost)(void *p);
    CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t n,
                              CUstream s);
    CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char v, size_t n,
                                CUstream s);
    /* What the driver knows of an address (CUDA 7+): unlike the singular
     * cuPointerGetAttribute it answers CUDA_SUCCESS with zeroed values for
     * memory it never saw, so a foreign host pointer is no error. */
    CUresult (*cuPointerGetAttributes)(unsigned n, int *attributes,
                                       void **data, CUdeviceptr p);
    CUresult (*cuStreamCreate)(CUstream *s, unsigned flags);
    CUresult (*cuStreamCreateWithPriority)(CUstream *s, unsigned flags,
                                           int priority);
    CUresult (*cuCtxGetStreamPriorityRange)(int *least, int *greatest);
    CUresult (*cuStreamDestroy_v2)(CUstream s);
    /* What em_stream_adopt asks of a stream made elsewhere */
    CUresult (*cuStreamGetFlags)(CUstream s, unsigned *flags);
    CUresult (*cuStreamGetPriority)(CUstream s, int *priority);
    CUresult (*cuStreamGetCtx)(CUstream s, CUcontext *ctx);
    CUresult (*cuStreamSynchronize)(CUstream s);
    CUresult (*cuStreamQuery)(CUstream s);
    CUresult (*cuStreamWaitEvent)(CUstream s, CUevent e, unsigned flags);
    CUresult (*cuEventCreate)(CUevent *e, unsigned flags);
    CUresult (*cuEventDestroy_v2)(CUevent e);
    CUresult (*cuEventRecord)(CUevent e, CUstream s);
    CUresult (*cuEventSynchronize)(CUevent e);
    CUresult (*cuEventQuery)(CUevent e);
    /* cuEventElapsedTime_v2 (CUDA 12.8+) if the driver has it, else the
     * original cuEventElapsedTime; same signature. */
    CUresult (*cuEventElapsedTime)(float *ms, CUevent a, CUevent b);
    CUresult (*cuModuleLoadDataEx)(CUmodule *m, const void *image,
                                   unsigned n_opts, CUjit_option *opts,
                                   void **values);
    CUresult (*cuModuleUnload)(CUmodule m);
    CUresult (*cuModuleGetFunction)(CUfunction *f, CUmodule m,
                                    const char *name);
    CUresult (*cuModuleGetGlobal_v2)(CUdeviceptr *p, size_t *bytes, CUmodule m,
                                     const char *name);
    CUresult (*cuFuncGetAttribute)(int *value, int attrib, CUfunction f);
    CUresult (*cuFuncSetAttribute)(CUfunction f, int attrib, int value);
    /* optional: CUDA 12.4+ */
    CUresult (*cuFuncGetParamInfo)(CUfunction f, size_t index,
                                   size_t *offset, size_t *size);
    CUresult (*cuLaunchKernel)(CUfunction f, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shared, CUstream s,
                               void **params, void **extra);
    /* optional: grids whose blocks run at once, and the occupancy that
     * sizes them (ember.cuda.jit's grid.sync()) */
    CUresult (*cuLaunchCooperativeKernel)(CUfunction f, unsigned gx,
                                          unsigned gy, unsigned gz,
                                          unsigned bx, unsigned by,
                                          unsigned bz, unsigned shared,
                                          CUstream s, void **params);
    /* optional: CUDA 12+, for thread block clusters (and cooperative
     * launches, which it also makes) */
    CUresult (*cuLaunchKernelEx)(const CUlaunchConfig *config, CUfunction f,
                                 void **params, void **extra);
    CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(
        int *blocks, CUfunction f, int block_size, size_t dyn_shared);
    /* optional: graphs (CUDA 11.4+ for cuGraphInstantiateWithFlags) */
    CUresult (*cuStreamBeginCapture_v2)(CUstream s, int mode);
    CUresult (*cuStreamEndCapture)(CUstream s, CUgraph *g);
    CUresult (*cuStreamIsCapturing)(CUstream s, int *status);
    CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *e, CUgraph g,
                                            unsigned long long flags);
    CUresult (*cuGraphLaunch)(CUgraphExec e, CUstream s);
    CUresult (*cuGraphUpload)(CUgraphExec e, CUstream s);
    CUresult (*cuGraphExecDestroy)(CUgraphExec e);
    CUresult (*cuGraphDestroy)(CUgraph g);
    /* optional: peer access between GPUs (cuda_peer.c) */
    CUresult (*cuDeviceCanAccessPeer)(int *can, CUdevice dev, CUdevice peer);
    CUresult (*cuCtxEnablePeerAccess)(CUcontext peer, unsigned flags);
};

struct em_cuda_nvrtc {
    const char *(*nvrtcGetErrorString)(nvrtcResult r);
    nvrtcResult (*nvrtcVersion)(int *major, int *minor);
    /* optional: NVRTC 11.2+ */
    nvrtcResult (*nvrtcGetNumSupportedArchs)(int *n);
    nvrtcResult (*nvrtcGetSupportedArchs)(int *archs);
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *p, const char *src,
                                      const char *name, int n_headers,
                                      const char *const *headers,
                                      const char *const *include_names);
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *p);
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram p, int n_opts,
                                       const char *const *opts);
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram p, size_t *n);
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram p, char *ptx);
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram p, size_t *n);
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram p, char *cubin);
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram p, size_t *n);
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram p, char *log);
    /* optional: C++ name expressions (NVRTC 10+) */
    nvrtcResult (*nvrtcAddNameExpression)(nvrtcProgram p, const char *expr);
    nvrtcResult (*nvrtcGetLoweredName)(nvrtcProgram p, const char *expr,
                                       const char **lowered);
    /* optional: LTO-IR from -dlto (NVRTC 12.0+) */
    nvrtcResult (*nvrtcGetLTOIRSize)(nvrtcProgram p, size_t *n);
    nvrtcResult (*nvrtcGetLTOIR)(nvrtcProgram p, char *ltoir);
};

/* Filled once by the loaders below; read-only afterwards. */
extern struct em_cuda_driver em_cuda_drv;
extern struct em_cuda_nvrtc em_cuda_nvrtc_fn;

/* Open libcuda and resolve its symbols, once per process (thread-safe).
 * EM_OK, or EM_ERR_UNAVAILABLE with the reason set as this thread's error
 * on every call (the reason is kept, so each caller sees it). Does not call
 * cuInit. */
em_status em_cuda_load_driver(void);

/* As em_cuda_load_driver, then cuInit(0) once. EM_ERR_UNAVAILABLE naming
 * the CUresult when the driver sees no usable GPU. */
em_status em_cuda_init_driver(void);

/* Open NVRTC, independent of libcuda ($EMBER_NVRTC_PATH, then the usual
 * sonames, then $CUDA_HOME, $CUDA_PATH and /usr/local/cuda lib64). */
em_status em_cuda_load_nvrtc(void);

/* The path NVRTC was opened from, or NULL if not loaded. */
const char *em_cuda_nvrtc_path(void);
/* The CUDA toolkit's include directory NVRTC compiles get with -I
 * (nvrtc.c says which), or NULL when none was found. */
const char *em_cuda_include_dir(void);

/* "CUDA_ERROR_OUT_OF_MEMORY" for a CUresult; never NULL. */
const char *em_cuda_error_name(CUresult r);
/* The driver's description of a CUresult ("out of memory"); never NULL. */
const char *em_cuda_error_string(CUresult r);

/* The architecture (10*major+minor) of CUDA device 0 when a driver and GPU
 * work, else 0. Probed once. */
int em_cuda_first_device_arch(void);

/* Compile with NVRTC (nvrtc.c). As em_compile_cuda with arch > 0; when
 * ptx_fallback is set and the arch is newer than this NVRTC can build
 * machine code for, PTX for the newest architecture it knows is made
 * instead (the driver JIT-compiles it forward). */
em_status em_cuda_nvrtc_compile(const char *source, const char *name,
                                const char *const *options, int n_options,
                                int arch, em_code_kind kind, int ptx_fallback,
                                em_code **out, char **out_log);

#endif
