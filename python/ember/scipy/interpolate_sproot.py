"""The zeros of a cubic spline (FITPACK's sproot, which SciPy's
UnivariateSpline.roots() calls), as array work on the spline's device.

Each knot interval is cut at the zeros of the spline's derivative (a
quadratic there), so that the spline is monotone on every piece. A
piece whose ends have opposite signs holds one simple zero, found by
bisection on all pieces at once; a knot where the spline is zero
(within rounding of the coefficients) is a zero unless the spline
vanishes on both sides. Like sproot, this reports no zero where the
spline only touches the axis inside a piece (a double zero without a
change of sign); at the ends of the base interval, where the value is
zero only to rounding, sproot may report a zero or not."""
import ember as _e

__all__ = ["sproot"]

_BISECTIONS = 64   # halvings of a piece: beyond a double's resolution


def _critical(d1, d2, d3, h):
    """(N, 2): the zeros of s'(t_l + u) = d1 + d2 u + d3/2 u^2 inside
    (0, h), or 0 (the piece's left end) where there is none."""
    a = 0.5 * d3
    disc = d2 * d2 - 4.0 * a * d1
    sq = _e.sqrt(_e.where(disc > 0, disc, 0.0))
    q = -0.5 * (d2 + _e.where(d2 >= 0, sq, -sq))
    quad = (a != 0) & (disc >= 0)
    u1 = _e.where(quad & (a != 0), q / _e.where(a == 0, 1.0, a), 0.0)
    u2 = _e.where(quad & (q != 0), d1 / _e.where(q == 0, 1.0, q), 0.0)
    lin = (a == 0) & (d2 != 0)
    u1 = _e.where(lin, -d1 / _e.where(d2 == 0, 1.0, d2), u1)
    out = []
    for u in (u1, u2):
        out.append(_e.where((u > 0) & (u < h), u, 0.0))
    lo = _e.minimum(out[0], out[1])
    hi = _e.maximum(out[0], out[1])
    return _e.stack((lo, hi), axis=1)


def sproot(spl):
    """The zeros of the cubic BSpline spl (1-D coefficients), ascending,
    on its base interval."""
    t, k = spl.t, spl.k
    n = t.shape[0] - k - 1
    left, right = t[k:n], t[k + 1:n + 1]
    keep = right > left
    left, right = left[keep], right[keep]
    if left.shape[0] == 0:
        return _e.zeros((0,), dtype=_e.float64, device=t.device)
    h = right - left
    d = [spl.derivative(j)._values(left)[:, 0] for j in (1, 2, 3)]
    u = _critical(d[0], d[1], d[2], h)
    zero = _e.zeros(h.shape, dtype=h.dtype, device=h.device)
    us = _e.concatenate((zero[:, None], u, h[:, None]), axis=1)  # (N, 4)
    # A point repeating the one before it (a missing critical point, or
    # an interval's left knot, which ends the interval before) is dropped.
    first = _e.arange(us.shape[0], device=h.device) == 0
    fresh = _e.concatenate((first[:, None], us[:, 1:] > us[:, :-1]), axis=1)
    sel = fresh.reshape(-1)
    xs = (left[:, None] + us).reshape(-1)[sel]
    col = _e.arange(4, device=h.device)[None, :] + 0 * us.astype(_e.int64)
    knot = ((col == 0) | (col == 3)).reshape(-1)[sel]
    xs = _e.where(xs > spl._hi, spl._hi, xs)
    f = spl._values(xs)[:, 0]
    # Within rounding of the coefficients, a knot's value is zero (sproot
    # accepts its cubic's zeros a little outside each interval).
    tiny = 8 * 2.220446049250313e-16 * _e.max(_e.abs(spl.c))
    f = _e.where(knot & (_e.abs(f) <= tiny), 0.0, f)
    # a zero at a point, unless the spline is zero on both sides of it
    z = f == 0
    nz = ~z
    no = _e.zeros((1,), dtype=_e.bool_, device=f.device)
    beside = (_e.concatenate((no, nz[:-1])) |
              _e.concatenate((nz[1:], no)))
    at = xs[z & beside]
    # a change of sign between neighbouring points: bisection
    change = (f[:-1] * f[1:]) < 0
    a, b = xs[:-1][change], xs[1:][change]
    if a.shape[0]:
        fa = f[:-1][change]
        for _ in range(_BISECTIONS):
            mid = 0.5 * (a + b)
            fm = spl._values(mid)[:, 0]
            same = (fm * fa) > 0
            a = _e.where(same, mid, a)
            fa = _e.where(same, fm, fa)
            b = _e.where(same, b, mid)
        a = 0.5 * (a + b)
    return _e.sort(_e.concatenate((at, a)))
