"""ember.scipy.signal's polyphase resampling (re-exported by
ember.scipy.signal): upfirdn (zeros inserted, the FIR filter as one
ndimage correlate1d pass over the padded signal, every down-th output
kept), resample_poly (a Kaiser-windowed firwin low-pass through upfirdn)
and decimate (a Chebyshev I filter forward and backward, or the FIR
route). Only upfirdn's 'constant' extension with cval 0 is there."""
import math

import ember as _e
from ember._api._util import as_array as _arr
from ember._api._util import normalize_axis

__all__ = ["upfirdn", "resample_poly", "decimate"]

_MODES = ("constant", "wrap", "edge", "smooth", "symmetric", "reflect",
          "antisymmetric", "antireflect", "line")


def _output_len(len_h, in_len, up, down):
    return (((in_len - 1) * up + len_h) - 1) // down + 1


def upfirdn(h, x, up=1, down=1, axis=-1, mode="constant", cval=0):
    """scipy.signal.upfirdn: upsample by up (zeros between samples), filter
    with the FIR h, downsample by down, along axis."""
    from ember.scipy.ndimage import correlate1d
    import numpy
    x = _arr(x)
    hh = numpy.asarray(_e.asnumpy(h) if isinstance(h, _e.ndarray) else h)
    if hh.ndim != 1 or hh.size == 0:
        raise ValueError("h must be 1-D with non-zero length")
    out_t = _e.result_type(_e.dtype(hh.dtype.name), x.dtype, _e.float32)
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("Both up and down must be >= 1")
    if mode not in _MODES:
        raise ValueError(f"Unknown mode: {mode}")
    if mode != "constant" or cval != 0:
        raise NotImplementedError("upfirdn: only mode='constant' with cval=0 "
                                  "for now")
    axis = normalize_axis(axis, x.ndim)
    x = _e.moveaxis(x.astype(out_t), axis, -1)
    n, L = x.shape[-1], hh.size
    if out_t.kind == "c" or hh.dtype.kind == "c":
        hc = hh.astype(complex)
        re_ = lambda v: v.real if v.dtype.kind == "c" else v  # noqa: E731
        im_ = lambda v: v.imag if v.dtype.kind == "c" else \
            _e.zeros_like(v)  # noqa: E731
        parts = [(re_(x), hc.real, 1), (im_(x), hc.imag, -1),
                 (re_(x), hc.imag, 1j), (im_(x), hc.real, 1j)]
        y = None
        for xs, hs, c in parts:
            t = upfirdn(hs, xs, up, down, -1)
            y = t * c if y is None else y + t * c
        return _e.moveaxis(y.astype(out_t), -1, axis)
    xu = _e.zeros(x.shape[:-1] + ((n - 1) * up + 1,), dtype=out_t,
                  device=x.device)
    xu[..., ::up] = x
    lead = [(0, 0)] * (x.ndim - 1)
    xp = _e.pad(xu, lead + [(L - 1, L - 1)])
    full = correlate1d(xp, hh[::-1].astype(numpy.float64), axis=-1,
                       output=out_t, mode="constant", origin=-(L // 2))
    m = _output_len(L, n, up, down)
    y = full[..., :(n - 1) * up + L:down][..., :m]
    return _e.moveaxis(y, -1, axis)


def resample_poly(x, up, down, axis=0, window=("kaiser", 5.0),
                  padtype="constant", cval=None):
    """scipy.signal.resample_poly: up/down resampling through upfirdn with
    a zero-phase low-pass FIR (firwin, or the given taps), the output
    centred as SciPy's."""
    from ember.scipy.signal_design import firwin
    x = _arr(x)
    if up != int(up):
        raise ValueError("up must be an integer")
    if down != int(down):
        raise ValueError("down must be an integer")
    up, down = int(up), int(down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if cval is not None and padtype != "constant":
        raise ValueError("cval has no effect when padtype is ", padtype)
    g = math.gcd(up, down)
    up //= g
    down //= g
    if up == down == 1:
        return x.copy()
    n_in = x.shape[axis]
    n_out = n_in * up
    n_out = n_out // down + bool(n_out % down)
    if isinstance(window, (list, _e.ndarray)) or hasattr(window,
                                                         "__array__"):
        h = _e.asarray(window, device="cpu").copy()
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        half_len = (h.size - 1) // 2
    else:
        max_rate = max(up, down)
        half_len = 10 * max_rate
        h = firwin(2 * half_len + 1, 1. / max_rate, window=window,
                   device="cpu")
        if x.dtype.kind in "fc":
            h = h.astype(x.dtype)
    h = h * up
    n_pre_pad = down - half_len % down
    n_post_pad = 0
    n_pre_remove = (half_len + n_pre_pad) // down
    while _output_len(h.shape[0] + n_pre_pad + n_post_pad, n_in, up,
                      down) < n_out + n_pre_remove:
        n_post_pad += 1
    h = _e.concatenate((_e.zeros(n_pre_pad, dtype=h.dtype, device="cpu"), h,
                        _e.zeros(n_post_pad, dtype=h.dtype, device="cpu")))
    funcs = {"mean": _e.mean, "median": _e.median, "minimum": _e.min,
             "maximum": _e.max}
    if padtype in funcs:
        bg = funcs[padtype](x, axis=axis, keepdims=True)
        x = x - bg
    elif padtype in _MODES:
        if padtype != "constant" or (cval or 0) != 0:
            raise NotImplementedError("resample_poly: padtype other than "
                                      "'constant' (cval 0) and the "
                                      "background ones is not there yet")
    else:
        raise ValueError("padtype must be one of: maximum, mean, median, "
                         "minimum, " + ", ".join(_MODES))
    y = upfirdn(h, x, up, down, axis=axis)
    keep = [slice(None)] * x.ndim
    keep[axis] = slice(n_pre_remove, n_pre_remove + n_out)
    y = y[tuple(keep)]
    if padtype in funcs:
        y = y + bg
    return y


def decimate(x, q, n=None, ftype="iir", axis=-1, zero_phase=True):
    """scipy.signal.decimate: low-pass (an order-8 Chebyshev I with 0.05
    dB ripple, or a 20q-tap Hamming FIR) then every q-th sample;
    zero_phase filters forward and backward (sosfiltfilt, or
    resample_poly for the FIR)."""
    import operator
    from ember.scipy.signal_design import cheby1, firwin, sosfiltfilt
    from ember.scipy.signal_iir import sosfilt
    x = _arr(x)
    q = operator.index(q)
    if n is not None:
        n = operator.index(n)
    rt = x.dtype if x.dtype.kind in "fc" and x.dtype != _e.float16 \
        else _e.float64
    sl = [slice(None)] * x.ndim
    if ftype == "fir":
        if n is None:
            n = 20 * q
        b = firwin(n + 1, 1. / q, window="hamming", device="cpu").astype(rt)
        if zero_phase:
            y = resample_poly(x, 1, q, axis=axis, window=b)
        else:
            n_out = x.shape[axis] // q + bool(x.shape[axis] % q)
            y = upfirdn(b, x, up=1, down=q, axis=axis)
            sl[axis] = slice(None, n_out, None)
    elif ftype == "iir":
        sos = cheby1(8 if n is None else n, 0.05, 0.8 / q, output="sos",
                     device="cpu").astype(rt)
        y = sosfiltfilt(sos, x, axis=axis) if zero_phase else \
            sosfilt(sos, x, axis=axis)
        sl[axis] = slice(None, None, q)
    elif isinstance(ftype, str):
        raise ValueError("invalid ftype")
    else:
        raise NotImplementedError("decimate: an lti system as ftype is not "
                                  "there yet")
    return y[tuple(sl)]
