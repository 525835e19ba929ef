"""scipy.linalg's trigonometric and hyperbolic matrix functions, composed
over expm as SciPy defines them: cosm and sinm of real A are the real
and imaginary parts of expm(iA) (the complex exponential, in A's
precision); of complex A, (expm(iA) +- expm(-iA)) / 2; coshm and sinhm
are (expm(A) +- expm(-A)) / 2; tanm and tanhm solve cosm X = sinm and
coshm X = sinhm. Real input gives real results in its LAPACK precision
(float32 stays float32, integers become float64), complex input complex,
as SciPy's; batches (..., N, N) are computed at once. The functions that
need a Schur form (logm, sqrtm, funm, signm, fractional_matrix_power)
are not here: ember binds no Schur factorization."""
import ember as _e
from ember.scipy._linalg_common import arr, lapack_dtype
from ember.scipy.linalg_expm import expm
from ember.scipy.linalg_lu import solve

__all__ = ["cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm"]


def _square(A):
    a = arr(A)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError("expected square array_like input")
    return a.astype(lapack_dtype(a), copy=False)


def _complex_of(dt):
    return _e.complex64 if dt in (_e.float32, _e.complex64) \
        else _e.complex128


def _expi(a):
    """(expm(iA), expm(-iA) or None for real A, whose second is not
    needed)."""
    ia = a.astype(_complex_of(a.dtype)) * 1j
    if a.dtype.kind == "c":
        return expm(ia), expm(-ia)
    return expm(ia), None


def cosm(A):
    """scipy.linalg.cosm."""
    a = _square(A)
    ep, em = _expi(a)
    if em is None:
        return ep.real.astype(a.dtype)
    return 0.5 * (ep + em)


def sinm(A):
    """scipy.linalg.sinm."""
    a = _square(A)
    ep, em = _expi(a)
    if em is None:
        return ep.imag.astype(a.dtype)
    return -0.5j * (ep - em)


def tanm(A):
    """scipy.linalg.tanm: cosm(A)^-1 sinm(A)."""
    return solve(cosm(A), sinm(A))


def coshm(A):
    """scipy.linalg.coshm."""
    a = _square(A)
    return 0.5 * (expm(a) + expm(-a))


def sinhm(A):
    """scipy.linalg.sinhm."""
    a = _square(A)
    return 0.5 * (expm(a) - expm(-a))


def tanhm(A):
    """scipy.linalg.tanhm: coshm(A)^-1 sinhm(A)."""
    return solve(coshm(A), sinhm(A))
