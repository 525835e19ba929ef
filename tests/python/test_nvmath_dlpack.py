"""ember.nvmath with operands of a package it knows nothing about: the
Producer below has only __dlpack__ and __dlpack_device__, and this module
has the from_dlpack that makes one, as torch and CuPy have. Operands are
read through ember.from_dlpack and results handed back through the
operand's package's from_dlpack (the path torch tensors take; their own
tests are test_nvmath_torch.py), checked against NumPy, with the errors
for mixed packages, mixed devices and arrays DLPack cannot describe."""
import numpy as np
import pytest

import ember
from ember import nvmath
from helpers import assert_close_scaled, random_values

adv = nvmath.linalg.advanced
E = adv.MatmulEpilog
RNG = np.random.default_rng(11)
PACKAGE = __name__      # the 'package' ember.nvmath sees: this module has from_dlpack


class Producer:
    """A host array of an unknown package, over a NumPy array."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, **kwargs):
        return self.a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


HANDED_BACK = []


def from_dlpack(x):
    """This 'package's' from_dlpack: ember.nvmath calls it for results."""
    HANDED_BACK.append(x)
    return Producer(np.from_dlpack(x))


class Elsewhere:
    """Claims memory on a device (DLPack's (type, id)) and must never be
    read: the device checks come before any import."""

    def __init__(self, device):
        self.device = device

    def __dlpack__(self, **kwargs):
        raise AssertionError("ember.nvmath imported an operand it should have refused")

    def __dlpack_device__(self):
        return self.device


class Orphan:
    """A DLPack array whose package has no from_dlpack."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, **kwargs):
        return self.a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


Orphan.__module__ = "nvmath_test_orphan"


def rand(shape, dtype="float64"):
    return random_values(RNG, shape, dtype)


def tol(dtype):
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-11


def check(got, want):
    assert type(got) is Producer
    assert_close_scaled(got.a, want, tol(want.dtype), rtol=tol(want.dtype))


@pytest.fixture
def default(device):
    """ember's default device for the test: host operands of other
    packages are multiplied on a GPU when it is one, as nvmath's."""
    with ember.Device(device):
        yield ember.Device(device)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_matmul(default, dtype):
    a, b, c = rand((3, 5, 7), dtype), rand((7, 4), dtype), rand((3, 5, 4), dtype)
    r = adv.matmul(Producer(a), Producer(b), Producer(c), alpha=0.5, beta=2.0)
    check(r, 0.5 * (a @ b) + 2.0 * c)
    # a transposed operand is read with its strides
    check(adv.matmul(Producer(b.T), Producer(a[0].T)), b.T @ a[0].T)


def test_zero_copy_on_the_operand_device():
    a, b = rand((6, 8)), rand((8, 5))
    with ember.Device("cpu"), adv.Matmul(Producer(a), Producer(b)) as mm:
        assert mm.operands[0].data.ptr == a.__array_interface__["data"][0]
        mm.plan()
        del HANDED_BACK[:]
        r = mm.execute()
        # the result is the array ember computed, handed over, not a copy
        assert len(HANDED_BACK) == 1
        assert r.a.__array_interface__["data"][0] == HANDED_BACK[0].data.ptr
    check(r, a @ b)


def test_inplace(default):
    a, b, c = rand((4, 6)), rand((6, 5)), rand((4, 5))
    want = a @ b + 0.5 * c
    pc = Producer(c)
    r = adv.matmul(Producer(a), Producer(b), pc, beta=0.5, options={"inplace": True})
    # on a GPU the result is computed in a copy and written back
    assert r is pc
    assert_close_scaled(c, want, 1e-11, rtol=1e-11)


def test_stateful_reset_and_epilogs(default):
    a, b, bias = rand((5, 6), "float32"), rand((6, 4), "float32"), rand((5,), "float32")
    with adv.Matmul(Producer(a), Producer(b)) as mm:
        mm.plan(epilog=E.RELU_AUX_BIAS, epilog_inputs={"bias": Producer(bias)})
        r, aux = mm.execute()
        x = a @ b + bias[:, None]
        check(r, np.maximum(x, 0))
        assert type(aux["relu_aux"]) is Producer
        np.testing.assert_array_equal(aux["relu_aux"].a, x > 0)
        a2 = rand((5, 6), "float32")
        mm.reset_operands(a=Producer(a2))
        r, aux = mm.execute()
        check(r, np.maximum(a2 @ b + bias[:, None], 0))
        with pytest.raises(TypeError, match="package"):
            mm.reset_operands(a=a2)
        with pytest.raises(ValueError, match="must match"):
            mm.reset_operands(a=Producer(rand((5, 7), "float32")))
    # the auxiliary output goes back in as the next epilog's input
    g = rand((5, 4), "float32")
    r = adv.matmul(Producer(g), Producer(np.eye(4, dtype="float32")), epilog=E.DRELU,
                   epilog_inputs={"relu_aux": aux["relu_aux"]})
    check(r, g * aux["relu_aux"].a)


def test_generic_matmul(default):
    a, b = rand((5, 5)), rand((5, 3))
    q = np.full((2,), nvmath.linalg.GeneralMatrixQualifier.create(), dtype=nvmath.linalg.matrix_qualifiers_dtype)
    q[0] = nvmath.linalg.SymmetricMatrixQualifier.create()
    sym = np.tril(a) + np.tril(a, -1).T
    r = nvmath.linalg.matmul(Producer(a), Producer(b), qualifiers=q, execution="cuda")
    check(r, sym @ b)
    with nvmath.linalg.Matmul(Producer(a), Producer(b)) as mm:
        mm.plan()
        check(mm.execute(), a @ b)
        b2 = rand((5, 3))
        mm.reset_operands(b=Producer(b2))
        check(mm.execute(), a @ b2)


@pytest.mark.parametrize("execution", ["cpu", "cuda"])
def test_fft(default, execution):
    x = rand((8, 6, 5), "complex128")
    check(nvmath.fft.fft(Producer(x), axes=(0, 1), execution=execution), np.fft.fftn(x, axes=(0, 1)))
    check(nvmath.fft.ifft(Producer(x), execution=execution), np.fft.ifftn(x, norm="forward"))
    xr = rand((8, 6), "float32")
    check(nvmath.fft.rfft(Producer(xr), execution=execution), np.fft.rfftn(xr).astype("complex64"))
    h = np.fft.rfftn(rand((8, 6)))
    check(nvmath.fft.irfft(Producer(h), execution=execution), np.fft.irfftn(h, s=(8, 6), axes=(0, 1), norm="forward"))


def test_fft_inplace_and_stateful(default):
    x = rand((16, 4), "complex128")
    want = np.fft.fftn(x, axes=(0,))
    px = Producer(x.copy())
    r = nvmath.fft.fft(px, axes=(0,), options={"inplace": True}, execution="cuda")
    assert r is px
    assert_close_scaled(px.a, want, 1e-11)
    with nvmath.fft.FFT(Producer(x), axes=(0,)) as f:
        f.plan()
        check(f.execute(), want)
        f.reset_operand(Producer(2 * x))
        check(f.execute(), 2 * want)
        key = f.get_key()
        assert key == nvmath.fft.FFT.create_key(Producer(3 * x), axes=(0,))
        assert key[0] == PACKAGE
        with pytest.raises(TypeError, match="package"):
            f.reset_operand(x)
        with pytest.raises(ValueError, match="strides"):
            f.reset_operand(Producer(np.asfortranarray(x)))


def test_mixed_packages_are_refused():
    a = rand((3, 3))
    with pytest.raises(TypeError, match=rf"one package \(operand A: {PACKAGE}, operand B: numpy\)"):
        adv.matmul(Producer(a), a)
    with pytest.raises(TypeError, match="one package"):
        nvmath.linalg.matmul(ember.asarray(a, device="cpu"), Producer(a))
    with pytest.raises(TypeError, match="must belong to the operands' package"):
        adv.matmul(Producer(a), Producer(a), epilog=E.BIAS, epilog_inputs={"bias": a[:, 0]})


def test_a_package_without_from_dlpack_is_refused():
    a = rand((3, 3))
    with pytest.raises(TypeError, match="'nvmath_test_orphan' has no from_dlpack"):
        adv.matmul(Orphan(a), Orphan(a))
    with pytest.raises(TypeError, match="an array with __dlpack__"):
        nvmath.fft.fft([1j, 2j])


def test_mixed_devices_are_refused():
    a = rand((3, 3))
    gpu = Elsewhere((2, 0))         # DLPack's kDLCUDA, device 0
    with pytest.raises(ValueError, match=r"one device; they are on \['cpu', 'cuda:0'\]"):
        adv.matmul(Producer(a), gpu)
    with pytest.raises(ValueError, match=r"one device; they are on \['cpu', 'cuda:0'\]"):
        nvmath.linalg.matmul(gpu, Producer(a))
    with adv.Matmul(Producer(a), Producer(a)) as mm:
        with pytest.raises(ValueError, match="is on cuda:0; the original operands are on cpu"):
            mm.reset_operands(b=gpu)
    with nvmath.fft.FFT(Producer(a + 0j)) as f:
        with pytest.raises(ValueError, match="is on cuda:0; the original was on cpu"):
            f.reset_operand(Elsewhere((2, 0)))
    with pytest.raises(ValueError, match="DLPack device type 4"):
        nvmath.fft.fft(Elsewhere((4, 0)))     # OpenCL memory


def test_arrays_dlpack_cannot_describe():
    t = np.arange(4).astype("datetime64[s]")
    with pytest.raises(TypeError, match=r"ember cannot read the operand A \(test_nvmath_dlpack.Producer\) through "
                                        r"DLPack: .*"):
        adv.matmul(Producer(t), Producer(t))


def test_streams(default):
    a, b = rand((4, 5)), rand((5, 3))

    class Protocol:     # another library's stream, as the CUDA stream protocol gives it
        def __init__(self, s):
            self.s = s

        def __cuda_stream__(self):
            return self.s.__cuda_stream__()

    s = ember.Stream()       # on the default device
    for stream in (s, Protocol(s)):
        check(adv.matmul(Producer(a), Producer(b), stream=stream), a @ b)
        check(nvmath.fft.fft(Producer(a + 0j), stream=stream, execution="cuda"), np.fft.fftn(a))
    s.synchronize()
    with pytest.raises(TypeError, match="stream must be"):
        adv.matmul(Producer(a), Producer(b), stream="default")
