/* ember NCCL: collectives between GPUs (ember.distributed on cuda).
 *
 * NCCL is opened at run time (em_vendor_open(EM_VENDOR_NCCL): pip's
 * nvidia-nccl-cu12/-cu13 wheel, the toolkit or the loader's path); a
 * missing library is EM_ERR_UNAVAILABLE naming it and the pip package.
 * Buffers are device pointers of the communicator's device; counts are
 * elements; dtype and op are NCCL's numbers (ncclDataType_t, ncclRedOp_t),
 * which the Python layer checks. Calls are asynchronous on s (NULL: the
 * device's current stream), as NCCL's. */
#ifndef EMBER_NCCL_H
#define EMBER_NCCL_H

#include <stddef.h>
#include "ember/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EM_NCCL_ID_BYTES 128

typedef struct em_nccl_comm em_nccl_comm;

typedef enum em_nccl_kind {
    EM_NCCL_ALL_REDUCE, EM_NCCL_REDUCE, EM_NCCL_BROADCAST,
    EM_NCCL_ALL_GATHER, EM_NCCL_REDUCE_SCATTER, EM_NCCL_SEND, EM_NCCL_RECV
} em_nccl_kind;

/* NCCL's version as 10000*major + 100*minor + patch. */
em_status em_nccl_version(int *out);
em_status em_nccl_unique_id(unsigned char id[EM_NCCL_ID_BYTES]);
/* Rank `rank` of nranks on d, joined through id (collective over ranks). */
em_status em_nccl_init_rank(em_device *d, int nranks,
                            const unsigned char id[EM_NCCL_ID_BYTES], int rank,
                            em_nccl_comm **out);
/* One communicator per device of devs, ranks in their order. */
em_status em_nccl_init_all(em_device *const *devs, int n, em_nccl_comm **out);
/* The device c was made on. */
em_device *em_nccl_comm_device(const em_nccl_comm *c);
/* Frees c; abort does not wait for outstanding work. */
em_status em_nccl_destroy(em_nccl_comm *c, int abort);

/* kind's call: count is the send count for all_gather and send, the
 * receive count for reduce_scatter and recv, the element count otherwise;
 * root is the root (reduce, broadcast) or the peer (send, recv). */
em_status em_nccl_call(em_nccl_comm *c, em_nccl_kind kind, const void *send,
                       void *recv, size_t count, int dtype, int op, int root,
                       em_stream *s);

em_status em_nccl_group_start(void);
em_status em_nccl_group_end(void);

#ifdef __cplusplus
}
#endif
#endif
