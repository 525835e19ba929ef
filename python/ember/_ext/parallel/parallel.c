/* ember Python extension: the `ember.parallel` namespace (transform,
 * reduce, scan, sort, select, histogram with user operators) and the
 * NumPy functions built on it (ember.sort, ember.cumsum, ember.unique,
 * ...). Each family's file lists its functions in two NULL-ended tables,
 * one for ember.parallel and one for the top-level namespace; this file
 * makes the submodule and registers both. */
#include "array/ndarray.h"

static int add_table(PyObject *ns, PyObject *self, PyObject *modname,
                     PyMethodDef *defs)
{
    for (PyMethodDef *def = defs; def->ml_name; def++) {
        PyObject *f = PyCFunction_NewEx(def, self, modname);
        if (!f || PyModule_AddObjectRef(ns, def->ml_name, f) < 0) {
            Py_XDECREF(f);
            return -1;
        }
        Py_DECREF(f);
    }
    return 0;
}

int empy_parallel_init(PyObject *m, empy_state *st)
{
    PyMethodDef *par[] = {empy_par_scan_functions, empy_par_sort_functions,
                          empy_par_hist_functions};
    PyMethodDef *top[] = {empy_np_scan_functions, empy_np_sort_functions,
                          empy_np_hist_functions};
    PyObject *ns = PyModule_New("ember.parallel"), *modname = NULL;
    int rc = -1;
    (void)st;
    if (!ns)
        return -1;
    if (!(modname = PyUnicode_FromString("ember.parallel")))
        goto done;
    for (size_t k = 0; k < sizeof par / sizeof *par; k++)
        if (add_table(ns, m, modname, par[k]) < 0)
            goto done;
    for (size_t k = 0; k < sizeof top / sizeof *top; k++)
        if (PyModule_AddFunctions(m, top[k]) < 0)
            goto done;
    rc = PyModule_AddObjectRef(m, "parallel", ns);
done:
    Py_XDECREF(modname);
    Py_DECREF(ns);
    return rc;
}
