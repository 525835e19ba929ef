"""asfreq: a Series or DataFrame on the date_range from its first label to
its last at `freq` (fixed or calendar, as date_range reads it), each new
label's row taken by label (_align.positions_in, as reindex does) or,
with method=, from the label before it (ffill/pad) or after it
(bfill/backfill) by a binary search of the sorted index. fill_value fills
the labels still without a row, as pandas' reindex does: never a null
the data already held."""
import ember

from ember.frame._align import positions_in, reindexed
from ember.frame._column import _NAT
from ember.frame._time_select import datetime_labels

_METHODS = {"ffill": "pad", "pad": "pad", "bfill": "backfill", "backfill": "backfill"}


def _positions(labels, target, method, device):
    """For each target label, the row of the label at or before it (pad)
    or at or after it (backfill); -1 where there is none."""
    n = labels.shape[0]
    if n > 1 and not bool((labels[1:] >= labels[:-1]).all()):
        raise ValueError("index must be monotonic increasing or decreasing")
    if method == "pad":
        return ember.searchsorted(labels, target, side="right") - 1
    pos = ember.searchsorted(labels, target, side="left")
    return ember.where(pos >= n, -1, pos)


def asfreq(obj, freq, method=None, how=None, normalize=False, fill_value=None):
    from ember.frame._dt_parse import date_range
    from ember.frame._reindex import _fill
    from ember.frame.series import Series
    if normalize:
        raise NotImplementedError("asfreq(normalize=True); normalize the index first "
                                  "(index.to_series().dt.normalize())")
    if how is not None:
        raise NotImplementedError("asfreq(how=) applies to a PeriodIndex, which "
                                  "ember.frame does not hold")
    if method is not None and method not in _METHODS:
        if method == "nearest":
            raise NotImplementedError("asfreq(method='nearest') (supported: ffill, "
                                      "pad, bfill, backfill)")
        raise ValueError("Invalid fill method. Expecting pad (ffill), backfill (bfill) "
                         f"or nearest. Got {method}")
    v, unit = datetime_labels(obj)
    idx, dev = obj.index, obj.index.device
    if bool((v == _NAT).any()):
        raise NotImplementedError("asfreq of an index holding NaT")
    if len(idx) == 0:
        return obj.copy()
    import numpy as np
    first, last = ember.asnumpy(v[:1])[0], ember.asnumpy(v[-1:])[0]
    a, b = np.datetime64(int(first), unit), np.datetime64(int(last), unit)
    # date_range builds on the current device; the rows are on the index's
    new = date_range(a, b, freq=freq, name=idx.name, unit=unit).to_device(dev)
    target = new._col.values
    if method is None:
        pos = positions_in(idx, new, dev, "asfreq")
    else:
        pos = _positions(v, target, _METHODS[method], dev)
    fill = _fill(fill_value)
    if isinstance(obj, Series):
        return Series._make(reindexed(obj._col, pos, fill), new, obj.name)
    from ember.frame.frame import DataFrame
    return DataFrame._make({k: reindexed(c, pos, fill) for k, c in obj._cols.items()},
                           new)
