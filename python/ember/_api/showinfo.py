"""show_config and show_runtime in ember's terms: what NumPy reports of
its build (compilers, BLAS, SIMD) ember reports of its kernels' compilers
and the libraries it opens at run time, and ember.info()'s device report
for the runtime."""
import os
import platform
import sys

from ember import _ember

_MODES = ("stdout", "dicts")


def _config():
    driver, nvrtc = _ember._cuda_versions()
    return {
        "ember": {"version": _ember.__version__},
        "Backends": {"cpu": _ember.backend_status("cpu"),
                     "cuda": _ember.backend_status("cuda")},
        "Compilers": {
            # the kernels' compilers, run when a kernel is first needed
            "cpu kernels": os.environ.get("EMBER_CC") or "cc",
            "cuda kernels": "NVRTC %d" % nvrtc if nvrtc > 0 else "NVRTC not found",
            "CUDA driver": driver if driver > 0 else "not found"},
        "Libraries": {name: path if path is not None else why
                      for name, path, why in _ember._vendor_libs()},
        "Python Information": {"path": sys.executable,
                               "version": platform.python_version()},
    }


def show_config(mode="stdout"):
    """Print ember's configuration, or with mode='dicts' return it."""
    if mode not in _MODES:
        raise AttributeError(f"Invalid `mode`, use one of: {', '.join(_MODES)}")
    cfg = _config()
    if mode == "dicts":
        return cfg
    for section, items in cfg.items():
        print(section + ":")
        for k, v in items.items():
            print(f"  {k}: {v}")


def show_runtime():
    """Print the devices, library versions and kernel cache ember finds
    now (ember.info()'s report)."""
    from ember._api.sysinfo import info
    print(info(), end="")
