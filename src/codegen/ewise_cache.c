/* ember codegen: descriptor -> compiled elementwise kernel, per device.
 *
 * The hot path of every ufunc call: a kernel_table.h table keyed by the
 * 16-byte descriptor, read without a lock.
 */
#include <string.h>

#include "codegen/ewise.h"
#include "codegen/kernel_table.h"

int em_gen_device_units(em_device *dev)
{
    /* SMs (cuda) or cores (cpu), asked once per device; 0 = not yet. */
    static int units[2][EM_GEN_KT_DEVICES];
    int type = em_device_get_type(dev) == EM_DEVICE_CUDA,
        id = em_device_get_id(dev), u;
    em_device_props p;
    if (id < 0 || id >= EM_GEN_KT_DEVICES)
        return 1;
    if ((u = __atomic_load_n(&units[type][id], __ATOMIC_RELAXED)) > 0)
        return u;
    u = em_device_get_props(dev, &p) == EM_OK && p.multiprocessor_count > 0
            ? p.multiprocessor_count
            : 1;
    __atomic_store_n(&units[type][id], u, __ATOMIC_RELAXED);
    return u;
}

int em_gen_device_shared(em_device *dev, int per_block)
{
    /* bytes of shared memory per SM and per block (opted in), asked once
     * per device; 0 = not yet */
    static int got[2][EM_GEN_KT_DEVICES];
    int id = em_device_get_id(dev), u;
    em_device_props p;
    if (em_device_get_type(dev) != EM_DEVICE_CUDA || id < 0 ||
        id >= EM_GEN_KT_DEVICES)
        return 48 * 1024;
    if ((u = __atomic_load_n(&got[per_block != 0][id], __ATOMIC_RELAXED)) > 0)
        return u;
    if (em_device_get_props(dev, &p) != EM_OK)
        return 48 * 1024;
    u = per_block ? p.max_shared_per_block_optin
                  : p.max_shared_per_multiprocessor;
    if (u <= 0)
        u = 48 * 1024;
    __atomic_store_n(&got[per_block != 0][id], u, __ATOMIC_RELAXED);
    return u;
}

EM_GEN_KT_ONE_KERNEL(ewise, "ew", EM_GEN_EWISE_VERSION,
                     em_gen_ewise_options(t, &n))
