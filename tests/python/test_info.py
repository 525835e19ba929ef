import os
import re
import subprocess
import sys

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


ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def test_knobs_documented():
    """docs/knobs.md lists exactly the variables of core/knob.c's table,
    and no C file reads an EMBER_ variable except through the table."""
    names = {n for n, _, _ in ember._ember._knobs()}
    with open(os.path.join(ROOT, "docs", "knobs.md")) as f:
        doc = set(re.findall(r"`(EMBER_\w+)`", f.read()))
    assert doc == names, (doc - names, names - doc)
    readers = []
    for top in ("src", os.path.join("python", "ember", "_ext")):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for fn in files:
                if fn.endswith((".c", ".h")):
                    with open(os.path.join(d, fn)) as f:
                        if re.search(r'getenv\("EMBER_', f.read()):
                            readers.append(fn)
    assert not readers, readers


def test_info_lists_set_knobs():
    env = dict(os.environ, EMBER_SORT_WINDOW="8",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.pop("EMBER_LOG", None)
    r = subprocess.run([sys.executable, "-m", "ember", "info"], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "EMBER_SORT_WINDOW=8" in r.stdout
    row = [n for n, _, v in ember._ember._knobs() if n == "EMBER_SORT_WINDOW"]
    assert row == ["EMBER_SORT_WINDOW"]


def test_vendor_libraries(tmp_path):
    """Each CUDA library is found (and ember info says where) or its row
    says why, naming the pip package; $EMBER_CUDA_LIBS is searched first."""
    rows = ember._ember._vendor_libs()
    assert [r[0] for r in rows] == ["cuBLAS", "cuBLASLt", "cuFFT", "cuSOLVER",
                                   "cuSPARSE", "cuRAND", "OpenBLAS", "NVML", "NCCL",
                                   "NVTX", "CUPTI"]
    for name, path, why in rows:
        assert (path is None) != (why is None)
        if path:
            assert os.path.exists(path), path
        else:
            assert name in why and ("pip install scipy-openblas64" in why
                                    if name == "OpenBLAS" else
                                    "NVIDIA driver" in why if name == "NVML" else
                                    "pip install nvidia-" in why)
    info = ember.info()
    assert "CUDA libraries" in info and "cuFFT" in info and "OpenBLAS" in info
    cufft = rows[2][1]
    if cufft is None:
        return
    os.symlink(cufft, tmp_path / os.path.basename(cufft))
    env = dict(os.environ, EMBER_CUDA_LIBS=f"/nonexistent:{tmp_path}",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", "import ember; "
                        "print(ember._ember._vendor_libs()[2][1])"], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(tmp_path / os.path.basename(cufft))
