"""The array algorithms under ember.scipy.sparse's matrices, over the
(data, major, minor) triplets of a compressed matrix (rows and columns
for CSR, columns and rows for CSC): building the canonical form, the
union of two matrices' elements under a binary operator, the sparse
product (expand, sort, compress), gathering whole rows, and extrema along
an axis. Each is a few sorts, scans, gathers and scatters over the whole
matrix, on the device the arrays live on; nothing loops per row."""
import ember as _e


def _zero_first(counts):
    """indptr from per-row counts: 0 then their running sum, int64."""
    return _e.concatenate([_e.zeros(1, dtype=_e.int64, device=counts.device),
                           _e.cumsum(counts).astype(_e.int64)])


def indptr_of(major, nmajor):
    """The indptr of elements already in major order."""
    return _zero_first(_e.bincount(major, minlength=nmajor))


def keys(major, minor, nminor):
    """One int64 per element that orders by (major, minor)."""
    return major.astype(_e.int64) * nminor + minor.astype(_e.int64)


def compress(data, major, minor, shape, dtype=None):
    """(data, indices, indptr) of triplets over shape (nmajor, nminor):
    sorted by (major, minor), duplicates summed, explicit zeros kept, as
    SciPy's conversion to CSR leaves them."""
    nmajor, nminor = shape
    dev = data.device
    key = keys(major, minor, nminor)
    uniq, inv = _e.unique(key, return_inverse=True)
    t = dtype or data.dtype
    if uniq.size != key.size:
        if t.kind == "c":
            # the real and imaginary parts summed apart (add.at in float64)
            parts = []
            for part in (_e.real(data), _e.imag(data)):
                s = _e.zeros(uniq.size, dtype=_e.float64, device=dev)
                _e.add.at(s, inv, part.astype(_e.float64))
                parts.append(s)
            vals = (parts[0] + parts[1] * 1j).astype(t)
        else:
            summed = _e.zeros(uniq.size, dtype=_e.float64 if t.kind in "fb"
                              else _e.int64, device=dev)
            _e.add.at(summed, inv, data.astype(summed.dtype))
            vals = summed.astype(t)
    else:
        vals = data[_e.argsort(key)].astype(t)
    return vals, (uniq % nminor).astype(_e.int64), \
        indptr_of(uniq // nminor, nmajor)


def drop_zeros(data, major, minor, nmajor):
    """(data, indices, indptr) without the stored zeros, order kept."""
    keep = data != 0
    return data[keep], minor[keep], indptr_of(major[keep], nmajor)


def union(a, b, shape, op):
    """op over the union of two canonical matrices' elements (a missing
    element reads 0), the zeros of the result dropped: what SciPy's
    csr_binop_csr stores for +, -, maximum, minimum, multiply and the
    sparse comparisons."""
    (da, ma, na), (db, mb, nb) = a, b
    ka, kb = keys(ma, na, shape[1]), keys(mb, nb, shape[1])
    uniq, inv = _e.unique(_e.concatenate([ka, kb]), return_inverse=True)
    va = _e.zeros(uniq.size, dtype=da.dtype, device=da.device)
    vb = _e.zeros(uniq.size, dtype=db.dtype, device=da.device)
    if ka.size:
        va[inv[:ka.size]] = da
    if kb.size:
        vb[inv[ka.size:]] = db
    r = op(va, vb)
    keep = r != 0
    u = uniq[keep]
    return r[keep], u % shape[1], indptr_of(u // shape[1], shape[0])


def take_major(data, indices, indptr, sel):
    """The rows sel (int64, any order, repeats allowed) of a compressed
    matrix, each row's elements in their stored order."""
    starts = indptr[sel]
    counts = indptr[sel + 1] - starts
    ptr = _zero_first(counts)
    total = int(ptr[-1])
    pos = _e.repeat(starts - ptr[:-1], counts) + \
        _e.arange(total, dtype=_e.int64, device=data.device)
    return data[pos], indices[pos], ptr


def spgemm(a, b, shapes, t):
    """The product of two CSR matrices a = (data, indices, indptr) of
    shape shapes[0] and b of shapes[1], by expansion: every a[i, k] meets
    every element of b's row k, the products are compressed by (i, j)
    with sums, and zero sums dropped, as SciPy's csr_matmat keeps them."""
    (ad, ai, ap), (bd, bi, bp) = a, b
    (m, _), (_, n) = shapes
    dev = ad.device
    blen = bp[1:] - bp[:-1]
    counts = blen[ai] if ai.size else _e.zeros(0, dtype=bp.dtype, device=dev)
    ptr = _zero_first(counts)
    total = int(ptr[-1])
    src = _e.repeat(_e.arange(ai.size, dtype=_e.int64, device=dev), counts)
    pos = _e.arange(total, dtype=_e.int64, device=dev) + \
        _e.repeat(bp[ai].astype(_e.int64) - ptr[:-1], counts)
    arow = _e.repeat(_e.arange(m, dtype=_e.int64, device=dev),
                     ap[1:] - ap[:-1])
    vals = ad[src].astype(t) * bd[pos].astype(t)
    d, ind, ptr = compress(vals, arow[src], bi[pos], (m, n), dtype=t)
    return drop_zeros(d, _e.repeat(_e.arange(m, dtype=_e.int64, device=dev),
                                   ptr[1:] - ptr[:-1]), ind, m)


def extreme(data, idx, n, length, ufunc):
    """max or min (ufunc maximum or minimum) of each of n lines, from the
    stored values (no duplicates) data at line idx; a line with fewer than
    length stored values also holds a 0."""
    import numpy
    t = numpy.dtype(str(data.dtype))
    if t.kind == "f":
        init = numpy.inf if ufunc is _e.minimum else -numpy.inf
    elif t.kind == "b":
        init = ufunc is _e.minimum
    else:
        info = numpy.iinfo(t)
        init = info.max if ufunc is _e.minimum else info.min
    out = _e.full(n, init, dtype=data.dtype, device=data.device)
    if data.size:
        ufunc.at(out, idx, data)
    short = _e.bincount(idx, minlength=n) < length
    return _e.where(short, ufunc(out, _e.zeros(1, dtype=data.dtype,
                                                device=data.device)), out)


def take_minor(data, major, minor, sel, nmajor):
    """The columns sel (rows for CSC; any order, repeats allowed) of a
    compressed matrix given as triplets in row order: an element appears
    once for each place sel names its column, its rows' other elements
    kept in their stored order and no duplicates summed, as SciPy's
    indexing leaves them."""
    order = _e.argsort(sel, kind="stable")
    picked = sel[order]
    lo = _e.searchsorted(picked, minor, side="left")
    counts = _e.searchsorted(picked, minor, side="right") - lo
    ptr = _zero_first(counts)
    total = int(ptr[-1])
    src = _e.repeat(_e.arange(minor.size, dtype=_e.int64,
                              device=data.device), counts)
    at = _e.repeat(lo - ptr[:-1], counts) + \
        _e.arange(total, dtype=_e.int64, device=data.device)
    return data[src], order[at], indptr_of(major[src], nmajor)
