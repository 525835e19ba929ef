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

/* The member entry of a type whose objects carry their own vectorcall
 * pointer in a field named vectorcall: CPython finds it (PEP 590) through
 * __vectorcalloffset__. */
#define EMPY_VECTORCALL_MEMBER(type)                                 \
    {"__vectorcalloffset__", EMPY_T_PYSSIZET, offsetof(type, vectorcall), \
     EMPY_READONLY, NULL}

#endif
