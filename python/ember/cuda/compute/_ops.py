"""cuda.compute's operators over ember.parallel's: OpKind members become a
built-in name or a C expression, and plain Python functions and lambdas
become ember device functions (ember.cuda.jit(device=True)), made once per
function and kept on it."""
import ast
import enum
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
            from ember.cuda import jit
            d = jit(device=True)(_as_def(o, fn, what))
            o.__dict__[_KEY] = d
        return d
    if isinstance(o, (str, int)) or not callable(o):
        raise _bad_op(fn, what, o)
    raise TypeError(f"{fn}: {what} {type(o).__name__!r} is not a Python "
                    "function (ember translates plain functions and lambdas; "
                    "RawOp and compiled operators are not supported)")


_LAMBDAS = 0


def _as_def(f, fn, what):
    """A lambda as an equivalent def the translator can read (it reads a
    function's source, and a lambda's line may hold several): its body
    found in the source by its line and its code, written as a def into a
    source kept by linecache, with the lambda's globals and its closure's
    values as the def's closure."""
    global _LAMBDAS
    if f.__name__ != "<lambda>":
        return f
    code = f.__code__
    lines = linecache.getlines(code.co_filename)
    node = None
    if lines:
        try:
            tree = ast.parse("".join(lines))
        except SyntaxError:
            tree = None
        for n in ast.walk(tree) if tree is not None else ():
            if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno:
                text = ast.unparse(n)
                try:
                    c = compile(text, "<lambda>", "eval").co_consts[0]
                except SyntaxError:
                    continue
                if getattr(c, "co_code", None) == code.co_code and \
                        c.co_varnames == code.co_varnames:
                    node = n
                    break
    if node is None:
        raise TypeError(f"{fn}: cannot read the source of the lambda given "
                        f"as {what} ({code.co_filename}:"
                        f"{code.co_firstlineno}): define it in a file, or "
                        "write a def")
    _LAMBDAS += 1
    name = f"_lambda_{_LAMBDAS}"
    args = ast.unparse(node.args)
    free = code.co_freevars
    body = f"def {name}({args}):\n    return {ast.unparse(node.body)}\n"
    if free:
        body = f"def _outer({', '.join(free)}):\n" + "".join(
            "    " + ln + "\n" for ln in body.splitlines()) + \
            f"    return {name}\n"
    filename = f"<ember.cuda.compute lambda {_LAMBDAS}>"
    linecache.cache[filename] = (len(body), None, body.splitlines(True),
                                 filename)
    ns = {}
    exec(compile(body, filename, "exec"), f.__globals__, ns)
    if free:
        cells = [c.cell_contents for c in f.__closure__]
        return ns["_outer"](*cells)
    return ns[name]
