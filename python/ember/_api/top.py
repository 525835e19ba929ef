"""python -m ember top: a live view of every device (the host and each
GPU ember sees, numbered as ember and CUDA number them) from
Device.status(). On a terminal it redraws every --interval seconds until q
or Ctrl-C; when stdout is not a terminal, or with --once, it prints plain
text snapshots that scripts and CI can read."""
import argparse
import os
import select
import sys
import time

import ember

_GIB = float(1 << 30)
_GB = 1e9          # link rates in GB/s, as NVIDIA quotes them


def devices():
    out = [ember.Device("cpu")]
    try:
        n = ember._ember._cuda_device_count()
    except Exception:
        n = 0
    out += [ember.Device("cuda:%d" % i) for i in range(n)]
    return out


def bar(percent, width=20):
    if percent is None:
        return "[" + "?" * width + "]"
    full = int(round(max(0.0, min(100.0, percent)) * width / 100.0))
    return "[" + "#" * full + "." * (width - full) + "]"


def _num(v, fmt, unit):
    return "-" if v is None else (fmt % v) + unit


def render(statuses, width=20):
    """The snapshot as text lines (no terminal codes)."""
    lines = []
    for s in statuses:
        lines.append("%-7s %s" % (s.device, s.name or ""))
        mem_pct = (100.0 * s.memory_used / s.memory_total
                   if s.memory_total else None)
        lines.append("  util %s %s   mem %s %s / %s" % (
            bar(s.utilization_sm, width), _num(s.utilization_sm, "%5.1f", "%"),
            bar(mem_pct, width),
            _num(None if s.memory_used is None else s.memory_used / _GIB, "%.1f", ""),
            _num(None if s.memory_total is None else s.memory_total / _GIB, "%.1f",
                 " GiB")))
        power = _num(s.power, "%.0f", "")
        if s.power_limit is not None:
            power += " / %.0f" % s.power_limit
        lines.append("  temp %s  power %s W  clock %s" % (
            _num(s.temperature, "%.0f", " C"), power, _num(s.clock_sm, "%d", " MHz")))
        links = [(name, tx, rx) for name, tx, rx in (
            ("pcie", s.pcie_tx, s.pcie_rx), ("nvlink", s.nvlink_tx, s.nvlink_rx))
            if tx or rx]
        if links:
            lines.append("  " + "  ".join("%s tx %s rx %s" % (
                name, _num(tx and tx / _GB, "%.2f", ""), _num(rx and rx / _GB, "%.2f",
                                                             " GB/s"))
                for name, tx, rx in links))
        if s.load_per_core:
            lines.append("  cores " + " ".join("%3.0f" % x for x in s.load_per_core))
        if s.throttle_reasons:
            lines.append("  throttled: " + ", ".join(s.throttle_reasons))
        for pid, used in s.processes or ():
            lines.append("  pid %-8d %s" % (pid, _num(None if used is None
                                                     else used / _GIB, "%.2f", " GiB")))
    return lines


def snapshot(devs):
    return "\n".join(render([d.status() for d in devs])) + "\n"


def _live(devs, interval):
    import termios
    import tty
    fd = sys.stdin.fileno() if sys.stdin.isatty() else None
    old = termios.tcgetattr(fd) if fd is not None else None
    try:
        if fd is not None:
            tty.setcbreak(fd)   # q arrives without Enter
        sys.stdout.write("\x1b[?25l")  # hide the cursor while redrawing
        while True:
            text = snapshot(devs)
            stamp = time.strftime("%H:%M:%S")
            sys.stdout.write("\x1b[H\x1b[2J" + "ember top  %s  (q quits)\n\n" % stamp +
                             text)
            sys.stdout.flush()
            if fd is None:
                time.sleep(interval)
            elif select.select([fd], [], [], interval)[0] and \
                    os.read(fd, 1) in (b"q", b"Q"):
                return 0
    except KeyboardInterrupt:
        return 0
    finally:
        sys.stdout.write("\x1b[?25h\n")
        sys.stdout.flush()
        if old is not None:
            termios.tcsetattr(fd, termios.TCSADRAIN, old)


def main(argv):
    p = argparse.ArgumentParser(prog="python -m ember top",
                                description="A live view of every device.")
    p.add_argument("--interval", type=float, default=1.0,
                   help="seconds between refreshes (default 1)")
    p.add_argument("--once", action="store_true",
                   help="print one plain-text snapshot and exit")
    a = p.parse_args(argv)
    if a.interval <= 0:
        p.error("--interval must be > 0")
    devs = devices()
    if a.once:
        sys.stdout.write(snapshot(devs))
        return 0
    if sys.stdout.isatty():
        return _live(devs, a.interval)
    try:
        while True:   # a pipe gets snapshots, one after another
            sys.stdout.write(snapshot(devs) + "\n")
            sys.stdout.flush()
            time.sleep(a.interval)
    except (KeyboardInterrupt, BrokenPipeError):
        return 0
