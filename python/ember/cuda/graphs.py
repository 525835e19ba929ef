"""CUDA graphs in two peers' spellings (docs/graphs.md).

CuPy's: ``stream.begin_capture()`` ... ``g = stream.end_capture()``,
``g.launch(stream)``, ``g.upload(stream)`` -- ember.Stream and ember.Graph
(python/ember/_ext/runtime/graph.c). PyTorch's: ``g = CUDAGraph()``,
``with ember.cuda.graph(g): ...``, ``g.replay()``, defined here on top of
CuPy's. Both run on cpu too, where a graph is the list of launches and
copies the stream was given, replayed without re-dispatch."""
from ember._ember import Graph, Stream, get_current_device

_MODES = ("global", "thread_local", "relaxed")


class CUDAGraph:
    """torch.cuda.CUDAGraph: a graph captured by ``with graph(g):`` (or
    capture_begin/capture_end), replayed by replay()."""

    def __init__(self):
        self._graph = None
        self._stream = None     # capturing now
        self._side = None       # the stream `graph()` captures on by default

    def capture_begin(self, pool=None, capture_error_mode="global",
                      stream=None):
        _check_args(pool, capture_error_mode)
        if self._graph is not None:
            raise RuntimeError("this CUDAGraph holds a captured graph already; "
                               "call reset() before capturing again")
        s = stream if stream is not None else _current_stream()
        s.begin_capture()
        self._stream = s

    def capture_end(self):
        if self._stream is None:
            raise RuntimeError("CUDAGraph.capture_end() without capture_begin()")
        s, self._stream = self._stream, None
        self._graph = s.end_capture()

    def replay(self):
        """Run the captured work on the current stream."""
        self._captured().launch()

    def upload(self, stream=None):
        self._captured().upload(stream)

    def reset(self):
        """Release the graph and the memory it held."""
        g, self._graph = self._graph, None
        if g is not None:
            g.release()

    def _captured(self):
        if self._graph is None:
            raise RuntimeError("the CUDAGraph has no captured graph: capture "
                               "one with `with ember.cuda.graph(g):` first")
        return self._graph

    def _side_stream(self):
        dev = get_current_device()
        if self._side is None or self._side.device != dev:
            # non-blocking: work on the legacy default stream neither waits
            # for the capture nor joins it
            self._side = Stream(non_blocking=True)
        return self._side


def _check_args(pool, capture_error_mode):
    if pool is not None:
        raise NotImplementedError(
            "ember.cuda.graph(pool=...): each ember graph holds the blocks "
            "allocated in its capture itself; sharing a pool between graphs is "
            "not supported")
    if capture_error_mode not in _MODES:
        raise ValueError("capture_error_mode must be one of %s, not %r"
                         % (", ".join(_MODES), capture_error_mode))


def _current_stream():
    from ember._ember import get_current_stream
    return get_current_stream()


class graph:
    """torch.cuda.graph(cuda_graph, pool=None, stream=None,
    capture_error_mode='global'): capture the block's work into cuda_graph,
    on `stream` or on a side stream of the graph's own, which is the current
    stream inside the block. The device is synchronized first, so the
    capture sees the work issued before it done."""

    Graph = Graph   # cupy.cuda.graph.Graph's name, for `graph.Graph`

    def __init__(self, cuda_graph, pool=None, stream=None,
                 capture_error_mode="global"):
        if not isinstance(cuda_graph, CUDAGraph):
            raise TypeError("ember.cuda.graph() takes an ember.cuda.CUDAGraph, "
                            "not %s" % type(cuda_graph).__name__)
        _check_args(pool, capture_error_mode)
        self.cuda_graph = cuda_graph
        self.stream = stream
        self.capture_error_mode = capture_error_mode

    def __enter__(self):
        g = self.cuda_graph
        s = self.stream if self.stream is not None else g._side_stream()
        get_current_device().synchronize()
        s.__enter__()
        try:
            g.capture_begin(stream=s)
        except BaseException:
            s.__exit__(None, None, None)
            raise
        self._s = s

    def __exit__(self, et, ev, tb):
        g, s = self.cuda_graph, self._s
        try:
            if g._stream is not None:
                if et is None:
                    g.capture_end()
                elif s.is_capturing():
                    # the block failed: drop what it recorded
                    g._stream = None
                    s.end_capture().release()
                else:
                    g._stream = None   # the runtime ended it (a refusal)
        finally:
            s.__exit__(et, ev, tb)
        return False
