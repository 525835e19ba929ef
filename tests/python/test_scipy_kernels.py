"""ember.scipy's plain-C kernel files compile for the GPU: NVRTC builds
each here (no GPU needed), so a CUDA-only slip fails on every machine, not
first on the GPU host. Template files are checked with their instances
beside their callers (test_scipy_sparse.py for spmv.cuh, the signal and
ndimage tests for convolve2d.cuh and ndfilter1d.cuh)."""
import re

import pytest

import ember
from conftest import HAVE_NVRTC
from ember.scipy import _kernels


@pytest.mark.skipif(not HAVE_NVRTC, reason="NVRTC not found")
@pytest.mark.parametrize("name", ["label.cuh", "lfilter.cuh", "ndfilter.cuh",
                                  "watershed.cuh"])
def test_compiles_with_nvrtc(name):
    src = _kernels.source(name)
    ptx = ember.cuda.Program(src).compile("ptx").code
    want = len(re.findall(r'extern "C" __global__', src))
    assert want and ptx.count(b".entry") == want
