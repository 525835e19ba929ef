"""Operands and options as nvmath-python takes them, over ember arrays.

An operand is an ember.ndarray (the work runs on its device, the result
stays there) or a NumPy array (the result is a NumPy array). A NumPy
operand is read in place on ember's cpu device (a zero-copy view), or
copied to a GPU when the execution space is cuda, as nvmath copies host
operands to the GPU; results then come back as new NumPy arrays.
"""
import dataclasses
import logging
import sys

import ember


def package_of(x, name="operand"):
    """'ember' or 'numpy'; TypeError naming anything else."""
    if isinstance(x, ember.ndarray):
        return "ember"
    np = sys.modules.get("numpy")
    if np is not None and isinstance(x, np.ndarray):
        return "numpy"
    raise TypeError(f"The {name} must be an ember.ndarray or a numpy.ndarray; got "
                    f"{type(x).__module__}.{type(x).__qualname__}. ember.nvmath takes ember and "
                    f"NumPy arrays (convert others with ember.asarray or ember.from_dlpack).")


def same_package(operands, names):
    """The one package of several operands; TypeError if they mix."""
    pkgs = [package_of(x, n) for x, n in zip(operands, names)]
    if len(set(pkgs)) > 1:
        desc = ", ".join(f"{n}: {p}" for n, p in zip(names, pkgs))
        raise TypeError(f"The operands must all belong to one package ({desc}).")
    return pkgs[0]


def default_is_cuda():
    return str(ember.Device()).startswith("cuda")


def to_device(x, device):
    """x (ember or NumPy) as an ember array on device: the array itself
    when it is already there, a zero-copy view for NumPy on cpu, else a
    copy."""
    if isinstance(x, ember.ndarray) and x.device == device:
        return x
    # device named even for cpu: without it a NumPy array goes to the
    # current device, a GPU on a GPU host (cpu still adopts it uncopied)
    return ember.asarray(x, device=device)


class Stateful:
    """nvmath's stateful objects (Matmul, FFT) as context managers: leaving
    the block frees them."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()
        return False


def memory_order(x):
    """x's axes, slowest first, when x is a permutation of a contiguous
    array (so x.transpose(order) is C-contiguous), else None."""
    order = sorted(range(x.ndim), key=lambda i: (-x.strides[i], -x.shape[i]))
    return order if x.transpose(order).flags.c_contiguous else None


def is_view_of(view, np_array):
    """True when view (an ember cpu array) reads np_array's memory."""
    return (str(view.device) == "cpu"
            and view.data.ptr == np_array.__array_interface__["data"][0])


def deliver(d, inplace, operands, users, package, device):
    """A matmul's product d as the caller gets it: written into C (the
    third of operands, the caller's its third of users: copied back when
    NumPy's memory is not operands') when in place, else as the caller's
    package on device."""
    if not inplace:
        return to_package(d, package, device)
    cdev, cuser = operands[2], users[2]
    cdev[...] = d.reshape(cdev.shape)
    if package == "numpy" and not is_view_of(cdev, cuser):
        import numpy as np
        np.copyto(cuser, ember.asnumpy(cdev))
    return cuser


def to_package(r, package, device):
    """The result r (ember) as the caller's package and device."""
    if package == "numpy":
        import numpy as np
        if str(r.device) == "cpu":
            return np.asarray(r)        # no copy: NumPy keeps ember's buffer alive
        order = memory_order(r)
        if order is None:
            return ember.asnumpy(r)
        # the copy keeps r's layout (a 'natural' result's strides)
        inverse = sorted(range(len(order)), key=order.__getitem__)
        return ember.asnumpy(r.transpose(order)).transpose(inverse)
    if r.device != device:
        return ember.asarray(r, device=device)
    return r


def check_or_create_options(cls, options, what):
    """options as an instance of cls: None -> defaults, a dict -> cls(**dict)."""
    if options is None:
        return cls()
    if isinstance(options, dict):
        try:
            return cls(**options)
        except TypeError as e:
            names = [f.name for f in dataclasses.fields(cls)]
            raise TypeError(f"{what}: {e}; the valid names are {names}.") from None
    if isinstance(options, cls):
        return dataclasses.replace(options)
    raise TypeError(f"{what} must be provided as an object of type {cls.__name__} or as a dict "
                    f"with its fields; got {type(options).__name__}.")


def get_logger(options):
    return options.logger if getattr(options, "logger", None) is not None else logging.getLogger()


class StreamScope:
    """`with StreamScope(stream):` makes an ember stream current for the
    call; None (or a stream of another kind on cpu) leaves it as it is."""

    def __init__(self, stream):
        self.stream = stream if isinstance(stream, ember.Stream) else None
        if stream is not None and not isinstance(stream, (ember.Stream, int)):
            raise TypeError(f"stream must be an ember.Stream (or None); got {type(stream).__name__}.")

    def __enter__(self):
        if self.stream is not None:
            self.stream.__enter__()
        return self

    def __exit__(self, *exc):
        if self.stream is not None:
            self.stream.__exit__(*exc)
        return False
