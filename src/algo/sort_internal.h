/* ember algorithms: what the sort, search and top-k files share. */
#ifndef EMBER_ALGO_SORT_INTERNAL_H
#define EMBER_ALGO_SORT_INTERNAL_H

#include <string.h>

#include "array/array_internal.h"
#include "codegen/sort.h"
#include "ember/sort.h"

/* The start of a call that makes out_keys, and out_values when there
 * are values: EM_ERR_INVALID_VALUE naming fn when keys, out_keys or that
 * out_values is NULL, else both outputs cleared. */
static inline em_status em_srt_outs_begin(const char *fn,
                                          const em_array *keys,
                                          const em_array *values,
                                          em_array *out_keys,
                                          em_array *out_values)
{
    if (!keys || !out_keys || (values && !out_values))
        return em_error(EM_ERR_INVALID_VALUE, "%s: NULL argument", fn);
    memset(out_keys, 0, sizeof *out_keys);
    if (out_values)
        memset(out_values, 0, sizeof *out_values);
    return EM_OK;
}

/* The end of such a call: on failure the outputs give back what they
 * hold. Returns st. */
static inline em_status em_srt_outs_end(em_status st, em_array *out_keys,
                                        em_array *out_values)
{
    if (st != EM_OK) {
        em_array_release(out_keys);
        if (out_values)
            em_array_release(out_values);
    }
    return st;
}

/* One key of a (possibly multi-key) radix order: element j's key is at
 * keys + j * stride, read as dtype (for a complex dtype: one component,
 * or with group set, NumPy's NaN group of the whole number). Bits
 * [begin, end) of its image take part. */
typedef struct em_srt_key {
    em_dtype dtype;
    const char *keys;
    long long stride;
    int group, desc, begin, end;
} em_srt_key;

/* The stable order of n elements by keys[0] (least significant) ...
 * keys[nkeys - 1], then (rowlen > 0) by row (flat index / rowlen), the
 * most significant: *perm gets an int64 permutation of n elements from
 * em_malloc on s (the caller em_frees it on s). n > 0. */
em_status em_srt_order(em_device *dev, long long n, long long rowlen,
                       const em_srt_key *keys, int nkeys, em_stream *s,
                       long long **perm);

/* Keys-only: the one integer or bool key sorted into keys_out (the
 * dtype's items, contiguous) without a permutation. */
em_status em_srt_sort_keys(em_device *dev, long long n, const em_srt_key *key,
                           void *keys_out, em_stream *s);

/* Whether a dtype's keys-only sort may skip the permutation (its image
 * maps back to the exact key: integers and bool). */
static inline int em_srt_keys_only(em_dtype d)
{
    return d == EM_BOOL || (d >= EM_INT8 && d <= EM_UINT64);
}

/* dst[i] = src[perm[i]] for n items of itemsize bytes (contiguous). */
em_status em_srt_gather(em_device *dev, const void *src, const long long *perm,
                        void *dst, long long n, size_t itemsize, em_stream *s);

/* Launch a grid-stride kernel over n items. */
em_status em_srt_launch_n(em_function *f, em_device *dev, long long n,
                          void **args, em_stream *s);

/* A C-contiguous, aligned copy of a (or another reference when a is one
 * already). */
em_status em_srt_contiguous(const em_array *a, em_stream *s, em_array *out);

/* The merge-pass kernels (srt_merge, srt_iota) for keys of dt under the
 * comparator expression expr (malloc'd source for target). */
em_status em_srt_merge_source(em_dtype dt, const char *expr,
                              em_device_type target, char **out);

/* Whether em_srt_fast sorts n keys of dt with values of vsize bytes (0:
 * none) on dev. */
int em_srt_fast_ok(em_device *dev, long long n, em_dtype dt, size_t vsize);

/* The stable radix sort that moves the raw keys (radix_onesweep.c): n
 * contiguous keys of dt by bits [begin, end) of their image (descending
 * when desc) into kout, and values (vsize bytes each; vals NULL with vout
 * given: the keys' input positions as int64, vsize 8) into vout. keys
 * and kout must not overlap. Call only where em_srt_fast_ok. */
em_status em_srt_fast(em_device *dev, long long n, em_dtype dt,
                      const void *keys, int desc, int begin, int end,
                      const void *vals, size_t vsize, void *kout, void *vout,
                      em_stream *s);

/* The chunked passes' counts (counts[c * 256 + d], nchunks chunks): the
 * bytes to allocate (room for the scan's group sums), and the scan that
 * turns them into output positions (digits in order, then chunks). */
size_t em_srt_counts_bytes(long long nchunks);
em_status em_srt_scan_counts(em_device *dev, long long *counts,
                             long long nchunks, em_stream *s);

/* The image width in bits of a key dtype (0: not sortable by radix). */
int em_srt_key_bits(em_dtype d);

#endif
