/* ember: the profiler (what ember.profile() records).
 *
 * While a profile records, every kernel launch, copy, fill, graph replay,
 * pool allocation and synchronize that ember makes, on any device, stream or host thread,
 * becomes one record: a name a user recognises ("add float32", "sum
 * float64", the user's kernel name, "H2D 4.0 MiB"), the host time of the
 * call (its launch cost) and, for work that runs on a device, when it ran
 * there. Device times on a GPU come from CUPTI's activity records where
 * CUPTI can be used (the default), else from a pair of events around the
 * work (on the cpu device the host clock, which its events read); event
 * times are put on the host clock's scale through one event per device
 * recorded and waited for when the profile first touches that device.
 * Ranges (em_prof_range_push) mark spans of host time, nested per thread,
 * and go to NVTX as well when a tool such as Nsight Systems is attached.
 *
 * Recording costs a launch no lock and no string: each host thread keeps
 * its own records, and em_prof_stop merges them and writes their names.
 *
 * When no profile records, the runtime's hot paths test one global int
 * (em_prof_on) and do nothing else.
 */
#ifndef EMBER_PROFILE_H
#define EMBER_PROFILE_H

#include <stdint.h>
#include "ember/runtime.h"

/* Nonzero while a profile records. Read without a lock on every launch,
 * copy and allocation; written only by em_prof_start and em_prof_stop. */
extern int em_prof_on;

typedef enum em_prof_kind {
    EM_PROF_KERNEL, /* a kernel launch */
    EM_PROF_COPY,   /* a copy; bytes says how many */
    EM_PROF_FILL,   /* a memset */
    EM_PROF_ALLOC,  /* an allocation from the pool (host time only) */
    EM_PROF_SYNC,   /* a wait for a device or stream (host time only) */
    EM_PROF_RANGE,  /* an em_prof_range_push .. pop span (host time only) */
    EM_PROF_GRAPH   /* a replay of a captured graph, as one operation */
} em_prof_kind;

/* One recorded operation. Times are nanoseconds of CLOCK_MONOTONIC;
 * dev_start/dev_end are -1 for records with no device time (allocations,
 * synchronizes, ranges, and work recorded into a graph capture). */
typedef struct em_prof_record {
    em_prof_kind kind;
    char name[96];
    char device[16];   /* "cpu", "cuda:0"; "" for ranges */
    int stream;        /* the stream's number in this profile, per device:
                          0 is the default stream; -1 for ranges */
    int thread;        /* the host thread's number in this profile, from 0 */
    long tid;          /* that thread's OS id */
    int depth;         /* ranges: how many enclosing ranges on the thread */
    uint64_t bytes;    /* copies, fills and allocations */
    int64_t host_start, host_end;
    int64_t dev_start, dev_end;
} em_prof_record;

/* Where a CUDA device's times come from: a pair of timing events around
 * each operation (two event records per launch, which cost the launch
 * more than anything else the profiler does), CUPTI's activity records
 * (the driver's own timestamps; no events in the streams), or AUTO:
 * CUPTI when the CUDA backend is in use and CUPTI can be had, else
 * events. The cpu device reads the host clock whichever is chosen. */
typedef enum em_prof_times {
    EM_PROF_TIMES_EVENTS = 0,
    EM_PROF_TIMES_CUPTI = 1,
    EM_PROF_TIMES_AUTO = 2
} em_prof_times;

/* Start recording, device times as EM_PROF_TIMES_AUTO chooses. Earlier
 * records are dropped. EM_ERR_INVALID_VALUE when a profile already
 * records (profiles neither nest nor overlap, in any thread). */
em_status em_prof_start(void);

/* As em_prof_start, device times from `how`. With EM_PROF_TIMES_CUPTI a
 * CUPTI that cannot be used (no libcupti, another CUPTI client such as
 * Nsight Systems) is EM_ERR_UNAVAILABLE saying why, and nothing starts;
 * with AUTO it means events instead. */
em_status em_prof_start_with(em_prof_times how);

/* How the current (or last) profile takes CUDA device times: EVENTS or
 * CUPTI (what AUTO chose). */
em_prof_times em_prof_device_times(void);

/* Stop recording: wait for the work of every device the profile touched
 * and fill in its device times. The records stay until the next start
 * or em_prof_clear. EM_ERR_INVALID_VALUE when no profile records. */
em_status em_prof_stop(void);

/* The records of the last profile, in the order their calls returned
 * (ranges: the order they began), complete once em_prof_stop has
 * returned (it fills in device times and the sizes names end with).
 * Valid until the next start or clear; NULL when there are none. */
size_t em_prof_count(void);
const em_prof_record *em_prof_records(void);

/* Drop the records and the events kept for reuse. */
void em_prof_clear(void);

/* Name the calling thread's next launch of f "op detail" ("add float32")
 * instead of its kernel's name. Callers guard it with em_prof_on, so the
 * non-profiling path builds nothing; op and detail must outlive the
 * profile (string literals, dtype names): they are kept as pointers until
 * em_prof_stop writes the record's name. detail may be NULL. */
void em_prof_label(const em_function *f, const char *op, const char *detail);

/* Open a range named name on the calling thread (copied; at most 95
 * characters kept), and close the innermost one. Ranges go to NVTX when a
 * tool asked for it (NVTX_INJECTION64_PATH set and NVTX's library found),
 * and into the profile while one records. Never fails: a pop with no
 * range open does nothing. */
void em_prof_range_push(const char *name);
void em_prof_range_pop(void);

/* 1 when ranges reach NVTX, else 0 (no tool attached, or no library). */
int em_prof_nvtx_attached(void);

#endif
