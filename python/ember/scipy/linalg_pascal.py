"""scipy.linalg.pascal and invpascal. The symmetric Pascal matrix has
P[i, j] = C(i + j, i), and each of its rows is the running sum of the
row above, so n - 1 cumulative sums build it exactly in integers (no
factorial overflows, no float rounding); the lower factor is
L[i, j] = C(i, j) = P[i - j, j], gathered from it. The inverses follow
from P = L L^T and L^-1 = L * (-1)^(i - j). exact=True is SciPy's
integer result (uint64 for pascal, int64 for invpascal); SciPy switches
to Python-object arrays from n = 35, which ember has no dtype for, so
exact=True with n >= 35 is a NotImplementedError."""
import ember as _e

__all__ = ["pascal", "invpascal"]


def _symmetric(n, dtype, device):
    row = _e.ones((n,), dtype=dtype, device=device)
    rows = [row]
    for _ in range(n - 1):
        row = _e.cumsum(row).astype(dtype)
        rows.append(row)
    return _e.stack(rows) if n else _e.empty((0, 0), dtype=dtype,
                                              device=device)


def _lower(sym):
    n = sym.shape[0]
    i = _e.arange(n, dtype=_e.int64, device=sym.device)[:, None]
    j = _e.arange(n, dtype=_e.int64, device=sym.device)[None, :]
    below = i >= j
    picked = sym[_e.where(below, i - j, 0), _e.broadcast_to(j, (n, n))]
    return _e.where(below, picked, _e.zeros((), dtype=sym.dtype,
                                            device=sym.device))


def _check_exact(n, exact):
    if exact and n >= 35:
        raise NotImplementedError(
            "ember.scipy.linalg: exact=True for n >= 35 is SciPy's "
            "Python-object array, which ember has no dtype for; pass "
            "exact=False for float64")


def pascal(n, kind="symmetric", exact=True, *, device=None):
    """scipy.linalg.pascal: the n x n Pascal matrix, 'symmetric', 'lower'
    or 'upper'; uint64 when exact, else float64. device: where it is
    made (ember's addition)."""
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError("kind must be 'symmetric', 'lower', or 'upper'")
    _check_exact(n, exact)
    dt = _e.uint64 if exact else _e.float64
    sym = _symmetric(n, dt, device)
    if kind == "symmetric":
        return sym
    low = _lower(sym)
    return low if kind == "lower" else _e.matrix_transpose(low).copy()


def invpascal(n, kind="symmetric", exact=True, *, device=None):
    """scipy.linalg.invpascal: the inverse of pascal(n, kind), int64 when
    exact, else float64. The symmetric inverse is L^-T L^-1, whose terms
    share one sign, so int64 products cannot overflow where the result
    fits."""
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError("'kind' must be 'symmetric', 'lower' or 'upper'.")
    _check_exact(n, exact)
    dt = _e.int64 if exact else _e.float64
    low = _lower(_symmetric(n, dt, device))
    i = _e.arange(n, dtype=_e.int64, device=low.device)
    odd = ((i[:, None] - i[None, :]) % 2) == 1
    linv = _e.where(odd, -low, low)
    if kind == "lower":
        return linv
    if kind == "upper":
        return _e.matrix_transpose(linv).copy()
    return _e.matmul(_e.matrix_transpose(linv), linv)
