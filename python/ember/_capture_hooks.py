"""Callbacks run just before a stream begins and before it ends a graph
capture (python/ember/_ext/runtime/graph.c calls run(stream)).

A layer that holds work back instead of issuing it at once (automatic
fusion records expressions and launches them when their value is needed)
registers a callback that issues what it holds for that stream's device:
before begin_capture, so work written before the capture stays out of the
graph; before end_capture, so work written inside the capture is in it.
docs/graphs.md states the rule."""

hooks = []


def run(stream):
    for hook in tuple(hooks):
        hook(stream)
