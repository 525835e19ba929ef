"""ember.scipy.signal's linear time-invariant systems (re-exported by
ember.scipy.signal): lti and dlti, their three representations
(TransferFunction, ZerosPolesGain, StateSpace, each continuous or
discrete as SciPy's), conversion between them, cont2discrete and
to_discrete.

A system is a few coefficients: they are kept on the host as NumPy
arrays (SciPy's design functions work there too; see _signal_host.py)
and handed out as ember arrays on the system's device, the device of
the ember arrays it was built from (the default device otherwise).
Responses over time and frequency (signal_ltisim.py) run on the device
of their input. The arithmetic of StateSpace (+, *, /) is not there."""
import copy

import ember as _e
from ember.scipy._signal_host import device_of, host, normalize, put

__all__ = ["lti", "dlti", "TransferFunction", "ZerosPolesGain",
           "StateSpace", "cont2discrete"]


def _held(name, doc, sets_shape=False, settable=True):
    """A coefficient property: kept on the host as NumPy, at least 1-d,
    handed out on the system's device. The one that sets_shape (num,
    zeros) gives the system its outputs and inputs from its rows."""
    attr = "_" + name

    def get(self):
        return self._put(getattr(self, attr))

    def set(self, value):
        import numpy
        a = numpy.atleast_1d(host(value))
        setattr(self, attr, a)
        if sets_shape:
            self.outputs, self.inputs = a.shape if a.ndim > 1 else (1, 1)
    return property(get, set if settable else None, doc=doc)


def _expm(a):
    """exp(a) of a small square matrix: Pade 13 with scaling and squaring
    (Higham 2005), on the host."""
    import numpy
    a = numpy.asarray(a, dtype=numpy.result_type(a, numpy.float64))
    n = a.shape[0]
    if n == 0:
        return a.copy()
    b = (64764752532480000., 32382376266240000., 7771770303897600.,
         1187353796428800., 129060195264000., 10559470521600.,
         670442572800., 33522128640., 1323241920., 40840800., 960960.,
         16380., 182., 1.)
    norm = numpy.linalg.norm(a, 1)
    s = max(0, int(numpy.ceil(numpy.log2(norm / 5.371920351148152))))\
        if norm > 0 else 0
    a = a / 2.0 ** s
    ident = numpy.eye(n, dtype=a.dtype)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 +
             b[5] * a4 + b[3] * a2 + b[1] * ident)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + \
        b[4] * a4 + b[2] * a2 + b[0] * ident
    r = numpy.linalg.solve(v - u, v + u)
    for _ in range(s):
        r = r @ r
    return r


class LinearTimeInvariant:
    """scipy.signal's base of lti and dlti."""

    def __new__(cls, *system, **kwargs):
        if cls is LinearTimeInvariant:
            raise NotImplementedError("The LinearTimeInvariant class is not "
                                      "meant to be used directly, use `lti` "
                                      "or `dlti` instead.")
        return super().__new__(cls)

    def __init__(self):
        super().__init__()
        self.inputs = None
        self.outputs = None
        self._dt = None

    @property
    def dt(self):
        """The sampling time (None for a continuous system)."""
        return self._dt

    @property
    def _dt_dict(self):
        return {} if self.dt is None else {"dt": self.dt}

    @property
    def zeros(self):
        """The system's zeros."""
        return self.to_zpk().zeros

    @property
    def poles(self):
        """The system's poles."""
        return self.to_zpk().poles

    def _as_ss(self):
        return self if isinstance(self, StateSpace) else self.to_ss()

    def _as_zpk(self):
        return self if isinstance(self, ZerosPolesGain) else self.to_zpk()

    def _as_tf(self):
        return self if isinstance(self, TransferFunction) else self.to_tf()

    def _put(self, a):
        return put(a, getattr(self, "_device", None))

    def _on(self, device):
        """This system, its coefficients handed out on device from now."""
        self._device = device
        return self

    def _clone(self):
        # copy.deepcopy would copy the device handle too; the coefficient
        # arrays are what must not be shared
        c = copy.copy(self)
        for name in ("_num", "_den", "_zeros", "_poles", "_A", "_B", "_C",
                     "_D"):
            if hasattr(c, name):
                setattr(c, name, getattr(c, name).copy())
        return c


class lti(LinearTimeInvariant):
    """scipy.signal.lti: a continuous system from 2 (num, den), 3 (zeros,
    poles, gain) or 4 (A, B, C, D) arguments."""

    def __new__(cls, *system):
        if cls is lti:
            N = len(system)
            if N == 2:
                return TransferFunctionContinuous.__new__(
                    TransferFunctionContinuous, *system)
            if N == 3:
                return ZerosPolesGainContinuous.__new__(
                    ZerosPolesGainContinuous, *system)
            if N == 4:
                return StateSpaceContinuous.__new__(StateSpaceContinuous,
                                                    *system)
            raise ValueError("`system` needs to be an instance of `lti` or "
                             "have 2, 3 or 4 arguments.")
        return super().__new__(cls)

    def __init__(self, *system):
        super().__init__(*system)

    def impulse(self, X0=None, T=None, N=None):
        """The impulse response (signal_ltisim.impulse)."""
        from ember.scipy.signal_ltisim import impulse
        return impulse(self, X0=X0, T=T, N=N)

    def step(self, X0=None, T=None, N=None):
        """The step response (signal_ltisim.step)."""
        from ember.scipy.signal_ltisim import step
        return step(self, X0=X0, T=T, N=N)

    def output(self, U, T, X0=None):
        """The response to input U at times T (signal_ltisim.lsim)."""
        from ember.scipy.signal_ltisim import lsim
        return lsim(self, U, T, X0=X0)

    def bode(self, w=None, n=100):
        """Bode magnitude and phase (signal_ltisim.bode)."""
        from ember.scipy.signal_ltisim import bode
        return bode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000):
        """The frequency response (signal_ltisim.freqresp)."""
        from ember.scipy.signal_ltisim import freqresp
        return freqresp(self, w=w, n=n)

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretised system (cont2discrete)."""
        raise NotImplementedError("to_discrete is not implemented for this "
                                  "system class.")


class dlti(LinearTimeInvariant):
    """scipy.signal.dlti: a discrete system (sampling time dt, True when
    unspecified) from 2, 3 or 4 arguments."""

    def __new__(cls, *system, **kwargs):
        if cls is dlti:
            N = len(system)
            if N == 2:
                return TransferFunctionDiscrete.__new__(
                    TransferFunctionDiscrete, *system, **kwargs)
            if N == 3:
                return ZerosPolesGainDiscrete.__new__(
                    ZerosPolesGainDiscrete, *system, **kwargs)
            if N == 4:
                return StateSpaceDiscrete.__new__(StateSpaceDiscrete,
                                                  *system, **kwargs)
            raise ValueError("`system` needs to be an instance of `dlti` or "
                             "have 2, 3 or 4 arguments.")
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        dt = kwargs.pop("dt", True)
        super().__init__(*system, **kwargs)
        self.dt = dt

    @property
    def dt(self):
        """The sampling time."""
        return self._dt

    @dt.setter
    def dt(self, dt):
        self._dt = dt

    def impulse(self, x0=None, t=None, n=None):
        """The impulse response (signal_ltisim.dimpulse)."""
        from ember.scipy.signal_ltisim import dimpulse
        return dimpulse(self, x0=x0, t=t, n=n)

    def step(self, x0=None, t=None, n=None):
        """The step response (signal_ltisim.dstep)."""
        from ember.scipy.signal_ltisim import dstep
        return dstep(self, x0=x0, t=t, n=n)

    def output(self, u, t, x0=None):
        """The response to input u (signal_ltisim.dlsim)."""
        from ember.scipy.signal_ltisim import dlsim
        return dlsim(self, u, t=t, x0=x0)

    def bode(self, w=None, n=100):
        """Bode magnitude and phase (signal_ltisim.dbode)."""
        from ember.scipy.signal_ltisim import dbode
        return dbode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000, whole=False):
        """The frequency response (signal_ltisim.dfreqresp)."""
        from ember.scipy.signal_ltisim import dfreqresp
        return dfreqresp(self, w=w, n=n, whole=whole)


def _representation(cls, base, convert, system, kwargs):
    """A new system of representation base (TransferFunction ...): another
    system converted by its method `convert`, base itself as its continuous
    or discrete subclass by dt, as SciPy's constructors."""
    if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
        return getattr(system[0], convert)()
    if cls is base:
        sub = globals()[base.__name__ + ("Continuous" if kwargs.get("dt") is None
                                         else "Discrete")]
        return sub.__new__(sub, *system, **kwargs)
    return super(base, cls).__new__(cls)


class TransferFunction(LinearTimeInvariant):
    """scipy.signal.TransferFunction: num(s)/den(s) (or in z), num a row
    an output for several outputs."""

    def __new__(cls, *system, **kwargs):
        return _representation(cls, TransferFunction, "to_tf", system, kwargs)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._device = device_of(*system)
        self._num = None
        self._den = None
        self.num, self.den = normalize(host(system[0]), host(system[1]))

    def __repr__(self):
        return (f"{self.__class__.__name__}(\n{self.num!r},\n{self.den!r},"
                f"\ndt: {self.dt!r}\n)")

    num = _held("num", "The numerator (a row an output).", sets_shape=True)
    den = _held("den", "The denominator.")

    def _copy(self, system):
        self._num, self._den = system._num, system._den

    def to_tf(self):
        """A copy."""
        return self._clone()

    def to_zpk(self):
        """The ZerosPolesGain of this system."""
        from ember.scipy.signal_design import tf2zpk
        z, p, k = tf2zpk(_e.asarray(self._num, device="cpu"),
                         _e.asarray(self._den, device="cpu"))
        return ZerosPolesGain(_e.asnumpy(z), _e.asnumpy(p), k,
                              **self._dt_dict)._on(self._device)

    def to_ss(self):
        """The StateSpace of this system (controller canonical form)."""
        from ember.scipy.signal_convert import _tf2ss
        return StateSpace(*_tf2ss(self._num, self._den),
                          **self._dt_dict)._on(self._device)

    @staticmethod
    def _z_to_zinv(num, den):
        import numpy
        diff = len(num) - len(den)
        if diff > 0:
            den = numpy.hstack((numpy.zeros(diff), den))
        elif diff < 0:
            num = numpy.hstack((numpy.zeros(-diff), num))
        return num, den

    @staticmethod
    def _zinv_to_z(num, den):
        import numpy
        diff = len(num) - len(den)
        if diff > 0:
            den = numpy.hstack((den, numpy.zeros(diff)))
        elif diff < 0:
            num = numpy.hstack((num, numpy.zeros(-diff)))
        return num, den


class TransferFunctionContinuous(TransferFunction, lti):
    """A continuous TransferFunction."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretised system (cont2discrete)."""
        num, den, _ = cont2discrete((self._num, self._den), dt,
                                    method=method, alpha=alpha)
        return TransferFunction(_e.asnumpy(num), _e.asnumpy(den),
                                dt=dt)._on(self._device)


class TransferFunctionDiscrete(TransferFunction, dlti):
    """A discrete TransferFunction."""


class ZerosPolesGain(LinearTimeInvariant):
    """scipy.signal.ZerosPolesGain: zeros, poles and gain."""

    def __new__(cls, *system, **kwargs):
        return _representation(cls, ZerosPolesGain, "to_zpk", system, kwargs)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._device = device_of(*system)
        self._zeros = None
        self._poles = None
        self._gain = None
        self.zeros, self.poles, self.gain = system

    def __repr__(self):
        return (f"{self.__class__.__name__}(\n{self.zeros!r},\n"
                f"{self.poles!r},\n{self.gain!r},\ndt: {self.dt!r}\n)")

    zeros = _held("zeros", "The zeros.", sets_shape=True)
    poles = _held("poles", "The poles.")

    @property
    def gain(self):
        """The gain."""
        return self._gain

    @gain.setter
    def gain(self, gain):
        g = host(gain)
        self._gain = g.item() if g.ndim == 0 else g

    def _copy(self, system):
        self._zeros, self._poles, self._gain = (system._zeros, system._poles,
                                                system._gain)

    def to_tf(self):
        """The TransferFunction of this system."""
        from ember.scipy.signal_design import zpk2tf
        b, a = zpk2tf(_e.asarray(self._zeros, device="cpu"),
                      _e.asarray(self._poles, device="cpu"), self._gain)
        return TransferFunction(_e.asnumpy(b), _e.asnumpy(a),
                                **self._dt_dict)._on(self._device)

    def to_zpk(self):
        """A copy."""
        return self._clone()

    def to_ss(self):
        """The StateSpace of this system."""
        return self.to_tf().to_ss()


class ZerosPolesGainContinuous(ZerosPolesGain, lti):
    """A continuous ZerosPolesGain."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretised system (cont2discrete)."""
        z, p, k, _ = cont2discrete((self._zeros, self._poles, self._gain),
                                   dt, method=method, alpha=alpha)
        return ZerosPolesGain(_e.asnumpy(z), _e.asnumpy(p), k,
                              dt=dt)._on(self._device)


class ZerosPolesGainDiscrete(ZerosPolesGain, dlti):
    """A discrete ZerosPolesGain."""


class StateSpace(LinearTimeInvariant):
    """scipy.signal.StateSpace: x' = A x + B u, y = C x + D u (or the
    difference equations)."""

    __array_priority__ = 100.0
    __array_ufunc__ = None

    def __new__(cls, *system, **kwargs):
        return _representation(cls, StateSpace, "to_ss", system, kwargs)

    def __init__(self, *system, **kwargs):
        from ember.scipy.signal_convert import _abcd
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._device = device_of(*system)
        self._A, self._B, self._C, self._D = _abcd(*system)
        self.inputs = self._B.shape[-1]
        self.outputs = self._C.shape[0]

    def __repr__(self):
        return (f"{self.__class__.__name__}(\n{self.A!r},\n{self.B!r},\n"
                f"{self.C!r},\n{self.D!r},\ndt: {self.dt!r}\n)")

    A = _held("A", "The state matrix.", settable=False)
    B = _held("B", "The input matrix.", settable=False)
    C = _held("C", "The output matrix.", settable=False)
    D = _held("D", "The feedthrough matrix.", settable=False)

    def _copy(self, system):
        self._A, self._B, self._C, self._D = (system._A, system._B,
                                              system._C, system._D)

    def to_tf(self, **kwargs):
        """The TransferFunction from one input (input=0)."""
        from ember.scipy.signal_convert import _ss2tf
        return TransferFunction(*_ss2tf(self._A, self._B, self._C, self._D,
                                        **kwargs),
                                **self._dt_dict)._on(self._device)

    def to_zpk(self, **kwargs):
        """The ZerosPolesGain from one input (input=0)."""
        return self.to_tf(**kwargs).to_zpk()

    def to_ss(self):
        """A copy."""
        return self._clone()


class StateSpaceContinuous(StateSpace, lti):
    """A continuous StateSpace."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretised system (cont2discrete)."""
        a, b, c, d, _ = cont2discrete((self._A, self._B, self._C, self._D),
                                      dt, method=method, alpha=alpha)
        return StateSpace(*(_e.asnumpy(m) for m in (a, b, c, d)),
                          dt=dt)._on(self._device)


class StateSpaceDiscrete(StateSpace, dlti):
    """A discrete StateSpace."""


def _c2d_ss(a, b, c, d, dt, method, alpha):
    import numpy
    if method in ("bilinear", "tustin"):
        method, alpha = "gbt", 0.5
    elif method in ("euler", "forward_diff"):
        method, alpha = "gbt", 0.0
    elif method == "backward_diff":
        method, alpha = "gbt", 1.0
    n = a.shape[0]
    if method == "gbt":
        if alpha is None:
            raise ValueError("Alpha parameter must be specified for the "
                             "generalized bilinear transform (gbt) method")
        if alpha < 0 or alpha > 1:
            raise ValueError("Alpha parameter must be within the interval "
                             "[0,1] for the gbt method")
        ima = numpy.eye(n) - alpha * dt * a
        ad = numpy.linalg.solve(ima, numpy.eye(n) + (1.0 - alpha) * dt * a)
        bd = numpy.linalg.solve(ima, dt * b)
        cd = numpy.linalg.solve(ima.T, c.T).T
        dd = d + alpha * (c @ bd)
    elif method == "zoh":
        m = b.shape[1]
        em = numpy.vstack((numpy.hstack((a, b)), numpy.zeros((m, n + m))))
        ms = _expm(dt * em)[:n, :]
        ad, bd, cd, dd = ms[:, :n], ms[:, n:], c, d
    elif method == "foh":
        m = b.shape[1]
        em = numpy.zeros((n + 2 * m, n + 2 * m))
        em[:n, :n + m] = numpy.hstack((a, b)) * dt
        em[n:n + m, n + m:] = numpy.eye(m)
        ms = _expm(em)
        ms11, ms12, ms13 = ms[:n, :n], ms[:n, n:n + m], ms[:n, n + m:]
        ad = ms11
        bd = ms12 - ms13 + ms11 @ ms13
        cd = c
        dd = d + c @ ms13
    elif method == "impulse":
        if not numpy.allclose(d, 0):
            raise ValueError("Impulse method is only applicable to strictly "
                             "proper systems")
        ad = _expm(a * dt)
        bd = ad @ b * dt
        cd = c
        dd = c @ b * dt
    else:
        raise ValueError(f"Unknown transformation method '{method}'")
    return ad, bd, cd, dd


def cont2discrete(system, dt, method="zoh", alpha=None):
    """scipy.signal.cont2discrete: the discrete system (a tuple with dt
    last, or a dlti for an lti) by zero- or first-order hold, impulse
    invariance or a generalized bilinear transform (gbt, bilinear/tustin,
    euler/forward_diff, backward_diff)."""
    from ember.scipy.signal_convert import (_abcd, _ss2tf, _tf2ss)
    if hasattr(system, "to_discrete") and callable(system.to_discrete):
        return system.to_discrete(dt=dt, method=method, alpha=alpha)
    dev = device_of(*system)
    if len(system) == 2:
        a, b, c, d = _tf2ss(host(system[0]), host(system[1]))
        num, den = _ss2tf(*_c2d_ss(a, b, c, d, dt, method, alpha))
        return put(num, dev), put(den, dev), dt
    if len(system) == 3:
        from ember.scipy.signal_convert import ss2zpk, zpk2ss
        a, b, c, d = (_e.asnumpy(m) for m in zpk2ss(host(system[0]),
                                                   host(system[1]),
                                                   system[2]))
        z, p, k = ss2zpk(*_c2d_ss(a, b, c, d, dt, method, alpha))
        return put(_e.asnumpy(z), dev), put(_e.asnumpy(p), dev), k, dt
    if len(system) == 4:
        a, b, c, d = _abcd(*system)
        return tuple(put(m, dev) for m in _c2d_ss(a, b, c, d, dt, method,
                                                 alpha)) + (dt,)
    raise ValueError("First argument must either be a tuple of 2 (tf), 3 "
                     "(zpk), or 4 (ss) arrays.")
