"""to_timedelta of a str column, in pandas' spellings:

  clock   '[-]1 days[,] [+-]02:03:04[.5]', '00:00:01', '-00:00:01'
  units   '1h', '15min', '2 days', '1 day 2 hours', '-1h30m', '1.5h', '5ns'
  ISO     'P1DT2H3M4.5S', 'PT5M', '-P1D', 'P1W'
  bare    '10' (nanoseconds), and 'NaT', 'nan', '' (NaT)

The parts are found on the device by ember's regular-expression kernels
(the capture VM of .str.extract/.extractall and the DFA of
.str.fullmatch), and each captured digit run is read as parse_iso reads
its fields: one gather a digit position and digit arithmetic over the
whole column, never a loop over rows. Signs as pandas reads them: the
leading one negates the days of the clock form (or its clock when there
are no days) and the whole of the other forms."""

import ember

from ember.frame._column import Column, _NAT
from ember.frame._str_kernels import ranges_result, valid_mask

_NS = {"ns": 1, "us": 10 ** 3, "ms": 10 ** 6, "s": 10 ** 9, "m": 60 * 10 ** 9,
       "h": 3600 * 10 ** 9, "D": 86400 * 10 ** 9, "W": 7 * 86400 * 10 ** 9}
# pandas' unit names (compared lower-cased; 'M', 'Y', 'y' are refused)
UNIT_NAMES = {
    "ns": ("ns", "nano", "nanos", "nanosecond", "nanoseconds"),
    "us": ("us", "\u00b5s", "micro", "micros", "microsecond", "microseconds"),
    "ms": ("ms", "milli", "millis", "millisecond", "milliseconds"),
    "s": ("s", "sec", "second", "seconds"),
    "m": ("m", "min", "minute", "minutes"),
    "h": ("h", "hr", "hour", "hours"),
    "D": ("d", "day", "days"),
    "W": ("w",)}
_SP = r"[ \t]*"
_CLOCK = (rf"^{_SP}([-+])?{_SP}(?:(\d+){_SP}(?:days|day|d|D){_SP},?{_SP})?"
          rf"([-+])?(\d+):(\d+):(\d+)(?:\.(\d*))?{_SP}$")
_UNITS = rf"{_SP}[-+]?{_SP}(?:\d+(?:\.\d*)?{_SP}[A-Za-z\u00b5]+{_SP},?{_SP})+"
_UNIT_SIGN = rf"^{_SP}([-+])?"
_UNIT_TOKEN = r"(\d+)(?:\.(\d*))?[ \t]*([A-Za-z\u00b5]+)"
_ISO = (rf"^{_SP}(-)?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?"
        rf"(?:(\d+)(?:\.(\d*))?S)?)?{_SP}$")
_BARE = rf"^{_SP}([-+])?(\d+){_SP}$"
_MAX_DIGITS = 18   # an int64 holds any 18-digit number


def digit_run(raw, start, stop, fraction=False):
    """The number each row's bytes raw[start:stop] spell (all digits; an
    empty run is 0), read as parse_iso reads a field: one gather a digit
    position. fraction=True: the run as nanoseconds of a decimal fraction
    (its first 9 digits, the rest cut off as pandas does). Also whether a
    run has more digits than an int64 surely holds."""
    n = start.shape[0]
    dev = start.device
    ln = ember.maximum(stop - start, 0)
    nb = raw.shape[0]
    width = 9 if fraction else min(int(ln.max()) if n else 0, _MAX_DIGITS)
    val = ember.zeros(n, dtype="int64", device=dev)
    for j in range(width if nb else 0):
        b = raw[ember.minimum(start + j, nb - 1)].astype("int64") - 48
        if fraction:   # positions past the run count as the digit 0
            val = val * 10 + ember.where(ln > j, b, 0)
        else:
            val = ember.where(ln > j, val * 10 + b, val)
    return val, ln > _MAX_DIGITS


def _groups(caps, ngroups):
    """(start, stop) of each group, (0, 0) where it took no part."""
    out = []
    for g in range(1, ngroups + 1):
        s, t = caps[:, 2 * g], caps[:, 2 * g + 1]
        took = s >= 0
        out.append((ember.where(took, s, 0), ember.where(took, t, 0), took))
    return out


def _minus(raw, grp):
    """Whether a sign group holds '-'."""
    s, _, took = grp
    nb = raw.shape[0]
    if not nb:
        return took & False
    return took & (raw[ember.minimum(s, nb - 1)] == 45)


def _scaled(count, mult):
    """count * mult, and where that overflows int64."""
    big = count > (2 ** 63 - 1) // mult
    return count * mult, big


def _clock(col):
    from ember.frame._str_capture import first_match
    caps, k, _ = first_match(col, _CLOCK, True, "to_timedelta")
    raw = col.values
    sign, days, sign2, hh, mm, ss, frac = _groups(caps, k)
    ok = caps[:, 0] >= 0
    parts = [digit_run(raw, g[0], g[1]) for g in (days, hh, mm, ss)]
    fr, _ = digit_run(raw, frac[0], frac[1], fraction=True)
    d_ns, big = _scaled(parts[0][0], _NS["D"])
    clock = parts[1][0] * _NS["h"] + parts[2][0] * _NS["m"] + parts[3][0] * _NS["s"] + fr
    big = big | parts[1][1] | parts[2][1] | parts[3][1] | (parts[1][0] > 10 ** 6)
    neg1, neg2 = _minus(raw, sign), _minus(raw, sign2)
    has_days = days[2]
    clock_neg = ember.where(sign2[2], neg2, neg1 & ~has_days)
    value = ember.where(neg1, -d_ns, d_ns) + ember.where(clock_neg, -clock, clock)
    fine = frac[2] & ((frac[1] - frac[0]) > 6)
    return ok, value, big, fine


def _unit_codes(units):
    """Each unit token's ns multiplier (0: not a unit), and whether it is
    one pandas refuses outright ('M', 'Y', 'y')."""
    from ember.frame._str_ops import case
    from ember.frame._strings import equal_scalar
    low = case(units, "lower")
    mult = ember.zeros(units.length, dtype="int64", device=units.values.device)
    for unit, names in UNIT_NAMES.items():
        for name in names:
            mult = ember.where(equal_scalar(low, name), _NS[unit], mult)
    months = equal_scalar(units, "M") | equal_scalar(units, "Y") | equal_scalar(units, "y")
    return ember.where(months, 0, mult), months


def _per_row(x, first, cnt):
    """The sum of each row's tokens' x (tokens lie in row order)."""
    total = ember.concatenate([ember.zeros(1, dtype="int64", device=x.device),
                               ember.cumsum(x.astype("int64"))])
    return total[first + cnt] - total[first]


def _unit_form(col):
    """The unit form's rows, values, rows with a bad token (unknown unit or
    overflow), nanosecond precision, and the tokens (for the message)."""
    from ember.frame._str_capture import all_matches, first_match
    from ember.frame._str_regex import run
    dev, n = col.device, col.length
    raw = col.values
    ok = run(col, _UNITS, True, "full") != 0
    caps, cnt, k, _ = all_matches(col, _UNIT_TOKEN, True)
    rows = ember.repeat(ember.arange(n, dtype="int64", device=dev), cnt)
    first = ember.cumsum(cnt) - cnt
    whole, fracg, unitg = _groups(caps, k)
    mult, months = _unit_codes(ranges_result(col, unitg[0], unitg[1], unitg[2]))
    num, long = digit_run(raw, whole[0], whole[1])
    f9, _ = digit_run(raw, fracg[0], fracg[1], fraction=True)
    part, over = _scaled(num, ember.maximum(mult, 1))
    # the fraction in ns of the unit, exact: whole seconds and longer units
    # are multiples of 10**9 ns, shorter ones keep f9 * mult under 10**18
    per = 10 ** 9
    part = part + ember.where(mult >= per, f9 * (mult // per), (f9 * mult) // per)
    bad_tok = mult == 0
    fine_tok = (mult == 1) | (ember.remainder(part, 1000) != 0)
    value = _per_row(part, first, cnt)
    bad_row = _per_row(bad_tok | long | over, first, cnt) > 0
    fine = _per_row(fine_tok, first, cnt) > 0
    scaps, sk, _ = first_match(col, _UNIT_SIGN, True, "to_timedelta")
    neg = _minus(raw, _groups(scaps, sk)[0])
    value = ember.where(neg, -value, value)
    return ok, value, ok & bad_row, fine, (rows, bad_tok, months, unitg)


def _iso(col):
    from ember.frame._str_capture import first_match
    caps, k, _ = first_match(col, _ISO, True, "to_timedelta")
    raw = col.values
    sign, w, d, h, m, s, frac = _groups(caps, k)
    ok = (caps[:, 0] >= 0) & (w[2] | d[2] | h[2] | m[2] | s[2])
    value = ember.zeros(col.length, dtype="int64", device=col.device)
    big = value != 0
    for g, unit in ((w, "W"), (d, "D"), (h, "h"), (m, "m"), (s, "s")):
        num, long = digit_run(raw, g[0], g[1])
        part, over = _scaled(num, _NS[unit])
        value, big = value + part, big | long | over
    fr, _ = digit_run(raw, frac[0], frac[1], fraction=True)
    value = value + fr
    fine = frac[2] & ((frac[1] - frac[0]) > 6)
    return ok, ember.where(_minus(raw, sign), -value, value), big, fine


def _bare(col):
    """A number without a unit: nanoseconds, as pandas reads it."""
    from ember.frame._str_capture import first_match
    caps, k, _ = first_match(col, _BARE, True, "to_timedelta")
    sign, num = _groups(caps, k)
    v, big = digit_run(col.values, num[0], num[1])
    return caps[:, 0] >= 0, ember.where(_minus(col.values, sign), -v, v), big


def _missing(col):
    """The spellings pandas reads as NaT: null, '', 'NaT', 'nan' (any case)."""
    from ember.frame._str_ops import case
    from ember.frame._strings import equal_scalar
    low = case(col, "lower")
    out = equal_scalar(low, "nat") | equal_scalar(low, "nan") | equal_scalar(low, "")
    valid = valid_mask(col)
    return out if valid is None else out | ~valid


def parse(col, errors):
    """A str column as timedelta64[us], or [ns] when a value is finer than
    a microsecond (pandas 3's units); a row none of the forms reads is
    pandas' ValueError naming it, or NaT with errors='coerce'."""
    from ember.frame._strings import to_pylist
    n = col.length
    missing = _missing(col)
    ok_c, v_c, big_c, fine_c = _clock(col)
    ok_u, v_u, bad_u, fine_u, toks = _unit_form(col)
    ok_i, v_i, big_i, fine_i = _iso(col)
    ok_b, v_b, big_b = _bare(col)
    value = ember.where(ok_c, v_c, ember.where(ok_u, v_u, ember.where(ok_i, v_i, v_b)))
    big = (ok_c & big_c) | (ok_i & big_i) | (ok_b & big_b)
    good = ~missing & (ok_c | ok_u | ok_i | ok_b) & ~big & ~bad_u
    bad = ~missing & ~good
    if errors == "raise" and bool(bad.any()):
        row = int(ember.flatnonzero(bad)[0])
        text = to_pylist(col.take(ember.asarray([row], dtype="int64",
                                                device=col.device)))[0]
        raise _row_error(text, row, bool(ok_u[row]), bool((ok_c | ok_i | ok_b)[row]),
                         toks, col)
    fine = bool((good & ((ok_c & fine_c) | (ok_u & fine_u) | (ok_i & fine_i) |
                         (ok_b & (ember.remainder(v_b, 1000) != 0)))).any()) if n else False
    out = ember.where(good, value if fine else ember.floor_divide(value, 1000), _NAT)
    # pandas infers the unit from the values: with none (every row NaT) it
    # is seconds
    unit = "ns" if fine else "us" if bool(good.any()) else "s"
    return Column(f"timedelta64[{unit}]", out)


def _row_error(text, row, unit_form, other_form, toks, col):
    """pandas' messages: a unit it does not know, one it refuses, a value
    out of range, or a string it cannot read."""
    from ember.frame._strings import to_pylist
    from ember.frame._time_units import _out_of_bounds
    if unit_form:
        rows, bad_tok, months, unitg = toks
        at = ember.flatnonzero((rows == row) & (bad_tok | months))
        if at.shape[0]:
            i = at[:1]
            if bool(months[i][0]):
                return ValueError("Units 'M', 'Y' and 'y' do not represent unambiguous "
                                  "timedelta values and are not supported.")
            name = to_pylist(ranges_result(col, unitg[0][i], unitg[1][i],
                                           unitg[2][i]))[0]
            return ValueError(f"invalid unit abbreviation: {name}")
    if unit_form or other_form:
        return _out_of_bounds("m", "ns", text)
    return ValueError(f"Could not convert {text!r} to NumPy timedelta")
