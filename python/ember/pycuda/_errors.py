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
- LogicError, LaunchError and RuntimeError are kinds of Error that
  ember.pycuda raises for its own checks (a call in the wrong state,
  a launch it refuses, a failure of the runtime's bookkeeping)."""
import builtins

import ember

__all__ = ["Error", "LogicError", "LaunchError", "RuntimeError",
           "MemoryError", "CompileError"]

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
