/* ember internal: the host backend's process-wide thread pool.
 *
 * One pool of worker threads, started on first use and sized to the
 * machine (online cores, or $EMBER_NUM_THREADS), runs the blocks of every
 * host launch and large copies. Several threads may submit work at once
 * (each created stream has its own thread); their jobs share the workers.
 */
#ifndef EMBER_BACKEND_THREADPOOL_H
#define EMBER_BACKEND_THREADPOOL_H

#include <stddef.h>
#include "ember/status.h"

/* One task of a parallel_for: task is in [0, n_tasks). */
typedef void (*em_host_task_fn)(void *ctx, size_t task);

/* Run fn(ctx, i) for every i in [0, n_tasks) and return when all have
 * finished; their writes are then visible to the caller. The calling
 * thread runs tasks too, so a job always completes even when every worker
 * is busy with other jobs (or none could be started), and a task may
 * itself call em_host_parallel_for. Tasks are handed out dynamically, in
 * increasing order. Never fails today; returns em_status for the future. */
em_status em_host_parallel_for(size_t n_tasks, em_host_task_fn fn, void *ctx);

/* The number of threads that run tasks: the workers plus the caller. */
int em_host_thread_count(void);

#endif
