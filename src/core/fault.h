/* ember internal: failure injection for tests (src/core/fault.c).
 *
 * A test arms a kind of operation with (first, count): from then on the
 * attempts of that kind are numbered from 1, and those numbered first ..
 * first+count-1 fail as the real failure would (a full device, a compiler
 * error, a full disk). Walking first over 1, 2, ... until an operation
 * makes fewer attempts than first reaches every failure point of the
 * operation in turn. Off, the check is one relaxed load of a flag, so the
 * hooks stay in release builds. Not public API: tests include this file. */
#ifndef EMBER_CORE_FAULT_H
#define EMBER_CORE_FAULT_H

#include <stdint.h>

typedef enum em_fault_kind {
    EM_FAULT_DEVICE_ALLOC,  /* a raw allocation by a device's memory pool */
    EM_FAULT_COMPILE,       /* a compile by the kernel cache (a miss) */
    EM_FAULT_DISK_WRITE,    /* a write of a disk-cache entry */
    EM_FAULT_NKINDS
} em_fault_kind;

/* Arm kind k (first 0: disarm) and restart its numbering. */
void em_fault_arm(em_fault_kind k, uint64_t first, uint64_t count);

/* Attempts of kind k since it was last armed. */
uint64_t em_fault_attempts(em_fault_kind k);

extern int em_fault_armed;      /* a kind is armed: the slow path counts */
int em_fault_hit_slow(em_fault_kind k);

/* Whether this attempt of kind k must fail; counts it when armed. */
static inline int em_fault_hit(em_fault_kind k)
{
    return __atomic_load_n(&em_fault_armed, __ATOMIC_RELAXED) && em_fault_hit_slow(k);
}

#endif
