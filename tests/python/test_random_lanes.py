"""The lane layout of ember.random's cuda fill (kernels/random_lanes.cuh)
for float32 normals: the cuda kernel run by the host backend as a
RawKernel must draw what the host schedule draws, value for value,
including the ziggurat's deferred draws that a warp finishes from its
queue (and, past the queue's room, in place); and seeks far into a PCG64
stream give NumPy's words."""
import pathlib
import re

import numpy as np
import pytest

import ember
import ember.random as er
from ember.random._streams import M64, pcg_power

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNELS = ROOT / "kernels"

# the lane kernel's arguments a test gives (the rest are rnd_fill's,
# unused by a lane fill), as tests/python/test_random.py's wrapper
LANES_WRAP = """
extern "C" __global__ void rnd_fill_lanes_t(RND_T *out, long long n,
    unsigned long long s0, unsigned long long s1,
    unsigned long long s2, unsigned long long s3, double a, double b,
    unsigned long long j0, unsigned long long j1, unsigned long long j2,
    unsigned long long j3, int dist)
{
    rnd_fill_lanes(out, n, 0, s0, s1, s2, s3, 0, 0, 0, 0, 0, 0, 0, 0, a, b,
                   0, 0, 1, 0, 0, j0, j1, j2, j3, dist);
}
"""


def lane_kernel(lane_r, lq=None):
    body = "".join((KERNELS / f).read_text() for f in
                   ("random_bits.cuh", "random_math.cuh",
                    "random_ziggurat.cuh", "random_fill.cuh",
                    "random_lanes.cuh"))
    src = ("#define RND_CUDA 1\n#define RND_DIST 4\n#define RND_T float\n"
           "#define RND_GEN 0\n#define RND_F32 1\n#define RND_VEC float4\n"
           f"#define RND_VW 4\n#define RND_LANE_R {lane_r}\n" +
           (f"#define RND_LQ {lq}\n" if lq else "")) + body + LANES_WRAP
    return ember.RawKernel(src, "rnd_fill_lanes_t")


def host_normals(bg, n, a, b):
    from ember import _ember
    want = ember.empty(n, dtype=np.float32)
    _ember._random_fill(want, bg._gen, bg._words(), (), None, 4, a, b, 0, 0)
    return ember.asnumpy(want)


def lane_normals(k, bg, n, a, b, blocks, threads, lane_r):
    words = bg._words()
    got = ember.zeros(n, dtype=np.float32)
    # a lane's next segment: past the grid's other warps' segments
    jm, ja = pcg_power(bg._inc, (blocks * threads - 32) * lane_r)
    k((blocks,), (threads,), (got, np.int64(n),
                              *[np.uint64(x) for x in words[:4]],
                              np.float64(a), np.float64(b),
                              *[np.uint64(x) for x in (jm >> 64, jm & M64,
                                                       ja >> 64, ja & M64)],
                              np.int32(4)))
    return ember.asnumpy(got)


@pytest.mark.parametrize("lane_r,lq", [(4, None), (16, None), (16, 4)])
def test_lane_normals_are_the_host_schedules(lane_r, lq):
    """Odd and even counts, a part segment at the end, grids whose warps
    stride over several segments, loc and scale applied after the
    deferred draws; lq=4 leaves most deferred draws to the in-place
    path."""
    k = lane_kernel(lane_r, lq)
    with ember.Device("cpu"):
        for seed, n, a, b in ((17, 2001, 0.0, 1.0), (5, 4096, 2.0, 30.0),
                              (9, 3333, -1.5, 0.25)):
            bg = er.default_rng(seed).bit_generator
            want = host_normals(bg, n, a, b)
            for blocks, threads in ((2, 64), (3, 32), (1, 256)):
                got = lane_normals(k, bg, n, a, b, blocks, threads, lane_r)
                np.testing.assert_array_equal(
                    got, want, err_msg=f"n={n}, R={lane_r}, queue {lq}, "
                    f"{blocks} x {threads}")


def test_lane_normals_include_deferred_draws():
    """The cases above reach the ziggurat's slow path: some elements'
    layer bound is not met by their first abscissa (those are the ones
    rnd_lane_zig defers), so the queue and its drain are exercised."""
    src = (KERNELS / "random_ziggurat.cuh").read_text()
    zk = [int(x.rstrip("u")) for x in
          re.search(r"rnd_zk\[256\] = \{([^}]*)\}", src).group(1).split(",")]
    bg = er.default_rng(17).bit_generator
    words = ember.asnumpy(bg.random_raw(1001))
    halves = np.concatenate([(words & 0xFFFFFFFF)[:, None],
                             (words >> 32)[:, None]], axis=1).ravel()
    layer, absc = halves & 255, halves >> 9
    deferred = absc >= np.array(zk, dtype=np.uint64)[layer]
    assert 5 <= int(deferred.sum()) <= 60


def test_seeks_reach_numpys_words_far_out():
    """A fill that starts far into the stream (every thread's seek is a
    long LCG power) gives NumPy's words there."""
    with ember.Device("cpu"):
        g, r = er.default_rng(3), np.random.default_rng(3)
        for adv in (1, 2 ** 33 + 12345, 2 ** 63 - 1):
            g.bit_generator.advance(adv)
            r.bit_generator.advance(adv)
            np.testing.assert_array_equal(
                ember.asnumpy(g.bit_generator.random_raw(40000)),
                r.bit_generator.random_raw(40000))
