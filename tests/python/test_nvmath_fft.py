"""ember.nvmath.fft (nvmath-python's fft, ifft, rfft, irfft and FFT) against
numpy.fft: nvmath's transforms are unnormalised both ways, so an inverse
is NumPy's times the number of points. Also the options (layout, in-place,
parity), the execution spaces, the stateful object, callbacks as
ember.cuda.jit passes, and nvmath's errors."""

import numpy as np
import pytest

import ember
from ember import nvmath
from helpers import assert_close_scaled, random_values, run_python

F = nvmath.fft
RNG = np.random.default_rng(11)


def rand(shape, dtype="complex128"):
    return random_values(RNG, shape, dtype)


def check(got, want, device=None):
    if device is not None:
        assert isinstance(got, ember.ndarray) and got.device == ember.Device(device)
        got = ember.asnumpy(got)
    assert isinstance(got, np.ndarray)
    assert_close_scaled(got, want, 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12)


def npoints(shape, axes):
    return int(np.prod([shape[a] for a in axes]))


AXES = [None, (0, 1), (2,), (-1, 0), (1, 2, 0)]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("axes", AXES)
def test_c2c(device, dtype, axes):
    x = rand((4, 6, 5), dtype)
    ex = ember.asarray(x, device=device)
    ax = tuple(range(3)) if axes is None else axes
    check(F.fft(ex, axes=axes), np.fft.fftn(x, axes=ax).astype(dtype), device)
    check(F.ifft(ex, axes=axes), (np.fft.ifftn(x, axes=ax) * npoints(x.shape, ax)).astype(dtype), device)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("axes", [None, (0, 2), (1,), (2, 0)])
@pytest.mark.parametrize("parity", ["even", "odd"])
def test_r2c_c2r(device, dtype, axes, parity):
    shape = (4, 6, 7 if parity == "odd" else 8)
    t = rand(shape, dtype)
    et = ember.asarray(t, device=device)
    ax = tuple(range(3)) if axes is None else axes
    cdt = {"float32": "complex64", "float64": "complex128"}[dtype]
    r = F.rfft(et, axes=axes)
    check(r, np.fft.rfftn(t, axes=ax).astype(cdt), device)
    back = F.irfft(r, axes=axes, options={"last_axis_parity": parity})
    s = [shape[a] for a in ax]
    if shape[ax[-1]] % 2 == (parity == "odd"):
        check(back, (t * npoints(shape, ax)).astype(dtype), device)
    else:   # the other parity: NumPy's irfftn with that length, unnormalised
        s[-1] = 2 * (r.shape[ax[-1]] - 1) + (parity == "odd")
        want = np.fft.irfftn(ember.asnumpy(r), s=s, axes=ax, norm="forward").astype(dtype)
        check(back, want, device)


def test_strided_operands(device):
    x = rand((6, 8, 5))
    ex = ember.asarray(x, device=device)
    for view, nview in ((ex.T, x.T), (ex[::2, ::2, :], x[::2, ::2, :])):
        check(F.fft(view, axes=(0, 1)), np.fft.fftn(nview, axes=(0, 1)), device)


def test_numpy_in_numpy_out():
    x = rand((4, 8, 6))
    for execution in (None, "cpu", "cuda", F.ExecutionCPU(num_threads=2), {"name": "cpu"},
                      F.ExecutionCUDA(device_id=0)):
        r = F.fft(x, axes=(0, 1), execution=execution)
        assert type(r) is np.ndarray
        check(r, np.fft.fftn(x, axes=(0, 1)))


def test_result_layout_natural(device):
    x = rand((5, 6, 7)).transpose(2, 0, 1).copy().transpose(1, 2, 0)   # axis order (2, 0, 1)
    ex = ember.asarray(x, device=device)
    r = F.fft(ex, axes=(0, 1), options=F.FFTOptions(result_layout="natural"))
    assert r.strides == ex.strides
    check(r, np.fft.fftn(x, axes=(0, 1)), device)
    rn = F.fft(x, axes=(0, 1), options={"result_layout": "natural"})
    assert rn.strides == x.strides


def test_result_layout_optimized(device):
    # nvmath's: where the batch interleaves the transformed axes, those axes
    # go innermost (in the operand's order) and the batch outermost.
    x = rand((6, 4, 5))
    ex = ember.asarray(x, device=device)
    with F.FFT(ex, axes=(0, 1)) as f:
        shape, strides = f.get_output_layout()
        assert shape == (6, 4, 5) and strides == (4, 1, 24)
        f.plan()
        r = f.execute()
        assert tuple(s // 16 for s in r.strides) == strides
        check(r, np.fft.fftn(x, axes=(0, 1)), device)
    with F.FFT(ex, axes=(1, 2)) as f:   # no interleaving: the operand's order
        assert f.get_output_layout()[1] == (20, 5, 1)
    t = rand((6, 4, 5), "float64")
    with F.FFT(ember.asarray(t, device=device), axes=(0, 1)) as f:
        assert f.get_output_layout() == ((6, 3, 5), (3, 1, 18))


def test_inplace(device):
    x = rand((4, 6, 8))
    ex = ember.asarray(x.copy(), device=device)
    r = F.fft(ex, axes=(0, 1), options={"inplace": True})
    assert r is ex
    check(ex, np.fft.fftn(x, axes=(0, 1)), device)
    assert F.ifft(ex, axes=(0, 1), options={"inplace": True}) is ex
    check(ex, x * 24, device)
    xn = x.copy()
    assert F.fft(xn, options={"inplace": True}) is xn
    check(xn, np.fft.fftn(x))


def test_stateful(device):
    x = rand((4, 6, 8), "complex64")
    ex = ember.asarray(x, device=device)
    # 'natural': the result can be the next operand (same strides), as nvmath's
    # example05_stateful_reset does it.
    with F.FFT(ex, axes=(0, 1), options={"result_layout": "natural"}) as f:
        with pytest.raises(RuntimeError, match="plan"):
            f.execute()
        f.plan()
        b = f.execute(direction=F.FFTDirection.FORWARD)
        check(b, np.fft.fftn(x, axes=(0, 1)), device)
        f.reset_operand(b)
        check(f.execute(direction="inverse"), x * 24, device)
        check(f.execute(direction=-1), np.fft.fftn(np.fft.fftn(x, axes=(0, 1)), axes=(0, 1)), device)
        with pytest.raises(ValueError, match="shape"):
            f.reset_operand(ember.asarray(rand((4, 6, 7), "complex64"), device=device))
        with pytest.raises(ValueError, match="dtype"):
            f.reset_operand(ember.asarray(rand((4, 6, 8)), device=device))
        with pytest.raises(TypeError, match="package"):
            f.reset_operand(x)
        f.reset_operand()
        with pytest.raises(RuntimeError, match="unset"):
            f.execute()
    with pytest.raises(RuntimeError, match="freed"):
        f.execute()
    # A real operand: R2C forward only.
    t = rand((5, 8), "float64")
    with F.FFT(ember.asarray(t, device=device)) as f:
        f.plan()
        check(f.execute(), np.fft.rfftn(t), device)
        with pytest.raises(ValueError, match="forward"):
            f.execute(direction=F.FFTDirection.INVERSE)
    with F.FFT(ember.asarray(np.fft.rfftn(t), device=device), options={"fft_type": "C2R"}) as f:
        f.plan()
        check(f.execute(), t * 40, device)


def _scale_load(data_in, offset, user, unused):
    return data_in[offset] * user[offset]


def _scale_store(data_out, offset, data, user, unused):
    data_out[offset] = data * user[offset] + 1.0


def _layout_store(data_out, offset, data, user, unused):
    data_out[offset] = data * user[offset]


def test_callback_offsets_follow_the_layout(device):
    # The epilog's offset is the element's place in the result's memory, as
    # nvmath's: user_info must be laid out as get_output_layout() says.
    x = rand((8, 4, 3))
    w = rand((8, 4, 3))
    ex = ember.asarray(x, device=device)
    epilog = F.compile_epilog(_layout_store, "complex128", "complex128")
    with F.FFT(ex, axes=(0, 1)) as f:
        shape, strides = f.get_output_layout()
        order = sorted(range(3), key=lambda i: -strides[i])
        w_mem = np.ascontiguousarray(w.transpose(order)).reshape(-1)
        f.plan(epilog={"ltoir": epilog, "data": ember.asarray(w_mem, device=device)})
        check(f.execute(), np.fft.fftn(x, axes=(0, 1)) * w, device)


def test_callbacks(device):
    x = rand((3, 16))
    w = rand((3, 16))
    ex, ew = ember.asarray(x, device=device), ember.asarray(w, device=device)
    prolog = F.compile_prolog(_scale_load, "complex128", "complex128")
    epilog = F.compile_epilog(_scale_store, "complex128", "complex128")
    r = F.fft(ex, axes=[-1], prolog={"ltoir": prolog, "data": ew})
    check(r, np.fft.fft(x * w, axis=-1), device)
    r = F.fft(ex, axes=[-1], epilog=F.DeviceCallable(ltoir=epilog, data=ew))
    check(r, np.fft.fft(x, axis=-1) * w + 1.0, device)
    # user_info as a pointer, as nvmath takes it (memory on the execution device).
    if device == "cpu":
        wn = np.ascontiguousarray(w)
        r = F.fft(x, axes=[-1], epilog={"ltoir": epilog, "data": wn.ctypes.data})
        check(r, np.fft.fft(x, axis=-1) * w + 1.0)
    with pytest.raises(NotImplementedError, match="LTO-IR"):
        F.fft(ex, prolog={"ltoir": b"\x00LTO"})
    with pytest.raises(ValueError, match="compile_epilog"):
        F.fft(ex, prolog={"ltoir": epilog})


def test_errors():
    z, t = rand((4, 5)), rand((4, 5), "float64")
    with pytest.raises(ValueError, match="expects a complex operand, found float64"):
        F.fft(t)
    with pytest.raises(RuntimeError, match="real input"):
        F.rfft(z)
    with pytest.raises(ValueError, match="out of bounds"):
        F.fft(z, axes=(2,))
    with pytest.raises(ValueError, match="duplicate"):
        F.fft(z, axes=(0, 0))
    with pytest.raises(ValueError, match="4-D"):
        F.fft(rand((2, 2, 2, 2)))
    with pytest.raises(ValueError, match="up to 3-D"):
        F.fft(rand((2, 2, 2, 2)), axes=(0, 1, 2, 3))
    with pytest.raises(ValueError, match="scalar"):
        F.fft(np.array(1j))
    with pytest.raises(ValueError, match="complex-to-complex"):
        F.rfft(t, options={"inplace": True})
    with pytest.raises(ValueError, match="result_layout"):
        F.fft(z, options={"result_layout": "fast"})
    with pytest.raises(ValueError, match="last_axis_parity"):
        F.FFTOptions(last_axis_parity="one")
    with pytest.raises(TypeError, match="valid names"):
        F.fft(z, options={"norm": "ortho"})
    with pytest.raises(ValueError, match="execution"):
        F.fft(z, execution="tpu")
    with pytest.raises(ValueError, match="direction"):
        with F.FFT(z) as f:
            f.plan()
            f.execute(direction="sideways")
    with pytest.raises(TypeError, match="complex32"):
        F.rfft(t.astype("float16"))
    with pytest.raises(ValueError, match="int64"):
        F.FFT(np.arange(4))
    with pytest.raises(TypeError, match="numpy.ndarray"):
        F.fft([1j, 2j])
    with pytest.raises(ValueError, match="last_axis_parity='odd'"):
        F.irfft(rand((3, 1)))


def test_keys_and_direction_keyword(device):
    x = rand((4, 8))
    ex = ember.asarray(x, device=device)
    k1 = F.FFT.create_key(ex, axes=(-1,))
    assert k1 == F.FFT.create_key(ember.asarray(rand((4, 8)), device=device), axes=(1,))
    assert k1 != F.FFT.create_key(ex, axes=(0,))
    assert k1 != F.FFT.create_key(ex[:, :4], axes=(1,))
    with F.FFT(ex, axes=(1,)) as f:
        assert f.get_key() == k1
    # nvmath's fft and ifft take a direction, as fftn helpers pass one.
    check(F.fft(ex, axes=(1,), direction="inverse"), np.fft.ifft(x, axis=1) * 8, device)
    check(F.ifft(ex, axes=(1,), direction=F.FFTDirection.FORWARD), np.fft.fft(x, axis=1), device)


def _double(data_out, offset, data, user, unused):
    data_out[offset] = data * 2.0


def test_callback_without_user_info_stream_and_logger(device, caplog):
    import logging
    x = rand((3, 8))
    ex = ember.asarray(x, device=device)
    epilog = F.compile_epilog(_double, "complex128", None)
    with ember.Device(device):
        s = ember.cuda.Stream()
    logger = logging.getLogger("nvmath-test")
    with caplog.at_level(logging.INFO, logger="nvmath-test"):
        r = F.fft(ex, axes=(1,), epilog={"ltoir": epilog}, stream=s, options={"logger": logger})
    check(r, np.fft.fft(x, axis=1) * 2.0, device)
    assert any("FFT type is C2C" in m for m in caplog.messages)


_STREAMS_PROGRAM = """
import ember
from ember import nvmath
from helpers import run_python
with ember.Device({device!r}):
    a = ember.random.rand(512, 16, 16) + 1j * ember.random.rand(512, 16, 16)
    s1 = ember.cuda.Stream()
    with nvmath.fft.FFT(a, axes=(0, 1), stream=s1) as f:
        f.plan(stream=s1)
        b = f.execute(stream=s1)       # optimized layout: a transposing copy on s1
        e1 = s1.record()
        s2 = ember.cuda.Stream()
        with s2:
            c = ember.random.rand(512, 16, 16) + 1j * ember.random.rand(512, 16, 16)
        s2.wait_event(e1)
        f.reset_operand(c, stream=s2)
        d = f.execute(stream=s2)
        s2.synchronize()
print("ok")
"""


def test_execute_on_created_streams(device):
    # nvmath's example09_streams: the intermediates of a call on a created
    # stream stay alive until that stream has run past them (a host stream
    # frees memory at once; this crashed in 3 of 4 runs before).
    for _ in range(2):
        out = run_python("-c", _STREAMS_PROGRAM.format(device=device))
        assert out.returncode == 0 and out.stdout.strip() == "ok", (out.returncode, out.stderr[-2000:])
