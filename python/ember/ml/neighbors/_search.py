"""Brute-force k nearest neighbours: the queries in blocks sized so that a
block's scores against every training row stay under BLOCK values, one
matmul a block (Prepared.parts; float32 on a GPU _split.py's 3xTF32
product) and a top-k of each row; distances are never stored whole.

k <= 64 is one read of the scores by a kernel: kernels/topk_warp.cuh on
a GPU (a warp a row, the k best in its registers), kernels/topk_host.cuh
on cpu (one thread a row, scanning in vector steps against the list's
bound); larger k a stable argsort of each row. All
give the order of a stable sort, by index among equal distances. A fused
kernel (GEMM tile + per-row selection in registers) would also save
writing the block and reading it back once (docs/ml.md, Speed)."""
import pathlib

import numpy

import ember
from ember.ml._launch import launch
from ember.ml.metrics.pairwise import BLOCK, row_blocks
from ember.ml.neighbors import _split

_KERNEL_K = 64
_KERNEL = pathlib.Path(__file__).parent.parent / "kernels" / "topk_rows.cuh"
_HOST_KERNEL = pathlib.Path(__file__).parent.parent / "kernels" / "topk_host.cuh"
_WARP_KERNEL = pathlib.Path(__file__).parent.parent / "kernels" / "topk_warp.cuh"
_THREADS = 128
# topk_warp.cuh: rows a block (a warp each) and loads a lane in flight
_WARPS = 8
_UNROLL = 16
# values in a block of scores on a GPU: 2^28 (1 GiB float32) gives the warp
# kernel thousands of rows (warps) a block, enough loads in flight to keep
# the memory busy (20,000 x 10^5: 2,684 rows, 8 blocks of scores)
GPU_BLOCK = 1 << 28
_CTYPE = {"float32": "float", "float64": "double"}
_modules = {}


def _kmax(k):
    return 16 if k <= 16 else 64


def _threads(dev):
    # a cpu block is one thread scanning its row: the block simulator's
    # fibers cost more than the merge saves there (1000 x 20000 float32,
    # k=10 on 2 cores: 0.46 s with 128 threads, 0.06 s with one; 10 argmin
    # passes took 0.14-0.5 s)
    return _THREADS if dev.type != "cpu" else 1


def _names():
    return [f"em_topk_rows<{c}, {m}, {t}>" for c in _CTYPE.values()
            for m in (16, 64) for t in (1, _THREADS)]


def _host_names():
    return [f"em_topk_host<{c}, {m}>" for c in _CTYPE.values() for m in (16, 64)]


def _warp_names():
    return [f"em_topk_warp<{c}, {p}, {_WARPS}, {_UNROLL}, {a}>" for c in _CTYPE.values()
            for p in (1, 2) for a in ("true", "false")]


def top_k_warp(S, k, add=None):
    """top_k_rows of S + add[None, :] through kernels/topk_warp.cuh (a warp
    a row; k <= 64). The GPU's path; on cpu it runs in the block simulator
    (tests)."""
    dev = S.device
    key = ("warp", str(dev))
    mod = _modules.get(key)
    if mod is None:
        with dev:
            mod = ember.RawModule(code=_WARP_KERNEL.read_text(),
                                  name_expressions=_warp_names())
        _modules[key] = mod
    b, n = S.shape
    S = ember.ascontiguousarray(S)
    # without a row vector the kernel reads S alone (add is not read)
    has_add = add is not None
    add = ember.ascontiguousarray(add.astype(S.dtype)) if has_add else S
    vals = ember.empty((b, k), dtype=S.dtype, device=dev)
    idx = ember.empty((b, k), dtype=ember.int64, device=dev)
    kpl = 1 if k <= 32 else 2
    f = mod.get_function(f"em_topk_warp<{_CTYPE[S.dtype.name]}, {kpl}, {_WARPS}, "
                         f"{_UNROLL}, {'true' if has_add else 'false'}>")
    launch(dev, f, (max(1, min(-(-b // _WARPS), 65536)),), (32 * _WARPS,),
           (S, add, numpy.int64(b), numpy.int64(n), numpy.int32(k), vals, idx))
    return vals, idx


def top_k_kernel(S, k, add=None, threads=None):
    """top_k_rows of S + add[None, :] through kernels/topk_rows.cuh: one
    read of the block, the row vector added as it is read (threads: a
    block's, the device's choice by default). A cpu block of one thread
    is kernels/topk_host.cuh's vector scan (the same result)."""
    dev = S.device
    t = threads or _threads(dev)
    host = dev.type == "cpu" and t == 1
    key = ("host", str(dev)) if host else str(dev)
    mod = _modules.get(key)
    if mod is None:
        with dev:
            mod = ember.RawModule(code=(_HOST_KERNEL if host else _KERNEL).read_text(),
                                  name_expressions=_host_names() if host else _names())
        _modules[key] = mod
    b, n = S.shape
    S = ember.ascontiguousarray(S)
    add = ember.zeros(n, dtype=S.dtype, device=dev) if add is None else \
        ember.ascontiguousarray(add.astype(S.dtype))
    vals = ember.empty((b, k), dtype=S.dtype, device=dev)
    idx = ember.empty((b, k), dtype=ember.int64, device=dev)
    c = _CTYPE[S.dtype.name]
    f = mod.get_function(f"em_topk_host<{c}, {_kmax(k)}>" if host else
                         f"em_topk_rows<{c}, {_kmax(k)}, {t}>")
    launch(dev, f, (max(1, min(b, 65536)),), (t,),
           (S, add, numpy.int64(b), numpy.int64(n), numpy.int32(k), vals, idx))
    return vals, idx


def top_k_rows(S, k, add=None):
    """(values, indices) of the k smallest of each row of S + add[None, :]
    (add a row vector or None), ascending and stable; S may be overwritten.
    k <= 64 is the kernel, past that a stable sort of each row."""
    if k <= _KERNEL_K:
        if S.device.type != "cpu":
            return top_k_warp(S, k, add)
        return top_k_kernel(S, k, add)
    if add is not None:
        S += add.reshape(1, -1)
    idx = ember.argsort(S, axis=1, kind="stable")[:, :k]
    return ember.take_along_axis(S, idx, axis=1), idx


def _drop_self(dist, ind, start, k):
    """scikit-learn's rule for queries that are the training points: drop
    each row's own index, or its first neighbour where duplicates pushed
    the point itself out of the k + 1."""
    b = ind.shape[0]
    own = ember.arange(start, start + b, device=ind.device).reshape(-1, 1)
    keep = ind != own
    lost = keep.all(axis=1)
    keep[:, 0] = ember.logical_and(keep[:, 0], ember.logical_not(lost))
    order = ember.argsort(ember.logical_not(keep).astype(ember.int8), axis=1,
                          kind="stable")[:, :k]
    return (ember.take_along_axis(dist, order, axis=1),
            ember.take_along_axis(ind, order, axis=1))


# devices whose blocks alternate between two streams, so that one block's
# top-k pass (bound by memory) runs beside the next block's GEMM (bound by
# arithmetic); tests add cpu to check the ordering there
STREAM_DEVICES = {"cuda"}


def kneighbors(prep, Q, k, exclude_self=False, want_dist=True, budget=None):
    """(distances, indices), each (len(Q), k), of the k nearest rows of
    prep.Y to each row of Q; budget: values in a block of scores (BLOCK on
    cpu, GPU_BLOCK on a GPU)."""
    if budget is None:
        budget = BLOCK if Q.device.type == "cpu" else GPU_BLOCK
    kk = k + 1 if exclude_self else k
    n_fit = prep.Y.shape[0]
    blocks = list(row_blocks(Q.shape[0], n_fit, budget))
    parts = _split.parts_of(prep, Q)

    def one(s):
        Qb = Q[s]
        G, add = parts(s)
        vals, ind = top_k_rows(G, kk, add)
        dist = prep.finish(vals, Qb) if want_dist else vals
        if exclude_self:
            dist, ind = _drop_self(dist, ind, s.start, k)
        return dist, ind

    if len(blocks) == 1:
        return one(blocks[0])
    if Q.device.type in STREAM_DEVICES:
        return _on_two_streams(Q, k, one, blocks)
    out = [one(s) for s in blocks]
    return (ember.concatenate([d for d, _ in out], axis=0),
            ember.concatenate([i for _, i in out], axis=0))


def _on_two_streams(Q, k, one, blocks):
    """one(block) for each block, alternately on two new streams that start
    after the work queued so far on the current stream, each block's
    results copied on its stream into outputs made on the current stream,
    whose later work waits for both streams. So every temporary of a block
    is made, used and freed on one stream (each stream's free list is its
    own: no block's memory is reused under another's reads)."""
    dev = Q.device
    cur = ember.cuda.get_current_stream()
    if cur.device != dev:
        with dev:
            cur = ember.cuda.get_current_stream()
    with cur:
        n = Q.shape[0]
        dist = ember.empty((n, k), dtype=Q.dtype, device=dev)
        ind = ember.empty((n, k), dtype=ember.int64, device=dev)
        streams = [ember.cuda.Stream(non_blocking=True, device=dev) for _ in range(2)]
        start = cur.record()
        for st in streams:
            st.wait_event(start)
        for i, s in enumerate(blocks):
            with streams[i % 2]:
                d, ix = one(s)
                dist[s] = d
                ind[s] = ix
        for st in streams:
            cur.wait_event(st.record())
    return dist, ind


def radius_neighbors(prep, Q, radius, exclude_self=False, sort_results=False,
                     budget=BLOCK):
    """CSR parts (indptr, indices, distances) of the rows of prep.Y within
    `radius` of each row of Q, by block; each row's neighbours by index, or
    by distance then index when sort_results."""
    n_fit = prep.Y.shape[0]
    counts, cols, vals = [], [], []
    for s in row_blocks(Q.shape[0], n_fit, budget):
        Qb = Q[s]
        D = prep.block(Qb)
        inside = D <= radius
        if exclude_self:
            b = s.stop - s.start
            own = ember.arange(b, device=D.device)
            inside[own, own + s.start] = False
        r, c = ember.nonzero(inside)
        d = D[r, c]
        if sort_results:
            order = ember.lexsort((c, d, r))
            r, c, d = r[order], c[order], d[order]
        counts.append(ember.bincount(r, minlength=s.stop - s.start))
        cols.append(c.astype(ember.int64))
        vals.append(d)
    cat = (lambda xs: xs[0] if len(xs) == 1 else ember.concatenate(xs))
    counts = cat(counts)
    indptr = ember.concatenate([ember.zeros(1, dtype=ember.int64, device=Q.device),
                                ember.cumsum(counts).astype(ember.int64)])
    return indptr, cat(cols), cat(vals)
