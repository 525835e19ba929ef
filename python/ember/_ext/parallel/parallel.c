/* ember Python extension: the C calls under ember.parallel
 * (python/ember/parallel/, which checks their arguments) and the NumPy
 * functions built on the same algorithms (ember.sort, ember.unique, ...).
 * Each family's file lists its functions in NULL-ended tables. */
#include "parallel/parallel.h"

int empy_par_array(empy_state *st, PyObject *o, int none_ok,
                   const em_array **out)
{
    *out = NULL;
    if (none_ok && o == Py_None)
        return 0;
    if (!PyObject_TypeCheck(o, st->ndarray)) {
        PyErr_Format(PyExc_TypeError, "expected an ember ndarray%s, not %.100s",
                     none_ok ? " or None" : "", Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = EMPY_ARR(o);
    return 0;
}

int empy_parallel_init(PyObject *m, empy_state *st)
{
    PyMethodDef *tables[] = {empy_par_scan_functions, empy_par_sort_functions,
                             empy_par_hist_functions, empy_np_sort_functions,
                             empy_np_hist_functions, empy_par_csv_functions};
    (void)st;
    for (size_t k = 0; k < sizeof tables / sizeof *tables; k++)
        if (PyModule_AddFunctions(m, tables[k]) < 0)
            return -1;
    return 0;
}
