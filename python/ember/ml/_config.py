"""Where estimator results go: cuML's output_type as one global setting.

"input" (the default) gives results of the kind the estimator was fitted on:
NumPy arrays for NumPy, list or pandas input, ember arrays for ember arrays
and ember frames. "ember" and "numpy" force one kind."""
import contextlib
import threading

_KINDS = ("input", "ember", "numpy")
_local = threading.local()


def _state():
    s = getattr(_local, "config", None)
    if s is None:
        s = _local.config = {"output": "input"}
    return s


def get_config():
    """A copy of the current settings: {'output': 'input'|'ember'|'numpy'}."""
    return dict(_state())


def set_output(output="input"):
    """Set the kind of array estimators return (per thread)."""
    if output not in _KINDS:
        raise ValueError(f"set_output: output must be one of {_KINDS}, got {output!r}")
    _state()["output"] = output


@contextlib.contextmanager
def config_context(*, output=None):
    """with config_context(output="numpy"): ... sets and restores it."""
    old = get_config()
    try:
        if output is not None:
            set_output(output)
        yield
    finally:
        _state().update(old)
