"""ember.cuda.compute: cuda.compute's spelling (CCCL's Python parallel
algorithms, package cuda-cccl) over ember.parallel, on every device.

    import ember.cuda.compute as compute
    compute.reduce_into(d_in=x, d_out=out, op=compute.OpKind.PLUS,
                        num_items=x.size, h_init=np.zeros(1, x.dtype))

Operators are an OpKind or a plain Python function or lambda (made an
ember device function once and kept on the function). Iterators are
materialized into ember arrays where cuda.compute is lazy, and results are
written in place into the caller's outputs. ember needs no temp storage:
an object's call with temp_storage=None returns 1 (byte) and a buffer
given later is not read. docs/algorithms.md ("cuda.compute's spelling")
lists what is supported and what each iterator costs."""
from ember.cuda.compute._ops import OpKind
from ember.cuda.compute.algorithms import (
    DoubleBuffer, SortOrder, binary_transform, exclusive_scan, gpu_struct,
    histogram_even, inclusive_scan, lower_bound, make_binary_transform,
    make_exclusive_scan, make_histogram_even, make_inclusive_scan,
    make_lower_bound, make_merge_sort, make_radix_sort, make_reduce_into,
    make_segmented_reduce, make_segmented_sort, make_select,
    make_three_way_partition, make_unary_transform, make_unique_by_key,
    make_upper_bound, merge_sort, radix_sort, reduce_into, segmented_reduce,
    segmented_sort, select, three_way_partition, unary_transform,
    unique_by_key, upper_bound)
from ember.cuda.compute.iterators import (
    CacheModifiedInputIterator, ConstantIterator, CountingIterator,
    DiscardIterator, PermutationIterator, ReverseInputIterator,
    ReverseIterator, ReverseOutputIterator, ShuffleIterator,
    TransformIterator, TransformOutputIterator, ZipIterator)


_AOT_MISSING = (
    "ember.cuda.compute has no ahead-of-time build objects to serialize: "
    "ember compiles each kernel on first use and keeps it in its own disk "
    "cache ($EMBER_CACHE_DIR), so a second process finds it there")


def serialize(*args, **kwargs):
    """cuda.compute's serialization of built algorithms: not supported."""
    raise NotImplementedError(_AOT_MISSING)


deserialize = serialize


class ProxyArray:
    """cuda.compute's stand-in arrays for ahead-of-time builds: not
    supported."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(_AOT_MISSING)


ProxyValue = ProxyArray


def clear_all_caches():
    """cuda.compute's cache reset: ember's kernels live in ember's own
    cache (ember.cuda.jitcache), so there is nothing here to clear."""


__all__ = [
    "CacheModifiedInputIterator", "ConstantIterator", "CountingIterator",
    "DiscardIterator", "DoubleBuffer", "OpKind", "ProxyArray", "ProxyValue",
    "deserialize", "serialize", "PermutationIterator",
    "ReverseInputIterator", "ReverseIterator", "ReverseOutputIterator",
    "ShuffleIterator", "SortOrder", "TransformIterator",
    "TransformOutputIterator", "ZipIterator", "binary_transform",
    "clear_all_caches", "exclusive_scan", "gpu_struct", "histogram_even",
    "inclusive_scan", "lower_bound", "make_binary_transform",
    "make_exclusive_scan", "make_histogram_even", "make_inclusive_scan",
    "make_lower_bound", "make_merge_sort", "make_radix_sort",
    "make_reduce_into", "make_segmented_reduce", "make_segmented_sort",
    "make_select", "make_three_way_partition", "make_unary_transform",
    "make_unique_by_key", "make_upper_bound", "merge_sort", "radix_sort",
    "reduce_into", "segmented_reduce", "segmented_sort", "select",
    "three_way_partition", "unary_transform", "unique_by_key",
    "upper_bound"]
