"""FITPACK's curfit (Dierckx's fpcurf) for ember.scipy.interpolate's
UnivariateSpline: the knots and coefficients of the smoothing spline
with sum((w (y - s(x)))^2) = s.

Part 1 places knots: starting from the least-squares polynomial, it fits
the least-squares spline on the current knots, and while its residual
sum fp exceeds s adds knots at data points in the intervals whose
residual sums are largest (Dierckx's fpknot), nplus of them per round.
Part 2 adds to the fit the jumps of the k-th derivative at the interior
knots, weighted 1/p, and finds p with f(p) = s by Dierckx's rational
interpolation.

Each fit is array work on the data's device (interpolate_lsq's QR of
the weighted collocation matrix; part 2 re-factors the small stacked
system [R; B/p]); the residuals and their sums per knot interval are
device reductions. What stays on the host is FITPACK's own scalar
bookkeeping, sequential by nature: the knot list, the count of samples
and the residual sum of each interval (a few numbers per knot), and
p's bracket."""
import warnings

import numpy as np

import ember as _e
from ember.scipy.interpolate_bspline import BSpline
from ember.scipy.interpolate_lsq import lsq_fit, residuals

TOL = 0.001   # curfit's relative tolerance on |fp - s|
MAXIT = 20    # curfit's limit on the iterations for p

MESSAGES = {
    1: "The required storage space exceeds the available storage space, "
       "as specified by the parameter nest: nest too small. If nest is "
       "already large (say nest > m/2), it may also indicate that s is too "
       "small. The approximation returned is the weighted least-squares "
       "spline according to the knots t[0],t[1],...,t[n-1]. (n=nest) the "
       "parameter fp gives the corresponding weighted sum of squared "
       "residuals (fp>s).",
    2: "A theoretically impossible result was found during the iteration "
       "process for finding a smoothing spline with fp = s: s too small. "
       "There is an approximation returned but the corresponding weighted "
       "sum of squared residuals does not satisfy the condition "
       "abs(fp-s)/s < tol.",
    3: "The maximal number of iterations maxit (set to 20 by the program) "
       "allowed for finding a smoothing spline with fp=s has been reached: "
       "s too small. There is an approximation returned but the "
       "corresponding weighted sum of squared residuals does not satisfy "
       "the condition abs(fp-s)/s < tol.",
}


class Fit:
    """The least-squares spline on one knot vector, FITPACK's fp (the
    factorisation's residual) and the per-sample residuals."""

    def __init__(self, x, y, w, ht, k):
        self.ht = ht
        t = _e.asarray(ht, device=x.device)
        c, self.r, self.qty, self.fp = lsq_fit(x, y, w, t, k)
        self.spl = BSpline.construct_fast(t, c, k)
        # the per-sample residuals of the computed spline, from which
        # fpcurf sums each interval's share
        self.res = residuals(self.spl, x, y, w)


def knots(xb, xe, inner, k):
    return np.r_[(xb,) * (k + 1), inner, (xe,) * (k + 1)]


def interpolation_knots(hx, xb, xe, k):
    """FITPACK's knots for s = 0: the inner samples for odd k, midpoints
    of neighbours for even k."""
    m = hx.size
    h = k // 2
    if k % 2:
        inner = hx[h + 1:m - h - 1]
    else:
        j = np.arange(h + 1, m - h)
        inner = (hx[j] + hx[j - 1]) * 0.5
    return knots(xb, xe, inner, k)


def interval_sums(res, hx, inner):
    """fpint: the residual sum of each knot interval, a sample at a knot
    shared half and half by the intervals on its sides (fpcurf's rule;
    FITPACK's knots sit on samples). Summed per interval (a weighted
    bincount), not as differences of a running sum, which a huge
    residual elsewhere would wipe out."""
    dev = res.device
    m = hx.size
    cut = _e.asarray(np.searchsorted(hx, inner, side="left"), device=dev)
    # interval of each sample: how many knots' samples are at or before it
    ids_d = _e.searchsorted(cut, _e.arange(m, device=dev), side="right")
    at_d = _e.zeros((m,), dtype=_e.bool_, device=dev)
    at_d[cut] = True
    nint = inner.size + 1
    own = _e.where(at_d, 0.5 * res, res)
    sums = _e.bincount(ids_d, weights=own, minlength=nint)
    # the other half of a knot's sample goes to the interval it ends
    prev = _e.where(at_d, ids_d - 1, 0)
    sums = sums + _e.bincount(prev, weights=_e.where(at_d, 0.5 * res, 0.0),
                              minlength=nint)
    return _e.asnumpy(sums)


def add_knot(hx, inner, fpint, nrdata):
    """fpknot: a new knot at the middle sample of the interval with the
    largest residual sum among those with samples inside; the interval's
    sum and count are split between its halves."""
    fpmax, number, jbegin = 0.0, -1, 0
    for j, (f, cnt) in enumerate(zip(fpint, nrdata)):
        if cnt and f > fpmax:
            fpmax, number, maxpt, maxbeg = f, j, cnt, jbegin
        jbegin += cnt + 1
    if number < 0:
        # Every interval with samples inside has a zero sum: the fit is
        # exact to rounding there. fpknot's choice is then undefined (it
        # reads stale locals); split the interval with the most samples.
        number = int(np.argmax(nrdata))
        if nrdata[number] == 0:
            raise RuntimeError("curfit: every sample is a knot already")
        maxpt, fpmax = nrdata[number], fpint[number]
        maxbeg = int(np.sum(np.asarray(nrdata[:number]) + 1))
    ihalf = maxpt // 2 + 1
    inner = np.insert(inner, number, hx[maxbeg + ihalf])
    nrdata[number:number + 1] = [ihalf - 1, maxpt - ihalf]
    fpint[number:number + 1] = [fpmax * (ihalf - 1) / maxpt,
                                fpmax * (maxpt - ihalf) / maxpt]
    return inner


def disc(ht, k):
    """fpdisc: the jumps of the k-th derivative of the B-splines at the
    interior knots ((n - 2k - 2) rows of k + 2 values, row j's first at
    column j), scaled by (span / intervals)^k as FITPACK's are."""
    n = ht.size
    nrint = n - 2 * k - 1
    jj = np.arange(nrint - 1)[:, None, None]
    ii = np.arange(k + 2)[None, :, None]
    s = np.arange(k + 2)[None, None, :]
    i = jj + ii
    j = jj + k + 1
    # the product over the k + 2 knots of row j's B-spline but t[j]
    diff = np.where(i + s == j, 1.0, ht[j] - ht[np.minimum(i + s, n - 1)])
    rows = (ht[i[..., 0] + k + 1] - ht[i[..., 0]]) / np.prod(diff, axis=2)
    return rows * ((ht[n - k - 1] - ht[k]) / nrint) ** k


def smooth(fit, x, y, w, k, s, fp0, acc):
    """Part 2: p with f(p) = s on fit's knots. Returns (spline, fp, ier)."""
    ht = fit.ht
    nc = ht.size - k - 1
    b = disc(ht, k)
    nb = b.shape[0]
    bfull = np.zeros((nb, nc))
    rows = np.arange(nb)[:, None]
    bfull[rows, rows + np.arange(k + 2)[None, :]] = b
    bdev = _e.asarray(bfull, device=x.device)
    zero = _e.zeros((nb, fit.qty.shape[1]), dtype=_e.float64,
                    device=x.device)
    rhs = _e.concatenate((fit.qty, zero))
    t = fit.spl.t
    from ember.scipy.linalg_lu import solve_triangular

    def f(p):
        a = _e.concatenate((fit.r, bdev * (1.0 / p)))
        q, r = _e.linalg.qr(a)
        c = solve_triangular(r, _e.matmul(_e.transpose(q), rhs),
                             check_finite=False)
        spl = BSpline.construct_fast(t, c, k)
        fp = float(_e.asnumpy(_e.sum(residuals(spl, x, y, w))))
        return spl, fp

    # FITPACK's rotations leave R's diagonal positive: p0 = nc / trace.
    p = nc / float(_e.asnumpy(_e.sum(_e.abs(_e.diagonal(fit.r)))))
    p1, f1 = 0.0, fp0 - s
    p3, f3 = -1.0, fit.fp - s       # p3 < 0 stands for p = infinity
    ich1 = ich3 = 0
    for it in range(1, MAXIT + 1):
        spl, fp = f(p)
        fpms = fp - s
        if abs(fpms) < acc:
            return spl, fp, 0
        if it == MAXIT:
            return spl, fp, 3
        p2, f2 = p, fpms
        if not ich3:
            if f2 - f3 <= acc:
                # the first p was too large
                p3, f3 = p2, f2
                p *= 0.04
                if p <= p1:
                    p = p1 * 0.9 + p2 * 0.1
                continue
            if f2 < 0:
                ich3 = 1
        if not ich1:
            if f1 - f2 <= acc:
                # the first p was too small
                p1, f1 = p2, f2
                p /= 0.04
                if p3 >= 0 and p >= p3:
                    p = p2 * 0.1 + p3 * 0.9
                continue
            if f2 > 0:
                ich1 = 1
        if f2 >= f1 or f2 <= f3:
            return spl, fp, 2
        p = rational_step(p1, f1, p2, f2, p3, f3)
        if f2 < 0:
            p3, f3 = p2, f2
        else:
            p1, f1 = p2, f2
    return spl, fp, 3


def rational_step(p1, f1, p2, f2, p3, f3):
    """fprati: the zero of the rational r(p) = (u p + v) / (p + w)
    through (p1, f1), (p2, f2), (p3, f3); p3 < 0 stands for infinity."""
    if p3 < 0:
        return (p1 * (f1 - f3) * f2 - p2 * (f2 - f3) * f1) / \
            ((f1 - f2) * f3)
    h1 = f1 * (f2 - f3)
    h2 = f2 * (f3 - f1)
    h3 = f3 * (f1 - f2)
    return -(p1 * p2 * h3 + p2 * p3 * h1 + p3 * p1 * h2) / \
        (p1 * h1 + p2 * h2 + p3 * h3)


class Curfit:
    """FITPACK's fpcurf with the state it keeps between calls (the knots,
    the sample count of each knot interval, fp0, fpold, nplus and ier),
    so that a later call with iopt = 1 continues from the knots found,
    as SciPy's set_smoothing_factor and its restart with a larger nest
    do. x, y (m, 1), w are float64 device arrays, hx x's host copy."""

    def __init__(self, x, y, w, hx, xb, xe, k):
        self.data = (x, y, w)
        self.hx, self.xb, self.xe, self.k = hx, xb, xe, k
        m = hx.size
        self.nmin, self.nmax = 2 * k + 2, m + k + 1
        self.inner = np.empty(0)
        self.nrdata = [m - 2]
        self.fp0 = self.fpold = 0.0
        self.nplus = 0
        self.ier = 0
        self.nest = self.nmax

    def _fit(self, inner):
        x, y, w = self.data
        return Fit(x, y, w, knots(self.xb, self.xe, inner, self.k), self.k)

    def run(self, s, iopt=0, nest=None):
        """(spline, fp, ier) for the smoothing factor s, with FITPACK's
        ier: 0, -1 (interpolating), -2 (polynomial), 1 (nest knots are
        not enough), 2 or 3 (p's iteration failed)."""
        if nest is not None:
            self.nest = nest
        hx, k, m = self.hx, self.k, self.hx.size
        nmin, nmax = self.nmin, self.nmax
        if s == 0:
            ht = interpolation_knots(hx, self.xb, self.xe, k)
            self.inner = ht[k + 1:-k - 1]
            # fpcurf leaves fp0 unset here; SciPy's next iopt = 1 call
            # starts afresh, as with fp0 = 0
            self.ier, self.fp0 = -1, 0.0
            fit = self._fit(self.inner)
            return fit.spl, fit.fp, -1
        acc = TOL * s
        fresh = (iopt == 0 or self.inner.size == 0 or self.fp0 <= s)
        if fresh:
            self.inner = np.empty(0)
            self.fpold, self.nplus = 0.0, 0
            self.nrdata = [m - 2]
        for _ in range(2 * m + 2):
            n = self.inner.size + nmin
            if n == nmin:
                self.ier = -2
            fit = self._fit(self.inner)
            fp = fit.fp
            if self.ier == -2:
                self.fp0 = fp
            fpms = fp - s
            if abs(fpms) < acc:
                return fit.spl, fp, self.ier
            if fpms < 0:
                if self.ier == -2:
                    return fit.spl, fp, -2
                x, y, w = self.data
                spl, fp, self.ier = smooth(fit, x, y, w, k, s, self.fp0,
                                           acc)
                return spl, fp, self.ier
            if n == nmax:
                self.ier = -1
                return fit.spl, fp, -1
            if n == self.nest:
                self.ier = 1
                return fit.spl, fp, 1
            # After a first fit, or on re-entry after any ier but 0,
            # fpcurf adds one knot; else as many as the last round's
            # gain in fp suggests.
            if self.ier != 0:
                self.nplus, self.ier = 1, 0
            else:
                npl1 = self.nplus * 2
                if self.fpold - fp > acc:
                    npl1 = int(self.nplus * fpms / (self.fpold - fp))
                self.nplus = min(self.nplus * 2,
                                 max(npl1, self.nplus // 2, 1))
            self.fpold = fp
            fpint = list(interval_sums(fit.res, hx, self.inner))
            for _ in range(self.nplus):
                self.inner = add_knot(hx, self.inner, fpint, self.nrdata)
                if self.inner.size + nmin == nmax:
                    # as many knots as samples: the interpolation's
                    # knots, fitted and tested at the top of the loop
                    ht = interpolation_knots(hx, self.xb, self.xe, k)
                    self.inner = ht[k + 1:-k - 1]
                    break
                if self.inner.size + nmin == self.nest:
                    break
        raise RuntimeError("curfit: the knot search did not end")


def curfit(state, s, iopt=0):
    """The smoothing spline of FITPACK's curfit as SciPy's
    UnivariateSpline drives it: where the nest knots of the call are not
    enough (ier = 1), SciPy calls again with iopt = 1 and nest = m + k + 1,
    which restarts the search from those knots one knot at a time."""
    spl, fp, ier = state.run(s, iopt)
    if ier == 1 and state.nest < state.nmax:
        spl, fp, ier = state.run(s, 1, nest=state.nmax)
    return spl, fp, ier


def warn(ier):
    if ier in MESSAGES:
        warnings.warn(MESSAGES[ier], stacklevel=3)
