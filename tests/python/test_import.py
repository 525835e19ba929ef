import os

import pytest

import ember

from helpers import run_python


def test_import_does_not_import_numpy():
    r = run_python("-c", "import ember, sys; assert 'numpy' not in sys.modules, 'numpy'")
    assert r.returncode == 0, r.stderr


def test_public_names():
    assert ember.__version__ == "0.1.0"
    for name in ("Device", "Stream", "Event", "alloc", "RawKernel", "RawModule",
                 "In", "Out", "InOut", "get_elapsed_time", "CUDAError",
                 "CompileError", "BackendUnavailableError", "get_default_memory_pool",
                 "alloc_pinned_memory", "get_current_stream", "get_current_device"):
        assert hasattr(ember, name), name
    for name in ("Program", "ObjectCode", "runtime", "alloc", "RawKernel"):
        assert hasattr(ember.cuda, name), name
    assert ember.cuda.alloc is ember.alloc
    assert issubclass(ember.CUDAError, RuntimeError)
    assert issubclass(ember.CompileError, RuntimeError)
    assert issubclass(ember.BackendUnavailableError, RuntimeError)
    e = ember.CUDAError("x")
    assert e.code == 0 and e.name == ""


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs /proc")
def test_import_starts_no_device():
    """Import must not open the CUDA driver or NVRTC (that costs 100s of ms);
    the first call that needs a device does."""
    code = ("import ember, ember.cuda.runtime\n"
            "maps = open('/proc/self/maps').read()\n"
            "assert 'libcuda.so' not in maps, 'libcuda loaded'\n"
            "assert 'libnvrtc' not in maps, 'nvrtc loaded'\n"
            "ember.Device('cpu').mem_info()\n"
            "print('ok')\n")
    r = run_python("-c", code)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
