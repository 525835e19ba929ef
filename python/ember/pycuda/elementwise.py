"""PyCUDA's ``pycuda.elementwise.ElementwiseKernel``: an operation on
element i of pointer arguments, compiled from kernels/elementwise.cu with
ember.RawModule and launched over the first array's size (or range=/
slice=), on the GPU or the cpu device."""
import os

import ember

from .compiler import compile_options
from .driver import Function

__all__ = ["ElementwiseKernel", "get_linear_combination_kernel"]

_TEMPLATE = None


def _template():
    global _TEMPLATE
    if _TEMPLATE is None:
        path = os.path.join(os.path.dirname(__file__), "kernels",
                            "elementwise.cu")
        with open(path) as f:
            _TEMPLATE = f.read()
    return _TEMPLATE


def _source(arguments, operation, name, preamble="", loop_prep="",
            after_loop=""):
    fields = {"@PREAMBLE@": preamble, "@NAME@": name,
              "@ARGUMENTS@": arguments, "@LOOP_PREP@": loop_prep,
              "@OPERATION@": operation, "@AFTER_LOOP@": after_loop}
    src = _template()
    for k, v in fields.items():
        src = src.replace(k, v)
    return src


def _size(a):
    """n for an array argument (GPUArray, any ember array or a
    VecGPUArray), else None."""
    if isinstance(a, ember.ndarray) or hasattr(a, "_device_array"):
        return a.size
    return None


class ElementwiseKernel:
    """ElementwiseKernel(arguments, operation, name='kernel', keep=False,
    options=None, preamble='', loop_prep='', after_loop=''): arguments as
    C declarations ('float *x, float *y, float a'), operation a statement
    on element i ('y[i] = a * x[i]'); n is the first array's size."""

    def __init__(self, arguments, operation, name="kernel", keep=False,
                 options=None, preamble="", loop_prep="", after_loop=""):
        if not isinstance(arguments, str):
            raise NotImplementedError("ElementwiseKernel: give arguments as "
                                      "a string of C declarations")
        self.name = name
        src = _source(arguments, operation, name, preamble, loop_prep,
                      after_loop)
        self._fn = Function(ember.RawModule(
            code=src, options=compile_options(options)).get_function(name))
        self._nargs = len(self._fn._fn.param_kinds) - 4

    def __call__(self, *args, range=None, slice=None, stream=None):
        if len(args) != self._nargs:
            raise TypeError("%s() takes %d arguments (%d given)"
                            % (self.name, self._nargs, len(args)))
        n = next((s for s in map(_size, args) if s is not None), None)
        if n is None:
            raise TypeError("%s(): one argument must be an array (its size "
                            "is n)" % self.name)
        if range is not None and slice is not None:
            raise TypeError("%s(): give range or slice, not both" % self.name)
        r = range if range is not None else slice
        start, stop, step = (0, n, 1) if r is None else r.indices(n) \
            if slice is not None else (r.start or 0, r.stop, r.step or 1)
        count = max(0, -(-(stop - start) // step))
        block = 256
        grid = max(1, min(-(-count // block), 4096))
        converted = self._fn._convert(args + (n, start, stop, step))
        self._fn._launch((grid,), (block,), converted, 0, stream)


def get_linear_combination_kernel(summand_descriptors, dtype_z):
    """PyCUDA's helper returns a kernel and the texture references that
    carry its GPU-resident scalars. Texture references are gone from CUDA
    12 and ember has none, so it is refused; an ElementwiseKernel that
    reads the scalars through pointers does the same work."""
    raise NotImplementedError(
        "get_linear_combination_kernel: its scalars travel through texture "
        "references, which CUDA 12 removed and ember does not have; write "
        "the combination as an ElementwiseKernel taking the scalars by "
        "pointer ('float *a, float *x, ...', 'z[i] = a[0]*x[i] + ...')")
