"""NumPy's floating-point error state: seterr, geterr, seterrcall,
geterrcall, errstate, setbufsize and getbufsize, with NumPy's defaults,
checks and return values, held per thread and per asyncio task (a context
variable, as NumPy 2 holds its own).

ember keeps the state but its kernels do not consult it: a division by
zero or an overflow gives the IEEE result (inf, nan, a wrapped integer)
and never warns, raises or calls, on every device, as CuPy's kernels on
the GPU. Checking would cost a flag per element on the hot path. The
buffer size sizes nothing in ember (it has no NumPy-style ufunc buffers).
NumPy's own state is separate (numpy.seterr does not change this one)."""
import contextvars
import operator

_MODES = ("ignore", "warn", "raise", "call", "print", "log")
_KINDS = ("divide", "over", "under", "invalid")
_DEFAULT = {"divide": "warn", "over": "warn", "under": "ignore",
            "invalid": "warn", "call": None, "bufsize": 8192}
_state = contextvars.ContextVar("ember_errstate", default=_DEFAULT)


def _with_modes(old, all, divide, over, under, invalid):
    new = dict(old)
    given = {"divide": divide, "over": over, "under": under, "invalid": invalid}
    for kind in _KINDS:
        mode = given[kind] if given[kind] is not None else all
        if mode is None:
            continue
        if mode not in _MODES:
            raise ValueError(f"invalid error mode {mode!r}")
        new[kind] = mode
    return new


def _check_call(func):
    if func is not None and not callable(func) and \
            not callable(getattr(func, "write", None)):
        raise TypeError("python object must be callable or have a callable "
                        "write method")
    return func


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Set how each kind of floating-point error would be treated; the
    previous settings are returned (see the module's note: ember's kernels
    do not act on them)."""
    old = _state.get()
    _state.set(_with_modes(old, all, divide, over, under, invalid))
    return {k: old[k] for k in _KINDS}


def geterr():
    s = _state.get()
    return {k: s[k] for k in _KINDS}


def seterrcall(func):
    old = _state.get()
    _state.set(dict(old, call=_check_call(func)))
    return old["call"]


def geterrcall():
    return _state.get()["call"]


def setbufsize(size):
    if size < 0:
        raise ValueError("buffer size must be non-negative")
    size = operator.index(size)
    if size < 5:
        raise ValueError(f"Buffer size, {size}, is too small")
    if size % 16:
        raise ValueError(f"Buffer size, {size}, is not a multiple of 16")
    if size > 10_000_000:
        raise ValueError(f"Buffer size, {size}, is too big")
    old = _state.get()
    _state.set(dict(old, bufsize=size))
    return old["bufsize"]


def getbufsize():
    return _state.get()["bufsize"]


_UNSET = object()


class errstate:
    """with ember.errstate(divide='ignore'): ... (or as a decorator): the
    settings hold inside the block and the previous ones, buffer size
    included, come back after it."""

    def __init__(self, *, call=_UNSET, all=None, divide=None, over=None,
                 under=None, invalid=None):
        self._call = call
        self._modes = (all, divide, over, under, invalid)
        _with_modes(_DEFAULT, *self._modes)    # bad modes fail here, as NumPy's
        if call is not _UNSET:
            _check_call(call)
        self._token = None

    def __enter__(self):
        if self._token is not None:
            raise TypeError("Cannot enter `ember.errstate` twice.")
        new = _with_modes(_state.get(), *self._modes)
        if self._call is not _UNSET:
            new["call"] = self._call
        self._token = _state.set(new)

    def __exit__(self, *exc):
        _state.reset(self._token)
        self._token = None

    def __call__(self, func):
        import functools

        @functools.wraps(func)
        def inner(*args, **kwargs):
            # a fresh context manager per call, so recursion and threads work
            with errstate(call=self._call, all=self._modes[0],
                          divide=self._modes[1], over=self._modes[2],
                          under=self._modes[3], invalid=self._modes[4]):
                return func(*args, **kwargs)
        return inner
