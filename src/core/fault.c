/* ember core: failure injection for tests (see fault.h). */
#include "core/fault.h"

int em_fault_armed;

static struct {
    uint64_t first, count, attempts;
} fault_state[EM_FAULT_NKINDS];

void em_fault_arm(em_fault_kind k, uint64_t first, uint64_t count)
{
    int any = 0, i;
    if ((unsigned)k >= EM_FAULT_NKINDS)
        return;
    __atomic_store_n(&fault_state[k].first, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&fault_state[k].attempts, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&fault_state[k].count, count, __ATOMIC_RELAXED);
    __atomic_store_n(&fault_state[k].first, first, __ATOMIC_RELEASE);
    for (i = 0; i < EM_FAULT_NKINDS; i++)
        any |= __atomic_load_n(&fault_state[i].first, __ATOMIC_ACQUIRE) != 0;
    __atomic_store_n(&em_fault_armed, any, __ATOMIC_RELEASE);
}

uint64_t em_fault_attempts(em_fault_kind k)
{
    if ((unsigned)k >= EM_FAULT_NKINDS)
        return 0;
    return __atomic_load_n(&fault_state[k].attempts, __ATOMIC_RELAXED);
}

int em_fault_hit_slow(em_fault_kind k)
{
    uint64_t first = __atomic_load_n(&fault_state[k].first, __ATOMIC_ACQUIRE), n;
    if (!first)
        return 0;
    n = __atomic_add_fetch(&fault_state[k].attempts, 1, __ATOMIC_RELAXED);
    return n >= first && n - first < __atomic_load_n(&fault_state[k].count, __ATOMIC_RELAXED);
}
