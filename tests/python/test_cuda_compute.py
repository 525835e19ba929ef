"""ember.cuda.compute (cuda.compute's spelling over ember.parallel) on every
device, against NumPy on the same input: each algorithm, OpKind, Python
functions and lambdas as operators, each iterator, the object API's two
calls, results written in place, and the errors of bad arguments."""
import numpy as np
import pytest

import ember
import ember.cuda.compute as cc
from ember.cuda.compute import OpKind, SortOrder

RNG = np.random.default_rng(7)


def dev_array(h, device):
    return ember.asarray(h, device=device)


def host(a):
    return ember.asnumpy(a)


def even_sum(a, b):
    return (a if a % 2 == 0 else 0) + (b if b % 2 == 0 else 0)


def max_op(a, b):
    return max(a, b)


def add_one(a):
    return a + 1


def is_even(x):
    return x % 2 == 0


def small(x):
    return x < 10 and x >= 0


def at_least_5(x):
    return x >= 5     # overlaps small: the first part wins


def same_tens(a, b):
    return a // 10 == b // 10


def square(x):
    return x * x


# ---- reduce and scan ----------------------------------------------------

@pytest.mark.parametrize("dtype", ["int32", "int64", "float64"])
@pytest.mark.parametrize("kind", [OpKind.PLUS, OpKind.MINIMUM,
                                  OpKind.MAXIMUM])
def test_reduce_into_opkind(device, dtype, kind):
    h = RNG.integers(-50, 50, 1000).astype(dtype)
    d_in = dev_array(h, device)
    d_out = dev_array(np.full(3, -7, dtype), device)
    init = np.array([3], dtype=dtype)
    cc.reduce_into(d_in=d_in, d_out=d_out, op=kind, num_items=h.size,
                   h_init=init)
    f = {OpKind.PLUS: np.add, OpKind.MINIMUM: np.minimum,
         OpKind.MAXIMUM: np.maximum}[kind]
    want = f.reduce(np.concatenate([init, h]))
    np.testing.assert_array_equal(host(d_out), [want, -7, -7])


@pytest.mark.parametrize("kind", [OpKind.PLUS, OpKind.MULTIPLIES,
                                  OpKind.MAXIMUM])
def test_reduce_into_accumulates_in_init_dtype(device, kind):
    h = RNG.integers(1, 120, 300).astype(np.int8)
    f = {OpKind.PLUS: np.add, OpKind.MULTIPLIES: np.multiply,
         OpKind.MAXIMUM: np.maximum}[kind]
    for init in (np.array([3], np.int8), np.array([3], np.int64)):
        d_out = dev_array(np.zeros(1, init.dtype), device)
        cc.reduce_into(d_in=dev_array(h, device), d_out=d_out, op=kind,
                       num_items=h.size, h_init=init)
        want = f.reduce(np.concatenate([init, h.astype(init.dtype)]),
                        dtype=init.dtype)    # int8 wraps, as NumPy's
        assert host(d_out)[0] == want


def test_reduce_into_function_and_lambda(device):
    h = np.arange(1, 101, dtype=np.int32)
    d_in = dev_array(h, device)
    d_out = dev_array(np.zeros(1, np.int32), device)
    cc.reduce_into(d_in=d_in, d_out=d_out, op=even_sum, num_items=h.size,
                   h_init=np.array([0], np.int32))
    assert host(d_out)[0] == h[h % 2 == 0].sum()
    cc.reduce_into(d_in=d_in, d_out=d_out, op=lambda a, b: a * 2 + b - a,
                   num_items=50, h_init=np.int32(5))
    assert host(d_out)[0] == 5 + h[:50].sum()


@ember.cuda.jit(device=True)
def jit_max(a, b):
    return max(a, b)


def test_device_function_and_stream(device):
    h = RNG.integers(-1000, 1000, 999).astype(np.int32)
    d_out = dev_array(np.zeros(1, np.int32), device)
    with ember.Device(device):
        s = ember.cuda.Stream()
    cc.reduce_into(d_in=dev_array(h, device), d_out=d_out, op=jit_max,
                   num_items=h.size, h_init=np.int32(-5000), stream=s)
    s.synchronize()
    assert host(d_out)[0] == h.max()
    with pytest.raises(TypeError, match="stream"):
        cc.reduce_into(d_in=dev_array(h, device), d_out=d_out, op=jit_max,
                       num_items=h.size, h_init=np.int32(0), stream=5)


def test_reduce_into_empty_gives_init(device):
    d_out = dev_array(np.zeros(1, np.float64), device)
    cc.reduce_into(d_in=dev_array(np.zeros(0), device), d_out=d_out,
                   op=OpKind.PLUS, num_items=0,
                   h_init=np.array([2.5]))
    assert host(d_out)[0] == 2.5


def test_operator_is_translated_once():
    d_in = ember.arange(10, dtype="int32")
    d_out = ember.zeros(1, dtype="int32")
    cc.reduce_into(d_in=d_in, d_out=d_out, op=even_sum, num_items=10,
                   h_init=np.int32(0))
    first = even_sum.__ember_compute_devfn__
    cc.reduce_into(d_in=d_in, d_out=d_out, op=even_sum, num_items=10,
                   h_init=np.int32(0))
    assert even_sum.__ember_compute_devfn__ is first
    assert host(d_out)[0] == 20


@pytest.mark.parametrize("n", [1, 7, 5000])
def test_scans(device, n):
    h = RNG.integers(-9, 9, n).astype(np.int32)
    d_in = dev_array(h, device)
    d_out = dev_array(np.zeros(n, np.int32), device)
    cc.inclusive_scan(d_in=d_in, d_out=d_out, op=OpKind.PLUS,
                      init_value=None, num_items=n)
    np.testing.assert_array_equal(host(d_out), np.cumsum(h))
    cc.inclusive_scan(d_in=d_in, d_out=d_out, op=max_op,
                      init_value=np.array([4], np.int32), num_items=n)
    np.testing.assert_array_equal(host(d_out),
                                  np.maximum.accumulate(np.maximum(h, 4)))
    cc.exclusive_scan(d_in=d_in, d_out=d_out, op=OpKind.PLUS,
                      init_value=np.array(10, np.int32), num_items=n)
    excl = np.concatenate([[0], np.cumsum(h)[:-1]])
    np.testing.assert_array_equal(host(d_out), 10 + excl)
    cc.exclusive_scan(d_in=d_in, d_out=d_out, op=lambda a, b: a - b + 2 * b,
                      init_value=np.array([1], np.int32), num_items=n)
    np.testing.assert_array_equal(host(d_out), 1 + excl)


def test_segmented_reduce(device):
    h = RNG.integers(-100, 100, 300).astype(np.int32)
    starts = np.array([0, 10, 10, 50, 120, 299], np.int64)
    ends = np.array([10, 10, 40, 120, 200, 300], np.int64)   # gaps, empty
    d_out = dev_array(np.zeros(6, np.int32), device)
    init = np.array(np.iinfo(np.int32).max, np.int32)
    cc.segmented_reduce(d_in=dev_array(h, device), d_out=d_out,
                        num_segments=6,
                        start_offsets_in=dev_array(starts, device),
                        end_offsets_in=dev_array(ends, device),
                        op=lambda a, b: a if a < b else b, h_init=init)
    want = [min([init] + list(h[s:e])) for s, e in zip(starts, ends)]
    np.testing.assert_array_equal(host(d_out), want)
    cc.segmented_reduce(d_in=dev_array(h, device), d_out=d_out,
                        num_segments=6,
                        start_offsets_in=dev_array(starts, device),
                        end_offsets_in=dev_array(ends, device),
                        op=OpKind.PLUS, h_init=np.array([1], np.int32))
    np.testing.assert_array_equal(
        host(d_out), [1 + h[s:e].sum() for s, e in zip(starts, ends)])


def test_segmented_reduce_overlap_is_not_implemented(device):
    with pytest.raises(NotImplementedError, match="overlapping"):
        cc.segmented_reduce(
            d_in=dev_array(np.arange(10), device),
            d_out=dev_array(np.zeros(2, np.int64), device), num_segments=2,
            start_offsets_in=dev_array(np.array([0, 2]), device),
            end_offsets_in=dev_array(np.array([5, 8]), device),
            op=OpKind.PLUS, h_init=np.int64(0))


# ---- transform ----------------------------------------------------------

def test_transforms(device):
    a = RNG.integers(-100, 100, 777).astype(np.int32)
    b = RNG.integers(1, 100, 777).astype(np.int32)
    d_a, d_b = dev_array(a, device), dev_array(b, device)
    d_out = dev_array(np.zeros(777, np.int32), device)
    cc.unary_transform(d_in=d_a, d_out=d_out, op=add_one, num_items=777)
    np.testing.assert_array_equal(host(d_out), a + 1)
    cc.unary_transform(d_in=d_a, d_out=d_out, op=OpKind.NEGATE,
                       num_items=777)
    np.testing.assert_array_equal(host(d_out), -a)
    cc.binary_transform(d_in1=d_a, d_in2=d_b, d_out=d_out, op=OpKind.MINUS,
                        num_items=777)
    np.testing.assert_array_equal(host(d_out), a - b)
    cc.binary_transform(d_in1=d_a, d_in2=d_b, d_out=d_out,
                        op=lambda x, y: x * y + 1, num_items=500)
    np.testing.assert_array_equal(host(d_out)[:500], a[:500] * b[:500] + 1)
    np.testing.assert_array_equal(host(d_out)[500:], a[500:] - b[500:])


def test_lambdas_with_closures_and_on_one_line(device):
    h = np.arange(10, dtype=np.int64)
    k = 7
    d_in = dev_array(h, device)
    o1 = dev_array(np.zeros(10, np.int64), device)
    o2 = dev_array(np.zeros(10, np.int64), device)
    f, g = (lambda a: a + k), (lambda a: a * k)     # two lambdas, one line
    cc.unary_transform(d_in=d_in, d_out=o1, op=f, num_items=10)
    cc.unary_transform(d_in=d_in, d_out=o2, op=g, num_items=10)
    np.testing.assert_array_equal(host(o1), h + 7)
    np.testing.assert_array_equal(host(o2), h * 7)


def test_lambda_in_a_loop_is_translated_once():
    from ember.cuda.compute import _ops
    made = [_ops.device_function(lambda a, b: a + b, "t") for _ in range(3)]
    assert made[0] is made[1] is made[2]
    k = 2
    f = [_ops.device_function(lambda a: a * k, "t") for k in (2, 3)]
    assert f[0] is not f[1]           # other closure values, another one
    assert k == 2


def test_transform_casts_to_output_dtype(device):
    d_out = dev_array(np.zeros(4, np.float32), device)
    cc.unary_transform(d_in=dev_array(np.arange(4.0), device), d_out=d_out,
                       op=lambda x: x ** 0.5, num_items=4)
    assert d_out.dtype == ember.float32
    np.testing.assert_allclose(host(d_out), np.sqrt(np.arange(4.0)),
                               rtol=1e-6)


# ---- selection ----------------------------------------------------------

def test_select(device):
    h = RNG.integers(0, 100, 1000).astype(np.int32)
    d_out = dev_array(np.full(1000, -1, np.int32), device)
    d_num = dev_array(np.zeros(2, np.uint64), device)
    cc.select(d_in=dev_array(h, device), d_out=d_out, d_num_selected_out=d_num,
              cond=is_even, num_items=1000)
    want = h[h % 2 == 0]
    assert host(d_num)[0] == want.size
    np.testing.assert_array_equal(host(d_out)[:want.size], want)
    assert (host(d_out)[want.size:] == -1).all()


def test_three_way_partition(device):
    h = RNG.integers(-20, 100, 500).astype(np.int32)
    outs = [dev_array(np.zeros(500, np.int32), device) for _ in range(3)]
    d_num = dev_array(np.zeros(2, np.int64), device)
    cc.three_way_partition(d_in=dev_array(h, device), d_first_part_out=outs[0],
                           d_second_part_out=outs[1],
                           d_unselected_out=outs[2], d_num_selected_out=d_num,
                           select_first_part_op=small,
                           select_second_part_op=at_least_5, num_items=500)
    m1 = (h < 10) & (h >= 0)
    m2 = (h >= 5) & ~m1
    parts = [h[m1], h[m2], h[~(m1 | m2)]]
    np.testing.assert_array_equal(host(d_num), [parts[0].size, parts[1].size])
    for o, p in zip(outs, parts):
        np.testing.assert_array_equal(host(o)[:p.size], p)


def _runs(keys, vals, same):
    ks, vs = [keys[0]], [vals[0]]
    for i in range(1, len(keys)):
        if not same(keys[i - 1], keys[i]):
            ks.append(keys[i])
            vs.append(vals[i])
    return np.array(ks), np.array(vs)


@pytest.mark.parametrize("op", ["equal", "tens"])
def test_unique_by_key(device, op):
    keys = np.sort(RNG.integers(0, 60, 400)).astype(np.int32)
    vals = np.arange(400, dtype=np.float32)
    ok = dev_array(np.zeros(400, np.int32), device)
    ov = dev_array(np.zeros(400, np.float32), device)
    num = dev_array(np.zeros(1, np.int32), device)
    cc.unique_by_key(d_in_keys=dev_array(keys, device),
                     d_in_items=dev_array(vals, device), d_out_keys=ok,
                     d_out_items=ov, d_out_num_selected=num,
                     op=OpKind.EQUAL_TO if op == "equal" else same_tens,
                     num_items=400)
    same = (lambda a, b: a == b) if op == "equal" else \
        (lambda a, b: a // 10 == b // 10)
    wk, wv = _runs(keys, vals, same)
    k = host(num)[0]
    assert k == wk.size
    np.testing.assert_array_equal(host(ok)[:k], wk)
    np.testing.assert_array_equal(host(ov)[:k], wv)


# ---- sorting and searching ----------------------------------------------

@pytest.mark.parametrize("kind", [OpKind.LESS, OpKind.GREATER])
def test_merge_sort_in_place(device, kind):
    keys = RNG.integers(-10, 10, 300).astype(np.int32)
    vals = np.arange(300, dtype=np.float32)
    dk, dv = dev_array(keys, device), dev_array(vals, device)
    cc.merge_sort(d_in_keys=dk, d_in_values=dv, d_out_keys=dk,
                  d_out_values=dv, op=kind, num_items=300)
    order = np.argsort(keys if kind == OpKind.LESS else -keys, stable=True)
    np.testing.assert_array_equal(host(dk), keys[order])
    np.testing.assert_array_equal(host(dv), vals[order])


@pytest.mark.parametrize("order", [SortOrder.ASCENDING, SortOrder.DESCENDING])
def test_radix_sort(device, order):
    keys = RNG.standard_normal(1000).astype(np.float32)
    vals = np.arange(1000, dtype=np.int64)
    ok = dev_array(np.zeros(1000, np.float32), device)
    ov = dev_array(np.zeros(1000, np.int64), device)
    cc.radix_sort(d_in_keys=dev_array(keys, device), d_out_keys=ok,
                  d_in_values=dev_array(vals, device), d_out_values=ov,
                  order=order, num_items=1000)
    idx = np.argsort(keys if order == SortOrder.ASCENDING else -keys,
                     stable=True)
    np.testing.assert_array_equal(host(ok), keys[idx])
    np.testing.assert_array_equal(host(ov), vals[idx])


def test_radix_sort_double_buffer(device):
    keys = RNG.integers(0, 1000, 200).astype(np.uint32)
    a = dev_array(keys, device)
    b = dev_array(np.zeros(200, np.uint32), device)
    db = cc.DoubleBuffer(a, b)
    cc.radix_sort(d_in_keys=db, d_out_keys=None, order=SortOrder.ASCENDING,
                  num_items=200)
    assert db.current() is b and db.alternate() is a
    np.testing.assert_array_equal(host(db.current()), np.sort(keys))


@pytest.mark.parametrize("order", [SortOrder.ASCENDING, SortOrder.DESCENDING])
def test_segmented_sort(device, order):
    keys = RNG.integers(0, 50, 100).astype(np.int32)
    vals = np.arange(100, dtype=np.int32)
    starts = np.array([0, 5, 30, 30, 60], np.int64)
    ends = np.array([5, 25, 30, 60, 99], np.int64)   # a gap, an empty one
    ok = dev_array(np.zeros(100, np.int32), device)
    ov = dev_array(np.zeros(100, np.int32), device)
    cc.segmented_sort(d_in_keys=dev_array(keys, device), d_out_keys=ok,
                      d_in_values=dev_array(vals, device), d_out_values=ov,
                      num_items=100, num_segments=5,
                      start_offsets_in=dev_array(starts, device),
                      end_offsets_in=dev_array(ends, device), order=order)
    wk, wv = keys.copy(), vals.copy()
    for s, e in zip(starts, ends):
        seg = keys[s:e]
        idx = np.argsort(seg if order == SortOrder.ASCENDING else -seg,
                         stable=True)
        wk[s:e], wv[s:e] = seg[idx], vals[s:e][idx]
    np.testing.assert_array_equal(host(ok), wk)
    np.testing.assert_array_equal(host(ov), wv)


def test_histogram_even(device):
    h = (RNG.standard_normal(2000) * 4).astype(np.float32)
    d_hist = dev_array(np.full(8, 99, np.int32), device)
    cc.histogram_even(d_samples=dev_array(h, device), d_histogram=d_hist,
                      num_output_levels=9, lower_level=np.float32(-6),
                      upper_level=np.float32(6), num_samples=2000)
    want, _ = np.histogram(h, bins=8, range=(-6, 6))
    np.testing.assert_array_equal(host(d_hist), want)
    cc.histogram_even(d_samples=dev_array(h, device), d_histogram=d_hist,
                      num_output_levels=5, lower_level=0, upper_level=4.0,
                      num_samples=1000)
    want, _ = np.histogram(h[:1000], bins=4, range=(0, 4))
    np.testing.assert_array_equal(host(d_hist)[:4], want)
    with pytest.raises(ValueError, match="lower_level"):
        cc.histogram_even(d_samples=dev_array(h, device), d_histogram=d_hist,
                          num_output_levels=5, lower_level=4.0,
                          upper_level=0, num_samples=10)
    with pytest.raises(ValueError, match="num_output_levels"):
        cc.histogram_even(d_samples=dev_array(h, device), d_histogram=d_hist,
                          num_output_levels=1, lower_level=0.0,
                          upper_level=1.0, num_samples=10)


@pytest.mark.parametrize("side", ["lower", "upper"])
def test_bounds(device, side):
    data = np.sort(RNG.integers(0, 40, 100)).astype(np.int32)
    needles = np.arange(-2, 44, dtype=np.int32)
    d_out = dev_array(np.zeros(needles.size, np.uintp), device)
    f = cc.lower_bound if side == "lower" else cc.upper_bound
    f(d_data=dev_array(data, device), num_items=100,
      d_values=dev_array(needles, device), num_values=needles.size,
      d_out=d_out)
    want = np.searchsorted(data, needles, side="left" if side == "lower"
                           else "right")
    np.testing.assert_array_equal(host(d_out), want)
    desc = data[::-1].copy()
    f(d_data=dev_array(desc, device), num_items=100,
      d_values=dev_array(needles, device), num_values=needles.size,
      d_out=d_out, comp=OpKind.GREATER)
    if side == "lower":      # first i with not (desc[i] > v)
        want = [int(np.argmax(np.append(desc <= v, True))) for v in needles]
    else:                    # first i with v > desc[i]
        want = [int(np.argmax(np.append(desc < v, True))) for v in needles]
    np.testing.assert_array_equal(host(d_out), want)


# ---- iterators ----------------------------------------------------------

def test_counting_and_constant(device):
    d_out = dev_array(np.zeros(1, np.int32), device)
    cc.reduce_into(d_in=cc.CountingIterator(np.int32(5)), d_out=d_out,
                   op=OpKind.PLUS, num_items=100, h_init=np.int32(0))
    assert host(d_out)[0] == sum(range(5, 105))
    cc.reduce_into(d_in=cc.ConstantIterator(np.int32(42)), d_out=d_out,
                   op=OpKind.PLUS, num_items=7, h_init=np.int32(1))
    assert host(d_out)[0] == 1 + 42 * 7


def test_transform_iterator(device):
    d_out = dev_array(np.zeros(10, np.int64), device)
    it = cc.TransformIterator(cc.CountingIterator(np.int64(1)),
                              lambda x: x * x)
    cc.inclusive_scan(d_in=it, d_out=d_out, op=OpKind.PLUS, init_value=None,
                      num_items=10)
    np.testing.assert_array_equal(host(d_out),
                                  np.cumsum(np.arange(1, 11) ** 2))
    h = np.arange(10, dtype=np.int32)
    it = cc.TransformIterator(dev_array(h, device), square)
    out = dev_array(np.zeros(1, np.int32), device)
    cc.reduce_into(d_in=it, d_out=out, op=OpKind.PLUS, num_items=10,
                   h_init=np.int32(0))
    assert host(out)[0] == (h * h).sum()


def test_transform_output_iterator(device):
    h = np.array([1, 2, 3, 4, 6], np.float32)
    d_out = dev_array(np.zeros(1, np.float32), device)
    cc.reduce_into(d_in=dev_array(h, device),
                   d_out=cc.TransformOutputIterator(d_out, lambda x: x * 0.5),
                   op=OpKind.PLUS, num_items=5, h_init=np.float32(0))
    assert host(d_out)[0] == 8.0


def test_reverse_iterators(device):
    h = np.arange(1, 8, dtype=np.int32)
    d_in = dev_array(h, device)
    d_out = dev_array(np.zeros(7, np.int32), device)
    cc.inclusive_scan(d_in=cc.ReverseIterator(d_in), d_out=d_out,
                      op=OpKind.PLUS, init_value=None, num_items=7)
    np.testing.assert_array_equal(host(d_out), np.cumsum(h[::-1]))
    cc.inclusive_scan(d_in=d_in, d_out=cc.ReverseIterator(d_out),
                      op=OpKind.PLUS, init_value=None, num_items=7)
    np.testing.assert_array_equal(host(d_out), np.cumsum(h)[::-1])


def test_permutation_iterator(device):
    vals = np.array([10, 20, 30, 40, 50], np.int32)
    idx = np.array([2, 0, 4, 1, 4], np.int32)
    d_out = dev_array(np.zeros(5, np.int32), device)
    cc.unary_transform(d_in=cc.PermutationIterator(dev_array(vals, device),
                                                   dev_array(idx, device)),
                       d_out=d_out, op=OpKind.IDENTITY, num_items=5)
    np.testing.assert_array_equal(host(d_out), vals[idx])
    # composed: values from a transform of a counting iterator
    it = cc.PermutationIterator(
        cc.TransformIterator(cc.CountingIterator(np.int32(0)), square),
        dev_array(idx, device))
    cc.unary_transform(d_in=it, d_out=d_out, op=add_one, num_items=5)
    np.testing.assert_array_equal(host(d_out), idx * idx + 1)
    # as an output: a scatter
    target = dev_array(np.zeros(10, np.int32), device)
    sidx = np.array([9, 3, 7, 1, 5], np.int32)
    cc.unary_transform(d_in=cc.CountingIterator(np.int32(0)),
                       d_out=cc.PermutationIterator(target,
                                                    dev_array(sidx, device)),
                       op=square, num_items=5)
    want = np.zeros(10, np.int32)
    want[sidx] = np.arange(5) ** 2
    np.testing.assert_array_equal(host(target), want)


def test_discard_and_cache_modified(device):
    keys = np.array([1, 1, 2, 3, 3, 7, 8, 8], np.int32)
    ok = dev_array(np.zeros(8, np.int32), device)
    num = dev_array(np.zeros(1, np.int32), device)
    cc.unique_by_key(d_in_keys=cc.CacheModifiedInputIterator(
                         dev_array(keys, device), "stream"),
                     d_in_items=cc.DiscardIterator(), d_out_keys=ok,
                     d_out_items=cc.DiscardIterator(), d_out_num_selected=num,
                     op=OpKind.EQUAL_TO, num_items=8)
    assert host(num)[0] == 5
    np.testing.assert_array_equal(host(ok)[:5], [1, 2, 3, 7, 8])


def test_shuffle_iterator(device):
    vals = np.arange(100, 200, dtype=np.int32)
    d_out = dev_array(np.zeros(100, np.int32), device)
    it = cc.PermutationIterator(dev_array(vals, device),
                                cc.ShuffleIterator(100, seed=3))
    cc.unary_transform(d_in=it, d_out=d_out, op=lambda x: x, num_items=100)
    got = host(d_out)
    np.testing.assert_array_equal(np.sort(got), vals)
    assert not np.array_equal(got, vals)


def dot_term(p):
    return p[0] * p[1] - p[-1]


def test_zip_iterator_in_transforms(device):
    a = np.arange(1, 9, dtype=np.int32)
    b = np.arange(10, 90, 10, dtype=np.int32)
    d_out = dev_array(np.zeros(8, np.int32), device)
    z = cc.ZipIterator(dev_array(a, device), dev_array(b, device))
    cc.unary_transform(d_in=z, d_out=d_out, op=lambda p: p[0] + p[1],
                       num_items=8)
    np.testing.assert_array_equal(host(d_out), a + b)
    # zipped with a counting iterator, reduced through a TransformIterator
    z = cc.ZipIterator(dev_array(a, device), cc.CountingIterator(np.int32(3)))
    out = dev_array(np.zeros(1, np.int64), device)
    cc.reduce_into(d_in=cc.TransformIterator(z, dot_term), d_out=out,
                   op=OpKind.PLUS, num_items=8, h_init=np.int64(0))
    c = np.arange(3, 11)
    assert host(out)[0] == (a * c - c).sum()


def test_iterator_offset(device):
    d_out = dev_array(np.zeros(3, np.int64), device)
    cc.unary_transform(d_in=cc.CountingIterator(np.int64(0)) + 10,
                       d_out=d_out, op=OpKind.IDENTITY, num_items=3)
    np.testing.assert_array_equal(host(d_out), [10, 11, 12])


# ---- the object API -----------------------------------------------------

def test_object_api_two_calls(device):
    h = np.array([1, 2, 3, 4], np.int32)
    d_in = dev_array(h, device)
    d_out = dev_array(np.full(1, -1, np.int32), device)
    init = np.array([5], np.int32)
    r = cc.make_reduce_into(d_in=d_in, d_out=d_out, op=OpKind.PLUS,
                            h_init=init)
    nbytes = r(temp_storage=None, d_in=d_in, d_out=d_out, num_items=4,
               op=OpKind.PLUS, h_init=init)
    assert isinstance(nbytes, int) and nbytes >= 1
    assert host(d_out)[0] == -1        # the size query runs nothing
    tmp = ember.empty(nbytes, dtype="uint8", device=device)
    r(temp_storage=tmp, d_in=d_in, d_out=d_out, num_items=4, op=OpKind.PLUS,
      h_init=init)
    assert host(d_out)[0] == 15
    # arguments left out of the call are those given to make_
    r(temp_storage=tmp, num_items=2)
    assert host(d_out)[0] == 8


def test_object_api_each_algorithm(device):
    h = np.array([4, 2, 3, 1, 9, 6], np.int32)
    d_in = dev_array(h, device)
    out = dev_array(np.zeros(6, np.int32), device)
    num = dev_array(np.zeros(2, np.int64), device)
    tmp = ember.empty(1, dtype="uint8", device=device)

    s = cc.make_inclusive_scan(d_in=d_in, d_out=out, op=OpKind.PLUS,
                               init_value=None)
    assert s(temp_storage=None, num_items=6) >= 1
    s(temp_storage=tmp, num_items=6)
    np.testing.assert_array_equal(host(out), np.cumsum(h))

    s = cc.make_exclusive_scan(d_in=d_in, d_out=out, op=max_op,
                               init_value=np.int32(0))
    s(temp_storage=tmp, num_items=6)
    np.testing.assert_array_equal(host(out), [0, 4, 4, 4, 4, 9])

    sel = cc.make_select(d_in=d_in, d_out=out, d_num_selected_out=num,
                         cond=is_even)
    sel(temp_storage=tmp, num_items=6)
    assert host(num)[0] == 3
    np.testing.assert_array_equal(host(out)[:3], [4, 2, 6])

    t = cc.make_unary_transform(d_in=d_in, d_out=out, op=add_one)
    t(d_in=d_in, d_out=out, op=add_one, num_items=6)
    np.testing.assert_array_equal(host(out), h + 1)

    srt = cc.make_radix_sort(d_in_keys=d_in, d_out_keys=out, d_in_values=None,
                             d_out_values=None, order=SortOrder.DESCENDING)
    srt(temp_storage=tmp, num_items=6)
    np.testing.assert_array_equal(host(out), np.sort(h)[::-1])

    ms = cc.make_merge_sort(d_in_keys=d_in, d_out_keys=out, op=OpKind.LESS)
    ms(temp_storage=tmp, num_items=6)
    np.testing.assert_array_equal(host(out), np.sort(h))

    hist = dev_array(np.zeros(3, np.int32), device)
    hg = cc.make_histogram_even(d_samples=d_in, d_histogram=hist,
                                h_num_output_levels=np.array([4], np.int32),
                                h_lower_level=np.array([0.0], np.float32),
                                h_upper_level=np.array([9.0], np.float32),
                                num_samples=6)
    hg(temp_storage=tmp)
    np.testing.assert_array_equal(host(hist), [2, 2, 1])

    lb_out = dev_array(np.zeros(2, np.uintp), device)
    sorted_d = dev_array(np.sort(h), device)
    lb = cc.make_lower_bound(d_data=sorted_d,
                             d_values=dev_array(np.array([3, 7], np.int32),
                                                device), d_out=lb_out)
    lb(d_data=sorted_d, num_items=6,
       d_values=dev_array(np.array([3, 7], np.int32), device), num_values=2,
       d_out=lb_out, comp=None)
    np.testing.assert_array_equal(host(lb_out), [2, 5])


def test_object_api_needs_temp_storage_keyword():
    d = ember.arange(4, dtype="int32")
    o = ember.zeros(1, dtype="int32")
    r = cc.make_reduce_into(d_in=d, d_out=o, op=OpKind.PLUS,
                            h_init=np.int32(0))
    with pytest.raises(TypeError, match="temp_storage"):
        r(d_in=d, d_out=o, num_items=4)
    with pytest.raises(TypeError, match="keyword"):
        r(None, d, o)


# ---- inputs and bad arguments -------------------------------------------

def test_reachable_as_attribute_and_modules():
    import subprocess
    import sys
    code = ("import ember; c = ember.cuda.compute; "
            "from ember.cuda.compute.algorithms import select, make_select; "
            "from ember.cuda.compute.iterators import TransformIterator; "
            "from ember.cuda.compute.op import OpKind; "
            "print(c.OpKind.PLUS is OpKind.PLUS, callable(select))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, env={**__import__("os").environ,
                                         "EMBER_DEVICE": "cpu"})
    assert out.stdout.strip() == "True True", out.stderr


def test_cuda_array_interface_input(device):
    class Wrapped:   # a foreign array: only the interface ember.asarray reads
        def __init__(self, a):
            self.a = a

        @property
        def __cuda_array_interface__(self):
            return self.a.__cuda_array_interface__

    a = dev_array(np.arange(6, dtype=np.int32), device)
    if not hasattr(a, "__cuda_array_interface__"):
        pytest.skip("this device's arrays have no __cuda_array_interface__")
    out = dev_array(np.zeros(6, np.int32), device)
    cc.unary_transform(d_in=Wrapped(a), d_out=Wrapped(out), op=add_one,
                       num_items=6)
    np.testing.assert_array_equal(host(out), np.arange(1, 7))


def _reduce(**kw):
    args = dict(d_in=ember.arange(4, dtype="int32"),
                d_out=ember.zeros(1, dtype="int32"), op=OpKind.PLUS,
                num_items=4, h_init=np.int32(0))
    args.update(kw)
    cc.reduce_into(**args)


@pytest.mark.parametrize("kw, exc, match", [
    (dict(num_items=-1), ValueError, "num_items"),
    (dict(num_items=2.0), TypeError, "num_items"),
    (dict(num_items=True), TypeError, "num_items"),
    (dict(num_items=5), ValueError, "num_items"),
    (dict(d_in=np.arange(4, dtype=np.int32)), TypeError, "d_in"),
    (dict(d_in=[1, 2, 3, 4]), TypeError, "d_in"),
    (dict(d_out=None), TypeError, "d_out"),
    (dict(op="add"), TypeError, "op"),
    (dict(op=5), TypeError, "op"),
    (dict(op=OpKind.NEGATE), ValueError, "op"),
    (dict(h_init=[0]), TypeError, "h_init"),
    (dict(h_init=np.zeros(2, np.int32)), ValueError, "h_init"),
])
def test_reduce_into_bad_arguments(kw, exc, match):
    with pytest.raises(exc, match=match):
        _reduce(**kw)


def test_multidimensional_arrays(device):
    h = np.arange(12, dtype=np.int32).reshape(3, 4)
    out = dev_array(np.zeros((3, 4), np.int32), device)
    cc.unary_transform(d_in=dev_array(h, device), d_out=out, op=add_one,
                       num_items=12)
    np.testing.assert_array_equal(host(out), h + 1)
    with pytest.raises(ValueError, match="C-contiguous"):
        cc.unary_transform(d_in=dev_array(h, device), d_out=out.T,
                           op=add_one, num_items=12)


def test_bad_arguments_elsewhere():
    d = ember.arange(4, dtype="int32")
    o = ember.zeros(4, dtype="int32")
    with pytest.raises(TypeError, match="order"):
        cc.radix_sort(d_in_keys=d, d_out_keys=o, order="ascending",
                      num_items=4)
    with pytest.raises(ValueError, match="d_out_keys"):
        cc.radix_sort(d_in_keys=cc.DoubleBuffer(d, o), d_out_keys=o,
                      order=SortOrder.ASCENDING, num_items=4)
    with pytest.raises(ValueError, match="modifier"):
        cc.CacheModifiedInputIterator(d, "L1")
    with pytest.raises(ValueError, match="op"):
        cc.binary_transform(d_in1=d, d_in2=d, d_out=o, op=OpKind.BIT_NOT,
                            num_items=4)
    with pytest.raises(TypeError, match="d_out"):
        cc.unary_transform(d_in=d, d_out=cc.CountingIterator(np.int32(0)),
                           op=add_one, num_items=4)
    with pytest.raises(TypeError, match="d_in"):
        cc.unary_transform(d_in=cc.TransformOutputIterator(o, add_one),
                           d_out=o, op=add_one, num_items=4)
    with pytest.raises(TypeError, match="start"):
        cc.CountingIterator("0")
    with pytest.raises(TypeError, match="exclusive_scan"):
        cc.exclusive_scan(d_in=d, d_out=o, op=OpKind.PLUS, init_value=None,
                          num_items=4)


def test_not_implemented_says_what_is_missing():
    d = ember.arange(4, dtype="int32")
    # zipped values are structs: a number as init is the wrong type
    with pytest.raises(TypeError, match="struct init value"):
        cc.reduce_into(d_in=cc.ZipIterator(d, d),
                       d_out=ember.zeros(1, dtype="int32"), op=OpKind.PLUS,
                       num_items=4, h_init=np.int32(0))
    with pytest.raises(AttributeError, match="no field of name x"):
        cc.unary_transform(d_in=cc.ZipIterator(d, d), d_out=d,
                           op=lambda p: p.x, num_items=4)
    with pytest.raises(NotImplementedError, match="sort keys"):
        cc.merge_sort(d_in_keys=cc.ZipIterator(d, d), d_out_keys=d,
                      op=OpKind.LESS, num_items=4)
    with pytest.raises(NotImplementedError, match="comparator"):
        cc.merge_sort(d_in_keys=d, d_out_keys=d, op=lambda a, b: a < b,
                      num_items=4)
    with pytest.raises(NotImplementedError, match="ReverseIterator"):
        cc.ReverseIterator(cc.CountingIterator(np.int32(0)))
