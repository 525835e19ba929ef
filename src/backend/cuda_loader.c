/* ember cuda backend: opening libcuda and NVRTC at run time.
 *
 * Nothing from CUDA is linked (DESIGN.md principle 3): a machine without a
 * GPU must still import ember, and CI must still compile kernels with NVRTC
 * alone. So the two libraries load independently, each once per process,
 * and a failure is kept as a sentence that every later caller receives.
 */
#define _GNU_SOURCE   /* dladdr */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "backend/cuda_api.h"
#include "ember/util.h"

/* dlsym hands back object pointers that we store into function-pointer
 * members; POSIX guarantees this works, the assert documents the premise. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
               "function and object pointers must have one size");

struct em_cuda_driver em_cuda_drv;
struct em_cuda_nvrtc em_cuda_nvrtc_fn;

struct sym {
    const char *name;
    size_t offset;
    int required;
};

#define DRV(field, req) { #field, offsetof(struct em_cuda_driver, field), req }
#define NVRTC(field, req) { #field, offsetof(struct em_cuda_nvrtc, field), req }

static const struct sym driver_syms[] = {
    DRV(cuInit, 1), DRV(cuDriverGetVersion, 1), DRV(cuGetErrorName, 1),
    DRV(cuGetErrorString, 1), DRV(cuDeviceGet, 1), DRV(cuDeviceGetCount, 1),
    DRV(cuDeviceGetName, 1), DRV(cuDeviceGetAttribute, 1),
    DRV(cuDeviceTotalMem_v2, 1), DRV(cuDevicePrimaryCtxRetain, 1),
    DRV(cuDeviceGetUuid_v2, 0), DRV(cuDeviceGetUuid, 0),
    DRV(cuCtxGetCurrent, 1), DRV(cuCtxSetCurrent, 1),
    DRV(cuCtxPushCurrent_v2, 1), DRV(cuCtxPopCurrent_v2, 1),
    DRV(cuCtxSynchronize, 1), DRV(cuMemGetInfo_v2, 1), DRV(cuMemAlloc_v2, 1),
    DRV(cuMemFree_v2, 1), DRV(cuMemHostAlloc, 1), DRV(cuMemFreeHost, 1),
    DRV(cuMemcpyAsync, 1), DRV(cuMemsetD8Async, 1),
    DRV(cuPointerGetAttributes, 1), DRV(cuStreamCreate, 1),
    DRV(cuStreamCreateWithPriority, 0), DRV(cuCtxGetStreamPriorityRange, 0),
    DRV(cuStreamDestroy_v2, 1), DRV(cuStreamGetFlags, 0),
    DRV(cuStreamGetPriority, 0), DRV(cuStreamGetCtx, 0),
    DRV(cuStreamSynchronize, 1),
    DRV(cuStreamQuery, 1), DRV(cuStreamWaitEvent, 1), DRV(cuEventCreate, 1),
    DRV(cuEventDestroy_v2, 1), DRV(cuEventRecord, 1),
    DRV(cuEventSynchronize, 1), DRV(cuEventQuery, 1),
    DRV(cuModuleLoadDataEx, 1), DRV(cuModuleUnload, 1),
    DRV(cuModuleGetFunction, 1), DRV(cuModuleGetGlobal_v2, 1),
    DRV(cuFuncGetAttribute, 1),
    DRV(cuFuncSetAttribute, 1),
    DRV(cuFuncGetParamInfo, 0), DRV(cuLaunchKernel, 1),
    DRV(cuLaunchCooperativeKernel, 0), DRV(cuLaunchKernelEx, 0),
    DRV(cuOccupancyMaxActiveBlocksPerMultiprocessor, 0),
    DRV(cuStreamBeginCapture_v2, 0), DRV(cuStreamEndCapture, 0),
    DRV(cuStreamIsCapturing, 0), DRV(cuGraphInstantiateWithFlags, 0),
    DRV(cuGraphLaunch, 0), DRV(cuGraphUpload, 0),
    DRV(cuGraphExecDestroy, 0), DRV(cuGraphDestroy, 0),
    DRV(cuDeviceCanAccessPeer, 0), DRV(cuCtxEnablePeerAccess, 0),
};

static const struct sym nvrtc_syms[] = {
    NVRTC(nvrtcGetErrorString, 1), NVRTC(nvrtcVersion, 1),
    NVRTC(nvrtcGetNumSupportedArchs, 0), NVRTC(nvrtcGetSupportedArchs, 0),
    NVRTC(nvrtcCreateProgram, 1), NVRTC(nvrtcDestroyProgram, 1),
    NVRTC(nvrtcCompileProgram, 1), NVRTC(nvrtcGetPTXSize, 1),
    NVRTC(nvrtcGetPTX, 1), NVRTC(nvrtcGetCUBINSize, 1),
    NVRTC(nvrtcGetCUBIN, 1), NVRTC(nvrtcGetProgramLogSize, 1),
    NVRTC(nvrtcGetProgramLog, 1), NVRTC(nvrtcAddNameExpression, 0),
    NVRTC(nvrtcGetLoweredName, 0), NVRTC(nvrtcGetLTOIRSize, 0),
    NVRTC(nvrtcGetLTOIR, 0),
};

/* Resolve every symbol of a table into `table`; on a missing required one,
 * return its name and leave the table partly filled (the caller resets). */
static const char *resolve(void *handle, const struct sym *syms, size_t n,
                           void *table)
{
    for (size_t i = 0; i < n; i++) {
        void *p = dlsym(handle, syms[i].name);
        if (!p && syms[i].required)
            return syms[i].name;
        memcpy((char *)table + syms[i].offset, &p, sizeof p);
    }
    return NULL;
}

/* ---- libcuda ----------------------------------------------------------- */

static pthread_once_t driver_once = PTHREAD_ONCE_INIT;
static em_status driver_status;
static char driver_reason[640];

static void load_driver_once(void)
{
    static const char *const names[] = { "libcuda.so.1", "libcuda.so" };
    char first_err[400] = "";
    void *h = NULL;
    const char *opened = NULL;

    for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++) {
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h) {
            opened = names[i];
        } else if (!first_err[0]) {
            const char *e = dlerror();
            snprintf(first_err, sizeof first_err, "%s", e ? e : "unknown");
        }
    }
    if (!h) {
        driver_status = EM_ERR_UNAVAILABLE;
        snprintf(driver_reason, sizeof driver_reason,
                 "libcuda.so.1 not found (dlopen: %s): install the NVIDIA "
                 "driver", first_err);
        return;
    }
    const char *missing = resolve(h, driver_syms,
                                  sizeof driver_syms / sizeof driver_syms[0],
                                  &em_cuda_drv);
    if (missing) {
        memset(&em_cuda_drv, 0, sizeof em_cuda_drv);
        dlclose(h);
        driver_status = EM_ERR_UNAVAILABLE;
        snprintf(driver_reason, sizeof driver_reason,
                 "%s lacks %s: the NVIDIA driver is too old for ember; "
                 "update it", opened, missing);
        return;
    }
    /* cuda.h maps cuEventElapsedTime to the _v2 entry point from 12.8 on;
     * older drivers have only the original, with the same signature. */
    void *p = dlsym(h, "cuEventElapsedTime_v2");
    if (!p)
        p = dlsym(h, "cuEventElapsedTime");
    if (!p) {
        memset(&em_cuda_drv, 0, sizeof em_cuda_drv);
        dlclose(h);
        driver_status = EM_ERR_UNAVAILABLE;
        snprintf(driver_reason, sizeof driver_reason,
                 "%s lacks cuEventElapsedTime: the NVIDIA driver is too old "
                 "for ember; update it", opened);
        return;
    }
    memcpy(&em_cuda_drv.cuEventElapsedTime, &p, sizeof p);
    /* The handle stays open for the life of the process: function pointers
     * into it are handed out freely. */
    driver_status = EM_OK;
}

/* The status without touching this thread's error message, for callers
 * that must not fail (versions, probes). */
static em_status driver_loaded(void)
{
    pthread_once(&driver_once, load_driver_once);
    return driver_status;
}

em_status em_cuda_load_driver(void)
{
    if (driver_loaded() != EM_OK)
        return em_error(driver_status, "%s", driver_reason);
    return EM_OK;
}

/* Names for the results a broken installation gives, where the driver
 * cannot name them itself (the toolkit's stub libcuda answers every call,
 * cuGetErrorName included, with CUDA_ERROR_STUB_LIBRARY). */
static const struct {
    CUresult code;
    const char *name, *text;
} fallback_names[] = {
    { CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
      "initialization error" },
    { CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED",
      "driver shutting down" },
    { CUDA_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY",
      "CUDA driver is a stub library" },
    { 46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "CUDA-capable device(s) busy or "
      "unavailable" },
    { CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE",
      "no CUDA-capable device is detected" },
    { 304, "CUDA_ERROR_OPERATING_SYSTEM", "OS call failed" },
    { 803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
      "system has unsupported display driver / cuda driver combination" },
    { CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error" },
};

const char *em_cuda_error_name(CUresult r)
{
    const char *s = NULL;
    if (em_cuda_drv.cuGetErrorName && em_cuda_drv.cuGetErrorName(r, &s) == 0
        && s)
        return s;
    for (size_t i = 0; i < sizeof fallback_names / sizeof fallback_names[0];
         i++)
        if (fallback_names[i].code == r)
            return fallback_names[i].name;
    return "CUDA_ERROR_UNRECOGNIZED";
}

const char *em_cuda_error_string(CUresult r)
{
    const char *s = NULL;
    if (em_cuda_drv.cuGetErrorString
        && em_cuda_drv.cuGetErrorString(r, &s) == 0 && s)
        return s;
    for (size_t i = 0; i < sizeof fallback_names / sizeof fallback_names[0];
         i++)
        if (fallback_names[i].code == r)
            return fallback_names[i].text;
    return "unrecognized error code";
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static em_status init_status;
static char init_reason[640];

static void init_driver_once(void)
{
    if (driver_loaded() != EM_OK) {
        init_status = EM_ERR_UNAVAILABLE;
        snprintf(init_reason, sizeof init_reason, "%s", driver_reason);
        return;
    }
    CUresult r = em_cuda_drv.cuInit(0);
    if (r == CUDA_SUCCESS) {
        init_status = EM_OK;
        return;
    }
    init_status = EM_ERR_UNAVAILABLE;
    const char *hint;
    switch (r) {
    case CUDA_ERROR_NO_DEVICE:
        hint = "no CUDA device";
        break;
    case CUDA_ERROR_STUB_LIBRARY:
        hint = "the libcuda found is the CUDA toolkit's link stub, not the "
               "driver's: install the NVIDIA driver or take the stubs "
               "directory out of LD_LIBRARY_PATH";
        break;
    default:
        hint = "the CUDA driver cannot start";
        break;
    }
    snprintf(init_reason, sizeof init_reason, "%s (cuInit: %s: %s)", hint,
             em_cuda_error_name(r), em_cuda_error_string(r));
}

static em_status driver_started(void)
{
    pthread_once(&init_once, init_driver_once);
    return init_status;
}

em_status em_cuda_init_driver(void)
{
    if (driver_started() != EM_OK)
        return em_error(init_status, "%s", init_reason);
    return EM_OK;
}

static pthread_once_t arch_once = PTHREAD_ONCE_INIT;
static int first_arch;

static void probe_arch_once(void)
{
    int count = 0, major = 0, minor = 0;
    CUdevice dev;
    if (driver_started() != EM_OK)
        return;
    if (em_cuda_drv.cuDeviceGetCount(&count) != CUDA_SUCCESS || count < 1)
        return;
    if (em_cuda_drv.cuDeviceGet(&dev, 0) != CUDA_SUCCESS)
        return;
    if (em_cuda_drv.cuDeviceGetAttribute(
            &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
            != CUDA_SUCCESS
        || em_cuda_drv.cuDeviceGetAttribute(
               &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
               != CUDA_SUCCESS)
        return;
    first_arch = 10 * major + minor;
}

int em_cuda_first_device_arch(void)
{
    pthread_once(&arch_once, probe_arch_once);
    return first_arch;
}

int em_cuda_driver_version(void)
{
    int v = 0;
    if (driver_loaded() != EM_OK)
        return 0;
    if (em_cuda_drv.cuDriverGetVersion(&v) != CUDA_SUCCESS)
        return 0;
    return v;
}

/* ---- NVRTC ------------------------------------------------------------- */

/* Python wheels (nvidia-cuda-nvrtc) live where only the Python layer can
 * find them; it passes the path in via EMBER_NVRTC_PATH. */
static const char *const nvrtc_names[] = {
    "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
};
#define N_NVRTC_NAMES (sizeof nvrtc_names / sizeof nvrtc_names[0])

static pthread_once_t nvrtc_once = PTHREAD_ONCE_INIT;
static em_status nvrtc_status;
static char nvrtc_reason[1024];
static char nvrtc_loaded_from[4096];

/* Try one candidate. Returns 1 when loaded; else 0 with *why describing
 * the failure (kept for the final message only if it is informative). */
static int try_nvrtc(const char *path, char *why, size_t why_size)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, why_size, "%s", e ? e : path);
        return 0;
    }
    const char *missing = resolve(h, nvrtc_syms,
                                  sizeof nvrtc_syms / sizeof nvrtc_syms[0],
                                  &em_cuda_nvrtc_fn);
    if (missing) {
        memset(&em_cuda_nvrtc_fn, 0, sizeof em_cuda_nvrtc_fn);
        dlclose(h);
        snprintf(why, why_size, "%s lacks %s", path, missing);
        return 0;
    }
    Dl_info info;
    void *sym;
    memcpy(&sym, &em_cuda_nvrtc_fn.nvrtcVersion, sizeof sym);
    if (dladdr(sym, &info) && info.dli_fname)
        snprintf(nvrtc_loaded_from, sizeof nvrtc_loaded_from, "%s",
                 info.dli_fname);
    else
        snprintf(nvrtc_loaded_from, sizeof nvrtc_loaded_from, "%s", path);
    return 1;
}

/* Try the usual sonames inside a directory. */
static int try_nvrtc_dir(const char *dir, char *why, size_t why_size)
{
    char path[4096];
    for (size_t i = 0; i < N_NVRTC_NAMES; i++) {
        int n = snprintf(path, sizeof path, "%s/%s", dir, nvrtc_names[i]);
        if (n < 0 || (size_t)n >= sizeof path)
            continue;
        if (try_nvrtc(path, why, why_size))
            return 1;
    }
    return 0;
}

static void load_nvrtc_once(void)
{
    char why[512] = "";
    char env_why[512] = "";
    const char *env = em_knob_text(EM_KNOB_NVRTC_PATH);

    if (env) {
        struct stat st;
        int ok = (stat(env, &st) == 0 && S_ISDIR(st.st_mode))
                     ? try_nvrtc_dir(env, env_why, sizeof env_why)
                     : try_nvrtc(env, env_why, sizeof env_why);
        if (ok)
            goto loaded;
    }
    /* The first soname's failure is the one worth showing: it names the
     * library we want most. */
    char later_why[512];
    for (size_t i = 0; i < N_NVRTC_NAMES; i++)
        if (try_nvrtc(nvrtc_names[i], i == 0 ? why : later_why,
                      sizeof why))
            goto loaded;
    {
        const char *dirs[3];
        char home_lib[2048], path_lib[2048];
        size_t nd = 0;
        const char *home = getenv("CUDA_HOME");
        const char *cpath = getenv("CUDA_PATH");
        if (home && home[0]) {
            snprintf(home_lib, sizeof home_lib, "%s/lib64", home);
            dirs[nd++] = home_lib;
        }
        if (cpath && cpath[0]) {
            snprintf(path_lib, sizeof path_lib, "%s/lib64", cpath);
            dirs[nd++] = path_lib;
        }
        dirs[nd++] = "/usr/local/cuda/lib64";
        char dir_why[512];
        for (size_t i = 0; i < nd; i++)
            if (try_nvrtc_dir(dirs[i], dir_why, sizeof dir_why))
                goto loaded;
    }
    nvrtc_status = EM_ERR_UNAVAILABLE;
    if (env && env[0])
        snprintf(nvrtc_reason, sizeof nvrtc_reason,
                 "NVRTC not loadable from EMBER_NVRTC_PATH=%s (%s), nor "
                 "found elsewhere: install the CUDA toolkit or the "
                 "nvidia-cuda-nvrtc wheel, or fix EMBER_NVRTC_PATH",
                 env, env_why);
    else
        snprintf(nvrtc_reason, sizeof nvrtc_reason,
                 "NVRTC (libnvrtc.so.13) not found (dlopen: %s): install "
                 "the CUDA toolkit or the nvidia-cuda-nvrtc wheel, or set "
                 "EMBER_NVRTC_PATH", why);
    return;
loaded:
    nvrtc_status = EM_OK;
}

static em_status nvrtc_loaded(void)
{
    pthread_once(&nvrtc_once, load_nvrtc_once);
    return nvrtc_status;
}

em_status em_cuda_load_nvrtc(void)
{
    if (nvrtc_loaded() != EM_OK)
        return em_error(nvrtc_status, "%s", nvrtc_reason);
    return EM_OK;
}

const char *em_cuda_nvrtc_path(void)
{
    return nvrtc_loaded() == EM_OK ? nvrtc_loaded_from : NULL;
}

int em_nvrtc_version(void)
{
    int major = 0, minor = 0;
    if (nvrtc_loaded() != EM_OK)
        return 0;
    if (em_cuda_nvrtc_fn.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
        return 0;
    return major * 1000 + minor * 10;
}
