/* ember runtime: page-locked slots for small reads (see pinslot.h). */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "runtime/pinslot.h"

static pthread_mutex_t pin_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *pin_base;
static uint64_t pin_used; /* bit i: slot i is taken */
static int pin_failed;

_Static_assert(EM_PIN_SLOTS <= 64, "pin_used has a bit a slot");

void *em_pin_take(int clean)
{
    void *p = NULL;
    pthread_mutex_lock(&pin_lock);
    if (!pin_base && !pin_failed) {
        void *b = NULL;
        if (em_host_alloc(EM_PIN_SLOT_BYTES * EM_PIN_SLOTS, &b) == EM_OK) {
            pin_base = b;
            for (int i = 0; i < EM_PIN_SLOTS; i++)
                ((int64_t *)(pin_base + (size_t)i * EM_PIN_SLOT_BYTES))[7] = 1;
        } else {
            pin_failed = 1;
        }
    }
    for (int i = 0; pin_base && i < EM_PIN_SLOTS; i++) {
        unsigned char *q = pin_base + (size_t)i * EM_PIN_SLOT_BYTES;
        if (pin_used >> i & 1 ||
            (clean && !__atomic_load_n((int64_t *)q + 7, __ATOMIC_ACQUIRE)))
            continue;
        pin_used |= 1ull << i;
        p = q;
        break;
    }
    pthread_mutex_unlock(&pin_lock);
    return p;
}

int em_pin_index(const void *slot)
{
    return (int)(((const unsigned char *)slot - pin_base) / EM_PIN_SLOT_BYTES);
}

void em_pin_give(void *slot)
{
    pthread_mutex_lock(&pin_lock);
    pin_used &= ~(1ull << em_pin_index(slot));
    pthread_mutex_unlock(&pin_lock);
}

em_status em_read_small(em_device *dev, const void *src, void *host,
                        size_t n, em_stream *on)
{
    void *p = em_device_get_type(dev) == EM_DEVICE_CUDA &&
                      n <= EM_PIN_READ_BYTES
                  ? em_pin_take(0)
                  : NULL;
    em_status st;
    if (!p) {
        st = em_memcpy_async(dev, host, src, n, on);
        return st == EM_OK ? em_stream_synchronize(on) : st;
    }
    st = em_memcpy_async(dev, p, src, n, on);
    if (st == EM_OK)
        st = em_stream_synchronize(on);
    if (st == EM_OK)
        memcpy(host, p, n);
    em_pin_give(p);
    return st;
}
