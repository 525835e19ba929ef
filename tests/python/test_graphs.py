"""Graph capture and replay (docs/graphs.md): CuPy's Stream.begin_capture /
end_capture / Graph.launch and PyTorch's CUDAGraph / ember.cuda.graph, on
cpu (the recorded launches and copies replayed without re-dispatch) and on
cuda (a CUDA graph). Inputs change between replays by writing new values
into the captured buffers; results are compared with NumPy."""
import gc

import numpy as np
import pytest

import ember
from ember import cuda


def _settle():
    # the tests set up and rewrite inputs on the current (default) stream
    # and replay on a non-blocking one, which does not wait for the
    # default stream (as CUDA's): finish that work first, as a program
    # must (the cpu device happens to run it at once)
    ember.get_current_device().synchronize()


def _put(dst, values):
    """Write host values into a captured device buffer, outside a capture."""
    dst[...] = ember.asarray(np.asarray(values, dtype=dst.dtype))
    _settle()


def _capture(s, work):
    _settle()
    with s:
        s.begin_capture()
        out = work()
        g = s.end_capture()
    return g, out


@pytest.fixture
def dev(device):
    with ember.Device(device):
        yield device


@pytest.fixture
def stream(dev):
    return ember.Stream(non_blocking=True)


def _used():
    ember.get_current_device().synchronize()
    return ember.get_default_memory_pool().used_bytes()


def test_elementwise_chain_replays_new_values(stream):
    rng = np.random.default_rng(0)
    a0 = rng.standard_normal(1000).astype(np.float32)
    a = ember.asarray(a0)
    b = ember.asarray(a0 * 3)
    work = lambda: ember.sqrt(ember.abs(a * b + 1.5)) - a / 2  # noqa: E731
    # the warm-up compiles the kernels; its result is kept, because a fused
    # expression whose value nobody holds never runs (docs/graphs.md)
    held = work()
    g, out = _capture(stream, work)
    del held
    assert not stream.is_capturing()
    for k in range(3):
        a1 = rng.standard_normal(1000).astype(np.float32)
        b1 = (a1 * k - 1).astype(np.float32)
        _put(a, a1)
        _put(b, b1)
        g.launch(stream)
        stream.synchronize()
        want = np.sqrt(np.abs(a1 * b1 + np.float32(1.5))) - a1 / np.float32(2)
        np.testing.assert_allclose(out.get(), want, rtol=1e-6, atol=1e-6)


def test_captured_work_does_not_run_until_launched(stream):
    x = ember.asarray(np.arange(10, dtype=np.float64))
    out = ember.zeros(10, dtype=np.float64)
    ember.add(x, 1, out=out)
    out[...] = 0
    g, _ = _capture(stream, lambda: ember.add(x, 1, out=out))
    stream.synchronize()
    np.testing.assert_array_equal(out.get(), np.zeros(10))
    g.launch(stream)
    stream.synchronize()
    np.testing.assert_array_equal(out.get(), np.arange(10) + 1.0)


def test_reductions(stream):
    m0 = np.arange(24, dtype=np.float32).reshape(4, 6)
    m = ember.asarray(m0)
    work = lambda: (m.sum(), (m * m).max(axis=1), m.mean(axis=0))  # noqa: E731
    work()
    g, (tot, mx, mean) = _capture(stream, work)
    for k in (1.0, -2.0, 0.5):
        v = (m0 * k + 1).astype(np.float32)
        _put(m, v)
        g.launch(stream)
        stream.synchronize()
        np.testing.assert_allclose(float(tot), v.sum(), rtol=1e-6)
        np.testing.assert_allclose(mx.get(), (v * v).max(axis=1), rtol=1e-6)
        np.testing.assert_allclose(mean.get(), v.mean(axis=0), rtol=1e-6)


# small: the generated kernel; large: OpenBLAS on cpu (recorded as a host
# call in stream order), cuBLAS on cuda
@pytest.mark.parametrize("m,k,n,dt", [(8, 5, 3, np.float32), (64, 48, 40, np.float32),
                                      (3, 32, 30, np.float64)])
def test_matmul(stream, m, k, n, dt):
    rng = np.random.default_rng(1)
    a0 = rng.standard_normal((m, k)).astype(dt)
    b0 = rng.standard_normal((k, n)).astype(dt)
    a, b = ember.asarray(a0), ember.asarray(b0)
    a @ b
    g, c = _capture(stream, lambda: a @ b)
    for _ in range(2):
        a1 = rng.standard_normal((m, k)).astype(dt)
        _put(a, a1)
        g.launch(stream)
        stream.synchronize()
        np.testing.assert_allclose(c.get(), a1 @ b0, rtol=1e-5, atol=1e-5)


def test_sort_and_cumsum(stream):
    x = ember.asarray(np.array([3, 1, 2, 5, 4], dtype=np.int64))
    work = lambda: (ember.sort(x), ember.cumsum(x))  # noqa: E731
    work()
    g, (srt, cs) = _capture(stream, work)
    v = np.array([9, -1, 7, 0, 2], dtype=np.int64)
    _put(x, v)
    g.launch(stream)
    stream.synchronize()
    np.testing.assert_array_equal(srt.get(), np.sort(v))
    np.testing.assert_array_equal(cs.get(), np.cumsum(v))


# boundscheck=False: a checked kernel (cpu's default) reads its error record
# after each launch, a host read that a capture refuses (docs/graphs.md)
@cuda.jit(boundscheck=False)
def _saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


def test_jit_kernel(stream):
    x = ember.asarray(np.arange(100, dtype=np.float32))
    y = ember.ones(100, dtype=np.float32)
    out = ember.empty(100, dtype=np.float32)
    _saxpy[4, 32](np.float32(2), x, y, out)
    g, _ = _capture(stream, lambda: _saxpy[4, 32, stream](np.float32(2), x, y, out))
    for k in range(1, 4):
        xv = np.linspace(-k, k, 100).astype(np.float32)
        _put(x, xv)
        g.launch(stream)
        stream.synchronize()
        np.testing.assert_allclose(out.get(), 2 * xv + 1, rtol=1e-6)


_ADD = r'''
extern "C" __global__ void add1(const float *x, float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] + 1.0f;
}
'''


def test_raw_and_elementwise_kernels(stream):
    k = ember.RawKernel(_ADD, "add1")
    ek = ember.ElementwiseKernel("T x", "T y", "y = x * x", "graph_sq")
    x = ember.asarray(np.arange(64, dtype=np.float32))
    y = ember.empty(64, dtype=np.float32)
    z = ember.empty(64, dtype=np.float32)
    k((1,), (64,), (x, y, np.int32(64)))
    ek(y, z)

    def work():
        k((1,), (64,), (x, y, np.int32(64)))
        ek(y, z)
    g, _ = _capture(stream, work)
    v = np.linspace(0, 3, 64).astype(np.float32)
    _put(x, v)
    g.launch(stream)
    stream.synchronize()
    np.testing.assert_allclose(z.get(), (v + 1) ** 2, rtol=1e-6)


def test_many_replays_in_place(stream):
    x = ember.zeros(1000, dtype=np.float32)
    x += 1
    x[...] = 0

    def work():
        for _ in range(20):
            x.__iadd__(1)
    g, _ = _capture(stream, work)
    for _ in range(5):
        g.launch(stream)
    stream.synchronize()
    np.testing.assert_array_equal(x.get(), np.full(1000, 100, np.float32))


def test_upload_and_launch_on_other_streams(stream):
    x = ember.asarray(np.arange(5, dtype=np.float64))
    out = ember.empty(5, dtype=np.float64)
    ember.multiply(x, 3, out=out)
    g, _ = _capture(stream, lambda: ember.multiply(x, 3, out=out))
    other = ember.Stream()
    g.upload(other)
    g.upload()
    g.launch(other)
    other.synchronize()
    np.testing.assert_array_equal(out.get(), np.arange(5) * 3.0)
    _put(x, [1, 1, 1, 1, 1])
    g.launch()            # the current (default) stream
    ember.get_current_device().synchronize()
    np.testing.assert_array_equal(out.get(), np.full(5, 3.0))
    with pytest.raises(TypeError, match="stream"):
        g.launch(3)


def test_torch_spelling(dev):
    x = ember.asarray(np.arange(6, dtype=np.float32))
    y = x * 2 + 1
    g = cuda.CUDAGraph()
    with cuda.graph(g):
        assert ember.get_current_stream().is_capturing()
        y = x * 2 + 1
    assert not ember.get_current_stream().is_capturing()
    _put(x, np.full(6, 10, np.float32))
    g.replay()
    ember.get_current_device().synchronize()
    np.testing.assert_array_equal(y.get(), np.full(6, 21, np.float32))
    with pytest.raises(RuntimeError, match="holds a captured graph"):
        with cuda.graph(g):
            pass
    g.reset()
    with pytest.raises(RuntimeError, match="no captured graph"):
        g.replay()
    with pytest.raises(NotImplementedError, match="pool"):
        cuda.graph(g, pool=object())
    with pytest.raises(ValueError, match="capture_error_mode"):
        cuda.graph(g, capture_error_mode="loose")
    with pytest.raises(TypeError, match="CUDAGraph"):
        cuda.graph(object())
    assert cuda.graph.Graph is ember.Graph


def test_torch_spelling_failed_block_ends_capture(dev):
    x = ember.ones(4, dtype=np.float32)
    x + 1
    g = cuda.CUDAGraph()
    with pytest.raises(KeyError):
        with cuda.graph(g):
            x + 1
            raise KeyError("boom")
    s = g._side
    assert not s.is_capturing()
    with cuda.graph(g):     # the graph object is free to capture again
        x + 1
    g.replay()


# ---- what cannot be captured -------------------------------------------

def _usable(s):
    """The stream is out of capture and runs work again."""
    assert not s.is_capturing()
    # x is copied in on s itself: s is non-blocking, so the default
    # stream's copy would not be ordered before s's kernel (a GPU run read
    # the block's previous contents, [10, 3, 5, 7], and saw x + 1 wrong)
    with s:
        x = ember.asarray(np.arange(4, dtype=np.float32))
        y = x + 1
    s.synchronize()
    np.testing.assert_array_equal(y.get(), np.arange(4) + 1.0)


def _refused(s, op, match):
    x = ember.asarray(np.arange(4, dtype=np.float32))
    (x + 1).sum()
    with s:
        s.begin_capture()
        with pytest.raises(ember.StreamCaptureError, match=match) as ei:
            op(x)
    assert isinstance(ei.value, RuntimeError)
    assert "stream 0x" in str(ei.value) and "capture was ended" in str(ei.value)
    _usable(s)


def test_refuse_stream_synchronize(stream):
    _refused(stream, lambda x: stream.synchronize(), "a synchronize of stream")


def test_refuse_device_synchronize(stream):
    _refused(stream, lambda x: ember.get_current_device().synchronize(),
             "a synchronize of (cpu|cuda)")


@pytest.mark.parametrize("read", [
    lambda x: x.get(),
    lambda x: float(x.sum()),
    lambda x: np.asarray(x + 1),
], ids=["get", "float", "array"])
def test_refuse_host_reads(stream, read):
    _refused(stream, read, "cannot be captured")


def test_refuse_pageable_upload(stream):
    host = np.arange(4, dtype=np.float32)
    _refused(stream, lambda x: x.set(host) if hasattr(x, "set")
             else ember.asarray(host), "from pageable host memory")


def test_refuse_kernel_compile(stream):
    # a body no other test compiles: its first call compiles (or loads from
    # the disk cache), both refused
    ek = ember.ElementwiseKernel("T x", "T y", "y = x * (T)3 + (T)17", "graph_probe")
    _refused(stream, lambda x: ek(x), "compiling a kernel|loading a kernel module")


def test_refuse_event_record(stream):
    _refused(stream, lambda x: stream.record(), "an event record on stream")


def test_nested_and_second_capture(stream):
    other = ember.Stream(non_blocking=True)
    with stream:
        stream.begin_capture()
        with pytest.raises(ember.StreamCaptureError, match="capturing already"):
            stream.begin_capture()
        with pytest.raises(ember.StreamCaptureError, match="one capture a device"):
            other.begin_capture()
        assert stream.is_capturing() and not other.is_capturing()
        stream.end_capture()
    with pytest.raises(ember.StreamCaptureError, match="not capturing"):
        stream.end_capture()
    with pytest.raises(ValueError, match="cudaStreamCaptureMode"):
        stream.begin_capture(mode=7)
    with pytest.raises(TypeError):
        stream.begin_capture(1, 2)
    assert not stream.is_capturing()
    stream.begin_capture(mode=cuda.runtime.streamCaptureModeRelaxed)
    stream.end_capture().release()
    with pytest.raises(ValueError, match="default stream .* cannot capture"):
        ember.Stream.null.begin_capture()
    assert not ember.Stream.null.is_capturing()


def test_launch_inside_capture_refused(stream):
    x = ember.ones(4, dtype=np.float32)
    x + 1
    g, _ = _capture(stream, lambda: x + 1)
    _refused(stream, lambda x: g.launch(stream), "launching a graph inside a capture")


# ---- memory -----------------------------------------------------------------

def test_captured_temporaries_survive_new_work(stream):
    n = 4096
    x = ember.asarray(np.arange(n, dtype=np.float32))
    out = ember.empty(n, dtype=np.float32)
    ember.add((x * 2) * 3, 1, out=out)

    def work():
        t = x * 2          # a temporary: allocated and freed in the capture
        u = t * 3
        del t
        ember.add(u, 1, out=out)
    g, _ = _capture(stream, work)
    gc.collect()
    # new work of the same sizes, on the capture stream and the default one:
    # none of it may get a block the graph writes
    with stream:
        keep = [ember.full(n, 7.0, dtype=np.float32) for _ in range(4)]
    keep += [ember.full(n, 5.0, dtype=np.float32) for _ in range(4)]
    for k in (1.0, 4.0):
        v = np.arange(n, dtype=np.float32) * k
        _put(x, v)
        g.launch(stream)
        stream.synchronize()
        np.testing.assert_array_equal(out.get(), v * 2 * 3 + 1)
    for i, a in enumerate(keep):
        np.testing.assert_array_equal(a.get(), np.full(n, 7.0 if i < 4 else 5.0, np.float32))


def test_release_frees_the_graphs_blocks(stream):
    n = 1 << 16
    x = ember.ones(n, dtype=np.float32)

    def work():
        # y's block of n floats (and eager's x*2) are freed by the caller
        # after the capture; fused, x*2 never takes a block
        return x * 2 + 1
    w = work()            # the warm-up: the same code compiles its kernels
    _settle()             # (kept: a dropped fused value never runs)
    del w
    gc.collect()
    before = _used()
    g, y = _capture(stream, work)
    del y
    gc.collect()
    held = _used() - before
    assert held >= 4 * n          # y belongs to the graph
    g.launch(stream)
    stream.synchronize()
    g.release()
    assert _used() == before
    with pytest.raises(ValueError, match="released"):
        g.launch(stream)


def test_graph_dealloc_releases(stream):
    x = ember.ones(1 << 14, dtype=np.float32)
    w = x * 2             # the warm-up, kept (a dropped fused value never runs)
    _settle()
    del w
    gc.collect()          # and earlier tests' garbage gone before counting
    before = _used()
    g, y = _capture(stream, lambda: x * 2)
    del y                 # the result's block is the graph's now
    gc.collect()
    assert _used() > before
    g.launch(stream)
    del g
    gc.collect()
    stream.synchronize()
    assert _used() == before


def test_output_allocated_in_capture_stays_valid(stream):
    x = ember.asarray(np.arange(8, dtype=np.float64))
    w = x + 1                  # warm-up, kept (a dropped fused value never runs)
    g, y = _capture(stream, lambda: x + 1)
    del w
    ptr = y.data.ptr
    del y
    gc.collect()
    z = ember.empty(8, dtype=np.float64)   # would reuse y's block if it went back
    assert z.data.ptr != ptr
    g.launch(stream)
    stream.synchronize()


def test_stream_dropped_while_capturing(dev):
    x = ember.ones(8, dtype=np.float32)
    x + 1
    s = ember.Stream(non_blocking=True)
    with s:
        s.begin_capture()
        x + 1
    del s
    gc.collect()
    other = ember.Stream(non_blocking=True)   # the device may capture again
    g, y = _capture(other, lambda: x + 1)
    g.launch(other)
    other.synchronize()
    np.testing.assert_array_equal(y.get(), np.full(8, 2, np.float32))


def test_replay_needs_no_python_objects(stream):
    # the graph holds the launches themselves: the kernel objects, and the
    # module they were loaded from, may go
    k = ember.RawKernel(_ADD, "add1")
    x = ember.asarray(np.arange(32, dtype=np.float32))
    y = ember.empty(32, dtype=np.float32)
    k((1,), (32,), (x, y, np.int32(32)))
    with stream:
        stream.begin_capture()
        k((1,), (32,), (x, y, np.int32(32)))
        g = stream.end_capture()
    del k
    gc.collect()
    _put(x, np.full(32, 41, np.float32))
    g.launch(stream)
    stream.synchronize()
    np.testing.assert_array_equal(y.get(), np.full(32, 42, np.float32))


def test_capture_hooks_run_before_begin_and_end(stream):
    from ember import _capture_hooks
    seen = []

    def hook(s):
        seen.append((s, s.is_capturing()))
    _capture_hooks.hooks.append(hook)
    try:
        stream.begin_capture()
        stream.end_capture().release()
    finally:
        _capture_hooks.hooks.remove(hook)
    assert seen == [(stream, False), (stream, True)]
