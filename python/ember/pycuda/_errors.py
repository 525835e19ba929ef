"""PyCUDA's exception classes (pycuda.driver.Error and its kinds) mapped
onto the exceptions ember raises, so a PyCUDA program's `except` clauses
catch what ember's runtime raises:

- Error is ember.CUDAError itself: ember raises it for every driver
  failure, so `except drv.Error` catches those.
- MemoryError is Python's MemoryError: ember's pool raises it (with the
  requested, in-use, cached and free bytes) when out of memory. PyCUDA's
  is a kind of Error; ember's cannot be, since the pool raises the
  built-in one everywhere (CuPy's OutOfMemoryError is the same alias).
- CompileError is ember.CompileError, which SourceModule raises with the
  compiler's log.
- LogicError, LaunchError and RuntimeError are kinds of Error. The
  driver calls of ember.pycuda go through `translated`, which re-raises
  ember's CUDAError as the kind PyCUDA reports for its CUresult (a
  kernel that faulted is a LaunchError at the next synchronize, as in
  PyCUDA), and ember.pycuda raises them for its own checks (a call in
  the wrong state is a LogicError)."""
import builtins
import functools

import ember

__all__ = ["Error", "LogicError", "LaunchError", "RuntimeError",
           "MemoryError", "CompileError", "translated"]

Error = ember.CUDAError
MemoryError = builtins.MemoryError
CompileError = ember.CompileError


class LogicError(Error):
    """A call made in the wrong state (pop without push, prepared_call
    before prepare, ...)."""
    __module__ = "ember.pycuda.driver"


class LaunchError(Error):
    """A kernel launch that cannot be made."""
    __module__ = "ember.pycuda.driver"


class RuntimeError(Error):
    """A failure of the runtime that is not the caller's."""
    __module__ = "ember.pycuda.driver"


# The CUresult names PyCUDA reports as LaunchError and as RuntimeError; it
# reports CUDA_ERROR_UNKNOWN as plain Error and every other failure as
# LogicError (an illegal address, an invalid value, ...).
_LAUNCH = frozenset((
    "CUDA_ERROR_LAUNCH_FAILED", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
    "CUDA_ERROR_LAUNCH_TIMEOUT", "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"))
_RUNTIME = frozenset((
    "CUDA_ERROR_NO_DEVICE", "CUDA_ERROR_NO_BINARY_FOR_GPU",
    "CUDA_ERROR_FILE_NOT_FOUND", "CUDA_ERROR_NOT_READY",
    "CUDA_ERROR_ECC_UNCORRECTABLE"))


def kind_of(name):
    """PyCUDA's class for a driver failure named name; Error for none (a
    failure ember detected itself carries no CUresult)."""
    if not name or name == "CUDA_ERROR_UNKNOWN":
        return Error
    if name in _LAUNCH:
        return LaunchError
    if name in _RUNTIME:
        return RuntimeError
    return LogicError


def translated(func):
    """func, with ember's CUDAError re-raised as PyCUDA's kind of it (the
    same message, .code and .name; still a CUDAError)."""
    @functools.wraps(func)
    def call(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except Error as e:
            cls = kind_of(e.name)
            if type(e) is not Error or cls is Error:
                raise
            new = cls(*e.args)
            new.code, new.name = e.code, e.name
            raise new.with_traceback(e.__traceback__) from None
    return call
