import pytest

import ember

from helpers import to_numpy

import numpy as np


def test_stream_basics(dev):
    s = ember.Stream(device=dev)
    assert s.device == dev
    assert s.ptr != 0 or dev.type == "cpu"
    s.synchronize()
    assert s.query() is True and s.done is True
    assert "ember.Stream" in repr(s)
    nb = ember.Stream(non_blocking=True, device=dev)
    nb.synchronize()
    assert nb != s and s == s


def test_stream_priority(dev):
    with dev:
        least, greatest = ember.cuda.runtime.deviceGetStreamPriorityRange()
    if dev.type == "cpu":
        assert (least, greatest) == (0, 0)   # one priority, as documented
    else:
        assert least == 0 and greatest <= 0
    assert ember.Stream(device=dev).priority == 0
    assert ember.Stream.null.priority == 0
    hi = ember.Stream(device=dev, priority=greatest)
    assert hi.priority == greatest
    # out of range clamps, as CUDA does
    assert ember.Stream(device=dev, priority=-10**12).priority == greatest
    assert ember.Stream(device=dev, priority=7).priority == least
    x = ember.arange(1000, dtype=ember.float64, device=dev)
    with hi:
        y = (x * 2).sum()
    hi.synchronize()
    assert float(y) == 999 * 1000
    with pytest.raises(TypeError):
        ember.Stream(device=dev, priority="high")


def test_default_stream(device):
    with ember.Device(device) as d:
        cur = ember.get_current_stream()
        assert cur.ptr == 0 and cur.device == d
        assert ember.Stream.null.ptr == 0
        assert ember.Stream.null == cur
        assert ember.Stream.null.device == d
        ember.Stream.null.synchronize()


def test_with_stream(device):
    with ember.Device(device):
        s1 = ember.Stream()
        s2 = ember.Stream()
        with s1:
            assert ember.get_current_stream() is s1
            with s2:
                assert ember.get_current_stream() is s2
            assert ember.get_current_stream() is s1
        assert ember.get_current_stream().ptr == 0


def test_entering_the_streams_own_device_keeps_the_stream(device):
    # CuPy keeps a current stream per device: library code that enters an
    # array's device inside `with stream:` must not leave the stream
    with ember.Device(device) as d:
        s = ember.Stream(non_blocking=True)
        with s:
            with ember.Device(device):
                assert ember.get_current_stream() is s
                x = ember.arange(10, dtype=ember.float32) * 2
            assert ember.get_current_stream() is s
            other = "cpu" if d.id != -1 and str(device) != "cpu" else None
            if other:
                with ember.Device(other):
                    assert ember.get_current_stream() is not s
            assert ember.get_current_stream() is s
        s.synchronize()
        assert float(x.sum()) == 90.0


def test_with_stream_switches_device(device):
    s = ember.Stream(device=device)
    before = ember.get_current_device()
    with ember.Device("cpu"):
        with s:
            assert ember.get_current_device() == ember.Device(device)
        assert ember.get_current_device() == ember.Device("cpu")
    assert ember.get_current_device() == before


def test_stream_use(device):
    with ember.Device(device):
        s = ember.Stream()
        assert s.use() is s
        assert ember.get_current_stream() is s
        ember.Stream.null.use()
        assert ember.get_current_stream().ptr == 0


def test_events_and_elapsed_time(dev):
    with dev:
        buf = ember.alloc(1 << 20)
        start = ember.Event()
        end = ember.Event()
        start.record()
        buf.memset(3)
        end.record()
        end.synchronize()
        assert start.query() and end.done
        t = ember.get_elapsed_time(start, end)
        assert isinstance(t, float) and t >= 0.0
        assert to_numpy(buf, np.uint8)[::4096].tolist() == [3] * 256


def test_event_on_stream_and_wait(dev):
    s1 = ember.Stream(device=dev)
    s2 = ember.Stream(device=dev)
    buf = ember.alloc(4096, device=dev, stream=s1)
    buf.memset(7, stream=s1)
    ev = s1.record()
    assert isinstance(ev, ember.Event) and ev.device == dev
    s2.wait_event(ev)
    s2.synchronize()
    assert ev.done
    ev2 = ember.Event(device=dev)
    assert s1.record(ev2) is ev2
    ev2.record(stream=s2)
    ev2.synchronize()
    assert to_numpy(buf, np.uint8).tolist() == [7] * 4096


def test_event_flags(dev):
    e = ember.Event(block=True, disable_timing=True, device=dev)
    assert e.query()          # never recorded
    e.record()
    e.synchronize()
    assert e.done


def test_stream_type_errors(dev):
    s = ember.Stream(device=dev)
    with pytest.raises(TypeError):
        s.wait_event(s)
    with pytest.raises(TypeError):
        s.record("event")
    with pytest.raises(TypeError):
        ember.Event(device=dev).record(stream=3)
    with pytest.raises(TypeError):
        ember.get_elapsed_time(1, 2)
    with pytest.raises(ValueError):
        ember.Stream(device="tpu")


def test_stream_of_other_device_rejected(need_cuda):
    s = ember.Stream(device="cuda:0")
    with pytest.raises(ValueError):
        ember.Event(device="cpu").record(s)


def test_adopted_numpy_memory_outlives_queued_reads(device):
    """On cpu, ember.asarray(numpy) adopts NumPy's memory without a copy and
    a created stream runs its queue on its own thread: dropping the last
    reference while a kernel that reads it is still queued must not hand
    the memory back to NumPy first (it used to: the product read freed,
    reused pages, and nvmath's streams example crashed)."""
    with ember.Device(device):
        s = ember.cuda.Stream()
        big = ember.ones(2**23)
        with s:
            for _ in range(6):
                big = big * 1.0001          # queued work ahead of the read
            h = np.random.default_rng(0).random(2**22)
            want = 2 * h.sum()
            x = ember.asarray(h)            # on cpu NumPy's memory itself
            y = x * 2                       # queued behind
            del x, h                        # NumPy's buffer goes back
            junk = np.full(2**22, 7.0)      # most likely its pages again
        s.synchronize()
        assert junk[0] == 7.0
        assert abs(float(y.sum()) - want) <= 1e-9 * want
