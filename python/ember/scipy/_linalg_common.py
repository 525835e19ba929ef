"""What ember.scipy.linalg's families share: SciPy's input handling
(dtypes, the finiteness check, batch broadcasting) and the raw LU pair
of the array's device (cuSOLVER's getrf/getrs on CUDA, LAPACK's on cpu,
one signature: include/ember/cusolver.h, include/ember/lapack.h)."""
import ember as _e
from ember import _ember as _c


def linalg_error(msg):
    """numpy.linalg.LinAlgError, which scipy.linalg.LinAlgError is."""
    return _c._np_exception("LinAlgError")(msg)


def arr(x, like=None):
    if isinstance(x, _e.ndarray):
        return x
    return _e.asarray(x, device=like.device if like is not None else None)


def arrs(*xs):
    """Every x as an ember array on the device of the first that is one."""
    like = next((x for x in xs if isinstance(x, _e.ndarray)), None)
    if like is None and xs:
        like = _e.asarray(xs[0])
        xs = (like,) + xs[1:]
    return [None if x is None else arr(x, like) for x in xs]


def lapack_dtype(*xs):
    """SciPy's LAPACK dtype for the operands: float16 computes in float32,
    integers and bools in float64, and complex wins."""
    cplx = double = False
    for x in xs:
        k = x.dtype.kind
        if k == "c":
            cplx = True
            double |= x.dtype.itemsize == 16
        elif k == "f":
            if x.dtype.itemsize > 8:
                raise TypeError(f"array type {x.dtype.name} is unsupported "
                                "in linalg")
            double |= x.dtype.itemsize == 8
        elif k in "biu":
            double = True
        else:
            raise TypeError(f"array type {x.dtype.name} is unsupported in "
                            "linalg")
    if cplx:
        return _e.complex128 if double else _e.complex64
    return _e.float64 if double else _e.float32


def real_of(t):
    return {"complex64": _e.float32, "complex128": _e.float64}.get(
        _e.dtype(t).name, _e.dtype(t))


def check_finite(*xs):
    """SciPy's check_finite=True: a NaN or an infinity is a ValueError
    (one reduction and one read back a call)."""
    for x in xs:
        if x is not None and x.dtype.kind in "fc" and x.size and \
                not bool(_e.all(_e.isfinite(x))):
            raise ValueError("array must not contain infs or NaNs")


def prepared(a, finite):
    """a as an ember array in SciPy's LAPACK dtype, checked for NaN and
    infinities when finite (check_finite=True)."""
    a = arr(a)
    if finite:
        check_finite(a)
    return a.astype(lapack_dtype(a), copy=False)


def ctrans(x):
    """The conjugate transpose of the last two axes."""
    return _e.conj(_e.matrix_transpose(x))


def square(a, name="a"):
    if a.ndim < 2:
        raise ValueError(f"Expected at least ndim=2, got a1.ndim={a.ndim}"
                         if name == "a" else
                         f"expected at least 2-D {name}, got {a.ndim}-D")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"Expected square matrix, got a1.shape={a.shape}"
                         if name == "a" else
                         f"expected square matrix {name}, got {a.shape}")


def colmajor(a):
    """A fresh C-contiguous stack of a's matrices in column-major order."""
    return _e.matrix_transpose(a).copy()


def getrf(c):
    """LU of each column-major matrix of c (in place): (ipiv 1-based
    int64, info int32)."""
    k = min(c.shape[-2:])
    ipiv = _e.empty(c.shape[:-2] + (k,), dtype=_e.int64, device=c.device)
    info = _e.zeros(c.shape[:-2], dtype=_e.int32, device=c.device)
    (_c._la_getrf if c.device.type == "cpu" else _c._cus_getrf)(c, ipiv, info)
    return ipiv, info


def getrs(lu_cm, ipiv, x_cm, trans):
    """op(A) X = B with getrf's column-major factors; x_cm, B's column-major
    stack, is overwritten by X. trans 0 (A), 1 (A^T), 2 (A^H)."""
    info = _e.zeros(x_cm.shape[:-2], dtype=_e.int32, device=x_cm.device)
    (_c._la_getrs if x_cm.device.type == "cpu" else _c._cus_getrs)(
        lu_cm, ipiv, x_cm, trans, info)
    return x_cm


def identity_pivots(batch, n, device):
    r = _e.arange(1, n + 1, dtype=_e.int64, device=device)
    return _e.broadcast_to(r, batch + (n,)).copy()


def upper_solve(u, b, trans, unit=False):
    """op(U) X = B for upper-triangular u (..., n, n), b (..., n, k),
    batches equal: getrs over the factors L = I (identity pivots) and U,
    so the vendor's triangular solves do the work without a trsm
    binding. Entries below u's diagonal are ignored."""
    n = u.shape[-1]
    f = _e.triu(u, 1) if unit else _e.triu(u)
    if unit:
        f = f + _e.eye(n, dtype=u.dtype, device=u.device)
    lu = colmajor(f)
    x = colmajor(b)
    getrs(lu, identity_pivots(u.shape[:-2], n, u.device), x, trans)
    return _e.matrix_transpose(x)


def broadcast_batch(a, b):
    """a (..., n, n) and b (..., n, k) broadcast to one batch shape."""
    batch = _e.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return (_e.broadcast_to(a, batch + a.shape[-2:]),
            _e.broadcast_to(b, batch + b.shape[-2:]))


def singular_slices(bad):
    """SciPy's batched message: the flat indices of the singular slices."""
    flat = _e.nonzero(bad.reshape(-1))[0]
    return [int(i) for i in _e.asnumpy(flat)]
