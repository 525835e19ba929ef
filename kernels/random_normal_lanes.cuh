/* ember random: float32 normals on the lane layout in two passes.
 * src/math/random.c pastes it after random_lanes.cuh for float32
 * normals on cuda and launches both kernels where it would launch
 * rnd_fill_lanes:
 *
 *   rnd_normal_lanes   the lane fill (rnd_lanes_run): every draw that
 *                      the ziggurat's first test takes (98.5%) is
 *                      stored as its value, the rest as their raw 32
 *                      bits; each lane's mask of those for a segment
 *                      goes to defer[32 s + lane] (s the segment), one
 *                      coalesced 4-byte store a lane a segment (3% of
 *                      the bytes the fill writes), so the fill has no
 *                      slow path, no queue and no warp votes in it.
 *   rnd_normal_finish  reads the masks of RND_FB segments at once (a
 *                      warp's lanes, each its mask of each), queues
 *                      their elements per warp in shared memory and
 *                      finishes them with rnd_zig_rest from the raw bits
 *                      in out, RND_FD a lane at once.
 *
 * The values are rnd_fill_lanes's (and the host's): a deferred draw
 * depends on its element, its raw bits and the call's state only.
 * Finished inside the fill, the deferred draws cost 0.15 ms of its 0.48
 * for 2^28 on the H200 (the queue's votes each segment, and a warp's
 * stall on its drains); here the fill keeps the issue slots of the draws
 * the first test takes, and the finish pays ~11% of the output's 32-byte
 * sectors read and written again (those holding a deferred draw), the
 * masks read, and a launch. */
#ifndef RND_LQ
#define RND_LQ 256 /* a warp's queue of deferred elements (a test sets fewer) */
#endif
#define RND_LANE_WARPS 8 /* a block's warps at most (random.c's 256 threads) */
#define RND_FB 8 /* segments' masks a warp reads at once */
#define RND_FD 4 /* deferred draws a lane reads back at once */

extern "C" __global__ void rnd_normal_lanes(RND_LANE_PARAMS, unsigned int *defer)
{
    __shared__ uint2 zrows[256 * RND_ZC];
    RND_LANE_UNUSED;
    rnd_lane_ztable(zrows);
    rnd_lanes_run(out, n, s0, s1, s2, s3, a, b, pa, pb, jm_hi, jm_lo, ja_hi,
                  ja_lo, dist, zrows, defer, 1);
}

/* A deferred draw finished where the warp's queue has no room (rare:
 * a lane's own, divergent), out of line so that the unrolled loops
 * below do not each carry a copy of rnd_zig_rest. */
__device__ __noinline__ void rnd_lane_finish_now(RND_T *out, long long e,
                                                 float fa, float fb,
                                                 const unsigned long long *w)
{
    rnd_lane_finish(out, e, fa, fb, w);
}

/* Finish the warp's queue q of qn elements, 32 RND_FD at a time while
 * as many are there (all: to the last); returns how many are left (qn
 * is the same in every lane). A lane reads its RND_FD raw draws before
 * it finishes any, so that their loads, scattered over out, wait
 * together: the finish is bound by such waits, not by its arithmetic. */
__device__ __forceinline__ int rnd_lane_drain(const long long *q, int qn,
                                              RND_T *out, float fa, float fb,
                                              const unsigned long long *w,
                                              int lane, int all)
{
    __syncwarp();
    while (qn >= 32 * RND_FD || (all && qn > 0)) {
        const int take = qn < 32 * RND_FD ? qn : 32 * RND_FD, q0 = qn - take;
        long long e[RND_FD];
        unsigned int r[RND_FD];
#pragma unroll
        for (int j = 0; j < RND_FD; j++) {
            const int t = j * 32 + lane;
            e[j] = t < take ? q[q0 + t] : -1;
            r[j] = t < take ? (unsigned int)__float_as_int(out[e[j]]) : 0u;
        }
#pragma unroll
        for (int j = 0; j < RND_FD; j++)
            if (e[j] >= 0)
                out[e[j]] = (RND_T)(fa + fb * rnd_zig_rest(e[j], r[j], w));
        qn = q0;
    }
    __syncwarp();
    return qn;
}

/* Segment sg's masks (m, the lane's) to the warp's queue q of qn
 * elements, each lane's at its offset (a prefix sum of the lanes'
 * counts); where the queue has no room, drained first, and past that
 * finished at once. Returns the new qn. */
__device__ __forceinline__ int rnd_lane_queue(long long *q, int qn,
                                              unsigned int m, long long sg,
                                              int lane, RND_T *out, float fa,
                                              float fb,
                                              const unsigned long long *w)
{
    const long long wb = sg * (32LL * RND_LANE_R);
    const int c = __popc(m);
    int at = c, total;
    for (int d = 1; d < 32; d <<= 1) {
        const int o = __shfl_up_sync(0xffffffffu, at, d);
        if (lane >= d)
            at += o;
    }
    total = __shfl_sync(0xffffffffu, at, 31);
    at -= c;
    if (qn + total > RND_LQ)
        qn = rnd_lane_drain(q, qn, out, fa, fb, w, lane, 1);
    if (total > RND_LQ) {
        for (; m; m &= m - 1u)
            rnd_lane_finish_now(out, RND_LANE_ELEM(wb, lane, __ffs((int)m) - 1),
                                fa, fb, w);
        return qn;
    }
    for (; m; m &= m - 1u, at++)
        q[qn + at] = RND_LANE_ELEM(wb, lane, __ffs((int)m) - 1);
    return qn + total;
}

/* The deferred draws of rnd_normal_lanes's nm masks (nm a multiple of
 * 32: whole segments). A warp reads the masks of RND_FB segments at
 * once (their loads wait together), grid-stride, queues their elements
 * and finishes them from the queue. */
extern "C" __global__ void __launch_bounds__(256, 4) rnd_normal_finish(RND_T *out, long long n, const unsigned int *defer, long long nm, unsigned long long s0, unsigned long long s1, unsigned long long s2, unsigned long long s3, double a, double b)
{
    __shared__ long long lq[RND_LANE_WARPS][RND_LQ];
    const unsigned long long w[4] = {s0, s1, s2, s3};
    const int lane = (int)(threadIdx.x & 31);
    const long long W = ((long long)gridDim.x * blockDim.x) >> 5,
                    segs = nm / 32;
    const float fa = (float)a, fb = (float)b;
    long long *const q = lq[threadIdx.x >> 5];
    int qn = 0;
    (void)n;
    for (long long sg = (((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5) *
                        RND_FB;
         sg < segs; sg += W * RND_FB) {
        unsigned int m[RND_FB];
#pragma unroll
        for (int j = 0; j < RND_FB; j++)
            m[j] = sg + j < segs ? defer[(sg + j) * 32 + lane] : 0u;
#pragma unroll
        for (int j = 0; j < RND_FB; j++)
            qn = rnd_lane_queue(q, qn, m[j], sg + j, lane, out, fa, fb, w);
        qn = rnd_lane_drain(q, qn, out, fa, fb, w, lane, 0);
    }
    (void)rnd_lane_drain(q, qn, out, fa, fb, w, lane, 1);
}
