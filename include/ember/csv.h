/* ember: the CSV tokenizer and field converters behind ember.frame's
 * read_csv. Three kernels, the same source on every backend
 * (kernels/csv.cuh), over the file's bytes on the device that will hold
 * the result:
 *   em_csv_count   per chunk of the bytes: its quotes, and its field ends
 *                  under each guess of the quoting at its start;
 *   em_csv_fields  given the real quoting at each chunk's start (an
 *                  exclusive scan of the quote counts) and each chunk's
 *                  first output place (a scan of the picked counts): every
 *                  field end's byte position and whether it ends a row;
 *   em_csv_parse   one column's fields: their class (null, int64,
 *                  uint64, float64, bool or none of those), or their
 *                  values of one type.
 * The scans between them are the caller's (ember's cumsum). The bytes
 * must end with a newline (the caller appends one). Every call is ordered
 * on s (NULL: the device's current stream) and never synchronises. */
#ifndef EMBER_CSV_H
#define EMBER_CSV_H

#include "ember/array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Classes em_csv_parse(EM_CSV_CLASSIFY) writes, as bits. */
enum {
    EM_CSV_NA = 1,        /* a null: empty or one of the NA strings */
    EM_CSV_NOT_INT = 2,   /* not an int64 */
    EM_CSV_NOT_FLOAT = 4, /* not a float64 */
    EM_CSV_NOT_BOOL = 8,  /* not True/TRUE/true/False/FALSE/false */
    EM_CSV_NOT_UINT = 16, /* not a uint64 */
    EM_CSV_SLOW = 32,     /* a float left to the caller (cuda: past the
                           * exact 128-bit path) */
    EM_CSV_BIGINT = 64    /* an integer beyond int64 and uint64 */
};

/* em_csv_parse's modes. */
typedef enum em_csv_mode {
    EM_CSV_CLASSIFY = 0, /* cls: the class bits of each row; out (int64,
                          * optional): the value as int64 bits where the
                          * class is int, uint64 where uint, else float64
                          * (NaN for nulls and EM_CSV_SLOW fields) */
    EM_CSV_INT64 = 1,    /* out int64 (nulls 0) */
    EM_CSV_FLOAT64 = 2,  /* out float64 (nulls NaN); cls: EM_CSV_SLOW */
    EM_CSV_BOOL = 3,     /* out bool (nulls false) */
    EM_CSV_STRLEN = 4,   /* out int64: the unquoted length (nulls 0) */
    EM_CSV_STRCOPY = 5,  /* out uint8: the unquoted bytes at soff[row] */
    EM_CSV_UINT64 = 6,   /* out uint64 (nulls 0) */
    EM_CSV_BLANK = 7,    /* out uint8: 1 where only spaces and tabs */
    EM_CSV_DATETIME = 8  /* out int64: ns since the epoch of an ISO date
                          * (YYYY-MM-DD[( |T)HH:MM[:SS[.f]]]), INT64_MIN
                          * for a null or another text; cls: the form's
                          * code (1 date, |2 minutes, |4 seconds, |8 'T',
                          * |16 a fraction, |32 over 6 fraction digits;
                          * 0 none, 255 a null) */
} em_csv_mode;

/* Pass one over bytes (uint8, 1-d, contiguous): *counts, a new int64
 * array (chunks, 3) of each chunk's quote bytes, field ends when it
 * starts outside quotes, and field ends when it starts inside; *chunk the
 * bytes per chunk picked for the device. sep and quote are bytes (quote
 * -1 for none). */
em_status em_csv_count(const em_array *bytes, int sep, int quote,
                       em_array *counts, int64_t *chunk, em_stream *s);

/* Pass two: *ends (int64) and *rowend (uint8), new arrays of `total`
 * elements: each field end's position and 1 where it is a newline. qpre:
 * the quote bytes before each chunk (int64), offs: each chunk's first
 * output place (int64, chunks + 1), chunk as em_csv_count set it. */
em_status em_csv_fields(const em_array *bytes, int sep, int quote,
                        int64_t chunk, const em_array *qpre,
                        const em_array *offs, int64_t total, em_array *ends,
                        em_array *rowend, em_stream *s);

/* One column's rows: field k = base + row * ncols + col spans from
 * starts[k] (or, without starts, the byte after ends[k - 1], 0 for k = 0)
 * to ends[k]. na and na_off: the null strings as bytes and int64 offsets.
 * out (the mode's dtype, nrows elements; for EM_CSV_STRCOPY the bytes,
 * placed by soff) and cls (uint8, nrows) are the caller's. With col -1
 * (EM_CSV_CLASSIFY only) every column is done in one pass over the rows,
 * column c into elements [c * nrows, (c + 1) * nrows) of out and cls. */
em_status em_csv_parse(const em_array *bytes, const em_array *starts,
                       const em_array *ends, int64_t base, int64_t nrows,
                       int64_t ncols, int64_t col, int quote, em_csv_mode mode,
                       const em_array *na, const em_array *na_off,
                       em_array *out, em_array *cls, const em_array *soff,
                       em_stream *s);

#ifdef __cplusplus
}
#endif

#endif
