"""ember.cuda.stream: two peers' spellings under one name.

CuPy has a module, ``cupy.cuda.stream``, holding ``Stream``, ``Event``,
``get_current_stream`` and ``get_elapsed_time``; Numba has a function,
``numba.cuda.stream()``, that makes a new stream. This module is both: its
names are CuPy's, and calling it is Numba's call. The objects are ember's
own (python/ember/_ext/runtime/stream.c)."""
import sys as _sys
import types as _types

from ember._ember import Stream, Event, get_current_stream, get_current_device


class _StreamModule(_types.ModuleType):
    def __call__(self):
        """Numba's cuda.stream(): a new Stream on the current device."""
        return Stream()


def ExternalStream(ptr, device_id=-1):
    """CuPy's ExternalStream: an ember Stream for a native stream handle
    (an int, as Stream.ptr and torch.cuda.Stream.cuda_stream give). One of
    ember's own streams' handle gives that stream (kept alive while this
    one is). On a GPU any other CUstream of the device's context is
    wrapped: ember queues work on it and never destroys it, so its owner
    must keep it alive meanwhile. 0 is the default stream. device_id -1:
    the current device; else that device (ember.Device(device_id))."""
    return Stream._adopt(int(ptr), None if device_id == -1 else device_id)


def _stream_protocol(s):
    """Stream.__cuda_stream__(): the CUDA stream protocol's (version 0,
    native handle); the handle is 0 for a device's default stream, as
    Stream.ptr is. On the cpu device it is ember's host stream, which only
    ember (ExternalStream, Stream.from_external) can take back."""
    return (0, s.ptr)


def _stream_from_external(cls, obj):
    """Stream.from_external(obj): the ember Stream of obj's CUDA stream
    protocol (obj.__cuda_stream__(), a method or an attribute, giving
    (version, handle)). obj is kept alive as long as the Stream is, so its
    stream is not destroyed under ember's work."""
    proto = getattr(obj, "__cuda_stream__", None)
    if proto is None:
        raise TypeError("Stream.from_external needs an object with "
                        "__cuda_stream__ (the CUDA stream protocol), not %s"
                        % type(obj).__name__)
    info = proto() if callable(proto) else proto
    if not isinstance(info, tuple) or len(info) != 2:
        raise TypeError("%s.__cuda_stream__ must give (version, handle), not "
                        "%r" % (type(obj).__name__, info))
    if type(obj) is Stream:
        return obj
    return Stream._adopt(int(info[1]), None, obj)


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


def _stream_repr(s):
    if s is Stream.null:
        return "<ember.Stream null>"
    # ptr is 0 for a device's default stream
    return "<ember.Stream %#x on %s%s>" % (s.ptr, s.device, "" if s.ptr else " (default)")


def _event_repr(e):
    return "<ember.Event %#x on %s>" % (id(e), e.device)


def _event_wait(e, stream=None):
    """Event.wait(stream=None), Numba's spelling: later work on the stream
    waits for this event. None (or Numba's 0) is the current stream when the
    event's device is current, else that device's default stream."""
    if type(stream) is int and stream == 0:
        stream = None
    if stream is not None and type(stream) is not Stream:
        raise TypeError("stream must be an ember.Stream or None, not %s"
                        % type(stream).__name__)
    if stream is None and get_current_device() == e.device:
        stream = get_current_stream()
    if stream is None or stream is Stream.null:
        with e.device:   # Stream.null is the current device's default stream
            Stream.null.wait_event(e)
    elif stream.device != e.device:
        raise ValueError("the stream is on %s but the work is on %s"
                         % (stream.device, e.device))
    else:
        stream.wait_event(e)


_sys.modules[__name__].__class__ = _StreamModule

__all__ = ["Stream", "Event", "get_current_stream", "get_elapsed_time",
           "ExternalStream"]
