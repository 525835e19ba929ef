"""ember.scipy.signal's conversions between a system's descriptions and
the transfer-function forms of the analog transforms (re-exported by
ember.scipy.signal): tf2ss, ss2tf, zpk2ss, ss2zpk, tf2sos,
abcd_normalize, bilinear, lp2lp, lp2hp, lp2bp, lp2bs.

All of it is coefficient work on a few numbers (characteristic
polynomials of small state matrices, polynomial substitutions), done on
the host with NumPy as SciPy does it (see _signal_host.py); results are
ember arrays on the inputs' device (the default device for lists)."""
import math

import ember as _e
from ember.scipy._signal_host import device_of, host, normalize, put

__all__ = ["tf2ss", "ss2tf", "zpk2ss", "ss2zpk", "tf2sos",
           "abcd_normalize", "bilinear", "lp2lp", "lp2hp", "lp2bp", "lp2bs"]


def _abcd(A=None, B=None, C=None, D=None):
    """abcd_normalize on NumPy arrays."""
    import numpy
    if A is None and B is None and C is None:
        raise ValueError("Dimension n is undefined for parameters A = B = C "
                         "= None!")
    if B is None and D is None:
        raise ValueError("Dimension p is undefined for parameters B = D = "
                         "None!")
    if C is None and D is None:
        raise ValueError("Dimension q is undefined for parameters C = D = "
                         "None!")
    A, B, C, D = (numpy.atleast_2d(host(M)) if M is not None else
                  numpy.zeros((0, 0)) for M in (A, B, C, D))
    n = A.shape[0] or B.shape[0] or C.shape[1] or 0
    p = B.shape[1] or D.shape[1] or 0
    q = C.shape[0] or D.shape[0] or 0
    A = numpy.zeros((n, n)) if A.size == 0 else A
    B = numpy.zeros((n, p)) if B.size == 0 else B
    C = numpy.zeros((q, n)) if C.size == 0 else C
    D = numpy.zeros((q, p)) if D.size == 0 else D
    for name, M, want in (("A", A, (n, n)), ("B", B, (n, p)),
                          ("C", C, (q, n)), ("D", D, (q, p))):
        if M.shape != want:
            raise ValueError(f"Parameter {name} has shape {M.shape} but "
                             f"should be {want}!")
    return A, B, C, D


def abcd_normalize(A=None, B=None, C=None, D=None):
    """scipy.signal.abcd_normalize: the four state-space matrices as 2-D
    arrays of consistent shapes, zeros for those not given."""
    dev = device_of(A, B, C, D)
    return tuple(put(M, dev) for M in _abcd(A, B, C, D))


def _tf2ss(num, den):
    import numpy
    num, den = normalize(num, den)
    if num.ndim == 1:
        num = num[None]
    M, K = num.shape[1], den.shape[0]
    if M > K:
        raise ValueError("Improper transfer function. `num` is longer than "
                         "`den`.")
    if M == 0 or K == 0:
        e = numpy.array([], float)
        return e, e, e, e
    num = numpy.hstack((numpy.zeros((num.shape[0], K - M), num.dtype), num))
    D = numpy.atleast_2d(num[:, 0])
    if K == 1:
        D = D.reshape(num.shape)
        return (numpy.zeros((1, 1)), numpy.zeros((1, D.shape[1])),
                numpy.zeros((D.shape[0], 1)), D)
    A = numpy.r_[-numpy.array([den[1:]]), numpy.eye(K - 2, K - 1)]
    B = numpy.eye(K - 1, 1)
    C = num[:, 1:] - numpy.outer(num[:, 0], den[1:])
    return A, B, C, D.reshape((C.shape[0], B.shape[1]))


def tf2ss(num, den):
    """scipy.signal.tf2ss: (A, B, C, D) of b/a in controller canonical
    form."""
    dev = device_of(num, den)
    return tuple(put(M, dev) for M in _tf2ss(host(num), host(den)))


def _ss2tf(A, B, C, D, input=0):
    import numpy
    A, B, C, D = _abcd(A, B, C, D)
    nout, nin = D.shape
    if input >= nin:
        raise ValueError("System does not have the input specified.")
    B = B[:, input:input + 1]
    D = D[:, input:input + 1]
    try:
        den = numpy.poly(A)
    except ValueError:
        den = 1
    if B.size == 0 and C.size == 0:
        num = numpy.ravel(D)
        if D.size == 0 and A.size == 0:
            den = []
        return num, numpy.atleast_1d(numpy.asarray(den, float))
    n = A.shape[0]
    t = (A[:, 0] + B[:, 0] + C[0, :] + D + 0.0).dtype
    num = numpy.empty((nout, n + 1), t)
    for k in range(nout):
        num[k] = numpy.poly(A - B @ numpy.atleast_2d(C[k, :])) + \
            (D[k] - 1) * den
    return num, den


def ss2tf(A, B, C, D, input=0):
    """scipy.signal.ss2tf: (num, den) of the system from one input; num
    holds a row an output."""
    dev = device_of(A, B, C, D)
    num, den = _ss2tf(A, B, C, D, input)
    return put(num, dev), put(den, dev)


def zpk2ss(z, p, k):
    """scipy.signal.zpk2ss: tf2ss of zpk2tf."""
    from ember.scipy.signal_design import zpk2tf
    dev = device_of(z, p)
    b, a = zpk2tf(host(z), host(p), k)
    return tuple(put(M, dev) for M in _tf2ss(host(b), host(a)))


def ss2zpk(A, B, C, D, input=0):
    """scipy.signal.ss2zpk: tf2zpk of ss2tf."""
    from ember.scipy.signal_design import tf2zpk
    dev = device_of(A, B, C, D)
    num, den = _ss2tf(A, B, C, D, input)
    z, p, k = tf2zpk(_e.asarray(num, device="cpu"),
                     _e.asarray(den, device="cpu"))
    return put(_e.asnumpy(z), dev), put(_e.asnumpy(p), dev), k


def tf2sos(b, a, pairing=None, *, analog=False):
    """scipy.signal.tf2sos: zpk2sos of tf2zpk."""
    from ember.scipy.signal_design import tf2zpk, zpk2sos
    dev = device_of(b, a)
    z, p, k = tf2zpk(_e.asarray(host(b), device="cpu"),
                     _e.asarray(host(a), device="cpu"))
    sos = zpk2sos(z, p, k, pairing=pairing, analog=analog, device="cpu")
    return put(_e.asnumpy(sos), dev)


# ---- transforms of transfer functions ---------------------------------------

def _ba(b, a):
    import numpy
    b, a = numpy.atleast_1d(host(b)), numpy.atleast_1d(host(a))
    t = numpy.result_type(b, a, numpy.float64)
    return b.astype(t), a.astype(t)


def _wo(wo):
    try:
        return float(wo)
    except TypeError:
        return float(wo[0])


def bilinear(b, a, fs=1.0):
    """scipy.signal.bilinear: the analog b/a to the digital filter by
    s = 2 fs (z - 1) / (z + 1)."""
    import numpy
    from ember.scipy.signal_design import _validate_fs
    dev = device_of(b, a)
    b, a = numpy.atleast_1d(host(b)), numpy.atleast_1d(host(a))
    if a.ndim != 1:
        raise ValueError(f"Parameter a is not a 1d array since "
                         f"a.shape={a.shape}")
    if b.ndim != 1:
        raise ValueError(f"Parameter b is not a 1d array since "
                         f"b.shape={b.shape}")
    b, a = numpy.trim_zeros(b, "f"), numpy.trim_zeros(a, "f")
    fs = _validate_fs(fs, allow_none=False)
    fac = math.sqrt(fs * 2)
    P = numpy.polynomial.Polynomial
    zp1 = P((1, 1)) / fac
    zm1 = P((-1, 1)) * fac
    N = max(len(a), len(b)) - 1
    num = sum(c * zp1 ** (N - q) * zm1 ** q for q, c in enumerate(b[::-1]))
    den = sum(c * zp1 ** (N - q) * zm1 ** q for q, c in enumerate(a[::-1]))
    nb, na = normalize(num.coef[::-1].copy(), den.coef[::-1].copy())
    return put(nb, dev), put(na, dev)


def lp2lp(b, a, wo=1.0):
    """scipy.signal.lp2lp: a lowpass prototype b/a moved to cutoff wo
    (s -> s / wo)."""
    import numpy
    dev = device_of(b, a)
    b, a = _ba(b, a)
    wo = _wo(wo)
    d, n = a.shape[0], b.shape[0]
    pwo = wo ** numpy.arange(max(d, n) - 1, -1, -1, dtype=numpy.float64)
    s1, s2 = max(n - d, 0), max(d - n, 0)
    nb, na = normalize(b * pwo[s1] / pwo[s2:], a * pwo[s1] / pwo[s1:])
    return put(nb, dev), put(na, dev)


def lp2hp(b, a, wo=1.0):
    """scipy.signal.lp2hp: a lowpass prototype to a highpass at wo
    (s -> wo / s)."""
    import numpy
    dev = device_of(b, a)
    b, a = _ba(b, a)
    wo = _wo(wo)
    d, n = a.shape[0], b.shape[0]
    pwo = wo ** numpy.arange(max(d, n), dtype=b.dtype) if wo != 1 else \
        numpy.ones(max(d, n), b.dtype)
    if d >= n:
        outa = a[::-1] * pwo
        outb = numpy.zeros(d, b.dtype)
        outb[:n] = b[::-1] * pwo[:n]
    else:
        outb = b[::-1] * pwo
        outa = numpy.zeros(n, a.dtype)
        outa[:d] = a[::-1] * pwo[:d]
    nb, na = normalize(outb, outa)
    return put(nb, dev), put(na, dev)


def _substitute(c, top, terms):
    """The polynomial of degree top whose s^j coefficient sums the
    (j, value) pairs that terms(c) yields: c after a band transform's
    substitution, term by term as SciPy sums them."""
    import numpy
    out = numpy.zeros(top + 1, c.dtype)
    for j, val in terms(c):
        out[top - j] += val
    return out


def lp2bp(b, a, wo=1.0, bw=1.0):
    """scipy.signal.lp2bp: a lowpass prototype to a bandpass centred at
    wo, bw wide (s -> (s^2 + wo^2) / (s bw))."""
    dev = device_of(b, a)
    b, a = _ba(b, a)
    wo, bw = float(wo), float(bw)
    D, N = a.shape[0] - 1, b.shape[0] - 1
    ma = max(N, D)
    wosq = wo * wo

    def terms(c):
        deg = c.shape[0] - 1
        for i in range(deg + 1):
            for k in range(i + 1):
                yield ma - i + 2 * k, (math.comb(i, k) * c[deg - i] *
                                       wosq ** (i - k) / bw ** i)
    nb, na = normalize(_substitute(b, N + ma, terms),
                       _substitute(a, D + ma, terms))
    return put(nb, dev), put(na, dev)


def lp2bs(b, a, wo=1.0, bw=1.0):
    """scipy.signal.lp2bs: a lowpass prototype to a bandstop centred at
    wo, bw wide (s -> s bw / (s^2 + wo^2))."""
    dev = device_of(b, a)
    b, a = _ba(b, a)
    wo, bw = float(wo), float(bw)
    D, N = a.shape[0] - 1, b.shape[0] - 1
    M = max(N, D)
    wosq = wo * wo

    def terms(c):
        deg = c.shape[0] - 1
        for i in range(deg + 1):
            for k in range(M - i + 1):
                yield i + 2 * k, (math.comb(M - i, k) * c[deg - i] *
                                  wosq ** (M - i - k) * bw ** i)
    nb, na = normalize(_substitute(b, 2 * M, terms),
                       _substitute(a, 2 * M, terms))
    return put(nb, dev), put(na, dev)
