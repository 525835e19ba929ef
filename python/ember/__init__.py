"""ember: the GPU computing stack for Python, with a C core.

Every program also runs on the CPU: the device ``cpu`` compiles the same
kernels with the system C compiler. This module only re-exports the C
extension; importing it starts no device and imports no NumPy.
"""
import os as _os
import sys as _sys

from ember import _ember
from ember._ember import __version__

# pip's nvidia-* wheels keep the CUDA libraries under site-packages/nvidia,
# the scipy-openblas64 wheel OpenBLAS under site-packages/scipy_openblas64/
# lib; the C core opens cuBLAS, cuFFT, OpenBLAS ... from there when a
# feature needs one (src/backend/vendor.c). NumPy's own copy of that
# OpenBLAS (numpy.libs) comes first, so a program using both has one BLAS
# thread pool. Three stats per path entry: nothing is loaded here.
def _add_wheel_dirs():
    for p in _sys.path:
        if p and _os.path.isdir(p + "/nvidia"):
            _ember._vendor_add_dir(p + "/nvidia")
        if p and _os.path.isdir(p + "/numpy.libs"):
            _ember._vendor_add_dir(p + "/numpy.libs")
        if p and _os.path.isdir(p + "/scipy_openblas64/lib"):
            _ember._vendor_add_dir(p + "/scipy_openblas64/lib")


_add_wheel_dirs()
del _add_wheel_dirs

# Everything public the extension defines (devices, streams, memory,
# programs, errors, ndarray and its functions, the dtypes as ember.float32
# and ember.bool, the ufuncs as ember.add and ember.sqrt) under its own
# name, so a new C function needs no edit here. Nothing below may call the
# builtins these shadow in this module (bool, abs, min, max, round, sum,
# any, all, pow).
_public = sorted(name for name in vars(_ember) if not name.startswith("_"))
globals().update({name: getattr(_ember, name) for name in _public})

# NumPy's exception classes (AxisError, ComplexWarning, ...) are answered
# on each access: a subclass of NumPy's once NumPy is loaded, without
# importing it (python/ember/_ext/runtime/errors.c says why that is always right).
_np_exception_names = _ember._np_exception_names


# The Python layer of composite functions (python/ember/_api/): each name
# is loaded on first access, so `import ember` does not pay for it. Its
# names replace the extension's where both exist (sort, argsort, unique_*,
# std, var: the Array API's keywords and result types over the C calls).
from ember import _api  # noqa: E402
for _name in _api.__all__:
    globals().pop(_name, None)
del _name


# Functions the extension used to define and the layer now holds still
# answer as _ember.<name>: the package's modules and ufunc.at call them so.
def _ember_getattr(name):
    if name not in _api._WHERE:
        raise AttributeError(f"module 'ember._ember' has no attribute '{name}'")
    value = _api.load(name)
    setattr(_ember, name, value)
    return value


_ember.__getattr__ = _ember_getattr


_LAZY_SUBMODULES = frozenset({"testing", "profiler", "cupyx", "pycuda", "jit",
                              "random", "fft", "parallel", "frame", "nvml", "nvmath", "polynomial", "ma"})
# pandas' spellings at the top level, as cuDF has them; ember.frame (and
# with it NumPy) is imported on the first use of one.
_FRAME_NAMES = frozenset({"DataFrame", "Series", "Index", "RangeIndex",
                          "from_pandas", "from_arrow", "read_csv", "read_parquet",
                          "read_json", "merge", "concat", "pivot_table", "melt",
                          "to_datetime", "date_range", "MultiIndex", "read_orc"})


def __getattr__(name):
    if name in _np_exception_names:
        return _ember._np_exception(name)
    if name in _api._WHERE:
        value = globals()[name] = _api.load(name)
        return value
    if name == "runtime":   # cupy.cuda.runtime's spellings, on first use
        return cuda.runtime
    if name == "profile":   # `with ember.profile() as p:` (ember/profiler.py)
        from ember.profiler import profile
        return profile
    if name == "memmap":   # NumPy's file-backed array (ember/_memmap.py)
        from ember._memmap import memmap
        globals()[name] = memmap
        return memmap
    if name == "njit":   # `from numba import njit` after the import change
        from ember.jit.host import njit
        return njit
    if name in _FRAME_NAMES:
        from ember import frame
        value = globals()[name] = getattr(frame, name)
        return value
    if name in _LAZY_SUBMODULES:
        # cupy.testing works without `import cupy.testing`; so must ours.
        import importlib
        return importlib.import_module(__name__ + "." + name)
    raise AttributeError(f"module 'ember' has no attribute {name!r}")


from ember import cuda  # noqa: E402  (after the names cuda.* refers to)
# CuPy's cupy.get_default_pinned_memory_pool (python/ember/cuda/pinned_memory.py)
get_default_pinned_memory_pool = cuda.pinned_memory.get_default_pinned_memory_pool
# `import ember.linalg` works, as ember.cuda.runtime does.
_sys.modules[__name__ + ".linalg"] = _ember.linalg


def _linalg_getattr(name):
    # ember.linalg's Python functions (solve, svd, norm, ...) live in
    # _api/linalg.py, imported on the first use of one of them.
    from ember._api import linalg as la
    if name == "LinAlgError":   # the class raised now (errors.c)
        return _ember._np_exception(name)
    if name in la.__all__:
        value = getattr(la, name)
        setattr(_ember.linalg, name, value)
        return value
    raise AttributeError(f"module 'ember.linalg' has no attribute {name!r}")


def _linalg_dir():
    from ember._api import linalg as la
    return sorted(set(vars(_ember.linalg)) | set(la.__all__))


_ember.linalg.__getattr__ = _linalg_getattr
_ember.linalg.__dir__ = _linalg_dir

# NumPy's C-named aliases of the sized dtypes, as ember dtypes like
# ember.single and ember.double (C's long is 64 bits on LP64 hosts)
import struct as _struct  # noqa: E402
byte, ubyte, short, ushort, intc, uintc = int8, uint8, int16, uint16, int32, uint32
long, ulong = {4: (int32, uint32), 8: (int64, uint64)}[_struct.calcsize("l")]
longlong, ulonglong, uint = int64, uint64, uintp
del _struct
_C_ALIASES = ["byte", "ubyte", "short", "ushort", "intc", "uintc", "long", "ulong",
              "longlong", "ulonglong", "uint"]

little_endian = _sys.byteorder == "little"
euler_gamma = 0.577215664901532860606512090082402431
newaxis = None
inf = float("inf")
nan = float("nan")
pi = 3.141592653589793
e = 2.718281828459045
__array_api_version__ = "2024.12"

__all__ = (["__version__", "cuda", "runtime", "newaxis", "inf", "nan", "pi", "e",
            "little_endian", "euler_gamma",
            "get_default_pinned_memory_pool", "memmap"] + _C_ALIASES + _public
           + list(_np_exception_names)
           + [name for name in _api.__all__ if name not in _public])
