"""A Device's cold properties (properties, name, compute_capability, uuid,
attributes, mem_info), its repr and the small types they return. The
extension's Device reads its properties and memory figures in C
(runtime/device.c); these are compositions of them, computed on access."""
__all__ = ["ComputeCapability", "MemInfo"]


class ComputeCapability(tuple):
    """A device's compute capability (major, minor). cuda.core reads it as
    (major, minor) and CuPy as the string '90': it also prints, compares
    with a str and converts to int as CuPy's string does (f"sm_{cc}",
    cc >= '70', int(cc))."""
    __slots__ = ()
    __module__ = "ember"

    def __new__(cls, seq):
        t = tuple.__new__(cls, seq)
        if len(t) != 2:
            raise TypeError("ember.ComputeCapability() takes a 2-sequence (%d-sequence "
                            "given)" % len(t))
        return t

    major = property(lambda self: self[0], doc="compute capability major version")
    minor = property(lambda self: self[1], doc="compute capability minor version")

    def __repr__(self):
        return "ember.ComputeCapability(major=%r, minor=%r)" % self

    def __str__(self):
        return "%s%s" % self

    def __int__(self):
        return int(str(self))

    def _cmp(op):
        def f(self, other):
            if isinstance(other, str):
                return getattr(str(self), op)(other)
            return getattr(tuple, op)(self, other)
        return f

    __eq__, __ne__, __lt__ = _cmp("__eq__"), _cmp("__ne__"), _cmp("__lt__")
    __le__, __gt__, __ge__ = _cmp("__le__"), _cmp("__gt__"), _cmp("__ge__")
    __hash__ = tuple.__hash__
    del _cmp


class MemInfo(tuple):
    """(free, total) bytes of a device; calling it gives itself (CuPy reads
    d.mem_info as a property and ember documents d.mem_info())."""
    __slots__ = ()
    __module__ = "ember"

    def __call__(self):
        return self


# Device._props's order, named as cudaGetDeviceProperties does
_PROPS = ("name totalGlobalMem sharedMemPerBlock sharedMemPerBlockOptin "
          "sharedMemPerMultiprocessor regsPerBlock warpSize maxThreadsPerBlock "
          "maxThreadsDim maxGridSize clockRate memoryClockRate memoryBusWidth "
          "l2CacheSize multiProcessorCount major minor pciBusID pciDeviceID "
          "pciDomainID unifiedAddressing uuid").split()


def properties(d):
    p = dict(zip(_PROPS, d._props))
    p["name"] = p["name"].decode("utf-8", "replace")
    return p


def device_repr(d):
    return "<ember.Device %s>" % d


def name(d):
    return d.properties["name"]


def compute_capability(d):
    p = d.properties
    return ComputeCapability((p["major"], p["minor"]))


def mem_info(d):
    return MemInfo(d._mem_info)


def uuid(d):
    """The GPU's UUID as cuda.core writes it (8-4-4-4-12 hex digits); None
    on cpu, which has none, or where the driver did not say."""
    u = d.properties["uuid"]
    if not any(u):
        return None
    h = u.hex()
    return "-".join((h[:8], h[8:12], h[12:16], h[16:20], h[20:]))


# CUDA's device attributes without the cudaDevAttr prefix, as
# cupy.cuda.Device.attributes spells them, from the properties' names.
_ATTRIBUTES = (
    ("MaxThreadsPerBlock", "maxThreadsPerBlock"),
    ("MaxBlockDimX", ("maxThreadsDim", 0)), ("MaxBlockDimY", ("maxThreadsDim", 1)),
    ("MaxBlockDimZ", ("maxThreadsDim", 2)), ("MaxGridDimX", ("maxGridSize", 0)),
    ("MaxGridDimY", ("maxGridSize", 1)), ("MaxGridDimZ", ("maxGridSize", 2)),
    ("MaxSharedMemoryPerBlock", "sharedMemPerBlock"),
    ("MaxSharedMemoryPerBlockOptin", "sharedMemPerBlockOptin"),
    ("MaxSharedMemoryPerMultiprocessor", "sharedMemPerMultiprocessor"),
    ("MaxRegistersPerBlock", "regsPerBlock"), ("WarpSize", "warpSize"),
    ("ClockRate", "clockRate"), ("MemoryClockRate", "memoryClockRate"),
    ("GlobalMemoryBusWidth", "memoryBusWidth"), ("L2CacheSize", "l2CacheSize"),
    ("MultiProcessorCount", "multiProcessorCount"),
    ("ComputeCapabilityMajor", "major"), ("ComputeCapabilityMinor", "minor"),
    ("PciBusId", "pciBusID"), ("PciDeviceId", "pciDeviceID"),
    ("PciDomainId", "pciDomainID"), ("UnifiedAddressing", "unifiedAddressing"),
    ("TotalGlobalMem", "totalGlobalMem"),
)


def attributes(d):
    p = d.properties
    return {a: p[k] if isinstance(k, str) else p[k[0]][k[1]] for a, k in _ATTRIBUTES}

