/* ember cuda backend: compiling CUDA C with NVRTC.
 *
 * Needs NVRTC only, never libcuda, so CI without a GPU compiles every
 * kernel the GPU would. The user's options are passed through unchanged;
 * ember adds the target architecture, when the user did not name one,
 * and after the user's own -I the toolkit's include directory.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "backend/cuda_api.h"

/* Used when no GPU tells us better: the lent GPUs are Hopper. */
#define EM_CUDA_FALLBACK_ARCH 90

static const char *nvrtc_error_name(nvrtcResult r)
{
    const char *s = em_cuda_nvrtc_fn.nvrtcGetErrorString
                        ? em_cuda_nvrtc_fn.nvrtcGetErrorString(r)
                        : NULL;
    return s ? s : "NVRTC_ERROR_UNKNOWN";
}

static int is_arch_option(const char *opt)
{
    return strncmp(opt, "-arch", 5) == 0
           || strncmp(opt, "--gpu-architecture", 18) == 0;
}

/* NVRTC has no include path: `#include <cuda_fp16.h>` or
 * `<cuda/std/cstdint>` finds nothing unless the toolkit's include
 * directory is named. CuPy names it for every kernel, and programs
 * written for CuPy rely on that, so ember names it too: the first of
 * $CUDA_HOME, $CUDA_PATH, the toolkit this NVRTC came from (its
 * library's ../include: /usr/local/cuda, or pip's nvidia/cu13) and
 * /usr/local/cuda whose include/ holds cuda_fp16.h, with CCCL's headers
 * (include/cccl, CUDA 13) when there. Found once; none found, none
 * added. */
#define INC_MAX 4096
static char inc_opt[2][INC_MAX + 16];
static int n_inc_opts;
static pthread_once_t inc_once = PTHREAD_ONCE_INIT;

static int try_include(const char *root, const char *rel)
{
    char dir[INC_MAX], probe[INC_MAX + 16];
    if (!root || !*root || snprintf(dir, sizeof dir, "%s/%s", root, rel) >= (int)sizeof dir)
        return 0;
    snprintf(probe, sizeof probe, "%s/cuda_fp16.h", dir);
    if (access(probe, R_OK) != 0)
        return 0;
    snprintf(inc_opt[0], sizeof inc_opt[0], "-I%s", dir);
    snprintf(probe, sizeof probe, "%s/cccl", dir);
    n_inc_opts = 1;
    if (access(probe, X_OK) == 0)
        snprintf(inc_opt[n_inc_opts++], sizeof inc_opt[1], "-I%s/cccl", dir);
    return 1;
}

static void find_includes(void)
{
    char lib[4096];
    const char *p = em_cuda_nvrtc_path(), *slash;
    if (try_include(getenv("CUDA_HOME"), "include") ||
        try_include(getenv("CUDA_PATH"), "include"))
        return;
    if (p && (slash = strrchr(p, '/')) && (size_t)(slash - p) < sizeof lib) {
        memcpy(lib, p, (size_t)(slash - p));
        lib[slash - p] = 0;
        if (try_include(lib, "../include"))
            return;
    }
    (void)try_include("/usr/local/cuda", "include");
}

const char *em_cuda_include_dir(void)
{
    pthread_once(&inc_once, find_includes);
    return n_inc_opts ? inc_opt[0] + 2 : NULL;
}

/* The newest architecture this NVRTC can target, or 0 if it cannot say
 * (NVRTC before 11.2). */
static int nvrtc_max_arch(void)
{
    int n = 0, best = 0;
    if (!em_cuda_nvrtc_fn.nvrtcGetNumSupportedArchs
        || !em_cuda_nvrtc_fn.nvrtcGetSupportedArchs)
        return 0;
    if (em_cuda_nvrtc_fn.nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS
        || n <= 0 || n > 4096)
        return 0;
    int *archs = malloc((size_t)n * sizeof *archs);
    if (!archs)
        return 0;
    if (em_cuda_nvrtc_fn.nvrtcGetSupportedArchs(archs) == NVRTC_SUCCESS)
        for (int i = 0; i < n; i++)
            if (archs[i] > best)
                best = archs[i];
    free(archs);
    return best;
}

/* The program's log as a malloc'd string ("" when it has none); NULL only
 * when out of memory. */
static char *program_log(nvrtcProgram prog)
{
    size_t n = 0;
    char *log;
    if (em_cuda_nvrtc_fn.nvrtcGetProgramLogSize(prog, &n) != NVRTC_SUCCESS
        || n == 0) {
        log = malloc(1);
        if (log)
            log[0] = 0;
        return log;
    }
    log = malloc(n + 1);
    if (!log)
        return NULL;
    if (em_cuda_nvrtc_fn.nvrtcGetProgramLog(prog, log) != NVRTC_SUCCESS)
        log[0] = 0;
    log[n] = 0;
    return log;
}

/* Copy the compiled image out of the program. PTX keeps its NUL (size
 * excludes it); a CUBIN or LTO-IR gets one too, harmlessly, so data is
 * always a valid C string for whoever prints it by mistake. */
static em_status program_code(nvrtcProgram prog, const char *name,
                              em_code_kind kind, void **data, size_t *size)
{
    size_t n = 0;
    nvrtcResult r;
    int ptx = kind == EM_CODE_PTX, lto = kind == EM_CODE_LTOIR;
    const char *what = ptx ? "PTX" : lto ? "LTO-IR" : "CUBIN";

    r = ptx ? em_cuda_nvrtc_fn.nvrtcGetPTXSize(prog, &n)
        : lto ? em_cuda_nvrtc_fn.nvrtcGetLTOIRSize(prog, &n)
              : em_cuda_nvrtc_fn.nvrtcGetCUBINSize(prog, &n);
    if (r != NVRTC_SUCCESS || n == 0) {
        if (r == NVRTC_SUCCESS && lto)
            return em_error(EM_ERR_INVALID_VALUE,
                            "NVRTC made no LTO-IR for '%s'", name);
        if (r == NVRTC_SUCCESS && !ptx)
            return em_error(EM_ERR_INVALID_VALUE,
                            "NVRTC made no CUBIN for '%s': the options name "
                            "a virtual architecture (compute_XX) or ask for "
                            "LTO-IR (-dlto); use sm_XX or ask for PTX", name);
        return em_error_native(EM_ERR_COMPILE, r, nvrtc_error_name(r),
                               "NVRTC could not produce %s for '%s': %s",
                               what, name, nvrtc_error_name(r));
    }
    char *buf = malloc(n + 1);
    if (!buf)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory for %zu bytes of %s", n, what);
    r = ptx ? em_cuda_nvrtc_fn.nvrtcGetPTX(prog, buf)
        : lto ? em_cuda_nvrtc_fn.nvrtcGetLTOIR(prog, buf)
              : em_cuda_nvrtc_fn.nvrtcGetCUBIN(prog, buf);
    if (r != NVRTC_SUCCESS) {
        free(buf);
        return em_error_native(EM_ERR_COMPILE, r, nvrtc_error_name(r),
                               "NVRTC could not produce %s for '%s': %s",
                               what, name, nvrtc_error_name(r));
    }
    buf[n] = 0;
    *data = buf;
    /* nvrtcGetPTXSize counts the terminating NUL; the CUBIN size does not
     * have one to count. */
    *size = ptx ? (buf[n - 1] == 0 ? n - 1 : n) : n;
    return EM_OK;
}

em_status em_cuda_nvrtc_compile(const char *source, const char *name,
                                const char *const *options, int n_options,
                                int arch, em_code_kind kind, int ptx_fallback,
                                em_code **out, char **out_log)
{
    if (out_log)
        *out_log = NULL;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_compile_cuda: out is NULL");
    *out = NULL;
    if (!source)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_compile_cuda: source is NULL");
    if (n_options < 0 || (n_options > 0 && !options))
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_compile_cuda: %d options at %p", n_options,
                        (const void *)options);
    if (kind != EM_CODE_PTX && kind != EM_CODE_CUBIN && kind != EM_CODE_LTOIR)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_compile_cuda: code kind %d is not PTX, CUBIN or "
                        "LTO-IR", (int)kind);
    if (arch <= 0 || arch > 10000)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_compile_cuda: architecture %d is not "
                        "10*major+minor", arch);
    if (!name || !name[0])
        name = "kernel.cu";

    em_status st = em_cuda_load_nvrtc();
    if (st != EM_OK)
        return st;
    if (kind == EM_CODE_LTOIR && (!em_cuda_nvrtc_fn.nvrtcGetLTOIRSize
                                  || !em_cuda_nvrtc_fn.nvrtcGetLTOIR))
        return em_error(EM_ERR_NOT_SUPPORTED, "LTO-IR for '%s': this NVRTC (%s) "
                        "has no %s; LTO-IR needs NVRTC 12.0 or newer", name,
                        em_cuda_nvrtc_path(),
                        em_cuda_nvrtc_fn.nvrtcGetLTOIRSize ? "nvrtcGetLTOIR"
                                                           : "nvrtcGetLTOIRSize");

    int user_arch = 0;
    for (int i = 0; i < n_options; i++) {
        if (!options[i])
            return em_error(EM_ERR_INVALID_VALUE,
                            "em_compile_cuda: option %d is NULL", i);
        if (is_arch_option(options[i]))
            user_arch = 1;
    }
    if (!user_arch && ptx_fallback && kind == EM_CODE_CUBIN) {
        int newest = nvrtc_max_arch();
        if (newest > 0 && arch > newest) {
            /* A GPU newer than this NVRTC: PTX for the newest architecture
             * it knows runs there after the driver's JIT. */
            kind = EM_CODE_PTX;
            arch = newest;
        }
    }

    char arch_opt[48];
    (void)em_cuda_include_dir();
    /* room for the architecture, -dlto and the toolkit's includes */
    const char **opts = malloc(((size_t)n_options + 4) * sizeof *opts);
    if (!opts)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory compiling '%s'", name);
    /* Name expressions come as EM_HOST_OPTION_NAME_EXPR options (so they
     * are in the kernel cache's key); NVRTC takes them as calls, which is
     * what instantiates a template kernel such as vector_add<float>. */
    size_t nel = strlen(EM_HOST_OPTION_NAME_EXPR);
    int n_opts = 0, n_exprs = 0;
    for (int i = 0; i < n_options; i++) {
        if (!strncmp(options[i], EM_HOST_OPTION_NAME_EXPR, nel))
            n_exprs++;
        else if (strcmp(options[i], EM_HOST_OPTION_CXX))
            opts[n_opts++] = options[i];
    }
    if (n_exprs && !em_cuda_nvrtc_fn.nvrtcAddNameExpression) {
        free(opts);
        return em_error(EM_ERR_NOT_SUPPORTED, "this NVRTC has no name "
                        "expressions (nvrtcAddNameExpression needs CUDA 10 "
                        "or newer)");
    }
    if (!user_arch) {
        /* LTO-IR, like PTX, is for a virtual architecture: the linker
         * makes the machine code. */
        snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s_%d",
                 kind == EM_CODE_CUBIN ? "sm" : "compute", arch);
        opts[n_opts++] = arch_opt;
    }
    /* NVRTC takes a repeated -dlto, so the user's own is no matter. */
    if (kind == EM_CODE_LTOIR)
        opts[n_opts++] = "-dlto";
    for (int i = 0; i < n_inc_opts; i++)
        opts[n_opts++] = inc_opt[i];

    nvrtcProgram prog = NULL;
    nvrtcResult r = em_cuda_nvrtc_fn.nvrtcCreateProgram(&prog, source, name,
                                                        0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        free(opts);
        return em_error_native(r == NVRTC_ERROR_OUT_OF_MEMORY
                                   ? EM_ERR_OUT_OF_MEMORY : EM_ERR_COMPILE,
                               r, nvrtc_error_name(r),
                               "nvrtcCreateProgram for '%s' failed: %s",
                               name, nvrtc_error_name(r));
    }
    for (int i = 0; r == NVRTC_SUCCESS && i < n_options; i++)
        if (!strncmp(options[i], EM_HOST_OPTION_NAME_EXPR, nel))
            r = em_cuda_nvrtc_fn.nvrtcAddNameExpression(prog, options[i] + nel);
    if (r == NVRTC_SUCCESS)
        r = em_cuda_nvrtc_fn.nvrtcCompileProgram(prog, n_opts, opts);
    free(opts);

    char *log = program_log(prog);
    if (!log) {
        em_cuda_nvrtc_fn.nvrtcDestroyProgram(&prog);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory for the log of '%s'", name);
    }

    if (r != NVRTC_SUCCESS) {
        em_cuda_nvrtc_fn.nvrtcDestroyProgram(&prog);
        em_status s = r == NVRTC_ERROR_OUT_OF_MEMORY ? EM_ERR_OUT_OF_MEMORY
                                                     : EM_ERR_COMPILE;
        if (log[0])
            em_error_native(s, r, nvrtc_error_name(r),
                            "NVRTC compilation of '%s' failed:\n%s", name,
                            log);
        else
            em_error_native(s, r, nvrtc_error_name(r),
                            "NVRTC compilation of '%s' failed: %s", name,
                            nvrtc_error_name(r));
        if (out_log)
            *out_log = log;
        else
            free(log);
        return s;
    }

    void *data = NULL;
    size_t size = 0;
    st = program_code(prog, name, kind, &data, &size);
    em_cuda_nvrtc_fn.nvrtcDestroyProgram(&prog);
    if (st != EM_OK) {
        free(log);
        return st;
    }
    em_code *c = malloc(sizeof *c);
    if (!c) {
        free(data);
        free(log);
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory compiling '%s'", name);
    }
    c->kind = kind;
    c->data = data;
    c->size = size;
    c->log = log;
    *out = c;
    return EM_OK;
}

em_status em_compile_cuda(const char *source, const char *name,
                          const char *const *options, int n_options, int arch,
                          em_code_kind kind, em_code **out, char **out_log)
{
    int automatic = arch == 0;
    if (automatic) {
        /* The first GPU's architecture stands in for the default device's:
         * asking the runtime would tie compilation to device selection,
         * and compiling must work where no device opens. */
        arch = em_cuda_first_device_arch();
        if (arch == 0)
            arch = EM_CUDA_FALLBACK_ARCH;
    }
    /* Only a chosen-for-you architecture may fall back to PTX; one the
     * caller named is taken at its word. */
    return em_cuda_nvrtc_compile(source, name, options, n_options, arch, kind,
                                 automatic, out, out_log);
}

em_status em_cuda_lowered_names(const char *source, const char *const *options,
                                int n_options, const char *const *exprs, int n_exprs,
                                char **out)
{
    char arch_opt[48];
    const char **opts;
    nvrtcProgram prog = NULL;
    nvrtcResult r;
    em_status st;
    int arch = em_cuda_first_device_arch(), n_opts = 0, i;

    if (!source || n_exprs < 0 || (n_exprs && (!exprs || !out)) || n_options < 0 ||
        (n_options && !options))
        return em_error(EM_ERR_INVALID_VALUE, "em_cuda_lowered_names: bad arguments");
    for (i = 0; i < n_exprs; i++)
        out[i] = NULL;
    if ((st = em_cuda_load_nvrtc()) != EM_OK)
        return st;
    if (!em_cuda_nvrtc_fn.nvrtcAddNameExpression || !em_cuda_nvrtc_fn.nvrtcGetLoweredName)
        return em_error(EM_ERR_NOT_SUPPORTED, "this NVRTC has no name expressions "
                        "(nvrtcAddNameExpression needs CUDA 10 or newer)");
    if (!(opts = malloc(((size_t)n_options + 1) * sizeof *opts)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory for name expressions");
    for (i = 0; i < n_options; i++)
        if (!is_arch_option(options[i]))
            opts[n_opts++] = options[i];
    /* PTX for a virtual architecture: names do not depend on it. */
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=compute_%d",
             arch ? arch : EM_CUDA_FALLBACK_ARCH);
    opts[n_opts++] = arch_opt;
    r = em_cuda_nvrtc_fn.nvrtcCreateProgram(&prog, source, "kernel.cu", 0, NULL, NULL);
    for (i = 0; r == NVRTC_SUCCESS && i < n_exprs; i++)
        r = em_cuda_nvrtc_fn.nvrtcAddNameExpression(prog, exprs[i]);
    if (r == NVRTC_SUCCESS)
        r = em_cuda_nvrtc_fn.nvrtcCompileProgram(prog, n_opts, opts);
    free(opts);
    if (r != NVRTC_SUCCESS) {
        char *log = prog ? program_log(prog) : NULL;
        st = em_error_native(EM_ERR_COMPILE, r, nvrtc_error_name(r),
                             "NVRTC compilation for name expressions failed: %s\n%s",
                             nvrtc_error_name(r), log ? log : "");
        free(log);
        if (prog)
            em_cuda_nvrtc_fn.nvrtcDestroyProgram(&prog);
        return st;
    }
    for (i = 0; i < n_exprs; i++) {
        const char *low = NULL;
        r = em_cuda_nvrtc_fn.nvrtcGetLoweredName(prog, exprs[i], &low);
        if (r != NVRTC_SUCCESS || !low) {
            st = em_error_native(EM_ERR_NOT_FOUND, r, nvrtc_error_name(r),
                                 "name expression '%s' names no kernel of the "
                                 "source: %s", exprs[i], nvrtc_error_name(r));
            break;
        }
        if (!(out[i] = strdup(low))) {
            st = em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory for name "
                          "expressions");
            break;
        }
    }
    em_cuda_nvrtc_fn.nvrtcDestroyProgram(&prog);
    if (st != EM_OK)
        for (i = 0; i < n_exprs; i++) {
            free(out[i]);
            out[i] = NULL;
        }
    return st;
}
