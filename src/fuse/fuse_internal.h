/* ember fuse (internal): the open group that record.c builds and run.c
 * turns into one kernel. */
#ifndef EMBER_FUSE_INTERNAL_H
#define EMBER_FUSE_INTERNAL_H

#include <pthread.h>

#include "core/strbuf.h"

#include "array/array_internal.h"
#include "codegen/ewise.h"
#include "codegen/kernel_table.h"
#include "fuse/fuse.h"

/* Where a node input comes from. */
enum { FZ_LEAF = 0, FZ_NODE = 1, FZ_SCALAR = 2 };

typedef struct fz_node {
    /* The op as eager's kernel would run it: op, loop dtypes, the output
     * dtype, and src[k] the dtype its input k arrives in (a leaf's, an
     * earlier node's output dtype, or EM_GEN_SCALAR). */
    em_gen_ewise d;
    uint8_t kind[2], idx[2]; /* idx: leaf, node or scalar index */
    em_storage *out;         /* NULL once nothing can read it */
    char *out_data;
} fz_node;

typedef struct fz_group {
    em_device *dev;
    em_stream *s;
    int nd;
    int64_t shape[EM_MAX_NDIM];
    int64_t n;
    int nnodes, nleaves, nscalars;
    fz_node node[EM_FUSE_MAX_NODES];
    em_array leaf[EM_FUSE_MAX_LEAVES]; /* references, released after a run */
    int64_t leaf_st[EM_FUSE_MAX_LEAVES][EM_MAX_NDIM]; /* against shape */
    unsigned char sval[2 * EM_FUSE_MAX_NODES][16];
    em_dtype sdt[2 * EM_FUSE_MAX_NODES];
} fz_group;

/* The open group and its lock (recursive: running a group may free
 * storage, whose release hook takes it again). */
extern fz_group em_fz_open;
extern pthread_mutex_t em_fz_mutex;
void em_fz_lock(void);
void em_fz_unlock(void);

/* Groups that ran (or failed to) and groups started, since the process
 * began; under the lock. A tape is kept only when no group ran while it
 * was taken, and its snapshot is of the group it started with. */
extern uint64_t em_fz_runs, em_fz_gen;

/* Generates, compiles (through the per-device kernel table) and launches
 * g's kernel; name NULL for a generated one. Called with the lock held. */
em_status em_fz_launch(fz_group *g, const char *name);

/* The cuda source of the fused reduction d of the open group's node
 * `target`, vleaf: its leaves read a vector at a time (tests compile it
 * with NVRTC where no GPU is). */
struct em_gen_reduce;
em_status em_fz_reduce_source(const struct em_gen_reduce *d, int target,
                              int vleaf, char **src);

/* The group's part of a kernel key (nodes 0..last: what they compute,
 * with stores what they write), each byte plus one; its length (run.c). */
int em_fz_key_group(const fz_group *g, int last, int stores,
                    unsigned char *k);

/* Whether s can name a kernel: a C identifier of 1..63 characters. */
int em_fz_valid_name(const char *s);

/* The kernel for key bytes kb[0..klen) (NUL-free, NUL-ended) in t: from
 * the table, or made by make(ctx) and remembered (run.c). */
em_status em_fz_kt_get(em_gen_ktable *t, em_device *dev,
                       const unsigned char *kb, int klen, uint32_t version,
                       em_gen_kt_load_fn make, const void *ctx,
                       em_function **fn);

/* Set while this thread launches a fused reduction over the open group:
 * the guards let those launches through and the group stays open. */
extern _Thread_local int em_fz_running;

/* Whether leaf j of g is C-ordered over g's shape (run.c). */
int em_fz_leaf_is_c_order(const fz_group *g, int j);
/* The number of inputs of n's op. */
int em_fz_nin(const fz_node *n);
/* The ops header, node element functions (nodes 0..last) for kernel
 * `name`, appended to b (run.c). */
void em_fz_emit_nodes(struct em_sb *b, const fz_group *g, int last,
                      const char *name);
/* The node statements of one element: x<j> leaves already loaded; t<i>
 * for nodes 0..last (run.c). */
void em_fz_emit_values(struct em_sb *b, const fz_group *g, int last,
                       const char *name, const char *indent);

#endif
