/* ember Python extension: the parts of the Python Array API standard
 * (2024.12) that are about the namespace rather than an array family —
 * ember.__array_namespace_info__() and its inspection methods,
 * ember.isdtype, ember.finfo and ember.iinfo (whose
 * attributes are Python floats and ints, as the standard asks, where
 * NumPy gives scalars of the dtype).
 *
 * The info object is an instance of a small heap type, made anew on each
 * call as the standard shows (it is cheap and holds nothing). Its dtype
 * tables list the standard's dtypes only (float16 and bfloat16 work in
 * ember but are not Array API dtypes, and test suites check the keys);
 * isdtype knows them all. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "module.h"
#include "structmember.h"
#include "errors.h"
#include "ndarray.h"

/* ---- kinds -------------------------------------------------------------- */

/* Whether dtype d is of the standard's kind named s; -1 with ValueError
 * for an unknown name. */
static int kind_match(em_dtype d, const char *s)
{
    em_dtype_kind k = em_dtype_get(d)->kind_id;
    if (!strcmp(s, "bool"))
        return k == EM_KIND_BOOL;
    if (!strcmp(s, "signed integer"))
        return k == EM_KIND_INT;
    if (!strcmp(s, "unsigned integer"))
        return k == EM_KIND_UINT;
    if (!strcmp(s, "integral"))
        return k == EM_KIND_INT || k == EM_KIND_UINT;
    if (!strcmp(s, "real floating"))
        return k == EM_KIND_FLOAT;
    if (!strcmp(s, "complex floating"))
        return k == EM_KIND_COMPLEX;
    if (!strcmp(s, "numeric"))
        return k != EM_KIND_BOOL;
    PyErr_Format(PyExc_ValueError, "unknown dtype kind '%s' (expected 'bool', "
                 "'signed integer', 'unsigned integer', 'integral', 'real "
                 "floating', 'complex floating' or 'numeric')", s);
    return -1;
}

/* One kind argument: a dtype or a kind name. */
static int kind_one(empy_state *st, em_dtype d, PyObject *kind)
{
    em_dtype kd;
    if (PyUnicode_Check(kind)) {
        const char *s = PyUnicode_AsUTF8(kind);
        return s ? kind_match(d, s) : -1;
    }
    if (PyObject_TypeCheck(kind, st->DType))
        return ((empy_DType *)kind)->id == d;
    if (empy_dtype_match(st, kind, &kd) > 0)
        return kd == d;
    PyErr_Format(PyExc_TypeError, "kind must be a dtype, a kind name or a tuple "
                 "of them (got %.100s)", Py_TYPE(kind)->tp_name);
    return -1;
}

/* kind: one, or a tuple of them (any matching). */
static int kind_any(empy_state *st, em_dtype d, PyObject *kind)
{
    Py_ssize_t i;
    if (!PyTuple_Check(kind))
        return kind_one(st, d, kind);
    for (i = 0; i < PyTuple_GET_SIZE(kind); i++) {
        int r = kind_one(st, d, PyTuple_GET_ITEM(kind, i));
        if (r != 0)
            return r;
    }
    return 0;
}

static PyObject *mod_isdtype(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"dtype", "kind", NULL};
    empy_state *st = empy_state_of_module(m);
    PyObject *dt, *kind;
    em_dtype d;
    int r;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO:isdtype", kwlist, &dt, &kind) ||
        empy_dtype_arg(st, dt, &d) < 0 || (r = kind_any(st, d, kind)) < 0)
        return NULL;
    return PyBool_FromLong(r);
}

/* ---- finfo, iinfo ------------------------------------------------------- */

/* The Array API's attributes (Python floats and ints) plus NumPy's common
 * ones (tiny, resolution, precision; kind for iinfo). */
typedef struct {
    PyObject_HEAD
    int bits, precision;
    double eps, max, min, smallest_normal, tiny, resolution;
    PyObject *dtype;
} finfo_obj;

typedef struct {
    PyObject_HEAD
    int bits;
    PyObject *min, *max, *dtype, *kind;
} iinfo_obj;

/* The dtype of a dtype-like or an array argument. */
static int dtype_or_array(empy_state *st, PyObject *o, em_dtype *out)
{
    if (empy_is_ndarray(o)) {
        *out = EMPY_ARR(o)->dtype;
        return 0;
    }
    return empy_dtype_arg(st, o, out);
}

static PyObject *mod_finfo(PyObject *m, PyObject *arg)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *t;
    finfo_obj *f;
    em_dtype d;
    if (dtype_or_array(st, arg, &d) < 0)
        return NULL;
    if (d == EM_COMPLEX64)
        d = EM_FLOAT32;
    else if (d == EM_COMPLEX128)
        d = EM_FLOAT64;
    if (em_dtype_get(d)->kind_id != EM_KIND_FLOAT) {
        PyErr_Format(PyExc_ValueError, "data type %s not inexact", em_dtype_get(d)->name);
        return NULL;
    }
    if (!(t = PyObject_GetAttrString(m, "finfo_t")))
        return NULL;
    f = (finfo_obj *)((PyTypeObject *)t)->tp_alloc((PyTypeObject *)t, 0);
    Py_DECREF(t);
    if (!f)
        return NULL;
    f->bits = 8 * (int)em_dtype_size(d);
    switch (d) {
    case EM_FLOAT16:
        f->eps = 0x1p-10; f->max = 65504.0; f->smallest_normal = 0x1p-14;
        f->precision = 3; break;
    case EM_BFLOAT16:
        f->eps = 0x1p-7; f->max = 0x1.fep127; f->smallest_normal = 0x1p-126;
        f->precision = 2; break;
    case EM_FLOAT32:
        f->eps = FLT_EPSILON; f->max = FLT_MAX; f->smallest_normal = FLT_MIN;
        f->precision = 6; break;
    default:
        f->eps = DBL_EPSILON; f->max = DBL_MAX; f->smallest_normal = DBL_MIN;
        f->precision = 15; break;
    }
    f->min = -f->max;
    f->tiny = f->smallest_normal;
    f->resolution = pow(10.0, -f->precision);
    f->dtype = Py_NewRef(empy_dtype_obj(st, d));
    return (PyObject *)f;
}

static PyObject *mod_iinfo(PyObject *m, PyObject *arg)
{
    empy_state *st = empy_state_of_module(m);
    PyObject *t;
    iinfo_obj *o;
    em_dtype d;
    em_dtype_kind k;
    int bits;
    if (dtype_or_array(st, arg, &d) < 0)
        return NULL;
    k = em_dtype_get(d)->kind_id;
    if (k != EM_KIND_INT && k != EM_KIND_UINT) {
        PyErr_Format(PyExc_ValueError, "Invalid integer data type '%c'.",
                     em_dtype_get(d)->kind);
        return NULL;
    }
    if (!(t = PyObject_GetAttrString(m, "iinfo_t")))
        return NULL;
    o = (iinfo_obj *)((PyTypeObject *)t)->tp_alloc((PyTypeObject *)t, 0);
    Py_DECREF(t);
    if (!o)
        return NULL;
    bits = 8 * (int)em_dtype_size(d);
    o->bits = bits;
    if (k == EM_KIND_UINT) {
        o->min = PyLong_FromLong(0);
        o->max = PyLong_FromUnsignedLongLong(bits == 64 ? ~0ULL : (1ULL << bits) - 1);
    } else {
        o->min = PyLong_FromLongLong(-(long long)((1ULL << (bits - 1)) - 1) - 1);
        o->max = PyLong_FromLongLong((long long)((1ULL << (bits - 1)) - 1));
    }
    o->dtype = Py_NewRef(empy_dtype_obj(st, d));
    o->kind = PyUnicode_FromStringAndSize(&em_dtype_get(d)->kind, 1);
    if (!o->min || !o->max || !o->kind) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject *)o;
}

static void finfo_dealloc(PyObject *self)
{
    PyTypeObject *t = Py_TYPE(self);
    Py_XDECREF(((finfo_obj *)self)->dtype);
    t->tp_free(self);
    Py_DECREF(t);
}

static void iinfo_dealloc(PyObject *self)
{
    PyTypeObject *t = Py_TYPE(self);
    iinfo_obj *o = (iinfo_obj *)self;
    Py_XDECREF(o->min);
    Py_XDECREF(o->max);
    Py_XDECREF(o->dtype);
    Py_XDECREF(o->kind);
    t->tp_free(self);
    Py_DECREF(t);
}

static PyObject *finfo_repr(PyObject *self)
{
    finfo_obj *f = (finfo_obj *)self;
    char buf[160];
    snprintf(buf, sizeof buf, "finfo(resolution=%g, min=%.5e, max=%.5e, dtype=%s)",
             f->resolution, f->min, f->max, em_dtype_get(((empy_DType *)f->dtype)->id)->name);
    return PyUnicode_FromString(buf);
}

static PyObject *iinfo_repr(PyObject *self)
{
    iinfo_obj *o = (iinfo_obj *)self;
    return PyUnicode_FromFormat("iinfo(min=%S, max=%S, dtype=%s)", o->min, o->max,
                                em_dtype_get(((empy_DType *)o->dtype)->id)->name);
}

#define RO(type, name, T) {#name, T, offsetof(type, name), READONLY, NULL}
static PyMemberDef finfo_members[] = {
    RO(finfo_obj, bits, T_INT), RO(finfo_obj, eps, T_DOUBLE), RO(finfo_obj, max, T_DOUBLE),
    RO(finfo_obj, min, T_DOUBLE), RO(finfo_obj, smallest_normal, T_DOUBLE),
    RO(finfo_obj, tiny, T_DOUBLE), RO(finfo_obj, resolution, T_DOUBLE),
    RO(finfo_obj, precision, T_INT), RO(finfo_obj, dtype, T_OBJECT), {NULL},
};
static PyMemberDef iinfo_members[] = {
    RO(iinfo_obj, bits, T_INT), RO(iinfo_obj, min, T_OBJECT), RO(iinfo_obj, max, T_OBJECT),
    RO(iinfo_obj, dtype, T_OBJECT), RO(iinfo_obj, kind, T_OBJECT), {NULL},
};

static PyType_Slot finfo_slots[] = {
    {Py_tp_dealloc, finfo_dealloc}, {Py_tp_members, finfo_members},
    {Py_tp_repr, finfo_repr}, EMPY_NOINIT_SLOT
    {Py_tp_doc, "Limits of a floating-point dtype (ember.finfo)."}, {0, NULL},
};
static PyType_Slot iinfo_slots[] = {
    {Py_tp_dealloc, iinfo_dealloc}, {Py_tp_members, iinfo_members},
    {Py_tp_repr, iinfo_repr}, EMPY_NOINIT_SLOT
    {Py_tp_doc, "Limits of an integer dtype (ember.iinfo)."}, {0, NULL},
};
/* Named finfo_t/iinfo_t in the module so the functions can keep NumPy's
 * names ember.finfo(dtype) and ember.iinfo(dtype). */
static PyType_Spec finfo_spec = {
    "ember.finfo_t", sizeof(finfo_obj), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT, finfo_slots,
};
static PyType_Spec iinfo_spec = {
    "ember.iinfo_t", sizeof(iinfo_obj), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT, iinfo_slots,
};

/* ---- the info object ---------------------------------------------------- */

typedef struct {
    PyObject_HEAD
} info_obj;

/* The standard's dtypes, in its order. */
static const em_dtype api_dtypes[] = {
    EM_BOOL, EM_INT8, EM_INT16, EM_INT32, EM_INT64, EM_UINT8, EM_UINT16,
    EM_UINT32, EM_UINT64, EM_FLOAT32, EM_FLOAT64, EM_COMPLEX64, EM_COMPLEX128,
};

/* device=None or a device ember has; -1 with an exception otherwise. */
static int check_device(empy_state *st, PyObject *device)
{
    em_device *d;
    if (device == Py_None)
        return 0;
    return empy_device_arg(st, device, &d);
}

static PyObject *info_capabilities(PyObject *self, PyObject *unused)
{
    /* Boolean-mask indexing and nonzero arrive together (index_funcs.c);
     * the module having nonzero is the sign that both are there (unique_*
     * come with the algorithms). "max dimensions" is the array struct's
     * limit. */
    PyObject *m = PyType_GetModule(Py_TYPE(self));
    int dyn = m ? PyObject_HasAttrString(m, "nonzero") : 0;
    if (!m)
        return NULL;
    return Py_BuildValue("{s:O,s:O,s:i}", "boolean indexing", dyn ? Py_True : Py_False,
                         "data-dependent shapes", dyn ? Py_True : Py_False,
                         "max dimensions", EM_MAX_NDIM);
}

static PyObject *info_default_device(PyObject *self, PyObject *unused)
{
    empy_state *st = empy_state_of(self);
    em_device *d;
    if (empy_device_arg(st, Py_None, &d) < 0)
        return NULL;
    return empy_device_new(st, d);
}

static PyObject *info_default_dtypes(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"device", NULL};
    empy_state *st = empy_state_of(self);
    PyObject *device = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$O:default_dtypes", kwlist, &device) ||
        check_device(st, device) < 0)
        return NULL;
    return Py_BuildValue("{s:O,s:O,s:O,s:O}",
                         "real floating", empy_dtype_obj(st, EM_FLOAT64),
                         "complex floating", empy_dtype_obj(st, EM_COMPLEX128),
                         "integral", empy_dtype_obj(st, EM_INT64),
                         "indexing", empy_dtype_obj(st, EM_INT64));
}

static PyObject *info_devices(PyObject *self, PyObject *unused)
{
    empy_state *st = empy_state_of(self);
    PyObject *list = PyList_New(0), *o;
    em_device *d;
    int n = 0, i;
    if (!list)
        return NULL;
    if (em_device_count(EM_DEVICE_CUDA, &n) != EM_OK)
        n = 0;   /* no driver: cpu only, as import promises */
    for (i = -1; i < n; i++) {
        em_status rc = i < 0 ? em_device_get(EM_DEVICE_CPU, 0, &d)
                             : em_device_get(EM_DEVICE_CUDA, i, &d);
        if (rc != EM_OK) {
            Py_DECREF(list);
            return empy_raise(st, rc);
        }
        o = empy_device_new(st, d);
        if (!o || PyList_Append(list, o) < 0) {
            Py_XDECREF(o);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(o);
    }
    return list;
}

static PyObject *info_dtypes(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"device", "kind", NULL};
    empy_state *st = empy_state_of(self);
    PyObject *device = Py_None, *kind = Py_None, *d;
    size_t i;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$OO:dtypes", kwlist, &device, &kind) ||
        check_device(st, device) < 0)
        return NULL;
    if (!(d = PyDict_New()))
        return NULL;
    for (i = 0; i < sizeof api_dtypes / sizeof *api_dtypes; i++) {
        em_dtype t = api_dtypes[i];
        int r = kind == Py_None ? 1 : kind_any(st, t, kind);
        if (r < 0 || (r && PyDict_SetItemString(d, em_dtype_get(t)->name,
                                                empy_dtype_obj(st, t)) < 0)) {
            Py_DECREF(d);
            return NULL;
        }
    }
    return d;
}

static PyMethodDef info_methods[] = {
    {"capabilities", info_capabilities, METH_NOARGS,
     "capabilities(): {'boolean indexing', 'data-dependent shapes', "
     "'max dimensions'}."},
    {"default_device", info_default_device, METH_NOARGS,
     "default_device(): the device arrays are made on without device=."},
    {"default_dtypes", (PyCFunction)(void (*)(void))info_default_dtypes,
     METH_VARARGS | METH_KEYWORDS,
     "default_dtypes(*, device=None): the default real, complex, integral "
     "and indexing dtypes."},
    {"devices", info_devices, METH_NOARGS, "devices(): every device ember can use."},
    {"dtypes", (PyCFunction)(void (*)(void))info_dtypes, METH_VARARGS | METH_KEYWORDS,
     "dtypes(*, device=None, kind=None): the Array API dtypes ember supports, "
     "by name, optionally of one kind (a kind name or a tuple of them)."},
    {NULL},
};

static void info_dealloc(PyObject *self)
{
    PyTypeObject *t = Py_TYPE(self);
    t->tp_free(self);
    Py_DECREF(t);
}

static PyType_Slot info_slots[] = {
    {Py_tp_dealloc, info_dealloc},
    {Py_tp_methods, info_methods},
    EMPY_NOINIT_SLOT
    {Py_tp_doc, "What the ember namespace supports (Array API inspection)."},
    {0, NULL},
};

static PyType_Spec info_spec = {
    "ember.ArrayNamespaceInfo", sizeof(info_obj), 0,
    Py_TPFLAGS_DEFAULT | EMPY_TPFLAGS_IMMUTABLE | EMPY_TPFLAGS_NOINIT, info_slots,
};

static PyObject *mod_namespace_info(PyObject *m, PyObject *unused)
{
    /* The type is kept as a module attribute: the module state's layout
     * belongs to module.h, and this is no hot path. */
    PyObject *t = PyObject_GetAttrString(m, "ArrayNamespaceInfo");
    PyObject *o;
    if (!t)
        return NULL;
    o = (PyObject *)((PyTypeObject *)t)->tp_alloc((PyTypeObject *)t, 0);
    Py_DECREF(t);
    return o;
}

static PyMethodDef array_api_functions[] = {
    {"__array_namespace_info__", mod_namespace_info, METH_NOARGS,
     "__array_namespace_info__(): the Array API inspection object "
     "(capabilities, default_device, default_dtypes, devices, dtypes)."},
    {"isdtype", (PyCFunction)(void (*)(void))mod_isdtype, METH_VARARGS | METH_KEYWORDS,
     "isdtype(dtype, kind): whether dtype is of kind — a dtype, one of 'bool', "
     "'signed integer', 'unsigned integer', 'integral', 'real floating', "
     "'complex floating', 'numeric', or a tuple of these."},
    {"finfo", mod_finfo, METH_O,
     "finfo(type): limits of a floating dtype (complex: of its parts) — bits, "
     "eps, max, min, smallest_normal, tiny, resolution, precision, dtype."},
    {"iinfo", mod_iinfo, METH_O, "iinfo(type): limits of an integer dtype — bits, "
     "min, max, dtype, kind."},
    {NULL},
};

int empy_array_api_init(PyObject *m, empy_state *st)
{
    PyTypeObject *t;
    /* The module holds each type (empy_add_type added it); no state slot. */
    if (empy_add_type(m, &info_spec, NULL, &t) < 0)
        return -1;
    Py_DECREF(t);
    if (empy_add_type(m, &finfo_spec, NULL, &t) < 0)
        return -1;
    Py_DECREF(t);
    if (empy_add_type(m, &iinfo_spec, NULL, &t) < 0)
        return -1;
    Py_DECREF(t);
    return PyModule_AddFunctions(m, array_api_functions);
}
