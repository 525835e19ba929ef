/* A stand-in libnvidia-ml.so.1 for tests/python/test_nvml.py: two GPUs with
 * known values and NVML's documented struct layouts, lacking the newest
 * names of some functions (and nvmlDeviceGetPowerUsage altogether), so
 * ember's fallbacks and FUNCTION_NOT_FOUND are checked without a driver.
 * GPU 1 has NVLink, GPU 0 not; built with -DFAKE_OLD_DRIVER the library
 * lacks the field-value API and the NVLink state. */
#include <stdio.h>
#include <string.h>

typedef void *dev;
static int inits;

int nvmlInit_v2(void) { inits++; return 0; }
int nvmlShutdown(void) { return inits-- > 0 ? 0 : 1; }
const char *nvmlErrorString(int r) { return r == 2 ? "Invalid Argument" : "Fake"; }
/* only the unversioned name: ember must fall back to it */
int nvmlDeviceGetCount(unsigned *n) { if (!inits) return 1; *n = 2; return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, dev *d)
{
    if (i >= 2) return 2;
    *d = (dev)(0x1000 + (long)i);
    return 0;
}
int nvmlDeviceGetHandleByUUID(const char *u, dev *d)
{
    if (strncmp(u, "GPU-0000000", 11)) return 6;
    *d = (dev)(0x1000 + (long)(u[11] - '0'));
    return 0;
}
static long ix(dev d) { return (long)d - 0x1000; }
int nvmlDeviceGetName(dev d, char *b, unsigned n)
{ snprintf(b, n, "Fake GPU %ld", ix(d)); return 0; }
int nvmlDeviceGetUUID(dev d, char *b, unsigned n)
{ snprintf(b, n, "GPU-0000000%ld-0000-0000-0000-000000000000", ix(d)); return 0; }
int nvmlSystemGetDriverVersion(char *b, unsigned n) { snprintf(b, n, "999.1"); return 0; }
struct mem_v1 { unsigned long long total, free, used; };
struct mem_v2 { unsigned version; unsigned long long total, reserved, free, used; };
int nvmlDeviceGetMemoryInfo(dev d, struct mem_v1 *m)
{ m->total = 1000; m->free = 300; m->used = 700; return 0; }
int nvmlDeviceGetMemoryInfo_v2(dev d, struct mem_v2 *m)
{
    if (m->version != (unsigned)(sizeof *m | (2u << 24))) return 25;
    m->total = 1000; m->reserved = 100; m->free = 300; m->used = 600;
    return 0;
}
struct util { unsigned gpu, memory; };
int nvmlDeviceGetUtilizationRates(dev d, struct util *u)
{ u->gpu = 42 + (unsigned)ix(d); u->memory = 17; return 0; }
int nvmlDeviceGetTemperature(dev d, int s, unsigned *t)
{ if (s) return 3; *t = 55; return 0; }
int nvmlDeviceGetPowerManagementLimit(dev d, unsigned *mw) { *mw = 700000; return 0; }
int nvmlDeviceGetClockInfo(dev d, int k, unsigned *v) { *v = 1000 + (unsigned)k; return 0; }
int nvmlDeviceGetPcieThroughput(dev d, int k, unsigned *v) { *v = 10 + (unsigned)k; return 0; }
int nvmlDeviceGetTotalEccErrors(dev d, int e, int c, unsigned long long *v)
{ *v = (unsigned long long)(e * 2 + c); return 0; }
/* only the older name */
int nvmlDeviceGetCurrentClocksThrottleReasons(dev d, unsigned long long *v)
{ *v = 0x4 | 0x40; return 0; }
struct pci { char legacy[16]; unsigned domain, bus, device, id, sub; char bus_id[32]; };
int nvmlDeviceGetPciInfo_v3(dev d, struct pci *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->legacy, sizeof p->legacy, "0000:1%ld:00.0", ix(d));
    snprintf(p->bus_id, sizeof p->bus_id, "00000000:1%ld:00.0", ix(d));
    p->bus = 0x10 + (unsigned)ix(d); p->id = 0x233010de; p->sub = 7;
    return 0;
}
struct proc { unsigned pid; unsigned long long used; unsigned gi, ci; };
int nvmlDeviceGetComputeRunningProcesses_v3(dev d, unsigned *n, struct proc *p)
{
    if (*n < 2) { *n = 2; return 7; }
    p[0] = (struct proc){111, 1u << 20, 0, 0};
    p[1] = (struct proc){222, ~0ull, 0, 0};
    *n = 2;
    return 0;
}

#ifndef FAKE_OLD_DRIVER
/* nvmlFieldValue_t. GPU 1's NVLink data counters (fields 138/139, all
 * links) move 1000 and 500 KiB between readings 0.1 s apart by their
 * stamps; the link count (91) is 4; anything else is NOT_SUPPORTED. */
struct field {
    unsigned id, scope;
    long long ts, latency;
    int type, ret;
    union { double d; unsigned long long u64; } v;
};
static long long reads;
int nvmlDeviceGetFieldValues(dev d, int n, struct field *f)
{
    reads++;
    for (int i = 0; i < n; i++) {
        f[i].ts = 1700000000000000ll + reads * 100000;
        f[i].latency = 0;
        f[i].type = 3;
        f[i].ret = 3;
        if (ix(d) != 1)
            continue;
        if (f[i].id == 91) {
            f[i].ret = 0; f[i].type = 1; f[i].v.u64 = 4;   /* its low 4 bytes */
        } else if ((f[i].id == 138 || f[i].id == 139) && f[i].scope == 0xFFFFFFFFu) {
            f[i].ret = 0;
            f[i].v.u64 = (unsigned long long)reads * (f[i].id == 138 ? 1000 : 500);
        }
    }
    return 0;
}
int nvmlDeviceGetNvLinkState(dev d, unsigned link, int *active)
{
    if (ix(d) != 1) return 3;
    if (link >= 4) return 2;
    *active = link != 2;
    return 0;
}
#endif
