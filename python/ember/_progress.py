"""Progress bars of long work (file reads, ml fits, compiles, big copies).

A bar is drawn on stderr when stderr is an interactive terminal and the work
has lasted more than DELAY seconds; never in a pipe, a log or a notebook cell
(ipykernel's stderr is no tty). EMBER_PROGRESS=1 draws it everywhere from the
first update, EMBER_PROGRESS=0 never. tqdm draws it where installed, else
the small bar below.

progress(total, desc, unit) is called once per operation; when no bar can
appear it returns OFF, whose update is an empty method: the work loop pays a
call per chunk, iteration or tree, and no clock reads or formatting.
"""
import os
import sys
import time

DELAY = 1.0             # seconds of work before a bar appears on a terminal
_REDRAW = 0.1           # the built-in bar redraws at most this often


class _Off:
    """The bar that never appears."""
    __slots__ = ()

    def update(self, n=1):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


OFF = _Off()


def enabled():
    """True (forced), False (forced off or not a terminal) or None (a
    terminal: the bar waits DELAY seconds)."""
    v = os.environ.get("EMBER_PROGRESS", "").strip().lower()
    if v in ("1", "true", "yes", "on"):
        return True
    if v in ("0", "false", "no", "off"):
        return False
    try:
        return None if sys.stderr.isatty() else False
    except (AttributeError, ValueError):      # stderr replaced or closed
        return False


def progress(total, desc, unit="it"):
    """A bar for work of `total` units (None: unknown), or OFF."""
    on = enabled()
    if on is False:
        return OFF
    return Progress(total, desc, unit, 0.0 if on else DELAY)


def waiting(desc):
    """A context for one long call into C that reports nothing itself (a
    batch of compiles): after the delay a thread draws the time spent and
    the kernels compiled so far, while the call runs with the GIL
    released. OFF where no bar can appear."""
    on = enabled()
    if on is False:
        return OFF
    return _Waiting(desc, 0.0 if on else DELAY)


class _Waiting:
    def __init__(self, desc, delay):
        self.p = Progress(None, desc, "s", delay)
        self.delay = delay
        self.stop = None

    def __enter__(self):
        import threading
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._draw, daemon=True,
                                       name="ember-progress")
        self.thread.start()
        return self

    def _draw(self):
        if self.stop.wait(self.delay):
            return
        p = self.p
        p.bar = _Plain(p)           # seconds elapsed and kernels: no total for tqdm
        while True:
            p.done = time.monotonic() - p.t0
            p.bar.show(p.done, _compiles() - p.compiles0, force=True)
            if self.stop.wait(0.5):
                return

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        self.p.close()


def _compiles():
    from ember import _ember
    return _ember._kernel_cache_stats()["compiles"]


class Progress:
    """Counts work and, once `delay` seconds have passed, draws it. The
    kernels compiled since the bar began are shown beside the count, so a
    fit whose first run compiles many kernels says where its time goes."""

    def __init__(self, total, desc, unit="it", delay=DELAY):
        self.total, self.desc, self.unit = total, desc, unit
        self.done, self.bar = 0, None
        self.t0 = time.monotonic()
        self.start = self.t0 + delay
        self.compiles0 = _compiles()

    def update(self, n=1):
        self.done += n
        if self.bar is None:
            if time.monotonic() < self.start:
                return
            self.bar = _open_bar(self)
        self.bar.show(self.done, _compiles() - self.compiles0)

    def close(self):
        """Draws the final count, then clears the line."""
        if self.bar is not None:
            self.bar.close(self.done, _compiles() - self.compiles0)
            self.bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _open_bar(p):
    try:
        from tqdm import tqdm
    except ImportError:
        return _Plain(p)
    return _Tqdm(tqdm, p)


class _Tqdm:
    def __init__(self, tqdm, p):
        scale = p.unit == "B"
        self.t = tqdm(total=p.total, desc=p.desc, unit=p.unit, unit_scale=scale,
                      unit_divisor=1024 if scale else 1000, leave=False,
                      file=sys.stderr, dynamic_ncols=True)
        # the rate counts the second before it showed (tqdm's own clock)
        self.t.start_t = self.t._time() - (time.monotonic() - p.t0)
        self.compiles = 0

    def show(self, done, compiles):
        if compiles != self.compiles:
            self.compiles = compiles
            self.t.set_postfix_str(_compiled(compiles), refresh=False)
        self.t.update(done - self.t.n)

    def close(self, done, compiles):
        self.show(done, compiles)
        self.t.refresh()
        self.t.close()


class _Plain:
    """One line rewritten with \\r: desc, percent, count/total, rate, ETA."""

    def __init__(self, p):
        self.p, self.last, self.width = p, 0.0, 0

    def show(self, done, compiles, force=False):
        now = time.monotonic()
        if not force and now - self.last < _REDRAW:
            return
        self.last = now
        p = self.p
        el = max(now - p.t0, 1e-9)
        rate = done / el
        s = p.desc + ": "
        if p.unit == "s":           # a wait: its time is all there is to count
            s += _clock(el)
        elif p.total:
            frac = min(done / p.total, 1.0)
            fill = int(frac * 20)
            s += "%3d%% |%s%s| %s" % (frac * 100, "#" * fill, " " * (20 - fill),
                                      _count(done, p.total, p.unit))
            eta = (p.total - done) / rate if rate > 0 else 0.0
            s += " [%s<%s, %s/s]" % (_clock(el), _clock(eta), _amount(rate, p.unit, True))
        else:
            s += "%s [%s, %s/s]" % (_amount(done, p.unit), _clock(el),
                                    _amount(rate, p.unit, True))
        if compiles:
            s += ", " + _compiled(compiles)
        pad = " " * max(self.width - len(s), 0)
        self.width = len(s)
        _write("\r" + s + pad)

    def close(self, done, compiles):
        self.show(done, compiles, force=True)
        _write("\r" + " " * self.width + "\r")


def _write(s):
    try:
        sys.stderr.write(s)
        sys.stderr.flush()
    except (OSError, ValueError):     # a closed stderr: the work goes on
        pass


def _count(done, total, unit):
    if unit == "B":
        return "%s/%s" % (_amount(done, unit), _amount(total, unit))
    return "%d/%d %s" % (done, total, unit)


def _compiled(n):
    return "%d kernel%s compiled" % (n, "" if n == 1 else "s")


def _amount(x, unit, rate=False):
    if unit == "B":
        for u in ("B", "KiB", "MiB", "GiB"):
            if x < 1024 or u == "GiB":
                return ("%d %s" if u == "B" and not rate else "%.1f %s") % (x, u)
            x /= 1024.0
    return ("%.1f %s" if rate else "%d %s") % (x, unit)


def _clock(s):
    s = int(s)
    return "%02d:%02d" % divmod(s, 60) if s < 3600 else "%d:%02d:%02d" % (
        s // 3600, s // 60 % 60, s % 60)
