"""ember.scipy.interpolate.BPoly, SciPy's piecewise polynomial in the
Bernstein basis: between x[i] and x[i+1] it is sum_a c[a, i] C(k, a)
t**a (1 - t)**(k - a) with t = (x - x[i]) / (x[i+1] - x[i]). Evaluation
is PPoly's (one searchsorted, one gather of the coefficient rows) with
the Bernstein sum over the degree for all points at once; derivative,
antiderivative and integrate follow SciPy's formulas (differences and
cumulative sums of the coefficients, a jump fixed by a cumulative sum
over the intervals)."""
import math

import ember as _e
from ember.scipy.interpolate_ppoly import PPoly

__all__ = ["BPoly"]


class BPoly(PPoly):
    def _flat(self, xf, extrapolate):
        c = self.c.reshape(self.c.shape[:2] + (-1,))
        k = c.shape[0] - 1
        m = c.shape[1]
        x = self.x
        if self._descending:
            i = _e.searchsorted(-x, -xf, side="right") - 1
        else:
            i = _e.searchsorted(x, xf, side="right") - 1
        i = _e.clip(i, 0, m - 1)
        x0 = _e.take(x, i, mode="clip")
        h = _e.take(x, i + 1, mode="clip") - x0
        t = ((xf - x0) / h)[:, None]
        s1 = 1 - t
        cg = _e.take(c, i, axis=1, mode="clip")
        y = None
        for a in range(k + 1):
            term = cg[a] * float(math.comb(k, a)) * t ** a * s1 ** (k - a)
            y = term if y is None else y + term
        out = _e.isnan(xf)
        if not extrapolate:
            lo, hi = (x[-1], x[0]) if self._descending else (x[0], x[-1])
            out = out | (xf < lo) | (xf > hi)
        nan = _e.asarray(math.nan, dtype=y.dtype, device=y.device)
        return _e.where(out[:, None], nan, y)

    def derivative(self, nu=1):
        if nu < 0:
            return self.antiderivative(-nu)
        bp = self
        for _ in range(nu):
            c = bp.c
            k = c.shape[0] - 1
            dx = (self.x[1:] - self.x[:-1]).reshape((1, -1) + (1,) *
                                                    (c.ndim - 2))
            c = k * (c[1:] - c[:-1]) / dx
            if c.shape[0] == 0:
                c = _e.zeros((1,) + bp.c.shape[1:], dtype=bp.c.dtype,
                             device=bp.c.device)
            bp = BPoly.construct_fast(c, self.x, self.extrapolate,
                                      self.axis)
        return bp

    def antiderivative(self, nu=1):
        if nu <= 0:
            return self.derivative(-nu)
        ext = False if self.extrapolate == "periodic" else self.extrapolate
        c = self.c
        for _ in range(nu):
            k = c.shape[0]
            zero = _e.zeros((1,) + c.shape[1:], dtype=c.dtype,
                            device=c.device)
            delta = (self.x[1:] - self.x[:-1]).reshape((1, -1) + (1,) *
                                                       (c.ndim - 2))
            c2 = _e.concatenate((zero, _e.cumsum(c, axis=0) / k)) * delta
            # Each interval starts where the previous one ended: its last
            # coefficient, the value at the right end (partition of unity).
            jump = _e.cumsum(c2[k], axis=0)[:-1]
            lead = _e.zeros((1,) + jump.shape[1:], dtype=c.dtype,
                            device=c.device)
            c = c2 + _e.concatenate((lead, jump))[None]
        return BPoly.construct_fast(c, self.x, ext, self.axis)

    @classmethod
    def from_power_basis(cls, pp, extrapolate=None):
        """The same pieces in the Bernstein basis: c_a = sum_{s<=a}
        C(a, s) / C(k, s) p_s h**s, p_s the coefficient of (x-x_i)**s."""
        if not isinstance(pp, PPoly) or isinstance(pp, BPoly):
            raise TypeError(".from_power_basis only accepts PPoly "
                            f"instances. Got {type(pp)} instead.")
        k = pp.c.shape[0] - 1
        h = (pp.x[1:] - pp.x[:-1]).reshape((-1,) + (1,) * (pp.c.ndim - 2))
        rows = []
        for a in range(k + 1):
            acc = None
            for s in range(a + 1):
                f = math.comb(a, s) / math.comb(k, s)
                term = pp.c[k - s] * f * h ** s
                acc = term if acc is None else acc + term
            rows.append(acc)
        ext = pp.extrapolate if extrapolate is None else extrapolate
        return cls.construct_fast(_e.stack(rows), pp.x, ext, pp.axis)
