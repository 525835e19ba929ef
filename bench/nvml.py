"""One NVML query from Python: ember.nvml against nvidia-ml-py (pynvml) in
the same process, per call (memory info, utilisation, temperature, power),
and the cost of `import ember` and `import pynvml; nvmlInit()` in a new
process. Issue 24's target: no slower than nvidia-ml-py, and `import
ember` as fast as before (NVML is opened on first use).

usage: python bench/nvml.py   (on the GPU machine; without NVML it says so)"""
import subprocess
import sys
import timeit


def per_call_us(f, *args, n=20000):
    f(*args)
    best = min(timeit.repeat(lambda: f(*args), number=n, repeat=5))
    return best / n * 1e6


def new_process_s(code, runs=5):
    best = None
    for _ in range(runs):
        t = subprocess.run([sys.executable, "-c", "import time; t = time.perf_counter(); "
                            + code + "; print(time.perf_counter() - t)"],
                           capture_output=True, text=True, check=True)
        v = float(t.stdout.split()[-1])
        best = v if best is None else min(best, v)
    return best


def main():
    from ember import nvml
    try:
        nvml.nvmlInit()
    except nvml.NVMLError as e:
        print("no NVML here (%s): nothing to measure" % e)
        print("import ember: %.3f s" % new_process_s("import ember"))
        return
    try:
        import pynvml
        pynvml.nvmlInit()
    except Exception as e:   # not installed, or it cannot open NVML
        print("nvidia-ml-py unavailable (%s): ember only" % e)
        pynvml = None
    h = nvml.nvmlDeviceGetHandleByIndex(0)
    ph = pynvml.nvmlDeviceGetHandleByIndex(0) if pynvml else None
    rows = [("memory info", "nvmlDeviceGetMemoryInfo", ()),
            ("utilisation", "nvmlDeviceGetUtilizationRates", ()),
            ("temperature", "nvmlDeviceGetTemperature", (0,)),
            ("power", "nvmlDeviceGetPowerUsage", ())]
    print("%-12s %12s %12s %7s" % ("query", "ember us", "pynvml us", "ratio"))
    for label, name, extra in rows:
        e = per_call_us(getattr(nvml, name), h, *extra)
        p = per_call_us(getattr(pynvml, name), ph, *extra) if pynvml else float("nan")
        print("%-12s %12.2f %12.2f %7.2f" % (label, e, p, e / p))
    print("import ember (new process): %.3f s" % new_process_s("import ember"))
    print("import ember; nvml.nvmlInit(): %.3f s" % new_process_s(
        "import ember.nvml as n; n.nvmlInit()"))
    if pynvml:
        print("import pynvml; nvmlInit(): %.3f s" % new_process_s(
            "import pynvml; pynvml.nvmlInit()"))


if __name__ == "__main__":
    main()
