"""ember's dtypes: names, attributes, equality with strings, NumPy dtypes and
types, dtype= parsing, and the promotion functions against NumPy's."""
import pickle

import numpy as np
import pytest

import ember

from helpers import run_python

NUMPY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                "uint32", "uint64", "float16", "float32", "float64", "complex64",
                "complex128"]
ALL_DTYPES = NUMPY_DTYPES + ["bfloat16"]


@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_attributes_match_numpy(name):
    d = getattr(ember, name)
    n = np.dtype(name)
    assert isinstance(d, ember.dtype)
    assert d.name == n.name
    assert d.itemsize == n.itemsize
    assert d.kind == n.kind
    assert d.char == n.char
    assert d.str == n.str
    assert d.alignment == n.alignment
    assert str(d) == str(n)
    assert repr(d) == repr(n)


@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_equal_to_strings_numpy_dtypes_and_types(name):
    d = getattr(ember, name)
    n = np.dtype(name)
    for other in (name, n.str, n.char, n, n.type):
        assert d == other, other
        assert not (d != other), other
    # And NumPy agrees, from its side.
    assert n == d
    assert np.dtype(d) == n
    assert d.dtype == n
    assert d.type is n.type
    assert ember.dtype(name) is d
    assert ember.dtype(n) is d
    assert ember.dtype(n.type) is d


def test_short_codes_and_python_types():
    assert ember.float32 == "f4" and ember.float32 == "<f4" and ember.float32 == "f"
    assert ember.int64 == "i8" and ember.int64 == int and ember.int64 == "int"
    assert ember.float64 == float and ember.complex128 == complex
    assert ember.bool_ == bool and ember.bool is ember.bool_
    assert ember.dtype(float) is ember.float64
    assert ember.dtype(int) is ember.int64
    assert ember.dtype(bool) is ember.bool_
    assert ember.dtype(complex) is ember.complex128
    assert ember.dtype(None) is ember.float64


def test_not_equal():
    assert ember.float32 != ember.float64
    assert ember.float32 != "float64"
    assert ember.float32 != np.float64
    assert ember.float32 != np.dtype("float16")
    assert ember.float32 != "no such type"
    assert ember.float32 != 3
    assert ember.float32 != None  # noqa: E711
    assert ember.int32 != np.dtype(">i4")  # other byte order


def test_hash_consistent_with_names():
    assert hash(ember.float32) == hash("float32")
    assert {ember.float32: 1}["float32"] == 1
    assert len({ember.float32, ember.dtype("f4"), ember.float32}) == 1


def test_bfloat16():
    d = ember.bfloat16
    assert d.name == "bfloat16" and d.itemsize == 2 and d.kind == "f"
    assert d == "bfloat16" and d != ember.float16 and d != "float16"
    with pytest.raises(TypeError, match="bfloat16"):
        d.dtype


def test_numpy_uses_ember_dtypes():
    a = np.zeros(3, dtype=ember.float32)
    assert a.dtype == np.float32
    assert np.array([1, 2], dtype=ember.int16).dtype == np.int16


def test_dtype_constructor_errors():
    with pytest.raises(TypeError, match="not understood"):
        ember.dtype("float33")
    with pytest.raises(TypeError, match="not supported"):
        ember.dtype("object")
    with pytest.raises(TypeError, match="not supported"):
        ember.dtype(np.dtype("U4"))
    with pytest.raises(TypeError):
        ember.dtype(3)
    with pytest.raises(TypeError, match="big-endian"):
        ember.dtype(">f4")


def test_calling_a_dtype_makes_a_numpy_scalar():
    x = ember.float32(1.5)
    assert type(x) is np.float32 and x == 1.5


def test_pickle():
    for name in ALL_DTYPES:
        d = getattr(ember, name)
        assert pickle.loads(pickle.dumps(d)) is d


def test_comparisons_do_not_import_numpy():
    code = ("import ember, sys\n"
            "assert ember.float32 == 'float32' and ember.float32 == 'f4'\n"
            "assert ember.dtype(float) is ember.float64\n"
            "assert ember.float32 != float\n"
            "assert 'numpy' not in sys.modules\n"
            "print('ok')\n")
    r = run_python("-c", code)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


@pytest.mark.parametrize("a", NUMPY_DTYPES)
@pytest.mark.parametrize("b", NUMPY_DTYPES)
def test_promote_types_and_can_cast(a, b):
    assert ember.promote_types(a, b) == np.promote_types(a, b)
    for casting in ("no", "equiv", "safe", "same_kind", "unsafe"):
        assert ember.can_cast(a, b, casting) == np.can_cast(a, b, casting), casting


def test_result_type_weak_scalars():
    cases = [
        (np.int8, 1), (np.uint8, 1), (np.int32, 1.5), (np.float32, 1.0),
        (np.float16, 1j), (np.int64, 2.0), (np.uint64, -1),
    ]
    for t, s in cases:
        x = ember.zeros(2, dtype=t, device="cpu")
        assert ember.result_type(x, s) == np.result_type(np.zeros(2, t), s), (t, s)
    assert ember.result_type(1, 2.0) == np.float64
    assert ember.result_type(ember.int8, ember.uint8) == np.int16
    assert ember.result_type(ember.float32, np.float64) == np.float64
    assert ember.result_type(1) == np.int64
    with pytest.raises(ValueError):
        ember.result_type()
    with pytest.raises(TypeError):
        ember.can_cast(1, ember.int8)
    with pytest.raises(ValueError, match="casting"):
        ember.can_cast(ember.int8, ember.int16, "bogus")
