"""ember.fusion and ember.fuse: the Python switches over automatic fusion
(issue 25, part 2; docs/fusion.md).

The C core records elementwise ufunc calls and runs each group as one
generated kernel when anything else touches memory (src/fuse/fuse.h).
This module only sets the per-thread switch the core reads and names the
kernel a fused function flushes; it never sees an expression.

The module lives in _api (not ember/fusion.py) because `ember.fusion` is
the context manager: a submodule of that name would be bound over it by
the first `import ember.fusion`."""
import functools
import numbers
import re
import threading

from ember import _ember

__all__ = ["fuse", "fusion"]


def _state_of(enabled):
    # the override values _fusion_state takes: 1 on, 0 off, -1 EMBER_FUSION's
    if enabled is None:
        return -1
    if enabled is True or enabled is False or enabled in (0, 1):
        return int(enabled)
    raise TypeError("ember.fusion(enabled=...) takes True, False or None "
                    "(EMBER_FUSION's setting), not %r" % (enabled,))


class fusion:
    """Turn automatic fusion on or off for this thread inside a `with`
    block or a decorated function; the previous setting comes back on exit.

    enabled: True records elementwise operations and runs them as one
    kernel when their value is needed; False runs each operation at once
    (eager, for debugging and timing); None follows EMBER_FUSION.
    Leaving the block does not run what was recorded inside it: it runs
    when its value is needed, as it would have."""

    def __init__(self, enabled=True):
        self._state = _state_of(enabled)
        # the settings to restore, a stack per thread: one object (a
        # module's `NO_FUSION = ember.fusion(False)`) may be entered by
        # several threads at once, and again while active on one
        self._saved = {}

    def __enter__(self):
        prev = _ember._fusion_state(self._state)
        self._saved.setdefault(threading.get_ident(), []).append(prev)
        return self

    def __exit__(self, *exc):
        me = threading.get_ident()
        stack = self._saved[me]
        _ember._fusion_state(stack.pop())
        if not stack:
            del self._saved[me]
        return False

    def __call__(self, func):
        # as a decorator each call enters its own object, so calls on
        # several threads do not share one stack of saved settings
        state = self._state

        @functools.wraps(func)
        def with_fusion(*args, **kwargs):
            prev = _ember._fusion_state(state)
            try:
                return func(*args, **kwargs)
            finally:
                _ember._fusion_state(prev)
        return with_fusion

    def __repr__(self):
        return "ember.fusion(enabled=%s)" % {1: "True", 0: "False",
                                             -1: "None"}[self._state]


# C keywords and the names CUDA and C compilers reserve: a function called
# `double` or `float` is legal Python but not a kernel name
_C_RESERVED = frozenset("""
auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof
static struct switch typedef union unsigned void volatile while bool true
false asm main""".split())
_MAX_NAME = 63          # src/fuse/fuse.h: em_fuse_flush_named's limit


def _kernel_name(name):
    """A C identifier from a Python name or kernel_name: `<lambda>` becomes
    `lambda`, other characters outside [A-Za-z0-9_] become `_` (CuPy 14
    hands `<lambda>` to the compiler as it is and fails)."""
    name = re.sub(r"^[^A-Za-z0-9_]+|[^A-Za-z0-9_]+$", "", str(name))
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not name:
        name = "fused"
    if name[0].isdigit() or name in _C_RESERVED:
        name = "_" + name
    return name[:_MAX_NAME]


class _Nesting(threading.local):
    depth = 0           # ember.fuse calls running on this thread


_nesting = _Nesting()
_ndarray = _ember.ndarray
_state, _pending, _flush = (_ember._fusion_state, _ember._fusion_pending,
                            _ember._fusion_flush)
_tape_begin, _tape_end, _replay = (_ember._fuse_tape_begin,
                                   _ember._fuse_tape_end, _ember._fuse_replay)
# what a taped call's other arguments may be: values baked into the tape,
# so part of its key (anything else, and the body runs every call)
_SCALARS = numbers.Number
_MAX_TAPES = 16         # per fused function: layouts and scalar values


def _tape_key(args):
    """The key of a call's layout of arguments beside the arrays' own (which
    the tape checks in C), each scalar by type and value, in place; and the
    arrays. (None, None) where a call cannot be taped."""
    key, arrays = [], []
    for a in args:
        if isinstance(a, _ndarray):
            key.append(None)
            arrays.append(a)
        elif isinstance(a, _SCALARS):
            key.append((type(a), a))
        else:
            return None, None
    return tuple(key), tuple(arrays)


class Fused:
    """What ember.fuse returns: func, run with fusion on and flushed as one
    kernel named kernel_name when called with ember arrays.

    The first call with a given layout of arrays (dtypes, shapes, strides,
    device, aliasing) and given scalar values runs func and, when func did
    nothing but elementwise operations on its array arguments (and one
    reduction of their result at the end), keeps a tape of what it
    recorded; later such calls rebuild that from the tape in C without
    running func, as cupy.fuse runs its function only to trace it. Python
    side effects of func then happen on the first call only."""

    def __init__(self, func, kernel_name=None):
        if not callable(func):
            raise TypeError("ember.fuse needs a function, not %s"
                            % type(func).__name__)
        self.func = func
        self.name = _kernel_name(kernel_name if kernel_name is not None
                                 else getattr(func, "__name__", "fused"))
        self._tapes = []    # (key, tape capsule)
        functools.update_wrapper(self, func)

    def __call__(self, *args, **kwargs):
        # (the call path of small arrays: plain loops, names bound once)
        for a in args:
            if isinstance(a, _ndarray):
                break
        else:
            # NumPy arrays and scalars only: the function itself, as
            # cupy.fuse does on host arrays
            if not any(isinstance(v, _ndarray) for v in kwargs.values()):
                return self.func(*args, **kwargs)
        # a fused function called from another joins the caller's kernel
        if _nesting.depth:
            return self.func(*args, **kwargs)
        # work recorded before the call runs under its own name, so the
        # named kernel holds exactly this function's elementwise part
        if _pending():
            _flush()
        key, arrays = (None, None) if kwargs else _tape_key(args)
        if key is not None:
            for k, tape in self._tapes:
                if k == key:
                    out = _replay(tape, arrays)
                    if out is not None:
                        if _pending():
                            _flush(self.name)
                        return out
        prev = _state(1)
        _nesting.depth = 1
        taping = key is not None and len(self._tapes) < _MAX_TAPES
        if taping:
            try:
                _tape_begin()
            except ValueError:
                taping = False  # another thread's group is open
        try:
            out = self.func(*args, **kwargs)
            if taping:
                taping = False
                tape = _tape_end(arrays, out)
                if tape is not None:
                    self._tapes.append((key, tape))
            # a reduction at the end has already run the elementwise part
            # (under a generated name); this runs what is still pending
            if _pending():
                _flush(self.name)
            return out
        finally:
            if taping:
                _tape_end(None, None)
            _nesting.depth = 0
            _state(prev)

    def __get__(self, obj, objtype=None):
        # a fused method: bound as a function defined in the class would be
        return self if obj is None else functools.partial(self, obj)

    def __repr__(self):
        return "<ember.fuse %s (kernel %s)>" % (
            getattr(self.func, "__qualname__", self.func), self.name)


def fuse(func=None, *, kernel_name=None):
    """cupy.fuse's spelling: `@ember.fuse`, `@ember.fuse()`,
    `ember.fuse(kernel_name="k")(f)` or `ember.fuse(lambda x, y: ...)`.

    Calling the result with ember arrays (and scalars) runs the function
    with fusion on for this thread, whatever EMBER_FUSION and
    ember.fusion say, then runs its elementwise operations as one kernel
    named kernel_name (the function's name by default, made a C
    identifier). Called with no ember array it is the plain function."""
    if func is None:
        return lambda f: Fused(f, kernel_name)
    return Fused(func, kernel_name)
