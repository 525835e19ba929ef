/* ember Python extension: what the array files share (dtype.c, ndarray.c,
 * ndarray_index.c, ndarray_interop.c, creation.c, ufuncobj.c).
 *
 * An ndarray embeds its em_array, so making one costs one Python object
 * and whatever storage the C call allocated; nothing else is allocated on
 * the operator path. */
#ifndef EMPY_NDARRAY_H
#define EMPY_NDARRAY_H

#include "runtime/module.h"
#include "runtime/args.h"
#include "ember/fuse.h"

/* ---- the objects -------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    em_dtype id;
} empy_DType;

typedef struct {
    PyObject_HEAD
    em_array a;
    /* What the memory belongs to: the ndarray this is a view of (always the
     * one that owns the storage, as NumPy collapses chains), the foreign
     * object a zero-copy array wraps, or NULL when this array owns it. */
    PyObject *base;
    /* A Stream object the storage was allocated on (the pool frees on it,
     * so it must live as long as the storage); NULL for default streams. */
    PyObject *stream;
} empy_ndarray;

typedef struct {
    PyObject_HEAD
    em_op op;
    int nin, nout;
    PyObject *name;
    vectorcallfunc vectorcall;
} empy_Ufunc;

/* An ndarray's em_array. Elementwise results may still be pending in a
 * fused group (src/fuse/fuse.h): this accessor runs the group first, so
 * every use of an array's memory (a view, an export, an argument of any
 * other operation) sees computed values. A failure to run it is kept by
 * the core and returned by the next operation that needs the values.
 * EMPY_ARR_RAW is for what only reads the layout (shape, dtype, making
 * the result object, freeing) and for the recording path itself: its data
 * is NULL while the array is a pending result whose memory is not taken
 * yet (src/fuse/fuse.h). */
static inline em_array *empy_arr_settled(PyObject *o)
{
    em_array *a = &((empy_ndarray *)o)->a;
    /* a fused result gets its memory when its group runs: its data is
     * NULL until then, and filled in at the first use after */
    if (__builtin_expect(!a->data && a->storage, 0))
        em_array_settle_slow(a);
    return a;
}
#define EMPY_ARR_RAW(o) empy_arr_settled((PyObject *)(o))
static inline em_array *empy_arr_ready(PyObject *o)
{
    (void)em_fuse_guard();
    return empy_arr_settled(o);
}
#define EMPY_ARR(o) empy_arr_ready((PyObject *)(o))
/* As EMPY_ARR for what hands the memory itself out of ember (the buffer
 * protocol, .data, __cuda_array_interface__, DLPack): NULL with the
 * exception set where the fused kernel that should have written it
 * failed, so no consumer reads memory that was never computed. */
em_array *empy_arr_computed(PyObject *o);

/* ndarray test without the module state: ndarray's dealloc is unique to
 * it in every interpreter; a Python subclass has CPython's dealloc, and
 * ndarray's among its bases'. */
void empy_ndarray_dealloc(PyObject *self);
static inline int empy_is_ndarray(PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t->tp_dealloc == empy_ndarray_dealloc)
        return 1;
    for (t = t->tp_base; t; t = t->tp_base)
        if (t->tp_dealloc == empy_ndarray_dealloc)
            return 1;
    return 0;
}

/* ---- dtype.c ------------------------------------------------------------ */

int empy_dtype_init(PyObject *m, empy_state *st);

/* The dtype object of d (borrowed). */
static inline PyObject *empy_dtype_obj(empy_state *st, em_dtype d)
{
    return st->dtypes[d];
}

/* A dtype= argument: an ember dtype, a string, a Python type (float,
 * int, bool, complex), a NumPy dtype or scalar type. -1 with TypeError
 * naming the argument when it is not one. */
int empy_dtype_arg(empy_state *st, PyObject *o, em_dtype *out);

/* The dtype of a PEP 3118 buffer format ("<f", "Zd", "?", "l") of the
 * given item size; -1 with TypeError when ember has no such dtype. */
int empy_format_dtype(const char *fmt, Py_ssize_t itemsize, em_dtype *out);

/* The PEP 3118 format of d ("f", "Zd"), or NULL (bfloat16 has none). */
const char *empy_dtype_format(em_dtype d);

/* NumPy's array-interface type string of d ("<f4", "|b1"); bfloat16 has
 * none and gives NULL. */
const char *empy_dtype_typestr(em_dtype d);

/* The Python object of one element of dtype d stored at p (host memory):
 * bool, int, float or complex. */
PyObject *empy_item_to_py(em_dtype d, const void *p);

/* A scalar operand from a Python scalar (weak) or a NumPy scalar or any
 * 0-d buffer (strong). 1 if o is one, 0 if not (no exception), -1 on
 * error (an int that fits no 64-bit type). */
int empy_scalar_operand(PyObject *o, em_operand *op);

/* Raise unless a weak Python int scalar fits dtype d (NumPy 2 raises
 * OverflowError for `int8_array[0] = 300`); 0 if fine or not such a
 * scalar. */
int empy_check_weak_fits(const em_operand *op, em_dtype d);

/* Whether a cast is allowed under NumPy's rule named by casting ('no',
 * 'equiv', 'safe', 'same_kind', 'unsafe'); -1 with ValueError for
 * another name. */
int empy_can_cast(em_dtype from, em_dtype to, const char *casting);

/* ---- ndarray.c ---------------------------------------------------------- */

int empy_ndarray_init(PyObject *m, empy_state *st);

/* em_array_wrap's release callback for storage that holds a reference
 * to the Python object ctx (creation.c): drops it, taking the GIL, from
 * whichever thread the storage's last view goes on. */
void empy_release_pyobj(void *ctx);

/* o, a fresh object of an ndarray type (or NULL: allocation failed), made
 * to hold *a: the reference moves in and *a is zeroed; base and stream
 * are NULL for the caller to set. NULL, with *a released, when o is. */
empy_ndarray *empy_ndarray_hold(empy_ndarray *o, em_array *a);

/* A new ndarray holding *a (its reference moves in: *a is zeroed; on
 * failure it is released). base (borrowed) is what the memory belongs to
 * (an ndarray whose own base is taken instead when it has one), or NULL
 * for fresh storage. */
PyObject *empy_ndarray_new(empy_state *st, em_array *a, PyObject *base);

/* The operator path's result, made in place: a new ndarray (plain type)
 * with its em_array's fields before the shape zeroed (storage NULL: not
 * made) for a C call to fill directly, so no second
 * em_array is cleared and copied (a 560-byte struct, twice per
 * operation); NULL on allocation failure. On the call's failure the
 * object is dropped with Py_DECREF (its zeroed array releases nothing);
 * on success empy_ndarray_fresh_done gives it the Stream object its
 * fresh storage frees on, as empy_ndarray_new does (NULL, o dropped, if
 * that fails). */
empy_ndarray *empy_ndarray_fresh(empy_state *st);
PyObject *empy_ndarray_fresh_done(empy_state *st, empy_ndarray *o);

/* Copy src into a fresh array on device d (NULL: src's) of dtype (src's
 * when dtype < 0) and order 'C'/'F'. */
em_status empy_array_copy_new(const em_array *src, em_device *d, int dtype,
                              char order, em_array *out);

/* A copy of src in order 'C', 'F', 'A' or 'K' laid out as NumPy lays out
 * copy(order) and astype(order): 'K' keeps the memory order of the axes
 * (dense, positive strides). */
em_status empy_array_copy_order(const em_array *src, em_device *d, int dtype,
                                char order, em_array *out);

/* Parse a shape argument: an int or a sequence of ints (args of a
 * function taking *shape are passed as the tuple). -1 with an exception. */
int empy_shape_arg(PyObject *o, const char *what, int *ndim, int64_t *shape);

/* ---- ndarray_memory.c ------------------------------------------------------ */

int empy_ndarray_memory_init(PyObject *m, empy_state *st);
/* a.data: an ember.cuda.MemoryPointer to a's first element. */
PyObject *empy_nd_get_data(PyObject *self, void *closure);
/* ember.ndarray(shape, dtype=float, memptr=None, strides=None, order='C'),
 * for ndarray and its Python subclasses. */
PyObject *empy_ndarray_tp_new(PyTypeObject *type, PyObject *args, PyObject *kw);

/* ---- ndarray_index.c ---------------------------------------------------- */

PyObject *empy_ndarray_subscript(PyObject *self, PyObject *key);
int empy_ndarray_ass_subscript(PyObject *self, PyObject *key, PyObject *value);
PyObject *empy_ndarray_item(PyObject *self, Py_ssize_t i);

/* ---- ndarray_interop.c -------------------------------------------------- */

PyObject *empy_nd_array_interface(PyObject *self, void *closure);
PyObject *empy_nd_cuda_array_interface(PyObject *self, void *closure);
PyObject *empy_nd_get(PyObject *self, PyObject *args, PyObject *kw);
PyObject *empy_nd_set(PyObject *self, PyObject *args, PyObject *kw);
PyObject *empy_nd_array(PyObject *self, PyObject *args, PyObject *kw);
int empy_ndarray_getbuffer(PyObject *self, Py_buffer *view, int flags);
void empy_ndarray_releasebuffer(PyObject *self, Py_buffer *view);
int empy_interop_init(PyObject *m, empy_state *st);

/* ---- creation.c --------------------------------------------------------- */

int empy_creation_init(PyObject *m, empy_state *st);

/* NumPy's copy= argument: -1 None (copy if needed), 0 False (never), 1
 * True (always). */
enum { EMPY_COPY_IF_NEEDED = -1, EMPY_COPY_NEVER = 0, EMPY_COPY_ALWAYS = 1 };

/* A copy= argument as one of those: dflt when absent (NULL), else by its
 * truth, None meaning if needed; -1 when its truth raises. */
static inline int empy_copy_arg(PyObject *o, int dflt, int *out)
{
    int t;
    if (!o) {
        *out = dflt;
        return 0;
    }
    if (o == Py_None) {
        *out = EMPY_COPY_IF_NEEDED;
        return 0;
    }
    if ((t = PyObject_IsTrue(o)) < 0)
        return -1;
    *out = t ? EMPY_COPY_ALWAYS : EMPY_COPY_NEVER;
    return 0;
}

/* ember.asarray: an ndarray from anything array-like. dtype < 0: keep or
 * infer; dev NULL: the source's device for arrays that have one, else
 * the current device. */
PyObject *empy_asarray(empy_state *st, PyObject *obj, int dtype, em_device *dev,
                       int copy, char order);

/* The cold path of a constructor or view(dtype) that failed: ember's C
 * arrays have no structured (record) dtype, so python/ember/_struct_array.py
 * is asked whether the call was about one (a NumPy structured dtype or
 * array, or a struct array) and makes its answer there. When it was not,
 * the call's own error stands and NULL is returned. args is a tuple,
 * kw a dict or NULL. */
PyObject *empy_struct_fallback(const char *fname, PyObject *args, PyObject *kw);

/* ---- the array functions, one file per family -------------------------
 * Each file adds its module functions in its init and lists the ndarray
 * methods it provides (x.sum(), x.take(), ...) in a NULL-ended table that
 * empy_ndarray_init appends to the type's own methods. */

int empy_reduction_init(PyObject *m, empy_state *st);   /* reduction.c */
extern PyMethodDef empy_reduction_nd_methods[];
int empy_linalg_init(PyObject *m, empy_state *st);      /* linalg.c */
extern PyMethodDef empy_linalg_nd_methods[];
PyObject *empy_nd_matmul(PyObject *a, PyObject *b);       /* linalg.c */
PyObject *empy_nd_imatmul(PyObject *a, PyObject *b);
int empy_manip_init(PyObject *m, empy_state *st);       /* manip.c */
extern PyMethodDef empy_manip_nd_methods[];
int empy_ranges_init(PyObject *m, empy_state *st);      /* creation_ranges.c */
int empy_indexfn_init(PyObject *m, empy_state *st);     /* index_funcs.c */
extern PyMethodDef empy_indexfn_nd_methods[];
int empy_dlpack_init(PyObject *m, empy_state *st);      /* dlpack.c */
extern PyMethodDef empy_dlpack_nd_methods[];
/* An ndarray over the memory of obj.__dlpack__() (zero-copy, on the
 * producer's device, base obj); NULL with an exception. */
PyObject *empy_dlpack_import(empy_state *st, PyObject *obj);
/* nd_python.c: ndarray methods done by the Python layer (a.round(),
 * a.repeat(), a.copy_to_host()), and the call they share:
 * module.name(self, *args, **kw). */
extern PyMethodDef empy_python_nd_methods[];
PyObject *empy_call_python(const char *module, const char *name, PyObject *self,
                           PyObject *args, PyObject *kw);
extern PyMethodDef empy_memory_nd_methods[];             /* ndarray_memory.c */

/* ---- ufuncobj.c --------------------------------------------------------- */

int empy_ufunc_init(PyObject *m, empy_state *st);
/* fusetape.c: ember.fuse's tapes */
int empy_fusetape_init(PyObject *m, empy_state *st);
extern PyType_Slot empy_ndarray_number_slots[];
PyObject *empy_ndarray_richcompare(PyObject *a, PyObject *b, int op);
/* Apply op to n inputs into a new array (out NULL) or into out. */
PyObject *empy_ufunc_call(empy_state *st, em_op op, PyObject *const *in, int nin,
                          PyObject *out, PyObject *where);
/* o as an ndarray on dev (a new reference) for an operation running
 * there: host memory other than sequences and scalars is a TypeError for
 * a GPU, since ember copies between devices only when asked. */
PyObject *empy_operand_on(empy_state *st, PyObject *o, em_device *dev);

#endif
