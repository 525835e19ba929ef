"""Operands and options as nvmath-python takes them, over ember arrays.

An operand is an ember.ndarray, a NumPy array, or an array of any package
whose arrays have __dlpack__ and which has from_dlpack (PyTorch, CuPy).
The work reads an ember array over the operand's memory: NumPy's through
ember.asarray, the others' through ember.from_dlpack, neither copying on
the operand's own device. A host operand of another package than ember's
is copied to a GPU when the execution space is cuda, as nvmath copies host
operands to the GPU. Results are of the operand's package on the
operand's device: ember's array itself, NumPy's through numpy.asarray,
the others' through their package's from_dlpack (no copy on one device).
"""
import dataclasses
import logging
import operator
import sys

import ember
from ember._api.dlpack import _CPU, _CUDA, _CUDA_HOST, _CUDA_MANAGED


def _exporter(x):
    """The module whose from_dlpack makes arrays of x's package, found by
    the modules of x's classes and their top-level packages (torch.Tensor:
    torch; torch.nn.Parameter, from torch.nn.parameter: torch), and that
    from_dlpack; (x's top-level module, None) when there is none."""
    for cls in type(x).__mro__:
        for name in (cls.__module__, cls.__module__.split(".")[0]):
            fn = getattr(sys.modules.get(name), "from_dlpack", None)
            if callable(fn):
                return name, fn
    return type(x).__module__.split(".")[0], None


def package_of(x, name="operand"):
    """'ember', 'numpy', or the package of another array with __dlpack__
    ('torch', 'cupy'); TypeError for anything else."""
    if isinstance(x, ember.ndarray):
        return "ember"
    np = sys.modules.get("numpy")
    if np is not None and isinstance(x, np.ndarray):
        return "numpy"
    kind = f"{type(x).__module__}.{type(x).__qualname__}"
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        pkg, fn = _exporter(x)
        if fn is None:
            raise TypeError(f"The {name} ({kind}) has __dlpack__, but its package '{pkg}' has no from_dlpack, "
                            f"which ember.nvmath hands results back through.")
        return pkg
    raise TypeError(f"The {name} must be an ember.ndarray, a numpy.ndarray or an array with __dlpack__ "
                    f"(torch.Tensor, cupy.ndarray); got {kind}.")


def same_package(operands, names):
    """The one package of several operands; TypeError if they mix."""
    pkgs = [package_of(x, n) for x, n in zip(operands, names)]
    if len(set(pkgs)) > 1:
        desc = ", ".join(f"{n}: {p}" for n, p in zip(names, pkgs))
        raise TypeError(f"The operands must all belong to one package ({desc}).")
    return pkgs[0]


def device_name(x):
    """Where x's memory is, as ember names devices ('cpu', 'cuda:1'),
    read from __dlpack_device__ without importing x (so operands on
    devices ember cannot reach are told apart before anything else)."""
    if isinstance(x, ember.ndarray):
        return str(x.device)
    d = x.__dlpack_device__()
    kind, ordinal = operator.index(d[0]), operator.index(d[1])
    if kind in (_CPU, _CUDA_HOST):
        return "cpu"
    if kind in (_CUDA, _CUDA_MANAGED):
        return f"cuda:{ordinal}"
    raise ValueError(f"The operand is in memory of DLPack device type {kind}; ember.nvmath reads cpu, cuda, "
                     f"cuda_host and cuda_managed memory.")


def common_device(operands, what="operands"):
    """The one device_name of several operands; ValueError if they differ."""
    devs = {device_name(x) for x in operands}
    if len(devs) > 1:
        raise ValueError(f"The {what} must be on one device; they are on {sorted(devs)}.")
    return devs.pop()


def as_ember(x, name="operand"):
    """An ember array over x's memory: x itself, a NumPy array adopted by
    ember.asarray, another package's through ember.from_dlpack (no copy).
    Call it with the call's stream current: DLPack orders the producer's
    pending work before that stream."""
    if isinstance(x, ember.ndarray):
        return x
    np = sys.modules.get("numpy")
    if np is not None and isinstance(x, np.ndarray):
        return ember.asarray(x, device="cpu")
    device_name(x)      # memory ember cannot reach is ValueError, as for the device checks
    try:
        return ember.from_dlpack(x)
    except BufferError as e:
        dt = getattr(x, "dtype", None)
        if "float8" in str(dt):
            raise NotImplementedError(f"The {name} has dtype {dt}: ember has no float8 dtypes, so ember.nvmath "
                                      f"does not provide FP8 / MXFP8 matrix multiplication.") from None
        what = f"{type(x).__module__}.{type(x).__qualname__}" + ("" if dt is None else f" of dtype {dt}")
        raise TypeError(f"ember cannot read the {name} ({what}) through DLPack: {e}") from None


def default_is_cuda():
    return str(ember.Device()).startswith("cuda")


def to_device(x, device):
    """x (an ember array) on device: x itself when it is already there,
    else a copy."""
    if x.device == device:
        return x
    return ember.asarray(x, device=device)


def _moved(r, device):
    """r on device, a copy in r's own layout (a 'natural' FFT result's
    strides survive the trip back)."""
    order = memory_order(r)
    if order is None:
        return ember.asarray(r, device=device)
    inverse = sorted(range(len(order)), key=order.__getitem__)
    return ember.asarray(r.transpose(order), device=device).transpose(inverse)


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


def write_back(r, user):
    """Put r (ember) into the caller's array user, unless r already is
    user's memory: an in-place result computed on another device, or in
    a copy ember made of the operand."""
    if isinstance(user, ember.ndarray):
        if r is not user:
            user[...] = to_device(r, user.device)
        return
    np = sys.modules.get("numpy")
    if np is not None and isinstance(user, np.ndarray):
        # np.copyto, not DLPack: it also takes what DLPack cannot describe
        # (a byte-swapped array)
        if not (str(r.device) == "cpu" and r.data.ptr == user.__array_interface__["data"][0]
                and r.strides == user.strides):
            np.copyto(user, ember.asnumpy(r))
        return
    alias = ember.from_dlpack(user, copy=False)
    if alias.device != r.device:
        alias[...] = to_device(r, alias.device)
        alias.device.synchronize()      # the caller reads its array once the call returns
    elif alias.data.ptr != r.data.ptr or alias.strides != r.strides:
        alias[...] = r


def deliver(d, inplace, operands, users, package, device):
    """A matmul's product d as the caller gets it: written into C (the
    third of operands, the caller's its third of users; written back
    when operands' is a copy) when in place, else as the caller's
    package on device."""
    if not inplace:
        return to_package(d, package, device)
    cdev, cuser = operands[2], users[2]
    cdev[...] = d.reshape(cdev.shape)
    write_back(cdev, cuser)
    return cuser


def to_package(r, package, device):
    """The result r (ember) as the caller's package on device (an ember
    Device): NumPy's, ember's, or through the package's from_dlpack."""
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
        r = _moved(r, device)
    if package == "ember":
        return r
    # the package's from_dlpack: no copy, and for a GPU array its current
    # stream waits for ember's (DLPack's stream handshake)
    return sys.modules[package].from_dlpack(r)


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


def _stream_handle(stream):
    """A foreign stream's native handle, or None when stream is not one:
    the CUDA stream protocol (__cuda_stream__), torch.cuda.Stream's
    cuda_stream, or a cudaStream_t given as an int."""
    proto = getattr(stream, "__cuda_stream__", None)
    if proto is not None:
        info = proto() if callable(proto) else proto
        if not isinstance(info, tuple) or len(info) != 2:
            raise TypeError(f"{type(stream).__name__}.__cuda_stream__ must give (version, handle); got {info!r}.")
        return int(info[1])
    handle = getattr(stream, "cuda_stream", stream)
    if isinstance(handle, int) and not isinstance(handle, bool):
        return handle
    return None


class StreamScope:
    """`with StreamScope(stream, device):` makes the call's stream current:
    an ember.Stream as it is; another library's CUDA stream (__cuda_stream__,
    torch.cuda.Stream, a cudaStream_t int) wrapped by ember (which queues
    on it and never destroys it) when device, where the work runs, is a
    GPU. On cpu a CUDA stream has nothing to order and is checked only;
    None leaves the current stream as it is."""

    def __init__(self, stream, device=None):
        self.stream = None
        if stream is None or isinstance(stream, ember.Stream):
            self.stream = stream
            return
        handle = _stream_handle(stream)
        if handle is None:
            raise TypeError(f"stream must be an ember.Stream, an object with __cuda_stream__ (a "
                            f"torch.cuda.Stream, a cupy.cuda.Stream), a cudaStream_t int, or None; got "
                            f"{type(stream).__module__}.{type(stream).__qualname__}.")
        if device is not None and str(device) != "cpu":
            dev = ember.Device(device)
            if hasattr(stream, "__cuda_stream__"):
                with dev:       # adopted on the work's device; stream kept alive by the ember Stream
                    self.stream = ember.Stream.from_external(stream)
            else:
                self.stream = ember.cuda.ExternalStream(handle, dev.id)

    def __enter__(self):
        if self.stream is not None:
            self.stream.__enter__()
        return self

    def __exit__(self, *exc):
        if self.stream is not None:
            self.stream.__exit__(*exc)
        return False


def replace_operands(mm, new):
    """Matmul.reset_operands' common step: each operand of `new` (A, B, C;
    None keeps the one held) checked against mm's originals (package,
    device, dtype, shape), then mm.user_operands and mm.operands updated.
    Runs inside the call's StreamScope."""
    users = list(mm.user_operands) if mm.user_operands is not None else [None] * mm.num_operands
    for i, (x, n) in enumerate(zip(new, "ABC")):
        if x is None or i >= mm.num_operands:
            continue
        pkg = package_of(x, f"operand {n}")
        if pkg != mm.package:
            raise TypeError(f"The operand {n} must belong to the package {mm.package}; it is {pkg}.")
        dev = device_name(x)
        if dev != str(mm.operand_device):
            raise ValueError(f"The new operand {n} is on {dev}; the original operands are on "
                             f"{mm.operand_device}.")
        v = as_ember(x, f"operand {n}")
        dt, shape = mm._spec[i]
        if str(v.dtype) != dt or tuple(v.shape) != shape:
            raise ValueError(f"The new operand {n} (shape {tuple(v.shape)}, dtype {v.dtype}) must match "
                             f"the original one (shape {shape}, dtype {dt}).")
        users[i] = x
    mm.user_operands = users
    mm.operands = [to_device(as_ember(x), mm.device) for x in users]
