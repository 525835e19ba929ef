"""ember.scipy.signal: scipy.signal's convolutions on ember arrays, on
every device.

convolve2d and correlate2d run a direct kernel (kernels/convolve2d.cuh,
a block a tile of outputs from a shared-memory tile of the input, every
boundary and mode); fftconvolve goes
through ember.fft (cuFFT on CUDA devices, pocketfft on cpu); convolve and
correlate pick one of the two as method= says ('auto': direct for small
kernels, FFT for large ones, choose_conv_method's rule). Dtypes are
SciPy's: the inputs' result type, integers wrapping as NumPy's do."""
import math
import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy import _kernels
from ember.scipy.signal_spectral import *  # noqa: F401,F403
from ember.scipy import signal_spectral as _spectral
from ember.scipy.signal_iir import *  # noqa: F401,F403
from ember.scipy import signal_iir as _iir
from ember.scipy.signal_design import *  # noqa: F401,F403
from ember.scipy import signal_design as _design
from ember.scipy.signal_stft import *  # noqa: F401,F403
from ember.scipy import signal_stft as _stft
from ember.scipy.signal_waveforms import *  # noqa: F401,F403
from ember.scipy import signal_waveforms as _waveforms
from ember.scipy.signal_resample import *  # noqa: F401,F403
from ember.scipy import signal_resample as _resample
from ember.scipy.signal_ellip import *  # noqa: F401,F403
from ember.scipy import signal_ellip as _ellip
from ember.scipy.signal_peaks import *  # noqa: F401,F403
from ember.scipy import signal_peaks as _peaks
from ember.scipy.signal_shorttime import *  # noqa: F401,F403
from ember.scipy import signal_shorttime as _shorttime
from ember.scipy.signal_bspline import *  # noqa: F401,F403
from ember.scipy import signal_bspline as _bspline
from ember.scipy.signal_argrel import *  # noqa: F401,F403
from ember.scipy import signal_argrel as _argrel
from ember.scipy.signal_convmore import *  # noqa: F401,F403
from ember.scipy import signal_convmore as _convmore
from ember.scipy.signal_envelope import *  # noqa: F401,F403
from ember.scipy import signal_envelope as _envelope
from ember.scipy.signal_iirspecial import *  # noqa: F401,F403
from ember.scipy import signal_iirspecial as _iirspecial
from ember.scipy.signal_convert import *  # noqa: F401,F403
from ember.scipy import signal_convert as _convert
from ember.scipy.signal_residue import *  # noqa: F401,F403
from ember.scipy import signal_residue as _residue
from ember.scipy.signal_freqresp import *  # noqa: F401,F403
from ember.scipy import signal_freqresp as _freqresp
from ember.scipy.signal_firmore import *  # noqa: F401,F403
from ember.scipy import signal_firmore as _firmore
from ember.scipy.signal_waveforms_more import *  # noqa: F401,F403
from ember.scipy import signal_waveforms_more as _waveforms_more
from ember.scipy.signal_czt import *  # noqa: F401,F403
from ember.scipy import signal_czt as _czt
from ember.scipy.signal_lti import *  # noqa: F401,F403
from ember.scipy import signal_lti as _lti
from ember.scipy.signal_ltisim import *  # noqa: F401,F403
from ember.scipy import signal_ltisim as _ltisim

__all__ = ["convolve2d", "correlate2d", "fftconvolve", "convolve",
           "correlate", "choose_conv_method", "windows", "medfilt",
           "medfilt2d", "wiener", "order_filter", "sepfir2d"] + \
    _spectral.__all__ + _iir.__all__ + _design.__all__ + _stft.__all__ + \
    _waveforms.__all__ + _resample.__all__ + _ellip.__all__ + _peaks.__all__ + \
    _shorttime.__all__ + _bspline.__all__ + _argrel.__all__ + \
    _convmore.__all__ + _envelope.__all__ + _iirspecial.__all__ + \
    _convert.__all__ + _residue.__all__ + _freqresp.__all__ + \
    _firmore.__all__ + _waveforms_more.__all__ + _czt.__all__ + \
    _lti.__all__ + _ltisim.__all__

windows = _spectral  # scipy.signal.windows.hann and the rest

_BOUNDARY = {"fill": 0, "pad": 0, "wrap": 1, "circular": 1, "symm": 2,
             "symmetric": 2}
_MODES = ("full", "same", "valid")
_NAMES = {"float32": "em_conv2d<float>", "float64": "em_conv2d<double>",
          "int64": "em_conv2d<long long>"}
# the tiled kernel and its outputs a thread down a column (CY): fewer for
# 8-byte types, so a tile's rows with a 31x31 kernel's halo still fit
_TILED = {"float32": ("em_conv2d_tile<float, 4>", 4),
          "float64": ("em_conv2d_tile<double, 2>", 2),
          "int64": ("em_conv2d_tile<long long, 2>", 2)}
_ALL_NAMES = tuple(_NAMES.values()) + tuple(n for n, _ in _TILED.values())


def _pair(in1, in2):
    """Both inputs as ember arrays on one device: a list or NumPy array
    goes where the other operand is; two devices are an error, as ember
    copies between devices only when asked."""
    if not isinstance(in1, _e.ndarray) and isinstance(in2, _e.ndarray):
        in1 = _e.asarray(in1, device=in2.device)
    in1 = _arr(in1)
    in2 = in2 if isinstance(in2, _e.ndarray) else \
        _e.asarray(in2, device=in1.device)
    if in1.device != in2.device:
        raise ValueError(f"in1 is on {in1.device} and in2 on {in2.device} "
                         "(ember does not copy between devices implicitly)")
    return in1, in2


def _compute_dtype(rt):
    if rt.kind == "c":
        raise NotImplementedError("ember.scipy.signal: complex convolutions "
                                  "are not there yet")
    if rt.kind == "f":
        return "float32" if rt == _e.float32 else "float64"
    return "int64"


def _swap_needed(mode, s1, s2):
    """SciPy's rule for 'valid': the larger operand goes first."""
    if mode != "valid":
        return False
    ok1 = all(a >= b for a, b in zip(s1, s2))
    ok2 = all(b >= a for a, b in zip(s1, s2))
    if not (ok1 or ok2):
        raise ValueError("For 'valid' mode, one must be at least as large "
                         "as the other in every dimension")
    return not ok1


def _conv2d(in1, in2, mode, boundary, fillvalue, flip):
    in1, in2 = _pair(in1, in2)
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError("convolve2d inputs must both be 2-D arrays")
    if mode not in _MODES:
        raise ValueError("Acceptable mode flags are 'valid', 'same', or "
                         "'full'.")
    if boundary not in _BOUNDARY:
        raise ValueError("Acceptable boundary flags are 'fill', 'circular' "
                         "(or 'wrap'), and 'symmetric' (or 'symm').")
    rt = _e.result_type(in1, in2)
    t = _compute_dtype(rt)
    swap = _swap_needed(mode, in1.shape, in2.shape)
    a, k = (in2, in1) if swap else (in1, in2)
    if flip:  # correlation: the kernel reversed (and conjugated)
        k = k[::-1, ::-1]
    a = _e.ascontiguousarray(a.astype(t, copy=False))
    k = _e.ascontiguousarray(k.astype(t, copy=False))
    M, N = a.shape
    P, Q = k.shape
    if mode == "full":
        OM, ON, i0, j0 = M + P - 1, N + Q - 1, 0, 0
    elif mode == "same":
        OM, ON = in1.shape
        # centred in the full output; a correlation's extra element of an
        # even kernel falls on the other side, as SciPy's
        di, dj = M + P - 1 - OM, N + Q - 1 - ON
        i0, j0 = (di - di // 2, dj - dj // 2) if flip else (di // 2, dj // 2)
    else:
        OM, ON, i0, j0 = M - P + 1, N - Q + 1, P - 1, Q - 1
    out = _e.empty((max(OM, 0), max(ON, 0)), dtype=t, device=a.device)
    if out.size and a.size and k.size:
        _launch_conv2d(a, k, out, t, i0, j0, _BOUNDARY[boundary], fillvalue)
    elif out.size:
        out[...] = 0
    if flip and swap:
        out = out[::-1, ::-1]
    return out.astype(rt, copy=False)


_TILE_W = 128  # EM_CONV_BX * EM_CONV_CX in kernels/convolve2d.cuh


def _tile_plan(itemsize, cy, P, Q):
    """(kernel rows a chunk, shared bytes) for em_conv2d_tile within 48
    KiB (the default limit of a GPU block and the cpu device's), or None
    when not one kernel row fits beside a tile (a kernel thousands wide)."""
    tw, th = _TILE_W, 8 * cy
    cols = tw + Q - 1
    budget = 49152 // itemsize
    cu = min(P, (budget - (th - 1) * cols) // (cols + Q))
    if cu < 1:
        return None
    return cu, (cu * Q + (th + cu - 1) * cols) * itemsize


def _launch_conv2d(a, k, out, t, i0, j0, boundary, fillvalue):
    import numpy
    M, N = a.shape
    P, Q = k.shape
    OM, ON = out.shape
    args = (a, M, N, k, P, Q, out, OM, ON, i0, j0, boundary,
            numpy.dtype(t).type(fillvalue))
    name, cy = _TILED[t]
    plan = _tile_plan(numpy.dtype(t).itemsize, cy, P, Q)
    # a few rows (convolve's 1-D signals are one) would leave most of a
    # tile's threads summing rows past the end: the plain kernel there
    if plan is None or OM < 8:
        _kernels.launch(a.device, "convolve2d.cuh", _NAMES[t], out.size,
                        args, name_expressions=_ALL_NAMES)
        return
    cu, shared = plan
    tiles = -(-ON // _TILE_W) * -(-OM // (8 * cy))
    _kernels.launch_tiles(a.device, "convolve2d.cuh", name, tiles, (32, 8),
                          shared, args + (numpy.int32(cu),),
                          name_expressions=_ALL_NAMES)


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """scipy.signal.convolve2d: the 2-D convolution of in1 and in2."""
    return _conv2d(in1, in2, mode, boundary, fillvalue, flip=False)


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    """scipy.signal.correlate2d: the 2-D cross-correlation."""
    in2 = _arr(in2)
    if in2.dtype.kind == "c":
        in2 = _e.conj(in2)
    return _conv2d(in1, in2, mode, boundary, fillvalue, flip=True)


def _centered(x, shape):
    start = [(a - b) // 2 for a, b in zip(x.shape, shape)]
    return x[tuple(slice(s, s + n) for s, n in zip(start, shape))]


def fftconvolve(in1, in2, mode="full", axes=None):
    """scipy.signal.fftconvolve: the convolution through the FFT of the
    zero-padded inputs (real FFTs for real inputs)."""
    import ember.fft as fft
    in1, in2 = _pair(in1, in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if mode not in _MODES:
        raise ValueError("acceptable mode flags are 'valid', 'same', or "
                         "'full'")
    if in1.size == 0 or in2.size == 0:
        return _e.empty((0,) * in1.ndim, dtype=_e.result_type(in1, in2),
                        device=in1.device)
    axes = list(range(in1.ndim)) if axes is None else \
        sorted(a % in1.ndim for a in ([axes] if isinstance(axes, int)
                                       else axes))
    s1, s2 = in1.shape, in2.shape
    if _swap_needed(mode, [s1[a] for a in axes], [s2[a] for a in axes]):
        in1, in2, s1, s2 = in2, in1, s2, s1
    shape = [s1[a] + s2[a] - 1 if a in axes else max(s1[a], s2[a])
             for a in range(in1.ndim)]
    fshape = [shape[a] for a in axes]
    rt = _e.result_type(in1, in2, _e.float32)
    if rt.kind == "c":
        sp = fft.fftn(in1, fshape, axes=axes) * fft.fftn(in2, fshape, axes=axes)
        ret = fft.ifftn(sp, fshape, axes=axes)
    else:
        sp = (fft.rfftn(in1, fshape, axes=axes) *
              fft.rfftn(in2, fshape, axes=axes))
        ret = fft.irfftn(sp, fshape, axes=axes)
    ret = ret.astype(rt, copy=False)
    if mode == "full":
        return ret
    if mode == "same":
        return _centered(ret, [s1[a] if a in axes else shape[a]
                               for a in range(in1.ndim)])
    return _centered(ret, [s1[a] - s2[a] + 1 if a in axes else shape[a]
                           for a in range(in1.ndim)])


def choose_conv_method(in1, in2, mode="full", measure=False):
    """'direct' or 'fft' for convolve's method='auto': the FFT once the
    direct product count (output size times kernel size) passes the FFT's
    n log n cost by SciPy's constants' order, direct for integers (exact),
    as SciPy; measure=True is not there (it would time both)."""
    if measure:
        raise NotImplementedError("choose_conv_method(measure=True)")
    in1, in2 = _pair(in1, in2)
    if _e.result_type(in1, in2).kind in "biu":
        return "direct"
    out = math.prod(a + b - 1 for a, b in zip(in1.shape, in2.shape))
    direct = in1.size * in2.size
    fftcost = 3 * out * math.log2(max(out, 2))
    return "fft" if direct > 10 * fftcost else "direct"


def convolve(in1, in2, mode="full", method="auto"):
    """scipy.signal.convolve: direct (1-D and 2-D) or through the FFT."""
    in1, in2 = _pair(in1, in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if method == "auto":
        # direct is 1-D and 2-D here: more dimensions go through the FFT
        method = choose_conv_method(in1, in2, mode) if in1.ndim <= 2 \
            else "fft"
    if method == "fft" or in1.ndim > 2:
        if method == "direct":
            raise NotImplementedError("method='direct' for more than two "
                                      "dimensions")
        r = fftconvolve(in1, in2, mode)
        if _e.result_type(in1, in2).kind in "biu":
            r = _e.round(r)
        return r.astype(_e.result_type(in1, in2), copy=False)
    if method != "direct":
        raise ValueError("Acceptable method flags are 'auto', 'direct', or "
                         "'fft'.")
    if in1.ndim == 1:
        return convolve2d(in1[None], in2[None], mode)[0]
    return convolve2d(in1, in2, mode)


def correlate(in1, in2, mode="full", method="auto"):
    """scipy.signal.correlate: convolve with in2 reversed and conjugated."""
    in1, in2 = _pair(in1, in2)
    rev = _e.conj(in2[(slice(None, None, -1),) * in2.ndim]) \
        if in2.dtype.kind == "c" else in2[(slice(None, None, -1),) * in2.ndim]
    if mode == "valid" and _swap_needed(mode, in1.shape, in2.shape):
        # SciPy: correlate(a, b, 'valid') with b the larger is the reverse
        # of correlate(b, a)
        r = correlate(in2, in1, mode, method)
        r = r[(slice(None, None, -1),) * r.ndim]
        return _e.conj(r) if r.dtype.kind == "c" else r
    return convolve(in1, rev, mode, method)


def medfilt(volume, kernel_size=None):
    """scipy.signal.medfilt: the median over an odd window, zero beyond
    the edges (ndimage's median filter in constant mode)."""
    from ember.scipy.ndimage_filters import median_filter
    x = _arr(volume)
    ks = [3] * x.ndim if kernel_size is None else (
        [kernel_size] * x.ndim if isinstance(kernel_size, int)
        else list(kernel_size))
    if any(k % 2 == 0 for k in ks):
        raise ValueError("Each element of kernel_size should be odd.")
    return median_filter(x, size=ks, mode="constant", cval=0)


def medfilt2d(input, kernel_size=3):
    """scipy.signal.medfilt2d: medfilt of a 2-D array."""
    x = _arr(input)
    if x.ndim != 2:
        raise ValueError("medfilt2d: input must be 2-D")
    return medfilt(x, kernel_size)


def wiener(im, mysize=None, noise=None):
    """scipy.signal.wiener: each sample pulled toward its window's mean by
    how far the window's variance exceeds the noise power (the variances'
    mean when noise is None); the window's mean where its variance is
    below the noise. Mean and variance are box sums through correlate
    ('same', zeros beyond the edges), as SciPy's."""
    import math
    x = _arr(im)
    size = [3] * x.ndim if mysize is None else (
        [int(mysize)] * x.ndim if _e.ndim(mysize) == 0 else
        [int(k) for k in mysize])
    if len(size) != x.ndim:
        raise ValueError(f"mysize has {len(size)} entries, the input "
                         f"{x.ndim} dimensions")
    box = _e.ones(size, device=x.device)
    n = math.prod(size)
    mean = correlate(x, box, "same") / n
    var = correlate(x * x, box, "same") / n - mean * mean
    if noise is None:
        noise = _e.mean(var)
    res = (x - mean) * (1 - noise / var) + mean
    return _e.where(var < noise, mean, res)



def order_filter(a, domain, rank):
    """scipy.signal.order_filter: the rank-th smallest of the elements
    under domain's nonzero ones, zero outside the array
    (ember.scipy.ndimage.rank_filter with mode='constant')."""
    from ember.scipy.ndimage import rank_filter
    import numpy
    d = numpy.asarray(_e.asnumpy(domain) if isinstance(domain, _e.ndarray)
                      else domain)
    if any(n % 2 != 1 for n in d.shape):
        raise ValueError("Each dimension of domain argument should have an "
                         "odd number of elements.")
    x = _arr(a)
    if not (x.dtype.kind in "iu" or x.dtype in (_e.float32, _e.float64)):
        raise ValueError(f"dtype={x.dtype} is not supported by order_filter")
    return rank_filter(x, rank, footprint=d, mode="constant")


def sepfir2d(input, hrow, hcol):
    """scipy.signal.sepfir2d: convolve a 2-D array with hrow along its
    rows, then hcol down its columns, the edges mirrored with the edge
    sample repeated (ndimage's 'reflect'); each pass in the result type
    (float32 for float32 and small integers, else float64), summed in
    double by ndimage's 1-D passes where SciPy sums in that type."""
    from ember.scipy.ndimage import convolve1d
    x = _arr(input)
    if x.ndim != 2:
        raise ValueError("object of too small depth for desired array"
                         if x.ndim < 2 else
                         "object too deep for desired array")
    if x.dtype.kind == "c":
        raise NotImplementedError("sepfir2d: complex input is not there "
                                  "yet")
    t = _e.result_type(x.dtype, _e.float32)
    hr = _e.asnumpy(hrow) if isinstance(hrow, _e.ndarray) else hrow
    hc = _e.asnumpy(hcol) if isinstance(hcol, _e.ndarray) else hcol
    import numpy
    for h in (hr, hc):
        # SciPy converts an array of taps only where it casts safely
        if isinstance(h, numpy.ndarray) and \
                not numpy.can_cast(h.dtype, numpy.dtype(t.name)):
            raise TypeError(f"Cannot cast array data from dtype('{h.dtype}')"
                            f" to dtype('{t.name}') according to the rule "
                            "'safe'")
    hr, hc = numpy.atleast_1d(hr), numpy.atleast_1d(hc)
    if hr.ndim != 1 or hc.ndim != 1:
        raise ValueError("object too deep for desired array")
    if hr.size % 2 != 1 or hc.size % 2 != 1:
        raise ValueError("hrow and hcol must be odd length")
    # the taps in the computation's type first, as SciPy converts them
    hr = hr.astype(numpy.dtype(t.name))
    hc = hc.astype(numpy.dtype(t.name))
    y = convolve1d(x.astype(t), hr, axis=1, output=t, mode="reflect")
    return convolve1d(y, hc, axis=0, output=t, mode="reflect")
