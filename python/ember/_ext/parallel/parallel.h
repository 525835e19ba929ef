/* ember Python extension: the parallel algorithms (parallel.c registers
 * them). Each family file lists the C calls under ember.parallel
 * (python/ember/parallel/) and its top-level NumPy functions; the
 * ndarray's sorting methods are Python's (array/nd_python.c). */
#ifndef EMPY_PARALLEL_H
#define EMPY_PARALLEL_H

#include "array/ndarray.h"

int empy_parallel_init(PyObject *m, empy_state *st);
/* The C calls' array arguments: an ndarray (or None when none_ok, *out
 * NULL); -1 with TypeError. */
int empy_par_array(empy_state *st, PyObject *o, int none_ok,
                   const em_array **out);
extern PyMethodDef empy_par_scan_functions[];             /* parallel_scan.c */
extern PyMethodDef empy_par_sort_functions[],
    empy_np_sort_functions[];                             /* parallel_sort.c */
extern PyMethodDef empy_par_hist_functions[],
    empy_np_hist_functions[];                             /* parallel_hist.c */
extern PyMethodDef empy_par_csv_functions[];              /* parallel_csv.c */

#endif
