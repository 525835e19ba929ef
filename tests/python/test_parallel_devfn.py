"""Python device functions (ember.cuda.jit(device=True)) as the operators,
transforms and predicates of ember.parallel, on every device, against
NumPy and Python loops; the bad operators each raise the right error, and
a repeated call translates and compiles nothing."""
import numpy as np
import pytest

import ember
import ember.jit
from ember import cuda
from helpers import assert_array_equal_np

P = ember.parallel

# Around the host chunk (65536) and the CUDA tiles (4096 to 8192 elements).
SIZES = [0, 1, 2, 1023, 8193, 65537]


@cuda.jit(device=True)
def absmax(a, b):
    # associative, not commutative: a tie goes to the right operand
    return a if abs(a) > abs(b) else b


@cuda.jit(device=True)
def pick(a, b):
    return absmax(a, b)   # a device function calling another one


@cuda.jit(device=True)
def compose(a0, a1, b0, b1):
    # affine maps x -> a0 * x + a1 composed left then right
    return a0 * b0, a1 * b0 + b1


@cuda.jit(device=True)
def axpy(a, b):
    return 2 * a + b


@cuda.jit(device=True)
def positive(a):
    return a > 0


@cuda.jit(device=True)
def halve(a, b):
    return a / b


@cuda.jit(device=True)
def scalar_of_pair(a0, a1, b0, b1):
    return a0 + b0


def py_absmax(a, b):
    return a if abs(a) > abs(b) else b


def py_scan(xs, f, init=None, exclusive=False):
    out, acc = [], init
    for x in xs:
        if exclusive:
            out.append(acc)
            acc = f(acc, x)
        else:
            acc = x if acc is None else f(acc, x)
            out.append(acc)
    return out


def ties(n, dtype, seed=0):
    """Values with many ties of magnitude and both signs, so an operator
    applied out of order (b op a) gives a different answer."""
    v = np.random.default_rng(seed).integers(-3, 4, n)
    return v.astype(dtype)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["int32", "float64"])
def test_inclusive_scan(device, n, dtype):
    x = ties(n, dtype, n)
    y = P.inclusive_scan(ember.asarray(x, device=device), absmax)
    assert_array_equal_np(y, np.array(py_scan(x, py_absmax), dtype=dtype),
                          device)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float32"])
def test_scan_dtypes_exclusive(device, dtype):
    x = ties(3001, dtype, 7)
    if dtype == "uint16":
        x = x + np.uint16(0)
    init = x.dtype.type(0)
    y = P.exclusive_scan(ember.asarray(x, device=device), pick, init=init)
    exp = np.array(py_scan(x, py_absmax, init=init, exclusive=True),
                   dtype=dtype)
    assert_array_equal_np(y, exp, device)


def test_scan_axis_2d(device):
    x = ties(3 * 1000, "float32", 3).reshape(3, 1000)
    y = P.inclusive_scan(ember.asarray(x, device=device), absmax, axis=1)
    exp = np.array([py_scan(r, py_absmax) for r in x], dtype=np.float32)
    assert_array_equal_np(y, exp, device)


@pytest.mark.parametrize("n", [1, 4097, 65537])
def test_reduce(device, n):
    x = ties(n, "float64", n + 1)
    r = P.reduce(ember.asarray(x, device=device), absmax)
    assert ember.asnumpy(r) == py_scan(x, py_absmax)[-1]
    # init goes in front; on an empty array it is the answer
    r = P.reduce(ember.asarray(x, device=device), absmax, init=-3.0)
    assert ember.asnumpy(r) == py_scan(x, py_absmax, init=-3.0)[-1]
    e = P.reduce(ember.asarray(x[:0], device=device), absmax, init=2.5)
    assert float(ember.asnumpy(e)) == 2.5


def test_noncommutative_float(device):
    # 2 * a + b is not associative, but on a 2-element array the one
    # combination shows whether a is the lower index
    x = np.array([1.0, 10.0])
    y = P.inclusive_scan(ember.asarray(x, device=device), axpy)
    assert_array_equal_np(y, np.array([1.0, 12.0]), device)


@pytest.mark.parametrize("n", [1, 2, 5000, 70001])
def test_tuple_affine(device, n):
    rng = np.random.default_rng(n)
    m = rng.choice([-1, 1], n).astype(np.int64)
    c = rng.integers(-5, 6, n).astype(np.int64)
    ym, yc = P.inclusive_scan((ember.asarray(m, device=device),
                               ember.asarray(c, device=device)), compose)
    em, ec, am, ac = [], [], 1, 0
    for mi, ci in zip(m, c):
        am, ac = am * mi, ac * mi + ci
        em.append(am)
        ec.append(ac)
    assert_array_equal_np(ym, np.array(em, dtype=np.int64), device)
    assert_array_equal_np(yc, np.array(ec, dtype=np.int64), device)
    # reduce of tuple values: the last element
    rm, rc = P.reduce((ember.asarray(m, device=device),
                       ember.asarray(c, device=device)), compose)
    assert (int(ember.asnumpy(rm)), int(ember.asnumpy(rc))) == (em[-1], ec[-1])


def test_by_key(device):
    rng = np.random.default_rng(5)
    keys = np.repeat(np.arange(40), rng.integers(1, 300, 40)).astype(np.int32)
    vals = ties(keys.size, "float32", 9)
    k, v = ember.asarray(keys, device=device), ember.asarray(vals, device=device)
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    ends = np.r_[starts[1:], keys.size]
    # scan_by_key, inclusive and exclusive with init
    exp = np.concatenate([py_scan(vals[s:e], py_absmax)
                          for s, e in zip(starts, ends)]).astype(np.float32)
    assert_array_equal_np(P.scan_by_key(k, v, absmax), exp, device)
    exp = np.concatenate([py_scan(vals[s:e], py_absmax, init=0.5,
                                  exclusive=True)
                          for s, e in zip(starts, ends)]).astype(np.float32)
    assert_array_equal_np(P.scan_by_key(k, v, absmax, init=0.5,
                                        exclusive=True), exp, device)
    # reduce_by_key
    uk, rv = P.reduce_by_key(k, v, absmax)
    assert_array_equal_np(uk, keys[starts], device)
    exp = np.array([py_scan(vals[s:e], py_absmax)[-1]
                    for s, e in zip(starts, ends)], dtype=np.float32)
    assert_array_equal_np(rv, exp, device)


def test_segmented_reduce(device):
    vals = ties(10000, "int64", 11)
    off = np.array([0, 0, 1, 17, 17, 4000, 9999, 10000], dtype=np.int64)
    r = P.segmented_reduce(ember.asarray(vals, device=device),
                           ember.asarray(off, device=device), absmax, 0)
    exp = np.array([py_scan(vals[s:e], py_absmax, init=0)[-1] if e > s else 0
                    for s, e in zip(off[:-1], off[1:])], dtype=np.int64)
    assert_array_equal_np(r, exp, device)


def test_transform_two_inputs(device):
    a = np.arange(-500, 500, dtype=np.int32)
    b = np.linspace(-2, 2, 1000)
    y = P.transform(axpy, ember.asarray(a, device=device),
                    ember.asarray(b, device=device))
    # the common dtype float64 in, the function's result type out
    assert_array_equal_np(y, 2 * a.astype(np.float64) + b, device)
    # int inputs: the result is the function's integer type
    y = P.transform(axpy, ember.asarray(a, device=device),
                    ember.asarray(a, device=device))
    assert_array_equal_np(y, (3 * a).astype(np.int32), device)
    # dtype= converts the result; a bool predicate gives bool
    y = P.transform(axpy, ember.asarray(b, device=device),
                    ember.asarray(b, device=device), dtype="float32")
    assert_array_equal_np(y, (3 * b).astype(np.float32), device)
    y = P.transform(positive, ember.asarray(b, device=device))
    assert_array_equal_np(y, b > 0, device)


def test_select_partition(device):
    x = np.linspace(-3, 3, 5001).astype(np.float32)
    s = P.select(ember.asarray(x, device=device), positive)
    assert_array_equal_np(s, x[x > 0], device)
    t, f = P.partition(ember.asarray(x, device=device), positive)
    assert_array_equal_np(t, x[x > 0], device)
    assert_array_equal_np(f, x[~(x > 0)], device)


def test_second_call_translates_and_compiles_nothing(device, monkeypatch):
    @cuda.jit(device=True)
    def fresh(a, b):
        return a if a < b else b

    x = ember.asarray(np.arange(5000, 0, -1, dtype=np.int64), device=device)
    first = P.inclusive_scan(x, fresh)
    stats = ember._ember._kernel_cache_stats()
    calls = []
    real = ember.jit.translate_device

    def counting(*a):
        calls.append(a)
        return real(*a)

    monkeypatch.setattr(ember.jit, "translate_device", counting)
    second = P.inclusive_scan(x, fresh)
    after = ember._ember._kernel_cache_stats()
    assert calls == []
    assert after["compiles"] == stats["compiles"]
    assert after["disk_hits"] == stats["disk_hits"]
    assert_array_equal_np(second, ember.asnumpy(first), device)
    assert_array_equal_np(first, np.minimum.accumulate(
        np.arange(5000, 0, -1)), device)
    # another dtype is another translation
    P.inclusive_scan(ember.asarray(np.arange(3, dtype=np.int16),
                                   device=device), fresh)
    assert len(calls) == 1


def test_two_functions_same_expression_shape(device):
    # two device functions of one name and signature differ in their
    # definitions only: each must get its own kernel
    def make(k):
        if k:
            @cuda.jit(device=True)
            def op(a, b):
                return a + b
        else:
            @cuda.jit(device=True)
            def op(a, b):
                return a * b
        return op
    x = ember.asarray(np.array([1, 2, 3, 4], dtype=np.int64), device=device)
    assert_array_equal_np(P.inclusive_scan(x, make(1)),
                          np.array([1, 3, 6, 10]), device)
    assert_array_equal_np(P.inclusive_scan(x, make(0)),
                          np.array([1, 2, 6, 24]), device)


def test_result_type_mismatch(device):
    x = ember.asarray(np.arange(10, dtype=np.int64), device=device)
    with pytest.raises(TypeError, match=r"'halve' returns float64.*int64"):
        P.inclusive_scan(x, halve)
    with pytest.raises(TypeError, match=r"'halve' returns float64.*int64"):
        P.reduce_by_key(x, x, halve)
    with pytest.raises(TypeError, match=r"'halve' returns float64.*int32"):
        P.transform(halve, x, x, dtype="int32")
    with pytest.raises(TypeError, match=r"scalar_of_pair.*tuple of 2"):
        P.inclusive_scan((x, x), scalar_of_pair)


def test_plain_function_and_kernel_refused(device):
    x = ember.asarray(np.arange(10, dtype=np.float32), device=device)

    def plain(a, b):
        return a + b

    for call in (lambda f: P.inclusive_scan(x, f),
                 lambda f: P.reduce(x, f),
                 lambda f: P.transform(f, x, x),
                 lambda f: P.select(x, f),
                 lambda f: P.scan_by_key(x, x, f),
                 lambda f: P.inclusive_scan((x, x), f)):
        with pytest.raises(TypeError,
                           match=r"'plain' is not a device function.*"
                                 r"cuda\.jit\(device=True\).*string"):
            call(plain)

    @cuda.jit
    def kern(a, b):
        pass

    with pytest.raises(TypeError, match="'kern' is not a device function"):
        P.inclusive_scan(x, kern)


def test_other_errors(device):
    x = ember.asarray(np.arange(10, dtype=np.float32), device=device)
    with pytest.raises(TypeError, match="'absmax'.*needs an init value"):
        P.exclusive_scan(x, absmax)
    with pytest.raises(NotImplementedError, match="complex64"):
        P.inclusive_scan(ember.asarray(np.ones(3, np.complex64),
                                       device=device), absmax)
    with pytest.raises(NotImplementedError, match="float16"):
        P.inclusive_scan(ember.asarray(np.ones(3, np.float16),
                                       device=device), absmax)
    # a function of the wrong arity is the translator's CompileError
    with pytest.raises(ember.CompileError, match="positive"):
        P.inclusive_scan(x, positive)


def test_translations_compile_with_nvrtc(need_nvrtc):
    # The operator expressions as the algorithms paste them, after the
    # translations, compile with NVRTC (the scan/transform kernels around
    # them are compiled in tests/c/test_par_prelude.c).
    for f, codes, body in [
            (absmax, ("f4", "f4"), "x[0] = NAME(x[0], x[1]);"),
            (pick, ("i8", "i8"), "x[0] = (float)NAME(1LL, 2LL);"),
            (compose, ("i8",) * 4,
             "x[0] = (float)NAME(1LL, 2LL, 3LL, 4LL).f1;"),
            (axpy, ("f8", "f8"), "x[0] = (float)NAME(1.0, 2.0);"),
            (positive, ("f4",), "x[0] = NAME(x[1]) ? 1.0f : 0.0f;")]:
        src, name, _ = ember.jit.translate_device(f.py_func, codes)
        kern = ('%s\nextern "C" __global__ void k(float *x) { %s }\n'
                % (src, body.replace("NAME", name)))
        ptx = cuda.Program(kern, name="devfn.cu").compile("ptx", arch=90)
        assert b".entry" in ptx.code
