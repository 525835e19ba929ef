"""Numba-CUDA's data movement spellings in ember.cuda: to_device,
device_array(_like), pinned_array, copy_to_host/copy_to_device, streams
and events, on every device (they target the current device)."""
import numpy as np
import pytest

import ember
from ember import cuda
from helpers import assert_array_equal_np


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int8, np.uint64,
                                np.bool_, np.complex64])
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (3, 5), (2, 3, 4)])
def test_round_trip(device, dt, shape):
    with ember.Device(device):
        h = (np.arange(int(np.prod(shape))) % 5).astype(dt).reshape(shape)
        d = cuda.to_device(h)
        assert isinstance(d, ember.ndarray)
        assert d.device == ember.Device(device)
        assert_array_equal_np(d, h, device)
        back = d.copy_to_host()
        assert isinstance(back, np.ndarray)
        np.testing.assert_array_equal(back, h)
        out = np.zeros_like(h)
        assert d.copy_to_host(out) is out
        np.testing.assert_array_equal(out, h)


def test_non_contiguous_host_arrays(device):
    with ember.Device(device):
        h = np.arange(60, dtype=np.float64).reshape(6, 10)
        d = cuda.to_device(h[::2, 1::3])
        assert_array_equal_np(d, h[::2, 1::3], device)
        out = np.zeros((6, 10))
        d.copy_to_host(out[1::2, 2::3])
        exp = np.zeros((6, 10))
        exp[1::2, 2::3] = h[::2, 1::3]
        np.testing.assert_array_equal(out, exp)
        # NaN and -0.0 survive the trip bit for bit
        s = np.array([np.nan, -0.0, np.inf, -np.inf])
        assert_array_equal_np(cuda.to_device(s), s, device)


def test_to_device_to_and_stream(device):
    with ember.Device(device):
        s = cuda.stream()
        dst = cuda.device_array(4, dtype=np.int32)
        r = cuda.to_device(np.arange(4, dtype=np.int32), stream=s, to=dst)
        assert r is dst
        s.synchronize()
        assert_array_equal_np(dst, np.arange(4, dtype=np.int32), device)
        # a device array is returned as it is, as Numba does
        assert cuda.to_device(dst) is dst
        h = np.zeros(4, np.int32)
        dst.copy_to_host(h, stream=s)
        s.synchronize()
        np.testing.assert_array_equal(h, np.arange(4))
        dst.copy_to_device(np.full(4, 9, np.int32), stream=0)
        assert_array_equal_np(dst, np.full(4, 9, np.int32), device)


def test_device_array_and_like(device):
    with ember.Device(device):
        d = cuda.device_array((3, 4))
        assert d.shape == (3, 4) and d.dtype == ember.float64
        assert d.device == ember.Device(device)
        f = cuda.device_array((3, 4), dtype=np.float32, order="F")
        assert f.flags.f_contiguous and not f.flags.c_contiguous
        c = cuda.device_array((3, 4), np.int16, strides=(8, 2))
        assert c.flags.c_contiguous and c.dtype == ember.int16
        like = cuda.device_array_like(np.zeros((5, 2), np.uint8, order="F"))
        assert like.shape == (5, 2) and like.dtype == ember.uint8
        assert like.flags.f_contiguous
        like2 = cuda.device_array_like(d)
        assert like2.shape == (3, 4) and like2.dtype == ember.float64
        assert cuda.device_array(0).shape == (0,)
        with pytest.raises(NotImplementedError, match="contiguous"):
            cuda.device_array((3, 4), np.float32, strides=(4, 16))
        with pytest.raises(ValueError, match="order"):
            cuda.device_array(3, order="K")


def test_pinned_array(device):
    p = cuda.pinned_array((4, 3), dtype=np.float32)
    assert isinstance(p, np.ndarray) and p.shape == (4, 3)
    assert p.dtype == np.float32 and p.flags.c_contiguous
    p[...] = np.arange(12, dtype=np.float32).reshape(4, 3)
    with ember.Device(device):
        d = cuda.to_device(p)
        assert_array_equal_np(d, p, device)
        q = cuda.pinned_array(12, dtype=np.float32)
        d.reshape(12).copy_to_host(q)
        np.testing.assert_array_equal(q, p.reshape(12))
    assert cuda.pinned_array((2, 2), np.int64, order="F").flags.f_contiguous
    assert cuda.pinned_array(0).shape == (0,)
    mp = cuda.mapped_array((3, 2), dtype=np.int32, order="F")
    assert isinstance(mp, np.ndarray) and mp.shape == (3, 2)
    assert mp.dtype == np.int32 and mp.flags.f_contiguous


def test_copy_to_host_errors(device):
    with ember.Device(device):
        d = cuda.to_device(np.arange(6.0))
        with pytest.raises(TypeError, match="float32"):
            d.copy_to_host(np.zeros(6, np.float32))
        with pytest.raises(ValueError, match="shapes differ"):
            d.copy_to_host(np.zeros(5))
        ro = np.zeros(6)
        ro.setflags(write=False)
        with pytest.raises((TypeError, ValueError, BufferError)):
            d.copy_to_host(ro)
        with pytest.raises(TypeError):
            d.copy_to_host(stream="nope")
        with pytest.raises(TypeError, match="to_device"):
            cuda.to_device(np.arange(3.0), to=np.zeros(3))


def test_events_and_streams(device):
    with ember.Device(device):
        s = cuda.stream()
        assert isinstance(s, ember.cuda.Stream)
        assert isinstance(cuda.default_stream(), ember.cuda.Stream)
        start, end = cuda.event(), cuda.event(timing=True)
        start.record(s)
        d = cuda.to_device(np.arange(1 << 16, dtype=np.float32), stream=s)
        end.record(stream=s)
        end.synchronize()
        ms = cuda.event_elapsed_time(start, end)
        assert isinstance(ms, float) and ms >= 0
        assert start.elapsed_time(end) >= 0
        end.wait(s)
        end.wait(0)
        start.record(0)
        start.record()
        cuda.synchronize()
        assert_array_equal_np(d, np.arange(1 << 16, dtype=np.float32), device)
        untimed = cuda.event(timing=False)
        untimed.record()
        with pytest.raises(Exception):
            cuda.event_elapsed_time(untimed, end)
        with pytest.raises(TypeError):
            cuda.event_elapsed_time(start, 3)


def test_current_device_and_context(device):
    with ember.Device(device):
        assert cuda.get_current_device() == ember.Device(device)
        ctx = cuda.current_context()
        free, total = ctx.mem_info()
        assert total >= free >= 0
        ctx.synchronize()
