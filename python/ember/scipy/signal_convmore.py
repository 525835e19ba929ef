"""ember.scipy.signal's overlap-add convolution and its relatives
(re-exported by ember.scipy.signal): oaconvolve, deconvolve and
correlation_lags.

oaconvolve cuts the larger operand into blocks along each axis where it
is at least twice the other's length, transforms every block at once
(one batched real FFT through ember.fft), and adds the blocks' tails
onto their neighbours; axes where the operands are alike get one FFT of
the whole length, as fftconvolve's. The block length is a power of two
about eight times the kernel's (SciPy picks it by a Lambert-W rule), so
the sums agree with SciPy's to rounding, not bit for bit."""
import ember as _e

__all__ = ["oaconvolve", "deconvolve", "correlation_lags"]

_MODES = ("full", "same", "valid")


def correlation_lags(in1_len, in2_len, mode="full"):
    """scipy.signal.correlation_lags: the lag of each output sample of
    correlate(in1, in2, mode) for 1-D inputs of these lengths (int64,
    on the default device: it depends on two lengths alone)."""
    if mode == "full":
        return _e.arange(-in2_len + 1, in1_len)
    if mode == "same":
        lags = _e.arange(-in2_len + 1, in1_len)
        mid = lags.shape[0] // 2
        bound = in1_len // 2
        return lags[mid - bound:mid + bound + in1_len % 2]
    if mode == "valid":
        bound = in1_len - in2_len
        return _e.arange(bound + 1) if bound >= 0 else _e.arange(bound, 1)
    raise ValueError(f"Mode {mode} is invalid")


def deconvolve(signal, divisor):
    """scipy.signal.deconvolve: (quotient, remainder) with signal =
    convolve(divisor, quotient) + remainder. The quotient is the first
    N - D + 1 samples of the signal run through the all-pole filter
    1/divisor (SciPy's lfilter of an impulse through signal/divisor,
    the same series), so only the divisor is bound by lfilter's 64
    coefficients; an empty float64 array where SciPy returns [] (the
    divisor longer than the signal)."""
    from ember.scipy.signal import convolve
    from ember.scipy.signal_iir import lfilter
    num = signal if isinstance(signal, _e.ndarray) else _e.asarray(signal)
    num = num.reshape(1) if num.ndim == 0 else num
    den = divisor if isinstance(divisor, _e.ndarray) else _e.asarray(
        divisor, device=num.device)
    den = den.reshape(1) if den.ndim == 0 else den
    if not (num.ndim == 1 and num.size > 0):
        raise ValueError("Parameter signal must be non-empty 1d array, but "
                         f"its shape is {tuple(num.shape)}!")
    if not (den.ndim == 1 and den.size > 0):
        raise ValueError("Parameter divisor must be non-empty 1d array, but "
                         f"its shape is {tuple(den.shape)}!")
    if den.device != num.device:
        raise ValueError(f"signal is on {num.device} and divisor on "
                         f"{den.device}")
    N, D = num.shape[0], den.shape[0]
    if D > N:
        return _e.zeros(0, dtype=_e.float64, device=num.device), num
    quot = lfilter(_e.ones(1, device="cpu"), den, num)[:N - D + 1]
    rem = num - convolve(den, quot, mode="full")
    return quot, rem


def _block_len(s1, s2):
    """The block step along one axis, or None where one FFT over the
    whole length is as cheap (the operands alike, or the blocks would
    cover in1 anyway)."""
    if s2 < 2 or s1 < 2 * s2:
        return None
    L = 1 << max(6, (8 * s2 - 1).bit_length())
    step = L - s2 + 1
    return step if step < s1 else None


def _overlap_add(x, ax, step, s2):
    """Merge the axis pair (ax: blocks, ax + 1: each block's step + s2 - 1
    outputs) into one axis of nb * step + s2 - 1 samples, each block's
    last s2 - 1 outputs added onto the next block's first."""
    nb = x.shape[ax]
    shp = list(x.shape)
    head = x[(slice(None),) * (ax + 1) + (slice(0, step),)]
    tail = x[(slice(None),) * (ax + 1) + (slice(step, None),)]
    pad = list(shp)
    pad[ax + 1] = step - (s2 - 1)
    tail = _e.concatenate((tail, _e.zeros(pad, dtype=x.dtype,
                                          device=x.device)), axis=ax + 1)
    flat = shp[:ax] + [nb * step] + shp[ax + 2:]
    head, tail = head.reshape(flat), tail.reshape(flat)
    z = list(flat)
    z[ax] = s2 - 1
    zeros = _e.zeros(z, dtype=x.dtype, device=x.device)
    # block k's tail lands at (k + 1) * step: shifted by one block, the
    # last block's tail past the end of head's span
    out = _e.concatenate((head, zeros), axis=ax)
    z[ax] = step
    shifted = _e.concatenate((_e.zeros(z, dtype=x.dtype, device=x.device),
                              tail), axis=ax)
    n = nb * step + s2 - 1
    return out + shifted[(slice(None),) * ax + (slice(0, n),)]


def oaconvolve(in1, in2, mode="full", axes=None):
    """scipy.signal.oaconvolve: the convolution by overlap-add (see the
    module's note); equal shapes, or no axis worth cutting, go through
    fftconvolve as SciPy's do."""
    import ember.fft as fft
    from ember.scipy.signal import (_centered, _pair, _swap_needed,
                                    fftconvolve)
    in1, in2 = _pair(in1, in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if mode not in _MODES:
        raise ValueError("acceptable mode flags are 'valid', 'same', or "
                         "'full'")
    if in1.size == 0 or in2.size == 0 or in1.shape == in2.shape:
        return fftconvolve(in1, in2, mode, axes)
    axes = list(range(in1.ndim)) if axes is None else \
        sorted(a % in1.ndim for a in ([axes] if isinstance(axes, int)
                                       else axes))
    s1, s2 = in1.shape, in2.shape
    if _swap_needed(mode, [s1[a] for a in axes], [s2[a] for a in axes]):
        in1, in2, s1, s2 = in2, in1, s2, s1
    steps = {a: _block_len(s1[a], s2[a]) for a in axes}
    blocked = [a for a in axes if steps[a] is not None]
    if not blocked:
        return fftconvolve(in1, in2, mode, axes)
    rest = [a for a in range(in1.ndim) if a not in axes]
    whole = [a for a in axes if a not in blocked]
    order = rest + whole + blocked
    x, k = _e.transpose(in1, order), _e.transpose(in2, order)
    # in1 zero-padded to whole blocks and each blocked axis split in two
    shape_x, shape_k, fax, fshape = [], [], [], []
    for i, a in enumerate(order):
        if a in blocked:
            step = steps[a]
            nb = -(-s1[a] // step)
            if nb * step > s1[a]:
                pad = list(x.shape)
                pad[i] = nb * step - s1[a]
                x = _e.concatenate((x, _e.zeros(pad, dtype=x.dtype,
                                                device=x.device)), axis=i)
            shape_x += [nb, step]
            shape_k += [1, s2[a]]
            fax.append(len(shape_x) - 1)
            fshape.append(step + s2[a] - 1)
        else:
            shape_x.append(x.shape[i])
            shape_k.append(k.shape[i])
            if a in whole:
                fax.append(len(shape_x) - 1)
                fshape.append(s1[a] + s2[a] - 1)
    x, k = x.reshape(shape_x), k.reshape(shape_k)
    rt = _e.result_type(in1, in2, _e.float32)
    if rt.kind == "c":
        ret = fft.ifftn(fft.fftn(x, fshape, axes=fax) *
                        fft.fftn(k, fshape, axes=fax), fshape, axes=fax)
    else:
        ret = fft.irfftn(fft.rfftn(x, fshape, axes=fax) *
                         fft.rfftn(k, fshape, axes=fax), fshape, axes=fax)
    # merge the block pairs from the last one back, so earlier positions
    # keep their numbers
    pos = len(rest) + len(whole)
    for j in range(len(blocked) - 1, -1, -1):
        a = blocked[j]
        ret = _overlap_add(ret, pos + j, steps[a], s2[a])
        n = s1[a] + s2[a] - 1
        ret = ret[(slice(None),) * (pos + j) + (slice(0, n),)]
    ret = _e.transpose(ret, [order.index(a) for a in range(in1.ndim)])
    ret = ret.astype(rt, copy=False)
    full = ret.shape
    if mode == "full":
        return ret
    if mode == "same":
        return _centered(ret, [s1[a] if a in axes else full[a]
                               for a in range(in1.ndim)])
    return _centered(ret, [s1[a] - s2[a] + 1 if a in axes else full[a]
                           for a in range(in1.ndim)])
