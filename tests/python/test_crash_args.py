"""Argument checks at every entry point (issue 28, 2): what NumPy raises,
never a crash and never SystemError. Each case is compared with NumPy's
own exception class; the partition cases used to segfault, so they run in
a child process first."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np


class BadIndex:
    def __index__(self):
        raise RuntimeError("boom from __index__")


def np_exc(f):
    try:
        f()
    except Exception as e:  # the class NumPy raises is the expectation
        return type(e)
    return None


def same_exception(f_np, f_em):
    want = np_exc(f_np)
    assert want is not None, "NumPy accepted the call"
    with pytest.raises(Exception) as info:
        f_em()
    got = info.type
    assert not issubclass(got, SystemError), info.value
    assert issubclass(got, want) or issubclass(want, got), (got, want, info.value)


KTH_CASES = {
    "float array": lambda m: m.asarray([1.5]),
    "2-D array": lambda m: m.asarray([[1]]),
    "bool array": lambda m: m.asarray([True]),
    "bool": lambda m: True,
    "bool list": lambda m: [True],
    "float": lambda m: 1.5,
    "empty list": lambda m: [],
    "huge": lambda m: 2**70,
    "str": lambda m: "a",
    "None": lambda m: None,
}


@pytest.mark.parametrize("how", ["partition", "argpartition", "method",
                                 "argmethod"])
@pytest.mark.parametrize("case", sorted(KTH_CASES))
def test_partition_bad_kth(device, how, case):
    x = np.arange(10.0)
    e = ember.asarray(x, device=device)

    def call(mod, a):
        kth = KTH_CASES[case](mod)
        if how == "method":
            return a.copy().partition(kth)
        if how == "argmethod":
            return a.argpartition(kth)
        return getattr(mod, how)(a, kth)
    # A crash here used to take the test process down: check in a child.
    code = textwrap.dedent(f"""
        import ember, numpy as np
        import test_crash_args as t
        e = ember.asarray(np.arange(10.0), device={device!r})
        try:
            t.KTH_CASES[{case!r}]
        except KeyError:
            raise SystemExit(3)
        kth = t.KTH_CASES[{case!r}](ember)
        try:
            {'e.copy().partition(kth)' if how == 'method' else
             'e.argpartition(kth)' if how == 'argmethod' else
             f'ember.{how}(e, kth)'}
        except (TypeError, ValueError):
            pass
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True,
                       text=True, timeout=120, cwd=__file__.rsplit("/", 1)[0])
    assert r.returncode == 0, r.stderr
    same_exception(lambda: call(np, x), lambda: call(ember, e))


def test_partition_good_kth(device):
    x = np.array([5.0, 1, 4, 2, 3, 0])
    e = ember.asarray(x, device=device)
    for kth in (2, [1, 3], np.array([2]), ember.asarray([1, 4], device=device),
                ember.asarray(3, device=device), np.uint8(1)):
        k = ember.asnumpy(kth) if isinstance(kth, ember.ndarray) else kth
        got = ember.asnumpy(ember.partition(e, kth))
        want = np.partition(x, k)
        for j in np.atleast_1d(k):
            assert got[j] == want[j]
        assert sorted(got) == sorted(x)


@pytest.mark.parametrize("name,f_np,f_em", [
    ("linspace num", lambda X: np.linspace(0, 1, num=BadIndex()),
     lambda E: ember.linspace(0, 1, num=BadIndex())),
    ("split axis", lambda X: np.split(X, 2, axis=BadIndex()),
     lambda E: ember.split(E, 2, axis=BadIndex())),
    ("stack axis", lambda X: np.stack([X, X], axis=BadIndex()),
     lambda E: ember.stack([E, E], axis=BadIndex())),
    ("concatenate axis", lambda X: np.concatenate([X], axis=BadIndex()),
     lambda E: ember.concatenate([E], axis=BadIndex())),
    ("eye", lambda X: np.eye(BadIndex()), lambda E: ember.eye(BadIndex())),
    ("diagonal", lambda X: np.diagonal(X.reshape(2, 5), BadIndex()),
     lambda E: ember.diagonal(E.reshape(2, 5), BadIndex())),
    ("sum axis", lambda X: np.sum(X, axis=BadIndex()),
     lambda E: ember.sum(E, axis=BadIndex())),
    ("argmax axis", lambda X: np.argmax(X, axis=BadIndex()),
     lambda E: ember.argmax(E, axis=BadIndex())),
])
def test_index_callback_raises(device, name, f_np, f_em):
    """__index__ raising: its own exception, not SystemError."""
    X = np.arange(10.0)
    E = ember.asarray(X, device=device)
    with pytest.raises(RuntimeError, match="boom from __index__"):
        f_np(X)
    with pytest.raises(RuntimeError, match="boom from __index__"):
        f_em(E)


@pytest.mark.parametrize("name,f_np,f_em", [
    ("linspace num", lambda: np.linspace(0, 1, 2**64),
     lambda d: ember.linspace(0, 1, 2**64, device=d)),
    ("zeros", lambda: np.zeros(2**64), lambda d: ember.zeros(2**64, device=d)),
    ("zeros tuple", lambda: np.zeros((2**63,)),
     lambda d: ember.zeros((2**63,), device=d)),
    ("ones product", lambda: np.ones((2**32, 2**32)),
     lambda d: ember.ones((2**32, 2**32), device=d)),
    ("eye", lambda: np.eye(2**70), lambda d: ember.eye(2**70, device=d)),
    ("reshape", lambda: np.arange(3).reshape(2**64),
     lambda d: ember.arange(3, device=d).reshape(2**64)),
])
def test_sizes_past_int64_are_valueerror(device, name, f_np, f_em):
    with pytest.raises(ValueError):
        f_np()
    with pytest.raises(ValueError):
        f_em(device)


@pytest.mark.parametrize("fn", ["sum", "max", "argmax", "cumsum", "prod"])
def test_reduction_axis_true(device, fn):
    X = np.arange(10.0)
    E = ember.asarray(X, device=device)
    with pytest.raises(TypeError):
        getattr(np, fn)(X, axis=True)
    with pytest.raises(TypeError):
        getattr(ember, fn)(E, axis=True)
    with pytest.raises(TypeError):
        getattr(E, fn)(axis=True)
    # an int axis still works
    assert_array_equal_np(getattr(ember, fn)(E, axis=0), getattr(np, fn)(X, axis=0),
                          device)


def test_sum_axis_tuple_with_bool(device):
    E = ember.ones((2, 3), device=device)
    with pytest.raises(TypeError):
        np.sum(np.ones((2, 3)), axis=(0, True))
    with pytest.raises(TypeError):
        ember.sum(E, axis=(0, True))


def test_value_out_of_dtype_stays_overflowerror(device):
    """The ValueError mapping is for sizes; a value past a dtype's range
    is still NumPy's OverflowError."""
    with pytest.raises(OverflowError, match="300 out of bounds for int8"):
        ember.asarray([1, 300], dtype=ember.int8, device=device)


class BigLen:
    def __len__(self):
        return 2**62

    def __getitem__(self, i):
        raise IndexError(i)


@pytest.mark.parametrize("call", [
    lambda m, d: m.asarray(BigLen(), **d),
    lambda m, d: m.array([BigLen()], **d),
])
def test_huge_len(device, call):
    same_exception(lambda: call(np, {}), lambda: call(ember, {"device": device}))


# ---- found by the fuzzer (tests/fuzz) ----------------------------------------

def test_format_spec_not_str(device):
    for a in (ember.asarray([1.0, 2.0], device=device), ember.asarray(1.5, device=device)):
        with pytest.raises(TypeError):
            a.__format__(0)
    assert format(ember.asarray(1.5, device=device), ".2f") == "1.50"


def test_unowned_memory_huge_device_id():
    """device_id past a C long was SystemError (the -1 check left the
    OverflowError set)."""
    with pytest.raises((OverflowError, ValueError, TypeError)) as info:
        ember.UnownedMemory(0, 8, None, 2**70)
    assert not isinstance(info.value, SystemError)


def test_device_array_bad_strides(device):
    for strides in (("a",), (2**70,)):
        with pytest.raises((TypeError, OverflowError, ValueError,
                            NotImplementedError)) as info:
            with ember.Device(device):
                ember.cuda.device_array((2,), strides=strides)
        assert not isinstance(info.value, SystemError)


def test_event_record_huge_int_stream(device):
    with ember.Device(device):
        e = ember.Event()
        with pytest.raises(TypeError):
            e.record(2**70)


def test_choose_too_many_choices(device):
    """33 choices: the error path released 33 entries of a 32-entry array
    (UBSan: index 32 out of bounds; a wild Py_DECREF without it). Found by
    the fuzzer under make asan."""
    a = ember.asarray(np.zeros(5, np.int64), device=device)
    with pytest.raises(ValueError, match="choices"):
        a.choose(np.ones(33, np.int32))
    with pytest.raises(ValueError, match="choices"):
        ember.choose(a, [np.ones(5)] * 33)
    assert_array_equal_np(ember.choose(a, [np.arange(5.0), np.ones(5)]),
                          np.choose(np.zeros(5, np.int64), [np.arange(5.0), np.ones(5)]),
                          device)


@pytest.mark.parametrize("reps", [(2**62,), 2**62, 2**63 - 1])
def test_repeat_total_past_int64(device, reps):
    """The repeat total wrapped the host index buffer's size to a small
    one, then filled it (signed overflow under UBSan, a heap overflow
    without it). Found by the fuzzer under make asan."""
    with pytest.raises(ValueError):
        np.repeat(0, reps)
    with pytest.raises(ValueError):
        ember.repeat(ember.asarray(0, device=device), reps)
    with pytest.raises(ValueError):
        ember.repeat(ember.asarray([1, 2], device=device), (2**62, 2**62))
    assert_array_equal_np(ember.repeat(ember.asarray([1, 2], device=device), (2, 3)),
                          np.repeat([1, 2], (2, 3)), device)


def test_round_int_min_decimals(device):
    """decimals=-2**31 negated an int (UBSan; found by the fuzzer)."""
    a = ember.asarray(np.ones(7, np.uint8), device=device)
    assert_array_equal_np(ember.round(a, -(2**31)), np.round(np.ones(7, np.uint8), -(2**31)),
                          device)
    f = ember.asarray(np.array([1.5, 2.5]), device=device)
    assert_array_equal_np(ember.round(f, -(2**31)), np.round(np.array([1.5, 2.5]), -(2**31)),
                          device)
