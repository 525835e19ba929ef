/* ember runtime: modules, functions and launches.
 *
 * A module's functions are made once per name and kept in the module's
 * list, so asking again is a short scan with no backend call; they are
 * freed with the module. The launch path does a handful of compares and
 * builds a message only when one fails. A function also gets its
 * parameters' kinds when the module carries the source's signatures (the
 * kernel cache's modules do) and they agree with the loaded code. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "runtime.h"
#include "profile.h"
#include "core/ksig.h"

/* The runtime's module: the backend sees only the first member. */
struct rt_module {
    struct em_module m;
    pthread_mutex_t lock;       /* guards m.functions (shared by threads) */
    int cap;
    int cached;                 /* owned by the kernel cache */
    /* Graphs whose launches use the module (graph.c), and an unload asked
     * for while some did: done when the last such graph is released. */
    int graph_refs;
    int unload_pending;
};

static struct rt_module *rt_module_of(em_module *m)
{
    return (struct rt_module *)m;   /* m is the first member */
}

static const char *code_kind_name(em_code_kind k)
{
    switch (k) {
    case EM_CODE_PTX: return "PTX";
    case EM_CODE_CUBIN: return "CUBIN";
    case EM_CODE_HOST: return "host";
    case EM_CODE_LTOIR: return "LTO-IR";
    }
    return "unknown";
}

void em_code_free(em_code *c)
{
    if (!c)
        return;
    free(c->data);
    free(c->log);
    free(c);
}

em_status em_module_load(em_device *d, const em_code *code, em_module **out)
{
    struct rt_module *rm;
    em_status s;
    int suits;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_module_load: out is NULL");
    *out = NULL;
    if (!d || !code || !code->data)
        return em_error(EM_ERR_INVALID_VALUE, "em_module_load: %s is NULL",
                        !d ? "device" : !code ? "code" : "code->data");
    /* Loading may synchronize the device; a kernel first met in a capture
     * is compiled and loaded by a warm-up run before it. */
    if (d->capturing)
        return em_rt_capture_refuse(d, "loading a kernel module (run the "
                                    "work once before capturing it)");
    if (code->kind == EM_CODE_LTOIR)
        return em_error(EM_ERR_INVALID_VALUE, "em_module_load: LTO-IR cannot be "
                        "loaded on %s; it must be linked first (nvJitLink) into "
                        "a CUBIN", d->name);
    /* The driver JIT-compiles PTX, so a cuda device takes either kind. */
    suits = d->type == EM_DEVICE_CUDA
                ? (code->kind == EM_CODE_PTX || code->kind == EM_CODE_CUBIN)
                : code->kind == EM_CODE_HOST;
    if (!suits)
        return em_error(EM_ERR_INVALID_VALUE, "em_module_load: %s code cannot run on %s",
                        code_kind_name(code->kind), d->name);
    rm = calloc(1, sizeof *rm);
    if (!rm)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory loading a module on %s", d->name);
    rm->m.dev = d;
    pthread_mutex_init(&rm->lock, NULL);
    s = d->ops->module_load(&rm->m, code);
    if (s != EM_OK) {
        pthread_mutex_destroy(&rm->lock);
        free(rm);
        return s;
    }
    *out = &rm->m;
    return EM_OK;
}

em_status em_rt_module_unload_any(em_module *m)
{
    struct rt_module *rm = rt_module_of(m);
    em_status s;
    int i;
    /* The backend first: it may walk m->functions to release their impl. */
    s = m->dev->ops->module_unload(m);
    for (i = 0; i < m->n_functions; i++) {
        em_function *f = m->functions[i];
        free(f->name);
        free(f->param_sizes);
        free(f->param_kinds);
        free(f);
    }
    free(m->functions);
    em_ksig_free(m->sigs);
    pthread_mutex_destroy(&rm->lock);
    free(rm);
    return s;
}

em_status em_module_unload(em_module *m)
{
    if (!m)
        return em_error(EM_ERR_INVALID_VALUE, "em_module_unload: module is NULL");
    struct rt_module *rm = rt_module_of(m);
    int held;
    if (rm->cached)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_module_unload: the module belongs to the kernel cache, "
                        "which keeps it until exit");
    pthread_mutex_lock(&rm->lock);
    held = rm->graph_refs > 0;
    rm->unload_pending = held;
    pthread_mutex_unlock(&rm->lock);
    return held ? EM_OK : em_rt_module_unload_any(m);
}

int em_rt_module_graph_hold(em_module *m)
{
    struct rt_module *rm = rt_module_of(m);
    if (rm->cached)
        return 0;     /* kept until exit anyway */
    pthread_mutex_lock(&rm->lock);
    rm->graph_refs++;
    pthread_mutex_unlock(&rm->lock);
    return 1;
}

void em_rt_module_graph_drop(em_module *m)
{
    struct rt_module *rm = rt_module_of(m);
    int unload;
    pthread_mutex_lock(&rm->lock);
    unload = --rm->graph_refs == 0 && rm->unload_pending;
    pthread_mutex_unlock(&rm->lock);
    if (unload && em_rt_module_unload_any(m) != EM_OK)
        em_log(EM_LOG_WARN, "module", "unloading a module of %s after the last "
               "graph using it went: %s", m->dev->name, em_last_error());
}

void em_rt_module_set_cached(em_module *m) { rt_module_of(m)->cached = 1; }

em_device *em_module_device(const em_module *m) { return m ? m->dev : NULL; }

/* Can a parameter of this kind have this size in the loaded code? A
 * mismatch means the source was misread, so nothing of it is trusted. */
static int kind_fits(em_param_kind k, size_t size)
{
    switch (k) {
    case EM_PARAM_POINTER: return size == sizeof(void *);
    case EM_PARAM_INT:
    case EM_PARAM_UINT: return size == 1 || size == 2 || size == 4 || size == 8;
    case EM_PARAM_FLOAT: return size == 2 || size == 4 || size == 8;
    case EM_PARAM_BOOL: return size == 1;
    case EM_PARAM_OTHER:
    case EM_PARAM_UNKNOWN: break;
    }
    return 1;
}

/* Give f the kinds of its source's signature, when the module has one for
 * its name that agrees with the loaded code. Without memory for them the
 * kinds stay unknown: launches lose checks, not correctness. */
static void rt_attach_signature(em_function *f)
{
    const em_ksig_kernel *k = em_ksig_find(f->module->sigs, f->name);
    em_param_kind *kinds;
    int i;
    if (!k || f->n_params < 0 || k->n_params != f->n_params ||
        (f->n_params > 0 && !f->param_sizes))
        return;
    for (i = 0; i < k->n_params; i++)
        if (!kind_fits(k->params[i].kind, f->param_sizes[i]))
            return;
    kinds = malloc((size_t)(k->n_params > 0 ? k->n_params : 1) * sizeof *kinds);
    if (!kinds)
        return;
    for (i = 0; i < k->n_params; i++)
        kinds[i] = k->params[i].kind;
    f->param_kinds = kinds;
    f->sig = k;
}

/* Under the module lock, so two threads asking for one name share one
 * handle; the backend call is a symbol lookup, short enough to hold it. */
static em_status rt_make_function(struct rt_module *rm, const char *name,
                                  em_function **out)
{
    em_module *m = &rm->m;
    em_function *f;
    em_status s;
    if (m->n_functions == rm->cap) {
        int cap = rm->cap ? 2 * rm->cap : 4;
        em_function **nf = realloc(m->functions, (size_t)cap * sizeof *nf);
        if (!nf)
            return em_error(EM_ERR_OUT_OF_MEMORY,
                            "out of host memory getting kernel %s", name);
        m->functions = nf;
        rm->cap = cap;
    }
    f = calloc(1, sizeof *f);
    if (f)
        f->name = strdup(name);
    if (!f || !f->name) {
        free(f);
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory getting kernel %s", name);
    }
    f->module = m;
    f->n_params = -1;
    s = m->dev->ops->module_get_function(f);
    if (s != EM_OK) {
        free(f->param_sizes);
        free(f->name);
        free(f);
        return s;
    }
    rt_attach_signature(f);
    m->functions[m->n_functions++] = f;
    *out = f;
    return EM_OK;
}

em_status em_module_get_function(em_module *m, const char *name, em_function **out)
{
    struct rt_module *rm;
    em_status s = EM_OK;
    int i;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_module_get_function: out is NULL");
    *out = NULL;
    if (!m || !name)
        return em_error(EM_ERR_INVALID_VALUE, "em_module_get_function: %s is NULL",
                        m ? "name" : "module");
    rm = rt_module_of(m);
    pthread_mutex_lock(&rm->lock);
    /* A linear scan: modules hold a few kernels, and strcmp fails fast. */
    for (i = 0; i < m->n_functions; i++)
        if (!strcmp(m->functions[i]->name, name)) {
            *out = m->functions[i];
            break;
        }
    if (!*out)
        s = rt_make_function(rm, name, out);
    pthread_mutex_unlock(&rm->lock);
    return s;
}

em_status em_module_get_global(em_module *m, const char *name, void **ptr,
                               size_t *size)
{
    if (!ptr || !size)
        return em_error(EM_ERR_INVALID_VALUE, "em_module_get_global: %s is NULL",
                        ptr ? "size" : "ptr");
    *ptr = NULL;
    *size = 0;
    if (!m || !name || !*name)
        return em_error(EM_ERR_INVALID_VALUE, "em_module_get_global: %s is NULL",
                        m ? "name" : "module");
    if (!m->dev->ops->module_get_global)
        return em_error(EM_ERR_NOT_SUPPORTED, "global variables of %s modules",
                        m->dev->name);
    return m->dev->ops->module_get_global(m, name, ptr, size);
}

int em_function_param_count(const em_function *f) { return f ? f->n_params : -1; }

size_t em_function_param_size(const em_function *f, int i)
{
    if (!f || !f->param_sizes || i < 0 || i >= f->n_params)
        return (size_t)-1;
    return f->param_sizes[i];
}

const char *em_function_name(const em_function *f) { return f ? f->name : NULL; }

em_param_kind em_function_param_kind(const em_function *f, int i)
{
    if (!f || !f->param_kinds || i < 0 || i >= f->n_params)
        return EM_PARAM_UNKNOWN;
    return f->param_kinds[i];
}

const char *em_function_param_type(const em_function *f, int i)
{
    if (!f || !f->sig || i < 0 || i >= f->n_params)
        return NULL;
    return f->sig->params[i].type;
}

const char *em_function_param_name(const em_function *f, int i)
{
    if (!f || !f->sig || i < 0 || i >= f->n_params)
        return NULL;
    return f->sig->params[i].name;
}

/* ---- launches --------------------------------------------------------- */

static int shared_limit(const em_device_props *p)
{
    return p->max_shared_per_block_optin > p->max_shared_per_block
               ? p->max_shared_per_block_optin : p->max_shared_per_block;
}

/* The slow path: say which dimension is wrong and what the device allows. */
static em_status launch_error(const em_function *f, em_dim3 grid, em_dim3 block,
                              size_t shared_bytes)
{
    const em_device *d = f->module->dev;
    const em_device_props *p = &d->props;
    const char *const axis = "xyz";
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    int i;
    for (i = 0; i < 3; i++) {
        if (g[i] == 0 || b[i] == 0)
            return em_error(EM_ERR_INVALID_VALUE,
                            "launch of %s: %s.%c is 0 in grid (%u, %u, %u), block "
                            "(%u, %u, %u); every dimension must be at least 1",
                            f->name, g[i] == 0 ? "grid" : "block", axis[i],
                            grid.x, grid.y, grid.z, block.x, block.y, block.z);
        if (g[i] > (unsigned)p->max_grid_dim[i])
            return em_error(EM_ERR_INVALID_VALUE,
                            "launch of %s: grid (%u, %u, %u) has grid.%c = %u; %s "
                            "allows at most %d", f->name, grid.x, grid.y, grid.z,
                            axis[i], g[i], d->name, p->max_grid_dim[i]);
    }
    /* The thread count before the per-axis limits: it is the limit that
     * (2048, 1, 1) really breaks. */
    if (threads > (uint64_t)p->max_threads_per_block)
        return em_error(EM_ERR_INVALID_VALUE,
                        "launch of %s: block (%u, %u, %u) has %llu threads; %s allows "
                        "at most %d per block", f->name, block.x, block.y, block.z,
                        (unsigned long long)threads, d->name, p->max_threads_per_block);
    for (i = 0; i < 3; i++)
        if (b[i] > (unsigned)p->max_block_dim[i])
            return em_error(EM_ERR_INVALID_VALUE,
                            "launch of %s: block (%u, %u, %u) has block.%c = %u; %s "
                            "allows at most %d", f->name, block.x, block.y, block.z,
                            axis[i], b[i], d->name, p->max_block_dim[i]);
    return em_error(EM_ERR_INVALID_VALUE,
                    "launch of %s: %zu bytes of shared memory per block; %s allows "
                    "at most %d", f->name, shared_bytes, d->name, shared_limit(p));
}

/* The slow path of a cluster or cooperative launch: the cluster rule
 * CUDA has (each dimension at least 1, dividing the grid's), then the
 * backend's op for it. */
static em_status launch_special(em_function *f, const em_launch_config *c,
                                em_stream *s, void **args)
{
    em_device *d = f->module->dev;
    const em_dim3 g = c->grid, k = c->cluster;
    if (k.x == 0 || k.y == 0 || k.z == 0 || g.x % k.x || g.y % k.y || g.z % k.z)
        return em_error(EM_ERR_INVALID_VALUE,
                        "launch of %s: cluster (%u, %u, %u) does not divide grid "
                        "(%u, %u, %u); each cluster dimension must be at least 1 "
                        "and divide the grid's", f->name, k.x, k.y, k.z, g.x, g.y,
                        g.z);
    if (!d->ops->launch_ex)
        return em_error(EM_ERR_NOT_SUPPORTED, "%s launch of %s on %s",
                        c->cooperative ? "cooperative" : "cluster", f->name,
                        d->name);
    return d->ops->launch_ex(f, c, s, args);
}

/* The launch itself, after launch_checked's checks (the profiler wraps
 * it). */
static em_status launch_run(em_function *f, const em_launch_config *c,
                            em_stream *s, void **args)
{
    if ((c->cluster.x ^ 1u) | (c->cluster.y ^ 1u) | (c->cluster.z ^ 1u) |
        (unsigned)c->cooperative)
        return launch_special(f, c, s, args);
    return f->module->dev->ops->launch(f, c->grid, c->block, c->shared_bytes,
                                       s, args);
}

/* One path for every launch, so clusters and cooperative launches get the
 * same checks; an ordinary launch pays one cheap test for them. */
static em_status launch_checked(em_function *f, const em_launch_config *c,
                                em_stream *stream, void **args)
{
    const em_device_props *p;
    em_device *d;
    em_stream *s;
    int bad;
    /* Recorded elementwise work runs first (src/fuse/fuse.h). */
    em_status fz;
    if ((fz = em_fuse_guard()) != EM_OK)
        return fz;
    if (!f)
        return em_error(EM_ERR_INVALID_VALUE, "em_launch: function is NULL");
    d = f->module->dev;
    p = &d->props;
    if (!(s = em_rt_stream_for(d, stream, "em_launch")))
        return EM_ERR_INVALID_VALUE;
    if (s->capture && (bad = em_rt_graph_keep_module(s->capture, f->module)) != EM_OK)
        return (em_status)bad;
    /* v - 1 >= max catches 0 and too large in one unsigned compare. */
    bad = (c->grid.x - 1u >= (unsigned)p->max_grid_dim[0]) |
          (c->grid.y - 1u >= (unsigned)p->max_grid_dim[1]) |
          (c->grid.z - 1u >= (unsigned)p->max_grid_dim[2]) |
          (c->block.x - 1u >= (unsigned)p->max_block_dim[0]) |
          (c->block.y - 1u >= (unsigned)p->max_block_dim[1]) |
          (c->block.z - 1u >= (unsigned)p->max_block_dim[2]) |
          ((uint64_t)c->block.x * c->block.y * c->block.z >
           (uint64_t)p->max_threads_per_block) |
          (c->shared_bytes > (size_t)shared_limit(p));
    if (bad)
        return launch_error(f, c->grid, c->block, c->shared_bytes);
    if (!args && f->n_params > 0)
        return em_error(EM_ERR_INVALID_VALUE, "launch of %s: args is NULL but the "
                        "kernel takes %d parameters", f->name, f->n_params);
    if (em_prof_on)
        return em_prof_launch(f, c, s, args, launch_run);
    return launch_run(f, c, s, args);
}

em_status em_launch(em_function *f, em_dim3 grid, em_dim3 block,
                    size_t shared_bytes, em_stream *stream, void **args)
{
    const em_launch_config c = {grid, block, {1, 1, 1}, shared_bytes, 0};
    return launch_checked(f, &c, stream, args);
}

em_status em_launch_cooperative(em_function *f, em_dim3 grid, em_dim3 block,
                                size_t shared_bytes, em_stream *stream,
                                void **args)
{
    const em_launch_config c = {grid, block, {1, 1, 1}, shared_bytes, 1};
    return launch_checked(f, &c, stream, args);
}

em_status em_launch_ex(em_function *f, const em_launch_config *cfg,
                       em_stream *stream, void **args)
{
    if (!cfg)
        return em_error(EM_ERR_INVALID_VALUE, "em_launch_ex: cfg is NULL");
    return launch_checked(f, cfg, stream, args);
}

em_status em_function_max_active_blocks(em_function *f, int block_threads,
                                        size_t dyn_shared, int *out)
{
    em_device *d;
    if (!f || !out || block_threads <= 0)
        return em_error(EM_ERR_INVALID_VALUE, "em_function_max_active_blocks: "
                        "%s", !f ? "function is NULL" : !out ? "out is NULL"
                        : "block_threads must be positive");
    d = f->module->dev;
    if (!d->ops->max_active_blocks)
        return em_error(EM_ERR_NOT_SUPPORTED, "occupancy of %s on %s", f->name,
                        d->name);
    return d->ops->max_active_blocks(f, block_threads, dyn_shared, out);
}
