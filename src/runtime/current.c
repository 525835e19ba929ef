/* ember runtime: the calling thread's current device and stream.
 *
 * Thread-locals, so `with device:` in one Python thread never moves work
 * queued by another. The current device starts unset and resolves to the
 * default device on first use. */
#include "runtime.h"

static _Thread_local em_device *rt_cur_dev;
static _Thread_local em_stream *rt_cur_stream;

em_status em_current_device(em_device **out)
{
    em_status s;
    if (!out)
        return em_error(EM_ERR_INVALID_VALUE, "em_current_device: out is NULL");
    if (!rt_cur_dev) {
        s = em_device_default(&rt_cur_dev);
        if (s != EM_OK) {
            *out = NULL;
            return s;
        }
    }
    *out = rt_cur_dev;
    return EM_OK;
}

void em_set_current_device(em_device *d)
{
    /* `with stream: with device:` on the stream's own device keeps the
     * stream, as CuPy's per-device current stream does: library code that
     * enters an array's device must not move its work off the caller's
     * stream. */
    em_device *cur = NULL;
    if (em_current_device(&cur) != EM_OK || cur != d)
        rt_cur_stream = NULL;
    rt_cur_dev = d;
}

em_stream *em_current_stream(void) { return rt_cur_stream; }

/* Only the stream changes, as runtime.h says; a caller that wants the
 * stream's device current too sets it first (em_stream_device(s)). */
void em_set_current_stream(em_stream *s) { rt_cur_stream = s; }

void em_rt_current_forget_stream(const em_stream *s)
{
    if (rt_cur_stream == s)
        rt_cur_stream = NULL;
}
