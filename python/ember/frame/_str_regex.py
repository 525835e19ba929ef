"""Regular expressions for .str: the pattern's tree (_str_regex_parse)
becomes a Thompson NFA over utf-8 bytes, then a DFA by subset
construction, here on the host (work in the size of the pattern); the
em_str_dfa kernel runs the DFA's table over every row at once."""
import re

import numpy as np

import ember

from ember.frame._str_kernels import i32, i64, launch, offsets
from ember.frame._str_regex_parse import MAXCP, merge, negate, parse

MAX_STATES = 4096
_cache = {}


# ---- code point sets -> utf-8 byte sequences

def _utf8_seqs(lo, hi, out):
    """Append the byte-range sequences [(b0lo, b0hi), ...] whose byte
    strings are exactly the utf-8 encodings of lo..hi."""
    for a, b in ((0, 0x7F), (0x80, 0x7FF), (0x800, 0xFFFF), (0x10000, MAXCP)):
        x, y = max(lo, a), min(hi, b)
        if x <= y:
            _split(x, y, out)


def _split(lo, hi, out):
    n = len(chr(lo).encode("utf-8", "surrogatepass"))
    for k in range(1, n):
        m = (1 << (6 * k)) - 1   # the low k continuation bytes
        if lo & ~m != hi & ~m:
            if lo & m:
                _split(lo, lo | m, out)
                _split((lo | m) + 1, hi, out)
                return
            if hi & m != m:
                _split(lo, (hi & ~m) - 1, out)
                _split(hi & ~m, hi, out)
                return
    a = chr(lo).encode("utf-8", "surrogatepass")
    b = chr(hi).encode("utf-8", "surrogatepass")
    out.append(tuple(zip(a, b)))


# ---- case folding (IGNORECASE), as Python's re: a char matches when its
# simple lower form is one of the pattern's chars' lower forms, or one of
# the few that re pairs with those (re._casefix: 's' with 'ſ', 'μ' with 'µ')

_LOWKEY = None


def _fold(ranges):
    global _LOWKEY
    from ember.frame._str_tables import table_host
    if _LOWKEY is None:
        key = table_host("lower").astype(np.int64)
        unknown = key < 0   # unassigned here: re leaves them as they are
        key[unknown] = np.flatnonzero(unknown)
        _LOWKEY = key
    span = _LOWKEY.shape[0]
    inset = np.zeros(span, dtype=bool)
    for lo, hi in ranges:
        if lo < span:
            inset[lo:min(hi, span - 1) + 1] = True
    keys = set(np.unique(_LOWKEY[inset]).tolist())
    fixes = getattr(getattr(re, "_casefix", None), "_EXTRA_CASES", {})
    keys |= {d for k in list(keys) for d in fixes.get(k, ())}
    folded = np.isin(_LOWKEY, np.fromiter(keys, dtype=np.int64, count=len(keys)))
    edges = np.flatnonzero(np.diff(np.concatenate([[0], folded.view(np.int8), [0]])))
    out = list(zip(edges[0::2].tolist(), (edges[1::2] - 1).tolist()))
    return merge(out + [(max(lo, span), hi) for lo, hi in ranges if hi >= span])


# Python's re pairs i with dotless ı and lowers İ to i under IGNORECASE;
# RE2, which pandas uses for most patterns, does neither, and which one
# pandas runs depends on the pattern and the data: a folded i meeting a
# row that holds ı or İ raises NotImplementedError instead.
_TURKISH = (0x49, 0x69, 0x130, 0x131)


def _touches_i(ranges):
    return any(lo <= c <= hi for lo, hi in ranges for c in _TURKISH)


def check_turkish(col, turkish, what):
    from ember.frame._str_ops import find_raw
    if not turkish:
        return
    for ch in ("\u0131", "\u0130"):
        if bool((find_raw(col, ch, 0) >= 0).any()):
            raise NotImplementedError(
                f"str.{what} ignoring case where a row holds {ch!r}: pandas' two regex "
                "engines (Python's re, RE2) fold it differently")


def char_ranges(node, ic):
    """(code point ranges, whether a case-folded set holds an i) of a
    set, cset or cls node."""
    kind = node[0]
    neg, chars, raw = (False, node[1], []) if kind == "set" else \
        (False, [], node[1]) if kind == "cset" else node[1:]
    turkish = False
    if ic and chars:
        chars = _fold(chars)
        turkish = _touches_i(chars)
    r = merge(chars + raw)
    return (negate(r) if neg else r), turkish


# ---- Thompson NFA: state -> [(lo, hi, target)] byte edges, eps edges

class _NFA:
    def __init__(self):
        self.edges, self.eps = [], []   # eps: (target, None | 'bol' | 'eol')
        self.turkish = False   # a case-folded set holds an i (see _TURKISH)

    def state(self):
        self.edges.append([])
        self.eps.append([])
        return len(self.edges) - 1

    def build(self, node, ic):
        """(start, end) of a fragment for the tree node."""
        kind = node[0]
        if kind in ("set", "cset", "cls"):
            r, turkish = char_ranges(node, ic)
            self.turkish |= turkish
            return self.bytes_of(r)
        s, e = self.state(), self.state()
        if kind in ("bol", "eol"):
            self.eps[s].append((e, kind))
        elif kind == "cat":
            cur = s
            for x in node[1]:
                a, b = self.build(x, ic)
                self.eps[cur].append((a, None))
                cur = b
            self.eps[cur].append((e, None))
        elif kind == "alt":
            for x in node[1]:
                a, b = self.build(x, ic)
                self.eps[s].append((a, None))
                self.eps[b].append((e, None))
        else:   # rep; the edge listed first is the one a match prefers
            _, x, lo, hi, lazy = node
            cur = s
            for _ in range(lo):
                a, b = self.build(x, ic)
                self.eps[cur].append((a, None))
                cur = b

            def choice(at, go):
                pair = [(go, None), (e, None)]
                self.eps[at].extend(pair[::-1] if lazy else pair)
            if hi is None:
                a, b = self.build(x, ic)
                choice(cur, a)
                choice(b, a)
            else:
                for _ in range(hi - lo):
                    a, b = self.build(x, ic)
                    choice(cur, a)
                    cur = b
                self.eps[cur].append((e, None))
        return s, e

    def bytes_of(self, ranges):
        """A fragment that reads one code point of the ranges: a trie of
        their utf-8 byte-range sequences."""
        seqs = []
        for lo, hi in merge(ranges):
            _utf8_seqs(lo, hi, seqs)
        s, e = self.state(), self.state()
        trie = {}
        for seq in seqs:
            node = trie
            for i, br in enumerate(seq):
                node = node.setdefault((br, i == len(seq) - 1), {})

        def emit(state, node):
            for (br, last), child in node.items():
                t = e if last else self.state()
                self.edges[state].append((br[0], br[1], t))
                if not last:
                    emit(t, child)
        emit(s, trie)
        return s, e

    def closure(self, states, bol, eol):
        seen, todo = set(states), list(states)
        while todo:
            q = todo.pop()
            for t, cond in self.eps[q]:
                if t in seen or (cond == "bol" and not bol) or (cond == "eol" and not eol):
                    continue
                seen.add(t)
                todo.append(t)
        return frozenset(seen)

    def move(self, states, byte):
        return [t for q in states for lo, hi, t in self.edges[q] if lo <= byte <= hi]


def nfa_of(pat, ignorecase):
    """(NFA, start, final) of a pattern; ValueError when re rejects it."""
    _check(pat)
    tree, ic = parse(pat)
    nfa = _NFA()
    start, final = nfa.build(tree, ic or ignorecase)
    return nfa, start, final


def byte_targets(nfa, states):
    """For each byte, the states it leads to from `states`, in their order."""
    targets = [[] for _ in range(256)]
    for q in states:
        for lo, hi, t in nfa.edges[q]:
            for b in range(lo, hi + 1):
                if t not in targets[b]:
                    targets[b].append(t)
    return targets


def compile_dfa(pat, ignorecase, mode):
    """(table int32 [states * 256], acc uint8 [states], start) for mode
    'search' (contains), 'match' or 'full'."""
    key = (pat, ignorecase, mode)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    nfa, start, final = nfa_of(pat, ignorecase)
    restart = nfa.closure([start], False, False) if mode == "search" else frozenset()
    first = (nfa.closure([start], True, False), True)
    ids, order, rows, acc = {first: 0}, [first], [], []
    closed = {}   # target set -> its closure: many bytes share one
    while len(rows) < len(order):
        S, initial = order[len(rows)]
        row = np.full(256, -1, dtype=np.int32)
        targets = byte_targets(nfa, S)
        for b in range(256):
            if not targets[b]:
                continue
            ts = frozenset(targets[b])
            T = closed.get(ts)
            if T is None:
                T = closed[ts] = (nfa.closure(ts, False, False) | restart, False)
            if T not in ids:
                if len(order) >= MAX_STATES:
                    raise NotImplementedError(f"regular expression {pat!r}: its DFA "
                                              f"passes {MAX_STATES} states")
                ids[T] = len(order)
                order.append(T)
            row[b] = ids[T]
        if mode == "search":   # bytes no state reads restart the search
            r = (restart, False)
            if r not in ids:
                ids[r] = len(order)
                order.append(r)
            row[row < 0] = ids[r]
        rows.append(row)
        at_end = nfa.closure(S, initial, True)
        a = (final in S) | (final in at_end) << 1
        if mode == "full":   # $ before a last newline that the pattern reads
            nl = nfa.closure(nfa.move(at_end, 10), False, True)
            a |= (final in nl) << 2
        acc.append(a)
    out = (np.concatenate(rows), np.asarray(acc, dtype=np.uint8), 0, nfa.turkish)
    _cache[key] = out
    return out


def run(col, pat, case, mode):
    """The DFA's yes/no per row (uint8; null rows hold no bytes)."""
    if not isinstance(pat, str):
        raise TypeError(f"first argument must be string, not {type(pat).__name__}")
    table, acc, start, turkish = compile_dfa(pat, not case, mode)
    check_turkish(col, turkish, {"search": "contains", "full": "fullmatch"}.get(mode, mode))
    dev, n = col.device, col.length
    out = ember.zeros(n, dtype="uint8", device=dev)
    launch(dev, "em_str_dfa", n, (offsets(col), col.values, i64(n),
                                  ember.asarray(table, device=dev),
                                  ember.asarray(acc, device=dev), i32(start),
                                  i32(1 if mode == "full" else 0), out))
    return out


def _check(pat):
    """A malformed pattern is ValueError, as pandas' (Arrow's ArrowInvalid)."""
    try:
        re.compile(pat)
    except re.error as e:
        raise ValueError(f"Invalid regular expression: {e}") from None


def groups(pat):
    """How many capturing groups pat has (0 for one re rejects: the
    caller's own check reports it)."""
    try:
        return re.compile(pat).groups
    except re.error:
        return 0


def escape(pat):
    return re.escape(pat)


def literal(pat):
    """pat's text when it is a plain literal (only escaped metacharacters),
    which runs as a literal search; else None."""
    _check(pat)
    tree, ic = parse(pat)
    chars = tree[1] if tree[0] == "cat" else [tree]
    if not ic and all(x[0] == "set" and len(x[1]) == 1 and x[1][0][0] == x[1][0][1]
                      for x in chars):
        return "".join(chr(x[1][0][0]) for x in chars)
    return None
