"""The device functions that are argument handling over ember.Device and
the extension's facts about the machine (runtime/info.c): which device a
spec names, and whether each backend works."""
from ember import _ember

__all__ = ["backend_status", "cuda_is_available", "get_device"]


def get_device(spec=None):
    """get_device(spec=None): the current device, or the device spec names."""
    return _ember.Device(spec)


def backend_status(name):
    """backend_status('cuda'|'cpu') -> 'ok' or why the backend is unusable."""
    if not isinstance(name, str):
        raise TypeError("backend_status() takes 'cpu' or 'cuda'")
    if name not in ("cuda", "gpu", "cpu", "host"):
        raise ValueError("unknown backend '%s': expected 'cpu' or 'cuda'" % name)
    return _ember._backend_status(name in ("cuda", "gpu"))


def cuda_is_available():
    """True if a CUDA driver and at least one GPU work."""
    try:
        return _ember._cuda_device_count() > 0
    except Exception:   # no driver, or a broken one: not available
        return False
