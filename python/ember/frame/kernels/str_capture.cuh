/* Capture groups (extract, extractall, replace with group references):
 * Pike's VM over code points, one thread a row, running the program of
 * _str_capture.py: op[pc] with arguments pa[pc], pb[pc] (a char set is
 * the ranges lo/hi[pa .. pa + pb)). The VM's threads are kept in
 * priority order with their own group bounds; once one matches, those
 * after it are dropped, which gives the match and groups a backtracking
 * engine (Python's re) finds first. */

#define EM_CAP_PROG 128
#define EM_CAP_SLOTS 20
#define EM_CAP_SET 0
#define EM_CAP_SPLIT 1
#define EM_CAP_JMP 2
#define EM_CAP_SAVE 3
#define EM_CAP_MATCH 4
#define EM_CAP_BOL 5
#define EM_CAP_EOL 6

#define EM_CAP_ARGS                                                            \
    const int *op, const int *pa, const int *pb, const int *lo, const int *hi, \
        int nprog, int nslots
#define EM_CAP_PASS op, pa, pb, lo, hi, nprog, nslots

struct em_cap_vm {
    int n[2];
    int pc[2][EM_CAP_PROG];
    int cap[2][EM_CAP_PROG * EM_CAP_SLOTS];
    int mark[EM_CAP_PROG];
    int stack[3 * (3 * EM_CAP_PROG + 1)];
};

__device__ __forceinline__ int em_cap_in(int cp, const int *lo, const int *hi,
                                         int k)
{
    int a = 0, b = k; /* the first range whose hi >= cp */
    while (a < b) {
        int m = (a + b) / 2;
        if (hi[m] < cp)
            a = m + 1;
        else
            b = m;
    }
    return a < k && lo[a] <= cp;
}

/* Adds thread pc0 with bounds cap to list l, following the splits (the
 * first branch first), jumps, saves and anchors that hold at byte p; a
 * save is undone once its branch has been followed, so cap comes back
 * as it was. */
__device__ void em_cap_add(struct em_cap_vm *vm, int l, int pc0, int *cap,
                           const unsigned char *data, long long b, long long e,
                           long long p, int gen, const int *op, const int *pa,
                           const int *pb, int nslots)
{
    int *st = vm->stack, top = 1;
    st[0] = pc0;
    st[1] = -1;
    while (top) {
        top--;
        int pc = st[3 * top], rs = st[3 * top + 1];
        if (rs >= 0) {
            cap[rs] = st[3 * top + 2];
            continue;
        }
        if (vm->mark[pc] == gen)
            continue;
        vm->mark[pc] = gen;
        int next[2], k = 0;
        switch (op[pc]) {
        case EM_CAP_JMP:
            next[k++] = pa[pc];
            break;
        case EM_CAP_SPLIT:
            next[k++] = pb[pc];
            next[k++] = pa[pc];
            break;
        case EM_CAP_SAVE:
            st[3 * top] = 0;
            st[3 * top + 1] = pa[pc];
            st[3 * top + 2] = cap[pa[pc]];
            top++;
            cap[pa[pc]] = (int)(p - b);
            next[k++] = pc + 1;
            break;
        case EM_CAP_BOL:
            if (p == b)
                next[k++] = pc + 1;
            break;
        case EM_CAP_EOL:
            if (p == e || (p == e - 1 && data[p] == '\n'))
                next[k++] = pc + 1;
            break;
        default: {
            int t = vm->n[l]++;
            vm->pc[l][t] = pc;
            for (int j = 0; j < nslots; j++)
                vm->cap[l][t * EM_CAP_SLOTS + j] = cap[j];
        }
        }
        for (int j = 0; j < k; j++) {
            st[3 * top] = next[j];
            st[3 * top + 1] = -1;
            top++;
        }
    }
}

/* The first match at or after byte p of the row [b, e), other than an
 * empty one at byte noempty (re's rule after an empty match): 1 with its
 * bounds in out (relative to b, -1 for a group that took no part), or 0. */
__device__ int em_cap_first(struct em_cap_vm *vm, const unsigned char *data,
                            long long b, long long e, long long p,
                            long long noempty, int *out, EM_CAP_ARGS)
{
    int start[EM_CAP_SLOTS];
    int cur = 0, gen = 0, found = 0;
    for (int j = 0; j < nprog; j++)
        vm->mark[j] = -1;
    vm->n[0] = 0;
    for (;;) {
        if (!found) {
            for (int j = 0; j < nslots; j++)
                start[j] = -1;
            em_cap_add(vm, cur, 0, start, data, b, e, p, gen, op, pa, pb,
                       nslots);
        }
        int nxt = cur ^ 1;
        long long q = p;
        int cp = p < e ? em_u8_decode(data, &q) : -1;
        vm->n[nxt] = 0;
        gen++;
        for (int t = 0; t < vm->n[cur]; t++) {
            int pc = vm->pc[cur][t];
            int *tc = &vm->cap[cur][t * EM_CAP_SLOTS];
            if (op[pc] == EM_CAP_MATCH && p == noempty)
                continue;
            if (op[pc] == EM_CAP_MATCH) {
                found = 1;
                for (int j = 0; j < nslots; j++)
                    out[j] = tc[j];
                break;
            }
            if (cp >= 0 && em_cap_in(cp, lo + pa[pc], hi + pa[pc], pb[pc]))
                em_cap_add(vm, nxt, pc + 1, tc, data, b, e, q, gen, op, pa, pb,
                           nslots);
        }
        if (p >= e || (found && vm->n[nxt] == 0))
            break;
        p = q;
        cur = nxt;
    }
    return found;
}

/* extract: each row's first match, its bounds (absolute byte offsets,
 * -1 where none) in caps[i * nslots ...]. */
extern "C" __global__ void em_str_extract(const long long *off,
                                          const unsigned char *data,
                                          long long n, EM_CAP_ARGS,
                                          long long *caps)
{
    EM_ROWS(i, n)
    {
        struct em_cap_vm vm;
        int got[EM_CAP_SLOTS];
        long long b = off[i], e = off[i + 1];
        int found = em_cap_first(&vm, data, b, e, b, -1, got, EM_CAP_PASS);
        for (int j = 0; j < nslots; j++)
            caps[i * nslots + j] = found && got[j] >= 0 ? b + got[j] : -1;
    }
}

/* extractall, two passes: mode 0 counts each row's matches into cnt,
 * mode 1 writes their bounds from row out_off[i] of caps. As re's
 * finditer, the search goes on from a match's end, where an empty match
 * may not follow an empty one. */
extern "C" __global__ void
em_str_extractall(const long long *off, const unsigned char *data, long long n,
                  EM_CAP_ARGS, long long *cnt, const long long *out_off,
                  long long *caps, int mode)
{
    EM_ROWS(i, n)
    {
        struct em_cap_vm vm;
        int got[EM_CAP_SLOTS];
        long long b = off[i], e = off[i + 1], p = b, c = 0, noempty = -1;
        while (p <= e &&
               em_cap_first(&vm, data, b, e, p, noempty, got, EM_CAP_PASS)) {
            if (mode) {
                long long r = (out_off[i] + c) * nslots;
                for (int j = 0; j < nslots; j++)
                    caps[r + j] = got[j] >= 0 ? b + got[j] : -1;
            }
            c++;
            noempty = got[0] == got[1] ? b + got[1] : -1;
            p = b + got[1];
        }
        if (!mode)
            cnt[i] = c;
    }
}

/* replace with group references, two passes (mode 0: lengths, 1: bytes):
 * at most maxn (< 0: every) matches become the template, whose item j
 * is the bytes rep[ta[j] .. ta[j] + tb[j]) when tk[j] < 0, else group
 * tk[j] (nothing where it took no part). */
extern "C" __global__ void
em_str_capture_sub(const long long *off, const unsigned char *data, long long n,
                   EM_CAP_ARGS, const int *tk, const int *ta, const int *tb,
                   int ntpl, const unsigned char *rep, long long maxn,
                   long long *len, const long long *out_off, unsigned char *out,
                   int mode)
{
    EM_ROWS(i, n)
    {
        struct em_cap_vm vm;
        int got[EM_CAP_SLOTS];
        long long b = off[i], e = off[i + 1], p = b, done = 0;
        long long w = mode ? out_off[i] : 0;
        while ((maxn < 0 || done < maxn) && p < e &&
               em_cap_first(&vm, data, b, e, p, -1, got, EM_CAP_PASS)) {
            w = em_put(out, w, data, p, b + got[0], mode);
            for (int j = 0; j < ntpl; j++) {
                long long s = ta[j], t = ta[j] + tb[j];
                const unsigned char *src = rep;
                if (tk[j] >= 0) {
                    int g0 = got[2 * tk[j]], g1 = got[2 * tk[j] + 1];
                    s = g0 < 0 ? 0 : b + g0;
                    t = g0 < 0 ? 0 : b + g1;
                    src = data;
                }
                w = em_put(out, w, src, s, t, mode);
            }
            p = b + got[1];
            done++;
        }
        w = em_put(out, w, data, p, e, mode);
        if (!mode)
            len[i] = w;
    }
}
