"""scipy.linalg's special matrices, each one gather or one elementwise
expression over index grids on the operands' device (the ones made from
a size alone, as hadamard or dft, on the current device, as CuPy's).
Leading axes of vector arguments are batches where SciPy 1.17 makes them
so."""
import math
import warnings

import ember as _e
from ember.scipy._linalg_common import arr, arrs

__all__ = ["block_diag", "toeplitz", "circulant", "hankel", "hadamard",
           "leslie", "companion", "helmert", "hilbert", "invhilbert", "dft",
           "fiedler", "fiedler_companion", "convolution_matrix", "kron",
           "khatri_rao"]


def _grid(m, n, device):
    i = _e.arange(m, dtype=_e.int64, device=device)[:, None]
    j = _e.arange(n, dtype=_e.int64, device=device)[None, :]
    return i, j


def _1d(x):
    return x.reshape((1,)) if x.ndim == 0 else x


def toeplitz(c, r=None):
    """scipy.linalg.toeplitz: first column c, first row r (conj(c) when
    None; r[0] ignored); batches of c and r broadcast."""
    c = _1d(arr(c))
    r = _e.conj(c) if r is None else _1d(arr(r, c))
    batch = _e.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    m, n = c.shape[-1], r.shape[-1]
    c = _e.broadcast_to(c, batch + (m,))
    r = _e.broadcast_to(r, batch + (n,))
    vals = _e.concatenate([_e.flip(c, axis=-1), r[..., 1:]], axis=-1)
    i, j = _grid(m, n, c.device)
    return _e.take(vals, m - 1 - i + j, axis=-1)


def circulant(c):
    """scipy.linalg.circulant: column j is c rolled down by j."""
    c = _1d(arr(c))
    n = c.shape[-1]
    i, j = _grid(n, n, c.device)
    return _e.take(c, (i - j) % n, axis=-1)


def hankel(c, r=None):
    """scipy.linalg.hankel: first column c, last row r (zeros when None;
    r[0] ignored). Multidimensional input is raveled with SciPy's
    FutureWarning."""
    c = arr(c)
    r = _e.zeros_like(c) if r is None else arr(r, c)
    if c.ndim > 1 or r.ndim > 1:
        warnings.warn("Beginning in SciPy 1.19, multidimensional input will "
                      "be treated as a batch, not `ravel`ed. To preserve the "
                      "existing behavior and silence this warning, `ravel` "
                      "arguments before passing them to `hankel`.",
                      FutureWarning, stacklevel=2)
    c, r = c.reshape(-1), r.reshape(-1)
    vals = _e.concatenate([c, r[1:]])
    i, j = _grid(c.shape[0], r.shape[0], c.device)
    return _e.take(vals, i + j)


def hadamard(n, dtype=int):
    """scipy.linalg.hadamard: Sylvester's n x n Hadamard matrix (n a power
    of 2), H[i, j] = (-1) ** popcount(i & j)."""
    lg2 = int(math.log(n, 2)) if n >= 1 else 0
    if 2 ** lg2 != n:
        raise ValueError("n must be an positive integer, and n must be a "
                         "power of 2")
    i, j = _grid(n, n, None)
    # bitwise_count is uint8, where 1 - 2 would wrap
    odd = (_e.bitwise_count(i & j) % 2).astype(_e.int64)
    return (1 - 2 * odd).astype(_e.dtype(dtype))


def leslie(f, s):
    """scipy.linalg.leslie: fecundities f in the first row, survival
    rates s on the subdiagonal."""
    f, s = arrs(f, s)
    f, s = _1d(f), _1d(s)
    if f.shape[-1] != s.shape[-1] + 1:
        raise ValueError("Incorrect lengths for f and s. The length of s "
                         "along the last axis must be one less than the "
                         "length of f.")
    if s.shape[-1] == 0:
        raise ValueError("The length of s must be at least 1.")
    n = f.shape[-1]
    dt = _e.result_type(f.dtype, s.dtype)
    shape = _e.broadcast_shapes(f.shape[:-1], s.shape[:-1]) + (n, n)
    i, j = _grid(n, n, f.device)
    ext = _e.concatenate([s.astype(dt), _e.zeros(s.shape[:-1] + (1,),
                                                 dtype=dt, device=f.device)],
                         axis=-1)
    sub = _e.broadcast_to(ext[..., None, :], shape)  # s[j] at (i, j)
    first = _e.broadcast_to(f.astype(dt)[..., None, :], shape)
    return _e.where(i == 0, first, _e.where(i == j + 1, sub, 0)).astype(dt)


def block_diag(*arrs_):
    """scipy.linalg.block_diag: the arguments (at least 2-D, batches
    broadcast) along the diagonal of one zero matrix."""
    if not arrs_:
        arrs_ = ([],)
    ms = arrs(*arrs_)
    ms = [m.reshape((1,) * (2 - m.ndim) + m.shape) if m.ndim < 2 else m
          for m in ms]
    batch = _e.broadcast_shapes(*[m.shape[:-2] for m in ms])
    dt = _e.result_type(*[m.dtype for m in ms])
    rows = sum(m.shape[-2] for m in ms)
    cols = sum(m.shape[-1] for m in ms)
    out = _e.zeros(batch + (rows, cols), dtype=dt, device=ms[0].device)
    r = c = 0
    for m in ms:
        rr, cc = m.shape[-2:]
        out[..., r:r + rr, c:c + cc] = m
        r += rr
        c += cc
    return out


def companion(a):
    """scipy.linalg.companion: the companion matrix of the polynomial with
    coefficients a (highest first): -a[1:] / a[0] in the first row, ones
    on the subdiagonal."""
    a = _1d(arr(a))
    n = a.shape[-1]
    if n < 2:
        raise ValueError("The length of `a` along the last axis must be at "
                         "least 2.")
    if bool(_e.any(a[..., 0] == 0)):
        raise ValueError("The first coefficient(s) of `a` (i.e. elements of "
                         "`a[..., 0]`) must not be zero.")
    first = -a[..., 1:] / (1.0 * a[..., 0:1])
    i, j = _grid(n - 1, n - 1, a.device)
    row = _e.broadcast_to(first[..., None, :], a.shape[:-1] + (n - 1, n - 1))
    return _e.where(i == 0, row, (i == j + 1).astype(first.dtype)).astype(
        first.dtype)


def helmert(n, full=False):
    """scipy.linalg.helmert: the (n - 1) x n Helmert matrix, or n x n with
    the row 1/sqrt(n) first when full."""
    i, j = _grid(n, n, None)
    h = _e.where(i == 0, 1.0, _e.where(j < i, 1.0,
                                       _e.where(j == i, -i * 1.0, 0.0)))
    d = _e.where(i == 0, n, i * (i + 1)) * 1.0
    h = h / _e.sqrt(d)
    return h if full else h[1:]


def hilbert(n):
    """scipy.linalg.hilbert: H[i, j] = 1 / (i + j + 1)."""
    i, j = _grid(n, n, None)
    return 1.0 / (1.0 + i + j)


def _comb(n, k):
    from ember.scipy import special
    return special.binom(n, k) * (k >= 0)


def invhilbert(n, exact=False):
    """scipy.linalg.invhilbert: the exact inverse of hilbert(n) by its
    closed form; float64 through binomial coefficients (SciPy's comb), or
    int64 with exact (n <= 14, Python's integers on the host; SciPy's
    object arrays for larger n are not an ember dtype)."""
    if exact:
        if n > 14:
            raise ValueError("ember.scipy.linalg.invhilbert: exact=True for "
                             "n > 14 needs Python integers (SciPy's object "
                             "dtype), which ember arrays do not hold")
        # at most 14 x 14 entries from exact integer formulas, as SciPy's
        vals = [[(-1) ** (i + j) * (i + j + 1) * math.comb(n + i, n - j - 1)
                 * math.comb(n + j, n - i - 1) * math.comb(i + j, i) ** 2
                 for j in range(n)] for i in range(n)]
        return _e.asarray(vals, dtype=_e.int64).reshape((n, n))
    i, j = _grid(n, n, None)
    s = i + j
    sign = 1.0 - 2.0 * (s % 2)
    return (sign * (s + 1) * _comb(n + i, n - j - 1) *
            _comb(n + j, n - i - 1) * _comb(s, i) ** 2)


def dft(n, scale=None):
    """scipy.linalg.dft: m[i, j] = exp(-2 pi i j k / n), scaled by
    1/sqrt(n) ('sqrtn') or 1/n ('n'). The exponent is reduced mod n in
    integers first (SciPy raises a root of unity to powers), so the
    results agree to rounding."""
    if scale not in (None, "sqrtn", "n"):
        raise ValueError("scale must be None, 'sqrtn', or 'n'; "
                         f"{scale!r} is not valid.")
    i, j = _grid(n, n, None)
    m = _e.exp((-2j * math.pi / n) * ((i * j) % n))
    if scale == "sqrtn":
        m = m / math.sqrt(n)
    elif scale == "n":
        m = m / n
    return m


def fiedler(a):
    """scipy.linalg.fiedler: F[i, j] = |a[i] - a[j]|."""
    a = _1d(arr(a))
    if a.size == 0:
        return _e.asarray([], dtype=_e.float64, device=a.device)
    if a.size == 1:
        return _e.zeros((1, 1), dtype=_e.float64, device=a.device)
    return _e.abs(a[..., :, None] - a[..., None, :])


def fiedler_companion(a):
    """scipy.linalg.fiedler_companion: Fiedler's pentadiagonal companion
    matrix of the polynomial a (highest coefficient first)."""
    a = _1d(arr(a))
    size = a.shape[-1]
    if size <= 2:
        if size == 2:
            q = a / a[..., :1]
            return -q[..., 1:][..., None]
        return _e.empty(a.shape[:-1] + (0,), dtype=a.dtype, device=a.device)
    if bool(_e.any(a[..., 0] == 0)):
        raise ValueError("Leading coefficient is zero.")
    a = a / a[..., :1]
    n = size - 1
    i, j = _grid(n, n, a.device)
    even, odd = i % 2 == 0, i % 2 == 1
    ext = _e.concatenate([a, _e.zeros(a.shape[:-1] + (2,), dtype=a.dtype,
                                      device=a.device)], axis=-1)
    ai1 = _e.take(ext, i + 1 + 0 * j, axis=-1)  # a[i + 1] at (i, j)
    ai2 = _e.take(ext, i + 2 + 0 * j, axis=-1)  # a[i + 2]
    one = _e.ones((), dtype=a.dtype, device=a.device)
    c = _e.where(odd & (i >= 3) & (j == i - 2), one, 0)
    c = _e.where(even & (i >= 2) & (j == i - 1), -ai1, c)
    c = _e.where(even & (j == i + 2), one, c)
    c = _e.where(even & (j == i + 1), -ai2, c)
    c = _e.where((i == 0) & (j == 0), -_e.take(ext, 1 + 0 * i + 0 * j,
                                               axis=-1), c)
    c = _e.where((i == 1) & (j == 0), one, c)
    return c.astype(a.dtype)


def convolution_matrix(a, n, mode="full"):
    """scipy.linalg.convolution_matrix: A with A @ v = convolve(a, v,
    mode) for v of length n; batches of a along its leading axes."""
    if n <= 0:
        raise ValueError("n must be a positive integer.")
    a = arr(a)
    if a.size == 0:
        raise ValueError("len(a) must be at least 1.")
    if mode not in ("full", "valid", "same"):
        raise ValueError("'mode' argument must be one of ('full', 'valid', "
                         "'same')")
    a = _1d(a)
    la = a.shape[-1]
    pad = _e.zeros(a.shape[:-1] + (n - 1,), dtype=a.dtype, device=a.device)
    az = _e.concatenate([a, pad], axis=-1)
    raz = _e.concatenate([_e.flip(a, axis=-1), pad], axis=-1)
    length = az.shape[-1]
    if mode == "full":
        col0, row0 = az, raz[..., length - n:]
    else:
        trim = min(n, la) - 1
        tb = trim // 2 if mode == "same" else trim
        te = trim - tb if mode == "same" else trim
        col0 = az[..., tb:length - te]
        row0 = raz[..., length - n - tb:length - tb]
    return toeplitz(col0, row0)


def kron(a, b):
    """The Kronecker product, as numpy.kron (scipy.linalg.kron, which
    SciPy 1.17 removed, was numpy.kron of 2-D arrays)."""
    a, b = arrs(a, b)
    return _e.kron(a, b)


def khatri_rao(a, b):
    """scipy.linalg.khatri_rao: the column-wise Kronecker product of
    (..., n, k) a and (..., m, k) b, (..., n * m, k)."""
    a, b = arrs(a, b)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError("The both arrays should be 2-dimensional.")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError("The number of columns for both arrays should be "
                         "equal.")
    c = a[..., :, None, :] * b[..., None, :, :]
    return c.reshape(c.shape[:-3] + (c.shape[-3] * c.shape[-2],
                                     c.shape[-1]))
