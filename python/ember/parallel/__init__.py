"""ember.parallel: CUB/Thrust-style device-wide algorithms (scans,
reductions, transforms, compaction, sorts, searches, histograms) with
user operators: a built-in's name, a C expression over a and b, or a
Python device function (ember.cuda.jit(device=True)). The argument
handling is here; the algorithms are the C core's (include/ember/scan.h,
sort.h)."""
from ember._ember import _par_histogram_even as histogram_even
from ember.parallel._scan import (exclusive_scan, inclusive_scan, partition,
                                  reduce, reduce_by_key, run_length_encode,
                                  scan_by_key, segmented_reduce, select,
                                  transform, unique_by_key)
from ember.parallel._sort import (lower_bound, merge, merge_sort, radix_sort,
                                  top_k, upper_bound)

__all__ = ["exclusive_scan", "histogram_even", "inclusive_scan",
           "lower_bound", "merge", "merge_sort", "partition", "radix_sort",
           "reduce", "reduce_by_key", "run_length_encode", "scan_by_key",
           "segmented_reduce", "select", "top_k", "transform",
           "unique_by_key", "upper_bound"]
