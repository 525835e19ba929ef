"""Minimal cost-complexity pruning, scikit-learn's weakest-link sequence.

A grown tree's node tables are small (a few thousand nodes at most) and the
sequence is per-node bookkeeping: each step prunes the inner node of least
effective alpha, (R(node) - R(its leaves)) / (its leaves - 1), with R a
node's weighted impurity over the root's weight, and charges the change to
its ancestors. scikit-learn runs it on the host over its node arrays too,
and so does this module; the tree itself is grown on the device."""
import copy

import numpy as np


class Bunch(dict):
    """A dict whose keys read as attributes (scikit-learn's Bunch)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


def weakest_links(left, right, r_node, ccp_alpha=None):
    """Prune the tree (children arrays, parents numbered before children)
    weakest link first, until the root is a leaf or (ccp_alpha) the next
    link's alpha exceeds ccp_alpha. Returns (alphas, impurities, leaf,
    keep): the effective alpha of each step from 0 and the total leaf R
    after it, the nodes that are leaves of the pruned tree and the nodes
    still in it."""
    N = len(left)
    inner = left >= 0
    parent = np.full(N, -1, np.int64)
    ids = np.nonzero(inner)[0]
    parent[left[ids]] = ids
    parent[right[ids]] = ids
    r_branch = np.where(inner, 0.0, r_node)
    n_leaves = np.zeros(N, np.int64)
    for i in ids[::-1]:            # children come after their parents
        a, b = left[i], right[i]
        r_branch[i] = r_branch[a] + r_branch[b]
        n_leaves[i] = max(n_leaves[a], 1) + max(n_leaves[b], 1)
    n_leaves[~inner] = 0
    candidate = inner.copy()
    leaf = ~inner
    keep = np.ones(N, bool)
    alphas, imps = [0.0], [r_branch[0]]
    while candidate[0]:
        c = np.nonzero(candidate)[0]
        sub = (r_node[c] - r_branch[c]) / (n_leaves[c] - 1)
        j = int(np.argmin(sub))    # the first of equal alphas, as scikit-learn
        eff, i = float(sub[j]), int(c[j])
        # scikit-learn stops where ccp_alpha < eff; a relative 1e-10 of
        # slack keeps an alpha read off the path pruning its own step when
        # the tree is refit with its sums added in another order (a GPU's
        # atomics)
        if ccp_alpha is not None and eff - ccp_alpha > 1e-10 * ccp_alpha + 1e-17:
            break
        stack = [i]
        while stack:
            k = stack.pop()
            if not keep[k]:
                continue
            candidate[k] = leaf[k] = keep[k] = False
            if left[k] >= 0:
                stack += [right[k], left[k]]
        leaf[i] = keep[i] = True
        pruned = n_leaves[i] - 1
        n_leaves[i] = 0
        diff = r_node[i] - r_branch[i]
        r_branch[i] = r_node[i]
        a = parent[i]
        while a >= 0:
            n_leaves[a] -= pruned
            r_branch[a] += diff
            a = parent[a]
        alphas.append(eff)
        imps.append(r_branch[0])
    return np.asarray(alphas), np.asarray(imps), leaf, keep


def _r_node(tree):
    w = tree.weighted_n_node_samples
    return w * tree.impurity / w[0]


def pruning_path(tree):
    """(ccp_alphas, impurities) of a scikit-learn-layout tree_."""
    alphas, imps, _, _ = weakest_links(tree.children_left, tree.children_right,
                                       _r_node(tree))
    return alphas, imps


def prune_tree(tree, ccp_alpha):
    """tree_ pruned at ccp_alpha: the kept nodes renumbered in preorder (as
    scikit-learn rebuilds a pruned tree), their statistics unchanged."""
    left, right = tree.children_left, tree.children_right
    _, _, leaf, _ = weakest_links(left, right, _r_node(tree), ccp_alpha)
    order, stack = [], [0]
    while stack:
        i = stack.pop()
        order.append(i)
        if not leaf[i]:
            stack += [right[i], left[i]]
    order = np.asarray(order, np.int64)
    new = np.full(len(left), -1, np.int64)
    new[order] = np.arange(len(order))
    lf = leaf[order]
    t = copy.copy(tree)
    t.children_left = np.where(lf, -1, new[np.maximum(left[order], 0)]).astype(np.intp)
    t.children_right = np.where(lf, -1, new[np.maximum(right[order], 0)]).astype(np.intp)
    t.feature = np.where(lf, -2, tree.feature[order]).astype(np.intp)
    t.threshold = np.where(lf, -2.0, tree.threshold[order])
    for name in ("value", "impurity", "n_node_samples", "weighted_n_node_samples",
                 "missing_go_to_left"):
        setattr(t, name, getattr(tree, name)[order])
    t.node_count = t.capacity = len(order)
    t.n_leaves = int(lf.sum())
    t.max_depth = int(t.compute_node_depths().max()) - 1
    return t


def prune_grown(t, ccp_alpha, total):
    """A forest's grown tree (ensemble/_grow.Tree, level order) pruned at
    ccp_alpha in place: pruned nodes become leaves and the nodes below them
    leave the tables' reachable part. Only differences of R matter to the
    sequence, and each split's gain (its weighted impurity decrease) is
    one, so R is set from the gains: the root's R is their sum and a node
    passes R minus its gain to its two children in halves."""
    left, right = t.left, t.right
    r = np.zeros(len(left))
    split = left >= 0
    r[0] = t.gain[split].sum() / total
    for i in np.nonzero(split)[0]:                 # parents precede children
        r[left[i]] = r[right[i]] = (r[i] - t.gain[i] / total) / 2
    _, _, leaf, keep = weakest_links(left, right, r, ccp_alpha)
    cut = leaf | ~keep
    t.feature = np.where(cut, -1, t.feature).astype(t.feature.dtype)
    t.split_bin = np.where(cut, -1, t.split_bin).astype(t.split_bin.dtype)
    t.left = np.where(cut, -1, left)
    t.right = np.where(cut, -1, right)
    t.gain = np.where(cut, 0.0, t.gain)
    return t
