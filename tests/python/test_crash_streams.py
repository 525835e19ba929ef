"""Arrays that outlive the stream they were allocated on (issue 28, 1).

Each case once freed its memory on a destroyed stream ("em_free: the
stream belongs to <garbage>", then a segfault). They run in a child
process, so a crash fails the test instead of ending pytest, and the
results are compared with NumPy so a wrong answer fails too."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ember
from helpers import assert_array_equal_np

PRELUDE = textwrap.dedent("""
    import gc, sys
    import numpy as np
    import ember
    dev = sys.argv[1]
    ember.Device(dev).use()
    x = ember.asarray(np.arange(1000, dtype=np.float32))
    K = ember.ElementwiseKernel("T x", "T y", "y = x * 2", "crash_twice")
    R = ember.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0",
                              "crash_sum")
""")

CASES = {
    "device_array": """
        a = ember.cuda.device_array(5, stream=ember.Stream())
        a[...] = 3
        assert (a.copy_to_host() == 3).all()
        del a
    """,
    "reduction": """
        r = R(x, stream=ember.Stream())
        assert float(r) == float(np.arange(1000, dtype=np.float32).sum())
        del r
    """,
    "elementwise": """
        r = K(x, stream=ember.Stream())
        assert (ember.asnumpy(r) == np.arange(1000, dtype=np.float32) * 2).all()
    """,
    "del_stream_then_result": """
        s = ember.Stream()
        r = K(x, stream=s)
        del s
        gc.collect()
        assert (ember.asnumpy(r) == np.arange(1000, dtype=np.float32) * 2).all()
        del r
    """,
    "views_outlive": """
        s = ember.Stream()
        with s:
            a = ember.arange(100, dtype=ember.int64)
        v = a[::3]
        del a, s
        gc.collect()
        assert (ember.asnumpy(v) == np.arange(100)[::3]).all()
        b = v + 1
        del v
        assert (ember.asnumpy(b) == np.arange(100)[::3] + 1).all()
    """,
    "buffer_outlives": """
        buf = ember.alloc(64, stream=ember.Stream())
        buf.memset(1)
        out = buf.copy_to_host()
        assert bytes(out) == b"\\x01" * 64
        del buf
    """,
    "many": """
        keep = [K(x, stream=ember.Stream()) for _ in range(50)]
        gc.collect()
        want = np.arange(1000, dtype=np.float32) * 2
        assert all((ember.asnumpy(r) == want).all() for r in keep)
        del keep
    """,
}


def run_child(body, device):
    code = PRELUDE + textwrap.dedent(body) + "\nprint('CHILD-OK')\n"
    r = subprocess.run([sys.executable, "-c", code, device],
                       capture_output=True, text=True, timeout=300)
    return r


@pytest.mark.parametrize("case", sorted(CASES))
def test_memory_outlives_stream(device, case):
    r = run_child(CASES[case], device)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    assert "CHILD-OK" in r.stdout
    # The old failure warned before it crashed.
    assert "belongs to" not in r.stderr, r.stderr


def test_stream_destroyed_in_process(device):
    """The same in this process: a result whose stream object is gone."""
    x = ember.asarray(np.arange(257, dtype=np.float64), device=device)
    k = ember.ElementwiseKernel("T x", "T y", "y = x + 1", "crash_plus1")
    s = ember.Stream(device=device)
    r = k(x, stream=s)
    del s
    assert_array_equal_np(r, np.arange(257, dtype=np.float64) + 1, device)
