/* ember runtime: backends, the device table and the default device.
 *
 * Each backend starts at most once per process (pthread_once); its devices
 * are opened on first use and then live until exit, so an em_device pointer
 * never dangles and readers need no lock once a device is published. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ember/util.h"
#include "runtime.h"
#include "profile.h"

struct rt_backend {
    const struct em_backend_ops *ops;
    const char *label;            /* for messages: "cpu", "CUDA" */
    em_status status;
    char reason[512];             /* "ok" or why the backend is unusable */
    int count;
    int usable;                   /* written once inside pthread_once */
    em_device **devices;          /* published (complete) devices */
    em_device **partial;          /* opened, but a later step failed */
    pthread_mutex_t open_lock;
};

static struct rt_backend rt_backends[2] = {
    [EM_DEVICE_CPU] = {.ops = &em_host_backend, .label = "cpu",
                       .open_lock = PTHREAD_MUTEX_INITIALIZER},
    [EM_DEVICE_CUDA] = {.ops = &em_cuda_backend, .label = "CUDA",
                        .open_lock = PTHREAD_MUTEX_INITIALIZER},
};
static pthread_once_t rt_once[2] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

static void rt_backend_init(struct rt_backend *b)
{
    em_status s = b->ops->init();
    int n = 0;
    if (s == EM_OK)
        s = b->ops->device_count(&n);
    if (s != EM_OK) {
        /* Keep the reason: the thread-local message is gone by the time
         * another thread asks why. */
        b->status = EM_ERR_UNAVAILABLE;
        snprintf(b->reason, sizeof b->reason, "%s", em_last_error());
        if (!b->reason[0])
            snprintf(b->reason, sizeof b->reason, "%s backend failed to start (%s)",
                     b->ops->name, em_status_name(s));
        return;
    }
    if (n <= 0) {
        b->status = EM_ERR_UNAVAILABLE;
        snprintf(b->reason, sizeof b->reason, "no %s device", b->label);
        return;
    }
    b->devices = calloc((size_t)n, sizeof *b->devices);
    b->partial = calloc((size_t)n, sizeof *b->partial);
    if (!b->devices || !b->partial) {
        free(b->devices);
        free(b->partial);
        b->devices = b->partial = NULL;
        b->status = EM_ERR_UNAVAILABLE;
        snprintf(b->reason, sizeof b->reason, "out of host memory starting %s",
                 b->ops->name);
        return;
    }
    b->count = n;
    b->status = EM_OK;
    snprintf(b->reason, sizeof b->reason, "ok");
    __atomic_store_n(&b->usable, 1, __ATOMIC_RELEASE);
}

static void rt_init_cpu(void) { rt_backend_init(&rt_backends[EM_DEVICE_CPU]); }
static void rt_init_cuda(void) { rt_backend_init(&rt_backends[EM_DEVICE_CUDA]); }

static struct rt_backend *rt_backend_of(em_device_type type)
{
    if (type == EM_DEVICE_CPU) {
        pthread_once(&rt_once[EM_DEVICE_CPU], rt_init_cpu);
        return &rt_backends[EM_DEVICE_CPU];
    }
    if (type == EM_DEVICE_CUDA) {
        pthread_once(&rt_once[EM_DEVICE_CUDA], rt_init_cuda);
        return &rt_backends[EM_DEVICE_CUDA];
    }
    return NULL;
}

em_status em_rt_backend_start(em_device_type type)
{
    struct rt_backend *b = rt_backend_of(type);
    if (!b)
        return em_error(EM_ERR_INVALID_VALUE, "unknown device type %d", (int)type);
    if (b->status != EM_OK)
        return em_error(EM_ERR_UNAVAILABLE, "%s devices are unavailable: %s", b->label,
                        b->reason);
    return EM_OK;
}

int em_rt_backend_usable(em_device_type type)
{
    if (type != EM_DEVICE_CPU && type != EM_DEVICE_CUDA)
        return 0;
    return __atomic_load_n(&rt_backends[type].usable, __ATOMIC_ACQUIRE);
}

const char *em_backend_status(em_device_type type)
{
    struct rt_backend *b = rt_backend_of(type);
    if (!b)
        return "unknown device type";
    return b->reason;
}

em_status em_device_count(em_device_type type, int *count)
{
    struct rt_backend *b = rt_backend_of(type);
    if (!count)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_count: count is NULL");
    *count = 0;
    if (!b)
        return em_error(EM_ERR_INVALID_VALUE, "unknown device type %d", (int)type);
    *count = b->count;
    return EM_OK;
}

/* Open device id under the backend's open lock. A device whose
 * device_open succeeded but whose default stream or pool could not be made
 * is kept in partial[] (there is no device_close to undo the open) and
 * finished on the next try. */
static em_status rt_open_device(struct rt_backend *b, em_device_type type,
                                int id, em_device **out)
{
    em_device *d = b->partial[id];
    em_status s;
    if (!d) {
        d = calloc(1, sizeof *d);
        if (!d)
            return em_error(EM_ERR_OUT_OF_MEMORY,
                            "out of host memory opening device %d", id);
        d->ops = b->ops;
        d->type = type;
        d->id = id;
        if (type == EM_DEVICE_CPU)
            snprintf(d->name, sizeof d->name, id ? "cpu:%d" : "cpu", id);
        else
            snprintf(d->name, sizeof d->name, "cuda:%d", id);
        s = b->ops->device_open(d);
        if (s != EM_OK) {
            free(d);
            return s;
        }
        b->partial[id] = d;
    }
    if (!d->default_stream && (s = em_rt_stream_create_default(d)) != EM_OK)
        return s;
    if (!d->pool && (s = em_rt_pool_create(d)) != EM_OK)
        return s;
    b->partial[id] = NULL;
    __atomic_store_n(&b->devices[id], d, __ATOMIC_RELEASE);
    *out = d;
    return EM_OK;
}

em_status em_device_get(em_device_type type, int id, em_device **out)
{
    struct rt_backend *b;
    em_device *d;
    em_status s;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_get: out is NULL");
    *out = NULL;
    if ((s = em_rt_backend_start(type)) != EM_OK)
        return s;
    b = &rt_backends[type];
    if (id < 0 || id >= b->count) {
        if (type == EM_DEVICE_CPU)
            return em_error(EM_ERR_INVALID_VALUE,
                            "device cpu:%d does not exist: there is one cpu device", id);
        return em_error(EM_ERR_INVALID_VALUE,
                        "device cuda:%d does not exist: %d CUDA device%s found",
                        id, b->count, b->count == 1 ? "" : "s");
    }
    d = __atomic_load_n(&b->devices[id], __ATOMIC_ACQUIRE);
    if (d) {
        *out = d;
        return EM_OK;
    }
    pthread_mutex_lock(&b->open_lock);
    d = b->devices[id];
    if (d) {
        *out = d;
        s = EM_OK;
    } else {
        s = rt_open_device(b, type, id, out);
    }
    pthread_mutex_unlock(&b->open_lock);
    return s;
}

em_status em_pointer_device(const void *ptr, em_device **out)
{
    int ord = -1;
    em_status s;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_pointer_device: out is NULL");
    *out = NULL;
    /* Only a started CUDA backend is asked; one that cannot start means
     * no driver, so no device memory in this process. */
    if (ptr && em_rt_backend_start(EM_DEVICE_CUDA) == EM_OK &&
        (s = em_cuda_pointer_ordinal(ptr, &ord)) != EM_OK)
        return s;
    if (ord >= 0)
        return em_device_get(EM_DEVICE_CUDA, ord, out);
    return em_device_get(EM_DEVICE_CPU, 0, out);
}

/* Digits only, no sign, at most 9 of them so the value fits an int. */
static int rt_parse_ordinal(const char *p, int *id)
{
    int v = 0, n = 0;
    for (; *p; p++, n++) {
        if (*p < '0' || *p > '9' || n == 9)
            return 0;
        v = v * 10 + (*p - '0');
    }
    if (n == 0)
        return 0;
    *id = v;
    return 1;
}

em_status em_device_parse(const char *spec, em_device **out)
{
    em_device_type type;
    const char *rest;
    int id = 0;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_parse: out is NULL");
    *out = NULL;
    if (!spec)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_parse: spec is NULL");
    if (!strncmp(spec, "cpu", 3)) {
        type = EM_DEVICE_CPU;
        rest = spec + 3;
    } else if (!strncmp(spec, "cuda", 4)) {
        type = EM_DEVICE_CUDA;
        rest = spec + 4;
    } else if (!strncmp(spec, "gpu", 3)) {
        type = EM_DEVICE_CUDA;
        rest = spec + 3;
    } else {
        goto bad;
    }
    if (*rest == ':') {
        if (!rt_parse_ordinal(rest + 1, &id))
            goto bad;
    } else if (*rest) {
        goto bad;
    }
    return em_device_get(type, id, out);
bad:
    return em_error(EM_ERR_INVALID_VALUE,
                    "invalid device '%.100s': expected cpu, cuda, cuda:N, gpu or gpu:N",
                    spec);
}

/* The default device is decided once; an invalid $EMBER_DEVICE is kept
 * as an error to report on every call rather than silently ignored. */
static pthread_once_t rt_default_once = PTHREAD_ONCE_INIT;
static em_device *rt_default_dev;
static em_status rt_default_status;
static char rt_default_msg[768];

static void rt_pick_default(void)
{
    const char *env = em_knob_text(EM_KNOB_DEVICE);
    em_device *d = NULL;
    int n = 0;
    em_status s;
    if (env) {
        s = em_device_parse(env, &d);
        if (s != EM_OK) {
            rt_default_status = s;
            snprintf(rt_default_msg, sizeof rt_default_msg,
                     "EMBER_DEVICE=%.100s: %s", env, em_last_error());
            return;
        }
        rt_default_dev = d;
        return;
    }
    em_device_count(EM_DEVICE_CUDA, &n);
    if (n > 0) {
        if (em_device_get(EM_DEVICE_CUDA, 0, &d) == EM_OK) {
            rt_default_dev = d;
            return;
        }
        em_log(EM_LOG_WARN, "device", "cuda:0 failed to open (%s); using cpu",
               em_last_error());
    }
    s = em_device_get(EM_DEVICE_CPU, 0, &d);
    if (s != EM_OK) {
        rt_default_status = s;
        snprintf(rt_default_msg, sizeof rt_default_msg,
                 "no usable default device: %s", em_last_error());
        return;
    }
    rt_default_dev = d;
}

em_status em_device_default(em_device **out)
{
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_default: out is NULL");
    pthread_once(&rt_default_once, rt_pick_default);
    *out = rt_default_dev;
    if (!rt_default_dev)
        return em_error(rt_default_status, "%s", rt_default_msg);
    return EM_OK;
}

em_device_type em_device_get_type(const em_device *d)
{
    return d ? d->type : EM_DEVICE_CPU;
}

int em_device_get_id(const em_device *d) { return d ? d->id : -1; }

const char *em_device_name(const em_device *d) { return d ? d->name : "(no device)"; }

int em_device_arch(const em_device *d) { return d ? d->arch : 0; }

em_status em_device_get_props(em_device *d, em_device_props *out)
{
    if (!d || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_get_props: %s is NULL",
                        d ? "out" : "device");
    *out = d->props;
    return EM_OK;
}

em_status em_device_attribute(em_device *d, int attr, int *value)
{
    if (!d || !value)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_attribute: %s is NULL",
                        d ? "value" : "device");
    *value = 0;
    if (!d->ops->device_attribute)
        return em_error(EM_ERR_NOT_SUPPORTED, "%s has no device attributes",
                        d->name);
    return d->ops->device_attribute(d, attr, value);
}

em_status em_device_mem_info(em_device *d, size_t *free_bytes, size_t *total_bytes)
{
    size_t f = 0, t = 0;
    em_status s;
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_mem_info: device is NULL");
    s = d->ops->mem_info(d, &f, &t);
    if (free_bytes)
        *free_bytes = f;
    if (total_bytes)
        *total_bytes = t;
    return s;
}

em_status em_device_scratch(em_device *d, void **ptr)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    void *p;
    em_status st = EM_OK;
    if (!d || !ptr)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_scratch: %s is NULL",
                        d ? "ptr" : "device");
    if ((p = __atomic_load_n(&d->scratch, __ATOMIC_ACQUIRE))) {
        *ptr = p;
        return EM_OK;
    }
    /* made once, with a synchronize a capture cannot hold */
    if (d->capturing)
        return em_rt_capture_refuse(d, "making the scratch block of %s (run the "
                                    "work once before capturing it)", d->name);
    pthread_mutex_lock(&lock);
    if (!(p = d->scratch)) {
        st = d->ops->mem_alloc(d, EM_DEVICE_SCRATCH_BYTES, &p);
        if (st == EM_OK &&
            ((st = d->ops->memset_async(d, p, 0, EM_DEVICE_SCRATCH_BYTES,
                                        d->default_stream)) != EM_OK ||
             (st = d->ops->stream_synchronize(d->default_stream)) != EM_OK)) {
            d->ops->mem_free(d, p);
            p = NULL;
        }
        if (st == EM_OK)
            __atomic_store_n(&d->scratch, p, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lock);
    if (st == EM_OK)
        *ptr = p;
    return st;
}

em_status em_device_enter(em_device *d)
{
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_enter: device is NULL");
    return d->ops->enter ? d->ops->enter(d) : EM_OK;
}

void em_device_settle_foreign(em_device *d)
{
    if (d && d->ops->settle_foreign)
        d->ops->settle_foreign(d);
}

em_status em_device_synchronize(em_device *d)
{
    em_status fz;
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_device_synchronize: device is NULL");
    if ((fz = em_fuse_guard()) != EM_OK)
        return fz;
    if (d->capturing)
        return em_rt_capture_refuse(d, "a synchronize of %s", d->name);
    if (em_prof_on)
        return em_prof_sync(d, NULL);
    return d->ops->synchronize(d);
}
