/* ember array: copies between host memory and an array on any device.
 *
 * The goal is the pageable case: a NumPy array's buffer, which the GPU
 * cannot read by DMA. The driver's own pageable path copies through a
 * small internal buffer one piece at a time, several times slower than a
 * copy from pinned memory; the pipeline below keeps the link busy
 * (bench/README.md, 'transfers', has the figures):
 *
 *   - A per-process cache of pinned staging buffers (STAGE_BYTES each, at
 *     most STAGE_MAX of them: 128 MiB of pinned memory in all, made only
 *     as concurrent transfers need them), made on first use and kept,
 *     since pinning memory costs milliseconds. Each buffer carries an
 *     event recorded after the last DMA that used it; whoever takes the
 *     buffer next waits on that event, not on a stream, so callers on
 *     other streams and threads never serialise on each other's work.
 *   - Host to device: a call takes up to STAGE_PER_CALL buffers and cuts
 *     the data into chunks. For chunk k the host copies (or packs, for a
 *     strided layout) the bytes into buffer k mod n, queues its DMA on the
 *     stream and records the buffer's event, then goes on to chunk k+1 in
 *     the next buffer while the DMA runs. The host copy is spread over the
 *     host thread pool: one core copies far slower than the link moves
 *     data, so one core would be the bottleneck. The call returns when
 *     the last chunk is in a staging buffer:
 *     the caller's memory is free then, while the last DMAs still run,
 *     stream-ordered, from ember's buffers.
 *   - Device to host: DMAs into all taken buffers are queued first; then
 *     the host waits for chunk k's event, copies (or scatters) it out and
 *     queues chunk k+n into the freed buffer. The call returns when the
 *     last chunk is in the caller's memory.
 *   - Chunk size and buffers per call are the best of those tried; the
 *     host copy sets the pace, and a process's first transfer is slower,
 *     as it pins the staging buffers (bench/README.md, 'transfers').
 *   - Small device-to-host copies (under SMALL_BYTES, host side
 *     contiguous) go straight through the driver, followed by a stream
 *     synchronisation. Small host-to-device copies still go through a
 *     staging buffer: the driver would return before reading memory that
 *     happens to be pinned by someone else (a PyTorch pinned tensor seen
 *     through NumPy), and this function promises that the memory is free
 *     on return. Copying a few KiB into a staging buffer costs what the
 *     driver's own staging costs.
 *   - Without pinned memory (cuMemHostAlloc failing) the copies still work
 *     through the driver's pageable path and a synchronisation.
 *
 * A device whose array is not contiguous goes through a contiguous
 * temporary on that device and the elementwise copy kernel; a strided
 * host side is packed or scattered by the host copy itself. For the cpu
 * device both sides are host memory: the copy runs on the calling thread
 * (and the pool) once the stream has drained.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "array/array_internal.h"
#include "backend/backend.h"
#include "backend/threadpool.h"
#include "core/layout.h"
#include "runtime/profile.h"

#define STAGE_BYTES ((size_t)16 << 20)
#define STAGE_MAX 8
#define STAGE_PER_CALL 4
#define CHUNK_MIN ((size_t)1 << 20)
#define SMALL_BYTES ((size_t)64 << 10)
#define PAR_MIN_BYTES ((size_t)1 << 20)     /* below, one thread is faster */
#define PAR_TASK_BYTES ((size_t)256 << 10)
#define NT_MIN_BYTES ((size_t)256 << 10)

/* ---- strided host copies ---------------------------------------------- */

/* Two layouts of one shape, axes reordered so that elements are visited
 * in C order, extent-1 axes dropped and axes merged wherever both sides
 * step through them as one. */
typedef struct xlayout {
    int nt;
    int nd;
    int64_t itemsize;
    int64_t shape[EM_MAX_NDIM];
    int64_t dstr[EM_MAX_NDIM];
    int64_t sstr[EM_MAX_NDIM];
} xlayout;

enum { REBASE_DST = 1, REBASE_SRC = 2 };

/* reverse: visit in Fortran order (a device side contiguous in 'F'). */
static void xl_init(xlayout *l, int nd, const int64_t *shape, size_t itemsize,
                    const int64_t *dstr, const int64_t *sstr, int reverse)
{
    int64_t st[2][EM_MAX_NDIM];
    l->nt = 0;
    l->itemsize = (int64_t)itemsize;
    for (int i = 0; i < nd; i++) {
        int j = reverse ? nd - 1 - i : i;
        l->shape[i] = shape[j];
        st[0][i] = dstr[j];
        st[1][i] = sstr[j];
    }
    l->nd = em_layout_collapse(nd, l->shape, 2, st, NULL, -1, 1);
    if (l->nd == 0) {
        l->shape[0] = 1;
        st[0][0] = st[1][0] = (int64_t)itemsize;
        l->nd = 1;
    }
    memcpy(l->dstr, st[0], (size_t)l->nd * sizeof *st[0]);
    memcpy(l->sstr, st[1], (size_t)l->nd * sizeof *st[1]);
}

static int xl_dense(const xlayout *l)
{
    return l->nd == 1 && l->dstr[0] == l->itemsize && l->sstr[0] == l->itemsize;
}

#define RUN_LOOP(N) do { \
    for (; n > 0; n--, d += ds, s += ss) \
        memcpy(d, s, N); \
} while (0)

#if defined(__SSE2__)
#include <emmintrin.h>
/* memcpy with streaming stores: the bytes go to memory without first
 * reading the destination's lines into the cache, which gains nothing
 * when the destination is far larger than the cache. Used for the copy
 * out of staging into the caller's memory (device to host), where it was
 * faster than memcpy; into staging (host to device) it was no better, so
 * memcpy stays there (bench/README.md, 'transfers'). */
static void copy_nt(char *d, const char *s, size_t n)
{
    size_t head = (16 - ((uintptr_t)d & 15)) & 15, i;
    if (head > n)
        head = n;
    memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    for (i = 0; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 48));
        _mm_stream_si128((__m128i *)(void *)(d + i), a);
        _mm_stream_si128((__m128i *)(void *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(void *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(void *)(d + i + 48), e);
    }
    memcpy(d + i, s + i, n - i);
    _mm_sfence();
}
#endif

static void copy_run(char *d, int64_t ds, const char *s, int64_t ss, int64_t n,
                     int64_t itemsize, int nt)
{
    if (ds == itemsize && ss == itemsize) {
#if defined(__SSE2__)
        if (nt && (size_t)(n * itemsize) >= NT_MIN_BYTES) {
            copy_nt(d, s, (size_t)(n * itemsize));
            return;
        }
#endif
        memcpy(d, s, (size_t)(n * itemsize));
        return;
    }
    /* Fixed sizes let the compiler turn each memcpy into one move. */
    switch (itemsize) {
    case 1: RUN_LOOP(1); break;
    case 2: RUN_LOOP(2); break;
    case 4: RUN_LOOP(4); break;
    case 8: RUN_LOOP(8); break;
    case 16: RUN_LOOP(16); break;
    default: RUN_LOOP((size_t)itemsize); break;
    }
}

/* Elements [first, first + count) in the layout's order. A rebased side's
 * pointer is the address of element `first` (a contiguous staging
 * buffer), not of element 0. Offsets are kept as integers so no pointer
 * is ever formed outside the memory being copied. */
static void copy_range(const xlayout *l, char *dst, const char *src, int rebase,
                       int64_t first, int64_t count)
{
    int64_t idx[EM_MAX_NDIM], rem = first, doff = 0, soff = 0;
    int in = l->nd - 1, k;
    for (k = in; k >= 0; k--) {
        idx[k] = rem % l->shape[k];
        rem /= l->shape[k];
        doff += idx[k] * l->dstr[k];
        soff += idx[k] * l->sstr[k];
    }
    if (rebase & REBASE_DST)
        doff = 0;
    if (rebase & REBASE_SRC)
        soff = 0;
    for (;;) {
        int64_t run = l->shape[in] - idx[in];
        if (run > count)
            run = count;
        copy_run(dst + doff, l->dstr[in], src + soff, l->sstr[in], run,
                 l->itemsize, l->nt);
        count -= run;
        if (count == 0)
            return;
        doff += run * l->dstr[in];
        soff += run * l->sstr[in];
        idx[in] += run;
        for (k = in; k > 0 && idx[k] == l->shape[k]; k--) {
            doff += l->dstr[k - 1] - l->shape[k] * l->dstr[k];
            soff += l->sstr[k - 1] - l->shape[k] * l->sstr[k];
            idx[k] = 0;
            idx[k - 1]++;
        }
    }
}

typedef struct xjob {
    const xlayout *l;
    char *dst;
    const char *src;
    int rebase;
    int64_t first, count, per;
} xjob;

static void xjob_task(void *ctx, size_t t)
{
    const xjob *j = ctx;
    int64_t f = (int64_t)t * j->per, n = j->count - f;
    char *d = j->dst;
    const char *s = j->src;
    if (n > j->per)
        n = j->per;
    if (j->rebase & REBASE_DST)
        d += f * j->l->itemsize;
    if (j->rebase & REBASE_SRC)
        s += f * j->l->itemsize;
    copy_range(j->l, d, s, j->rebase, j->first + f, n);
}

/* copy_range spread over the host thread pool when it is worth it: past a
 * MiB, several cores together move memory several times faster than one. */
static void xcopy(const xlayout *l, char *dst, const char *src, int rebase,
                  int64_t first, int64_t count)
{
    size_t bytes = (size_t)(count * l->itemsize), tasks;
    int threads;
    xjob j;
    if (bytes < PAR_MIN_BYTES || (threads = em_host_thread_count()) <= 1) {
        copy_range(l, dst, src, rebase, first, count);
        return;
    }
    tasks = (bytes + PAR_TASK_BYTES - 1) / PAR_TASK_BYTES;
    if (tasks > (size_t)threads)
        tasks = (size_t)threads;
    j.l = l;
    j.dst = dst;
    j.src = src;
    j.rebase = rebase;
    j.first = first;
    j.count = count;
    j.per = (count + (int64_t)tasks - 1) / (int64_t)tasks;
    tasks = (size_t)((count + j.per - 1) / j.per);
    em_host_parallel_for(tasks, xjob_task, &j);
}

void em_arr_host_copy(int ndim, const int64_t *shape, size_t itemsize,
                      char *dst, const int64_t *dst_strides,
                      const char *src, const int64_t *src_strides)
{
    xlayout l;
    int64_t size;
    if (em_shape_size(ndim, shape, &size) != EM_OK || size == 0)
        return;
    xl_init(&l, ndim, shape, itemsize, dst_strides, src_strides, 0);
    xcopy(&l, dst, src, 0, 0, size);
}

/* ---- the staging cache ------------------------------------------------ */

typedef struct slot {
    struct slot *next;
    char *buf;                  /* STAGE_BYTES of pinned memory */
    em_event *ev;               /* recorded after the last DMA using buf */
    em_device *ev_dev;
    int pending;                /* ev recorded and not yet waited for */
} slot;

static pthread_mutex_t st_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t st_freed = PTHREAD_COND_INITIALIZER;
static slot *st_free;
static int st_total;            /* made and not trimmed: taken + free */

static em_status slot_wait(slot *x)
{
    em_status rc;
    if (!x->pending)
        return EM_OK;
    if ((rc = em_event_synchronize(x->ev)) != EM_OK)
        return rc;
    x->pending = 0;
    return EM_OK;
}

/* A DMA using x's buffer was queued on s: record that. If the record
 * fails, waiting for the stream is the only way to know the buffer is
 * free again. */
static em_status slot_mark(slot *x, em_device *d, em_stream *s)
{
    em_status rc = EM_OK;
    if (x->ev && x->ev_dev != d) {
        if ((rc = slot_wait(x)) != EM_OK)
            return rc;
        em_event_destroy(x->ev);
        x->ev = NULL;
    }
    if (!x->ev) {
        rc = em_event_create(d, EM_EVENT_DISABLE_TIMING, &x->ev);
        if (rc == EM_OK)
            x->ev_dev = d;
    }
    if (rc == EM_OK)
        rc = em_event_record(x->ev, s);
    if (rc != EM_OK) {
        em_stream_synchronize(s);
        return rc;
    }
    x->pending = 1;
    return EM_OK;
}

/* Up to `want` buffers (at least one unless none can be made at all, when
 * 0 is returned and the caller copies without staging). Waits only when
 * every buffer the cache may hold is taken by other calls. */
static int slots_get(slot **out, int want)
{
    int got = 0, make, i;
    pthread_mutex_lock(&st_lock);
    for (;;) {
        while (got < want && st_free) {
            out[got++] = st_free;
            st_free = st_free->next;
        }
        make = want - got;
        if (make > STAGE_MAX - st_total)
            make = STAGE_MAX - st_total;
        st_total += make;
        if (got + make > 0)
            break;
        pthread_cond_wait(&st_freed, &st_lock);
    }
    pthread_mutex_unlock(&st_lock);
    for (i = 0; i < make; i++) {
        slot *x = calloc(1, sizeof *x);
        void *buf = NULL;
        if (!x || em_host_alloc(STAGE_BYTES, &buf) != EM_OK) {
            free(x);
            break;
        }
        x->buf = buf;
        out[got++] = x;
    }
    if (i < make) {
        pthread_mutex_lock(&st_lock);
        st_total -= make - i;
        pthread_cond_broadcast(&st_freed);
        pthread_mutex_unlock(&st_lock);
    }
    return got;
}

static void slots_put(slot **xs, int n)
{
    int i;
    if (n == 0)
        return;
    pthread_mutex_lock(&st_lock);
    for (i = 0; i < n; i++) {
        xs[i]->next = st_free;
        st_free = xs[i];
    }
    pthread_cond_broadcast(&st_freed);
    pthread_mutex_unlock(&st_lock);
}

void em_arr_transfer_trim(void)
{
    slot *list, *next;
    int n = 0;
    pthread_mutex_lock(&st_lock);
    list = st_free;
    st_free = NULL;
    for (next = list; next; next = next->next)
        n++;
    st_total -= n;
    pthread_mutex_unlock(&st_lock);
    for (; list; list = next) {
        next = list->next;
        slot_wait(list);
        if (list->ev)
            em_event_destroy(list->ev);
        em_host_free(list->buf);
        free(list);
    }
}

/* Chunks of at most a staging buffer, and small enough that a transfer of
 * a few MiB still has several chunks in flight to overlap. */
static int64_t chunk_elems(int64_t n, int64_t itemsize)
{
    size_t bytes = (size_t)(n * itemsize) / STAGE_PER_CALL;
    if (bytes < CHUNK_MIN)
        bytes = CHUNK_MIN;
    if (bytes > STAGE_BYTES)
        bytes = STAGE_BYTES;
    return (int64_t)bytes / itemsize;
}

/* ---- a source of several host buffers ---------------------------------- */

/* Host buffers read one after another as one run of bytes: off[i] is
 * buffer i's first byte in the run, off[n] the run's length. */
typedef struct pieces {
    int n;
    const char *const *ptr;
    const int64_t *off;
} pieces;

/* Bytes [from, from + count) of the run to dst. */
static void pieces_range(const pieces *pc, char *dst, int64_t from,
                         int64_t count)
{
    int lo = 0, hi = pc->n - 1;
    while (lo < hi) { /* the last buffer starting at or before `from` */
        int mid = (lo + hi + 1) / 2;
        if (pc->off[mid] <= from)
            lo = mid;
        else
            hi = mid - 1;
    }
    for (int i = lo; count > 0; i++) {
        int64_t take = pc->off[i + 1] - from;
        if (take > count)
            take = count;
        memcpy(dst, pc->ptr[i] + (from - pc->off[i]), (size_t)take);
        dst += take;
        from += take;
        count -= take;
    }
}

typedef struct pjob {
    const pieces *pc;
    char *dst;
    int64_t first, count, per;
} pjob;

static void pjob_task(void *ctx, size_t t)
{
    const pjob *j = ctx;
    int64_t f = (int64_t)t * j->per, n = j->count - f;
    pieces_range(j->pc, j->dst + f, j->first + f, n < j->per ? n : j->per);
}

/* pieces_range over the host thread pool, as xcopy spreads a layout's. */
static void pieces_copy(const pieces *pc, char *dst, int64_t first,
                        int64_t count)
{
    int threads;
    size_t tasks;
    pjob j = {pc, dst, first, count, count};
    if ((size_t)count >= PAR_MIN_BYTES &&
        (threads = em_host_thread_count()) > 1) {
        tasks = ((size_t)count + PAR_TASK_BYTES - 1) / PAR_TASK_BYTES;
        if (tasks > (size_t)threads)
            tasks = (size_t)threads;
        j.per = (count + (int64_t)tasks - 1) / (int64_t)tasks;
    }
    em_host_parallel_for((size_t)((count + j.per - 1) / j.per), pjob_task,
                         &j);
}

/* ---- host to device --------------------------------------------------- */

/* Without staging: the driver's pageable path, then a wait, since memory
 * pinned elsewhere would otherwise still be read after the return. */
static em_status h2d_unstaged(em_device *d, char *dev, const char *host,
                              const xlayout *l, const pieces *pc, int64_t n,
                              em_stream *on)
{
    size_t nbytes = (size_t)(n * l->itemsize);
    char *tmp = NULL;
    em_status rc;
    if (pc || !xl_dense(l)) {
        if (!(tmp = malloc(nbytes)))
            return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory packing "
                            "%zu bytes for %s", nbytes, em_device_name(d));
        if (pc)
            pieces_copy(pc, tmp, 0, n);
        else
            copy_range(l, tmp, host, REBASE_DST, 0, n);
        host = tmp;
    }
    rc = em_memcpy_async(d, dev, host, nbytes, on);
    if (rc == EM_OK)
        rc = em_stream_synchronize(on);
    free(tmp);
    return rc;
}

/* The source is host in layout l, or the run of pieces pc (l then one
 * dense axis of bytes). */
static em_status h2d(em_device *d, char *dev, const char *host,
                     const xlayout *l, const pieces *pc, int64_t n,
                     em_stream *on)
{
    int64_t per = chunk_elems(n, l->itemsize), nchunks = (n + per - 1) / per, c;
    slot *xs[STAGE_PER_CALL];
    em_status rc = EM_OK;
    int ns = slots_get(xs, nchunks < STAGE_PER_CALL ? (int)nchunks : STAGE_PER_CALL);
    if (ns == 0)
        return h2d_unstaged(d, dev, host, l, pc, n, on);
    for (c = 0; c < nchunks; c++) {
        slot *x = xs[c % ns];
        int64_t first = c * per, cnt = n - first < per ? n - first : per;
        if ((rc = slot_wait(x)) != EM_OK)
            break;
        if (pc)
            pieces_copy(pc, x->buf, first, cnt);
        else
            xcopy(l, x->buf, host, REBASE_DST, first, cnt);
        rc = em_memcpy_async(d, dev + first * l->itemsize, x->buf,
                             (size_t)(cnt * l->itemsize), on);
        if (rc == EM_OK)
            rc = slot_mark(x, d, on);
        if (rc != EM_OK)
            break;
    }
    slots_put(xs, ns);
    return rc;
}

/* ---- device to host --------------------------------------------------- */

static em_status d2h_unstaged(em_device *d, const char *dev, char *host,
                              const xlayout *l, int64_t n, em_stream *on)
{
    size_t nbytes = (size_t)(n * l->itemsize);
    char *tmp = NULL;
    em_status rc;
    if (!xl_dense(l) && !(tmp = malloc(nbytes)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory unpacking "
                        "%zu bytes from %s", nbytes, em_device_name(d));
    rc = em_memcpy_async(d, tmp ? tmp : host, dev, nbytes, on);
    if (rc == EM_OK)
        rc = em_stream_synchronize(on);
    if (rc == EM_OK && tmp)
        copy_range(l, host, tmp, REBASE_SRC, 0, n);
    free(tmp);
    return rc;
}

static em_status d2h_issue(slot *x, em_device *d, const char *dev,
                           const xlayout *l, int64_t first, int64_t cnt,
                           em_stream *on)
{
    em_status rc = slot_wait(x);
    if (rc == EM_OK)
        rc = em_memcpy_async(d, x->buf, dev + first * l->itemsize,
                             (size_t)(cnt * l->itemsize), on);
    if (rc == EM_OK)
        rc = slot_mark(x, d, on);
    return rc;
}

static em_status d2h(em_device *d, const char *dev, char *host,
                     const xlayout *l, int64_t n, em_stream *on)
{
    int64_t per = chunk_elems(n, l->itemsize), nchunks = (n + per - 1) / per, c;
    slot *xs[STAGE_PER_CALL];
    em_status rc = EM_OK;
    int ns;
    if ((size_t)(n * l->itemsize) < SMALL_BYTES && xl_dense(l))
        return d2h_unstaged(d, dev, host, l, n, on);
    ns = slots_get(xs, nchunks < STAGE_PER_CALL ? (int)nchunks : STAGE_PER_CALL);
    if (ns == 0)
        return d2h_unstaged(d, dev, host, l, n, on);
    for (c = 0; c < ns && c < nchunks && rc == EM_OK; c++)
        rc = d2h_issue(xs[c], d, dev, l, c * per,
                       n - c * per < per ? n - c * per : per, on);
    for (c = 0; c < nchunks && rc == EM_OK; c++) {
        slot *x = xs[c % ns];
        int64_t first = c * per, cnt = n - first < per ? n - first : per;
        int64_t next = c + ns;
        if ((rc = slot_wait(x)) != EM_OK)
            break;
        xcopy(l, host, x->buf, REBASE_SRC, first, cnt);
        if (next < nchunks)
            rc = d2h_issue(x, d, dev, l, next * per,
                           n - next * per < per ? n - next * per : per, on);
    }
    slots_put(xs, ns);
    return rc;
}

/* ---- device to device, through the host ------------------------------- */

em_status em_arr_transfer_d2d(em_device *dd, void *dst, em_stream *ds,
                              em_device *sd, const void *src, em_stream *ss,
                              size_t nbytes)
{
    size_t nchunks, c;
    slot *xs[STAGE_PER_CALL];
    em_status rc = EM_OK;
    int ns;
    if (nbytes == 0)
        return EM_OK;
    if (em_cuda_peer_ready(dd, sd)) {
        /* One DMA over the peer link, on dd's stream once src is ready;
         * returning after it keeps the promise that src is free. */
        rc = em_stream_synchronize(ss);
        if (rc == EM_OK)
            rc = em_memcpy_async(dd, dst, src, nbytes, ds);
        return rc == EM_OK ? em_stream_synchronize(ds) : rc;
    }
    nchunks = (nbytes + STAGE_BYTES - 1) / STAGE_BYTES;
    ns = slots_get(xs, nchunks < STAGE_PER_CALL ? (int)nchunks : STAGE_PER_CALL);
    if (ns == 0) {
        char *tmp = malloc(nbytes);
        if (!tmp)
            return em_error(EM_ERR_OUT_OF_MEMORY, "out of host memory staging "
                            "%zu bytes from %s to %s", nbytes,
                            em_device_name(sd), em_device_name(dd));
        rc = em_memcpy_async(sd, tmp, src, nbytes, ss);
        if (rc == EM_OK)
            rc = em_stream_synchronize(ss);
        if (rc == EM_OK)
            rc = em_memcpy_async(dd, dst, tmp, nbytes, ds);
        if (rc == EM_OK)
            rc = em_stream_synchronize(ds);
        free(tmp);
        return rc;
    }
    /* The wait for chunk k's read overlaps chunk k-1's write, which runs
     * on the other device while this thread waits. */
    for (c = 0; c < nchunks; c++) {
        slot *x = xs[c % ns];
        size_t off = c * STAGE_BYTES;
        size_t len = nbytes - off < STAGE_BYTES ? nbytes - off : STAGE_BYTES;
        if ((rc = slot_wait(x)) != EM_OK
            || (rc = em_memcpy_async(sd, x->buf, (const char *)src + off, len, ss))
               != EM_OK
            || (rc = em_stream_synchronize(ss)) != EM_OK
            || (rc = em_memcpy_async(dd, (char *)dst + off, x->buf, len, ds))
               != EM_OK
            || (rc = slot_mark(x, dd, ds)) != EM_OK)
            break;
    }
    slots_put(xs, ns);
    return rc;
}

/* ---- the public functions --------------------------------------------- */

/* One copy between host memory, laid out by host_strides (C order when
 * NULL), and an array: src into host_dst when to_host, else host_src
 * into dst. */
static em_status host_transfer(int to_host, em_array *dst,
                               const em_array *src, void *host_dst,
                               const void *host_src,
                               const int64_t *host_strides, em_stream *s)
{
    const em_array *a = to_host ? src : dst;
    const char *fn = to_host ? "em_array_to_host" : "em_array_from_host";
    int64_t cstr[EM_MAX_NDIM];
    const int64_t *hs = host_strides;
    size_t is;
    em_stream *on = NULL;
    em_status rc;
    int64_t t0;
    xlayout l;
    em_array settled;
    if ((rc = em_arr_check(a, to_host ? "em_array_to_host: src"
                                      : "em_array_from_host: dst")) != EM_OK)
        return rc;
    if (!to_host && !(dst->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE, "assignment destination is read-only");
    if (!(on = em_arr_stream(a->device, s, fn)))
        return EM_ERR_INVALID_VALUE;
    if (a->size == 0)
        return EM_OK;
    /* A pending fused result (src/fuse/fuse.h) whose caller's struct has
     * no data yet: its group runs, then its data is its storage's (a C
     * caller of em_ufunc_apply_lazy reading the result back). */
    if (!a->data && a->storage->deferred) {
        if (!em_arr_storage_base(a->storage) && (rc = em_fuse_flush()) != EM_OK)
            return rc;
        settled = *a;
        em_array_settle_slow(&settled);
        a = &settled;
        if (to_host)
            src = &settled;
        else
            dst = &settled;
    }
    /* staged and waited for: a graph could not replay it */
    if (em_device_is_capturing(a->device) && em_stream_is_capturing(on))
        return em_stream_refuse_capture(on, to_host
            ? "a device-to-host copy of an array (a host read)"
            : "a host-to-device copy into an array from pageable host memory");
    if (to_host ? !host_dst : !host_src)
        return em_error(EM_ERR_INVALID_VALUE, "%s: host is NULL", fn);
    is = em_dtype_size(a->dtype);
    if (!hs) {
        if ((rc = em_strides_contiguous(a->ndim, a->shape, (int64_t)is, 'C',
                                        cstr)) != EM_OK)
            return rc;
        hs = cstr;
    }
    /* the profiler names the copies that follow for the whole transfer */
    t0 = em_prof_on ? em_prof_transfer(a->device, to_host, a->size * is) : 0;
    if (em_device_get_type(a->device) == EM_DEVICE_CPU) {
        if ((rc = em_stream_synchronize(on)) != EM_OK)
            return rc;
        t0 = t0 ? em_prof_transfer(a->device, to_host, a->size * is) : 0; /* after the wait */
        if (to_host)
            em_arr_host_copy(a->ndim, a->shape, is, host_dst, hs, a->data,
                             a->strides);
        else
            em_arr_host_copy(a->ndim, a->shape, is, a->data, a->strides,
                             host_src, hs);
        if (t0)
            em_prof_transfer_done(a->device, on, to_host, a->size * is, t0);
        return EM_OK;
    }
    if (a->flags & (EM_ARRAY_C_CONTIGUOUS | EM_ARRAY_F_CONTIGUOUS)) {
        if (!to_host) {
            xl_init(&l, a->ndim, a->shape, is, a->strides, hs,
                    !(a->flags & EM_ARRAY_C_CONTIGUOUS));
            return h2d(a->device, a->data, host_src, &l, NULL, a->size, on);
        }
        xl_init(&l, a->ndim, a->shape, is, hs, a->strides,
                !(a->flags & EM_ARRAY_C_CONTIGUOUS));
        l.nt = 1;
        return d2h(a->device, a->data, host_dst, &l, a->size, on);
    } else {
        /* The temporary takes the host's order when that is Fortran, so
         * the staging copy is a plain memcpy. */
        char order = em_is_f_contiguous(a->ndim, a->shape, hs, (int64_t)is)
                     && !em_is_c_contiguous(a->ndim, a->shape, hs, (int64_t)is)
                     ? 'F' : 'C';
        em_array tmp;
        rc = em_array_empty(a->device, a->dtype, a->ndim, a->shape, order, on,
                            &tmp);
        if (rc != EM_OK)
            return rc;
        if (to_host) {
            rc = em_array_copy(&tmp, src, on);
            if (rc == EM_OK)
                rc = host_transfer(1, NULL, &tmp, host_dst, NULL, hs, on);
        } else {
            rc = host_transfer(0, &tmp, NULL, NULL, host_src, hs, on);
            if (rc == EM_OK)
                rc = em_array_copy(dst, &tmp, on);
        }
        em_array_release(&tmp);
        return rc;
    }
}

em_status em_array_from_host(em_array *dst, const void *host,
                             const int64_t *host_strides, em_stream *s)
{
    return host_transfer(0, dst, NULL, NULL, host, host_strides, s);
}

em_status em_array_to_host(const em_array *src, void *host,
                           const int64_t *host_strides, em_stream *s)
{
    return host_transfer(1, NULL, src, host, NULL, host_strides, s);
}

em_status em_array_from_host_pieces(em_array *dst, int n,
                                    const void *const *ptrs,
                                    const int64_t *nbytes, em_stream *s)
{
    int64_t *off, total = 0, one = 1;
    pieces pc;
    em_stream *on;
    em_status rc;
    xlayout l;
    if ((rc = em_arr_check(dst, "em_array_from_host_pieces: dst")) != EM_OK)
        return rc;
    if (!(dst->flags & EM_ARRAY_WRITEABLE))
        return em_error(EM_ERR_INVALID_VALUE, "assignment destination is read-only");
    if (!(dst->flags & EM_ARRAY_C_CONTIGUOUS) || n < 0 || (n && (!ptrs || !nbytes)))
        return em_error(EM_ERR_INVALID_VALUE, "em_array_from_host_pieces: dst "
                        "must be C-contiguous, and %d pieces given", n);
    if (!(on = em_arr_stream(dst->device, s, "em_array_from_host_pieces")))
        return EM_ERR_INVALID_VALUE;
    if (!(off = malloc(((size_t)n + 1) * sizeof *off)))
        return em_error(EM_ERR_OUT_OF_MEMORY, "em_array_from_host_pieces: %d pieces", n);
    for (int i = 0; i < n; i++) {
        off[i] = total;
        if (nbytes[i] < 0 || (nbytes[i] && !ptrs[i])) {
            free(off);
            return em_error(EM_ERR_INVALID_VALUE, "em_array_from_host_pieces: "
                            "piece %d has %lld bytes at %p", i,
                            (long long)nbytes[i], ptrs[i]);
        }
        total += nbytes[i];
    }
    off[n] = total;
    if (total != dst->size * (int64_t)em_dtype_size(dst->dtype)) {
        free(off);
        return em_error(EM_ERR_INVALID_VALUE, "em_array_from_host_pieces: the "
                        "pieces hold %lld bytes, the array %lld",
                        (long long)total,
                        (long long)(dst->size * (int64_t)em_dtype_size(dst->dtype)));
    }
    pc.n = n;
    pc.ptr = (const char *const *)ptrs;
    pc.off = off;
    if (total == 0)
        rc = EM_OK;
    else if (em_device_get_type(dst->device) == EM_DEVICE_CPU) {
        if ((rc = em_stream_synchronize(on)) == EM_OK)
            pieces_copy(&pc, dst->data, 0, total);
    } else {
        xl_init(&l, 1, &total, 1, &one, &one, 0);
        rc = h2d(dst->device, dst->data, NULL, &l, &pc, total, on);
    }
    free(off);
    return rc;
}
