"""ember.scipy.signal's LTI systems against scipy.signal on every device:
the lti/dlti classes and their conversions, cont2discrete, and the time
and frequency responses (lsim, impulse, step, freqresp, bode, dlsim,
dimpulse, dstep, dfreqresp, dbode), whose state recursion runs on the
input's device; bad inputs included."""
import numpy as np
import pytest
import scipy.signal as ss

import ember
import ember.scipy.signal as es

rng = np.random.default_rng(5)

A = np.array([[0, 1.], [-2, -0.5]])
B = np.array([[0], [1.]])
C = np.array([[1., 0]])
D = np.array([[0.]])
# three states, two inputs, two outputs
A3 = np.array([[-0.5, 1, 0], [-1, -0.5, 0.2], [0, 0, -2.]])
B3 = np.array([[0, 1.], [1, 0], [0.5, 0.5]])
C3 = np.array([[1., 0, 1], [0, 1, 0]])
D3 = np.array([[0, 0.1], [0, 0]])


def host(a):
    return ember.asnumpy(a) if isinstance(a, ember.ndarray) else a


def close(got, want, rtol=1e-9, atol=1e-11):
    got, want = np.asarray(host(got)), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def allclose(got, want, **kw):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        close(g, w, **kw)


def on(device, a):
    return ember.asarray(a, device=device)


def test_classes(device):
    tf = es.lti(on(device, [1., 3]), on(device, [1., 2, 5, 4]))
    TF = ss.lti([1., 3], [1., 2, 5, 4])
    assert type(tf).__name__ == type(TF).__name__
    assert isinstance(tf, es.lti) and isinstance(tf, es.TransferFunction)
    assert tf.dt is None and (tf.inputs, tf.outputs) == (1, 1)
    assert str(tf.num.device) == device
    close(tf.num, TF.num)
    close(np.sort_complex(host(tf.poles)), np.sort_complex(TF.poles))
    close(tf.zeros, TF.zeros)
    zpk, ZPK = tf.to_zpk(), TF.to_zpk()
    assert type(zpk).__name__ == type(ZPK).__name__
    close(np.sort_complex(host(zpk.poles)), np.sort_complex(ZPK.poles))
    assert abs(zpk.gain - ZPK.gain) < 1e-12
    sys, SYS = tf.to_ss(), TF.to_ss()
    for m in "ABCD":
        close(getattr(sys, m), getattr(SYS, m))
    back, BACK = sys.to_tf(), SYS.to_tf()
    close(back.num, BACK.num)
    close(back.den, BACK.den)
    close(es.TransferFunction(zpk).den, ss.TransferFunction(ZPK).den)
    s3, S3 = es.StateSpace(A3, B3, C3, D3), ss.StateSpace(A3, B3, C3, D3)
    assert (s3.inputs, s3.outputs) == (S3.inputs, S3.outputs) == (2, 2)
    t3, T3 = s3.to_tf(input=1), S3.to_tf(input=1)
    close(t3.num, T3.num)
    assert (t3.inputs, t3.outputs) == (T3.inputs, T3.outputs)
    d = es.dlti([1., 0.5], [1, -1.2, 0.5], dt=0.1)
    D_ = ss.dlti([1., 0.5], [1, -1.2, 0.5], dt=0.1)
    assert type(d).__name__ == type(D_).__name__ and d.dt == 0.1
    assert isinstance(d, es.dlti) and not isinstance(d, es.lti)
    assert es.dlti([1.], [1., 0.5]).dt is True
    z = es.ZerosPolesGain([0.5], [0.9, 0.2], 2.0, dt=0.5)
    assert type(z).__name__ == "ZerosPolesGainDiscrete" and z.dt == 0.5
    copy = tf.to_tf()
    copy.den = [1., 1.]
    close(tf.den, TF.den)
    with pytest.raises(ValueError):
        es.lti(1, 2, 3, 4, 5)
    with pytest.raises(ValueError):
        es.dlti(1)
    with pytest.raises(NotImplementedError):
        from ember.scipy.signal_lti import LinearTimeInvariant
        LinearTimeInvariant()
    with pytest.raises(ValueError):
        es.StateSpace(A, B[:1], C, D)
    with pytest.raises(ValueError):
        ss.StateSpace(A, B[:1], C, D)


def test_cont2discrete(device):
    sys = tuple(on(device, m) for m in (A, B, C, D))
    for method in ("zoh", "foh", "bilinear", "euler", "backward_diff",
                   "impulse"):
        got = es.cont2discrete(sys, 0.1, method)
        want = ss.cont2discrete((A, B, C, D), 0.1, method)
        assert got[4] == 0.1 and str(got[0].device) == device
        allclose(got[:4], want[:4], rtol=1e-12, atol=1e-14)
    allclose(es.cont2discrete(sys, 0.1, "gbt", alpha=0.3)[:4],
             ss.cont2discrete((A, B, C, D), 0.1, "gbt", alpha=0.3)[:4])
    tf = ([1, 3], [1, 2, 5, 4])
    allclose(es.cont2discrete(tf, 0.2, "foh")[:2],
             ss.cont2discrete(tf, 0.2, "foh")[:2])
    got = es.cont2discrete(([-1.], [-2., -3.], 2.), 0.2)
    want = ss.cont2discrete(([-1.], [-2., -3.], 2.), 0.2)
    close(np.sort(host(got[1])), np.sort(want[1]))
    assert abs(got[2] - want[2]) < 1e-12
    d, D_ = es.lti(*tf).to_discrete(0.1), ss.lti(*tf).to_discrete(0.1)
    assert type(d).__name__ == type(D_).__name__ and d.dt == 0.1
    close(d.num, D_.num)
    close(d.den, D_.den)
    ds = es.StateSpace(A, B, C, D).to_discrete(0.1, "tustin")
    close(ds.A, ss.StateSpace(A, B, C, D).to_discrete(0.1, "tustin").A)
    for args in [((A, B, C, D), 0.1, "gbt"), ((A, B, C, D), 0.1, "gbt", 2),
                 ((A, B, C, D), 0.1, "nope"), ((A, B, C, [[1.]]), 0.1,
                                              "impulse"), ((A, B), 0.1)]:
        if len(args[0]) == 2:  # a transfer function of matrices: skip
            continue
        with pytest.raises(ValueError):
            es.cont2discrete(*args)
        with pytest.raises(ValueError):
            ss.cont2discrete(*args)
    with pytest.raises(ValueError):
        es.cont2discrete((A,), 0.1)


def test_lsim(device):
    t = np.linspace(0, 10, 501)
    u = np.sin(t)
    for interp in (True, False):
        got = es.lsim((A, B, C, D), on(device, u), on(device, t), X0=[1, 0],
                      interp=interp)
        assert str(got[1].device) == device
        allclose(got, ss.lsim((A, B, C, D), u, t, X0=[1, 0], interp=interp))
    allclose(es.lsim(([1.], [1, 0.3, 2]), None, on(device, t),
                     X0=[0.5, 0.1]),
             ss.lsim(([1.], [1, 0.3, 2]), None, t, X0=[0.5, 0.1]))
    t2 = np.linspace(0.5, 5, 200)
    U = rng.standard_normal((200, 2))
    got = es.lsim(es.StateSpace(A3, B3, C3, D3), on(device, U),
                  on(device, t2), X0=[1, 0, -1])
    allclose(got, ss.lsim(ss.StateSpace(A3, B3, C3, D3), U, t2,
                          X0=[1, 0, -1]))
    allclose(es.lsim((A, B, C, D), on(device, [1.0]), on(device, [0.0])),
             ss.lsim((A, B, C, D), [1.0], [0.0]))
    sys = es.lti([1.], [1., 1.])
    allclose(sys.output(on(device, u), on(device, t)),
             ss.lti([1.], [1., 1.]).output(u, t))
    for args in [((A, B, C, D), u[:-1], t),
                 ((A, B, C, D), U, np.linspace(0, 1, 200)),
                 ((A, B, C, D), u, t ** 2), ((A, B, C, D), u, [t])]:
        with pytest.raises(ValueError):
            ss.lsim(*args)
        with pytest.raises(ValueError):
            es.lsim(args[0], on(device, args[1]), on(device, args[2]))
    with pytest.raises(AttributeError):
        es.lsim(es.dlti([1.], [1., 0.5]), on(device, u), on(device, t))


def test_impulse_step_freq(device):
    sys, SYS = es.lti([1., 3], [1., 2, 5, 4]), ss.lti([1., 3], [1., 2, 5, 4])
    allclose(es.impulse(sys), ss.impulse(SYS))
    allclose(es.step(sys, N=50), ss.step(SYS, N=50))
    T = np.linspace(0, 4, 81)
    allclose(sys.impulse(T=on(device, T)), SYS.impulse(T=T))
    allclose(es.impulse(es.StateSpace(A, B, C, D), T=on(device, T),
                        X0=[[0.1], [0]]),
             ss.impulse(ss.StateSpace(A, B, C, D), T=T, X0=[[0.1], [0]]))
    # B + X0 of a single-input system is a matrix: SciPy's own error
    with pytest.raises(ValueError):
        SYS.impulse(T=T, X0=[0.1, 0, 0])
    with pytest.raises(ValueError):
        sys.impulse(T=on(device, T), X0=[0.1, 0, 0])
    allclose(sys.step(T=on(device, T)), SYS.step(T=T))
    allclose(sys.freqresp(), SYS.freqresp(), rtol=1e-9, atol=1e-12)
    allclose(es.freqresp(sys.to_zpk(), w=on(device, [0.1, 1, 10])),
             ss.freqresp(SYS.to_zpk(), w=[0.1, 1, 10]))
    allclose(es.freqresp(sys.to_ss(), n=20), ss.freqresp(SYS.to_ss(), n=20),
             rtol=1e-8)
    allclose(sys.bode(), SYS.bode(), rtol=1e-9, atol=1e-10)
    allclose(es.bode(([1.], [1., 1.]), w=on(device, [0.1, 1, 10])),
             ss.bode(([1.], [1., 1.]), w=[0.1, 1, 10]))
    with pytest.raises(ValueError):
        es.freqresp(es.StateSpace(A3, B3, C3, D3))
    with pytest.raises(AttributeError):
        es.step(es.dlti([1.], [1., 0.5]))
    with pytest.raises(AttributeError):
        es.freqresp(es.dlti([1.], [1., 0.5]))


def test_dlsim(device):
    dsys = ([1., 0.5], [1, -1.2, 0.5], 0.1)
    u = rng.standard_normal(300)
    got = es.dlsim(dsys, on(device, u))
    assert str(got[1].device) == device
    allclose(got, ss.dlsim(dsys, u))
    Ad, Bd, Cd, Dd, _ = ss.cont2discrete((A3, B3, C3, D3), 0.05)
    U = rng.standard_normal((200, 2))
    allclose(es.dlsim((Ad, Bd, Cd, Dd, 0.05), on(device, U), x0=[1, 2, 3]),
             ss.dlsim((Ad, Bd, Cd, Dd, 0.05), U, x0=[1, 2, 3]))
    tt = np.arange(0, 20, 0.25)
    allclose(es.dlsim(dsys, on(device, np.sin(tt)), t=on(device, tt)),
             ss.dlsim(dsys, np.sin(tt), t=tt))
    t2 = np.arange(0.33, 10, 0.3)  # the input extended before t[0]
    allclose(es.dlsim(dsys, on(device, np.cos(t2)), t=t2),
             ss.dlsim(dsys, np.cos(t2), t=t2))
    sd = es.dlti(Ad, Bd, Cd, Dd, dt=0.05)
    allclose(sd.output(on(device, U), None),
             ss.dlti(Ad, Bd, Cd, Dd, dt=0.05).output(U, None))
    with pytest.raises(AttributeError):
        es.dlsim(es.lti([1.], [1., 1.]), on(device, u))
    with pytest.raises(ValueError):
        es.dlsim((Ad, Bd, Cd, Dd, 0.05), on(device, u))
    with pytest.raises(ValueError):
        ss.dlsim((Ad, Bd, Cd, Dd, 0.05), u)


def test_dresponses(device):
    dsys = ([1., 0.5], [1, -1.2, 0.5], 0.1)
    got, want = es.dimpulse(dsys, n=30), ss.dimpulse(dsys, n=30)
    close(got[0], want[0])
    allclose(got[1], want[1])
    got, want = es.dstep(dsys), ss.dstep(dsys)
    close(got[0], want[0])
    allclose(got[1], want[1])
    Ad, Bd, Cd, Dd, _ = ss.cont2discrete((A3, B3, C3, D3), 0.05)
    got = es.dstep((Ad, Bd, Cd, Dd, 0.05), n=40, x0=[0, 1, 0])
    want = ss.dstep((Ad, Bd, Cd, Dd, 0.05), n=40, x0=[0, 1, 0])
    assert len(got[1]) == len(want[1]) == 2
    allclose(got[1], want[1])
    tt = on(device, np.arange(0, 2, 0.1))
    allclose(es.dimpulse(dsys, t=tt)[1], ss.dimpulse(dsys,
                                                     t=host(tt))[1])
    allclose(es.dbode(dsys), ss.dbode(dsys), rtol=1e-9, atol=1e-10)
    allclose(es.dfreqresp(dsys, whole=True, n=64),
             ss.dfreqresp(dsys, whole=True, n=64))
    z = es.dlti([0.5], [0.9, 0.2], 1., dt=0.1)
    Z = ss.dlti([0.5], [0.9, 0.2], 1., dt=0.1)
    allclose(z.freqresp(w=on(device, [0.1, 0.5, 2.0])),
             Z.freqresp(w=[0.1, 0.5, 2.0]))
    allclose(z.bode(n=20), Z.bode(n=20), rtol=1e-9, atol=1e-10)
    allclose(es.dfreqresp(es.dlti(Ad, Bd[:, :1], Cd[:1], Dd[:1, :1]), n=30),
             ss.dfreqresp(ss.dlti(Ad, Bd[:, :1], Cd[:1], Dd[:1, :1]), n=30),
             rtol=1e-8)
    with pytest.raises(ValueError):
        es.dfreqresp((Ad, Bd, Cd, Dd, 0.05))
    with pytest.raises(AttributeError):
        es.dimpulse(es.lti([1.], [1., 1.]))
    with pytest.raises(AttributeError):
        es.dfreqresp(es.lti([1.], [1., 1.]))
