"""A dtype's cold properties (num, alignment, char, str, byteorder, the
structured ones, and the NumPy dtype and scalar type), and calling a
dtype to make a NumPy scalar. ember.dtype reads these on access
(runtime/args.c's empy_py_getter); none runs on an array operation's
path."""

# NumPy's type characters; the 64-bit integers are C long's on LP64 hosts
_CHARS = {"bool": "?", "int8": "b", "uint8": "B", "int16": "h",
          "uint16": "H", "int32": "i", "uint32": "I", "int64": "l",
          "uint64": "L", "float16": "e", "bfloat16": "E", "float32": "f",
          "float64": "d", "complex64": "F", "complex128": "D"}


# include/ember/dtype.h's em_dtype order: a dtype's num
_NUMS = ("bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 "
         "bfloat16 float32 float64 complex64 complex128").split()


def num(d):
    return _NUMS.index(d.name)


def alignment(d):
    # a complex number aligns as its parts, as in C
    return d.itemsize // 2 if d.kind == "c" else d.itemsize


def char(d):
    return _CHARS[d.name]


def str(d):
    # bfloat16 has no NumPy code; "<E2" keeps the shape of one
    if d.name == "bfloat16":
        return "<E2"
    return f"{byteorder(d) if d.itemsize == 1 else '<'}{d.kind}{d.itemsize}"


def byteorder(d):
    return "|" if d.itemsize == 1 else "="


def none(d):
    return None


def true(d):
    return True


def shape(d):
    return ()


def dtype(d):
    """NumPy's dtype for d, so numpy.dtype(ember.float32) and
    numpy.zeros(3, dtype=ember.float32) work (NumPy reads `.dtype`)."""
    if d.name == "bfloat16":
        raise TypeError("bfloat16 has no NumPy dtype; convert with "
                        "astype(ember.float32) first")
    try:
        import numpy
    except ImportError:
        raise ImportError("ember dtype.dtype needs NumPy, which is not "
                          "installed (pip install numpy)") from None
    return numpy.dtype(d.name)


def type(d):
    return dtype(d).type


def call(d, *args, **kw):
    return type(d)(*args, **kw)
