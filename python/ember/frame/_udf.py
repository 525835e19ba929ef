"""User functions for apply and map, compiled by ember's kernel translator
(ember.jit) into one elementwise kernel: never a Python loop over rows.

A function of one value compiles as it is. A lambda, a function of a row
(`row["a"]`, `row.a`) or one with extra arguments is first rewritten: its
source becomes a new function whose parameters are the columns it reads,
with the extra arguments and the closure's values as constants. The new
source is registered with linecache, so the translator reads it as it
reads any function's."""
import ast
import inspect
import linecache
import textwrap
import weakref
import zlib

_KERNELS = weakref.WeakKeyDictionary()   # function -> {key: (ufunc, columns)}
ROW_LABEL = object()    # stands for row.name (the index) among the columns read


def _origin(f):
    code = getattr(f, "__code__", None)
    if code is None:
        return getattr(f, "__name__", repr(f))
    return f"{f.__name__} ({code.co_filename}:{code.co_firstlineno})"


def _lambda_node(f):
    """The ast.Lambda of a lambda: the one on its first line whose compiled
    code is the lambda's (a line may hold several)."""
    code = f.__code__
    try:
        lines, _ = inspect.findsource(f)
    except (OSError, TypeError) as e:
        raise NotImplementedError(f"cannot read the source of the lambda at "
                                  f"{code.co_filename}:{code.co_firstlineno} ({e}); "
                                  "define the function in a file") from None
    try:
        tree = ast.parse("".join(lines))
    except SyntaxError:
        tree = ast.parse(textwrap.dedent("".join(inspect.getblock(
            lines[code.co_firstlineno - 1:]))))
        ast.increment_lineno(tree, code.co_firstlineno - 1)
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)
             and n.lineno == code.co_firstlineno]
    def code_of(n):
        c = compile(ast.Expression(n), code.co_filename, "eval").co_consts
        return next(x for x in c if inspect.iscode(x))
    found = [n for n in found if _same_names(code_of(n), code)]
    if len(found) > 1:   # bytecode tells apart what the names do not
        found = [n for n in found if code_of(n).co_code == code.co_code] or found
    if found and len({ast.dump(n) for n in found}) == 1:
        return found[0]
    raise NotImplementedError(f"cannot find the source of the lambda at "
                              f"{code.co_filename}:{code.co_firstlineno}")


def _same_names(a, b):
    consts = (lambda c: [x for x in c.co_consts if not inspect.iscode(x)])
    names = (lambda c: set(c.co_names) | set(c.co_freevars))   # a closure's
    return names(a) == names(b) and a.co_varnames == b.co_varnames and \
        consts(a) == consts(b)


def _function_parts(f):
    """(parameter names, body statements) of a Python function or lambda."""
    if getattr(f, "__name__", "") == "<lambda>":
        node = _lambda_node(f)
        return [a.arg for a in node.args.args], [ast.Return(node.body)]
    try:
        src = textwrap.dedent(inspect.getsource(f))
    except (OSError, TypeError) as e:
        raise NotImplementedError(f"cannot read the source of {_origin(f)} ({e}); "
                                  "define the function in a file") from None
    fdef = next(n for n in ast.walk(ast.parse(src))
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    a = fdef.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
        raise NotImplementedError(f"{_origin(f)}: *args, **kwargs and keyword-only "
                                  "parameters cannot be compiled; use plain parameters")
    return [x.arg for x in a.args], fdef.body


class _RowReader(ast.NodeTransformer):
    """Replaces row["a"] and row.a by a parameter per column; any other use
    of the row (row.sum(), row[0] of a missing label, passing it on) is
    refused, as the kernel holds no row object."""

    def __init__(self, row, columns, what, origin):
        self.row, self.columns, self.what, self.origin = row, columns, what, origin
        self.used = {}     # column name -> parameter name

    def _param(self, name):
        if name not in self.used:
            self.used[name] = f"__ember_col{len(self.used)}"
        return ast.Name(self.used[name], ast.Load())

    def _is_row(self, node):
        return isinstance(node, ast.Name) and node.id == self.row

    def visit_Subscript(self, node):
        if self._is_row(node.value):
            key = node.slice
            if not isinstance(key, ast.Constant):
                raise NotImplementedError(f"{self.what}: {self.origin} reads the row with "
                                          f"a computed key ({ast.unparse(node)}); use a "
                                          "column name")
            if key.value not in self.columns:
                raise KeyError(key.value)
            return self._param(key.value)
        return self.generic_visit(node)

    def visit_Attribute(self, node):
        if self._is_row(node.value):
            if node.attr == "name" and "name" not in self.columns:
                return self._param(ROW_LABEL)     # the row's index label
            if node.attr not in self.columns:
                raise NotImplementedError(f"{self.what}: {self.origin} uses row.{node.attr}, "
                                          "which is not a column (only the row's values "
                                          "by column name can be compiled)")
            return self._param(node.attr)
        return self.generic_visit(node)

    def visit_Call(self, node):
        f = node.func
        if isinstance(f, ast.Attribute) and self._is_row(f.value) and f.attr == "get" \
                and node.args and isinstance(node.args[0], ast.Constant):
            # row.get("a", default): the column, or the default when it is none
            if node.args[0].value in self.columns:
                return self._param(node.args[0].value)
            default = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "default"), ast.Constant(None))
            return self.visit(default)
        return self.generic_visit(node)

    def visit_Name(self, node):
        if node.id == self.row:
            raise NotImplementedError(f"{self.what}: {self.origin} uses the row as a "
                                      "whole; only row['column'] and row.column can be "
                                      "compiled")
        return node


def _constant_env(f, names):
    """The values of the free names f reads that are numbers or tuples
    (they are compiled in as constants, so they belong in the cache key)."""
    code = getattr(f, "__code__", None)
    if code is None:
        return ()
    env = []
    cells = dict(zip(code.co_freevars, f.__closure__ or ()))
    for n in code.co_names + code.co_freevars:
        v = cells[n].cell_contents if n in cells else f.__globals__.get(n, None)
        if isinstance(v, (bool, int, float, complex, str, tuple)):
            env.append((n, type(v).__name__, v))
    return tuple(env)


def _new_function(f, params, body, bound):
    """A function of `params` running `body` with f's globals, its closure's
    values and `bound` (extra arguments) as globals; its source is put in
    linecache under a name made from its text (stable across runs, so the
    translator's disk cache finds it again)."""
    g = dict(getattr(f, "__globals__", {}))
    code = getattr(f, "__code__", None)
    if code is not None and f.__closure__:
        for n, cell in zip(code.co_freevars, f.__closure__):
            try:
                g[n] = cell.cell_contents
            except ValueError:
                pass
    g.update(bound)
    fdef = ast.FunctionDef(name="udf", args=ast.arguments(
        posonlyargs=[], args=[ast.arg(p) for p in params], vararg=None, kwonlyargs=[],
        kw_defaults=[], kwarg=None, defaults=[]), body=body, decorator_list=[],
        returns=None)
    text = ast.unparse(ast.fix_missing_locations(ast.Module([fdef], [])))
    name = "udf_%08x" % zlib.crc32(text.encode())
    text = text.replace("def udf(", f"def {name}(", 1) + "\n"
    # named by its text alone: the translation (file names included) is then
    # the same for every lambda of this text, and so is the compiled kernel
    filename = f"<ember.frame {name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), g)
    return g[name]


def compile_udf(f, what, row_columns=None, args=(), kwargs=None):
    """(ufunc, columns): a vectorized ufunc of f and, for a function of a
    row (row_columns: the frame's column names), the columns it reads in
    the order of the ufunc's arguments. Raises NotImplementedError naming
    what the translator cannot compile."""
    import ember
    kwargs = kwargs or {}
    key = (what, None if row_columns is None else tuple(row_columns), args,
           tuple(sorted(kwargs.items())), _constant_env(f, ()))
    try:
        per = _KERNELS.setdefault(f, {})
    except TypeError:     # builtins take no weak references
        per = {}
    if key in per:
        return per[key]
    if not callable(f):
        raise TypeError(f"{what}: {f!r} is not callable")
    if getattr(f, "__code__", None) is None:
        # math.sqrt, numpy's ufuncs, abs: called from a one-line function
        params, body, bound = ["x"], [ast.Return(ast.Call(
            ast.Name("__ember_f", ast.Load()), [ast.Name("x", ast.Load())], []))], \
            {"__ember_f": f}
    else:
        params, body = _function_parts(f)
        bound = {}
    nfixed = 1
    extra = params[nfixed:]
    fdefaults = getattr(f, "__defaults__", None) or ()
    defaults = dict(zip(extra[len(extra) - len(fdefaults):], fdefaults))
    for p, v in zip(extra, args):
        bound[p] = v
    for p in extra[len(args):]:
        if p in kwargs:
            bound[p] = kwargs[p]
        elif p in defaults:
            bound[p] = defaults[p]
        else:
            raise TypeError(f"{what}: {_origin(f)} needs the argument {p!r}")
    unknown = set(kwargs) - set(extra)
    if unknown or not params:
        raise TypeError(f"{what}: {_origin(f)} takes no argument "
                        f"{sorted(unknown)[0] if unknown else 'value'!r}")
    columns = None
    if row_columns is not None:
        reader = _RowReader(params[0], list(row_columns), what, _origin(f))
        body = [reader.visit(s) for s in body]
        columns = list(reader.used)
        # a function of no column still needs an argument for the length
        params = list(reader.used.values()) or ["__ember_rows"]
    else:
        params = params[:1]
    fn = f if (not bound and row_columns is None and not extra
               and f.__name__ != "<lambda>") else _new_function(f, params, body, bound)
    out = (ember.vectorize(fn), columns)
    per[key] = out
    return out


def run_udf(ufunc, arrays, what, f):
    """ufunc(*arrays), the translator's refusals as NotImplementedError."""
    import ember
    try:
        return ufunc(*arrays)
    except ember.CompileError as e:
        raise NotImplementedError(f"{what}: ember compiles {_origin(f)} with its kernel "
                                  f"translator, which cannot: {e}") from None
    except TypeError as e:
        raise TypeError(f"{what}: {_origin(f)}: {e}") from None
