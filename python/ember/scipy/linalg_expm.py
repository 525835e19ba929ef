"""scipy.linalg.expm: the matrix exponential by scaling and squaring with
Pade approximants, as Al-Mohy and Higham's algorithm 3.1 ("A new scaling
and squaring algorithm for the matrix exponential", SIAM J. Matrix Anal.
Appl. 31, 2009), which SciPy's expm follows: the degree m in 3, 5, 7, 9,
13 and the scaling 2^-s chosen from exact 1-norms of powers of A and the
backward-error bound ell. Every product, solve and squaring is an ember
operation on A's device; the host reads the few norms that pick m and s.
A batch takes the largest m and s any of its matrices needs."""
import math

import ember as _e
import ember.linalg as _la
from ember.scipy._linalg_common import arr, lapack_dtype, linalg_error

__all__ = ["expm"]

# theta_m: the largest 1-norm for which degree m meets double precision
# (the paper's table 3.1)
_THETA = {3: 1.495585217958292e-002, 5: 2.539398330063230e-001,
          7: 9.504178996162932e-001, 9: 2.097847961257068e+000,
          13: 5.371920351148152e+000}

# Pade coefficients b_0..b_m of [m/m] for exp
_PADE = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240.,
        2162160., 110880., 3960., 90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600.,
         1187353796428800., 129060195264000., 10559470521600.,
         670442572800., 33522128640., 1323241920., 40840800., 960960.,
         16380., 182., 1.),
}

_UNIT_ROUNDOFF = 2.0 ** -53


def _norm1(x):
    """The largest 1-norm (max column sum) over the batch, on the host."""
    return float(_e.max(_e.sum(_e.abs(x), axis=-2)))


def _ell(a, m, anorm):
    """Al-Mohy and Higham's ell(A, m): the extra squarings that keep the
    backward error of the degree-m approximant at the unit roundoff. The
    1-norm of |A|^(2m+1) is exact from 2m+1 row-vector products, as |A|
    is nonnegative (max column sum = max of ones^T |A|^p)."""
    if anorm == 0:
        return 0
    c = (math.factorial(m) ** 2 /
         (math.factorial(2 * m) * math.factorial(2 * m + 1)))
    absa = _e.abs(a)
    v = _e.ones(a.shape[:-2] + (1, a.shape[-1]), dtype=absa.dtype,
                device=a.device)
    for _ in range(2 * m + 1):
        v = _e.matmul(v, absa)
    alpha = c * float(_e.max(v)) / anorm
    if alpha == 0:
        return 0
    return max(math.ceil(math.log2(alpha / _UNIT_ROUNDOFF) / (2 * m)), 0)


def _pade(a, powers, m, eye):
    """(U, V): the odd and even parts of the degree-m numerator, from
    A's even powers A^2, A^4, ... (powers[k] = A^(2k))."""
    b = _PADE[m]
    if m == 13:
        a2, a4, a6 = powers[1], powers[2], powers[3]
        u = _e.matmul(a6, b[13] * a6 + b[11] * a4 + b[9] * a2)
        u = _e.matmul(a, u + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye)
        v = _e.matmul(a6, b[12] * a6 + b[10] * a4 + b[8] * a2)
        v = v + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
        return u, v
    u = b[1] * eye
    v = b[0] * eye
    for k in range(1, m // 2 + 1):
        u = u + b[2 * k + 1] * powers[k]
        v = v + b[2 * k] * powers[k]
    return _e.matmul(a, u), v


def square_stack(a):
    """A matrix function's operand as SciPy checks it (LinAlgError unless
    a (..., n, n) stack), cast to its LAPACK dtype; expm's and sqrtm's."""
    if a.ndim < 2:
        raise linalg_error("The input array must be at least "
                           "two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise linalg_error("Last 2 dimensions of the array must be square")
    return a.astype(lapack_dtype(a), copy=False)


def expm(A):
    """scipy.linalg.expm: exp of each (..., N, N) matrix of A, in A's
    precision (float16 as float32, integers as float64, as SciPy)."""
    a = arr(A)
    if a.size == 1 and a.ndim < 2:
        return _e.exp(a.astype(_e.complex128 if a.dtype.kind == "c"
                               else _e.float64)).reshape((1, 1))
    a = square_stack(a)
    dt = a.dtype
    n = a.shape[-1]
    if a.size == 0:
        return _e.empty(a.shape, dtype=dt, device=a.device)
    if n == 1:
        return _e.exp(a)
    eye = _e.eye(n, dtype=dt, device=a.device)
    if not bool(_e.any((a != 0) & (eye == 0))):
        # diagonal: exp of the diagonal, exactly as SciPy's shortcut
        return _e.exp(a) * eye
    a2 = _e.matmul(a, a)
    a4 = _e.matmul(a2, a2)
    a6 = _e.matmul(a2, a4)
    anorm = _norm1(a)
    d4 = _norm1(a4) ** 0.25
    d6 = _norm1(a6) ** (1 / 6)
    eta1 = max(d4, d6)
    powers = [eye, a2, a4, a6]
    m = s = None
    if eta1 <= _THETA[3] and _ell(a, 3, anorm) == 0:
        m = 3
    elif eta1 <= _THETA[5] and _ell(a, 5, anorm) == 0:
        m = 5
    else:
        a8 = _e.matmul(a4, a4)
        d8 = _norm1(a8) ** 0.125
        eta3 = max(d6, d8)
        if eta3 <= _THETA[7] and _ell(a, 7, anorm) == 0:
            m = 7
            powers.append(a8)
        elif eta3 <= _THETA[9] and _ell(a, 9, anorm) == 0:
            m = 9
            powers.append(a8)
        else:
            d10 = _norm1(_e.matmul(a4, a6)) ** 0.1
            eta5 = min(eta3, max(d8, d10))
            s = max(math.ceil(math.log2(eta5 / _THETA[13])), 0) \
                if eta5 > 0 else 0
            scaled = a * 2.0 ** -s
            s += _ell(scaled, 13, anorm * 2.0 ** -s)
    if m is None:
        m = 13
        f = 2.0 ** -s
        a = a * f
        powers = [eye, a2 * f ** 2, a4 * f ** 4, a6 * f ** 6]
    u, v = _pade(a, powers, m, eye)
    r = _la.solve(v - u, v + u)
    for _ in range(s or 0):
        r = _e.matmul(r, r)
    return r.astype(dt, copy=False)
