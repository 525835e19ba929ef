"""ember.nvmath.linalg: nvmath-python's linalg namespace (``advanced``)."""
from ember.nvmath.linalg import advanced  # noqa: F401

__all__ = ["advanced"]


def __getattr__(name):
    if name == "generic":
        raise ImportError("ember.nvmath.linalg.generic (nvmath's generic matmul with structure "
                          "qualifiers) is not provided; use ember.nvmath.linalg.advanced.matmul "
                          "or ember.matmul.")
    raise AttributeError(f"module 'ember.nvmath.linalg' has no attribute {name!r}")
