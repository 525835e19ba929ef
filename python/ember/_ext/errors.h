/* ember Python extension: the one place where an em_status becomes a Python
 * exception. */
#ifndef EMPY_ERRORS_H
#define EMPY_ERRORS_H

#include "module.h"

/* Raise the exception for s with the message of the last failure on this
 * thread (em_last_error); always returns NULL so callers can
 * `return empy_raise(st, s);`. Must be called on the thread that failed,
 * before any other ember call. */
PyObject *empy_raise(empy_state *st, em_status s);

/* As empy_raise, returning -1 for int-returning helpers. */
int empy_fail(empy_state *st, em_status s);

/* Raise for a failed compile: CompileError carrying the log (the given
 * one, else the message), the line it points at in `source` and that
 * line's text. Other statuses go to empy_raise. Returns NULL. */
PyObject *empy_raise_compile(empy_state *st, em_status s, const char *log,
                             const char *source);

#endif
