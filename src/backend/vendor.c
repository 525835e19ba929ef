/* ember backend: finding and opening the CUDA libraries (cuBLAS, cuFFT,
 * cuSOLVER, ...) and the CPU's OpenBLAS with dlopen, once each, so that building ember needs none
 * of them and a machine without one loses only the features that use it.
 * Callers resolve the functions they need from the handle. */
#define _GNU_SOURCE   /* dlinfo */
#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend/vendor.h"
#include "ember/util.h"

static const em_vendor_desc descs[EM_VENDOR_COUNT] = {
    [EM_VENDOR_CUBLAS] = {"cuBLAS", {"libcublas.so.13", "libcublas.so.12"},
                          "nvidia-cublas"},
    [EM_VENDOR_CUBLASLT] = {"cuBLASLt", {"libcublasLt.so.13", "libcublasLt.so.12"},
                            "nvidia-cublas"},
    [EM_VENDOR_CUFFT] = {"cuFFT", {"libcufft.so.12", "libcufft.so.11"},
                         "nvidia-cufft"},
    [EM_VENDOR_CUSOLVER] = {"cuSOLVER", {"libcusolver.so.12", "libcusolver.so.11"},
                            "nvidia-cusolver"},
    [EM_VENDOR_CUSPARSE] = {"cuSPARSE", {"libcusparse.so.12"}, "nvidia-cusparse"},
    [EM_VENDOR_CURAND] = {"cuRAND", {"libcurand.so.10"}, "nvidia-curand"},
    /* The CPU's BLAS and LAPACK: the OpenBLAS build NumPy and SciPy ship
     * (64-bit integers, symbols named scipy_dgesv_64_); ember/_api/linalg
     * adds the wheel's lib/ folder before the first use. */
    [EM_VENDOR_OPENBLAS] = {"OpenBLAS", {"libscipy_openblas64_.so"},
                            "scipy-openblas64", 1},
    /* The driver's management library (ember/nvml.h): it comes with the
     * NVIDIA driver, never from pip. */
    [EM_VENDOR_NVML] = {"NVML", {"libnvidia-ml.so.1"}, "the NVIDIA driver", 0, 1},
    /* GPU collectives (ember/nccl.h, ember.distributed). */
    [EM_VENDOR_NCCL] = {"NCCL", {"libnccl.so.2"}, "nvidia-nccl-cu12 (or -cu13)"},
    /* The profiler's ranges reach a tool such as Nsight Systems through
     * it, only when the tool asks (NVTX_INJECTION64_PATH): NVTX 3's C
     * functions as a library (pip's nvidia-nvtx-cu12 and nvidia-nvtx), or
     * the toolkit's older libnvToolsExt; both load the tool themselves. */
    [EM_VENDOR_NVTX] = {"NVTX", {"libnvtx3interop.so.1", "libnvToolsExt.so.1"},
                        "nvidia-nvtx-cu12 (or nvidia-nvtx for CUDA 13)"},
    /* The profiler's device times without events, when asked for. */
    [EM_VENDOR_CUPTI] = {"CUPTI", {"libcupti.so.13", "libcupti.so.12"},
                         "nvidia-cuda-cupti-cu12 (or nvidia-cuda-cupti for CUDA 13)"},
};

#define MAX_DIRS 32

/* Folders added by em_vendor_add_dir, and each library's outcome; both
 * under one lock (opening is rare and a few dlopen calls long). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *added[MAX_DIRS];
static int n_added;
static struct {
    int tried;
    em_status status;
    void *handle;
    char path[PATH_MAX];
    char why[1024];
} libs[EM_VENDOR_COUNT];

em_status em_vendor_add_dir(const char *dir)
{
    em_status st = EM_OK;
    if (!dir || !*dir)
        return em_error(EM_ERR_INVALID_VALUE, "em_vendor_add_dir: no folder");
    pthread_mutex_lock(&lock);
    for (int i = 0; i < n_added; i++)
        if (!strcmp(added[i], dir))
            goto out;
    if (n_added == MAX_DIRS)
        st = em_error(EM_ERR_INVALID_VALUE, "em_vendor_add_dir: more than %d "
                      "folders", MAX_DIRS);
    else if (!(added[n_added] = strdup(dir)))
        st = em_error(EM_ERR_OUT_OF_MEMORY, "em_vendor_add_dir: out of memory");
    else
        n_added++;
out:
    pthread_mutex_unlock(&lock);
    return st;
}

/* dlopen dir/soname (or soname alone, through the loader's path, when dir
 * is NULL); on success the file it came from goes to path. */
static void *try_open(const char *dir, const char *soname, char *path, size_t n)
{
    char file[PATH_MAX];
    void *h;
    if (dir && snprintf(file, sizeof file, "%s/%s", dir, soname) >= (int)sizeof file)
        return NULL;
    h = dlopen(dir ? file : soname, RTLD_NOW | RTLD_LOCAL);
    if (h) {
        struct link_map *lm = NULL;
        /* the loader's own record says where a bare soname was found */
        if (!dir && dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name &&
            *lm->l_name)
            snprintf(path, n, "%s", lm->l_name);
        else
            snprintf(path, n, "%s", dir ? file : soname);
    }
    return h;
}

static void *try_dir(const em_vendor_desc *d, const char *dir, char *path, size_t n)
{
    for (int i = 0; i < EM_VENDOR_MAX_SONAMES && d->sonames[i]; i++) {
        void *h = try_open(dir, d->sonames[i], path, n);
        if (h)
            return h;
    }
    return NULL;
}

/* auditwheel renames the libraries a wheel bundles to name-<hash>.so:
 * NumPy's numpy.libs holds libscipy_openblas64_-<hash>.so. */
static int hashed_name(const char *file, const char *soname)
{
    size_t stem = strlen(soname) - 3, len = strlen(file); /* soname ends .so */
    return len > stem + 4 && !strncmp(file, soname, stem) && file[stem] == '-' &&
           !strcmp(file + len - 3, ".so");
}

/* A folder of pip's wheels (site-packages/nvidia) holds one lib/ per
 * wheel: nvidia/cufft/lib (CUDA 12) or nvidia/cu13/lib (CUDA 13). A host
 * library is also taken under its auditwheel name, so ember opens the
 * very OpenBLAS NumPy bundles and the process keeps one BLAS thread pool:
 * two pools of one thread a core each spin against each other after
 * every call (solve on 16 cores ran at 1.56x NumPy's time). */
static void *try_added(const em_vendor_desc *d, const char *dir, char *path,
                       size_t n)
{
    char sub[PATH_MAX];
    struct dirent *e;
    void *h = try_dir(d, dir, path, n);
    DIR *dd;
    if (h || !(dd = opendir(dir)))
        return h;
    while (!h && (e = readdir(dd))) {
        struct stat sb;
        if (d->cpu && hashed_name(e->d_name, d->sonames[0])) {
            h = try_open(dir, e->d_name, path, n);
            continue;
        }
        if (e->d_name[0] == '.' ||
            snprintf(sub, sizeof sub, "%s/%s/lib", dir, e->d_name) >= (int)sizeof sub ||
            stat(sub, &sb) != 0 || !S_ISDIR(sb.st_mode))
            continue;
        h = try_dir(d, sub, path, n);
    }
    closedir(dd);
    return h;
}

void *em_vendor_search(const em_vendor_desc *d, const char *const *dirs, int n_dirs,
                       char *path, size_t n, char *why, size_t why_n)
{
    char home[PATH_MAX], *list, *save = NULL;
    const char *env = em_knob_text(EM_KNOB_CUDA_LIBS), *v;
    void *h = NULL;
    if (env && (list = strdup(env))) {
        for (char *t = strtok_r(list, ":", &save); t && !h;
             t = strtok_r(NULL, ":", &save))
            h = try_dir(d, t, path, n);
        free(list);
    }
    for (int i = 0; i < n_dirs && !h; i++)
        h = try_added(d, dirs[i], path, n);
    if (!h && (v = getenv("CUDA_HOME")) && *v &&
        snprintf(home, sizeof home, "%s/lib64", v) < (int)sizeof home)
        h = try_dir(d, home, path, n);
    if (!h && (v = getenv("CUDA_PATH")) && *v &&
        snprintf(home, sizeof home, "%s/lib64", v) < (int)sizeof home)
        h = try_dir(d, home, path, n);
    if (!h)
        h = try_dir(d, "/usr/local/cuda/lib64", path, n);
    if (!h)
        h = try_dir(d, NULL, path, n);
    if (!h && d->driver)
        snprintf(why, why_n, "%s (%s) not found in $EMBER_CUDA_LIBS or the "
                 "loader's path: it is installed with %s (no GPU, or a "
                 "container started without the driver's libraries)", d->name,
                 d->sonames[0], d->package);
    else if (!h && d->cpu)
        snprintf(why, why_n, "%s (%s) not found in the added folders, "
                 "$EMBER_CUDA_LIBS or the loader's path: `pip install %s` "
                 "(ember's cpu extra)", d->name, d->sonames[0], d->package);
    else if (!h)
        snprintf(why, why_n, "%s (%s) not found in $EMBER_CUDA_LIBS, pip's "
                 "nvidia-* wheels, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda/lib64 "
                 "or the loader's path: install the CUDA toolkit or `pip install "
                 "%s`, or set EMBER_CUDA_LIBS", d->name, d->sonames[0], d->package);
    return h;
}

em_status em_vendor_open(em_vendor_lib lib, void **handle)
{
    em_status st;
    if ((unsigned)lib >= EM_VENDOR_COUNT || !handle)
        return em_error(EM_ERR_INVALID_VALUE, "em_vendor_open: library %d of %d",
                        (int)lib, EM_VENDOR_COUNT);
    pthread_mutex_lock(&lock);
    if (!libs[lib].tried) {
        libs[lib].tried = 1;
        libs[lib].handle = em_vendor_search(&descs[lib], (const char *const *)added,
                                            n_added, libs[lib].path,
                                            sizeof libs[lib].path, libs[lib].why,
                                            sizeof libs[lib].why);
        libs[lib].status = libs[lib].handle ? EM_OK : EM_ERR_UNAVAILABLE;
    }
    *handle = libs[lib].handle;
    st = libs[lib].status;
    pthread_mutex_unlock(&lock);
    return st == EM_OK ? EM_OK : em_error(st, "%s", libs[lib].why);
}

em_status em_vendor_bind(em_vendor_lib lib, const em_vendor_sym *syms, int n,
                         void *table)
{
    void *h, *f;
    em_status st = em_vendor_open(lib, &h);
    if (st != EM_OK)
        return st;
    for (int i = 0; i < n; i++)
        if (!dlsym(h, syms[i].name))
            return em_error(EM_ERR_UNAVAILABLE, "%s at %s has no %s: a newer "
                            "%s is needed", descs[lib].name,
                            em_vendor_path(lib), syms[i].name, descs[lib].name);
    for (int i = 0; i < n; i++) {
        f = dlsym(h, syms[i].name);
        memcpy((char *)table + syms[i].offset, &f, sizeof f);
    }
    return EM_OK;
}

em_status em_vendor_ready(em_vendor_lazy *t)
{
    static pthread_mutex_t bind_lock = PTHREAD_MUTEX_INITIALIZER;
    if (!__atomic_load_n(&t->done, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&bind_lock);
        if (!t->done) {
            t->status = em_vendor_bind(t->lib, t->syms, t->n, t->table);
            if (t->status != EM_OK)
                snprintf(t->why, sizeof t->why, "%s", em_last_error());
            __atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&bind_lock);
    }
    return t->status == EM_OK ? EM_OK : em_error(t->status, "%s", t->why);
}

const char *em_vendor_name(em_vendor_lib lib)
{
    return (unsigned)lib < EM_VENDOR_COUNT ? descs[lib].name : NULL;
}

const char *em_vendor_path(em_vendor_lib lib)
{
    const char *p = NULL;
    if ((unsigned)lib >= EM_VENDOR_COUNT)
        return NULL;
    pthread_mutex_lock(&lock);
    if (libs[lib].tried && libs[lib].handle)
        p = libs[lib].path;
    pthread_mutex_unlock(&lock);
    return p;
}
