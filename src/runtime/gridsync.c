/* ember runtime: grid synchronisation for kernels that call
 * cuda.cg.this_grid().sync() on the cpu device, and the grid size such
 * kernels may have (include/ember/gridsync.h).
 *
 * On the GPU a grid barrier needs every block resident at once. On cpu
 * the backend runs a grid's blocks a few at a time on its pool, so a
 * barrier there would wait for blocks that cannot start: instead every
 * block is launched as a grid of one block on a thread of its own, and
 * the kernel's prelude (python/ember/jit/prelude.h, "grid") gives it its
 * real coordinates from a per-block record and, at a grid barrier, lets
 * one fiber of the block call back here to wait for the other blocks. A
 * block that finishes (or fails) leaves the barrier, so the others never
 * wait for it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ember/gridsync.h"
#include "ember/util.h"

/* Blocks per core a cpu grid may have: each is an OS thread that blocks
 * (does not spin) at a barrier, so this is a bound on threads, not speed. */
#define CPU_BLOCKS_PER_CORE 16
/* Without a compiled kernel to ask the driver about (or a driver that
 * answers): threads per SM assumed free for a grid on the GPU. Every GPU
 * ember builds for runs at least 1024 threads an SM, and kernels of up to
 * 64 registers a thread fit that many. */
#define GPU_THREADS_PER_SM 1024
/* Resident blocks an SM holds at most (16 on Turing, 32 since Volta
 * otherwise): the smaller, so small blocks never outnumber it. */
#define GPU_BLOCKS_PER_SM 16

typedef struct barrier {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned expected, arrived;
    unsigned long long generation;
} barrier;

static void release_locked(barrier *b)
{
    b->arrived = 0;
    b->generation++;
    pthread_cond_broadcast(&b->cv);
}

/* A block arrives and waits until every block still running has. */
static void barrier_wait(void *p)
{
    barrier *b = p;
    unsigned long long gen;
    pthread_mutex_lock(&b->mu);
    gen = b->generation;
    if (++b->arrived >= b->expected)
        release_locked(b);
    else
        while (b->generation == gen)
            pthread_cond_wait(&b->cv, &b->mu);
    pthread_mutex_unlock(&b->mu);
}

/* A block is done: no barrier waits for it any more. */
static void barrier_leave(barrier *b)
{
    pthread_mutex_lock(&b->mu);
    b->expected--;
    if (b->arrived && b->arrived >= b->expected)
        release_locked(b);
    pthread_mutex_unlock(&b->mu);
}

typedef struct block_job {
    em_grid_rec rec;
    em_grid_rec *recp;   /* the parameter's value */
    void **argv;               /* this block's copy, argv[slot] = &recp */
    barrier *bar;
    em_function *fn;
    em_dim3 block;
    size_t shared;
    em_stream *stream;
    em_status st;
    char msg[512];
    pthread_t thread;
    int started;
} block_job;

static void *run_block(void *p)
{
    block_job *j = p;
    em_dim3 one = {1, 1, 1};
    j->st = em_launch(j->fn, one, j->block, j->shared, j->stream, j->argv);
    if (j->st != EM_OK)
        snprintf(j->msg, sizeof j->msg, "%s", em_last_error());
    barrier_leave(j->bar);
    return NULL;
}

em_status em_grid_sync_launch_cpu(em_function *fn, em_dim3 grid,
                                  em_dim3 block, size_t shared, em_stream *s,
                                  void **argv, int nparams, int grid_slot)
{
    unsigned long long n = (unsigned long long)grid.x * grid.y * grid.z, b;
    block_job *jobs;
    void **argvs;
    barrier bar;
    em_status st = EM_OK;
    const char *msg = NULL;

    jobs = calloc(n, sizeof *jobs);
    argvs = calloc(n * (size_t)nparams, sizeof *argvs);
    if (!jobs || !argvs) {
        free(jobs);
        free(argvs);
        return em_error(EM_ERR_OUT_OF_MEMORY, "grid of %llu blocks: no memory for their "
                        "launch records", n);
    }
    pthread_mutex_init(&bar.mu, NULL);
    pthread_cond_init(&bar.cv, NULL);
    bar.expected = (unsigned)n;
    bar.arrived = 0;
    bar.generation = 0;
    for (b = 0; b < n; b++) {
        block_job *j = &jobs[b];
        j->rec.wait = barrier_wait;
        j->rec.bar = &bar;
        j->rec.block[0] = (unsigned)(b % grid.x);
        j->rec.block[1] = (unsigned)(b / grid.x % grid.y);
        j->rec.block[2] = (unsigned)(b / grid.x / grid.y);
        j->rec.grid[0] = grid.x;
        j->rec.grid[1] = grid.y;
        j->rec.grid[2] = grid.z;
        j->recp = &j->rec;
        j->argv = argvs + b * (size_t)nparams;
        memcpy(j->argv, argv, sizeof *argv * (size_t)nparams);
        j->argv[grid_slot] = &j->recp;
        j->bar = &bar;
        j->fn = fn;
        j->block = block;
        j->shared = shared;
        j->stream = s;
    }
    for (b = 0; b < n; b++) {
        if (pthread_create(&jobs[b].thread, NULL, run_block, &jobs[b]) != 0) {
            /* the blocks never started must not be waited for */
            unsigned long long k;
            for (k = b; k < n; k++) {
                jobs[k].st = EM_ERR_OUT_OF_MEMORY;
                snprintf(jobs[k].msg, sizeof jobs[k].msg, "grid of %llu blocks: cannot "
                         "start a thread for block %llu", n, k);
                barrier_leave(&bar);
            }
            break;
        }
        jobs[b].started = 1;
    }
    for (b = 0; b < n; b++) {
        if (jobs[b].started)
            pthread_join(jobs[b].thread, NULL);
        if (jobs[b].st != EM_OK && st == EM_OK) {
            st = jobs[b].st;
            msg = jobs[b].msg;
        }
    }
    if (st != EM_OK)
        st = em_error(st, "%s", msg);
    pthread_cond_destroy(&bar.cv);
    pthread_mutex_destroy(&bar.mu);
    free(jobs);
    free(argvs);
    return st;
}

long long em_grid_sync_max_blocks(em_device *d, em_dim3 block,
                                  em_function *fn, size_t shared)
{
    em_device_props p;
    long long threads = (long long)block.x * block.y * block.z, per;
    int units = 1, active;
    if (em_device_get_props(d, &p) == EM_OK && p.multiprocessor_count > 0)
        units = p.multiprocessor_count;
    if (threads <= 0)
        return 0;
    if (em_device_get_type(d) == EM_DEVICE_CPU)
        return (long long)units * CPU_BLOCKS_PER_CORE;
    /* the driver's occupancy of this kernel, as Numba asks it */
    if (fn && threads <= 1024 &&
        em_function_max_active_blocks(fn, (int)threads, shared, &active) == EM_OK)
        return (long long)units * active;
    per = GPU_THREADS_PER_SM / threads;
    if (per > GPU_BLOCKS_PER_SM)
        per = GPU_BLOCKS_PER_SM;
    return (long long)units * (per > 0 ? per : 1);
}
