/* ember internal: the backend interface.
 *
 * A backend fills one `struct em_backend_ops`. The runtime layer
 * (src/runtime/) owns the public handles, the device table, the caching
 * memory pool, argument checks (grid/block limits, parameter counts) and the
 * kernel cache, and calls down through this table; nothing above the
 * runtime asks which backend it has. A backend sees only raw operations.
 *
 * Handles are allocated and freed by the runtime; a backend stores its own
 * state in the `impl` field and must leave every other field alone, except
 * where a function below says it fills one.
 */
#ifndef EMBER_BACKEND_H
#define EMBER_BACKEND_H

#include "ember/ember.h"

struct em_backend_ops;
struct em_ksig;
struct em_ksig_kernel;

struct em_device {
    const struct em_backend_ops *ops;
    em_device_type type;
    int id;
    char name[16];              /* "cpu", "cuda:3" */
    int arch;                   /* filled by device_open: 90; 0 on cpu */
    em_device_props props;      /* filled by device_open */
    em_stream *default_stream;  /* made by the runtime after device_open */
    struct em_pool *pool;       /* the runtime's caching pool */
    void *scratch;              /* em_device_scratch's block, or NULL */
    /* The runtime's (graph.c): the stream capturing a graph, at most one
     * a device, or NULL; read without a lock on every check. */
    em_stream *capturing;
    void *impl;
};

struct em_stream {
    em_device *dev;
    unsigned flags;
    int priority;               /* smaller is more urgent; 0 by default */
    int is_default;
    void *impl;                 /* cuda: the CUstream (NULL for default) */
    /* The runtime's (stream.c): holders of a created stream, its creator
     * and each pool block allocated on it, so memory allocated on a stream
     * stays freeable after em_stream_destroy; and whether the creator has
     * let go. */
    int refs;
    int orphaned;
    /* The runtime's (graph.c): the graph being captured on s, or NULL. */
    struct em_graph *capture;
    /* em_stream_adopt's of a native stream made elsewhere: its teardown
     * leaves the native stream to its owner. */
    int external;
};

/* Take a reference on s for an adopter unless its last holder has let go
 * (refs 0: it is being torn down); 1 when taken. Backends call it under
 * the lock that keeps s in their list of streams. */
static inline int em_stream_try_ref(em_stream *s)
{
    int refs = __atomic_load_n(&s->refs, __ATOMIC_ACQUIRE);
    while (refs > 0 &&
           !__atomic_compare_exchange_n(&s->refs, &refs, refs + 1, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;
    return refs > 0;
}

struct em_event {
    em_device *dev;
    unsigned flags;
    int recorded;
    void *impl;
};

struct em_function {
    struct em_module *module;
    char *name;                 /* the runtime's copy */
    int n_params;               /* filled by module_get_function; -1 unknown */
    size_t *param_sizes;        /* filled (malloc'd) by module_get_function */
    size_t args_size;           /* filled: sum of sizes with C alignment */
    /* The runtime's, from the module's signatures (never the backend's):
     * n_params kinds (malloc'd), NULL when unknown; the signature they came
     * from, which the module owns. */
    em_param_kind *param_kinds;
    const struct em_ksig_kernel *sig;
    void *impl;
};

struct em_module {
    em_device *dev;
    struct em_function **functions;  /* the runtime's list, freed on unload */
    int n_functions;
    /* The runtime's: the kernels' signatures read from the source, when
     * the module was compiled from source (the kernel cache's); NULL for
     * code loaded as is. Set before the module is shared, freed on unload. */
    struct em_ksig *sigs;
    void *impl;
};

struct em_backend_ops {
    const char *name;           /* "cuda", "host" */
    em_device_type type;
    em_code_kind code_kind;     /* what compile() makes and module_load eats */

    /* Open libraries once; EM_ERR_UNAVAILABLE with the reason if unusable.
     * Called under the runtime's init lock, at most once per process. */
    em_status (*init)(void);
    em_status (*device_count)(int *count);
    /* Fill d->impl, d->arch and d->props. */
    em_status (*device_open)(em_device *d);
    em_status (*mem_info)(em_device *d, size_t *free_b, size_t *total_b);
    /* em_device_attribute */
    em_status (*device_attribute)(em_device *d, int attr, int *value);
    em_status (*synchronize)(em_device *d);

    /* Raw device memory, no caching (the runtime's pool sits on top). */
    em_status (*mem_alloc)(em_device *d, size_t n, void **p);
    em_status (*mem_free)(em_device *d, void *p);
    em_status (*memcpy_async)(em_device *d, void *dst, const void *src,
                              size_t n, em_stream *s);
    em_status (*memset_async)(em_device *d, void *dst, int value, size_t n,
                              em_stream *s);

    /* s->dev, s->flags, s->priority (within stream_priority_range) and
     * s->is_default are set before the call; for the default stream the
     * backend may leave s->impl NULL. */
    em_status (*stream_create)(em_stream *s);
    em_status (*stream_priority_range)(em_device *d, int *least, int *greatest);
    em_status (*stream_destroy)(em_stream *s);
    /* em_stream_adopt of `native` (not NULL): either *same, the device's
     * own em_stream with that handle, with a reference (refs) taken for
     * the adopter while it cannot be torn down, or s (dev set) filled in
     * (impl, flags, priority) for a native stream made elsewhere. */
    em_status (*stream_adopt)(em_stream *s, void *native, em_stream **same);
    em_status (*stream_synchronize)(em_stream *s);
    em_status (*stream_query)(em_stream *s, int *done);
    em_status (*stream_wait_event)(em_stream *s, em_event *e);

    em_status (*event_create)(em_event *e);
    em_status (*event_destroy)(em_event *e);
    em_status (*event_record)(em_event *e, em_stream *s);
    em_status (*event_synchronize)(em_event *e);
    em_status (*event_query)(em_event *e, int *done);
    em_status (*event_elapsed_ms)(em_event *a, em_event *b, float *ms);

    /* Compile for this device (kind code_kind). */
    em_status (*compile)(em_device *d, const char *source, const char *name,
                         const char *const *options, int n_options,
                         em_code **out, char **out_log);
    em_status (*module_load)(em_module *m, const em_code *code);
    em_status (*module_unload)(em_module *m);
    /* f->module and f->name are set; fill f->impl, n_params, param_sizes,
     * args_size. EM_ERR_NOT_FOUND naming the kernel if absent. */
    em_status (*module_get_function)(em_function *f);
    /* The device address and byte size of the module's global variable
     * `name` (__device__ or __constant__); EM_ERR_NOT_FOUND naming it when
     * the module has none. */
    em_status (*module_get_global)(em_module *m, const char *name, void **ptr,
                                   size_t *size);
    /* Grid, block and shared size are already checked against d->props. */
    em_status (*launch)(em_function *f, em_dim3 grid, em_dim3 block,
                        size_t shared_bytes, em_stream *s, void **args);
    /* Optional: a launch with a cluster other than 1x1x1 or cooperative
     * set; the runtime calls launch for every other. cfg is checked as
     * launch's arguments are, and each cluster dimension is at least 1
     * and divides the grid's. */
    em_status (*launch_ex)(em_function *f, const em_launch_config *cfg,
                           em_stream *s, void **args);
    /* Optional (NULL on cpu): how many blocks of f one multiprocessor
     * holds at once. */
    em_status (*max_active_blocks)(em_function *f, int block_threads,
                                   size_t dyn_shared, int *out);
    /* Optional (NULL on cpu): make d's context the calling thread's
     * current one, for a CUDA library called next (em_device_enter). */
    em_status (*enter)(em_device *d);

    /* Graphs. capture_begin makes later work on s (a created stream)
     * recorded, not run; capture_end stops recording and hands back the
     * backend's executable graph in *graph, or, with graph NULL, drops
     * what was recorded (an aborted capture). graph_upload may prepare a
     * graph for launch on s ahead of time. */
    em_status (*capture_begin)(em_stream *s);
    em_status (*capture_end)(em_stream *s, void **graph);
    em_status (*graph_launch)(em_device *d, void *graph, em_stream *s);
    em_status (*graph_upload)(em_device *d, void *graph, em_stream *s);
    void (*graph_destroy)(em_device *d, void *graph);
    /* Optional (cpu only): run fn on a copy of the n bytes at ctx in s's
     * order, as a launch is (queued, recorded by a capture, or at once on
     * the default stream). */
    em_status (*host_call)(em_stream *s, em_status (*fn)(void *ctx),
                           const void *ctx, size_t n);
    /* Optional (cpu only): em_device_settle_foreign's wait. */
    void (*settle_foreign)(em_device *d);
};

extern const struct em_backend_ops em_cuda_backend;
extern const struct em_backend_ops em_host_backend;

/* The host CPU's identity for kernel cache keys (host_compile.c): nonzero
 * when host kernels are built with -march=native for this CPU. */
int em_host_cpu_arch(void);

/* Page-locked host memory through the CUDA driver; EM_ERR_UNAVAILABLE when
 * no driver is loaded (the runtime then falls back to aligned memory). */
em_status em_cuda_host_alloc(size_t n, void **p);
em_status em_cuda_host_free(void *p);
/* Nonzero if p came from em_cuda_host_alloc. */
int em_cuda_is_host_alloc(const void *p);
/* The CUDA device ordinal whose memory p addresses, as the driver reports
 * it; -1 for host memory (pageable, pinned, registered), for an address
 * the driver does not know, and when no driver works. */
em_status em_cuda_pointer_ordinal(const void *p, int *ordinal);

/* 1 when GPU `to` reads GPU `from`'s memory directly (peer access, enabled
 * on the first ask for the pair, cuda_peer.c); 0 to stage through the
 * host, and for any pair that is not two distinct GPUs. */
int em_cuda_peer_ready(em_device *to, em_device *from);

/* The runtime's stream resolution: NULL means the device's default. */
static inline em_stream *em_stream_or_default(em_device *d, em_stream *s)
{
    return s ? s : d->default_stream;
}

#endif
