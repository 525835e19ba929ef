"""Series evaluation shared by numpy's legacy polyval (poly1d's call) and
numpy.polynomial's polyval and the orthogonal bases' *val: one kernel over every
output element (Horner's rule, kernels/horner.c, or Clenshaw's,
kernels/clenshaw.c), with the coefficients read from device memory, so
an evaluation is one launch whatever the degree."""
from ember import _ember as _e
from ember._api._util import kernel


_BASES = {"power": 0, "chebyshev": 1, "legendre": 2, "hermite": 3,
          "hermite_e": 4, "laguerre": 5}


def horner(c, x, dtype, tensor, basis="power"):
    """sum_k c[k] * B_k(x) in `dtype`, B_k = x**k (basis 'power'), T_k
    ('chebyshev'), P_k ('legendre'), H_k ('hermite'), He_k ('hermite_e')
    or L_k ('laguerre'). c is an ember array (n, *rest) with
    n >= 1 on x's device. With tensor the result is rest + x.shape (each
    column of c at every x, numpy.polynomial's default), else rest and
    x.shape broadcast together (legacy polyval and tensor=False)."""
    dtype = _e.dtype(dtype)
    n, rest = c.shape[0], c.shape[1:]
    m = 1
    for d in rest:
        m *= d
    col = _e.arange(m, dtype=_e.int64, device=x.device).reshape(rest)
    if tensor:
        col = col.reshape(rest + (1,) * x.ndim)
    shape = _e.broadcast_shapes(col.shape, x.shape)
    out = _e.empty(shape, dtype=dtype, device=x.device)
    if out.size == 0:
        return out
    b = _BASES[basis]
    if dtype.kind == "c":
        c = c.astype(dtype, copy=False).reshape(n, m)
        x = x.astype(dtype, copy=False)
        parts = (_e.real(x), _e.imag(x), col,
                 _e.ascontiguousarray(_e.real(c)),
                 _e.ascontiguousarray(_e.imag(c)), n, m)
        if b == 0:
            kernel("horner_complex",
                   "T xr, T xi, int64 col, raw T cr, raw T ci, int64 n, int64 m",
                   "T yr, T yi")(*parts, out.real, out.imag)
        else:
            kernel("clenshaw_complex",
                   "T xr, T xi, int64 col, raw T cr, raw T ci, int64 n, int64 m, "
                   "int64 basis", "T yr, T yi")(*parts, b, out.real, out.imag)
        return out
    # raw 16-bit parameters are not bound: such values are summed in float32
    wt = _e.float32 if dtype in (_e.float16, _e.bfloat16) else dtype
    c = _e.ascontiguousarray(c.astype(wt, copy=False).reshape(n, m))
    y = out if wt == dtype else _e.empty(shape, dtype=wt, device=x.device)
    if b == 0:
        kernel("horner", "T x, int64 col, raw T c, int64 n, int64 m", "T y")(
            x.astype(wt, copy=False), col, c, n, m, y)
    else:
        kernel("clenshaw", "T x, int64 col, raw T c, int64 n, int64 m, "
               "int64 basis", "T y")(x.astype(wt, copy=False), col, c, n, m, b, y)
    return y if wt == dtype else y.astype(dtype)
