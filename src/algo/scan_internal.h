/* ember algorithms: what the device-wide scan (em_scan) and the NumPy
 * cumulative functions (em_cumulate) share; defined in src/algo/scan.c. */
#ifndef EMBER_ALGO_SCAN_INTERNAL_H
#define EMBER_ALGO_SCAN_INTERNAL_H

#include "array/array_internal.h"

/* EM_ERR_NOT_SUPPORTED, naming fn and what ("the input"), when x is on a
 * GPU and its data or the stride of an axis longer than 1 is not a
 * multiple of its dtype's alignment, which the scan kernels' loads need.
 * EM_OK for other devices and empty arrays. */
em_status em_scan_check_aligned(const em_array *x, const char *fn,
                                const char *what);

/* x's elements in C order as a 1-D array in *flat: a view when x's layout
 * has one, else a view of a contiguous copy made on stream on. */
em_status em_scan_flat_source(const em_array *x, em_stream *on, em_array *flat);

#endif
