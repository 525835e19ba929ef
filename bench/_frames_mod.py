"""bench/frames.py's timing and table helpers for the other benches.

bench/ holds scipy.py, which would shadow SciPy (scikit-learn and pandas
import it), so the benches' folder leaves sys.path before anything else is
imported, and frames.py is loaded by file."""
import importlib.util
import os
import sys


def load():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.util.spec_from_file_location("bench_frames",
                                                  os.path.join(here, "frames.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
