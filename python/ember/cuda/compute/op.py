"""cuda.compute.op's OpKind (RawOp, an operator compiled elsewhere, is not
supported: ember compiles its operators from Python or C expressions)."""
from ember.cuda.compute._ops import OpKind

__all__ = ["OpKind"]
