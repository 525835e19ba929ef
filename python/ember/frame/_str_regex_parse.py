"""A parser for the common part of Python's regular-expression syntax,
into a small tree over sets of code points: ('set', ranges) (a literal
char), ('cset', ranges) (., \d, \w, \s: never case-folded), ('cls', negated,
ranges, category ranges), ('cat', [nodes]), ('alt', [nodes]), ('rep', node, lo, hi or None, lazy), ('bol',),
('eol',), and with groups=True ('grp', number, node) for a capturing
group (numbered as re numbers them; names in _Parser.names). What it does not take (backreferences, lookaround, word
boundaries, inline flags other than (?i), possessive and atomic forms)
raises NotImplementedError naming it. Python's re checks the pattern
first, so a malformed one raises re.error as it does in pandas."""
import re

MAXCP = 0x10FFFF

_ESC = {"n": 10, "t": 9, "r": 13, "f": 12, "v": 11, "a": 7}


def ranges_of(cps):
    """Sorted, merged (lo, hi) ranges of an iterable of code points."""
    out = []
    for c in sorted(set(cps)):
        if out and out[-1][1] + 1 == c:
            out[-1][1] = c
        else:
            out.append([c, c])
    return [tuple(r) for r in out]


def merge(ranges):
    out = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return [tuple(r) for r in out]


def negate(ranges):
    out, nxt = [], 0
    for lo, hi in merge(ranges):
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= MAXCP:
        out.append((nxt, MAXCP))
    return out


_CLASS_CACHE = {}


def class_ranges(letter):
    """\\d \\w \\s as Python's re reads them on str patterns (Unicode)."""
    lo = letter.lower()
    r = _CLASS_CACHE.get(lo)
    if r is None:
        test = {"d": str.isdecimal, "s": str.isspace,
                "w": lambda c: c.isalnum() or c == "_"}[lo]
        # nothing past plane 3 is a digit, space or letter
        r = _CLASS_CACHE[lo] = ranges_of(c for c in range(0x32400) if test(chr(c)))
    return negate(r) if letter.isupper() else r


class _Parser:
    def __init__(self, pat, groups=False):
        self.p, self.i, self.ignorecase = pat, 0, False
        self.groups, self.ngroups, self.names = groups, 0, {}

    def peek(self):
        return self.p[self.i] if self.i < len(self.p) else None

    def take(self):
        c = self.p[self.i]
        self.i += 1
        return c

    def parse(self):
        if self.p.startswith("(?i)"):
            self.ignorecase, self.i = True, 4
        node = self.alt()
        if self.i != len(self.p):   # re.compile has accepted it: a stray ')'
            raise NotImplementedError(f"regular expression {self.p!r} at {self.i}")
        return node

    def alt(self):
        items = [self.cat()]
        while self.peek() == "|":
            self.take()
            items.append(self.cat())
        return items[0] if len(items) == 1 else ("alt", items)

    def cat(self):
        items = []
        while self.peek() not in (None, "|", ")"):
            items.append(self.repeat(self.atom()))
        return ("cat", items)

    def repeat(self, node):
        while True:
            c = self.peek()
            if c in ("*", "+", "?"):
                self.take()
                lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
            elif c == "{" and re.match(r"\{(\d*)(,?)(\d*)\}", self.p[self.i:]) and \
                    re.match(r"\{(\d*)(,?)(\d*)\}", self.p[self.i:]).group(0) != "{,}":
                m = re.match(r"\{(\d*)(,?)(\d*)\}", self.p[self.i:])
                self.i += len(m.group(0))
                lo = int(m.group(1) or 0)
                hi = (int(m.group(3)) if m.group(3) else None) if m.group(2) else lo
            else:
                return node
            lazy = self.peek() == "?"
            if lazy:
                self.take()
            elif self.peek() == "+":
                raise NotImplementedError("possessive quantifiers in a regular "
                                          "expression")
            node = ("rep", node, lo, hi, lazy)

    def atom(self):
        c = self.take()
        if c == ".":
            return ("cset", [(0, 9), (11, MAXCP)])
        if c == "^":
            return ("bol",)
        if c == "$":
            return ("eol",)
        if c == "[":
            return self.cls()
        if c == "(":
            return self.group()
        if c == "\\":
            return self.escape(in_class=False)
        return ("set", [(ord(c), ord(c))])

    def group(self):
        name, capture = None, True
        if self.peek() == "?":
            self.take()
            k = self.take()
            capture = k != ":"
            if k == ":":
                pass
            elif k == "P" and self.peek() == "<":
                end = self.p.index(">", self.i)
                name, self.i = self.p[self.i + 1:end], end + 1
            elif k == "P" and self.peek() == "=":
                raise NotImplementedError("backreferences in a regular expression")
            elif k in "=!" or (k == "<" and self.peek() in "=!"):
                raise NotImplementedError("lookaround in a regular expression")
            elif k == "<":
                end = self.p.index(">", self.i)
                name, self.i = self.p[self.i:end], end + 1
            elif k == ">":
                raise NotImplementedError("atomic groups in a regular expression")
            elif k == "#":
                self.i = self.p.index(")", self.i) + 1
                return ("cat", [])
            else:
                raise NotImplementedError(f"the regular-expression construct (?{k} "
                                          "(flags other than a leading (?i), "
                                          "conditionals)")
        if capture:
            self.ngroups += 1
            number = self.ngroups
            if name is not None:
                self.names[name] = number
        node = self.alt()
        self.take()   # ')'
        return ("grp", number, node) if capture and self.groups else node

    def escape(self, in_class):
        c = self.take()
        if c in "dwsDWS":
            return ("cset", class_ranges(c)) if not in_class else class_ranges(c)
        if c.isdigit() and c != "0":
            raise NotImplementedError("backreferences in a regular expression")
        if c in "bBAZ" and not in_class:
            if c == "A":
                return ("bol",)
            raise NotImplementedError(f"the regular-expression anchor \\{c}")
        if c in _ESC:
            cp = _ESC[c]
        elif c == "b":
            cp = 8
        elif c in "xuU":
            k = {"x": 2, "u": 4, "U": 8}[c]
            cp = int(self.p[self.i:self.i + k], 16)
            self.i += k
        elif c == "0":
            m = re.match(r"[0-7]{0,2}", self.p[self.i:]).group(0)
            self.i += len(m)
            cp = int("0" + m, 8)
        elif c == "N":
            import unicodedata
            end = self.p.index("}", self.i)
            cp = ord(unicodedata.lookup(self.p[self.i + 1:end]))
            self.i = end + 1
        else:
            cp = ord(c)
        return [(cp, cp)] if in_class else ("set", [(cp, cp)])

    def cls(self):
        """('cls', negated, chars, categories): re folds the chars' case
        under IGNORECASE but tests \\d \\w \\s on the char as it is."""
        neg = self.peek() == "^"
        if neg:
            self.take()
        ranges, raw, first = [], [], True
        while first or self.peek() != "]":
            first = False
            c = self.take()
            if c == "\\" and self.peek() in "dwsDWS":
                raw.extend(self.escape(in_class=True))
                continue
            if c == "\\":
                item = self.escape(in_class=True)
            else:
                item = [(ord(c), ord(c))]
            if self.peek() == "-" and self.i + 1 < len(self.p) and self.p[self.i + 1] != "]":
                self.take()
                c2 = self.take()
                hi = self.escape(in_class=True) if c2 == "\\" else [(ord(c2), ord(c2))]
                item = [(item[0][0], hi[0][0])]
            ranges.extend(item)
        self.take()   # ']'
        return ("cls", neg, merge(ranges), merge(raw))


def parse(pat, groups=False):
    """(tree, ignorecase) of a pattern re.compile accepts; groups=True
    keeps the capturing groups as ('grp', number, node)."""
    p = _Parser(pat, groups)
    return p.parse(), p.ignorecase
