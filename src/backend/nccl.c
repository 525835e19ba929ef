/* ember backend: NCCL's collectives (include/ember/nccl.h), opened with
 * dlopen. NCCL's types are declared here from its documented ABI (a
 * communicator is a pointer, results, data types and ops are ints, the
 * unique id is 128 bytes passed by value), so ember builds without NCCL's
 * headers. Each call makes the communicator's device current first: NCCL
 * works on the calling thread's current context, and one host thread may
 * drive several GPUs inside a group. No lock is taken per call; NCCL's
 * communicators are used by one thread at a time, as NCCL requires. */
#include <stdlib.h>
#include <string.h>

#include "ember/nccl.h"
#include "ember/util.h"

typedef struct { char internal[EM_NCCL_ID_BYTES]; } nccl_id;
typedef void *nccl_comm_t;

typedef struct nccl_fns {
    int (*version)(int *);
    const char *(*error_string)(int);
    int (*get_unique_id)(nccl_id *);
    int (*init_rank)(nccl_comm_t *, int, nccl_id, int);
    int (*init_all)(nccl_comm_t *, int, const int *);
    int (*destroy)(nccl_comm_t);
    int (*abort)(nccl_comm_t);
    int (*all_reduce)(const void *, void *, size_t, int, int, nccl_comm_t, void *);
    int (*reduce)(const void *, void *, size_t, int, int, int, nccl_comm_t, void *);
    int (*broadcast)(const void *, void *, size_t, int, int, nccl_comm_t, void *);
    int (*all_gather)(const void *, void *, size_t, int, nccl_comm_t, void *);
    int (*reduce_scatter)(const void *, void *, size_t, int, int, nccl_comm_t, void *);
    int (*send)(const void *, size_t, int, int, nccl_comm_t, void *);
    int (*recv)(void *, size_t, int, int, nccl_comm_t, void *);
    int (*group_start)(void);
    int (*group_end)(void);
} nccl_fns;

static nccl_fns nc;

static const em_vendor_sym syms[] = {
    {"ncclGetVersion", offsetof(nccl_fns, version)},
    {"ncclGetErrorString", offsetof(nccl_fns, error_string)},
    {"ncclGetUniqueId", offsetof(nccl_fns, get_unique_id)},
    {"ncclCommInitRank", offsetof(nccl_fns, init_rank)},
    {"ncclCommInitAll", offsetof(nccl_fns, init_all)},
    {"ncclCommDestroy", offsetof(nccl_fns, destroy)},
    {"ncclCommAbort", offsetof(nccl_fns, abort)},
    {"ncclAllReduce", offsetof(nccl_fns, all_reduce)},
    {"ncclReduce", offsetof(nccl_fns, reduce)},
    {"ncclBroadcast", offsetof(nccl_fns, broadcast)},
    {"ncclAllGather", offsetof(nccl_fns, all_gather)},
    {"ncclReduceScatter", offsetof(nccl_fns, reduce_scatter)},
    {"ncclSend", offsetof(nccl_fns, send)},
    {"ncclRecv", offsetof(nccl_fns, recv)},
    {"ncclGroupStart", offsetof(nccl_fns, group_start)},
    {"ncclGroupEnd", offsetof(nccl_fns, group_end)},
};

static em_vendor_lazy lib = EM_VENDOR_LAZY(EM_VENDOR_NCCL, syms, &nc);

struct em_nccl_comm {
    nccl_comm_t h;
    em_device *dev;
};

/* ncclResult_t's codes, as nccl.h numbers them. */
static em_status fail(int r, const char *what)
{
    static const char *const names[] = {
        "ncclSuccess", "ncclUnhandledCudaError", "ncclSystemError",
        "ncclInternalError", "ncclInvalidArgument", "ncclInvalidUsage",
        "ncclRemoteError", "ncclInProgress"};
    const char *name = r >= 0 && r < (int)(sizeof names / sizeof *names)
                           ? names[r] : "an ncclResult_t";
    const char *msg = nc.error_string ? nc.error_string(r) : "";
    return em_error_native(r == 4 || r == 5 ? EM_ERR_INVALID_VALUE : EM_ERR_CUDA,
                           r, name, "%s failed: %s (%d): %s", what, name, r,
                           msg ? msg : "");
}

/* NVLink multicast (NVLS) off unless the user chose: the lent GPU hosts
 * require it, and NCCL reads the variable when a communicator is made. */
static void nvls_default(void)
{
    setenv("NCCL_NVLS_ENABLE", "0", 0);
}

static em_status cuda_device(em_device *d, const char *fn)
{
    if (!d || em_device_get_type(d) != EM_DEVICE_CUDA)
        return em_error(EM_ERR_INVALID_VALUE, "%s: NCCL needs a cuda device, "
                        "got %s", fn, d ? em_device_name(d) : "none");
    return em_device_enter(d);
}

em_status em_nccl_version(int *out)
{
    em_status st = em_vendor_ready(&lib);
    int r;
    if (st != EM_OK)
        return st;
    if ((r = nc.version(out)) != 0)
        return fail(r, "ncclGetVersion");
    return EM_OK;
}

em_status em_nccl_unique_id(unsigned char id[EM_NCCL_ID_BYTES])
{
    nccl_id u;
    em_status st = em_vendor_ready(&lib);
    int r;
    if (st != EM_OK)
        return st;
    if ((r = nc.get_unique_id(&u)) != 0)
        return fail(r, "ncclGetUniqueId");
    memcpy(id, u.internal, EM_NCCL_ID_BYTES);
    return EM_OK;
}

em_status em_nccl_init_rank(em_device *d, int nranks,
                            const unsigned char id[EM_NCCL_ID_BYTES], int rank,
                            em_nccl_comm **out)
{
    em_nccl_comm *c;
    nccl_id u;
    em_status st;
    int r;
    if (!out || !id)
        return em_error(EM_ERR_INVALID_VALUE, "em_nccl_init_rank: NULL argument");
    if (nranks < 1 || rank < 0 || rank >= nranks)
        return em_error(EM_ERR_INVALID_VALUE, "em_nccl_init_rank: rank %d of "
                        "%d ranks", rank, nranks);
    if ((st = em_vendor_ready(&lib)) != EM_OK ||
        (st = cuda_device(d, "em_nccl_init_rank")) != EM_OK)
        return st;
    if (!(c = calloc(1, sizeof *c)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "em_nccl_init_rank: no memory");
    memcpy(u.internal, id, EM_NCCL_ID_BYTES);
    nvls_default();
    if ((r = nc.init_rank(&c->h, nranks, u, rank)) != 0) {
        free(c);
        return fail(r, "ncclCommInitRank");
    }
    c->dev = d;
    *out = c;
    return EM_OK;
}

em_status em_nccl_init_all(em_device *const *devs, int n, em_nccl_comm **out)
{
    nccl_comm_t *hs;
    int *ids, i, r;
    em_status st;
    if (!devs || !out || n < 1)
        return em_error(EM_ERR_INVALID_VALUE, "em_nccl_init_all: %d devices", n);
    if ((st = em_vendor_ready(&lib)) != EM_OK)
        return st;
    for (i = 0; i < n; i++)
        if ((st = cuda_device(devs[i], "em_nccl_init_all")) != EM_OK)
            return st;
    hs = calloc((size_t)n, sizeof *hs);
    ids = calloc((size_t)n, sizeof *ids);
    for (i = 0; hs && ids && i < n; i++) {
        ids[i] = em_device_get_id(devs[i]);
        if (!(out[i] = calloc(1, sizeof **out)))
            break;
    }
    if (!hs || !ids || i < n) {
        while (i-- > 0)
            free(out[i]);
        free(hs);
        free(ids);
        return em_error(EM_ERR_OUT_OF_MEMORY, "em_nccl_init_all: no memory");
    }
    nvls_default();
    r = nc.init_all(hs, n, ids);
    for (i = 0; i < n; i++) {
        if (r == 0) {
            out[i]->h = hs[i];
            out[i]->dev = devs[i];
        } else {
            free(out[i]);
            out[i] = NULL;
        }
    }
    free(hs);
    free(ids);
    return r == 0 ? EM_OK : fail(r, "ncclCommInitAll");
}

em_device *em_nccl_comm_device(const em_nccl_comm *c)
{
    return c ? c->dev : NULL;
}

em_status em_nccl_destroy(em_nccl_comm *c, int abort)
{
    em_status st;
    int r;
    if (!c)
        return EM_OK;
    if ((st = em_device_enter(c->dev)) != EM_OK)
        return st;
    r = abort ? nc.abort(c->h) : nc.destroy(c->h);
    free(c);
    return r == 0 ? EM_OK : fail(r, abort ? "ncclCommAbort" : "ncclCommDestroy");
}

/* The CUstream for s on c's device: s's own, or the thread's current
 * stream when it is of that device, else the device's default stream. */
static em_status stream_of(em_nccl_comm *c, em_stream *s, void **out)
{
    if (!s) {
        s = em_current_stream();
        if (s && em_stream_device(s) != c->dev)
            s = NULL;
    } else if (em_stream_device(s) != c->dev) {
        return em_error(EM_ERR_INVALID_VALUE, "NCCL call: the stream is on %s "
                        "but the communicator is on %s",
                        em_device_name(em_stream_device(s)),
                        em_device_name(c->dev));
    }
    *out = em_stream_native(s);
    return EM_OK;
}

em_status em_nccl_call(em_nccl_comm *c, em_nccl_kind kind, const void *send,
                       void *recv, size_t count, int dtype, int op, int root,
                       em_stream *s)
{
    void *cs = NULL;
    const char *what;
    em_status st;
    int r;
    if (!c)
        return em_error(EM_ERR_INVALID_VALUE, "em_nccl_call: communicator is NULL");
    if ((st = stream_of(c, s, &cs)) != EM_OK ||
        (st = em_device_enter(c->dev)) != EM_OK)
        return st;
    switch (kind) {
    case EM_NCCL_ALL_REDUCE:
        what = "ncclAllReduce";
        r = nc.all_reduce(send, recv, count, dtype, op, c->h, cs);
        break;
    case EM_NCCL_REDUCE:
        what = "ncclReduce";
        r = nc.reduce(send, recv, count, dtype, op, root, c->h, cs);
        break;
    case EM_NCCL_BROADCAST:
        what = "ncclBroadcast";
        r = nc.broadcast(send, recv, count, dtype, root, c->h, cs);
        break;
    case EM_NCCL_ALL_GATHER:
        what = "ncclAllGather";
        r = nc.all_gather(send, recv, count, dtype, c->h, cs);
        break;
    case EM_NCCL_REDUCE_SCATTER:
        what = "ncclReduceScatter";
        r = nc.reduce_scatter(send, recv, count, dtype, op, c->h, cs);
        break;
    case EM_NCCL_SEND:
        what = "ncclSend";
        r = nc.send(send, count, dtype, root, c->h, cs);
        break;
    case EM_NCCL_RECV:
        what = "ncclRecv";
        r = nc.recv(recv, count, dtype, root, c->h, cs);
        break;
    default:
        return em_error(EM_ERR_INVALID_VALUE, "em_nccl_call: kind %d", (int)kind);
    }
    return r ? fail(r, what) : EM_OK;
}

em_status em_nccl_group_start(void)
{
    em_status st = em_vendor_ready(&lib);
    int r;
    if (st != EM_OK)
        return st;
    return (r = nc.group_start()) ? fail(r, "ncclGroupStart") : EM_OK;
}

em_status em_nccl_group_end(void)
{
    em_status st = em_vendor_ready(&lib);
    int r;
    if (st != EM_OK)
        return st;
    return (r = nc.group_end()) ? fail(r, "ncclGroupEnd") : EM_OK;
}
