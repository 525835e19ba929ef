"""ember.scipy: SciPy's functions over ember arrays, as cupyx.scipy is
CuPy's (issue 21): special, signal, ndimage, sparse, linalg, stats and
spatial (docs/scipy.md says what each holds and lacks). Submodules load
on first use."""
import importlib

__all__ = ["special", "signal", "ndimage", "sparse", "interpolate", "linalg", "fft",
           "stats", "spatial", "cluster"]


def __getattr__(name):
    if name in __all__:
        return importlib.import_module(f"ember.scipy.{name}")
    raise AttributeError(f"module 'ember.scipy' has no attribute {name!r}")
