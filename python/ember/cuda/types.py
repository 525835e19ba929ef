"""ember.cuda.types: Numba's type objects for kernel signatures.

`float32[:, ::1]` is an array type, `void(float32[:], int32)` and
`float32(float32)` are signatures, and each prints as the signature string
ember.cuda.jit reads ("void(float32[:], int32)"), which is how jit takes
them. Inside a kernel a scalar type converts, as `float32(x)` does in
Numba, and names a dtype (`cuda.local.array(4, float32)`).
"""

__all__ = ["Type", "ArrayType", "Signature", "CPointer", "void", "boolean", "b1",
           "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "intp", "uintp", "float16", "float32", "float64", "complex64", "complex128",
           "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16",
           "byte", "char", "short", "int_", "double", "float_"]

# name -> NumPy dtype code, the translator's spelling of each type
_CODES = {"boolean": "b1", "int8": "i1", "int16": "i2", "int32": "i4", "int64": "i8",
          "uint8": "u1", "uint16": "u2", "uint32": "u4", "uint64": "u8",
          "float16": "f2", "float32": "f4", "float64": "f8", "complex64": "c8",
          "complex128": "c16"}


class Type:
    """A scalar type (or void). Indexing with slices gives an array type;
    calling with types gives a signature."""
    __slots__ = ("name", "_ember_type_code")

    def __init__(self, name, code):
        self.name = name
        self._ember_type_code = code

    def __str__(self):
        return self.name

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, Type) and other.name == self.name

    def __hash__(self):
        return hash(("Type", self.name))

    def __getitem__(self, dims):
        if self._ember_type_code is None:
            raise TypeError("%s has no array type" % self.name)
        if not isinstance(dims, tuple):
            dims = (dims,)
        parts = []
        for d in dims:
            if not isinstance(d, slice) or d.start is not None or d.stop is not None or \
                    d.step not in (None, 1):
                raise TypeError("array types are written with ':' and '::1', as "
                                "float32[:, ::1]; got %r" % (dims,))
            parts.append("::1" if d.step == 1 else ":")
        if parts.count("::1") > 1 or ("::1" in parts and parts[0] != "::1"
                                      and parts[-1] != "::1"):
            raise TypeError("only the first (Fortran order) or the last (C order) "
                            "dimension may be '::1': %s[%s]" % (self.name, ", ".join(parts)))
        return ArrayType(self, parts)

    def __call__(self, *args):
        if len(args) == 1 and isinstance(args[0], (tuple, list)):
            args = tuple(args[0])
        for a in args:
            if not isinstance(a, (Type, ArrayType, CPointer)) or a is void:
                raise TypeError("%s(...) builds a signature from types; got %r (inside "
                                "a kernel, %s(x) converts a number)" % (self.name, a,
                                                                     self.name))
        return Signature(self, args)


class ArrayType:
    """An array type: its dtype, ndim and layout ('C', 'F' or 'A')."""
    __slots__ = ("dtype", "dims")

    def __init__(self, dtype, dims):
        self.dtype, self.dims = dtype, tuple(dims)

    @property
    def ndim(self):
        return len(self.dims)

    @property
    def layout(self):
        if self.dims[-1] == "::1" and (self.ndim == 1 or self.dims[0] != "::1"):
            return "C"
        if self.dims[0] == "::1":
            return "F"
        return "A"

    def __str__(self):
        return "%s[%s]" % (self.dtype.name, ", ".join(self.dims))

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, ArrayType) and str(other) == str(self)

    def __hash__(self):
        return hash(str(self))


class CPointer:
    """A pointer to elements of a type; in a kernel signature it is a 1-d
    array of any layout (the data is reached through a pointer either way)."""
    __slots__ = ("dtype",)

    def __init__(self, dtype):
        if not isinstance(dtype, Type) or dtype._ember_type_code is None:
            raise TypeError("CPointer takes a scalar type, not %r" % (dtype,))
        self.dtype = dtype

    def __str__(self):
        return "%s[:]" % self.dtype.name

    def __repr__(self):
        return "CPointer(%s)" % self.dtype.name


class Signature:
    """return_type(args...): prints as the signature string jit reads."""
    __slots__ = ("return_type", "args")

    def __init__(self, return_type, args):
        self.return_type, self.args = return_type, tuple(args)

    def __str__(self):
        return "%s(%s)" % (self.return_type.name, ", ".join(str(a) for a in self.args))

    __repr__ = __str__


void = Type("void", None)
none = void
for _name, _code in _CODES.items():
    globals()[_name] = Type(_name, _code)
b1 = boolean = globals()["boolean"]
bool_ = boolean
i1, i2, i4, i8 = int8, int16, int32, int64  # noqa: F821 (made above)
u1, u2, u4, u8 = uint8, uint16, uint32, uint64  # noqa: F821
f2, f4, f8 = float16, float32, float64  # noqa: F821
c8, c16 = complex64, complex128  # noqa: F821
intp, uintp = int64, uint64  # noqa: F821
byte, char, short, int_ = uint8, int8, int16, int64  # noqa: F821
double, float_ = float64, float64  # noqa: F821
