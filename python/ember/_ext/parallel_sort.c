/* ember Python extension: the parallel algorithms' sort family. */
#include "ndarray.h"

PyMethodDef empy_par_sort_functions[] = {
    {NULL},
};

PyMethodDef empy_np_sort_functions[] = {
    {NULL},
};

PyMethodDef empy_sort_nd_methods[] = {
    {NULL},
};
