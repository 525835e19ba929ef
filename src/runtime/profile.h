/* ember internal: the profiler's hooks (profile.c), what the runtime's hot
 * paths call while em_prof_on is set. Each hot path tests the flag once
 * and, when set, hands its whole operation to the hook, which times it and
 * does it through the same backend call; so the non-profiling path is the
 * one it was, plus one predictable branch. */
#ifndef EMBER_RT_PROFILE_H
#define EMBER_RT_PROFILE_H

#include "ember/profile.h"
#include "backend/backend.h"

/* module.c's launch after its checks (cluster/cooperative or plain). */
typedef em_status (*em_prof_launch_fn)(em_function *f, const em_launch_config *c,
                                       em_stream *s, void **args);

/* Launch f on s (resolved, checked) through run, recorded. */
em_status em_prof_launch(em_function *f, const em_launch_config *c,
                         em_stream *s, void **args, em_prof_launch_fn run);

/* d->ops->graph_launch of a captured graph on s, recorded as one
 * operation ("graph replay"; its kernels' names were recorded when it
 * was captured). */
em_status em_prof_graph(em_device *d, void *graph, em_stream *s);

/* d->ops->memcpy_async / memset_async on s (resolved, checked), recorded
 * with the copy's direction (H2D, D2H, D2D, peer, H2H) and size. */
em_status em_prof_copy(em_device *d, void *dst, const void *src, size_t n,
                       em_stream *s);
em_status em_prof_fill(em_device *d, void *dst, int value, size_t n,
                       em_stream *s);

/* An allocation of n bytes from d's pool on s (NULL: the default stream),
 * recorded as an instant of host time. */
void em_prof_alloc(em_device *d, size_t n, em_stream *s);

/* d->ops->stream_synchronize(s), or with s NULL d->ops->synchronize(d),
 * recorded with its host time. */
em_status em_prof_sync(em_device *d, em_stream *s);

/* An array transfer of nbytes between the host and d begins on s
 * (transfer.c): the copies it makes next on this thread are named for the
 * whole transfer ("H2D 4.0 MiB", not four 1 MiB chunks). Returns the host
 * time, for em_prof_transfer_done when the transfer is a host copy that
 * makes no em_memcpy_async (the cpu device), which records it. */
int64_t em_prof_transfer(em_device *d, int to_host, uint64_t nbytes);
void em_prof_transfer_done(em_device *d, em_stream *s, int to_host,
                           uint64_t nbytes, int64_t t0);

/* profile_cupti.c: CUPTI as the source of CUDA device times. begin
 * subscribes to driver-API exits and enables kernel, copy and fill
 * activity (EM_ERR_UNAVAILABLE naming why it cannot); take returns and
 * clears the calling thread's last driver call's correlation id; end
 * stops it all and flushes CUPTI's buffers (devices must be idle first);
 * sort, then times gives the first start and last end of the activities
 * of an id (a graph replay has several), on CLOCK_MONOTONIC. */
em_status em_prof_cupti_begin(void);
uint32_t em_prof_cupti_take(void);
void em_prof_cupti_end(void);
void em_prof_cupti_sort(void);
int em_prof_cupti_times(uint32_t corr, int64_t *start, int64_t *end);

#endif
