"""Capture groups for .str (extract, extractall, replace with group
references): the pattern's tree with its groups becomes a small program
over code points for Pike's VM (char sets, splits in priority order,
jumps, saves of a group's bounds, anchors), which the kernels of
str_capture.cuh run over every row at once, one thread a row. The
threads run in priority order and those after one that matches are
dropped, so the match and its groups are those Python's re finds."""
import numpy as np

import ember

from ember.frame._str_kernels import i32, launch, offsets

SET, SPLIT, JMP, SAVE, MATCH, BOL, EOL = range(7)
MAX_PROG = 128      # EM_CAP_PROG of the kernel
MAX_SLOTS = 20      # EM_CAP_SLOTS: the match and 9 groups
_cache = {}


class _Program:
    def __init__(self, ic):
        self.op, self.a, self.b, self.lo, self.hi = [], [], [], [], []
        self.ic, self.turkish = ic, False

    def emit(self, op, a=0, b=0):
        self.op.append(op)
        self.a.append(a)
        self.b.append(b)
        return len(self.op) - 1

    def choice(self, at, go, out, lazy):
        """A split at `at` that prefers go (out when lazy)."""
        self.a[at], self.b[at] = (out, go) if lazy else (go, out)

    def node(self, n):
        from ember.frame._str_regex import char_ranges
        kind = n[0]
        if kind in ("set", "cset", "cls"):
            r, turkish = char_ranges(n, self.ic)
            self.turkish |= turkish
            self.emit(SET, len(self.lo), len(r))
            self.lo += [x for x, _ in r]
            self.hi += [y for _, y in r]
        elif kind in ("bol", "eol"):
            self.emit(BOL if kind == "bol" else EOL)
        elif kind == "cat":
            for x in n[1]:
                self.node(x)
        elif kind == "grp":
            self.emit(SAVE, 2 * n[1])
            self.node(n[2])
            self.emit(SAVE, 2 * n[1] + 1)
        elif kind == "alt":
            jumps = []
            for x in n[1][:-1]:
                at = self.emit(SPLIT)
                self.node(x)
                jumps.append(self.emit(JMP))
                self.choice(at, at + 1, len(self.op), False)
            self.node(n[1][-1])
            for j in jumps:
                self.a[j] = len(self.op)
        else:   # rep
            _, x, lo, hi, lazy = n
            if (hi is None or hi > 1) and _nullable(x) and _has_group(x):
                raise NotImplementedError(
                    "a capture group inside a repeat whose body can match the empty "
                    "string: Python's re gives its groups by rules of its own there")
            for _ in range(lo):
                self.node(x)
            if hi is None:
                at = self.emit(SPLIT)
                self.node(x)
                self.emit(JMP, at)
                self.choice(at, at + 1, len(self.op), lazy)
            else:
                splits = []
                for _ in range(hi - lo):
                    splits.append(self.emit(SPLIT))
                    self.node(x)
                for at in splits:
                    self.choice(at, at + 1, len(self.op), lazy)


def _nullable(n):
    """Whether the tree node can match the empty string."""
    kind = n[0]
    if kind in ("set", "cset", "cls"):
        return False
    if kind == "cat":
        return all(_nullable(x) for x in n[1])
    if kind == "alt":
        return any(_nullable(x) for x in n[1])
    if kind == "grp":
        return _nullable(n[2])
    if kind == "rep":
        return n[2] == 0 or _nullable(n[1])
    return True   # anchors


def _has_group(n):
    kind = n[0]
    if kind == "grp":
        return True
    if kind in ("cat", "alt"):
        return any(_has_group(x) for x in n[1])
    return kind == "rep" and _has_group(n[1])


def compile_groups(pat, ignorecase):
    """(program, number of groups, {name: number}) of a pattern."""
    from ember.frame._str_regex import _check
    from ember.frame._str_regex_parse import _Parser
    key = (pat, ignorecase)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    _check(pat)
    parser = _Parser(pat, groups=True)
    tree = parser.parse()
    if 2 * (parser.ngroups + 1) > MAX_SLOTS:
        raise NotImplementedError(f"regular expression {pat!r}: more than "
                                  f"{MAX_SLOTS // 2 - 1} capture groups")
    prog = _Program(ignorecase or parser.ignorecase)
    prog.emit(SAVE, 0)
    prog.node(tree)
    prog.emit(SAVE, 1)
    prog.emit(MATCH)
    if len(prog.op) > MAX_PROG:
        raise NotImplementedError(f"regular expression {pat!r}: its program passes "
                                  f"{MAX_PROG} steps (counted repeats unroll)")
    out = (prog, parser.ngroups, dict(parser.names))
    _cache[key] = out
    return out


def _args(col, prog, ngroups, what, re_only=False):
    """The program's arrays on col's device. re_only: pandas runs the call
    in Python's re alone (extract, extractall), whose case folding the
    program's sets follow, dotted and dotless i included; else rows
    holding those raise as in _str_regex.check_turkish."""
    from ember.frame._str_regex import check_turkish
    if not re_only:
        check_turkish(col, prog.turkish, what)
    dev = col.device

    def arr(x):
        return ember.asarray(np.asarray(x or [0], dtype=np.int32), device=dev)
    return (arr(prog.op), arr(prog.a), arr(prog.b), arr(prog.lo), arr(prog.hi),
            i32(len(prog.op)), i32(2 * (ngroups + 1)))


def first_match(col, pat, case, what="extract"):
    """Each row's first match: (bounds int64 [n, 2 (groups + 1)], absolute
    byte offsets, -1 where the row has no match or a group took no part;
    number of groups; {name: number})."""
    prog, ngroups, names = compile_groups(pat, not case)
    dev, n, k = col.device, col.length, 2 * (ngroups + 1)
    caps = ember.zeros((max(n, 1), k), dtype="int64", device=dev)
    launch(dev, "em_str_extract", n, (offsets(col), col.values, np.int64(n),
                                      *_args(col, prog, ngroups, what, True), caps))
    return caps[:n], ngroups, names


def all_matches(col, pat, case, what="extractall"):
    """Every row's matches (left to right, not overlapping, empty ones as
    re.finditer gives them; null rows match as ""): (bounds as
    first_match's, a row a match; matches per row; groups; names)."""
    from ember.frame._str_kernels import scan_offsets
    from ember.frame._str_regex_first import _args as dfa_checks
    if what != "extractall":   # the empty-match rules of pandas' Arrow path
        dfa_checks(col, pat, case, what)
    prog, ngroups, names = compile_groups(pat, not case)
    dev, n, k = col.device, col.length, 2 * (ngroups + 1)
    args = (offsets(col), col.values, np.int64(n),
            *_args(col, prog, ngroups, what, what == "extractall"))
    cnt = ember.zeros(max(n, 1), dtype="int64", device=dev)
    dummy = ember.zeros((1, k), dtype="int64", device=dev)
    launch(dev, "em_str_extractall", n, (*args, cnt, cnt, dummy, i32(0)))
    start = scan_offsets(cnt[:n], dev)
    total = int(start[n]) if n else 0
    caps = ember.zeros((max(total, 1), k), dtype="int64", device=dev)
    launch(dev, "em_str_extractall", n, (*args, cnt, start, caps, i32(1)))
    return caps[:total], cnt[:n], ngroups, names


_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "v": "\v", "\\": "\\"}


def _python_template(repl, ngroups, names):
    """repl as Python's re.sub reads it: a list of str literals and group
    numbers; re's errors for bad escapes and references."""
    import re
    out, i, oct_ = [], 0, "01234567"

    def group(g):
        if g > ngroups:
            raise re.error(f"invalid group reference {g}", repl, i)
        out.append(g)
    while i < len(repl):
        c = repl[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        if i + 1 == len(repl):
            raise re.error("bad escape (end of pattern)", repl, i)
        c, i = repl[i + 1], i + 2
        if c == "g":
            end = repl.find(">", i)
            if i >= len(repl) or repl[i] != "<":
                raise re.error("missing <", repl, i)
            if end < 0:
                raise re.error("missing >, unterminated name", repl, i)
            name, i = repl[i + 1:end], end + 1
            if not name:
                raise re.error("missing group name", repl, i)
            if name.isdigit():
                group(int(name))
            elif name in names:
                group(names[name])
            elif name.isidentifier():
                raise IndexError(f"unknown group name {name!r}")
            else:
                raise re.error(f"bad character in group name {name!r}", repl, i)
        elif c == "0":
            digits = c
            while len(digits) < 3 and i < len(repl) and repl[i] in oct_:
                digits, i = digits + repl[i], i + 1
            out.append(chr(int(digits, 8)))
        elif c in "123456789":
            digits = c
            if i < len(repl) and repl[i] in "0123456789":
                digits, i = digits + repl[i], i + 1
                if c in oct_ and digits[1] in oct_ and i < len(repl) and repl[i] in oct_:
                    digits, i = digits + repl[i], i + 1
                    if int(digits, 8) > 0o377:
                        raise re.error(f"octal escape value \\{digits} outside of "
                                       "range 0-0o377", repl, i)
                    out.append(chr(int(digits, 8)))
                    continue
            group(int(digits))
        elif c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif c.isascii() and c.isalpha():
            raise re.error(f"bad escape \\{c}", repl, i - 2)
        else:
            out.append("\\" + c)
    return out


def _re2_template(repl, ngroups):
    """repl as RE2 (pandas' Arrow path) reads it: \\0 to \\9 and \\\\ only."""
    out, i = [], 0
    while i < len(repl):
        c = repl[i]
        if c == "\\":
            nxt = repl[i + 1] if i + 1 < len(repl) else ""
            if nxt == "\\":
                out.append("\\")
            elif nxt in "0123456789" and nxt:
                if int(nxt) > ngroups:
                    raise ValueError(f"Invalid replacement string: Rewrite schema "
                                     f"requests {nxt} matches, but the regexp only has "
                                     f"{ngroups} parenthesized subexpressions.")
                out.append(int(nxt))
            else:
                raise ValueError("Invalid replacement string: Rewrite schema error: "
                                 "'\\' must be followed by a digit or '\\'.")
            i += 2
        else:
            out.append(c)
            i += 1
    return out


def _either_template(repl, ngroups, names):
    """repl where re and RE2 read it alike; else NotImplementedError."""
    import re
    got = []
    for read in (lambda: _python_template(repl, ngroups, names),
                 lambda: _re2_template(repl, ngroups)):
        try:
            got.append(read())
        except (re.error, ValueError, IndexError):
            got.append(None)
    if got[0] is None or got[0] != got[1]:
        raise NotImplementedError(
            f"str.replace with repl {repl!r} by this pattern: Python's re and RE2 read "
            "repl differently, and pandas picks the engine by the data (\\g<n> "
            "references are read as re reads them)")
    return got[0]


def _engine(pat):
    """Whether pandas runs a replace by pat in Python's re (True), in RE2
    (False), or chooses by the data (None: \\w \\d \\b meet non-ASCII rows
    in re, $ meets rows with a newline in re)."""
    import re
    tokens = re.findall(r"\\.|.", pat, re.S)
    if any(t in ("\\s", "\\S", "\\u", "\\U", "\\N") for t in tokens):
        return True
    if any(t in ("\\w", "\\W", "\\d", "\\D", "\\b", "\\B", "$") for t in tokens):
        return None
    return False


def zero_count(python, pat):
    """n for replace(n=0): re.sub's count=0 replaces every match (-1),
    where pandas runs re; Arrow's max_replacements=0 none (0)."""
    engine = python or _engine(pat)
    if engine is None:
        raise NotImplementedError(
            f"str.replace with n=0 by {pat!r}: pandas replaces every match (in re) or "
            "none (in Arrow), choosing by the data")
    return -1 if engine else 0


def replace(col, pat, repl, n, case=True, python=None):
    """Every row's matches (at most n when n >= 0) replaced by repl with
    its group references: as Python's re.sub reads repl when python (pandas
    runs such calls in re), as RE2's rewrite when False (pandas' Arrow
    path), and when None (pandas chooses by the data) only where the two
    read it alike."""
    from ember.frame._str_kernels import build, host_bytes
    from ember.frame._str_regex_first import _args as dfa_checks
    dfa_checks(col, pat, case, "replace", n >= 0)   # the empty-match rules
    prog, ngroups, names = compile_groups(pat, not case)
    python = _engine(pat) if python is None else python
    if python is None:
        items = _either_template(repl, ngroups, names)
    elif python:
        items = _python_template(repl, ngroups, names)
    else:
        items = _re2_template(repl, ngroups)
    kind, start, size, text = [], [], [], ""
    for item in items:   # runs of literal chars become one item
        if isinstance(item, str) and kind and kind[-1] < 0:
            text += item
            size[-1] = len(text.encode("utf-8")) - start[-1]
        elif isinstance(item, str):
            kind.append(-1)
            start.append(len(text.encode("utf-8")))
            text += item
            size.append(len(text.encode("utf-8")) - start[-1])
        else:
            kind.append(item)
            start.append(0)
            size.append(0)
    dev = col.device
    rep, _ = host_bytes(text, dev)

    def arr(x):
        return ember.asarray(np.asarray(x or [0], dtype=np.int32), device=dev)
    return build(col, "em_str_capture_sub",
                 (*_args(col, prog, ngroups, "replace"), arr(kind), arr(start),
                  arr(size), i32(len(kind)), rep, np.int64(n)))
