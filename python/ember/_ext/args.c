/* ember Python extension: keyword parsing for vectorcall functions, shared
 * by every module function that takes named arguments. */
#include <string.h>

#include "ndarray.h"

int empy_parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames, const char *const *names, int npos,
                    int nrequired, PyObject **vals)
{
    Py_ssize_t i, nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    int n = 0, j;
    while (names[n])
        n++;
    for (j = 0; j < n; j++)
        vals[j] = NULL;
    if (nargs > npos) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments "
                     "(%zd given)", fname, npos, nargs);
        return -1;
    }
    for (i = 0; i < nargs; i++)
        vals[i] = args[i];
    for (i = 0; i < nkw; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        const char *ks = PyUnicode_AsUTF8(k);
        if (!ks)
            return -1;
        for (j = 0; j < n; j++)
            if (!strcmp(ks, names[j]))
                break;
        if (j == n) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword "
                         "argument '%s'", fname, ks);
            return -1;
        }
        if (vals[j]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument "
                         "'%s'", fname, ks);
            return -1;
        }
        vals[j] = args[nargs + i];
    }
    for (j = 0; j < nrequired; j++) {
        if (!vals[j]) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'",
                         fname, names[j]);
            return -1;
        }
    }
    return 0;
}
