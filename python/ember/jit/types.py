"""The types of values inside a Python kernel: NumPy's scalar types (by
their dtype codes, 'f4', 'i8', 'b1', ...), arrays, tuples; NumPy 2's type
promotion (NEP 50: Python literals are weak) and the C spelling of each
type, for both NVRTC and the host C compiler."""

SCALAR_CODES = ("b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8",
                "f2", "f4", "f8", "c8", "c16")

# The C type a value computes in (float16 computes in float and rounds
# after each operation).
_VALUE_C = {
    "b1": "bool", "i1": "signed char", "i2": "short", "i4": "int",
    "i8": "long long", "u1": "unsigned char", "u2": "unsigned short",
    "u4": "unsigned int", "u8": "unsigned long long", "f2": "float",
    "f4": "float", "f8": "double", "c8": "__emjit_c8", "c16": "__emjit_c16",
}
# The C type an array element is stored as (bool as a byte, float16 as bits).
_STORAGE_C = dict(_VALUE_C, b1="unsigned char", f2="unsigned short")

NAMES = {
    "b1": "bool", "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64",
    "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
    "f2": "float16", "f4": "float32", "f8": "float64", "c8": "complex64",
    "c16": "complex128",
}
_BY_NAME = {v: k for k, v in NAMES.items()}
_BY_NAME.update({
    "bool_": "b1", "boolean": "b1", "byte": "i1", "uint": "u8", "intp": "i8",
    "uintp": "u8", "intc": "i4", "uintc": "u4", "int_": "i8", "float_": "f8",
    "double": "f8", "single": "f4", "half": "f2", "float": "f8", "int": "i8",
    "complex": "c16", "cfloat": "c16", "csingle": "c8", "cdouble": "c16",
    "short": "i2", "ushort": "u2", "longlong": "i8", "ulonglong": "u8",
})
for _c in SCALAR_CODES:
    _BY_NAME[_c] = _c


def kind(code):
    """'b', 'i', 'u', 'f' or 'c'."""
    return code[0]


def size(code):
    return int(code[1:])


class Scalar:
    """A number of NumPy type `code`. `weak` marks a Python literal (or a
    baked-in Python number), which takes the other operand's type under
    NEP 50."""
    __slots__ = ("code", "weak")

    def __init__(self, code, weak=False):
        self.code = code
        self.weak = weak

    def __eq__(self, other):
        return (isinstance(other, Scalar) and self.code == other.code
                and self.weak == other.weak)

    def __hash__(self):
        return hash((self.code, self.weak))

    def strong(self):
        return Scalar(self.code) if self.weak else self

    @property
    def kind(self):
        return self.code[0]

    def __repr__(self):
        if self.weak:
            return {"b": "bool", "i": "int", "f": "float", "c": "complex"}[self.kind]
        return NAMES[self.code]


class Array:
    """An array. `space` is where it lives: 'param' (a kernel argument,
    flattened to data, shapes and strides), 'shared', 'local', 'const'
    (shapes known here) or 'dynshared' (extern __shared__)."""
    __slots__ = ("dtype", "ndim", "layout", "space", "shape")

    def __init__(self, dtype, ndim, layout="A", space="param", shape=None):
        self.dtype, self.ndim, self.layout = dtype, ndim, layout
        self.space, self.shape = space, shape

    def key(self):
        return (self.dtype, self.ndim, self.layout, self.space, self.shape)

    def __eq__(self, other):
        return isinstance(other, Array) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        if self.space in ("param",):
            return "array(%s, %dd, %s)" % (NAMES[self.dtype], self.ndim, self.layout)
        return "%s array(%s, %s)" % (self.space, NAMES[self.dtype], self.shape)


class Tuple:
    """A tuple of values known element by element at translation time."""
    __slots__ = ("items",)

    def __init__(self, items):
        self.items = tuple(items)

    def __eq__(self, other):
        return isinstance(other, Tuple) and self.items == other.items

    def __hash__(self):
        return hash(self.items)

    def __repr__(self):
        return "tuple(%s)" % ", ".join(repr(t) for t in self.items)


class NoneType:
    def __eq__(self, other):
        return isinstance(other, NoneType)

    def __hash__(self):
        return 0

    def __repr__(self):
        return "none"


NONE = NoneType()


def value_c(code):
    return _VALUE_C[code]


def storage_c(code):
    return _STORAGE_C[code]


def code_of_name(name):
    """The dtype code of a NumPy-style type name ('float32', 'f4', 'int'),
    or None."""
    return _BY_NAME.get(name)


def code_of_dtype(obj):
    """The dtype code of a dtype-like object: a NumPy or ember dtype or
    scalar type, a Python type (int, float, bool, complex) or a name. None
    when it is none of these."""
    if obj is bool:
        return "b1"
    if obj is int:
        return "i8"
    if obj is float:
        return "f8"
    if obj is complex:
        return "c16"
    if isinstance(obj, str):
        return code_of_name(obj)
    # NumPy scalar types (np.float32) carry their dtype's name as __name__;
    # dtypes (np.dtype, ember.dtype) as .name; both have a .str like '<f4'.
    for attr in ("str",):
        s = getattr(obj, attr, None)
        if isinstance(s, str) and len(s) >= 2 and s[0] in "<>|=":
            c = s[1:]
            if c in SCALAR_CODES:
                return c
    name = getattr(obj, "name", None)
    if isinstance(name, str) and name in _BY_NAME:
        return _BY_NAME[name]
    name = getattr(obj, "__name__", None)
    if isinstance(name, str) and name in _BY_NAME and name not in ("int", "float", "bool", "complex"):
        return _BY_NAME[name]
    try:
        import sys
        np = sys.modules.get("numpy")
        if np is not None and isinstance(obj, type) and issubclass(obj, np.generic):
            c = np.dtype(obj).str[1:]
            if c in SCALAR_CODES:
                return c
    except Exception:  # not a NumPy type after all
        pass
    return None


# ---- promotion ------------------------------------------------------------

def _min_float_for_int(code):
    """The smallest float that holds every value of an integer type, as
    NumPy's promotion picks it."""
    s = size(code)
    return {1: "f2", 2: "f4"}.get(s, "f8")


def _promote_codes(a, b):
    """NumPy's promote_types for two scalar codes."""
    if a == b:
        return a
    ka, kb = kind(a), kind(b)
    if ka == "b":
        return b
    if kb == "b":
        return a
    if ka in "iu" and kb in "iu":
        if ka == kb:
            return a if size(a) >= size(b) else b
        u, i = (a, b) if ka == "u" else (b, a)
        if size(u) < size(i):
            return i
        if size(u) < 8:
            return "i%d" % (2 * size(u))
        return "f8"
    if ka in "iu" or kb in "iu":
        intc, other = (a, b) if ka in "iu" else (b, a)
        need = _min_float_for_int(intc)
        if kind(other) == "f":
            return other if size(other) >= size(need) else need
        # complex
        comp = size(other) // 2
        return other if comp >= size(need) else "c%d" % (2 * size(need))
    # float and complex
    if ka == kb:
        return a if size(a) >= size(b) else b
    f, c = (a, b) if ka == "f" else (b, a)
    comp = size(c) // 2
    if comp >= size(f):
        return c
    return "c%d" % (2 * size(f))


def promote(a, b):
    """The type of `a op b` for two scalars under NEP 50."""
    if not a.weak and not b.weak:
        return Scalar(_promote_codes(a.code, b.code))
    if a.weak and b.weak:
        # Python's own rules among Python numbers: the wider kind.
        order = "bifc"
        k = max(a.kind, b.kind, key=order.index)
        return Scalar({"b": "b1", "i": "i8", "f": "f8", "c": "c16"}[k], True)
    weak, strong = (a, b) if a.weak else (b, a)
    ks = strong.kind
    if weak.kind == "b":
        return strong
    if weak.kind == "i":
        return strong if ks != "b" else Scalar("i8")
    if weak.kind == "f":
        return strong if ks in "fc" else Scalar("f8")
    # weak complex
    if ks == "c":
        return strong
    if ks == "f":
        return Scalar("c8" if strong.code in ("f2", "f4") else "c16")
    return Scalar("c16")


def unify(a, b):
    """The type of a variable assigned values of types a and b (Numba's
    unification: numbers promote, with literals counting as int64/float64;
    tuples elementwise); None when they cannot share a variable."""
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, Scalar) and isinstance(b, Scalar):
        return Scalar(_promote_codes(a.code, b.code))
    if isinstance(a, Tuple) and isinstance(b, Tuple):
        if len(a.items) != len(b.items):
            return None
        items = [unify(x, y) for x, y in zip(a.items, b.items)]
        if any(t is None for t in items):
            return None
        return Tuple(items)
    if a == b:
        return a
    if isinstance(a, Array) and isinstance(b, Array) and a.space == b.space == "param":
        if a.dtype == b.dtype and a.ndim == b.ndim:
            return Array(a.dtype, a.ndim, "C" if a.layout == b.layout == "C" else "A")
    return None


def make_strong(t):
    if isinstance(t, Scalar):
        return t.strong()
    if isinstance(t, Tuple):
        return Tuple(make_strong(x) for x in t.items)
    return t


# ---- argument type codes (docs/jit-design.md, section 1) -------------------

def parse_argcode(code):
    """Array('f4', 1, 'C') for 'Af4_1C', Scalar('i8') for 'i8'."""
    if not isinstance(code, str):
        raise TypeError("argument type code must be str, not %s" % type(code).__name__)
    if code.startswith("A"):
        try:
            dt, rest = code[1:].split("_")
            ndim, layout = int(rest[:-1]), rest[-1]
        except ValueError:
            raise ValueError("bad array type code %r (expected like 'Af4_1C')" % code) from None
        if dt not in SCALAR_CODES or layout not in "CA" or ndim < 0:
            raise ValueError("bad array type code %r (dtype %r, ndim %d, layout %r)"
                             % (code, dt, ndim, layout))
        return Array(dt, ndim, layout)
    if code not in SCALAR_CODES:
        raise ValueError("unknown argument type code %r; expected one of %s or an "
                         "array code like 'Af4_1C'" % (code, ", ".join(SCALAR_CODES)))
    return Scalar(code)


def argcode_of(t):
    """The argument code of a type (for device function results)."""
    if isinstance(t, Scalar):
        return t.code
    if isinstance(t, Array):
        return "A%s_%d%s" % (t.dtype, t.ndim, t.layout)
    if isinstance(t, Tuple):
        return "(" + ",".join(argcode_of(x) for x in t.items) + ")"
    return "none"


def _split_top(s, sep=","):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def _parse_one(t, whole):
    t = t.strip()
    if "[" in t:
        if not t.endswith("]"):
            raise ValueError("bad type %r in signature %r" % (t, whole))
        base, dims = t[:t.index("[")].strip(), t[t.index("[") + 1:-1]
        code = code_of_name(base)
        if code is None:
            raise ValueError("unknown type %r in signature %r" % (base, whole))
        parts = [p.replace(" ", "") for p in dims.split(",")]
        if not all(p in (":", "::1") for p in parts):
            raise ValueError("bad array dimensions [%s] in signature %r (use ':' or "
                             "'::1')" % (dims, whole))
        # Numba: [:, ::1] is C-contiguous (::1 last), [::1, :] is F (kept as A)
        layout = "C" if parts[-1] == "::1" and all(p == ":" for p in parts[:-1]) else "A"
        if len(parts) == 1 and parts[0] == "::1":
            layout = "C"
        return "A%s_%d%s" % (code, len(parts), layout)
    code = code_of_name(t)
    if code is None:
        raise ValueError("unknown type %r in signature %r" % (t, whole))
    return code


def parse_signature_full(sig):
    """('void' or a result code, (argcodes...)) of a Numba signature
    string like "void(float32[:], int32)" or "float32(float32, float32)"."""
    if not isinstance(sig, str):
        raise TypeError("signature must be a str like 'void(float32[:], int32)', not %s"
                        % type(sig).__name__)
    s = sig.strip()
    if "(" not in s or not s.endswith(")"):
        # Numba also takes just the argument list: "(float32[:], int32)"
        raise ValueError("bad signature %r: expected like 'void(float32[:], int32)'" % sig)
    head, args = s[:s.index("(")].strip(), s[s.index("(") + 1:-1]
    ret = "void"
    if head and head not in ("void", "none"):
        ret = _parse_one(head, sig)
    return ret, tuple(_parse_one(a, sig) for a in _split_top(args))


def _sig_item(x):
    """One signature as a string: a str, a Signature of ember.cuda.types, or
    a tuple/list of argument types (Numba's `jit((float32[:], int32))`)."""
    if isinstance(x, str):
        return x
    if isinstance(x, (tuple, list)):
        for t in x:
            if not hasattr(t, "dims") and getattr(t, "_ember_type_code", None) is None \
                    and type(t).__name__ != "CPointer":
                raise TypeError("a signature's argument types must be ember.cuda.types "
                                "types like float32[:] or int32, not %r" % (t,))
        return "(" + ", ".join(str(t) for t in x) + ")"
    if type(x).__name__ == "Signature" and hasattr(x, "return_type"):
        return str(x)
    raise TypeError("jit takes a function, a signature (a str like 'void(float32[:], "
                    "int32)', void(float32[:]) or a tuple of types) or a list of them, "
                    "not %s" % type(x).__name__)


def signature_strings(obj):
    """The list of signature strings that jit(obj) means: one signature
    (a str, a Signature, a tuple of types) or a list of them; a tuple of
    str is a list of signatures, as before."""
    if isinstance(obj, list) or (isinstance(obj, tuple) and obj and
                                 all(isinstance(x, str) for x in obj)):
        return [_sig_item(x) for x in obj]
    return [_sig_item(obj)]


def parse_signature(sig):
    """The argument type codes of a Numba signature string:
    parse_signature("void(float32[:], float32[:,::1], int32)") is
    ('Af4_1A', 'Af4_2C', 'i4')."""
    return parse_signature_full(sig)[1]
