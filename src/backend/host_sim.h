/* ember internal: the block simulator, which runs CUDA kernels whose
 * threads cooperate (__syncthreads, warp shuffles and votes, dynamic shared
 * memory) on the host backend.
 *
 * Each block runs as blockDim.x*y*z fibers on one pool thread; blocks run
 * in parallel on the pool as plain kernels do. A fiber runs until it waits
 * at a barrier or a warp operation, then the next ready fiber runs. See
 * docs/jit-design.md section 4 for the semantics and docs/cpu-backend.md
 * for what a user sees.
 *
 * A cooperative kernel module (host_compile.c gives its source the
 * prelude's __EM_SIM part) exports, per kernel K,
 *     int __em_sim2_K(void *launch, const em_sim_ops *ops, void **args,
 *                     const unsigned *dims, unsigned long long begin,
 *                     unsigned long long end);
 * which runs blocks [begin, end) through ops->run_block and returns
 * nonzero once the launch has failed. The "2" is the version of this
 * interface: a module built for another one is not found rather than
 * called wrongly. kernels/host_prelude.h declares the same table as
 * struct __em_sim_ops; the two must stay identical.
 */
#ifndef EMBER_BACKEND_HOST_SIM_H
#define EMBER_BACKEND_HOST_SIM_H

#include <stddef.h>
#include "ember/status.h"

#define EM_SIM_SYMBOL "__em_sim2_"

/* Kinds of block barrier (sync's kind). */
enum { EM_SIM_SYNC_COUNT, EM_SIM_SYNC_AND, EM_SIM_SYNC_OR };

/* Warp operations (warp's op). value holds the lane's operand bits, arg
 * the source lane of a shuffle (already reduced to 0..31 by the prelude,
 * per shuffle mode and width). */
enum {
    EM_SIM_WARP_SYNC, EM_SIM_WARP_SHFL, EM_SIM_WARP_BALLOT, EM_SIM_WARP_ALL,
    EM_SIM_WARP_ANY, EM_SIM_WARP_MATCH_ANY, EM_SIM_WARP_MATCH_ALL,
    EM_SIM_WARP_ADD, EM_SIM_WARP_MIN_U, EM_SIM_WARP_MAX_U, EM_SIM_WARP_MIN_S,
    EM_SIM_WARP_MAX_S, EM_SIM_WARP_AND, EM_SIM_WARP_OR, EM_SIM_WARP_XOR,
    EM_SIM_WARP_ACTIVEMASK,   /* mask and value unused */
    EM_SIM_WARP_N_OPS
};

typedef struct em_sim_ops {
    /* Run every thread of block number `block` (its coordinates already
     * set by the module) as fibers, each calling entry(closure, t) with t
     * its linear thread index. Nonzero when the launch has failed. */
    int (*run_block)(void *launch, void (*entry)(void *, unsigned),
                     void *closure, const unsigned *dims,
                     unsigned long long block);
    /* __syncthreads and its _count/_and/_or forms; site is the source
     * line, to tell barriers apart. Returns the count of threads whose
     * pred was nonzero (COUNT) or the AND/OR of the preds. */
    int (*sync)(int site, int kind, int pred);
    /* A warp operation over the lanes of mask that have not returned;
     * for EM_SIM_WARP_ACTIVEMASK, the lanes that wait at the same line
     * once every live lane of the warp waits somewhere. */
    unsigned long long (*warp)(int op, unsigned mask, unsigned long long value,
                               int arg, int site);
} em_sim_ops;

extern const em_sim_ops em_host_sim_ops;

typedef int (*em_sim_blocks_fn)(void *launch, const em_sim_ops *ops,
                                void **args, const unsigned *dims,
                                unsigned long long begin,
                                unsigned long long end);

/* One launch's shared state: the kernel's name for messages, and the
 * first failure of any of its blocks (the pool threads that run them
 * cannot set the caller's thread-local error). */
typedef struct em_sim_launch {
    const char *kernel;
    size_t stack_need;       /* the module's large frames, in bytes, or 0 */
    int failed;              /* atomic: some block failed; others stop */
    int claimed;             /* atomic: the failure that writes below */
    em_status status;
    char msg[768];
} em_sim_launch;

/* After the blocks have run: EM_OK, or the first failure as the calling
 * thread's error. */
em_status em_host_sim_result(const em_sim_launch *launch);

/* The stack of each fiber, in bytes: $EMBER_SIM_STACK or 256 KiB, read
 * once, rounded up to whole pages. A module whose frames need more gets
 * more (em_sim_launch.stack_need). */
size_t em_host_sim_stack_size(void);

#endif
