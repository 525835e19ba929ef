"""The part of cupyx that ember provides: ``ember.cupyx.profiler`` (the
profiler's benchmark) and ``ember.cupyx.jit`` (CuPy's Python kernels, on
ember's translator: jit.py). Other cupyx modules are not here."""
from ember import profiler  # noqa: F401
import sys as _sys

_sys.modules[__name__ + ".profiler"] = profiler
