"""PyCUDA's ``pycuda.compiler.SourceModule`` over ember.RawModule: the
source is compiled for the current device (NVRTC on a GPU, the host C++
compiler on the cpu device) through ember's kernel cache, with
PyCUDA's headers (include/pycuda-complex.hpp) on the include path.
``DynamicSourceModule`` is refused with the reason (see its class)."""
import os

import ember

from .driver import Function, DeviceAllocation

__all__ = ["SourceModule", "DynamicSourceModule"]

_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")
# ember's kernel cache keys on source and options, not on included files:
# this define names the headers' revision, so a change to them compiles
# anew instead of reusing kernels built from the old text. Raise it with
# every change to include/.
_HEADERS_REVISION = "-DEMBER_PYCUDA_HEADERS=2"
# nvcc reads the host's C library headers, NVRTC has none: on a GPU these
# stand in for them (include/nvrtc/README)
_NVRTC = os.path.join(_INCLUDE, "nvrtc")


def compile_options(options=(), include_dirs=()):
    """The options ember.RawModule gets for PyCUDA-style source: the
    caller's, their include_dirs, then PyCUDA's headers, and on a GPU the
    C library's headers and typedefs nvcc would have given."""
    if isinstance(options, str):
        raise TypeError("options must be a list of strings, not a string")
    o = tuple(options or ()) + tuple("-I" + d for d in include_dirs) + \
        ("-I" + _INCLUDE, _HEADERS_REVISION)
    if ember.get_current_device().type != "cpu":
        o += ("-I" + _NVRTC, "--pre-include=" + os.path.join(_NVRTC, "prelude.h"))
    return o


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
        self._mod = ember.RawModule(
            code=source, options=compile_options(options, include_dirs))
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


class DynamicSourceModule(SourceModule):
    """PyCUDA's module for dynamic parallelism (kernels that launch
    kernels). Refused on every device, saying why:

    - on a GPU such code must be compiled relocatable (-rdc) and linked
      with CUDA's device runtime (cudadevrt); ember compiles each module
      with NVRTC alone and loads the result, with no linker step (no
      cuLink or nvJitLink), so it cannot build one;
    - on the cpu device a launch inside a kernel would have to start a
      grid inside a running block of the block simulator and wait on it;
      the simulator runs one grid at a time, so it cannot be simulated."""

    def __init__(self, source, nvcc="nvcc", options=None, keep=False,
                 no_extern_c=False, arch=None, code=None, cache_dir=None,
                 include_dirs=(), cuda_libdir=None):
        dev = ember.get_current_device()
        if dev.type == "cpu":
            why = ("the cpu device's block simulator runs one grid at a "
                   "time and cannot start a grid from inside a kernel")
        else:
            why = ("it needs relocatable device code (-rdc) linked with "
                   "CUDA's device runtime (cudadevrt), and ember compiles "
                   "each module with NVRTC alone, with no link step")
        raise NotImplementedError(
            "DynamicSourceModule (dynamic parallelism) on %s: %s; launch "
            "the child kernels from the host instead" % (dev, why))
