/* ember Python extension: the C calls under ember.parallel
 * (python/ember/parallel/, which checks their arguments) and the NumPy
 * functions built on the same algorithms (ember.sort, ember.unique, ...).
 * Each family's file lists its functions in NULL-ended tables. */
#include "array/ndarray.h"

int empy_parallel_init(PyObject *m, empy_state *st)
{
    PyMethodDef *tables[] = {empy_par_scan_functions, empy_par_sort_functions,
                             empy_par_hist_functions, empy_np_sort_functions,
                             empy_np_hist_functions};
    (void)st;
    for (size_t k = 0; k < sizeof tables / sizeof *tables; k++)
        if (PyModule_AddFunctions(m, tables[k]) < 0)
            return -1;
    return 0;
}
