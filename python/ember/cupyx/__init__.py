"""The part of cupyx that ember provides: ``ember.cupyx.profiler`` (the
profiler's benchmark), ``ember.cupyx.jit`` (CuPy's Python kernels, on
ember's translator: jit.py) and ``ember.cupyx.scipy`` (ember.scipy, loaded
on first use), and cupyx's pinned-memory constructors (empty_pinned,
empty_like_pinned, zeros_pinned, zeros_like_pinned: _pinned.py). Other
cupyx modules are not here."""
from ember import profiler  # noqa: F401
from ember.cupyx._pinned import (  # noqa: F401
    empty_pinned, empty_like_pinned, zeros_pinned, zeros_like_pinned)
import importlib as _importlib
import sys as _sys

_sys.modules[__name__ + ".profiler"] = profiler


def __getattr__(name):
    if name == "scipy":
        return _importlib.import_module(__name__ + ".scipy")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
