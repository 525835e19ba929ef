/* ember Python extension: joining, splitting, tiling, flipping and padding arrays. */
#include "ndarray.h"

static PyMethodDef manip_functions[] = {
    {NULL},
};

PyMethodDef empy_manip_nd_methods[] = {
    {NULL},
};

int empy_manip_init(PyObject *m, empy_state *st)
{
    (void)st;
    return PyModule_AddFunctions(m, manip_functions);
}
