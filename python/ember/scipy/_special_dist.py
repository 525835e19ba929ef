"""scipy.special's inverse distribution functions (bdtri, nbdtri, pdtri,
chdtri, fdtri), CuPy's btdtr and btdtri (SciPy 1.17 no longer has them:
they were betainc and betaincinv under other names) and exprel, composed
over ember's betaincinv, betainc and gammainccinv with SciPy's casts,
dtypes and answers at the ends and outside the domains; the inverses
solve in the distribution's small tail, where SciPy's cephes does not
always."""
import ember as _e
from ember import _ember
from ember._api._util import device_of
from ember.scipy._special_beta import (_floats, _nan_where, betainc,
                                       betaincinv)

_gammainccinv = _ember._sp_gammainccinv


def _args(*args, name, ints=0):
    """The arguments as float64 ember arrays and the dtype SciPy's loops
    answer in: float32 where 'fff->f' takes them (see _floats), float64
    otherwise, and float64 too where an integer loop comes first
    ('lld->d' for nbdtri, 'ld->d' for pdtri) and the first `ints`
    arguments are all integers or bools (a Python int among arrays
    too). SciPy's float32 loops compute in double, and so do these: the
    inverses' 1 - w would cost float32 answers 100 ulps."""
    arrs, dt = _floats(*args, name=name)
    if ints:
        dev = device_of(*args)
        kinds = [(v if isinstance(v, _e.ndarray)
                  else _e.asarray(v, device=dev)).dtype.kind
                 for v in args[:ints]]
        if all(k in "biu" for k in kinds):
            dt = _e.float64
    return [a.astype(_e.float64) for a in arrs], dt


def _any_nan(*args):
    m = _e.isnan(args[0])
    for a in args[1:]:
        m = m | _e.isnan(a)
    return m


def btdtr(a, b, x):
    """CuPy's beta distribution function: betainc(a, b, x), with
    betainc's ends (SciPy dropped btdtr for betainc)."""
    return betainc(a, b, x)


def btdtri(a, b, p):
    """CuPy's inverse of btdtr: betaincinv(a, b, p) (SciPy dropped btdtri
    for betaincinv)."""
    return betaincinv(a, b, p)


def bdtri(k, n, y):
    """The p with bdtr(k, n, p) = y: k floored and n truncated as SciPy's
    loops take them; NaN for k < 0, n <= k, an infinite k or n and y
    outside [0, 1]. The closed form 1 - y^(1/n) at k = 0; elsewhere
    1 - betaincinv(n - k, k + 1, y), or betaincinv(k + 1, n - k, 1 - y)
    where y > 1/2 (1 - y is exact and the inverse is asked for a small
    tail) or p < y (1 - (1 - p) would lose more of p's digits than 1 - y
    loses of y's). cephes picks the side from n and k alone and loses
    digits in the tails: SciPy 1.17's bdtri(1, 1000, 1e-10) is 4e-6 off,
    bdtri(1, 1000, 1e-100) 0.9999... for 0.2101."""
    (k, n, y), dt = _args(k, n, y, name="bdtri")
    bad = (k < 0) | _any_nan(k, n, y)   # SciPy tests k before flooring it
    k, n = _e.floor(k), _e.trunc(n)
    bad = bad | (n <= k) | _e.isinf(k) | _e.isinf(n) | (y < 0) | (y > 1)
    dn = _e.maximum(n - k, 1)       # a safe argument where bad
    dk = _e.maximum(k + 1, 1)
    # at y near 1, y^(1/n) through log1p of the small y - 1
    p0 = _e.where(y > 0.8, -_e.expm1(_e.log1p(y - 1) / dn),
                  1 - y ** (1 / dn)).astype(y.dtype)
    p = 1 - betaincinv(dn, dk, y)
    pc = betaincinv(dk, dn, 1 - y)
    p = _e.where((y > 0.5) | (p < y), pc, p).astype(y.dtype)
    p = _e.where(k == 0, p0, p).astype(y.dtype)
    return _nan_where(bad, p).astype(dt)


def nbdtri(k, n, y):
    """The p with nbdtr(k, n, p) = y: betaincinv(n, k + 1, y), k and n
    truncated to integers as SciPy's cast does; NaN for k < 0, an
    infinite k and y outside [0, 1]; at y = 0 and 1, 0 and 1 whatever n
    (cephes' incbi answers the ends before it looks at n), else NaN for
    n <= 0 or infinite. Past y = 1/2 from 1 - betaincinv(k + 1, n, 1 - y)
    (SciPy's nbdtri(49, 1, 1 - 1e-10) is 0.99999 for 0.369). Integer k
    and n give float64 (SciPy's 'lld->d' loop comes first)."""
    (k, n, y), dt = _args(k, n, y, name="nbdtri", ints=2)
    k, n = _e.trunc(k), _e.trunc(n)
    bad = (k < 0) | _e.isinf(k) | (y < 0) | (y > 1) | _any_nan(k, n, y)
    bad = bad | (((n <= 0) | _e.isinf(n)) & (y > 0) & (y < 1))
    n1, k1 = _e.where(n > 0, n, 1).astype(n.dtype), _e.maximum(k + 1, 1)
    p = betaincinv(n1, k1, y)
    # past y = 1/2 from the small tail 1 - y (exact there), unless p is
    # so small that 1 - (1 - p) loses more
    pc = 1 - betaincinv(k1, n1, 1 - y)
    p = _e.where((y > 0.5) & (p > 1 - y), pc, p).astype(p.dtype)
    return _nan_where(bad, p).astype(dt)


def pdtri(k, y):
    """The Poisson mean m with pdtr(k, m) = y: gammainccinv(k + 1, y), k
    truncated as SciPy's cast does; NaN for k < 0, an infinite k and y
    outside [0, 1) (inf at y = 0). Integer k gives float64 (SciPy's
    'ld->d' loop comes first)."""
    (k, y), dt = _args(k, y, name="pdtri", ints=1)
    k = _e.trunc(k)
    bad = (k < 0) | _e.isinf(k) | (y < 0) | (y >= 1) | _any_nan(k, y)
    m = _gammainccinv(_e.maximum(k + 1, 1), y)
    return _nan_where(bad, m).astype(dt)


def chdtri(v, y):
    """The x with chdtrc(v, x) = y: 2 gammainccinv(v / 2, y); NaN for
    v < 0 and y outside [0, 1], inf at y = 0 and 0 at y = 1 for every
    v >= 0 (infinite v too, NaN between, as SciPy). At v = 0, a point
    mass at 0, x is 0 for every y > 0: SciPy's is 0 below y ~ 3e-5 and
    NaN above (its Newton iteration gives up)."""
    (v, y), dt = _args(v, y, name="chdtri")
    bad = (v < 0) | (y < 0) | (y > 1) | _any_nan(v, y)
    x = _gammainccinv(_e.where((v > 0) & ~_e.isinf(v), v * 0.5,
                               1).astype(v.dtype), y) * 2
    x = _e.where(v == 0, 0.0, x).astype(x.dtype)
    x = _e.where(_e.isinf(v), _e.nan, x).astype(x.dtype)
    x = _e.where(y == 1, 0.0, x).astype(x.dtype)
    x = _e.where(y == 0, _e.inf, x).astype(x.dtype)
    return _nan_where(bad, x).astype(dt)


def fdtri(dfn, dfd, p):
    """The x with fdtr(dfn, dfd, x) = p: from w = betaincinv(dfn/2,
    dfd/2, p), x = dfd w / (dfn (1 - w)), or from the complement's root
    1 - w = betaincinv(dfd/2, dfn/2, 1 - p): the complement for p > 1/2
    (1 - p is exact, the small tail's inverse keeps its digits) unless w
    is below 1 - p, and for p <= 1/2 where 1 - w is below p; NaN for dfn
    or dfd <= 0 or infinite and p outside [0, 1] (0 at p = 0, inf at
    1)."""
    (a, b, y), dt = _args(dfn, dfd, p, name="fdtri")
    bad = (a <= 0) | (b <= 0) | _e.isinf(a) | _e.isinf(b) | (y < 0) \
        | (y > 1) | _any_nan(a, b, y)
    a = _e.where(bad, 1, a).astype(a.dtype)
    b = _e.where(bad, 1, b).astype(b.dtype)
    ha, hb = a * 0.5, b * 0.5
    w = betaincinv(ha, hb, y)
    wc = betaincinv(hb, ha, 1 - y)
    # the side whose probability is the small tail, unless the other
    # side's cancellation (1 - w, or 1 - wc = w) costs less
    comp = _e.where(y <= 0.5, (1 - w) < y, w >= 1 - y)
    x = _e.where(comp, (b - b * wc) / (a * wc),
                 b * w / (a * (1 - w))).astype(y.dtype)
    return _nan_where(bad, x).astype(dt)


def exprel(x):
    """(e^x - 1) / x, from expm1 so it keeps its digits near 0: 1 for
    |x| < 1e-16 (0 included), inf past x = 717 (inf included), 0 at -inf.
    SciPy's loops are 'd->d' then 'f->f': float32 stays float32
    (computed in float64, so exprel(89) does not overflow on the way),
    everything else is float64."""
    dev = device_of(x)
    x = x if isinstance(x, _e.ndarray) else _e.asarray(x, device=dev)
    if x.dtype.kind == "c":
        raise TypeError("ufunc 'exprel' not supported for the input types")
    out = _e.float32 if x.dtype == _e.float32 else _e.float64
    d = x.astype(_e.float64)
    r = _e.where(_e.abs(d) < 1e-16, 1.0,
                 _e.where(d > 717, _e.inf, _e.expm1(d) / d))
    return r.astype(out)
