"""Minimisers over device vectors for the smooth and the l1-penalised
linear models: L-BFGS (two-loop recursion on the last m pairs, a
backtracking Armijo line search) and FISTA with adaptive restart for a
proximal l1 term. The vectors stay on the device; each function evaluation
reads back one small stack of scalars (the value, the largest gradient
entry, the slope), the only syncs of an iteration.

Stopping as scipy's L-BFGS-B, which scikit-learn calls: the largest
gradient entry at most gtol, or a relative decrease of f at most
ftol = 64 eps(float64)."""
import numpy as np

import ember

FTOL = 64 * np.finfo(np.float64).eps


def _host(*xs):
    return [float(v) for v in ember.asnumpy(ember.stack(list(xs)))]


def _two_loop(g, hist, gamma):
    """-H g through the last pairs (s, y, 1/(s.y)); the coefficients stay
    on the device."""
    q = g
    alphas = []
    for s, y, rho in reversed(hist):
        a = rho * (s @ q)
        q = q - a * y
        alphas.append(a)
    r = q * gamma
    for (s, y, rho), a in zip(hist, reversed(alphas)):
        b = rho * (y @ r)
        r = r + s * (a - b)
    return -r


def lbfgs(fun, x, max_iter, gtol, m=10, maxls=50, tick=None):
    """(x, f, n_iter, converged) minimising fun, which returns
    (f as a 0-d device array, gradient); tick() after each iteration (a
    progress bar's update)."""
    f, g = fun(x)
    fh, gmax = _host(f, ember.abs(g).max())
    if gmax <= gtol:
        return x, fh, 0, True
    hist = []
    gamma = 1.0
    for k in range(1, max_iter + 1):
        d = _two_loop(g, hist, gamma)
        gd = g @ d
        step = 1.0
        if not hist:  # scipy's first step: a unit move along -g
            step = 1.0 / max(float(ember.sqrt(d @ d)), 1e-300)
        for _ in range(maxls):
            xn = x + step * d
            fn, gn = fun(xn)
            yv = gn - g
            fnh, gdh, gmaxn, dy, yy = _host(fn, gd, ember.abs(gn).max(), d @ yv,
                                            yv @ yv)
            if np.isfinite(fnh) and fnh <= fh + 1e-4 * step * gdh:
                break
            # the minimiser of the quadratic through f, f' and the trial
            t = -gdh * step * step / (2 * (fnh - fh - gdh * step)) \
                if np.isfinite(fnh) else step * 0.1
            step = min(max(t, 0.1 * step), 0.5 * step)
        else:
            return x, fh, k, False
        sy = step * dy
        if sy > 1e-10 * yy:
            hist.append((step * d, yv, 1.0 / sy))
            if len(hist) > m:
                hist.pop(0)
            gamma = sy / yy
        x, g, fprev, fh = xn, gn, fh, fnh
        if tick is not None:
            tick()
        if (fprev - fh) <= FTOL * max(abs(fprev), abs(fh), 1.0) or gmaxn <= gtol:
            return x, fh, k, True
    return x, fh, max_iter, False


def fista(fun, prox, x, max_iter, tol, tick=None):
    """(x, n_iter, converged) minimising fun(x) + h(x) where prox(v, t) is
    h's proximal map at step t; backtracking on the step, restart when the
    objective rises. Stops when the largest entry of the gradient mapping
    (x - prox(x - t g, t)) / t is at most tol. tick() after each iteration."""
    f, g = fun(x)
    L = 1.0
    z, t_mom = x, 1.0
    fz, gz = f, g
    for k in range(1, max_iter + 1):
        fzh = float(fz)
        while True:
            xn = prox(z - gz / L, 1.0 / L)
            dx = xn - z
            fn, gn = fun(xn)
            fnh, lin, dd = _host(fn, gz @ dx, dx @ dx)
            if fnh <= fzh + lin + 0.5 * L * dd + 1e-12 * abs(fzh):
                break
            L *= 2.0
        step_map = float(ember.abs(xn - prox(xn - gn / L, 1.0 / L)).max()) * L
        if tick is not None:
            tick()
        if step_map <= tol:
            return xn, k, True
        t_next = 0.5 * (1 + (1 + 4 * t_mom * t_mom) ** 0.5)
        mom = (t_mom - 1) / t_next
        if float(((z - xn) * (xn - x)).sum()) > 0:  # restart
            t_next, mom = 1.0, 0.0
        z = xn + mom * (xn - x)
        x, t_mom = xn, t_next
        fz, gz = fun(z)
        L *= 0.9
    return x, max_iter, False
