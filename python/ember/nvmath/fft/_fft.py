"""nvmath-python's FFT, fft, ifft, rfft and irfft over ember.fft.

As nvmath's (and cuFFT's), the transforms are unnormalised in both
directions: ifft(fft(x)) is x times the number of transformed points.
Each call is one ember.fft call over all the axes (one cuFFT plan on
cuda, pocketfft on cpu). Prolog and epilog callbacks are Python functions
with nvmath's signatures, compiled by ember.cuda.jit and run as a
separate elementwise pass before or after the transform.
"""
import dataclasses
import logging
from enum import IntEnum
from logging import Logger

import ember
from ember.nvmath import _utils

__all__ = ["FFT", "DeviceCallable", "ExecutionCPU", "ExecutionCUDA", "FFTDirection", "FFTOptions",
           "UnsupportedLayoutError", "compile_epilog", "compile_prolog", "fft", "ifft", "irfft", "rfft"]


class FFTDirection(IntEnum):
    FORWARD = -1
    INVERSE = 1


class UnsupportedLayoutError(Exception):
    """Kept for programs that catch it; ember.fft reads every layout, so
    ember.nvmath never raises it."""

    def __init__(self, message, permutation=None, axes=None):
        super().__init__(message)
        self.message, self.permutation, self.axes = message, permutation, axes


@dataclasses.dataclass
class ExecutionCUDA:
    """Run on a GPU: the operand's own, else cuda:device_id (default 0).
    Where ember's default device is cpu (no GPU, or EMBER_DEVICE=cpu), the
    transform runs on cpu, so the program still runs."""
    name: str = dataclasses.field(default="cuda", init=False)
    device_id: int | None = None


@dataclasses.dataclass
class ExecutionCPU:
    """Run on ember's cpu device (pocketfft). num_threads is accepted and
    has no effect."""
    name: str = dataclasses.field(default="cpu", init=False)
    num_threads: int | None = None


def _check_choice(name, value, choices):
    if value not in choices:
        raise ValueError(f"The value specified for '{name}' must be one of {list(choices)}; got {value!r}.")


@dataclasses.dataclass
class FFTOptions:
    fft_type: str | None = None
    inplace: bool = False
    last_axis_parity: str = "even"
    result_layout: str = "optimized"
    device_id: int | None = None
    logger: Logger | None = None
    blocking: object = "auto"
    allocator: object = None

    def __post_init__(self):
        _check_choice("fft_type", self.fft_type, (None, "C2C", "C2R", "R2C"))
        if not isinstance(self.inplace, bool):
            raise ValueError("The value specified for 'inplace' must be of type bool (True or False).")
        _check_choice("last_axis_parity", self.last_axis_parity, ("even", "odd"))
        _check_choice("result_layout", self.result_layout, ("natural", "optimized"))
        _check_choice("blocking", self.blocking, (True, "auto"))


class _PythonCallback:
    """What compile_prolog/compile_epilog return: the Python function and
    its dtypes, compiled by ember.cuda.jit at the first transform."""

    def __init__(self, fn, kind, element_dtype, user_info_dtype):
        if not callable(fn):
            raise TypeError(f"The {kind} must be a Python function; got {type(fn).__name__}.")
        self.fn, self.kind = fn, kind
        self.element_dtype = str(ember.dtype(element_dtype))
        self.user_info_dtype = None if user_info_dtype is None else str(ember.dtype(user_info_dtype))
        self._kernel = None

    def kernel(self):
        if self._kernel is None:
            from ember import cuda
            fn = self.fn
            if self.kind == "prolog":
                def nvmath_fft_prolog(out, data_in, user, n):
                    i = cuda.grid(1)
                    if i < n:
                        out[i] = fn(data_in, i, user, 0)
                self._kernel = ember.cuda.jit(nvmath_fft_prolog)
            else:
                def nvmath_fft_epilog(out, data, user, n):
                    i = cuda.grid(1)
                    if i < n:
                        fn(out, i, data[i], user, 0)
                self._kernel = ember.cuda.jit(nvmath_fft_epilog)
        return self._kernel

    def __repr__(self):
        return f"<ember.nvmath {self.kind} {self.fn.__name__}({self.element_dtype})>"


def compile_prolog(prolog_fn, element_dtype, user_info_dtype, *, compute_capability=None):
    """nvmath's load callback: prolog_fn(data_in, offset, user_info, unused)
    returns the value the transform reads at offset. ember compiles it with
    ember.cuda.jit (not to LTO-IR) and runs it as a pass before the
    transform; pass the result as DeviceCallable(ltoir=...)."""
    return _PythonCallback(prolog_fn, "prolog", element_dtype, user_info_dtype)


def compile_epilog(epilog_fn, element_dtype, user_info_dtype, *, compute_capability=None):
    """nvmath's store callback: epilog_fn(data_out, offset, data, user_info,
    unused) stores the transform's value at offset. Run by ember as a pass
    after the transform."""
    return _PythonCallback(epilog_fn, "epilog", element_dtype, user_info_dtype)


@dataclasses.dataclass
class DeviceCallable:
    """A callback for plan()/fft(): ltoir is what compile_prolog or
    compile_epilog returned; data is user_info, as an array (ember or
    NumPy) or, as nvmath takes it, a pointer (an int) to memory on the
    execution device holding user_info_dtype values laid out as the
    transform's (contiguous) input or result."""
    ltoir: object = None
    size: int | None = None
    data: object = None

    def __post_init__(self):
        if self.ltoir is None:
            return
        if isinstance(self.ltoir, (bytes, int)):
            raise NotImplementedError(
                "ember.nvmath cannot link LTO-IR callbacks into its FFTs (cuFFT's LTO callbacks are not "
                "reached by ember); make the callback with ember.nvmath.fft.compile_prolog or "
                "compile_epilog, which compile the Python function with ember.cuda.jit and run it as a "
                "separate elementwise pass.")
        if not isinstance(self.ltoir, _PythonCallback):
            raise ValueError("The callback must be what ember.nvmath.fft.compile_prolog or compile_epilog "
                             f"returned; got {type(self.ltoir).__name__}.")


def _callable(cb, kind):
    if cb is None:
        return None
    if isinstance(cb, dict):
        cb = DeviceCallable(**cb)
    elif isinstance(cb, _PythonCallback):
        cb = DeviceCallable(ltoir=cb)
    if not isinstance(cb, DeviceCallable):
        raise TypeError(f"The {kind} must be a DeviceCallable or a dict of its fields; got {type(cb).__name__}.")
    if cb.ltoir is None:
        return None
    if cb.ltoir.kind != kind:
        raise ValueError(f"The {kind} was compiled with compile_{cb.ltoir.kind}; use compile_{kind}.")
    return cb


def _user_info(cb, device, n):
    """The callback's user_info as an ember array on device."""
    data = cb.data
    if data is None or (isinstance(data, int) and data == 0):
        return ember.zeros(1, dtype=cb.ltoir.user_info_dtype or "float64", device=device)
    if not isinstance(data, int):
        return _utils.to_device(_utils.as_ember(data, "user_info"), device).reshape(-1)
    dtype = cb.ltoir.user_info_dtype
    if dtype is None:
        raise ValueError("A user_info pointer needs the user_info_dtype given to compile_prolog/epilog.")
    item = ember.dtype(dtype).itemsize
    if str(device) == "cpu":
        import ctypes

        import numpy as np
        buf = (ctypes.c_char * (n * item)).from_address(data)
        return ember.asarray(np.frombuffer(buf, dtype=dtype), device=device)

    class _Ptr:
        __cuda_array_interface__ = {"shape": (n,), "typestr": ember.dtype(dtype).str,
                                    "data": (data, False), "version": 3, "strides": None}
    with device:
        return ember.asarray(_Ptr())


def _run_callback(cb, x, device, out_dtype):
    """cb over x with nvmath's offsets: an element's place in x's memory
    (C order for an x that is not a permuted contiguous array)."""
    order = _utils.memory_order(x)
    if order is None:
        order = list(range(x.ndim))
        t = ember.ascontiguousarray(x)
    else:
        t = x.transpose(order)
    flat = t.reshape(-1)
    out = ember.empty(flat.shape, dtype=out_dtype, device=device)
    user = _user_info(cb, device, flat.size)
    n = flat.size
    cb.ltoir.kernel()[(n + 255) // 256, 256](out, flat, user, n)
    inverse = sorted(range(len(order)), key=order.__getitem__)
    return out.reshape(t.shape).transpose(inverse)


def _parse_direction(direction):
    if isinstance(direction, str):
        d = direction.strip().lower()
        if d in ("forward", "inverse"):
            return FFTDirection.FORWARD if d == "forward" else FFTDirection.INVERSE
    else:
        try:
            return FFTDirection(direction)
        except ValueError:
            pass
    raise ValueError(f"The direction must be an FFTDirection, 'forward' or 'inverse', or -1 or 1; got {direction!r}.")


def _execution(execution):
    if execution is None:
        return None
    if isinstance(execution, str):
        _check_choice("execution", execution.lower(), ("cuda", "cpu"))
        return ExecutionCUDA() if execution.lower() == "cuda" else ExecutionCPU()
    if isinstance(execution, dict):
        args = dict(execution)
        name = args.pop("name", None)
        _check_choice("execution['name']", name, ("cuda", "cpu"))
        return (ExecutionCUDA if name == "cuda" else ExecutionCPU)(**args)
    if isinstance(execution, (ExecutionCUDA, ExecutionCPU)):
        return execution
    raise TypeError(f"execution must be 'cuda', 'cpu', an ExecutionCUDA/ExecutionCPU or a dict; got "
                    f"{type(execution).__name__}.")


_REAL = ("float32", "float64")
_COMPLEX = ("complex64", "complex128")
_R2C = {"float32": "complex64", "float64": "complex128"}
_C2R = {"complex64": "float32", "complex128": "float64"}


class FFT(_utils.Stateful):
    """nvmath's stateful FFT over ember.fft (see the module's docstring)."""

    def __init__(self, operand, *, axes=None, options=None, execution=None, stream=None):
        options = _utils.check_or_create_options(FFTOptions, options, "FFT options")
        self.options = options
        self.logger = _utils.get_logger(options)
        self._valid = True
        self.package = _utils.package_of(operand)
        # Where it runs: the operand's device unless execution names another.
        self._execution_arg = execution
        ex = _execution(execution)
        op_dev = ember.Device(_utils.device_name(operand))
        if ex is None:
            ex = ExecutionCPU() if str(op_dev) == "cpu" else ExecutionCUDA(device_id=op_dev.id)
        self.execution = ex
        if ex.name == "cpu":
            self.device = ember.Device("cpu")
        elif str(op_dev) != "cpu":
            self.device = op_dev
        elif _utils.default_is_cuda():
            dev_id = ex.device_id if ex.device_id is not None else (options.device_id or 0)
            self.device = ember.Device(f"cuda:{dev_id}")
        else:
            self.device = ember.Device("cpu")
            self.logger.info("Execution 'cuda' was asked for, but ember's default device is cpu: the FFT "
                             "runs on cpu.")
        self.operand_device = op_dev
        user = operand
        scope = _utils.StreamScope(stream, self.device)
        with scope:
            operand = _utils.as_ember(operand)
        ndim = operand.ndim
        if ndim == 0:
            raise ValueError("The tensor is 0-D (i.e. a scalar). FFT does not support scalars.")
        if axes is None and ndim > 3:
            raise ValueError(f"The tensor is {ndim}-D and FFTs over more than 3 dimensions are not supported; "
                             f"give up to three axes with 'axes'.")
        axes = tuple(range(ndim)) if axes is None else tuple(axes)
        if not all(isinstance(a, int) for a in axes) or not axes:
            raise ValueError(f"The FFT axes must be a non-empty sequence of ints; got {axes!r}.")
        if any(a >= ndim or a < -ndim for a in axes):
            raise ValueError(f"The specified FFT axes {axes} are out of bounds for a {ndim}-D tensor.")
        axes = tuple(a % ndim for a in axes)
        if len(axes) > 3:
            raise ValueError(f"Only up to 3-D FFTs are supported; the axes {axes} name {len(axes)}.")
        if len(set(axes)) != len(axes):
            raise ValueError(f"The specified FFT axes {axes} contain duplicate axis IDs, which is not supported.")
        self.axes = axes
        dt = str(operand.dtype)
        if dt == "float16" or dt == "complex32":
            raise TypeError(f"The FFT of {dt} is not supported: its result (complex32) is not an ember "
                            f"dtype.")
        fft_type = options.fft_type
        if fft_type is None:
            if dt in _REAL:
                fft_type = "R2C"
            elif dt in _COMPLEX:
                fft_type = "C2C"
            else:
                raise ValueError(f"Unsupported dtype '{dt}' for FFT; ember.nvmath transforms float32, "
                                 f"float64, complex64 and complex128.")
        if (fft_type == "R2C") != (dt in _REAL) or dt not in _REAL + _COMPLEX:
            raise ValueError(f"The FFT type {fft_type} does not take an operand of dtype '{dt}'.")
        self.fft_type = fft_type
        self.operand_dtype = dt
        self.result_dtype = {"C2C": dt, "R2C": _R2C.get(dt), "C2R": _C2R.get(dt)}[fft_type]
        self.inplace = options.inplace
        if self.inplace and fft_type != "C2C":
            raise ValueError(f"The in-place option (FFTOptions.inplace=True) is only supported for "
                             f"complex-to-complex FFT; the FFT type is '{fft_type}'.")
        if self.inplace and any(s == 0 for s, n in zip(operand.strides, operand.shape) if n > 1):
            raise ValueError("An in-place FFT needs an operand whose elements do not overlap (no broadcast axes).")
        self.shape = tuple(operand.shape)
        self.strides = tuple(operand.strides)
        last = axes[-1]
        out_shape = list(self.shape)
        if fft_type == "R2C":
            out_shape[last] = self.shape[last] // 2 + 1
        elif fft_type == "C2R":
            out_shape[last] = 2 * (self.shape[last] - 1) + (options.last_axis_parity == "odd")
        if any(self.shape[a] == 0 for a in axes):
            raise ValueError("Invalid number of FFT data points (0) specified.")
        if out_shape[last] == 0:
            raise ValueError(f"The size of the last FFT axis in the result for FFT type '{fft_type}' is 0 for "
                             f"operand shape {self.shape} and axes {axes}; give last_axis_parity='odd'.")
        self.result_shape = tuple(out_shape)
        self._order = order = self._result_order()
        st, acc = [0] * len(out_shape), 1
        for i in order:
            st[i], acc = acc, acc * out_shape[i]
        self.result_strides = tuple(st)

        self.logger.info(f"The FFT type is {fft_type}; the input dtype is {dt} and the result dtype is "
                         f"{self.result_dtype}.")
        self.logger.info(f"The FFT axes are {axes}; the operand is on {op_dev}, the FFT runs on {self.device}.")
        with scope:
            self._bind(user, operand)
        self.prolog = self.epilog = None
        self._planned = False
        self._last_direction = None

    def _bind(self, user, view):
        self.user_operand = user
        self.operand = _utils.to_device(view, self.device)

    def _check_valid(self):
        if not self._valid:
            raise RuntimeError("The FFT object cannot be used after its resources are freed.")

    def _default_direction(self, direction):
        if direction is None:
            return FFTDirection.INVERSE if self.fft_type == "C2R" else FFTDirection.FORWARD
        direction = _parse_direction(direction)
        if self.fft_type == "R2C" and direction != FFTDirection.FORWARD:
            raise ValueError("An R2C FFT can only be run forward.")
        if self.fft_type == "C2R" and direction != FFTDirection.INVERSE:
            raise ValueError("A C2R FFT can only be run in the inverse direction.")
        return direction

    def plan(self, *, prolog=None, epilog=None, stream=None, direction=None):
        """Check the callbacks (nothing else to plan: ember.fft keeps cuFFT
        plans in its own cache)."""
        self._check_valid()
        self.prolog = _callable(prolog, "prolog")
        self.epilog = _callable(epilog, "epilog")
        if direction is not None:
            self._default_direction(direction)
        self._planned = True
        self.logger.info(f"The FFT is planned (prolog: {self.prolog is not None}, epilog: "
                         f"{self.epilog is not None}).")

    @staticmethod
    def create_key(operand, *, axes=None, options=None, execution=None, prolog=None, epilog=None):
        """A hashable key for the problem an FFT(operand, ...) would solve:
        objects with equal keys can take each other's operands."""
        options = _utils.check_or_create_options(FFTOptions, options, "FFT options")
        ex = _execution(execution)
        pkg = _utils.package_of(operand)
        dev = _utils.device_name(operand)
        operand = _utils.as_ember(operand)
        cbs = tuple(None if cb is None else (id(cb.ltoir), cb.data if isinstance(cb.data, int) else id(cb.data))
                    for cb in (_callable(prolog, "prolog"), _callable(epilog, "epilog")))
        nd = operand.ndim
        axes = tuple(range(nd)) if axes is None else tuple(a % nd if isinstance(a, int) and nd else a for a in axes)
        return (pkg, dev, tuple(operand.shape), tuple(operand.strides), str(operand.dtype), axes,
                (options.fft_type, options.inplace, options.last_axis_parity, options.result_layout),
                None if ex is None else (ex.name, getattr(ex, "device_id", None)), cbs)

    def get_key(self, *, prolog=None, epilog=None):
        """create_key() of this object's operand and settings."""
        return FFT.create_key(self.user_operand, axes=self.axes, options=self.options,
                              execution=self._execution_arg, prolog=prolog, epilog=epilog)

    def get_input_layout(self):
        return self.shape, self.strides

    def get_output_layout(self):
        """The result's shape and strides (in elements), as nvmath gives them."""
        return self.result_shape, self.result_strides

    def _result_order(self):
        """nvmath's result layout, as the axes from fastest to slowest: the
        operand's order for 'natural', or where the batch does not
        interleave the transformed axes; else ('optimized') the transformed
        axes innermost, in the operand's order, then the batch axes."""
        shape, strides = self.shape, [abs(s) for s in self.strides]
        by_memory = lambda axes: sorted(axes, key=lambda i: (strides[i], shape[i]))  # noqa: E731
        batch = [i for i in range(len(shape)) if i not in self.axes]
        interleaved = batch and min(strides[i] for i in batch) <= max(strides[i] for i in self.axes)
        if not interleaved or self.options.result_layout == "natural":
            return by_memory(range(len(shape)))
        return by_memory(self.axes) + by_memory(batch)

    def _transform(self, x, direction):
        axes = self.axes
        if self.fft_type == "R2C":
            return ember.fft.rfftn(x, axes=axes)
        if self.fft_type == "C2R":
            s = [self.result_shape[a] for a in axes]
            return ember.fft.irfftn(x, s=s, axes=axes, norm="forward")
        if direction == FFTDirection.FORWARD:
            return ember.fft.fftn(x, axes=axes)
        return ember.fft.ifftn(x, axes=axes, norm="forward")

    def _laid_out(self, r):
        # r in the result's layout: one copy where ember.fft's result has
        # another (pocketfft keeps the operand's layout, cuFFT's batches
        # may not be C order either)
        order = self._order[::-1]              # slowest first
        if r.transpose(order).flags.c_contiguous:
            return r
        inverse = sorted(range(len(order)), key=order.__getitem__)
        return ember.ascontiguousarray(r.transpose(order)).transpose(inverse)

    def execute(self, direction=None, stream=None, release_workspace=False):
        """Run the transform; the result in the operand's package and device."""
        self._check_valid()
        if not self._planned:
            raise RuntimeError("Execution cannot be performed before plan() has been called.")
        if self.operand is None:
            raise RuntimeError("Execution cannot be performed while the operand is unset (reset_operand() was "
                               "called without one); give one with reset_operand(operand).")
        direction = self._default_direction(direction)
        # Intermediates stay referenced until the synchronisation below: a
        # created host stream frees an array's memory at once while kernels
        # queued on it may still read it (docs/nvmath.md).
        keep = []
        with _utils.StreamScope(stream, self.device):
            x = self.operand
            if self.prolog is not None:
                x = _run_callback(self.prolog, x, self.device, self.operand_dtype)
            keep.append(x)
            r = self._transform(x, direction)
            keep.append(r)
            if str(r.dtype) != self.result_dtype:
                r = r.astype(self.result_dtype)
                keep.append(r)
            if not self.inplace:
                r = self._laid_out(r)
                keep.append(r)
            if self.epilog is not None:
                r = _run_callback(self.epilog, r, self.device, self.result_dtype)
            if self.inplace:
                self.operand[...] = r
                _utils.write_back(self.operand, self.user_operand)
                result = self.user_operand
            else:
                result = _utils.to_package(r, self.package, self.operand_device)
            # nvmath blocks for host operands and host execution; GPU work on
            # GPU operands is left running unless blocking=True.
            if self.options.blocking is True or str(self.operand_device) == "cpu" or str(self.device) == "cpu":
                ember.cuda.get_current_stream().synchronize()
        return result

    def reset_operand(self, operand=None, *, stream=None):
        """Bind a new operand of the same package, dtype, shape and strides;
        None unbinds it."""
        self._check_valid()
        if operand is None:
            self.operand = self.user_operand = None
            self.logger.info("The operand has been reset to None.")
            return
        pkg = _utils.package_of(operand)
        if pkg != self.package:
            raise TypeError(f"The new operand's package ({pkg}) must be the original one's ({self.package}).")
        dev = _utils.device_name(operand)
        if dev != str(self.operand_device):
            raise ValueError(f"The new operand is on {dev}; the original was on {self.operand_device}.")
        with _utils.StreamScope(stream, self.device):
            view = _utils.as_ember(operand)
            if str(view.dtype) != self.operand_dtype:
                raise ValueError(f"The new operand's dtype ({view.dtype}) must be the original one's "
                                 f"({self.operand_dtype}).")
            if tuple(view.shape) != self.shape:
                raise ValueError(f"The new operand's shape {tuple(view.shape)} must be the original one's "
                                 f"{self.shape}.")
            if tuple(view.strides) != self.strides:
                raise ValueError(f"The new operand's strides {tuple(view.strides)} must be the original "
                                 f"one's {self.strides}.")
            self._bind(operand, view)
        self.logger.info("The operand has been reset.")

    def reset_operand_unchecked(self, operand, *, stream=None):
        self.reset_operand(operand, stream=stream)

    def free(self):
        self.operand = self.user_operand = None
        self._valid = False


def _fft(x, *, axes=None, direction=None, options=None, execution=None, prolog=None, epilog=None,
         stream=None, check_dtype=None):
    if check_dtype is not None:
        is_complex = str(_dtype_of(x)).startswith("complex")
        if is_complex != (check_dtype == "complex"):
            raise ValueError(f"This function expects a {check_dtype} operand, found {_dtype_of(x)}.")
    with FFT(x, axes=axes, options=options, execution=execution, stream=stream) as f:
        f.plan(prolog=prolog, epilog=epilog, stream=stream, direction=direction)
        return f.execute(direction=direction, stream=stream)


def _dtype_of(x):
    _utils.package_of(x)
    return _utils.as_ember(x).dtype


def fft(operand, *, axes=None, direction=FFTDirection.FORWARD, options=None, execution=None, prolog=None,
        epilog=None, stream=None):
    """The forward complex-to-complex FFT over axes (all by default; up to
    three), unnormalised, as nvmath's."""
    return _fft(operand, axes=axes, direction=direction, options=options, execution=execution,
                prolog=prolog, epilog=epilog, stream=stream, check_dtype="complex")


def ifft(operand, *, axes=None, direction=FFTDirection.INVERSE, options=None, execution=None, prolog=None,
        epilog=None, stream=None):
    """The inverse complex-to-complex FFT, unnormalised (no 1/n), as nvmath's."""
    return _fft(operand, axes=axes, direction=direction, options=options, execution=execution,
                prolog=prolog, epilog=epilog, stream=stream, check_dtype="complex")


def rfft(operand, *, axes=None, options=None, execution=None, prolog=None, epilog=None, stream=None):
    """The forward real-to-complex FFT; the last axis of axes becomes n // 2 + 1 long."""
    if str(_dtype_of(operand)).startswith("complex"):
        raise RuntimeError(f"rfft expects a real input, but got {_dtype_of(operand)}; use fft for complex "
                           f"input.")
    return _fft(operand, axes=axes, options=options, execution=execution, prolog=prolog, epilog=epilog,
                stream=stream, check_dtype="real")


def irfft(operand, *, axes=None, options=None, execution=None, prolog=None, epilog=None, stream=None):
    """The inverse complex-to-real FFT (an N-D transform, like numpy's irfftn),
    unnormalised; the last axis becomes 2 * (m - 1) long, or 2 * m - 1 with
    FFTOptions(last_axis_parity='odd')."""
    options = _utils.check_or_create_options(FFTOptions, options, "FFT options")
    options.fft_type = "C2R"
    return _fft(operand, axes=axes, direction=FFTDirection.INVERSE, options=options, execution=execution,
                prolog=prolog, epilog=epilog, stream=stream, check_dtype="complex")


logging.getLogger(__name__).addHandler(logging.NullHandler())
