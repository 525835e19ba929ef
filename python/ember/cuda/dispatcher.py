"""ember.cuda.jit: Numba-CUDA's decorator. Its arguments are read once per
kernel, so they are read here; the Dispatcher's launch path (k[g, b](...):
argument codes, specialisation lookup, packing, em_launch) is the C base
class, _ember._Dispatcher (python/ember/_ext/jit/)."""
import operator
import os
import types

from ember import _ember
from ember.cuda import compilelog
from ember._ember import _LaunchConfig as LaunchConfig

__all__ = ["jit", "Dispatcher", "DeviceFunction", "LaunchConfig"]

_FORALL_BLOCK = 256   # no occupancy query yet: enough to fill every SM


def _options(debug, fastmath, lineinfo, cache, opt):
    return {"debug": debug, "fastmath": fastmath, "lineinfo": lineinfo,
            "cache": cache, "opt": opt}


def _accepts(want, have):
    """Whether an argument of code `have` may use a parameter compiled for
    `want`: the same array dtype and ndim with a layout the kernel accepts,
    or a scalar NumPy's same_kind casting takes (integers of either sign
    alike: the value is range-checked when packed)."""
    if want == have:
        return True
    if want[0] == "A" and have[0] != "A":
        # an integer for a 1-d parameter of any layout is an address:
        # Numba's CPointer, passed as x.__cuda_array_interface__["data"][0]
        return want[-3:-1] == "_1" and want[-1] != "C" and have[0] in "iu"
    if want[0] == "A" or have[0] == "A":
        return want[0] == have[0] and want[:-1] == have[:-1] and (
            want[-1] != "C" or have[-1] == "C")
    w, h = want[0], have[0]
    return (h == "b" or (h in "iu" and w != "b") or (h == "f" and w in "fc") or
            (h not in "biuf" and w == "c"))


class Dispatcher(_ember._Dispatcher):
    """What @cuda.jit makes: k[griddim, blockdim, stream, sharedmem] is a
    LaunchConfig, and calling that launches the kernel."""

    def __init__(self, py_func, sigs, fastmath, lineinfo, opt, max_registers, *,
                 debug, cache, boundscheck):
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self.targetoptions = _options(debug, fastmath, lineinfo, cache, opt)
        self._sigs = sigs
        self._debug = debug
        self._boundscheck = boundscheck
        self._identity = None if not cache else (
            "debug=%d fastmath=%d lineinfo=%d opt=%d maxreg=%d boundscheck=%d"
            % (debug, fastmath, lineinfo, opt, max_registers,
               -1 if boundscheck is None else boundscheck))
        self._translations = {}     # (target, argcodes) -> translation
        self._phases = {}           # (target, argcodes) -> translator's times
        if sigs is not None:
            from ember._progress import waiting
            with waiting("compiling %s (%d signature%s)" % (
                    self.__name__, len(sigs), "" if len(sigs) == 1 else "s")):
                self._precompile()      # as Numba compiles at decoration

    def _translation(self, argcodes, target):
        """(source, name, sites, shared_dynamic) for argcodes on target: the
        C calls this on a specialisation miss."""
        key = (target, argcodes)
        t = self._translations.get(key)
        if t is None:
            from ember.cuda import jitcache
            t = jitcache.translation(self.py_func, argcodes, target, self._debug,
                                     self._boundscheck, self._identity)
            self._translations[key] = t
            self._phases[key] = compilelog.take()
        return t

    def _compiled(self, argcodes, target, seconds, source_bytes):
        """The C, once per specialisation built: the compile's (or the kernel
        cache's) time, joined to the translator's phases."""
        phases = self._phases.pop((target, argcodes), None) or {}
        phases["compile"] = seconds
        compilelog.record(self.__name__, target, argcodes, phases, source_bytes)

    def _explicit(self, have):
        """The argcodes of the signature that takes a call of codes `have`
        (the newest first, as compiled): the C calls this on a miss."""
        for want in reversed(self._sigs):
            if all(map(_accepts, want, have)):
                return want
        raise TypeError("kernel '%s': no matching definition for argument types %r "
                        "(compiled for %r)" % (self.__name__, have, self._sigs))

    def __call__(self, *args, **kwargs):
        raise TypeError("kernel '%s' is launched with a configuration: "
                        "k[griddim, blockdim](...) or k.forall(n)(...)" % self.__name__)

    def __repr__(self):
        return "<ember.cuda.Dispatcher '%s'>" % self.__name__

    @property
    def signatures(self):
        """The explicit signatures as argcode tuples ([] when specialised on
        calls)."""
        return list(self._sigs or [])

    def _sources(self):
        return {key[1]: t[0] for key, t in self._translations.items()}

    @property
    def overloads(self):
        """{argcodes: translated source} of every specialisation so far."""
        from ember.jit.overloads import overloads
        return overloads(self, self._sources())

    definitions = overloads

    def inspect_source(self, argcodes=None, target=None):
        """The translated C of one specialisation (argcodes like ('Af4_1C',
        'i8')), or {argcodes: source}."""
        if argcodes is None:
            return self._sources()
        codes = tuple(argcodes)
        if target is not None and not isinstance(target, str):
            raise TypeError("target must be 'cpu' or 'cuda'")
        for t in (target,) if target is not None else ("cpu", "cuda"):
            found = self._translations.get((t, codes))
            if found is not None:
                return found[0]
        raise KeyError("kernel '%s' has no specialisation for %r" % (self.__name__, codes))

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A 1-D launch of at least ntasks threads (256 per block unless tpb
        says)."""
        ntasks, tpb = operator.index(ntasks), operator.index(tpb)
        if ntasks < 0 or tpb < 0 or tpb > 1024:
            raise ValueError("forall(ntasks=%d, tpb=%d): ntasks must be >= 0 and tpb "
                             "0 (choose) to 1024" % (ntasks, tpb))
        block = tpb or _FORALL_BLOCK
        grid = -(-ntasks // block)
        if grid > 0xffffffff:
            raise ValueError("forall(%d) needs more than 2**32-1 blocks" % ntasks)
        return self._config(grid or 1, block, stream, sharedmem, ntasks == 0)

    def configure(self, griddim, blockdim, stream=None, sharedmem=None):
        """Numba's older spelling of k[griddim, blockdim, stream, sharedmem]."""
        if sharedmem is not None:
            return self[griddim, blockdim, stream, sharedmem]
        if stream is not None:
            return self[griddim, blockdim, stream]
        return self[griddim, blockdim]


class DeviceFunction:
    """A function compiled into the kernels that call it (jit(device=True));
    the translator inlines .py_func."""
    device = True
    _ember_device = True

    def __init__(self, py_func, sigs, options):
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self._sigs = sigs
        self.targetoptions = options

    @property
    def signatures(self):
        """The signatures given to jit, as written."""
        return list(self._sigs or [])

    def _refuse(self, *args, **kwargs):
        raise TypeError("'%s' is a device function (jit(device=True)): call it from a "
                        "kernel, it cannot be launched or called from Python (its Python "
                        "function is .py_func)" % self.__name__)

    __call__ = __getitem__ = _refuse

    def __repr__(self):
        return "<ember.cuda.DeviceFunction %r>" % (self.py_func,)


for _cls in (Dispatcher, DeviceFunction):
    _cls.__module__ = "ember.cuda"


def _boundscheck(given):
    # $EMBER_BOUNDSCHECK=0|1 wins over boundscheck=, as NUMBA_BOUNDSCHECK does
    env = os.environ.get("EMBER_BOUNDSCHECK")
    if env in ("0", "1"):
        return env == "1"
    return None if given is None else bool(given)


def _make(func, sigs, device, debug, fastmath, lineinfo, cache, opt, max_registers,
          link, boundscheck):
    if not isinstance(func, types.FunctionType):
        raise TypeError("jit needs a Python function, not %s" % type(func).__name__)
    if link:
        # the files ember.jit.translate appends for the cuda.declare_device
        # functions the kernel calls
        func.__ember_link__ = link
    if device:
        return DeviceFunction(func, sigs, _options(debug, fastmath, lineinfo, cache, opt))
    codes = None
    if sigs is not None:
        from ember.jit import parse_signature
        nargs = func.__code__.co_argcount
        codes = []
        for sig in sigs:
            c = tuple(parse_signature(sig))
            if len(c) != nargs:
                raise TypeError("kernel '%s' has %d parameters but the signature %r "
                                "gives %d" % (func.__name__, nargs, sig, len(c)))
            codes.append(c)
    return Dispatcher(func, codes, fastmath, lineinfo, opt, max_registers, debug=debug,
                      cache=cache, boundscheck=_boundscheck(boundscheck))


def jit(func_or_sig=None, *, device=False, debug=False, fastmath=False, lineinfo=False,
        cache=True, opt=True, max_registers=None, inline=None, link=None,
        boundscheck=None):
    """jit(func=None, *, device=False, debug=False, fastmath=False,
    lineinfo=False, cache=True, opt=True, boundscheck=None), also
    jit('void(float32[:], int32)') or a list of signatures: a Python kernel
    (ember.cuda.jit). inline= is accepted and ignored: device functions are
    always compiled into their callers."""
    flags = [bool(v) for v in (device, debug, fastmath, lineinfo, cache, opt)]
    maxreg = 0
    if max_registers is not None:
        maxreg = operator.index(max_registers)
        if not 1 <= maxreg <= 255:
            raise ValueError("max_registers must be 1 to 255, got %d" % maxreg)
    if link is not None and link:
        from ember.cuda.ffi import link_paths   # checked now, as Numba does
        link = link_paths(link)
    else:
        link = None
    sigs = None
    if func_or_sig is not None and not isinstance(func_or_sig, types.FunctionType):
        from ember.jit import signature_strings
        sigs = signature_strings(func_or_sig)
        if not isinstance(sigs, list):
            raise TypeError("ember.jit.signature_strings must return a list")
        func_or_sig = None

    def decorate(func):
        return _make(func, sigs, *flags, maxreg, link, boundscheck)
    return decorate if func_or_sig is None else decorate(func_or_sig)
