/* ember Python extension: reductions (sum, mean, argmax, ...) over em_reduce. */
#include "ndarray.h"

static PyMethodDef reduction_functions[] = {
    {NULL},
};

PyMethodDef empy_reduction_nd_methods[] = {
    {NULL},
};

int empy_reduction_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, reduction_functions);
}
