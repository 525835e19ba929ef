"""scipy.sparse's construction functions on ember arrays: eye, identity,
eye_array, diags, diags_array, spdiags, hstack, vstack, bmat,
block_array, block_diag, kron, kronsum, tril, triu, find and
get_index_dtype, with SciPy's format= and dtype= keywords and its result
formats (eye and diags give DIA, the stacks COO unless every block is CSR
or CSC, kronsum CSR). Each is a few ember array operations: the blocks'
index and data arrays offset and concatenated once, one scatter for a
band of diagonals, broadcast products for kron, a mask for tril/triu, and
one sort where a compressed result needs it. The Python loops run over
blocks and diagonals, never over rows or elements. ember.scipy.sparse
loads it on first use.

The *_array functions give sparse arrays and eye, identity, diags and
spdiags sparse matrices; the stacks, kron, kronsum, block_diag, tril
and triu give arrays where an input is an array, as SciPy's. SciPy's BSR result of kron (format=None with a
B at least half full) is CSR here, as there is no BSR format."""
import functools
import numbers
import warnings

import numpy as _np

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import sparse as _sp
from ember.scipy import sparse_sparray as _as
from ember.scipy.sparse_dia import (SparseEfficiencyWarning,  # noqa: F401
                                    SparseFormatWarning, SparseWarning,
                                    device_arg, dia_array, dia_matrix,
                                    index_dtype)

_NoValue = object()   # diags' dtype default: SciPy 1.17's deprecated path


def asformat(m, format):
    """m in `format` (None keeps it), as SciPy's asformat."""
    if format is None or format == m.format:
        return m
    if format in ("csr", "csc", "coo"):
        return getattr(m, "to" + format)()
    if format == "dia":
        return dia_matrix(m)
    if format in ("bsr", "lil", "dok"):
        raise NotImplementedError(f"ember.scipy.sparse has no {format} "
                                  "format (csr, csc, coo and dia are here)")
    raise ValueError(f"Format {format} is unknown.")


def _device(objs, device=None):
    """device=, else the device of the first ember array or matrix among
    objs, else None (the current device)."""
    if device is not None:
        return device_arg(device)
    for o in objs:
        if isinstance(o, _e.ndarray) or _sp.issparse(o):
            return o.device
    return None


def _coo(x, dev):
    """x (dense, ember or SciPy sparse) as an ember coo_matrix."""
    if _sp.issparse(x):
        return x.tocoo()
    return _sp.coo_matrix(x, device=dev)


def _empty_coo(shape, dtype, dev):
    z = _e.zeros(0, dtype=_e.int64, device=dev)
    return _sp.coo_matrix((_e.zeros(0, dtype=dtype, device=dev), (z, z)),
                          shape=shape)


def upcast(*dtypes):
    """SciPy's upcast: NumPy's promotion, float16 widened to float32 (no
    sparse format stores float16)."""
    t = _np.result_type(*(_np.dtype(str(_e.dtype(d))) for d in dtypes))
    return _e.dtype(_np.float32 if t == _np.float16 else t)


def get_index_dtype(arrays=(), maxval=None, check_contents=False):
    """SciPy's: int32 when maxval and every array (by dtype, or by value
    with check_contents) fit it, else int64; ember's dtype objects."""
    lo, hi = -2 ** 31, 2 ** 31 - 1
    if maxval is not None and int(maxval) > hi:
        return _e.int64
    if isinstance(arrays, (_np.ndarray, _e.ndarray)):
        arrays = (arrays,)
    for a in arrays:
        t = _np.dtype(str(a.dtype)) if hasattr(a, "dtype") else \
            _np.asarray(a).dtype
        if _np.can_cast(t, _np.int32):
            continue
        if check_contents and t.kind in "iu":
            size = a.size if hasattr(a, "size") else _np.size(a)
            if size == 0:
                continue
            if int(_e.min(_arr(a))) >= lo and int(_e.max(_arr(a))) <= hi:
                continue
        elif check_contents and _np.size(a) == 0:
            continue
        return _e.int64
    return _e.int32


# a *_array class is its *_matrix class's subclass here: an array is
# never an spmatrix, as in SciPy
def isspmatrix_csr(x):
    return isinstance(x, _sp.csr_matrix) and not _as.is_sparray(x)


def isspmatrix_csc(x):
    return isinstance(x, _sp.csc_matrix) and not _as.is_sparray(x)


def isspmatrix_coo(x):
    return isinstance(x, _sp.coo_matrix) and not _as.is_sparray(x)


def isspmatrix_dia(x):
    return isinstance(x, dia_matrix) and not _as.is_sparray(x)


def _kind_of(inputs, result):
    """result as a sparse array where an input is one, else a matrix
    (SciPy's rule for the stacks, kron and the rest)."""
    arrays = any(_as.is_sparray(x) for x in inputs)
    return _as.as_array(result) if arrays else _as.as_matrix(result)


def _flat_blocks(blocks):
    if isinstance(blocks, _np.ndarray):
        return list(blocks.flat)
    out = []
    for b in blocks:
        out.extend(_flat_blocks(b) if isinstance(b, (list, tuple)) or (
            isinstance(b, _np.ndarray) and b.dtype == object) else [b])
    return out


def _gives(kind):
    """A construction function's result as a sparse array (kind
    "array"), a matrix ("matrix"), or an array where a block or operand
    is one ("inputs")."""
    def wrap(f):
        @functools.wraps(f)
        def g(*args, **kw):
            r = f(*args, **kw)
            if kind == "array":
                return _as.as_array(r)
            if kind == "matrix":
                return _as.as_matrix(r)
            ins = []
            for x in list(args) + list(kw.values()):
                blocks = isinstance(x, (list, tuple)) or (
                    isinstance(x, _np.ndarray) and x.dtype == object)
                ins.extend(_flat_blocks(x) if blocks else [x])
            return _kind_of(ins, r)
        return g
    return wrap


# -- diagonals --------------------------------------------------------------

def _is_scalar(x):
    return _np.isscalar(x) or getattr(x, "ndim", None) == 0


def _diag_dtype(diagonals, dtype):
    ts = [_np.dtype(str(d.dtype)) for d in diagonals]
    if dtype is None:
        return _e.dtype(_np.result_type(*ts))
    if dtype is not _NoValue:
        return _e.dtype(dtype)
    old = _np.dtype(_np.common_type(*(_np.empty(0, t) for t in ts)))
    new = _np.result_type(*ts)
    if old != new:
        warnings.warn(
            f"Input has data type {new}, but the output has been cast to "
            f"{old}.  In the future, the output data type will match the "
            "input. To avoid this warning, set the `dtype` parameter to "
            "`None` to have the output dtype match the input, or set it to "
            "the desired output data type.", FutureWarning, stacklevel=4)
    return _e.dtype(old)


@_gives("array")
def diags_array(diagonals, /, *, offsets=0, shape=None, format=None,
                dtype=_NoValue, device=None):
    """SciPy's diags_array: diagonal i of `diagonals` on diagonal
    offsets[i] (no padding: each value is used), a scalar or length-1
    diagonal broadcast along its length; DIA unless format says. The band
    is filled by one scatter of the concatenated diagonals. dtype left out
    is SciPy 1.17's deprecated default (np.common_type: integers become
    float64, with SciPy's FutureWarning); dtype=None keeps the inputs'."""
    dev = _device(diagonals if isinstance(diagonals, (list, tuple))
                  else [diagonals], device)
    if _is_scalar(offsets):
        if len(diagonals) == 0 or _is_scalar(diagonals[0]):
            diagonals = [_e.atleast_1d(_arr(diagonals, dev))]
        else:
            raise ValueError("Different number of diagonals and offsets.")
    else:
        diagonals = [_e.atleast_1d(_arr(d, dev)) for d in diagonals]
    offs = [int(o) for o in _np.atleast_1d(
        _e.asnumpy(offsets) if isinstance(offsets, _e.ndarray) else offsets)]
    if len(diagonals) != len(offs):
        raise ValueError("Different number of diagonals and offsets.")
    if shape is None:
        size = diagonals[0].shape[0] + abs(offs[0])
        shape = (size, size)
    t = _diag_dtype(diagonals, dtype)
    m, n = (int(s) for s in shape)
    width = max(0, max(min(m + o, n - o) + max(0, o) for o in offs))
    dev = diagonals[0].device
    pieces, rows, starts = [], [], []
    for j, (d, o) in enumerate(zip(diagonals, offs)):
        length = min(m + o, n - o, m, n)
        if length < 0:
            raise ValueError(f"Offset {o} (index {j}) out of bounds")
        have = d.shape[0] if d.ndim else 1
        if have < length and have != 1:
            raise ValueError(f"Diagonal length (index {j}: {have} at offset "
                             f"{o}) does not agree with array size ({m}, "
                             f"{n}).")
        pieces.append(_e.broadcast_to(d[..., :length], (length,)).astype(t))
        rows.append(length)
        starts.append(max(0, o))
    data = _e.zeros((len(offs), width), dtype=t, device=dev)
    total = sum(rows)
    if total:
        lens = _e.asarray(rows, dtype=_e.int64, device=dev)
        first = _e.cumsum(lens) - lens
        row = _e.repeat(_e.arange(len(offs), dtype=_e.int64, device=dev),
                        lens)
        col = _e.arange(total, dtype=_e.int64, device=dev) + _e.repeat(
            _e.asarray(starts, dtype=_e.int64, device=dev) - first, lens)
        data[row, col] = _e.concatenate(pieces)
    return asformat(dia_matrix((data, _e.asarray(offs, device=dev)),
                               shape=(m, n)), format)


@_gives("matrix")
def diags(diagonals, offsets=0, shape=None, format=None, dtype=_NoValue,
          device=None):
    """SciPy's diags: diags_array with offsets and shape by position."""
    return diags_array(diagonals, offsets=offsets, shape=shape,
                       format=format, dtype=dtype, device=device)


@_gives("matrix")
def spdiags(data, diags, m=None, n=None, format=None, device=None):
    """SciPy's spdiags: dia_matrix((data, diags), shape=(m, n)), the rows
    of data padded as DIA stores them; square of len(data[0]) by
    default, (m, n) from a tuple m."""
    if m is None and n is None:
        m = n = len(data[0])
    elif n is None:
        m, n = m
    return asformat(dia_matrix((data, diags), shape=(m, n), device=device),
                    format)


def _eye(m, n, k, dtype, format, device):
    n = m if n is None else n
    m, n, k = int(m), int(n), int(k)
    dev = device_arg(device)
    if m == n and k == 0 and format in ("csr", "csc", "coo"):
        it = index_dtype(n)
        ones = _e.ones(n, dtype=dtype, device=dev)
        idx = _e.arange(n, dtype=it, device=dev)
        if format == "coo":
            return _sp.coo_matrix((ones, (idx, idx)), shape=(n, n))
        cls = _sp.csr_matrix if format == "csr" else _sp.csc_matrix
        return cls((ones, idx, _e.arange(n + 1, dtype=it, device=dev)),
                   shape=(n, n))
    data = _e.ones((1, max(0, min(m + k, n))), dtype=dtype, device=dev)
    return diags_array(data, offsets=[k], shape=(m, n), dtype=dtype,
                       format=format)


@_gives("matrix")
def eye(m, n=None, k=0, dtype=float, format=None, device=None):
    """SciPy's eye: ones on diagonal k of an m x n matrix, DIA by
    default (CSR, CSC or COO straight from ranges for a square k=0)."""
    return _eye(m, n, k, dtype, format, device)


@_gives("array")
def eye_array(m, n=None, *, k=0, dtype=float, format=None, device=None):
    return _eye(m, n, k, dtype, format, device)


@_gives("matrix")
def identity(n, dtype="d", format=None, device=None):
    return _eye(n, n, 0, dtype, format, device)


# -- blocks -----------------------------------------------------------------

def _grid(blocks):
    """blocks as a list of equal-length rows, or SciPy's ValueError (NumPy
    makes a 2-D object array of it there)."""
    if isinstance(blocks, _np.ndarray) and blocks.dtype == object:
        if blocks.ndim != 2:
            raise ValueError("blocks must be 2-D")
        return [list(r) for r in blocks]
    if not isinstance(blocks, (list, tuple)) or not blocks or not all(
            isinstance(r, (list, tuple)) for r in blocks) or \
            len({len(r) for r in blocks}) != 1:
        raise ValueError("blocks must be 2-D")
    if not blocks[0]:
        raise IndexError(f"blocks has no entries (a {len(blocks)} x 0 "
                         "grid)")
    return [list(r) for r in blocks]


def _all_format(grid, fmt):
    return all(_sp.issparse(b) and b.format == fmt for r in grid for b in r)


def _fast_places(grid, fmt):
    """Where SciPy's CSR path puts each block: every block row joined side
    by side (its blocks of one height), then the rows stacked (of one
    width); CSC the other way round. Its checks and messages."""
    lines = grid if fmt == "csr" else [list(c) for c in zip(*grid)]
    ax = 0 if fmt == "csr" else 1
    places, along, across = [], 0, set()
    for i, line in enumerate(lines):
        dims = {b.shape[ax] for b in line}
        if len(dims) > 1:
            raise ValueError(f"Mismatching dimensions along axis {ax}: "
                             f"{dims}")
        at = 0
        for b in line:
            places.append((b, along, at) if fmt == "csr" else (b, at, along))
            at += b.shape[1 - ax]
        across.add(at)
        along += line[0].shape[ax]
    if len(across) > 1:
        raise ValueError(f"incompatible dimensions for axis {1 - ax}")
    at = across.pop()
    return places, ((along, at) if fmt == "csr" else (at, along))


def _grid_places(grid, dev):
    """Where SciPy's general path puts each block (COO of it): block rows
    of one height, block columns of one width, Nones taking their size
    from the others; its messages."""
    nr, nc = len(grid), len(grid[0])
    heights, widths = [0] * nr, [0] * nc
    placed = []
    for i in range(nr):
        for j in range(nc):
            if grid[i][j] is None:
                continue
            a = _coo(grid[i][j], dev)
            h, w = a.shape
            if heights[i] == 0:
                heights[i] = h
            elif heights[i] != h:
                raise ValueError(
                    f"blocks[{i},:] has incompatible row dimensions. Got "
                    f"blocks[{i},{j}].shape[0] == {h}, expected "
                    f"{heights[i]}.")
            if widths[j] == 0:
                widths[j] = w
            elif widths[j] != w:
                raise ValueError(
                    f"blocks[:,{j}] has incompatible column dimensions. Got "
                    f"blocks[{i},{j}].shape[1] == {w}, expected "
                    f"{widths[j]}.")
            placed.append((a, i, j))
    r0 = _np.concatenate([[0], _np.cumsum(heights)]).tolist()
    c0 = _np.concatenate([[0], _np.cumsum(widths)]).tolist()
    return [(a, r0[i], c0[j]) for a, i, j in placed], (r0[-1], c0[-1])


def _join(places, shape, dtype, dev):
    """The placed blocks as one COO matrix: each block's triplets offset by
    its place, concatenated once."""
    if not places:
        return _empty_coo(shape, dtype, dev)
    coos = [(_coo(a, dev), r, c) for a, r, c in places]
    data = _e.concatenate([a.data.astype(dtype) for a, _, _ in coos])
    row = _e.concatenate([a.row + r for a, r, _ in coos])
    col = _e.concatenate([a.col + c for a, _, c in coos])
    return _sp.coo_matrix((data, (row, col)), shape=shape)


def _block(blocks, format, dtype):
    grid = _grid(blocks)
    dev = _device([b for r in grid for b in r])
    grid = [[b if b is None or _sp.issparse(b) or
             not _sp._is_scipy_sparse(b) else
             getattr(_sp, b.format + "_matrix", _sp.coo_matrix)(b,
                                                               device=dev)
             for b in r] for r in grid]
    for fmt in ("csr", "csc"):
        if format in (None, fmt) and _all_format(grid, fmt):
            places, shape = _fast_places(grid, fmt)
            t = _e.result_type(*(b.dtype for b, _, _ in places)) \
                if dtype is None else _e.dtype(dtype)
            one_line = len(grid[0]) == 1 if fmt == "csr" else len(grid) == 1
            if one_line:
                return _stack_major([b for b, _, _ in places], fmt, t, shape)
            return getattr(_join(places, shape, t, dev), "to" + fmt)()
    places, shape = _grid_places(grid, dev)
    if dtype is None:
        dtype = upcast(*(a.dtype for a, _, _ in places)) if places else \
            _e.float64
    return asformat(_join(places, shape, _e.dtype(dtype), dev), format)


def _stack_major(mats, fmt, t, shape):
    """CSR matrices on top of each other (CSC side by side): their arrays
    concatenated, each indptr shifted by the elements before it; nothing
    sorted, so each block's stored order stays, as in SciPy's."""
    dev = mats[0].device
    before, ptrs = 0, []
    for b in mats:
        ptrs.append(b.indptr[:-1].astype(_e.int64) + before)
        before += b.nnz
    ptrs.append(_e.asarray([before], dtype=_e.int64, device=dev))
    cls = _sp.csr_matrix if fmt == "csr" else _sp.csc_matrix
    return cls((_e.concatenate([b.data.astype(t) for b in mats]),
                _e.concatenate([b.indices.astype(_e.int64) for b in mats]),
                _e.concatenate(ptrs)), shape=shape)


@_gives("inputs")
def hstack(blocks, format=None, dtype=None):
    """SciPy's hstack: the blocks side by side; CSC for CSC blocks, CSR
    for CSR blocks, else COO, unless format says."""
    return _block([list(blocks)], format, dtype)


@_gives("inputs")
def vstack(blocks, format=None, dtype=None):
    """SciPy's vstack: the blocks on top of each other."""
    return _block([[b] for b in blocks], format, dtype)


@_gives("inputs")
def bmat(blocks, format=None, dtype=None):
    """SciPy's bmat: a 2-D grid of sparse or dense blocks and Nones."""
    return _block(blocks, format, dtype)


@_gives("array")
def block_array(blocks, *, format=None, dtype=None):
    return _block(blocks, format, dtype)


@_gives("inputs")
def block_diag(mats, format=None, dtype=None):
    """SciPy's block_diag: the matrices along the diagonal, COO unless
    format says; a dense block is stored whole, zeros and all, and a list
    or number by its nonzeros, as SciPy stores them."""
    mats = list(mats)
    if not mats:
        raise ValueError("need at least one array to concatenate")
    dev = _device(mats)
    rows, cols, data = [], [], []
    r0 = c0 = 0
    for a in mats:
        if isinstance(a, (list, numbers.Number)):
            a = _sp.coo_matrix(_e.atleast_2d(_arr(a, dev)))
        if _sp.issparse(a) or _sp._is_scipy_sparse(a):
            a = _coo(a, dev)
            nr, nc = a.shape
            r, c, d = a.row, a.col, a.data
        else:
            a = _arr(a, dev)
            nr, nc = a.shape
            flat = _e.arange(nr * nc, dtype=_e.int64, device=a.device)
            r, c, d = flat // max(nc, 1), flat % max(nc, 1), a.reshape(-1)
        rows.append(r + r0)
        cols.append(c + c0)
        data.append(d)
        r0, c0 = r0 + nr, c0 + nc
    out = _sp.coo_matrix((_e.concatenate(data),
                          (_e.concatenate(rows), _e.concatenate(cols))),
                         shape=(r0, c0), dtype=dtype)
    return asformat(out, format)


# -- products ---------------------------------------------------------------

@_gives("inputs")
def kron(A, B, format=None):
    """SciPy's kron: every stored a_ij times every stored element of B,
    by two broadcast products; COO, or CSR where SciPy gives BSR (format
    None and B at least half full)."""
    dev = _device([A, B])
    B = _coo(B, dev)
    blocky = format in (None, "bsr") and 2 * B.nnz >= B.shape[0] * B.shape[1]
    if format == "bsr":
        raise NotImplementedError("ember.scipy.sparse has no bsr format "
                                  "(csr, csc, coo and dia are here)")
    A = _coo(A, dev)
    shape = (A.shape[0] * B.shape[0], A.shape[1] * B.shape[1])
    if A.nnz == 0 or B.nnz == 0:
        return asformat(_empty_coo(shape, _e.float64, A.device), format)
    data = (A.data[:, None] * B.data[None, :]).reshape(-1)
    row = (A.row[:, None] * B.shape[0] + B.row[None, :]).reshape(-1)
    col = (A.col[:, None] * B.shape[1] + B.col[None, :]).reshape(-1)
    out = _sp.coo_matrix((data, (row, col)), shape=shape)
    return out.tocsr() if blocky and format is None else \
        asformat(out, format)


@_gives("inputs")
def kronsum(A, B, format=None):
    """SciPy's kronsum: kron(I_n, A) + kron(B, I_m), CSR by default."""
    dev = _device([A, B])
    A, B = _coo(A, dev), _coo(B, dev)
    if A.shape[0] != A.shape[1]:
        raise ValueError("A is not square")
    if B.shape[0] != B.shape[1]:
        raise ValueError("B is not square")
    t = upcast(A.dtype, B.dtype)
    left = kron(identity(B.shape[0], dtype=t, device=A.device), A,
                format="coo")
    right = kron(B, identity(A.shape[0], dtype=t, device=A.device),
                 format="coo")
    return asformat(left + right, format)


# -- extraction -------------------------------------------------------------

def _triangle(A, k, format, lower):
    a = _coo(A, _device([A]))
    k = int(k)
    keep = (a.row + k >= a.col) if lower else (a.row + k <= a.col)
    out = _sp.coo_matrix((a.data[keep], (a.row[keep], a.col[keep])),
                         shape=a.shape, dtype=a.dtype)
    return asformat(out, format)


@_gives("inputs")
def tril(A, k=0, format=None):
    """SciPy's tril: the elements on and below diagonal k, COO unless
    format says."""
    return _triangle(A, k, format, True)


@_gives("inputs")
def triu(A, k=0, format=None):
    """SciPy's triu: the elements on and above diagonal k."""
    return _triangle(A, k, format, False)


def find(A):
    """SciPy's find: (row, col, value) of the nonzero elements, duplicates
    summed, in row-major order; indices int32 where the shape allows."""
    a = _coo(A, _device([A])).copy()
    a.sum_duplicates()
    keep = a.data != 0
    it = index_dtype(max(a.shape, default=0))
    return a.row[keep].astype(it), a.col[keep].astype(it), a.data[keep]


__all__ = ["get_index_dtype", "isspmatrix_csr", "isspmatrix_csc",
           "isspmatrix_coo", "isspmatrix_dia", "diags_array", "diags",
           "spdiags", "eye", "eye_array", "identity", "hstack", "vstack",
           "bmat", "block_array", "block_diag", "kron", "kronsum", "tril",
           "triu", "find", "dia_matrix", "dia_array", "SparseWarning",
           "SparseEfficiencyWarning", "SparseFormatWarning"]
