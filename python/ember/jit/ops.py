"""Scalar operations in C: conversions, arithmetic, comparisons and truth
with Python's and NumPy's semantics (integers wrap without C's undefined
behaviour, floor division and remainder follow the divisor's sign,
float16 rounds after each operation, complex through prelude.h)."""
import math
import struct

from . import astlite as ast
from .types import Scalar, promote, value_c


class V:
    """A value during translation: its C expression and its type. `const`
    holds the Python value when it is known at translation time (literals
    and what is folded from them); for a tuple, `code` is the list of its
    elements' V."""
    __slots__ = ("code", "type", "const")

    def __init__(self, code, type, const=None):
        self.code, self.type, self.const = code, type, const

    def __repr__(self):
        return "V(%r, %r)" % (self.code, self.type)


def is_simple(code):
    """A C expression that may be evaluated twice: a name or a literal."""
    return isinstance(code, str) and all(ch.isalnum() or ch in "_." for ch in code)


def float_literal(x, code):
    """The C spelling of Python float x as a value of float type `code`."""
    if x != x:
        return "__emjit_nan_f4()" if code in ("f2", "f4") else "__emjit_nan_f8()"
    if x in (float("inf"), float("-inf")):
        s = "__emjit_inf_f4()" if code in ("f2", "f4") else "__emjit_inf_f8()"
        return s if x > 0 else "(-%s)" % s
    if code == "f2":
        # rounded here to the nearest float16, exactly as NumPy casts
        try:
            h = struct.unpack("<e", struct.pack("<e", x))[0]
        except OverflowError:
            return float_literal(math.copysign(float("inf"), x), "f4")
        return float_literal(h, "f4")
    r = repr(float(x))
    if "e" not in r and "." not in r:
        r += ".0"
    if code == "f4":
        return "((float)%s)" % r
    return r if not r.startswith("-") else "(%s)" % r


def int_literal(x):
    if -(1 << 63) <= x < (1 << 63):
        if x == -(1 << 63):
            return "(-9223372036854775807LL - 1)"
        return "%dLL" % x if x >= 0 else "(%dLL)" % x
    if 0 <= x < (1 << 64):
        return "%dULL" % x
    return None


def literal(value, code):
    """The C expression of Python number `value` as type `code`."""
    k = code[0]
    if isinstance(value, complex):
        if k == "c":
            return "__emjit_mk_%s(%s, %s)" % (
                code, float_literal(value.real, "f4" if code == "c8" else "f8"),
                float_literal(value.imag, "f4" if code == "c8" else "f8"))
        value = value.real
    if k == "c":
        part = "f4" if code == "c8" else "f8"
        return "__emjit_mk_%s(%s, %s)" % (code, literal(value, part),
                                          float_literal(0.0, part))
    if k == "b":
        return "true" if value else "false"
    if k == "f":
        return float_literal(float(value), code)
    v = int(value)
    if isinstance(value, float):
        v = int(value)
    bits = int(code[1:]) * 8
    if k == "u":
        v &= (1 << bits) - 1
    else:
        v &= (1 << bits) - 1
        if v >= 1 << (bits - 1):
            v -= 1 << bits
    lit = int_literal(v)
    if code in ("i8",):
        return lit
    if code == "u8":
        return "%dULL" % v
    return "((%s)%s)" % (value_c(code), lit)


def conv(v, to):
    """v's code converted to scalar type code `to`."""
    t = v.type
    if not isinstance(t, Scalar):
        raise TypeError("not a scalar")
    frm = t.code
    if v.const is not None and not isinstance(v.const, tuple):
        try:
            return literal(v.const, to)
        except (TypeError, ValueError, OverflowError):
            pass
    c = v.code
    if frm == to:
        return c
    if frm == "f2" and to == "f4":
        return c
    kt, kf = to[0], frm[0]
    if kt == "b":
        if kf == "c":
            return "__emjit_truth_%s(%s)" % (frm, c)
        return "((%s) != 0)" % c
    if kt == "c":
        part = "float" if to == "c8" else "double"
        if kf == "c":
            return "__emjit_%s_of_%s(%s)" % (to, frm, c)
        return "__emjit_mk_%s((%s)(%s), 0)" % (to, part, c)
    if kf == "c":
        # NumPy drops the imaginary part (with a warning); so do we.
        c = "(%s).re" % c
    if to == "f2":
        if frm == "f8":
            return "__emjit_h2f(__emjit_f2h_d(%s))" % c
        return "__emjit_rh((float)(%s))" % c
    return "((%s)(%s))" % (value_c(to), c)


def truth(v):
    """C condition for Python's truth of scalar v."""
    code = v.type.code
    if code == "b1":
        return v.code
    if code[0] == "c":
        return "__emjit_truth_%s(%s)" % (code, v.code)
    return "((%s) != 0)" % v.code


_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}
_BITS = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
        ast.GtE: ">="}
OP_NAMES = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/",
            ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.LShift: "<<",
            ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
            ast.MatMult: "@"}


def _fold(op, a, b):
    """Python's result for two known numbers, or None."""
    if a is None or b is None or isinstance(a, tuple) or isinstance(b, tuple):
        return None
    try:
        if op is ast.Add:
            return a + b
        if op is ast.Sub:
            return a - b
        if op is ast.Mult:
            return a * b
        if op is ast.FloorDiv and isinstance(a, int) and isinstance(b, int) and b:
            return a // b
        if op is ast.Mod and isinstance(a, int) and isinstance(b, int) and b:
            return a % b
        if op is ast.Pow and isinstance(a, int) and isinstance(b, int) and b >= 0:
            r = a ** b
            return r if abs(r) < (1 << 63) else None
        if op is ast.Div and b:
            return a / b
    except (ArithmeticError, TypeError, ValueError):
        return None
    return None


def _wrap_int(code, expr_a, expr_b, cop):
    """Integer `a cop b` that wraps instead of overflowing: computed in
    unsigned arithmetic of at least int's width."""
    ct = value_c(code)
    if code in ("u4", "u8"):
        return "((%s)(%s %s %s))" % (ct, expr_a, cop, expr_b)
    u = "unsigned long long" if code[1:] == "8" else "unsigned int"
    return "((%s)((%s)(%s) %s (%s)(%s)))" % (ct, u, expr_a, cop, u, expr_b)


def _int_range(code):
    bits = int(code[1:]) * 8
    if code[0] == "u":
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def _weak_int_misfit(a, b):
    """The Python int of a or b that does not fit the other's integer
    type (NEP 50 makes that an OverflowError), as (value, type), or None."""
    for w, s in ((a, b), (b, a)):
        if w.type.weak and w.type.kind == "i" and isinstance(w.const, int) and \
                not s.type.weak and s.type.kind in "iu":
            lo, hi = _int_range(s.type.code)
            if not lo <= w.const <= hi:
                return w.const, s.type
    return None


def binop(op, a, b, fail):
    """a op b for scalars a, b (V); `fail(msg)` raises the CompileError."""
    ta, tb = a.type, b.type
    name = OP_NAMES.get(op, "?")
    if not isinstance(ta, Scalar) or not isinstance(tb, Scalar):
        fail("unsupported operand types for %s: %r and %r" % (name, ta, tb))
    if op is ast.MatMult:
        fail("the @ operator is not supported in kernels")
    bad = _weak_int_misfit(a, b) if op not in (ast.LShift, ast.RShift) else None
    if bad is not None:
        fail("Python integer %d out of bounds for %r (in %s; NumPy raises "
             "OverflowError too): convert one side explicitly" % (bad[0], bad[1], name))
    r = promote(ta, tb)
    folded = _fold(op, a.const, b.const) if (ta.weak and tb.weak) else None
    if op in _BITS or op in (ast.LShift, ast.RShift):
        if r.kind in "fc":
            fail("unsupported operand types for %s: %r and %r (integers only)"
                 % (name, ta, tb))
        if op in _BITS:
            if r.code == "b1":
                return V("((bool)(%s %s %s))" % (conv(a, "b1"), _BITS[op], conv(b, "b1")), r)
            c = "((%s)(%s %s %s))" % (value_c(r.code), conv(a, r.code), _BITS[op],
                                      conv(b, r.code))
            return V(c, r)
        if r.code == "b1":
            r = Scalar("i8", r.weak)
        fn = "shl" if op is ast.LShift else "shr"
        return V("__emjit_%s_%s(%s, (long long)(%s))" % (fn, r.code, conv(a, r.code),
                                                         conv(b, r.code)), r)
    if r.code == "b1":
        r = Scalar("i8", r.weak)
    if op is ast.Div and r.kind in "iu":
        r = Scalar("f8", r.weak)
    if op is ast.Pow and ta.weak and tb.weak and r.kind == "i" and \
            isinstance(b.const, int) and b.const < 0:
        r = Scalar("f8", True)     # Python: 2 ** -1 is 0.5
        folded = float(a.const) ** b.const if isinstance(a.const, int) and a.const else None
    code = r.code
    ca, cb = conv(a, code), conv(b, code)
    k = r.kind
    if op in _ARITH:
        cop = _ARITH[op]
        if k == "c":
            fn = {"+": "add", "-": "sub", "*": "mul"}[cop]
            c = "__emjit_%s_%s(%s, %s)" % (fn, code, ca, cb)
        elif k == "f":
            c = "(%s %s %s)" % (ca, cop, cb)
            if code == "f2":
                c = "__emjit_rh(%s)" % c
        else:
            c = _wrap_int(code, ca, cb, cop)
        return V(c, r, folded)
    if op is ast.Div:
        if k == "c":
            return V("__emjit_div_%s(%s, %s)" % (code, ca, cb), r, folded)
        c = "(%s / %s)" % (ca, cb)
        if code == "f2":
            c = "__emjit_rh(%s)" % c
        return V(c, r, folded)
    if op in (ast.FloorDiv, ast.Mod):
        if k == "c":
            fail("unsupported operand types for %s: %r and %r" % (name, ta, tb))
        fn = "fdiv" if op is ast.FloorDiv else "mod"
        if code == "f2":
            return V("__emjit_rh(__emjit_%s_f4(%s, %s))" % (fn, ca, cb), r, folded)
        return V("__emjit_%s_%s(%s, %s)" % (fn, code, ca, cb), r, folded)
    if op is ast.Pow:
        if k == "c":
            if b.const == 2 and is_simple(ca):
                return V("__emjit_mul_%s(%s, %s)" % (code, ca, ca), r, folded)
            return V("__emjit_pow_%s(%s, %s)" % (code, ca, cb), r, folded)
        if k == "f":
            if b.const == 2 and is_simple(ca):
                c = "(%s * %s)" % (ca, ca)
            else:
                c = "%s(%s, %s)" % ("powf" if code in ("f2", "f4") else "pow", ca, cb)
            if code == "f2":
                c = "__emjit_rh(%s)" % c
            return V(c, r, folded)
        if isinstance(b.const, int) and b.const < 0 and not (ta.weak and tb.weak):
            fail("integers to negative integer powers are not allowed (NumPy raises "
                 "too): write a float, x ** %d.0" % b.const)
        return V("__emjit_pow_%s(%s, %s)" % (code, ca, cb), r, folded)
    fail("unsupported operator %s" % name)


def compare(op, a, b, fail):
    ta, tb = a.type, b.type
    if op not in _CMP:
        what = {ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
        fail("the '%s' operator is not supported in kernels" % what.get(op, "?"))
    if not isinstance(ta, Scalar) or not isinstance(tb, Scalar):
        fail("cannot compare %r and %r" % (ta, tb))
    r = promote(ta, tb)
    if _weak_int_misfit(a, b) is not None:
        # NumPy 2 compares such a Python int by value: so do we, in a type
        # that holds both
        r = Scalar("i8" if (a.type.code != "u8" and b.type.code != "u8") else "f8")
    ca, cb = conv(a, r.code), conv(b, r.code)
    if r.kind == "c":
        if op is ast.Eq:
            return V("__emjit_eq_%s(%s, %s)" % (r.code, ca, cb), Scalar("b1"))
        if op is ast.NotEq:
            return V("(!__emjit_eq_%s(%s, %s))" % (r.code, ca, cb), Scalar("b1"))
        fail("complex numbers cannot be ordered (%s)" % _CMP[op])
    return V("(%s %s %s)" % (ca, _CMP[op], cb), Scalar("b1"))


def unary(op, a, fail):
    t = a.type
    if not isinstance(t, Scalar):
        fail("bad operand type for unary operator: %r" % (t,))
    if isinstance(op, ast.Not):
        return V("(!%s)" % truth(a), Scalar("b1"),
                 (not a.const) if a.const is not None else None)
    code = t.code
    if isinstance(op, ast.Invert):
        if t.kind == "b":
            return V("(!%s)" % a.code, t)
        if t.kind in "fc":
            fail("bad operand type for unary ~: %r" % (t,))
        return V("((%s)~(%s))" % (value_c(code), a.code), t,
                 ~a.const if isinstance(a.const, int) else None)
    if t.kind == "b":
        t = Scalar("i8", t.weak)
        code = "i8"
    c = conv(a, code)
    const = None
    if a.const is not None and not isinstance(a.const, tuple):
        const = -a.const if isinstance(op, ast.USub) else +a.const
    if isinstance(op, ast.UAdd):
        return V(c, t, const)
    if t.kind == "c":
        return V("__emjit_neg_%s(%s)" % (code, c), t, const)
    if t.kind == "f":
        return V("(-%s)" % c, t, const)
    return V(_wrap_int(code, "0", c, "-"), t, const)
