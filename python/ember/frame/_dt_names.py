"""English day and month names (pandas' locale=None, the C locale's) as
pieces for the string builder (_str_slice.assemble): every name of a
table lies in one small device buffer, and a row's piece is the
(start, length) of its name, gathered by the row's field value; so
naming a column is one gather and one segment copy, whatever its length."""
import numpy as np

import ember

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December")
DAYS_ABBR = tuple(d[:3] for d in DAYS)
MONTHS_ABBR = tuple(m[:3] for m in MONTHS)
AM_PM = ("AM", "PM")
am_pm = ("am", "pm")


def check_locale(locale, what):
    """Only the default names: other locales' would come from the host's
    C library, row by row, which is what ember.frame does not do."""
    if locale is not None:
        raise NotImplementedError(f".dt.{what}(locale={locale!r}): only locale=None "
                                  "(English names) is supported")


def table_piece(names, idx):
    """The piece naming each row: names[idx[r]] (idx an int64 array of
    positions into names, on the device the piece goes to)."""
    raw = [x.encode("utf-8") for x in names]
    lens = np.array([len(b) for b in raw], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
    dev = idx.device
    buf = ember.asarray(np.frombuffer(b"".join(raw), dtype=np.uint8), device=dev)
    at = idx.astype("int64")
    return (buf, ember.asarray(starts, device=dev)[at],
            ember.asarray(lens, device=dev)[at])
