"""scipy.sparse's save_npz and load_npz: SciPy's .npz layout (the
format's arrays by SciPy's names, `format`, `shape`, `data`), written and
read with NumPy on the host, so files pass between ember and SciPy both
ways, with SciPy's `_is_array` flag: a sparse array saved by either
loads as an array, a matrix as a matrix. ember.scipy.sparse loads it on
first use."""
import numpy as _np

import ember as _e
from ember.scipy import sparse as _sp
from ember.scipy.sparse_dia import device_arg, dia_matrix


def _host(a):
    return _e.asnumpy(a) if isinstance(a, _e.ndarray) else _np.asarray(a)


def save_npz(file, matrix, compressed=True):
    """SciPy's save_npz of an ember (or SciPy) CSR, CSC, COO or DIA
    matrix; the arrays are copied to the host first."""
    fmt = getattr(matrix, "format", None)
    arrays = {}
    if fmt in ("csr", "csc", "bsr"):
        arrays.update(indices=_host(matrix.indices),
                      indptr=_host(matrix.indptr))
    elif fmt == "dia":
        arrays.update(offsets=_host(matrix.offsets))
    elif fmt == "coo" and matrix.ndim == 2:
        arrays.update(row=_host(matrix.row), col=_host(matrix.col))
    elif fmt == "coo":
        arrays.update(coords=[_host(c) for c in matrix.coords])
    else:
        raise NotImplementedError("Save is not implemented for sparse "
                                  f"matrix of format {fmt}.")
    arrays.update(format=fmt.encode("ascii"), shape=matrix.shape,
                  data=_host(matrix.data))
    if _sp._sparray.is_sparray(matrix):
        arrays.update(_is_array=True)
    elif _sp._is_scipy_sparse(matrix):
        import scipy.sparse
        if isinstance(matrix, scipy.sparse.sparray):
            arrays.update(_is_array=True)
    (_np.savez_compressed if compressed else _np.savez)(file, **arrays)


def load_npz(file, device=None):
    """SciPy's load_npz into ember's array or matrix of the file's
    format, its arrays on `device` (the current one by default)."""
    dev = device_arg(device)
    with _np.load(file, allow_pickle=False) as f:
        fmt = f.get("format")
        if fmt is None:
            raise ValueError(f"The file {file} does not contain a sparse "
                             "array or matrix.")
        fmt = fmt.item()
        if not isinstance(fmt, str):
            fmt = fmt.decode("ascii")
        kind = fmt + ("_array" if f.get("_is_array") else "_matrix")
        if fmt not in ("csr", "csc", "coo", "dia", "bsr", "lil", "dok"):
            raise ValueError(f'Unknown format "{kind}"')
        if fmt not in ("csr", "csc", "coo", "dia"):
            raise NotImplementedError(f"ember.scipy.sparse has no {fmt} "
                                      "format: load_npz reads csr, csc, "
                                      "coo and dia files")

        kind_of = _sp._sparray.as_array if f.get("_is_array") else \
            (lambda m: m)

        def up(name):
            return _e.asarray(f[name], device=dev)
        shape = tuple(int(s) for s in f["shape"])
        if fmt in ("csr", "csc"):
            cls = _sp.csr_matrix if fmt == "csr" else _sp.csc_matrix
            return kind_of(cls((up("data"), up("indices"), up("indptr")),
                               shape=shape))
        if fmt == "dia":
            return kind_of(dia_matrix((up("data"), up("offsets")),
                                      shape=shape))
        if "coords" in f:
            coords = f["coords"]
            if len(coords) != 2:
                raise NotImplementedError(
                    f"ember.scipy.sparse holds 2-D matrices only, not a "
                    f"{len(coords)}-D COO array")
            row, col = (_e.asarray(c, device=dev) for c in coords)
        else:
            row, col = up("row"), up("col")
        return kind_of(_sp.coo_matrix((up("data"), (row, col)),
                                      shape=shape))


__all__ = ["save_npz", "load_npz"]
