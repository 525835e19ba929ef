"""NumPy's products that are elementwise products over broadcast views:
cross (numpy.cross, and through it ember.linalg.cross), kron, and the
gufuncs matvec and vecmat (NumPy 2.2) as matmul over a vector axis."""
import warnings

from ember import _ember as _e
from ember._api._util import as_array, device_of, normalize_axis


def _two(a, b):
    dev = device_of(a, b)
    return as_array(a, dev), as_array(b, dev)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-element (or, deprecated, 2-element) vectors
    along axisa of a and axisb of b, written along axisc of the result
    (the vectors' other axes broadcast); axis sets all three."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = _two(a, b)
    if a.ndim < 1 or b.ndim < 1:
        raise ValueError("At least one array has zero dimension")
    a = _e.moveaxis(a, normalize_axis(axisa, a.ndim, "axisa"), -1)
    b = _e.moveaxis(b, normalize_axis(axisb, b.ndim, "axisb"), -1)
    na, nb = a.shape[-1], b.shape[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if na == 2 or nb == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays "
                      "of 3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    dt = _e.promote_types(a.dtype, b.dtype)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    shape = _e.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    if na == 2 and nb == 2:
        return _e.subtract(a0 * b1, a1 * b0)
    shape += (3,)
    axisc = normalize_axis(axisc, len(shape), "axisc")
    cp = _e.empty(shape, dt, device=a.device)
    a2 = a[..., 2] if na == 3 else None
    b2 = b[..., 2] if nb == 3 else None
    # NumPy's terms, with the missing third component taken as zero:
    # it negates the products that stand alone rather than subtract them
    # from 0, so a 0 component keeps its sign as NumPy gives it.
    if na == 3 and nb == 3:
        _e.subtract(a1 * b2, a2 * b1, out=cp[..., 0])
        _e.subtract(a2 * b0, a0 * b2, out=cp[..., 1])
    elif na == 2:
        _e.multiply(a1, b2, out=cp[..., 0])
        _e.negative(a0 * b2, out=cp[..., 1])
    else:
        _e.negative(a2 * b1, out=cp[..., 0])
        _e.multiply(a2, b0, out=cp[..., 1])
    _e.subtract(a0 * b1, a1 * b0, out=cp[..., 2])
    return _e.moveaxis(cp, -1, axisc)


def kron(a, b):
    """The Kronecker product: a's and b's axes interleaved in one broadcast
    multiply, then merged pairwise (the shorter shape padded with 1s)."""
    a, b = _two(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return _e.multiply(a, b)
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    ia = tuple(x for n in sa for x in (n, 1))
    ib = tuple(x for n in sb for x in (1, n))
    r = _e.multiply(a.reshape(ia), b.reshape(ib))
    return r.reshape(tuple(p * q for p, q in zip(sa, sb)))


def _core(name, sig, i, x, need):
    if x.ndim < need:
        raise ValueError(f"{name}: Input operand {i} does not have enough dimensions "
                         f"(has {x.ndim}, gufunc core with signature {sig} requires "
                         f"{need})")


def _mismatch(name, sig, i, dim, got, want):
    raise ValueError(f"{name}: Input operand {i} has a mismatch in its core dimension "
                     f"{dim}, with gufunc signature {sig} (size {got} is different "
                     f"from {want})")


def _into(r, out):
    if out is None:
        return r
    if isinstance(out, tuple):
        out, = out
    out[...] = r
    return out


def matvec(x1, x2, /, out=None, *, dtype=None):
    """The matrix-vector products of x1's matrices (last two axes) with x2's
    vectors (last axis), other axes broadcast: the gufunc (m,n),(n)->(m)."""
    sig = "(m,n),(n)->(m)"
    x1, x2 = _two(x1, x2)
    _core("matvec", sig, 0, x1, 2)
    _core("matvec", sig, 1, x2, 1)
    if x2.shape[-1] != x1.shape[-1]:
        _mismatch("matvec", sig, 1, 0, x2.shape[-1], x1.shape[-1])
    if dtype is not None:
        x1, x2 = x1.astype(dtype, copy=False), x2.astype(dtype, copy=False)
    return _into(_e.matmul(x1, x2[..., None])[..., 0], out)


def vecmat(x1, x2, /, out=None, *, dtype=None):
    """The products of x1's conjugated vectors with x2's matrices: the
    gufunc (n),(n,m)->(m)."""
    sig = "(n),(n,m)->(m)"
    x1, x2 = _two(x1, x2)
    _core("vecmat", sig, 0, x1, 1)
    _core("vecmat", sig, 1, x2, 2)
    if x2.shape[-2] != x1.shape[-1]:
        _mismatch("vecmat", sig, 1, 0, x2.shape[-2], x1.shape[-1])
    if dtype is not None:
        x1, x2 = x1.astype(dtype, copy=False), x2.astype(dtype, copy=False)
    v = _e.conj(x1) if x1.dtype.kind == "c" else x1
    return _into(_e.matmul(v[..., None, :], x2)[..., 0, :], out)
