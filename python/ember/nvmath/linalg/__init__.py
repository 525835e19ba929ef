"""ember.nvmath.linalg: nvmath-python's linalg namespace: the generic
matmul with matrix qualifiers (``matmul``, ``Matmul``, also as
``linalg.generic``) and ``advanced`` (cuBLASLt-style matmul with epilogs)."""
from ember.nvmath.linalg import advanced, generic  # noqa: F401
from ember.nvmath.linalg.advanced import MatmulComputeType as ComputeType  # noqa: F401
from ember.nvmath.linalg.generic import (  # noqa: F401
    DiagonalMatrixQualifier, DiagType, ExecutionCPU, ExecutionCUDA, FillMode, GeneralMatrixQualifier,
    HermitianMatrixQualifier, InvalidMatmulState, Matmul, MatmulOptions, MatrixQualifier, SideMode,
    SymmetricMatrixQualifier, TriangularMatrixQualifier, matmul, matrix_qualifiers_dtype)

__all__ = ["advanced", "generic", "ComputeType", "DiagonalMatrixQualifier", "DiagType", "ExecutionCPU",
           "ExecutionCUDA", "FillMode", "GeneralMatrixQualifier", "HermitianMatrixQualifier",
           "InvalidMatmulState", "Matmul", "MatmulOptions", "MatrixQualifier", "SideMode",
           "SymmetricMatrixQualifier", "TriangularMatrixQualifier", "matmul", "matrix_qualifiers_dtype"]
