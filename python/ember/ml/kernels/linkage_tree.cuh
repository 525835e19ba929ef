/* Walks of a linkage matrix Z ((n - 1) x 4 doubles, SciPy's format: row i
 * makes cluster n + i of Z[i, 0] and Z[i, 1]) for
 * ember.scipy.cluster.hierarchy's leaves_list and fcluster
 * (python/ember/scipy/cluster/_linkage.py). Each is one thread of one
 * block: a walk down a tree is a chain of dependent steps, O(n) in all,
 * and one thread makes the numbering SciPy's by construction. The stacks
 * are caller-owned scratch of 2n + 2 entries (a path from the root keeps
 * at most two entries a level). */

__device__ __forceinline__ long long em_lt_child(const double *Z, long long node, int side,
                                                long long n)
{
    return (long long)Z[(node - n) * 4 + side];
}

/* the leaves left to right: out[0..n) */
__global__ void em_linkage_leaves(const double *Z, long long n, long long *stack, int *out)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    long long sp = 0, m = 0;
    stack[sp++] = 2 * n - 2;
    while (sp) {
        const long long v = stack[--sp];
        if (v < n) {
            out[m++] = (int)v;
            continue;
        }
        stack[sp++] = em_lt_child(Z, v, 1, n);
        stack[sp++] = em_lt_child(Z, v, 0, n);
    }
}

/* MC[i]: the largest V[j * 4 + col] over the clusters n + j under cluster
 * n + i (col 2 of Z: the distances; col 3 of R: the inconsistencies). A
 * valid Z names only earlier rows as children, so one forward pass is
 * enough. */
__global__ void em_linkage_maxdist(const double *Z, long long n, const double *V, int col,
                                   double *MC)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    for (long long i = 0; i < n - 1; i++) {
        double m = V[i * 4 + col];
        for (int s = 0; s < 2; s++) {
            const long long c = (long long)Z[i * 4 + s];
            if (c >= n && MC[c - n] > m)
                m = MC[c - n];
        }
        MC[i] = m;
    }
}

/* up[j]: the row whose merge uses cluster n + j (-1 for the root) */
__global__ void em_linkage_parents(const double *Z, long long n, long long *up)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1)
        return;
    if (i == n - 2)
        up[i] = -1;
    for (int s = 0; s < 2; s++) {
        const long long c = (long long)Z[i * 4 + s];
        if (c >= n)
            up[c - n] = i;
    }
}

/* the deepest first node of a post-order walk from row v at depth k,
 * going no deeper than depth d - 1 */
__device__ __forceinline__ long long em_lt_first(const double *Z, long long n, long long v,
                                                 long long *k, long long d)
{
    while (*k < d - 1) {
        const long long l = (long long)Z[v * 4], r = (long long)Z[v * 4 + 1];
        if (l >= n)
            v = l - n;
        else if (r >= n)
            v = r - n;
        else
            break;
        (*k)++;
    }
    return v;
}

/* R[i] = SciPy's inconsistency statistics of row i over the links at most
 * d - 1 levels below it (mean, standard deviation, count, coefficient),
 * a thread a row. The links are added in the order of SciPy's walk (left
 * subtree, right subtree, the link itself), so the sums are its own; the
 * walk climbs by `up` and needs no stack. */
__global__ void em_linkage_inconsistent(const double *Z, long long n, long long d,
                                        const long long *up, double *R)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n - 1)
        return;
    double sum = 0, sq = 0, count = 0;
    long long k = 0;
    long long v = em_lt_first(Z, n, i, &k, d);
    for (;;) {
        const double dist = Z[v * 4 + 2];
        count += 1;
        sum += dist;
        sq += dist * dist;
        if (k == 0)
            break;
        const long long p = up[v];
        const long long r = (long long)Z[p * 4 + 1];
        if ((long long)Z[p * 4] == v + n && r >= n) {
            v = em_lt_first(Z, n, r - n, &k, d);
        } else {
            v = p;
            k--;
        }
    }
    const double mean = sum / count;
    double sd = count < 2 ? (sq - sum * sum) / count : (sq - sum * sum / count) / (count - 1);
    double coef = 0;
    if (sd > 0) {
        sd = sqrt(sd);
        coef = (Z[i * 4 + 2] - mean) / sd;
    } else {
        sd = 0;
    }
    R[i * 4 + 0] = mean;
    R[i * 4 + 1] = sd;
    R[i * 4 + 2] = count;
    R[i * 4 + 3] = coef;
}

/* the flat clusters at a cutoff, up to the first `stop` + 1 (the walk
 * stops once that many are found): the highest clusters with MC <= cut
 * and the points under no such cluster */
__device__ long long em_lt_count(const double *Z, const double *MC, long long n, double cut,
                                 long long stop, long long *stack)
{
    long long sp = 0, nc = 0;
    stack[sp++] = 2 * n - 2;
    while (sp && nc <= stop) {
        const long long v = stack[--sp];
        if (MC[v - n] <= cut) {
            nc++;
            continue;
        }
        for (int s = 0; s < 2; s++) {
            const long long c = em_lt_child(Z, v, s, n);
            if (c < n)
                nc++;
            else
                stack[sp++] = c;
        }
    }
    return nc;
}

/* T[point] = its flat cluster (1, 2, ...) at cutoff cut, numbered as SciPy
 * numbers them: walking down from the root, left subtree before right, a
 * cluster gets its number on reaching its highest node with MC <= cut,
 * and a point outside every such cluster once both of its parent's
 * subtrees (the children that are clusters) have been walked. The stack
 * holds node ids to enter and, bit-inverted, nodes to leave. */
__device__ void em_lt_flat(const double *Z, const double *MC, long long n, double cut,
                           long long *stack, int *T)
{
    long long sp = 0, leader = -1;
    int nc = 0;
    stack[sp++] = 2 * n - 2;
    while (sp) {
        const long long e = stack[--sp];
        if (e >= 0) {
            if (leader < 0 && MC[e - n] <= cut) {
                leader = e;
                nc++;
            }
            stack[sp++] = ~e;
            const long long l = em_lt_child(Z, e, 0, n), r = em_lt_child(Z, e, 1, n);
            if (r >= n)
                stack[sp++] = r;
            if (l >= n)
                stack[sp++] = l;
            continue;
        }
        const long long v = ~e;
        for (int s = 0; s < 2; s++) {
            const long long c = em_lt_child(Z, v, s, n);
            if (c < n) {
                if (leader < 0)
                    nc++;
                T[c] = nc;
            }
        }
        if (leader == v)
            leader = -1;
    }
}

/* fcluster's criteria: maxc <= 0 cuts at cut ('distance', 'monocrit');
 * maxc > 0 ('maxclust') cuts at the MC value SciPy's bisection over the
 * entries of MC finds: the lowest (in its search) with at most maxc
 * clusters */
__global__ void em_linkage_fcluster(const double *Z, const double *MC, long long n,
                                    double cut, long long maxc, long long *stack, int *T)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    if (maxc > 0) {
        if (maxc >= n) {
            for (long long i = 0; i < n; i++)
                T[i] = (int)(i + 1);
            return;
        }
        long long lo = -1, hi = n - 1;
        while (hi - lo > 1) {
            const long long mid = (lo + hi) >> 1;
            if (em_lt_count(Z, MC, n, MC[mid], maxc, stack) > maxc)
                lo = mid;
            else
                hi = mid;
        }
        cut = MC[hi < n - 2 ? hi : n - 2];
    }
    em_lt_flat(Z, MC, n, cut, stack, T);
}
