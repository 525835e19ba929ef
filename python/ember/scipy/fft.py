"""scipy.fft's transforms over ember arrays: the module cupyx.scipy.fft
names (ember/cupyx/scipy_fft.py), so `import ember.scipy.fft`,
`ember.scipy.fft` and `cupyx.scipy.fft` are one module with one plan
cache and one backend protocol."""
import sys

from ember.cupyx import scipy_fft as _fft

sys.modules[__name__] = _fft
