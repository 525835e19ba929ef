"""scipy.linalg's Schur family: schur, rsf2csf, hessenberg, qz, ordqz.
The factorisations are LAPACK's (gees + trsen, gehrd + orghr, gges +
tgsen through include/ember/lapack.h's raw calls) on the cpu device;
cuSOLVER has no Schur, Hessenberg or QZ routine, so on cuda each raises
NotImplementedError saying so. A stack (..., n, n) is factored in one C
call, as SciPy 1.17's batch support does matrix by matrix."""
import warnings

import numpy as _np

import ember as _e
from ember import _ember as _c
from ember.scipy._linalg_common import (
    arrs, check_finite as _check, colmajor, lapack_dtype, linalg_error)

_COMPLEX = {"float32": _e.complex64, "float64": _e.complex128,
            "complex64": _e.complex64, "complex128": _e.complex128}


def cpu_only(name, what, x):
    """cuSOLVER has no routine for what: raise on any device but cpu."""
    if x.device.type != "cpu":
        raise NotImplementedError(
            f"ember.scipy.linalg.{name} on {x.device}: cuSOLVER has no "
            f"{what}, so ember computes it only on the cpu device; move the "
            "operands there (ember.asarray(x, device='cpu'))")


def _square(a, msg):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(msg)


def _info(x):
    return _e.zeros(x.shape[:-2], dtype=_e.int32, device=x.device)


def _host(x):
    """A small array read back for host bookkeeping (eigenvalues, flags,
    a diagonal), as SciPy reads them."""
    return _e.asnumpy(x) if isinstance(x, _e.ndarray) else _np.asarray(x)


def _output(output):
    if output not in ("real", "complex", "r", "c"):
        raise ValueError("argument must be 'real', or 'complex'")
    return output in ("complex", "c")


def _schur_select(sort, w, real):
    """gees's select on the host: one flag an eigenvalue (SciPy calls a
    user's callable once an eigenvalue too, with (re, im) for real a)."""
    if callable(sort):
        flat = w.reshape(-1)
        if real:
            sel = [bool(sort(z.real, z.imag)) for z in flat]
        else:
            sel = [bool(sort(z)) for z in flat]
        return _np.array(sel, dtype=_np.int64).reshape(w.shape)
    rules = {"lhp": lambda z: z.real < 0.0, "rhp": lambda z: z.real >= 0.0,
             "iuc": lambda z: abs(z) <= 1.0, "ouc": lambda z: abs(z) > 1.0}
    if sort not in rules:
        raise ValueError("'sort' parameter must either be 'None', or a "
                         "callable, or one of ('lhp','rhp','iuc','ouc')")
    return rules[sort](w).astype(_np.int64)


def schur(a, output="real", lwork=None, overwrite_a=False, sort=None,
          check_finite=True):
    """scipy.linalg.schur: (T, Z) with a = Z T Z^H, and sdim when sort is
    given (an int, or an int64 array for a stack)."""
    cplx = _output(output)
    (a,) = arrs(a)
    if check_finite:
        _check(a)
    _square(a, "expected square matrix")
    dt = lapack_dtype(a)
    if cplx:
        dt = _COMPLEX[_e.dtype(dt).name]
    if a.size == 0:
        t = _e.empty(a.shape, dtype=dt, device=a.device)
        z = _e.empty(a.shape, dtype=dt, device=a.device)
        return (t, z) if sort is None else (t, z, 0)
    cpu_only("schur", "Schur decomposition (LAPACK's gees)", a)
    t = colmajor(a.astype(dt, copy=False))
    z = _e.empty(t.shape, dtype=dt, device=a.device)
    w = _e.empty(a.shape[:-1], dtype=_COMPLEX[_e.dtype(dt).name],
                 device=a.device)
    info = _info(t)
    _c._la_gees(t, w, z, info)
    if bool(_e.any(info > 0)):
        raise linalg_error("Schur form not found. Possibly ill-conditioned.")
    if sort is None:
        return _e.matrix_transpose(t), _e.matrix_transpose(z)
    sel = _schur_select(sort, _host(w), _e.dtype(dt).kind == "f")
    sel = _e.asarray(sel, device=a.device)
    m = _e.zeros(a.shape[:-2], dtype=_e.int64, device=a.device)
    _c._la_trsen(t, z, sel, w, m, info)
    if bool(_e.any(info > 0)):
        raise linalg_error("Eigenvalues could not be separated for "
                           "reordering.")
    sdim = int(m) if m.ndim == 0 else m
    return _e.matrix_transpose(t), _e.matrix_transpose(z), sdim


def rsf2csf(T, Z, check_finite=True):
    """scipy.linalg.rsf2csf: the complex Schur form of a real one. Each
    2x2 block gets SciPy's Givens rotation; the blocks never touch, so
    the rotations are one block-diagonal G applied as T <- G T G^H,
    Z <- Z G^H (two products instead of a Python loop over rows)."""
    Z, T = arrs(Z, T)
    if check_finite:
        _check(Z, T)
    for name, x in (("Z", Z), ("T", T)):
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise ValueError(f"Input '{name}' must be square.")
    if T.shape[-1] != Z.shape[-1]:
        raise ValueError(f"Input array shapes must match: Z: {Z.shape} vs. "
                         f"T: {T.shape}")
    dt = _COMPLEX[_e.dtype(lapack_dtype(Z, T)).name]
    if T.ndim > 2 or Z.ndim > 2:
        batch = _e.broadcast_shapes(T.shape[:-2], Z.shape[:-2])
        Tb = _e.broadcast_to(T, batch + T.shape[-2:])
        Zb = _e.broadcast_to(Z, batch + Z.shape[-2:])
        outs = [rsf2csf(Tb[i], Zb[i], False) for i in _np.ndindex(batch)]
        n = T.shape[-1]
        return (_e.stack([o[0] for o in outs]).reshape(batch + (n, n)),
                _e.stack([o[1] for o in outs]).reshape(batch + (n, n)))
    T = T.astype(dt, copy=True)
    Z = Z.astype(dt, copy=True)
    n = T.shape[0]
    if n < 2:
        return T, Z
    # SciPy tests each subdiagonal entry against float64's eps (its
    # module's eps), whatever the dtype: the block's values are read back.
    th = _host(T)
    m = _np.arange(1, n)
    sub = th[m, m - 1]
    eps = _np.finfo(float).eps
    blk = m[abs(sub) > eps * (abs(th[m - 1, m - 1]) + abs(th[m, m]))]
    if blk.size:
        a, b = th[blk - 1, blk - 1], th[blk - 1, blk]
        c, d = th[blk, blk - 1], th[blk, blk]
        # eigvals of the block: LAPACK's first is the one with the
        # positive imaginary part for a standardized real block
        half = (a - d) / 2
        root = _np.sqrt(half * half + b * c + 0j)
        lam = (a + d) / 2 + _np.where(root.imag < 0, -root, root)
        mu = lam - d
        r = _np.sqrt(abs(mu) ** 2 + abs(c) ** 2)
        cs, sn = mu / r, c / r
        g = _np.eye(n, dtype=_np.complex128)
        g[blk - 1, blk - 1] = cs.conj()
        g[blk - 1, blk] = sn
        g[blk, blk - 1] = -sn
        g[blk, blk] = cs
        G = _e.asarray(g.astype(_e.dtype(dt).name), device=T.device)
        Gh = _e.conj(G.T)
        T = G @ T @ Gh
        Z = Z @ Gh
    return _e.triu(T), Z


def hessenberg(a, calc_q=False, overwrite_a=False, check_finite=True):
    """scipy.linalg.hessenberg: H (and Q with a = Q H Q^H) by gehrd and
    orghr, without balancing, as SciPy's."""
    (a,) = arrs(a)
    if check_finite:
        _check(a)
    _square(a, "expected square matrix")
    n = a.shape[-1]
    dt = lapack_dtype(a)
    if a.size == 0:
        h = _e.empty(a.shape, dtype=dt, device=a.device)
        return (h, _e.empty(a.shape, dtype=dt, device=a.device)) \
            if calc_q else h
    if n <= 2:
        # SciPy hands a 1x1 or 2x2 matrix back as it is, Q the identity
        if not calc_q:
            return a
        q = _e.broadcast_to(_e.eye(n, device=a.device), a.shape).copy()
        return a, q
    cpu_only("hessenberg", "Hessenberg reduction (LAPACK's gehrd)", a)
    h = colmajor(a.astype(dt, copy=False))
    q = _e.empty(h.shape, dtype=dt, device=a.device) if calc_q else None
    _c._la_gehrd(h, q, _info(h))
    h = _e.matrix_transpose(h)
    return (h, _e.matrix_transpose(q)) if calc_q else h


def _qz(A, B, output, sort, check_finite, name):
    if sort is not None:
        raise ValueError("The 'sort' input of qz() has to be None and will "
                         "be removed in a future release. Use ordqz "
                         "instead.")
    cplx = _output(output)
    A, B = arrs(A, B)
    if check_finite:
        _check(A, B)
    if A.ndim < 2 or B.ndim < 2 or A.shape[-2:] != B.shape[-2:] or \
            A.shape[-1] != A.shape[-2]:
        raise ValueError("Array dimensions must be square and agree")
    dt = lapack_dtype(A, B)
    if cplx:
        dt = _COMPLEX[_e.dtype(dt).name]
    batch = _e.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    n = A.shape[-1]
    ct = _COMPLEX[_e.dtype(dt).name]
    if A.size == 0 or B.size == 0 or n == 0:
        mk = lambda t, s: _e.empty(batch + s, dtype=t, device=A.device)  # noqa
        return (mk(dt, (n, n)), mk(dt, (n, n)), mk(ct, (n,)), mk(dt, (n,)),
                mk(dt, (n, n)), mk(dt, (n, n)))
    cpu_only(name, "generalized Schur (QZ) decomposition (LAPACK's gges)",
             A)
    a = colmajor(_e.broadcast_to(A.astype(dt, copy=False), batch + (n, n)))
    b = colmajor(_e.broadcast_to(B.astype(dt, copy=False), batch + (n, n)))
    alpha = _e.empty(batch + (n,), dtype=ct, device=A.device)
    beta = _e.empty(batch + (n,), dtype=dt, device=A.device)
    q = _e.empty(a.shape, dtype=dt, device=A.device)
    z = _e.empty(a.shape, dtype=dt, device=A.device)
    info = _info(a)
    _c._la_gges(a, b, alpha, beta, q, z, info)
    inf = _host(info)
    if (inf == n + 1).any():
        raise linalg_error("Something other than QZ iteration failed")
    bad = inf[(inf > 0) & (inf <= n)]
    if bad.size:
        warnings.warn(
            "The QZ iteration failed. (a,b) are not in Schur form, but "
            "ALPHAR(j), ALPHAI(j), and BETA(j) should be correct for "
            f"J={int(bad[0]) - 1},...,N", _lin_warning(), stacklevel=3)
    return a, b, alpha, beta, q, z


def _lin_warning():
    from ember.scipy.linalg_lu import LinAlgWarning
    return LinAlgWarning


def qz(A, B, output="real", lwork=None, sort=None, overwrite_a=False,
       overwrite_b=False, check_finite=True):
    """scipy.linalg.qz: (AA, BB, Q, Z) with A = Q AA Z^H, B = Q BB Z^H."""
    a, b, _, _, q, z = _qz(A, B, output, sort, check_finite, "qz")
    T = _e.matrix_transpose
    return T(a), T(b), T(q), T(z)


def _ordqz_select(sort, alpha, beta):
    """SciPy's selectors over (alpha, beta), on the host; a callable gets
    the ember arrays, as SciPy's gets its arrays."""
    if callable(sort):
        return _np.asarray(_host(_e.asarray(sort(alpha, beta)))) \
            .astype(_np.int64)
    al, be = _host(alpha), _host(beta)
    nz = be != 0
    q = _np.divide(al, be, out=_np.zeros_like(al), where=nz)
    if sort == "lhp":
        out = nz & (q.real < 0.0)
    elif sort == "rhp":
        out = nz & (q.real > 0.0)
    elif sort == "iuc":
        out = nz & (abs(q) < 1.0)
    elif sort == "ouc":
        out = _np.where(nz, abs(q) > 1.0, al != 0)
    else:
        raise ValueError("sort parameter must be None, a callable, or one "
                         "of ('lhp','rhp','iuc','ouc')")
    return out.astype(_np.int64)


def ordqz(A, B, sort="lhp", output="real", overwrite_a=False,
          overwrite_b=False, check_finite=True):
    """scipy.linalg.ordqz: qz, then tgsen moves the selected generalized
    eigenvalues to the leading block: (AA, BB, alpha, beta, Q, Z)."""
    if not callable(sort) and sort not in ("lhp", "rhp", "iuc", "ouc"):
        raise ValueError("sort parameter must be None, a callable, or one "
                         "of ('lhp','rhp','iuc','ouc')")
    a, b, alpha, beta, q, z = _qz(A, B, output, None, check_finite,
                                  "ordqz")
    T = _e.matrix_transpose
    if a.shape[-1] == 0:
        return T(a), T(b), alpha, beta, T(q), T(z)
    sel = _e.asarray(_ordqz_select(sort, alpha, beta), device=a.device)
    sel = _e.broadcast_to(sel, alpha.shape).copy()
    info = _info(a)
    _c._la_tgsen(a, b, q, z, sel, alpha, beta, info)
    if bool(_e.any(info == 1)):
        raise ValueError(
            "Reordering of (A, B) failed because the transformed matrix "
            "pair (A, B) would be too far from generalized Schur form; the "
            "problem is very ill-conditioned. (A, B) may have been "
            "partially reordered.")
    return T(a), T(b), alpha, beta, T(q), T(z)
