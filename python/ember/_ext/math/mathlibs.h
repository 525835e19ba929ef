/* ember Python extension: the math folder's modules (the raw calls of
 * ember.random, ember.fft, cuSOLVER/cuSPARSE and LAPACK that the Python
 * layers compose), as module.c sets them up. */
#ifndef EMPY_MATHLIBS_H
#define EMPY_MATHLIBS_H

#include "runtime/module.h"

int empy_random_init(PyObject *m, empy_state *st);      /* random.c */
int empy_fft_init(PyObject *m, empy_state *st);         /* fft.c */
int empy_cusolver_init(PyObject *m, empy_state *st);    /* cusolver.c */
int empy_lapack_init(PyObject *m, empy_state *st);      /* lapack.c */

#endif
