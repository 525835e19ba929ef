"""PyCUDA's PacketedSpMV (see the package's docstring for its packets)."""
from ._spmv import SpMV


class PacketedSpMV(SpMV):
    """PacketedSpMV(mat, is_symmetric, dtype): mat a SciPy sparse matrix,
    square as PyCUDA requires. is_symmetric only told PyCUDA's partitioner
    whether to symmetrise the row graph; ember has no partition."""

    def __init__(self, mat, is_symmetric, dtype):
        if mat.shape[0] != mat.shape[1]:
            raise ValueError("only square matrices are supported (got %dx%d)"
                             % mat.shape)
        super().__init__(mat, dtype)
        self.is_symmetric = bool(is_symmetric)
