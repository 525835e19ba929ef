"""ember.scipy.interpolate's cubic interpolants, SciPy's: CubicHermiteSpline,
CubicSpline, PchipInterpolator (pchip_interpolate) and Akima1DInterpolator
('akima' and 'makima'). Each finds the slopes at the samples with array
operations on y's device (CubicSpline's by one tridiagonal solve, parallel
cyclic reduction over every trailing column at once) and becomes a PPoly
whose evaluation is interpolate_ppoly's."""
import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.interpolate_ppoly import (PPoly, _device,
                                           solve_tridiagonal)

__all__ = ["CubicHermiteSpline", "CubicSpline", "PchipInterpolator",
           "pchip_interpolate", "Akima1DInterpolator"]


def _prepare(x, y, axis, dydx=None):
    """SciPy's prepare_input: float64 x (complex128 y stays complex), y's
    axis moved first, and SciPy's checks and messages."""
    dev = _device(x, y, dydx)
    x = _arr(x, dev)
    y = _arr(y, x.device)
    if x.dtype.kind == "c":
        raise ValueError("`x` must contain real values.")
    x = x.astype(_e.float64)
    dt = _e.complex128 if y.dtype.kind == "c" else _e.float64
    if dydx is not None:
        dydx = _arr(dydx, x.device)
        if dydx.shape != y.shape:
            raise ValueError("The shapes of `y` and `dydx` must be "
                             f"identical (y {y.shape}, dydx {dydx.shape}).")
        if dydx.dtype.kind == "c":
            dt = _e.complex128
        dydx = dydx.astype(dt)
    y = y.astype(dt)
    if y.ndim == 0:
        raise ValueError("`y` must have at least one dimension.")
    axis = axis % y.ndim
    if x.ndim != 1:
        raise ValueError("`x` must be 1-dimensional.")
    if x.shape[0] < 2:
        raise ValueError("`x` must contain at least 2 elements.")
    if x.shape[0] != y.shape[axis]:
        raise ValueError(f"The length of `y` along `axis`={axis} doesn't "
                         f"match the length of `x` ({y.shape[axis]} and "
                         f"{x.shape[0]})")
    # One read-back for all checks, as SciPy's host checks.
    ok = _e.stack((_e.all(_e.isfinite(x)), _e.all(_e.isfinite(y)),
                   _e.all(x[1:] > x[:-1])))
    if dydx is not None:
        ok = _e.concatenate((ok, _e.all(_e.isfinite(dydx))[None]))
    ok = _e.asnumpy(ok)
    if not ok[0]:
        raise ValueError("`x` must contain only finite values.")
    if not ok[1]:
        raise ValueError("`y` must contain only finite values.")
    if dydx is not None and not ok[3]:
        raise ValueError("`dydx` must contain only finite values.")
    if not ok[2]:
        raise ValueError("`x` must be strictly increasing sequence.")
    y = _e.moveaxis(y, axis, 0)
    if dydx is not None:
        dydx = _e.moveaxis(dydx, axis, 0)
    return x, y, axis, dydx


def _col(v, nd):
    return v.reshape((v.shape[0],) + (1,) * (nd - 1))


def _hermite_coeffs(x, y, dydx):
    """The power-basis coefficients (4, n-1, ...) of the cubic through
    (x, y) with slopes dydx."""
    dx = _col(x[1:] - x[:-1], y.ndim)
    slope = (y[1:] - y[:-1]) / dx
    t = (dydx[:-1] + dydx[1:] - 2 * slope) / dx
    return _e.stack((t / dx, (slope - dydx[:-1]) / dx - t, dydx[:-1],
                     y[:-1]))


class CubicHermiteSpline(PPoly):
    """SciPy's CubicHermiteSpline: the piecewise cubic with the given
    values and first derivatives."""

    def __init__(self, x, y, dydx, axis=0, extrapolate=None):
        x, y, axis, dydx = _prepare(x, y, axis, dydx)
        self._from_slopes(x, y, dydx, axis, extrapolate)

    def _from_slopes(self, x, y, dydx, axis, extrapolate):
        c = _hermite_coeffs(x, y, dydx)
        self._setup(c, x, True if extrapolate is None else extrapolate,
                    axis)


class PchipInterpolator(CubicHermiteSpline):
    """SciPy's PCHIP: monotone slopes (Fritsch-Carlson weighted harmonic
    means, zero at local extrema, the three-point edge rule)."""

    def __init__(self, x, y, axis=0, extrapolate=None):
        x, y, axis, _ = _prepare(x, y, axis)
        if y.dtype.kind == "c":
            raise ValueError("`PchipInterpolator` only works with real "
                             "values for `y`. If you are trying to use the "
                             "real components of the passed array, use "
                             "`np.real` on the array before passing to "
                             "`PchipInterpolator`.")
        self._from_slopes(x, y, _pchip_slopes(x, y), axis, extrapolate)


def _pchip_slopes(x, y):
    h = _col(x[1:] - x[:-1], y.ndim)
    m = (y[1:] - y[:-1]) / h
    if y.shape[0] == 2:
        return _e.concatenate((m, m))
    sm = _e.sign(m)
    flat = (sm[1:] != sm[:-1]) | (m[1:] == 0) | (m[:-1] == 0)
    w1 = 2 * h[1:] + h[:-1]
    w2 = h[1:] + 2 * h[:-1]
    safe = _e.where(flat, 1.0, 0.0)
    m0 = m[:-1] + safe
    m1 = m[1:] + safe
    inner = _e.where(flat, 0.0, (w1 + w2) / (w1 / m0 + w2 / m1))
    d0 = _pchip_edge(h[0], h[1], m[0], m[1])
    d1 = _pchip_edge(h[-1], h[-2], m[-1], m[-2])
    return _e.concatenate((d0[None], inner, d1[None]))


def _pchip_edge(h0, h1, m0, m1):
    """The one-sided three-point slope at an end, kept shape-preserving."""
    d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
    zero = _e.sign(d) != _e.sign(m0)
    big = (_e.sign(m0) != _e.sign(m1)) & (_e.abs(d) > 3 * _e.abs(m0))
    return _e.where(zero, 0.0, _e.where(big, 3 * m0, d))


def pchip_interpolate(xi, yi, x, der=0, axis=0):
    """SciPy's pchip_interpolate: PchipInterpolator's values (or the
    derivatives named by der, an int or a list) at x."""
    p = PchipInterpolator(xi, yi, axis=axis)
    if der == 0:
        return p(x)
    if isinstance(der, int):
        return p.derivative(der)(x)
    return [p.derivative(nu)(x) for nu in der]


class Akima1DInterpolator(CubicHermiteSpline):
    """SciPy's Akima interpolant ('akima', or 'makima' with its modified
    weights); extrapolate defaults to False, as SciPy's."""

    def __init__(self, x, y, axis=0, *, method="akima", extrapolate=None):
        if method not in ("akima", "makima"):
            raise NotImplementedError(f"`method`={method} is unsupported.")
        x, y, axis, _ = _prepare(x, y, axis)
        if y.dtype.kind == "c":
            raise ValueError("`Akima1DInterpolator` only works with real "
                             "values for `y`. If you are trying to use the "
                             "real components of the passed array, use "
                             "`np.real` on the array before passing to "
                             "`Akima1DInterpolator`.")
        extrapolate = False if extrapolate is None else extrapolate
        h = _col(x[1:] - x[:-1], y.ndim)
        mk = (y[1:] - y[:-1]) / h
        if y.shape[0] == 2:
            t = _e.concatenate((mk, mk))
        else:
            t = _akima_slopes(mk, method)
        self._from_slopes(x, y, t, axis, extrapolate)


def _akima_slopes(mk, method):
    # Two slopes made up at each end by linear extension, as Akima's.
    a1 = 2 * mk[0] - mk[1]
    a0 = 2 * a1 - mk[0]
    b1 = 2 * mk[-1] - mk[-2]
    b2 = 2 * b1 - mk[-1]
    m = _e.concatenate((a0[None], a1[None], mk, b1[None], b2[None]))
    dm = _e.abs(m[1:] - m[:-1])
    if method == "makima":
        pm = _e.abs(m[1:] + m[:-1])
        f1 = dm[2:] + 0.5 * pm[2:]
        f2 = dm[:-2] + 0.5 * pm[:-2]
    else:
        f1 = dm[2:]
        f2 = dm[:-2]
    f12 = f1 + f2
    # SciPy's threshold: a fraction of the largest weight sum anywhere.
    big = f12 > 1e-9 * _e.max(f12)
    mean = 0.5 * (m[3:] + m[:-3])
    den = _e.where(big, f12, 1.0)
    return _e.where(big, (f1 * m[1:-2] + f2 * m[2:-1]) / den, mean)


class CubicSpline(CubicHermiteSpline):
    """SciPy's CubicSpline: C2 cubic with bc_type 'not-a-knot' (default),
    'natural', 'clamped', 'periodic' or a pair of (order, value)."""

    def __init__(self, x, y, axis=0, bc_type="not-a-knot",
                 extrapolate=None):
        x, y, axis, _ = _prepare(x, y, axis)
        n = x.shape[0]
        bc, y = _validate_bc(bc_type, y, y.shape[1:], axis)
        if extrapolate is None:
            extrapolate = "periodic" if bc[0] == "periodic" else True
        if y.size == 0:
            s = _e.zeros_like(y)
        else:
            s = _spline_slopes(x, y, n, bc)
        self._from_slopes(x, y, s, axis, extrapolate)


def _validate_bc(bc_type, y, shape, axis):
    dev = y.device
    if isinstance(bc_type, str):
        if bc_type == "periodic":
            same = _e.asnumpy(_e.all(_e.abs(y[0] - y[-1]) <=
                                     1e-15 + 1e-15 * _e.abs(y[-1])))
            if not same:
                raise ValueError(
                    f"The first and last `y` point along axis {axis} must "
                    "be identical (within machine precision) when "
                    "bc_type='periodic'.")
        bc_type = (bc_type, bc_type)
    else:
        if len(bc_type) != 2:
            raise ValueError("`bc_type` must contain 2 elements to specify "
                             "start and end conditions.")
        if "periodic" in bc_type:
            raise ValueError("'periodic' `bc_type` is defined for both "
                             "curve ends and cannot be used with other "
                             "boundary conditions.")
    out = []
    for bc in bc_type:
        if isinstance(bc, str):
            if bc == "clamped":
                out.append((1, _e.zeros(shape, dtype=y.dtype, device=dev)))
            elif bc == "natural":
                out.append((2, _e.zeros(shape, dtype=y.dtype, device=dev)))
            elif bc in ("not-a-knot", "periodic"):
                out.append(bc)
            else:
                raise ValueError(f"bc_type={bc} is not allowed.")
        else:
            try:
                order, value = bc
            except Exception as e:
                raise ValueError("A specified derivative value must be "
                                 "given in the form (order, value).") from e
            if order not in (1, 2):
                raise ValueError("The specified derivative order must be "
                                 "1 or 2.")
            value = _arr(value, dev)
            if value.shape != tuple(shape):
                raise ValueError(f"`deriv_value` shape {value.shape} is not "
                                 f"the expected one {tuple(shape)}.")
            if value.dtype.kind == "c":
                y = y.astype(_e.complex128)
            out.append((order, value))
    out = [b if isinstance(b, str) else (b[0], b[1].astype(y.dtype))
           for b in out]
    return out, y


def _spline_slopes(x, y, n, bc):
    """The C2 spline's first derivatives at the samples: SciPy's
    tridiagonal system, its not-a-knot corner rows folded into their
    neighbours so that cyclic reduction needs no pivoting."""
    nd = y.ndim
    dev = y.device
    dxv = x[1:] - x[:-1]
    dx = _col(dxv, nd)
    slope = (y[1:] - y[:-1]) / dx
    if n == 2:
        bc = [(1, slope[0]) if b in ("not-a-knot", "periodic") else b
              for b in bc]
    if n == 3 and bc[0] == "not-a-knot" and bc[1] == "not-a-knot":
        # The parabola through three points: s0 + s1 = 2 m0, s1 + s2 = 2 m1
        # and the middle row, solved in closed form.
        d0, d1 = dx[0], dx[1]
        r1 = 3 * (d0 * slope[1] + d1 * slope[0])
        s1 = (r1 - d1 * 2 * slope[0] - d0 * 2 * slope[1]) / \
            (2 * (d0 + d1) - d1 - d0)
        return _e.stack((2 * slope[0] - s1, s1, 2 * slope[1] - s1))
    if n == 3 and bc[0] == "periodic":
        t = _e.sum(slope / dx, axis=0) / _e.sum(1.0 / dx, axis=0)
        return _e.broadcast_to(t, (n,) + y.shape[1:])
    rhs_in = 3 * (dx[1:] * slope[:-1] + dx[:-1] * slope[1:])
    diag_in = 2 * (dxv[:-1] + dxv[1:])
    if bc[0] == "periodic":
        return _periodic_slopes(dxv, dx, slope, rhs_in, diag_in, n)
    one = _e.ones((1,), dtype=_e.float64, device=dev)
    # Rows: sub a_i, diagonal b_i, super c_i, right-hand side r_i.
    a_mid, c_mid = dxv[1:], dxv[:-1]

    def start():
        b = bc[0]
        if b == "not-a-knot":
            d = x[2] - x[0]
            r = ((dx[0] + 2 * d) * dx[1] * slope[0] + dx[0] ** 2 *
                 slope[1]) / d
            return dxv[1:2], d[None], r
        if b[0] == 1:
            return one, 0 * one, b[1]
        return 2 * dxv[0:1], dxv[0:1], -0.5 * b[1] * dx[0] ** 2 + \
            3 * (y[1] - y[0])

    def end():
        b = bc[1]
        if b == "not-a-knot":
            d = x[-1] - x[-3]
            r = (dx[-1] ** 2 * slope[-2] + (2 * d + dx[-1]) * dx[-2] *
                 slope[-1]) / d
            return d[None], dxv[-2:-1], r
        if b[0] == 1:
            return 0 * one, one, b[1]
        return dxv[-1:], 2 * dxv[-1:], 0.5 * b[1] * dx[-1] ** 2 + \
            3 * (y[-1] - y[-2])

    b0, c0, r0 = start()
    an, bn, rn = end()
    a = _e.concatenate((0 * one, a_mid, an))
    b = _e.concatenate((b0, diag_in, bn))
    c = _e.concatenate((c0, c_mid, 0 * one))
    r = _e.concatenate((r0[None], rhs_in, rn[None]))
    if n == 2:
        # Elimination in LAPACK's order (no pivot is needed: |b0| >= |a1|
        # for every end condition), so a straight line comes out exact.
        lo = a[1] / b[0]
        s1 = (r[1] - lo * r[0]) / (b[1] - lo * c[0])
        return _e.stack(((r[0] - c[0] * s1) / b[0], s1))
    # Fold the corners: row 1 minus (a1/b0) row 0 and row n-2 minus
    # (c_{n-2}/b_{n-1}) row n-1 (exact eliminations; they leave a
    # dominant system whatever the end conditions).
    lo = a[1] / b[0]
    b1 = b[1] - lo * c[0]
    r1 = r[1] - lo * r[0]
    b = _e.concatenate((b[:1], b1[None], b[2:]))
    r = _e.concatenate((r[:1], r1[None], r[2:]))
    hi = c[n - 2] / b[n - 1]
    bm = b[n - 2] - hi * a[n - 1]
    rm = r[n - 2] - hi * r[n - 1]
    b = _e.concatenate((b[:n - 2], bm[None], b[n - 1:]))
    r = _e.concatenate((r[:n - 2], rm[None], r[n - 1:]))
    flat = r.reshape((n, -1))
    inner = solve_tridiagonal(a[1:n - 1], b[1:n - 1], c[1:n - 1],
                              flat[1:n - 1])
    s0 = (flat[0] - c[0] * inner[0]) / b[0]
    sn = (flat[n - 1] - a[n - 1] * inner[-1]) / b[n - 1]
    s = _e.concatenate((s0[None], inner, sn[None]))
    return s.reshape(y.shape)


def _periodic_slopes(dxv, dx, slope, rhs_in, diag_in, n):
    """The cyclic system of s[0..n-2] (s[n-1] = s[0]): two tridiagonal
    solves and the rank-one correction for the corner, as SciPy's."""
    shape = slope.shape[1:]
    r = _e.concatenate(((3 * (dx[0] * slope[-1] + dx[-1] * slope[0]))[None],
                        rhs_in[:-1],
                        (3 * (dx[-1] * slope[-2] + dx[-2] * slope[-1]))
                        [None]))
    b = _e.concatenate(((2 * (dxv[-1] + dxv[0]))[None], diag_in[:-1]))
    # Row i of the (n-2)-system: a_i = dx[i], c_i = dx[i-1]; row 0 has
    # the wrapped neighbours dx[-1] (super) and dx[0] (corner).
    a = _e.concatenate((dxv[:1], dxv[1:n - 2]))
    c = _e.concatenate((dxv[-1:], dxv[:n - 3]))
    m = n - 2
    flat = r.reshape((n - 1, -1))
    b1 = flat[:m]
    e = _e.zeros((m, 1), dtype=_e.float64, device=dxv.device)
    e[0] = -dxv[0]
    e[m - 1] = -dxv[n - 4]
    s1 = solve_tridiagonal(a[:m], b[:m], c[:m], b1)
    s2 = solve_tridiagonal(a[:m], b[:m], c[:m], e)
    a_m1_0, a_m1_m2 = dxv[n - 3], dxv[n - 2]
    a_m1_m1 = 2 * (dxv[n - 2] + dxv[n - 3])
    s_m1 = (flat[-1] - a_m1_0 * s1[0] - a_m1_m2 * s1[-1]) / \
        (a_m1_m1 + a_m1_0 * s2[0] + a_m1_m2 * s2[-1])
    s = _e.concatenate((s1 + s_m1[None] * s2, s_m1[None], (s1[0] + s_m1 *
                                                           s2[0])[None]))
    return s.reshape((n,) + tuple(shape))

