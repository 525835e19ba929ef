/* ember runtime: graph capture and replay (docs/graphs.md).
 *
 * A capture is the runtime's state on one stream (s->capture, and
 * d->capturing so that checks elsewhere cost one load); the backend
 * records the work, the pool lends the graph the blocks allocated and
 * freed meanwhile. The checks that refuse what a capture cannot record sit
 * where that operation enters the runtime (stream.c, copy.c, device.c,
 * module.c) and call em_rt_capture_refuse, which ends the capture so the
 * stream is usable again. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "runtime.h"
#include "profile.h"

/* One capture a device at a time: the flag is taken with a compare and
 * swap, so two threads cannot both begin. */
em_status em_stream_begin_capture(em_stream *s)
{
    em_device *d;
    em_graph *g;
    em_stream *none = NULL;
    em_status st;
    if (!s)
        return em_error(EM_ERR_INVALID_VALUE, "em_stream_begin_capture: stream is NULL");
    /* Recorded work from before the capture runs now, not in the graph. */
    if ((st = em_fuse_guard()) != EM_OK)
        return st;
    d = s->dev;
    if (s->is_default)
        return em_error(EM_ERR_INVALID_VALUE, "the default stream of %s cannot "
                        "capture a graph (CUDA's legacy stream cannot): capture on "
                        "a created stream", d->name);
    if (s->capture || d->capturing == s)
        return em_error(EM_ERR_CAPTURE, "begin_capture on stream %p of %s: the "
                        "stream is capturing already (captures do not nest)",
                        s->impl, d->name);
    if (!(g = calloc(1, sizeof *g)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory beginning a "
                        "capture on %s", d->name);
    if (!__atomic_compare_exchange_n(&d->capturing, &none, s, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        free(g);
        return em_error(EM_ERR_CAPTURE, "begin_capture on stream %p of %s: "
                        "stream %p of the device is capturing (one capture a "
                        "device at a time)", s->impl, d->name, none->impl);
    }
    g->dev = d;
    g->home = g->last = s;
    if ((st = d->ops->capture_begin(s)) != EM_OK) {
        __atomic_store_n(&d->capturing, NULL, __ATOMIC_RELEASE);
        free(g);
        return st;
    }
    em_rt_stream_retain(s);     /* the graph's `home` */
    em_rt_stream_retain(s);     /* its `last` */
    s->capture = g;
    em_rt_pool_capture_start(d, g);
    return EM_OK;
}

int em_stream_is_capturing(const em_stream *s) { return s && s->capture; }

int em_device_is_capturing(const em_device *d) { return d && d->capturing; }

/* Stop s's capture; keep the graph in *out, or with out NULL drop it. */
static em_status capture_stop(em_stream *s, em_graph **out)
{
    em_device *d = s->dev;
    em_graph *g = s->capture;
    em_status st;
    em_rt_pool_capture_stop(d);
    s->capture = NULL;
    __atomic_store_n(&d->capturing, NULL, __ATOMIC_RELEASE);
    st = d->ops->capture_end(s, out ? &g->impl : NULL);
    if (st != EM_OK || !out) {
        g->impl = NULL;
        em_graph_destroy(g);
        return st;
    }
    *out = g;
    return EM_OK;
}

void em_rt_capture_abort(em_stream *s)
{
    if (!s->capture)
        return;
    em_log(EM_LOG_WARN, "graph", "a stream of %s was destroyed while capturing; "
           "the capture was ended and its graph dropped", s->dev->name);
    capture_stop(s, NULL);
}

em_status em_stream_end_capture(em_stream *s, em_graph **out)
{
    if (!s || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_stream_end_capture: %s is NULL",
                        s ? "out" : "stream");
    *out = NULL;
    if (!s->capture)
        return em_error(EM_ERR_CAPTURE, "end_capture on stream %p of %s: the "
                        "stream is not capturing", s->impl, s->dev->name);
    /* Recorded work inside the capture belongs to the graph. */
    em_status st = em_fuse_guard();
    if (st != EM_OK) {
        if (s->capture) /* a refusal has ended it already */
            capture_stop(s, NULL);
        return st;
    }
    return capture_stop(s, out);
}

em_status em_stream_refuse_capture(em_stream *s, const char *what)
{
    return em_rt_capture_refuse(s->dev, "%s on stream %p", what, s->impl);
}

em_status em_rt_capture_refuse(em_device *d, const char *fmt, ...)
{
    em_stream *s = d->capturing;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (s && s->capture)
        capture_stop(s, NULL);
    return em_error(EM_ERR_CAPTURE, "%s cannot be captured: stream %p of %s is "
                    "capturing a graph; the capture was ended and its graph "
                    "dropped (docs/graphs.md lists what a graph can hold)",
                    what, s ? s->impl : NULL, d->name);
}

static em_status graph_stream(em_graph *g, em_stream *s, const char *what,
                              em_stream **on)
{
    if (!g)
        return em_error(EM_ERR_INVALID_VALUE, "%s: graph is NULL", what);
    if (!g->impl)
        return em_error(EM_ERR_INVALID_VALUE, "%s: the graph was released", what);
    if (!(*on = em_rt_stream_for(g->dev, s, what)))
        return EM_ERR_INVALID_VALUE;
    if (em_rt_capture_of(*on))
        return em_rt_capture_refuse(g->dev, "launching a graph inside a capture");
    return EM_OK;
}

em_status em_graph_launch(em_graph *g, em_stream *s)
{
    em_stream *on = NULL, *old;
    em_status st;
    if ((st = graph_stream(g, s, "em_graph_launch", &on)) != EM_OK)
        return st;
    st = em_prof_on ? em_prof_graph(g->dev, g->impl, on)
                    : g->dev->ops->graph_launch(g->dev, g->impl, on);
    if (st != EM_OK)
        return st;
    /* The blocks the graph holds go back, at its release, on the stream
     * it ran on last: work queued there later runs after the graph. */
    if (on != g->last) {
        old = g->last;
        em_rt_stream_retain(on);
        g->last = on;
        em_rt_stream_release(old);
    }
    return EM_OK;
}

em_status em_graph_upload(em_graph *g, em_stream *s)
{
    em_stream *on = NULL;
    em_status st;
    if ((st = graph_stream(g, s, "em_graph_upload", &on)) != EM_OK)
        return st;
    return g->dev->ops->graph_upload(g->dev, g->impl, on);
}

em_status em_rt_graph_keep_module(em_graph *g, em_module *m)
{
    for (int i = 0; i < g->n_modules; i++)
        if (g->modules[i] == m)
            return EM_OK;
    if (g->n_modules == g->cap_modules) {
        int cap = g->cap_modules ? 2 * g->cap_modules : 8;
        em_module **p = realloc(g->modules, (size_t)cap * sizeof *p);
        if (!p)
            return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory capturing "
                            "a launch on %s", g->dev->name);
        g->modules = p;
        g->cap_modules = cap;
    }
    if (em_rt_module_graph_hold(m))
        g->modules[g->n_modules++] = m;
    return EM_OK;
}

em_status em_graph_destroy(em_graph *g)
{
    if (!g)
        return EM_OK;
    if (g->impl)
        g->dev->ops->graph_destroy(g->dev, g->impl);
    g->impl = NULL;
    /* after the backend's graph, which names the modules' functions */
    for (int i = 0; i < g->n_modules; i++)
        em_rt_module_graph_drop(g->modules[i]);
    free(g->modules);
    em_rt_pool_graph_release(g->dev, g, g->last);
    em_rt_stream_release(g->last);
    em_rt_stream_release(g->home);
    free(g);
    return EM_OK;
}

em_device *em_graph_device(const em_graph *g) { return g ? g->dev : NULL; }

em_status em_stream_host_call(em_stream *s, em_status (*fn)(void *ctx),
                              const void *ctx, size_t n)
{
    if (!s || !fn)
        return em_error(EM_ERR_INVALID_VALUE, "em_stream_host_call: %s is NULL",
                        s ? "fn" : "stream");
    if (!s->dev->ops->host_call)
        return em_error(EM_ERR_NOT_SUPPORTED, "em_stream_host_call: %s runs no "
                        "host functions in stream order", s->dev->name);
    return s->dev->ops->host_call(s, fn, ctx, n);
}
