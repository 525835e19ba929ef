/* ember host backend: the process-wide thread pool.
 *
 * Jobs sit in a list under one mutex; each has an atomic counter that
 * hands out its task indices. The submitting thread links its job (which
 * lives on its stack), wakes as many workers as the job can use, and takes
 * tasks itself; workers join whichever listed job still has tasks left.
 * When the counter runs out the submitter unlinks the job and waits only
 * for workers still inside a task of it. Because the submitter always
 * works on its own job, a job finishes even when every worker is busy with
 * another stream's launch, and nested or concurrent submissions cannot
 * deadlock.
 *
 * Workers are started on first use, block every signal (a Python program's
 * SIGINT must reach its main thread), and are joined at exit when the pool
 * is idle. After fork() the child starts a fresh pool on its first use.
 */
#define _GNU_SOURCE 1   /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/threadpool.h"
#include "ember/util.h"

#define POOL_MAX_THREADS 1024

typedef struct pool_job {
    struct pool_job *next;
    em_host_task_fn fn;
    void *ctx;
    size_t n_tasks;
    size_t next_task;    /* atomic: the next index to hand out */
    int active;          /* workers inside this job; under pool.lock */
} pool_job;

enum { POOL_NEW, POOL_RUNNING, POOL_STOPPED };

static struct {
    pthread_mutex_t lock;
    pthread_cond_t work;     /* a job was listed, or the pool is stopping */
    pthread_cond_t idle;     /* a worker left a job */
    pool_job *jobs;
    pthread_t *threads;
    int n_workers;
    int n_threads;           /* decided once: workers + the caller */
    int state;
    int hooks_registered;
} pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .idle = PTHREAD_COND_INITIALIZER,
};

/* Cores this process may run on: the affinity mask (a container or
 * taskset may grant fewer than the machine has), else online cores. */
static int cores_available(void)
{
    cpu_set_t set;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int n = online > 0 ? (int)online : 1;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int a = CPU_COUNT(&set);
        if (a > 0 && a < n)
            n = a;
    }
    return n;
}

static int decide_thread_count(void)
{
    const char *env = em_knob_text(EM_KNOB_NUM_THREADS);
    if (env) {
        char *end;
        long v;
        errno = 0;
        v = strtol(env, &end, 10);
        if (!errno && !*end && v >= 1 && v <= POOL_MAX_THREADS)
            return (int)v;
        em_log(EM_LOG_WARN, "host", "EMBER_NUM_THREADS=%s is not a number in "
               "1..%d; using the %d available cores", env, POOL_MAX_THREADS,
               cores_available());
    }
    return cores_available() < POOL_MAX_THREADS ? cores_available()
                                                 : POOL_MAX_THREADS;
}

static void run_tasks(pool_job *j)
{
    size_t i;
    while ((i = __atomic_fetch_add(&j->next_task, 1, __ATOMIC_RELAXED)) <
           j->n_tasks)
        j->fn(j->ctx, i);
}

static pool_job *job_with_tasks(void)
{
    for (pool_job *j = pool.jobs; j; j = j->next)
        if (__atomic_load_n(&j->next_task, __ATOMIC_RELAXED) < j->n_tasks)
            return j;
    return NULL;
}

static void *worker_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        pool_job *j;
        while (pool.state == POOL_RUNNING && !(j = job_with_tasks()))
            pthread_cond_wait(&pool.work, &pool.lock);
        if (pool.state != POOL_RUNNING)
            break;
        j->active++;
        pthread_mutex_unlock(&pool.lock);
        run_tasks(j);
        pthread_mutex_lock(&pool.lock);
        if (--j->active == 0)
            pthread_cond_broadcast(&pool.idle);
    }
    pthread_mutex_unlock(&pool.lock);
    return NULL;
}

/* At exit, stop and join idle workers so that leak checkers see no live
 * threads. A pool still running a job (another thread inside a launch
 * while the process exits) is left alone: its threads die with it. */
static void pool_shutdown(void)
{
    pthread_t self = pthread_self();
    pthread_t *threads;
    int n;
    pthread_mutex_lock(&pool.lock);
    if (pool.state != POOL_RUNNING || pool.jobs) {
        pthread_mutex_unlock(&pool.lock);
        return;
    }
    pool.state = POOL_STOPPED;
    threads = pool.threads;
    n = pool.n_workers;
    pool.threads = NULL;
    pool.n_workers = 0;
    pthread_cond_broadcast(&pool.work);
    pthread_mutex_unlock(&pool.lock);
    for (int i = 0; i < n; i++)
        if (!pthread_equal(threads[i], self))
            pthread_join(threads[i], NULL);
    free(threads);
}

static void fork_prepare(void) { pthread_mutex_lock(&pool.lock); }
static void fork_parent(void) { pthread_mutex_unlock(&pool.lock); }

/* The child has only the forking thread: forget the workers (their
 * threads do not exist there) and start anew on first use. */
static void fork_child(void)
{
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.work, NULL);
    pthread_cond_init(&pool.idle, NULL);
    free(pool.threads);
    pool.threads = NULL;
    pool.n_workers = 0;
    pool.jobs = NULL;
    if (pool.state == POOL_RUNNING)
        pool.state = POOL_NEW;
}

/* Called with pool.lock held. Too few threads is not an error: the caller
 * always works, so a pool of fewer workers is only slower. */
static void pool_start(void)
{
    sigset_t all, old;
    int want;
    if (!pool.hooks_registered) {
        pool.hooks_registered = 1;
        atexit(pool_shutdown);
        pthread_atfork(fork_prepare, fork_parent, fork_child);
    }
    if (!pool.n_threads)
        pool.n_threads = decide_thread_count();
    want = pool.n_threads - 1;
    pool.state = POOL_RUNNING;
    if (want <= 0)
        return;
    pool.threads = calloc((size_t)want, sizeof *pool.threads);
    if (!pool.threads) {
        em_log(EM_LOG_WARN, "host", "cannot allocate the thread pool; "
               "running host kernels on the calling thread only");
        return;
    }
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    for (int i = 0; i < want; i++) {
        int rc = pthread_create(&pool.threads[i], NULL, worker_main, NULL);
        if (rc) {
            em_log(EM_LOG_WARN, "host", "started %d of %d pool threads: "
                   "pthread_create: %s", i, want, strerror(rc));
            break;
        }
        pool.n_workers++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int em_host_thread_count(void)
{
    int n;
    pthread_mutex_lock(&pool.lock);
    if (pool.state == POOL_NEW)
        pool_start();
    n = pool.n_workers + 1;
    pthread_mutex_unlock(&pool.lock);
    return n;
}

em_status em_host_parallel_for(size_t n_tasks, em_host_task_fn fn, void *ctx)
{
    pool_job job;
    int wake;

    if (n_tasks == 0)
        return EM_OK;
    memset(&job, 0, sizeof job);
    job.fn = fn;
    job.ctx = ctx;
    job.n_tasks = n_tasks;
    if (n_tasks == 1) {
        fn(ctx, 0);
        return EM_OK;
    }

    pthread_mutex_lock(&pool.lock);
    if (pool.state == POOL_NEW)
        pool_start();
    if (pool.n_workers == 0 || pool.state != POOL_RUNNING) {
        pthread_mutex_unlock(&pool.lock);
        run_tasks(&job);
        return EM_OK;
    }
    /* Appended, so that earlier jobs (other streams' launches) get the
     * workers first and none starves. */
    {
        pool_job **tail = &pool.jobs;
        while (*tail)
            tail = &(*tail)->next;
        *tail = &job;
    }
    wake = n_tasks - 1 < (size_t)pool.n_workers ? (int)(n_tasks - 1)
                                                 : pool.n_workers;
    if (wake == pool.n_workers)
        pthread_cond_broadcast(&pool.work);
    else
        for (int i = 0; i < wake; i++)
            pthread_cond_signal(&pool.work);
    pthread_mutex_unlock(&pool.lock);

    run_tasks(&job);

    pthread_mutex_lock(&pool.lock);
    for (pool_job **p = &pool.jobs; *p; p = &(*p)->next)
        if (*p == &job) {
            *p = job.next;
            break;
        }
    while (job.active)
        pthread_cond_wait(&pool.idle, &pool.lock);
    pthread_mutex_unlock(&pool.lock);
    return EM_OK;
}
