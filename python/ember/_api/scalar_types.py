"""NumPy's scalar type hierarchy and type queries. ember's own dtypes
(ember.float32 ...) are ember.dtype objects, not classes; the abstract
classes (generic, number, floating ...), the types ember has no arrays of
(str_, bytes_, void, object_) and the tables are NumPy's own, as CuPy
re-exports them; this module, and with it NumPy, is imported on the
first use of one. issubdtype and friends take ember's dtypes and NumPy's
alike and answer with ember's dtypes."""
import functools

import numpy as _np

from ember import _ember as _e

generic = _np.generic
number = _np.number
integer = _np.integer
signedinteger = _np.signedinteger
unsignedinteger = _np.unsignedinteger
inexact = _np.inexact
floating = _np.floating
complexfloating = _np.complexfloating
flexible = _np.flexible
character = _np.character
str_ = _np.str_
bytes_ = _np.bytes_
void = _np.void
object_ = _np.object_
True_ = _np.True_
False_ = _np.False_
sctypeDict = _np.sctypeDict
typecodes = _np.typecodes
ScalarType = _np.ScalarType
typename = _np.typename


class _bfloat16(_np.floating):
    """bfloat16's place in the hierarchy (NumPy has no such type): a
    floating type equal to no NumPy one."""


def _scalar_type(x):
    """The class standing for x in NumPy's hierarchy."""
    if isinstance(x, type) and issubclass(x, _np.generic):
        return x
    if isinstance(x, _e.dtype):
        return _bfloat16 if x == _e.bfloat16 else _np.dtype(x.name).type
    try:
        return _np.dtype(x).type
    except TypeError:
        if isinstance(x, str) and x == "bfloat16":
            return _bfloat16
        raise


def issubdtype(arg1, arg2):
    """True when arg1's type is arg2's or below it in NumPy's hierarchy:
    issubdtype(ember.float32, ember.floating); bfloat16 is a floating
    type."""
    return issubclass(_scalar_type(arg1), _scalar_type(arg2))


def common_type(*arrays):
    """The inexact dtype all the arrays convert to: integers count as
    float64, bool is a TypeError; float16 for none, as NumPy's (whose
    answer is the scalar type; ember's is its dtype, ember.float64)."""
    dts = []
    for a in arrays:
        t = a.dtype    # NumPy's AttributeError for what is not an array
        if t.kind not in "iufc":
            raise TypeError("can't get common type for non-numeric array")
        dts.append(_e.float64 if t.kind in "iu" else _e.dtype(t))
    if not dts:
        return _e.float16
    return functools.reduce(_e.promote_types, dts)


def _ember_dtype(d):
    try:
        return _e.dtype(d)
    except TypeError:
        return d      # NumPy's, for a string or an object


def min_scalar_type(a):
    """An array's own dtype; for a scalar (or a 0-d array) the smallest
    dtype holding its value, as NumPy's. ember's dtype where it has one,
    NumPy's otherwise ('<U3' for a string)."""
    if isinstance(a, _e.ndarray):
        if a.ndim:
            return a.dtype
        a = a.item()
    return _ember_dtype(_np.min_scalar_type(a))


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """The type character of typeset's smallest type that the types of
    typechars (characters, or arrays) safely convert to."""
    chars = [t if isinstance(t, str) else
             t.dtype.char if isinstance(t, _e.ndarray) else _np.asarray(t).dtype.char
             for t in typechars]
    return _np.mintypecode(chars, typeset, default)
