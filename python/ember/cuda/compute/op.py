"""cuda.compute.op: OpKind. RawOp (an operator compiled elsewhere, as
LTO-IR or LLVM IR) is not supported: ember compiles its operators itself,
from Python functions or C expressions, for the GPU and the CPU alike."""
from ember.cuda.compute._ops import OpKind


class RawOp:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            "RawOp is not supported by ember.cuda.compute: ember compiles "
            "operators from Python functions (for both devices), not from "
            "LTO-IR; pass a Python function, an OpKind, or call "
            "ember.parallel with a C expression string")


__all__ = ["OpKind", "RawOp"]
