"""PyCUDA's CoordinateSpMV: any shape, any SciPy sparse format."""
from ._spmv import SpMV


class CoordinateSpMV(SpMV):
    """CoordinateSpMV(mat, dtype)."""
