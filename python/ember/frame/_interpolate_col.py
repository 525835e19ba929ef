"""interpolate's device work for one column: which nulls are filled (the
limits, directions and areas) and with what value, from the positions
of each row's valid neighbours. Those come from the scans behind
ffill/bfill (_fill.last_valid / next_valid): one running maximum and one
reversed running minimum of positions, then elementwise steps; no row
is visited in Python.

Values are computed in float64 as NumPy's interp computes them (the
formula, the clamping to the end values and the fallbacks for infinite
slopes), so results equal pandas', which calls np.interp, up to the
rounding of a fused multiply-add."""
import ember

from ember.frame._fill import last_valid, next_valid


class Abscissae:
    """The x of each row (float64) and, when x is not strictly increasing,
    the order that sorts it: pandas' np.interp reads the valid rows in x
    order whatever their order in the frame. Built once a call and shared
    by the columns."""

    def __init__(self, x):
        self.x = x
        self.order = self.inverse = self.run_start = self.run_end = None
        n = x.shape[0]
        if n > 1 and not bool(ember.all(x[1:] > x[:-1])):
            dev = x.device
            self.order = ember.argsort(x, kind="stable")
            self.inverse = ember.empty(n, dtype="int64", device=dev)
            self.inverse[self.order] = ember.arange(n, dtype="int64", device=dev)
            xs = x[self.order]
            # the first and last sorted row of each run of equal x: np.interp
            # reads the last valid row of a label, SciPy's nearest the first
            new = xs[1:] != xs[:-1]
            one = ember.ones(1, dtype="bool", device=dev)
            self.run_start = last_valid(ember.concatenate([one, new]))
            self.run_end = next_valid(ember.concatenate([new, one]))

    def neighbours(self, valid, before, after, first_of_equal=False):
        """(lo, hi): for each row the row of the valid neighbour below and
        the one above in x order, -1 where there is none. Below is the
        greatest x <= the row's (the last of equal x), above the least x
        greater; with first_of_equal, below is the greatest x < the row's
        and above the least x >= it (the first of equal x). before/after:
        the positional neighbours (fill_mask's), which they are when x
        increases."""
        n = valid.shape[0]
        if self.order is None:
            return before, ember.where(after == n, -1, after)
        vs = valid[self.order]
        dev = vs.device
        # in sorted order: upto[j] is the last valid row before sorted row j,
        # from[j] the first valid row at or after it (n: none)
        upto = ember.concatenate([ember.full(1, -1, dtype="int64", device=dev),
                                  last_valid(vs)])
        from_ = ember.concatenate([next_valid(vs),
                                   ember.full(1, n, dtype="int64", device=dev)])
        if first_of_equal:
            lo, hi = upto[self.run_start], from_[self.run_start]
        else:
            lo, hi = upto[self.run_end + 1], from_[self.run_end + 1]
        lo = ember.where(lo >= 0, self.order[ember.maximum(lo, 0)], -1)
        hi = ember.where(hi < n, self.order[ember.minimum(hi, n - 1)], -1)
        return lo[self.inverse], hi[self.inverse]


def fill_mask(valid, before, after, limit, direction, area):
    """The nulls that get a value: pandas counts limits and areas in
    positions (whatever the method's x), from the nearest valid row
    before (forward) or after (backward); leading nulls have none before,
    trailing none after, and the others are inside. before/after: the
    positions of the last valid row at or before each row (-1: none) and
    of the first at or after it (n: none)."""
    n = valid.shape[0]
    pos = ember.arange(n, dtype="int64", device=valid.device)
    has_before, has_after = before >= 0, after < n
    fwd, bwd = has_before, has_after
    if limit is not None:
        fwd = fwd & (pos - before <= limit)
        bwd = bwd & (after - pos <= limit)
    ok = {"forward": fwd, "backward": bwd, "both": fwd | bwd}[direction]
    if area == "inside":
        ok = ok & has_before & has_after
    elif area == "outside":
        ok = ok & ~(has_before & has_after)
    return ok & ~valid


def _linear(y, x, lo, hi):
    """np.interp's value at each row from its neighbours: the line through
    them; the end value beyond the first or last valid x."""
    lo0, hi0 = ember.maximum(lo, 0), ember.maximum(hi, 0)
    ylo, yhi, xlo, xhi = y[lo0], y[hi0], x[lo0], x[hi0]
    slope = (yhi - ylo) / (xhi - xlo)
    v = slope * (x - xlo) + ylo
    # an infinite end gives inf - inf: NumPy retries from the upper end,
    # then takes the common value of equal ends
    v = ember.where(ember.isnan(v), slope * (x - xhi) + yhi, v)
    v = ember.where(ember.isnan(v) & (ylo == yhi), ylo, v)
    v = ember.where(x == xlo, ylo, v)
    v = ember.where(lo < 0, yhi, v)
    return ember.where(hi < 0, ylo, v)


def _nearest(y, x, lo, hi):
    """SciPy's interp1d(kind='nearest') as pandas calls it: the nearer
    neighbour, the lower one at the midpoint, the first valid row of an
    equal x, NaN outside the valid x. lo is the valid row below x, hi the
    first at or above it."""
    lo0, hi0 = ember.maximum(lo, 0), ember.maximum(hi, 0)
    ylo, yhi, xlo, xhi = y[lo0], y[hi0], x[lo0], x[hi0]
    v = ember.where(x <= (xlo + xhi) / 2.0, ylo, yhi)
    v = ember.where(lo < 0, ember.where(x == xhi, yhi, ember.nan), v)
    return ember.where(hi < 0, ember.nan, v)


def interpolated(y, valid, xs, method, limit, direction, area):
    """(values, filled): y (float64) with the filled nulls' values, and
    which rows were filled; None when nothing is to be filled (no null,
    or no valid row to start from)."""
    n = valid.shape[0]
    if n == 0 or bool(ember.all(valid)) or not bool(ember.any(valid)):
        return None
    before, after = last_valid(valid), next_valid(valid)
    fill = fill_mask(valid, before, after, limit, direction, area)
    if xs is None:   # 'linear': x is the position, the neighbours are those
        x = ember.arange(n, dtype="float64", device=valid.device)
        lo, hi = before, ember.where(after == n, -1, after)
    else:
        x = xs.x
        lo, hi = xs.neighbours(valid, before, after, method == "nearest")
    v = (_nearest if method == "nearest" else _linear)(y, x, lo, hi)
    # nearest's NaN outside the valid x counts as filled, as in pandas: a
    # nullable column gets a valid NaN there, not NA
    return ember.where(fill, v, y), fill
