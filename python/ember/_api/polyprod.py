"""The product of many polynomials at once, for poly and polyfromroots:
a tree of batched multiplications, each level one outer product and one
sum along its antidiagonals for every pair, so n factors cost about
log2(n) levels of array operations instead of n convolutions."""
from ember import _ember as _e


def _pair_products(a, b):
    """Rows a[i] * b[i] of (k, d) coefficient arrays, as (k, 2d - 1)."""
    k, d = a.shape
    outer = a[:, :, None] * b[:, None, :]
    # Row j padded to 2d and read as rows of 2d - 1 lands shifted right by
    # j, so the coefficient of x**(j + t) sits in column j + t.
    pad = _e.concatenate((outer, _e.zeros_like(outer)), axis=2)
    flat = pad.reshape(k, 2 * d * d)[:, :d * (2 * d - 1)]
    return _e.sum(flat.reshape(k, d, 2 * d - 1), axis=1)


def product(rows):
    """The product of the polynomials in the rows of `rows` (k, d),
    ascending coefficients, as one row of k (d - 1) + 1; k >= 1."""
    k, d = rows.shape
    length = k * (d - 1) + 1
    while rows.shape[0] > 1:
        if rows.shape[0] % 2:
            one = _e.zeros((1, rows.shape[1]), dtype=rows.dtype, device=rows.device)
            one[0, 0] = 1
            rows = _e.concatenate((rows, one))
        half = rows.shape[0] // 2
        rows = _pair_products(rows[:half], rows[half:])
    return rows[0, :length]
