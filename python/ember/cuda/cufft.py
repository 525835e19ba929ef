"""cupy.cuda.cufft's names: CuPy's private, low-level cuFFT wrappers
(Plan1d, PlanNd, XtPlanNd and the CUFFT_* constants).

ember does not expose cuFFT plans: ember.fft and ember.cupyx.scipy.fft
make and cache them (ember.fft.config), on the cpu device the transform is
pocketfft. The constants are cuFFT's values, so code that only names them
imports; making a plan raises NotImplementedError saying what to use.
Multi-GPU plans (devices=[...]), plans over host (NumPy) arrays and
half-precision XtPlanNd plans have no ember counterpart.
"""

__all__ = ["CUFFT_FORWARD", "CUFFT_INVERSE", "CUFFT_R2C", "CUFFT_C2R",
           "CUFFT_C2C", "CUFFT_D2Z", "CUFFT_Z2D", "CUFFT_Z2Z",
           "Plan1d", "PlanNd", "XtPlanNd"]

CUFFT_FORWARD = -1
CUFFT_INVERSE = 1
CUFFT_R2C = 0x2a
CUFFT_C2R = 0x2c
CUFFT_C2C = 0x29
CUFFT_D2Z = 0x6a
CUFFT_Z2D = 0x6c
CUFFT_Z2Z = 0x69


class _Unavailable:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            f"ember.cuda.cufft.{type(self).__name__}: ember does not expose "
            "cuFFT plans (CuPy's private cupy.cuda.cufft API); use ember.fft "
            "or ember.cupyx.scipy.fft, which make and cache the plans "
            "themselves (ember.fft.config). Multi-GPU, host-array and "
            "half-precision (XtPlanNd) transforms are not offered")


class Plan1d(_Unavailable):
    """CuPy's cufft.Plan1d: not offered (NotImplementedError)."""


class PlanNd(_Unavailable):
    """CuPy's cufft.PlanNd: not offered (NotImplementedError)."""


class XtPlanNd(_Unavailable):
    """CuPy's cufft.XtPlanNd: not offered (NotImplementedError)."""
