"""PyCUDA-style source that includes the C library's headers and uses
glibc's typedefs, as nvcc lets it (PyCUDA's wiki examples do): it runs on
every device, and its GPU side compiles under NVRTC on a machine without
a GPU. NVRTC's include path to the toolkit (cuda_fp16.h without -I, as
CuPy gives it)."""
import os

import numpy as np
import pytest

import ember

SRC = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdint.h>
#include <limits.h>
#include <float.h>
#include <assert.h>

__global__ void fill(float *out, uint n, ushort k)
{
    const uint i = threadIdx.x + blockIdx.x * blockDim.x;
    uint32_t big = UINT32_MAX;
    assert(n > 0);
    if (i < n)
        out[i] = (float)(M_PI * i) + k + (big == 4294967295U) +
                 (INT_MAX == 2147483647) + (FLT_EPSILON < 1e-6f) +
                 (isinf(INFINITY) ? 1.0f : 0.0f) + (CHAR_BIT == 8);
    if (i == 0)
        printf("n=%u\n", n);
}
"""


def test_c_library_headers_and_typedefs(device):
    with ember.Device(device):
        from ember.pycuda import driver as drv
        from ember.pycuda.compiler import SourceModule
        fill = SourceModule(SRC).get_function("fill")
        n = 300
        out = np.zeros(n, np.float32)
        fill(drv.Out(out), np.uint32(n), np.uint16(7), block=(128, 1, 1),
             grid=(3, 1))
    want = (np.pi * np.arange(n)).astype(np.float32) + np.float32(7 + 5)
    np.testing.assert_allclose(out, want, rtol=1e-6)


def test_c_library_headers_under_nvrtc():
    """The GPU's side (include/nvrtc, prelude.h) compiled by NVRTC (to
    LTO-IR, which needs no GPU) with SourceModule's options as a GPU gets
    them; without the directory NVRTC stops at the first include."""
    from conftest import HAVE_NVRTC
    if not HAVE_NVRTC:
        pytest.skip("NVRTC not found")
    from ember.cuda.core import Program, ProgramOptions
    from ember.pycuda import compiler
    src = 'extern "C" {\n%s\n}\n' % SRC
    opts = ProgramOptions(include_path=[compiler._INCLUDE, compiler._NVRTC],
                          pre_include=os.path.join(compiler._NVRTC, "prelude.h"),
                          arch="sm_90")
    assert len(Program(src, "c++", options=opts).compile("ltoir").code) > 0
    with pytest.raises(ember.CompileError, match="stdio.h"):
        Program(src, "c++", options=ProgramOptions(arch="sm_90")).compile("ltoir")


def test_pycuda_options_name_the_headers_on_a_gpu_only(device):
    from ember.pycuda import compiler
    with ember.Device(device):
        o = compiler.compile_options(["-DX=1"], ["/inc"])
    assert o[:2] == ("-DX=1", "-I/inc")
    gpu = any(x.startswith("--pre-include=") for x in o)
    assert gpu == (ember.Device(device).type != "cpu")


HALF = r"""
#include <cuda_fp16.h>
extern "C" __global__ void twice(const float *x, float *y, int n)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n)
        y[i] = __half2float(__hmul(__float2half(x[i]), __float2half(2.0f)));
}
"""


def _toolkit_headers():
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        if root and os.path.exists(os.path.join(root, "include", "cuda_fp16.h")):
            return root
    return None


def test_nvrtc_names_the_toolkit_headers():
    """No -I from the program: NVRTC compiles (to LTO-IR, no GPU needed)
    source including the toolkit's and CCCL's headers."""
    from conftest import HAVE_NVRTC
    if not HAVE_NVRTC or _toolkit_headers() is None:
        pytest.skip("NVRTC or the CUDA toolkit's headers not found")
    from ember.cuda.core import Program, ProgramOptions
    src = HALF
    if os.path.isdir(os.path.join(_toolkit_headers(), "include", "cccl")):
        src = "#include <cuda/std/cstdint>\n" + src
    code = Program(src, "c++", options=ProgramOptions(arch="sm_90")).compile("ltoir").code
    assert len(code) > 0


def test_cuda_home_comes_first(tmp_path):
    """$CUDA_HOME's include directory (and its cccl/) is the one named,
    found at the first compile of the process."""
    import subprocess
    import sys
    from conftest import HAVE_NVRTC
    if not HAVE_NVRTC:
        pytest.skip("NVRTC not found")
    inc = tmp_path / "include"
    (inc / "cccl" / "cuda" / "std").mkdir(parents=True)
    (inc / "cuda_fp16.h").write_text("#define EMBER_TEST_FP16 1\n")
    (inc / "cccl" / "cuda" / "std" / "cstdint").write_text("#define EMBER_TEST_CCCL 1\n")
    prog = (
        "from ember.cuda.core import Program, ProgramOptions\n"
        "src = '#include <cuda_fp16.h>\\n#include <cuda/std/cstdint>\\n"
        "#if !EMBER_TEST_FP16 || !EMBER_TEST_CCCL\\n#error not the fake toolkit\\n"
        "#endif\\nextern \"C\" __global__ void k() {}\\n'\n"
        "print(len(Program(src, 'c++', options=ProgramOptions(arch='sm_90'))"
        ".compile('ltoir').code) > 0)\n")
    env = dict(os.environ, CUDA_HOME=str(tmp_path), EMBER_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-c", prog], env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "True", r.stderr[-2000:]




def test_rawkernel_finds_cuda_fp16_as_cupy_does(device):
    """No -I from the program: on a GPU ember names the toolkit's include
    directory itself (CuPy does); on cpu the host prelude has the names."""
    if device != "cpu" and _toolkit_headers() is None:
        pytest.skip("no CUDA toolkit headers on this machine")
    x = np.linspace(-3, 3, 100, dtype=np.float32)
    with ember.Device(device):
        k = ember.RawKernel(HALF, "twice")
        xd = ember.asarray(x)
        y = ember.empty_like(xd)
        k((1,), (128,), (xd, y, np.int32(x.size)))
        got = ember.asnumpy(y)
    np.testing.assert_array_equal(got, (x.astype(np.float16) * np.float16(2)).astype(np.float32))
