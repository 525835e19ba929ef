"""ember.scipy.special: scipy.special's functions on ember arrays, on every
device.

The elementwise ones are ember ufuncs (C kernels generated like NumPy's,
so they broadcast, take out=, where= and dtype= and fuse with the rest),
with SciPy's names, loops and answers at poles and ends: erf, erfc,
gamma, gammaln, expit, logit, log_expit, ndtr, j0, j1, y0, y1, sinc,
xlogy, xlog1py, erfinv, erfcinv, digamma (psi), i1, zeta (Riemann's,
or Hurwitz's with q), the Bessel functions of real order jv (jn), yv,
yn, iv, kv (real and complex arguments), hankel1 and hankel2 (complex
arguments, as SciPy's) and the real loggamma; exp10, cosm1, round,
sindg, cosdg, tandg, cotdg, entr, rel_entr, kl_div, huber, pseudo_huber,
boxcox, boxcox1p, inv_boxcox, inv_boxcox1p, erfcx, erfi, log_ndtr,
ndtri_exp, binom, poch, expn, exp1, expi, i0e, i1e, k0, k0e, k1, k1e,
gammainc, gammaincc, gammaincinv, gammainccinv, gammasgn, rgamma,
zetac, pdtr, pdtrc, chdtr, chdtrc, ellipk, ellipkm1, ellipe and stdtr
(kernels/ewise_ops.h, ember's own numerics in double); i0 is
NumPy's, and cbrt, exp2, expm1 and log1p are NumPy's kernels on SciPy's
dtypes (_special_compose.py, with SciPy's Python compositions radian,
polygamma, multigammaln, spherical_jn, spherical_yn, and gdtr and
gdtrc over gammainc); betaln, betainc and betaincinv are
ElementwiseKernels (three inputs, or a large argument's Stirling series:
_special_beta.py), with bdtr, bdtrc, nbdtr,
nbdtrc, fdtr and fdtrc over betainc, and so is
lambertw (complex128 out through its two float64 views, an integer
branch k and tol; _special_lambertw.py). Their
dtypes are SciPy 1.18's (and CuPy's): the float32 loop comes first, so
float16, bools and 8- and 16-bit integers compute in float32, wider
integers in float64, and a Python float beside a float32 array stays
float32. The reductions over an
axis (logsumexp, softmax, log_softmax) and beta are compositions
of those and NumPy's ufuncs; jn_zeros brackets the zeros on a grid and
polishes them with jv."""
import math as _math
import numbers as _numbers

import ember as _e
from ember import _ember
from ember._api._util import as_array as _arr

__all__ = ["erf", "erfc", "gamma", "gammaln", "expit", "logit", "log_expit",
           "ndtr", "j0", "j1", "y0", "y1", "sinc", "xlogy", "xlog1py",
           "erfinv", "erfcinv", "digamma", "psi", "i0", "i1", "zeta", "ndtri",
           "jv", "jn", "yv", "yn", "iv", "kv", "hankel1", "hankel2",
           "jn_zeros", "loggamma",
           "beta", "betaln", "logsumexp", "softmax", "log_softmax",
           "cbrt", "exp10", "exp2", "expm1", "log1p", "cosm1", "round",
           "sindg", "cosdg", "tandg", "cotdg", "radian", "entr", "rel_entr",
           "kl_div", "huber", "pseudo_huber", "boxcox", "boxcox1p",
           "inv_boxcox", "inv_boxcox1p", "erfcx", "erfi", "log_ndtr",
           "ndtri_exp", "binom", "poch", "expn", "exp1", "expi", "i0e",
           "i1e", "k0", "k0e", "k1", "k1e", "spherical_jn", "spherical_yn",
           "gammainc", "gammaincc", "gammaincinv", "gammainccinv",
           "gammasgn", "rgamma", "polygamma", "multigammaln", "zetac", "pdtr", "pdtrc", "chdtr", "chdtrc",
           "gdtr", "gdtrc", "ellipk", "ellipkm1", "ellipe", "stdtr",
           "betainc", "bdtr", "bdtrc", "nbdtr", "nbdtrc", "fdtr", "fdtrc",
           "betaincinv", "lambertw", "bdtri", "btdtr", "btdtri", "chdtri",
           "fdtri", "nbdtri", "pdtri", "exprel", "elliprf", "elliprd",
           "elliprc", "elliprj", "elliprg", "ellipkinc", "ellipeinc",
           "ellipj", "sici", "shichi", "factorial"]

erf = _ember._sp_erf
erfc = _ember._sp_erfc
gamma = _ember._sp_gamma
gammaln = _ember._sp_gammaln
expit = _ember._sp_expit
logit = _ember._sp_logit
log_expit = _ember._sp_log_expit
ndtr = _ember._sp_ndtr
j0 = _ember._sp_j0
j1 = _ember._sp_j1
y0 = _ember._sp_y0
y1 = _ember._sp_y1
sinc = _ember._sp_sinc
xlogy = _ember._sp_xlogy
xlog1py = _ember._sp_xlog1py
erfinv = _ember._sp_erfinv
erfcinv = _ember._sp_erfcinv
digamma = _ember._sp_digamma
psi = digamma
i1 = _ember._sp_i1
jv = _ember._sp_jv
jn = jv  # SciPy's jn is jv itself
yv = _ember._sp_yv
yn = _ember._sp_yn
iv = _ember._sp_iv
kv = _ember._sp_kv
hankel1 = _ember._sp_hankel1
hankel2 = _ember._sp_hankel2
loggamma = _ember._sp_loggamma
# the second tranche, ufuncs as SciPy's (kernels/ewise_ops.h)
exp10 = _ember._sp_exp10
cosm1 = _ember._sp_cosm1
round = _ember._sp_round  # noqa: A001  (SciPy's name)
sindg = _ember._sp_sindg
cosdg = _ember._sp_cosdg
tandg = _ember._sp_tandg
cotdg = _ember._sp_cotdg
entr = _ember._sp_entr
rel_entr = _ember._sp_rel_entr
kl_div = _ember._sp_kl_div
huber = _ember._sp_huber
pseudo_huber = _ember._sp_pseudo_huber
boxcox = _ember._sp_boxcox
boxcox1p = _ember._sp_boxcox1p
inv_boxcox = _ember._sp_inv_boxcox
inv_boxcox1p = _ember._sp_inv_boxcox1p
erfcx = _ember._sp_erfcx
erfi = _ember._sp_erfi
log_ndtr = _ember._sp_log_ndtr
ndtri_exp = _ember._sp_ndtri_exp
binom = _ember._sp_binom
poch = _ember._sp_poch
expn = _ember._sp_expn
exp1 = _ember._sp_exp1
expi = _ember._sp_expi
i0e = _ember._sp_i0e
i1e = _ember._sp_i1e
k0 = _ember._sp_k0
k0e = _ember._sp_k0e
k1 = _ember._sp_k1
k1e = _ember._sp_k1e
gammainc = _ember._sp_gammainc
gammaincc = _ember._sp_gammaincc
gammaincinv = _ember._sp_gammaincinv
gammainccinv = _ember._sp_gammainccinv
gammasgn = _ember._sp_gammasgn
rgamma = _ember._sp_rgamma
zetac = _ember._sp_zetac
pdtr = _ember._sp_pdtr
pdtrc = _ember._sp_pdtrc
chdtr = _ember._sp_chdtr
chdtrc = _ember._sp_chdtrc
ellipk = _ember._sp_ellipk
ellipkm1 = _ember._sp_ellipkm1
ellipe = _ember._sp_ellipe
stdtr = _ember._sp_stdtr
from ember.scipy._special_compose import (  # noqa: E402
    cbrt, exp2, expm1, log1p, radian, polygamma, multigammaln,
    spherical_jn, spherical_yn, gdtr, gdtrc)
from ember.scipy._special_beta import (  # noqa: E402
    betaln, betainc, bdtr, bdtrc, nbdtr, nbdtrc, fdtr, fdtrc, betaincinv)
from ember.scipy._special_lambertw import lambertw  # noqa: E402
from ember.scipy._special_ellip import (  # noqa: E402
    elliprf, elliprd, elliprc, elliprj, elliprg, ellipkinc, ellipeinc,
    ellipj, sici, shichi)
from ember.scipy._special_dist import (  # noqa: E402
    bdtri, btdtr, btdtri, chdtri, fdtri, nbdtri, pdtri, exprel)
from ember.scipy._special_factorial import factorial  # noqa: E402


def zeta(x, q=None, out=None):
    """The Riemann zeta function of x, or with q Hurwitz's sum over k >= 0
    of (k + q)^-x, as scipy.special.zeta (both are ufuncs)."""
    if q is None:
        return _ember._sp__riemann_zeta(x, out=out)
    return _ember._sp_zeta(x, q, out=out)


def _is_scalar(a):
    return isinstance(a, _numbers.Number) or (
        hasattr(a, "ndim") and a.ndim == 0 and not isinstance(a, _e.ndarray))


def jn_zeros(n, nt):
    """The first nt positive zeros of J_n (n an integer; J_-n has J_n's),
    as scipy.special.jn_zeros, float64 on the default device: J_n sampled
    every 1.0 from n (no zero lies below it, and neighbouring zeros are
    more than 3 apart), the first nt sign changes bisected 8 times, then
    4 Newton steps with J_n' = (J_n-1 - J_n+1) / 2, all over every zero
    at once."""
    if not (_is_scalar(n) and _is_scalar(nt)):
        raise ValueError("Arguments must be scalars.")
    if _math.floor(n) != n or _math.floor(nt) != nt:
        raise ValueError("Arguments must be integers.")
    if nt <= 0:
        raise ValueError("nt > 0")
    n, nt = abs(int(n)), int(nt)
    # McMahon's leading term (k + n/2 - 1/4) pi bounds j_n,k from above
    # for n >= 1/2 and falls short by under 0.1 below it
    hi = (nt + 0.5 * n + 0.75) * _math.pi
    x = _e.arange(float(n), hi + 1.0, 1.0, dtype=_e.float64)
    pos = jv(n, x) > 0
    at = _e.nonzero(pos[:-1] != pos[1:])[0][:nt]
    if at.shape[0] < nt:
        raise RuntimeError("jn_zeros: found %d of %d zeros of J_%d"
                           % (at.shape[0], nt, n))
    a, b = x[at], x[at + 1]
    apos = pos[at]
    for _ in range(8):
        m = (a + b) * 0.5
        same = (jv(n, m) > 0) == apos
        a, b = _e.where(same, m, a), _e.where(same, b, m)
    z = (a + b) * 0.5
    for _ in range(4):
        z = z - 2 * jv(n, z) / (jv(n - 1, z) - jv(n + 1, z))
    return z


def i0(x):
    """The modified Bessel function of order 0: NumPy's i0 kernel, NaN at
    the infinities as SciPy's."""
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x)
    r = _e.i0(x)
    return _e.where(_e.isinf(x), _e.nan, r).astype(r.dtype)


def ndtri(y):
    """The standard normal quantile, -sqrt(2) erfcinv(2 y): erfcinv keeps
    the digits of the tails on both sides."""
    y = y if isinstance(y, _e.ndarray) else _e.asarray(y)
    return erfcinv(y * 2) * -1.4142135623730951


def beta(a, b):
    """B(a, b) = exp(betaln(a, b)) with the sign of the gammas' product."""
    ga, gb, gab = gamma(a), gamma(b), gamma(_e.add(a, b))
    sign = _e.sign(ga) * _e.sign(gb) * _e.sign(gab)
    return sign * _e.exp(betaln(a, b))


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """log(sum(b * exp(a))) over axis, shifted by the maximum so no exp
    overflows, as scipy.special.logsumexp."""
    a = _arr(a)
    if a.dtype.kind in "biu":
        a = a.astype(_e.float64)
    m = _e.max(a, axis=axis, keepdims=True) if a.size else \
        _e.zeros((1,) * a.ndim, dtype=a.dtype, device=a.device)
    m = _e.where(_e.isfinite(m), m, 0).astype(m.dtype)
    e = _e.exp(a - m)
    if b is not None:
        e = e * _arr(b)
    s = _e.sum(e, axis=axis, keepdims=True)
    sign = _e.sign(s)
    out = _e.log(_e.abs(s)) + m
    if not keepdims:
        out = _e.squeeze(out, axis=axis) if axis is not None else out.reshape(())
        sign = _e.squeeze(sign, axis=axis) if axis is not None else sign.reshape(())
    if return_sign:
        return out, sign
    return out


def softmax(x, axis=None):
    """exp(x) / sum(exp(x)) over axis, from the shifted exponentials."""
    x = _arr(x)
    e = _e.exp(x - _e.max(x, axis=axis, keepdims=True))
    return e / _e.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """x - logsumexp(x) over axis."""
    x = _arr(x)
    return x - logsumexp(x, axis=axis, keepdims=True)
