/* ember algorithms: what bykey.c shares with scan_tuple.c. */
#ifndef EMBER_ALGO_BYKEY_INTERNAL_H
#define EMBER_ALGO_BYKEY_INTERNAL_H

#include "ember/array.h"

/* keys (checked as fn's 1-D keys) as a contiguous 1-D *kc and its head
 * flags (a new bool array: a run of equal keys starts here). values, when
 * not NULL, must be 1-D of the keys' length on their device. On failure
 * the caller still releases *kc and *heads (zeroed before the call). */
em_status em_bykey_heads(const char *fn, const em_array *keys,
                         const em_array *values, em_stream *on, em_array *kc,
                         em_array *heads);

#endif
