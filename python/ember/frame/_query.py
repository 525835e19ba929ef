"""DataFrame.query and eval: an expression parsed by Python's ast and
evaluated on whole columns with ember.frame's operators (each node is one
column operation, never a loop over rows).

As pandas does, `&` and `|` are read as `and` and `or` (so `a > 1 & b < 2`
needs no parentheses), `@name` is a variable of the caller, `` `a b` ``
a column whose name is not an identifier, `==`/`!=` with a list and `in`
/`not in` test membership."""
import ast
import io
import operator
import re
import tokenize

_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
        ast.Mod: operator.mod, ast.Pow: operator.pow, ast.BitAnd: operator.and_,
        ast.BitOr: operator.or_, ast.BitXor: operator.xor}
_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
        ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
_LOCAL = "__ember_local_"
_QUOTED = "__ember_quoted_"


def _rewrite(expr):
    """(Python source, {name: column}) with pandas' spellings turned into
    Python's: backticks into names, @x into a marked name, & | into and/or."""
    quoted = {}

    def bt(m):
        name = f"{_QUOTED}{len(quoted)}"
        quoted[name] = m.group(1)
        return name
    expr = re.sub(r"`([^`]*)`", bt, expr)
    out = []
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(expr).readline))
    except (tokenize.TokenError, IndentationError) as e:
        raise SyntaxError(f"invalid query {expr!r}: {e}") from None
    at = False
    for t in toks:
        if t.type == tokenize.OP and t.string == "@":
            at = True
            continue
        s = t.string
        if at:
            if t.type != tokenize.NAME:
                raise SyntaxError(f"invalid query {expr!r}: '@' must precede a name")
            s, at = _LOCAL + s, False
        elif t.type == tokenize.OP and s in ("&", "|"):
            s = " and " if s == "&" else " or "
        out.append((t.type if s == t.string else tokenize.NAME, s))
    return tokenize.untokenize(out), quoted


class _Eval:
    def __init__(self, df, scope, quoted):
        self.df, self.scope, self.quoted = df, scope, quoted

    def name(self, node):
        n = node.id
        if n.startswith(_LOCAL):
            key = n[len(_LOCAL):]
            if key not in self.scope:
                raise NameError(f"local variable '{key}' is not defined")
            return self.scope[key]
        n = self.quoted.get(n, n)
        df = self.df
        if n in df._cols:
            return df[n]
        if n == "index" or (df.index.name is not None and n == df.index.name):
            from ember.frame.series import Series
            return Series._make(df.index._column(df._device()), df.index, n)
        raise NameError(f"name '{n}' is not defined")

    def __call__(self, node):
        if isinstance(node, ast.Expression):
            return self(node.body)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return [self(e) for e in node.elts]
        if isinstance(node, ast.BoolOp):
            vals = [self(v) for v in node.values]
            op = operator.and_ if isinstance(node.op, ast.And) else operator.or_
            out = vals[0]
            for v in vals[1:]:
                out = op(out, v)
            return out
        if isinstance(node, ast.UnaryOp):
            v = self(node.operand)
            if isinstance(node.op, (ast.Not, ast.Invert)):
                return (not v) if isinstance(v, bool) else ~v
            return -v if isinstance(node.op, ast.USub) else +v
        if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
            return _BIN[type(node.op)](self(node.left), self(node.right))
        if isinstance(node, ast.Compare):
            return self.compare(node)
        raise NotImplementedError(f"query/eval: {type(node).__name__} "
                                  f"({ast.unparse(node)}) is not supported; use column "
                                  "names, numbers, strings, lists, @variables, "
                                  "comparisons, arithmetic and and/or/not")

    def compare(self, node):
        out, left = None, self(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self(right_node)
            if isinstance(op, (ast.In, ast.NotIn)) or (
                    isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(right, list)):
                r = _member(left, right)
                if isinstance(op, (ast.NotIn, ast.NotEq)):
                    r = ~r
            elif type(op) in _CMP:
                r = _CMP[type(op)](left, right)
            else:
                raise NotImplementedError(f"query/eval: the comparison "
                                          f"{type(op).__name__} is not supported")
            out = r if out is None else out & r
            left = right
        return out


def _member(left, right):
    from ember.frame.series import Series
    if not isinstance(left, Series):
        raise NotImplementedError("query/eval: 'in' needs a column on its left")
    if isinstance(right, Series):
        return left.isin(right)
    return left.isin(right if isinstance(right, list) else [right])


def evaluate(df, expr, scope):
    if not isinstance(expr, str):
        raise ValueError(f"expr must be a string to be evaluated, {type(expr)} given")
    if not expr.strip():
        raise ValueError("expr cannot be an empty string")
    src, quoted = _rewrite(expr)
    try:
        tree = ast.parse(src.strip())
    except SyntaxError as e:
        raise SyntaxError(f"invalid query {expr!r}: {e.msg}") from None
    if len(tree.body) != 1:
        raise NotImplementedError("eval of several statements; evaluate one expression "
                                  "or one assignment at a time")
    stmt = tree.body[0]
    run = _Eval(df, scope, quoted)
    if isinstance(stmt, ast.Expr):
        return run(stmt.value)
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], ast.Name):
        # pandas' `c = a + b`: a new frame with the column set
        name = stmt.targets[0].id
        out = df.copy(deep=False)
        out[quoted.get(name, name)] = run(stmt.value)
        return out
    raise NotImplementedError(f"eval of {type(stmt).__name__}: one expression or one "
                              "assignment to a column name")


def caller_scope(depth, local_dict=None, global_dict=None):
    """The @variables: the caller's locals over its globals (pandas'
    resolvers), or the dicts given."""
    import sys
    f = sys._getframe(depth + 1)
    scope = dict(f.f_globals if global_dict is None else global_dict)
    scope.update(f.f_locals if local_dict is None else local_dict)
    return scope


def query(df, expr, scope):
    from ember.frame.series import Series
    mask = evaluate(df, expr, scope)
    if not isinstance(mask, Series) or mask.dtype.kind != "b":
        raise ValueError(f"query {expr!r} does not give a boolean column")
    from ember.frame._select import keep_rows
    return keep_rows(df, mask._col.values & ~mask._col.isna())   # NA: not kept
