"""ember.nvmath.linalg.advanced: nvmath-python's matmul, Matmul and their
options over ember's matmul (docs/nvmath.md)."""
from ember.nvmath.linalg.advanced._configuration import (  # noqa: F401
    Algorithm, MatmulComputeType, MatmulEpilog, MatmulEpilogPreferences, MatmulInnerShape,
    MatmulNumericalImplFlags, MatmulOptions, MatmulPlanPreferences, MatmulQuantizationScales,
    MatmulReductionScheme, matrix_qualifiers_dtype)
from ember.nvmath.linalg.advanced._matmul import InvalidMatmulState, Matmul, matmul  # noqa: F401

__all__ = ["Algorithm", "InvalidMatmulState", "Matmul", "MatmulComputeType", "MatmulEpilog",
           "MatmulEpilogPreferences", "MatmulInnerShape", "MatmulNumericalImplFlags",
           "MatmulOptions", "MatmulPlanPreferences", "MatmulQuantizationScales",
           "MatmulReductionScheme", "matmul", "matrix_qualifiers_dtype"]
