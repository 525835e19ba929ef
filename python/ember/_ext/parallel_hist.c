/* ember Python extension: the parallel algorithms' hist family. */
#include "ndarray.h"

PyMethodDef empy_par_hist_functions[] = {
    {NULL},
};

PyMethodDef empy_np_hist_functions[] = {
    {NULL},
};

PyMethodDef empy_hist_nd_methods[] = {
    {NULL},
};
