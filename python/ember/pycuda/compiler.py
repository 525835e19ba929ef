"""PyCUDA's ``pycuda.compiler.SourceModule`` over ember.RawModule: the
source is compiled for the current device (NVRTC on a GPU, the host C++
compiler on the cpu device) through ember's kernel cache."""
import ember

from .driver import Function, DeviceAllocation

__all__ = ["SourceModule"]


class SourceModule:
    """SourceModule(source, nvcc='nvcc', options=None, keep=False,
    no_extern_c=False, arch=None, code=None, cache_dir=None,
    include_dirs=[]).

    As PyCUDA, the source is wrapped in extern "C" { } unless no_extern_c,
    so kernels keep their plain names. options and include_dirs go to the
    compiler; nvcc, keep and cache_dir have no meaning for ember (it does
    not run nvcc; its cache is $EMBER_CACHE_DIR); arch and code must be left
    out, as ember compiles for the device the module is loaded on."""

    def __init__(self, source, nvcc="nvcc", options=None, keep=False,
                 no_extern_c=False, arch=None, code=None, cache_dir=None,
                 include_dirs=()):
        if arch is not None or code is not None:
            raise NotImplementedError(
                "SourceModule(arch=%r, code=%r): ember compiles for the "
                "device it loads the module on; leave arch and code out"
                % (arch, code))
        if not no_extern_c:
            source = 'extern "C" {\n%s\n}\n' % source
        opts = list(options or ()) + ["-I" + d for d in include_dirs]
        self._mod = ember.RawModule(code=source, options=tuple(opts))
        self.source = source

    def get_function(self, name):
        return Function(self._mod.get_function(name))

    def get_global(self, name):
        """(address, size in bytes) of a __device__ or __constant__
        variable, as PyCUDA returns; the address works with memcpy_htod and
        memcpy_dtoh."""
        mp = self._mod.get_global(name)
        return _GlobalAllocation(mp), mp.mem.size


class _GlobalAllocation(DeviceAllocation):
    """A module variable's memory (the module owns it)."""

    def __init__(self, mp):
        self._buf = mp
        self.ptr = int(mp.ptr)
        self.size = mp.mem.size

    def _memptr(self, offset=0):
        return self._buf + offset
