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

/* profile_cupti.c: CUPTI as the source of CUDA device times.
 *
 * Kernels, copies and fills need no CUPTI call per launch: the hot path
 * keeps the stream's CUPTI id (em_prof_cupti_stream, cached per thread by
 * profile.c) and em_prof_cupti_match pairs ember's records with CUPTI's
 * activities in each stream's order (em_prof_match below). Graph replays,
 * whose kernels may run on streams of the graph's own, are matched by the
 * correlation id of their cuGraphLaunch, which a CUPTI callback on that
 * call alone keeps (em_prof_cupti_take). EMBER_PROFILE_CUPTI_MATCH=callback
 * at the start of a profile puts every launch, copy and fill on that
 * callback instead (the earlier design; kept to measure against).
 *
 * begin subscribes and enables kernel, copy and fill activity
 * (EM_ERR_UNAVAILABLE naming why it cannot); by_callback says which way
 * the profile matches; end stops it all and flushes CUPTI's buffers
 * (devices must be idle first); sort, then times gives the first start and
 * last end of the activities of an id (a graph replay has several) and
 * sets them aside; then match pairs the rest with calls. Times on
 * CLOCK_MONOTONIC. need_corr, before a graph replay's launch: the call
 * will be caught (the subscription is made there, once a profile, where
 * EMBER_PROFILE_CUPTI_VARIANT=nocallback put it off; else a test of one
 * flag). */
em_status em_prof_cupti_begin(void);
int em_prof_cupti_by_callback(void);
void em_prof_cupti_need_corr(void);
uint32_t em_prof_cupti_take(void);
void em_prof_cupti_end(void);
void em_prof_cupti_sort(void);
int em_prof_cupti_times(uint32_t corr, int64_t *start, int64_t *end);

/* CUPTI's id of s (a CUDA stream of d; the default stream too), which its
 * activity records carry; EM_PROF_NO_STREAM when CUPTI cannot say. Called
 * on the launching thread right after the launch, with d's context
 * current; it also learns the id of that context, which
 * em_prof_cupti_context gives for d afterwards (stream ids are unique
 * within a context; EM_PROF_NO_CONTEXT when never learnt). */
#define EM_PROF_NO_STREAM 0xffffffffu
#define EM_PROF_NO_CONTEXT 0xffffffffu
uint32_t em_prof_cupti_stream(em_device *d, em_stream *s);
uint32_t em_prof_cupti_context(const em_device *d);

/* ---- profile_match.c: pairing ember's records with CUPTI's activities --- */

/* One ember operation waiting for its device times (a kernel launch, copy
 * or fill made on a CUDA stream while CUPTI records). */
typedef struct em_prof_call {
    uint32_t context;       /* CUPTI's id of the device's context */
    uint32_t stream;        /* CUPTI's stream id */
    uint8_t kind;           /* EM_PROF_KERNEL, EM_PROF_COPY or EM_PROF_FILL */
    uint32_t key;           /* kernels: em_prof_name_key of its name; 0 unknown */
    uint64_t bytes;         /* copies and fills */
    int64_t order;          /* when it was issued (host clock): the stream's
                               order among the calls */
    size_t tag;             /* the caller's, to find its record again */
    int64_t start, end;     /* set by em_prof_match: -1 when unmatched */
} em_prof_call;

/* One of CUPTI's activity records, as profile_cupti.c keeps it. */
typedef struct em_prof_act {
    uint32_t context;
    uint32_t stream, corr;
    uint8_t kind;           /* as em_prof_call's */
    uint8_t taken;          /* set aside (a graph replay's): not matched */
    uint32_t key;           /* kernels: em_prof_name_key of CUPTI's name */
    uint64_t bytes;
    int64_t start, end;
} em_prof_act;

/* A kernel name's key: FNV-1a of its bytes, never 0. */
uint32_t em_prof_name_key(const char *name);

/* Give each call the device times of its CUPTI activity. The activities
 * of one driver call (one correlation id: a pageable copy may be several)
 * count as one, from first start to last end, bytes summed. On each
 * stream (a stream id within a context), work runs in the order it was
 * issued, so the stream's calls (by order) and its activities (by start)
 * are two lists of the same work. Each call takes the first activity not
 * yet taken of its kind, kernel name and size, passing over at most
 * EM_PROF_MATCH_AHEAD others (work ember did not issue, such as a vendor
 * library's kernels on ember's stream); a call with none (CUPTI dropped
 * it) gets no times, as does a call of EM_PROF_NO_CONTEXT. Where no
 * kernel's name fits at all but the lists are as long and agree in kind,
 * they pair one to one (CUPTI spelling names otherwise than ember loaded
 * them). In a context where one run of calls has a stream id no activity
 * carries (or EM_PROF_NO_STREAM) and one run of activities a stream id no
 * call names, the two are taken for one stream. Reorders both arrays and
 * uses acts[].taken. Returns how many calls got times. */
#define EM_PROF_MATCH_AHEAD 256
size_t em_prof_match(em_prof_call *calls, size_t n_calls, em_prof_act *acts,
                     size_t n_acts);

/* Pair calls with the activities of the last CUPTI profile that
 * em_prof_cupti_times left (em_prof_match). */
size_t em_prof_cupti_match(em_prof_call *calls, size_t n_calls);

#endif
