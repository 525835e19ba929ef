"""cuda.core's GraphBuilder and Graph over ember's stream capture
(docs/graphs.md): Stream.create_graph_builder() records, between
begin_building() and end_building(), the work that launch(builder, ...)
queues, on a side stream of the builder's own; complete() gives the Graph,
which upload() and launch() take to any stream of the device. On cpu a
graph is the recorded launches, replayed without re-dispatch."""
import ember

__all__ = ["GraphBuilder", "Graph"]

_MODES = ("global", "thread_local", "relaxed")


class GraphBuilder:
    """Records launches into a graph (Stream.create_graph_builder())."""

    def __init__(self):
        raise RuntimeError("GraphBuilder objects come from "
                           "Stream.create_graph_builder()")

    @classmethod
    def _create(cls, stream):
        obj = object.__new__(cls)
        obj._parent = stream
        # non-blocking: work on the legacy default stream neither waits for
        # the recording nor joins it
        obj._s = ember.Stream(non_blocking=True, device=stream.device._dev)
        obj._graph = None
        return obj

    @property
    def stream(self):
        """The cuda.core Stream the work is recorded on."""
        from ._stream import Stream
        return Stream._wrap(self._s, self._parent.device)

    @property
    def is_building(self):
        return self._s is not None and self._s.is_capturing()

    def begin_building(self, mode="relaxed"):
        if mode not in _MODES:
            raise ValueError("begin_building(): mode must be one of %s, not %r"
                             % (", ".join(_MODES), mode))
        if self._graph is not None or self.is_building:
            raise RuntimeError("begin_building(): this builder has built or is "
                               "building a graph already")
        self._s.begin_capture(mode=_MODES.index(mode))  # cudaStreamCaptureMode
        return self

    def end_building(self):
        if not self.is_building:
            raise RuntimeError("end_building() without begin_building()")
        self._graph = self._s.end_capture()
        return self

    def complete(self, options=None):
        """The Graph of the recorded work, for launch() and upload()."""
        if self._graph is None:
            raise RuntimeError("complete(): end_building() first")
        return Graph._wrap(self._graph)

    def close(self):
        if self.is_building:
            self._s.end_capture().release()
        self._s = None


class Graph:
    """An executable graph (GraphBuilder.complete())."""

    def __init__(self):
        raise RuntimeError("Graph objects come from GraphBuilder.complete()")

    @classmethod
    def _wrap(cls, g):
        obj = object.__new__(cls)
        obj._g = g
        return obj

    def upload(self, stream):
        from ._stream import _ember_stream
        self._live().upload(_ember_stream(stream))

    def launch(self, stream):
        from ._stream import _ember_stream
        self._live().launch(_ember_stream(stream))

    def close(self):
        g, self._g = self._g, None
        if g is not None:
            g.release()

    def _live(self):
        if self._g is None:
            raise RuntimeError("the Graph was closed")
        return self._g
