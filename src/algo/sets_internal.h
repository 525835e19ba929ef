/* ember algorithms: what unique.c and setops.c share. */
#ifndef EMBER_ALGO_SETS_INTERNAL_H
#define EMBER_ALGO_SETS_INTERNAL_H

#include "ember/histogram.h"

/* The working dtype of a sort-based set operation on dt (float16 and
 * bfloat16 as float32; complex is EM_ERR_TYPE naming fn). */
em_status em_sets_work_dtype(em_dtype dt, const char *fn, em_dtype *out);

/* a's elements in C order as a 1-d contiguous array of dtype dt (a view
 * when a already is one). */
em_status em_sets_flat(const em_array *a, em_dtype dt, em_stream *on,
                       em_array *out);

/* Flags over sorted 1-d s (codegen/histogram.h's FLAGS kernel with
 * `flags`): a new bool array of s's length. */
em_status em_sets_flags(const em_array *s, int flags, em_stream *on,
                        em_array *out);

/* The flag kinds of em_sets_flags (codegen/histogram.h's values, kept
 * here so that setops.c needs no codegen header). */
#define EM_GEN_UNIQ_DUP_FLAG 8
#define EM_GEN_UNIQ_XOR_FLAG 32

/* x[f] for 1-d x and bool f of one length; *pos (NULL: not wanted) gets
 * the int64 positions. One small read (the count). */
em_status em_sets_compress(const em_array *x, const em_array *f, em_stream *on,
                           em_array *out, em_array *pos);

#endif
