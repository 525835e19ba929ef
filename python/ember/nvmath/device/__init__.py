"""Not provided by ember (docs/nvmath.md): importing it raises ImportError."""
from ember.nvmath import __getattr__ as _missing

_missing("device")
