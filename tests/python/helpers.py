"""Helpers shared by the tests: moving NumPy arrays through ember memory and
comparing with NumPy (values, dtype and shape)."""
import os
import subprocess
import sys

import numpy as np

import ember


def to_device(a, device):
    """A new ember.Buffer on device holding the bytes of array a."""
    a = np.ascontiguousarray(a)
    buf = ember.alloc(a.nbytes, device=device)
    buf.copy_from_host(a)
    return buf


def to_numpy(buf, dtype, shape=None):
    """The contents of buf as a NumPy array of dtype (and shape)."""
    out = np.empty(buf.nbytes // np.dtype(dtype).itemsize, dtype=dtype)
    buf.copy_to_host(out)
    return out if shape is None else out.reshape(shape)


def assert_array_equal(actual, expected):
    """Same dtype, same shape, same values."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_array_equal(actual, expected)


def run_python(*args):
    """Run `python args...` in a fresh interpreter that finds this ember."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          env=env, timeout=300)


def assert_array_equal_np(x, expected, device=None):
    """x is an ember array equal to `expected` (a NumPy array, or anything
    numpy.asarray takes): same dtype, same shape, same values, with NaN equal
    to NaN and the sign of zeros compared; on `device` when given."""
    assert isinstance(x, ember.ndarray), type(x)
    expected = np.asarray(expected)
    assert x.dtype == expected.dtype, (x.dtype, expected.dtype)
    assert x.shape == expected.shape, (x.shape, expected.shape)
    assert x.ndim == expected.ndim and x.size == expected.size
    if device is not None:
        assert x.device == ember.Device(device), (x.device, device)
    actual = ember.asnumpy(x)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected, strict=True)
    if expected.dtype.kind in "fc":
        parts = [(actual, expected)] if expected.dtype.kind == "f" else [
            (actual.real, expected.real), (actual.imag, expected.imag)]
        for a, b in parts:
            zero = b == 0      # NaN's sign bit means nothing; a zero's does
            np.testing.assert_array_equal(np.signbit(a[zero]), np.signbit(b[zero]),
                                          err_msg="signs of zeros differ")


def in_threads(items, fn):
    """fn(item) on a thread each, all at once; the results in items' order,
    the first error raised."""
    import threading
    out, err = [None] * len(items), []

    def work(i):
        try:
            out[i] = fn(items[i])
        except BaseException as e:   # re-raised in the caller below
            err.append(e)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(len(items))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if err:
        raise err[0]
    return out


def random_values(rng, shape, dtype):
    """Standard normal values of dtype (real and imaginary parts drawn
    apart for a complex one)."""
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def assert_close_scaled(got, want, tol, rtol=0):
    """got (ember or NumPy) has want's dtype and shape, and its values
    within tol times want's largest magnitude (at least 1), plus rtol."""
    got = ember.asnumpy(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, \
        (got.dtype, want.dtype, got.shape, want.shape)
    scale = max(np.abs(want).max(initial=0), 1.0)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=tol * scale)
