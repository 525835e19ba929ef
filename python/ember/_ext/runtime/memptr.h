/* ember Python extension: ember.cuda.UnownedMemory and MemoryPointer, the
 * objects memptr.c makes and ndarray_memory.c reads (a.data, the ndarray
 * constructor). */
#ifndef EMPY_MEMPTR_H
#define EMPY_MEMPTR_H

#include "runtime/module.h"

#define EMPY_SIZE_UNKNOWN ((size_t)-1)

typedef struct {
    PyObject_HEAD
    uintptr_t ptr;
    size_t size;
    PyObject *owner;
    em_device *dev;
} empy_Unowned;

typedef struct {
    PyObject_HEAD
    PyObject *mem;      /* UnownedMemory, Buffer, or any object with .ptr */
    uintptr_t ptr;      /* absolute address */
    uintptr_t base;     /* mem's start, and its size (EMPY_SIZE_UNKNOWN for a
                           foreign memory object without .size) */
    size_t size;
    em_device *dev;
} empy_MemPtr;

/* A new MemoryPointer at ptr inside mem (start base, size bytes or
 * EMPY_SIZE_UNKNOWN) on dev. */
PyObject *empy_memptr_make(empy_state *st, PyObject *mem, uintptr_t base, size_t size,
                           em_device *dev, uintptr_t ptr);

int empy_memptr_init(PyObject *m, empy_state *st);

#endif
