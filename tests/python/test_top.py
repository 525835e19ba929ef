"""python -m ember top: --once's plain snapshot, snapshots into a pipe, and
the live view on a terminal that q ends."""
import os
import pty
import select
import subprocess
import sys
import time

import pytest

import ember
from ember._api import top


def _run(*args, **kw):
    return subprocess.run([sys.executable, "-m", "ember", "top", *args],
                          capture_output=True, text=True, timeout=60, **kw)


def test_once_prints_every_device():
    r = _run("--once")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("cpu ")
    assert "util [" in lines[1] and "mem [" in lines[1] and "GiB" in lines[1]
    assert "\x1b" not in r.stdout   # plain text: no terminal codes
    n = len(top.devices())
    assert sum(1 for line in lines if not line.startswith(" ")) == n


def test_cores_line_counts_cores():
    s = ember.Device("cpu").status()
    text = top.snapshot([ember.Device("cpu")])
    cores = [line for line in text.splitlines() if line.startswith("  cores")]
    assert len(cores) == 1 and len(cores[0].split()) - 1 == len(s.load_per_core)


def test_bar():
    assert top.bar(0, 10) == "[..........]"
    assert top.bar(50, 10) == "[#####.....]"
    assert top.bar(150, 10) == "[##########]"
    assert top.bar(None, 4) == "[????]"


def test_bad_interval():
    r = _run("--interval", "0", "--once")
    assert r.returncode == 2 and "--interval" in r.stderr


def test_pipe_gets_plain_snapshots():
    p = subprocess.Popen([sys.executable, "-m", "ember", "top", "--interval", "0.1"],
                         stdout=subprocess.PIPE, text=True)
    try:
        first = [p.stdout.readline() for _ in range(4)]
    finally:
        p.kill()
        p.wait()
    assert first[0].startswith("cpu ") and "\x1b" not in "".join(first)


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pty")
def test_live_view_quits_on_q():
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-m", "ember", "top",
                                  "--interval", "0.2"])
    out = b""
    deadline = time.time() + 30
    while b"q quits" not in out and time.time() < deadline:
        if select.select([fd], [], [], 0.5)[0]:
            out += os.read(fd, 4096)
    os.write(fd, b"q")
    while time.time() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if select.select([fd], [], [], 0.2)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                pass
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("top did not quit on q")
    assert b"\x1b[2J" in out and b"cpu" in out
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
