"""ember.scipy.sparse's spmatrix and sparray, swapaxes, permute_dims,
matrix_transpose and safely_cast_index_arrays, and
ember.scipy.linalg.bandwidth, against SciPy 1.17: results (format,
shape, values, identity of the returned object), index dtypes, errors."""
import numpy as np
import pytest
import scipy.linalg as sl
import scipy.sparse as ss

import ember
from ember.scipy import linalg as el
from ember.scipy import sparse as es

DENSE = np.array([[1.0, 0, 2, 0], [0, 3, 0, 0], [4, 0, 0, 5]])


def host(a):
    return ember.asnumpy(a)


def made(device):
    d = ember.asarray(DENSE, device=device)
    return {"csr": es.csr_matrix(d), "csc": es.csc_matrix(d),
            "coo": es.coo_matrix(d), "dia": es.dia_matrix(d)}


def test_base_classes(device):
    """As SciPy's: the *_matrix objects are spmatrix and not sparray,
    the *_array objects the other way round; dense arrays and SciPy's
    objects are neither; the bases are not made directly."""
    for m in made(device).values():
        assert isinstance(m, es.spmatrix) and not isinstance(m, es.sparray)
        assert issubclass(type(m), es.spmatrix)
    a = es.csr_array(ember.asarray(DENSE, device=device))
    assert isinstance(a, es.sparray) and not isinstance(a, es.spmatrix)
    assert issubclass(type(a), es.sparray)
    assert isinstance(ss.csr_array(DENSE), ss.sparray)   # SciPy's own
    for x in (ember.asarray(DENSE, device=device), DENSE,
              ss.csr_matrix(DENSE), 3):
        assert not isinstance(x, es.spmatrix)
        assert not isinstance(x, es.sparray)
    assert issubclass(es.spmatrix, es.spmatrix)
    assert not issubclass(ember.ndarray, es.sparray)
    assert {"spmatrix", "sparray", "swapaxes", "permute_dims",
            "matrix_transpose", "safely_cast_index_arrays"} <= set(
                es.__all__)
    with pytest.raises(TypeError, match="base class"):
        es.spmatrix()


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_permute_dims_swapaxes(device, fmt):
    """As SciPy's: the identity is A itself (a copy in A's format with
    copy=True, and always from swapaxes), anything else a COO transpose
    without the canonical flag."""
    m = made(device)[fmt]
    ref = {"csr": ss.csr_matrix, "csc": ss.csc_matrix, "coo": ss.coo_matrix,
           "dia": ss.dia_matrix}[fmt](DENSE)
    for call, args in [(es.permute_dims, ()), (es.permute_dims, ((1, 0),)),
                       (es.permute_dims, ([1, -2],)), (es.swapaxes, (0, 1)),
                       (es.swapaxes, (-1, 0)), (es.permute_dims, ((0, 1),)),
                       (es.swapaxes, (1, -1)), (es.swapaxes, (0, 0)),
                       (es.permute_dims, ((-2, 1), True))]:
        got = call(m, *args)
        want = getattr(ss, call.__name__)(ref, *args)
        assert got.format == want.format, (call.__name__, args)
        assert got.shape == want.shape
        assert np.array_equal(host(got.toarray()), want.toarray())
        assert (got is m) == (want is ref), (call.__name__, args)
        if want.format == "coo" and fmt != "coo":
            assert got.has_canonical_format == want.has_canonical_format
        # SciPy transposes a COO input in place (copy=False): so here
        assert m.shape == ref.shape
    m = made(device)[fmt]
    c = es.permute_dims(m, copy=True)
    assert c.format == "coo" and c.shape == (4, 3) and m.shape == (3, 4)


def test_axis_errors(device):
    """SciPy's errors: the count, inexact, out-of-range and repeated axes
    of permute_dims; swapaxes' ValueError for a bad axis; a TypeError
    for what is not sparse."""
    m = made(device)["csr"]
    for axes, exc, msg in [((0,), ValueError, "Incorrect number of axes"),
                           ((0, 0), ValueError, "duplicate value"),
                           ((0, 2), ValueError, "out of range"),
                           ((1, -3), ValueError, "out of range"),
                           ((0.0, 1), ValueError, "Inexact"),
                           (("a", 1), TypeError, "integer"),
                           (1, TypeError, "tuple or list")]:
        with pytest.raises(exc, match=msg):
            es.permute_dims(m, axes)
        with pytest.raises(exc):
            ss.permute_dims(ss.csr_matrix(DENSE), axes)
    for a1, a2 in [(2, 0), (0, -3), (0, 1.0), (0, "a")]:
        with pytest.raises(ValueError, match="Invalid axis"):
            es.swapaxes(m, a1, a2)
        with pytest.raises(ValueError, match="Invalid axis"):
            ss.swapaxes(ss.csr_matrix(DENSE), a1, a2)
    for f, args in [(es.swapaxes, (0, 1)), (es.permute_dims, ()),
                    (es.matrix_transpose, ()),
                    (es.safely_cast_index_arrays, ())]:
        with pytest.raises(TypeError, match="ndarray"):
            f(ember.asarray(DENSE, device=device), *args)


def test_matrix_transpose(device):
    """A.transpose(): CSR's is CSC and back, COO stays COO (CuPy's
    function; SciPy 1.17 has none)."""
    ms = made(device)
    for fmt, want in [("csr", "csc"), ("csc", "csr"), ("coo", "coo")]:
        t = es.matrix_transpose(ms[fmt])
        assert t.format == want
        assert np.array_equal(host(t.toarray()), DENSE.T)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
def test_safely_cast_index_arrays(device, fmt):
    """SciPy's arrays per format ((indices, indptr), the coordinates,
    offsets) in the dtype asked for, the same objects where no cast is
    needed, SciPy's ValueError where a value does not fit and NumPy's
    for a float dtype."""
    m = made(device)[fmt]
    ref = {"csr": ss.csr_array, "csc": ss.csc_array, "coo": ss.coo_array,
           "dia": ss.dia_array}[fmt](DENSE)
    for t in (np.int8, np.int32, np.int64, ember.int64):
        got = es.safely_cast_index_arrays(m, t)
        want = ss.safely_cast_index_arrays(ref, np.dtype(t))
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, tuple) else (want,)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert host(g).dtype == w.dtype
            if fmt == "dia":   # SciPy keeps its own order of diagonals
                assert sorted(host(g).tolist()) == sorted(w.tolist())
            else:
                assert np.array_equal(host(g), w)
    default = es.safely_cast_index_arrays(m)
    assert all(host(g).dtype == np.int32 for g in
               (default if isinstance(default, tuple) else (default,)))
    same = es.safely_cast_index_arrays(m, np.int64)
    same = same if isinstance(same, tuple) else (same,)
    orig = {"csr": ("indices", "indptr"), "csc": ("indices", "indptr"),
            "coo": ("row", "col"), "dia": ("offsets",)}[fmt]
    for g, name in zip(same, orig):
        a = getattr(m, name)
        assert (g is a) == (a.dtype == ember.int64)
    with pytest.raises(ValueError, match="Invalid integer data type"):
        es.safely_cast_index_arrays(m, np.float32)


def test_safely_cast_too_large(device):
    """The ValueErrors: a shape that an index dtype cannot hold, with a
    value past it (int8 here); a big shape whose values fit is fine."""
    with ember.Device(device):
        coo = es.coo_matrix((ember.asarray([1.0]), (ember.asarray([300]),
                                                    ember.asarray([1]))),
                            shape=(301, 2))
        ok = es.coo_matrix((ember.asarray([1.0]), (ember.asarray([3]),
                                                   ember.asarray([1]))),
                           shape=(301, 2))
    ref = ss.coo_array(([1.0], ([300], [1])), shape=(301, 2))
    with pytest.raises(ValueError, match="coords values too large for "
                                         "dtype <class 'numpy.int8'>"):
        es.safely_cast_index_arrays(coo, np.int8)
    with pytest.raises(ValueError, match="coords values too large"):
        ss.safely_cast_index_arrays(ref, np.int8)
    assert [host(g).tolist() for g in
            es.safely_cast_index_arrays(ok, np.int8)] == [[3], [1]]
    # one element: its indptr and index fit int8 though the shape does not
    assert [host(g).tolist() for g in es.safely_cast_index_arrays(
        coo.tocsr(), np.int8)] == [[1], [0] * 301 + [1]]
    with ember.Device(device):
        wide = es.csr_matrix((ember.ones(200), (ember.zeros(200, dtype=int),
                                                ember.arange(200))),
                             shape=(1, 200))
    with pytest.raises(ValueError, match="indptr values too large for "
                                         "SuperLU"):
        es.safely_cast_index_arrays(wide, np.int8, msg="SuperLU")
    with pytest.raises(ValueError, match="indptr values too large"):
        ss.safely_cast_index_arrays(ss.csr_array(host(wide.toarray())),
                                    np.int8)
    with ember.Device(device):
        late = es.csr_matrix((ember.ones(2), (ember.zeros(2, dtype=int),
                                              ember.asarray([3, 150]))),
                             shape=(1, 200))
    with pytest.raises(ValueError, match="indices values too large"):
        es.safely_cast_index_arrays(late, np.int8)


BW = [np.zeros((0, 0)), np.zeros((3, 0)), np.eye(3), np.triu(np.ones((3, 5))),
      np.tril(np.ones((5, 3))), np.array([[0, 0], [1, 0]]),
      np.array([[0.0, 0], [np.nan, 0]]), np.ones((2, 2), bool),
      np.ones((2, 2), np.complex64), np.ones((2, 2), np.int8),
      np.ones((2, 2), np.uint64), np.ones((1, 1), np.float32)]


def test_bandwidth(device):
    """(lower, upper) as Python ints, as SciPy's, over its dtypes (NaN
    counts as nonzero), empty and strided inputs; batches as SciPy
    1.17's list of two arrays; its errors."""
    i, j = np.arange(7)[:, None], np.arange(9)[None, :]
    band = np.where((j - i <= 4) & (i - j <= 3),
                    np.random.default_rng(5).normal(size=(7, 9)), 0)
    cases = BW + [band, band.T, band[::2, ::-1], np.asfortranarray(band)]
    for a in cases:
        got = el.bandwidth(ember.asarray(a, device=device))
        want = sl.bandwidth(a)
        assert got == want and all(type(v) is int for v in got), (a, got)
    batch = np.stack([np.eye(3), np.triu(np.ones((3, 3))),
                      np.tril(np.ones((3, 3)), -1)])[None].repeat(2, 0)
    for b in (batch, np.zeros((2, 0, 3)), np.zeros((1, 1, 1, 3, 3))):
        got = el.bandwidth(ember.asarray(b, device=device))
        want = sl.bandwidth(b)
        assert isinstance(got, list) and len(got) == 2
        for g, w in zip(got, want):
            assert host(g).dtype == np.int64
            assert np.array_equal(host(g), w)
    with pytest.raises(ValueError, match="Input array must be a 2D"):
        el.bandwidth(ember.ones(3, device=device))
    with pytest.raises(ValueError, match="zero-size batches"):
        el.bandwidth(ember.zeros((0, 3, 3), device=device))
    with pytest.raises(TypeError, match="No matching signature.*float16"):
        el.bandwidth(ember.ones((2, 2), dtype=ember.float16, device=device))
    with pytest.raises(TypeError):   # SciPy's wording varies by version
        sl.bandwidth(np.ones((2, 2), np.float16))
    assert "bandwidth" in el.__all__
