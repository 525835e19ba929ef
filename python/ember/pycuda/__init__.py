"""PyCUDA's spellings over ember: ``import ember.pycuda.autoinit``,
``ember.pycuda.driver`` (memory, copies, streams, events, devices),
``ember.pycuda.compiler.SourceModule`` (over ember.RawModule) and
``ember.pycuda.gpuarray`` (ember arrays with GPUArray's names), ``cumath``,
``elementwise.ElementwiseKernel`` and ``reduction.ReductionKernel``,
``tools`` (memoization, memory pools, dtype_to_ctype) and ``curandom``
(random arrays from ember.random).

A PyCUDA program runs after changing ``import pycuda...`` to
``import ember.pycuda...``, on the GPU and on the cpu device. Everything here
is Python over ember's public runtime; nothing keeps state of its own."""
from . import driver, compiler, gpuarray, cumath  # noqa: F401
from . import elementwise, reduction, tools, curandom  # noqa: F401

__all__ = ["driver", "compiler", "gpuarray", "cumath", "elementwise",
           "reduction", "tools", "curandom"]
