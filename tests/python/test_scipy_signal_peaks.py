"""ember.scipy.signal.find_peaks, peak_prominences and peak_widths
against scipy.signal's: the same peak indices exactly, the properties
(the same keys in the same order, dtypes, values to rounding), every
condition alone and together, plateaus, ties, NaNs, SciPy's errors and
warnings, and the kernels through NVRTC."""
import pathlib
import warnings

import numpy as np
import pytest
import scipy.signal as ss

import ember
import ember.scipy.signal as es

rng = np.random.default_rng(11)


def host(a):
    return ember.asnumpy(a)


def signal(n=3000, plateaus=True):
    x = rng.standard_normal(n).cumsum() + 3 * np.sin(np.arange(n) / 40)
    if plateaus:  # flat tops (peaks), flat shoulders (not), a NaN
        x[100:105] = x[99] + 3
        x[300:310] = x[299] - 0.1
        x[310] = x[299] + 1
        x[500] = np.nan
        x[-4:] = x[-5] + 2  # a plateau that runs into the end
    return x


def same(got, want):
    gp, gq = got
    wp, wq = want
    gp = host(gp)
    assert gp.dtype == wp.dtype == np.intp
    np.testing.assert_array_equal(gp, wp)
    assert list(gq) == list(wq)
    for k in wq:
        g = host(gq[k])
        assert g.dtype == wq[k].dtype, k
        if g.dtype.kind == "f":
            np.testing.assert_allclose(g, wq[k], rtol=1e-14, atol=0, err_msg=k)
        else:
            np.testing.assert_array_equal(g, wq[k], err_msg=k)


CONDITIONS = [
    {},
    {"height": 0.5},
    {"height": (None, 5.0)},
    {"height": (-3, 8)},
    {"threshold": 0.4},
    {"threshold": (0.1, 1.5)},
    {"distance": 1},
    {"distance": 7},
    {"distance": 55.5},
    {"prominence": 2},
    {"prominence": (1, 6), "wlen": 40},
    {"prominence": 0, "wlen": 7.5},
    {"width": 3},
    {"width": (2, 30), "rel_height": 0.8},
    {"width": 0, "rel_height": 1.0, "wlen": 101},
    {"plateau_size": 1},
    {"plateau_size": (2, 6)},
    {"height": (-5, 40), "threshold": (0, 3), "distance": 3.5,
     "prominence": 0.5, "width": 1, "wlen": 51, "plateau_size": (1, 10)},
]


@pytest.mark.parametrize("kw", CONDITIONS, ids=lambda k: ",".join(k) or "none")
def test_find_peaks_against_scipy(device, kw):
    x = signal()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ss.find_peaks(x, **kw)
        got = es.find_peaks(ember.asarray(x, device=device), **kw)
    assert len(want[0]) >= 1
    same(got, want)


def test_conditions_as_arrays(device):
    x = signal(plateaus=False)
    lo = np.linspace(-5, 5, x.size)
    hi = lo + 12
    E = lambda a: ember.asarray(a, device=device)
    for kw in ({"height": lo}, {"height": (lo, hi)},
               {"threshold": (None, np.full(x.size, 1.0))},
               {"prominence": (lo * 0.3, None)}, {"width": (None, hi)}):
        want = ss.find_peaks(x, **kw)
        ekw = {k: E(v) if isinstance(v, np.ndarray) else
               tuple(E(b) if isinstance(b, np.ndarray) else b for b in v)
               for k, v in kw.items()}
        same(es.find_peaks(E(x), **ekw), want)
        # NumPy arrays as conditions for an ember x, as SciPy takes them
        same(es.find_peaks(E(x), **kw), want)
    with pytest.raises(ValueError, match="lower interval border"):
        es.find_peaks(E(x), height=np.zeros(5))
    with pytest.raises(ValueError, match="upper interval border"):
        es.find_peaks(E(x), height=(0, np.zeros(5)))


def test_small_and_flat_inputs(device):
    for x in ([], [1.0], [1.0, 2.0], [0.0, 1.0, 0.0], [1.0, 1.0, 1.0],
              [0.0, 2.0, 2.0, 2.0, 2.0, 0.0], [0.0, 2.0, 2.0, 3.0, 0.0],
              [0.0, 2.0, 2.0], [3, 1, 3, 1, 3], [0, 1, 1, 0, 1, 1, 1, 0],
              [0.0, np.nan, 0.0, 1.0, np.nan, 1.0, 0.0]):
        x = np.asarray(x, np.float64)
        same(es.find_peaks(ember.asarray(x, device=device), plateau_size=0),
             ss.find_peaks(x, plateau_size=0))
    # integers are read as float64, as SciPy's
    xi = rng.integers(0, 5, 200)
    same(es.find_peaks(ember.asarray(xi, device=device), height=2,
                       plateau_size=1), ss.find_peaks(xi, height=2,
                                                      plateau_size=1))


def greedy(peaks, heights, d):
    """find_peaks' distance rule with a stable sort of the heights."""
    keep = np.ones(len(peaks), bool)
    for j in np.argsort(heights, kind="stable")[::-1]:
        if keep[j]:
            near = np.abs(peaks - peaks[j]) < np.ceil(d)
            near[j] = False
            keep[near] = False
    return peaks[keep]


def test_distance_ties(device):
    # equal heights: of two closer than distance, the later is kept (a
    # stable sort, taken from the highest end); SciPy's argsort is not
    # stable (NumPy's AVX-512 sort orders the ties of 9 heights otherwise)
    x = np.zeros(60)
    at = np.array([5, 9, 14, 20, 23, 30, 41, 44, 50])
    x[at] = [2, 2, 1, 3, 3, 2, 2, 2, 2]
    for d in (2, 4, 5, 7, 12, 3.5):
        got = host(es.find_peaks(ember.asarray(x, device=device), distance=d)[0])
        np.testing.assert_array_equal(got, greedy(at, x[at], d))
    x = signal(plateaus=False)
    p = ss.find_peaks(x)[0]
    x[p[::3]] = 5.0  # a third of the peaks tie
    p = ss.find_peaks(x)[0]
    got = host(es.find_peaks(ember.asarray(x, device=device), distance=9)[0])
    np.testing.assert_array_equal(got, greedy(p, x[p], 9))


def test_prominences_and_widths(device):
    x = signal(plateaus=False)
    peaks = ss.find_peaks(x)[0]
    E = lambda a: ember.asarray(a, device=device)
    for wlen in (None, 3, 20, 20.5, 1000):
        want = ss.peak_prominences(x, peaks, wlen=wlen)
        got = es.peak_prominences(E(x), E(peaks), wlen=wlen)
        for g, w in zip(got, want):
            assert host(g).dtype == w.dtype
            np.testing.assert_allclose(host(g), w, rtol=1e-15, atol=0)
    for rel in (0, 0.25, 0.5, 1.0, 2.0):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = ss.peak_widths(x, peaks, rel_height=rel, wlen=30)
            got = es.peak_widths(E(x), E(peaks), rel_height=rel, wlen=30)
        for g, w in zip(got, want):
            assert host(g).dtype == w.dtype
            np.testing.assert_allclose(host(g), w, rtol=1e-14, atol=1e-12)
    # prominence_data given, and a list of peaks
    pd = ss.peak_prominences(x, peaks)
    got = es.peak_widths(E(x), list(peaks), 0.5,
                         tuple(E(a) for a in pd))
    for g, w in zip(got, ss.peak_widths(x, peaks, 0.5, pd)):
        np.testing.assert_allclose(host(g), w, rtol=1e-14, atol=1e-12)
    # any index may be asked about (a slope's prominence is 0: a warning)
    idx = np.array([0, 7, len(x) - 1, 200])
    with pytest.warns(es.PeakPropertyWarning, match="prominence of 0"):
        got = es.peak_prominences(E(x), E(idx))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ss.peak_prominences(x, idx)
    for g, w in zip(got, want):
        np.testing.assert_allclose(host(g), w, rtol=1e-15)
    with pytest.warns(es.PeakPropertyWarning, match="width of 0"):
        es.peak_widths(E(x), E(peaks), rel_height=0)
    assert issubclass(es.PeakPropertyWarning, RuntimeWarning)


def test_bad_arguments(device):
    E = lambda a: ember.asarray(a, device=device)
    x = E(signal(200, plateaus=False))
    for f, args, kw, exc, msg in [
            (es.find_peaks, (E(np.ones((3, 3))),), {}, ValueError, "1-D"),
            (es.find_peaks, (x,), {"distance": 0.5}, ValueError, "distance"),
            (es.find_peaks, (x,), {"prominence": 1, "wlen": 1}, ValueError,
             "wlen"),
            (es.peak_prominences, (x, [3, 500]), {}, ValueError,
             "peak 500 is not a valid index"),
            (es.peak_prominences, (x, [-1]), {}, ValueError, "peak -1"),
            (es.peak_prominences, (x, [1.5]), {}, TypeError, "safely cast"),
            (es.peak_prominences, (x, [[1, 2]]), {}, ValueError, "1-D"),
            (es.peak_prominences, (x, [5]), {"wlen": 0.5}, ValueError, "wlen"),
            (es.peak_widths, (x, [5]), {"rel_height": -1}, ValueError,
             "rel_height"),
            (es.peak_widths, (x, [5, 9]), {"prominence_data": (
                np.ones(1), np.array([4]), np.array([6]))},
             ValueError, "same shape"),
            (es.peak_widths, (x, [5]), {"prominence_data": (
                np.ones(1), np.array([6]), np.array([9]))},
             ValueError, "invalid for peak 5")]:
        with pytest.raises(exc, match=msg):
            f(*args, **kw)
        xs = ember.asnumpy(args[0])
        with pytest.raises(exc, match=msg):  # SciPy's too
            getattr(ss, f.__name__)(xs, *args[1:], **kw)


def test_peaks_kernels_compile_for_the_gpu(need_nvrtc):
    import ember.scipy._kernels as k
    src = k.source("peaks.cuh")
    ptx = ember.cuda.Program(src).compile("ptx").code
    assert ptx.count(b".entry") == 4
