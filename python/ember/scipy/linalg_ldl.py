"""scipy.linalg.ldl: the Bunch-Kaufman LDL^T (LDL^H) factorisation by
LAPACK's sytrf/hetrf (include/ember/lapack.h) on the cpu device, then
SciPy's unpacking: its reading of ipiv into swaps and block sizes and
its row swaps of the triangular factor. The swaps' bookkeeping is
integers on the host, as SciPy's is; it ends in one gather index a
column (each column of L sees the swaps whose column range holds it),
so the factor is moved by a single take_along_axis on the device."""
import warnings

import numpy as _np

import ember as _e
from ember import _ember as _c
from ember.scipy._linalg_common import (
    arrs, check_finite as _check, colmajor, lapack_dtype)
from ember.scipy.linalg_schur import _host


def _sanitize_ipiv(a, lower):
    """SciPy's _ldl_sanitize_ipiv: LAPACK's ipiv as (swap, pivots)."""
    n = a.size
    swap = _np.arange(n)
    pivots = _np.zeros(n, dtype=int)
    skip = False
    x, y, rs, re, ri = (1, 0, 0, n, 1) if lower else (-1, -1, n - 1, -1, -1)
    for ind in range(rs, re, ri):
        if skip:
            skip = False
            continue
        cur = a[ind]
        if cur > 0:
            if cur != ind + 1:
                swap[ind] = swap[cur - 1]
            pivots[ind] = 1
        elif cur < 0 and cur == a[ind + x]:
            if -cur != ind + 2:
                swap[ind + x] = swap[-cur - 1]
            pivots[ind + y] = 2
            skip = True
        else:
            raise ValueError("While parsing the permutation array in "
                             '"scipy.linalg.ldl", invalid entries found. '
                             "The array syntax is invalid.")
    return swap, pivots


def _gather_rows(swap, pivs, lower):
    """(idx, perm): lu's rows after SciPy's swaps are lu[idx[r, c], c],
    and perm is SciPy's permutation. A swap applied before the others
    relabels the composed row map's values, so the maps for the columns
    build up one swap at a time."""
    n = swap.size
    src = _np.arange(n)
    idx = _np.empty((n, n), dtype=_np.int64)
    if lower:
        # column c sees the swaps at rows <= c, and at c + 1 when that
        # row closes a 2x2 block
        first = [c + 1 if c + 1 < n and swap[c + 1] != c + 1 and
                 pivs[c + 1] == 0 else c for c in range(n)]
        order = range(n)
    else:
        first = [c - 1 if c >= 1 and swap[c - 1] != c - 1 and
                 pivs[c - 1] == 2 else c for c in range(n)]
        order = range(n - 1, -1, -1)
    cols = {}
    for c, k in enumerate(first):
        cols.setdefault(k, []).append(c)
    for k in order:
        s = swap[k]
        if s != k:
            src = _np.where(src == s, k, _np.where(src == k, s, src))
        for c in cols.get(k, ()):
            idx[:, c] = src
    return idx, _np.argsort(src)


def _ldl_one(a, lower, hermitian):
    n = a.shape[-1]
    cplx = a.dtype.kind == "c"
    c = colmajor(a)
    ipiv = _e.zeros((n,), dtype=_e.int64, device=a.device)
    _c._la_sytrf(c, ipiv, _e.zeros((), dtype=_e.int32, device=a.device),
                 int(lower), int(cplx and hermitian))
    ldu = _e.matrix_transpose(c)
    swap, pivs = _sanitize_ipiv(_host(ipiv), lower)
    d = _e.diag(_e.diagonal(ldu))
    eye = _e.eye(n, dtype=ldu.dtype, device=a.device)
    lu = (_e.tril(ldu, -1) if lower else _e.triu(ldu, 1)) + eye
    sizes = pivs[pivs != 0]
    starts = _np.concatenate([[0], _np.cumsum(sizes)[:-1]]).astype(_np.int64)
    blk = starts[sizes == 2]
    if blk.size:
        x, y = (1, 0) if lower else (0, 1)
        r = _e.asarray(blk + x, device=a.device)
        q = _e.asarray(blk + y, device=a.device)
        v = ldu[r, q]
        d = d.copy()
        d[r, q] = v
        d[q, r] = _e.conj(v) if cplx and hermitian else v
        lu = lu.copy()
        lu[r, q] = _e.zeros(v.shape, dtype=v.dtype, device=a.device)
    idx, perm = _gather_rows(swap, pivs, lower)
    lu = _e.take_along_axis(lu, _e.asarray(idx, device=a.device), axis=0)
    return lu, d, _e.asarray(perm.astype(_np.int64), device=a.device)


def ldl(A, lower=True, hermitian=True, overwrite_a=False, check_finite=True):
    """scipy.linalg.ldl: (lu, d, perm) with A = lu d lu^H (lu^T when not
    hermitian); lu[perm] is triangular. perm is an int64 ember array."""
    (a,) = arrs(A)
    if check_finite:
        _check(a)
    a = _e.atleast_2d(a)
    if a.shape[-1] != a.shape[-2]:
        raise ValueError('The input array "a" should be square.')
    dt = lapack_dtype(a)
    a = a.astype(dt, copy=False)
    if a.size == 0:
        return (_e.empty(a.shape, dtype=dt, device=a.device),
                _e.empty(a.shape, dtype=dt, device=a.device),
                _e.empty(a.shape[:-1], dtype=_e.int64, device=a.device))
    if a.device.type != "cpu":
        raise NotImplementedError(
            f"ember.scipy.linalg.ldl on {a.device}: ember does not bind "
            "cuSOLVER's sytrf, so it factors only on the cpu device; move "
            "the operand there (ember.asarray(a, device='cpu'))")
    if dt.kind == "c" and hermitian and \
            bool(_e.any(_e.imag(_e.diagonal(a, axis1=-2, axis2=-1)) != 0)):
        warnings.warn("scipy.linalg.ldl():\nThe imaginary parts of the "
                      "diagonalare ignored. Use \"hermitian=False\" for "
                      "factorization ofcomplex symmetric arrays.",
                      _np.exceptions.ComplexWarning, stacklevel=2)
    if a.ndim == 2:
        return _ldl_one(a, lower, hermitian)
    outs = [_ldl_one(a[i], lower, hermitian)
            for i in _np.ndindex(a.shape[:-2])]
    return tuple(_e.stack([o[k] for o in outs]).reshape(
        a.shape[:-2] + tuple(outs[0][k].shape)) for k in range(3))
