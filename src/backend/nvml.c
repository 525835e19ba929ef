/* ember backend: NVML, the driver's management library, opened with
 * dlopen on first use through the vendor table. Its functions are looked
 * up by versioned name, newest first, because NVML renames a function
 * whenever its struct grows (nvmlDeviceGetMemoryInfo_v2 takes a versioned
 * struct) and an old driver lacks the new names. The structs are declared
 * here with NVML's documented layouts, so building ember needs no nvml.h.
 * Nothing here calls CUDA: NVML answers without a context. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ember/nvml.h"
#include "ember/runtime.h"

typedef int nvret;
typedef void *nvdev;

/* nvmlMemory_t and nvmlMemory_v2_t */
struct mem_v1 { unsigned long long total, free, used; };
struct mem_v2 {
    unsigned version;
    unsigned long long total, reserved, free, used;
};
#define MEM_V2_VERSION ((unsigned)(sizeof(struct mem_v2) | (2u << 24)))
struct util { unsigned gpu, memory; };
/* nvmlProcessInfo_v1_t; and the layout of _v2 and _v3 (gpu and compute
 * instance ids appended) */
struct proc_v1 { unsigned pid; unsigned long long used; };
struct proc_v2 { unsigned pid; unsigned long long used; unsigned gi, ci; };
/* nvmlPciInfo_t as _v2 and _v3 fill it */
struct pci {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
};

/* nvmlFieldValue_t: 40 bytes, its value an 8-byte union */
struct field {
    unsigned field_id, scope_id;
    long long timestamp, latency_usec;
    int value_type, nvml_return;
    union { double d; unsigned long long u64; } value;
};
_Static_assert(sizeof(struct field) == 40, "nvmlFieldValue_t is 40 bytes");
_Static_assert(sizeof(em_nvml_field) == 40, "em_nvml_field mirrors it");

static struct {
    nvret (*init)(void);
    nvret (*shutdown)(void);
    const char *(*error_string)(nvret);
    nvret (*count)(unsigned *);
    nvret (*by_index)(unsigned, nvdev *);
    nvret (*by_uuid)(const char *, nvdev *);
    nvret (*name)(nvdev, char *, unsigned);
    nvret (*uuid)(nvdev, char *, unsigned);
    nvret (*driver)(char *, unsigned);
    nvret (*mem_v1)(nvdev, struct mem_v1 *);
    nvret (*mem_v2)(nvdev, struct mem_v2 *);
    nvret (*util)(nvdev, struct util *);
    nvret (*temp)(nvdev, int, unsigned *);
    nvret (*power)(nvdev, unsigned *);
    nvret (*limit)(nvdev, unsigned *);
    nvret (*clock)(nvdev, int, unsigned *);
    nvret (*pcie)(nvdev, int, unsigned *);
    nvret (*ecc)(nvdev, int, int, unsigned long long *);
    nvret (*throttle)(nvdev, unsigned long long *);
    nvret (*pci)(nvdev, struct pci *);
    nvret (*procs_v2)(nvdev, unsigned *, struct proc_v2 *); /* _v3 or _v2 */
    nvret (*procs_v1)(nvdev, unsigned *, struct proc_v1 *);
    nvret (*fields)(nvdev, int, struct field *);
    nvret (*nvlink_state)(nvdev, unsigned, int *);
} fn;

/* Each entry: where its pointer goes, then its names, newest first. */
static const struct { size_t at; const char *names[3]; } names[] = {
#define AT(f) offsetof(__typeof__(fn), f)
    {AT(init), {"nvmlInit_v2", "nvmlInit"}},
    {AT(shutdown), {"nvmlShutdown"}},
    {AT(error_string), {"nvmlErrorString"}},
    {AT(count), {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"}},
    {AT(by_index), {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"}},
    {AT(by_uuid), {"nvmlDeviceGetHandleByUUID"}},
    {AT(name), {"nvmlDeviceGetName"}},
    {AT(uuid), {"nvmlDeviceGetUUID"}},
    {AT(driver), {"nvmlSystemGetDriverVersion"}},
    {AT(mem_v1), {"nvmlDeviceGetMemoryInfo"}},
    {AT(mem_v2), {"nvmlDeviceGetMemoryInfo_v2"}},
    {AT(util), {"nvmlDeviceGetUtilizationRates"}},
    {AT(temp), {"nvmlDeviceGetTemperature"}},
    {AT(power), {"nvmlDeviceGetPowerUsage"}},
    {AT(limit), {"nvmlDeviceGetPowerManagementLimit"}},
    {AT(clock), {"nvmlDeviceGetClockInfo"}},
    {AT(pcie), {"nvmlDeviceGetPcieThroughput"}},
    {AT(ecc), {"nvmlDeviceGetTotalEccErrors"}},
    {AT(throttle), {"nvmlDeviceGetCurrentClocksEventReasons",
                    "nvmlDeviceGetCurrentClocksThrottleReasons"}},
    {AT(pci), {"nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2"}},
    {AT(procs_v2), {"nvmlDeviceGetComputeRunningProcesses_v3",
                    "nvmlDeviceGetComputeRunningProcesses_v2"}},
    {AT(procs_v1), {"nvmlDeviceGetComputeRunningProcesses"}},
    {AT(fields), {"nvmlDeviceGetFieldValues"}},
    {AT(nvlink_state), {"nvmlDeviceGetNvLinkState"}},
#undef AT
};

static _Thread_local int last_code;
static pthread_once_t bound = PTHREAD_ONCE_INIT;
static em_status bind_status = EM_OK;
static char bind_why[1200];
static int loaded;

/* Resolve every name the library has; a missing one fails only its own
 * call (FUNCTION_NOT_FOUND), as an old driver lacks the new queries. */
static void bind(void)
{
    void *h;
    if ((bind_status = em_vendor_open(EM_VENDOR_NVML, &h)) != EM_OK) {
        snprintf(bind_why, sizeof bind_why, "%s", em_last_error());
        return;
    }
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        void *f = NULL;
        for (int k = 0; k < 3 && names[i].names[k] && !f; k++)
            f = dlsym(h, names[i].names[k]);
        memcpy((char *)&fn + names[i].at, &f, sizeof f);
    }
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

int em_nvml_code(void) { return last_code; }

int em_nvml_loaded(void) { return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE); }

static em_status fail(int code, const char *what)
{
    const char *s = fn.error_string ? fn.error_string(code) : NULL;
    last_code = code;
    return em_error_native(code == EM_NVML_ERROR_NOT_SUPPORTED
                               ? EM_ERR_NOT_SUPPORTED : EM_ERR_UNAVAILABLE,
                           code, "NVML", "%s: %s (NVML code %d)", what,
                           s ? s : "unknown error", code);
}

/* NVML bound (the caller ran pthread_once(&bound, bind) before reading
 * f), and f, one of fn's pointers, present: or why not. */
static em_status ready(const void *f, const char *what)
{
    if (bind_status != EM_OK) {
        last_code = EM_NVML_ERROR_LIBRARY_NOT_FOUND;
        return em_error_native(bind_status, last_code, "NVML", "%s", bind_why);
    }
    if (!f) {
        last_code = EM_NVML_ERROR_FUNCTION_NOT_FOUND;
        return em_error_native(EM_ERR_NOT_SUPPORTED, last_code, "NVML",
                               "%s: this driver's NVML (%s) lacks it",
                               what, em_vendor_path(EM_VENDOR_NVML));
    }
    return EM_OK;
}

#define CALL(f, what, ...)                                       \
    do {                                                         \
        em_status st_;                                           \
        nvret r_;                                                \
        pthread_once(&bound, bind);                              \
        st_ = ready((const void *)(fn.f), what);                 \
        if (st_ != EM_OK)                                        \
            return st_;                                          \
        if ((r_ = fn.f(__VA_ARGS__)) != 0)                       \
            return fail(r_, what);                               \
    } while (0)

#define DEV(d) ((nvdev)(d))

em_status em_nvml_init(void)
{
    CALL(init, "nvmlInit");
    return EM_OK;
}

em_status em_nvml_shutdown(void)
{
    CALL(shutdown, "nvmlShutdown");
    return EM_OK;
}

em_status em_nvml_count(unsigned *n)
{
    CALL(count, "nvmlDeviceGetCount", n);
    return EM_OK;
}

em_status em_nvml_handle_by_index(unsigned i, em_nvml_device **out)
{
    nvdev d = NULL;
    CALL(by_index, "nvmlDeviceGetHandleByIndex", i, &d);
    *out = (em_nvml_device *)d;
    return EM_OK;
}

em_status em_nvml_handle_by_uuid(const char *uuid, em_nvml_device **out)
{
    nvdev d = NULL;
    CALL(by_uuid, "nvmlDeviceGetHandleByUUID", uuid, &d);
    *out = (em_nvml_device *)d;
    return EM_OK;
}

em_status em_nvml_name(em_nvml_device *d, char *buf, unsigned n)
{
    CALL(name, "nvmlDeviceGetName", DEV(d), buf, n);
    return EM_OK;
}

em_status em_nvml_uuid(em_nvml_device *d, char *buf, unsigned n)
{
    CALL(uuid, "nvmlDeviceGetUUID", DEV(d), buf, n);
    return EM_OK;
}

em_status em_nvml_driver_version(char *buf, unsigned n)
{
    CALL(driver, "nvmlSystemGetDriverVersion", buf, n);
    return EM_OK;
}

em_status em_nvml_memory_info(em_nvml_device *d, int version, em_nvml_memory *out)
{
    if (version == 2) {
        struct mem_v2 m = {.version = MEM_V2_VERSION};
        CALL(mem_v2, "nvmlDeviceGetMemoryInfo_v2", DEV(d), &m);
        *out = (em_nvml_memory){m.total, m.free, m.used, m.reserved};
    } else {
        struct mem_v1 m = {0};
        CALL(mem_v1, "nvmlDeviceGetMemoryInfo", DEV(d), &m);
        *out = (em_nvml_memory){m.total, m.free, m.used, 0};
    }
    return EM_OK;
}

em_status em_nvml_utilization(em_nvml_device *d, unsigned *gpu, unsigned *memory)
{
    struct util u = {0};
    CALL(util, "nvmlDeviceGetUtilizationRates", DEV(d), &u);
    *gpu = u.gpu;
    *memory = u.memory;
    return EM_OK;
}

em_status em_nvml_temperature(em_nvml_device *d, int sensor, unsigned *celsius)
{
    CALL(temp, "nvmlDeviceGetTemperature", DEV(d), sensor, celsius);
    return EM_OK;
}

em_status em_nvml_power_usage(em_nvml_device *d, unsigned *milliwatts)
{
    CALL(power, "nvmlDeviceGetPowerUsage", DEV(d), milliwatts);
    return EM_OK;
}

em_status em_nvml_power_limit(em_nvml_device *d, unsigned *milliwatts)
{
    CALL(limit, "nvmlDeviceGetPowerManagementLimit", DEV(d), milliwatts);
    return EM_OK;
}

em_status em_nvml_clock(em_nvml_device *d, int type, unsigned *mhz)
{
    CALL(clock, "nvmlDeviceGetClockInfo", DEV(d), type, mhz);
    return EM_OK;
}

em_status em_nvml_pcie_throughput(em_nvml_device *d, int counter, unsigned *kbps)
{
    CALL(pcie, "nvmlDeviceGetPcieThroughput", DEV(d), counter, kbps);
    return EM_OK;
}

em_status em_nvml_ecc_errors(em_nvml_device *d, int error_type, int counter,
                             uint64_t *count)
{
    unsigned long long c = 0;
    CALL(ecc, "nvmlDeviceGetTotalEccErrors", DEV(d), error_type, counter, &c);
    *count = c;
    return EM_OK;
}

em_status em_nvml_throttle_reasons(em_nvml_device *d, uint64_t *mask)
{
    unsigned long long m = 0;
    CALL(throttle, "nvmlDeviceGetCurrentClocksEventReasons", DEV(d), &m);
    *mask = m;
    return EM_OK;
}

em_status em_nvml_pci_info(em_nvml_device *d, em_nvml_pci *out)
{
    struct pci p;
    memset(&p, 0, sizeof p);
    CALL(pci, "nvmlDeviceGetPciInfo_v3", DEV(d), &p);
    memcpy(out->bus_id_legacy, p.bus_id_legacy, sizeof p.bus_id_legacy);
    out->bus_id_legacy[sizeof p.bus_id_legacy - 1] = 0;
    out->domain = p.domain;
    out->bus = p.bus;
    out->device = p.device;
    out->pci_device_id = p.pci_device_id;
    out->pci_subsystem_id = p.pci_subsystem_id;
    memcpy(out->bus_id, p.bus_id, sizeof p.bus_id);
    out->bus_id[sizeof p.bus_id - 1] = 0;
    return EM_OK;
}

#define MAX_FIELDS 64

em_status em_nvml_field_values(em_nvml_device *d, int n, em_nvml_field *fields)
{
    struct field f[MAX_FIELDS];
    if (n < 0 || n > MAX_FIELDS)
        return em_error(EM_ERR_INVALID_VALUE,
                        "nvmlDeviceGetFieldValues: %d fields, 0 to %d at once", n,
                        MAX_FIELDS);
    memset(f, 0, sizeof f);
    for (int i = 0; i < n; i++) {
        f[i].field_id = fields[i].field_id;
        f[i].scope_id = fields[i].scope_id;
    }
    CALL(fields, "nvmlDeviceGetFieldValues", DEV(d), n, f);
    for (int i = 0; i < n; i++) {
        fields[i].timestamp = f[i].timestamp;
        fields[i].latency_usec = f[i].latency_usec;
        fields[i].value_type = f[i].value_type;
        fields[i].nvml_return = f[i].nvml_return;
        memcpy(&fields[i].value, &f[i].value, sizeof f[i].value);
    }
    return EM_OK;
}

em_status em_nvml_nvlink_state(em_nvml_device *d, unsigned link, int *active)
{
    int a = 0;
    CALL(nvlink_state, "nvmlDeviceGetNvLinkState", DEV(d), link, &a);
    *active = a;
    return EM_OK;
}

#define MAX_PROCS 256

em_status em_nvml_processes(em_nvml_device *d, em_nvml_process *out, unsigned *n)
{
    unsigned room = *n < MAX_PROCS ? *n : MAX_PROCS, got = room;
    pthread_once(&bound, bind);
    if (fn.procs_v2) {
        struct proc_v2 p[MAX_PROCS];
        CALL(procs_v2, "nvmlDeviceGetComputeRunningProcesses_v3", DEV(d), &got, p);
        for (unsigned i = 0; i < got && i < room; i++)
            out[i] = (em_nvml_process){p[i].pid, p[i].used};
    } else {
        struct proc_v1 p[MAX_PROCS];
        CALL(procs_v1, "nvmlDeviceGetComputeRunningProcesses", DEV(d), &got, p);
        for (unsigned i = 0; i < got && i < room; i++)
            out[i] = (em_nvml_process){p[i].pid, p[i].used};
    }
    *n = got;
    return EM_OK;
}
