/* ember Python extension: what the files of ember.cuda.jit share
 * (jit_dispatch.c: the Dispatcher's C base; jit_launch.c: LaunchConfig and
 * the launch; jit_compile.c: making specialisations; jit_args.c: argument
 * type codes and parameter packing). docs/jit-design.md is the contract with the
 * translator (python/ember/jit/) and the simulator. */
#ifndef EMPY_JIT_H
#define EMPY_JIT_H

#include "array/ndarray.h"

/* Kernels with more parameters than this are refused (TypeError): the
 * call key and the per-argument records live on the C stack. */
#define EMPY_JIT_MAX_ARGS 64

/* ---- argument type codes ------------------------------------------------
 * One 32-bit word per argument is the compact form of the contract's type
 * code ("Af4_1C", "i8"): the hot path compares these words, never strings.
 * kind in bits 24-27, em_dtype in 16-23, ndim in 8-15, bit 0 C-contiguous. */
enum { EMPY_JK_ARRAY = 1, EMPY_JK_SCALAR = 2 };
#define EMPY_JCODE(kind, dt, nd, c) \
    ((uint32_t)(kind) << 24 | (uint32_t)(dt) << 16 | (uint32_t)(nd) << 8 | (uint32_t)(c))
#define EMPY_JCODE_KIND(k) ((int)((k) >> 24 & 0xf))
#define EMPY_JCODE_DTYPE(k) ((em_dtype)((k) >> 16 & 0xff))
#define EMPY_JCODE_NDIM(k) ((int)((k) >> 8 & 0xff))
#define EMPY_JCODE_C(k) ((int)((k) & 1))

/* Where an argument's data comes from. */
enum {
    EMPY_JA_EMBER = 1,     /* an ember ndarray, used in place */
    EMPY_JA_HOST,          /* a NumPy (buffer) array: in place on cpu, else
                            * copied to the device and back */
    EMPY_JA_SCALAR         /* a Python or NumPy scalar */
};

/* One argument of one call, as classified (the C stack holds these). */
typedef struct empy_jarg {
    int src;               /* EMPY_JA_* */
    uint32_t code;         /* the call's type code word */
    const em_array *a;     /* the array the kernel sees (ember or temp) */
    const em_array *orig;  /* an ember array replaced by a copy in arr */
    PyObject *owned;       /* an ember view of another library's device
                            * array (__cuda_array_interface__) */
    Py_buffer view;        /* EMPY_JA_HOST: the host buffer */
    int has_view, has_tmp, writeback;
    em_array arr;          /* a device copy (has_tmp: host arrays, odd
                            * strides) or, on cpu, a host buffer described
                            * in place (no storage) */
    em_dtype sdt;          /* EMPY_JA_SCALAR: the value's own dtype */
    union {
        long long i;
        unsigned long long u;
        double f;
        double c[2];
        unsigned char raw[16];
    } v;
} empy_jarg;

/* Classify args[i] into *ja (nothing acquired for ember arrays and
 * scalars; a buffer view for host arrays, released by empy_jarg_release).
 * -1 with TypeError naming the kernel and parameter; 1 (nothing acquired)
 * for another library's device array, which the caller wraps as an ember
 * array (empy_asarray, zero-copy) and classifies again. */
int empy_jarg_classify(const char *kname, const char *pname, int i, PyObject *o,
                       empy_jarg *ja);

/* Bring a host array (or an ember array whose strides are not whole
 * elements) to device d on stream s: sets ja->a and the final code.
 * -1 with an exception. */
int empy_jarg_prepare(empy_state *st, empy_jarg *ja, em_device *d, em_stream *s);

/* After the launch: copy device copies of writable host arrays back
 * (ordered on s); 0 or -1 with an exception. */
int empy_jarg_finish(empy_state *st, empy_jarg *ja, em_stream *s);

/* Drop what classify/prepare acquired (after any synchronisation). */
void empy_jarg_release(empy_jarg *ja, em_stream *s);

/* The contract's text form of a code word ("Af4_1C", "i8") into buf. */
void empy_jcode_str(uint32_t code, char *buf, size_t n);

/* Parse the text form; -1 with TypeError naming the code. */
int empy_jcode_parse(PyObject *str, uint32_t *code);

/* How many kernel parameters (flattened, docs/jit-design.md section 2)
 * one code takes, and the byte size of parameter j of them. */
int empy_jcode_nparams(uint32_t code);
size_t empy_jcode_param_size(uint32_t code, int j);

/* Pack argument ja for parameter code `want` into buf at *off, storing a
 * pointer to each flattened parameter in argv[*np...]; -1 with an
 * exception (a scalar that does not fit). buf must have room (see
 * empy_jcode_nparams: at most 16 bytes each). */
int empy_jarg_pack(const char *kname, const char *pname, const empy_jarg *ja,
                   uint32_t want, char *buf, size_t *off, void **argv, int *np);

/* ---- the dispatcher's objects ------------------------------------------------ */

#define EMPY_LOAD_ACQUIRE(p) __atomic_load_n(&(p), __ATOMIC_ACQUIRE)
#define EMPY_STORE_RELEASE(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)

#define EMPY_JIT_CONFIGS 4     /* launch configurations kept per dispatcher */
#define EMPY_JIT_ERR_SLOTS 16  /* int64s of the bounds-error record */

#ifdef Py_GIL_DISABLED
#define EMPY_JIT_LOCK(k) PyMutex_Lock(&(k)->lock)
#define EMPY_JIT_UNLOCK(k) PyMutex_Unlock(&(k)->lock)
#else
#define EMPY_JIT_LOCK(k) ((void)0)
#define EMPY_JIT_UNLOCK(k) ((void)0)
#endif

/* One compiled specialisation on one device. */
typedef struct empy_jit_entry {
    struct empy_jit_entry *next;
    em_device *dev;
    em_function *fn;
    PyObject *trans;          /* (source, name, sites, shared_dynamic) */
    const char *kname;        /* the C kernel's name, owned by trans */
    int nargs, nparams;       /* Python arguments; flattened parameters */
    int has_err;              /* the last parameter is the error record */
    int is_cpu;
    void *err_dev;            /* cuda: the device's copy of the record */
    int grid_sync;            /* calls grid.sync(): launched cooperatively,
                               * the grid's barrier a hidden parameter
                               * before the record */
    void *grid_dev;           /* cuda: that barrier's counter */
    long long spare[EMPY_JIT_ERR_SLOTS]; /* cpu: a record nothing reads */
    uint32_t *pcode;          /* the codes compiled for (nargs) */
    uint32_t key[];           /* the call codes that select it (nargs),
                               * then pcode's storage */
} empy_jit_entry;

/* The C part of what @cuda.jit makes (python/ember/cuda/dispatcher.py
 * subclasses it and keeps the translations): entries is the list launches
 * search (new ones pushed at the front, published with a release store,
 * never removed while the dispatcher lives). */
typedef struct {
    PyObject_HEAD
    PyObject *name, *params, *sigs;   /* sigs: list of argcode tuples, or NULL */
    const char *kname;
    const char **pnames;      /* UTF-8 of params, PyMem */
    int nargs;
    int fastmath, lineinfo, opt, maxreg;
    char regopt[32];
    empy_jit_entry *entries, *last;
    PyObject *configs[EMPY_JIT_CONFIGS];
    int next_config;
#ifdef Py_GIL_DISABLED
    PyMutex lock;
#endif
} empy_Dispatcher;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    empy_Dispatcher *disp;
    em_dim3 grid, block;
    PyObject *stream;         /* an ember.Stream, or NULL (0 or None) */
    size_t shared;
    int empty;                /* forall(0): nothing to launch */
} empy_LaunchConfig;

#define DISP(o) ((empy_Dispatcher *)(o))
#define CFG(o) ((empy_LaunchConfig *)(o))

/* ---- specialisations (jit_compile.c) -------------------------------------- */

/* The specialisation of k for call codes key on d, or NULL. */
empy_jit_entry *empy_jit_find(empy_Dispatcher *k, em_device *d, const uint32_t *key);
int empy_jit_matches(const empy_jit_entry *e, em_device *d, const uint32_t *key, int n);

/* Translate (or find in the disk index) and compile the kernel for codes
 * pcode on d, selected by the call codes key, and publish it in k's list;
 * NULL with CompileError (or another exception). */
empy_jit_entry *empy_jit_build(empy_state *st, empy_Dispatcher *k, em_device *d,
                               const uint32_t *key, const uint32_t *pcode);

/* The explicit signatures compiled for d (Numba compiles them at
 * decoration); -1 with an exception. */
int empy_jit_precompile(empy_state *st, empy_Dispatcher *k, em_device *d);

/* For a dispatcher with explicit signatures: the compiled signature that
 * accepts key (Dispatcher._explicit picks it), published under key; NULL
 * with TypeError "no matching definition". */
empy_jit_entry *empy_jit_explicit(empy_state *st, empy_Dispatcher *k, em_device *d,
                                  const uint32_t *key);

void empy_jit_entry_free(empy_jit_entry *e);

/* The code words of a tuple of argcode strings. */
int empy_jit_sig_codes(PyObject *argcodes, uint32_t *codes, int n);

/* ember.jit, the translator package (imported on first use). */
PyObject *empy_jit_module(void);

/* The argcode strings of n code words (a new tuple). */
PyObject *empy_jit_argcodes(const uint32_t *codes, int n);

/* ---- launching (jit_launch.c) --------------------------------------------- */

extern PyType_Spec empy_jit_config_spec;

/* The launch configuration (one of k's last few, else a new one). */
PyObject *empy_jit_get_config(empy_Dispatcher *k, em_dim3 g, em_dim3 b, PyObject *stream,
                              size_t shared, int empty);

/* k[griddim, blockdim, stream, sharedmem]: ValueError/TypeError for bad
 * values; k._config(griddim, blockdim, stream, sharedmem, empty) the same
 * for forall (empty: nothing to launch). */
PyObject *empy_jit_subscript(PyObject *self, PyObject *key);
PyObject *empy_jit_config_method(PyObject *self, PyObject *const *args, Py_ssize_t n);

/* A stream argument (an ember.Stream, 0 or None: *out NULL) and a dynamic
 * shared memory size. */
int empy_jit_stream_arg(empy_state *st, PyObject *o, PyObject **out);
int empy_jit_shared_arg(PyObject *o, size_t *out);

/* jit_dispatch.c: the types and module functions. */
int empy_jit_init(PyObject *m, empy_state *st);

#endif
