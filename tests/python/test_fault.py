"""A sticky device fault (an illegal address) must leave the process able to
report it, and say that the device must be reset; never a crash. Runs in a
child process because the fault kills that process's CUDA context."""
import subprocess
import sys
import textwrap

CHILD = textwrap.dedent(r'''
    import ember
    src = r"""
    extern "C" __global__ void poke(int *p, long long off) { p[off] = 1; }
    """
    dev = ember.Device("cuda:0")
    dev.use()
    buf = ember.alloc(64)
    k = ember.RawKernel(src, "poke")
    k((1,), (1,), (buf, 0))          # a valid launch first
    dev.synchronize()
    k((1,), (1,), (buf, 1 << 40))    # 4 TiB past the buffer: illegal address
    try:
        dev.synchronize()
    except ember.CUDAError as e:
        first = str(e)
    else:
        raise SystemExit("no error after an illegal address")
    assert "reset" in first and "restart" in first, first
    # Later calls report the fault again instead of crashing.
    # mem_info is a property (CuPy's spelling): reading it is the call.
    for call in (dev.synchronize, lambda: k((1,), (1,), (buf, 0)),
                 lambda: dev.mem_info):
        try:
            call()
        except ember.CUDAError as e:
            assert "reset" in str(e), str(e)
        else:
            raise SystemExit("a call after the fault succeeded")
    print("FAULT-REPORTED")
''')


def test_sticky_fault_is_reported(need_cuda):
    r = subprocess.run([sys.executable, "-c", CHILD], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "FAULT-REPORTED" in r.stdout
