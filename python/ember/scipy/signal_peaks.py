"""ember.scipy.signal's peak finding: find_peaks (with its properties
dict and every condition), peak_prominences and peak_widths, as
scipy.signal's, on every device.

The local maxima are one comparison of neighbours over x and a
compaction of the rises, then one thread a rise walks its run of equal
values (kernels/peaks.cuh; each run is walked once, so the walks add up
to x's length): a run that ends in a fall is a peak, its middle sample
the peak's index, as SciPy's. Prominences and widths are one thread a
peak, each walking its stretch of x as SciPy's loops do. `distance`
keeps the highest peak first and removes its neighbours, then the next
highest still kept: that greedy order is the algorithm, so it runs on
one thread (as watershed_ift's queue does), over the peaks' positions
sorted by height on the device. The sort is stable: of equal heights
the later peak goes first, where SciPy's unstable argsort may pick
another (it agrees below 17 peaks, where NumPy's sort is an insertion
sort)."""
import math
import warnings

import numpy

import ember as _e
from ember.scipy import _kernels

__all__ = ["find_peaks", "peak_prominences", "peak_widths",
           "PeakPropertyWarning"]

_i64 = numpy.int64


class PeakPropertyWarning(RuntimeWarning):
    """A peak's property has an unexpected value (a prominence or a width
    of 0), as scipy.signal.PeakPropertyWarning."""


def _x_1d(x):
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    x = _e.ascontiguousarray(x.astype(_e.float64))
    if x.ndim != 1:
        raise ValueError("`x` must be a 1-D array")
    return x


def _peaks_1d(peaks, dev):
    """SciPy's check of `peaks`: integers that cast safely to intp, one
    dimension; an empty sequence is no peaks."""
    p = peaks if isinstance(peaks, _e.ndarray) else _e.asarray(
        numpy.asarray(peaks), device=dev)
    if p.size == 0:
        p = _e.zeros(0, dtype=_e.int64, device=dev)
    if p.dtype.kind not in "biu" or p.dtype == _e.uint64:
        raise TypeError("cannot safely cast `peaks` to dtype('intp')")
    if p.ndim != 1:
        raise ValueError("`peaks` must be a 1-D array")
    return _e.ascontiguousarray(p.astype(_e.int64)).to_device(dev)


def _wlen(value):
    if value is None:
        return -1
    if 1 < value:
        if isinstance(value, float):
            value = math.ceil(value)
        return int(value)
    raise ValueError(f"`wlen` must be larger than 1, was {value}")


def _launch(x, name, m, args):
    if m:
        _kernels.launch(x.device, "peaks.cuh", name, m, args)


def _prominences(x, peaks, wlen):
    m = peaks.shape[0]
    if m:
        bad = _e.nonzero((peaks < 0) | (peaks >= x.shape[0]))[0]
        if bad.shape[0]:
            raise ValueError("peak {} is not a valid index for `x`".format(
                int(peaks[int(bad[0])])))
    dev = x.device
    prom = _e.empty(m, dtype=_e.float64, device=dev)
    lb = _e.empty(m, dtype=_e.int64, device=dev)
    rb = _e.empty(m, dtype=_e.int64, device=dev)
    _launch(x, "em_peak_prominences", m,
            (x, _i64(x.shape[0]), peaks, _i64(m), _i64(wlen), prom, lb, rb))
    if m and bool(_e.any(prom == 0)):
        warnings.warn("some peaks have a prominence of 0",
                      PeakPropertyWarning, stacklevel=3)
    return prom, lb, rb


def _widths(x, peaks, rel_height, prom, lb, rb):
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    m = peaks.shape[0]
    dev = x.device
    prom = _e.ascontiguousarray(_e.asarray(prom, device=dev).astype(_e.float64))
    lb = _peaks_1d(lb, dev)
    rb = _peaks_1d(rb, dev)
    if not (m == prom.shape[0] == lb.shape[0] == rb.shape[0]):
        raise ValueError(
            "arrays in `prominence_data` must have the same shape as `peaks`")
    if m:
        bad = _e.nonzero((lb < 0) | (lb > peaks) | (peaks > rb) |
                         (rb >= x.shape[0]))[0]
        if bad.shape[0]:
            raise ValueError("prominence data is invalid for peak {}".format(
                int(peaks[int(bad[0])])))
    out = [_e.empty(m, dtype=_e.float64, device=dev) for _ in range(4)]
    _launch(x, "em_peak_widths", m,
            (x, peaks, _i64(m), numpy.float64(rel_height), prom, lb, rb,
             *out))
    if m and bool(_e.any(out[0] == 0)):
        warnings.warn("some peaks have a width of 0", PeakPropertyWarning,
                      stacklevel=3)
    return tuple(out)


def peak_prominences(x, peaks, wlen=None):
    """The prominence of each peak in x and its left and right bases, as
    scipy.signal.peak_prominences (one thread a peak)."""
    x = _x_1d(x)
    return _prominences(x, _peaks_1d(peaks, x.device), _wlen(wlen))


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """Each peak's width at rel_height of its prominence, the height
    measured at, and the interpolated left and right crossings, as
    scipy.signal.peak_widths (one thread a peak)."""
    x = _x_1d(x)
    peaks = _peaks_1d(peaks, x.device)
    if prominence_data is None:
        prominence_data = _prominences(x, peaks, _wlen(wlen))
    return _widths(x, peaks, rel_height, *prominence_data)


def _interval(interval, x, peaks):
    """A condition's (min, max): one number or array is the minimum; an
    array must be as long as x and is read at the peaks."""
    try:
        lo, hi = interval
    except (TypeError, ValueError):
        lo, hi = interval, None
    out = []
    for b in (lo, hi):
        if isinstance(b, (numpy.ndarray, _e.ndarray)):
            if b.size != x.size:
                raise ValueError("array size of lower interval border must "
                                 "match x" if b is lo else
                                 "array size of upper interval border must "
                                 "match x")
            b = _e.asarray(b, device=x.device)[peaks]
        out.append(b)
    return out


def _select(values, lo, hi):
    keep = _e.ones(values.shape[0], dtype=_e.bool_, device=values.device)
    if lo is not None:
        keep &= lo <= values
    if hi is not None:
        keep &= values <= hi
    return keep


def find_peaks(x, height=None, threshold=None, distance=None,
               prominence=None, width=None, wlen=None, rel_height=0.5,
               plateau_size=None):
    """The indices of the local maxima of the 1-D x (a plateau's middle
    sample, rounded down) that meet the conditions, and the dict of their
    properties, as scipy.signal.find_peaks: the conditions apply in
    SciPy's order (plateau_size, height, threshold, distance, prominence,
    width), each a minimum or a (min, max) pair of numbers, arrays as
    long as x, or None."""
    x = _x_1d(x)
    if distance is not None and distance < 1:
        raise ValueError("`distance` must be greater or equal to 1")
    dev, n = x.device, x.shape[0]
    if n >= 3:
        cand = _e.nonzero(x[:-2] < x[1:-1])[0] + 1
    else:
        cand = _e.zeros(0, dtype=_e.int64, device=dev)
    cand = _e.ascontiguousarray(cand.astype(_e.int64))
    m = cand.shape[0]
    left = _e.empty(m, dtype=_e.int64, device=dev)
    right = _e.empty(m, dtype=_e.int64, device=dev)
    is_peak = _e.empty(m, dtype=_e.uint8, device=dev)
    _launch(x, "em_peak_plateaus", m,
            (x, _i64(n), cand, _i64(m), left, right, is_peak))
    at = _e.nonzero(is_peak)[0]
    left, right = left[at], right[at]
    peaks = (left + right) // 2
    props = {}

    def keep_only(keep):
        nonlocal peaks, props
        idx = _e.nonzero(keep)[0]
        peaks = peaks[idx]
        props = {k: v[idx] for k, v in props.items()}

    if plateau_size is not None:
        sizes = right - left + 1
        lo, hi = _interval(plateau_size, x, peaks)
        props["plateau_sizes"] = sizes
        props["left_edges"] = left
        props["right_edges"] = right
        keep_only(_select(sizes, lo, hi))
    if height is not None:
        heights = x[peaks]
        lo, hi = _interval(height, x, peaks)
        props["peak_heights"] = heights
        keep_only(_select(heights, lo, hi))
    if threshold is not None:
        lo, hi = _interval(threshold, x, peaks)
        xp = x[peaks]
        lt, rt = xp - x[peaks - 1], xp - x[peaks + 1]
        keep = _e.ones(peaks.shape[0], dtype=_e.bool_, device=dev)
        if lo is not None:
            keep &= lo <= _e.minimum(lt, rt)
        if hi is not None:
            keep &= _e.maximum(lt, rt) <= hi
        props["left_thresholds"] = lt
        props["right_thresholds"] = rt
        keep_only(keep)
    if distance is not None:
        mm = peaks.shape[0]
        keep = _e.empty(mm, dtype=_e.uint8, device=dev)
        order = _e.ascontiguousarray(
            _e.argsort(x[peaks], kind="stable").astype(_e.int64))
        pk = _e.ascontiguousarray(peaks.astype(_e.int64))
        if mm:
            _kernels.launch(dev, "peaks.cuh", "em_peak_distance", 1,
                            (pk, order, _i64(mm), _i64(math.ceil(distance)),
                             keep))
        keep_only(keep.astype(_e.bool_))
    if prominence is not None or width is not None:
        pk = _e.ascontiguousarray(peaks.astype(_e.int64))
        props.update(zip(("prominences", "left_bases", "right_bases"),
                         _prominences(x, pk, _wlen(wlen))))
    if prominence is not None:
        lo, hi = _interval(prominence, x, peaks)
        keep_only(_select(props["prominences"], lo, hi))
    if width is not None:
        pk = _e.ascontiguousarray(peaks.astype(_e.int64))
        props.update(zip(("widths", "width_heights", "left_ips",
                          "right_ips"),
                         _widths(x, pk, rel_height, props["prominences"],
                                 props["left_bases"], props["right_bases"])))
        lo, hi = _interval(width, x, peaks)
        keep_only(_select(props["widths"], lo, hi))
    return peaks, props
