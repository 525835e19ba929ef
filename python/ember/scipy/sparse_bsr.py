"""scipy.sparse.bsr_matrix (bsr_array) on ember arrays: Block Sparse Row,
dense R x C blocks over a CSR pattern of block rows. data is (nnzb, R, C),
indices and indptr index the blocks. Built from a shape, (data, indices,
indptr), (data, (row, col)), a dense array or another sparse matrix, every
way in whole-array operations on the device (block keys sorted and made
unique, values scattered with add.at). Arithmetic and products go through
CSR (tocsr keeps the blocks' explicit zeros, as SciPy's); there is no
block-wise kernel yet, so BSR is a storage and exchange format here."""
import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import sparse as _sp


def _blocksize(blocksize, shape):
    r, c = (1, 1) if blocksize is None else (int(blocksize[0]), int(blocksize[1]))
    if r < 1 or c < 1:
        raise ValueError(f"invalid blocksize={blocksize}")
    if shape[0] % r or shape[1] % c:
        raise ValueError(f"shape {shape} must be divisible into {(r, c)} blocks")
    return r, c


class bsr_matrix:
    format = "bsr"
    ndim = 2

    def __init__(self, arg1, shape=None, dtype=None, copy=False, blocksize=None,
                 device=None):
        if isinstance(arg1, tuple) and len(arg1) == 2 and \
                all(_sp._is_int(k) for k in arg1):
            self._shape = (int(arg1[0]), int(arg1[1]))
            r, c = _blocksize(blocksize, self._shape)
            self.data = _e.zeros((0, r, c), dtype=dtype or _e.float64, device=device)
            self.indices = _e.zeros(0, dtype=_e.int64, device=device)
            self.indptr = _e.zeros(self._shape[0] // r + 1, dtype=_e.int64,
                                   device=device)
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            data, indices, indptr = arg1
            data = _arr(data, device)
            if data.ndim != 3:
                raise ValueError(f"BSR data must be 3-d (nnzb, R, C), got shape "
                                 f"{data.shape}")
            self.data = data
            self.indices = _arr(indices, data.device).astype(_e.int64)
            self.indptr = _arr(indptr, data.device).astype(_e.int64)
            r, c = data.shape[1:]
            if shape is None:
                nb = int(_e.max(self.indices)) + 1 if self.indices.size else 0
                shape = ((self.indptr.size - 1) * r, nb * c)
            self._shape = (int(shape[0]), int(shape[1]))
            _blocksize((r, c), self._shape)
            if self.indptr.size != self._shape[0] // r + 1 or \
                    self.indices.size != data.shape[0]:
                raise ValueError(f"indptr of size {self.indptr.size} and indices of "
                                 f"size {self.indices.size} do not fit {data.shape[0]} "
                                 f"blocks of {(r, c)} in shape {self._shape}")
        else:
            if isinstance(arg1, tuple) and len(arg1) == 2:
                coo = _sp.coo_matrix(arg1, shape=shape, device=device)
            elif _sp.issparse(arg1) or _sp._is_scipy_sparse(arg1):
                coo = _sp.coo_matrix(arg1.tocoo() if _sp._is_scipy_sparse(arg1)
                                     else arg1.tocoo(), device=device)
            else:
                dense = _arr(arg1, device)
                if dense.ndim != 2:
                    raise ValueError("expected dimension <= 2 array or matrix")
                self._from_dense(dense, blocksize)
                coo = None
            if coo is not None:
                self._from_coo(coo, blocksize)
        if dtype is not None:
            self.data = self.data.astype(dtype)
        if copy:
            self.data = self.data.copy()

    def _from_dense(self, dense, blocksize):
        m, n = dense.shape
        self._shape = (m, n)
        r, c = _blocksize(blocksize, self._shape)
        blocks = dense.reshape(m // r, r, n // c, c).transpose(0, 2, 1, 3)
        # a block is stored where any of its elements is nonzero, as SciPy's
        br, bc = _e.nonzero(_e.any(blocks != 0, axis=(2, 3)))
        self.data = blocks[br, bc]
        self.indices = bc.astype(_e.int64)
        self.indptr = self._indptr(br.astype(_e.int64), m // r, dense.device)

    def _from_coo(self, coo, blocksize):
        self._shape = coo.shape
        r, c = _blocksize(blocksize, self._shape)
        dev = coo.device
        nbc = self._shape[1] // c
        key = (coo.row // r) * nbc + coo.col // c
        keys, inv = _e.unique(key, return_inverse=True)
        data = _e.zeros((keys.size, r, c), dtype=coo.dtype, device=dev)
        # duplicates summed, as SciPy's
        _e.add.at(data, (inv.reshape(-1), coo.row % r, coo.col % c), coo.data)
        self.data = data
        self.indices = (keys % nbc).astype(_e.int64)
        self.indptr = self._indptr((keys // nbc).astype(_e.int64),
                                   self._shape[0] // r, dev)

    @staticmethod
    def _indptr(block_rows, nbr, dev):
        counts = _e.bincount(block_rows, minlength=nbr) if block_rows.size else \
            _e.zeros(nbr, dtype=_e.int64, device=dev)
        return _e.concatenate([_e.zeros(1, dtype=_e.int64, device=dev),
                               _e.cumsum(counts).astype(_e.int64)])

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self.data.dtype)
    device = property(lambda self: self.data.device)
    blocksize = property(lambda self: tuple(self.data.shape[1:]))
    nnz = property(lambda self: int(self.data.size))

    def get_shape(self):
        return self._shape

    def __repr__(self):
        r, c = self.blocksize
        return (f"<{self._shape[0]}x{self._shape[1]} sparse matrix of type "
                f"'{self.dtype}' with {self.nnz} stored elements (blocksize = "
                f"{r}x{c}) in Block Sparse Row format on {self.device}>")

    def tocoo(self, copy=False):
        """Every element of every stored block, explicit zeros kept."""
        r, c = self.blocksize
        dev = self.device
        nbr = self.indptr.size - 1
        br = _e.repeat(_e.arange(nbr, dtype=_e.int64, device=dev),
                       self.indptr[1:] - self.indptr[:-1])
        ir = _e.arange(r, dtype=_e.int64, device=dev).reshape(1, r, 1)
        ic = _e.arange(c, dtype=_e.int64, device=dev).reshape(1, 1, c)
        rows = _e.broadcast_to(br.reshape(-1, 1, 1) * r + ir, self.data.shape)
        cols = _e.broadcast_to(self.indices.reshape(-1, 1, 1) * c + ic,
                               self.data.shape)
        return _sp.coo_matrix((self.data.reshape(-1), (rows.reshape(-1),
                                                       cols.reshape(-1))),
                              shape=self._shape)

    def tocsr(self, copy=False):
        return self.tocoo().tocsr()

    def tocsc(self, copy=False):
        return self.tocoo().tocsr().tocsc()

    def tobsr(self, blocksize=None, copy=False):
        if blocksize is None or tuple(blocksize) == self.blocksize:
            return self.copy() if copy else self
        return bsr_matrix(self.tocoo(), blocksize=blocksize)

    def toarray(self, order=None, out=None):
        return self.tocoo().toarray(out=out)

    todense = toarray

    def copy(self):
        return bsr_matrix((self.data.copy(), self.indices.copy(),
                           self.indptr.copy()), shape=self._shape)

    def astype(self, t):
        return bsr_matrix((self.data.astype(t), self.indices, self.indptr),
                          shape=self._shape)

    def transpose(self, axes=None, copy=False):
        return bsr_matrix(self.tocoo().transpose(), blocksize=self.blocksize[::-1])

    T = property(transpose)

    def __matmul__(self, other):
        return self.tocsr() @ other

    def __rmatmul__(self, other):
        return other @ self.tocsr()

    def __mul__(self, other):
        # a matrix's `*` is the matrix product, as for csr_matrix
        # (bsr_array's is elementwise: sparse_sparray.py)
        if _e.ndim(other) == 0:
            return bsr_matrix((self.data * other, self.indices, self.indptr),
                              shape=self._shape)
        return self @ other

    __rmul__ = __mul__

    def _with_data(self, data):
        return type(self)((data, self.indices, self.indptr),
                          shape=self._shape)

    def multiply(self, other):
        """SciPy's elementwise product: the blocks scaled by a scalar; a
        sparse operand's product through CSR, back in this blocksize (BSR,
        as SciPy's); a dense one's as CSR gives it (COO)."""
        if _e.ndim(other) == 0 and not _sp.issparse(other):
            return self._with_data(self.data * other)
        got = self.tocsr().multiply(other)
        if _sp._operand(other) == "sparse":
            return type(self)(got, blocksize=self.blocksize)
        return got

    def power(self, n, dtype=None):
        """Each stored value (block zeros too) to the scalar power n, the
        block structure kept, as SciPy's; its NotImplementedError for a
        power of 0 or a non-scalar n."""
        _sp.check_power(n)
        d = self.data if dtype is None else self.data.astype(dtype)
        return self._with_data(d ** n)

    def get(self):
        import scipy.sparse
        return scipy.sparse.bsr_matrix((_e.asnumpy(self.data),
                                        _e.asnumpy(self.indices),
                                        _e.asnumpy(self.indptr)),
                                       shape=self._shape)


bsr_array = _sp._sparray.array_class(bsr_matrix)
_sp._SPARSE_TYPES += (bsr_matrix,)
