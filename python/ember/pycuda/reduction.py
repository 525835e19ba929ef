"""PyCUDA's ``pycuda.reduction.ReductionKernel``: map_expr on element i of
the arguments (an ElementwiseKernel into a dtype_out array), then
reduce_expr on pairs a, b from neutral (ember's ReductionKernel, which
names its operands a and b as PyCUDA does)."""
import numpy

import ember

from . import gpuarray
from .compiler import compile_options
from .elementwise import ElementwiseKernel
from .tools import dtype_to_ctype

__all__ = ["ReductionKernel"]


class ReductionKernel:
    """ReductionKernel(dtype_out, neutral, reduce_expr, map_expr=None,
    arguments=None, name='reduce_kernel', keep=False, options=None,
    preamble='', allocator=None); called with the arguments, it returns a
    0-d GPUArray of dtype_out."""

    def __init__(self, dtype_out, neutral, reduce_expr, map_expr=None,
                 arguments=None, name="reduce_kernel", keep=False,
                 options=None, preamble="", allocator=None):
        self.dtype_out = numpy.dtype(dtype_out)
        try:
            ctype = dtype_to_ctype(self.dtype_out) \
                if self.dtype_out.kind in "biuf" else None
        except ValueError:        # float16: no C type both devices share
            ctype = None
        if ctype is None:
            raise NotImplementedError("ReductionKernel(dtype_out=%s): ember "
                                      "maps numbers and bools only"
                                      % self.dtype_out)
        if arguments is None:
            raise TypeError("ReductionKernel: arguments are needed")
        if map_expr is None:      # PyCUDA's default: the one input itself
            first = arguments.split(",")[0].replace("*", " ").split()[-1]
            map_expr = "%s[i]" % first
        self.name = name
        self._map = ElementwiseKernel(
            "%s, %s *out__" % (arguments, ctype), "out__[i] = (%s)" % map_expr,
            name + "_map", options=options, preamble=preamble)
        self._reduce = ember.ReductionKernel(
            "T x", "T y", "x", reduce_expr, "y = a", str(neutral),
            name + "_reduce", preamble=preamble,
            options=compile_options(options))

    def __call__(self, *args, stream=None, out=None, range=None, slice=None):
        n = next((a.size for a in args if isinstance(a, ember.ndarray)), None)
        if n is None:
            raise TypeError("%s(): one argument must be an array" % self.name)
        mapped = gpuarray.empty(n, self.dtype_out)
        self._map(*args, mapped, range=range, slice=slice, stream=stream)
        if range is not None or slice is not None:
            r = range if range is not None else slice
            mapped = mapped[r]
        result = self._reduce(mapped)
        if out is not None:
            out[...] = result
            return out
        return gpuarray._wrap(result)
