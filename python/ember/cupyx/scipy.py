"""cupyx.scipy is ember.scipy: a program that imports cupyx.scipy.ndimage,
.signal, .sparse (and .sparse.linalg), .special or .linalg runs after its
import line changes, and so does one of .interpolate, .stats or .spatial
(and .spatial.distance). The names are ember.scipy's own modules, not copies, so
arrays and matrices from either spelling are one type. cupyx.scipy.fft
(scipy.fft's transforms and SciPy's FFT backend protocol) is
ember/cupyx/scipy_fft.py, which ember.scipy.fft names too."""
import sys

import ember.scipy
from ember.scipy import (interpolate, linalg, ndimage, signal, sparse,
                         spatial, special, stats)

for _name, _mod in (("ndimage", ndimage), ("signal", signal),
                    ("sparse", sparse), ("sparse.linalg", sparse.linalg),
                    ("special", special), ("linalg", linalg),
                    ("interpolate", interpolate), ("stats", stats),
                    ("spatial", spatial), ("spatial.distance", spatial.distance)):
    sys.modules[f"{__name__}.{_name}"] = _mod
sys.modules[f"{__name__}.fft"] = ember.scipy.fft
sys.modules[__name__] = ember.scipy
