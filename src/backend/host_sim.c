/* ember host backend: the block simulator's scheduler.
 *
 * Every OS thread that runs cooperative blocks (pool workers, a caller, a
 * stream's thread) has one sim_thread, made on first use and freed when the
 * thread exits: the fibers' stacks (one mapping, a guard page below each
 * stack, pages committed only when touched), the fiber records and the run
 * queue. A block is run by initialising one context per thread and
 * switching to the first; from then on the fibers pass control among
 * themselves, each switching straight to the next ready one when it waits,
 * and the last one to finish (or the one that finds that nobody can go on)
 * switches back to the thread's own stack.
 *
 * Barriers. A block barrier releases when every thread that has not
 * returned waits at one; a thread that returns is no longer waited for.
 * Waiting threads are released in thread order, so a block runs in the
 * same order every time. A warp operation (__syncwarp, shuffles, votes,
 * match, reduce) releases when every lane of its mask that has not
 * returned waits with the same mask; the last lane to arrive computes
 * every lane's result. When no fiber is ready but some still wait, the
 * block can never finish (threads at different __syncthreads, a warp
 * operation whose mask names a lane that waits elsewhere): the launch
 * fails with EM_ERR_INVALID_VALUE naming the threads and lines, and the
 * waiting fibers are abandoned (they hold nothing but their stacks).
 *
 * A fiber's stack is $EMBER_SIM_STACK bytes (256 KiB), or more when the
 * kernel's module has large frames (host_compile.c sums the frame sizes
 * the compiler reports above 16 KiB; em_sim_launch.stack_need). A fiber
 * that runs past its stack touches the guard page below it; a
 * SIGSEGV handler (installed the first time blocks run, chaining to the
 * one before it) recognises the address, leaves the fiber through
 * siglongjmp on the thread's alternate signal stack, and the launch fails
 * with a message naming EMBER_SIM_STACK. The handler is SA_NODEFER, so
 * nothing is blocked while it runs and the jump need not restore a signal
 * mask (sigsetjmp without one costs no system call per block).
 */
#define _GNU_SOURCE 1   /* MAP_NORESERVE, MAP_STACK */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/host_sim.h"
#include "backend/host_sim_ctx.h"
#include "ember/util.h"

/* AddressSanitizer must be told of each switch of stacks (`make asan`),
 * or it takes the fibers' stacks for overflows of the thread's own. */
#if defined(__SANITIZE_ADDRESS__)
#define SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIM_ASAN 1
#endif
#endif
#ifdef SIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#define SIM_MAX_THREADS 1024            /* CUDA's threads per block */
#define SIM_DEFAULT_STACK ((size_t)256 << 10)
#define SIM_MIN_STACK ((size_t)16 << 10)
#define SIM_ALTSTACK_SIZE ((size_t)64 << 10)
#define SIM_STACK_MARGIN ((size_t)64 << 10)   /* above a module's large frames */
#define SIM_MAX_STACK ((size_t)1 << 30)

enum { F_READY, F_BLOCK, F_WARP, F_DONE };

typedef struct fiber {
    em_sim_ctx ctx;
    unsigned tid;
    unsigned char state;
    unsigned char op;         /* F_WARP: the operation */
    unsigned char pred;       /* F_BLOCK: the predicate */
    int site;                 /* the source line waited at */
    int arg;                  /* shuffle source lane */
    unsigned mask;            /* F_WARP: the mask, with the own lane */
    unsigned long long value; /* F_WARP: the operand */
    unsigned long long result;
} fiber;

typedef struct warp_state {
    unsigned live;            /* lanes that exist and have not returned */
    unsigned waiting;         /* lanes in F_WARP, but for __activemask */
    unsigned amask;           /* lanes waiting in __activemask */
    unsigned blocked;         /* lanes waiting at anything */
} warp_state;

typedef struct sim_thread {
    /* Stacks: n_stacks slots of `slot` bytes, a guard at the bottom of each. */
    char *region;
    size_t region_size, slot, guard;
    unsigned n_stacks;
    void *altstack;
    fiber f[SIM_MAX_THREADS];
    unsigned ready[SIM_MAX_THREADS];     /* a ring of fiber indices */
    warp_state w[SIM_MAX_THREADS / 32];
    em_sim_ctx main;                     /* the thread's own stack */
    void *main_stack;                    /* its bounds, for the sanitizer */
    size_t main_stack_size;
    sigjmp_buf overflow;                 /* where a guard-page fault lands */
    int in_block;
    /* The block being run. */
    em_sim_launch *launch;
    void (*entry)(void *, unsigned);
    void *closure;
    const unsigned *dims;
    unsigned long long block;
    fiber *cur;
    unsigned n, live, rhead, rcount;
    unsigned bar_arrived, bar_count, bar_first;
    int bar_site, bar_odd;               /* bar_odd: a thread at another site, or -1 */
    int failed;
} sim_thread;

static _Thread_local sim_thread *tls_sim;
static pthread_key_t sim_key;
static pthread_once_t sim_once = PTHREAD_ONCE_INIT;
static int sim_key_ok;
static struct sigaction old_segv;
static int segv_installed;
/* Threads now running a block: the handler reads its thread-local state
 * only then (a first thread-local access in a library may allocate, which
 * a signal handler must not do). */
static int blocks_running;

/* ---- stacks and per-thread state ---------------------------------------- */

static size_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static size_t stack_size_once;
static pthread_once_t stack_once = PTHREAD_ONCE_INIT;

static void read_stack_size(void)
{
    const char *env = em_knob_text(EM_KNOB_SIM_STACK);
    size_t pg = page_size(), v = SIM_DEFAULT_STACK;
    if (env) {
        char *end;
        unsigned long long x;
        errno = 0;
        x = strtoull(env, &end, 10);
        if (!errno && !*end && x >= SIM_MIN_STACK && x <= ((size_t)1 << 30))
            v = (size_t)x;
        else
            em_log(EM_LOG_WARN, "host", "EMBER_SIM_STACK=%s is not a byte count "
                   "in %zu..%zu; using %zu", env, SIM_MIN_STACK,
                   (size_t)1 << 30, SIM_DEFAULT_STACK);
    }
    stack_size_once = (v + pg - 1) / pg * pg;
}

size_t em_host_sim_stack_size(void)
{
    pthread_once(&stack_once, read_stack_size);
    return stack_size_once;
}

/* The sanitizer's shadow outlives a mapping: clear it first, or whatever
 * is mapped there next inherits the fibers' stack poison. */
static void unmap_stacks(sim_thread *t)
{
#ifdef SIM_ASAN
    __asan_unpoison_memory_region(t->region, t->region_size);
#endif
    munmap(t->region, t->region_size);
}

static void sim_thread_free(void *p)
{
    sim_thread *t = p;
    if (!t)
        return;
    if (t->altstack) {
        stack_t ss, cur;
        /* Only undo our own alternate stack. */
        if (!sigaltstack(NULL, &cur) && cur.ss_sp == t->altstack) {
            memset(&ss, 0, sizeof ss);
            ss.ss_flags = SS_DISABLE;
            sigaltstack(&ss, NULL);
        }
        munmap(t->altstack, SIM_ALTSTACK_SIZE);
    }
    if (t->region)
        unmap_stacks(t);
    free(t);
    if (tls_sim == t)
        tls_sim = NULL;
}

static void make_key(void)
{
    sim_key_ok = pthread_key_create(&sim_key, sim_thread_free) == 0;
}

/* Where a fault at addr lands: in the guard page of one of t's stacks? */
static int in_guard(const sim_thread *t, uintptr_t addr)
{
    uintptr_t base = (uintptr_t)t->region;
    if (!t->region || addr < base || addr >= base + t->region_size)
        return 0;
    return (addr - base) % t->slot < t->guard;
}

static void segv_handler(int sig, siginfo_t *info, void *uc)
{
    sim_thread *t = __atomic_load_n(&blocks_running, __ATOMIC_RELAXED) ? tls_sim
                                                                      : NULL;
    if (t && t->in_block && info && in_guard(t, (uintptr_t)info->si_addr))
        siglongjmp(t->overflow, 1);
    /* Not ours: hand it on as if we had never been installed. */
    if (old_segv.sa_flags & SA_SIGINFO) {
        old_segv.sa_sigaction(sig, info, uc);
    } else if (old_segv.sa_handler == SIG_DFL || old_segv.sa_handler == SIG_IGN) {
        /* Returning re-executes the access, which now kills the process
         * as it would have without us. */
        signal(sig, SIG_DFL);
    } else {
        old_segv.sa_handler(sig);
    }
}

static pthread_mutex_t segv_lock = PTHREAD_MUTEX_INITIALIZER;

static void install_segv(void)
{
    struct sigaction sa;
    pthread_mutex_lock(&segv_lock);
    if (!segv_installed) {
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = segv_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGSEGV, &sa, &old_segv) == 0)
            segv_installed = 1;
    }
    pthread_mutex_unlock(&segv_lock);
}

/* An alternate signal stack for the thread, unless it has one: the
 * handler cannot run on the fiber stack that just overflowed. */
static void ensure_altstack(sim_thread *t)
{
    stack_t cur, ss;
    if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE))
        return;
    t->altstack = mmap(NULL, SIM_ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t->altstack == MAP_FAILED) {
        t->altstack = NULL;
        return;
    }
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = t->altstack;
    ss.ss_size = SIM_ALTSTACK_SIZE;
    if (sigaltstack(&ss, NULL)) {
        munmap(t->altstack, SIM_ALTSTACK_SIZE);
        t->altstack = NULL;
    }
}

static sim_thread *thread_state(void)
{
    sim_thread *t = tls_sim;
    if (t)
        return t;
    pthread_once(&sim_once, make_key);
    t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (sim_key_ok)
        pthread_setspecific(sim_key, t);
    ensure_altstack(t);
    install_segv();
#ifdef SIM_ASAN
    {
        pthread_attr_t a;
        if (!pthread_getattr_np(pthread_self(), &a)) {
            pthread_attr_getstack(&a, &t->main_stack, &t->main_stack_size);
            pthread_attr_destroy(&a);
        }
    }
#endif
    tls_sim = t;
    return t;
}

/* The stack a fiber of a module gets: the configured size, or what the
 * module's large frames add up to and a margin, if that is more. */
static size_t stack_for(size_t need)
{
    size_t pg = page_size(), stack = em_host_sim_stack_size();
    if (need > SIM_MAX_STACK)
        return 0;
    need = (need + SIM_STACK_MARGIN + pg - 1) / pg * pg;
    return need > stack ? need : stack;
}

/* Stacks of `stack` bytes for n fibers. Mappings only grow (in count and
 * size), so kernels of different needs do not remap each other's; the old
 * one is unmapped, as no fiber lives between blocks. Returns 0 or errno. */
static int ensure_stacks(sim_thread *t, unsigned n, size_t stack)
{
    size_t pg = page_size(), slot, size;
    unsigned want;
    char *r;
    if (n <= t->n_stacks && stack <= t->slot - t->guard)
        return 0;
    /* A few spare, so that blocks of 250 and 256 threads share a mapping. */
    want = (n + 63) & ~63u;
    if (want > SIM_MAX_THREADS)
        want = SIM_MAX_THREADS;
    if (want < t->n_stacks)
        want = t->n_stacks;
    if (t->region && stack < t->slot - t->guard)
        stack = t->slot - t->guard;
    slot = stack + pg;
    size = slot * want;
    r = mmap(NULL, size, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (r == MAP_FAILED)
        return errno;
    for (unsigned i = 0; i < want; i++)
        if (mprotect(r + (size_t)i * slot, pg, PROT_NONE)) {
            /* Too many mappings (vm.max_map_count): the stacks work, an
             * overflow just goes undetected. */
            em_log(EM_LOG_WARN, "host", "block simulator: no guard page "
                   "below fiber stacks %u..%u: mprotect: %s", i, want - 1,
                   strerror(errno));
            break;
        }
    if (t->region)
        unmap_stacks(t);
    t->region = r;
    t->region_size = size;
    t->slot = slot;
    t->guard = pg;
    t->n_stacks = want;
    return 0;
}

/* ---- failures ----------------------------------------------------------- */

static void thread_coords(const sim_thread *t, unsigned tid, unsigned c[3])
{
    const unsigned *b = t->dims + 3;
    c[0] = tid % b[0];
    c[1] = tid / b[0] % b[1];
    c[2] = tid / b[0] / b[1];
}

static void block_coords(const sim_thread *t, unsigned c[3])
{
    unsigned long long b = t->block;
    c[0] = (unsigned)(b % t->dims[0]);
    b /= t->dims[0];
    c[1] = (unsigned)(b % t->dims[1]);
    c[2] = (unsigned)(b / t->dims[1]);
}

static void fail(sim_thread *t, em_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Fail the block and, if it is the first failure, the launch. */
static void fail(sim_thread *t, em_status st, const char *fmt, ...)
{
    em_sim_launch *l = t->launch;
    unsigned bc[3];
    int n;
    va_list ap;
    t->failed = 1;
    __atomic_store_n(&l->failed, 1, __ATOMIC_RELAXED);
    if (__atomic_exchange_n(&l->claimed, 1, __ATOMIC_ACQ_REL))
        return;
    block_coords(t, bc);
    l->status = st;
    n = snprintf(l->msg, sizeof l->msg, "kernel '%s', block (%u, %u, %u): ",
                 l->kernel ? l->kernel : "?", bc[0], bc[1], bc[2]);
    if (n < 0 || (size_t)n >= sizeof l->msg)
        return;
    va_start(ap, fmt);
    vsnprintf(l->msg + n, sizeof l->msg - (size_t)n, fmt, ap);
    va_end(ap);
}

static const char *const op_names[EM_SIM_WARP_N_OPS] = {
    "__syncwarp", "a shuffle (__shfl*_sync)", "__ballot_sync", "__all_sync",
    "__any_sync", "__match_any_sync", "__match_all_sync", "__reduce_add_sync",
    "__reduce_min_sync", "__reduce_max_sync", "__reduce_min_sync",
    "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
    "__reduce_xor_sync", "__activemask",
};

/* "thread (x, y, z) at __syncthreads (line 12)" and the like. */
static void describe(const sim_thread *t, const fiber *f, char *out, size_t n)
{
    unsigned c[3];
    thread_coords(t, f->tid, c);
    if (f->state == F_BLOCK)
        snprintf(out, n, "thread (%u, %u, %u) waits at __syncthreads (line %d)",
                 c[0], c[1], c[2], f->site);
    else if (f->state == F_WARP)
        snprintf(out, n, "thread (%u, %u, %u) waits at %s (line %d) with mask "
                 "0x%08x", c[0], c[1], c[2],
                 f->op < EM_SIM_WARP_N_OPS ? op_names[f->op] : "a warp operation",
                 f->site, f->mask);
    else
        snprintf(out, n, "thread (%u, %u, %u) %s", c[0], c[1], c[2],
                 f->state == F_DONE ? "has returned" : "is ready");
}

/* Nobody is ready, somebody waits: say who waits for what. */
static void deadlock(sim_thread *t)
{
    char a[200] = "", b[200] = "";
    const fiber *first = NULL, *other = NULL;
    for (unsigned i = 0; i < t->n && !other; i++) {
        const fiber *f = &t->f[i];
        if (f->state != F_BLOCK && f->state != F_WARP)
            continue;
        if (!first)
            first = f;
        else if (f->state != first->state || f->site != first->site ||
                 f->mask != first->mask)
            other = f;
    }
    /* A warp operation stuck on its own: name the lane it waits for. */
    if (first && !other && first->state == F_WARP) {
        unsigned base = first->tid & ~31u, need = first->mask &
                        t->w[first->tid >> 5].live & ~t->w[first->tid >> 5].waiting;
        if (need)
            other = &t->f[base + (unsigned)__builtin_ctz(need)];
    }
    if (first)
        describe(t, first, a, sizeof a);
    if (other)
        describe(t, other, b, sizeof b);
    fail(t, EM_ERR_INVALID_VALUE, "threads wait at different barriers, so the "
         "block can never finish: %s%s%s (on a GPU this hangs or is undefined)",
         a, other ? "; " : "", b);
}

/* ---- the scheduler ------------------------------------------------------ */

static void push(sim_thread *t, unsigned i)
{
    unsigned at = t->rhead + t->rcount;
    if (at >= t->n)
        at -= t->n;
    t->ready[at] = i;
    t->rcount++;
    t->f[i].state = F_READY;
    t->w[i >> 5].blocked &= ~(1u << (i & 31));
}

/* Switch from one context to another: fiber i (or the thread's own stack
 * when i < 0). With AddressSanitizer, say so; `dying` when the context
 * left will never run again. */
static void sim_switch(sim_thread *t, em_sim_ctx *from, int to, int dying)
{
    em_sim_ctx *dst = to < 0 ? &t->main : &t->f[to].ctx;
#ifdef SIM_ASAN
    void *fake = NULL;
    const void *bottom = to < 0 ? t->main_stack
                                : t->region + (size_t)to * t->slot + t->guard;
    size_t size = to < 0 ? t->main_stack_size : t->slot - t->guard;
    __sanitizer_start_switch_fiber(dying ? NULL : &fake, bottom, size);
    em_sim_ctx_switch(from, dst);
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#else
    (void)dying;
    em_sim_ctx_switch(from, dst);
#endif
}

/* Leave fiber f for the next ready one; returns when f runs again. When
 * nobody is ready (the block finished, failed or cannot go on), back to
 * the thread's own stack, never to return. */
static void next(sim_thread *t, fiber *f)
{
    fiber *g;
    if (t->failed || t->rcount == 0) {
        if (!t->failed && t->live)
            deadlock(t);
        t->cur = NULL;
        sim_switch(t, &f->ctx, -1, f->state == F_DONE);
        return;
    }
    g = &t->f[t->ready[t->rhead]];
    t->rhead = t->rhead + 1 == t->n ? 0 : t->rhead + 1;
    t->rcount--;
    if (g == f)
        return;
    t->cur = g;
    sim_switch(t, &f->ctx, (int)(g - t->f), f->state == F_DONE);
}

static void release_block(sim_thread *t)
{
    unsigned long long res;
    if (t->bar_odd >= 0) {
        char a[200], b[200];
        describe(t, &t->f[t->bar_first], a, sizeof a);
        describe(t, &t->f[t->bar_odd], b, sizeof b);
        fail(t, EM_ERR_INVALID_VALUE, "threads wait at different "
             "__syncthreads: %s; %s (undefined behaviour on a GPU: a "
             "__syncthreads must be reached by every thread of the block)",
             a, b);
        return;
    }
    res = (unsigned long long)t->bar_count | (unsigned long long)t->bar_arrived << 32;
    for (unsigned i = 0; i < t->n; i++)
        if (t->f[i].state == F_BLOCK) {
            t->f[i].result = res;
            push(t, i);
        }
    t->bar_arrived = t->bar_count = 0;
    t->bar_odd = -1;
}

/* Complete the warp operation of the lanes waiting with mask, if every
 * lane of it that has not returned waits with that mask. */
static void warp_try(sim_thread *t, unsigned wi, unsigned mask)
{
    warp_state *w = &t->w[wi];
    unsigned need = mask & w->live, base = wi * 32, ballot = 0, m;
    fiber *f = t->f + base;
    if ((w->waiting & need) != need || !need)
        return;
    for (m = need; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (f[l].mask != mask)
            return;
        ballot |= (unsigned)(f[l].value != 0) << l;
    }
    for (m = need; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m), k;
        fiber *x = &f[l];
        unsigned long long r = 0, v = x->value;
        unsigned u = (unsigned)v, acc;
        switch (x->op) {
        case EM_SIM_WARP_SHFL:
            r = (need >> (x->arg & 31)) & 1 ? f[x->arg & 31].value : v;
            break;
        case EM_SIM_WARP_BALLOT: r = ballot; break;
        case EM_SIM_WARP_ALL: r = ballot == need; break;
        case EM_SIM_WARP_ANY: r = ballot != 0; break;
        case EM_SIM_WARP_MATCH_ANY:
        case EM_SIM_WARP_MATCH_ALL:
            acc = 0;
            for (k = 0; k < 32; k++)
                if ((need >> k) & 1 && f[k].value == v)
                    acc |= 1u << k;
            r = x->op == EM_SIM_WARP_MATCH_ANY ? acc : acc == need ? need : 0;
            break;
        case EM_SIM_WARP_ADD: case EM_SIM_WARP_MIN_U: case EM_SIM_WARP_MAX_U:
        case EM_SIM_WARP_MIN_S: case EM_SIM_WARP_MAX_S: case EM_SIM_WARP_AND:
        case EM_SIM_WARP_OR: case EM_SIM_WARP_XOR:
            acc = u;
            for (k = 0; k < 32; k++) {
                unsigned y;
                if (!((need >> k) & 1) || k == l)
                    continue;
                y = (unsigned)f[k].value;
                switch (x->op) {
                case EM_SIM_WARP_ADD: acc += y; break;
                case EM_SIM_WARP_MIN_U: acc = y < acc ? y : acc; break;
                case EM_SIM_WARP_MAX_U: acc = y > acc ? y : acc; break;
                case EM_SIM_WARP_MIN_S: acc = (int)y < (int)acc ? y : acc; break;
                case EM_SIM_WARP_MAX_S: acc = (int)y > (int)acc ? y : acc; break;
                case EM_SIM_WARP_AND: acc &= y; break;
                case EM_SIM_WARP_OR: acc |= y; break;
                default: acc ^= y; break;
                }
            }
            r = acc;
            break;
        default: break;   /* __syncwarp */
        }
        x->result = r;
    }
    w->waiting &= ~need;
    for (m = need; m; m &= m - 1)
        push(t, base + (unsigned)__builtin_ctz(m));
}

/* Lanes of warp wi returned: operations that waited for them may go. */
static void warp_recheck(sim_thread *t, unsigned wi)
{
    unsigned pending = t->w[wi].waiting;
    while (pending) {
        unsigned l = (unsigned)__builtin_ctz(pending);
        unsigned mask = t->f[wi * 32 + l].mask;
        warp_try(t, wi, mask);
        pending &= ~mask & t->w[wi].waiting;
    }
}

/* __activemask: once every live lane of warp wi waits (at a barrier, a
 * warp operation, or here), the lanes waiting here at one line form the
 * answer, as the lanes that reach it together do on a GPU. */
static void active_try(sim_thread *t, unsigned wi)
{
    warp_state *w = &t->w[wi];
    fiber *f = t->f + wi * 32;
    if (!w->amask || (w->blocked & w->live) != w->live)
        return;
    while (w->amask) {
        int site = f[__builtin_ctz(w->amask)].site;
        unsigned group = 0, m;
        for (m = w->amask; m; m &= m - 1)
            if (f[__builtin_ctz(m)].site == site)
                group |= 1u << __builtin_ctz(m);
        w->amask &= ~group;
        for (m = group; m; m &= m - 1) {
            f[__builtin_ctz(m)].result = group;
            push(t, wi * 32 + (unsigned)__builtin_ctz(m));
        }
    }
}

static void fiber_main(void *arg)
{
    fiber *f = arg;
    sim_thread *t = tls_sim;
    unsigned wi = f->tid >> 5;
#ifdef SIM_ASAN
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
    t->entry(t->closure, f->tid);
    f->state = F_DONE;
    t->live--;
    t->w[wi].live &= ~(1u << (f->tid & 31));
    if (t->live && !t->failed) {
        if (t->bar_arrived && t->bar_arrived == t->live)
            release_block(t);
        if (t->w[wi].waiting)
            warp_recheck(t, wi);
        active_try(t, wi);
    }
    next(t, f);
    /* Nothing switches back to a finished fiber. */
    abort();
}

static int sim_sync(int site, int kind, int pred)
{
    sim_thread *t = tls_sim;
    fiber *f = t->cur;
    unsigned long long r;
    unsigned count, arrived;
    f->state = F_BLOCK;
    f->site = site;
    f->pred = pred != 0;
    if (t->bar_arrived == 0) {
        t->bar_site = site;
        t->bar_first = f->tid;
    } else if (site != t->bar_site && t->bar_odd < 0) {
        t->bar_odd = (int)f->tid;
    }
    t->bar_arrived++;
    t->bar_count += f->pred;
    t->w[f->tid >> 5].blocked |= 1u << (f->tid & 31);
    if (t->bar_arrived == t->live)
        release_block(t);
    active_try(t, f->tid >> 5);
    next(t, f);
    r = f->result;
    count = (unsigned)r;
    arrived = (unsigned)(r >> 32);
    return kind == EM_SIM_SYNC_AND ? count == arrived
         : kind == EM_SIM_SYNC_OR ? count != 0 : (int)count;
}

static unsigned long long sim_warp(int op, unsigned mask, unsigned long long value,
                                   int arg, int site)
{
    sim_thread *t = tls_sim;
    fiber *f = t->cur;
    unsigned wi = f->tid >> 5;
    f->state = F_WARP;
    f->op = (unsigned char)op;
    /* CUDA requires the caller's lane in mask; count it in regardless. */
    f->mask = mask | 1u << (f->tid & 31);
    f->value = value;
    f->arg = arg;
    f->site = site;
    t->w[wi].blocked |= 1u << (f->tid & 31);
    if (op == EM_SIM_WARP_ACTIVEMASK) {
        t->w[wi].amask |= 1u << (f->tid & 31);
    } else {
        t->w[wi].waiting |= 1u << (f->tid & 31);
        warp_try(t, wi, f->mask);
    }
    active_try(t, wi);
    next(t, f);
    return f->result;
}

/* Switch to the block's first fiber; back here when the block is done or
 * cannot go on, or (through the guard page's signal) when a fiber
 * overflowed its stack. Only tls_sim is used after sigsetjmp returns a
 * second time, since registers may not have survived the jump. */
static __attribute__((noinline)) int run_fibers(sim_thread *t)
{
    unsigned first;
    if (sigsetjmp(t->overflow, 0)) {
        sim_thread *u = tls_sim;
        unsigned c[3] = {0, 0, 0};
        u->in_block = 0;
        __atomic_sub_fetch(&blocks_running, 1, __ATOMIC_RELAXED);
        if (u->cur)
            thread_coords(u, u->cur->tid, c);
        fail(u, EM_ERR_INVALID_VALUE, "thread (%u, %u, %u) overflowed its "
             "stack of %zu bytes (deep recursion, or large local arrays in "
             "functions it calls); set EMBER_SIM_STACK to more bytes",
             c[0], c[1], c[2], u->slot - u->guard);
        u->cur = NULL;
        return 1;
    }
    t->in_block = 1;
    __atomic_add_fetch(&blocks_running, 1, __ATOMIC_RELAXED);
    first = t->ready[0];
    t->rhead = t->n > 1;
    t->rcount--;
    t->cur = &t->f[first];
    sim_switch(t, &t->main, (int)first, 0);
    t->in_block = 0;
    __atomic_sub_fetch(&blocks_running, 1, __ATOMIC_RELAXED);
    t->cur = NULL;
    return t->failed;
}

static int sim_run_block(void *launch, void (*entry)(void *, unsigned),
                         void *closure, const unsigned *dims,
                         unsigned long long block)
{
    em_sim_launch *l = launch;
    sim_thread *t;
    unsigned n = dims[3] * dims[4] * dims[5];
    size_t stack;
    int err;
    if (__atomic_load_n(&l->failed, __ATOMIC_RELAXED))
        return 1;
    t = thread_state();
    if (!t) {
        if (!__atomic_exchange_n(&l->claimed, 1, __ATOMIC_ACQ_REL)) {
            l->status = EM_ERR_OUT_OF_MEMORY;
            snprintf(l->msg, sizeof l->msg, "kernel '%s': cannot allocate the "
                     "block simulator's state (%zu bytes)",
                     l->kernel ? l->kernel : "?", sizeof *t);
        }
        __atomic_store_n(&l->failed, 1, __ATOMIC_RELAXED);
        return 1;
    }
    t->launch = l;
    t->dims = dims;
    t->block = block;
    t->failed = 0;
    if (n == 0 || n > SIM_MAX_THREADS) {
        fail(t, EM_ERR_INVALID_VALUE, "%u threads per block; the simulator "
             "runs 1..%d", n, SIM_MAX_THREADS);
        return 1;
    }
    if (!(stack = stack_for(l->stack_need))) {
        fail(t, EM_ERR_NOT_SUPPORTED, "its local variables need %zu bytes of "
             "stack per thread; the simulator gives at most %zu", l->stack_need,
             SIM_MAX_STACK);
        return 1;
    }
    if ((err = ensure_stacks(t, n, stack))) {
        fail(t, EM_ERR_OUT_OF_MEMORY, "cannot map %u fiber stacks of %zu "
             "bytes: %s", n, stack, strerror(err));
        return 1;
    }
#ifdef SIM_ASAN
    /* Fibers never return from their first frame, and those of a failed
     * block not from any: their poison stays unless cleared. */
    __asan_unpoison_memory_region(t->region, (size_t)n * t->slot);
#endif
    t->entry = entry;
    t->closure = closure;
    t->n = t->live = n;
    t->rhead = 0;
    t->rcount = 0;
    t->bar_arrived = t->bar_count = 0;
    t->bar_odd = -1;
    for (unsigned i = 0; i < n; i++) {
        fiber *f = &t->f[i];
        f->tid = i;
        f->state = F_READY;
        em_sim_ctx_init(&f->ctx, t->region + (size_t)i * t->slot + t->guard,
                        t->slot - t->guard, fiber_main, f);
        push(t, i);
    }
    for (unsigned i = 0; i < (n + 31) / 32; i++) {
        unsigned lanes = n - i * 32;
        t->w[i].live = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1;
        t->w[i].waiting = t->w[i].amask = t->w[i].blocked = 0;
    }
    return run_fibers(t);
}

const em_sim_ops em_host_sim_ops = {
    .run_block = sim_run_block,
    .sync = sim_sync,
    .warp = sim_warp,
};

em_status em_host_sim_result(const em_sim_launch *launch)
{
    if (!launch->failed)
        return EM_OK;
    if (!launch->claimed)
        return em_error(EM_ERR_INTERNAL, "kernel '%s' failed in the block "
                        "simulator", launch->kernel ? launch->kernel : "?");
    return em_error(launch->status, "%s", launch->msg);
}
