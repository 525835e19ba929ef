/* ember runtime: streams and events.
 *
 * The runtime allocates the handles and checks what the backends assume
 * (a stream and an event of one device, timing only between timed
 * events); the backends do the work. */
#include <stdlib.h>
#include "runtime.h"
#include "profile.h"

void em_rt_stream_mismatch(const em_device *d, const em_stream *s, const char *what)
{
    em_error(EM_ERR_INVALID_VALUE, "%s: the stream belongs to %s, not %s",
                    what, s->dev ? s->dev->name : "(no device)", d->name);
}

em_status em_rt_stream_create_default(em_device *d)
{
    em_stream *s = calloc(1, sizeof *s);
    em_status st;
    if (!s)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory creating the default stream of %s", d->name);
    s->dev = d;
    s->flags = EM_STREAM_DEFAULT;
    s->is_default = 1;
    st = d->ops->stream_create(s);
    if (st != EM_OK) {
        free(s);
        return st;
    }
    d->default_stream = s;
    return EM_OK;
}

em_status em_stream_create(em_device *d, unsigned flags, em_stream **out)
{
    return em_stream_create_with_priority(d, flags, 0, out);
}

em_status em_device_stream_priority_range(em_device *d, int *least, int *greatest)
{
    if (!d || !least || !greatest)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_device_stream_priority_range: a NULL argument");
    return d->ops->stream_priority_range(d, least, greatest);
}

int em_stream_priority(const em_stream *s) { return s ? s->priority : 0; }

int em_stream_is_non_blocking(const em_stream *s)
{
    return s && (s->flags & EM_STREAM_NON_BLOCKING) != 0;
}

em_status em_stream_create_with_priority(em_device *d, unsigned flags,
                                         int priority, em_stream **out)
{
    em_stream *s;
    em_status st;
    int least = 0, greatest = 0;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_stream_create: out is NULL");
    *out = NULL;
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_stream_create: device is NULL");
    if (flags & ~(unsigned)EM_STREAM_NON_BLOCKING)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_stream_create: unknown flags 0x%x (known: EM_STREAM_NON_BLOCKING)",
                        flags);
    if (priority && (st = d->ops->stream_priority_range(d, &least, &greatest)) != EM_OK)
        return st;
    s = calloc(1, sizeof *s);
    if (!s)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory creating a stream on %s", d->name);
    s->dev = d;
    s->flags = flags;
    s->priority = priority > least ? least : priority < greatest ? greatest : priority;
    s->is_default = 0;
    s->refs = 1;                /* the creator's, dropped by em_stream_destroy */
    st = d->ops->stream_create(s);
    if (st != EM_OK) {
        free(s);
        return st;
    }
    *out = s;
    return EM_OK;
}

em_stream *em_stream_default(em_device *d) { return d ? d->default_stream : NULL; }

/* The last holder is gone: nothing can queue work on s or free memory on
 * it any more. */
static em_status stream_teardown(em_stream *s)
{
    em_status st;
    /* The pool first: it waits for the stream and moves the blocks freed
     * on it, which must happen while the stream still exists. */
    em_rt_pool_forget_stream(s);
    st = s->external ? EM_OK : s->dev->ops->stream_destroy(s);
    free(s);
    return st;
}

void em_rt_stream_release(em_stream *s)
{
    em_device *d = s->dev;
    if (s->is_default)
        return;
    if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    /* Called from a free, whose caller cannot act on this: logged. */
    if (stream_teardown(s) != EM_OK)
        em_log(EM_LOG_WARN, "stream", "destroying a stream of %s after its last "
               "block was freed: %s", d->name, em_last_error());
}

em_status em_stream_destroy(em_stream *s)
{
    if (!s)
        return em_error(EM_ERR_INVALID_VALUE, "em_stream_destroy: stream is NULL");
    if (s->is_default)
        return em_error(EM_ERR_INVALID_VALUE,
                        "the default stream of %s cannot be destroyed", s->dev->name);
    /* Destroying twice while blocks keep the stream alive would drop
     * their references; a second call after the teardown is a use after
     * free that no check can catch. */
    if (__atomic_exchange_n(&s->orphaned, 1, __ATOMIC_ACQ_REL))
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_stream_destroy: the stream of %s was destroyed already",
                        s->dev->name);
    em_rt_current_forget_stream(s);
    em_rt_capture_abort(s);
    /* Memory allocated on s may outlive this call (CUDA, too, allows
     * destroying a stream with work pending): each such block holds a
     * reference, and the last one to go tears the stream down. */
    if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return EM_OK;
    return stream_teardown(s);
}

em_status em_stream_adopt(em_device *d, void *native, em_stream **out)
{
    em_stream *s, *same = NULL;
    em_status st;
    if (!d || !out)
        return em_error(EM_ERR_INVALID_VALUE, "em_stream_adopt: %s is NULL",
                        d ? "out" : "device");
    *out = NULL;
    if (!native) {
        *out = d->default_stream;
        return EM_OK;
    }
    if (!d->ops->stream_adopt)
        return em_error(EM_ERR_NOT_SUPPORTED,
                        "%s cannot adopt a native stream", d->name);
    s = calloc(1, sizeof *s);
    if (!s)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory adopting a stream on %s", d->name);
    s->dev = d;
    s->refs = 1; /* the adopter's, dropped by em_stream_release */
    s->external = 1;
    if ((st = d->ops->stream_adopt(s, native, &same)) != EM_OK || same) {
        free(s);
        if (same)
            *out = same; /* one of d's own, with the adopter's reference */
        return st;
    }
    *out = s;
    return EM_OK;
}

void em_stream_release(em_stream *s)
{
    if (s)
        em_rt_stream_release(s);
}

em_status em_stream_synchronize(em_stream *s)
{
    em_status fz;
    if (!s)
        return em_error(EM_ERR_INVALID_VALUE, "em_stream_synchronize: stream is NULL");
    if ((fz = em_fuse_guard()) != EM_OK)
        return fz;
    if (em_rt_capture_of(s))
        return em_rt_capture_refuse(s->dev, "a synchronize of stream %p (a host "
                                    "read or a wait for results)", s->impl);
    if (em_prof_on)
        return em_prof_sync(s->dev, s);
    return s->dev->ops->stream_synchronize(s);
}

em_status em_stream_query(em_stream *s, int *done)
{
    if (!s || !done)
        return em_error(EM_ERR_INVALID_VALUE, "em_stream_query: %s is NULL",
                        s ? "done" : "stream");
    return s->dev->ops->stream_query(s, done);
}

em_status em_stream_wait_event(em_stream *s, em_event *e)
{
    if (!s || !e)
        return em_error(EM_ERR_INVALID_VALUE, "em_stream_wait_event: %s is NULL",
                        s ? "event" : "stream");
    if (e->dev != s->dev)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_stream_wait_event: the stream is on %s but the event on %s",
                        s->dev->name, e->dev->name);
    if (em_rt_capture_of(s))
        return em_rt_capture_refuse(s->dev, "an event wait on stream %p", s->impl);
    /* Waiting for an event never recorded is waiting for nothing. */
    if (!e->recorded)
        return EM_OK;
    return s->dev->ops->stream_wait_event(s, e);
}

em_device *em_stream_device(const em_stream *s) { return s ? s->dev : NULL; }

void *em_stream_native(const em_stream *s) { return s ? s->impl : NULL; }

/* ---- events ----------------------------------------------------------- */

em_status em_event_create(em_device *d, unsigned flags, em_event **out)
{
    em_event *e;
    em_status st;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_event_create: out is NULL");
    *out = NULL;
    if (!d)
        return em_error(EM_ERR_INVALID_VALUE, "em_event_create: device is NULL");
    if (flags & ~(unsigned)(EM_EVENT_DISABLE_TIMING | EM_EVENT_BLOCKING_SYNC))
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_event_create: unknown flags 0x%x (known: "
                        "EM_EVENT_DISABLE_TIMING, EM_EVENT_BLOCKING_SYNC)", flags);
    e = calloc(1, sizeof *e);
    if (!e)
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory creating an event on %s", d->name);
    e->dev = d;
    e->flags = flags;
    st = d->ops->event_create(e);
    if (st != EM_OK) {
        free(e);
        return st;
    }
    *out = e;
    return EM_OK;
}

em_status em_event_destroy(em_event *e)
{
    em_status st;
    if (!e)
        return em_error(EM_ERR_INVALID_VALUE, "em_event_destroy: event is NULL");
    st = e->dev->ops->event_destroy(e);
    free(e);
    return st;
}

em_status em_event_record(em_event *e, em_stream *s)
{
    em_stream *on = NULL;
    em_status st;
    if (!e)
        return em_error(EM_ERR_INVALID_VALUE, "em_event_record: event is NULL");
    if ((st = em_fuse_guard()) != EM_OK)
        return st;
    if (!(on = em_rt_stream_for(e->dev, s, "em_event_record")))
        return EM_ERR_INVALID_VALUE;
    /* A graph of one stream: events between streams are not recorded. */
    if (em_rt_capture_of(on))
        return em_rt_capture_refuse(on->dev, "an event record on stream %p", on->impl);
    st = e->dev->ops->event_record(e, on);
    if (st == EM_OK)
        e->recorded = 1;
    return st;
}

em_status em_event_synchronize(em_event *e)
{
    if (!e)
        return em_error(EM_ERR_INVALID_VALUE, "em_event_synchronize: event is NULL");
    if (!e->recorded)
        return EM_OK;
    return e->dev->ops->event_synchronize(e);
}

em_status em_event_query(em_event *e, int *done)
{
    if (!e || !done)
        return em_error(EM_ERR_INVALID_VALUE, "em_event_query: %s is NULL",
                        e ? "done" : "event");
    if (!e->recorded) {
        *done = 1;
        return EM_OK;
    }
    return e->dev->ops->event_query(e, done);
}

em_status em_event_elapsed_ms(em_event *start, em_event *end, float *ms)
{
    if (!start || !end || !ms)
        return em_error(EM_ERR_INVALID_VALUE, "em_event_elapsed_ms: %s is NULL",
                        !start ? "start" : !end ? "end" : "ms");
    if (start->dev != end->dev)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_event_elapsed_ms: events of two devices (%s and %s)",
                        start->dev->name, end->dev->name);
    if ((start->flags | end->flags) & EM_EVENT_DISABLE_TIMING)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_event_elapsed_ms: an event created with "
                        "EM_EVENT_DISABLE_TIMING has no time");
    if (!start->recorded || !end->recorded)
        return em_error(EM_ERR_INVALID_VALUE,
                        "em_event_elapsed_ms: the %s event was never recorded",
                        !start->recorded ? "start" : "end");
    return start->dev->ops->event_elapsed_ms(start, end, ms);
}
