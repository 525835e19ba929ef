"""Shared fixtures: every device test runs on 'cpu' and, when a GPU works,
on 'cuda:0'; without one the cuda case is skipped with the backend's reason."""
import os

import pytest

import ember


def _cuda_count():
    try:
        return ember.cuda.runtime.getDeviceCount()
    except Exception:  # a broken driver is reported by backend_status
        return 0


HAVE_CUDA = _cuda_count() > 0
# On the GPU machine a missing GPU must fail the run, not skip half of it.
if os.environ.get("EMBER_TEST_REQUIRE_GPU") == "1" and not HAVE_CUDA:
    raise pytest.UsageError("EMBER_TEST_REQUIRE_GPU=1 but no CUDA device: "
                            + ember.backend_status("cuda"))
HAVE_NVRTC = ember.cuda.runtime.runtimeGetVersion() > 0


@pytest.fixture(params=["cpu", "cuda:0"])
def device(request):
    """The device spec ('cpu' or 'cuda:0') a test runs on."""
    if request.param.startswith("cuda") and not HAVE_CUDA:
        pytest.skip("no CUDA device: " + ember.backend_status("cuda"))
    return request.param


@pytest.fixture
def dev(device):
    return ember.Device(device)


@pytest.fixture
def need_cuda():
    if not HAVE_CUDA:
        pytest.skip("no CUDA device: " + ember.backend_status("cuda"))


@pytest.fixture
def need_nvrtc():
    if not HAVE_NVRTC:
        pytest.skip("NVRTC not found")
