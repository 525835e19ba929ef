/* ember Python extension: products (dot, matmul, ...) and cumulative sums. */
#include "ndarray.h"

static PyMethodDef linalg_functions[] = {
    {NULL},
};

PyMethodDef empy_linalg_nd_methods[] = {
    {NULL},
};

int empy_linalg_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, linalg_functions);
}
