"""ember.nvmath with torch tensors, as nvmath-python takes them: torch in
-> torch out on the tensor's device, values against torch's own matmul and
FFTs, and the errors for mixed packages, mixed devices and tensors DLPack
cannot carry. The package-independent path (any __dlpack__ producer) is
test_nvmath_dlpack.py, which runs without torch."""
import numpy as np
import pytest

import ember
from ember import nvmath

torch = pytest.importorskip("torch")

adv = nvmath.linalg.advanced
E = adv.MatmulEpilog
GEN = torch.Generator().manual_seed(5)


@pytest.fixture
def tdev(device):
    """The torch device of a test's tensors ('cpu' or 'cuda:0')."""
    if device.startswith("cuda") and not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device")
    return device


def rand(shape, dtype=torch.float64, device="cpu"):
    x = torch.randn(shape, generator=GEN, dtype=torch.float64)
    if dtype.is_complex:
        x = torch.complex(x, torch.randn(shape, generator=GEN, dtype=torch.float64))
    return x.to(dtype).to(device)


def check(got, want, device):
    assert isinstance(got, torch.Tensor)
    assert got.device == torch.device(device) and got.dtype == want.dtype and got.shape == want.shape
    t = 2e-4 if want.dtype in (torch.float32, torch.complex64) else 1e-11
    scale = max(want.abs().max().item(), 1.0)
    torch.testing.assert_close(got.cpu(), want.cpu(), rtol=t, atol=t * scale)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.complex64])
def test_matmul(tdev, dtype):
    a, b, c = rand((3, 5, 7), dtype, tdev), rand((7, 4), dtype, tdev), rand((3, 5, 4), dtype, tdev)
    check(adv.matmul(a, b, c, alpha=0.5, beta=2.0), 0.5 * (a @ b) + 2.0 * c, tdev)
    check(adv.matmul(b.T, a[0].T), b.T @ a[0].T, tdev)       # strided views


def test_operands_are_not_copied(device, tdev):
    a, b = rand((6, 8), device=tdev), rand((8, 5), device=tdev)
    # torch cpu tensors are host operands: they stay in place when ember's
    # default device is cpu (on a GPU host they are copied up, as NumPy's)
    with ember.Device(device), adv.Matmul(a, b) as mm:
        assert mm.operands[0].data.ptr == a.data_ptr() and mm.operands[1].data.ptr == b.data_ptr()
        mm.plan()
        check(mm.execute(), a @ b, tdev)


def test_host_tensors_follow_the_default_device(device):
    """torch cpu tensors are host operands, as NumPy's: multiplied on a GPU
    when ember's default device is one, the result back on cpu."""
    a, b = rand((6, 8)), rand((8, 5))
    with ember.Device(device):
        with adv.Matmul(a, b) as mm:
            assert mm.device == ember.Device(device)
            mm.plan()
            check(mm.execute(), a @ b, "cpu")
        check(nvmath.fft.fft(a + 0j, execution="cuda"), torch.fft.fftn(a + 0j), "cpu")


def test_inplace(tdev):
    a, b, c = rand((2, 4, 6), device=tdev), rand((2, 6, 5), device=tdev), rand((2, 4, 5), device=tdev)
    want = a @ b + 0.5 * c
    r = adv.matmul(a, b, c, beta=0.5, options={"inplace": True})
    assert r is c
    check(c, want, tdev)


def test_epilogs_and_reset(tdev):
    a, b = rand((5, 6), torch.float32, tdev), rand((6, 4), torch.float32, tdev)
    bias = rand((5,), torch.float32, tdev)
    with adv.Matmul(a, b) as mm:
        mm.plan(epilog=E.RELU_AUX_BIAS, epilog_inputs={"bias": bias})
        r, aux = mm.execute()
        x = a @ b + bias[:, None]
        check(r, torch.relu(x), tdev)
        assert aux["relu_aux"].dtype == torch.bool and aux["relu_aux"].device == torch.device(tdev)
        assert torch.equal(aux["relu_aux"], x > 0)
        a2 = rand((5, 6), torch.float32, tdev)
        mm.reset_operands(a=a2)
        r, aux = mm.execute()
        check(r, torch.relu(a2 @ b + bias[:, None]), tdev)
        with pytest.raises(TypeError, match="must belong to the package torch; it is numpy"):
            mm.reset_operands(a=a2.cpu().numpy())
    g = rand((5, 4), torch.float32, tdev)
    r = adv.matmul(g, torch.eye(4, device=tdev), epilog=E.DRELU, epilog_inputs={"relu_aux": aux["relu_aux"]})
    check(r, g * aux["relu_aux"], tdev)


def test_generic_matmul(tdev):
    a, b = rand((5, 5), device=tdev), rand((5, 3), device=tdev)
    q = np.full((2,), nvmath.linalg.GeneralMatrixQualifier.create(), dtype=nvmath.linalg.matrix_qualifiers_dtype)
    q[0] = nvmath.linalg.TriangularMatrixQualifier.create(uplo=nvmath.linalg.FillMode.UPPER)
    check(nvmath.linalg.matmul(a, b, qualifiers=q), torch.triu(a) @ b, tdev)
    with nvmath.linalg.Matmul(a, b, execution="cpu") as mm:
        mm.plan()
        check(mm.execute(), a @ b, tdev)        # computed on cpu, handed back on the tensors' device


def test_fft(tdev):
    x = rand((8, 6, 5), torch.complex128, tdev)
    check(nvmath.fft.fft(x, axes=(0, 1)), torch.fft.fftn(x, dim=(0, 1)), tdev)
    check(nvmath.fft.ifft(x), torch.fft.ifftn(x, norm="forward"), tdev)
    xr = rand((8, 6), torch.float32, tdev)
    check(nvmath.fft.rfft(xr), torch.fft.rfftn(xr), tdev)
    h = torch.fft.rfftn(rand((8, 7), device=tdev))
    check(nvmath.fft.irfft(h, options={"last_axis_parity": "odd"}), torch.fft.irfftn(h, s=(8, 7), norm="forward"),
          tdev)


def test_fft_stateful_inplace(tdev):
    x = rand((16, 4), torch.complex64, tdev)
    want = torch.fft.fft(x, dim=0)
    with nvmath.fft.FFT(x, axes=(0,), execution="cpu") as f:
        f.plan()
        check(f.execute(), want, tdev)
        f.reset_operand(2 * x)
        check(f.execute(), 2 * want, tdev)
        with pytest.raises(ValueError, match="strides"):
            f.reset_operand(x.T.contiguous().T)
    y = x.clone()
    assert nvmath.fft.fft(y, axes=(0,), options={"inplace": True}) is y
    check(y, want, tdev)


@pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental")
def test_errors(tdev):
    a = rand((4, 4), device=tdev)
    with pytest.raises(TypeError, match=r"one package \(operand A: torch, operand B: numpy\)"):
        adv.matmul(a, a.cpu().numpy())
    with pytest.raises(TypeError, match="one package"):
        nvmath.linalg.matmul(ember.asarray(a.cpu().numpy(), device="cpu"), a)
    with pytest.raises(TypeError, match="require gradient, use tensor.detach"):
        adv.matmul(a.clone().requires_grad_(), a)
    with pytest.raises(TypeError, match="torch.complex32"):
        nvmath.fft.fft(torch.zeros(4, 4, dtype=torch.complex32, device=tdev))
    with pytest.raises(NotImplementedError, match="float8"):
        adv.matmul(a.to(torch.float8_e4m3fn), a.to(torch.float8_e4m3fn))
    with pytest.raises(ValueError, match="is not supported"):
        adv.matmul(a.to(torch.int32), a.to(torch.int32))
    with nvmath.fft.FFT(a + 0j) as f:
        with pytest.raises(TypeError, match="package"):
            f.reset_operand(ember.asarray((a + 0j).cpu().numpy()))


def test_mixed_devices(need_cuda):
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device")
    a = rand((4, 4))
    with pytest.raises(ValueError, match=r"one device; they are on \['cpu', 'cuda:0'\]"):
        adv.matmul(a, a.cuda())
    with adv.Matmul(a.cuda(), a.cuda()) as mm:
        with pytest.raises(ValueError, match="is on cpu; the original operands are on cuda:0"):
            mm.reset_operands(a=a)
    with nvmath.fft.FFT(a + 0j) as f:
        with pytest.raises(ValueError, match="is on cuda:0; the original was on cpu"):
            f.reset_operand((a + 0j).cuda())


def test_torch_streams(need_cuda):
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA device")
    a, b = rand((64, 32), device="cuda:0"), rand((32, 16), device="cuda:0")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        r = adv.matmul(a, b, stream=s)
        f = nvmath.fft.fft(a + 0j, stream=s.cuda_stream)      # a cudaStream_t, as nvmath takes it
    s.synchronize()
    check(r, a @ b, "cuda:0")
    check(f, torch.fft.fftn(a + 0j), "cuda:0")


def test_cpu_ignores_a_cuda_stream():
    """On cpu a CUDA stream (here its protocol, as torch.cuda.Stream has
    it) has nothing to order: accepted, as nvmath takes the argument."""
    class TorchLikeStream:
        cuda_stream = 0

    a = rand((4, 4))
    with ember.Device("cpu"):
        check(adv.matmul(a, a, stream=TorchLikeStream()), a @ a, "cpu")
