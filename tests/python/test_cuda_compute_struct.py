"""ember.cuda.compute's struct values (python/ember/cuda/compute/_struct.py)
on every device, against NumPy on the same records: gpu_struct's two
forms and its host values, reductions and scans of struct arrays,
ZipIterators and struct-returning TransformIterators, nested structs,
structs of more than four fields, struct transforms and output
iterators, and the errors of wrong fields and mismatched types."""
import numpy as np
import pytest

import ember
import ember.cuda.compute as cc
from ember.cuda.compute import (ConstantIterator, CountingIterator, OpKind,
                                TransformIterator, TransformOutputIterator,
                                ZipIterator, gpu_struct)
from ember._struct_array import StructArray

RNG = np.random.default_rng(11)


@gpu_struct
class MinMax:
    lo: np.float64
    hi: np.float64


@gpu_struct
class Point:
    x: np.int32
    y: np.int32


@gpu_struct
class Color:
    r: np.uint8
    g: np.uint8
    b: np.uint8


@gpu_struct
class Pixel:
    pos: Point
    color: Color


SumCount = gpu_struct({"s": np.float32, "n": np.int32}, name="SumCount")


def minmax_op(a, b):
    return MinMax(min(a.lo, b.lo), max(a.hi, b.hi))


def to_minmax(v):
    av = abs(v)
    return MinMax(av, av)


def add_pixels(p, q):
    return Pixel(Point(p.pos.x + q.pos.x, p.pos.y + q.pos.y),
                 (p.color.r + q.color.r, p.color.g + q.color.g,
                  p.color.b + q.color.b))


def min_y_point(p, q):
    return p if p.y < q.y else q      # a tie keeps the left one


def add_sc(a, b):
    return SumCount(a.s + b.s, a.n + b.n)


def running_mean(v):
    return v.s / v.n


def swap_local(a, b):
    t = Point(a.x + b.x, a.y + b.y)
    t = Point(t.y, t.x)              # reads t while writing it
    t.x = t.x + 0                    # a field assignment
    return t


def dev(h, device):
    return ember.asarray(h, device=device)


# ---- gpu_struct -------------------------------------------------------------

def test_gpu_struct_types_and_values():
    assert MinMax.dtype == np.dtype([("lo", "f8"), ("hi", "f8")], align=True)
    assert Pixel.dtype.fields["pos"][0] == Point.dtype
    assert Pixel.dtype.fields["color"][1] == 8
    assert SumCount.__name__ == "SumCount" and SumCount.dtype.names == ("s", "n")
    v = Pixel(Point(1, -2), Color(3, 4, 5))
    assert v.pos.y == -2 and v.color.b == 5 and v[0].x == 1
    assert v == Pixel((1, -2), (3, 4, 5))
    assert np.asarray(v).dtype == Pixel.dtype
    k = Point(x=7, y=8)
    k.x = 9
    assert tuple(k) == (9, 8) and "Point(x=9" in repr(k)
    anon = gpu_struct({"a": np.int16, "inner": {"u": np.float32}})
    assert anon.dtype.fields["inner"][0].names == ("u",)
    assert ember.empty(3, dtype=Point.dtype).dtype == Point.dtype
    with pytest.raises(TypeError, match="missing"):
        Point(1)
    with pytest.raises(TypeError, match="no field"):
        Point(1, 2, z=3)
    with pytest.raises(TypeError, match="field type"):
        gpu_struct({"a": object()})


# ---- reductions --------------------------------------------------------------

def test_reduce_transform_iterator_to_struct(device):
    h = RNG.standard_normal(1000)
    d_out = ember.empty((), dtype=MinMax.dtype, device=device)
    cc.reduce_into(d_in=TransformIterator(dev(h, device), to_minmax),
                   d_out=d_out, num_items=h.size, op=minmax_op,
                   h_init=MinMax(np.inf, -np.inf))
    got = d_out.get()
    assert got["lo"] == np.abs(h).min() and got["hi"] == np.abs(h).max()


def test_reduce_struct_array_conditional_struct(device):
    h = np.zeros(50, Point.dtype)
    h["x"] = np.arange(50)
    h["y"] = RNG.integers(-100, 100, 50)
    d_out = ember.empty(1, Point.dtype, device=device)
    cc.reduce_into(d_in=dev(h, device), d_out=d_out, num_items=50,
                   op=min_y_point, h_init=Point(-1, 1000))
    want = h[np.argmin(h["y"])]
    assert d_out.get()[0] == want


def test_reduce_zip_with_counting_is_argmax(device):
    vals = np.array([0, 1, 2, 7, 4, 7, 3], np.int32)
    dt = np.dtype([("index", np.int32), ("value", np.int32)], align=True)

    def max_by_value(p1, p2):
        return p1 if p1[1] >= p2[1] else p2
    d_out = ember.empty(1, dt, device=device)
    cc.reduce_into(d_in=ZipIterator(CountingIterator(np.int32(0)),
                                    dev(vals, device)),
                   d_out=d_out, num_items=vals.size, op=max_by_value,
                   h_init=np.asarray([(-1, -1)], dt))
    r = d_out.get()[0]
    assert r["value"] == 7 and r["index"] == 3      # the first maximum


def test_reduce_nested_and_tuple_construction(device):
    h = np.zeros(20, Pixel.dtype)
    h["pos"]["x"] = np.arange(20)
    h["pos"]["y"] = -np.arange(20) * 3          # negative: sign extension
    h["color"]["r"] = np.arange(20) * 13 % 256
    h["color"]["g"] = 200
    h["color"]["b"] = np.arange(20)
    d_out = ember.empty(1, Pixel.dtype, device=device)
    # 5 scalar fields: more than ember.parallel's 4 tuple components
    cc.reduce_into(d_in=dev(h, device), d_out=d_out, num_items=20,
                   op=add_pixels, h_init=Pixel(Point(0, 0), Color(0, 0, 0)))
    r = d_out.get()[0]
    assert r["pos"]["x"] == h["pos"]["x"].sum()
    assert r["pos"]["y"] == h["pos"]["y"].sum()
    for c in "rgb":
        assert r["color"][c] == h["color"][c].astype(np.int64).sum() % 256


def test_reduce_zip_of_struct_arrays(device):
    n = 30
    pts = np.zeros(n, Point.dtype)
    pts["x"], pts["y"] = np.arange(n), np.arange(n) * 2
    cols = np.zeros(n, Color.dtype)
    cols["r"], cols["g"], cols["b"] = 1, 2, np.arange(n)
    d_out = ember.empty(1, Pixel.dtype, device=device)
    cc.reduce_into(d_in=ZipIterator(dev(pts, device), dev(cols, device)),
                   d_out=d_out, num_items=n, op=add_pixels,
                   h_init=Pixel(Point(0, 0), Color(0, 0, 0)))
    r = d_out.get()[0]
    assert (r["pos"]["x"], r["pos"]["y"]) == (pts["x"].sum(), pts["y"].sum())
    assert (r["color"]["r"], r["color"]["g"], r["color"]["b"]) == (
        n, 2 * n, cols["b"].astype(int).sum() % 256)


def test_reduce_opkind_per_field_and_empty(device):
    h = np.zeros(10, Point.dtype)
    h["x"], h["y"] = np.arange(10), 3
    d_out = ember.empty(1, Point.dtype, device=device)
    cc.reduce_into(d_in=dev(h, device), d_out=d_out, num_items=10,
                   op=OpKind.PLUS, h_init=Point(1, 1))
    assert d_out.get()[0] == np.array((46, 31), Point.dtype)
    cc.reduce_into(d_in=dev(h, device), d_out=d_out, num_items=0,
                   op=OpKind.PLUS, h_init=Point(5, 6))
    assert d_out.get()[0] == np.array((5, 6), Point.dtype)


def test_struct_locals(device):
    h = np.zeros(6, Point.dtype)
    h["x"], h["y"] = np.arange(6), 10 * np.arange(6)
    d_out = ember.empty(6, Point.dtype, device=device)
    cc.inclusive_scan(d_in=dev(h, device), d_out=d_out, op=swap_local,
                      num_items=6)
    want = [tuple(h[0])]
    for k in range(1, 6):
        a, b = want[-1], h[k]
        want.append((a[1] + b["y"], a[0] + b["x"]))
    np.testing.assert_array_equal(d_out.get(), np.array(want, Point.dtype))


# ---- scans -------------------------------------------------------------------

def test_scan_zip_constant_into_output_iterator(device):
    h = RNG.random(40).astype(np.float32)
    d_out = ember.empty(40, "float32", device=device)
    cc.inclusive_scan(d_in=ZipIterator(dev(h, device),
                                       ConstantIterator(np.int32(1))),
                      d_out=TransformOutputIterator(d_out, running_mean),
                      op=add_sc, init_value=SumCount(0.0, 0), num_items=40)
    want = np.cumsum(h, dtype=np.float32) / np.arange(1, 41)
    np.testing.assert_allclose(ember.asnumpy(d_out), want, rtol=1e-5)


def test_segmented_scan_with_flags(device):
    vf = gpu_struct({"value": np.int64, "flag": np.int32})

    def seg(a, b):
        f: np.int32 = 1 if a.flag or b.flag else 0
        v = b.value if b.flag else a.value + b.value
        return vf(v, f)
    data = np.arange(1, 9, dtype=np.int64)
    flags = np.array([0, 0, 1, 0, 0, 1, 1, 0], np.int32)
    d_out = ember.empty(8, vf.dtype, device=device)
    cc.inclusive_scan(d_in=ZipIterator(dev(data, device), dev(flags, device)),
                      d_out=d_out, op=seg, init_value=vf(0, 0), num_items=8)
    want, acc = [], 0
    for v, f in zip(data, flags):
        acc = v if f else acc + v
        want.append(acc)
    np.testing.assert_array_equal(d_out.get()["value"], want)


def test_exclusive_scan_struct(device):
    h = np.zeros(5, SumCount.dtype)
    h["s"], h["n"] = [1, 2, 3, 4, 5], 1
    d_out = ember.empty(5, SumCount.dtype, device=device)
    cc.exclusive_scan(d_in=dev(h, device), d_out=d_out, op=add_sc,
                      init_value=SumCount(10.0, 0), num_items=5)
    got = d_out.get()
    np.testing.assert_array_equal(got["s"], [10, 11, 13, 16, 20])
    np.testing.assert_array_equal(got["n"], [0, 1, 2, 3, 4])


# ---- transforms ----------------------------------------------------------------

def test_binary_transform_structs(device):
    def add_points(p, q: Point) -> Point:
        return Point(p.x + q.x, p.y - q.y)
    a = np.zeros(100, Point.dtype)
    b = np.zeros(100, Point.dtype)
    for h in (a, b):
        h["x"], h["y"] = RNG.integers(-1000, 1000, (2, 100))
    d_out = ember.empty_like(dev(a, device))
    cc.binary_transform(d_in1=dev(a, device), d_in2=dev(b, device),
                        d_out=d_out, op=add_points, num_items=100)
    got = d_out.get()
    np.testing.assert_array_equal(got["x"], a["x"] + b["x"])
    np.testing.assert_array_equal(got["y"], a["y"] - b["y"])


def test_struct_and_number_to_number(device):
    def weigh(v, t):
        return v.lo * t + v.hi
    h = np.zeros(16, MinMax.dtype)
    h["lo"], h["hi"] = RNG.random(16), RNG.random(16)
    d_out = ember.empty(16, "float64", device=device)
    cc.binary_transform(d_in1=dev(h, device),
                        d_in2=CountingIterator(np.int64(2)), d_out=d_out,
                        op=weigh, num_items=16)
    np.testing.assert_allclose(ember.asnumpy(d_out),
                               h["lo"] * np.arange(2, 18) + h["hi"])


def test_unary_transform_to_struct_and_zip_fields(device):
    def split(p):
        return Point(p.f0 * 2, p[1] - 1)
    a = np.arange(10, dtype=np.int32)
    b = np.arange(10, 20, dtype=np.int64)
    d_out = ember.empty(10, Point.dtype, device=device)
    cc.unary_transform(d_in=ZipIterator(dev(a, device), dev(b, device)),
                       d_out=d_out, op=split, num_items=10)
    got = d_out.get()
    np.testing.assert_array_equal(got["x"], a * 2)
    np.testing.assert_array_equal(got["y"], b - 1)


# ---- errors --------------------------------------------------------------------

def test_errors(device):
    h = dev(np.zeros(4, Point.dtype), device)
    out = ember.empty(1, Point.dtype, device=device)

    def bad_field(a, b):
        return Point(a.z, b.y)

    def bad_key(a, b):
        return Point(a["z"], b.y)

    def numbers(a, b):
        return a.x + b.x
    with pytest.raises(AttributeError, match="no field of name z"):
        cc.reduce_into(d_in=h, d_out=out, num_items=4, op=bad_field,
                       h_init=Point(0, 0))
    with pytest.raises(ValueError, match="no field of name z"):
        cc.reduce_into(d_in=h, d_out=out, num_items=4, op=bad_key,
                       h_init=Point(0, 0))
    with pytest.raises(NotImplementedError, match="number where the struct"):
        cc.reduce_into(d_in=h, d_out=out, num_items=4, op=numbers,
                       h_init=Point(0, 0))
    with pytest.raises(TypeError, match="fields"):
        cc.reduce_into(d_in=h, d_out=out, num_items=4, op=minmax_op,
                       h_init=Pixel(Point(0, 0), Color(0, 0, 0)))
    with pytest.raises(TypeError, match="struct init value"):
        cc.reduce_into(d_in=h, d_out=out, num_items=4, op=OpKind.PLUS,
                       h_init=np.int32(0))
    with pytest.raises(TypeError, match="takes 2 arguments"):
        cc.select(d_in=h, d_out=out, d_num_selected_out=ember.zeros(
            1, "int64", device=device), cond=numbers, num_items=4)
    with pytest.raises(TypeError, match="cannot be written"):
        cc.reduce_into(d_in=h, d_out=ember.empty(1, "int32", device=device),
                       num_items=4, op=min_y_point, h_init=Point(0, 0))
    assert isinstance(out, StructArray)


def test_permutation_and_reverse_of_struct_arrays(device):
    h = np.zeros(6, Point.dtype)
    h["x"], h["y"] = np.arange(6), np.arange(6) * 10
    idx = np.array([5, 0, 3], np.int64)
    d_out = ember.empty(1, Point.dtype, device=device)
    cc.reduce_into(d_in=cc.PermutationIterator(dev(h, device),
                                               dev(idx, device)),
                   d_out=d_out, num_items=3, op=OpKind.PLUS,
                   h_init=Point(0, 0))
    assert d_out.get()[0] == np.array((8, 80), Point.dtype)
    # scan written through a permutation and through a reversal
    tgt = ember.zeros(6, Point.dtype, device=device)
    cc.inclusive_scan(d_in=dev(h, device), op=OpKind.PLUS, num_items=3,
                      d_out=cc.PermutationIterator(tgt, dev(idx, device)))
    want = np.zeros(6, Point.dtype)
    want[idx] = np.array([(0, 0), (1, 10), (3, 30)], Point.dtype)
    np.testing.assert_array_equal(tgt.get(), want)
    rev = ember.zeros(6, Point.dtype, device=device)
    cc.inclusive_scan(d_in=cc.ReverseIterator(dev(h, device)), op=OpKind.PLUS,
                      num_items=6, d_out=cc.ReverseIterator(rev))
    want = np.zeros(6, Point.dtype)
    want["x"] = np.cumsum(h["x"][::-1])[::-1]
    want["y"] = np.cumsum(h["y"][::-1])[::-1]
    np.testing.assert_array_equal(rev.get(), want)


def test_lambda_over_structs_rewritten_once(device):
    h = np.zeros(8, Point.dtype)
    h["x"], h["y"] = np.arange(8), 1
    d = dev(h, device)
    d_out = ember.empty(1, Point.dtype, device=device)
    seen = set()
    for k in range(3):
        cc.reduce_into(d_in=d, d_out=d_out, num_items=8,
                       op=lambda a, b: Point(a.x + b.x, max(a.y, b.y) + k),
                       h_init=Point(0, 0))
        from ember.cuda.compute import _struct
        seen.add(len(_struct._BY_CODE))
        assert d_out.get()[0]["x"] == 28
    assert len(seen) <= 3


@pytest.mark.parametrize("struct", ["Point", "Pixel"])
def test_segmented_reduce_structs(device, struct):
    n = 40
    h = np.zeros(n, Pixel.dtype)
    h["pos"]["x"] = np.arange(n)
    h["pos"]["y"] = -np.arange(n)
    h["color"]["r"] = np.arange(n) * 7 % 256
    h["color"]["g"], h["color"]["b"] = 1, np.arange(n)
    starts = np.array([0, 5, 5, 12, 30], np.int64)   # an empty segment,
    ends = np.array([5, 5, 12, 20, 40], np.int64)     # a gap (20..30)
    if struct == "Point":
        vals, init, op = h["pos"].copy(), Point(100, 0), OpKind.PLUS
        dt = Point.dtype
    else:       # 5 fields: packed words through the by-key scan
        vals, init, op = h, Pixel(Point(100, 0), Color(0, 0, 0)), add_pixels
        dt = Pixel.dtype
    d_out = ember.empty(len(starts), dt, device=device)
    cc.segmented_reduce(d_in=dev(vals, device), d_out=d_out,
                        num_segments=len(starts),
                        start_offsets_in=dev(starts, device),
                        end_offsets_in=dev(ends, device), op=op, h_init=init)
    got = d_out.get()
    pos = got["pos"] if struct == "Pixel" else got
    for i, (a, b) in enumerate(zip(starts, ends)):
        p = h["pos"][a:b]
        assert (pos["x"][i], pos["y"][i]) == (100 + p["x"].sum(),
                                              p["y"].sum())
        if struct == "Pixel":
            c = h["color"][a:b]
            assert got["color"]["r"][i] == c["r"].astype(int).sum() % 256
            assert got["color"]["b"][i] == c["b"].astype(int).sum() % 256


def test_unsupported_struct_algorithms(device):
    h = dev(np.zeros(4, Point.dtype), device)
    with pytest.raises(NotImplementedError, match="histogram_even|struct"):
        cc.histogram_even(d_samples=h, d_histogram=ember.zeros(
            3, "int32", device=device), num_output_levels=4, lower_level=0.0,
            upper_level=1.0, num_samples=4)
    with pytest.raises(NotImplementedError, match="sort keys"):
        cc.radix_sort(d_in_keys=h, d_out_keys=h, num_items=4,
                      order=cc.SortOrder.ASCENDING)


def test_select_partition_of_structs(device):
    h = np.zeros(30, Point.dtype)
    h["x"], h["y"] = np.arange(30), RNG.integers(-10, 10, 30)

    def y_positive(p):
        return p.y > 0

    def x_even(p):
        return p.x % 2 == 0
    d_out = ember.zeros(30, Point.dtype, device=device)
    cnt = ember.zeros(2, "int64", device=device)
    cc.select(d_in=dev(h, device), d_out=d_out, d_num_selected_out=cnt,
              cond=y_positive, num_items=30)
    want = h[h["y"] > 0]
    assert int(ember.asnumpy(cnt)[0]) == want.size
    np.testing.assert_array_equal(d_out.get()[:want.size], want)
    parts = [ember.zeros(30, Point.dtype, device=device) for _ in range(3)]
    cc.three_way_partition(d_in=dev(h, device), d_first_part_out=parts[0],
                           d_second_part_out=parts[1],
                           d_unselected_out=parts[2], d_num_selected_out=cnt,
                           select_first_part_op=y_positive,
                           select_second_part_op=x_even, num_items=30)
    m1 = h["y"] > 0
    m2 = (h["x"] % 2 == 0) & ~m1
    for p, m in zip(parts, (m1, m2, ~(m1 | m2))):
        np.testing.assert_array_equal(p.get()[:m.sum()], h[m])


def test_sort_and_unique_with_struct_values(device):
    keys = RNG.integers(0, 5, 25).astype(np.int32)
    h = np.zeros(25, Point.dtype)
    h["x"], h["y"] = np.arange(25), -np.arange(25)
    order = np.argsort(keys, kind="stable")
    for sort in ("merge", "radix"):
        ko = ember.empty(25, "int32", device=device)
        vo = ember.empty(25, Point.dtype, device=device)
        if sort == "merge":
            cc.merge_sort(d_in_keys=dev(keys, device), d_out_keys=ko,
                          d_in_values=dev(h, device), d_out_values=vo,
                          op=OpKind.LESS, num_items=25)
        else:
            cc.radix_sort(d_in_keys=dev(keys, device), d_out_keys=ko,
                          d_in_values=dev(h, device), d_out_values=vo,
                          order=cc.SortOrder.ASCENDING, num_items=25)
        np.testing.assert_array_equal(ember.asnumpy(ko), keys[order])
        np.testing.assert_array_equal(vo.get(), h[order])
    sk = np.sort(keys)
    uk = ember.empty(25, "int32", device=device)
    uv = ember.empty(25, Point.dtype, device=device)
    cnt = ember.zeros(1, "int64", device=device)
    cc.unique_by_key(d_in_keys=dev(sk, device), d_in_items=dev(h, device),
                     d_out_keys=uk, d_out_items=uv, d_out_num_selected=cnt,
                     op=OpKind.EQUAL_TO, num_items=25)
    first = np.r_[True, sk[1:] != sk[:-1]]
    k = int(ember.asnumpy(cnt)[0])
    assert k == first.sum()
    np.testing.assert_array_equal(uv.get()[:k], h[first])


def test_packed_mixed_fields(device):
    S = gpu_struct({"a": np.int8, "b": np.bool_, "c": np.int16,
                    "d": np.uint32, "e": np.float32})

    def op(p, q):
        # associative, as a reduction's operator must be (a parallel tree
        # groups it its own way): negative int16 sums test the sign bits
        return S(p.a + q.a, p.b or q.b, p.c + q.c, p.d + q.d, p.e + q.e)
    h = np.zeros(10, S.dtype)
    h["a"], h["c"] = np.arange(10) - 5, (np.arange(10) - 9) * 700
    h["b"][3], h["d"], h["e"] = True, 4000000000, 0.5
    out = ember.empty(1, S.dtype, device=device)
    cc.reduce_into(d_in=dev(h, device), d_out=out, num_items=10, op=op,
                   h_init=S(0, False, 0, 0, 0.0))
    r = out.get()[0]
    assert (r["a"], r["b"], r["c"]) == (-5, True, h["c"].astype(int).sum())
    assert r["d"] == h["d"].astype(np.uint64).sum() % 2**32
    assert r["e"] == 5.0
    F = gpu_struct({k: np.float32 for k in "abcde"})
    with pytest.raises(NotImplementedError, match="64-bit words"):
        cc.reduce_into(d_in=ember.zeros(3, F.dtype, device=device),
                       d_out=ember.empty(1, F.dtype, device=device),
                       num_items=3, op=lambda p, q: p,
                       h_init=F(0, 0, 0, 0, 0))
