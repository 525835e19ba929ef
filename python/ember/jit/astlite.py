"""The ast module as the translator uses it, without importing ast: its
node classes are _ast's own (the same objects ast re-exports), and the
few helpers here are small; ast's import (enum, contextlib and its own
body) was a third of the translator's import on a kernel's first call.
dump and unparse, used on rarer paths, import the real module then."""
import _ast
from _ast import AST, PyCF_ONLY_AST

globals().update((k, v) for k, v in vars(_ast).items() if not k.startswith("_"))
if not hasattr(_ast, "Index"):
    class Index:
        """Never made by Python 3.9+'s parser (ast.Index is deprecated there),
        so isinstance(x, Index) is false, as with ast's."""

_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def parse(source):
    return compile(source, "<unknown>", "exec", PyCF_ONLY_AST)


def iter_child_nodes(node):
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, AST):
            yield value
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, AST):
                    yield item


def walk(node):
    """Every node under node, node first, breadth first as ast.walk."""
    todo = [node]
    i = 0
    while i < len(todo):
        n = todo[i]
        i += 1
        todo.extend(iter_child_nodes(n))
        yield n


def copy_location(new, old):
    for attr in _LOCATION:
        if attr in new._attributes and getattr(old, attr, None) is not None:
            setattr(new, attr, getattr(old, attr))
    return new


def dump(node, *args, **kwargs):
    import ast
    return ast.dump(node, *args, **kwargs)


def unparse(node):
    import ast
    return ast.unparse(node)
