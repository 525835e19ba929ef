/* ember runtime: host buffers for transfers.
 *
 * Page-locked through the CUDA driver when it works (copies from them run
 * at full bandwidth and may be asynchronous), else ordinary aligned memory
 * so the same code runs on a machine without a GPU. */
#include <stdlib.h>
#include "runtime.h"

#define HOSTMEM_ALIGN 256   /* as em_malloc's blocks */

em_status em_host_alloc(size_t nbytes, void **ptr)
{
    size_t n = nbytes ? nbytes : 1;   /* a distinct pointer for size 0 too */
    em_status s;
    int n_gpus = 0;
    if (!ptr)
        return em_error(EM_ERR_INVALID_VALUE, "em_host_alloc: ptr is NULL");
    *ptr = NULL;
    /* em_device_count starts the backend without touching the thread's
     * error message, which a successful call must leave alone. */
    em_device_count(EM_DEVICE_CUDA, &n_gpus);
    if (em_rt_backend_usable(EM_DEVICE_CUDA)) {
        s = em_cuda_host_alloc(n, ptr);
        if (s != EM_ERR_UNAVAILABLE)
            return s;
    }
    if (posix_memalign(ptr, HOSTMEM_ALIGN, n) != 0) {
        *ptr = NULL;
        return em_error(EM_ERR_OUT_OF_MEMORY,
                        "out of host memory allocating %zu bytes", nbytes);
    }
    return EM_OK;
}

em_status em_host_free(void *ptr)
{
    if (!ptr)
        return EM_OK;
    /* Without a started driver no pointer can be page-locked, and asking
     * the cuda backend would be pointless. */
    if (em_rt_backend_usable(EM_DEVICE_CUDA) && em_cuda_is_host_alloc(ptr))
        return em_cuda_host_free(ptr);
    free(ptr);
    return EM_OK;
}
