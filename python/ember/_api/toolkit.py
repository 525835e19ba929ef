"""Where the CUDA toolkit's headers are, for source compiled by NVRTC.

NVRTC has no include path of its own: `#include <cuda_fp16.h>` or
`<cuda/std/cstdint>` in a RawKernel finds nothing unless the toolkit's
include directory is named with -I. CuPy names it for every RawKernel, so
programs written for CuPy rely on it; ember does the same on a GPU (the
cpu device's compiler gets ember's host prelude instead)."""
import glob
import os
import sys

_found = None


def _candidates():
    for var in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root:
            yield os.path.join(root, "include")
    # pip's nvidia-* wheels: CUDA 13's put every header in nvidia/cu13,
    # CUDA 12's runtime wheel its own
    for site in sys.path:
        for sub in ("cu13", "cuda_runtime"):
            yield os.path.join(site, "nvidia", sub, "include")
    yield "/usr/local/cuda/include"
    yield from sorted(glob.glob("/usr/local/cuda-*/include"), reverse=True)


def cuda_include_options():
    """The -I options naming the toolkit's headers (and CCCL's, which
    CUDA 13 keeps in include/cccl), found once; () when no toolkit's
    cuda_fp16.h is found."""
    global _found
    if _found is None:
        _found = ()
        for inc in _candidates():
            if os.path.isfile(os.path.join(inc, "cuda_fp16.h")):
                cccl = os.path.join(inc, "cccl")
                _found = ("-I" + inc,) + (("-I" + cccl,) if os.path.isdir(cccl) else ())
                break
    return _found


def on_cuda():
    """True when the current device is a GPU (sources go to NVRTC)."""
    from ember import _ember
    return _ember.get_current_device().type != "cpu"
