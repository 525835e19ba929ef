"""nvmath-python's generic matmul (nvmath.linalg.matmul, Matmul) with
matrix qualifiers, over ember's matmul.

A structured operand is made dense by one elementwise pass (ember.tril /
triu and its reflection for symmetric, Hermitian and triangular ones) and
multiplied by ember's matmul (cuBLAS / OpenBLAS gemm); a diagonal one is a
broadcast multiply, with no product at all. cuBLAS's symm/hemm/trmm would
read the one triangle in place; ember spends one pass and a gemm instead.
"""
import dataclasses
import enum
from logging import Logger

import numpy as np

import ember
from ember.nvmath import _utils
from ember.nvmath.fft._fft import ExecutionCPU, ExecutionCUDA, _execution
from ember.nvmath.linalg.advanced._matmul import _epilog_pass, _mm_traits, _scalar

__all__ = ["DiagType", "DiagonalMatrixQualifier", "ExecutionCPU", "ExecutionCUDA", "FillMode",
           "GeneralMatrixQualifier", "HermitianMatrixQualifier", "InvalidMatmulState", "Matmul",
           "MatmulOptions", "MatrixQualifier", "SideMode", "SymmetricMatrixQualifier",
           "TriangularMatrixQualifier", "matmul", "matrix_qualifiers_dtype"]


class FillMode(enum.IntEnum):
    """cuBLAS's cublasFillMode_t."""
    LOWER = 0
    UPPER = 1
    FULL = 2


class DiagType(enum.IntEnum):
    NON_UNIT = 0
    UNIT = 1


class SideMode(enum.IntEnum):
    LEFT = 0
    RIGHT = 1


matrix_qualifiers_dtype = np.dtype([("abbreviation", "U2"), ("conjugate", np.bool_), ("uplo", np.int_),
                                    ("diag", np.int_), ("incx", np.int_)])
MatrixQualifier = np.ndarray


class _Qualifier:
    abbreviation = "ge"

    def __init__(self):
        raise RuntimeError(f"Use {type(self).__name__}.create(), not the constructor.")

    @classmethod
    def _make(cls, conjugate=False, uplo=FillMode.FULL, diag=DiagType.NON_UNIT, incx=0):
        return np.array((cls.abbreviation, conjugate, uplo, diag, incx), dtype=matrix_qualifiers_dtype)

    @classmethod
    def is_valid(cls, other):
        return bool(np.all(np.asarray(other)["abbreviation"] == cls.abbreviation))

    @classmethod
    def to_string(cls, q):
        return (f"({q['abbreviation']}, conjugate={bool(q['conjugate'])}, uplo={FillMode(int(q['uplo'])).name}, "
                f"diag={DiagType(int(q['diag'])).name}, incx={int(q['incx'])})")


class GeneralMatrixQualifier(_Qualifier):
    abbreviation = "ge"

    @classmethod
    def create(cls, conjugate=False):
        return cls._make(conjugate)


class DiagonalMatrixQualifier(_Qualifier):
    """The operand is the diagonal, a vector; incx=-1 reads it backwards."""
    abbreviation = "dg"

    @classmethod
    def create(cls, conjugate=False, incx=1):
        if incx not in (-1, 1):
            raise ValueError(f"The 'incx' parameter must be -1 or 1, not {incx}.")
        return cls._make(conjugate, incx=incx)


class _Triangle(_Qualifier):
    @classmethod
    def create(cls, conjugate=False, uplo=FillMode.LOWER):
        return cls._make(conjugate, uplo=FillMode(uplo))


class SymmetricMatrixQualifier(_Triangle):
    abbreviation = "sy"


class HermitianMatrixQualifier(_Triangle):
    abbreviation = "he"


class TriangularMatrixQualifier(_Qualifier):
    abbreviation = "tr"

    @classmethod
    def create(cls, conjugate=False, uplo=FillMode.LOWER, diag=DiagType.NON_UNIT):
        return cls._make(conjugate, uplo=FillMode(uplo), diag=DiagType(diag))


class InvalidMatmulState(Exception):
    """A Matmul used after free()."""


@dataclasses.dataclass
class MatmulOptions:
    inplace: bool = False
    logger: Logger | None = None
    blocking: object = "auto"
    allocator: object = None

    def __post_init__(self):
        if not isinstance(self.inplace, bool):
            raise ValueError("The value specified for 'inplace' must be of type bool (True or False).")
        if self.blocking not in (True, "auto"):
            raise ValueError(f"The value specified for 'blocking' must be True or 'auto'; got {self.blocking!r}.")


_SUPPORTED = ("float32", "float64", "complex64", "complex128")


def _dense(x, q, name, keep):
    """The matrix operand x stands for under qualifier q (not a diagonal);
    the intermediates go to keep (held until the stream has run them)."""
    kind = str(q["abbreviation"])
    if kind in ("sy", "he", "tr"):
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise ValueError(f"Operand {name} qualified as '{kind}' must be square; its shape is {tuple(x.shape)}.")
        lower = int(q["uplo"]) == FillMode.LOWER
        if int(q["uplo"]) == FillMode.FULL:
            raise ValueError(f"Operand {name} qualified as '{kind}' needs uplo LOWER or UPPER, not FULL.")
        tri = ember.tril if lower else ember.triu
        strict = tri(x, -1 if lower else 1)
        keep.append(strict)
        if kind == "tr":
            x = strict + ember.eye(x.shape[-1], dtype=x.dtype, device=x.device) \
                if int(q["diag"]) == DiagType.UNIT else tri(x)
        else:
            refl = ember.swapaxes(strict, -1, -2)
            diag = tri(x) - strict
            if kind == "he" and x.dtype.kind == "c":
                refl = ember.conj(refl)
                diag = diag.real.astype(x.dtype)
            keep += [strict, refl, diag]
            x = strict + refl + diag
    elif kind not in ("ge",):
        raise ValueError(f"Unknown matrix qualifier '{kind}' for operand {name}.")
    keep.append(x)
    return ember.conj(x) if bool(q["conjugate"]) and x.dtype.kind == "c" else x


class Matmul(_utils.Stateful):
    """nvmath's generic stateful matmul: alpha * a @ b + beta * c, a and b
    possibly structured (qualifiers)."""

    def __init__(self, a, b, /, c=None, *, alpha=None, beta=None, qualifiers=None, options=None,
                 execution=None, stream=None):
        options = _utils.check_or_create_options(MatmulOptions, options, "Matrix multiplication options")
        self.options = options
        self.logger = _utils.get_logger(options)
        self._valid = True
        if c is None and options.inplace:
            raise ValueError("The operation cannot be inplace if operand C is not provided.")
        users = [a, b] + ([c] if c is not None else [])
        names = ["A", "B", "C"][:len(users)]
        self.package = _utils.same_package(users, [f"operand {n}" for n in names])
        op_dev = ember.Device(_utils.common_device(users))
        ex = _execution(execution)
        if ex is None:
            self.device = op_dev
        elif ex.name == "cpu":
            self.device = ember.Device("cpu")
        elif str(op_dev) != "cpu":
            self.device = op_dev
        elif _utils.default_is_cuda():
            self.device = ember.Device(f"cuda:{ex.device_id or 0}")
        else:
            self.device = ember.Device("cpu")
            self.logger.info("Execution 'cuda' was asked for, but ember's default device is cpu: the product "
                             "runs on cpu.")
        self.operand_device = op_dev
        scope = _utils.StreamScope(stream, self.device)
        with scope:
            a, b, *rest = [_utils.as_ember(x, f"operand {n}") for x, n in zip(users, names)]
        c = rest[0] if rest else None
        views = [a, b] + rest
        for x, n in zip(views, names):
            if str(x.dtype) not in _SUPPORTED:
                raise ValueError(f"The dtype of operand {n} ({x.dtype}) is not supported; ember.nvmath.linalg."
                                 f"matmul multiplies {', '.join(_SUPPORTED)}.")
        if len({str(x.dtype) for x in views}) > 1:
            raise ValueError("Unsupported combination of dtypes: A ({}), B ({}) and C ({}) must all have the "
                             "same dtype.".format(a.dtype, b.dtype, getattr(c, "dtype", None)))
        self.dtype = str(a.dtype)
        if c is not None and beta is None:
            raise ValueError("A value for beta must be provided if operand C is provided.")
        if c is not None and c.ndim < 2:
            raise ValueError(f"Operand C must be at least 2-D; its shape is {tuple(c.shape)}.")
        self.num_operands = len(users)
        self.alpha = _scalar(1 if alpha is None else alpha, self.dtype, "alpha")
        self.beta = _scalar(beta, self.dtype, "beta") if c is not None else None

        q = np.empty(3, dtype=matrix_qualifiers_dtype)
        q[:] = GeneralMatrixQualifier.create()
        if qualifiers is not None:
            qualifiers = np.asarray(qualifiers)
            if qualifiers.dtype != matrix_qualifiers_dtype:
                raise ValueError("The qualifiers must be a NumPy array of dtype "
                                 "ember.nvmath.linalg.matrix_qualifiers_dtype.")
            if not (len(qualifiers) == 3 or (len(qualifiers) == 2 and c is None)):
                raise ValueError("The number of MatrixQualifiers must match the number of operands.")
            q[:len(qualifiers)] = qualifiers
        if q[2]["conjugate"] or str(q[2]["abbreviation"]) != "ge":
            raise ValueError("Operand C must be a general matrix without the conjugate flag.")
        self.qualifiers = q
        self.diag = [str(q[i]["abbreviation"]) == "dg" for i in range(2)]
        if all(self.diag):
            raise ValueError("Only one of A and B may be a diagonal matrix.")
        shapes = []
        for x, n, dg in zip((a, b), "AB", self.diag):
            if dg:
                if x.ndim != 1:
                    raise ValueError(f"Operand {n} qualified as diagonal must be the diagonal, a 1-D array; its "
                                     f"shape is {tuple(x.shape)}.")
                shapes.append((x.shape[0], x.shape[0]))
            else:
                shapes.append(tuple(x.shape))
        self.M, self.N, self.K, self.batch_shape, self.result_shape = _mm_traits(
            shapes[0], shapes[1], tuple(c.shape) if c is not None else None, options.inplace)

        self._spec = [(str(x.dtype), tuple(x.shape)) for x in views]
        self.user_operands = users
        with scope:
            self.operands = [_utils.to_device(x, self.device) for x in views]
        self._planned = False
        self.logger.info(f"Generic matmul: A {GeneralMatrixQualifier.to_string(q[0])}, "
                         f"B {GeneralMatrixQualifier.to_string(q[1])}; runs on {self.device}.")

    def _check(self, what):
        if not self._valid:
            raise InvalidMatmulState("The Matmul object cannot be used after its resources are freed.")
        if what == "Execution" and not self._planned:
            raise RuntimeError("Execution cannot be performed before plan() has been called.")
        if self.operands is None:
            raise RuntimeError(f"{what} cannot be performed while the operands are unset; give them with "
                               f"reset_operands(a, b, ...).")

    def plan(self, *, stream=None):
        self._check("Planning")
        self._planned = True

    def _compute(self, keep):
        a, b = self.operands[0], self.operands[1]
        q = self.qualifiers
        if self.diag[0] or self.diag[1]:
            i = 0 if self.diag[0] else 1
            v = self.operands[i]
            if int(q[i]["incx"]) == -1:
                v = v[::-1]
            if bool(q[i]["conjugate"]) and v.dtype.kind == "c":
                v = ember.conj(v)
            keep.append(v)
            if self.diag[0]:
                d = v[:, None] * _dense(b, q[1], "B", keep)
            else:
                d = _dense(a, q[0], "A", keep) * v
            if d.ndim != len(self.result_shape):   # a 1-D other operand: a vector result
                d = d.reshape(self.result_shape)
        else:
            d = ember.matmul(_dense(a, q[0], "A", keep), _dense(b, q[1], "B", keep))
        keep.append(d)
        c = self.operands[2] if self.num_operands == 3 else None
        has_c = c is not None and self.beta != 0
        if self.alpha != 1 or has_c:
            d = _epilog_pass(self.alpha != 1, has_c, False, None, None)(
                d, self.alpha, c if has_c else 0, self.beta if has_c else 0, 0, 0)
        return d

    def execute(self, *, stream=None):
        self._check("Execution")
        keep = []
        with _utils.StreamScope(stream, self.device):
            d = self._compute(keep)
            result = _utils.deliver(d, self.options.inplace, self.operands,
                                    self.user_operands, self.package, self.operand_device)
            # nvmath blocks for host operands and host execution; GPU work on
            # GPU operands is left running unless blocking=True.
            if self.options.blocking is True or str(self.operand_device) == "cpu" or str(self.device) == "cpu":
                ember.cuda.get_current_stream().synchronize()
        return result

    def reset_operands(self, a=None, b=None, c=None, *, alpha=None, beta=None, stream=None):
        if not self._valid:
            raise InvalidMatmulState("The Matmul object cannot be used after its resources are freed.")
        if c is not None and self.num_operands == 2:
            raise ValueError("The problem specification does not include operand C, so it cannot be reset.")
        if all(x is None for x in (a, b, c, alpha, beta)):
            self.operands = self.user_operands = None
            return
        if self.operands is None and (a is None or b is None or (c is None and self.num_operands == 3)):
            raise ValueError(f"Operands {'A, B' + (', C' if self.num_operands == 3 else '')} must be provided, "
                             f"since they were reset to None.")
        if alpha is not None:
            self.alpha = _scalar(alpha, self.dtype, "alpha")
        if beta is not None and self.num_operands == 3:
            self.beta = _scalar(beta, self.dtype, "beta")
        with _utils.StreamScope(stream, self.device):
            _utils.replace_operands(self, (a, b, c))

    def free(self):
        self.operands = self.user_operands = None
        self._valid = False


def matmul(a, b, /, c=None, *, alpha=None, beta=None, qualifiers=None, options=None, execution=None,
           stream=None):
    """alpha * a @ b + beta * c with a and b possibly structured (qualifiers)."""
    with Matmul(a, b, c=c, alpha=alpha, beta=beta, qualifiers=qualifiers, options=options, execution=execution,
                stream=stream) as mm:
        mm.plan(stream=stream)
        return mm.execute(stream=stream)
