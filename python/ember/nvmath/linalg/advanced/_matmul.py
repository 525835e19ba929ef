"""nvmath-python's Matmul and matmul over ember's matmul.

The product is one ember matmul call (cuBLAS's strided batched gemm on
cuda, OpenBLAS's gemm on cpu: docs/linalg.md); alpha, beta * C, the bias
and the activation are then one fused elementwise pass (ember.fuse), with
a trailing reduction for the bias gradients. cuBLASLt computes the same
function inside the gemm's own epilogue; ember's pass reads and writes the
result once more.
"""
import math
import time

import numpy as _np

import ember
from ember.nvmath import _utils
from ember.nvmath.linalg.advanced._configuration import (
    Algorithm, MatmulComputeType, MatmulEpilog, MatmulOptions, MatmulPlanPreferences,
    matrix_qualifiers_dtype)

__all__ = ["InvalidMatmulState", "Matmul", "matmul"]

_SUPPORTED = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")

# The compute types each operand dtype accepts, and whether TF32 is asked for.
CT = MatmulComputeType
_COMPUTE = {
    "float16": {CT.COMPUTE_16F: False, CT.COMPUTE_16F_PEDANTIC: False, CT.COMPUTE_32F: False,
                CT.COMPUTE_32F_PEDANTIC: False},
    "bfloat16": {CT.COMPUTE_32F: False, CT.COMPUTE_32F_PEDANTIC: False},
    "float32": {CT.COMPUTE_32F: False, CT.COMPUTE_32F_PEDANTIC: False, CT.COMPUTE_32F_FAST_TF32: True},
    "complex64": {CT.COMPUTE_32F: False, CT.COMPUTE_32F_PEDANTIC: False, CT.COMPUTE_32F_FAST_TF32: True},
    "float64": {CT.COMPUTE_64F: False, CT.COMPUTE_64F_PEDANTIC: False},
    "complex128": {CT.COMPUTE_64F: False, CT.COMPUTE_64F_PEDANTIC: False},
}

# cudaDataType_t values a result_type may be given as, besides a dtype.
_CUDA_DATA_TYPE = {0: "float32", 1: "float64", 2: "float16", 4: "complex64", 5: "complex128",
                   14: "bfloat16"}

E = MatmulEpilog
# epilog -> (takes a bias, activation, epilog input, epilog output)
_EPILOGS = {
    E.DEFAULT: (False, None, None, None),
    E.RELU: (False, "relu", None, None),
    E.RELU_AUX: (False, "relu", None, "relu_aux"),
    E.BIAS: (True, None, None, None),
    E.RELU_BIAS: (True, "relu", None, None),
    E.RELU_AUX_BIAS: (True, "relu", None, "relu_aux"),
    E.GELU: (False, "gelu", None, None),
    E.GELU_AUX: (False, "gelu", None, "gelu_aux"),
    E.GELU_BIAS: (True, "gelu", None, None),
    E.GELU_AUX_BIAS: (True, "gelu", None, "gelu_aux"),
    E.DRELU: (False, "drelu", "relu_aux", None),
    E.DRELU_BGRAD: (False, "drelu", "relu_aux", "drelu_bgrad"),
    E.DGELU: (False, "dgelu", "gelu_aux", None),
    E.DGELU_BGRAD: (False, "dgelu", "gelu_aux", "dgelu_bgrad"),
    E.BGRADA: (False, None, None, "bgrada"),
    E.BGRADB: (False, None, None, "bgradb"),
}

_GELU_K = math.sqrt(2.0 / math.pi)
_GELU_C = 0.044715


def _gelu(x):
    # cuBLASLt's GELU: the tanh approximation.
    return 0.5 * x * (1.0 + ember.tanh(_GELU_K * (x + _GELU_C * x * x * x)))


def _dgelu(x):
    t = ember.tanh(_GELU_K * (x + _GELU_C * x * x * x))
    return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * _GELU_K * (1.0 + 3.0 * _GELU_C * x * x)


_PASSES = {}


def _epilog_pass(scale, has_c, has_bias, act, aux_out):
    """One fused elementwise function for this combination, made once."""
    key = (scale, has_c, has_bias, act, aux_out)
    f = _PASSES.get(key)
    if f is not None:
        return f

    def nvmath_epilog(d, alpha, c, beta, bias, aux):
        x = d * alpha if scale else d
        if has_c:
            x = x + c * beta
        if has_bias:
            x = x + bias
        if act == "relu":
            y = ember.maximum(x, 0)
        elif act == "gelu":
            y = _gelu(x)
        elif act == "drelu":
            y = x * (aux != 0)
        elif act == "dgelu":
            y = x * _dgelu(aux)
        else:
            y = x
        if aux_out == "relu_aux":
            return y, x > 0
        if aux_out == "gelu_aux":
            return y, x
        return y

    f = _PASSES[key] = ember.fuse(kernel_name="nvmath_epilog")(nvmath_epilog)
    return f


class InvalidMatmulState(Exception):
    """A Matmul used after free()."""


def _dtype_name(x):
    return str(x.dtype)


def _mm_traits(a_shape, b_shape, c_shape, inplace):
    """M, N, K, the batch shape and the result shape, with nvmath's checks."""
    if len(a_shape) < 1 or len(b_shape) < 1:
        raise ValueError(f"The operands A and B must be at least 1-D; their shapes are {tuple(a_shape)} "
                         f"and {tuple(b_shape)}.")
    a_batch, b_batch = list(a_shape[:-2]), list(b_shape[:-2])
    M, K = (1, a_shape[0]) if len(a_shape) == 1 else a_shape[-2:]
    K1, N = (b_shape[0], 1) if len(b_shape) == 1 else b_shape[-2:]
    if K != K1:
        raise ValueError(f"The 'K' extent must match for the operands: K={K} in operand A (shape "
                         f"{tuple(a_shape)}) is not equal to K={K1} in operand B (shape {tuple(b_shape)}).")
    if a_batch and b_batch and a_batch != b_batch:
        raise ValueError(f"The batch dimensions of operands A {tuple(a_batch)} and B {tuple(b_batch)} "
                         f"must match (one of them may have none, and is then broadcast).")
    batch = a_batch or b_batch
    mm = ([M] if len(a_shape) >= 2 else []) + ([N] if len(b_shape) >= 2 else [])
    if c_shape is not None:
        Mc, Nc = c_shape[-2:]
        c_batch = list(c_shape[:-2])
        also = " This is required for inplace operations." if inplace else ""
        if Mc != M:
            raise ValueError(f"The M dimension of the C matrix ({Mc}, shape {tuple(c_shape)}) must match "
                             f"the M dimension of A ({M}).")
        if (inplace and Nc != N) or Nc not in (1, N):
            raise ValueError(f"The N dimension of the C matrix ({Nc}, shape {tuple(c_shape)}) must match "
                             f"the N dimension of B ({N}) or be 1.{also}")
        if (inplace or c_batch) and c_batch != batch:
            raise ValueError(f"The batch dimensions of operand C {tuple(c_batch)} must match those of the "
                             f"other operands {tuple(batch)}.{also}")
    return M, N, K, tuple(batch), tuple(batch + mm)


def _scalar(value, dtype, name):
    if value is None:
        return None
    complex_ok = dtype.startswith("complex")
    try:
        return complex(value) if complex_ok else float(value)
    except (TypeError, ValueError):
        kind = "complex" if complex_ok else "real"
        raise ValueError(f"The value provided for {name} ({value!r}) is not convertible to a {kind} "
                         f"scalar of the operands' dtype '{dtype}'.") from None


class Matmul(_utils.Stateful):
    """nvmath's stateful matrix multiplication, alpha * a @ b + beta * c
    followed by an epilog, over ember's matmul. Use it as a context
    manager, or call free() at the end (docs/nvmath.md)."""

    def __init__(self, a, b, /, c=None, *, alpha=None, beta=None, qualifiers=None,
                 quantization_scales=None, options=None, stream=None):
        options = _utils.check_or_create_options(MatmulOptions, options, "Matrix multiplication options")
        self.options = options
        self.logger = _utils.get_logger(options)
        self._valid = True
        self.inplace = options.inplace
        if c is None and self.inplace:
            raise ValueError("The operation cannot be inplace if operand C is not provided.")
        if quantization_scales is not None or options.result_amax or options.block_scaling:
            raise NotImplementedError("ember.nvmath does not provide FP8 / MXFP8 matrix multiplication "
                                      "(quantization_scales, result_amax, block_scaling): ember has no "
                                      "float8 dtypes.")
        names = ["A", "B"] + (["C"] if c is not None else [])
        users = [a, b] + ([c] if c is not None else [])
        self.package = _utils.same_package(users, [f"operand {n}" for n in names])
        # The execution device: the operands' own; a host operand of another
        # package (NumPy, a torch cpu tensor) runs on a GPU (options.device_id)
        # when ember runs on one, as nvmath copies host operands to the GPU,
        # else on ember's cpu device.
        op_dev = _utils.common_device(users)
        self.operand_device = ember.Device(op_dev)
        if self.package != "ember" and op_dev == "cpu":
            self.device = ember.Device(f"cuda:{options.device_id}" if _utils.default_is_cuda() else "cpu")
        else:
            self.device = self.operand_device
        scope = _utils.StreamScope(stream, self.device)
        with scope:
            views = [_utils.as_ember(x, f"operand {n}") for x, n in zip(users, names)]
        for x, n in zip(views, names):
            if _dtype_name(x) not in _SUPPORTED:
                raise ValueError(f"The dtype of operand {n} ({x.dtype}) is not supported; ember.nvmath "
                                 f"multiplies {', '.join(_SUPPORTED)}.")
            if any(s == 0 for s in x.shape):
                raise ValueError(f"The extents of operand {n} must be positive; its shape is {tuple(x.shape)}.")
        a, b = views[0], views[1]
        c = views[2] if c is not None else None
        if _dtype_name(a) != _dtype_name(b):
            raise ValueError(f"Unsupported combination of dtypes for operands A {a.dtype} and B {b.dtype}: "
                             f"they must be the same.")
        self.dtype = _dtype_name(a)
        if c is not None:
            if c.ndim < 2:
                raise ValueError(f"Operand C must be at least 2-D (its shape is {tuple(c.shape)}), so that "
                                 f"its broadcasting is not ambiguous; add a unit axis, e.g. c[:, None].")
            if beta is None:
                raise ValueError("A value for beta must be provided if operand C is provided.")
        elif beta is not None:
            self.logger.warning(f"Matmul: the provided beta value {beta} is ignored since operand C is "
                                f"not specified.")
        self.num_operands = len(users)
        self.traits = _mm_traits(a.shape, b.shape, c.shape if c is not None else None, self.inplace)
        self.M, self.N, self.K, self.batch_shape, self.result_shape = self.traits

        self.memory_space = "cpu" if op_dev == "cpu" else "cuda"
        self.blocking = options.blocking is True or op_dev == "cpu" or str(self.device) == "cpu"
        self.logger.info("= SPECIFICATION PHASE =")
        self.logger.info(f"The data type of operand A is '{a.dtype}', and that of operand B is '{b.dtype}'.")
        self.logger.info(f"The operands' package is {self.package}; the execution device is {self.device}.")
        self.logger.info(f"The MM shape is M={self.M}, N={self.N}, K={self.K}, batch {self.batch_shape}.")

        if qualifiers is None:
            qualifiers = _np.zeros((3,), dtype=matrix_qualifiers_dtype)
        if not isinstance(qualifiers, _np.ndarray) or qualifiers.dtype != matrix_qualifiers_dtype \
                or qualifiers.shape != (3,):
            raise ValueError("The qualifiers must be a NumPy array of length 3 (operands A, B and C) of "
                             "dtype ember.nvmath.linalg.advanced.matrix_qualifiers_dtype.")
        if qualifiers[2]["is_conjugate"]:
            raise ValueError("The conjugate flag is not supported for operand C.")
        self.qualifiers = qualifiers.copy()

        # Compute and result types.
        ct = options.compute_type
        allowed = _COMPUTE[self.dtype]
        if ct is not None and ct not in allowed:
            raise ValueError(f"The compute type {ct.name} is not supported for operands of dtype "
                             f"'{self.dtype}'; ember.nvmath accepts {[c.name for c in allowed]} for it.")
        self.tf32 = bool(ct is not None and allowed[ct])
        self.compute_type = ct
        rt = options.result_type
        if rt is None or self.inplace:
            if rt is not None:
                self.logger.warning(f"Matmul: the result type {rt} is ignored since the operation is in-place.")
            self.result_dtype = self.dtype
        else:
            rt = _CUDA_DATA_TYPE.get(rt, rt) if isinstance(rt, int) else rt
            try:
                self.result_dtype = str(ember.dtype(rt))
            except (TypeError, ValueError):
                raise ValueError(f"The result type {options.result_type!r} is not a dtype.") from None
            if self.result_dtype not in _SUPPORTED:
                raise ValueError(f"The result type '{self.result_dtype}' is not supported.")
        if c is not None and _dtype_name(c) != self.result_dtype:
            raise ValueError(f"The dtype of operand C ({c.dtype}) must be the result's dtype "
                             f"({self.result_dtype}).")
        self.alpha = _scalar(1 if alpha is None else alpha, self.dtype, "alpha")
        self.beta = _scalar(beta, self.dtype, "beta") if c is not None else None

        self._spec = [(_dtype_name(x), tuple(x.shape)) for x in views]
        self.user_operands = users
        with scope:
            self.operands = [_utils.to_device(x, self.device) for x in views]
        self.epilog = None
        self.epilog_operands = {}
        self._algorithms = None
        self._planned = False

    # -- state checks -------------------------------------------------
    def _check_valid(self):
        if not self._valid:
            raise InvalidMatmulState("The Matmul object cannot be used after its resources are freed.")

    def _check_planned(self, what):
        if not self._planned:
            raise RuntimeError(f"{what} cannot be performed before plan() has been called.")

    def _check_operands(self, what):
        if self.operands is None:
            raise RuntimeError(f"{what} cannot be performed while the operands are unset (reset_operands() "
                               f"was called without operands); give them with reset_operands(a, b, ...).")

    # -- planning -----------------------------------------------------
    def _epilog_input(self, name, x):
        pkg = _utils.package_of(x, f"epilog input '{name}'")
        if pkg != self.package:
            raise TypeError(f"The epilog input '{name}' ({pkg}) must belong to the operands' package "
                            f"({self.package}).")
        x = _utils.as_ember(x, f"epilog input '{name}'")
        shape = tuple(x.shape)
        if name == "bias":
            ok = (shape == (self.M,) or (len(shape) >= 2 and shape[-2:] == (self.M, 1)
                                         and shape[:-2] in ((), self.batch_shape)))
            if not ok:
                want = f"({self.M},) or ({self.M}, 1)" + (
                    f" or {self.batch_shape + (self.M, 1)}" if self.batch_shape else "")
                raise ValueError(f"The bias must have shape {want} (M={self.M}); its shape is {shape}.")
            if _dtype_name(x) not in _SUPPORTED:
                raise ValueError(f"The dtype of the bias ({x.dtype}) is not supported.")
            x = _utils.to_device(x, self.device)
            if x.ndim == 1:
                x = x.reshape(self.M, 1)
            return x.astype(self.result_dtype, copy=False)
        mm = (self.M, self.N)
        if shape not in (mm, self.batch_shape + mm):
            raise ValueError(f"The epilog input '{name}' for epilog {self.epilog.name} must have shape "
                             f"{self.batch_shape + mm} (or {mm}); its shape is {shape}.")
        want = "bool" if name == "relu_aux" else self.result_dtype
        if _dtype_name(x) != want:
            raise ValueError(f"The dtype of the epilog input '{name}' for epilog {self.epilog.name} must "
                             f"be '{want}' (as the {self.epilog.name[1:]}_AUX epilog makes it); it is "
                             f"'{x.dtype}'.")
        return _utils.to_device(x, self.device)

    def _set_epilog_inputs(self, epilog_inputs, required, partial=False):
        epilog_inputs = {} if epilog_inputs is None else epilog_inputs
        if not isinstance(epilog_inputs, dict):
            raise TypeError(f"epilog_inputs must be a dict of named tensors; got {type(epilog_inputs).__name__}.")
        if (not set(epilog_inputs) <= set(required)) if partial else set(epilog_inputs) != set(required):
            raise ValueError(f"The epilog {self.epilog.name if self.epilog else None} requires the inputs "
                             f"{sorted(required)}; the provided names are {sorted(epilog_inputs)}.")
        new = {k: self._epilog_input(k, v) for k, v in epilog_inputs.items()}
        self.epilog_operands = {**self.epilog_operands, **new} if partial else new

    def plan(self, *, preferences=None, algorithms=None, epilog=None, epilog_inputs=None, stream=None):
        """Check the epilog and its inputs; return the algorithms (ember has one)."""
        self._check_valid()
        self._check_operands("Planning")
        preferences = _utils.check_or_create_options(MatmulPlanPreferences, preferences,
                                                     "Matrix multiplication plan preferences")
        self.logger.info("= PLANNING PHASE =")
        if epilog is not None:
            try:
                epilog = MatmulEpilog(epilog)
            except ValueError:
                raise ValueError(f"The epilog {epilog!r} is not a MatmulEpilog.") from None
        self.epilog = epilog
        spec = _EPILOGS[epilog if epilog is not None else E.DEFAULT]
        if epilog not in (None, E.DEFAULT) and self.dtype.startswith("complex"):
            raise ValueError(f"The epilog {epilog.name} is not supported for complex operands "
                             f"(dtype '{self.dtype}').")
        if epilog not in (None, E.DEFAULT) and self.K == 1 and spec[2] is not None:
            raise ValueError(f"K=1 is not supported for the {epilog.name} epilog.")
        required = ["bias"] if spec[0] else ([spec[2]] if spec[2] else [])
        with _utils.StreamScope(stream, self.device):
            self._set_epilog_inputs(epilog_inputs, required)
        self.logger.info(f"The epilog is {epilog.name if epilog is not None else None}.")
        if algorithms is not None:
            algorithms = list(algorithms)
            if not algorithms or not all(isinstance(x, Algorithm) for x in algorithms):
                raise TypeError("algorithms must be a non-empty sequence of Algorithm objects, as plan() "
                                "returns them.")
        else:
            algorithms = [Algorithm()][:preferences.limit]
        self._algorithms = algorithms
        self._planned = True
        self.logger.info(f"The plan found {len(algorithms)} algorithm(s): ember's matmul "
                         f"({'TF32' if self.tf32 else self.dtype} products).")
        return self._algorithms

    @property
    def algorithms(self):
        self._check_planned("Accessing the algorithms")
        return self._algorithms

    def applicable_algorithm_ids(self, limit=8):
        return [0][:limit]

    # -- execution ----------------------------------------------------
    def _compute(self, keep):
        """The result and aux outputs; every intermediate is appended to
        keep, which the caller holds until the stream has run past them."""
        a, b = self.operands[0], self.operands[1]
        q = self.qualifiers["is_conjugate"]
        if q[0] and a.dtype.kind == "c":
            a = ember.conj(a)
        if q[1] and b.dtype.kind == "c":
            b = ember.conj(b)
        if self.tf32:
            d = ember._ember._matmul(a, b, None, None, True)
        else:
            d = ember.matmul(a, b)
        keep += [a, b, d]
        ep = self.epilog if self.epilog is not None else E.DEFAULT
        has_bias, act, aux_in, aux_out = _EPILOGS[ep]
        c = self.operands[2] if self.num_operands == 3 else None
        has_c = c is not None and self.beta != 0
        scale = self.alpha != 1
        pass_aux = aux_out if aux_out in ("relu_aux", "gelu_aux") else None
        aux = {}
        if scale or has_c or has_bias or act or pass_aux:
            f = _epilog_pass(scale, has_c, has_bias, act, pass_aux)
            r = f(d, self.alpha, c if has_c else 0, self.beta if has_c else 0,
                  self.epilog_operands["bias"] if has_bias else 0,
                  self.epilog_operands[aux_in] if aux_in else 0)
            if pass_aux:
                d, aux[pass_aux] = r
            else:
                d = r
        if aux_out in ("drelu_bgrad", "dgelu_bgrad"):
            aux[aux_out] = self._bgrad(d, -1, keep)
        elif aux_out == "bgrada":
            aux[aux_out] = self._bgrad(a, -1, keep)
        elif aux_out == "bgradb":
            aux[aux_out] = self._bgrad(b, -2, keep)
        keep.append(d)
        if str(d.dtype) != self.result_dtype:
            d = d.astype(self.result_dtype)
        return d, aux

    def _bgrad(self, x, axis, keep):
        # nvmath's bias gradients: a vector unbatched, (batch..., n, 1) batched.
        g = x.sum(axis=axis).astype(self.result_dtype, copy=False)
        keep.append(g)
        if self.batch_shape:
            g = ember.broadcast_to(g, self.batch_shape + g.shape[-1:])[..., None]
            g = ember.ascontiguousarray(g)
        return g

    def execute(self, *, algorithm=None, release_workspace=False, stream=None):
        """Run the product and its epilog; the result (and, for epilogs with an
        auxiliary output, a dict of them) in the operands' package."""
        self._check_valid()
        self._check_planned("Execution")
        self._check_operands("Execution")
        if algorithm is not None and not any(
                isinstance(algorithm, Algorithm) and algorithm.algorithm_id == x.algorithm_id
                for x in self._algorithms):
            raise ValueError("The algorithm given to execute() must be one of those plan() returned.")
        self.logger.info("= EXECUTION PHASE =")
        keep = []
        with _utils.StreamScope(stream, self.device):
            d, aux = self._compute(keep)
            result = _utils.deliver(d, self.inplace, self.operands, self.user_operands,
                                    self.package, self.operand_device)
            aux = {k: _utils.to_package(v, self.package, self.operand_device) for k, v in aux.items()}
            if self.blocking:   # host operands or host execution, as nvmath
                ember.cuda.get_current_stream().synchronize()
        ep = self.epilog if self.epilog is not None else E.DEFAULT
        return (result, aux) if _EPILOGS[ep][3] else result

    def autotune(self, iterations=10, prune=None, release_workspace=False, stream=None):
        """Time the planned algorithms (ember has one) over `iterations` runs."""
        self._check_valid()
        self._check_planned("Autotuning")
        self._check_operands("Autotuning")
        if not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations must be a positive int; got {iterations!r}.")
        self.logger.info("= AUTOTUNING PHASE =")
        with _utils.StreamScope(stream, self.device):
            for alg in self._algorithms:
                times = []
                for _ in range(iterations):
                    t0 = time.perf_counter()
                    keep = []
                    d, aux = self._compute(keep)
                    ember._ember._fusion_flush()
                    ember.cuda.get_current_stream().synchronize()
                    times.append((time.perf_counter() - t0) * 1e3)
                alg.time_ms = sum(times) / len(times)
                self.logger.info(f"Algorithm {alg.algorithm_id}: {alg.time_ms:.4g} ms a run "
                                 f"(mean of {iterations}).")
        self._algorithms.sort(key=lambda x: x.time_ms)
        if prune is not None:
            self._algorithms = self._algorithms[:max(1, prune)]

    def reset_operands(self, a=None, b=None, c=None, *, alpha=None, beta=None, quantization_scales=None,
                       epilog_inputs=None, stream=None):
        """Bind new operands (same package, dtypes and shapes), alpha, beta or
        epilog inputs; with no arguments, unbind them all."""
        self._check_valid()
        if quantization_scales is not None:
            raise NotImplementedError("ember.nvmath does not provide FP8 quantization scales.")
        if c is not None and self.num_operands == 2:
            raise ValueError("The matrix multiplication problem specification does not include operand C, "
                             "so it cannot be reset.")
        if all(x is None for x in (a, b, c, alpha, beta, epilog_inputs)):
            self.operands = self.user_operands = None
            self.epilog_operands = {}
            self.logger.info("The operands have been reset to None.")
            return
        if self.operands is None and (a is None or b is None or (c is None and self.num_operands == 3)):
            raise ValueError(f"Operands {'A, B' + (', C' if self.num_operands == 3 else '')} must be "
                             f"provided, since they were reset to None.")
        if alpha is not None:
            self.alpha = _scalar(alpha, self.dtype, "alpha")
        if beta is not None:
            if self.num_operands == 2:
                self.logger.warning(f"Matmul: the provided beta value {beta} is ignored since operand C is "
                                    f"not specified.")
            else:
                self.beta = _scalar(beta, self.dtype, "beta")
        with _utils.StreamScope(stream, self.device):
            _utils.replace_operands(self, (a, b, c))
            spec = _EPILOGS[self.epilog if self.epilog is not None else E.DEFAULT]
            required = ["bias"] if spec[0] else ([spec[2]] if spec[2] else [])
            if epilog_inputs is None and required and not self.epilog_operands:
                raise ValueError(f"The epilog inputs {required} must be provided, since they were reset to None.")
            if epilog_inputs is not None:
                self._set_epilog_inputs(epilog_inputs, required, partial=self.operands is not None
                                        and bool(self.epilog_operands))
        self.logger.info("The operands have been reset.")

    def free(self):
        """Release the operands and the plan; the object cannot be used after."""
        self.operands = self.user_operands = None
        self.epilog_operands = {}
        self._valid = False


def matmul(a, b, /, c=None, *, alpha=None, beta=None, epilog=None, epilog_inputs=None, qualifiers=None,
           quantization_scales=None, options=None, preferences=None, algorithm=None, stream=None):
    """epilog(alpha * a @ b + beta * c): nvmath's function form, one Matmul
    planned and executed once."""
    with Matmul(a, b, c=c, alpha=alpha, beta=beta, qualifiers=qualifiers,
                quantization_scales=quantization_scales, options=options, stream=stream) as mm:
        mm.plan(preferences=preferences, algorithms=None if algorithm is None else [algorithm],
                epilog=epilog, epilog_inputs=epilog_inputs, stream=stream)
        return mm.execute(stream=stream)
