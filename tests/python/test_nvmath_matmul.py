"""ember.nvmath.linalg.advanced (nvmath-python's matmul and Matmul) against
NumPy: the products, alpha/beta/C, every epilog against its formula, the
stateful object's life cycle, NumPy in -> NumPy out, and nvmath's errors."""
import math
import pickle

import numpy as np
import pytest

import ember
from ember import nvmath
from helpers import assert_close_scaled, random_values, run_python

adv = nvmath.linalg.advanced
E = adv.MatmulEpilog
RNG = np.random.default_rng(7)


def rand(shape, dtype="float64"):
    return random_values(RNG, shape, dtype)


def tol(dtype):
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-11


def check(got, want, device=None):
    if device is not None:
        assert isinstance(got, ember.ndarray) and got.device == ember.Device(device)
        got = ember.asnumpy(got)
    assert isinstance(got, np.ndarray)
    assert_close_scaled(got, want, tol(want.dtype), rtol=tol(want.dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("shapes", [((5, 7), (7, 3)), ((4, 5, 7), (7, 3)), ((5, 7), (4, 7, 3)),
                                    ((2, 3, 5, 7), (2, 3, 7, 4)), ((7,), (7, 3)), ((5, 7), (7,))])
def test_matmul_ember_operands(device, dtype, shapes):
    a, b = rand(shapes[0], dtype), rand(shapes[1], dtype)
    r = adv.matmul(ember.asarray(a, device=device), ember.asarray(b, device=device))
    check(r, a @ b, device)


def test_numpy_in_numpy_out():
    a, b = rand((6, 8)), rand((8, 5))
    r = adv.matmul(a, b)
    assert type(r) is np.ndarray
    check(r, a @ b)
    # Transposed and sliced operands are read as they are.
    check(adv.matmul(a.T.copy().T, b[:, ::2]), a @ b[:, ::2])


@pytest.mark.parametrize("cshape", [(4, 5, 6), (5, 6), (5, 1), (4, 5, 1)])
def test_gemm_alpha_beta(device, cshape):
    a, b, c = rand((4, 5, 3)), rand((3, 6)), rand(cshape)
    d = lambda x: ember.asarray(x, device=device)  # noqa: E731
    r = adv.matmul(d(a), d(b), d(c), alpha=0.45, beta=0.67)
    check(r, 0.45 * (a @ b) + 0.67 * c, device)


def _gelu(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def _dgelu(x):
    k = math.sqrt(2 / math.pi)
    t = np.tanh(k * (x + 0.044715 * x ** 3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x)


@pytest.mark.parametrize("batch", [(), (3,)])
@pytest.mark.parametrize("epilog", [E.RELU, E.GELU, E.BIAS, E.RELU_BIAS, E.GELU_BIAS, E.RELU_AUX,
                                    E.RELU_AUX_BIAS, E.GELU_AUX, E.GELU_AUX_BIAS, E.BGRADA, E.BGRADB])
def test_forward_epilogs(device, epilog, batch):
    m, n, k = 6, 5, 4
    a, b, bias = rand(batch + (m, k)), rand((k, n)), rand((m, 1))
    d = lambda x: ember.asarray(x, device=device)  # noqa: E731
    inputs = {"bias": d(bias)} if "BIAS" in epilog.name else None
    out = adv.matmul(d(a), d(b), alpha=2.0, epilog=epilog, epilog_inputs=inputs)
    x = 2.0 * (a @ b) + (bias if inputs else 0)
    want = np.maximum(x, 0) if "RELU" in epilog.name else _gelu(x) if "GELU" in epilog.name else x
    if "AUX" in epilog.name or "BGRAD" in epilog.name:
        out, aux = out
        assert isinstance(aux, dict) and len(aux) == 1
        if epilog == E.BGRADA:
            g = a.sum(-1)
            check(aux["bgrada"], g[..., None] if batch else g, device)
        elif epilog == E.BGRADB:
            g = np.broadcast_to(b.sum(-2), batch + (n,))
            check(aux["bgradb"], g[..., None] if batch else g, device)
        elif "RELU" in epilog.name:
            assert str(aux["relu_aux"].dtype) == "bool"
            np.testing.assert_array_equal(ember.asnumpy(aux["relu_aux"]), x > 0)
        else:
            check(aux["gelu_aux"], x, device)
    check(out, want, device)


@pytest.mark.parametrize("kind", ["RELU", "GELU"])
@pytest.mark.parametrize("bgrad", [False, True])
def test_backward_epilogs(device, kind, bgrad):
    m, n, k = 6, 5, 4
    a, b, bias = rand((m, k)), rand((k, n)), rand((m,))
    d = lambda x: ember.asarray(x, device=device)  # noqa: E731
    fwd = E[f"{kind}_AUX_BIAS"]
    _, aux = adv.matmul(d(a), d(b), epilog=fwd, epilog_inputs={"bias": d(bias)})
    a2, b2 = rand((m, k)), rand((k, n))
    ep = E[f"D{kind}_BGRAD"] if bgrad else E[f"D{kind}"]
    out = adv.matmul(d(a2), d(b2), epilog=ep, epilog_inputs=aux)
    pre = a @ b + bias[:, None]
    want = (a2 @ b2) * ((pre > 0) if kind == "RELU" else _dgelu(pre))
    if bgrad:
        out, grads = out
        check(grads[f"d{kind.lower()}_bgrad"], want.sum(-1), device)
    check(out, want, device)


def test_conjugate_qualifiers(device):
    a, b = rand((4, 3), "complex128"), rand((3, 5), "complex128")
    q = np.zeros((3,), dtype=adv.matrix_qualifiers_dtype)
    q[0]["is_conjugate"] = q[1]["is_conjugate"] = 1
    r = adv.matmul(ember.asarray(a, device=device), ember.asarray(b, device=device), qualifiers=q)
    check(r, a.conj() @ b.conj(), device)


def test_compute_and_result_types(device):
    a, b = rand((8, 9), "float32"), rand((9, 4), "float32")
    ea, eb = ember.asarray(a, device=device), ember.asarray(b, device=device)
    for ct in (adv.MatmulComputeType.COMPUTE_32F, adv.MatmulComputeType.COMPUTE_32F_FAST_TF32):
        r = adv.matmul(ea, eb, options={"compute_type": ct})
        # TF32 keeps 10 mantissa bits on the GPU; the cpu computes in float32.
        got = ember.asnumpy(r)
        np.testing.assert_allclose(got, a @ b, rtol=0, atol=5e-3 * np.abs(a @ b).max())
    r = adv.matmul(ea, eb, options=adv.MatmulOptions(result_type="float64"))
    assert str(r.dtype) == "float64"
    with pytest.raises(ValueError, match="COMPUTE_64F"):
        adv.matmul(ea, eb, options={"compute_type": adv.MatmulComputeType.COMPUTE_64F})


def test_stateful_life_cycle(device):
    a, b, bias = rand((6, 4)), rand((4, 5)), rand((6, 1))
    d = lambda x: ember.asarray(x, device=device)  # noqa: E731
    mm = adv.Matmul(d(a), d(b))
    with pytest.raises(RuntimeError, match="plan"):
        mm.execute()
    algs = mm.plan(epilog=E.BIAS, epilog_inputs={"bias": d(bias)})
    assert len(algs) == 1 and isinstance(algs[0], adv.Algorithm)
    mm.autotune(iterations=2)
    assert mm.algorithms[0].time_ms is not None
    saved = pickle.loads(pickle.dumps(mm.algorithms))
    check(mm.execute(algorithm=saved[0]), a @ b + bias, device)
    # New operands and a new bias, then a new bias alone.
    a2, b2, bias2 = rand((6, 4)), rand((4, 5)), rand((6, 1))
    mm.reset_operands(a=d(a2), b=d(b2), epilog_inputs={"bias": d(bias2)})
    check(mm.execute(), a2 @ b2 + bias2, device)
    mm.reset_operands(alpha=3.0)
    check(mm.execute(), 3.0 * (a2 @ b2) + bias2, device)
    # Unbound operands must all come back.
    mm.reset_operands()
    with pytest.raises(RuntimeError, match="unset"):
        mm.execute()
    with pytest.raises(ValueError, match="A, B"):
        mm.reset_operands(a=d(a))
    with pytest.raises(ValueError, match="must match"):
        mm.reset_operands(a=d(rand((6, 3))), b=d(b), epilog_inputs={"bias": d(bias)})
    mm.free()
    with pytest.raises(adv.InvalidMatmulState):
        mm.execute()
    # The context manager frees it too, and plan(algorithms=) takes a saved list.
    with adv.Matmul(d(a), d(b)) as mm2:
        mm2.plan(algorithms=saved)
        check(mm2.execute(), a @ b, device)
    with pytest.raises(adv.InvalidMatmulState):
        mm2.plan()


def test_inplace_numpy_and_reset():
    a, b, c = rand((3, 5, 4)), rand((3, 4, 6)), rand((3, 5, 6))
    c0 = c.copy()
    r = adv.matmul(a, b, c=c, beta=1.0, options={"inplace": True})
    assert r is c
    check(c, a @ b + c0)
    with adv.Matmul(a, b, c=c, beta=1.0, options={"inplace": True}) as mm:
        mm.plan()
        prev = c.copy()
        assert mm.execute() is c
        check(c, a @ b + prev)
        # C keeps the last result when it is not reset.
        mm.reset_operands(a=2 * a, b=2 * b)
        prev = c.copy()
        mm.execute()
        check(c, 4 * (a @ b) + prev)


def test_inplace_ember(device):
    a, b, c = rand((5, 4)), rand((4, 6)), rand((5, 6))
    ec = ember.asarray(c.copy(), device=device)   # on cpu a view: c stays the reference
    r = adv.matmul(ember.asarray(a, device=device), ember.asarray(b, device=device), c=ec, beta=0.5,
                   epilog=E.RELU, options={"inplace": True})
    assert r is ec
    check(ec, np.maximum(a @ b + 0.5 * c, 0), device)


def test_errors():
    a, b = rand((5, 7)), rand((7, 3))
    with pytest.raises(ValueError, match="K=7 in operand A .* K=6"):
        adv.matmul(a, rand((6, 3)))
    with pytest.raises(ValueError, match="float32 and B float64"):
        adv.matmul(a.astype("float32"), b)
    with pytest.raises(ValueError, match="int64"):
        adv.matmul(a.astype("int64"), b.astype("int64"))
    with pytest.raises(ValueError, match="beta"):
        adv.matmul(a, b, rand((5, 3)))
    with pytest.raises(ValueError, match="at least 2-D"):
        adv.matmul(a, b, rand((3,)), beta=1)
    with pytest.raises(ValueError, match="M dimension of the C matrix"):
        adv.matmul(a, b, rand((4, 3)), beta=1)
    with pytest.raises(ValueError, match="batch dimensions of operands A"):
        adv.matmul(rand((2, 5, 7)), rand((3, 7, 3)))
    with pytest.raises(ValueError, match="inplace"):
        adv.matmul(a, b, options={"inplace": True})
    with pytest.raises(ValueError, match=r"bias must have shape \(5,\)"):
        adv.matmul(a, b, epilog=E.BIAS, epilog_inputs={"bias": rand((3, 1))})
    with pytest.raises(ValueError, match="requires the inputs"):
        adv.matmul(a, b, epilog=E.BIAS)
    with pytest.raises(ValueError, match="requires the inputs"):
        adv.matmul(a, b, epilog=E.RELU, epilog_inputs={"bias": rand((5, 1))})
    with pytest.raises(ValueError, match="complex"):
        adv.matmul(a + 0j, b + 0j, epilog=E.RELU)
    with pytest.raises(ValueError, match="relu_aux"):
        adv.matmul(a, b, epilog=E.DRELU, epilog_inputs={"relu_aux": rand((5, 3))})
    with pytest.raises(ValueError, match="not a MatmulEpilog"):
        adv.matmul(a, b, epilog=12345)
    with pytest.raises(TypeError, match="ember.ndarray, a numpy.ndarray or an array with __dlpack__"):
        adv.matmul(a.tolist(), b)
    with pytest.raises(TypeError, match="one package"):
        adv.matmul(ember.asarray(a), b)
    with pytest.raises(TypeError, match="valid names"):
        adv.matmul(a, b, options={"no_such_option": 1})
    with pytest.raises(ValueError, match="alpha"):
        adv.matmul(a, b, alpha=1j)
    with pytest.raises(NotImplementedError, match="FP8"):
        adv.matmul(a, b, options={"block_scaling": True})
    with pytest.raises(ValueError, match="qualifiers"):
        adv.matmul(a, b, qualifiers=[0, 0, 0])


def test_out_of_scope_modules():
    for name in ("device", "bindings", "distributed", "sparse"):
        with pytest.raises(ImportError, match="not provided"):
            __import__(f"ember.nvmath.{name}")
    with pytest.raises(ImportError, match="not provided"):
        nvmath.device  # noqa: B018


def test_attribute_access():
    # `import ember` then ember.nvmath, as ember.fft: loaded on first use.
    out = run_python("-c", "import sys, ember; assert 'ember.nvmath' not in sys.modules; "
                     "print(ember.nvmath.linalg.advanced.matmul.__name__)")
    assert out.returncode == 0 and out.stdout.strip() == "matmul", out.stderr
