/* ember Python extension: take, put, where and the other index functions. */
#include "ndarray.h"

static PyMethodDef indexfn_functions[] = {
    {NULL},
};

PyMethodDef empy_indexfn_nd_methods[] = {
    {NULL},
};

int empy_indexfn_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, indexfn_functions);
}
