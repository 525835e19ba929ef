"""NumPy's window functions, each one fused kernel over M points on the
current device (kernels/window.c, kernels/kaiser.c)."""
import operator

from ember import _ember as _e
from ember._api._util import kernel

_KIND = {"bartlett": 0, "blackman": 1, "hamming": 2, "hanning": 3}


def _window(M, fill):
    """M points of a window: fill(M, out) writes them into a float64 out,
    except where NumPy's answer needs no kernel (M < 1 gives an empty
    array, M == 1 a single 1)."""
    M = operator.index(M)
    if M < 1:
        return _e.empty((0,))
    if M == 1:
        return _e.ones((1,))
    out = _e.empty((M,))
    fill(M, out)
    return out


def _cosine_window(name, M):
    return _window(M, lambda M, out: kernel("window", "int64 M, int64 kind",
                                            "float64 w")(M, _KIND[name], out))


def bartlett(M):
    """The triangular window, 1 - |n| / (M - 1) for n = 1 - M, 3 - M, ..."""
    return _cosine_window("bartlett", M)


def blackman(M):
    return _cosine_window("blackman", M)


def hamming(M):
    return _cosine_window("hamming", M)


def hanning(M):
    return _cosine_window("hanning", M)


def kaiser(M, beta):
    return _window(M, lambda M, out: kernel(
        "kaiser", "float64 beta, int64 M", "float64 w",
        include=("bessel_i0.h",))(float(beta), M, out))
