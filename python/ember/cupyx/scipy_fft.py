"""cupyx.scipy.fft: scipy.fft's transforms on ember arrays, and a SciPy FFT
backend (``scipy.fft.set_backend(ember.cupyx.scipy.fft)``).

Each transform is ember.fft's (pocketfft through NumPy on the cpu device,
cuFFT on a CUDA device) with scipy.fft's signature: ``overwrite_x`` and
``workers`` are accepted and change nothing (ember never writes its input;
the cpu device's transform is one pocketfft call), and ``plan`` takes what
get_fft_plan returns. Single precision stays single (complex64), as
scipy.fft and NumPy 2 do.

Plans: ember keeps its own cache of cuFFT plans (ember.fft.config) and
takes every transform's plan from it, so get_fft_plan returns a record of
the transform it was made for, not a cuFFT handle. Passing it (plan=, or
``with plan:`` around ember.fft's calls) computes the same values as
without it; a plan= whose transform differs from the call's raises
ValueError, as CuPy's does.
"""
import operator

import ember
import ember.fft as _efft

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft",
           "rfft2", "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "hfft2",
           "ihfft2", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift", "next_fast_len",
           "get_fft_plan"]

# SciPy's backend protocol (uarray): the domain scipy.fft dispatches in.
__ua_domain__ = "numpy.scipy.fft"

_VALUE_TYPES = ("C2C", "R2C", "C2R")


def _axes_of(ndim, axes, name):
    """axes normalised to non-negative ints, NumPy's AxisError when out
    of range, ValueError when repeated."""
    import numpy
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, int) or hasattr(axes, "__index__"):
        axes = (axes,)
    out = tuple(numpy.lib.array_utils.normalize_axis_index(
        operator.index(ax), ndim) for ax in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: repeated axes {tuple(axes)!r}")
    return out


class _Plan:
    """What get_fft_plan returns: the transform (input shape, axes, value
    type, precision) it was made for. ember takes the cuFFT plan itself
    from its cache (ember.fft.config) when the transform runs."""

    def __init__(self, shape, axes, value_type, single):
        self.shape, self.axes = shape, axes
        self.value_type, self.single = value_type, single

    def _key(self):
        return self.shape, self.axes, self.value_type, self.single

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return (f"<ember FFT plan: {self.value_type} over axes {self.axes} "
                f"of shape {self.shape}, "
                f"{'single' if self.single else 'double'} precision>")


def _single(dtype):
    return ember.dtype(dtype).char in "efF"


def get_fft_plan(a, shape=None, axes=None, value_type="C2C"):
    """cupyx.scipy.fft.get_fft_plan: the plan of a transform of `a` (of
    the given shape over `axes`, all by default) of value type 'C2C',
    'R2C' or 'C2R'. Pass it as plan= to this module's transforms."""
    if not isinstance(a, ember.ndarray):
        raise TypeError("get_fft_plan: a must be an ember.ndarray, not "
                        f"{type(a).__name__}")
    if value_type not in _VALUE_TYPES:
        raise ValueError(f"get_fft_plan: value_type must be one of "
                         f"{_VALUE_TYPES}, not {value_type!r}")
    is_complex = a.dtype.kind == "c"
    if value_type == "R2C" and is_complex:
        raise ValueError("get_fft_plan: an R2C plan needs a real input, "
                         f"not {a.dtype}")
    if value_type in ("C2C", "C2R") and not is_complex:
        raise ValueError(f"get_fft_plan: a {value_type} plan needs a complex "
                         f"input, not {a.dtype}")
    axes = _axes_of(a.ndim, axes, "get_fft_plan")
    full = list(a.shape)
    if shape is not None:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if len(shape) != len(axes):
            raise ValueError(f"get_fft_plan: shape {shape} and axes {axes} "
                             "differ in length")
        for ax, n in zip(axes, shape):
            full[ax] = operator.index(n)
    return _Plan(tuple(full), axes, value_type, _single(a.dtype))


def _check_plan(plan, x, sizes, axes, value_type, name):
    if plan is None:
        return
    if not isinstance(plan, _Plan):
        raise TypeError(f"{name}: plan must come from get_fft_plan, not "
                        f"{type(plan).__name__}")
    full = list(x.shape)
    if sizes is not None:
        for ax, n in zip(axes, sizes):
            full[ax] = n
    mine = (tuple(full), axes, value_type, _single(x.dtype))
    if plan._key() != mine:
        raise ValueError(f"{name}: the plan was made for a {plan.value_type} "
                         f"transform over axes {plan.axes} of shape "
                         f"{plan.shape}; this call is {value_type} over "
                         f"axes {axes} of shape {tuple(full)}")


def _as_array(x):
    return x if isinstance(x, ember.ndarray) else ember.asarray(x)


def _value_type(name):
    # fft/ifft of a real input are C2C: the input is made complex first
    if name.startswith("ir") or name == "hfft":
        return "C2R"
    if name.startswith("r") or name == "ihfft":
        return "R2C"
    return "C2C"


def _one_axis(name):
    efn = getattr(_efft, name)

    def transform(x, n=None, axis=-1, norm=None, overwrite_x=False,
                  workers=None, *, plan=None):
        x = _as_array(x)
        if plan is not None:
            ax = _axes_of(x.ndim, axis, name)
            _check_plan(plan, x, None if n is None else (n,), ax,
                        _value_type(name), name)
        return efn(x, n, axis, norm)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"scipy.fft.{name}(x, n=None, axis=-1, norm=None, "
                         "overwrite_x=False, workers=None, *, plan=None) on "
                         "ember arrays (ember.fft's transform).")
    return transform


def _n_axes(name, default_axes):
    efn = getattr(_efft, name)

    def transform(x, s=None, axes=default_axes, norm=None, overwrite_x=False,
                  workers=None, *, plan=None):
        x = _as_array(x)
        if plan is not None:
            ax = _axes_of(x.ndim, axes if axes is not None or s is None
                          else tuple(range(-len(s), 0)), name)
            _check_plan(plan, x, s, ax, _value_type(name), name)
        return efn(x, s, axes, norm)
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = (f"scipy.fft.{name}(x, s=None, axes={default_axes!r}, "
                         "norm=None, overwrite_x=False, workers=None, *, "
                         "plan=None) on ember arrays (ember.fft's transform).")
    return transform


fft, ifft, rfft, irfft, hfft, ihfft = (
    _one_axis(n) for n in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"))
fft2, ifft2, rfft2, irfft2 = (
    _n_axes(n, (-2, -1)) for n in ("fft2", "ifft2", "rfft2", "irfft2"))
fftn, ifftn, rfftn, irfftn = (
    _n_axes(n, None) for n in ("fftn", "ifftn", "rfftn", "irfftn"))


_SWAP = {None: "forward", "backward": "forward", "forward": "backward",
         "ortho": "ortho"}


def _swap(norm, name):
    try:
        return _SWAP[norm]
    except (KeyError, TypeError):
        raise ValueError(f'{name}: invalid norm value {norm!r}; should be '
                         '"backward", "ortho" or "forward"') from None


def hfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
          *, plan=None):
    """scipy.fft.hfftn: the n-D transform of a Hermitian-symmetric input,
    irfftn of its conjugate with the norm's direction swapped."""
    x = _as_array(x)
    if plan is not None:
        _check_plan(plan, x, s, _axes_of(x.ndim, axes, "hfftn"), "C2R", "hfftn")
    return _efft.irfftn(ember.conj(x), s, axes, _swap(norm, "hfftn"))


def ihfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
           *, plan=None):
    """scipy.fft.ihfftn: hfftn's inverse, the conjugate of rfftn with the
    norm's direction swapped."""
    x = _as_array(x)
    if plan is not None:
        _check_plan(plan, x, s, _axes_of(x.ndim, axes, "ihfftn"), "R2C", "ihfftn")
    return ember.conj(_efft.rfftn(x, s, axes, _swap(norm, "ihfftn")))


def hfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False,
          workers=None, *, plan=None):
    """scipy.fft.hfft2: hfftn over two axes."""
    return hfftn(x, s, axes, norm, overwrite_x, workers, plan=plan)


def ihfft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False,
           workers=None, *, plan=None):
    """scipy.fft.ihfft2: ihfftn over two axes."""
    return ihfftn(x, s, axes, norm, overwrite_x, workers, plan=plan)


def fftfreq(n, d=1.0, *, xp=None, device=None):
    """scipy.fft.fftfreq on ember: the sample frequencies (xp is ignored:
    the result is an ember array)."""
    return _efft.fftfreq(n, d, device=device)


def rfftfreq(n, d=1.0, *, xp=None, device=None):
    """scipy.fft.rfftfreq on ember (xp is ignored)."""
    return _efft.rfftfreq(n, d, device=device)


fftshift = _efft.fftshift
ifftshift = _efft.ifftshift


def next_fast_len(target, real=False):
    """scipy.fft.next_fast_len: SciPy's answer (the smallest 2-3-5-7-11
    smooth length >= target for complex transforms, 2-3-5 for real); a
    length that suits pocketfft suits cuFFT as well."""
    import scipy.fft
    return scipy.fft.next_fast_len(target, real)


def __ua_convert__(dispatchables, coerce):
    """uarray's conversion: ember arrays pass; anything else is converted
    only when the caller asked to coerce (scipy.fft.set_backend(...,
    coerce=True)), else this backend declines (NotImplemented)."""
    out = []
    for d in dispatchables:
        v = d.value
        if isinstance(v, ember.ndarray) or v is None:
            out.append(v)
        elif coerce:
            out.append(ember.asarray(v))
        else:
            return NotImplemented
    return out


def __ua_function__(method, args, kwargs):
    """uarray's dispatch: scipy.fft.<name>(...) runs this module's <name>;
    a function it does not have (dct, dst, the Hankel transforms) is
    declined, so SciPy says which backend lacks it."""
    fn = globals().get(method.__name__) if method.__name__ in __all__ else None
    if fn is None:
        return NotImplemented
    return fn(*args, **kwargs)
