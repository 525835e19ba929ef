"""Kernel arguments that the launch's C (python/ember/_ext/kernels/
launch.c) does not pack itself: by-value structs, NumPy scalars to
convert, complex numbers, other libraries' device arrays
(__cuda_array_interface__), ember.In/Out/InOut, and every argument that
is refused. C takes the cases a program repeats in a loop (ember memory,
Python ints and floats, NumPy scalars of the parameter's own kind and
size) and sends anything else here, so the full rules are written once,
below, in the order C used to apply them.

pack() returns the parameter's bytes, or (bytes, after) where the launch
calls after() once the kernel is queued (the copy back of Out and
InOut)."""
import math
import operator
import struct
import sys

from ember import _ember as _e
from ember._api.launch_errors import arg_error
from ember._api.wrappers import In, InOut, Out

_PTR = struct.calcsize("P")
_ORDER = sys.byteorder
_INTS = ("int", "uint", "bool")


class _Arg:
    """One argument's parameter and launch: what the rules and the
    messages need."""
    __slots__ = ("tname", "has_buffer", "kernel", "i", "size", "kind",
                 "decl", "device", "stream")

    def __init__(self, tname, has_buffer, kernel, i, size, kind, ptype,
                 pname, device, stream):
        self.tname, self.has_buffer = tname, has_buffer
        self.kernel, self.i, self.size, self.kind = kernel, i, size, kind
        # " (const float *x)": the declaration from the source, if known
        sep = " " if pname and ptype and ptype[-1] != "*" else ""
        self.decl = "" if ptype is None else f" ({ptype}{sep}{pname or ''})"
        self.device, self.stream = device, stream

    def fail(self, which, *values):
        arg_error(self.kernel, which, self.i, self.decl, values)

    def refuse(self):
        """The argument does not suit the parameter's kind."""
        self.fail("kind", self.kind, self.size, self.tname)


def _memory_types():
    return (_e.Buffer, _e.PinnedMemory, In, Out, InOut)


def _pointer(a, p, want):
    if want and want != _PTR:
        a.fail("ptr_size", want)
    return p.to_bytes(_PTR, _ORDER, signed=p < 0)


def _int(a, o, want, unsigned):
    """An int into a want-byte integer (8 when unknown), range-checked."""
    want = want or 8
    if want not in (1, 2, 4, 8):
        a.fail("int_size", want)
    v, bits = operator.index(o), 8 * want
    lo, hi = (0, 1 << bits) if unsigned else (-(1 << bits - 1), 1 << bits - 1)
    if not lo <= v < hi:
        a.fail("int_range", o, want, "unsigned" if unsigned else "signed")
    return (v & ((1 << bits) - 1)).to_bytes(want, _ORDER)


def _float(a, v, want):
    if want in (0, 8):
        return struct.pack("=d", v)
    if want == 4:
        try:
            return struct.pack("=f", v)
        except OverflowError:       # C's cast: past float's range is inf
            return struct.pack("=f", math.copysign(math.inf, v))
    if want == 2:
        return struct.pack("<e", v)
    a.fail("float_size", want)


def _complex(a, z, want):
    if want == 8:
        return _float(a, z.real, 4) + _float(a, z.imag, 4)
    if want in (0, 16):
        return struct.pack("=dd", z.real, z.imag)
    a.fail("complex_size", want)


def _buffer(a, b, want):
    # cuda:N memory is reachable from another GPU (peer access), but
    # never across cpu and cuda
    if b.device != a.device and "cpu" in (b.device.type, a.device.type):
        a.fail("buffer_device", str(b.device), str(a.device))
    return _pointer(a, b.ptr, want)


def _ndarray(a, x, want):
    if x.device != a.device:
        a.fail("array_device", x.size, x.dtype.name, str(x.device),
               str(a.device))
    return _pointer(a, x.data.ptr, want)


def _wrapper(a, o, want):
    """Device memory of the host array's size, filled now for In and InOut,
    copied back for Out and InOut; either way the launch then waits, as
    the array is only the kernel's for this call."""
    t = type(o)
    if want and want != _PTR:
        a.fail("wrapper_size", a.tname, want)
    array = o.array
    try:
        m = memoryview(array)
        usable = m.contiguous and not (t is not In and m.readonly)
    except Exception:
        usable = False
    if not usable:
        a.fail("wrapper_contiguous", a.tname, "" if t is In else ", writable")
    dev, stream, n = a.device, a.stream, m.nbytes
    buf = _e.alloc(n, device=dev, stream=stream)
    if t is not Out:
        _e._copy_bytes(dev, buf.ptr, m, n, stream, 0)

    def after():
        if t is In:     # nothing to copy: only the wait
            _e._copy_bytes(dev, buf.ptr, buf.ptr, 0, stream, 1)
        else:
            _e._copy_bytes(dev, m, buf.ptr, n, stream, 1)
    return _pointer(a, buf.ptr, want), after


def _cai(a, o, want):
    """The data pointer of o's __cuda_array_interface__ (CuPy, PyTorch,
    Numba); None when o has none."""
    try:
        cai = o.__cuda_array_interface__
    except AttributeError:
        return None
    data = cai.get("data") if isinstance(cai, dict) else None
    if not (isinstance(data, tuple) and data and isinstance(data[0], int)):
        a.fail("cai_malformed", a.tname)
    if a.device.type == "cpu":
        a.fail("cai_on_cpu", a.tname, str(a.device))
    return _pointer(a, data[0], want)


def _num(fmt):
    """What a 0-d buffer holds, by its struct-module format: 'int',
    'uint', 'float', 'bool' or None (a record, or bytes in the other byte
    order)."""
    if fmt[:1] in ("@", "="):
        fmt = fmt[1:]
    elif fmt[:1] in ("<", ">", "!"):
        fmt = fmt[1:] if (fmt[0] == "<") == (_ORDER == "little") else ""
    if len(fmt) != 1:
        return None
    for kind, codes in (("int", "bhilqn"), ("uint", "BHILQN"),
                        ("float", "efdg"), ("bool", "?")):
        if fmt in codes:
            return kind
    return None


def _scalar(a, o):
    """A NumPy scalar's 0-d memoryview; None for anything else."""
    if not a.has_buffer:
        return None
    try:
        m = memoryview(o)
    except MemoryError:
        raise
    except Exception:
        return None
    return m if m.ndim == 0 else None


def _exact(a, o, m):
    """A buffer's bytes as they are, for a parameter of exactly its
    size."""
    if m.nbytes != a.size:
        a.fail("scalar_size", a.tname, m.nbytes, a.size)
    return m.tobytes()


def _pointer_param(a, o):
    t = type(o)
    if t is _e.Buffer:
        return _buffer(a, o, _PTR)
    if t is _e.PinnedMemory:
        return _pointer(a, o.ptr, _PTR)
    if t in (In, Out, InOut):
        return _wrapper(a, o, _PTR)
    if isinstance(o, (int, float, complex)) or o is None:
        a.refuse()
    if isinstance(o, _e.ndarray):
        return _ndarray(a, o, _PTR)
    # device arrays first: CuPy's also have a buffer slot that refuses
    r = _cai(a, o, _PTR)
    if r is not None:
        return r
    if a.has_buffer:
        try:
            ndim = memoryview(o).ndim
        except Exception:
            ndim = 0
        if ndim:
            a.fail("host_array", a.tname)
    a.refuse()


def _int_param(a, o):
    unsigned = a.kind == "uint"
    if type(o) in (int, bool):
        return _int(a, o, a.size, unsigned)
    if isinstance(o, (float, complex)) or type(o) in _memory_types():
        a.refuse()
    m = _scalar(a, o)
    if m is not None:
        if _num(m.format) not in _INTS:
            a.refuse()
        return _exact(a, o, m)
    if isinstance(o, int):
        return _int(a, o, a.size, unsigned)
    if hasattr(type(o), "__index__"):
        return _int(a, operator.index(o), a.size, unsigned)
    a.refuse()


def _float_param(a, o):
    if type(o) is float:
        return _float(a, o, a.size)
    if isinstance(o, complex) or type(o) in _memory_types():
        a.refuse()
    # NumPy scalars before float subclasses: numpy.float64 is both, and
    # its size must match as any NumPy scalar's does
    m = _scalar(a, o)
    if m is not None:
        kind = _num(m.format)
        if kind == "float":         # the same format only: its bytes
            return _exact(a, o, m)
        if kind in _INTS and m.nbytes in (1, 2, 4, 8):
            # NumPy's same_kind casting: integers become floats
            v = int.from_bytes(m.tobytes(), _ORDER, signed=kind == "int")
            return _float(a, float(v), a.size)
        a.refuse()
    if isinstance(o, float):
        return _float(a, float(o), a.size)
    if not isinstance(o, int) and not hasattr(type(o), "__index__"):
        a.refuse()
    try:
        v = float(operator.index(o))
    except OverflowError:
        a.fail("float_range", o)
    return _float(a, v, a.size)


def _bool_param(a, o):
    if isinstance(o, int):
        v = operator.index(o)
        if v not in (0, 1):
            a.fail("bool_range", o)
        return bytes((v,))
    if not isinstance(o, float) and type(o) not in _memory_types():
        m = _scalar(a, o)
        if m is not None and _num(m.format) == "bool" and m.nbytes == 1:
            return m.tobytes()
    a.refuse()


def _value_param(a, o):
    """A struct, vector or other by-value parameter: exactly its bytes. A
    NumPy number is refused even at the right size, since its bytes are a
    number, not the struct (a float16 is not a __nv_bfloat16)."""
    if type(o) in _memory_types() or not a.has_buffer:
        a.refuse()
    try:
        m = memoryview(o)
    except MemoryError:
        raise
    except Exception:
        a.refuse()
    if m.ndim == 0 and _num(m.format) is not None:
        a.refuse()
    if not m.c_contiguous:
        a.fail("not_contiguous", a.tname)
    return _exact(a, o, m)


def _untyped(a, o):
    """A parameter of unknown kind: the argument's type decides, checked
    against the parameter's size where that is known."""
    t, want = type(o), a.size
    if t is _e.Buffer:
        return _buffer(a, o, want)
    if t in (int, bool):
        return _int(a, o, want or (1 if t is bool else 8), False)
    if t is float:
        return _float(a, o, want)
    if t is _e.PinnedMemory:
        return _pointer(a, o.ptr, want)
    if t in (In, Out, InOut):
        return _wrapper(a, o, want)
    if isinstance(o, _e.ndarray):
        return _ndarray(a, o, want)
    if a.has_buffer:
        try:
            m = memoryview(o)
        except Exception:
            # CuPy arrays have a buffer slot that always refuses: device
            # memory is reached through __cuda_array_interface__
            r = _cai(a, o, want)
            if r is None:
                raise
            return r
        if m.ndim == 0:             # NumPy scalars carry their own size
            if want and m.nbytes != want:
                a.fail("untyped_size", a.tname, m.nbytes, want)
            return m.tobytes()
        # CuPy passes a NumPy array's bytes by value, so a struct built as
        # a structured array fills a by-value parameter of its size. A
        # pointer-sized parameter keeps the error below: a host array
        # there is the common mistake of one meant as device memory.
        if want and want != _PTR and m.nbytes == want and m.c_contiguous:
            return m.tobytes()
        r = _cai(a, o, want)
        if r is None:
            a.fail("host_array", a.tname)
        return r
    if isinstance(o, complex):
        return _complex(a, complex(o), want)
    if isinstance(o, int):
        return _int(a, o, want, False)
    if isinstance(o, float):
        return _float(a, float(o), want)
    r = _cai(a, o, want)
    if r is not None:
        return r
    if hasattr(t, "__index__"):
        return _int(a, operator.index(o), want, False)
    a.fail("cannot_pass", a.tname)


_BY_KIND = {"pointer": _pointer_param, "int": _int_param,
            "uint": _int_param, "float": _float_param, "bool": _bool_param,
            "other": _value_param}


def pack(o, tname, has_buffer, kernel, i, size, kind, ptype, pname, device,
         stream):
    """Argument i of the kernel: o (of C type name tname; has_buffer: its
    type has the buffer protocol) for a parameter of size bytes (0:
    unknown), kind (None: unknown) and declaration ptype pname (None when
    the source does not say), launching on device and stream (None: the
    current one)."""
    a = _Arg(tname, has_buffer, kernel, i, size, kind, ptype, pname, device,
             stream)
    if hasattr(type(o), "__ember_array__"):
        # an array kept in an ember array of another dtype (a struct
        # array, python/ember/_struct_array.py): that array's memory
        o = o.__ember_array__
    return _BY_KIND.get(kind, _untyped)(a, o)
