"""Options, preferences, enums and the algorithm object of
ember.nvmath.linalg.advanced. The enum values are cuBLAS(Lt)'s, so code
that stores or compares them as integers keeps working."""
import dataclasses
from enum import IntEnum
from logging import Logger

import numpy as _np


class MatmulComputeType(IntEnum):
    """cuBLAS's compute types (cublasComputeType_t)."""
    COMPUTE_16F = 64
    COMPUTE_16F_PEDANTIC = 65
    COMPUTE_32F = 68
    COMPUTE_32F_PEDANTIC = 69
    COMPUTE_64F = 70
    COMPUTE_64F_PEDANTIC = 71
    COMPUTE_32I = 72
    COMPUTE_32I_PEDANTIC = 73
    COMPUTE_32F_FAST_16F = 74
    COMPUTE_32F_FAST_16BF = 75
    COMPUTE_32F_FAST_TF32 = 77


class MatmulEpilog(IntEnum):
    """cuBLASLt's epilogues (cublasLtEpilogue_t)."""
    DEFAULT = 1
    RELU = 2
    RELU_AUX = 130
    BIAS = 4
    RELU_BIAS = 6
    RELU_AUX_BIAS = 134
    DRELU = 136
    DRELU_BGRAD = 152
    GELU = 32
    GELU_AUX = 160
    GELU_BIAS = 36
    GELU_AUX_BIAS = 164
    DGELU = 192
    DGELU_BGRAD = 208
    BGRADA = 256
    BGRADB = 512


class MatmulInnerShape(IntEnum):
    UNDEFINED = 0
    MMA884 = 1
    MMA1684 = 2
    MMA1688 = 3
    MMA16816 = 4


class MatmulReductionScheme(IntEnum):
    NONE = 0
    INPLACE = 1
    COMPUTE_TYPE = 2
    OUTPUT_TYPE = 4
    MASK = 7


class MatmulNumericalImplFlags(IntEnum):
    FMA = 0x01
    HMMA = 0x02
    IMMA = 0x04
    DMMA = 0x08
    ALL = 0xFFFFFFFFFFFFFFFF


matrix_qualifiers_dtype = _np.dtype([("structure", object), ("is_conjugate", "<i4")])


def _check_choice(name, value, choices):
    if value not in choices:
        raise ValueError(f"The value specified for '{name}' must be one of {list(choices)}; got {value!r}.")


@dataclasses.dataclass
class MatmulOptions:
    """nvmath's MatmulOptions. ember reads inplace, compute_type,
    result_type, device_id (the GPU a host operand, NumPy's or a torch cpu
    tensor, is copied to when ember's default device is a GPU), logger and
    blocking; the others are
    accepted and have no effect (sm_count_target, handle, memory_limit,
    allocator, scale_type) or raise NotImplementedError when asked for
    (FP8's result_amax and block_scaling)."""
    inplace: bool = False
    compute_type: int | None = None
    scale_type: int | None = None
    result_type: object = None
    result_amax: bool = False
    block_scaling: bool = False
    sm_count_target: int | None = 0
    fast_accumulation: bool | None = False
    device_id: int = 0
    handle: int | None = None
    logger: Logger | None = None
    memory_limit: int | str | None = r"80%"
    blocking: object = "auto"
    allocator: object = None

    def __post_init__(self):
        if not isinstance(self.inplace, bool):
            raise ValueError("The value specified for 'inplace' must be of type bool (True or False).")
        _check_choice("blocking", self.blocking, (True, "auto"))
        if self.compute_type is not None:
            try:
                self.compute_type = MatmulComputeType(self.compute_type)
            except ValueError:
                raise ValueError(f"The value specified for 'compute_type' ({self.compute_type!r}) is not "
                                 f"a MatmulComputeType.") from None
        if not isinstance(self.device_id, int) or self.device_id < 0:
            raise ValueError(f"The value specified for 'device_id' must be a non-negative int; got "
                             f"{self.device_id!r}.")


@dataclasses.dataclass
class MatmulEpilogPreferences:
    aux_type: object = None
    aux_amax: bool = False


@dataclasses.dataclass
class MatmulPlanPreferences:
    """nvmath's plan preferences. ember has one algorithm per problem, so
    only ``limit`` (at least 1) is checked; the rest are accepted."""
    reduction_scheme_mask: int | None = MatmulReductionScheme.MASK
    max_waves_count: float | None = 0.0
    numerical_impl_mask: int | None = MatmulNumericalImplFlags.ALL
    limit: int = 8
    epilog: MatmulEpilogPreferences | None = None

    def __post_init__(self):
        if not isinstance(self.limit, int) or self.limit < 1:
            raise ValueError(f"The value specified for 'limit' must be a positive int; got {self.limit!r}.")
        if isinstance(self.epilog, dict):
            self.epilog = MatmulEpilogPreferences(**self.epilog)


@dataclasses.dataclass
class MatmulQuantizationScales:
    a: object = None
    b: object = None
    c: object = None
    d: object = None


class Algorithm:
    """What plan() returns a list of. ember's matmul is one algorithm (cuBLAS's
    strided batched gemm on cuda, OpenBLAS's gemm on cpu, ember's generated
    product kernel where neither reads the layout); its configuration
    fields are kept so that code setting them runs, and they change
    nothing. Picklable, so an autotuned list can be saved and given back
    to plan(algorithms=...)."""

    _CONFIG = ("tile", "stages", "split_k", "reduction_scheme", "cta_swizzling",
               "custom_option", "inner_shape", "cluster_shape")

    def __init__(self, algorithm_id=0, description="ember.matmul"):
        self.algorithm_id = algorithm_id
        self.description = description
        self.tile = 0
        self.stages = 0
        self.split_k = 1
        self.reduction_scheme = MatmulReductionScheme.NONE
        self.cta_swizzling = False
        self.custom_option = 0
        self.inner_shape = MatmulInnerShape.UNDEFINED
        self.cluster_shape = (1, 1, 1)
        self.time_ms = None          # the mean time autotune() measured, else None

    @property
    def capabilities(self):
        return {"algorithm_id": self.algorithm_id, "description": self.description,
                "splitk_support": False, "tile_ids": (0,), "epilogue_mask": "fused elementwise pass"}

    @property
    def config(self):
        return {k: getattr(self, k) for k in self._CONFIG}

    def __repr__(self):
        t = "" if self.time_ms is None else f", time_ms={self.time_ms:.4g}"
        return f"Algorithm(algorithm_id={self.algorithm_id}, {self.description}{t})"
