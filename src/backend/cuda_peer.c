/* ember backend: whether one GPU may read another's memory directly (peer
 * to peer over NVLink or PCIe), with access enabled lazily, once per
 * ordered pair of devices, the first time a copy between them asks.
 *
 * The answer is cached in a byte per pair read without a lock, so a copy
 * between two GPUs, from any thread, costs one load once the pair is
 * known; the lock is taken only to settle a pair the first time. A pair
 * where cuDeviceCanAccessPeer says no, or whose enabling fails, is
 * remembered as staged: transfer.c then copies through pinned host
 * memory, as it does for every pair without a driver that has these
 * functions. */
#include <pthread.h>

#include "backend/backend.h"
#include "backend/cuda_api.h"

#define PEER_MAX 64
enum { UNKNOWN, DIRECT, STAGED };

static unsigned char pair[PEER_MAX][PEER_MAX];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The primary context of d, which em_device_enter makes current. */
static int context_of(em_device *d, CUcontext *c)
{
    return em_device_enter(d) == EM_OK &&
           em_cuda_drv.cuCtxGetCurrent(c) == CUDA_SUCCESS && *c;
}

/* Settle the pair (to reads from): can `to`'s context map `from`'s
 * memory, and enable it. */
static int settle(em_device *to, em_device *from)
{
    CUdevice dt, df;
    CUcontext cf;
    CUresult r;
    int can = 0;
    if (!em_cuda_drv.cuDeviceCanAccessPeer || !em_cuda_drv.cuCtxEnablePeerAccess ||
        em_cuda_drv.cuDeviceGet(&dt, em_device_get_id(to)) != CUDA_SUCCESS ||
        em_cuda_drv.cuDeviceGet(&df, em_device_get_id(from)) != CUDA_SUCCESS ||
        em_cuda_drv.cuDeviceCanAccessPeer(&can, dt, df) != CUDA_SUCCESS || !can ||
        !context_of(from, &cf) || em_device_enter(to) != EM_OK)
        return STAGED;
    r = em_cuda_drv.cuCtxEnablePeerAccess(cf, 0);
    /* 704: CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED (another library did) */
    return r == CUDA_SUCCESS || r == 704 ? DIRECT : STAGED;
}

int em_cuda_peer_ready(em_device *to, em_device *from)
{
    int a = em_device_get_id(to), b = em_device_get_id(from), v;
    if (em_device_get_type(to) != EM_DEVICE_CUDA ||
        em_device_get_type(from) != EM_DEVICE_CUDA || a == b ||
        a < 0 || b < 0 || a >= PEER_MAX || b >= PEER_MAX)
        return 0;
    v = __atomic_load_n(&pair[a][b], __ATOMIC_ACQUIRE);
    if (v == UNKNOWN) {
        pthread_mutex_lock(&lock);
        if ((v = pair[a][b]) == UNKNOWN) {
            v = settle(to, from);
            __atomic_store_n(&pair[a][b], (unsigned char)v, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
    }
    return v == DIRECT;
}
