"""The ember.CompileError for a compiler's log: the extension raises it
(runtime/errors.c) with the compiler's message, its log and the kernel's
source; the first error line the log names is looked up in the source,
once per failed compile."""
import re

from ember import _ember

# NVRTC writes "name(12): error: ...", cc writes "name.c:12:5: error: ..."
_LINE = re.compile(r"[(:](\d+)(?=[):])")


def _error_line(log):
    """The first line number an error line of the log names; 0 if none."""
    for text in log.split("\n"):
        at = text.find("error")
        if at >= 0:
            for m in _LINE.finditer(text[:at]):
                if int(m.group(1)) > 0:
                    return int(m.group(1))
    return 0


def _source_line(source, n):
    """Line n (1-based) of source without its newline; None past the end."""
    lines = source.split("\n")
    if n > len(lines) or (n == len(lines) and not lines[-1]):
        return None
    return lines[n - 1]


def compile_error(msg, log, source):
    """The exception: msg (with the source line of the first error, when
    the log names one), .log, .lineno and .source_line."""
    log = log or msg
    lineno = _error_line(log)
    line = _source_line(source, lineno) if lineno and source is not None else None
    e = _ember.CompileError(msg if line is None else
                            "%s\n  at line %d: %s" % (msg, lineno, line.strip()))
    e.log, e.lineno, e.source_line = log, lineno or None, line
    return e
