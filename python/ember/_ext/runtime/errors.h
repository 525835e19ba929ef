/* ember Python extension: the one place where an em_status becomes a Python
 * exception. */
#ifndef EMPY_ERRORS_H
#define EMPY_ERRORS_H

#include "runtime/module.h"

/* Raise the exception for s with the message of the last failure on this
 * thread (em_last_error); always returns NULL so callers can
 * `return empy_raise(st, s);`. Must be called on the thread that failed,
 * before any other ember call. */
PyObject *empy_raise(empy_state *st, em_status s);

/* As empy_raise, returning -1 for int-returning helpers. */
int empy_fail(empy_state *st, em_status s);

/* None for EM_OK, else empy_raise(st, s): the end of a call that returns
 * nothing. */
PyObject *empy_none_or_raise(empy_state *st, em_status s);

/* Raise for a failed compile: CompileError carrying the log (the given
 * one, else the message), the line it points at in `source` and that
 * line's text. Other statuses go to empy_raise. Returns NULL. */
PyObject *empy_raise_compile(empy_state *st, em_status s, const char *log,
                             const char *source);

/* The exception classes NumPy also has (numpy.exceptions; LinAlgError is
 * numpy.linalg's and is ember.linalg.LinAlgError, not ember's), by number:
 * the order of python/ember/_errors.py's table. */
enum {
    EMPY_EXC_AXIS,
    EMPY_EXC_COMPLEX_WARNING,
    EMPY_EXC_DTYPE_PROMOTION,
    EMPY_EXC_TOO_HARD,
    EMPY_EXC_VISIBLE_DEPRECATION,
    EMPY_EXC_RANK_WARNING,
    EMPY_EXC_LINALG
};

/* The class to raise (or warn with) for one of them, borrowed: a subclass
 * of NumPy's when NumPy is loaded (never imported here), else ember's own
 * base class, of which the former is a subclass. Never fails; keeps any
 * exception already set. */
PyObject *empy_np_exc(empy_state *st, int which);

#endif
