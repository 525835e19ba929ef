"""ember.jit's translator on its own: signatures, the types it infers, the
parameters it writes (docs/jit-design.md), and the CompileErrors of
unsupported Python, each naming the construct and the file:line."""
import math
import re

import numpy as np
import pytest

import ember
from ember import cuda
from ember.jit import parse_signature, parse_signature_full, translate, translate_device
from conftest import HAVE_NVRTC

HERE = __file__.rstrip("c")


def line_of(f, text):
    """The file line of the first line of f's source containing text."""
    import inspect
    lines, first = inspect.getsourcelines(f)
    for k, ln in enumerate(lines):
        if k and text in ln:
            return first + k
    raise AssertionError(text)


def decl_type(source, name):
    """The C type a local variable is declared with."""
    m = re.search(r"^\s+([a-z_0-9 ]+?) %s = " % re.escape(name), source, re.M)
    assert m, (name, source[-1500:])
    return m.group(1)


def kernel_text(t):
    return t.source[t.source.index('extern "C"'):]


# ---- signatures ---------------------------------------------------------------------

def test_parse_signature():
    assert parse_signature("void(float32[:], float32[:,:], int32)") == ("Af4_1A", "Af4_2A", "i4")
    assert parse_signature("void(float32[::1], float64[:, ::1], int64[:,:,:])") == (
        "Af4_1C", "Af8_2C", "Ai8_3A")
    assert parse_signature("(uint8[:], boolean, complex64, f8, float16[:])") == (
        "Au1_1A", "b1", "c8", "f8", "Af2_1A")
    assert parse_signature("void()") == ()
    assert parse_signature_full("float32(float32, int32)") == ("f4", ("f4", "i4"))
    for bad in ["float32[:]", "void(float33[:])", "void(float32[2])", "void(int32", 5]:
        with pytest.raises((ValueError, TypeError)):
            parse_signature(bad)


def test_bad_argcodes_and_target():
    def k(a):
        a[0] = 1
    with pytest.raises(ValueError, match="Ax4"):
        translate(k, ["Ax4_1C"])
    with pytest.raises(ValueError, match="target"):
        translate(k, ["Af4_1C"], target="opencl")
    with pytest.raises(ember.CompileError, match=r"takes 1 arguments, got 2"):
        translate(k, ["Af4_1C", "i4"])
    with pytest.raises(TypeError):
        translate(k, "Af4_1C")


# ---- parameters and checks ------------------------------------------------------------

def vadd(a, b, out, n):
    i = cuda.grid(1)
    if i < n:
        out[i] = a[i] + b[i]


def test_parameters_and_bounds_record():
    t = translate(vadd, ["Af4_1C", "Af4_1A", "Af8_1C", "i4"], target="cuda")
    head = kernel_text(t).split("\n")[0]
    assert head == ('extern "C" __global__ void vadd(float *a_data, long long a_shape0, '
                    'long long a_stride0, float *b_data, long long b_shape0, '
                    'long long b_stride0, double *out_data, '
                    'long long out_shape0, long long out_stride0, int n)')
    # C layout: the last stride is known to be 1
    assert "(a_data, a_shape0, 1, i)" in t.source and "(b_data, b_shape0, b_stride0, i)" in t.source
    assert t.name == "vadd" and t.sites == () and t.shared_dynamic is False
    tc = translate(vadd, ["Af4_1C", "Af4_1C", "Af8_1C", "i4"], target="cpu")
    assert kernel_text(tc).split("\n")[0].endswith("int n, long long *__emjit_err)")
    line = line_of(vadd, "out[i] = a[i] + b[i]")
    assert tc.sites == (("a", HERE, line), ("b", HERE, line), ("out", HERE, line)) or \
        sorted(tc.sites) == sorted((("a", HERE, line), ("b", HERE, line), ("out", HERE, line)))
    td = translate(vadd, ["Af4_1C", "Af4_1C", "Af8_1C", "i4"], debug=True)
    assert "__emjit_err" in kernel_text(td) and len(td.sites) == 3


def test_wrong_index_count():
    def k(a):
        a[0, 1, 2] = 1     # (a[0] = 1 fills row 0, as in NumPy)
    with pytest.raises(ember.CompileError, match=r"array 'a' has 2 dimensions but 3 indices"):
        translate(k, ["Af4_2C"])


def test_prelude_sections_only_as_needed():
    src = translate(vadd, ["Af4_1C", "Af4_1C", "Af4_1C", "i8"]).source
    assert "/* @emjit-section" not in src

    def k(a, h, z):
        a[0] = a[1] // 3
        h[0] = h[1] * 2
        z[0] = z[1] * 1j
    src = translate(k, ["Ai4_1C", "Af2_1C", "Ac8_1C"]).source
    for name in ("int", "half", "complex"):
        assert "@emjit-section %s */" % name in src
    assert "@emjit-section float */" not in src and "@emjit-section atomic */" not in src


def test_line_directives():
    t = translate(vadd, ["Af4_1C", "Af4_1C", "Af4_1C", "i8"])
    line = line_of(vadd, "out[i] = a[i] + b[i]")
    assert '#line %d "%s"' % (line, HERE) in t.source


# ---- type inference -------------------------------------------------------------------

def types_kernel(a, b, out):
    i = cuda.grid(1)
    x = a[i] * 2.0           # float32 stays float32 (2.0 is weak)
    y = a[i] * b[i]          # float32 * int64 -> float64
    z = b[i] // 3            # int64
    w = b[i] / 2             # true division -> float64
    acc = 0                  # int, later float: float64
    acc += a[i]
    n = 0
    n += 1                   # stays int64
    h = np.float32(1) + 1    # float32
    u = np.uint8(3) + 1      # uint8
    v = np.int32(2) + np.int64(1)
    out[i] = x + y + z + w + acc + n + h + u + v


def test_inferred_types():
    src = kernel_text(translate(types_kernel, ["Af4_1C", "Ai8_1C", "Af8_1C"]))
    assert decl_type(src, "x") == "float"
    assert decl_type(src, "y") == "double"
    assert decl_type(src, "z") == "long long"
    assert decl_type(src, "w") == "double"
    assert decl_type(src, "acc") == "double"
    assert decl_type(src, "n") == "long long"
    assert decl_type(src, "h") == "float"
    assert decl_type(src, "u") == "unsigned char"
    assert decl_type(src, "v") == "long long"
    assert "(float)2.0" in src and "(double)2.0" not in src


def test_device_function_specialisation():
    def twice(x):
        return x * 2
    twice._ember_device = True

    def k(a, out):
        i = cuda.grid(1)
        out[i] = twice(a[i]) + twice(i)
    src = translate(k, ["Af4_1C", "Af8_1C"]).source
    devs = re.findall(r"__device__ (\w[\w ]*?) (__emjit_dev_twice_\w+)\(", src)
    assert sorted(r for r, _ in devs) == ["float", "long long"], devs
    s, name, res = translate_device(twice, ["f4"])
    assert res == "f4" and name in s and "__device__ float %s(float x)" % name in s
    assert translate_device(twice, ["i4"])[2] == "i4"

    def nothing(a):
        a[0] = 1
    assert translate_device(nothing, ["Ai4_1C"])[2] == "none"


def test_shared_dynamic_flag():
    def k(a):
        s = cuda.shared.array(0, np.float32)
        s[cuda.threadIdx.x] = 1
        a[0] = s[0]
    t = translate(k, ["Af4_1C"])
    assert t.shared_dynamic is True and "extern __shared__" in t.source


def test_decorated_function_source():
    @cuda.jit("void(float32[:], int32)")
    def dec(a, n):
        a[0] = n
    t = translate(dec.py_func, parse_signature("void(float32[:], int32)"))
    assert "void dec(float *a_data" in t.source


# ---- compile errors: construct and file:line ---------------------------------------------

def e_dict(a):
    d = {1: 2}


def e_set(a):
    s = {1, 2}


def e_list(a):
    x = [1, 2]


def e_listcomp(a):
    x = [i for i in range(3)]


def e_gen(a):
    x = (i for i in range(3))


def e_lambda(a):
    f = lambda x: x


def e_try(a):
    try:
        a[0] = 1
    except Exception:
        pass


def e_raise(a):
    raise ValueError("no")


def e_with(a):
    with open("x"):
        pass


def e_class(a):
    class C:
        pass


def e_global(a):
    global SOMETHING
    SOMETHING = 1


def e_string(a):
    s = "text"


def e_print(a):
    print(a)


def e_unknown_call(a):
    a[0] = sorted(3)


def e_undefined(a):
    a[0] = not_defined_anywhere


def e_slice(a):
    a[0] = a[1:3]


def e_yield(a):
    yield 1


def e_iter_array(a):
    for x in 5:
        pass


def e_nested_def(a):
    def inner():
        return 1


def e_return_value(a):
    return 1


def e_grid4(a):
    i = cuda.grid(4)


def e_shape_var(a, n):
    s = cuda.shared.array(n, np.float32)


def e_atomic_int8(a):
    cuda.atomic.add(a, 0, 1)


def e_float_bitand(a):
    a[0] = a[0] & 1


def e_float_index(a):
    a[0] = a[1.5]


def e_range_step0(a):
    for i in range(0, 10, 0):
        pass


CONST3 = np.arange(3)


def e_const_write(a):
    c = cuda.const.array_like(CONST3)
    c[0] = 1


def e_is(a):
    if a[0] is None:
        pass


def e_unpack(a):
    x, y = 1, 2, 3


def e_unknown_global_object(a):
    a[0] = ember


def e_math_unknown(a):
    a[0] = math.factorial(3)


def e_int_overflow(a):
    a[0] = a[0] + 300


def e_complex_store(a):
    a[0] = 1j


def e_two_shared(a):
    if a[0] > 0:
        s = cuda.shared.array(4, np.float32)
    else:
        s = cuda.shared.array(8, np.float32)
    a[0] = s[0]


def e_neg_power(a):
    a[0] = a[1] ** -2


def e_assert(a):
    assert a[0] > 0


ERRORS = [
    (e_dict, ["Af8_1C"], "d = {1: 2}", "dicts are not supported"),
    (e_set, ["Af8_1C"], "s = {1, 2}", "sets are not supported"),
    (e_list, ["Af8_1C"], "x = [1, 2]", "lists are not supported"),
    (e_listcomp, ["Af8_1C"], "x = [i for", "list comprehensions are not supported"),
    (e_gen, ["Af8_1C"], "(i for", "generator expressions are not supported"),
    (e_lambda, ["Af8_1C"], "lambda", "lambdas are not supported"),
    (e_try, ["Af8_1C"], "try:", "try statements are not supported"),
    (e_raise, ["Af8_1C"], "raise", "raise statements are not supported"),
    (e_with, ["Af8_1C"], "with open", "with statements are not supported"),
    (e_class, ["Af8_1C"], "class C", "class definitions are not supported"),
    (e_global, ["Af8_1C"], "global SOMETHING", "'global' statements are not supported"),
    (e_string, ["Af8_1C"], 's = "text"', "strings are not supported"),
    (e_print, ["Af8_1C"], "print(", r"print\(\) of array\(float64, 1d, C\) is not "
     "supported"),
    (e_unknown_call, ["Af8_1C"], "sorted(3)", r"global 'sorted' \(builtin_function_or_method\)"),
    (e_undefined, ["Af8_1C"], "not_defined_anywhere", "name 'not_defined_anywhere' is not "
     "defined"),
    (e_slice, ["Af8_1C"], "a[1:3]", r"cannot store array\(float64, 1d, A\) in an element"),
    (e_yield, ["Af8_1C"], "yield", r"generators \(yield\) are not supported"),
    (e_iter_array, ["Af8_1C"], "for x in 5", r"only over range\(...\) and arrays"),
    (e_nested_def, ["Af8_1C"], "def inner", "nested function definitions"),
    (e_return_value, ["Af8_1C"], "return 1", "a kernel cannot return a value"),
    (e_grid4, ["Af8_1C"], "cuda.grid(4)", r"cuda.grid\(\) takes 1, 2 or 3, not 4"),
    (e_shape_var, ["Af8_1C", "i8"], "shared.array(n", "must be a constant integer"),
    (e_atomic_int8, ["Ai1_1C"], "atomic.add", r"not supported for int8 arrays"),
    (e_float_bitand, ["Af8_1C"], "a[0] & 1", r"unsupported operand types for &: float64 "
     "and int"),
    (e_float_index, ["Af8_1C"], "a[1.5]", "index must be an integer, not float"),
    (e_range_step0, ["Af8_1C"], "range(0, 10, 0)", "step must not be zero"),
    (e_const_write, ["Af8_1C"], "c[0] = 1", "constant memory and cannot be written"),
    (e_is, ["Af8_1C"], "is None", "'is' operator is not supported"),
    (e_unpack, ["Af8_1C"], "x, y = 1, 2, 3", "cannot unpack a tuple of 3 into 2"),
    (e_unknown_global_object, ["Af8_1C"], "= ember", "ember.*cannot be used|module ember"),
    (e_math_unknown, ["Af8_1C"], "factorial", "math.factorial is not supported"),
    (e_assert, ["Af8_1C"], "assert", "assert statements are not supported"),
    (e_two_shared, ["Af8_1C"], "array(8", "variable 's' names two different "
     r"cuda.shared.array\(\) arrays"),
    (e_neg_power, ["Ai4_1C"], "** -2", "integers to negative integer powers are not "
     "allowed"),
    (e_int_overflow, ["Ai1_1C"], "+ 300", r"Python integer 300 out of bounds for int8"),
    (e_complex_store, ["Af8_1C"], "1j", r"cannot store complex in an element of array "
     r"'a' \(array\(float64, 1d, C\)\) without losing the imaginary part"),
]


@pytest.mark.parametrize("f,codes,text,msg", ERRORS, ids=[e[0].__name__ for e in ERRORS])
def test_compile_errors(f, codes, text, msg):
    with pytest.raises(ember.CompileError) as info:
        translate(f, codes, target="cpu")
    line = line_of(f, text)
    s = str(info.value)
    assert re.search(msg, s), s
    assert s.endswith("(%s:%d)" % (HERE, line)), s
    assert info.value.lineno == line


def clash_kernel(a, b):
    x = a[0]
    x = b           # a float, then an array
    a[0] = x


def clash_tuple(a):
    t = (1, 2)
    t = 3.0


def test_type_clash_names_variable_and_types():
    with pytest.raises(ember.CompileError, match=r"variable 'x' would have two incompatible "
                       r"types: float32 and array\(float32, 1d, C\)"):
        translate(clash_kernel, ["Af4_1C", "Af4_1C"])
    with pytest.raises(ember.CompileError, match=r"variable 't' would have two incompatible "
                       r"types: tuple\(int64, int64\) and float64"):
        translate(clash_tuple, ["Af4_1C"])


def test_tuple_returning_call_in_condition():
    def pair(x):
        return x, x + 1
    pair._ember_device = True

    def k(a):
        while pair(a[0])[0] > 0:
            a[0] -= 1
    with pytest.raises(ember.CompileError, match="returns a tuple, cannot be part of a "
                       "condition"):
        translate(k, ["Ai8_1C"])

    def k2(a):
        a[1] = a[0] > 0 and pair(a[0])[1] > 2
    with pytest.raises(ember.CompileError, match="returns a tuple"):
        translate(k2, ["Ai8_1C"])


def test_recursion_and_kernel_calls():
    def rec(n):
        return rec(n - 1) if n > 0 else 0
    rec._ember_device = True

    def k(a):
        a[0] = rec(3)
    with pytest.raises(ember.CompileError, match="calls itself"):
        translate(k, ["Ai8_1C"])

    @cuda.jit
    def other(a):
        a[0] = 1

    def k2(a):
        other(a)
    with pytest.raises(ember.CompileError, match="cannot call the kernel 'other'"):
        translate(k2, ["Ai8_1C"])


def test_lambda_kernel():
    with pytest.raises(ember.CompileError, match="a lambda cannot be a kernel"):
        translate(lambda a: None, ["Af4_1C"])


def test_source_unavailable():
    ns = {}
    exec("def k(a):\n    a[0] = 1\n", {"cuda": cuda}, ns)
    with pytest.raises(ember.CompileError, match="cannot read the source of kernel 'k'"):
        translate(ns["k"], ["Af4_1C"])


# ---- NVRTC ---------------------------------------------------------------------------

@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
def test_nvrtc_device_source_and_types_kernel():
    t = translate(types_kernel, ["Af4_1C", "Ai8_1C", "Af8_1C"])
    assert b".entry" in cuda.Program(t.source).compile("ptx", arch=90).code

    def printing(a, z):
        print("a[0] =", a[0], a[0] > 0, (1, 2.5), z, "100%", sep=", ", end=";\n")
    for debug in (False, True):
        t = translate(printing, ["Af4_1C", "c8"], debug=debug)
        assert b".entry" in cuda.Program(t.source).compile("ptx", arch=90).code

    def f(x, y):
        return math.sqrt(x) * y
    src, name, res = translate_device(f, ["f8", "i4"])
    wrapper = src + ('extern "C" __global__ void w(double *o) { o[0] = %s(2.0, 3); }\n' % name)
    assert b".entry" in cuda.Program(wrapper).compile("ptx", arch=90).code


@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
def test_nvrtc_error_points_at_python_line():
    # A kernel C error cannot come from valid Python; check the mapping by
    # breaking the translated source at one statement's line.
    t = translate(vadd, ["Af4_1C", "Af4_1C", "Af4_1C", "i8"])
    line = line_of(vadd, "out[i] = a[i] + b[i]")
    marker = '#line %d "%s"\n' % (line, HERE)
    broken = t.source.replace(marker, marker + "    undefined_name_xyz;\n", 1)
    with pytest.raises(ember.CompileError) as info:
        cuda.Program(broken).compile("ptx", arch=90)
    assert "%s(%d)" % (HERE, line) in str(info.value) + info.value.log
