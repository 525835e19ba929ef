/* ember Python extension: the spellings of PyMemberDef's type and flag
 * constants, which Python 3.12 moved from structmember.h (T_PYSSIZET,
 * READONLY) into Python.h (Py_T_PYSSIZET, Py_READONLY). */
#ifndef EMPY_MEMBER_COMPAT_H
#define EMPY_MEMBER_COMPAT_H

#include <Python.h>

#if PY_VERSION_HEX >= 0x030C0000
#define EMPY_T_PYSSIZET Py_T_PYSSIZET
#define EMPY_T_U64 Py_T_ULONGLONG
#define EMPY_T_OBJECT Py_T_OBJECT_EX
#define EMPY_READONLY Py_READONLY
#else
#include <structmember.h>
#define EMPY_T_PYSSIZET T_PYSSIZET
#define EMPY_T_U64 T_ULONGLONG
#define EMPY_T_OBJECT T_OBJECT_EX
#define EMPY_READONLY READONLY
#endif

/* EMPY_T_U64 reads a pointer, uintptr_t or size_t field whole: ember
 * builds for 64-bit targets only. */
_Static_assert(sizeof(void *) == 8 && sizeof(size_t) == 8, "a 64-bit target");

/* The member entry of a type whose objects carry their own vectorcall
 * pointer in a field named vectorcall: CPython finds it (PEP 590) through
 * __vectorcalloffset__. */
#define EMPY_VECTORCALL_MEMBER(type)                                 \
    {"__vectorcalloffset__", EMPY_T_PYSSIZET, offsetof(type, vectorcall), \
     EMPY_READONLY, NULL}

#endif
