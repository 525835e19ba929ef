"""Probe of ember.random's cuda fill kernels (issue 20): the lane layout
(kernels/random_lanes.cuh) for float32 uniforms and normals, its variants,
and the staged runs it replaced for normals, each compiled from kernels/
as src/math/random.c compiles it and launched as a RawKernel, so that one
GPU call compares them on the same card. Also the ember calls
bench/rng.py times (event-timed one at a time, as there, and ten back to
back, which hides the host's time before each launch).

usage: python bench/rng_lanes.py [--log2n 28]   (on the GPU machine)
       python bench/rng_lanes.py --device cpu --log2n 16   (a check of the script)

Every kernel's output is checked against Generator(PCG64(0))'s on the
same device, and the device's against cpu's on 2^22 elements, before its
time is printed. Kernel times: the median of 5 event pairs around 10
launches each; GB/s counts the bytes written."""
import argparse
import pathlib
import statistics

import numpy as np

import ember
import ember.random as er
from ember.random._streams import M64, pcg_power

KERNELS = pathlib.Path(__file__).resolve().parents[1] / "kernels"
BLOCK = 256

WRAP = """
extern "C" __global__ void lanes_t(RND_T *out, long long n,
    unsigned long long s0, unsigned long long s1, unsigned long long s2,
    unsigned long long s3, unsigned long long j0, unsigned long long j1,
    unsigned long long j2, unsigned long long j3)
{
    rnd_fill_lanes(out, n, 0, s0, s1, s2, s3, 0, 0, 0, 0, 0, 0, 0, 0, 0.0,
                   1.0, 0, 0, 1, 0, 0, j0, j1, j2, j3, RND_DIST);
}
extern "C" __global__ void staged_t(RND_T *out, long long n,
    unsigned long long s0, unsigned long long s1, unsigned long long s2,
    unsigned long long s3, unsigned long long j0, unsigned long long j1,
    unsigned long long j2, unsigned long long j3)
{
    rnd_fill(out, n, 16, s0, s1, s2, s3, 0, 0, 0, 0, 0, 0, 0, 0, 0.0, 1.0,
             0, 0, 1, 0, 0, j0, j1, j2, j3, RND_DIST);
}
extern "C" __global__ void store_t(float4 *out, long long n4)
{
    const float4 z = {0.0f, 0.0f, 0.0f, 0.0f};
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
         i < n4; i += (long long)gridDim.x * blockDim.x)
        out[i] = z;
}
"""


# variants, as text put in place of the lane kernel's (what each costs;
# "timing only" ones do not draw the right values)
NO_DEFER = {"    *rest |= d ? bit : 0u;\n": "    (void)bit;\n"}
NO_TABLES = {  # a constant bound and width in place of the table's row
    "    const uint2 t = *(const uint2 *)(zb + (r & 255u) * (8u * RND_ZC));\n":
    "    const uint2 t = make_uint2(8300000u, 0x34f7a6f1u);\n    (void)zb;\n"}
NO_DRAIN = {  # deferred draws queued and never finished
    "            rnd_lane_drain(q, qn, out, fa, fb, w, &ztab, lane, 0);\n":
    "            __syncwarp();\n            if (lane == 0)\n                *qn = 0;\n"}
NO_QUEUE = {  # deferred draws noted in the lane's bits and never queued
    "            unsigned int left = rest;\n":
    "            unsigned int left = 0u;\n            if (rest == 0xffffffffu)\n"
    "                out[0] = 0.0f;\n"}
BOUNDS = {'extern "C" __global__ void rnd_fill_lanes(':
          'extern "C" __global__ void __launch_bounds__(256, 4) rnd_fill_lanes('}
OPTIONS = ("--fmad=false", "--device-int128")  # src/math/random.c's


def source(dist, lane_r=16, extra="", subst=None, kernels=KERNELS):
    files = ["random_bits.cuh", "random_math.cuh", "random_ziggurat.cuh",
             "random_fill.cuh", "random_lanes.cuh"]
    body = "".join((kernels / f).read_text() for f in files)
    for old, new in (subst or {}).items():
        # the lane kernel's (random_lanes.cuh is the last file)
        head, found, tail = body.rpartition(old)
        assert found, old
        body = head + new + tail
    return (f"#define RND_CUDA 1\n#define RND_DIST {dist}\n#define RND_GEN 0\n"
            "#define RND_T float\n#define RND_F32 1\n#define RND_VEC float4\n"
            f"#define RND_VW 4\n#define RND_LANE_R {lane_r}\n{extra}" + body +
            WRAP)


def timed(fn, reps=5, inner=10):
    fn()
    fn()
    ember.get_current_device().synchronize()
    a, b = ember.Event(), ember.Event()
    ts = []
    for _ in range(reps):
        a.record()
        for _ in range(inner):
            fn()
        b.record()
        b.synchronize()
        ts.append(ember.get_elapsed_time(a, b) / inner)
    return statistics.median(ts)


def one_at_a_time(fn, reps=20):
    """bench/arrays.py's gpu_ms: events around each call."""
    for _ in range(3):
        fn()
    a, b = ember.Event(), ember.Event()
    ts = []
    for _ in range(reps):
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(ember.get_elapsed_time(a, b))
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log2n", type=int, default=28)
    ap.add_argument("--device", default="cuda:0",
                    help="cpu: a check of the script (--log2n 16)")
    ap.add_argument("--prev", default=None,
                    help="a folder of an earlier tree's kernels/random_*.cuh, "
                    "timed beside the current ones")
    args = ap.parse_args()
    n = 1 << args.log2n
    dev = ember.Device(args.device)
    dev.use()
    sms = 4 if args.device == "cpu" else \
        ember.cuda.runtime.getDeviceProperties(0)["multiProcessorCount"]
    bg = er.default_rng(0).bit_generator
    words = [np.uint64(x) for x in bg._words()[:4]]
    nw = n // 2
    gbs = 4 * n / 1e6

    # the reference: ember's own calls on this device, and cpu's for 2^22
    want = {}
    for dist, name in ((3, "random"), (4, "standard_normal")):
        out = ember.empty(n, dtype=np.float32)
        getattr(er.default_rng(0), name)(n, dtype=np.float32, out=out)
        want[dist] = ember.asnumpy(out)
        m = min(n, 1 << 22)
        small = getattr(er.default_rng(0), name)(m, dtype=np.float32)
        with ember.Device("cpu"):
            host = getattr(er.default_rng(0), name)(m, dtype=np.float32)
        same = np.array_equal(ember.asnumpy(small), ember.asnumpy(host))
        print(f"{name} float32: cuda == cpu on 2^22: {same}; cuda 2^{n.bit_length() - 1}"
              f" == its first 2^22: {np.array_equal(want[dist][:m], ember.asnumpy(host))}",
              flush=True)

    out = ember.empty(n, dtype=np.float32)
    rows = []

    def lanes(label, dist, lane_r=16, cap=4, extra="", subst=None,
              kernels=KERNELS):
        k = ember.RawKernel(source(dist, lane_r, extra, subst, kernels),
                            "lanes_t", options=OPTIONS)
        segs = (nw + 32 * lane_r - 1) // (32 * lane_r)
        grid = min((segs * 32 + BLOCK - 1) // BLOCK, sms * cap)
        jm, ja = pcg_power(bg._inc, (grid * BLOCK - 32) * lane_r)
        j = [np.uint64(x) for x in (jm >> 64, jm & M64, ja >> 64, ja & M64)]

        def fn():
            k((grid,), (BLOCK,), (out, np.int64(n), *words, *j))
        report(label, dist, fn)

    def direct(label, dist, cap=4, extra="", subst=None, kernels=KERNELS):
        """rnd_fill_lanes itself with random.c's arguments (lanes_t calls
        it as a function, so its registers and bounds are lanes_t's)."""
        k = ember.RawKernel(source(dist, 16, extra, subst, kernels),
                            "rnd_fill_lanes", options=OPTIONS)
        segs = (nw + 32 * 16 - 1) // (32 * 16)
        grid = min((segs * 32 + BLOCK - 1) // BLOCK, sms * cap)
        jm, ja = pcg_power(bg._inc, (grid * BLOCK - 32) * 16)
        j = [np.uint64(x) for x in (jm >> 64, jm & M64, ja >> 64, ja & M64)]
        z64, z32 = np.uint64(0), np.int32(0)

        def fn():
            k((grid,), (BLOCK,), (out, np.int64(n), np.int64(0), *words,
                                  z64, z64, z32, z64, z64, z64, z32,
                                  np.uint32(0), np.float64(0.0),
                                  np.float64(1.0), z64, z64, np.int32(1),
                                  out, out, *j, np.int32(dist)))  # pa, pb unread
        report(label, dist, fn)

    def staged(label, dist):
        k = ember.RawKernel(source(dist, 16), "staged_t", options=OPTIONS)
        runs = n // 16
        grid = min((runs + BLOCK - 1) // BLOCK, sms * 8)
        jm, ja = pcg_power(bg._inc, grid * BLOCK * 8)
        j = [np.uint64(x) for x in (jm >> 64, jm & M64, ja >> 64, ja & M64)]

        def fn():
            k((grid,), (BLOCK,), (out, np.int64(n), *words, *j),
              shared_mem=BLOCK * 80)
        report(label, dist, fn)

    def report(label, dist, fn):
        out.fill(0)
        try:
            fn()  # the first call compiles: a variant that fails is shown
        except Exception as exc:  # noqa: BLE001
            print(f"{label:55s} failed: {type(exc).__name__}: {str(exc)[:300]}",
                  flush=True)
            return
        ok = np.array_equal(ember.asnumpy(out), want[dist])
        ms = timed(fn)
        rows.append((label, ms, gbs / ms, ok))
        print(f"{label:55s} {ms:8.4f} ms {gbs / ms:8.0f} GB/s  same as ember's: {ok}",
              flush=True)

    def guarded(f):
        def g(label, *args, **kw):
            try:
                f(label, *args, **kw)
            except Exception as exc:  # noqa: BLE001 (a variant's compile)
                print(f"{label:55s} failed: {type(exc).__name__}: "
                      f"{str(exc)[:300]}", flush=True)
        return g
    lanes, staged, direct = guarded(lanes), guarded(staged), guarded(direct)

    store = ember.RawKernel(source(3), "store_t")
    ms = timed(lambda: store((sms * 8,), (BLOCK,), (out, np.int64(n // 4))))
    print(f"{'store only (float4 zeros)':55s} {ms:8.4f} ms {gbs / ms:8.0f} GB/s",
          flush=True)

    prev = pathlib.Path(args.prev) if args.prev else None
    for rep in range(2):  # twice: the card's spread between runs
        lanes(f"uniform lanes R16 cap4 (random.c's) [{rep}]", 3)
        if prev:
            lanes(f"uniform lanes, previous kernels [{rep}]", 3, kernels=prev)
        lanes(f"normal lanes R16 cap4 (random.c's) [{rep}]", 4)
        if prev:
            lanes(f"normal lanes, previous kernels [{rep}]", 4, kernels=prev)
    for rep in range(2):
        direct(f"normal, rnd_fill_lanes itself (random.c's) [{rep}]", 4)
        if prev:
            direct(f"normal, rnd_fill_lanes itself, previous [{rep}]", 4,
                   kernels=prev)
    direct("normal, itself, launch bounds 4", 4, subst=BOUNDS)
    direct("uniform, rnd_fill_lanes itself (random.c's)", 3)
    lanes("uniform lanes R16 cap8", 3, cap=8)
    lanes("uniform lanes R8 cap4", 3, lane_r=8)
    lanes("uniform lanes R16 cap4, launch bounds 4", 3, subst=BOUNDS)
    lanes("normal lanes R8 cap4", 4, lane_r=8)
    lanes("normal lanes R16 cap4, launch bounds 4", 4, subst=BOUNDS)
    lanes("normal lanes R16 cap4, no deferral (timing only)", 4,
          subst=NO_DEFER)
    lanes("normal lanes R16 cap4, no tables (timing only)", 4,
          subst=NO_TABLES)
    lanes("normal lanes R16 cap4, noted, never queued (timing only)", 4,
          subst=NO_QUEUE)
    lanes("normal lanes R16 cap4, queued, never finished (timing only)", 4,
          subst=NO_DRAIN)
    staged("normal staged runs (rnd_fill)", 4)

    for dist, name in ((3, "random"), (4, "standard_normal")):
        f = getattr(er.default_rng(0), name)

        def call():
            f(n, dtype=np.float32, out=out)
        a = one_at_a_time(call)
        b = timed(call)
        print(f"ember Generator.{name} float32: one at a time {a:.4f} ms "
              f"({gbs / a:.0f} GB/s, as bench/rng.py), ten back to back "
              f"{b:.4f} ms ({gbs / b:.0f} GB/s)", flush=True)


if __name__ == "__main__":
    main()
