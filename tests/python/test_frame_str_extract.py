"""Series.str's capture groups against pandas on the same data, for both
string dtypes (`str`: NaN, `string`: NA), on every device: extract
(named, unnamed and optional groups, expand=False), replace with group
references, match/fullmatch/count of patterns with groups, bad inputs."""
import re

import pytest

import ember

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
ef = ember.frame
tm = pd.testing

DTYPES = ["str", "string"]
WORDS = ["a1b", "x", None, "", "a", "é9", "zz12z3", "ab\n", "日本 2026-11-28", "ΣΑΣ σ7",
         "😀 ok 42", "key=val; k2=v2", "aaa", "AbC9", "2026-01-05 and 1999-12-31"]


def _pair(device, dtype, items=WORDS):
    p = pd.Series(items, dtype=dtype, name="w", index=pd.RangeIndex(5, 5 + len(items)))
    return p, ef.from_pandas(p, device=device)


def _same(got, want):
    if isinstance(want, pd.DataFrame):
        tm.assert_frame_equal(got.to_pandas(), want)
    else:
        tm.assert_series_equal(got.to_pandas(), want)


EXTRACT = [
    r"(?P<L>[a-zé])(?P<D>\d)?",       # named; an optional group that takes no part
    r"([a-zé])(\d)?",                 # unnamed: columns 0, 1
    r"(?P<a>z)(\d)",                  # mixed names: columns 'a', 1
    r"(\d+)",
    r"(\d{4})-(\d{2})-(\d{2})",
    r"(a|x)(.*)",
    r"((a)|(z))+",                    # a group inside a repeat keeps its last turn
    r"(a*)",                          # an empty match is "" (a null row stays null)
    r"(a*?)(a+)",                     # lazy before greedy
    r"(\w+)=(\w+)",
    r"^(\S+) (\S+)$",
    r"(?i)(ab)(c)?",
    r"([^\x00-\x7f]+)",               # unicode runs
    r"(.)(.)?$",                      # $ before a last newline
    r"(?:k(\d)?=)(v\d?)",
    r"(x)|(y)|(a)",
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("pat", EXTRACT)
def test_extract(device, dtype, pat):
    p, s = _pair(device, dtype)
    _same(s.str.extract(pat), p.str.extract(pat))
    _same(s.str.extract(pat, expand=False), p.str.extract(pat, expand=False))


@pytest.mark.parametrize("dtype", DTYPES)
def test_extract_flags_compiled_and_names(device, dtype):
    p, s = _pair(device, dtype)
    _same(s.str.extract(r"([A-Z])(\d)?", flags=re.IGNORECASE),
          p.str.extract(r"([A-Z])(\d)?", flags=re.IGNORECASE))
    rx = re.compile(r"(?P<first>[a-z])")
    _same(s.str.extract(rx), p.str.extract(rx))
    _same(s.str.extract(rx, expand=False), p.str.extract(rx, expand=False))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("items", [[], [None], [None, None], ["only"], ["", ""]])
def test_extract_small(device, dtype, items):
    p, s = _pair(device, dtype, items)
    for pat in (r"(?P<a>o)(n)", r"(o)"):
        _same(s.str.extract(pat), p.str.extract(pat))
        _same(s.str.extract(pat, expand=False), p.str.extract(pat, expand=False))


def test_extract_errors(device):
    p, s = _pair(device, "str")
    with pytest.raises(ValueError, match="no capture groups"):
        s.str.extract(r"\d")
    with pytest.raises(ValueError, match="expand must be"):
        s.str.extract(r"(\d)", expand="yes")
    with pytest.raises(re.error):
        s.str.extract(r"(\d")
    with pytest.raises(NotImplementedError, match="backreferences"):
        s.str.extract(r"(a)\1")
    for pat in (r"(a*)*", r"(a|)+b", r"(?:(a)?)*"):   # re's own rules for empty turns
        with pytest.raises(NotImplementedError, match="repeat"):
            s.str.extract(pat)
    with pytest.raises(NotImplementedError, match="capture groups"):
        s.str.extract("".join(["(a)"] * 10))
    with pytest.raises(NotImplementedError, match="several groups"):
        s.str.findall(r"(\d)(\d)")


ALL = [r"(?P<L>[a-zé])(?P<D>\d)?", r"([a-zé])(\d)?", r"(\d+)", r"(\w+)=(\w+)",
       r"((a)|(z))", r"([^\x00-\x7f])", r"(a)(x)?$",
       r"(a)(x*)", r"(\d*)", r"(a|)", r"(\d*?)", r"($)", r"(^)(\w?)"]   # empty matches, as finditer


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("pat", ALL)
def test_extractall(device, dtype, pat):
    p, s = _pair(device, dtype)
    _same(s.str.extractall(pat), p.str.extractall(pat))


@pytest.mark.parametrize("dtype", DTYPES)
def test_extractall_indexes(device, dtype):
    # labels of any dtype, repeated, named; a MultiIndex gains a level
    p = pd.Series(["a1", "b22", None, "ü3x4"], index=pd.Index(["k", "é", "k", "z"], name="key"),
                  dtype=dtype)
    s = ef.from_pandas(p, device=device)
    _same(s.str.extractall(r"([a-zü])?(\d)"), p.str.extractall(r"([a-zü])?(\d)"))
    p.index = pd.MultiIndex.from_tuples([(1, "x"), (2, "y"), (2, "y"), (3, "z")],
                                        names=["n", None])
    s = ef.from_pandas(p, device=device)
    _same(s.str.extractall(r"(?P<d>\d)"), p.str.extractall(r"(?P<d>\d)"))


@pytest.mark.parametrize("items", [[], [None, None], ["no", "digits"]])
def test_extractall_no_match(device, items):
    # pandas builds its index from no tuples (object levels); here the
    # levels keep their dtypes (docs/frames.md)
    p, s = _pair(device, "str", items)
    tm.assert_frame_equal(s.str.extractall(r"(\d)").to_pandas(), p.str.extractall(r"(\d)"),
                          check_index_type=False)


def test_extractall_errors(device):
    p, s = _pair(device, "str")
    with pytest.raises(ValueError, match="no capture groups"):
        s.str.extractall(r"\d")
    with pytest.raises(re.error):
        s.str.extractall(r"(\d")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("pat,kw", [(r"([-_])", {}), (r"(-)|(_)", {}), (r"(-)|(_)", {"n": 1}),
                                    (r"(?P<a>-+)", {"n": 2}), (r"(q)", {}), (r"(\d)(\d)?", {})])
def test_split_with_groups(device, dtype, pat, kw):
    # re.split: each match's groups join the parts, None where one takes no part
    items = ["a-b_c", "x", None, "", "é-ü--z", "-", "a1b22c333"]
    p, s = _pair(device, dtype, items)
    _same(s.str.split(pat, expand=True, regex=True, **kw),
          p.str.split(pat, expand=True, regex=True, **kw))
    p, s = _pair(device, dtype, [None])
    _same(s.str.split(pat, expand=True, regex=True, **kw),
          p.str.split(pat, expand=True, regex=True, **kw))


REPLACE = [
    (r"([a-z])([0-9])?", r"<\1>", {}),
    (r"([a-z])([0-9])?", r"\2\\", {}),
    (r"([a-z])([0-9])?", r"\10", {}),        # RE2: group 1, then 0
    (r"([a-z])([0-9])?", r"[\0]", {}),       # RE2: the whole match
    (r"(?P<l>[a-zé])(\d)?", r"\g<l>\n\g<2>", {}),   # \g< makes pandas use re
    (r"([a-z])([0-9])?", r"[\g<0>]", {"n": 2}),
    (r"([A-Z])", r"\1\1", {"case": False}),
    (r"(\s)", r"\1\t", {}),                  # \s makes pandas use re
    (r"(=)(\w*)", r"\2\1", {}),
    (r"(\d)(\d)", r"\2\1", {}),              # re and RE2 read it alike
    (r"([a-z])", r"<\1>", {"n": 0}),          # RE2: no match replaced
    (r"([a-z])", r"<\g<1>>", {"n": 0}),       # re: count=0 is every match
    (r"([a-z])", r"<\1>", {"n": 0, "case": False}),
    (r"[a-z]", r"<>", {"n": 0, "case": False}),
    (r"[a-z]", r"<>", {"n": 0}),
    (r"(\s)", r"_", {"n": 0}),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("pat,repl,kw", REPLACE)
def test_replace_groups(device, dtype, pat, repl, kw):
    p, s = _pair(device, dtype)
    _same(s.str.replace(pat, repl, regex=True, **kw),
          p.str.replace(pat, repl, regex=True, **kw))


def test_replace_groups_errors(device):
    p, s = _pair(device, "str")
    with pytest.raises(ValueError, match="Rewrite schema requests 2"):
        s.str.replace(r"(a)", r"\2", regex=True)
    with pytest.raises(ValueError, match="must be followed by a digit"):
        s.str.replace(r"(a)", r"\q", regex=True)
    with pytest.raises(re.error, match="invalid group reference"):
        s.str.replace(r"(a)", r"\g<3>", regex=True)
    with pytest.raises(IndexError, match="unknown group name"):
        s.str.replace(r"(a)", r"\g<nope>", regex=True)
    with pytest.raises(re.error, match="bad escape"):
        s.str.replace(r"(a)", r"\g<1>\q", regex=True)
    # \d reads non-ASCII rows in re and the rest in RE2: the two read \n apart
    with pytest.raises(NotImplementedError, match="picks the engine"):
        s.str.replace(r"(\d)", r"\n", regex=True)
    with pytest.raises(NotImplementedError, match="empty string"):
        s.str.replace(r"(a*)", r"\1", regex=True)
    with pytest.raises(NotImplementedError, match="n=0"):
        s.str.replace(r"\d", "", n=0, regex=True)


@pytest.mark.parametrize("dtype", DTYPES)
def test_groups_in_tests_and_count(device, dtype):
    p, s = _pair(device, dtype)
    for f in (lambda t: t.str.match(r"(a|z)(\d)?"),
              lambda t: t.str.fullmatch(r"(?P<x>[a-z]+)(\d)?"),
              lambda t: t.str.count(r"(z)(\d)?")):
        _same(f(s), f(p))


def test_contains_warns_of_groups(device):
    p, s = _pair(device, "str")
    with pytest.warns(UserWarning, match="str.extract"):
        got = s.str.contains(r"(\d)")
    with pytest.warns(UserWarning, match="str.extract"):
        want = p.str.contains(r"(\d)")
    _same(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_ignorecase_dotted_and_dotless_i(device, dtype):
    # pandas runs extract and extractall in re alone, whose folding pairs
    # i with ı and lowers İ to i
    p, s = _pair(device, dtype, ["İi", "ı", "I", "i\u0307", "xİy", "Iı", None])
    for pat in (r"(?i)(i)", r"(?i)(I+)", r"(?i)([a-z]+)", r"(?i)([ı]+)", r"(?i)([^i])"):
        _same(s.str.extract(pat), p.str.extract(pat))
        _same(s.str.extractall(pat), p.str.extractall(pat))
