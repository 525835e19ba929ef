"""cuda.core's Stream and Event (with StreamOptions and EventOptions) over
ember.Stream and ember.Event."""
from dataclasses import dataclass
from typing import Optional

import ember
from ._graph import GraphBuilder

__all__ = ["Stream", "StreamOptions", "Event", "EventOptions"]


@dataclass
class StreamOptions:
    nonblocking: bool = True
    priority: Optional[int] = None


@dataclass
class EventOptions:
    enable_timing: bool = False
    busy_waited_sync: bool = False
    support_ipc: bool = False


def _ember_stream(s):
    """An ember.Stream for a cuda.core Stream, an ember.Stream or None."""
    if s is None or isinstance(s, ember.Stream):
        return s
    if isinstance(s, Stream):
        return s._s
    if isinstance(s, GraphBuilder):   # launch(builder, ...): recorded
        return s._s
    if hasattr(s, "__cuda_stream__"):   # another library's stream
        return _adopt_protocol(s)
    raise TypeError("expected a Stream or an object with __cuda_stream__, "
                    "not %s" % type(s).__name__)


def _adopt_protocol(obj, device=None):
    """The ember.Stream of obj's __cuda_stream__ (version, handle): cuda.core's
    stream protocol, a method or an attribute."""
    proto = getattr(obj, "__cuda_stream__", None)
    if proto is None:
        raise TypeError("%s has no __cuda_stream__" % type(obj).__name__)
    info = proto() if callable(proto) else proto
    return ember.Stream._adopt(int(info[1]), device)


class Stream:
    """A queue of work on one device (Device.create_stream())."""

    def __init__(self):
        raise RuntimeError("Stream objects come from Device.create_stream() "
                           "or Device.default_stream")

    @classmethod
    def _wrap(cls, s, device):
        obj = object.__new__(cls)
        obj._s, obj._device, obj._nonblocking = s, device, False
        return obj

    @classmethod
    def _adopt(cls, device, obj):
        """Device.create_stream(obj): a stream of obj's __cuda_stream__
        (version, handle), kept alive by its owner."""
        s = _adopt_protocol(obj, device._dev)
        obj2 = cls._wrap(s, device)
        obj2._nonblocking = s.non_blocking
        obj2._owner = obj   # the foreign stream lives at least as long
        return obj2

    @classmethod
    def _create(cls, device, options):
        opts = options if options is not None else StreamOptions()
        obj = cls._wrap(ember.Stream(non_blocking=bool(opts.nonblocking),
                                     device=device._dev,
                                     priority=opts.priority), device)
        obj._nonblocking = bool(opts.nonblocking)
        return obj

    @property
    def handle(self):
        return self._s.ptr

    @property
    def device(self):
        return self._device

    @property
    def is_nonblocking(self):
        return self._nonblocking

    @property
    def priority(self):
        return self._s.priority

    def __cuda_stream__(self):
        return (0, self.handle)

    def sync(self):
        self._s.synchronize()

    def create_graph_builder(self):
        """A GraphBuilder recording launches into a graph."""
        return GraphBuilder._create(self)

    def record(self, event=None, options=None):
        """Record event (a new one made with options when None) at the
        stream's current end; returns it."""
        if event is None:
            event = Event._create(self._device, options)
        elif not isinstance(event, Event):
            raise TypeError("record(): an Event, not %s" % type(event).__name__)
        event._e.record(self._s)
        return event

    def wait(self, event_or_stream):
        """Make later work on this stream wait for an event, or for all
        work now queued on another stream."""
        if isinstance(event_or_stream, Event):
            e = event_or_stream._e
        else:
            e = _ember_stream(event_or_stream).record()
        self._s.wait_event(e)

    def close(self):
        self._s = None

    def __eq__(self, other):
        return isinstance(other, Stream) and other._s == self._s

    def __hash__(self):
        return hash(self._s)

    def __repr__(self):
        return "<Stream %#x on %s>" % (self.handle, self._device._dev)


class Event:
    """A point in a stream (Stream.record(), Device.create_event()).
    end - start is the milliseconds between two events with timing."""

    def __init__(self):
        raise RuntimeError("Event objects come from Stream.record() or "
                           "Device.create_event()")

    @classmethod
    def _create(cls, device, options):
        opts = options if options is not None else EventOptions()
        if opts.support_ipc:
            raise NotImplementedError("EventOptions(support_ipc=True): ember "
                                      "events are not shared between "
                                      "processes")
        obj = object.__new__(cls)
        obj._opts = opts
        obj._device = device
        obj._e = ember.Event(block=not opts.busy_waited_sync,
                             disable_timing=not opts.enable_timing,
                             device=device._dev)
        return obj

    @property
    def is_timing_disabled(self):
        return not self._opts.enable_timing

    @property
    def is_sync_busy_waited(self):
        return self._opts.busy_waited_sync

    @property
    def is_ipc_supported(self):
        return False

    @property
    def is_done(self):
        return self._e.query()

    @property
    def device(self):
        return self._device

    def sync(self):
        self._e.synchronize()

    def __sub__(self, other):
        if not isinstance(other, Event):
            return NotImplemented
        if self.is_timing_disabled or other.is_timing_disabled:
            raise RuntimeError("event2 - event1 needs both events made with "
                               "EventOptions(enable_timing=True)")
        return ember.get_elapsed_time(other._e, self._e)

    def close(self):
        self._e = None
