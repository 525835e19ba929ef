"""ember.scipy.signal's waveforms beyond chirp and square (re-exported by
ember.scipy.signal): gausspulse, sweep_poly and max_len_seq.

gausspulse and sweep_poly are elementwise over the time samples on t's
device. max_len_seq's shift register is a linear recurrence over GF(2):
the host works out, with Python integers as bit vectors, the register
at the start of each block of B samples (B about the square root of the
length) and the B masks that read a sample off a block's starting
register; the samples themselves are then one elementwise parity of
(blocks x B) ANDs on the device, not a loop over the sequence."""
import math

import ember as _e
from ember._api._util import as_array as _arr

__all__ = ["gausspulse", "sweep_poly", "max_len_seq"]


def gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False,
               retenv=False):
    """scipy.signal.gausspulse: a Gaussian-modulated sinusoid (its
    in-phase part, and on request the quadrature part and the
    envelope), or its cutoff time for t='cutoff'."""
    if fc < 0:
        raise ValueError(f"Center frequency (fc={fc:.2f}) must be >=0.")
    if bw <= 0:
        raise ValueError(f"Fractional bandwidth (bw={bw:.2f}) must be > 0.")
    if bwr >= 0:
        raise ValueError(f"Reference level for bandwidth (bwr={bwr:.2f}) "
                         "must be < 0 dB")
    ref = 10.0 ** (bwr / 20.0)
    a = -(math.pi * fc * bw) ** 2 / (4.0 * math.log(ref))
    if isinstance(t, str):
        if t == "cutoff":
            if tpr >= 0:
                raise ValueError("Reference level for time cutoff must be "
                                 "< 0 dB")
            return math.sqrt(-math.log(10.0 ** (tpr / 20.0)) / a)
        raise ValueError("If `t` is a string, it must be 'cutoff'")
    t = _arr(t)
    yenv = _e.exp(-a * t * t)
    yI = yenv * _e.cos(2 * math.pi * fc * t)
    if not retquad:
        return (yI, yenv) if retenv else yI
    yQ = yenv * _e.sin(2 * math.pi * fc * t)
    return (yI, yQ, yenv) if retenv else (yI, yQ)


def sweep_poly(t, poly, phi=0):
    """scipy.signal.sweep_poly: cos of the phase whose frequency is the
    polynomial poly(t) (highest power first, or a numpy.poly1d), phi in
    degrees."""
    import numpy
    t = _arr(t)
    p = numpy.asarray(_e.asnumpy(poly) if isinstance(poly, _e.ndarray)
                      else getattr(poly, "coeffs", poly))
    intpoly = numpy.polyint(p)
    phase = _e.zeros_like(t, dtype=_e.result_type(t, _e.float64))
    for c in intpoly.tolist():
        phase = phase * t + c
    return _e.cos(2 * math.pi * phase + phi * math.pi / 180)


_MLS_TAPS = {2: [1], 3: [2], 4: [3], 5: [3], 6: [5], 7: [6], 8: [7, 6, 1],
             9: [5], 10: [7], 11: [9], 12: [11, 10, 4], 13: [12, 11, 8],
             14: [13, 12, 2], 15: [14], 16: [15, 13, 4], 17: [14],
             18: [11], 19: [18, 17, 14], 20: [17], 21: [19], 22: [21],
             23: [18], 24: [23, 22, 17], 25: [22], 26: [25, 24, 20],
             27: [26, 25, 22], 28: [25], 29: [27], 30: [29, 28, 7],
             31: [28], 32: [31, 30, 10]}


def _parity(x):
    """The parity of each int64's bits, folded down in six shifts."""
    for s in (32, 16, 8, 4, 2, 1):
        x = x ^ (x >> s)
    return x & 1


def max_len_seq(nbits, state=None, length=None, taps=None, *, device=None):
    """scipy.signal.max_len_seq: (seq, state), a maximum-length sequence
    of the shift register with these taps (int8 0s and 1s) and the
    register after it, on `device` (the default one when None)."""
    import numpy
    if taps is None:
        if nbits not in _MLS_TAPS:
            raise ValueError(f"nbits must be between {min(_MLS_TAPS)} and "
                             f"{max(_MLS_TAPS)} if taps is None")
        taps = _MLS_TAPS[nbits]
    else:
        taps = numpy.unique(numpy.array(taps, numpy.int64))[::-1]
        if numpy.any(taps < 0) or numpy.any(taps > nbits) or taps.size < 1:
            raise ValueError("taps must be non-empty with values between "
                             "zero and nbits (inclusive)")
        taps = taps.tolist()
    if nbits > 62:
        raise NotImplementedError(f"max_len_seq: nbits={nbits} (ember "
                                  "holds a register in an int64)")
    n_max = 2 ** nbits - 1
    length = n_max if length is None else int(length)
    if length < 0:
        raise ValueError("length must be greater than or equal to 0")
    st = numpy.ones(nbits, numpy.int8) if state is None else \
        numpy.array(_e.asnumpy(state) if isinstance(state, _e.ndarray)
                    else state, dtype=bool).astype(numpy.int8)
    if st.ndim != 1 or st.size != nbits:
        raise ValueError("state must be a 1-D array of size nbits")
    if numpy.all(st == 0):
        raise ValueError("state must not be all zeros")
    # the register as bits: bit k is sample i + k; a new sample is the
    # parity of the register under tapmask (SciPy's feedback XORs the
    # oldest sample with those the taps point at)
    tapmask = 1
    for tp in taps:
        tapmask ^= 1 << (int(tp) % nbits)
    top = nbits - 1
    low = (1 << top) - 1

    def advance(mask):
        # the mask reading sample i + r + 1 off register i, from the one
        # reading sample i + r
        return ((mask & low) << 1) ^ (tapmask if mask >> top & 1 else 0)
    B = max(64, 1 << math.ceil(math.log2(max(length, 1)) / 2))
    masks = [1]
    for _ in range(B + nbits - 1):
        masks.append(advance(masks[-1]))
    reg = sum(int(b) << k for k, b in enumerate(st.tolist()))
    nblocks = -(-length // B) if length else 0
    starts = [reg]
    for _ in range(nblocks):
        r = starts[-1]
        starts.append(sum(((masks[B + k] & r).bit_count() & 1) << k
                          for k in range(nbits)))
    j, r = divmod(length, B)
    last = starts[j]
    final = numpy.array([(masks[r + k] & last).bit_count() & 1
                         for k in range(nbits)], numpy.int8)
    if nblocks:
        W = _e.asarray(numpy.array(starts[:nblocks], numpy.int64)[:, None],
                       device=device)
        R = _e.asarray(numpy.array(masks[:B], numpy.int64)[None, :],
                       device=W.device)
        seq = _parity(W & R).astype(_e.int8).reshape(-1)[:length]
    else:
        seq = _e.zeros(0, dtype=_e.int8, device=device)
    return seq, _e.asarray(final, device=seq.device)
