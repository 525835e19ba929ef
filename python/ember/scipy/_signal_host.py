"""Host-side helpers of ember.scipy.signal's coefficient work: the few
numbers of a filter's or a system's description (polynomials, small
state matrices) read into NumPy, as SciPy's design functions compute
them, and the results handed back as ember arrays on the caller's
device. Nothing here touches a signal's samples."""
import ember as _e


def host(a, dtype=None):
    """a (ember array on any device, NumPy array, list, number) as a
    NumPy array."""
    import numpy
    if isinstance(a, _e.ndarray):
        a = _e.asnumpy(a)
    return numpy.asarray(a, dtype=dtype)


def device_of(*arrays, device=None):
    """Where results go: device=, else the first ember array's device,
    else None (the default device)."""
    if device is not None:
        return device
    for a in arrays:
        if isinstance(a, _e.ndarray):
            return a.device
    return None


def put(a, device):
    """A NumPy array (or number) as an ember array on device."""
    return _e.asarray(a, device=device)


def normalize(b, a):
    """signal_design.normalize on host arrays, NumPy arrays back (its
    checks and its BadCoefficients warning included)."""
    from ember.scipy.signal_design import normalize as _norm
    nb, na = _norm(_e.asarray(b, device="cpu"), _e.asarray(a, device="cpu"))
    return _e.asnumpy(nb), _e.asnumpy(na)
