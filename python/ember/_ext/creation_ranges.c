/* ember Python extension: linspace, logspace, eye, identity, tri, meshgrid. */
#include "ndarray.h"

static PyMethodDef ranges_functions[] = {
    {NULL},
};

int empy_ranges_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, ranges_functions);
}
