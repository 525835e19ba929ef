"""ember.scipy.signal's responses of linear time-invariant systems
(re-exported by ember.scipy.signal): lsim, impulse, step, freqresp and
bode for continuous systems; dlsim, dimpulse, dstep, dfreqresp and dbode
for discrete ones.

The state recursion x[i] = A x[i-1] + g[i] over an input's samples runs
on the input's device as ember's IIR filter, not a loop over samples:
(I - A z^-1)^-1 = adj(I - A z^-1) / det(I - A z^-1), so each state
column of g goes through the all-pole filter 1/det (lfilter, one line a
state; det's coefficients are A's characteristic polynomial), and the
adjugate's matrix taps M_k (Faddeev-LeVerrier: M_0 = I, M_k = A M_(k-1)
+ a_k I) combine the filtered columns in one matrix product of shifted
copies. Outputs are one more product, y = x C^T + u D^T. The matrices
(exp(A dt) of the zero- and first-order holds, the characteristic
polynomial) are coefficient work on the host. The recursion is the same
linear map as SciPy's loop, summed in another order: it agrees to
rounding for the well-conditioned systems of everyday use, and loses
digits where the characteristic polynomial is ill-conditioned (many
clustered poles); lfilter's limit bounds a system to 63 states, and
complex systems are not there (lfilter's)."""
import math

import ember as _e
from ember.scipy._signal_host import device_of, host, put
from ember.scipy.signal_lti import (_expm, dlti, lti, StateSpace,
                                    TransferFunction, ZerosPolesGain)

__all__ = ["lsim", "impulse", "step", "freqresp", "bode", "dlsim",
           "dimpulse", "dstep", "dfreqresp", "dbode"]


def _recurrence(a, g):
    """x with x[i] = a x[i-1] + g[i] for every i (x[-1] = 0), g an (N, n)
    ember array; a an (n, n) NumPy matrix."""
    import numpy
    from ember.scipy.signal_iir import lfilter
    n, N = a.shape[0], g.shape[0]
    if n == 0 or N == 0:
        return g
    if n > 63:
        raise NotImplementedError(f"a system of {n} states (ember's "
                                  "lfilter takes 64 coefficients)")
    d = numpy.poly(a)
    if numpy.iscomplexobj(d) or numpy.iscomplexobj(a):
        raise NotImplementedError("complex state-space systems are not "
                                  "there yet")
    w = lfilter(numpy.ones(1), d, g.astype(_e.float64), axis=0)
    if n == 1:
        return w
    eye = numpy.eye(n)
    taps = [eye]
    for k in range(1, n):
        taps.append(a @ taps[-1] + d[k] * eye)
    wp = _e.concatenate((_e.zeros((n - 1, n), dtype=w.dtype,
                                  device=w.device), w), axis=0)
    h = _e.concatenate([wp[n - 1 - k:n - 1 - k + N] for k in range(n)],
                       axis=1)
    return h @ put(numpy.vstack([m.T for m in taps]), w.device)


def _as_array(v, dev):
    a = v if isinstance(v, _e.ndarray) else _e.asarray(v, device=dev)
    a = a.astype(_e.float64) if a.dtype.kind != "f" else a
    return a.reshape(1) if a.ndim == 0 else a


def _squeeze(a):
    return _e.squeeze(a)


# ---- continuous -------------------------------------------------------------

def _continuous_ss(system, name):
    if isinstance(system, lti):
        return system._as_ss()
    if isinstance(system, dlti):
        raise AttributeError(f"{name} can only be used with continuous-time "
                             "systems.")
    return lti(*system)._as_ss()


def lsim(system, U, T, X0=None, interp=True):
    """scipy.signal.lsim: (T, yout, xout), the continuous system's
    response to U sampled at the evenly spaced times T, the input held
    linearly between samples (interp=True) or constant."""
    import numpy
    sys = _continuous_ss(system, "lsim")
    A, B, C, D = sys._A, sys._B, sys._C, sys._D
    dev = device_of(U, T, X0, device=None) or sys._device
    T = _as_array(T, dev)
    dev = T.device
    if T.ndim != 1:
        raise ValueError("T must be a rank-1 array.")
    n, m = A.shape[0], B.shape[1]
    N = T.shape[0]
    x0 = numpy.zeros(n) if X0 is None else \
        numpy.broadcast_to(host(X0, numpy.float64), (n,)).copy()
    t0 = float(T[0])
    if t0 > 0:
        x0 = x0 @ _expm(A.T * t0)
    elif t0 < 0:
        raise ValueError("Initial time must be nonnegative")
    Ct, Dt = put(C.T, dev), put(D.T, dev)
    no_input = U is None or (isinstance(U, (int, float)) and U == 0.)
    if not no_input:
        U = _as_array(U, dev)
        no_input = not bool(_e.any(U != 0))
    if N == 1:
        xout = put(x0[None], dev)
        yout = _squeeze(xout @ Ct)
        if not no_input:
            yout = yout + _squeeze((U[:, None] if U.ndim == 1 else U) @ Dt)
        return T, yout, _squeeze(xout)
    dt = float(T[1] - T[0])
    if not bool(_e.allclose(_e.diff(T), dt)):
        raise ValueError("Time steps are not equally spaced.")
    first = put(x0[None], dev)
    if no_input:
        g = _e.concatenate((first, _e.zeros((N - 1, n), device=dev)))
        xout = _recurrence(_expm(A * dt), g)
        return T, _squeeze(xout @ Ct), _squeeze(xout)
    if U.ndim == 1:
        U = U[:, None]
    if U.shape[0] != N:
        raise ValueError("U must have the same number of rows as elements "
                         "in T.")
    if U.shape[1] != m:
        raise ValueError("System does not define that many inputs.")
    if not interp:
        M = numpy.vstack([numpy.hstack([A * dt, B * dt]),
                          numpy.zeros((m, n + m))])
        expMT = _expm(M.T)
        Ad, Bd = expMT[:n, :n], expMT[n:, :n]
        g = U[:-1] @ put(Bd, dev)
    else:
        M = numpy.vstack([numpy.hstack([A * dt, B * dt,
                                        numpy.zeros((n, m))]),
                          numpy.hstack([numpy.zeros((m, n + m)),
                                        numpy.identity(m)]),
                          numpy.zeros((m, n + 2 * m))])
        expMT = _expm(M.T)
        Ad = expMT[:n, :n]
        Bd1 = expMT[n + m:, :n]
        Bd0 = expMT[n:n + m, :n] - Bd1
        g = U[:-1] @ put(Bd0, dev) + U[1:] @ put(Bd1, dev)
    # SciPy's rows are x[i] = x[i-1] Ad + ...: the column form's matrix is
    # Ad transposed
    xout = _recurrence(Ad.T, _e.concatenate((first, g)))
    return T, _squeeze(xout @ Ct) + _squeeze(U @ Dt), _squeeze(xout)


def _default_response_times(A, n, dev):
    import numpy
    vals = numpy.linalg.eigvals(A)
    r = numpy.min(numpy.abs(numpy.real(vals)))
    if r == 0.0:
        r = 1.0
    return _e.linspace(0.0, 7.0 / r, n, device=dev)


def impulse(system, X0=None, T=None, N=None):
    """scipy.signal.impulse: (T, yout), the response to a unit impulse
    (the free response from B + X0)."""
    import numpy
    sys = _continuous_ss(system, "impulse")
    X = numpy.squeeze(sys._B) if X0 is None else \
        numpy.squeeze(sys._B + host(X0))
    dev = device_of(X0, T) or sys._device
    N = 100 if N is None else N
    T = _default_response_times(sys._A, N, dev) if T is None else \
        _as_array(T, dev)
    _, h, _ = lsim(sys, 0., T, X, interp=False)
    return T, h


def step(system, X0=None, T=None, N=None):
    """scipy.signal.step: (T, yout), the response to a unit step."""
    sys = _continuous_ss(system, "step")
    dev = device_of(X0, T) or sys._device
    N = 100 if N is None else N
    T = _default_response_times(sys._A, N, dev) if T is None else \
        _as_array(T, dev)
    vals = lsim(sys, _e.ones(T.shape, device=T.device), T, X0=X0,
                interp=False)
    return vals[0], vals[1]


def freqresp(system, w=None, n=10000):
    """scipy.signal.freqresp: (w, H) of a continuous SISO system."""
    from ember.scipy.signal_design import freqs
    from ember.scipy.signal_freqresp import freqs_zpk
    if isinstance(system, lti):
        sys = system if isinstance(system, (TransferFunction,
                                            ZerosPolesGain)) \
            else system._as_zpk()
    elif isinstance(system, dlti):
        raise AttributeError("freqresp can only be used with continuous-time"
                             " systems.")
    else:
        sys = lti(*system)._as_zpk()
    if sys.inputs != 1 or sys.outputs != 1:
        raise ValueError("freqresp() requires a SISO (single input, single "
                         "output) system.")
    worN = w if w is not None else n
    dev = device_of(w) or sys._device
    if isinstance(sys, TransferFunction):
        return freqs(put(sys._num.ravel(), dev), put(sys._den, dev),
                     worN=worN)
    return freqs_zpk(put(sys._zeros, dev), put(sys._poles, dev), sys._gain,
                     worN=worN)


def bode(system, w=None, n=100):
    """scipy.signal.bode: (w, magnitude in dB, phase in degrees)."""
    w, y = freqresp(system, w=w, n=n)
    mag = 20.0 * _e.log10(_e.abs(y))
    phase = _e.unwrap(_e.arctan2(_e.imag(y), _e.real(y))) * 180.0 / math.pi
    return w, mag, phase


# ---- discrete ---------------------------------------------------------------

def _discrete(system, name):
    if isinstance(system, dlti):
        return system
    if isinstance(system, lti):
        raise AttributeError(f"{name} can only be used with discrete-time "
                             "dlti systems.")
    return dlti(*system[:-1], dt=system[-1])


def dlsim(system, u, t=None, x0=None):
    """scipy.signal.dlsim: (tout, yout) (and xout for a StateSpace) of a
    discrete system driven by u (its samples at t, linearly interpolated
    onto the system's steps, when t is given)."""
    import numpy
    system = _discrete(system, "dlsim")
    is_ss = isinstance(system, StateSpace)
    sys = system._as_ss()
    A, B, C, D = sys._A, sys._B, sys._C, sys._D
    dev = device_of(u, t, x0) or sys._device
    u = _as_array(u, dev)
    dev = u.device
    if u.ndim == 1:
        u = u[:, None]
    dt = sys.dt
    if t is None:
        out = u.shape[0]
        stop = (out - 1) * dt
    else:
        th = numpy.atleast_1d(host(t, numpy.float64))
        stop = float(th[-1])
        out = int(numpy.floor(stop / dt)) + 1
    tout = _e.linspace(0.0, stop, out, device=dev)
    if t is not None:
        # SciPy's order-1 spline: linear between the samples, and the
        # first segment extended before t[0] (interp alone would hold)
        td = put(th, dev)
        cols = []
        for j in range(u.shape[1]):
            c = _e.interp(tout, td, u[:, j])
            if th.size > 1 and th[0] > 0:
                slope = (u[1, j] - u[0, j]) / (th[1] - th[0])
                c = _e.where(tout < th[0], u[0, j] + (tout - th[0]) * slope,
                             c)
            cols.append(c)
        u = _e.stack(cols, axis=1)
    if u.shape[1] != B.shape[1]:
        raise ValueError(f"u has {u.shape[1]} columns, the system "
                         f"{B.shape[1]} inputs")
    n = A.shape[0]
    x = numpy.zeros(n) if x0 is None else \
        numpy.broadcast_to(host(x0, numpy.float64), (n,))
    g = _e.concatenate((put(x[None].copy(), dev),
                        u[:-1] @ put(B.T.copy(), dev)))
    xout = _recurrence(A, g)
    yout = xout @ put(C.T.copy(), dev) + u @ put(D.T.copy(), dev)
    return (tout, yout, xout) if is_ss else (tout, yout)


def _dresponse(system, x0, t, n, name, impulse):
    import numpy
    sys = _discrete(system, name)._as_ss()
    dev = device_of(x0, t) or sys._device
    n = 100 if n is None else n
    t = _e.linspace(0, n * sys.dt, n, endpoint=False, device=dev) \
        if t is None else _as_array(t, dev)
    yout = ()
    tout = None
    for i in range(sys.inputs):
        u = numpy.zeros((t.shape[0], sys.inputs))
        if impulse:
            u[0, i] = 1.0
        else:
            u[:, i] = 1.0
        one = dlsim(sys, put(u, t.device), t=t, x0=x0)
        yout += (one[1],)
        tout = one[0]
    return tout, yout


def dimpulse(system, x0=None, t=None, n=None):
    """scipy.signal.dimpulse: (tout, (yout for each input,)), the
    responses to a unit impulse at each input."""
    return _dresponse(system, x0, t, n, "dimpulse", True)


def dstep(system, x0=None, t=None, n=None):
    """scipy.signal.dstep: (tout, (yout for each input,)), the responses
    to a unit step at each input."""
    return _dresponse(system, x0, t, n, "dstep", False)


def dfreqresp(system, w=None, n=10000, whole=False):
    """scipy.signal.dfreqresp: (w, H) of a discrete SISO system."""
    from ember.scipy.signal_design import freqz
    from ember.scipy.signal_freqresp import freqz_zpk
    if not isinstance(system, dlti):
        if isinstance(system, lti):
            raise AttributeError("dfreqresp can only be used with "
                                 "discrete-time systems.")
        system = dlti(*system[:-1], dt=system[-1])
    if isinstance(system, StateSpace):
        system = system._as_tf()
    if system.inputs != 1 or system.outputs != 1:
        raise ValueError("dfreqresp requires a SISO (single input, single "
                         "output) system.")
    worN = w if w is not None else n
    dev = device_of(w) or system._device
    if isinstance(system, TransferFunction):
        num, den = TransferFunction._z_to_zinv(system._num.ravel(),
                                               system._den)
        return freqz(put(num, dev), put(den, dev), worN=worN, whole=whole)
    return freqz_zpk(put(system._zeros, dev), put(system._poles, dev),
                     system._gain, worN=worN, whole=whole)


def dbode(system, w=None, n=100):
    """scipy.signal.dbode: (w in radians per time unit, magnitude in dB,
    phase in degrees) of a discrete SISO system."""
    w, y = dfreqresp(system, w=w, n=n)
    dt = system.dt if isinstance(system, dlti) else system[-1]
    mag = 20.0 * _e.log10(_e.abs(y))
    phase = _e.rad2deg(_e.unwrap(_e.angle(y)))
    return w / dt, mag, phase
