"""ember's exception classes, which the extension raises (runtime/errors.c
takes them from here when it loads): CUDAError, CompileError and
BackendUnavailableError, ember's own, and ember's classes of NumPy's.

ember.AxisError must be caught by `except numpy.exceptions.AxisError`,
but `import ember` imports no NumPy.
So each class comes in two: a base class made here with the builtin bases
NumPy's has, and, once NumPy is loaded, a class derived from both the base
and NumPy's. ember raises (and warns with) the derived class whenever
NumPy is in sys.modules, the base class otherwise; then every handler
works: one written with NumPy's class can only run once NumPy is
imported, and one written with ember's (whichever of the two it got)
catches both. The extension asks `current` for the class to raise
(runtime/errors.c); ember.AxisError is the package's __getattr__, which
asks `by_name`. Nothing here imports NumPy."""
import sys


class CUDAError(RuntimeError):
    """A CUDA driver call failed. `.code` is the CUresult, `.name` its
    symbolic name; the message names the call."""
    __module__ = "ember"
    code = 0
    name = ""

    @classmethod
    def _from_c(cls, msg, code, name):
        # the extension's raise (runtime/errors.c), with the driver's result
        e = cls(msg)
        e.code, e.name = code, name
        return e


class StreamCaptureError(RuntimeError):
    """An operation a graph capture cannot record (a synchronize, a host
    read, a copy from pageable memory, a kernel compile) was issued while a
    stream captured. The capture is ended and its graph dropped, so the
    stream is usable again; the message names the operation and the stream."""
    __module__ = "ember"


class CompileError(RuntimeError):
    """A compiler rejected kernel source. `.log` is the compiler's log;
    `.lineno` and `.source_line` point at the first error in the source,
    when the log names one."""
    __module__ = "ember"
    log = ""
    lineno = None
    source_line = None

    @classmethod
    def _from_c(cls, msg):
        # the extension's raise of a failure whose message is the log
        e = cls(msg)
        e.log = msg
        return e


class BackendUnavailableError(RuntimeError):
    """A library, driver or device that the operation needs is missing; the
    message says which and how to get it."""
    __module__ = "ember"

# name, doc, builtin bases, NumPy's module of it (by the extension's
# numbering, runtime/errors.h)
_SPECS = (
    ("AxisError", "An axis argument out of range for the array (a ValueError "
     "and an IndexError, as NumPy's).", (ValueError, IndexError), "numpy.exceptions"),
    ("ComplexWarning", "A complex value cast to a real type: the imaginary part "
     "is lost.", (RuntimeWarning,), "numpy.exceptions"),
    ("DTypePromotionError", "Two dtypes have no common dtype.", (TypeError,),
     "numpy.exceptions"),
    ("TooHardError", "max_work was exceeded (shares_memory).", (RuntimeError,),
     "numpy.exceptions"),
    ("VisibleDeprecationWarning", "A deprecation shown by default.", (UserWarning,),
     "numpy.exceptions"),
    ("RankWarning", "A least-squares fit is poorly conditioned.", (RuntimeWarning,),
     "numpy.exceptions"),
    ("LinAlgError", "A matrix the linear-algebra function cannot take: singular, "
     "not positive definite, or no convergence (a ValueError, as NumPy's).",
     (ValueError,), "numpy.linalg"),
)


def _module(np_module):
    # ember.linalg holds LinAlgError; ember the others
    return "ember.linalg" if np_module == "numpy.linalg" else "ember"


_base = [type(name, bases, {"__doc__": doc, "__module__": _module(mod)})
         for name, doc, bases, mod in _SPECS]
_derived = [None] * len(_SPECS)

# ember.X only for numpy.exceptions' classes
names = tuple(s[0] for s in _SPECS if s[3] == "numpy.exceptions")


def current(which):
    """The class to raise now for NumPy's class number `which`."""
    if _derived[which] is None:
        name, doc, _, mod = _SPECS[which]
        np_cls = getattr(sys.modules.get(mod), name, None)
        if np_cls is None:     # NumPy not loaded, or too old to have it
            return _base[which]
        _derived[which] = type(name, (_base[which], np_cls),
                               {"__doc__": doc, "__module__": _module(mod)})
    return _derived[which]


def by_name(name):
    """The class ember raises now for NumPy's class of that name."""
    for i, spec in enumerate(_SPECS):
        if spec[0] == name:
            return current(i)
    raise AttributeError("module 'ember' has no attribute '%s'" % name)


def _install(ext):
    """Called by the extension as it loads (runtime/errors.c): puts ember's
    classes and the lookups of NumPy's on it and returns what it keeps."""
    for cls in (CUDAError, CompileError, BackendUnavailableError,
                StreamCaptureError):
        setattr(ext, cls.__name__, cls)
    ext._np_exception, ext._np_exception_names = by_name, names
    return (CUDAError, CompileError, BackendUnavailableError, current,
            StreamCaptureError)
