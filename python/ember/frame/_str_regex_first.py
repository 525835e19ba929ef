"""Where a regular expression matches, as Python's re (and Arrow's RE2)
chooses: the leftmost start, and from it the match a backtracking
engine finds first. The DFA's states are the NFA's live threads in
priority order (RE2's leftmost-first DFA): once a thread reaches the
end of the pattern, the threads after it can only give matches of lower
priority and are dropped, while those before it run on and replace the
match if they reach the end too. The em_str_regex kernel (str_regex.cuh)
runs it from each start a row needs, for count, replace and split."""
import numpy as np

import ember

from ember.frame._str_kernels import build, i32, i64, launch, offsets

MAX_STATES = 4096
_cache = {}


def _ordered_closure(nfa, seed, bol, eol, final):
    """The threads reached from seed through epsilon edges, depth first in
    edge order (the order a backtracking engine tries them), kept where
    they read a byte or end the pattern; cut after the end."""
    out, seen, stack = [], set(), list(reversed(seed))
    while stack:
        q = stack.pop()
        if q in seen:
            continue
        seen.add(q)
        if nfa.edges[q] or q == final:
            out.append(q)
            if q == final:
                break
        for t, cond in reversed(nfa.eps[q]):
            if cond is None or (cond == "bol" and bol) or (cond == "eol" and eol):
                stack.append(t)
    return tuple(out)


def compile_first(pat, ignorecase):
    """(table int32 [states * 256], acc uint8, eol int32, start at byte 0,
    start elsewhere, whether the pattern matches the empty string, whether
    a case-folded set holds an i)."""
    from ember.frame._str_regex import byte_targets, nfa_of
    key = (pat, ignorecase)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    nfa, start, final = nfa_of(pat, ignorecase)
    ids, order = {}, []

    def state(seed, bol, eol):
        k = (seed, bol, eol)
        if k not in ids:
            if len(order) >= MAX_STATES:
                raise NotImplementedError(f"regular expression {pat!r}: its DFA passes "
                                          f"{MAX_STATES} states")
            ids[k] = len(order)
            order.append(k)
        return ids[k]

    s0, s1 = state((start,), True, False), state((start,), False, False)
    rows, acc, eol = [], [], []
    while len(rows) < len(order):
        seed, bol, at_eol = order[len(rows)]
        threads = _ordered_closure(nfa, seed, bol, at_eol, final)
        targets = byte_targets(nfa, threads)
        row = np.full(256, -1, dtype=np.int32)
        for b in range(256):
            if targets[b]:
                row[b] = state(tuple(targets[b]), False, False)
        rows.append(row)
        acc.append(final in threads)
        eol.append(state(seed, bol, True))
    empty = bool(acc[s0] or acc[s1] or acc[eol[s0]] or acc[eol[s1]])
    out = (np.concatenate(rows), np.asarray(acc, dtype=np.uint8),
           np.asarray(eol, dtype=np.int32), s0, s1, empty, nfa.turkish)
    _cache[key] = out
    return out


def _anchored(node):
    if node[0] == "bol":
        return True
    if node[0] in ("cat", "alt"):
        return any(_anchored(x) for x in node[1])
    return node[0] == "rep" and _anchored(node[1])


def _args(col, pat, case, what, again=False):
    """The DFA's arrays on col's device. again: the method's Arrow path
    (pandas') searches each rest of a row as a new string, so a ^ there
    would match again after every match: NotImplementedError rather than
    Python's or Arrow's answer chosen at random."""
    from ember.frame._str_regex_parse import parse
    from ember.frame._str_regex import check_turkish
    table, acc, eol, s0, s1, empty, turkish = compile_first(pat, not case)
    check_turkish(col, turkish, what)
    if again and _anchored(parse(pat)[0]):
        raise NotImplementedError(f"str.{what} with a regular expression anchored by ^ "
                                  f"({pat!r}): pandas' Arrow path anchors it again after "
                                  "each match")
    if empty:
        raise NotImplementedError(f"str.{what} with a regular expression that matches "
                                  f"the empty string ({pat!r}): its empty matches "
                                  "follow rules of their own in pandas")
    dev = col.device
    return (ember.asarray(table, device=dev), ember.asarray(acc, device=dev),
            ember.asarray(eol, device=dev), i32(s0), i32(s1))


def count(col, pat, case=True):
    dev, n = col.device, col.length
    out = ember.zeros(n, dtype="int64", device=dev)
    dfa = _args(col, pat, case, "count", again=True)
    launch(dev, "em_str_regex_count", n, (offsets(col), col.values, i64(n), *dfa, out))
    return out


def replace(col, pat, repl, n, case=True):
    from ember.frame._str_kernels import host_bytes
    r, k = host_bytes(repl, col.device)
    return build(col, "em_str_regex_sub", (*_args(col, pat, case, "replace", n >= 0), r,
                                          i64(k), i64(n)))


def split_positions(col, pat, cols, right):
    """As _str_ops.split_positions, from the matches' starts and ends."""
    if right:
        raise NotImplementedError("str.rsplit with a regular expression (split, or a "
                                  "literal pattern)")
    dev, n = col.device, col.length
    pos = ember.zeros((max(n, 1), 2 * max(cols, 1)), dtype="int64", device=dev)
    cnt = ember.zeros(n, dtype="int64", device=dev)
    dfa = _args(col, pat, True, "split")
    launch(dev, "em_str_regex_split", n, (offsets(col), col.values, i64(n), *dfa,
                                          i64(cols), pos, cnt))
    return pos[:n], cnt
