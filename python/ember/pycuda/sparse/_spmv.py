"""The one SpMV behind PacketedSpMV and CoordinateSpMV."""
import numpy

from ember.scipy import sparse as _sparse

from .. import gpuarray


class SpMV:
    """y = A x on the current device; with y given, y += A x (PyCUDA's
    kernels accumulate into the y they are handed)."""

    def __init__(self, mat, dtype):
        self.dtype = numpy.dtype(dtype)
        self.shape = tuple(int(n) for n in mat.shape)
        self._a = _sparse.csr_matrix(mat.tocsr().astype(self.dtype))

    def permute(self, x):
        return x

    def unpermute(self, x):
        return x

    def __call__(self, x, y=None):
        if x.shape != (self.shape[1],):
            raise ValueError("spmv of a %dx%d matrix with a vector of shape %s"
                             % (self.shape + (tuple(x.shape),)))
        ax = self._a @ x
        if y is None:
            return gpuarray._wrap(ax.astype(self.dtype, copy=False))
        y += ax
        return y
