/* ember internal: hooks of the disk cache that are not public API. */
#ifndef EMBER_DISKCACHE_INTERNAL_H
#define EMBER_DISKCACHE_INTERNAL_H

#include "ember/diskcache.h"

/* The file name suffix of an entry: em_diskcache_usage and _clear count and
 * remove only files that end with it. */
#define EM_DISKCACHE_SUFFIX ".emk"

/* Forget the directory computed from the environment, so the next call reads
 * EMBER_CACHE_DIR (or its fallbacks) again. For tests only: not safe while
 * another thread uses the cache or holds em_diskcache_dir()'s string. */
void em_diskcache_reset_for_tests(void);

#endif
