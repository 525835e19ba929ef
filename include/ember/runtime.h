/* ember: devices, memory, streams, events, compilation, modules, launches.
 *
 * One API over two backends: `cuda` (the CUDA driver and NVRTC, opened at run
 * time with dlopen) and `host` (the CPU: the system C compiler and a thread
 * pool). Nothing here tells a caller which backend it has, except
 * em_device_type() for those that must know (transfers between devices).
 *
 * Ownership: devices are owned by ember and live until exit. Streams,
 * events and modules are created and destroyed by the caller; a function
 * belongs to its module. Compiled code (em_code) is the caller's to free.
 */
#ifndef EMBER_RUNTIME_H
#define EMBER_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include "ember/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct em_device em_device;
typedef struct em_stream em_stream;
typedef struct em_event em_event;
typedef struct em_module em_module;
typedef struct em_function em_function;

typedef enum em_device_type { EM_DEVICE_CPU = 0, EM_DEVICE_CUDA = 1 } em_device_type;

/* ---- devices ---------------------------------------------------------- */

/* Number of devices of a type. For CUDA: 0 when the driver is missing or
 * sees no GPU (why is in em_backend_status()); the cpu count is 1. */
em_status em_device_count(em_device_type type, int *count);

/* The device of a type and ordinal; EM_ERR_INVALID_VALUE if out of range,
 * EM_ERR_UNAVAILABLE (with the reason) if the backend cannot start. */
em_status em_device_get(em_device_type type, int id, em_device **out);

/* Parse "cpu", "cuda", "cuda:N" (also "gpu", "gpu:N") into a device. */
em_status em_device_parse(const char *spec, em_device **out);

/* The default device: $EMBER_DEVICE if set, else cuda:0 when a driver and a
 * GPU work, else cpu. Decided once per process. */
em_status em_device_default(em_device **out);

em_device_type em_device_get_type(const em_device *d);
int em_device_get_id(const em_device *d);
/* "cpu" or "cuda:N"; owned by ember. */
const char *em_device_name(const em_device *d);

typedef struct em_device_props {
    char name[256];               /* "NVIDIA H100 80GB HBM3"; the CPU model */
    int cc_major, cc_minor;       /* compute capability; 0.0 on cpu */
    int multiprocessor_count;     /* SMs; logical cores on cpu */
    int warp_size;                /* 32; 1 on cpu */
    int max_threads_per_block;
    int max_block_dim[3];
    int max_grid_dim[3];
    int max_shared_per_block;     /* bytes, without opt-in */
    int max_shared_per_block_optin;
    int max_shared_per_multiprocessor;
    int regs_per_block;
    int clock_rate_khz;
    int memory_clock_rate_khz;
    int memory_bus_width;         /* bits */
    int l2_cache_size;            /* bytes */
    int pci_bus_id, pci_device_id, pci_domain_id;
    int unified_addressing;
    int64_t total_memory;         /* bytes */
    unsigned char uuid[16];       /* cuDeviceGetUuid's; all zero on cpu or unknown */
} em_device_props;

em_status em_device_get_props(em_device *d, em_device_props *out);

/* CUDA's device attribute `attr` (a CUdevice_attribute number, which
 * cudaDeviceAttr shares) of d: the driver's answer on cuda; on the cpu
 * device the value em_device_props holds for the attributes it has, and
 * 0 for CUDA's others (features a cpu device has not). A number CUDA
 * does not know is EM_ERR_INVALID_VALUE. */
em_status em_device_attribute(em_device *d, int attr, int *value);

/* Free and total memory in bytes (cpu: available and total RAM). */
em_status em_device_mem_info(em_device *d, size_t *free_bytes, size_t *total_bytes);

/* Wait for all work on every stream of the device. */
em_status em_device_synchronize(em_device *d);

/* Before memory ember does not own (em_array_wrap's) goes back to its
 * owner: wait for the work already queued that may still read it. On the
 * cpu device a created stream runs its queue on its own thread, and a
 * NumPy array adopted without a copy could otherwise be freed under a
 * queued kernel; this waits for those queues (not the calling thread's
 * own, when it is one of them) and is one atomic load when none has work.
 * On a GPU it does nothing: foreign device memory lives as long as its
 * owner keeps it, as with CuPy. Never fails; errors stay with the stream
 * for its next synchronize. */
void em_device_settle_foreign(em_device *d);

/* Make d's context (CUDA's primary context of the device) current on the
 * calling thread, as a CUDA library (cuBLAS, cuFFT, cuSOLVER) called next
 * expects; nothing on cpu. */
em_status em_device_enter(em_device *d);

/* The architecture kernels are built for, part of kernel cache keys: on
 * cuda the NVRTC target, 10*major+minor (90 for an H100); on cpu a nonzero
 * digest of the CPU's model and instruction-set flags (host kernels are
 * built with -march=native), or 0 when the CPU cannot be identified. */
int em_device_arch(const em_device *d);

/* The device whose memory ptr addresses, for a pointer from elsewhere (an
 * interface dict, an int): cuda:N when the CUDA driver reports device or
 * managed memory of GPU N; cpu for host memory, pinned and registered
 * included, for an address the driver does not know, for NULL, and when
 * no CUDA driver works. */
em_status em_pointer_device(const void *ptr, em_device **out);

/* Why a backend is or is not usable: "ok", or the reason ("libcuda.so.1 not
 * found: install the NVIDIA driver", "no CUDA device"). Never fails. */
const char *em_backend_status(em_device_type type);

/* Versions as the libraries report them (CUDA: 13000 for 13.0); 0 if the
 * library is missing. Loads the library if needed; never fails. */
int em_cuda_driver_version(void);
int em_nvrtc_version(void);

/* ---- vendor libraries ------------------------------------------------- */

/* The libraries ember opens with dlopen when a feature needs them: CUDA's
 * math libraries, OpenBLAS (BLAS and LAPACK on the cpu device, from
 * the scipy-openblas64 wheel), the driver's NVML (ember/nvml.h), NVTX and
 * CUPTI (the profiler's ranges and device times, ember/profile.h). */
typedef enum em_vendor_lib {
    EM_VENDOR_CUBLAS, EM_VENDOR_CUBLASLT, EM_VENDOR_CUFFT, EM_VENDOR_CUSOLVER,
    EM_VENDOR_CUSPARSE, EM_VENDOR_CURAND, EM_VENDOR_OPENBLAS, EM_VENDOR_NVML,
    EM_VENDOR_NCCL, EM_VENDOR_NVTX, EM_VENDOR_CUPTI, EM_VENDOR_COUNT
} em_vendor_lib;

/* Look in dir too (after $EMBER_CUDA_LIBS, before $CUDA_HOME): the Python
 * package adds the lib/ folders of pip's nvidia-* wheels. A directory
 * added after a library was opened does not reopen it. */
em_status em_vendor_add_dir(const char *dir);

/* The library, opened once: found in $EMBER_CUDA_LIBS (folders separated
 * by ':'), the added folders, $CUDA_HOME/lib64, $CUDA_PATH/lib64,
 * /usr/local/cuda/lib64, then the loader's path. EM_ERR_UNAVAILABLE names
 * the library, where it was looked for and the pip package that has it. */
em_status em_vendor_open(em_vendor_lib lib, void **handle);

/* "cuFFT"; the file it was loaded from (NULL until opened, or when it
 * could not be); NULL past EM_VENDOR_COUNT. */
const char *em_vendor_name(em_vendor_lib lib);
const char *em_vendor_path(em_vendor_lib lib);

/* A function of a vendor library, and the byte offset in the caller's
 * table of function pointers where its address goes. */
typedef struct em_vendor_sym {
    const char *name;
    size_t offset;
} em_vendor_sym;

/* Open lib (em_vendor_open) and fill table from its n symbols: all or
 * none. EM_ERR_UNAVAILABLE names the library, or the missing function and
 * the file that lacks it. */
em_status em_vendor_bind(em_vendor_lib lib, const em_vendor_sym *syms, int n,
                         void *table);

/* A table bound on its first use and the outcome kept, so a library that
 * is missing costs one search, and every later call, in any thread, gets
 * the same message. Declare with EM_VENDOR_LAZY(lib, syms, table). */
typedef struct em_vendor_lazy {
    em_vendor_lib lib;
    const em_vendor_sym *syms;
    int n;
    void *table;
    int done; /* set, with release order, once status and why hold */
    em_status status;
    char why[1200];
} em_vendor_lazy;

#define EM_VENDOR_LAZY(lib, syms, table)                                    \
    {lib, syms, (int)(sizeof syms / sizeof *syms), table, 0, EM_OK, ""}

/* t bound if it is not yet: EM_OK, or the binding's error again. */
em_status em_vendor_ready(em_vendor_lazy *t);

/* The calling thread's current device (initially the default device) and
 * current stream (initially NULL, meaning that device's default stream).
 * Setting another device than the current one resets the current stream to
 * NULL; setting the current one keeps it. These are what
 * Python's `with device:` and `with stream:` change. */
em_status em_current_device(em_device **out);
void em_set_current_device(em_device *d);
em_stream *em_current_stream(void);
void em_set_current_stream(em_stream *s);

/* ---- memory ----------------------------------------------------------- */

/* Allocate from the device's stream-ordered caching pool. The block may be
 * used on `stream` (NULL: the default stream) at once; use on another
 * stream needs that stream to wait for `stream`. Size 0 gives a distinct
 * non-NULL pointer. On exhaustion the pool frees its cached blocks, retries
 * once, then fails with EM_ERR_OUT_OF_MEMORY stating requested, in use,
 * cached and free bytes. Pointers are 256-byte aligned. */
em_status em_malloc(em_device *d, size_t nbytes, em_stream *stream, void **ptr);

/* Return a block to the pool; it is reused for later work on `stream` (NULL:
 * default) at once, and on other streams once work queued so far on
 * `stream` has finished. ptr NULL is a no-op. */
em_status em_free(em_device *d, void *ptr, em_stream *stream);

typedef struct em_pool_stats {
    size_t used_bytes;     /* held by live allocations (rounded sizes) */
    size_t cached_bytes;   /* freed, kept for reuse */
    size_t total_bytes;    /* used + cached: what the pool holds */
    size_t peak_bytes;     /* highest used_bytes so far */
    size_t limit_bytes;    /* 0: no limit */
    uint64_t n_allocs;     /* allocations served */
    uint64_t n_hits;       /* of those, served from the cache */
    size_t n_cached_blocks; /* blocks among cached_bytes (CuPy's n_free_blocks) */
} em_pool_stats;

em_status em_pool_get_stats(em_device *d, em_pool_stats *out);

/* Cap total_bytes (0 removes the cap); an allocation past it fails as out
 * of memory. */
em_status em_pool_set_limit(em_device *d, size_t limit);

/* Release every cached block back to the device. */
em_status em_pool_free_all(em_device *d);

/* EM_DEVICE_SCRATCH_BYTES of d's memory, zeroed when first asked for and
 * kept as long as the device: for a kernel that keeps counters there
 * (blocks counting arrivals, claiming work) and sets them back to zero
 * before it ends, so a call needs no memset launch before it. Outside
 * the pool (its statistics do not count it). Callers share the block:
 * each owns a part by a convention of its own (bincount: one 64-byte
 * part per page-locked slot it holds). */
#define EM_DEVICE_SCRATCH_BYTES 4096
em_status em_device_scratch(em_device *d, void **ptr);

/* Page-locked host memory (cuMemHostAlloc with the cuda backend available,
 * else ordinary aligned memory). */
em_status em_host_alloc(size_t nbytes, void **ptr);
em_status em_host_free(void *ptr);

/* Copy n bytes, ordered on `stream` (NULL: default). Either side may be
 * device memory of d or host memory; pageable host memory makes the call
 * return only when the copy is done. */
em_status em_memcpy_async(em_device *d, void *dst, const void *src, size_t n,
                          em_stream *stream);

/* Set n bytes to value, ordered on `stream`. */
em_status em_memset_async(em_device *d, void *dst, int value, size_t n,
                          em_stream *stream);

/* ---- streams and events ----------------------------------------------- */

enum { EM_STREAM_DEFAULT = 0, EM_STREAM_NON_BLOCKING = 1 };

/* A new stream. Without EM_STREAM_NON_BLOCKING it synchronises with the
 * default stream as CUDA's legacy default stream does. */
em_status em_stream_create(em_device *d, unsigned flags, em_stream **out);

/* em_stream_create with a scheduling priority: smaller numbers are more
 * urgent. A priority outside the device's range is clamped into it, as
 * CUDA does; the cpu device has one priority, 0. */
em_status em_stream_create_with_priority(em_device *d, unsigned flags,
                                         int priority, em_stream **out);

/* The device's stream priorities: *least (the default, 0) and *greatest
 * (the most urgent: a number no larger than *least). */
em_status em_device_stream_priority_range(em_device *d, int *least,
                                          int *greatest);

/* The priority s runs at (after clamping; 0 for a default stream). */
int em_stream_priority(const em_stream *s);
/* 1 if s was made, or adopted, with EM_STREAM_NON_BLOCKING. */
int em_stream_is_non_blocking(const em_stream *s);

/* The device's default stream (never destroyed). */
em_stream *em_stream_default(em_device *d);

/* Let go of a stream made by em_stream_create. Memory allocated on it
 * may outlive this call: each such block keeps the stream alive until it
 * is freed (on s, still valid, or on another stream), and the stream is
 * torn down, after its queued work, when the last goes. A second destroy
 * of the same stream is EM_ERR_INVALID_VALUE while blocks hold it. */
em_status em_stream_destroy(em_stream *s);
em_status em_stream_synchronize(em_stream *s);
/* *done = 1 if all work on s has finished. */
em_status em_stream_query(em_stream *s, int *done);
/* Later work on s waits until e has completed. */
em_status em_stream_wait_event(em_stream *s, em_event *e);
em_device *em_stream_device(const em_stream *s);
/* The backend's handle (a CUstream; NULL for a cuda default stream). */
void *em_stream_native(const em_stream *s);

/* A stream for a native handle (CuPy's ExternalStream). The handle of
 * one of d's own streams (em_stream_native) gives that stream, kept alive
 * while adopted whichever side lets go first. On cuda any other CUstream
 * of d's context, made by another library, is wrapped: ember queues work
 * on it and never destroys it, so its owner must keep it alive meanwhile.
 * On the cpu device only d's own streams have handles. NULL: d's default
 * stream. Let go of the result with em_stream_release, not
 * em_stream_destroy. A handle that is not a stream of d is
 * EM_ERR_INVALID_VALUE. */
em_status em_stream_adopt(em_device *d, void *native, em_stream **out);
/* Let go of a stream from em_stream_adopt (the default stream: nothing). */
void em_stream_release(em_stream *s);

/* ---- graphs (docs/graphs.md) ------------------------------------------ */

typedef struct em_graph em_graph;

/* Record, instead of running, the work issued on s (a created stream, one
 * capture a device at a time) until em_stream_end_capture, which returns
 * the recorded work as a graph. Memory allocated, and memory freed, while
 * a capture runs belongs to the graph until em_graph_destroy. An operation
 * that cannot be recorded (a synchronize, a host read, a copy from
 * pageable memory, a module load) fails with EM_ERR_CAPTURE and ends the
 * capture, dropping what it recorded. */
em_status em_stream_begin_capture(em_stream *s);
em_status em_stream_end_capture(em_stream *s, em_graph **out);
/* 1 while s captures, else 0. */
int em_stream_is_capturing(const em_stream *s);
/* 1 while a stream of d captures, else 0. */
int em_device_is_capturing(const em_device *d);
/* For layers above the runtime: refuse `what` because s (capturing) cannot
 * record it. Ends the capture as the runtime's own refusals do and returns
 * EM_ERR_CAPTURE naming `what` and the stream. */
em_status em_stream_refuse_capture(em_stream *s, const char *what);
/* Run g's work on s (NULL: the device's default stream), in s's order. */
em_status em_graph_launch(em_graph *g, em_stream *s);
/* Prepare g for launch on s ahead of time (a no-op on cpu). */
em_status em_graph_upload(em_graph *g, em_stream *s);
/* Release g; the memory it held goes back to the pool, ordered after the
 * graph's last launch. */
em_status em_graph_destroy(em_graph *g);
em_device *em_graph_device(const em_graph *g);

/* Run fn on a copy of the n bytes at ctx in s's order, as device work:
 * for host code that does a device's work on cpu (OpenBLAS's gemm), so a
 * capture records it. EM_ERR_NOT_SUPPORTED on cuda. */
em_status em_stream_host_call(em_stream *s, em_status (*fn)(void *ctx),
                              const void *ctx, size_t n);

enum { EM_EVENT_DEFAULT = 0, EM_EVENT_DISABLE_TIMING = 1,
       EM_EVENT_BLOCKING_SYNC = 2 };

em_status em_event_create(em_device *d, unsigned flags, em_event **out);
em_status em_event_destroy(em_event *e);
/* Record e at the current end of s (NULL: default stream). */
em_status em_event_record(em_event *e, em_stream *s);
em_status em_event_synchronize(em_event *e);
/* *done = 1 if the work before the record has finished (1 if never recorded). */
em_status em_event_query(em_event *e, int *done);
/* Milliseconds between two completed records of the same device. */
em_status em_event_elapsed_ms(em_event *start, em_event *end, float *ms);

/* ---- compilation ------------------------------------------------------ */

typedef enum em_code_kind {
    EM_CODE_PTX = 0,     /* NVRTC: PTX text */
    EM_CODE_CUBIN = 1,   /* NVRTC: machine code for one architecture */
    EM_CODE_HOST = 2,    /* system C compiler: a shared object */
    EM_CODE_LTOIR = 3    /* NVRTC -dlto: LTO-IR for a virtual architecture,
                          * input to a linker (nvJitLink); no device loads it */
} em_code_kind;

typedef struct em_code {
    em_code_kind kind;
    void *data;          /* the code; PTX is NUL-terminated (size excludes it) */
    size_t size;
    char *log;           /* the compiler's log, NUL-terminated, maybe "" */
} em_code;

/* Compile CUDA C with NVRTC. arch is 10*major+minor (0: the current
 * default device's, or 90 with no GPU); options are NVRTC's ("--use_fast_math",
 * "--std=c++17", "-DN=4"); an "-arch"/"--gpu-architecture" option in them
 * overrides arch. kind EM_CODE_LTOIR adds -dlto and needs an NVRTC with
 * nvrtcGetLTOIR (CUDA 12), else EM_ERR_NOT_SUPPORTED naming it. Needs
 * NVRTC only, not a GPU. On a compile error returns
 * EM_ERR_COMPILE with the log in the message and, if out_log is not NULL,
 * the log in *out_log (malloc'd). */
em_status em_compile_cuda(const char *source, const char *name,
                          const char *const *options, int n_options, int arch,
                          em_code_kind kind, em_code **out, char **out_log);

/* The names NVRTC gives C++ name expressions ("axpy<float>", "ns::k") in
 * source compiled with options: what the GPU module knows those kernels
 * by (CuPy's name_expressions). Compiles the source once to PTX (NVRTC
 * only, no GPU). out[i] receives each malloc'd name; on failure none is
 * left allocated. EM_ERR_NOT_SUPPORTED for an NVRTC without the calls. */
em_status em_cuda_lowered_names(const char *source, const char *const *options,
                                int n_options, const char *const *exprs, int n_exprs,
                                char **out);

/* Options the host compiler reads instead of passing them on. With
 * EM_HOST_OPTION_CXX the source is CUDA C++ (users' kernels: RawKernel,
 * RawModule, ElementwiseKernel, ReductionKernel), compiled with $EMBER_CXX
 * or c++; without it, C (ember's generated kernels). Each
 * EM_HOST_OPTION_NAME_EXPR "<expr>" option (NVRTC's name expressions:
 * "axpy<float>") instantiates that kernel and makes it launchable under
 * the expression as its name. Being options, both are in the kernel
 * cache's key. NVRTC skips EM_HOST_OPTION_CXX and takes each name
 * expression through nvrtcAddNameExpression, which instantiates it; the
 * GPU module then knows the kernel by its lowered name
 * (em_cuda_lowered_names). */
#define EM_HOST_OPTION_CXX "-xc++"
#define EM_HOST_OPTION_NAME_EXPR "--name-expression="

/* Compile kernel source for the host backend with $EMBER_CC or cc (run
 * without a shell). The source is the CUDA C subset that the host prelude
 * supports (kernels/host_prelude.h): `extern "C" __global__ void f(...)`
 * kernels using threadIdx/blockIdx/blockDim/gridDim. Options are passed to
 * the compiler ("-DN=4", "-O2"); NVRTC-only options are ignored. */
em_status em_compile_host(const char *source, const char *name,
                          const char *const *options, int n_options,
                          em_code **out, char **out_log);

void em_code_free(em_code *c);

/* ---- modules, functions, launches ------------------------------------- */

/* Load compiled code onto d; the code's kind must suit the device. */
em_status em_module_load(em_device *d, const em_code *code, em_module **out);
em_status em_module_unload(em_module *m);
em_device *em_module_device(const em_module *m);

/* The device address and byte size of the module's __device__ or
 * __constant__ variable `name` (cuModuleGetGlobal on cuda, the shared
 * object's symbol on cpu), for the host to read and write with the copy
 * functions (cudaMemcpyToSymbol's job). EM_ERR_NOT_FOUND naming the
 * variable when the module has none. */
em_status em_module_get_global(em_module *m, const char *name, void **ptr,
                               size_t *size);

/* The kernel `name` of a module (owned by the module); EM_ERR_NOT_FOUND
 * naming the kernel when absent. */
em_status em_module_get_function(em_module *m, const char *name,
                                 em_function **out);

/* Parameter count and byte sizes, from the loaded code; -1 if unknown. */
int em_function_param_count(const em_function *f);
size_t em_function_param_size(const em_function *f, int i);
const char *em_function_name(const em_function *f);

/* What a parameter holds, read from the kernel's source. */
typedef enum em_param_kind {
    EM_PARAM_UNKNOWN = 0,   /* no source, or a type the reader cannot resolve */
    EM_PARAM_POINTER,       /* `T *p`, `T p[]` */
    EM_PARAM_INT,           /* int, long long, char, int32_t, ptrdiff_t, enums */
    EM_PARAM_UINT,          /* unsigned ..., size_t, uint64_t */
    EM_PARAM_FLOAT,         /* float, double, __half (IEEE half) */
    EM_PARAM_BOOL,
    EM_PARAM_OTHER          /* by value: a struct, float4, a class template,
                             * __nv_bfloat16 (a struct, not an IEEE number) */
} em_param_kind;

/* The kind of parameter i. Known only for modules from the kernel cache
 * (em_kernel_cache_get), which has the source, and only where the source
 * can be read: EM_PARAM_UNKNOWN for code loaded with em_module_load (a
 * user's CUBIN or PTX), for templates and other C++ the reader cannot
 * follow, for a type it cannot resolve (from a header, say), and when the
 * source's parameter count differs from the loaded code's. */
em_param_kind em_function_param_kind(const em_function *f, int i);

/* Parameter i's type as C text ("const float *", arrays adjusted to
 * pointers) and name ("" if unnamed), owned by the module; NULL when the
 * source's signature is unknown, as for em_function_param_kind. */
const char *em_function_param_type(const em_function *f, int i);
const char *em_function_param_name(const em_function *f, int i);

typedef struct em_dim3 { unsigned x, y, z; } em_dim3;

/* Launch f with args[i] pointing at parameter i's value (CUDA's
 * convention). Invalid grid or block (zero, past the device limits, too
 * many threads) is EM_ERR_INVALID_VALUE naming the dimension. The argument
 * values are copied before return. */
em_status em_launch(em_function *f, em_dim3 grid, em_dim3 block,
                    size_t shared_bytes, em_stream *stream, void **args);

/* As em_launch, with every block of the grid running at once so that they
 * may synchronise with one another (CUDA's cooperative launch): a grid
 * larger than the device holds at once fails with the driver's
 * CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE. em_launch_ex with cooperative
 * set; EM_ERR_NOT_SUPPORTED on drivers without cooperative launches. On
 * cpu an ordinary launch (see em_launch_ex). */
em_status em_launch_cooperative(em_function *f, em_dim3 grid, em_dim3 block,
                                size_t shared_bytes, em_stream *stream,
                                void **args);

/* A launch with the options beyond grid, block and shared memory. cluster
 * groups blocks into thread block clusters (Hopper and newer): {1, 1, 1}
 * is no cluster. cooperative asks for all blocks at once, as
 * em_launch_cooperative does. */
typedef struct em_launch_config {
    em_dim3 grid, block, cluster;
    size_t shared_bytes;
    int cooperative;
} em_launch_config;

/* Launch f as em_launch does, with cfg's cluster and cooperative options
 * (CUDA's cuLaunchKernelEx). Beyond em_launch's checks, each cluster
 * dimension must be at least 1 and divide the grid's (EM_ERR_INVALID_VALUE
 * naming both). On cuda a cluster needs compute capability 9.0 and a
 * driver with cuLaunchKernelEx (CUDA 12), else EM_ERR_NOT_SUPPORTED naming
 * what is missing; a cluster of more than 8 blocks is allowed where the GPU
 * has non-portable cluster sizes. On cpu, where a kernel cannot see
 * clusters or synchronise its grid, a cluster (at most 8 blocks, the
 * portable size) or cooperative launch runs as an ordinary one. Without
 * either option this is em_launch. */
em_status em_launch_ex(em_function *f, const em_launch_config *cfg,
                       em_stream *stream, void **args);

/* How many blocks of f, of block_threads threads and dyn_shared bytes of
 * dynamic shared memory each, one multiprocessor holds at once (CUDA's
 * occupancy calculator) into *out. EM_ERR_NOT_SUPPORTED on cpu. */
em_status em_function_max_active_blocks(em_function *f, int block_threads,
                                        size_t dyn_shared, int *out);

/* ---- the kernel cache ------------------------------------------------- */

/* Compile-or-find: the module for (device backend and arch, gen_version,
 * source, options), from the in-memory table, else the disk cache, else a
 * fresh compile (CUBIN for cuda, a shared object for cpu) that is stored in
 * both. The module belongs to the cache and lives until exit. source_hash
 * may be 0 (ember hashes the source) or a hash the caller already holds.
 * out_log, if not NULL, receives the compiler log of a fresh compile
 * (malloc'd, maybe ""), or NULL when the module came from a cache. */
em_status em_kernel_cache_get(em_device *d, const char *source,
                              uint64_t source_hash,
                              const char *const *options, int n_options,
                              uint32_t gen_version, em_module **out,
                              char **out_log);

typedef struct em_kernel_cache_stats {
    uint64_t memory_hits, disk_hits, compiles, disk_rejects, entries;
} em_kernel_cache_stats;

void em_kernel_cache_get_stats(em_kernel_cache_stats *out);

#ifdef __cplusplus
}
#endif
#endif
