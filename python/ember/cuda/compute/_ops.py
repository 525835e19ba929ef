"""cuda.compute's operators over ember.parallel's: OpKind members become a
built-in name or a C expression, and plain Python functions and lambdas
become ember device functions (ember.cuda.jit(device=True)), made once per
function and kept on it."""
import ast
import enum
import hashlib
import linecache
import types

from ember.parallel import _devfn


class OpKind(enum.IntEnum):
    """cuda.compute's well-known operators (its names and order)."""
    STATELESS = 0
    STATEFUL = 1
    PLUS = 2
    MINUS = 3
    MULTIPLIES = 4
    DIVIDES = 5
    MODULUS = 6
    EQUAL_TO = 7
    NOT_EQUAL_TO = 8
    GREATER = 9
    LESS = 10
    GREATER_EQUAL = 11
    LESS_EQUAL = 12
    LOGICAL_AND = 13
    LOGICAL_OR = 14
    LOGICAL_NOT = 15
    BIT_AND = 16
    BIT_OR = 17
    BIT_XOR = 18
    BIT_NOT = 19
    IDENTITY = 20
    NEGATE = 21
    MINIMUM = 22
    MAXIMUM = 23


# Binary operators as ember.parallel's built-ins (scan and reduce find
# them without a string) and as C expressions over a and b (transform,
# and scans of operators with no built-in).
_BUILTIN = {OpKind.PLUS: "add", OpKind.MULTIPLIES: "mul",
            OpKind.MINIMUM: "min", OpKind.MAXIMUM: "max",
            OpKind.BIT_AND: "and", OpKind.BIT_OR: "or",
            OpKind.BIT_XOR: "xor"}
_BINARY = {OpKind.PLUS: "a + b", OpKind.MINUS: "a - b",
           OpKind.MULTIPLIES: "a * b", OpKind.DIVIDES: "a / b",
           OpKind.MODULUS: "a % b", OpKind.EQUAL_TO: "a == b",
           OpKind.NOT_EQUAL_TO: "a != b", OpKind.GREATER: "a > b",
           OpKind.LESS: "a < b", OpKind.GREATER_EQUAL: "a >= b",
           OpKind.LESS_EQUAL: "a <= b", OpKind.LOGICAL_AND: "a && b",
           OpKind.LOGICAL_OR: "a || b", OpKind.BIT_AND: "a & b",
           OpKind.BIT_OR: "a | b", OpKind.BIT_XOR: "a ^ b",
           OpKind.MINIMUM: "(b < a ? b : a)",
           OpKind.MAXIMUM: "(a < b ? b : a)"}
_UNARY = {OpKind.IDENTITY: "a", OpKind.NEGATE: "-a",
          OpKind.LOGICAL_NOT: "!a", OpKind.BIT_NOT: "~a"}


def _bad_op(fn, what, o):
    return TypeError(f"{fn}: {what} must be an OpKind or a Python function, "
                     f"not {type(o).__name__}")


def binary(o, fn, what="op", builtin=True):
    """A binary operator for ember.parallel: a built-in's name (builtin=True
    and one exists), a C expression, or a device function."""
    if isinstance(o, OpKind):
        if builtin and o in _BUILTIN:
            return _BUILTIN[o]
        if o not in _BINARY:
            raise ValueError(f"{fn}: {what} OpKind.{o.name} is not a binary "
                             "operator")
        return _BINARY[o]
    return device_function(o, fn, what)


def unary(o, fn, what="op"):
    """A unary transform or predicate: a C expression over a, or a device
    function."""
    if isinstance(o, OpKind):
        if o not in _UNARY:
            raise ValueError(f"{fn}: {what} OpKind.{o.name} is not a unary "
                             "operator")
        return _UNARY[o]
    return device_function(o, fn, what)


_KEY = "__ember_compute_devfn__"


def device_function(o, fn, what="op"):
    """o as an ember device function: one already, or a plain Python
    function or lambda decorated once (the result is kept on the function,
    so its translations, cached by ember.parallel on the device function,
    are made once)."""
    if _devfn.is_devfn(o):
        return o
    if isinstance(o, types.FunctionType):
        d = o.__dict__.get(_KEY)
        if d is None:
            d = o.__dict__[_KEY] = _by_code(o, fn, what)
        return d
    if isinstance(o, (str, int)) or not callable(o):
        raise _bad_op(fn, what, o)
    raise TypeError(f"{fn}: {what} {type(o).__name__!r} is not a Python "
                    "function (ember translates plain functions and lambdas; "
                    "RawOp and compiled operators are not supported)")


# Device functions of lambdas by (code, closure values): a lambda written
# in a loop's call is a new function object each time, but it is
# translated once. (Operators over zipped or struct values are
# _struct.py's.)
_BY_CODE = {}


def _by_code(f, fn, what):
    from ember.cuda import jit
    if f.__name__ != "<lambda>":
        return jit(device=True)(f)
    try:
        cells = tuple(c.cell_contents for c in f.__closure__ or ())
        key = (f.__code__, cells, id(f.__globals__))
        hash(key)
    except (TypeError, ValueError):     # an unhashable or empty cell
        key = None
    d = _BY_CODE.get(key) if key is not None else None
    if d is None:
        d = jit(device=True)(_as_def(f, fn, what))
        if key is not None:
            _BY_CODE[key] = d
    return d


def _lambda_node(f, fn, what):
    """The ast.Lambda of a lambda, found in its file by its line: the one
    there with its parameters (several: the one whose code matches)."""
    code = f.__code__
    lines = linecache.getlines(code.co_filename)
    try:
        tree = ast.parse("".join(lines)) if lines else None
    except SyntaxError:
        tree = None
    params = code.co_varnames[:code.co_argcount]
    found = [n for n in (ast.walk(tree) if tree is not None else ())
             if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno
             and tuple(a.arg for a in n.args.args) == params]
    if len(found) > 1:
        def same(n):
            # compiled with the same free variables, so that a closure's
            # loads match
            free = ", ".join(code.co_freevars)
            src = f"def _o({free}):\n    return {ast.unparse(n)}\n"
            try:
                outer = compile(src, "<lambda>", "exec").co_consts[0]
            except SyntaxError:
                return False
            return any(getattr(c, "co_code", None) == code.co_code
                       for c in outer.co_consts)
        found = [n for n in found if same(n)]
    if len(found) != 1:
        raise TypeError(f"{fn}: cannot read the source of the lambda given "
                        f"as {what} ({code.co_filename}:"
                        f"{code.co_firstlineno}): define it in a file, or "
                        "write a def")
    return found[0]


def _def_node(f, fn, what):
    """(ast.FunctionDef, name) of a plain function or a lambda."""
    if f.__name__ == "<lambda>":
        lam = _lambda_node(f, fn, what)
        d = ast.parse(f"def _lambda(a):\n    return 0\n").body[0]
        d.args, d.body = lam.args, [ast.Return(lam.body)]
        return d
    import inspect
    import textwrap
    try:
        text = textwrap.dedent(inspect.getsource(f))
        d = ast.parse(text).body[0]
    except (OSError, TypeError, SyntaxError, IndexError) as e:
        raise TypeError(f"{fn}: cannot read the source of {what} "
                        f"'{f.__name__}': {e}") from None
    if not isinstance(d, ast.FunctionDef):
        raise TypeError(f"{fn}: {what} '{f.__name__}' is not a def")
    d.decorator_list = []
    return d


def _const_int(e):
    """The value of an int literal, -1 included (a unary minus); else
    None."""
    neg = isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub)
    if neg:
        e = e.operand
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return -e.value if neg else e.value
    return None


def _as_def(f, fn, what):
    """f as a def the translator can read (it reads a function's source,
    and a lambda's line may hold several): a def as it is; a lambda
    rewritten as a def into a source kept by linecache, with f's globals
    and its closure's values."""
    if f.__name__ != "<lambda>":
        return f
    d = _def_node(f, fn, what)
    return _compile_def(d, f)


def jit_def(d, f):
    """The ast.FunctionDef d (a rewrite of f) as an ember device
    function."""
    from ember.cuda import jit
    return jit(device=True)(_compile_def(d, f))


def _compile_def(d, f):
    """The ast.FunctionDef d as a Python function with f's globals and
    closure values, its source kept by linecache for the translator."""
    # named by its text, so the same operator gives the same kernel source
    # (and finds the kernel in the disk cache) in every process
    d.name = "_op"
    ast.fix_missing_locations(d)
    text = ast.unparse(d)
    name = "_op_" + hashlib.sha1(text.encode()).hexdigest()[:16]
    body = text.replace("def _op(", f"def {name}(", 1) + "\n"
    free = f.__code__.co_freevars
    if free:
        body = f"def _outer({', '.join(free)}):\n" + "".join(
            "    " + ln + "\n" for ln in body.splitlines()) + \
            f"    return {name}\n"
    filename = f"<ember.cuda.compute {name}>"
    linecache.cache[filename] = (len(body), None, body.splitlines(True),
                                 filename)
    ns = {}
    exec(compile(body, filename, "exec"), f.__globals__, ns)
    if free:
        cells = [c.cell_contents for c in f.__closure__]
        return ns["_outer"](*cells)
    return ns[name]
