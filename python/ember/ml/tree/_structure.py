"""A grown tree (ensemble/_grow.py's level-order tables) turned into
scikit-learn's node layout, and the `tree_` object that presents it.

scikit-learn numbers a depth-first tree in preorder (a node, its left
subtree, its right subtree) and a best-first tree (max_leaf_nodes) in the
order the nodes were created, two children at each expansion; both are
reproduced here on the host from the grown tables, which are a few arrays
of one entry per node. The per-node statistics (rows, weight, class
fractions or mean, impurity) come from one walk of the training rows down
the final tree on the device, one bincount a level."""
import heapq

import numpy as np

import ember

TREE_LEAF = -1
TREE_UNDEFINED = -2


def _levels(left, right):
    """The nodes reachable from the root 0, one array a level: a step a
    level of the tree, not a Python step a node."""
    left, right = np.asarray(left), np.asarray(right)
    levels = [np.zeros(1 if len(left) else 0, np.int64)]
    while levels[-1].size:
        inner = levels[-1][left[levels[-1]] >= 0]
        levels.append(np.concatenate([left[inner], right[inner]]).astype(np.int64))
    return levels[:-1]


def node_depths(left, right):
    """Each node's depth, the root's 0 (0 too for a node not reachable)."""
    d = np.zeros(len(left), np.int64)
    for k, level in enumerate(_levels(left, right)):
        d[level] = k
    return d


def preorder(left, right):
    """Old node ids in preorder from the root 0: each node's place is its
    parent's + 1, and a right child's also the left subtree's size after
    that; sizes summed up the levels, places handed down them."""
    left, right = np.asarray(left), np.asarray(right)
    levels = _levels(left, right)
    size = np.ones(len(left), np.int64)
    for level in reversed(levels):
        inner = level[left[level] >= 0]
        size[inner] += size[left[inner]] + size[right[inner]]
    place = np.zeros(len(left), np.int64)
    for level in levels:
        inner = level[left[level] >= 0]
        place[left[inner]] = place[inner] + 1
        place[right[inner]] = place[inner] + 1 + size[left[inner]]
    order = np.empty(int(size[0]) if len(left) else 0, np.int64)
    for level in levels:
        order[place[level]] = level
    return order


def best_first(left, right, gain, max_leaf_nodes):
    """(order, split): the nodes scikit-learn's best-first builder keeps
    when it expands, max_leaf_nodes - 1 times at most, the frontier node of
    largest impurity decrease (the grown tree holds every node's best split,
    and a node's split does not depend on which others were made), in the
    order it creates them; split marks the nodes it expanded."""
    order, split = [0], []
    heap = [(-gain[0], 0, 0)]            # (-decrease, creation index, old id)
    budget = max_leaf_nodes - 1
    while heap:
        _, c, i = heapq.heappop(heap)
        if left[i] < 0 or budget <= 0:
            continue
        budget -= 1
        split.append(i)
        for child in (left[i], right[i]):
            order.append(child)
            heapq.heappush(heap, (-gain[child] if left[child] >= 0 else 0.0,
                                  len(order) - 1, child))
    return np.asarray(order, np.int64), set(split)


def renumber(t, order, split=None):
    """The grown tree t's nodes `order` (old ids) as new tables numbered by
    their place in order; split (old ids) limits which nodes keep their
    split. Returns feature, split_bin, left, right (TREE_LEAF for leaves)."""
    new = np.full(len(t.feature), -1, np.int64)
    new[order] = np.arange(len(order))
    keep = t.feature[order] >= 0
    if split is not None:
        keep &= np.isin(order, np.fromiter(split, np.int64, len(split)))
    left = np.where(keep, new[np.maximum(t.left[order], 0)], TREE_LEAF)
    right = np.where(keep, new[np.maximum(t.right[order], 0)], TREE_LEAF)
    feature = np.where(keep, t.feature[order], TREE_UNDEFINED).astype(np.int64)
    sbin = np.where(keep, t.split_bin[order], -1).astype(np.int64)
    return feature, sbin, left, right


def walk(Xb, feature, sbin, left, right, depth):
    """Every row's path: (rows, nodes), one pair for each node a row passes
    through, as device arrays (the training rows on their bins)."""
    dev = Xb.device
    n, p = Xb.shape
    flat = Xb.reshape(-1)
    F = ember.asarray(np.maximum(feature, 0), device=dev)
    S = ember.asarray(sbin, device=dev)
    L = ember.asarray(left, device=dev)
    R = ember.asarray(right, device=dev)
    rows = ember.arange(n, device=dev)
    node = ember.zeros(n, dtype=ember.int64, device=dev)
    out_r, out_n = [rows], [node]
    for _ in range(depth):
        lc = ember.take(L, node)
        live = ember.nonzero(lc >= 0)[0]
        if live.shape[0] == 0:
            break
        rows, node = ember.take(rows, live), ember.take(node, live)
        xb = ember.take(flat, rows * p + ember.take(F, node)).astype(ember.int64)
        node = ember.where(xb <= ember.take(S, node), ember.take(L, node),
                           ember.take(R, node))
        out_r.append(rows)
        out_n.append(node)
    return ember.concatenate(out_r), ember.concatenate(out_n)


def local_thresholds(Xb, rows, nodes, pos, feature, sbin, lo, hi):
    """Each split node's threshold as scikit-learn places it: the midpoint
    between the largest value that goes left and the smallest that goes
    right among the node's own rows (of positive weight), or that largest
    value where the midpoint rounds up to the other. With a bin a distinct
    value (lo == hi) these are the node's values themselves; otherwise the
    bins' extremes over all rows, which still split the node's rows as its
    bins do. TREE_UNDEFINED at leaves."""
    N = len(feature)
    B = lo.shape[1]
    p = Xb.shape[1]
    dev = Xb.device
    split = feature >= 0
    thr = np.full(N, float(TREE_UNDEFINED))
    if not split.any():
        return thr
    sid = np.full(N, -1, np.int64)
    sid[split] = np.arange(int(split.sum()))
    at = ember.take(ember.asarray(sid, device=dev), nodes)
    keep = ember.nonzero((at >= 0) & pos)[0]
    r, j = ember.take(rows, keep), ember.take(at, keep)
    f = ember.asarray(feature[split], device=dev)
    b = ember.take(Xb.reshape(-1), r * p + ember.take(f, j)).astype(ember.int64)
    S = int(split.sum())
    occ = ember.asnumpy(ember.bincount(j * B + b, minlength=S * B)).reshape(S, B) > 0
    bins = np.arange(B)
    sb = sbin[split][:, None]
    lb = np.where(occ & (bins <= sb), bins, -1).max(axis=1)
    rb = np.where(occ & (bins > sb), bins, B).min(axis=1)
    fs = feature[split]
    # the two values as float32, as scikit-learn's trees see X, then their
    # midpoint in float64, so a threshold is scikit-learn's to the bit
    a = hi[fs, np.maximum(lb, 0)].astype(np.float32).astype(np.float64)
    c = lo[fs, np.minimum(rb, B - 1)].astype(np.float32).astype(np.float64)
    t = a / 2 + c / 2
    thr[split] = np.where((t >= c) | ~np.isfinite(t), a, t)
    return thr


def node_stats(Xb, y, w, feature, sbin, left, right, depth, n_classes, criterion,
               ranges):
    """Per node, from the training rows of positive weight: n_node_samples,
    weighted_n_node_samples, value (nodes x outputs x classes: class
    fractions, zero past an output's classes, or the mean), impurity (the
    mean over outputs, as scikit-learn's) and the threshold
    (local_thresholds), as host arrays. y is n or n x outputs; n_classes
    0, or the classes of each output (an int for one output)."""
    N = len(feature)
    rows, nodes = walk(Xb, feature, sbin, left, right, depth)
    ww = ember.take(w, rows)
    pos = ww > 0
    thr = local_thresholds(Xb, rows, nodes, pos, feature, sbin, *ranges)
    cnt = ember.bincount(nodes, weights=pos.astype(ember.float64), minlength=N)
    W = ember.bincount(nodes, weights=ww, minlength=N)
    Wh = ember.asnumpy(W)
    Y = y[:, None] if y.ndim == 1 else y
    O = Y.shape[1]
    ncs = list(n_classes) if isinstance(n_classes, (list, tuple)) else [n_classes] * O
    value = np.zeros((N, O, max(max(ncs), 1)))
    imp = np.zeros(N)
    for o in range(O):             # a few outputs: one pass over the rows each
        yo = ember.take(Y[:, o], rows)
        if ncs[o]:
            C = ncs[o]
            counts = ember.asnumpy(ember.bincount(nodes * C + yo, weights=ww,
                                                  minlength=N * C)).reshape(N, C)
            frac = counts / np.maximum(counts.sum(axis=1), 1e-300)[:, None]
            if criterion == "entropy":
                with np.errstate(divide="ignore", invalid="ignore"):
                    imp += -np.where(frac > 0, frac * np.log2(np.where(frac > 0, frac, 1)),
                                     0).sum(axis=1)
            else:
                imp += 1.0 - (frac * frac).sum(axis=1)
            value[:, o, :C] = frac
        else:
            S1 = ember.asnumpy(ember.bincount(nodes, weights=ww * yo, minlength=N))
            mean = S1 / np.maximum(Wh, 1e-300)
            # the spread about each node's mean, summed on the device in one pass
            d = yo - ember.take(ember.asarray(mean, device=yo.device), nodes)
            S2 = ember.asnumpy(ember.bincount(nodes, weights=ww * d * d, minlength=N))
            imp += S2 / np.maximum(Wh, 1e-300)
            value[:, o, 0] = mean
    if O > 1:
        imp = imp / O
    return (ember.asnumpy(cnt).round().astype(np.int64), Wh, value, imp, thr)


class Tree:
    """scikit-learn's `tree_` (sklearn.tree._tree.Tree) as host NumPy
    arrays: node_count, children_left/right (-1 at a leaf), feature and
    threshold (-2 at a leaf; a row goes left when x[feature] <= threshold),
    value (node_count x outputs x classes: weighted class fractions, or the
    mean target), impurity, n_node_samples, weighted_n_node_samples, max_depth,
    n_leaves; apply, decision_path, predict, compute_feature_importances.
    export_text, export_graphviz and plot_tree read it. X is compared as
    float32, as scikit-learn's trees compare it."""

    def __init__(self, n_features, n_classes, feature, threshold, left, right, value,
                 impurity, n_node_samples, weighted_n_node_samples):
        # n_classes: an int (one output) or each output's; value N x O x K
        O = value.shape[1]
        ncs = list(n_classes) if isinstance(n_classes, (list, tuple)) else [n_classes] * O
        self.n_features = n_features
        self.n_outputs = O
        self.n_classes = np.array([max(c, 1) for c in ncs], dtype=np.intp)
        self.max_n_classes = int(self.n_classes.max())
        self.children_left = left.astype(np.intp)
        self.children_right = right.astype(np.intp)
        self.feature = feature.astype(np.intp)
        self.threshold = threshold.astype(np.float64)
        self.value = value.astype(np.float64)
        self.impurity = impurity.astype(np.float64)
        self.n_node_samples = n_node_samples.astype(np.intp)
        self.weighted_n_node_samples = weighted_n_node_samples.astype(np.float64)
        self.missing_go_to_left = np.zeros(len(feature), np.uint8)
        self.node_count = self.capacity = len(feature)
        self.n_leaves = int((left < 0).sum())
        self.max_depth = int(self.compute_node_depths().max()) - 1

    def compute_node_depths(self):
        """Each node's depth, the root's 1 (scikit-learn's convention)."""
        return node_depths(self.children_left, self.children_right) + 1

    def apply(self, X):
        X = np.asarray(X, dtype=np.float32).astype(np.float64)
        node = np.zeros(X.shape[0], np.intp)
        rows = np.arange(X.shape[0])
        for _ in range(self.max_depth):
            lc = self.children_left[node]
            go = X[rows, np.maximum(self.feature[node], 0)] <= self.threshold[node]
            node = np.where(lc >= 0, np.where(go, lc, self.children_right[node]), node)
        return node

    def decision_path(self, X):
        import scipy.sparse as sp
        X = np.asarray(X, dtype=np.float32).astype(np.float64)
        n = X.shape[0]
        node = np.zeros(n, np.intp)
        rows = np.arange(n)
        rr, nn = [rows], [node]
        for _ in range(self.max_depth):
            lc = self.children_left[node]
            go = X[rows, np.maximum(self.feature[node], 0)] <= self.threshold[node]
            nxt = np.where(go, lc, self.children_right[node])
            moved = lc >= 0
            node = np.where(moved, nxt, node)
            rr.append(rows[moved])
            nn.append(node[moved])
        r, c = np.concatenate(rr), np.concatenate(nn)
        return sp.csr_matrix((np.ones(len(r), np.intp), (r, c)),
                             shape=(n, self.node_count))

    def predict(self, X):
        return self.value[self.apply(X)]

    def compute_feature_importances(self, normalize=True):
        split = self.children_left >= 0
        i = np.nonzero(split)[0]
        lc, rc = self.children_left[i], self.children_right[i]
        wi = self.weighted_n_node_samples * self.impurity
        dec = wi[i] - wi[lc] - wi[rc]
        imp = np.bincount(self.feature[i], weights=dec, minlength=self.n_features)
        imp = imp / self.weighted_n_node_samples[0]
        if normalize and imp.sum() > 0:
            imp = imp / imp.sum()
        return imp

    def __getstate__(self):
        return dict(self.__dict__)

    def __setstate__(self, state):
        self.__dict__.update(state)
