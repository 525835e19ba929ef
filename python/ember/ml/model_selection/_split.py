"""train_test_split, KFold, StratifiedKFold, ShuffleSplit and
StratifiedShuffleSplit. The random draws are scikit-learn's own: the same
NumPy RandomState calls in the same order (a permutation of n indices, or
of each class's members), so a random_state gives scikit-learn's split, and
a program that prints scores after a split prints the same ones. Only the
indices are drawn on the host; the rows are gathered on the data's device.
The splitters yield NumPy index arrays, which scikit-learn's
cross-validation tools expect."""
import numbers
import warnings

import numpy as np

import ember
from ember.ml import _labels


def _n_samples(a):
    if hasattr(a, "shape") and len(a.shape):
        return a.shape[0]
    if hasattr(a, "__len__"):
        return len(a)
    raise TypeError(f"Expected sequence or array-like, got {type(a)}")


def _check_lengths(arrays):
    ns = [_n_samples(a) for a in arrays if a is not None]
    if len(set(ns)) > 1:
        raise ValueError("Found input variables with inconsistent numbers of "
                         f"samples: {ns}")
    return ns[0] if ns else 0


def _device(arrays):
    for a in arrays:
        if isinstance(a, ember.ndarray):
            return a.device
        if (type(a).__module__ or "").startswith("ember.frame"):
            # the device of its first numeric column (strings have no ember array)
            cols = [a[c] for c in a.columns] if hasattr(a, "columns") else [a]
            for c in cols:
                if c.dtype.kind in "biuf":
                    return c.values.device
    return ember.Device("cpu")


def _rng(random_state):
    """scikit-learn's check_random_state: None is NumPy's global RandomState,
    an int seeds a fresh one, a RandomState (or Generator) is used as is."""
    if random_state is None:
        return np.random.mtrand._rand
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        return np.random.RandomState(random_state)
    if isinstance(random_state, (np.random.RandomState, np.random.Generator)):
        return random_state
    raise ValueError(f"{random_state!r} cannot be used to seed a "
                     "numpy.random.RandomState instance")


def _permutation(n, rng, dev):
    return ember.asarray(rng.permutation(n), device=dev)


def _ignored_groups(cv, groups):
    # scikit-learn's warning for a splitter that has no use for groups
    if groups is not None:
        warnings.warn(f"The groups parameter is ignored by {type(cv).__name__}",
                      UserWarning, stacklevel=3)


def _take(a, idx, idx_host):
    """Rows idx of a, in a's own kind."""
    if a is None:
        return None
    if isinstance(a, ember.ndarray):
        return ember.take(a, idx if idx.device == a.device
                          else ember.asarray(idx_host, device=a.device), axis=0)
    if hasattr(a, "iloc"):
        return a.iloc[idx_host]
    if isinstance(a, np.ndarray) or hasattr(a, "tocsr") or hasattr(a, "shape"):
        return a[idx_host]
    return [a[i] for i in idx_host.tolist()]


def _sizes(n, test_size, train_size, default_test=0.25):
    """(n_train, n_test) as scikit-learn counts them."""
    if test_size is None and train_size is None:
        test_size = default_test
    for name, v in (("test_size", test_size), ("train_size", train_size)):
        if v is None:
            continue
        if isinstance(v, numbers.Real) and not isinstance(v, numbers.Integral):
            if not 0 < v < 1:
                raise ValueError(f"{name}={v} should be either positive and smaller "
                                 f"than the number of samples {n} or a float in the "
                                 "(0, 1) range")
        elif isinstance(v, numbers.Integral) and not isinstance(v, bool):
            if v <= 0 or v >= n:
                raise ValueError(f"{name}={v} should be either positive and smaller "
                                 f"than the number of samples {n} or a float in the "
                                 "(0, 1) range")
        else:
            raise ValueError(f"Invalid value for {name}: {v!r}")
    floats = [v for v in (test_size, train_size) if isinstance(v, float)]
    if len(floats) == 2 and sum(floats) > 1:
        raise ValueError(f"The sum of test_size and train_size = {sum(floats)}, should "
                         "be in the (0, 1) range. Reduce test_size and/or train_size.")
    n_test = (int(np.ceil(test_size * n)) if isinstance(test_size, float)
              else test_size)
    n_train = (int(np.floor(train_size * n)) if isinstance(train_size, float)
               else train_size)
    if train_size is None:
        n_train = n - n_test
    elif test_size is None:
        n_test = n - n_train
    if n_train + n_test > n:
        raise ValueError(f"The sum of train_size and test_size = {n_train + n_test}, "
                         f"should be smaller than the number of samples {n}. Reduce "
                         "test_size and/or train_size.")
    if n_train == 0:
        raise ValueError(f"With n_samples={n}, test_size={test_size} and "
                         f"train_size={train_size}, the resulting train set will be "
                         "empty. Adjust any of the aforementioned parameters.")
    return int(n_train), int(n_test)


def _approximate_mode(counts, n_draws, rng):
    """Per class, how many of n_draws to take so that the draw follows the
    class proportions: the floors of the exact shares, then one more for
    the classes of largest remainder (ties broken by rng)."""
    share = counts / counts.sum() * n_draws
    take = np.floor(share).astype(np.int64)
    need = int(n_draws - take.sum())
    rest = share - take
    for value in np.unique(rest)[::-1]:
        if need <= 0:
            break
        idx = np.flatnonzero(rest == value)
        pick = rng.choice(idx, min(len(idx), need), replace=False)
        take[pick] += 1
        need -= len(pick)
    return take


def _ranked(codes, src, counts):
    """The samples src (in that order) grouped by class: (sample, its class,
    its rank among its class's samples in src's order)."""
    dev = codes.device
    c = ember.take(codes, src)
    order = ember.argsort(c, stable=True)
    members, gc = ember.take(src, order), ember.take(c, order)
    start = ember.asarray(np.concatenate([[0], np.cumsum(counts)[:-1]]), device=dev)
    rank = ember.arange(src.shape[0], device=dev) - ember.take(start, gc)
    return members, gc, rank


def _stratified(stratify, n_train, n_test, rng, dev):
    """scikit-learn's StratifiedShuffleSplit draw: the train and then the
    test count of each class, a permutation of each class's members (in
    index order, classes sorted), then a permutation of each part."""
    classes, codes = _labels.encode(stratify, dev)
    k = classes.shape[0]
    codes_h = ember.asnumpy(codes).astype(np.int64)
    counts = np.bincount(codes_h, minlength=k)
    if counts.min() < 2:
        raise ValueError("The least populated class in y has only 1 member, which is "
                         "too few. The minimum number of groups for any class cannot "
                         "be less than 2.")
    if n_train < k:
        raise ValueError(f"The train_size = {n_train} should be greater or equal to "
                         f"the number of classes = {k}")
    if n_test < k:
        raise ValueError(f"The test_size = {n_test} should be greater or equal to "
                         f"the number of classes = {k}")
    r = _approximate_mode(counts, n_train, rng)
    t = _approximate_mode(counts - r, n_test, rng)
    members = np.argsort(codes_h, kind="stable")
    start = np.concatenate([[0], np.cumsum(counts)[:-1]])
    train, test = [], []
    for i in range(k):
        own = members[start[i]:start[i] + counts[i]][rng.permutation(counts[i])]
        train.append(own[:r[i]])
        test.append(own[r[i]:r[i] + t[i]])
    train = rng.permutation(np.concatenate(train))
    test = rng.permutation(np.concatenate(test))
    return ember.asarray(train, device=dev), ember.asarray(test, device=dev)


def train_test_split(*arrays, test_size=None, train_size=None, random_state=None,
                     shuffle=True, stratify=None):
    """Split each array (ember, NumPy, list, pandas or ember frame) into a
    train and a test part, returned in its own kind: [a_train, a_test,
    b_train, b_test, ...]."""
    if not arrays:
        raise ValueError("At least one array required as input")
    n = _check_lengths(list(arrays) + ([stratify] if stratify is not None else []))
    n_train, n_test = _sizes(n, test_size, train_size)
    dev = _device(arrays)
    if not shuffle:
        if stratify is not None:
            raise ValueError("Stratified train/test split is not implemented for "
                             "shuffle=False")
        train = ember.arange(n_train, device=dev)
        test = ember.arange(n_train, n_train + n_test, device=dev)
    elif stratify is not None:
        train, test = _stratified(stratify, n_train, n_test, _rng(random_state), dev)
    else:
        perm = _permutation(n, _rng(random_state), dev)
        test, train = perm[:n_test], perm[n_test:n_test + n_train]
    th, sh = ember.asnumpy(train), ember.asnumpy(test)
    out = []
    for a in arrays:
        out += [_take(a, train, th), _take(a, test, sh)]
    return out


class _BaseKFold:
    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        if not isinstance(n_splits, numbers.Integral) or isinstance(n_splits, bool):
            raise ValueError("The number of folds must be of Integral type. "
                             f"{n_splits!r} of type {type(n_splits)} was passed.")
        if n_splits <= 1:
            raise ValueError("k-fold cross-validation requires at least one train/test "
                             "split by setting n_splits=2 or more, got "
                             f"n_splits={n_splits}.")
        if not isinstance(shuffle, bool):
            raise TypeError(f"shuffle must be True or False; got {shuffle}")
        if not shuffle and random_state is not None:
            raise ValueError("Setting a random_state has no effect since shuffle is "
                             "False. You should leave random_state to its default "
                             "(None), or set shuffle=True.")
        self.n_splits = int(n_splits)
        self.shuffle = shuffle
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits

    def __repr__(self):
        return (f"{type(self).__name__}(n_splits={self.n_splits}, random_state="
                f"{self.random_state!r}, shuffle={self.shuffle})")

    def split(self, X, y=None, groups=None):
        """(train, test) NumPy index arrays for each fold; train sorted."""
        _ignored_groups(self, groups)
        n = _check_lengths([X, y])
        if self.n_splits > n:
            raise ValueError(f"Cannot have number of splits n_splits={self.n_splits} "
                             f"greater than the number of samples: n_samples={n}.")
        fold = ember.asnumpy(self._folds(X, y, n))
        for i in range(self.n_splits):
            test = fold == i
            yield np.flatnonzero(~test), np.flatnonzero(test)


class KFold(_BaseKFold):
    """Consecutive folds (of a permutation when shuffle=True), the first
    n % n_splits folds one sample larger."""

    def _folds(self, X, y, n):
        dev = _device([X])
        sizes = np.full(self.n_splits, n // self.n_splits, dtype=np.int64)
        sizes[:n % self.n_splits] += 1
        bounds = ember.asarray(np.cumsum(sizes), device=dev)
        pos = ember.searchsorted(bounds, ember.arange(n, device=dev), side="right")
        if not self.shuffle:
            return pos
        perm = _permutation(n, _rng(self.random_state), dev)
        fold = ember.empty(n, dtype=ember.int64, device=dev)
        fold[perm] = pos
        return fold

class StratifiedKFold(_BaseKFold):
    """Folds that keep the class proportions, allotted as scikit-learn does
    (classes in the order they first appear; sorted labels dealt to the
    folds in turn), so unshuffled folds are scikit-learn's."""

    def split(self, X, y, groups=None):
        if y is None:
            raise ValueError("The 'y' parameter of StratifiedKFold.split must be an "
                             "array-like. Got None instead.")
        return super().split(X, y, groups)

    def _folds(self, X, y, n):
        dev = _device([y, X])
        classes, codes = _labels.encode(y, dev)
        dev = codes.device
        k = classes.shape[0]
        if k:
            # classes in order of first appearance
            _, first = ember.unique(codes, return_index=True)
            order = np.argsort(ember.asnumpy(first), kind="stable")
            rank = np.empty(k, np.int64)
            rank[order] = np.arange(k)
            codes = ember.take(ember.asarray(rank, device=dev), codes)
        counts = ember.asnumpy(ember.bincount(codes, minlength=k)).astype(np.int64)
        if np.all(self.n_splits > counts):
            raise ValueError(f"n_splits={self.n_splits} cannot be greater than the "
                             "number of members in each class.")
        if self.n_splits > counts.min():
            warnings.warn(f"The least populated class in y has only {counts.min()} "
                          "members, which is less than n_splits="
                          f"{self.n_splits}.", UserWarning)
        s = self.n_splits
        y_sorted = ember.sort(codes)
        alloc = ember.bincount((ember.arange(n, device=dev) % s) * k + y_sorted,
                               minlength=s * k).reshape(s, k)
        cum = ember.asnumpy(ember.cumsum(alloc, axis=0))
        members, gc, within = _ranked(codes, ember.arange(n, device=dev), counts)
        if self.shuffle:
            # scikit-learn shuffles each class's list of folds in turn; the
            # j-th member of class c then takes list entry perm_c[j]
            rng = _rng(self.random_state)
            within = ember.asarray(np.concatenate(
                [rng.permutation(int(c)) for c in counts]), device=dev)
        # fold of the r-th member of class c: the first fold whose running
        # allotment for c exceeds r
        flat = ember.asarray((cum.T + np.arange(k)[:, None] * (n + 1)).reshape(-1),
                             device=dev)
        f = ember.searchsorted(flat, within + gc * (n + 1), side="right") - gc * s
        fold = ember.empty(n, dtype=ember.int64, device=dev)
        fold[members] = f
        return fold


class ShuffleSplit:
    """n_splits random train/test splits of scikit-learn's sizes (test_size
    defaults to 0.1), scikit-learn's permutations in turn from one
    RandomState."""

    _stratify = False

    def __init__(self, n_splits=10, *, test_size=None, train_size=None,
                 random_state=None):
        self.n_splits = n_splits
        self.test_size = test_size
        self.train_size = train_size
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        return self.n_splits

    def __repr__(self):
        return (f"{type(self).__name__}(n_splits={self.n_splits}, random_state="
                f"{self.random_state!r}, test_size={self.test_size!r}, "
                f"train_size={self.train_size!r})")

    def split(self, X, y=None, groups=None):
        _ignored_groups(self, groups)
        n = _check_lengths([X, y])
        n_train, n_test = _sizes(n, self.test_size, self.train_size, 0.1)
        dev = _device([X, y])
        rng = _rng(self.random_state)
        for _ in range(self.n_splits):
            if self._stratify:
                train, test = _stratified(y, n_train, n_test, rng, dev)
            else:
                perm = _permutation(n, rng, dev)
                test, train = perm[:n_test], perm[n_test:n_test + n_train]
            yield ember.asnumpy(train), ember.asnumpy(test)


class StratifiedShuffleSplit(ShuffleSplit):
    """ShuffleSplit keeping the class proportions of y in both parts, with
    scikit-learn's allotment of the samples to the classes."""

    _stratify = True

    def split(self, X, y, groups=None):
        if y is None:
            raise ValueError("The 'y' parameter of StratifiedShuffleSplit.split must "
                             "be an array-like. Got None instead.")
        return super().split(X, y, groups)
