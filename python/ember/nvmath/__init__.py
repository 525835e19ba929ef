"""ember.nvmath: nvmath-python's host APIs over ember's linalg and fft.

``import ember.nvmath as nvmath`` (or ``from ember import nvmath``) runs
programs written for nvmath-python's ``nvmath.linalg.advanced.matmul``,
``Matmul``, ``nvmath.fft.fft``/``ifft``/``rfft``/``irfft`` and ``FFT``:
the products are ember's matmul (cuBLAS on cuda, OpenBLAS on cpu) and
the transforms ember.fft (cuFFT on cuda, pocketfft on cpu); epilogs are
one fused elementwise pass after the product. docs/nvmath.md lists what
differs from nvmath-python. The device APIs (``nvmath.device``:
cuBLASDx, cuFFTDx, cuRAND device), ``nvmath.bindings``, and the
distributed, sparse and tensor packages are not provided: importing them
raises ImportError saying so.
"""
from ember.nvmath import fft, linalg  # noqa: F401

__all__ = ["fft", "linalg"]

_NOT_PROVIDED = {
    "device": "the device APIs (cuBLASDx, cuFFTDx, cuRAND device functions)",
    "bindings": "the low-level CUDA library bindings",
    "distributed": "the distributed (multi-process) APIs",
    "sparse": "the sparse direct solver (cuDSS)",
    "tensor": "the tensor contraction APIs (cuTENSOR); ember.einsum covers contractions",
}


def __getattr__(name):
    if name in _NOT_PROVIDED:
        raise ImportError(f"ember.nvmath.{name} is not provided: ember implements nvmath-python's "
                          f"host APIs (linalg.advanced.matmul, fft) only, not {_NOT_PROVIDED[name]}.")
    raise AttributeError(f"module 'ember.nvmath' has no attribute {name!r}")
