"""ember.scipy.signal's analytic-signal tools beyond hilbert (re-exported
by ember.scipy.signal): envelope (SciPy >= 1.15), hilbert2 and
vectorstrength. All of it is FFTs and elementwise work on the signal's
device (ember.fft: cuFFT on CUDA devices, pocketfft on cpu); only the
band limits and the small weight vectors are worked out on the host."""
import math

import ember as _e
from ember._api._util import as_array as _arr

__all__ = ["envelope", "hilbert2", "vectorstrength"]


def _weights(n):
    """The one-axis factors of SciPy's hilbert2: 1 at DC, 2 on the
    positive bins below (n + 1) // 2, 0 from there (Nyquist included)."""
    import numpy
    h = numpy.zeros(n)
    k = (n + 1) // 2
    h[0] = 1.0
    h[1:k] = 2.0
    return h


def hilbert2(x, N=None, axes=(-2, -1)):
    """scipy.signal.hilbert2: the 2-D analytic signal over two axes,
    as SciPy 1.17 weights the spectrum (the quadrant of positive
    frequencies doubled on each axis, the rest zero)."""
    import ember.fft as fft
    x = _arr(x)
    while x.ndim < 2:
        x = x[None]
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    a0, a1 = (a % x.ndim for a in axes)
    if a0 == a1:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[a0], x.shape[a1])
    elif isinstance(N, int):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (N, N)
    elif len(N) != 2 or any(int(v) <= 0 for v in N):
        raise ValueError("When given as a tuple, N must hold exactly "
                         "two positive integers")
    N = (int(N[0]), int(N[1]))
    Xf = fft.fftn(x, N, axes=(a0, a1))
    shp0 = [1] * x.ndim
    shp0[a0] = N[0]
    shp1 = [1] * x.ndim
    shp1[a1] = N[1]
    h = _e.asarray(_weights(N[0]).reshape(shp0), device=x.device) * \
        _e.asarray(_weights(N[1]).reshape(shp1), device=x.device)
    return fft.ifftn(Xf * h, N, axes=(a0, a1))


def envelope(z, bp_in=(1, None), *, n_out=None, squared=False,
             residual="lowpass", axis=-1):
    """scipy.signal.envelope: the magnitude (or its square) of the
    analytic signal of z's band bp_in (FFT bins), resampled to n_out
    samples, stacked with the residual (what the band left out, below
    it for 'lowpass', all of it for 'all') unless residual is None."""
    import ember.fft as fft
    from ember.scipy.signal_spectral import resample
    z = _arr(z)
    if not -z.ndim <= axis < z.ndim:
        raise ValueError(f"Invalid parameter axis={axis} for "
                         f"z.shape={tuple(z.shape)}!")
    if not z.shape[axis] > 0:
        raise ValueError(f"z.shape[axis] not > 0 for z.shape="
                         f"{tuple(z.shape)}, axis={axis}!")
    if len(bp_in) != 2 or not all(isinstance(b, int) or b is None
                                  for b in bp_in):
        raise ValueError(f"bp_in={bp_in!r} isn't a 2-tuple of type "
                         "(int | None, int | None)!")
    if not ((isinstance(n_out, int) and 0 < n_out) or n_out is None):
        raise ValueError(f"n_out={n_out!r} is not a positive integer or "
                         "None!")
    if residual not in ("lowpass", "all", None):
        raise ValueError(f"residual={residual!r} not in ['lowpass', 'all', "
                         "None]!")
    n = z.shape[axis]
    n_out = n if n_out is None else n_out
    fak = n_out / n
    b0 = bp_in[0] if bp_in[0] is not None else -(n // 2)
    b1 = bp_in[1] if bp_in[1] is not None else (n + 1) // 2
    if not (-n // 2 <= b0 < b1 <= (n + 1) // 2):
        raise ValueError("`-n//2 <= bp_in[0] < bp_in[1] <= (n+1)//2` does "
                         f"not hold for n={n} and bp_in={bp_in!r}!")
    bp = slice(b0, b1)
    z = _e.moveaxis(z, axis, -1)
    if z.dtype.kind == "c":
        Z = fft.fft(z)
    else:
        R = fft.rfft(z if z.dtype.kind == "f" else z.astype(_e.float64))
        Z = _e.concatenate((R, _e.zeros(z.shape[:-1] + (n - R.shape[-1],),
                                        dtype=R.dtype, device=z.device)),
                           axis=-1)
        if b0 > 0:
            Z[..., bp] *= 2
        elif b1 > 1:
            Z[..., 1:b1] *= 2
    inside = b0 <= 0 < b1
    if not inside:
        z_bb = fft.ifft(Z[..., bp], n=n_out) * fak
    else:
        z_bb = fft.ifft(fft.fftshift(Z, axes=-1)[..., b0 + n // 2:
                                                 b1 + n // 2],
                        n=n_out) * fak
    z_env = _e.abs(z_bb) if not squared else \
        _e.real(z_bb) ** 2 + _e.imag(z_bb) ** 2
    z_env = _e.moveaxis(z_env, -1, axis)
    if residual is None:
        return z_env
    if not inside:
        Z[..., bp] = 0
    else:
        Z[..., :b1] = 0
        Z[..., b0:] = 0
    if residual == "lowpass":
        if b1 > 0:
            Z[..., b1:(n + 1) // 2] = 0
        else:
            Z[..., b0:] = 0
            Z[..., 0:(n + 1) // 2] = 0
    if z.dtype.kind == "c":
        z_res = resample(Z, n_out, axis=-1, domain="freq")
    else:
        if n_out != n and min(n, n_out) % 2 == 0:
            m = min(n, n_out)
            Z[..., m // 2] *= 2 if n_out < n else 0.5
        z_res = fak * fft.irfft(Z, n=n_out)
    return _e.stack((z_env, _e.moveaxis(z_res, -1, axis)), axis=0)


def vectorstrength(events, period):
    """scipy.signal.vectorstrength: (strength, phase) of the events'
    phases at each period, the mean of exp(2 pi i t / period) over the
    events: one outer product on the events' device."""
    ev = _arr(events)
    per = period if isinstance(period, _e.ndarray) else _e.asarray(
        period, device=ev.device)
    if per.dtype.kind in "biu":
        per = per.astype(_e.float64)
    if ev.ndim > 1:
        raise ValueError("events cannot have dimensions more than 1")
    if per.ndim > 1:
        raise ValueError("period cannot have dimensions more than 1")
    scalar = per.ndim == 0
    ev = ev.reshape(1, -1)
    per = per.reshape(1, -1)
    if bool(_e.any(per <= 0)):
        raise ValueError("periods must be positive")
    ev = ev.astype(per.dtype)
    vectors = _e.exp(2j * ((math.pi / per.T) @ ev))
    mean = _e.mean(vectors, axis=1)
    strength, phase = _e.abs(mean), _e.angle(mean)
    if scalar:
        return strength[0], phase[0]
    return strength, phase
