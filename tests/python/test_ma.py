"""ember.ma against numpy.ma on every device: constructors, masks and
fill values, indexing, printing, ufuncs with their domains, reductions
with axis/keepdims, NumPy's errors, and the computations of
numpy-tutorials' tutorial-ma on a numeric table."""
import numpy as np
import numpy.ma as nma
import pytest

import ember
import ember.ma as ma


X = np.array([[1.0, -2.0, 3.0, 0.5], [4.0, 5.0, -6.0, 2.0], [0.0, 8.0, 9.0, -1.0]])
M = np.array([[0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0]], bool)


def E(a, device):
    # a copy: on cpu ember may share NumPy's memory, and tests write
    return ember.asarray(np.array(a), device=device)


def pair(device, x=X, m=M):
    # copies: numpy.ma shares the given data and mask, and tests write
    return ma.array(E(x, device), mask=E(m, device)), nma.array(x.copy(), mask=m.copy())


def same(got, want, device, rtol=1e-12, atol=1e-12, fill=True):
    """got (an ember.ma result) matches want (numpy.ma's): masks, filled
    values, dtype, shape and (when asked) fill value."""
    if want is nma.masked:
        assert got is ma.masked, got
        return
    if isinstance(want, nma.MaskedArray):
        assert isinstance(got, ma.MaskedArray), type(got)
        assert got.device == ember.Device(device)
        assert got.shape == want.shape, (got.shape, want.shape)
        assert np.dtype(str(got.dtype)) == want.dtype, (got.dtype, want.dtype)
        np.testing.assert_array_equal(ember.asnumpy(ma.getmaskarray(got)),
                                      nma.getmaskarray(want))
        keep = ~nma.getmaskarray(want)
        np.testing.assert_allclose(ember.asnumpy(got.data)[keep], want.data[keep],
                                   rtol=rtol, atol=atol)
        if fill:
            assert got.fill_value == want.fill_value, (got.fill_value, want.fill_value)
        return
    got = ember.asnumpy(got) if isinstance(got, ember.ndarray) else got
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


# ---- construction -------------------------------------------------------------

def test_import_paths():
    import ember.ma as m2
    assert ember.ma is m2 and ma.nomask is nma.nomask


def test_array_keywords(device):
    a, n = pair(device)
    same(a, n, device)
    b = ma.masked_array(E(X, device), mask=E(M, device), fill_value=-1.0, hard_mask=True)
    nb = nma.masked_array(X, mask=M, fill_value=-1.0, hard_mask=True)
    same(b, nb, device)
    assert b.hardmask and b.fill_value == -1.0
    c = ma.array(E(X, device), dtype=ember.float32)
    same(c, nma.array(X, dtype=np.float32), device)
    assert c.mask is ma.nomask
    # keep_mask ors the source's mask with the new one, or drops it
    d = ma.array(a, mask=E(np.eye(3, 4, dtype=bool), device))
    same(d, nma.array(n, mask=np.eye(3, 4, dtype=bool)), device)
    e = ma.array(a, mask=E(np.eye(3, 4, dtype=bool), device), keep_mask=False)
    same(e, nma.array(n, mask=np.eye(3, 4, dtype=bool), keep_mask=False), device)
    f = ma.array(E(X, device), mask=False)
    assert ember.asnumpy(f.mask).shape == X.shape and not ember.asnumpy(f.mask).any()
    assert ma.array(E(X, device), shrink=False).mask is not ma.nomask


def test_array_errors(device):
    with pytest.raises(ValueError, match="Mask and data not compatible"):
        ma.array(E(X, device), mask=E(np.zeros(5, bool), device))
    with pytest.raises(TypeError, match="fill value"):
        ma.array(E(X, device), fill_value="abc")
    with pytest.raises(IndexError, match="Inconsistent shape"):
        ma.masked_where(E(np.zeros(3, bool), device), E(X, device))


@pytest.mark.parametrize("name,args", [
    ("masked_equal", (0.0,)), ("masked_not_equal", (3.0,)), ("masked_greater", (2.0,)),
    ("masked_greater_equal", (2.0,)), ("masked_less", (1.0,)), ("masked_less_equal", (1.0,)),
    ("masked_inside", (4.0, 0.0)), ("masked_outside", (-1.0, 4.0))])
def test_masked_family(device, name, args):
    a, n = pair(device)
    same(getattr(ma, name)(a, *args), getattr(nma, name)(n, *args), device)
    same(getattr(ma, name)(E(X, device), *args), getattr(nma, name)(X, *args), device)


def test_masked_where_invalid_values(device):
    x = np.array([1.0, np.nan, 3.0, np.inf, -np.inf, 1.1, 1.1000001])
    same(ma.masked_invalid(E(x, device)), nma.masked_invalid(x), device)
    same(ma.masked_where(E(x > 2, device), E(x, device)), nma.masked_where(x > 2, x), device)
    for kw in ({}, {"atol": 1e-3}, {"rtol": 0.0, "atol": 0.0}):
        got, want = ma.masked_values(E(x, device), 1.1, **kw), nma.masked_values(x, 1.1, **kw)
        same(got, want, device)
    i = np.array([1, 2, 3, 2])
    same(ma.masked_values(E(i, device), 2), nma.masked_values(i, 2), device)
    # shrink: nothing close gives nomask, as numpy.ma's
    assert ma.masked_values(E(x, device), 42.0).mask is ma.nomask


def test_mask_helpers(device):
    a, n = pair(device)
    assert ma.getmask(E(X, device)) is ma.nomask
    np.testing.assert_array_equal(ember.asnumpy(ma.getmask(a)), nma.getmask(n))
    np.testing.assert_array_equal(ember.asnumpy(ma.getmaskarray(ma.array(E(X, device)))),
                                  np.zeros(X.shape, bool))
    np.testing.assert_array_equal(ember.asnumpy(ma.getdata(a)), nma.getdata(n))
    assert ma.is_masked(a) and not ma.is_masked(ma.array(E(X, device)))
    assert ma.make_mask(E(np.zeros(3), device)) is ma.nomask
    np.testing.assert_array_equal(ember.asnumpy(ma.make_mask(E([0, 2, 0], device))),
                                  nma.make_mask([0, 2, 0]))
    m1, m2 = np.array([1, 0, 0], bool), np.array([0, 0, 1], bool)
    np.testing.assert_array_equal(ember.asnumpy(ma.mask_or(E(m1, device), E(m2, device))),
                                  nma.mask_or(m1, m2))
    assert ma.mask_or(ma.nomask, ma.nomask) is ma.nomask
    with pytest.raises(ValueError, match="Incompatible shapes"):
        ma.mask_or(E(m1, device), E(np.zeros(4, bool), device))


# ---- attributes, methods, indexing -------------------------------------------

def test_attributes_and_methods(device):
    a, n = pair(device)
    same(a.filled(), n.filled(), device)
    same(a.filled(-7.0), n.filled(-7.0), device)
    same(a.compressed(), n.compressed(), device)
    assert a.count() == n.count()
    same(a.count(axis=0), n.count(axis=0), device)
    same(a.count(axis=1, keepdims=True), n.count(axis=1, keepdims=True), device)
    for got, want in zip(a.nonzero(), n.nonzero()):
        same(got, want, device)
    same(a.astype(ember.int32), n.astype(np.int32), device)
    same(a.T, n.T, device)
    same(a.transpose(1, 0), n.transpose(1, 0), device)
    same(a.reshape(4, 3), n.reshape(4, 3), device)
    same(a.ravel(), n.ravel(), device)
    assert a.tolist() == n.tolist()
    same(a.anom(), n.anom(), device)
    same(a.anom(axis=0), n.anom(axis=0), device)
    c = a.copy()
    c[0, 0] = ma.masked
    assert not bool(ember.asnumpy(a.mask)[0, 0])


def test_mask_setting_and_sharing(device):
    a, n = pair(device)
    a.mask = E(np.eye(3, 4, dtype=bool), device)
    n.mask = np.eye(3, 4, dtype=bool)
    same(a, n, device)
    a.mask[0, 1] = True      # .mask is the array itself, as numpy.ma's
    n.mask[0, 1] = True
    same(a, n, device)
    b, nb = a[1:], n[1:]     # a slice's mask is a view of the parent's
    b[0, 0] = ma.masked
    nb[0, 0] = nma.masked
    same(a, n, device)
    a.mask = ma.nomask
    n.mask = nma.nomask
    same(a, n, device)
    a.mask = True
    n.mask = True
    same(a, n, device)


def test_hard_and_soft_mask(device):
    a, n = pair(device)
    a.harden_mask()
    n.harden_mask()
    a[0] = 100.0
    n[0] = 100.0
    same(a, n, device)
    a.mask = E(np.zeros(X.shape, bool), device)   # a hard mask only grows
    n.mask = np.zeros(X.shape, bool)
    same(a, n, device)
    a.soften_mask()
    n.soften_mask()
    a[0] = 100.0
    n[0] = 100.0
    same(a, n, device)
    assert not a.hardmask


def test_indexing(device):
    a, n = pair(device)
    same(a[1], n[1], device)
    same(a[:, 1:3], n[:, 1:3], device)
    same(a[::2, ::-1], n[::2, ::-1], device)
    assert a[0, 1] is ma.masked and n[0, 1] is nma.masked
    assert float(a[0, 0]) == n[0, 0]
    same(a[E(X > 0, device)], n[X > 0], device)
    same(a[a > 0], n[n > 0], device, fill=False)
    same(a[E([2, 0], device)], n[[2, 0]], device)
    a[1, 1] = ma.masked
    n[1, 1] = nma.masked
    a[0, 1] = 42.0           # a soft mask: setting unmasks
    n[0, 1] = 42.0
    same(a, n, device)
    a[2] = ma.array(E([1.0, 2, 3, 4], device), mask=E([0, 1, 0, 1], device))
    n[2] = nma.array([1.0, 2, 3, 4], mask=[0, 1, 0, 1])
    same(a, n, device)
    with pytest.raises(ma.MaskError):
        ma.masked[0] = 1


def test_repr_str(device):
    a, n = pair(device, X[:2, :3], M[:2, :3])
    assert repr(a) == repr(n)
    assert str(a) == str(n)
    v, nv = pair(device, np.array([1.0, 2.0, 3.0]), np.array([0, 1, 0], bool))
    assert repr(v) == repr(nv) == ("masked_array(data=[1.0, --, 3.0],\n"
                                   "             mask=[False,  True, False],\n"
                                   "       fill_value=1e+20)")
    i = ma.array(E([1, 2, 3], device), mask=E([0, 1, 0], device))
    assert repr(i) == repr(nma.array([1, 2, 3], mask=[0, 1, 0]))
    assert repr(ma.array(E(X, device))) == repr(nma.array(X))
    assert repr(ma.masked) == "masked" and str(ma.masked) == "--"


# ---- arithmetic and ufuncs ----------------------------------------------------

def test_binary_operators(device):
    a, n = pair(device)
    b, nb = pair(device, X[::-1] + 0.5, M[:, ::-1])
    for op in ("__add__", "__sub__", "__mul__", "__truediv__", "__pow__", "__radd__",
               "__rsub__", "__lt__", "__ge__", "__eq__", "__ne__"):
        same(getattr(a, op)(b), getattr(n, op)(nb), device, rtol=1e-12, fill=False)
    same(a * 2, n * 2, device)
    same(2 - a, 2 - n, device)
    same(a + E(X, device), n + X, device)
    same(-a, -n, device)
    same(abs(a), abs(n), device)
    same(a == 3.0, n == 3.0, device)
    # division by zero (and 0/0) masked, as numpy.ma's safe division
    z, nz = pair(device, np.array([[1.0, 0.0, 2.0, 0.0]] * 3), np.zeros((3, 4), bool))
    same(a / z, n / nz, device)
    same(a // z, n // nz, device)
    same(a % z, n % nz, device)
    r = a + ma.masked
    assert ember.asnumpy(r.mask).all()


def test_inplace_operators(device):
    a, n = pair(device)
    a += 1
    n += 1
    same(a, n, device)
    b, nb = pair(device, X + 3, M[::-1])
    a *= b
    n *= nb
    same(a, n, device)


@pytest.mark.parametrize("name", ["log", "log2", "log10", "sqrt", "arcsin",
                                  "arccos", "arccosh", "arctanh", "tan", "exp", "sin"])
def test_unary_domains(device, name):
    x = np.array([[-2.0, -1.0, -0.5, 0.0], [0.5, 1.0, 2.0, 1e-300], [3.0, np.nan, 7, 800]])
    m = np.zeros(x.shape, bool)
    m[2, 0] = True
    a, n = pair(device, x, m)
    with np.errstate(all="ignore"):
        want = getattr(nma, name)(n)
        same(getattr(ma, name)(a), want, device, rtol=1e-12, atol=0)
        same(getattr(np, name)(a), getattr(np, name)(n), device, rtol=1e-12, atol=0)


def test_binary_ufuncs(device):
    a, n = pair(device)
    b, nb = pair(device, X.T.ravel().reshape(3, 4), M[::-1])
    with np.errstate(all="ignore"):
        for name in ("add", "multiply", "divide", "maximum", "arctan2", "hypot",
                     "greater", "remainder"):
            same(getattr(ma, name)(a, b), getattr(nma, name)(n, nb), device, fill=False)
            same(getattr(np, name)(a, b), getattr(np, name)(n, nb), device, fill=False)
        same(np.add(a, 1.0), np.add(n, 1.0), device)


def test_ember_ufunc_on_masked_array_is_unsupported(device):
    # ember's ufunc objects do not consult other types' __array_ufunc__;
    # ember.ma.log (or np.log) is the masked spelling
    a, _ = pair(device)
    with pytest.raises(TypeError, match="MaskedArray"):
        ember.log(a)


# ---- reductions ---------------------------------------------------------------

DEAD = M.copy()
DEAD[:, 1] = True                # column 1 has nothing unmasked


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "min", "max", "any", "all",
                                  "var", "std"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (1, False),
                                           (0, True), (-1, True), ((0, 1), False)])
def test_reductions(device, name, axis, keepdims):
    a, n = pair(device, X, DEAD)
    got = getattr(a, name)(axis=axis, keepdims=keepdims)
    want = getattr(n, name)(axis=axis, keepdims=keepdims)
    same(got, want, device, rtol=1e-12, fill=False)
    got = getattr(ma, name)(a, axis=axis, keepdims=keepdims)
    same(got, want, device, rtol=1e-12, fill=False)


@pytest.mark.parametrize("ddof", [0, 1, 2])
def test_var_std_ddof(device, ddof):
    a, n = pair(device, X, DEAD)
    for axis in (None, 0, 1):
        same(a.var(axis=axis, ddof=ddof), n.var(axis=axis, ddof=ddof), device, fill=False)
        same(a.std(axis=axis, ddof=ddof), n.std(axis=axis, ddof=ddof), device, fill=False)


def test_reductions_without_mask_and_ints(device):
    a = ma.array(E(X, device))
    n = nma.array(X)
    for name in ("sum", "mean", "max", "var"):
        same(getattr(a, name)(axis=0), getattr(n, name)(axis=0), device, fill=False)
        same(getattr(a, name)(), getattr(n, name)(), device)
    i, ni = pair(device, np.arange(12).reshape(3, 4), DEAD)
    for name in ("sum", "mean", "min", "max", "prod"):
        same(getattr(i, name)(axis=1), getattr(ni, name)(axis=1), device, fill=False)
        same(getattr(i, name)(axis=0), getattr(ni, name)(axis=0), device, fill=False)


def test_fully_masked_gives_masked(device):
    a = ma.array(E(X, device), mask=True)
    for name in ("sum", "prod", "mean", "min", "max", "var", "std"):
        assert getattr(a, name)() is ma.masked, name
    assert ma.average(a) is ma.masked


def test_arg_and_cumulative(device):
    a, n = pair(device, X, DEAD)
    for name in ("argmin", "argmax"):
        for axis in (None, 0, 1):
            assert np.array_equal(ember.asnumpy(ember.asarray(getattr(a, name)(axis=axis))),
                                  getattr(n, name)(axis=axis))
            assert np.array_equal(ember.asnumpy(ember.asarray(getattr(ma, name)(a, axis=axis))),
                                  getattr(nma, name)(n, axis=axis))
    for axis in (None, 0, 1):
        same(a.cumsum(axis=axis), n.cumsum(axis=axis), device, fill=False)
        same(ma.cumsum(a, axis=axis), nma.cumsum(n, axis=axis), device, fill=False)


def test_average(device):
    a, n = pair(device, X, DEAD)
    w = np.array([[1.0, 2, 3, 4], [0.5, 1, 0, 2], [3, 1, 1, 0]])
    for axis in (None, 0, 1):
        same(ma.average(a, axis=axis), nma.average(n, axis=axis), device, fill=False)
        same(ma.average(a, axis=axis, weights=E(w, device)),
             nma.average(n, axis=axis, weights=w), device, fill=False)
    got, gs = ma.average(a, axis=0, weights=E(w, device), returned=True)
    want, ws = nma.average(n, axis=0, weights=w, returned=True)
    same(got, want, device, fill=False)
    same(gs, ws, device)
    same(ma.average(a, axis=1, weights=E([1.0, 2, 3, 4], device)),
         nma.average(n, axis=1, weights=[1.0, 2, 3, 4]), device, fill=False)
    with pytest.raises(ValueError, match="Length of weights"):
        ma.average(a, axis=1, weights=E([1.0, 2], device))
    with pytest.raises(TypeError, match="Axis must be specified"):
        ma.average(a, weights=E([1.0, 2, 3, 4], device))


def test_median(device):
    x = np.array([[3.0, 1, 4, 1, 5], [9, 2, 6, 5, 3], [5, 8, 9, 7, 9]])
    m = np.array([[0, 1, 0, 0, 0], [1, 1, 1, 1, 1], [0, 0, 1, 0, 1]], bool)
    a, n = pair(device, x, m)
    for axis in (None, 0, 1):
        same(ma.median(a, axis=axis), nma.median(n, axis=axis), device, fill=False)
    same(ma.median(a, axis=1, keepdims=True), nma.median(n, axis=1, keepdims=True),
         device, fill=False)


def test_reduction_axis_error(device):
    a, _ = pair(device)
    with pytest.raises(np.exceptions.AxisError):
        a.sum(axis=2)


# ---- numpy-tutorials' tutorial-ma ------------------------------------------------

def _tutorial_table():
    """tutorial-ma's table in shape: cumulative cases, one row per location
    (rows 0-5 in China, 4 and 5 of them Hong Kong and Macau), one column per
    day for 14 days, -1 where genfromtxt met a missing report; mainland
    China reported nothing on days 4-6."""
    rng = np.random.default_rng(7)
    t = np.arange(14)
    growth = np.array([40, 12, 9, 7, 2, 1, 5, 3, 2, 1])[:, None]
    table = np.cumsum(growth * (1 + t[None, :] // 3) + rng.integers(0, 4, (10, 14)), axis=1)
    table[:4, 4:7] = -1
    table[7, 2] = -1
    table[8, 10:12] = -1
    return table.astype(np.int64)


def test_tutorial_ma_numeric_table(device):
    """numpy-tutorials' tutorial-ma without its string arrays: masked_values
    hides the -1 entries, the rows of a country are summed per day, the
    masked and valid days are selected with .mask, and a cubic is fitted to
    the valid days and evaluated on the missing ones."""
    nbcases = _tutorial_table()
    in_china = np.arange(10) < 6            # locations[:, 1] == 'China'
    mainland = in_china & (np.arange(10) < 4)
    nbcases_ma = ma.masked_values(E(nbcases, device), -1)
    want_ma = nma.masked_values(nbcases, -1)
    same(nbcases_ma, want_ma, device)
    assert repr(nbcases_ma[1:3, :5]) == repr(want_ma[1:3, :5])
    same(nbcases_ma[1:].T, want_ma[1:].T, device)
    rows = np.where(in_china)
    china_masked = nbcases_ma[(E(rows[0], device),)].sum(axis=0)
    same(china_masked, want_ma[rows].sum(axis=0), device)
    np.testing.assert_array_equal(ember.asnumpy(china_masked.data),
                                  want_ma[rows].sum(axis=0).data)
    rows = np.where(mainland)
    china_total = nbcases_ma[(E(rows[0], device),)].sum(axis=0)
    want_total = want_ma[rows].sum(axis=0)
    same(china_total, want_total, device)
    np.testing.assert_array_equal(ember.asnumpy(china_total.mask), want_total.mask)
    same(china_total[china_total.mask], want_total[want_total.mask], device)
    valid, want_valid = china_total[~china_total.mask], want_total[~want_total.mask]
    same(valid, want_valid, device)
    with ember.Device(device):
        t = ember.arange(len(china_total))
    nt = np.arange(len(want_total))
    params = ember.polyfit(t[~china_total.mask], valid.data, 3)
    want_params = np.polyfit(nt[~want_total.mask], want_valid.data, 3)
    np.testing.assert_allclose(ember.asnumpy(params), want_params, rtol=1e-7,
                               atol=1e-9 * np.abs(want_params).max())
    cubic_fit = ember.polyval(params, t)
    want_fit = np.polyval(want_params, nt)
    np.testing.assert_allclose(ember.asnumpy(cubic_fit[china_total.mask]),
                               want_fit[want_total.mask], rtol=1e-9)
    model = ember.polynomial.Polynomial.fit(t[~china_total.mask], valid.data, deg=3)
    want_model = np.polynomial.Polynomial.fit(nt[~want_total.mask], want_valid.data, deg=3)
    np.testing.assert_allclose(ember.asnumpy(model(t)), want_model(nt), rtol=1e-9)
    np.testing.assert_allclose(float(model(7.0)), want_model(7.0), rtol=1e-9)


# ---- dtypes, hard masks with masked values, helpers ----------------------------------

def test_float32_int_bool(device):
    x = np.array([1.0, 2, 3, 4], np.float32)
    a, n = pair(device, x, np.array([0, 1, 0, 0], bool))
    assert repr(a) == repr(n)
    for name in ("mean", "var", "std", "sum", "max"):
        same(getattr(a, name)(axis=0, keepdims=True), getattr(n, name)(axis=0, keepdims=True),
             device, rtol=1e-6, fill=False)
        assert np.dtype(str(ember.asarray(getattr(a, name)()).dtype)) == \
            np.asarray(getattr(n, name)()).dtype, name
    i, ni = pair(device, np.array([1, 2, 3, 4]), np.array([0, 1, 0, 0], bool))
    j, nj = pair(device, np.array([0, 1, 2, 0]), np.zeros(4, bool))
    same(i / j, ni / nj, device)
    same(i // j, ni // nj, device)
    same(i % j, ni % nj, device)
    b, nb = pair(device, np.array([True, False, True]), np.array([0, 0, 1], bool))
    assert bool(b.any()) == bool(nb.any()) and bool(b.all()) == bool(nb.all())
    assert int(b.sum()) == int(nb.sum())


def test_hard_mask_assign_masked_values(device):
    h, nh = pair(device, np.array([1.0, 2, 3]), np.array([0, 1, 0], bool))
    h.harden_mask()
    nh.harden_mask()
    h[:] = ma.array(E([5.0, 5, 5], device), mask=E([1, 0, 0], device))
    nh[:] = nma.array([5.0, 5, 5], mask=[1, 0, 0])
    same(h, nh, device)
    with ember.Device(device):
        z = ma.zeros((2, 3))
    z[0, 1] = ma.masked          # the first masked entry makes the mask
    nz = nma.zeros((2, 3))
    nz[0, 1] = nma.masked
    same(z, nz, device)


def test_where_sort_concatenate(device):
    a, n = pair(device)
    same(ma.where(a > 1, a, -a), nma.where(n > 1, n, -n), device, fill=False)
    for axis in (0, 1, -1, None):
        same(ma.sort(a, axis=axis), nma.sort(n, axis=axis), device, fill=False)
        np.testing.assert_array_equal(ember.asnumpy(ma.argsort(a, axis=axis)),
                                      nma.argsort(n, axis=axis))
    same(ma.concatenate([a, a[:1]]), nma.concatenate([n, n[:1]]), device, fill=False)
    same(ma.concatenate([ma.array(E(X, device))] * 2, axis=1),
         nma.concatenate([nma.array(X)] * 2, axis=1), device, fill=False)


def test_masked_constant(device):
    a, n = pair(device)
    assert ma.masked + 1 is ma.masked
    same(a * ma.masked, n * nma.masked, device, fill=False)
    assert float(ma.masked) != float(ma.masked)     # nan, as NumPy's
    assert not bool(ma.masked)
    assert ma.masked.tolist() is None and nma.masked.tolist() is None


def test_numpy_functions_call_the_methods(device):
    # np.sum(a) and friends call a.sum(axis=..., out=None, ...)
    a, n = pair(device, X, DEAD)
    same(np.sum(a, axis=0), np.sum(n, axis=0), device, fill=False)
    same(np.mean(a), np.mean(n), device)
    same(np.var(a, axis=1, ddof=1), np.var(n, axis=1, ddof=1), device, fill=False)
    same(np.max(a, axis=1, keepdims=True), np.max(n, axis=1, keepdims=True), device,
         fill=False)
    with pytest.raises(NotImplementedError, match="out="):
        a.sum(out=a)


def test_scalar_operands(device):
    # Python scalars beside a MaskedArray stay on its device
    a, n = pair(device)
    with np.errstate(all="ignore"):
        same(2.0 / a, 2.0 / n, device)
        same(a / 0, n / 0, device)
        same(0 // a, 0 // n, device)
    same(ma.where(a > 1, a, 0.0), nma.where(n > 1, n, 0.0), device, fill=False)
    same(ma.where(a > 1, ma.masked, a), nma.where(n > 1, nma.masked, n), device, fill=False)
    same(ma.where(E(X > 1, device), 1.0, 0.0), nma.where(X > 1, 1.0, 0.0), device, fill=False)
