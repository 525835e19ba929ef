"""PyCUDA's ``pycuda.driver`` over ember's runtime: devices and contexts,
device memory (mem_alloc -> DeviceAllocation), copies, page-locked host
arrays, streams, events, In/Out/InOut and the kernel Function that
``compiler.SourceModule.get_function`` returns.

Device numbers read as ember reads them: Device(0) is cuda:0, or the cpu
device on a machine without a GPU, so a PyCUDA program runs there too.
Raw addresses (int(allocation) + offset) are accepted wherever PyCUDA takes
one: an address inside a live mem_alloc block is resolved to that block;
any other address is taken as memory ember does not own (UnownedMemory)."""
import enum
import weakref

import numpy

import ember
from ember.cuda._device_attributes import ATTRIBUTES as _ATTRIBUTES

# PyCUDA's exception names (_errors.py says how each maps onto ember's)
from ._errors import (Error, LogicError, LaunchError, RuntimeError,
                      MemoryError, CompileError, translated)

__all__ = [
    "init", "get_version", "get_driver_version", "Error", "LogicError",
    "LaunchError", "RuntimeError", "MemoryError", "CompileError",
    "Device", "Context", "device_attribute", "mem_alloc", "mem_alloc_like",
    "mem_get_info",
    "DeviceAllocation", "memcpy_htod", "memcpy_dtoh", "memcpy_dtod",
    "memcpy_htod_async", "memcpy_dtoh_async", "memcpy_dtod_async",
    "memset_d8", "memset_d16", "memset_d32", "to_device", "from_device",
    "from_device_like", "pagelocked_empty", "pagelocked_zeros",
    "pagelocked_empty_like", "pagelocked_zeros_like", "In", "Out", "InOut",
    "Stream", "Event", "Function",
]

In, Out, InOut = ember.In, ember.Out, ember.InOut


def init(flags=0):
    """PyCUDA's cuInit: ember starts each backend on first use, so there is
    nothing to do."""


def get_driver_version():
    return ember.cuda.runtime.driverGetVersion()


def get_version():
    """The CUDA version as (major, minor, 0): the driver's, else NVRTC's."""
    v = get_driver_version() or ember.cuda.runtime.runtimeGetVersion()
    return (v // 1000, (v % 1000) // 10, 0)


# ---- devices and contexts -------------------------------------------------

class _AttributeNumber(enum.IntEnum):
    """An IntEnum that prints its name, as PyCUDA's attributes do
    (dump_properties.py prints str(attribute))."""

    def __str__(self):
        return self.name


# CUDA's CUdevice_attribute numbers under PyCUDA's names (CU_DEVICE_ATTRIBUTE_
# less its prefix), from ember's one table of them; names that share a
# number (SHARED_MEMORY_PER_BLOCK, ...) are aliases, as in cuda.h.
device_attribute = _AttributeNumber(
    "device_attribute", [(n.upper(), v) for n, v in _ATTRIBUTES.items()],
    module=__name__)
device_attribute.__doc__ = ("CUDA's device attributes (CUdevice_attribute), "
                            "for Device.get_attribute.")


class Device:
    """Device(n): cuda:n, or the cpu device for 0 without a GPU."""

    def __init__(self, number):
        self._dev = number._dev if isinstance(number, Device) else \
            ember.Device(number)

    @staticmethod
    def count():
        """The devices Device(i) opens: the GPUs, or 1 (the cpu device)
        without any."""
        return max(ember.cuda.runtime.getDeviceCount(), 1)

    def name(self):
        return self._dev.name

    def compute_capability(self):
        return tuple(self._dev.compute_capability)

    def total_memory(self):
        return self._dev.mem_info()[1]

    def pci_bus_id(self):
        p = self._dev.properties
        return "%04X:%02X:%02X.0" % (p["pciDomainID"], p["pciBusID"],
                                     p["pciDeviceID"])

    @translated
    def get_attribute(self, attr):
        """The value of a device_attribute (or its number): the driver's
        answer on a GPU, the cpu device's from its properties (0 for the
        GPU features it lacks)."""
        if isinstance(attr, bool) or not isinstance(attr, (int, numpy.integer)):
            raise TypeError("get_attribute() takes a device_attribute, not %s"
                            % type(attr).__name__)
        return self._dev.attribute(int(attr))

    def get_attributes(self):
        """{device_attribute: value} for every attribute the device
        answers."""
        out = {}
        for a in device_attribute:
            try:
                out[a] = self._dev.attribute(int(a))
            except (ValueError, Error):
                pass      # a number newer than this driver knows
        return out

    def make_context(self, flags=0):
        """Make this device current (PyCUDA pushes a context); Context.pop()
        goes back to the device current before."""
        self._dev.__enter__()
        _pushed.append(self._dev)
        return Context()

    def __eq__(self, other):
        return isinstance(other, Device) and other._dev == self._dev

    def __hash__(self):
        return hash(self._dev)

    def __repr__(self):
        return "<ember.pycuda.driver.Device %s>" % self._dev


_pushed = []


class Context:
    """The current device's context. ember has one per device (the primary
    context), so these are the calls PyCUDA programs make on it."""

    @staticmethod
    @translated
    def synchronize():
        ember.get_current_device().synchronize()

    @staticmethod
    def get_device():
        return Device(ember.get_current_device())

    @staticmethod
    def get_current():
        return Context()

    @staticmethod
    def pop():
        if not _pushed:
            raise LogicError("Context.pop(): no context was pushed by "
                             "make_context() or push()")
        _pushed.pop().__exit__(None, None, None)

    def push(self):
        d = ember.get_current_device()
        d.__enter__()
        _pushed.append(d)

    def detach(self):
        if _pushed:
            Context.pop()


# ---- device memory -----------------------------------------------------------

_live = weakref.WeakValueDictionary()     # ptr -> DeviceAllocation


class DeviceAllocation:
    """nbytes of device memory from ember's pool: int(a) is its address;
    it is freed when collected or by free()."""

    def __init__(self, buf):
        self._buf = buf
        self.size = buf.nbytes
        self.ptr = buf.ptr
        _live[self.ptr] = self

    def __int__(self):
        return self.ptr

    __index__ = __int__

    def free(self):
        _live.pop(self.ptr, None)
        self._buf = None

    def _arg(self):
        if self._buf is None:
            raise ValueError("the DeviceAllocation at %#x was freed" % self.ptr)
        return self._buf

    def _memptr(self, offset=0):
        return ember.cuda.MemoryPointer(self._arg(), offset)

    def __repr__(self):
        return "<DeviceAllocation %d bytes at %#x>" % (self.size, self.ptr)


@translated
def mem_alloc(nbytes):
    return DeviceAllocation(ember.alloc(int(nbytes)))


def mem_alloc_like(ary):
    """Device memory of ary's byte size (PyCUDA's name)."""
    return mem_alloc(numpy.asarray(ary).nbytes if not hasattr(ary, "nbytes")
                     else ary.nbytes)


def mem_get_info():
    return ember.get_current_device().mem_info()


def _device_bytes(obj, nbytes, dtype=numpy.uint8):
    """An ember array of nbytes // itemsize elements of dtype at the device
    address obj names (a DeviceAllocation, an ember array, an address)."""
    n = nbytes // numpy.dtype(dtype).itemsize
    if isinstance(obj, DeviceAllocation):
        mp, room = obj._memptr(), obj.size
    elif isinstance(obj, ember.ndarray):
        if not (obj.flags.c_contiguous or obj.flags.f_contiguous):
            raise ValueError("a copy needs a contiguous device array")
        mp, room = obj.data, obj.nbytes
    else:
        ptr = int(obj)
        base = _containing(ptr)
        if base is not None:
            mp = base._memptr(ptr - base.ptr)
            room = base.size - (ptr - base.ptr)
        else:
            mem = ember.cuda.UnownedMemory(ptr, nbytes, None)
            mp, room = ember.cuda.MemoryPointer(mem, 0), nbytes
    if nbytes > room:
        raise ValueError("copy of %d bytes into or out of %d bytes of device "
                         "memory" % (nbytes, room))
    return ember.ndarray((n,), dtype, memptr=mp)


def _containing(ptr):
    for p, a in list(_live.items()):
        if p <= ptr < p + max(a.size, 1):
            return a
    return None


def _host_bytes(ary, writable):
    a = numpy.asarray(ary) if not isinstance(ary, numpy.ndarray) else ary
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        raise ValueError("host array must be contiguous, got strides %s"
                         % (a.strides,))
    if writable and not a.flags.writeable:
        raise ValueError("the destination host array is read-only")
    return a.reshape(-1, order="A").view(numpy.uint8)


def _stream(s):
    if s is None:
        return None
    return s._s if isinstance(s, Stream) else s


@translated
def memcpy_htod(dest, src):
    h = _host_bytes(src, False)
    _device_bytes(dest, h.nbytes).copy_to_device(h)


@translated
def memcpy_dtoh(dest, src):
    h = _host_bytes(dest, True)
    _device_bytes(src, h.nbytes).copy_to_host(h)


@translated
def memcpy_dtod(dest, src, size):
    _device_bytes(dest, size).copy_to_device(_device_bytes(src, size))


@translated
def memcpy_htod_async(dest, src, stream=None):
    h = _host_bytes(src, False)
    _device_bytes(dest, h.nbytes).copy_to_device(h, stream=_stream(stream))


@translated
def memcpy_dtoh_async(dest, src, stream=None):
    h = _host_bytes(dest, True)
    _device_bytes(src, h.nbytes).copy_to_host(h, stream=_stream(stream))


@translated
def memcpy_dtod_async(dest, src, size, stream=None):
    _device_bytes(dest, size).copy_to_device(_device_bytes(src, size),
                                             stream=_stream(stream))


@translated
def memset_d8(dest, data, count):
    _device_bytes(dest, count, numpy.uint8).fill(data)


@translated
def memset_d16(dest, data, count):
    _device_bytes(dest, 2 * count, numpy.uint16).fill(data)


@translated
def memset_d32(dest, data, count):
    _device_bytes(dest, 4 * count, numpy.uint32).fill(data)


def to_device(bf_obj):
    """A new DeviceAllocation holding the bytes of a host buffer."""
    h = _host_bytes(bf_obj, False)
    a = mem_alloc(h.nbytes)
    memcpy_htod(a, h)
    return a


def from_device(devptr, shape, dtype, order="C"):
    out = numpy.empty(shape, dtype, order=order)
    memcpy_dtoh(out, devptr)
    return out


def from_device_like(devptr, other_ary):
    out = numpy.empty_like(other_ary)
    memcpy_dtoh(out, devptr)
    return out


# ---- page-locked host memory ----------------------------------------------

def pagelocked_empty(shape, dtype, order="C", mem_flags=0):
    return ember.cuda.pinned_array(shape, dtype=dtype, order=order)


def pagelocked_zeros(shape, dtype, order="C", mem_flags=0):
    a = pagelocked_empty(shape, dtype, order)
    a.fill(0)
    return a


def pagelocked_empty_like(array, mem_flags=0):
    order = "F" if array.flags.f_contiguous and not array.flags.c_contiguous \
        else "C"
    return pagelocked_empty(array.shape, array.dtype, order)


def pagelocked_zeros_like(array, mem_flags=0):
    a = pagelocked_empty_like(array)
    a.fill(0)
    return a


# ---- streams and events ------------------------------------------------------

class Stream:
    """A stream on the current device."""

    def __init__(self, flags=0):
        self._s = ember.Stream()

    @translated
    def synchronize(self):
        self._s.synchronize()

    @translated
    def is_done(self):
        return self._s.query()

    def wait_for_event(self, event):
        self._s.wait_event(event._e)

    @property
    def handle(self):
        return self._s.ptr


class Event:
    def __init__(self, flags=0):
        self._e = ember.Event()

    @translated
    def record(self, stream=None):
        self._e.record(_stream(stream))
        return self

    @translated
    def synchronize(self):
        self._e.synchronize()
        return self

    @translated
    def query(self):
        return self._e.query()

    @translated
    def time_since(self, event):
        """Milliseconds from event to this one."""
        return ember.get_elapsed_time(event._e, self._e)

    @translated
    def time_till(self, event):
        """Milliseconds from this event to event."""
        return ember.get_elapsed_time(self._e, event._e)


# ---- kernels ----------------------------------------------------------------

def _pointer_arg(a, name, i):
    """What ember's launcher takes for a pointer parameter."""
    if isinstance(a, DeviceAllocation):
        return a._arg()
    dev = getattr(a, "_device_array", None)   # a gpuarray.VecGPUArray
    if dev is not None:
        return dev
    if isinstance(a, (int, numpy.integer)) and not isinstance(a, bool):
        ptr = int(a)
        base = _containing(ptr)
        if base is None:
            raise TypeError(
                "%s: argument %d is the address %#x, which is in no live "
                "mem_alloc block; pass the DeviceAllocation or array" %
                (name, i, ptr))
        if ptr == base.ptr:
            return base._arg()
        # the rest of the block from there: an empty view has no memory
        # to point at (the cpu device passed a null pointer)
        return _device_bytes(ptr, base.size - (ptr - base.ptr))
    return a


def _dims(t, what):
    t = tuple(t) if isinstance(t, (tuple, list)) else (t,)
    if not 1 <= len(t) <= 3:
        raise ValueError("%s must have 1 to 3 dimensions, got %r" % (what, t))
    return t


class Function:
    """A kernel of a SourceModule: f(*args, block=(x, y, z), grid=(x, y),
    shared=0, stream=None, time_kernel=False), or prepare() then
    prepared_call()."""

    def __init__(self, fn):
        self._fn = fn
        self._types = None
        self.name = fn.name

    def _convert(self, args):
        kinds = self._fn.param_kinds
        if len(args) != len(kinds):
            raise TypeError("%s() takes %d kernel arguments (%d given)"
                            % (self.name, len(kinds), len(args)))
        return tuple(_pointer_arg(a, self.name, i) if k == "pointer" else a
                     for i, (a, k) in enumerate(zip(args, kinds)))

    @translated
    def _launch(self, grid, block, args, shared, stream, timed=False):
        grid = _dims(grid, "grid")
        block = _dims(block, "block")
        s = _stream(stream)
        if not timed:
            self._fn(grid, block, args, shared_mem=shared, stream=s)
            return None
        e0, e1 = ember.Event(), ember.Event()
        e0.record(s)
        self._fn(grid, block, args, shared_mem=shared, stream=s)
        e1.record(s)
        return ember.get_elapsed_time(e0, e1) * 1e-3

    def __call__(self, *args, block=None, grid=(1, 1), shared=0, stream=None,
                 time_kernel=False):
        if block is None:
            raise ValueError("%s(): block=(x, y, z) is required" % self.name)
        if time_kernel and stream is not None:
            raise ValueError("time_kernel=True cannot be used with a stream")
        return self._launch(grid, block, self._convert(args), shared, stream,
                            time_kernel)

    def prepare(self, arg_types, shared=None, texrefs=()):
        """arg_types: a struct-style string ('PiF': pointer, int32,
        float32...) or a sequence of such characters and NumPy dtypes."""
        given = list(arg_types)
        kinds = self._fn.param_kinds
        if len(given) != len(kinds):
            raise TypeError("%s.prepare(): %d types for %d parameters"
                            % (self.name, len(given), len(kinds)))
        # numpy.intp for a pointer parameter is PyCUDA's other spelling of 'P'
        self._types = ["P" if (isinstance(t, str) and t == "P") or
                       k == "pointer" else numpy.dtype(t)
                       for t, k in zip(given, kinds)]
        return self

    def _prepared(self, args):
        if self._types is None:
            raise LogicError("%s: prepared_call() before prepare()" % self.name)
        if len(args) != len(self._types):
            raise TypeError("%s() was prepared for %d arguments (%d given)"
                            % (self.name, len(self._types), len(args)))
        return tuple(_pointer_arg(a, self.name, i) if t == "P" else t.type(a)
                     for i, (a, t) in enumerate(zip(args, self._types)))

    def prepared_call(self, grid, block, *args, shared_size=0):
        self._launch(grid, block, self._prepared(args), shared_size, None)

    def prepared_async_call(self, grid, block, stream, *args, shared_size=0):
        self._launch(grid, block, self._prepared(args), shared_size, stream)

    def prepared_timed_call(self, grid, block, *args, shared_size=0):
        t = self._launch(grid, block, self._prepared(args), shared_size, None,
                         timed=True)
        return lambda: t

    def __repr__(self):
        return "<ember.pycuda.driver.Function %s>" % self.name
