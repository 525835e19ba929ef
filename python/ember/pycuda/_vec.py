"""PyCUDA's ``gpuarray.vec``: CUDA's vector types (float3, int2, ...) as
NumPy structured dtypes with fields x, y, z, w, and make_<type>(...),
zeros_<type>() and filled_<type>(v) building 0-d arrays of them.

The layout is CUDA's: count elements of the base type back to back, so
sizeof(float3) is 12 and an array of them is what a `float3 *` kernel
parameter points at; a 0-d value is a by-value `float3` argument (ember's
launcher passes a NumPy array of exactly a parameter's size as its
bytes). Both kernel prologues (NVRTC's and the cpu device's host prelude)
define every type listed here."""
import numpy

__all__ = ["vec", "VEC_CTYPES"]

# CUDA's base names and their NumPy types, as vector_types.h has them
# (long is 64-bit, as on the LP64 hosts ember runs on). longlong comes
# before long: their dtypes are equal, and the last name given wins in
# VEC_CTYPES; both spell the same bytes to either compiler.
_BASES = (("char", numpy.int8), ("uchar", numpy.uint8),
          ("short", numpy.int16), ("ushort", numpy.uint16),
          ("int", numpy.int32), ("uint", numpy.uint32),
          ("longlong", numpy.int64), ("ulonglong", numpy.uint64),
          ("long", numpy.int64), ("ulong", numpy.uint64),
          ("float", numpy.float32), ("double", numpy.float64))
_FIELDS = ("x", "y", "z", "w")

VEC_CTYPES = {}      # structured dtype -> CUDA's name for it


class vec:
    """The vector dtypes (vec.float3) and their constructors
    (vec.make_float3(x, y, z))."""
    types = {}                       # dtype -> name, as PyCUDA has it
    type_to_scalar_and_count = {}    # dtype -> (base dtype, count)


def _maker(name, dtype, count):
    def make(*values):
        if len(values) != count:
            raise TypeError("make_%s() takes %d values (%d given)"
                            % (name, count, len(values)))
        return numpy.array(tuple(values), dtype=dtype)
    make.__name__ = "make_" + name
    return make


def _filled(name, dtype, count):
    def filled(value):
        return numpy.array((value,) * count, dtype=dtype)
    filled.__name__ = "filled_" + name
    return filled


def _zeros(dtype):
    return lambda: numpy.zeros((), dtype=dtype)


for _base, _t in _BASES:
    for _n in (1, 2, 3, 4):
        _name = "%s%d" % (_base, _n)
        _dt = numpy.dtype({"names": list(_FIELDS[:_n]),
                           "formats": [_t] * _n})
        setattr(vec, _name, _dt)
        setattr(vec, "make_" + _name, staticmethod(_maker(_name, _dt, _n)))
        setattr(vec, "filled_" + _name,
                staticmethod(_filled(_name, _dt, _n)))
        setattr(vec, "zeros_" + _name, staticmethod(_zeros(_dt)))
        vec.types[_dt] = _name
        vec.type_to_scalar_and_count[_dt] = (numpy.dtype(_t), _n)
        VEC_CTYPES[_dt] = _name


def scalar_and_count(dtype):
    """(base dtype, count) of a vec dtype; None for any other dtype."""
    try:
        return vec.type_to_scalar_and_count.get(numpy.dtype(dtype))
    except TypeError:
        return None
