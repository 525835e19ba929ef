/* NumPy's interp for one x: a binary search for xp[j] <= x < xp[j + 1] and
 * the line through (xp[j], fp[j]) and (xp[j + 1], fp[j + 1]), with NumPy's
 * rules at the ends, at exact sample points and for non-finite slopes. One
 * kernel instead of a searchsorted, two gathers and the arithmetic. */
/* operation */
double xv = x, r;
if (xv != xv) {
    r = xv;
} else if (xv < xp[0]) {
    r = left;
} else if (xv > xp[n - 1]) {
    r = right;
} else if (xv == xp[n - 1]) {
    r = fp[n - 1];
} else {
    long long lo = 0, hi = n - 1, mid;
    double slope;
    while (hi - lo > 1) {
        mid = lo + (hi - lo) / 2;
        if (xp[mid] <= xv)
            lo = mid;
        else
            hi = mid;
    }
    if (xp[lo] == xv) {
        r = fp[lo];
    } else {
        slope = (fp[lo + 1] - fp[lo]) / (xp[lo + 1] - xp[lo]);
        r = slope * (xv - xp[lo]) + fp[lo];
        if (r != r) {
            r = slope * (xv - xp[lo + 1]) + fp[lo + 1];
            if (r != r && fp[lo] == fp[lo + 1])
                r = fp[lo];
        }
    }
}
y = r;
