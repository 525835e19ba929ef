import ember

from helpers import run_python


def test_info_command():
    r = run_python("-m", "ember", "info")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "ember " + ember.__version__ in out
    assert "cpu" in out and "cuda" in out
    assert "kernel cache" in out and "NVRTC" in out and "CUDA driver" in out


def test_info_function():
    assert ember.info().startswith("ember " + ember.__version__)


def test_bad_command():
    r = run_python("-m", "ember", "frobnicate")
    assert r.returncode == 2 and "usage" in r.stderr
