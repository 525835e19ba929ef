"""CuPy's testing helpers (cupy.testing) for ember: assertions that take
ember or NumPy arrays, and the decorators CuPy's own tests are written
with, so such tests run against ember after one import change.

The decorators call the test twice, once with xp=numpy and once with
xp=ember, and compare what the two calls return (values, and dtypes unless
type_check=False). The dtype decorators run the test once per dtype. Each
removes its keyword from the test's signature, so pytest does not take it
for a fixture."""
import functools
import inspect

import numpy

import ember

__all__ = [
    "assert_allclose", "assert_array_equal", "assert_array_almost_equal",
    "assert_array_less", "assert_array_list_equal",
    "numpy_cupy_allclose", "numpy_cupy_array_equal",
    "numpy_cupy_array_almost_equal", "numpy_cupy_array_less",
    "numpy_cupy_equal", "numpy_cupy_array_list_equal",
    "for_all_dtypes", "for_float_dtypes", "for_int_dtypes",
    "for_signed_dtypes", "for_unsigned_dtypes", "for_complex_dtypes",
    "for_dtypes", "for_orders", "for_CF_orders",
    "shaped_arange", "shaped_reverse_arange", "shaped_random",
]


def _host(a):
    """NumPy's view of a, whatever holds it (ember arrays are copied)."""
    if isinstance(a, ember.ndarray):
        return ember.asnumpy(a)
    if isinstance(a, (list, tuple)):
        return type(a)(_host(x) for x in a)
    return a


# ---- assertions --------------------------------------------------------

def assert_allclose(actual, desired, rtol=1e-7, atol=0, err_msg="",
                    verbose=True):
    numpy.testing.assert_allclose(_host(actual), _host(desired), rtol=rtol,
                                  atol=atol, err_msg=err_msg, verbose=verbose)


def assert_array_equal(x, y, err_msg="", verbose=True, strides_check=False,
                       **kwargs):
    numpy.testing.assert_array_equal(_host(x), _host(y), err_msg=err_msg,
                                     verbose=verbose, **kwargs)
    if strides_check and x.strides != y.strides:
        raise AssertionError("strides differ: %s and %s\n%s"
                             % (x.strides, y.strides, err_msg))


def assert_array_almost_equal(x, y, decimal=6, err_msg="", verbose=True):
    numpy.testing.assert_array_almost_equal(_host(x), _host(y),
                                            decimal=decimal, err_msg=err_msg,
                                            verbose=verbose)


def assert_array_less(x, y, err_msg="", verbose=True):
    numpy.testing.assert_array_less(_host(x), _host(y), err_msg=err_msg,
                                    verbose=verbose)


def assert_array_list_equal(xlist, ylist, err_msg="", verbose=True):
    if len(xlist) != len(ylist):
        raise AssertionError("list lengths differ: %d and %d"
                             % (len(xlist), len(ylist)))
    for i, (x, y) in enumerate(zip(xlist, ylist)):
        numpy.testing.assert_array_equal(
            _host(x), _host(y), err_msg="%s (item %d)" % (err_msg, i),
            verbose=verbose)


# ---- numpy_cupy_* decorators -------------------------------------------

def _without(fn, *names):
    """fn's signature less the keywords a decorator supplies."""
    sig = inspect.signature(fn)
    return sig.replace(parameters=[p for n, p in sig.parameters.items()
                                   if n not in names])


def _call(fn, args, kw, name, xp):
    kw = dict(kw)
    kw[name] = xp
    try:
        return fn(*args, **kw), None
    except Exception as e:  # compared with the other module's outcome
        return None, e


def _compare(fn, name, type_check, accept_error, check, is_array=True):
    @functools.wraps(fn)
    def test(*args, **kw):
        e_res, e_err = _call(fn, args, kw, name, ember)
        n_res, n_err = _call(fn, args, kw, name, numpy)
        if e_err is not None or n_err is not None:
            if e_err is not None and n_err is not None and accept_error and (
                    accept_error is True or isinstance(e_err, accept_error)):
                if not isinstance(e_err, type(n_err)) and not isinstance(
                        n_err, type(e_err)):
                    raise AssertionError(
                        "ember raised %s, NumPy %s" % (
                            type(e_err).__name__, type(n_err).__name__)
                    ) from e_err
                return
            raise (e_err if e_err is not None else n_err)
        if is_array:
            if isinstance(e_res, numpy.ndarray):
                raise AssertionError(
                    "ember returned a NumPy array: the work ran on the host")
            if isinstance(n_res, numpy.ndarray) and not isinstance(
                    e_res, (ember.ndarray, numpy.generic, int, float, complex,
                            bool)):
                raise AssertionError(
                    "NumPy returned an ndarray, ember %s" % type(e_res).__name__)
            if type_check:
                ed = getattr(e_res, "dtype", None)
                nd = getattr(n_res, "dtype", None)
                if ed is not None and nd is not None and \
                        numpy.dtype(str(ed)) != numpy.dtype(nd):
                    raise AssertionError("dtypes differ: ember %s, NumPy %s"
                                         % (ed, nd))
        check(e_res, n_res)
    test.__signature__ = _without(fn, name)
    return test


def numpy_cupy_allclose(rtol=1e-7, atol=0, err_msg="", verbose=True,
                        name="xp", type_check=True, accept_error=False,
                        contiguous_check=True, **_scipy):
    """Run the test with xp=numpy and xp=ember; compare with allclose.
    rtol/atol may be dicts keyed by dtype (with 'default'), as CuPy's."""
    def pick(tol, res):
        if not isinstance(tol, dict):
            return tol
        dt = numpy.dtype(str(getattr(res, "dtype", "float64")))
        for k, v in tol.items():
            if k != "default" and numpy.dtype(k) == dt:
                return v
        return tol.get("default", 0)

    def check(e, n):
        assert_allclose(e, n, pick(rtol, n), pick(atol, n), err_msg, verbose)

    return lambda fn: _compare(fn, name, type_check, accept_error, check)


def numpy_cupy_array_equal(err_msg="", verbose=True, name="xp",
                           type_check=True, accept_error=False,
                           strides_check=False, **_scipy):
    def check(e, n):
        assert_array_equal(e, n, err_msg, verbose)
    return lambda fn: _compare(fn, name, type_check, accept_error, check)


def numpy_cupy_array_almost_equal(decimal=6, err_msg="", verbose=True,
                                  name="xp", type_check=True,
                                  accept_error=False, **_scipy):
    def check(e, n):
        assert_array_almost_equal(e, n, decimal, err_msg, verbose)
    return lambda fn: _compare(fn, name, type_check, accept_error, check)


def numpy_cupy_array_less(err_msg="", verbose=True, name="xp",
                          type_check=True, accept_error=False, **_scipy):
    def check(e, n):
        assert_array_less(e, n, err_msg, verbose)
    return lambda fn: _compare(fn, name, type_check, accept_error, check)


def numpy_cupy_array_list_equal(err_msg="", verbose=True, name="xp",
                                **_scipy):
    def check(e, n):
        assert_array_list_equal(e, n, err_msg, verbose)
    return lambda fn: _compare(fn, name, False, False, check, is_array=False)


def numpy_cupy_equal(name="xp", **_scipy):
    """For tests returning plain Python values (shapes, bools, lists)."""
    def check(e, n):
        if e != n:
            raise AssertionError("ember gave %r, NumPy %r" % (e, n))
    return lambda fn: _compare(fn, name, False, False, check, is_array=False)


# ---- dtype and order decorators ------------------------------------------

_float = (numpy.float16, numpy.float32, numpy.float64)
_signed = (numpy.int8, numpy.int16, numpy.int32, numpy.int64)
_unsigned = (numpy.uint8, numpy.uint16, numpy.uint32, numpy.uint64)
_complex = (numpy.complex64, numpy.complex128)


def for_dtypes(dtypes, name="dtype"):
    """Run the test once for each dtype, passed as the keyword name; a
    failure names the dtype."""
    def deco(fn):
        @functools.wraps(fn)
        def test(*args, **kw):
            for dt in dtypes:
                kw[name] = numpy.dtype(dt).type
                try:
                    fn(*args, **kw)
                except Exception as e:
                    if hasattr(e, "add_note"):   # Python 3.11+
                        e.add_note("(%s=%s)" % (name, numpy.dtype(dt).name))
                    raise
        test.__signature__ = _without(fn, name)
        return test
    return deco


def _ints(no_bool):
    return (() if no_bool else (numpy.bool_,)) + _signed + _unsigned


def for_all_dtypes(name="dtype", no_float16=False, no_bool=False,
                   no_complex=False):
    floats = _float[1:] if no_float16 else _float
    return for_dtypes(_ints(no_bool) + floats
                      + (() if no_complex else _complex), name)


def for_float_dtypes(name="dtype", no_float16=False):
    return for_dtypes(_float[1:] if no_float16 else _float, name)


def for_int_dtypes(name="dtype", no_bool=False):
    return for_dtypes(_ints(no_bool), name)


def for_signed_dtypes(name="dtype"):
    return for_dtypes(_signed, name)


def for_unsigned_dtypes(name="dtype"):
    return for_dtypes(_unsigned, name)


def for_complex_dtypes(name="dtype"):
    return for_dtypes(_complex, name)


def for_orders(orders, name="order"):
    def deco(fn):
        @functools.wraps(fn)
        def test(*args, **kw):
            for o in orders:
                kw[name] = o
                fn(*args, **kw)
        test.__signature__ = _without(fn, name)
        return test
    return deco


def for_CF_orders(name="order"):
    return for_orders(("C", "F", "c", "f"), name)


# ---- arrays --------------------------------------------------------------

def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _from_host(a, xp, dtype, order):
    a = numpy.asarray(a).astype(dtype)
    if order in ("F", "f"):
        a = numpy.asfortranarray(a)
    return a if xp is numpy else xp.asarray(a)


def shaped_arange(shape, xp=ember, dtype=numpy.float32, order="C"):
    """1, 2, 3, ... in the shape (bools alternate False, True; complex
    numbers are k + kj), as CuPy's."""
    dtype = numpy.dtype(dtype)
    a = numpy.arange(1, _prod(shape) + 1)
    if dtype.kind == "b":
        a = a % 2 == 0
    elif dtype.kind == "c":
        a = a + a * 1j
    return _from_host(a.reshape(shape), xp, dtype, order)


def shaped_reverse_arange(shape, xp=ember, dtype=numpy.float32):
    """size, size-1, ..., 1 in the shape (bools alternate)."""
    dtype = numpy.dtype(dtype)
    n = _prod(shape)
    a = numpy.arange(n, 0, -1)
    if dtype.kind == "b":
        a = a % 2 == 0
    elif dtype.kind == "c":
        a = a + a * 1j
    return _from_host(a.reshape(shape), xp, dtype, "C")


def shaped_random(shape, xp=ember, dtype=numpy.float32, scale=10, seed=0,
                  order="C"):
    """Values in [0, scale) from NumPy's RandomState(seed), so xp=numpy and
    xp=ember get the same values (bools: 0 or 1)."""
    dtype = numpy.dtype(dtype)
    rs = numpy.random.RandomState(seed)
    if dtype.kind == "b":
        a = rs.randint(2, size=shape)
    elif dtype.kind == "c":
        a = rs.rand(*shape) + 1j * rs.rand(*shape)
        a = a * scale
    else:
        a = rs.rand(*shape) * scale
    return _from_host(a, xp, dtype, order)
