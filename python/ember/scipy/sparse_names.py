"""scipy.sparse's base classes spmatrix and sparray (for isinstance and
issubclass checks) and its small axis and index functions of 1.15:
swapaxes, permute_dims, matrix_transpose (CuPy's, which SciPy 1.17
lacks) and safely_cast_index_arrays. ember's sparse objects are 2-D,
so the axis functions are a transpose or a copy.

ember's *_array classes are its *_matrix classes with sparse-array
semantics (sparse_sparray.py); isinstance(x, spmatrix) is true for the
matrices and isinstance(x, sparray) for the arrays, as SciPy's."""
import numbers
import operator

import numpy as np

from ember.scipy import sparse as _sp
from ember.scipy import sparse_sparray as _sparray

__all__ = ["spmatrix", "sparray", "swapaxes", "permute_dims",
           "matrix_transpose", "safely_cast_index_arrays"]


class _SparseBase(type):
    """isinstance and issubclass answer for ember's sparse classes as
    they are when asked (sparse_dia adds dia_matrix when it loads): an
    array class for sparray, a matrix class for spmatrix."""

    def __instancecheck__(cls, x):
        return _sp.issparse(x) and \
            _sparray.is_sparray(x) == (cls.__name__ == "sparray")

    def __subclasscheck__(cls, sub):
        if sub is cls:
            return True
        return isinstance(sub, type) and \
            issubclass(sub, _sp._SPARSE_TYPES) and \
            (sub in _sparray._MATRIX_OF) == (cls.__name__ == "sparray")


class spmatrix(metaclass=_SparseBase):
    """scipy.sparse.spmatrix: what every sparse matrix is an instance
    of; not made directly."""

    def __new__(cls, *args, **kw):
        raise TypeError(f"{cls.__name__} is a base class: make a "
                        "csr_matrix, csc_matrix, coo_matrix or dia_matrix")


class sparray(metaclass=_SparseBase):
    """scipy.sparse.sparray: what every sparse array is an instance of;
    not made directly."""

    def __new__(cls, *args, **kw):
        raise TypeError(f"{cls.__name__} is a base class: make a "
                        "csr_array, csc_array, coo_array or dia_array")


def _sparse(A, name):
    if not _sp.issparse(A):
        raise TypeError(f"{name} expected an ember sparse matrix or array, "
                        f"got {type(A).__name__}")


def permute_dims(A, axes=None, copy=False):
    """A with its axes in the order `axes` (default reversed), as
    scipy.sparse.permute_dims: A itself (a copy with copy=True) for the
    identity, else a COO transpose (of A itself, in place, where A is
    COO and copy is False, as SciPy's); SciPy's errors for a wrong
    count, an inexact, out-of-range or repeated axis."""
    _sparse(A, "permute_dims")
    ndim = 2
    if axes is None:
        axes = (1, 0)
    elif not isinstance(axes, (tuple, list)):
        raise TypeError(f"axes must be a tuple or list of ints, not "
                        f"{type(axes).__name__}")
    elif len(axes) != ndim:
        raise ValueError(f"Incorrect number of axes: {len(axes)} instead "
                         f"of {ndim}")
    canon = []
    for ax in axes:
        if isinstance(ax, numbers.Real) and not isinstance(
                ax, numbers.Integral) and not hasattr(ax, "__index__"):
            raise ValueError("Inexact indices into sparse matrices are not "
                             f"allowed (given {ax!r})")
        try:
            ax = operator.index(ax)
        except TypeError:
            raise TypeError(f"axis must be an integer. (given {ax!r})") \
                from None
        if ax < 0:
            ax += ndim
        if not 0 <= ax < ndim:
            raise ValueError(f"axis out of range for ndim ({axes} for a "
                             f"{ndim}-D {A.format} object)")
        canon.append(ax)
    if len(set(canon)) != len(canon):
        raise ValueError(f"duplicate value in axis {tuple(axes)}")
    if canon == [0, 1]:
        return A.copy() if copy else A
    if A.format == "coo" and not copy:
        # SciPy permutes a COO input in place and returns it
        A.row, A.col, A._shape = A.col, A.row, A.shape[::-1]
        A.has_canonical_format = False
        return A
    out = A.tocoo().transpose()     # SciPy's result is COO, not canonical
    return out.copy() if copy else out


def swapaxes(A, axis1, axis2):
    """A copy of A with the two axes swapped, as scipy.sparse.swapaxes:
    the same format when they are one axis, else a COO transpose;
    ValueError for an axis that is not an integer in [-2, 1]."""
    _sparse(A, "swapaxes")
    for ax in (axis1, axis2):
        try:
            i = operator.index(ax)
        except TypeError:
            raise ValueError(f"Invalid axis: {ax!r} is not an integer; "
                             "ndim=2") from None
        if not -2 <= i < 2:
            raise ValueError(f"Invalid axis: {i} is out of bounds for "
                             "ndim=2")
    same = operator.index(axis1) % 2 == operator.index(axis2) % 2
    return permute_dims(A, (0, 1) if same else (1, 0), copy=True)


def matrix_transpose(A):
    """A with its last two axes swapped: A.transpose() (a CSR matrix's is
    CSC), as CuPy's; TypeError for anything but a sparse object."""
    _sparse(A, "matrix_transpose")
    return A.transpose()


def safely_cast_index_arrays(A, idx_dtype=np.int32, msg=""):
    """A's index arrays cast to idx_dtype, as SciPy's: (indices, indptr)
    for CSR and CSC, (row, col) for COO (SciPy's coords), offsets for
    DIA; an array already of that dtype comes back as it is. ValueError
    "<index> values too large for <msg>" where a value does not fit
    (checked only when the shape could hold one), and NumPy's for a
    dtype that is not an integer's."""
    _sparse(A, "safely_cast_index_arrays")
    if not msg:
        msg = f"dtype {idx_dtype}"
    top = np.iinfo(idx_dtype).max     # host bookkeeping, as SciPy's
    big = max(A.shape) > top

    def cast(a):
        return a.astype(idx_dtype, copy=False)

    if A.format in ("csr", "csc"):
        if A.indptr.size and int(A.indptr[-1]) > top:
            raise ValueError(f"indptr values too large for {msg}")
        if big and A.indices.size and int(A.indices.max()) > top:
            raise ValueError(f"indices values too large for {msg}")
        return cast(A.indices), cast(A.indptr)
    if A.format == "coo":
        if big and A.row.size and max(int(A.row.max()),
                                      int(A.col.max())) > top:
            raise ValueError(f"coords values too large for {msg}")
        return cast(A.row), cast(A.col)
    if A.format == "dia":
        if big and A.offsets.size and int(A.offsets.max()) > top:
            raise ValueError(f"offsets values too large for {msg}")
        return cast(A.offsets)
    raise TypeError(f"Format {A.format} is not associated with index "
                    "arrays.")
