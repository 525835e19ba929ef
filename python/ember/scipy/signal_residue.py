"""ember.scipy.signal's partial fractions (re-exported by
ember.scipy.signal): residue, residuez, invres, invresz and
unique_roots, SciPy's algorithms on the host with NumPy (polynomial
division and products of a few dozen coefficients; see
_signal_host.py), the results as ember arrays on the inputs' device."""
from ember.scipy._signal_host import device_of, host, put

__all__ = ["residue", "residuez", "invres", "invresz", "unique_roots"]

_REDUCE = {"max": "max", "maximum": "max", "min": "min", "minimum": "min",
           "avg": "mean", "mean": "mean"}


def _reducer(rtype):
    import numpy
    if rtype not in _REDUCE:
        raise ValueError("`rtype` must be one of {'max', 'maximum', 'min', "
                         "'minimum', 'avg', 'mean'}")
    return getattr(numpy, _REDUCE[rtype])


def _unique_roots(p, tol, rtype):
    import numpy
    reduce = _reducer(rtype)
    p = numpy.asarray(p)
    # every pair's distance (SciPy asks a k-d tree; a polynomial's roots
    # are few)
    near = numpy.abs(p[:, None] - p[None, :]) <= tol
    used = numpy.zeros(len(p), bool)
    uniq, mult = [], []
    for i in range(len(p)):
        if used[i]:
            continue
        group = numpy.nonzero(near[i] & ~used)[0]
        uniq.append(reduce(p[group]))
        mult.append(len(group))
        used[group] = True
    return numpy.asarray(uniq), numpy.asarray(mult)


def unique_roots(p, tol=1e-3, rtype="min"):
    """scipy.signal.unique_roots: the distinct roots (those within tol
    merged by rtype) and their multiplicities."""
    dev = device_of(p)
    u, m = _unique_roots(host(p), tol, rtype)
    return put(u, dev), put(m, dev)


def _cmplx_sort(p):
    import numpy
    i = numpy.argsort(abs(p))
    return p[i], i


def _group_poles(poles, tol, rtype):
    import numpy
    reduce = _reducer(rtype)
    uniq, mult = [], []
    pole = poles[0]
    block = [pole]
    for v in poles[1:]:
        if abs(v - pole) <= tol:
            block.append(pole)
        else:
            uniq.append(reduce(block))
            mult.append(len(block))
            pole = v
            block = [pole]
    uniq.append(reduce(block))
    mult.append(len(block))
    return numpy.asarray(uniq), numpy.asarray(mult)


def _compute_factors(roots, multiplicity, include_powers=False):
    """The denominator over each pole's power (and the whole
    denominator), as SciPy builds them from prefix and suffix products."""
    import numpy
    current = numpy.array([1])
    suffixes = [current]
    for pole, mult in zip(roots[-1:0:-1], multiplicity[-1:0:-1]):
        for _ in range(mult):
            current = numpy.polymul(current, numpy.array([1, -pole]))
        suffixes.append(current)
    suffixes = suffixes[::-1]
    factors = []
    current = numpy.array([1])
    for pole, mult, suffix in zip(roots, multiplicity, suffixes):
        block = []
        for i in range(mult):
            if i == 0 or include_powers:
                block.append(numpy.polymul(current, suffix))
            current = numpy.polymul(current, numpy.array([1, -pole]))
        factors.extend(reversed(block))
    return factors, current


def _compute_residues(poles, multiplicity, numerator):
    import numpy
    factors, _ = _compute_factors(poles, multiplicity)
    numerator = numerator.astype(poles.dtype)
    residues = []
    for pole, mult, factor in zip(poles, multiplicity, factors):
        if mult == 1:
            residues.append(numpy.polyval(numerator, pole) /
                            numpy.polyval(factor, pole))
        else:
            numer = numerator.copy()
            monomial = numpy.array([1, -pole])
            factor, d = numpy.polydiv(factor, monomial)
            block = []
            for _ in range(mult):
                numer, n = numpy.polydiv(numer, monomial)
                r = n[0] / d[0]
                numer = numpy.polysub(numer, r * factor)
                block.append(r)
            residues.extend(reversed(block))
    return numpy.asarray(residues)


def _ba(b, a, trim):
    import numpy
    b, a = host(b), host(a)
    t = complex if b.dtype.kind == "c" or a.dtype.kind == "c" else float
    b = numpy.trim_zeros(numpy.atleast_1d(b.astype(t)), trim)
    a = numpy.trim_zeros(numpy.atleast_1d(a.astype(t)), trim)
    if a.size == 0:
        raise ValueError("Denominator `a` is zero.")
    return b, a


def residue(b, a, tol=1e-3, rtype="avg"):
    """scipy.signal.residue: (r, p, k) of the partial-fraction expansion
    of b(s)/a(s), repeated poles (within tol) grouped."""
    import numpy
    dev = device_of(b, a)
    b, a = _ba(b, a, "f")
    poles = numpy.roots(a)
    if b.size == 0:
        return (put(numpy.zeros(poles.shape), dev),
                put(_cmplx_sort(poles)[0], dev), put(numpy.array([]), dev))
    k = numpy.empty(0) if len(b) < len(a) else None
    if k is None:
        k, b = numpy.polydiv(b, a)
    up, mult = _unique_roots(poles, tol, rtype)
    up, order = _cmplx_sort(up)
    mult = mult[order]
    res = _compute_residues(up, mult, b)
    i = 0
    for pole, m in zip(up, mult):
        poles[i:i + m] = pole
        i += m
    return put(res / a[0], dev), put(poles, dev), put(k, dev)


def residuez(b, a, tol=1e-3, rtype="avg"):
    """scipy.signal.residuez: (r, p, k) of the expansion of b(z)/a(z) in
    powers of 1/z."""
    import numpy
    dev = device_of(b, a)
    b, a = _ba(b, a, "b")
    if a[0] == 0:
        raise ValueError("First coefficient of determinant `a` must be "
                         "non-zero.")
    poles = numpy.roots(a)
    if b.size == 0:
        return (put(numpy.zeros(poles.shape), dev),
                put(_cmplx_sort(poles)[0], dev), put(numpy.array([]), dev))
    b_rev, a_rev = b[::-1], a[::-1]
    if len(b_rev) < len(a_rev):
        k_rev = numpy.empty(0)
    else:
        k_rev, b_rev = numpy.polydiv(b_rev, a_rev)
    up, mult = _unique_roots(poles, tol, rtype)
    up, order = _cmplx_sort(up)
    mult = mult[order]
    res = _compute_residues(1 / up, mult, b_rev)
    i = 0
    powers = numpy.empty(len(res), dtype=int)
    for pole, m in zip(up, mult):
        poles[i:i + m] = pole
        powers[i:i + m] = 1 + numpy.arange(m)
        i += m
    res = res * (-poles) ** powers / a_rev[0]
    return put(res, dev), put(poles, dev), put(k_rev[::-1], dev)


def invres(r, p, k, tol=1e-3, rtype="avg"):
    """scipy.signal.invres: (b, a) from residues, poles and the direct
    term, in powers of s."""
    import numpy
    dev = device_of(r, p, k)
    r, p = numpy.atleast_1d(host(r)), numpy.atleast_1d(host(p))
    k = numpy.trim_zeros(numpy.atleast_1d(host(k)), "f")
    up, mult = _group_poles(p, tol, rtype)
    factors, den = _compute_factors(up, mult, include_powers=True)
    num = 0 if len(k) == 0 else numpy.polymul(k, den)
    for res, factor in zip(r, factors):
        num = numpy.polyadd(num, res * factor)
    return put(num, dev), put(den, dev)


def invresz(r, p, k, tol=1e-3, rtype="avg"):
    """scipy.signal.invresz: (b, a) from residues, poles and the direct
    term, in powers of 1/z."""
    import numpy
    dev = device_of(r, p, k)
    r, p = numpy.atleast_1d(host(r)), numpy.atleast_1d(host(p))
    k = numpy.trim_zeros(numpy.atleast_1d(host(k)), "b")
    up, mult = _group_poles(p, tol, rtype)
    factors, den = _compute_factors(up, mult, include_powers=True)
    num = 0 if len(k) == 0 else numpy.polymul(k[::-1], den[::-1])
    for res, factor in zip(r, factors):
        num = numpy.polyadd(num, res * factor[::-1])
    return put(num[::-1], dev), put(den, dev)
