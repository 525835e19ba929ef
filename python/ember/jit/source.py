"""Reading a kernel's Python source and resolving the names it uses:
locals, closure cells, globals and builtins become compile-time objects
(modules, intrinsics, device functions, constants)."""
import builtins
import math
import os
import sys
import types

from ember._ember import CompileError

from . import astlite as ast
from .errors import Where


class PyObj:
    """A compile-time object: ('module', 'math'), ('cuda', 'atomic.add'),
    ('math', 'sqrt'), ('np', 'sqrt'), ('builtin', 'range'), ('ctor', 'f4'),
    ('dtype', 'f4'), ('devfunc', pyfunc), ('method', name, V)."""
    __slots__ = ("kind", "name", "extra")

    def __init__(self, kind, name, extra=None):
        self.kind, self.name, self.extra = kind, name, extra

    def __eq__(self, other):
        return (isinstance(other, PyObj) and self.kind == other.kind and
                (self.name is other.name or self.name == other.name))

    def __hash__(self):
        return hash((self.kind, id(self.name)))

    def __repr__(self):
        if self.kind == "devfunc":
            return "device function %s" % getattr(self.name, "__name__", "?")
        if self.kind in ("module",):
            return "module %s" % self.name
        return "%s.%s" % ({"builtin": "builtins", "ctor": "type"}.get(self.kind, self.kind),
                          self.name)


def read_function(pyfunc, what="kernel"):
    """(ast.FunctionDef, Where) of a Python function; decorators are
    ignored (never evaluated)."""
    name = getattr(pyfunc, "__name__", repr(pyfunc))
    code = getattr(pyfunc, "__code__", None)
    if code is None:
        raise TypeError("%s must be a Python function, not %s" % (what, type(pyfunc).__name__))
    filename = code.co_filename
    found = _quick_block(code, name)
    if found is not None:
        text, first, tree = found
    else:
        import inspect
        import textwrap
        try:
            lines, first = inspect.getsourcelines(pyfunc)
        except (OSError, TypeError) as e:
            raise CompileError("cannot read the source of %s '%s' (%s:%d): %s; define "
                               "it in a file" % (what, name, filename, code.co_firstlineno,
                                                 e)) from None
        text = textwrap.dedent("".join(lines))
        try:
            tree = ast.parse(text)
        except SyntaxError as e:
            raise CompileError("cannot parse the source of %s '%s' (%s:%d): %s"
                               % (what, name, filename, first, e.msg)) from None
    where = Where(filename, first, text.splitlines())
    if first == 0:  # a module's source: find the def
        where.first_line = 1
    fdef = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            fdef = node
            break
    if fdef is None:
        if name == "<lambda>":
            raise CompileError("a lambda cannot be a %s (%s:%d): write a def"
                               % (what, filename, first))
        raise CompileError("cannot find the definition of %s '%s' in its source (%s:%d)"
                           % (what, name, filename, first))
    return fdef, where


_FILE_LINES = {}    # filename -> (mtime, size, lines): several kernels per file


def _file_lines(filename):
    """The lines of a source file, read once per process while it is
    unchanged (UTF-8, as nearly every file is; else None), or linecache's
    copy of a cell of a notebook or shell, which has no file."""
    try:
        st = os.stat(filename)
    except (OSError, ValueError):
        lc = sys.modules.get("linecache")
        entry = lc.cache.get(filename) if lc is not None else None
        return entry[2] if entry is not None and len(entry) == 4 else None
    try:
        have = _FILE_LINES.get(filename)
        if have is not None and have[0] == st.st_mtime_ns and have[1] == st.st_size:
            return have[2]
        with open(filename, "rb") as f:
            lines = f.read().decode("utf-8").splitlines(True)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    _FILE_LINES[filename] = (st.st_mtime_ns, st.st_size, lines)
    return lines


def _last_line(code):
    """The last source line any instruction of code (or of a function or
    class nested in it) comes from."""
    last = code.co_firstlineno
    for _, _, ln in code.co_lines():
        if ln is not None and ln > last:
            last = ln
    for c in code.co_consts:
        if type(c) is type(code):
            last = max(last, _last_line(c))
    return last


def _quick_block(code, name):
    """(dedented source, first line, its ast) of a def without inspect's tokenizer,
    whose import and first use cost more than the rest of a small kernel's
    translation: the lines from the def's first decorator, past the def
    line, up to the next code line indented no deeper. None where that is not surely the whole
    def (a lambda, lines it cannot read, a block that does not parse as one
    def named `name` covering the code's lines): inspect then decides."""
    if name == "<lambda>" or not hasattr(code, "co_lines"):
        return None
    lines = _file_lines(code.co_filename)
    first = code.co_firstlineno
    if lines is None or not 0 < first <= len(lines):
        return None
    head = lines[first - 1]
    indent = head[:len(head) - len(head.lstrip(" \t"))]
    last = _last_line(code)
    end = first - 1                  # past the decorators, on the def line
    while end < last and not lines[end].lstrip().startswith("def "):
        end += 1
    end += 1
    while end < len(lines):
        ln = lines[end]
        body = ln.strip()
        if body and not body.startswith("#") and not (
                ln.startswith(indent) and ln[len(indent)] in " \t"):
            break
        end += 1
    if end < last:
        return None
    # blank lines and comments less indented than the def become empty
    # lines, so the block dedents by the def's indent and keeps its numbering
    text = "".join(ln[len(indent):] if ln.startswith(indent) and ln.strip() else "\n"
                   for ln in lines[first - 1:end])
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    body = tree.body
    if len(body) != 1 or not isinstance(body[0], ast.FunctionDef) or body[0].name != name:
        return None
    return text, first, tree


# ---- what global objects mean inside a kernel -------------------------------

CUDA_MODULES = ("ember.cuda", "numba.cuda")


def _numpy():
    return sys.modules.get("numpy")


_MATH_IDS = None


def _math_ids():
    global _MATH_IDS
    if _MATH_IDS is None:
        _MATH_IDS = {id(getattr(math, n)): n for n in dir(math) if not n.startswith("_")
                     and callable(getattr(math, n))}
    return _MATH_IDS


_BUILTIN_NAMES = ("range", "len", "abs", "min", "max", "round", "int", "float", "bool",
                  "complex", "pow", "print")


def classify(obj):
    """What a Python object found in globals, a closure or builtins is in a
    kernel: a PyObj, a Python number/tuple (a constant), a NumPy array (a
    constant array), or None when it has no meaning there."""
    if isinstance(obj, (bool, int, float, complex)):
        return obj
    np = _numpy()
    if np is not None and isinstance(obj, np.generic) and obj.dtype.str[1:] in (
            "b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8",
            "c8", "c16"):
        return obj
    if isinstance(obj, tuple):
        if all(classify(x) is not None and not isinstance(classify(x), PyObj) for x in obj):
            return obj
        return None
    if np is not None and isinstance(obj, np.ndarray):
        return obj
    # ember.cuda.types (and Numba's types, which carry no such code, are not)
    if type(obj).__name__ == "Type" and hasattr(obj, "_ember_type_code"):
        code = obj._ember_type_code
        return PyObj("ctor", code) if code is not None else None
    mod_name = getattr(obj, "__name__", None) if isinstance(obj, types.ModuleType) else None
    if mod_name is not None:
        if mod_name == "math":
            return PyObj("module", "math")
        if mod_name == "numpy":
            return PyObj("module", "np")
        if mod_name in CUDA_MODULES:
            return PyObj("module", "cuda")
        if mod_name in ("ember.cupyx.jit", "cupyx.jit"):
            return PyObj("module", "cupyxjit")     # CuPy's kernel spellings
        if mod_name in ("ember.cuda.cg", "numba.cuda.cg"):
            return PyObj("cudans", "cg")
        if mod_name in ("ember.cuda.types", "numba.types", "numba.core.types"):
            return PyObj("module", "cudatypes")
        if mod_name == "ember":
            return PyObj("module", "ember")
        return None
    if type(obj).__name__ == "FFI" and type(obj).__module__.startswith("cffi"):
        return PyObj("cffi", "ffi")        # ffi.from_buffer(array) in kernels
    if getattr(obj, "_ember_extern", False) is True:     # cuda.declare_device
        return PyObj("extfunc", obj.name, obj)
    # device functions: Numba's spelling (a dispatcher with .py_func made by
    # @cuda.jit(device=True)) or a function marked _ember_device
    if getattr(obj, "_ember_device", False) is True:
        f = getattr(obj, "py_func", obj)
        return PyObj("devfunc", f, _signatures(obj))
    if getattr(obj, "py_func", None) is not None and (
            getattr(obj, "device", False) is True or
            getattr(obj, "_device", False) is True):
        return PyObj("devfunc", obj.py_func, _signatures(obj))
    if getattr(obj, "py_func", None) is not None:
        # a kernel (ember's or Numba-CUDA's dispatcher) cannot be called from
        # a kernel; a CPU function (numba.njit's dispatcher) becomes a device
        # function, as Numba compiles it for the GPU when a kernel calls it
        if type(obj).__name__ in ("Dispatcher", "CUDADispatcher", "CUDAKernel"):
            return PyObj("kernelfunc", obj.py_func)
        if isinstance(obj.py_func, types.FunctionType):
            return PyObj("devfunc", obj.py_func)
        return None
    if isinstance(obj, (types.BuiltinFunctionType, types.FunctionType)) or callable(obj):
        mid = _math_ids().get(id(obj))
        if mid is not None and getattr(math, mid) is obj:
            return PyObj("math", mid)
        for n in _BUILTIN_NAMES:
            if getattr(builtins, n) is obj:
                return PyObj("builtin", n)
        if np is not None:
            for n in NP_FUNCS:
                if getattr(np, n, None) is obj:
                    return PyObj("np", n)
            if isinstance(obj, type) and issubclass(obj, np.generic):
                from .types import code_of_dtype
                c = code_of_dtype(obj)
                if c is not None:
                    return PyObj("ctor", c)
        cuda = sys.modules.get("ember.cuda")
        if cuda is not None:
            for n in CUDA_TOP:
                if getattr(cuda, n, None) is obj and obj is not None:
                    return PyObj("cuda", n)
        # any other Python function a kernel calls is compiled as a device
        # function; NumPy's and ember's own Python functions are not kernel code
        mod = getattr(obj, "__module__", None) or ""
        if isinstance(obj, types.FunctionType) and not mod.startswith(("numpy", "ember.", "math")) \
                and mod != "ember":
            return PyObj("devfunc", obj)
    # ember dtypes (ember.float32) are dtype arguments
    from .types import code_of_dtype
    if type(obj).__name__ == "dtype" or (np is not None and isinstance(obj, np.dtype)):
        c = code_of_dtype(obj)
        if c is not None:
            return PyObj("dtype", c)
    return None


# NumPy functions a kernel may call (elementwise on scalars).
NP_FUNCS = ("sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin",
            "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
            "arcsinh", "arccosh", "arctanh", "floor", "ceil", "trunc", "rint", "fabs",
            "abs", "absolute", "isnan", "isinf", "isfinite", "hypot", "arctan2",
            "copysign", "fmod", "power", "cbrt", "sign", "minimum", "maximum",
            "fmin", "fmax", "float16", "float32", "float64", "int8", "int16", "int32",
            "int64", "uint8", "uint16", "uint32", "uint64", "bool_", "complex64",
            "complex128", "pi", "e", "inf", "nan", "intp", "uintp", "add", "subtract",
            "multiply", "divide", "true_divide", "floor_divide", "negative")

# Names directly under cuda.
CUDA_TOP = ("grid", "gridsize", "laneid", "warpsize", "threadIdx", "blockIdx",
            "blockDim", "gridDim", "shared", "local", "const", "atomic",
            "syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or",
            "syncwarp", "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync",
            "all_sync", "any_sync", "ballot_sync", "activemask", "threadfence",
            "threadfence_block", "threadfence_system", "popc", "brev", "clz", "ffs",
            "fma", "jit", "cg")


def _signatures(obj):
    """The signature strings a device function was declared with, or None."""
    sigs = getattr(obj, "signatures", None)
    if not sigs:
        return None
    return tuple(s for s in sigs if isinstance(s, str)) or None


def lookup_global(pyfunc, name):
    """(found, object) for a free name of pyfunc: closure cells first,
    then globals, then builtins."""
    code = pyfunc.__code__
    if pyfunc.__closure__ and name in code.co_freevars:
        cell = pyfunc.__closure__[code.co_freevars.index(name)]
        try:
            return True, cell.cell_contents
        except ValueError:
            return False, None
    g = pyfunc.__globals__
    if name in g:
        return True, g[name]
    if hasattr(builtins, name):
        return True, getattr(builtins, name)
    return False, None
