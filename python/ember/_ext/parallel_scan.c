/* ember Python extension: the parallel algorithms' scan family. */
#include "ndarray.h"

PyMethodDef empy_par_scan_functions[] = {
    {NULL},
};

PyMethodDef empy_np_scan_functions[] = {
    {NULL},
};

PyMethodDef empy_scan_nd_methods[] = {
    {NULL},
};
