/* ember: the on-disk store of compiled kernels.
 *
 * Entries live in $EMBER_CACHE_DIR, else $XDG_CACHE_HOME/ember, else
 * ~/.cache/ember (created with mode 0700). Each entry is one file, written to
 * a unique temporary name and renamed into place, so readers in other
 * processes see either nothing or a whole entry. An entry stores an identity
 * (the bytes that define what was compiled: key, options, source) and a
 * payload (the compiled code), with a hash over both; a load that finds a
 * short, altered or foreign file removes it and reports EM_ERR_NOT_FOUND, so
 * the caller recompiles and stores a good one.
 *
 * This layer knows nothing of CUDA: identities and payloads are bytes.
 */
#ifndef EMBER_DISKCACHE_H
#define EMBER_DISKCACHE_H

#include <stddef.h>
#include <stdint.h>
#include "ember/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cache directory (not created). Returns a string owned by ember. */
const char *em_diskcache_dir(void);

/* Load the entry called name (a file name of [0-9a-zA-Z_.-], no slashes) whose
 * identity equals ident. On success *payload is malloc'd (caller frees) and
 * *size set. EM_ERR_NOT_FOUND when absent, damaged (then removed) or when
 * its identity differs (a hash collision; left in place). */
em_status em_diskcache_load(const char *name, const void *ident,
                            size_t ident_size, void **payload, size_t *size);

/* Store an entry atomically. Failure to write (read-only disk, full disk) is
 * reported but callers may treat it as a warning: the cache is an
 * optimisation. Creates the directory with mode 0700 if missing. */
em_status em_diskcache_store(const char *name, const void *ident,
                             size_t ident_size, const void *payload,
                             size_t size);

/* Count entries and their total bytes (for `python -m ember info`). */
em_status em_diskcache_usage(uint64_t *entries, uint64_t *bytes);

/* Remove every entry (files this layer wrote; nothing else). */
em_status em_diskcache_clear(void);

#ifdef __cplusplus
}
#endif
#endif
