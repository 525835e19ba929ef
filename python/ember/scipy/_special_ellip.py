"""scipy.special's elliptic and trigonometric integrals as
ElementwiseKernels (kernels/carlson.h, ellipinc.h, ellipj.h, sici.h, all in
double): Carlson's symmetric integrals elliprf, elliprd, elliprc, elliprj
and elliprg, Legendre's incomplete ellipkinc and ellipeinc over them,
Jacobi's ellipj (four outputs) and sici and shichi (two outputs).

Arguments are real: SciPy's complex loops of the Carlson integrals and of
sici and shichi are not here (a complex argument is a TypeError naming
it), and ellipkinc, ellipeinc and ellipj have no complex loop in SciPy
either. Dtypes are SciPy 1.18's, as the rest of ember.scipy.special's:
every loop list has 'f' first, so an argument that casts safely to
float32 (bool, 8- and 16-bit integers, float16, float32; a Python number
as NumPy 2 promotes it beside the arrays) computes in float32 if all do.
(SciPy 1.17 listed 'd' first for ellipkinc, ellipeinc and ellipj, so
there only float32 arrays alone stayed float32.)"""
import numbers as _numbers

import ember as _e
from ember._api._util import device_of
from ember.scipy._special_beta import _kernel

_CARLSON = ["carlson.h"]
_LEGENDRE = ["carlson.h", "ellipinc.h"]
# name: (inputs, outputs, headers, whether SciPy 1.18's float32 loop is
# first: all are, and the flag stays for a function whose is not)
_SIGS = {
    "elliprf": ("T x, T y, T z", "T r", _CARLSON, True),
    "elliprd": ("T x, T y, T z", "T r", _CARLSON, True),
    "elliprc": ("T x, T y", "T r", _CARLSON, True),
    "elliprj": ("T x, T y, T z, T p", "T r", _CARLSON, True),
    "elliprg": ("T x, T y, T z", "T r", _CARLSON, True),
    "ellipkinc": ("T phi, T m", "T r", _LEGENDRE, True),
    "ellipeinc": ("T phi, T m", "T r", _LEGENDRE, True),
    "ellipj": ("T u, T m", "T sn, T cn, T dn, T ph", ["ellipj.h"], True),
    "sici": ("T x", "T si, T ci", ["sici.h"], True),
    "shichi": ("T x", "T shi, T chi", ["sici.h"], True),
}


def _kern(name):
    """The ElementwiseKernel of kernels/<name>.c, built once."""
    params, outs, headers, _ = _SIGS[name]
    return _kernel(name, params, outs, headers)


def _as_floats(name, args, f_first):
    """args as ember arrays on their common device, all of SciPy's loop
    dtype for `name` (see the module's docstring)."""
    dev = device_of(*args)
    arrs, strong, weak = [], [], []
    for v in args:
        is_weak = isinstance(v, _numbers.Number) and not hasattr(v, "dtype")
        a = v if isinstance(v, _e.ndarray) else _e.asarray(v, device=dev)
        arrs.append(a)
        if a.dtype.kind == "c":
            raise TypeError(
                f"{name}: complex arguments are not supported (ember has "
                f"only SciPy's real loops of {name}); got {a.dtype}")
        if a.dtype.kind not in "biuf":
            raise TypeError(f"ufunc '{name}' not supported for the input "
                            f"type {a.dtype}")
        (weak if is_weak else strong).append(v if is_weak else a)
    if f_first:
        # NEP 50: a Python number takes its dtype from the arrays beside it
        eff = [a.dtype for a in strong] + [
            _e.result_type(*strong, v) for v in weak]
        f32 = all(_e.can_cast(t, _e.float32) for t in eff)
    else:
        f32 = not weak and all(a.dtype == _e.float32 for a in strong)
    dt = _e.float32 if f32 else _e.float64
    return [a.astype(dt) for a in arrs]


def _call(name, *args):
    return _kern(name)(*_as_floats(name, args, _SIGS[name][3]))


def elliprf(x, y, z):
    """Carlson's R_F(x, y, z) = 1/2 int_0^inf dt / sqrt((t+x)(t+y)(t+z))
    for x, y, z >= 0: infinite where two are 0, 0 where one is infinite,
    NaN for a negative argument (a subnormal one counts as 0, as SciPy's)."""
    return _call("elliprf", x, y, z)


def elliprd(x, y, z):
    """Carlson's R_D(x, y, z) = R_J(x, y, z, z): infinite at z = 0 or x =
    y = 0, else 0 where an argument is infinite; NaN for negatives."""
    return _call("elliprd", x, y, z)


def elliprc(x, y):
    """Carlson's R_C(x, y) = R_F(x, y, y), Cauchy's principal value for y <
    0; NaN at y = 0, for x < 0 and at (inf, y < 0)."""
    return _call("elliprc", x, y)


def elliprj(x, y, z, p):
    """Carlson's R_J(x, y, z, p) = 3/2 int_0^inf dt / ((t+p) sqrt((t+x)
    (t+y)(t+z))), Cauchy's principal value for p < 0; NaN at p = 0 (0
    there if x, y or z is infinite), infinite where two of x, y, z are 0."""
    return _call("elliprj", x, y, z, p)


def elliprg(x, y, z):
    """Carlson's completely symmetric R_G(x, y, z): 0 at the origin,
    infinite where an argument is, NaN for negatives."""
    return _call("elliprg", x, y, z)


def ellipkinc(phi, m):
    """Legendre's incomplete integral of the first kind F(phi | m) =
    int_0^phi dt / sqrt(1 - m sin^2 t) for any real phi (F(phi + n pi)
    = F(phi) + 2 n K(m)) and m <= 1; NaN for m > 1, as SciPy's."""
    return _call("ellipkinc", phi, m)


def ellipeinc(phi, m):
    """Legendre's incomplete integral of the second kind E(phi | m) =
    int_0^phi sqrt(1 - m sin^2 t) dt for any real phi and m <= 1; NaN for
    m > 1, +inf at m = -inf, as SciPy's."""
    return _call("ellipeinc", phi, m)


def ellipj(u, m):
    """Jacobi's elliptic functions (sn, cn, dn, ph) of u for 0 <= m <= 1
    (ph the amplitude, sn = sin ph, cn = cos ph); all four NaN outside
    that range and for an infinite u, as SciPy's."""
    return _call("ellipj", u, m)


def sici(x):
    """The sine and cosine integrals (Si(x), Ci(x)) of real x; Ci of a
    negative x is Ci(|x|), the real part, as SciPy's real loop gives (and
    NaN at -inf); Ci(0) = -inf."""
    return _call("sici", x)


def shichi(x):
    """The hyperbolic sine and cosine integrals (Shi(x), Chi(x)) of real
    x; Chi of a negative x is Chi(|x|), as SciPy's real loop gives;
    Chi(0) = -inf, Shi and Chi infinite at +-inf."""
    return _call("shichi", x)
