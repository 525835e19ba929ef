"""A Series' or DataFrame's index lives on its data's device: built with
device=, moved by to_device, reindexed or assigned, the labels follow the
columns, so no operation meets labels on one device and values on another.

The bug this guards: ef.from_pandas(pidx) without device= puts the labels
on the default device (cuda:0 on a GPU machine); ef.Series(v,
index=that, device="cpu") kept them there, and resample/reindex then mixed
cuda labels with cpu values (test_frame_tutorial's test_frequency_spellings
and test_reindex_and_aligned_assignment failed on the GPU host only).

Without a second device here, _Far is an Index whose labels say they are
on another device ("cuda:0"); the old code kept such an index as it was,
so each `_moved` check below fails on it (its type stays _Far). With a GPU,
test_real_other_device does the same with a true cuda:0 index."""
import numpy as np
import pytest

import ember

pd = pytest.importorskip("pandas")
ef = ember.frame
tm = pd.testing

from conftest import HAVE_CUDA  # noqa: E402


class _Far(ef.Index):
    """Labels that report another device; to_device is Index's own, so a
    move makes a plain Index on the asked device."""
    device = property(lambda self: "cuda:0")


def _far(values, name=None):
    return _Far(ef.Index(values)._col, name)


def _moved(idx, want_values, device="cpu"):
    assert type(idx) is ef.Index, f"index not moved to {device}: {type(idx).__name__}"
    assert str(idx.device) == device
    assert idx.tolist() == want_values


def test_series_and_frame_built_with_an_index_elsewhere():
    labels = [10, 20, 30]
    s = ef.Series([1.0, 2.0, 3.0], index=_far(labels, "k"), device="cpu")
    _moved(s.index, labels)
    assert s.index.name == "k"
    tm.assert_series_equal(s.to_pandas(),
                           pd.Series([1.0, 2.0, 3.0], index=pd.Index(labels, name="k")))
    df = ef.DataFrame({"a": [1, 2, 3]}, index=_far(labels), device="cpu")
    _moved(df.index, labels)
    tm.assert_frame_equal(df.to_pandas(), pd.DataFrame({"a": [1, 2, 3]}, index=labels))


def test_to_device_moves_the_index():
    s = ef.Series._make(ef.Series([1, 2])._col, _far(["x", "y"]), "s")
    _moved(s.to_device("cpu").index, ["x", "y"])
    df = ef.DataFrame._make({"a": ef.Series([1, 2])._col}, _far(["x", "y"]))
    _moved(df.to_device("cpu").index, ["x", "y"])


def test_index_assignment_and_reindex_move_labels():
    df = ef.DataFrame({"a": [1.0, 2.0, 3.0]}, device="cpu")
    df.index = _far([5, 6, 7])
    _moved(df.index, [5, 6, 7])
    out = df.reindex(index=_far([7, 5, 9]))
    _moved(out.index, [7, 5, 9])
    tm.assert_frame_equal(out.to_pandas(),
                          pd.DataFrame({"a": [3.0, 1.0, np.nan]}, index=[7, 5, 9]))
    s = ef.Series([1.0, 2.0], index=[1, 2], device="cpu").reindex(_far([2, 3]))
    _moved(s.index, [2, 3])


def test_multiindex_moves_with_its_levels():
    mi = ef.MultiIndex.from_arrays([[1, 1, 2], ["a", "b", "a"]], names=["n", "s"],
                                   device="cpu")
    assert mi.to_device("cpu") is mi   # already there: no copy
    assert ef.Index([1, 2], device="cpu").to_device(ember.Device("cpu")).device == \
        ember.Device("cpu")
    s = ef.Series([1, 2, 3], index=mi, device="cpu")
    assert str(s.index.device) == "cpu"
    tm.assert_series_equal(s.to_pandas(), pd.Series(
        [1, 2, 3], index=pd.MultiIndex.from_arrays([[1, 1, 2], ["a", "b", "a"]],
                                                   names=["n", "s"])))


def test_range_index_needs_no_move():
    r = ef.RangeIndex(0, 4)
    assert r.to_device("cpu") is r
    assert isinstance(ef.Series([1, 2, 3, 4], index=r, device="cpu").index, ef.RangeIndex)


@pytest.mark.skipif(not HAVE_CUDA, reason="needs a CUDA device for the other device")
@pytest.mark.parametrize("data_dev,label_dev", [("cpu", "cuda:0"), ("cuda:0", "cpu")])
def test_real_other_device(data_dev, label_dev):
    idx = pd.date_range("2012-01-01", periods=6, freq="s")
    e_idx = ef.from_pandas(idx, device=label_dev)
    s = ef.Series(np.arange(6), index=e_idx, device=data_dev)
    assert str(s.index.device) == data_dev
    tm.assert_series_equal(s.resample("2s").sum().to_pandas(),
                           pd.Series(np.arange(6), index=idx).resample("2s").sum(),
                           check_freq=False)
    back = s.to_device(label_dev)
    assert str(back.index.device) == label_dev
    df = ef.DataFrame({"a": np.arange(6.0)}, index=e_idx, device=data_dev)
    assert str(df.index.device) == data_dev
    assert str(df.to_device(label_dev).index.device) == label_dev
    mi = ef.MultiIndex.from_arrays([[1, 1, 2], ["a", "b", "a"]], device=label_dev)
    assert str(ef.Series([1, 2, 3], index=mi, device=data_dev).index.device) == data_dev
