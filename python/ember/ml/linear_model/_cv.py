"""LassoCV, ElasticNetCV and RidgeCV: scikit-learn's cross-validated
linear models over ember's solvers.

LassoCV/ElasticNetCV: scikit-learn's alpha grid (alpha_max = max |X^T y| /
(n l1_ratio) on centred data, then `alphas` values geometrically down to
eps alpha_max), scikit-learn's folds (KFold(5) unless cv says otherwise),
and on each fold the coordinate-descent path of ElasticNet's solver
(_cd.enet_cd) from the largest alpha down, each alpha warm-started from
the last one's coefficients with the fold's Gram matrix formed once. The
updates are scikit-learn's in its order, so mse_path_ and alpha_ are its
own to rounding; the refit at alpha_ is ember's ElasticNet.

RidgeCV: with cv=None the exact leave-one-out errors of every alpha from
one SVD of the centred (and sqrt(sample_weight)-scaled) X, the intercept
an unpenalised direction, as scikit-learn's generalised cross-validation;
with cv given, each fold's Ridge scored by R^2, as scikit-learn's
GridSearchCV over Ridge."""
import numbers
import warnings

import numpy as np

import ember
from ember.ml import _validation as V
from ember.ml._launch import launch
from ember.ml.base import BaseEstimator, RegressorMixin
from ember.ml.exceptions import ConvergenceWarning
from ember.ml.linear_model._base import (LinearModel, MultiOutputTags, as_2d_target,
                                         center, check_sample_weight, require_y)
from ember.ml.linear_model._cd import ElasticNet, _feature_rng, _Problem, enet_cd
from ember.ml.linear_model._cd_kernel import kernel_source


def _folds(cv, X, y):
    """scikit-learn's check_cv for a regressor: (train, test) host index
    arrays."""
    if cv is None or (isinstance(cv, numbers.Integral) and not isinstance(cv, bool)):
        from ember.ml.model_selection import KFold
        cv = KFold(5 if cv is None else int(cv))
    if hasattr(cv, "split"):
        Xs = ember.asnumpy(X) if cv.__class__.__module__.startswith("sklearn") else X
        return [(np.asarray(tr), np.asarray(te)) for tr, te in cv.split(Xs, None)]
    return [(np.asarray(tr), np.asarray(te)) for tr, te in cv]


def alpha_grid(X, y, l1_ratio, fit_intercept, eps, n_alphas, sw=None, positive=False):
    """scikit-learn's grid for LassoCV/ElasticNetCV: n_alphas values from
    alpha_max down to eps alpha_max, geometric (host floats)."""
    if l1_ratio == 0:
        raise ValueError("Automatic alpha grid generation is not supported for "
                         "l1_ratio=0. Please supply a grid by providing your estimator "
                         "with the appropriate `alphas=` argument.")
    Y = as_2d_target(y)
    if fit_intercept:
        if sw is None:
            Xm, Yc = X.mean(axis=0), Y - Y.mean(axis=0)
        else:
            tot = sw.sum()
            Xm, Yc = (sw @ X) / tot, Y - (sw @ Y) / tot
    else:
        Xm, Yc = None, Y
    Yw = Yc if sw is None else Yc * sw[:, None]
    Xy = X.T @ Yw
    if Xm is not None:
        Xy = Xy - Xm[:, None] * Yw.sum(axis=0)[None, :]
    n = float(ember.asnumpy(sw.sum())) if sw is not None else X.shape[0]
    Xy = ember.asnumpy(Xy).astype(np.float64)
    if positive:
        amax = max(0.0, float(Xy.max())) / (n * l1_ratio)
    else:
        amax = float(np.sqrt((Xy ** 2).sum(axis=1).max())) / (n * l1_ratio)
    res = np.finfo(np.float64).resolution
    if amax <= res:
        return np.full(n_alphas, res)
    return np.geomspace(amax, amax * eps, num=n_alphas)


class ElasticNetCV(MultiOutputTags, RegressorMixin, LinearModel, BaseEstimator):
    """sklearn.linear_model.ElasticNetCV over ember's coordinate descent."""

    _l1_param = True

    def __init__(self, *, l1_ratio=0.5, eps=1e-3, alphas=100, fit_intercept=True,
                 precompute="auto", max_iter=1000, tol=1e-4, cv=None, copy_X=True,
                 verbose=0, n_jobs=None, positive=False, random_state=None,
                 selection="cyclic"):
        self.l1_ratio = l1_ratio
        self.eps = eps
        self.alphas = alphas
        self.fit_intercept = fit_intercept
        self.precompute = precompute
        self.max_iter = max_iter
        self.tol = tol
        self.cv = cv
        self.copy_X = copy_X
        self.verbose = verbose
        self.n_jobs = n_jobs
        self.positive = positive
        self.random_state = random_state
        self.selection = selection

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = False
        return tags

    def _l1_ratios(self):
        return np.atleast_1d(np.asarray(self.l1_ratio, dtype=float)) if self._l1_param \
            else np.array([1.0])

    def _check_params(self):
        V.check_scalar(self.eps, "eps", numbers.Real, min_val=0, est=self,
                       include_boundaries="neither")
        V.check_scalar(self.max_iter, "max_iter", numbers.Integral, min_val=0, est=self)
        V.check_scalar(self.tol, "tol", numbers.Real, min_val=0, est=self)
        V.check_option(self.selection, "selection", ("cyclic", "random"), self)
        for r in self._l1_ratios():
            if not 0 <= r <= 1:
                raise ValueError("The 'l1_ratio' parameter of ElasticNetCV must be in the "
                                 f"range [0, 1]. Got {r!r} instead.")
        pre = self.precompute
        if not (isinstance(pre, (bool, np.bool_)) or (isinstance(pre, str)
                                                       and pre == "auto")):
            raise NotImplementedError("a precomputed Gram matrix (precompute=array) is "
                                      "not built in ember.ml")

    def fit(self, X, y, sample_weight=None, **params):
        self._check_params()
        require_y(self, y)
        name = type(self).__name__
        X, y = self._fit_input(X, y, y_numeric=True, multi_output=True)
        if y.ndim == 2 and y.shape[1] > 1:
            raise ValueError(f"For multi-task outputs, use MultiTask{name}")
        if y.ndim == 2:
            V.column_warning()
            y = y[:, 0]
        if y.dtype != X.dtype:
            y = y.astype(X.dtype)
        n, p = X.shape
        sw = check_sample_weight(sample_weight, X)
        l1s = self._l1_ratios()
        if isinstance(self.alphas, numbers.Integral) and not isinstance(self.alphas, bool):
            if self.alphas < 1:
                raise ValueError(f"The 'alphas' parameter of {name} must be an int in the "
                                 f"range [1, inf) or an array-like. Got {self.alphas!r} "
                                 "instead.")
            grids = [alpha_grid(X, y, r, self.fit_intercept, self.eps, int(self.alphas),
                                sw, self.positive) for r in l1s]
            given = False
        else:
            a = np.asarray(ember.asnumpy(self.alphas) if isinstance(self.alphas,
                                                                   ember.ndarray)
                           else self.alphas, dtype=float).reshape(-1)
            for i, v in enumerate(a):
                if not v >= 0:
                    raise ValueError(f"alphas[{i}] == {v}, must be >= 0.0.")
            grids = [np.sort(a)[::-1]] * len(l1s)
            given = True
        folds = _folds(self.cv, X, y)
        rng = _feature_rng(self.random_state) if self.selection == "random" else None
        mse = np.empty((len(l1s), len(folds), len(grids[0])))
        # the covariance form for every fold when the stacked Gram matrices
        # fit (_GRAM_BYTES); wide data too: the same updates as the residual
        # form scikit-learn takes there, O(p) a coordinate instead of O(n)
        if len(l1s) * len(folds) * p * p * X.dtype.itemsize <= _GRAM_BYTES:
            mse[:] = self._batched_paths(X, y, sw, folds, l1s, grids, rng)
        else:
            with warnings.catch_warnings():
                # the path's early alphas may stop at max_iter; scikit-learn's
                # path warns for each, the refit below warns where it matters
                warnings.simplefilter("ignore", ConvergenceWarning)
                for f, (tr, te) in enumerate(folds):
                    mse[:, f, :] = self._fold_path(X, y, sw, tr, te, l1s, grids, rng)
        mean = mse.mean(axis=1)
        best = (np.inf, None, None)
        for r, grid, m in zip(l1s, grids, mean):
            i = int(np.argmin(m))
            if m[i] < best[0]:
                best = (m[i], grid[i], r)
        self.mse_path_ = np.squeeze(np.moveaxis(mse, 2, 1))
        self.alpha_ = float(best[1])
        if self._l1_param:
            self.l1_ratio_ = float(best[2])
        self.alphas_ = (np.asarray(grids) if len(l1s) > 1 else grids[0]) if not given \
            else np.asarray(grids[0])
        model = ElasticNet(alpha=self.alpha_, l1_ratio=float(best[2]),
                           fit_intercept=self.fit_intercept,
                           precompute=False if self.precompute == "auto" else self.precompute,
                           max_iter=self.max_iter, tol=self.tol, positive=self.positive,
                           random_state=self.random_state, selection=self.selection)
        model.fit(X, y, sample_weight=sample_weight)
        self.__dict__["coef_"] = model.__dict__["coef_"]
        self.__dict__["intercept_"] = model.__dict__["intercept_"]
        self.dual_gap_ = model.dual_gap_
        self.n_iter_ = model.n_iter_
        return self

    def _split(self, X, y, sw, tr, te):
        """One fold's centred training rows, offsets and test rows."""
        dev = X.device
        tri, tei = ember.asarray(tr, device=dev), ember.asarray(te, device=dev)
        Xt, yt = ember.take(X, tri, axis=0), ember.take(y, tri)
        swt = swv = None
        if sw is not None:
            swt, swv = ember.take(sw, tri), ember.take(sw, tei)
            swt = swt * (Xt.shape[0] / swt.sum())
        Xc, yc, Xo, yo = center(Xt, yt, swt, self.fit_intercept)
        return Xc, yc, Xo, yo, ember.take(X, tei, axis=0), ember.take(y, tei), swv

    def _test_mse(self, C, Xo, yo, Xv, yv, swv):
        """Test mean squared error of each column of coefficients C."""
        icpt = yo - Xo @ C if self.fit_intercept else 0.0
        R = Xv @ C + icpt - yv[:, None]
        return (R * R).mean(axis=0) if swv is None else (swv @ (R * R)) / swv.sum()

    def _batched_paths(self, X, y, sw, folds, l1s, grids, rng):
        """Every (l1_ratio, fold) path at once on the covariance form: the
        problems are stacked (B x p x p Gram matrices), a coordinate's update
        is made for all of them by the same few launches, and a problem that
        has met scikit-learn's stopping rule at the current alpha keeps its
        coefficients while the others sweep on, so each follows the path
        enet_cd would give it alone."""
        K, L, A = len(folds), len(l1s), len(grids[0])
        parts = [self._split(X, y, sw, tr, te) for tr, te in folds]
        G = ember.stack([P[0].T @ P[0] for P in parts])
        q = ember.stack([P[0].T @ P[1] for P in parts])
        yy = ember.stack([P[1] @ P[1] for P in parts])
        nt = np.array([P[0].shape[0] for P in parts], dtype=float)
        # problem b = l1 index * K + fold
        G = ember.concatenate([G] * L) if L > 1 else G
        q = ember.concatenate([q] * L) if L > 1 else q
        yy = ember.concatenate([yy] * L) if L > 1 else yy
        r = np.repeat(l1s, K)
        alph = np.repeat(np.asarray(grids), K, axis=0)                  # B x A
        L1 = alph * (r * np.tile(nt, L))[:, None]
        L2 = alph * ((1 - r) * np.tile(nt, L))[:, None]
        if rng is None and G.dtype.name in _CTYPE:
            W = _paths_kernel(G, q, yy, L1, L2, self.max_iter, self.tol, self.positive)
        else:
            W = _paths(G, q, yy, L1, L2, self.max_iter, self.tol, self.positive, rng)
        out = np.empty((L, K, A))
        for i in range(L):
            for f, P in enumerate(parts):
                C = W[i * K + f].T                                          # p x A
                out[i, f] = ember.asnumpy(self._test_mse(C, *P[2:4], *P[4:]))
        return out

    def _fold_path(self, X, y, sw, tr, te, l1s, grids, rng):
        """Test-fold mean squared error of each (l1_ratio, alpha) on one fold:
        the training rows' path, each alpha warm-started from the last."""
        dev = X.device
        Xc, yc, Xo, yo, Xv, yv, swv = self._split(X, y, sw, tr, te)
        nt, p = Xc.shape
        gram = nt >= p     # the covariance form, as scikit-learn's 'auto' for n > p
        P = _Problem(Xc, yc, gram)
        out = np.empty((len(l1s), len(grids[0])))
        for i, (r, grid) in enumerate(zip(l1s, grids)):
            w = ember.zeros(p, dtype=X.dtype, device=dev)
            coefs = []
            for a in grid:
                l1 = float(a * r * nt)
                l2 = float(a * (1 - r) * nt)
                w, _, _ = enet_cd(Xc, yc, w, l1, l2, self.max_iter, self.tol,
                                  self.positive, rng, gram, problem=P)
                coefs.append(w.copy())
            C = ember.stack(coefs, axis=1)                      # p x alphas
            out[i] = ember.asnumpy(self._test_mse(C, Xo, yo, Xv, yv, swv))
        return out


def _gaps(w, Gw, q, yy, l1, l2, positive):
    """scikit-learn's duality gap of each stacked problem (host floats), as
    _cd._Problem.gap on the covariance form."""
    wq = (w * q).sum(axis=1)
    XtR = q - Gw
    XtA = XtR - ember.asarray(l2, device=w.device).astype(w.dtype)[:, None] * w
    dn = XtA.max(axis=1) if positive else ember.abs(XtA).max(axis=1)
    H = ember.asnumpy(ember.stack([yy - 2 * wq + (w * Gw).sum(axis=1), yy - wq,
                                   (w * w).sum(axis=1), dn, ember.abs(w).sum(axis=1),
                                   (XtR * XtR).sum(axis=1)])).astype(np.float64)
    R2, Ry, w2, dn, wl1, dn2 = H
    with np.errstate(divide="ignore", invalid="ignore"):
        primal = 0.5 * (R2 + l2 * w2) + l1 * wl1
        scale = np.where(dn > l1, l1 / dn, 1.0)
        dual = -0.5 * scale ** 2 * (R2 + l2 * w2) + scale * Ry
        ridge = np.where(l2 == 0, dn2, R2 + 0.5 * l2 * w2 - Ry + dn2 / (2 * l2))
    return np.where(l1 == 0, ridge, primal - dual)


_CTYPE = {"float32": "float", "float64": "double"}
_modules = {}
# the stacked Gram matrices of all (l1_ratio, fold) problems at most; past
# it each fold runs ElasticNet's solver on its own form
_GRAM_BYTES = 1 << 28
# threads a block on a GPU (one a problem)
_GPU_THREADS = 32


def _path_fn(dev, ctype):
    mod = _modules.get(str(dev))
    if mod is None:
        with dev:
            mod = ember.RawModule(code=kernel_source("cd_path.cuh"), name_expressions=[
                f"em_cd_path<{c}>" for c in _CTYPE.values()])
        _modules[str(dev)] = mod
    return mod.get_function(f"em_cd_path<{ctype}>")


def _paths_kernel(G, q, yy, L1, L2, max_iter, tol, positive):
    """_paths by kernels/cd_path.cuh: one launch an alpha for all problems
    (cyclic order only), the same updates and stopping rule."""
    B, p = q.shape
    dev, dt = q.device, q.dtype
    f = _path_fn(dev, _CTYPE[dt.name])
    G, q = ember.ascontiguousarray(G), ember.ascontiguousarray(q)
    yy = ember.ascontiguousarray(yy.astype(ember.float64))
    tols = yy * tol
    w = ember.zeros((B, p), dtype=dt, device=dev)
    Gw = ember.zeros((B, p), dtype=dt, device=dev)
    n_iter = ember.zeros(B, dtype=ember.int32, device=dev)
    L1d = ember.asarray(np.ascontiguousarray(L1.T), device=dev)       # alphas x B
    L2d = ember.asarray(np.ascontiguousarray(L2.T), device=dev)
    grid, block = ((B,), (1,)) if dev.type == "cpu" else \
        ((-(-B // _GPU_THREADS),), (_GPU_THREADS,))
    out = []
    for a in range(L1.shape[1]):
        launch(dev, f, grid, block, (G, q, yy, w, Gw, L1d[a], L2d[a], tols, np.int32(B),
                                     np.int32(p), np.int32(max_iter), np.float64(tol),
                                     np.int32(bool(positive)), n_iter))
        out.append(w.copy())
    return ember.stack(out, axis=1)


def _paths(G, q, yy, L1, L2, max_iter, tol, positive, rng):
    """Coefficients (B x alphas x p) of B coordinate-descent paths on the
    covariance form (G: B x p x p, q: B x p, yy: B), penalties L1, L2
    (host, B x alphas) in scikit-learn's unnormalised scale, each alpha
    warm-started from the last, each problem stopped by enet_cd's rule.
    The state is kept feature-major (p x B) and split into row views once,
    so a coordinate's update is a dozen launches whatever B is."""
    B, p = q.shape
    dev, dt = q.device, q.dtype
    GT = ember.ascontiguousarray(ember.moveaxis(G, 0, 2))           # p x p x B
    qT = ember.ascontiguousarray(q.T)
    n2 = ember.stack([GT[j, j] for j in range(p)])                  # p x B
    n2h = ember.asnumpy(n2)
    live = np.flatnonzero(n2h.max(axis=1) > 0).tolist()
    nz = ember.asarray((n2h > 0).astype(np.float64), device=dev).astype(dt)
    tolB = tol * ember.asnumpy(yy).astype(np.float64)
    w = ember.zeros((p, B), dtype=dt, device=dev)
    Gw = ember.zeros((p, B), dtype=dt, device=dev)
    wr = [w[j] for j in range(p)]
    Gwr = [Gw[j] for j in range(p)]
    Gr = [GT[j] for j in range(p)]
    qr = [qT[j] for j in range(p)]
    nr = [n2[j] for j in range(p)]
    out = []
    for a in range(L1.shape[1]):
        l1h, l2h = L1[:, a], L2[:, a]
        l1 = ember.asarray(l1h, device=dev).astype(dt)
        nl1 = -l1
        inv = 1 / (n2 + ember.asarray(l2h, device=dev).astype(dt)[None, :])
        invr = [inv[j] for j in range(p)]
        active = _gaps(w.T, Gw.T, q, yy, l1h, l2h, positive) > tolB
        for it in range(max_iter):
            if not active.any():
                break
            # problems already stopped at this alpha keep their coefficients,
            # and a feature constant on a fold stays at zero there
            mask = nz * ember.asarray(active.astype(np.float64), device=dev).astype(dt)
            mr = [mask[j] for j in range(p)]
            w_old = w.copy()
            order = live if rng is None else [live[i] for i in
                                              rng.integers(0, len(live), len(live))]
            for j in order:
                wj = wr[j]
                tmp = qr[j] - Gwr[j] + nr[j] * wj
                if positive:
                    new = ember.maximum(tmp - l1, 0) * invr[j]
                else:
                    new = (tmp - ember.minimum(ember.maximum(tmp, nl1), l1)) * invr[j]
                delta = (new - wj) * mr[j]
                Gw += Gr[j] * delta
                wj += delta
            d = ember.asnumpy(ember.stack([ember.abs(w - w_old).max(axis=0),
                                           ember.abs(w).max(axis=0)]))
            with np.errstate(divide="ignore", invalid="ignore"):
                due = active & ((d[1] == 0) | (d[0] / d[1] <= tol) | (it == max_iter - 1))
            if due.any():
                done = due & (_gaps(w.T, Gw.T, q, yy, l1h, l2h, positive) <= tolB)
                active = active & ~done
        out.append(w.T.copy())
    return ember.stack(out, axis=1)


class LassoCV(ElasticNetCV):
    """sklearn.linear_model.LassoCV over ember's coordinate descent."""

    _l1_param = False

    def __init__(self, *, eps=1e-3, alphas=100, fit_intercept=True, precompute="auto",
                 max_iter=1000, tol=1e-4, copy_X=True, cv=None, verbose=False,
                 n_jobs=None, positive=False, random_state=None, selection="cyclic"):
        self.eps = eps
        self.alphas = alphas
        self.fit_intercept = fit_intercept
        self.precompute = precompute
        self.max_iter = max_iter
        self.tol = tol
        self.copy_X = copy_X
        self.cv = cv
        self.verbose = verbose
        self.n_jobs = n_jobs
        self.positive = positive
        self.random_state = random_state
        self.selection = selection


class RidgeCV(MultiOutputTags, RegressorMixin, LinearModel, BaseEstimator):
    """sklearn.linear_model.RidgeCV: leave-one-out errors from one SVD
    (cv=None), or R^2 over the folds of cv."""

    def __init__(self, alphas=(0.1, 1.0, 10.0), *, fit_intercept=True, scoring=None,
                 cv=None, gcv_mode=None, store_cv_results=False, alpha_per_target=False):
        self.alphas = alphas
        self.fit_intercept = fit_intercept
        self.scoring = scoring
        self.cv = cv
        self.gcv_mode = gcv_mode
        self.store_cv_results = store_cv_results
        self.alpha_per_target = alpha_per_target

    def _alpha_list(self):
        a = self.alphas
        a = ember.asnumpy(a) if isinstance(a, ember.ndarray) else a
        a = np.atleast_1d(np.asarray(a, dtype=float)).reshape(-1)
        for i, v in enumerate(a):
            if not v > 0:
                raise ValueError(f"alphas[{i}] == {v}, must be > 0.0.")
        return a

    def fit(self, X, y, sample_weight=None, **params):
        require_y(self, y)
        if self.scoring is not None:
            raise NotImplementedError("RidgeCV(scoring=...) is not in ember.ml; the "
                                      "default scores (squared error, R^2) are")
        V.check_option(self.gcv_mode, "gcv_mode", (None, "auto", "svd", "eigen"), self)
        alphas = self._alpha_list()
        X, y = self._fit_input(X, y, y_numeric=True, multi_output=True)
        if y.dtype != X.dtype:
            y = y.astype(X.dtype)
        sw = check_sample_weight(sample_weight, X)
        if self.cv is None:
            self._fit_gcv(X, y, sw, alphas)
        else:
            if self.store_cv_results:
                raise ValueError("cv!=None and store_cv_results=True are incompatible")
            if self.alpha_per_target:
                raise ValueError("cv!=None and alpha_per_target=True are incompatible")
            self._fit_folds(X, y, sw, alphas)
        return self

    def _fit_gcv(self, X, y, sw, alphas):
        Xc, yc, Xo, yo = center(X, y, sw, self.fit_intercept)
        Y = as_2d_target(yc)
        n, p = Xc.shape
        U, s, Vt = ember.linalg.svd(Xc, full_matrices=False)
        s2 = s * s
        UtY = U.T @ Y                                           # r x k
        U2 = U * U
        if self.fit_intercept:
            # the intercept's direction, sqrt(w) normalised, is left unpenalised
            r = ember.ones(n, dtype=X.dtype, device=X.device) if sw is None else ember.sqrt(sw)
            h0 = (r * r) / (r @ r)
        else:
            h0 = ember.zeros(n, dtype=X.dtype, device=X.device)
        errs = []
        for a in alphas:
            f = s2 / (s2 + a)
            H = h0 + U2 @ f                                     # diagonal of the hat matrix
            fit = U @ (UtY * f[:, None])
            e = (Y - fit) / (1 - H)[:, None]
            errs.append(e * e)
        E = ember.stack(errs, axis=-1)                          # n x k x alphas
        k = Y.shape[1]
        if self.alpha_per_target:
            score = E.mean(axis=0)                              # k x alphas
            best = ember.asnumpy(ember.argmin(score, axis=1))
            chosen = alphas[best]
            self.alpha_ = float(chosen[0]) if y.ndim == 1 else chosen
            sc = -ember.asnumpy(score)[np.arange(k), best]
            self.best_score_ = float(sc[0]) if y.ndim == 1 else sc
        else:
            score = E.mean(axis=(0, 1))
            b = int(ember.asnumpy(ember.argmin(score)))
            chosen = np.full(k, alphas[b])
            self.alpha_ = float(alphas[b])
            self.best_score_ = -float(ember.asnumpy(score[b]))
        W = ember.stack([Vt.T @ (UtY[:, j] * (s / (s2 + float(a))))
                         for j, a in enumerate(chosen)], axis=1)
        self._set_coef(W, Xo, yo if y.ndim == 2 else yo[None], y.ndim == 1)
        if self.store_cv_results:
            self.cv_results_ = self._out(E[:, 0, :] if y.ndim == 1 else E)

    def _fit_folds(self, X, y, sw, alphas):
        from ember.ml.linear_model._ridge import Ridge
        from ember.ml.metrics import r2_score
        folds = _folds(self.cv, X, y)
        dev = X.device
        scores = np.zeros((len(folds), len(alphas)))
        for f, (tr, te) in enumerate(folds):
            tri, tei = ember.asarray(tr, device=dev), ember.asarray(te, device=dev)
            Xt, yt = ember.take(X, tri, axis=0), ember.take(y, tri, axis=0)
            Xv, yv = ember.take(X, tei, axis=0), ember.take(y, tei, axis=0)
            swt = None if sw is None else ember.take(sw, tri)
            for i, a in enumerate(alphas):
                m = Ridge(alpha=float(a), fit_intercept=self.fit_intercept)
                m.fit(Xt, yt, sample_weight=swt)
                scores[f, i] = r2_score(yv, m.predict(Xv))
        mean = scores.mean(axis=0)
        b = int(np.argmax(mean))
        self.alpha_ = float(alphas[b])
        self.best_score_ = float(mean[b])
        m = Ridge(alpha=self.alpha_, fit_intercept=self.fit_intercept).fit(X, y,
                                                                          sample_weight=sw)
        self.__dict__["coef_"] = m.__dict__["coef_"]
        self.__dict__["intercept_"] = m.__dict__["intercept_"]
