"""scipy.sparse's sparse arrays (sparray) beside its sparse matrices
(spmatrix): each *_array class is its *_matrix class with the _sparray
mixin in front, so the storage and the algorithms are one, and only what
SciPy 1.17 answers differently for an array is here:

- `*` is the elementwise product (multiply; a scalar keeps the format)
  and `**` the elementwise power, where a matrix's `*` is the matrix
  product and its `**` a matrix power (matrix_power below);
- sum, mean, argmax and argmin along an axis are 1-D, where a matrix's
  are (1, n) or (m, 1);
- every sparse result of an array's method or operator is an array.

Where SciPy 1.17 gives a 1-D sparse array (A[i], A[i, :], A[:, j],
max/min along an axis) ember, which holds 2-D sparse objects only, gives
the 2-D coo_array of the same values with the dropped axis kept as
length 1: the type and format are SciPy's, the shape is the matrix's.

isinstance(a, csr_matrix) is true for an ember csr_array (a subclass;
SciPy's two classes are siblings); issparse, isspmatrix, isspmatrix_csr
and the spmatrix/sparray checks answer as SciPy's."""
import inspect
import numbers

import ember as _e

__all__ = ["array_class", "as_array", "as_matrix", "is_sparray",
           "matrix_power"]

_ARRAY_OF = {}      # matrix class -> its array class
_MATRIX_OF = {}     # and back


def is_sparray(x):
    return type(x) in _MATRIX_OF


def _reclassed(x, cls):
    """A new object of class cls over x's attributes (the index and data
    arrays are shared, not copied); x itself is left as it was."""
    y = object.__new__(cls)
    y.__dict__.update(x.__dict__)
    return y


def as_array(x):
    """x as a sparse array where it is a sparse matrix; anything else
    (dense arrays, scalars, arrays already) as it is."""
    cls = _ARRAY_OF.get(type(x))
    return x if cls is None else _reclassed(x, cls)


def as_matrix(x):
    cls = _MATRIX_OF.get(type(x))
    return x if cls is None else _reclassed(x, cls)


def _scalar(x):
    return isinstance(x, numbers.Number) or (hasattr(x, "dtype") and
                                             _e.ndim(x) == 0)


def matrix_power(A, power):
    """SciPy's matrix_power (a sparse matrix's `**`): A @ A ... by
    squaring; eye_array for power 0, as SciPy's; its errors."""
    m, n = A.shape
    if m != n:
        raise TypeError("sparse matrix is not square")
    if isinstance(power, numbers.Integral) or (
            hasattr(power, "dtype") and power.dtype.kind in "iu"):
        power = int(power)
        if power < 0:
            raise ValueError("exponent must be >= 0")
        if power == 0:
            from ember.scipy.sparse_construct import eye_array
            return eye_array(m, dtype=A.dtype, device=A.device)
        if power == 1:
            return A.copy()
        half = matrix_power(A, power // 2)
        return A @ half @ half if power % 2 else half @ half
    raise ValueError("exponent must be an integer")


def _drops_axis(key):
    """Whether SciPy's array indexing gives a 1-D result for key: one
    integer with anything but another integer."""
    from ember.scipy.sparse import _is_int
    if not isinstance(key, tuple):
        return _is_int(key)
    return len(key) == 2 and _is_int(key[0]) != _is_int(key[1])


def _flat(r):
    return r.reshape(-1) if getattr(r, "ndim", 0) == 2 else r


def _base(self, name):
    """The matrix class's method name, or the AttributeError a missing
    method gives (ember's dok, lil and bsr have no reductions)."""
    f = getattr(_MATRIX_OF[type(self)], name, None)
    if f is None:
        raise AttributeError(f"'{type(self).__name__}' object has no "
                             f"attribute '{name}'")
    return f


class _sparray:
    """What a sparse array answers differently from a sparse matrix."""

    def __repr__(self):
        return super().__repr__().replace("sparse matrix", "sparse array",
                                          1)

    def _elementwise(self):
        # lil and dok have no elementwise product of their own: CSR's, as
        # SciPy's lil and dok (their results are CSR there too)
        return self if hasattr(self, "multiply") else self.tocsr()

    def __mul__(self, other):
        if _scalar(other):
            return as_array(super().__mul__(other))
        return as_array(self._elementwise().multiply(other))

    def __rmul__(self, other):
        if _defers(other):
            return NotImplemented
        if _scalar(other):
            return as_array(super().__rmul__(other))
        return as_array(self._elementwise().multiply(other))

    def __pow__(self, n):
        return as_array(self._elementwise().power(n))

    def sum(self, axis=None, dtype=None):
        return _flat(_base(self, "sum")(self, axis=axis, dtype=dtype))

    def mean(self, axis=None, dtype=None):
        return _flat(_base(self, "mean")(self, axis=axis, dtype=dtype))

    def argmax(self, axis=None, out=None):
        return _flat(_base(self, "argmax")(self, axis=axis, out=out))

    def argmin(self, axis=None, out=None):
        return _flat(_base(self, "argmin")(self, axis=axis, out=out))

    def __getitem__(self, key):
        get = getattr(_MATRIX_OF[type(self)], "__getitem__", None)
        if get is not None:
            got = as_array(get(self, key))
        elif self.format == "coo":      # SciPy 1.17's coo_array indexes
            got = self.tocsr()[key]
            got = got.tocoo() if hasattr(got, "tocoo") else got
        else:
            raise TypeError(f"'{type(self).__name__}' object is not "
                            "subscriptable")
        if _drops_axis(key) and hasattr(got, "tocoo"):
            return got.tocoo()
        return got


# the operators a matrix class may define whose results become arrays
_OPERATORS = {"__add__", "__radd__", "__sub__", "__rsub__", "__neg__",
              "__pos__", "__abs__", "__truediv__", "__rtruediv__",
              "__matmul__", "__rmatmul__", "__eq__", "__ne__", "__lt__",
              "__gt__", "__le__", "__ge__"}


def _defers(other):
    """Whether a reflected operator of an array leaves `other` to its own
    forward operator: Python asks a subclass's reflected method first, and
    a sparse matrix on the left keeps its own semantics (M * A is the
    matrix product, a matrix, as SciPy's)."""
    from ember.scipy.sparse import issparse
    return issparse(other) and not is_sparray(other)


def _returning_arrays(f, reflected=False):

    def g(self, *args, **kw):
        if reflected and args and _defers(args[0]):
            return NotImplemented
        return as_array(f(self, *args, **kw))
    g.__name__, g.__doc__ = f.__name__, f.__doc__
    return g


def array_class(mcls):
    """The sparse array class of the sparse matrix class mcls: the
    _sparray mixin over mcls, each public method's and property's sparse
    result an array. A matrix class without a `**` gets matrix_power."""
    name = mcls.__name__.replace("_matrix", "_array")
    cls = type(name, (_sparray, mcls), {
        "__module__": mcls.__module__,
        "__doc__": f"scipy.sparse.{name}: {mcls.__name__}'s storage with "
                   "sparse-array semantics (ember.scipy.sparse_sparray)."})
    own = set(vars(_sparray))
    for attr in dir(mcls):
        if attr in own or not (attr in _OPERATORS or
                               not attr.startswith("_")):
            continue
        v = inspect.getattr_static(mcls, attr)
        if isinstance(v, property) and v.fget is not None:
            setattr(cls, attr, property(_returning_arrays(v.fget)))
        elif inspect.isfunction(v):
            setattr(cls, attr, _returning_arrays(
                v, reflected=attr.startswith("__r")))
    if "__pow__" not in dir(mcls):
        mcls.__pow__ = matrix_power
    _ARRAY_OF[mcls], _MATRIX_OF[cls] = cls, mcls
    return cls
