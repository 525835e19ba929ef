/* ember Python extension: the launch path that RawKernel, Function (program.c)
 * and ember.cuda.jit's dispatcher (jit/) share; launch.c holds it. */
#ifndef EMPY_LAUNCH_H
#define EMPY_LAUNCH_H

#include "runtime/module.h"

int empy_program_init(PyObject *m, empy_state *st);   /* program.c */

typedef struct empy_kparam {
    size_t size;               /* bytes, from the loaded code; 0: unknown */
    int kind;                  /* em_param_kind, from the source; UNKNOWN:
                                * convert by size alone */
} empy_kparam;

/* An em_param_kind's name ("pointer", "int", ...), as Function.param_kinds
 * and the launch's messages say it; NULL for an unknown kind. */
const char *empy_param_kind_name(int k);

typedef struct empy_kslot {
    em_device *dev;
    em_function *fn;
    const char *name;          /* the kernel's name, owned by fn */
    int n_params;              /* -1: unknown */
    int is_cpu;
    size_t pack_bytes;         /* room the packed arguments need */
    struct empy_kslot *next;
    empy_kparam params[];      /* n_params entries */
} empy_kslot;

/* A slot for function f of device d (PyMem_RawMalloc'd); NULL with an
 * exception. */
empy_kslot *empy_kslot_new(em_device *d, em_function *f);

/* The parsed arguments of k(grid, block, args, shared_mem=0, stream=None,
 * *, cluster=1, cooperative=False). */
typedef struct {
    em_dim3 grid, block;
    em_dim3 cluster;    /* 1x1x1 when not given */
    int cooperative;
    size_t shared;
    PyObject *args;     /* borrowed */
    PyObject *stream;   /* borrowed; NULL when not given */
} empy_launch_call;

/* A grid or block argument: an int or a tuple/list of 1 to 3 ints (what
 * names it in messages); TypeError or ValueError. */
int empy_parse_dim(PyObject *o, const char *what, em_dim3 *d);

int empy_parse_launch(empy_state *st, const char *kname, PyObject *const *args,
                      size_t nargsf, PyObject *kwnames, empy_launch_call *lc);
/* Convert the arguments (the rare kinds through python/ember/_api/
 * launch_args.py), launch, and finish In/Out copies. */
PyObject *empy_launch(empy_state *st, empy_kslot *slot,
                      const empy_launch_call *lc, em_stream *stream);

#endif
