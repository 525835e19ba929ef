"""ember.scipy.signal.ShortTimeFFT (re-exported by ember.scipy.signal):
SciPy's short-time Fourier transform class over ember arrays and
ember.fft (cuFFT on CUDA devices).

Slice p of a signal is the m_num samples starting at p * hop - m_num // 2
(its window centred on sample p * hop). stft makes every slice of the
range at once: the signal is padded once (ember.pad, for the slices that
stick out of it), the slices are one gather with a (slices x mfft) index
table that also applies the phase shift's roll and the zero padding to
mfft, then one multiply by the (rolled, padded) conjugate window and one
batched FFT over all slices. istft is one batched inverse FFT, one gather
that undoes the roll, a multiply by the dual window and one scatter-add
(ember.add.at) of every slice to its place.

The window's few facts that pick the slice range (the runs of zeros at
its ends, its sums for the scalings) are read to the host once; all
per-sample work stays on the window's device."""
import math
import numbers

import ember as _e
from ember._api._util import as_array as _arr
from ember.scipy.signal_spectral import get_window
from ember.scipy.signal_spectral import detrend as _detrend

__all__ = ["ShortTimeFFT", "closest_STFT_dual_window"]

_FFT_MODES = ("twosided", "centered", "onesided", "onesided2X")
_PADDINGS = {"zeros": ("constant", {}), "edge": ("edge", {}),
             "even": ("reflect", {"reflect_type": "even"}),
             "odd": ("reflect", {"reflect_type": "odd"})}
# NumPy's finfo(dtype).resolution: the relative floor below which a
# summed squared window counts as zero (the STFT is then not invertible)
_RESOLUTION = {"float16": 1e-3, "float32": 1e-6, "float64": 1e-15,
               "complex64": 1e-6, "complex128": 1e-15}


def _abs2(w):
    return (w.real * w.real + w.imag * w.imag) if w.dtype.kind == "c" \
        else w * w


def _residue_sums(v, hop):
    """For each index k of v, the sum of v over the indices congruent to
    k modulo hop: what the overlapped copies of v, hop apart, add to."""
    m = v.shape[0]
    tot = _e.sum(_e.pad(v, (0, -m % hop)).reshape(-1, hop), axis=0)
    return tot[_e.arange(m, device=v.device) % hop]


def _check_win(win, what):
    if not (win.ndim == 1 and win.size > 0):
        raise ValueError(f"Parameter {what} must be 1d, but "
                         f"{what}.shape={win.shape}!")
    if not bool(_e.all(_e.isfinite(win))):
        raise ValueError(f"Parameter {what} must have finite entries!")


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _canonical_dual(win, hop):
    """The dual window of least energy: win divided by its squared
    magnitude's overlapped sum (the sum must stay positive)."""
    m = win.shape[0]
    if hop > m:
        raise ValueError(f"hop={hop} is larger than window length of {m} "
                         "=> STFT not invertible!")
    if win.dtype.kind in "iu":
        raise ValueError("Parameter 'win' cannot be of integer type, but "
                         f"win.dtype={win.dtype} => STFT not invertible!")
    dd = _residue_sums(_abs2(win), hop)
    floor = _RESOLUTION.get(str(win.dtype), 1e-15) * float(_e.max(dd))
    if not bool(_e.all(dd >= floor)):
        raise ValueError("Short-time Fourier Transform not invertible!")
    return win / dd


def closest_STFT_dual_window(win, hop, desired_dual=None, *, scaled=True):
    """scipy.signal.closest_STFT_dual_window: (the dual window of win for
    hop closest to desired_dual (ones by default) in the least-squares
    sense, the factor alpha it was scaled by for the closest scaled one
    when scaled, else 1.0)."""
    win = _arr(win)
    dd = _e.ones_like(win) if desired_dual is None else \
        _arr(desired_dual, win.device)
    if not (win.ndim == 1 and win.shape == dd.shape):
        raise ValueError("Parameters `win` and `desired_dual` are not 1d "
                         f"arrays of equal length (win.shape={win.shape}, "
                         f"desired_dual.shape={dd.shape})!")
    if not bool(_e.all(_e.isfinite(win))):
        raise ValueError("Parameter win must have finite entries!")
    if not bool(_e.all(_e.isfinite(dd))):
        raise ValueError("Parameter desired_dual must have finite entries!")
    if not (_is_int(hop) and 1 <= hop <= win.shape[0]):
        raise ValueError(f"Parameter hop={hop!r} is not an integer between "
                         f"1 and len(win)={win.shape[0]}!")
    w_d = _canonical_dual(win, hop)
    # the desired dual's projection onto the duals' affine space
    q_d = w_d * _residue_sums(_e.conj(win) * dd, hop)
    if not scaled:
        return w_d + dd - q_d, 1.0
    num = _e.sum(_e.conj(q_d) * w_d)
    num = complex(num) if num.dtype.kind == "c" else float(num)
    den = float(_e.sum(_abs2(q_d)))
    if not (abs(num) > 0 and den > _RESOLUTION.get(str(w_d.dtype), 1e-15)):
        raise ValueError("Unable to calculate scaled closest dual window "
                         "due to numerically unstable scaling factor! Try "
                         "setting parameter `scaled` to False.")
    alpha = num / den
    return w_d + alpha * (dd - q_d), alpha


class ShortTimeFFT:
    """scipy.signal.ShortTimeFFT: a short-time Fourier transform with
    window `win` (an ember array, or a NumPy array or list, which goes to
    the default device), `hop` samples between slices and sampling
    frequency `fs`; `fft_mode` 'onesided' (default), 'onesided2X',
    'twosided' or 'centered'; `mfft` the FFT length (>= len(win));
    `dual_win` for istft (default: the canonical dual); `scale_to`
    'magnitude' or 'psd'; `phase_shift` (samples, or None). Arrays it
    returns (win, dual_win, f, t, stft's and istft's results) are ember
    arrays on the window's device; signals on another device are a
    ValueError, NumPy arrays and lists go to the window's device."""

    def __init__(self, win, hop, fs, *, fft_mode="onesided", mfft=None,
                 dual_win=None, scale_to=None, phase_shift=0):
        win = _arr(win)
        _check_win(win, "win")
        if not (_is_int(hop) and hop >= 1):
            raise ValueError(f"Parameter hop={hop!r} is not an integer >= 1!")
        self._win, self._hop, self.fs = win, int(hop), fs
        self._scaling = None
        self._fac_mag = self._fac_psd = None
        self._zeros = None
        self.mfft = win.shape[0] if mfft is None else mfft
        if dual_win is not None:
            dual_win = _arr(dual_win, win.device)
            if dual_win.shape != win.shape:
                raise ValueError(f"dual_win.shape={dual_win.shape} must "
                                 f"equal win.shape={win.shape}!")
            if not bool(_e.all(_e.isfinite(dual_win))):
                raise ValueError("Parameter dual_win must be a finite "
                                 "array!")
        self._dual_win = dual_win
        if scale_to is not None:
            self.scale_to(scale_to)
        self.fft_mode, self.phase_shift = fft_mode, phase_shift

    # --- constructors ---------------------------------------------------

    @classmethod
    def from_window(cls, win_param, fs, nperseg, noverlap, *,
                    symmetric_win=False, fft_mode="onesided", mfft=None,
                    scale_to=None, phase_shift=0, device=None):
        """A window from get_window (periodic unless symmetric_win),
        nperseg long, slices nperseg - noverlap apart; made on `device`
        (an ember addition; the default device if None)."""
        win = get_window(win_param, nperseg, fftbins=not symmetric_win,
                         device=device)
        return cls(win, hop=nperseg - noverlap, fs=fs, fft_mode=fft_mode,
                   mfft=mfft, scale_to=scale_to, phase_shift=phase_shift)

    @classmethod
    def from_dual(cls, dual_win, hop, fs, *, fft_mode="onesided",
                  mfft=None, scale_to=None, phase_shift=0):
        """The instance whose canonical dual window is `dual_win` (the
        window is the dual's own canonical dual)."""
        dual_win = _arr(dual_win)
        _check_win(dual_win, "dual_win")
        win = _canonical_dual(dual_win, int(hop))
        return cls(win, hop=hop, fs=fs, fft_mode=fft_mode, mfft=mfft,
                   dual_win=dual_win, scale_to=scale_to,
                   phase_shift=phase_shift)

    @classmethod
    def from_win_equals_dual(cls, desired_win, hop, fs, *,
                             fft_mode="onesided", mfft=None, scale_to=None,
                             phase_shift=0):
        """An instance whose window is its own dual, closest to
        desired_win: each residue class of samples modulo hop divided by
        its norm; 'unitary' scaling divides by sqrt(mfft) more."""
        w = _arr(desired_win)
        if not (w.ndim == 1 and w.size > 0):
            raise ValueError("Parameter desired_win is not 1d, but "
                             f"desired_win.shape={w.shape}!")
        if w.dtype.kind in "iu":
            raise ValueError("Parameter desired_win cannot be of integer "
                             f"type, but desired_win.dtype={w.dtype} => "
                             "cast to float | complex ")
        if not bool(_e.all(_e.isfinite(w))):
            raise ValueError("Parameter desired_win must have finite "
                             "entries!")
        if not (_is_int(hop) and 1 <= hop <= w.shape[0]):
            raise ValueError(f"Parameter hop={hop!r} is not an integer "
                             f"between 1 and len(desired_win)={w.shape[0]}!")
        if scale_to not in ("magnitude", "psd", "unitary", None):
            raise ValueError(f"Parameter scale_to={scale_to!r} not in "
                             "['magnitude', 'psd', 'unitary', None]!")
        mfft = w.shape[0] if mfft is None else mfft
        s_fac = math.sqrt(mfft) if scale_to == "unitary" else 1
        top = float(_e.max(w.real if w.dtype.kind == "c" else w))
        floor = _RESOLUTION.get(str(w.dtype), 1e-15) * top
        norms = _e.sqrt(_residue_sums(_abs2(w), hop))
        if not bool(_e.all(norms > floor)):
            raise ValueError("Parameter desired_win does not have valid "
                             f"STFT dual window for hop={hop}!")
        win = w / norms
        sft = cls(win / s_fac, hop=hop, fs=fs, fft_mode=fft_mode,
                  mfft=mfft, dual_win=win * s_fac, phase_shift=phase_shift,
                  scale_to=None if scale_to == "unitary" else scale_to)
        if scale_to == "unitary":
            sft._scaling = scale_to
        return sft

    # --- parameters -----------------------------------------------------

    @property
    def win(self):
        """The window (m_num samples)."""
        return self._win

    @property
    def hop(self):
        """Samples between the slices' centres."""
        return self._hop

    @property
    def T(self):
        """Sampling interval, 1 / fs."""
        return 1 / self._fs

    @T.setter
    def T(self, v):
        if not v > 0:
            raise ValueError(f"Sampling interval T={v} must be positive!")
        self._fs = 1 / v

    @property
    def fs(self):
        """Sampling frequency."""
        return self._fs

    @fs.setter
    def fs(self, v):
        if not v > 0:
            raise ValueError(f"Sampling frequency fs={v} must be positive!")
        self._fs = v

    @property
    def fft_mode(self):
        """'twosided' (fft's order), 'centered' (fftshift of it),
        'onesided' (rfft) or 'onesided2X' (rfft with the unpaired bins
        doubled, or times sqrt(2) for 'psd' scaling)."""
        return self._fft_mode

    @fft_mode.setter
    def fft_mode(self, t):
        if t not in _FFT_MODES:
            raise ValueError(f"fft_mode='{t}' not in {_FFT_MODES}!")
        if t in ("onesided", "onesided2X") and self._win.dtype.kind == "c":
            raise ValueError(f"One-sided spectra, i.e., fft_mode='{t}', are "
                             "not allowed for complex-valued windows!")
        if t == "onesided2X" and self.scaling is None:
            raise ValueError(f"For scaling is None, fft_mode='{t}' is "
                             "invalid! Do scale_to('psd') or "
                             "scale_to('magnitude')!")
        self._fft_mode = t

    @property
    def mfft(self):
        """The FFT's length (at least m_num; the slices are padded)."""
        return self._mfft

    @mfft.setter
    def mfft(self, n_):
        if not n_ >= self.m_num:
            raise ValueError(f"Attribute mfft={n_} needs to be at least the "
                             f"window length m_num={self.m_num}!")
        self._mfft = int(n_)

    @property
    def scaling(self):
        """'magnitude', 'psd', 'unitary' or None."""
        return self._scaling

    def scale_to(self, scaling):
        """Scale the window (and divide the dual) for 'magnitude' or
        'psd' spectra."""
        if scaling not in ("magnitude", "psd"):
            raise ValueError(f"scaling={scaling!r} not in "
                             "{'magnitude', 'psd'}!")
        if self._scaling == scaling:
            return
        s_fac = self.fac_psd if scaling == "psd" else self.fac_magnitude
        self._win = self._win * s_fac
        if self._dual_win is not None:
            self._dual_win = self._dual_win / s_fac
        self._fac_mag = self._fac_psd = None
        self._scaling = scaling

    @property
    def phase_shift(self):
        """Samples (|v| < mfft) each slice is rolled by before its FFT,
        relative to its centre; None: not rolled."""
        return self._phase_shift

    @phase_shift.setter
    def phase_shift(self, v):
        if v is None:
            self._phase_shift = None
            return
        if not isinstance(v, numbers.Integral):
            raise ValueError(f"phase_shift={v} has the unit samples. Hence "
                             "it needs to be an int or it may be None!")
        if not -self.mfft < v < self.mfft:
            raise ValueError("-mfft < phase_shift < mfft does not hold for "
                             f"mfft={self.mfft}, phase_shift={v}!")
        self._phase_shift = int(v)

    @property
    def dual_win(self):
        """The dual window (the canonical one unless given)."""
        if self._dual_win is None:
            self._dual_win = _canonical_dual(self._win, self._hop)
        return self._dual_win

    @property
    def invertible(self):
        """Whether the canonical dual window exists."""
        try:
            return self.dual_win.shape[0] > 0
        except ValueError:
            return False

    @property
    def fac_magnitude(self):
        """Factor to scale the STFT to a magnitude spectrum."""
        if self.scaling == "magnitude":
            return 1
        if self._fac_mag is None:
            self._fac_mag = 1 / abs(complex(_e.sum(self._win)))
        return self._fac_mag

    @property
    def fac_psd(self):
        """Factor to scale the STFT to a power spectral density."""
        if self.scaling == "psd":
            return 1
        if self._fac_psd is None:
            self._fac_psd = 1 / math.sqrt(
                float(_e.sum(_abs2(self._win))) / self.T)
        return self._fac_psd

    @property
    def m_num(self):
        """The window's length."""
        return self._win.shape[0]

    @property
    def m_num_mid(self):
        """The window's centre index, m_num // 2."""
        return self.m_num // 2

    # --- the slice range ------------------------------------------------

    def _zero_runs(self):
        """(leading, trailing) counts of the window's zero samples."""
        if self._zeros is None:
            nz = (_abs2(self._win) != 0).astype(_e.int8)
            m = self.m_num
            if not bool(_e.any(nz)):
                self._zeros = (m, m)
            else:
                self._zeros = (int(_e.argmax(nz)),
                               int(_e.argmax(_e.flip(nz))))
        return self._zeros

    def _pre_padding(self):
        # step the slices left from p = 0 until the next one would hold no
        # (non-zero) window sample at or after sample 0
        m, h = self.m_num, self._hop
        trail = self._zero_runs()[1]
        k, p = -self.m_num_mid, 0
        while True:
            nxt = k - h
            if nxt + m <= 0 or -nxt <= trail:
                return k, -p
            k, p = nxt, p + 1

    def _post_padding(self, n):
        m, h = self.m_num, self._hop
        m2p = m - self.m_num_mid
        if not n >= m2p:
            raise ValueError(f"Parameter n must be >= ceil(m_num/2) = {m2p}!")
        lead = self._zero_runs()[0]
        q = n // h
        k = q * h - self.m_num_mid
        while True:
            nxt = k + h
            if nxt >= n or n - nxt <= lead:
                return k + m, q + 1
            k, q = nxt, q + 1

    @property
    def k_min(self):
        """The first sample index the slices reach (<= 0)."""
        return self._pre_padding()[0]

    @property
    def p_min(self):
        """The first slice index (<= 0): the lowest slice still holding a
        non-zero window sample at or after sample 0."""
        return self._pre_padding()[1]

    def k_max(self, n):
        """The sample index after the last one the slices of an n-sample
        signal reach."""
        return self._post_padding(n)[0]

    def p_max(self, n):
        """The slice index after the last slice of an n-sample signal."""
        return self._post_padding(n)[1]

    def p_num(self, n):
        """Number of slices of an n-sample signal."""
        return self.p_max(n) - self.p_min

    @property
    def lower_border_end(self):
        """(sample, slice) from which the slices no longer stick out of
        the signal's start."""
        m, h = self.m_num, self._hop
        k0 = -self.m_num_mid + self._zero_runs()[0]
        for q, k in enumerate(range(k0, h + 1, h)):
            if k + h >= 0:
                return k + m, q + 1
        return 0, max(self.p_min, 0)

    def upper_border_begin(self, n):
        """(sample, slice) from which the slices stick out of the end of
        an n-sample signal."""
        m, h = self.m_num, self._hop
        m2p = m - self.m_num_mid
        if not n >= m2p:
            raise ValueError(f"Parameter n must be >= ceil(m_num/2) = {m2p}!")
        trail = self._zero_runs()[1]
        for q in range(n // h + 1, max((n - m) // h - 1, -1), -1):
            k = q * h + m2p
            if k <= n or k - n <= trail:
                return (q + 1) * h - self.m_num_mid, q + 1
        raise RuntimeError("ShortTimeFFT.upper_border_begin: no slice found")

    @property
    def delta_t(self):
        """Time between slices, hop * T."""
        return self.T * self._hop

    def p_range(self, n, p0=None, p1=None):
        """(p0, p1) with the defaults p_min and p_max(n), checked."""
        p_max = self.p_max(n)
        p0_ = self.p_min if p0 is None else p0
        p1_ = p_max if p1 is None else p1
        if not self.p_min <= p0_ < p1_ <= p_max:
            raise ValueError(f"Invalid Parameter p0={p0}, p1={p1}, i.e., "
                             f"self.p_min={self.p_min} <= p0 < p1 <= "
                             f"p_max={p_max} does not hold for signal length "
                             f"n={n}!")
        return p0_, p1_

    def t(self, n, p0=None, p1=None, k_offset=0):
        """The slices' times (float64, on the window's device)."""
        if not (_is_int(n) and n > 0):
            raise ValueError(f"Parameter n={n!r} is not a positive integer!")
        p0, p1 = self.p_range(n, p0, p1)
        return _e.arange(p0, p1, dtype=_e.float64,
                         device=self._win.device) * self.delta_t + \
            k_offset * self.T

    def nearest_k_p(self, k, left=True):
        """The sample index nearest k (below if left, else above) at
        which a slice starts a hop."""
        q, r = divmod(k, self._hop)
        if r == 0:
            return k
        return q * self._hop if left else (q + 1) * self._hop

    @property
    def delta_f(self):
        """Frequency bin width, 1 / (mfft * T)."""
        return 1 / (self.mfft * self.T)

    @property
    def f_pts(self):
        """Number of frequency bins."""
        return self.mfft // 2 + 1 if self.onesided_fft else self.mfft

    @property
    def onesided_fft(self):
        """Whether fft_mode is one-sided."""
        return self.fft_mode in ("onesided", "onesided2X")

    @property
    def f(self):
        """The bins' frequencies (float64, on the window's device)."""
        import ember.fft as fft
        dev = self._win.device
        if self.onesided_fft:
            return fft.rfftfreq(self.mfft, self.T, device=dev)
        f = fft.fftfreq(self.mfft, self.T, device=dev)
        return fft.fftshift(f) if self.fft_mode == "centered" else f

    def extent(self, n, axes_seq="tf", center_bins=False):
        """(t0, t1, f0, f1) (or 'ft' order) for plotting the STFT of an
        n-sample signal."""
        if axes_seq not in ("tf", "ft"):
            raise ValueError(f"Parameter axes_seq={axes_seq!r} not in "
                             "['tf', 'ft']!")
        if self.onesided_fft:
            q0, q1 = 0, self.f_pts
        elif self.fft_mode == "centered":
            q0 = -(self.mfft // 2)
            q1 = self.mfft // 2 + self.mfft % 2
        else:
            raise ValueError(f"Attribute fft_mode={self.fft_mode} must be "
                             "in ['centered', 'onesided', 'onesided2X']")
        p0, p1 = self.p_min, self.p_max(n)
        c = 0.5 if center_bins else 0.0
        t0, t1 = self.delta_t * (p0 - c), self.delta_t * (p1 - c)
        f0, f1 = self.delta_f * (q0 - c), self.delta_f * (q1 - c)
        return (t0, t1, f0, f1) if axes_seq == "tf" else (f0, f1, t0, t1)

    # --- transforms -----------------------------------------------------

    def _shift(self):
        """The roll of a slice before its FFT (SciPy's, modulo m_num)."""
        if self.phase_shift is None:
            return 0
        return (self.phase_shift + self.m_num_mid) % self.m_num

    def _twox(self):
        """The onesided2X factor per bin (None for the other modes)."""
        if self.fft_mode != "onesided2X":
            return None
        fac = math.sqrt(2) if self.scaling == "psd" else 2.0
        g = _e.full(self.f_pts, fac, dtype=_e.float64,
                    device=self._win.device)
        g[0] = 1.0
        if self.mfft % 2 == 0:
            g[-1] = 1.0
        return g

    def stft(self, x, p0=None, p1=None, *, k_offset=0, padding="zeros",
             axis=-1):
        """The STFT of x along `axis`: complex128 with f_pts bins where
        axis was and the p1 - p0 slices as a new last axis."""
        return self.stft_detrend(x, None, p0, p1, k_offset=k_offset,
                                 padding=padding, axis=axis)

    def stft_detrend(self, x, detr, p0=None, p1=None, *, k_offset=0,
                     padding="zeros", axis=-1):
        """stft with a trend removed from each slice before windowing:
        'constant', 'linear' (ember's detrend) or a function, called once
        with all the slices stacked, (..., slices, m_num), the slices
        along the last axis (SciPy calls it once a slice)."""
        import ember.fft as fft
        dev = self._win.device
        x = _arr(x, dev)
        if self.onesided_fft and x.dtype.kind == "c":
            raise ValueError("Complex-valued `x` not allowed for "
                             f"self.fft_mode={self.fft_mode!r}! Set property "
                             "`fft_mode` to 'twosided' or 'centered'.")
        if isinstance(detr, str):
            kind = detr

            def detr(s):
                return _detrend(s, axis=-1, type=kind)
        elif not (detr is None or callable(detr)):
            raise ValueError(f"Parameter detr={detr!r} is not a str, "
                             "function or None!")
        if padding not in _PADDINGS:
            raise ValueError(f"Parameter padding={padding!r} not in "
                             f"{tuple(_PADDINGS)}!")
        if x.ndim == 0:
            raise ValueError("x must have at least one dimension")
        ax = axis + x.ndim if axis < 0 else axis
        if not 0 <= ax < x.ndim:
            raise ValueError(f"axis {axis} is out of bounds for a "
                             f"{x.ndim}-d x")
        n = x.shape[ax]
        m, h, mid, L = self.m_num, self._hop, self.m_num_mid, self.mfft
        if not n >= m - mid:
            where = f"len(x)={n}" if x.ndim == 1 else \
                f"of axis={axis} of {x.shape}"
            raise ValueError(f"{where} must be >= ceil(m_num/2) = {m - mid}!")
        x = _e.moveaxis(x, ax, -1)
        x = x.astype(_e.complex128 if x.dtype.kind == "c" else _e.float64)
        p0, p1 = self.p_range(n, p0, p1)
        nseg = p1 - p0
        k0 = p0 * h - mid + k_offset
        k1 = k0 + nseg * h + m
        mode, kw = _PADDINGS[padding]
        x1 = x[..., max(k0, 0):min(k1, n)]
        widths = [(0, 0)] * (x.ndim - 1) + [(-min(k0, 0), max(k1 - n, 0))]
        if widths[-1] != (0, 0):
            x1 = _e.pad(x1, widths, mode=mode, **kw)
        # sample j of a slice's FFT input is the slice's sample
        # (j + shift) mod mfft, zero where that is past the window
        j = (_e.arange(L, device=dev) + self._shift()) % L
        inside = j < m
        src = _e.where(inside, j, 0)
        wr = _e.where(inside, _e.conj(self._win)[src], 0)
        starts = (_e.arange(nseg, device=dev) * h)[:, None]
        if detr is None:
            frames = x1[..., starts + src] * wr
        else:
            frames = detr(x1[..., starts + _e.arange(m, device=dev)])
            frames = _arr(frames, dev)[..., src] * wr
        if self.onesided_fft:
            S = fft.rfft(frames, axis=-1)
            g = self._twox()
            if g is not None:
                S = S * g
        else:
            S = fft.fft(frames, axis=-1)
            if self.fft_mode == "centered":
                S = fft.fftshift(S, axes=-1)
        S = _e.moveaxis(S.astype(_e.complex128), -1, -2)
        return _e.moveaxis(S, -2, ax) if S.ndim > 2 else S

    def spectrogram(self, x, y=None, detr=None, *, p0=None, p1=None,
                    k_offset=0, padding="zeros", axis=-1):
        """|STFT(x)|^2, or the cross-spectrogram STFT(x) conj(STFT(y))."""
        kw = dict(p0=p0, p1=p1, k_offset=k_offset, padding=padding,
                  axis=axis)
        Sx = self.stft_detrend(x, detr, **kw)
        if y is None or y is x:
            return Sx.real * Sx.real + Sx.imag * Sx.imag
        Sy = self.stft_detrend(y, detr, **kw)
        return Sx * _e.conj(Sy)

    def istft(self, S, k0=0, k1=None, *, f_axis=-2, t_axis=-1):
        """The signal's samples k0 to k1 from its STFT S (whose first
        slice is p_min): each slice's inverse FFT times the dual window,
        overlap-added. float64 for one-sided modes, else complex128."""
        import ember.fft as fft
        dev = self._win.device
        S = _arr(S, dev)
        if f_axis == t_axis:
            raise ValueError(f"f_axis={f_axis} may not be equal to "
                             f"t_axis={t_axis}!")
        if S.ndim < 2:
            raise ValueError(f"S must have at least 2 dimensions, not "
                             f"{S.ndim}")
        if S.shape[f_axis] != self.f_pts:
            raise ValueError(f"S.shape[f_axis]={S.shape[f_axis]} must be "
                             f"equal to self.f_pts={self.f_pts} "
                             f"(S.shape={S.shape})!")
        m, h, mid, L = self.m_num, self._hop, self.m_num_mid, self.mfft
        n_min = m - mid
        q_num = self.p_num(n_min)
        if not S.shape[t_axis] >= q_num:
            raise ValueError(f"S.shape[t_axis]={S.shape[t_axis]} needs to "
                             f"have at least {q_num} slices "
                             f"(S.shape={S.shape})!")
        t_axis = t_axis + S.ndim if t_axis < 0 else t_axis
        f_axis = f_axis + S.ndim if f_axis < 0 else f_axis
        S = _e.moveaxis(S, (f_axis, t_axis), (-2, -1))
        p_min = self.p_min
        q_max = S.shape[-1] + p_min
        k_max = (q_max - 1) * h + m - mid
        k1 = k_max if k1 is None else k1
        if not self.k_min <= k0 < k1 <= k_max:
            raise ValueError(f"(self.k_min={self.k_min}) <= (k0={k0}) < "
                             f"(k1={k1}) <= (k_max={k_max}) is false!")
        if not k1 - k0 >= n_min:
            raise ValueError(f"(k1={k1}) - (k0={k0}) = {k1 - k0} has to be "
                             f"at least the half the window length "
                             f"{n_min}!")
        # slices before p_min are not in S (SciPy's loop reads them from
        # S's end by Python's negative indexing; they hold no signal there)
        q0 = max(k0 // h + p_min if k0 >= 0 else k0 // h, p_min)
        q1 = min(self.p_max(k1), q_max)
        n_pts = self.nearest_k_p(k1, left=False) - self.nearest_k_p(k0) + \
            m - mid
        # (..., slices, bins), each slice's spectrum a row
        X = _e.moveaxis(S[..., q0 - p_min:q1 - p_min], -1, -2)
        X = X.astype(_e.complex128)
        if self.onesided_fft:
            g = self._twox()
            xs = fft.irfft(X if g is None else X / g, n=L, axis=-1)
        else:
            if self.fft_mode == "centered":
                X = fft.ifftshift(X, axes=-1)
            xs = fft.ifft(X, n=L, axis=-1)
        # undo the roll and keep the window's m_num samples, times the dual
        back = (_e.arange(m, device=dev) - self._shift()) % L
        xs = xs[..., back] * self.dual_win
        batch = xs.shape[:-2]
        B = math.prod(batch)
        nq = q1 - q0
        pos = (_e.arange(q0, q1, device=dev)[:, None] * h - mid - k0 +
               _e.arange(m, device=dev))
        ok = (pos >= 0) & (pos < n_pts)
        idx = (_e.arange(B, device=dev)[:, None, None] * n_pts +
               _e.where(ok, pos, 0))
        out = _e.zeros(B * n_pts, dtype=xs.dtype, device=dev)
        vals = _e.where(ok, xs.reshape(B, nq, m), 0)
        _e.add.at(out, idx.reshape(-1), vals.reshape(-1))
        x = out.reshape(batch + (n_pts,))[..., :k1 - k0]
        if x.ndim > 1:
            x = _e.moveaxis(x, -1, f_axis if f_axis < x.ndim else t_axis)
        return x
