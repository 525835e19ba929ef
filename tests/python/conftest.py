"""Shared fixtures: every device test runs on 'cpu' and, when a GPU works,
on 'cuda:0'; without one the cuda case is skipped with the backend's reason."""
import os
import shutil
import tempfile

import pytest

# Each pytest session compiles into its own empty kernel cache, so a run
# never leans on kernels an earlier run left in ~/.cache/ember: what passes
# here passes on a fresh clone, and the time is the cold time. ember reads
# the variable once, at its first compile, so it is set before the import.
# A caller that names a directory keeps it (tools/gpu_check.sh shares one
# across the pytest processes it runs side by side, on purpose).
_OWN_CACHE = None
if not os.environ.get("EMBER_CACHE_DIR"):
    _OWN_CACHE = tempfile.mkdtemp(prefix="ember-test-cache-")
    os.environ["EMBER_CACHE_DIR"] = _OWN_CACHE

import ember  # noqa: E402  (after the cache directory is chosen)


def pytest_report_header(config):
    return "ember kernel cache: " + os.environ["EMBER_CACHE_DIR"] + (
        " (this session's own, empty at start)" if _OWN_CACHE else
        " (EMBER_CACHE_DIR from the caller)")


def pytest_unconfigure(config):
    if _OWN_CACHE:
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)


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
