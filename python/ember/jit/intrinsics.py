"""What the names a kernel calls mean: cuda.* (thread coordinates, memory
spaces, barriers, warp operations, atomics), math.* and the NumPy
functions on scalars, Python's builtins and NumPy's scalar types, and
device functions."""

from . import astlite as ast
from .ops import V, binop, conv, is_simple, literal, truth
from .source import PyObj
from .types import Array, Scalar, Tuple, NONE, code_of_name, make_strong, promote, \
    storage_c, value_c, NAMES

# ---- tables -----------------------------------------------------------------

MATH_CONSTS = {"pi": 3.141592653589793, "e": 2.718281828459045,
               "tau": 6.283185307179586, "inf": float("inf"), "nan": float("nan")}

# one float argument, a float result: Python name -> C name (double)
MATH_FLOAT1 = {
    "sqrt": "sqrt", "exp": "exp", "expm1": "expm1", "log": "log", "log2": "log2",
    "log10": "log10", "log1p": "log1p", "sin": "sin", "cos": "cos", "tan": "tan",
    "asin": "asin", "acos": "acos", "atan": "atan", "sinh": "sinh", "cosh": "cosh",
    "tanh": "tanh", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh",
    "erf": "erf", "erfc": "erfc", "gamma": "tgamma", "lgamma": "lgamma",
    "fabs": "fabs", "exp2": "exp2", "cbrt": "cbrt",
}
MATH_FLOAT2 = {"pow": "pow", "atan2": "atan2", "hypot": "hypot",
               "copysign": "copysign", "fmod": "fmod"}
MATH_INT1 = {"floor": "floor", "ceil": "ceil", "trunc": "trunc"}
MATH_PRED = ("isnan", "isinf", "isfinite")

NP_ALIASES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh",
              "arccosh": "acosh", "arctanh": "atanh", "arctan2": "atan2",
              "power": "pow"}
NP_ARITH = {"add": ast.Add, "subtract": ast.Sub, "multiply": ast.Mult, "divide": ast.Div,
            "true_divide": ast.Div, "floor_divide": ast.FloorDiv}
NP_FLOAT_RESULT = {"floor": "floor", "ceil": "ceil", "trunc": "trunc", "rint": "rint"}

CUDA_DIMS = ("threadIdx", "blockIdx", "blockDim", "gridDim")
CUDA_NAMESPACES = {"shared": ("array",), "local": ("array",), "const": ("array_like",),
                   "cg": ("this_grid",),
                   "atomic": ("add", "sub", "max", "min", "and_", "or_", "xor", "exch",
                              "inc", "dec", "cas", "compare_and_swap")}
CUDA_FUNCS = ("grid", "gridsize", "syncthreads", "syncthreads_count", "syncthreads_and",
              "syncthreads_or", "syncwarp", "shfl_sync", "shfl_up_sync", "shfl_down_sync",
              "shfl_xor_sync", "all_sync", "any_sync", "ballot_sync", "activemask",
              "threadfence", "threadfence_block", "threadfence_system", "popc", "brev",
              "clz", "ffs", "fma")

_LINEAR_TID = "(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))"

I4, I8, U4, B1 = Scalar("i4"), Scalar("i8"), Scalar("u4"), Scalar("b1")


# ---- attributes ---------------------------------------------------------------

def attribute(tr, base, attr, node):
    t = base.type
    fail = tr.fail_at(node)
    if isinstance(t, PyObj):
        return _py_attribute(tr, t, attr, node)
    if isinstance(t, Array):
        ref = base.code
        if attr == "shape":
            items = [_extent(s) for s in ref.shapes]
            return V(items, Tuple(e.type for e in items))
        if attr == "size":
            if not ref.shapes:
                return V("1LL", I8, 1)
            items = [_extent(s) for s in ref.shapes]
            if all(e.const is not None for e in items):
                n = 1
                for e in items:
                    n *= e.const
                return V(literal(n, "i8"), I8, n)
            return V("(%s)" % " * ".join(ref.shapes), I8)
        if attr == "ndim":
            return V(literal(t.ndim, "i8"), Scalar("i8", True), t.ndim)
        if attr == "dtype":     # as in cuda.local.array(4, a.dtype)
            return V(None, PyObj("dtype", t.dtype))
        fail("array attribute '%s' is not supported in kernels (shape, size, ndim and "
             "dtype are)"
             % attr)
    if isinstance(t, Scalar):
        if attr in ("real", "imag"):
            if t.kind == "c":
                part = "f4" if t.code == "c8" else "f8"
                c = base.code if is_simple(base.code) else "(%s)" % base.code
                return V("%s.%s" % (c, "re" if attr == "real" else "im"), Scalar(part))
            if attr == "real":
                return base
            return V(literal(0, t.code), t, 0)
        if attr == "conjugate":
            return V(None, PyObj("method", "conjugate", base))
        fail("%r has no attribute '%s' in kernels" % (t, attr))
    fail("%r has no attribute '%s'" % (t, attr))


def _extent(s):
    try:
        n = int(s.rstrip("LL")) if s.endswith("LL") else None
    except ValueError:
        n = None
    return V(s, I8, n)


def _py_attribute(tr, obj, attr, node):
    fail = tr.fail_at(node)
    k, n = obj.kind, obj.name
    if k == "module" and n == "math":
        if attr in MATH_CONSTS:
            return tr.constant_value(MATH_CONSTS[attr], node)
        if attr in MATH_FLOAT1 or attr in MATH_FLOAT2 or attr in MATH_INT1 or attr in MATH_PRED \
                or attr in ("degrees", "radians"):
            return V(None, PyObj("math", attr))
        fail("math.%s is not supported in kernels" % attr)
    if k == "module" and n == "np":
        if attr in MATH_CONSTS:
            return tr.constant_value(MATH_CONSTS[attr], node)
        code = code_of_name(attr)
        if code is not None and attr not in ("float", "int", "bool", "complex"):
            return V(None, PyObj("ctor", code))
        from .source import NP_FUNCS
        if attr in NP_FUNCS:
            return V(None, PyObj("np", attr))
        fail("numpy.%s is not supported in kernels" % attr)
    if k == "module" and n == "ember":
        if attr == "cuda":
            return V(None, PyObj("module", "cuda"))
        code = code_of_name(attr)
        if code is not None:
            return V(None, PyObj("ctor", code))
        if attr in MATH_CONSTS:
            return tr.constant_value(MATH_CONSTS[attr], node)
        fail("ember.%s is not supported in kernels" % attr)
    if k == "module" and n == "cuda":
        if attr in CUDA_DIMS:
            return V(None, PyObj("cudadim", attr))
        if attr == "laneid":
            return V("((int)(%s %% 32u))" % _LINEAR_TID, I4)
        if attr == "warpsize":
            return V("32", I4, 32)
        if attr in CUDA_NAMESPACES:
            return V(None, PyObj("cudans", attr))
        if attr in CUDA_FUNCS:
            return V(None, PyObj("cuda", attr))
        if attr == "types":
            return V(None, PyObj("module", "cudatypes"))
        code = code_of_name(attr)
        if code is not None and attr not in ("float", "int", "bool", "complex"):
            return V(None, PyObj("ctor", code))      # cuda.float32(x), as numba.float32
        fail("cuda.%s is not supported in kernels" % attr)
    if k == "module" and n == "cupyxjit":
        # cupyx.jit's names for Numba's: jit.threadIdx, jit.grid(1),
        # jit.syncthreads(), jit.atomic_add(a, i, v), jit.shared_memory(dt, n)
        op = attr[7:] + "_" if attr in ("atomic_and", "atomic_or") else attr[7:]
        if attr.startswith("atomic_") and op in CUDA_NAMESPACES["atomic"]:
            return V(None, PyObj("cuda", "atomic.%s" % op))
        if attr == "shared_memory":
            return V(None, PyObj("cuda", "shared_memory"))
        if attr in CUDA_DIMS or attr in CUDA_FUNCS or attr in ("laneid", "warpsize"):
            return _py_attribute(tr, PyObj("module", "cuda"), attr, node)
        fail("cupyx.jit.%s is not supported in kernels" % attr)
    if k == "cffi" and n == "ffi":
        if attr == "from_buffer":
            return V(None, PyObj("cffi", "from_buffer"))
        fail("cffi's ffi.%s is not supported in kernels (from_buffer is)" % attr)
    if k == "module" and n == "cudatypes":
        code = code_of_name(attr)
        if code is None:
            fail("types.%s is not a number type kernels know" % attr)
        return V(None, PyObj("ctor", code))
    if k == "gridgroup":
        if attr == "sync":
            return V(None, PyObj("method", "grid_sync"))
        fail("the grid group has no attribute '%s' in kernels (sync is supported)" % attr)
    if k == "cudadim":
        if attr in ("x", "y", "z"):
            return V("((int)%s.%s)" % (n, attr), I4)
        fail("cuda.%s has no attribute '%s' (x, y and z)" % (n, attr))
    if k == "cudans":
        if attr in CUDA_NAMESPACES[n]:
            return V(None, PyObj("cuda", "%s.%s" % (n, attr)))
        fail("cuda.%s.%s is not supported in kernels" % (n, attr))
    fail("%r has no attribute '%s' in kernels" % (obj, attr))


# ---- arrays declared in a kernel ---------------------------------------------

def _const_int(tr, node, what):
    v = tr.expr(node)
    if not isinstance(v.const, int) or isinstance(v.const, bool):
        raise tr.error(node, "%s must be a constant integer (a literal or a global)" % what)
    return v.const


def _shape(tr, node, what):
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_const_int(tr, e, what) for e in node.elts)
    v = tr.expr(node)
    if isinstance(v.type, Tuple):
        out = []
        for e in v.code:
            if not isinstance(e.const, int):
                raise tr.error(node, "%s must be constant integers" % what)
            out.append(e.const)
        return tuple(out)
    if not isinstance(v.const, int) or isinstance(v.const, bool):
        raise tr.error(node, "%s must be a constant integer or tuple of them" % what)
    return (v.const,)


def dtype_arg(tr, node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        code = code_of_name(node.value)
        if code is None:
            raise tr.error(node, "unknown dtype %r" % node.value)
        return code
    v = tr.expr(node)
    t = v.type
    if isinstance(t, PyObj):
        if t.kind in ("ctor", "dtype"):
            return t.name
        if t.kind == "builtin" and t.name in ("int", "float", "bool", "complex"):
            return {"int": "i8", "float": "f8", "bool": "b1", "complex": "c16"}[t.name]
    raise tr.error(node, "a dtype is expected here (like numpy.float32), not %r" % (t,))


def _bind(tr, node, names, required, what):
    """Positional and keyword arguments of a call by parameter name."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords):
        raise tr.error(node, "*args and **kwargs are not supported in kernels")
    if len(node.args) > len(names):
        raise tr.error(node, "%s takes at most %d arguments (%d given)"
                       % (what, len(names), len(node.args)))
    out = dict(zip(names, node.args))
    for k in node.keywords:
        if k.arg not in names:
            raise tr.error(node, "%s got an unexpected keyword argument '%s'" % (what, k.arg))
        if k.arg in out:
            raise tr.error(node, "%s got multiple values for '%s'" % (what, k.arg))
        out[k.arg] = k.value
    for n in names[:required]:
        if n not in out:
            raise tr.error(node, "%s is missing its argument '%s'" % (what, n))
    return out


def cupyx_shared_memory(tr, call, s):
    """cupyx.jit.shared_memory(dtype, size, alignment=None) as Numba's
    cuda.shared.array(size, dtype): (the rewritten call, its function);
    size None is dynamic shared memory, as CuPy's."""
    a = _bind(tr, call, ["dtype", "size", "alignment"], 2, "jit.shared_memory()")
    size = a["size"]
    if isinstance(size, ast.Constant) and size.value is None:
        size = ast.copy_location(ast.Constant(value=0), size)
    new = ast.copy_location(ast.Call(func=call.func, args=[size, a["dtype"]], keywords=[]),
                            call)
    return new, V(None, PyObj("cuda", "shared.array"))


def make_array(tr, name, what, call, s):
    from .emit import ArrayRef
    cname = tr.cvar(name)
    if what == "const.array_like":
        a = _bind(tr, call, ["ary"], 1, "cuda.const.array_like()")
        v = tr.expr(a["ary"])
        if not isinstance(v.type, Array) or v.type.space != "const":
            raise tr.error(call, "cuda.const.array_like() needs a NumPy array from the "
                           "kernel's globals or closure, not %r" % (v.type,))
        return v.code
    a = _bind(tr, call, ["shape", "dtype"], 2, "cuda.%s()" % what)
    shape = _shape(tr, a["shape"], "the shape of cuda.%s()" % what)
    dt = dtype_arg(tr, a["dtype"])
    if any(n < 0 for n in shape):
        raise tr.error(call, "negative dimension in the shape %r of cuda.%s()" % (shape, what))
    T = storage_c(dt)
    if what == "shared.array" and shape in ((0,), ()) and shape == (0,):
        tr.mod.shared_dynamic = True
        decl = ["extern __shared__ __align__(16) unsigned char __emjit_dynsmem[];",
                "%s *%s = (%s *)__emjit_dynsmem;" % (T, cname, T)]
        big = "9223372036854775807LL"
        return ArrayRef(name, cname, [big], ["1"], Array(dt, 1, "C", "dynshared", None),
                        True, decl)
    if 0 in shape:
        raise tr.error(call, "a zero dimension in the shape %r of cuda.%s() (only "
                       "cuda.shared.array(0, dtype) is dynamic)" % (shape, what))
    n = 1
    for d in shape:
        n *= d
    strides, acc = [], 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    q = "__shared__ " if what == "shared.array" else ""
    decl = ["%s%s %s[%d];" % (q, T, cname, max(n, 1))]
    space = "shared" if what == "shared.array" else "local"
    return ArrayRef(name, cname, ["%dLL" % d for d in shape], ["%dLL" % d for d in strides],
                    Array(dt, len(shape), "C", space, shape), True, decl)


def const_array_ref(tr, arr, node, name="constant"):
    from .emit import ArrayRef
    dt = arr.dtype.str[1:]
    if dt not in NAMES:
        raise tr.error(node, "a NumPy array of dtype %s cannot be a kernel constant" % arr.dtype)
    if arr.size > (1 << 16):
        raise tr.error(node, "a constant array of %d elements is too large for constant "
                       "memory (64 KiB); pass it as an argument" % arr.size)
    cname = tr.mod.const_array(arr)
    shape = tuple(int(d) for d in arr.shape)
    strides, acc = [], 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    return ArrayRef(name, cname, ["%dLL" % d for d in shape], ["%dLL" % d for d in strides],
                    Array(dt, len(shape), "C", "const", shape), False)


# ---- calls --------------------------------------------------------------------

def call(tr, f, node):
    k = f.kind
    if k == "builtin":
        return _builtin(tr, f.name, node)
    if k == "math":
        return _math(tr, f.name, node, numpy=False)
    if k == "np":
        from . import elementwise
        if elementwise.has_out(f.name, node):
            return elementwise.call(tr, f.name, node,
                                  lambda tr_, n, c: _math(tr_, n, c, numpy=True))
        return _math(tr, f.name, node, numpy=True)
    if k in ("ctor", "dtype"):
        return _ctor(tr, f.name, node)
    if k == "cuda":
        return _cuda(tr, f.name, node)
    if k == "devfunc":
        return _devcall(tr, f.name, node, f.extra)
    if k == "extfunc":
        return _extcall(tr, f.extra, node)
    if k == "cffi" and f.name == "from_buffer":
        # Numba's pointer to an array's data: the array itself, whose data
        # pointer a foreign function's CPointer parameter receives
        (v,) = _args(tr, node, 1, 1, "ffi.from_buffer()")
        if not isinstance(v.type, Array):
            raise tr.error(node, "ffi.from_buffer() takes an array in kernels, not %r"
                           % (v.type,))
        return v
    if k == "method":
        if f.name == "grid_sync":
            return _grid_sync(tr, node)
        if f.name == "conjugate":
            if node.args or node.keywords:
                raise tr.error(node, "conjugate() takes no arguments")
            v = f.extra
            if v.type.kind == "c":
                return V("__emjit_conj_%s(%s)" % (v.type.code, v.code), v.type)
            return v
    if k == "kernelfunc":
        raise tr.error(node, "a kernel cannot call the kernel '%s'; make it a device "
                       "function with @cuda.jit(device=True)" % f.name.__name__)
    if k == "cudadim":
        raise tr.error(node, "cuda.%s is not callable" % f.name)
    raise tr.error(node, "calling %r is not supported in kernels" % (f,))


def _args(tr, node, lo, hi, what):
    pre = getattr(node, "_emjit_vals", None)
    if pre is not None:       # elements of arrays, for ufuncs with out
        return list(pre)
    if node.keywords:
        raise tr.error(node, "%s takes no keyword arguments in kernels" % what)
    n = len(node.args)
    if not lo <= n <= hi:
        want = str(lo) if lo == hi else "%d to %d" % (lo, hi)
        raise tr.error(node, "%s takes %s argument%s (%d given)"
                       % (what, want, "" if want == "1" else "s", n))
    return [tr.expr(a) for a in node.args]


def _scalar(tr, v, node, what):
    if isinstance(v.type, Array) and what.startswith("numpy."):
        raise tr.error(node, "%s of an array needs an output array in kernels, which "
                       "cannot allocate: %s(x, out) or out=out" % (what, what[:-2]))
    if not isinstance(v.type, Scalar):
        raise tr.error(node, "%s needs a number, not %r" % (what, v.type))
    return v


def _builtin(tr, name, node):
    what = "%s()" % name
    if name == "range":
        raise tr.error(node, "range() can only be the iterable of a for loop in kernels")
    if name == "print":
        return _print(tr, node)
    if name == "len":
        (v,) = _args(tr, node, 1, 1, what)
        if isinstance(v.type, Array):
            if not v.type.ndim:
                raise tr.error(node, "len() of a 0-d array")
            return _extent(v.code.shapes[0])
        if isinstance(v.type, Tuple):
            n = len(v.type.items)
            return V(literal(n, "i8"), Scalar("i8", True), n)
        raise tr.error(node, "len() of %r" % (v.type,))
    if name == "abs":
        (v,) = _args(tr, node, 1, 1, what)
        return _abs(tr, _scalar(tr, v, node, what), node)
    if name in ("min", "max"):
        vals = _args(tr, node, 1, 64, what)
        if len(vals) == 1:
            if not isinstance(vals[0].type, Tuple):
                raise tr.error(node, "%s of one argument needs a tuple" % what)
            vals = vals[0].code
        if len(vals) < 2:
            return vals[0]
        return _minmax(tr, name, [_scalar(tr, v, node, what) for v in vals], node)
    if name == "round":
        vals = _args(tr, node, 1, 2, what)
        if len(vals) == 2 and not (vals[1].type == NONE):
            raise tr.error(node, "round() with ndigits is not supported in kernels")
        v = _scalar(tr, vals[0], node, what)
        t = v.type
        if t.kind == "c":
            raise tr.error(node, "round() of a complex number")
        if t.kind == "f":
            fn = "f8" if t.code == "f8" else "f4"
            return V("__emjit_round_%s(%s)" % (fn, v.code), I8)
        if t.kind == "b":
            return V(conv(v, "i8"), I8)
        return v
    if name in ("int", "float"):
        # int() and float(): no argument is a zero constant; a real one
        # converts (int() of a finite constant stays a constant).
        dt, zero, code = ("i8", 0, "0LL") if name == "int" else ("f8", 0.0, "0.0")
        vals = _args(tr, node, 0, 1, what)
        if not vals:
            return V(code, Scalar(dt, True), zero)
        v = _scalar(tr, vals[0], node, what)
        if v.type.kind == "c":
            raise tr.error(node, "%s() of a complex number" % name)
        const = None
        if name == "int" and isinstance(v.const, (int, float)) and \
                v.const == v.const and abs(v.const) != float("inf"):
            const = int(v.const)
        return V(conv(v, dt), Scalar(dt), const)
    if name == "bool":
        vals = _args(tr, node, 0, 1, what)
        if not vals:
            return V("false", B1, False)
        return V(truth(_scalar(tr, vals[0], node, what)), B1)
    if name == "complex":
        vals = _args(tr, node, 0, 2, what)
        vals = [_scalar(tr, v, node, what) for v in vals]
        re = conv(vals[0], "f8") if vals else "0.0"
        im = conv(vals[1], "f8") if len(vals) > 1 else "0.0"
        return V("__emjit_mk_c16(%s, %s)" % (re, im), Scalar("c16"))
    if name == "pow":
        vals = _args(tr, node, 2, 2, what)
        return binop(ast.Pow, vals[0], vals[1], tr.fail_at(node))
    raise tr.error(node, "%s is not supported in kernels" % what)


def _c_string(text):
    """A C string literal of text (UTF-8)."""
    out = []
    for b in text.encode("utf-8"):
        ch = chr(b)
        if ch in "\\\"":
            out.append("\\" + ch)
        elif 32 <= b < 127:
            out.append(ch)
        else:
            out.append("\\%03o" % b)
    return '"%s"' % "".join(out)


def _print_parts(tr, v, node, fmt, args, pre):
    t = v.type
    if isinstance(t, Tuple):
        fmt.append("(")
        for k, e in enumerate(v.code):
            if k:
                fmt.append(", ")
            _print_parts(tr, e, node, fmt, args, pre)
        fmt.append(",)" if len(v.code) == 1 else ")")
        return
    if not isinstance(t, Scalar):
        raise tr.error(node, "print() of %r is not supported in kernels" % (t,))
    k = t.kind
    if k == "b":
        fmt.append("%s")
        args.append('(%s) ? "True" : "False"' % v.code)
    elif k == "i":
        fmt.append("%lld")
        args.append("(long long)(%s)" % v.code)
    elif k == "u":
        fmt.append("%llu")
        args.append("(unsigned long long)(%s)" % v.code)
    elif k == "f":
        # enough digits to read the value back exactly
        fmt.append("%.17g" if t.code == "f8" else "%.9g")
        args.append("(double)(%s)" % v.code)
    else:
        tmp = tr.temp(value_c(t.code))
        fmt.append("(%.17g%+.17gj)" if t.code == "c16" else "(%.9g%+.9gj)")
        # assigned before the call: the order of printf's arguments is open
        pre.append("%s = %s" % (tmp, v.code))
        args += ["(double)%s.re" % tmp, "(double)%s.im" % tmp]


def _print(tr, node):
    """print(...) as one printf: numbers, bools, tuples of them and string
    literals; sep= and end= as string literals."""
    seps = {"sep": " ", "end": "\n"}
    for kw in node.keywords:
        if kw.arg not in seps or not (isinstance(kw.value, ast.Constant) and
                                      isinstance(kw.value.value, str)):
            raise tr.error(node, "print() in kernels takes only sep= and end= string "
                           "literals as keywords")
        seps[kw.arg] = kw.value.value
    fmt, args, pre = [], [], []
    for k, a in enumerate(node.args):
        if k:
            fmt.append(seps["sep"].replace("%", "%%"))
        if isinstance(a, ast.Starred):
            raise tr.error(node, "print(*args) is not supported in kernels")
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            fmt.append(a.value.replace("%", "%%"))
            continue
        _print_parts(tr, tr.expr(a), a, fmt, args, pre)
    fmt.append(seps["end"].replace("%", "%%"))
    call = "printf(%s)" % ", ".join([_c_string("".join(fmt))] + args)
    if tr.mod.target == "cpu":
        # the host's stdout is buffered; a kernel's line should not wait
        call = "(%s, fflush(stdout))" % call
    return V("(%s)" % ", ".join(pre + [call]) if pre else call, NONE)


def _abs(tr, v, node):
    t = v.type
    if t.kind == "c":
        return V("__emjit_abs_%s(%s)" % (t.code, v.code), Scalar("f4" if t.code == "c8" else "f8"))
    if t.kind == "f":
        return V("%s(%s)" % ("fabs" if t.code == "f8" else "fabsf", v.code), t)
    if t.kind == "b":
        return V(conv(v, "i8"), Scalar("i8", t.weak))
    if t.kind == "u":
        return v
    return V("__emjit_abs_%s(%s)" % (t.code, v.code), t,
             abs(v.const) if isinstance(v.const, int) else None)


def _minmax(tr, name, vals, node):
    t = vals[0].type
    for v in vals[1:]:
        t = promote(t, v.type)
    if t.kind == "c":
        raise tr.error(node, "%s() of complex numbers" % name)
    fn = "f4" if t.code == "f2" else t.code
    acc = conv(vals[0], t.code)
    for v in vals[1:]:
        acc = "__emjit_%s_%s(%s, %s)" % (name, fn, acc, conv(v, t.code))
    return V(acc, t)


def _float_code(tr, t, node, what):
    if t.kind == "c":
        raise tr.error(node, "%s of a complex number is not supported in kernels" % what)
    if t.kind in "biu":
        return "f8"
    return t.code


def _cfn(base, code):
    return base + "f" if code in ("f2", "f4") else base


def _round_f2(c, code):
    return "__emjit_rh(%s)" % c if code == "f2" else c


def _math(tr, name, node, numpy):
    mod = "numpy" if numpy else "math"
    what = "%s.%s()" % (mod, name)
    if numpy and name in NP_ARITH:
        a, b = _args(tr, node, 2, 2, what)
        return binop(NP_ARITH[name], _scalar(tr, a, node, what), _scalar(tr, b, node, what),
                     tr.fail_at(node))
    if numpy and name == "negative":
        (v,) = _args(tr, node, 1, 1, what)
        from .ops import unary
        return unary(ast.USub(), _scalar(tr, v, node, what), tr.fail_at(node))
    if numpy:
        name = NP_ALIASES.get(name, name)
        if name in ("abs", "absolute"):
            (v,) = _args(tr, node, 1, 1, what)
            return _abs(tr, _scalar(tr, v, node, what), node)
        if name in NP_FLOAT_RESULT:
            (v,) = _args(tr, node, 1, 1, what)
            v = _scalar(tr, v, node, what)
            code = _float_code(tr, v.type, node, what)
            return V(_round_f2("%s(%s)" % (_cfn(NP_FLOAT_RESULT[name], code),
                                            conv(v, code)), code), Scalar(code))
        if name in ("minimum", "maximum", "fmin", "fmax"):
            a, b = _args(tr, node, 2, 2, what)
            t = promote(_scalar(tr, a, node, what).type, _scalar(tr, b, node, what).type)
            if t.kind != "f":
                return _minmax(tr, "min" if name in ("minimum", "fmin") else "max", [a, b], node)
            base = "fmin" if name in ("minimum", "fmin") else "fmax"
            ca, cb = conv(a, t.code), conv(b, t.code)
            c = "%s(%s, %s)" % (_cfn(base, t.code), ca, cb)
            if name in ("minimum", "maximum"):
                # NumPy's minimum/maximum propagate NaN; fmin/fmax do not
                ta = tr.temp(value_c(t.code))
                tb = tr.temp(value_c(t.code))
                c = "((%s = %s), (%s = %s), (%s != %s || %s != %s) ? %s + %s : %s(%s, %s))" % (
                    ta, ca, tb, cb, ta, ta, tb, tb, ta, tb, _cfn(base, t.code), ta, tb)
            return V(_round_f2(c, t.code), t)
        if name in ("floor", "ceil", "trunc"):
            pass
    if name in MATH_FLOAT1 or name == "log":
        vals = _args(tr, node, 1, 2 if name == "log" and not numpy else 1, what)
        v = _scalar(tr, vals[0], node, what)
        code = _float_code(tr, v.type, node, what)
        c = "%s(%s)" % (_cfn(MATH_FLOAT1[name], code), conv(v, code))
        if len(vals) == 2:
            b = _scalar(tr, vals[1], node, what)
            code2 = _float_code(tr, promote(v.type, b.type), node, what)
            code = "f8" if code2 == "f8" or code == "f8" else code
            c = "(%s(%s) / %s(%s))" % (_cfn("log", code), conv(v, code), _cfn("log", code),
                                      conv(b, code))
        return V(_round_f2(c, code), Scalar(code))
    if name in MATH_FLOAT2:
        a, b = _args(tr, node, 2, 2, what)
        t = promote(_scalar(tr, a, node, what).type, _scalar(tr, b, node, what).type)
        code = _float_code(tr, t, node, what)
        c = "%s(%s, %s)" % (_cfn(MATH_FLOAT2[name], code), conv(a, code), conv(b, code))
        return V(_round_f2(c, code), Scalar(code))
    if name in MATH_INT1 and not numpy:
        (v,) = _args(tr, node, 1, 1, what)
        v = _scalar(tr, v, node, what)
        if v.type.kind in "biu":
            return V(conv(v, "i8"), I8)
        code = _float_code(tr, v.type, node, what)
        return V("((long long)%s(%s))" % (_cfn(MATH_INT1[name], code), conv(v, code)), I8)
    if name in MATH_PRED:
        (v,) = _args(tr, node, 1, 1, what)
        v = _scalar(tr, v, node, what)
        if v.type.kind in "biu":
            const = name == "isfinite"
            return V("true" if const else "false", B1, const)
        code = _float_code(tr, v.type, node, what)
        cv = conv(v, code)
        if not is_simple(cv):
            tmp = tr.temp(value_c(code))
            tr_c = "(%s = %s)" % (tmp, cv)
        else:
            tmp, tr_c = cv, cv
        inf = "__emjit_inf_f4()" if code in ("f2", "f4") else "__emjit_inf_f8()"
        fab = _cfn("fabs", code)
        if name == "isnan":
            return V("(%s != %s)" % (tr_c, tmp), B1)
        if name == "isinf":
            return V("(%s(%s) == %s)" % (fab, cv, inf), B1)
        return V("(%s(%s) < %s)" % (fab, cv, inf), B1)
    if name in ("degrees", "radians"):
        (v,) = _args(tr, node, 1, 1, what)
        v = _scalar(tr, v, node, what)
        code = _float_code(tr, v.type, node, what)
        k = "57.29577951308232" if name == "degrees" else "0.017453292519943295"
        return V("(%s * %s)" % (conv(v, code), literal(float(k), code)), Scalar(code))
    raise tr.error(node, "%s is not supported in kernels" % what)


def _ctor(tr, code, node):
    what = "%s()" % NAMES[code]
    vals = _args(tr, node, 0, 1, what)
    if not vals:
        return V(literal(0, code), Scalar(code), 0)
    v = _scalar(tr, vals[0], node, what)
    if code == "b1":
        return V(truth(v), B1)
    const = v.const if v.const is not None and v.type.kind == code[0] else None
    if isinstance(const, int) and code[0] in "iu":
        # the value the conversion gives (int8(300) is 44, as in Numba)
        bits = 8 * int(code[1:])
        const &= (1 << bits) - 1
        if code[0] == "i" and const >= 1 << (bits - 1):
            const -= 1 << bits
    return V(conv(v, code), Scalar(code), const)


def _cuda(tr, name, node):
    what = "cuda.%s()" % name
    if name in ("grid", "gridsize"):
        a = _bind(tr, node, ["ndim"], 1, what)
        n = _const_int(tr, a["ndim"], "the argument of %s" % what)
        if n not in (1, 2, 3):
            raise tr.error(node, "%s takes 1, 2 or 3, not %d" % (what, n))
        if name == "grid":
            items = [V("((long long)blockIdx.%s * blockDim.%s + threadIdx.%s)" % (d, d, d), I8)
                     for d in "xyz"[:n]]
        else:
            items = [V("((long long)blockDim.%s * gridDim.%s)" % (d, d), I8) for d in "xyz"[:n]]
        return items[0] if n == 1 else V(items, Tuple([I8] * n))
    if name in ("shared.array", "local.array", "const.array_like"):
        raise tr.error(node, "%s must be assigned to a variable (x = %s)" % (what, what))
    if name == "syncthreads":
        _args(tr, node, 0, 0, what)
        return V("__syncthreads()", NONE)
    if name in ("syncthreads_count", "syncthreads_and", "syncthreads_or"):
        (v,) = _args(tr, node, 1, 1, what)
        return V("__%s((int)%s)" % (name, truth(_scalar(tr, v, node, what))), I4)
    if name == "syncwarp":
        a = _bind(tr, node, ["mask"], 0, what)
        m = conv(_scalar(tr, tr.expr(a["mask"]), node, what), "u4") if "mask" in a \
            else "0xffffffffu"
        return V("__syncwarp(%s)" % m, NONE)
    if name in ("shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"):
        mask, val, lane = _args(tr, node, 3, 3, what)
        val = _scalar(tr, val, node, what)
        t = make_strong(val.type)
        if t.code not in ("i4", "u4", "i8", "u8", "f4", "f8"):
            raise tr.error(node, "%s of %r: CUDA shuffles 32- and 64-bit integers and "
                           "floats" % (what, val.type))
        return V("__%s(%s, %s, %s)" % (name, conv(mask, "u4"), conv(val, t.code),
                                       conv(lane, "i4") if name != "shfl_up_sync" and
                                       name != "shfl_down_sync" else conv(lane, "u4")), t)
    if name in ("all_sync", "any_sync", "ballot_sync"):
        mask, pred = _args(tr, node, 2, 2, what)
        r = U4 if name == "ballot_sync" else I4
        return V("__%s(%s, (int)%s)" % (name, conv(mask, "u4"),
                                        truth(_scalar(tr, pred, node, what))), r)
    if name == "activemask":
        _args(tr, node, 0, 0, what)
        return V("__activemask()", U4)
    if name in ("threadfence", "threadfence_block", "threadfence_system"):
        _args(tr, node, 0, 0, what)
        return V("__%s()" % name, NONE)
    if name in ("popc", "brev", "clz", "ffs"):
        (v,) = _args(tr, node, 1, 1, what)
        t = make_strong(_scalar(tr, v, node, what).type)
        if t.kind not in "biu":
            raise tr.error(node, "%s needs an integer, not %r" % (what, t))
        wide = t.code in ("i8", "u8")
        if name == "popc":
            c = "__popcll((unsigned long long)%s)" % v.code if wide else \
                "__popc((unsigned int)%s)" % v.code
            return V(c, I4)
        if name == "brev":
            if wide:
                raise tr.error(node, "cuda.brev() of a 64-bit integer is not supported")
            return V("__brev((unsigned int)%s)" % v.code, U4)
        fn = "__%s%s" % (name, "ll" if wide else "")
        cast = "long long" if wide else "int"
        return V("%s((%s)%s)" % (fn, cast, v.code), I4)
    if name == "fma":
        a, b, c = _args(tr, node, 3, 3, what)
        t = promote(promote(a.type, b.type), c.type)
        code = _float_code(tr, t, node, what)
        return V(_round_f2("%s(%s, %s, %s)" % (_cfn("fma", code), conv(a, code), conv(b, code),
                                               conv(c, code)), code), Scalar(code))
    if name == "cg.this_grid":
        _args(tr, node, 0, 0, what)
        return V(None, PyObj("gridgroup", "grid"))
    if name.startswith("atomic."):
        return _atomic(tr, name[7:], node)
    raise tr.error(node, "%s is not supported in kernels" % what)


def _grid_sync(tr, node):
    """grid.sync(): every thread of the grid waits for every other. The
    kernel then takes the grid's barrier as a hidden parameter and is
    launched cooperatively (docs/jit-design.md)."""
    _args(tr, node, 0, 0, "grid.sync()")
    if tr.kind != "kernel":
        tr.uses_grid = True       # the barrier comes in as a parameter
    tr.mod.grid_sync = True
    return V("__emjit_grid_sync(__emjit_grid)", NONE)


def _atomic(tr, op, node):
    what = "cuda.atomic.%s()" % op
    if op == "compare_and_swap":
        arr, old, val = _args(tr, node, 3, 3, what)
        idx_node = ast.copy_location(ast.Constant(value=0), node)
        cas = True
    elif op == "cas":
        arr, idx, old, val = _args(tr, node, 4, 4, what)
        idx_node = node.args[1]
        cas = True
    else:
        arr, idx, val = _args(tr, node, 3, 3, what)
        idx_node = node.args[1]
        cas = False
    if not isinstance(arr.type, Array):
        raise tr.error(node, "%s needs an array as its first argument, not %r"
                       % (what, arr.type))
    ref = arr.code
    if ref.type.space in ("const", "local"):
        raise tr.error(node, "%s on a %s array: atomics work on global and shared memory"
                       % (what, ref.type.space))
    if op == "compare_and_swap" and ref.type.ndim != 1:
        raise tr.error(node, "%s needs a 1-d array" % what)
    dt = ref.type.dtype
    cop = {"and_": "and", "or_": "or", "compare_and_swap": "cas"}.get(op, op)
    fn = tr.mod.atomic(cop, dt)
    if fn is None:
        raise tr.error(node, "%s is not supported for %s arrays (CUDA has no such atomic)"
                       % (what, NAMES[dt]))
    sub = ast.copy_location(ast.Subscript(value=node.args[0], slice=idx_node, ctx=ast.Load()),
                            node)
    p = tr.pointer(ref, idx_node, sub)
    v = conv(_scalar(tr, val, node, what), dt)
    if cas:
        return V("%s(%s, %s, %s)" % (fn, p, conv(_scalar(tr, old, node, what), dt), v),
                 Scalar(dt))
    return V("%s(%s, %s)" % (fn, p, v), Scalar(dt))


def _pick_signature(tr, name, sigs, vals, node):
    """(argument types, result code or None) of the first declared
    signature the call's values fit: arrays of the same dtype and ndim,
    numbers of any type (converted, as Numba casts to the signature)."""
    from .types import parse_signature_full, parse_argcode
    for sig in sigs:
        ret, codes = parse_signature_full(sig)
        if len(codes) != len(vals):
            continue
        types = [parse_argcode(c) for c in codes]
        ok = True
        for t, v in zip(types, vals):
            if isinstance(t, Array):
                ok = ok and isinstance(v.type, Array) and v.type.dtype == t.dtype and \
                    v.type.ndim == t.ndim
            else:
                ok = ok and isinstance(v.type, Scalar) and (
                    v.type.kind != "c" or t.kind == "c")
        if ok:
            return types, (None if ret == "void" else ret)
    raise tr.error(node, "device function '%s' has no signature for arguments (%s); "
                   "declared: %s" % (name, ", ".join(repr(v.type) for v in vals),
                                     ", ".join(sigs)))


def conv_value(v, t):
    """Scalar value v as type t (a Scalar)."""
    return V(conv(v, t.code), t)


def _extcall(tr, ext, node):
    """A call of a cuda.declare_device function: Numba's ABI, the result
    through a pointer to a temporary (python/ember/cuda/ffi.py)."""
    from .types import parse_argcode
    what = "%s()" % ext.name
    vals = _args(tr, node, len(ext.argcodes), len(ext.argcodes), what)
    if tr.cond_depth:
        raise tr.error(node, "the foreign function %s cannot be called in a condition, a "
                       "conditional expression or and/or: assign its result first"
                       % ext.name)
    params, codes = [], []
    for k, (v, c) in enumerate(zip(vals, ext.argcodes)):
        want = parse_argcode(c)
        if isinstance(want, Array):
            if not isinstance(v.type, Array) or v.type.dtype != want.dtype:
                raise tr.error(node, "argument %d of %s is CPointer(%s): pass an array of "
                               "that dtype, not %r" % (k + 1, ext.name, NAMES[want.dtype],
                                                       v.type))
            params.append("%s *" % storage_c(want.dtype))
            codes.append(v.code.data)
        else:
            params.append(value_c(want.code))
            codes.append(conv(_scalar(tr, v, node, what), want.code))
    rt = ext.restype
    tr.mod.extern(ext, 'extern "C" __device__ int %s(%s *, %s);'
                  % (ext.name, value_c(rt), ", ".join(params) or "void"))
    tmp = tr.temp(value_c(rt))
    tr.emit("%s(&%s%s);" % (ext.name, tmp, "".join(", " + c for c in codes)))
    return V(tmp, Scalar(rt))


def _devcall(tr, pyfunc, node, sigs=None):
    name = pyfunc.__name__
    if node.keywords:
        raise tr.error(node, "keyword arguments to device function '%s' are not supported"
                       % name)
    vals = [tr.expr(a) for a in node.args]
    sig_types, sig_ret = (None, None)
    if sigs:
        sig_types, sig_ret = _pick_signature(tr, name, sigs, vals, node)
        vals = [conv_value(v, t) if isinstance(t, Scalar) else v
                for v, t in zip(vals, sig_types)]
    argtypes, codes = [], []
    for v, a in zip(vals, node.args):
        t = v.type
        if isinstance(t, Array):
            ref = v.code
            argtypes.append(Array(t.dtype, t.ndim, t.layout, "param"))
            codes += [ref.data] + list(ref.shapes) + list(ref.strides)
        elif isinstance(t, Scalar):
            st = make_strong(t)
            argtypes.append(st)
            c = conv(v, st.code)
            if st.kind == "c":
                codes.append(c)
            elif st.code == "b1":
                codes.append("(unsigned char)%s" % c)
            elif st.code == "f2":
                codes.append("__emjit_f2h(%s)" % c)
            else:
                codes.append(c)
        else:
            raise tr.error(a, "device function '%s' cannot take %r as an argument"
                           % (name, t))
    cname, rt = tr.mod.device(pyfunc, argtypes, tr.fail_at(node))
    if cname in tr.mod.devgrid:       # it (or what it calls) calls grid.sync()
        codes.append("__emjit_grid")
        if tr.kind != "kernel":
            tr.uses_grid = True
    if tr.mod.checked:
        codes.append("__emjit_err")
    call_code = "%s(%s)" % (cname, ", ".join(codes))
    if sig_ret is not None and isinstance(rt, Scalar) and rt.code != sig_ret:
        return V(conv(V(call_code, rt), sig_ret), Scalar(sig_ret))
    if isinstance(rt, Tuple):
        # The call runs once, as a statement before the one that uses its
        # elements; so it may not sit where Python would skip it.
        if tr.cond_depth:
            raise tr.error(node, "a call of device function '%s', which returns a tuple, "
                           "cannot be part of a condition, a conditional expression or "
                           "and/or: assign its result to variables first" % name)
        tmp = tr.temp(tr.mod.tuple_struct([it.code for it in rt.items]))
        tr.emit("%s = %s;" % (tmp, call_code))
        items = [V("%s.f%d" % (tmp, k), it) for k, it in enumerate(rt.items)]
        return V(items, rt)
    return V(call_code, rt if rt not in (None,) else NONE)
