/* ember internal: what the runtime's files (src/runtime/) share.
 *
 * The runtime owns the public handles and calls down through
 * struct em_backend_ops (backend/backend.h). Nothing here is public API;
 * tests include it for the failure-injection hooks.
 */
#ifndef EMBER_RT_RUNTIME_H
#define EMBER_RT_RUNTIME_H

#include <stdint.h>
#include "backend/backend.h"
#include "fuse/fuse.h"

/* ---- device.c --------------------------------------------------------- */

/* Start the backend of a type once per process (later calls return the
 * first result at once). EM_ERR_UNAVAILABLE with the reason, or
 * EM_ERR_INVALID_VALUE for an unknown type. */
em_status em_rt_backend_start(em_device_type type);

/* Nonzero if the backend was started and is usable; never starts it. */
int em_rt_backend_usable(em_device_type type);

/* ---- current.c -------------------------------------------------------- */

/* Called when a stream is destroyed: the calling thread's current stream
 * is reset to NULL if it was s (other threads' cannot be reached). */
void em_rt_current_forget_stream(const em_stream *s);

/* ---- stream.c --------------------------------------------------------- */

/* The stream work for d goes on: s, or d's default stream when s is NULL.
 * A stream of another device gives NULL, with an EM_ERR_INVALID_VALUE
 * message naming both. Inline because every allocation, copy and launch
 * passes through it. */
void em_rt_stream_mismatch(const em_device *d, const em_stream *s, const char *what);

static inline em_stream *em_rt_stream_for(em_device *d, em_stream *s, const char *what)
{
    if (!s)
        return d->default_stream;
    if (s->dev == d)
        return s;
    em_rt_stream_mismatch(d, s, what);
    return NULL;
}

/* Holders of a created stream: em_stream_create gives the creator one
 * reference, each pool block allocated on the stream takes one while in
 * use, and the stream is torn down (its work waited for, its cached blocks
 * handed to the default stream, the backend's stream destroyed) when the
 * last goes. Default streams are not counted. Retaining needs a reference
 * already held; release may tear down, so never call it with the pool's
 * lock held or on the stream's own worker thread. */
static inline void em_rt_stream_retain(em_stream *s)
{
    if (!s->is_default)
        __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
}
void em_rt_stream_release(em_stream *s);

/* A captured graph (graph.c). */
struct em_graph {
    em_device *dev;
    em_stream *home;            /* captured on; a reference held */
    em_stream *last;            /* launched on last (home before any); held */
    void *impl;                 /* the backend's executable graph */
    struct rt_block *blocks;    /* pool.c's: the blocks the graph holds */
    em_module **modules;        /* launched in the capture, kept loaded */
    int n_modules, cap_modules;
};

/* graph.c: end s's capture, if any, dropping its graph (s is going). */
void em_rt_capture_abort(em_stream *s);
/* graph.c: keep m loaded while g lives (a launch of it was captured). */
em_status em_rt_graph_keep_module(struct em_graph *g, em_module *m);
/* module.c: a graph's hold on m (0 when m needs none: the kernel cache's
 * modules stay until exit), and its release, which does an unload asked
 * for meanwhile. */
int em_rt_module_graph_hold(em_module *m);
void em_rt_module_graph_drop(em_module *m);

/* graph.c: the capture that work issued on s would join: s's own, or for
 * the legacy default stream a blocking stream's (CUDA orders them).
 * NULL, the common case, costs one load. */
static inline struct em_graph *em_rt_capture_of(const em_stream *s)
{
    const em_stream *c = s->dev->capturing;
    if (!c)
        return NULL;
    if (s == c || (s->is_default && !(c->flags & EM_STREAM_NON_BLOCKING)))
        return c->capture;
    return NULL;
}
/* Refuse `what` (printf-style) on s's device while it captures: ends the
 * capture, dropping its graph, and returns EM_ERR_CAPTURE naming the
 * operation and the stream. */
em_status em_rt_capture_refuse(em_device *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* pool.c's side of a capture: blocks allocated or freed while g captures
 * on d are g's; release hands g's freed blocks to stream `on`'s lists
 * (or, while another capture runs, to that capture). */
int em_rt_pool_owns(em_device *d, const void *p);
void em_rt_pool_capture_start(em_device *d, struct em_graph *g);
void em_rt_pool_capture_stop(em_device *d);
void em_rt_pool_graph_release(em_device *d, struct em_graph *g, em_stream *on);

/* Create the device's default stream (device.c calls it after
 * device_open). */
em_status em_rt_stream_create_default(em_device *d);

/* ---- pool.c ----------------------------------------------------------- */

/* Create d->pool (device.c calls it after device_open). */
em_status em_rt_pool_create(em_device *d);

/* A stream is being destroyed: wait for its work, then hand the blocks
 * freed on it to the default stream so no later stream that happens to get
 * the same address inherits them. */
void em_rt_pool_forget_stream(em_stream *s);

/* Failure injection for tests: raw backend allocations are numbered from 1
 * after this call (process-wide, all devices); those numbered first ..
 * first+count-1 fail with EM_ERR_OUT_OF_MEMORY as a full device would.
 * first 0 turns injection off. $EMBER_TEST_FAIL_ALLOC=N or N:COUNT does
 * the same at the pool's first raw allocation. */
void em_rt_pool_inject_alloc_failures(uint64_t first, uint64_t count);

/* Raw backend allocations and frees made by every pool so far, so a test
 * can show that a failure path gave back all it took. */
void em_rt_pool_raw_counts(uint64_t *allocs, uint64_t *frees);

/* ---- module.c --------------------------------------------------------- */

/* Mark a module as the kernel cache's: em_module_unload then refuses it,
 * since other callers may hold its functions. */
void em_rt_module_set_cached(em_module *m);

/* Unload a module whatever its owner (the kernel cache's own clean-up). */
em_status em_rt_module_unload_any(em_module *m);

#endif
