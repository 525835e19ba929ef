/* ember runtime: grid synchronisation on the cpu device, and the grid
 * size a grid-synchronising kernel may have (Numba's
 * max_cooperative_grid_blocks; cuda.cg.this_grid().sync() in
 * ember.cuda.jit kernels). */
#ifndef EMBER_GRIDSYNC_H
#define EMBER_GRIDSYNC_H

#include "ember/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a cpu kernel that synchronises its grid gets for its hidden grid
 * parameter: one per block, as ember.cuda.jit kernels' prelude
 * (python/ember/jit/prelude.h, __emjit_grid_rec) reads it. */
typedef struct em_grid_rec {
    void (*wait)(void *bar);
    void *bar;
    unsigned int block[3], grid[3];
} em_grid_rec;

/* The most blocks of `block` threads a grid-synchronising kernel may have
 * on d: on cuda from fn's occupancy with `shared` bytes of dynamic shared
 * memory when fn is given and the driver says, else a conservative
 * figure; on cpu a bound on threads. */
long long em_grid_sync_max_blocks(em_device *d, em_dim3 block,
                                  em_function *fn, size_t shared);

/* Run a grid-synchronising cpu kernel: every block as a grid of one block
 * on a thread of its own, argv[grid_slot] pointing at its em_grid_rec,
 * all sharing one barrier. Synchronous; the first failure's message (the
 * blocks' threads have their own thread-local errors) is set as this
 * thread's error. */
em_status em_grid_sync_launch_cpu(em_function *fn, em_dim3 grid,
                                  em_dim3 block, size_t shared, em_stream *s,
                                  void **argv, int nparams, int grid_slot);

#ifdef __cplusplus
}
#endif
#endif
