"""Polynomial evaluation shared by numpy's legacy polyval (poly1d's call)
and numpy.polynomial's polyval: one Horner kernel (kernels/horner.c) over
every output element, with the coefficients read from device memory, so
an evaluation is one launch whatever the degree."""
from ember import _ember as _e
from ember._api._util import kernel, real_dtype


def horner(c, x, dtype, tensor):
    """sum_k c[k] * x**k in `dtype`. c is an ember array (n, *rest) with
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
    if dtype.kind == "c":
        rt = real_dtype(dtype)
        c = c.astype(dtype, copy=False).reshape(n, m)
        x = x.astype(dtype, copy=False)
        kernel("horner_complex",
               "T xr, T xi, int64 col, raw T cr, raw T ci, int64 n, int64 m",
               "T yr, T yi")(
            _e.real(x), _e.imag(x), col,
            _e.ascontiguousarray(_e.real(c)), _e.ascontiguousarray(_e.imag(c)),
            n, m, out.real, out.imag)
        return out
    # raw 16-bit parameters are not bound: such values are summed in float32
    wt = _e.float32 if dtype in (_e.float16, _e.bfloat16) else dtype
    c = _e.ascontiguousarray(c.astype(wt, copy=False).reshape(n, m))
    y = out if wt == dtype else _e.empty(shape, dtype=wt, device=x.device)
    kernel("horner", "T x, int64 col, raw T c, int64 n, int64 m", "T y")(
        x.astype(wt, copy=False), col, c, n, m, y)
    return y if wt == dtype else y.astype(dtype)
