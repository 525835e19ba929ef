/* ember internal: page-locked slots for small reads of device results.
 *
 * A read into page-locked memory is one DMA on the stream, where pageable
 * memory goes through the driver's staging copy first; the sizes of
 * compactions, unique's counters and bincount's extremes are read this
 * way. One 4 KiB block, made on first use and kept for the process;
 * slots are taken under a lock, and with all taken a read goes the
 * pageable way. A slot's words 0-5 hold what is read (at most
 * EM_PIN_READ_BYTES: unique's five counter words fit). Word 7 is bincount's: nonzero while the part of the
 * device scratch with the slot's number is at zero. Its kernel sets it at
 * its very end, which may come after the host gave the slot back, so
 * only a slot so marked is lent with `clean` (see algo/histogram.c).
 */
#ifndef EMBER_RT_PINSLOT_H
#define EMBER_RT_PINSLOT_H

#include <stddef.h>

#include "ember/ember.h"

#define EM_PIN_SLOT_BYTES 64
#define EM_PIN_SLOTS 64
#define EM_PIN_READ_BYTES 48

/* A free slot (with clean, one whose word 7 is set), or NULL when none
 * is free or page-locked memory could not be had. */
void *em_pin_take(int clean);
void em_pin_give(void *slot);
/* The slot's number, 0 to EM_PIN_SLOTS - 1. */
int em_pin_index(const void *slot);

/* n bytes at src (memory of dev) into host once the work queued on `on`
 * is done: through a slot when dev is a GPU and n <= EM_PIN_READ_BYTES,
 * else a plain copy and a synchronisation. */
em_status em_read_small(em_device *dev, const void *src, void *host,
                        size_t n, em_stream *on);

#endif
