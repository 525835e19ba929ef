"""ember.cuda.stream: two peers' spellings under one name.

CuPy has a module, ``cupy.cuda.stream``, holding ``Stream``, ``Event``,
``get_current_stream`` and ``get_elapsed_time``; Numba has a function,
``numba.cuda.stream()``, that makes a new stream. This module is both: its
names are CuPy's, and calling it is Numba's call. The objects are ember's
own (python/ember/_ext/runtime/stream.c)."""
import sys as _sys
import types as _types

from ember._ember import Stream, Event, get_current_stream


class _StreamModule(_types.ModuleType):
    def __call__(self):
        """Numba's cuda.stream(): a new Stream on the current device."""
        return Stream()


def ExternalStream(ptr, device_id=-1):
    """CuPy's ExternalStream wraps a foreign CUstream, which ember's runtime
    cannot adopt: say so rather than hand back a stream that is not it."""
    raise NotImplementedError(
        "ember.cuda.stream.ExternalStream(%#x): ember cannot adopt a stream it "
        "did not create; make one with ember.cuda.Stream()" % int(ptr))


def default_stream():
    """Numba's cuda.default_stream(): the default stream (Stream.null)."""
    return Stream.null


def event(timing=True):
    """Numba's cuda.event(): a new Event on the current device."""
    return Event(disable_timing=not timing)


def get_elapsed_time(start, end):
    """get_elapsed_time(start, end) -> milliseconds between two recorded
    events of one device (ember.get_elapsed_time)."""
    if type(start) is not Event or type(end) is not Event:
        raise TypeError("get_elapsed_time(start, end) takes two ember.Event objects")
    # the end may still be pending; waiting for it here saves every caller
    # an end.synchronize() and cannot change the answer
    end.synchronize()
    return start.elapsed_time(end)


def event_elapsed_time(evtstart, evtend):
    """Numba's cuda.event_elapsed_time: milliseconds between two recorded
    events."""
    if type(evtstart) is not Event or type(evtend) is not Event:
        raise TypeError("event_elapsed_time(evtstart, evtend) takes two ember "
                        "Events")
    return evtstart.elapsed_time(evtend)


def _done(s):
    """Stream.done and Event.done: query() read as a property."""
    return s.query()


_sys.modules[__name__].__class__ = _StreamModule

__all__ = ["Stream", "Event", "get_current_stream", "get_elapsed_time",
           "ExternalStream"]
