/* ember Python extension: the spellings of PyMemberDef's type and flag
 * constants, which Python 3.12 moved from structmember.h (T_PYSSIZET,
 * READONLY) into Python.h (Py_T_PYSSIZET, Py_READONLY). */
#ifndef EMPY_MEMBER_COMPAT_H
#define EMPY_MEMBER_COMPAT_H

#include <Python.h>

#if PY_VERSION_HEX >= 0x030C0000
#define EMPY_T_PYSSIZET Py_T_PYSSIZET
#define EMPY_READONLY Py_READONLY
#else
#include <structmember.h>
#define EMPY_T_PYSSIZET T_PYSSIZET
#define EMPY_READONLY READONLY
#endif

#endif
