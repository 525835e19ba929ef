"""ember.nvmath.fft: nvmath-python's FFT host API over ember.fft
(cuFFT on cuda, pocketfft on cpu): docs/nvmath.md."""
from ember.nvmath.fft._fft import (  # noqa: F401
    FFT, DeviceCallable, ExecutionCPU, ExecutionCUDA, FFTDirection, FFTOptions, UnsupportedLayoutError,
    compile_epilog, compile_prolog, fft, ifft, irfft, rfft)

__all__ = ["FFT", "DeviceCallable", "ExecutionCPU", "ExecutionCUDA", "FFTDirection", "FFTOptions",
           "UnsupportedLayoutError", "compile_epilog", "compile_prolog", "fft", "ifft", "irfft", "rfft"]
