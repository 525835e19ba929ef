"""Compile errors of Python kernels: ember.CompileError naming the
construct and the file:line of the user's code."""
from ember._ember import CompileError


class Where:
    """The file and the line offset of a function's source."""
    __slots__ = ("filename", "first_line", "lines")

    def __init__(self, filename, first_line, lines):
        self.filename = filename
        self.first_line = first_line   # file line of the snippet's line 1
        self.lines = lines             # the snippet's lines, for messages

    def line(self, node):
        return self.first_line + getattr(node, "lineno", 1) - 1

    def source_line(self, node):
        i = getattr(node, "lineno", 1) - 1
        return self.lines[i].strip() if 0 <= i < len(self.lines) else None


def compile_error(where, node, message):
    """A CompileError for `node`: "message (file.py:12)", with .lineno,
    .filename and .source_line set."""
    line = where.line(node)
    err = CompileError("%s (%s:%d)" % (message, where.filename, line))
    err.lineno = line
    err.filename = where.filename
    err.source_line = where.source_line(node)
    return err
