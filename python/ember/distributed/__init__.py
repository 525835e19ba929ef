"""ember.distributed: collectives between ranks (docs/scale.md).

A Communicator is one rank of a group. On cuda the calls are NCCL's (_nccl.py);
on cpu, ranks are threads of one process (init_all) or processes of one
host (a unique id from get_unique_id passed to each), over shared memory
(_worlds.py, _cpu.py).
Calls on a communicator take ember arrays of its device; a receive buffer
may be given (C-contiguous, the send buffer's dtype) or is allocated.
"""
import os
import secrets
import threading

import ember
from . import _ops
from . import _nccl
from ._cpu import CpuComm, progress, run_threads
from ._worlds import ProcessWorld, ThreadWorld

__all__ = ["Communicator", "init_all", "get_unique_id", "group_start",
           "group_end", "group", "ReduceOp"]

# NCCL requires NVLink multicast off on the GPU host; a user's setting wins.
os.environ.setdefault("NCCL_NVLS_ENABLE", "0")

_CPU_ID = b"ember-cpu-shm:"
_ID_BYTES = 128                       # ncclUniqueId's size
_CAPACITY = 4 << 20                   # bytes a process rank's slot holds


def _capacity():
    # Every rank of a group must see the same value (it sizes the segment).
    v = int(os.environ.get("EMBER_DIST_SLOT_BYTES", _CAPACITY))
    if v < 64:
        raise ValueError("EMBER_DIST_SLOT_BYTES must be at least 64, got %d" % v)
    return v - v % 64


class ReduceOp:
    SUM, PROD, MAX, MIN, AVG = 0, 1, 2, 3, 4


def get_unique_id(device=None):
    """The id that names a new group of process ranks: rank 0 makes it and
    sends it to the others (128 bytes, as NCCL's)."""
    d = _device(device)
    if d.type != "cpu":
        return _nccl.unique_id()
    body = _CPU_ID + secrets.token_hex(16).encode()
    return body + b"\0" * (_ID_BYTES - len(body))


def _device(device):
    return ember.Device(device) if device is not None else ember.get_device()


class Communicator:
    """Rank `rank` of `nranks`, joined through `unique_id` (from
    get_unique_id) on `device` (default: the current device)."""

    def __init__(self, nranks, unique_id, rank, device=None, *, _world=None):
        if not isinstance(nranks, int) or nranks < 1:
            raise ValueError("nranks must be a positive int, got %r" % (nranks,))
        if not isinstance(rank, int) or not 0 <= rank < nranks:
            raise ValueError("rank %r is out of range for %d ranks"
                             % (rank, nranks))
        self._device = d = _device(device)
        uid = None if unique_id is None else bytes(unique_id)
        if d.type != "cpu":
            if isinstance(_world, _nccl.NcclComm):
                self._c = _world
                return
            if len(uid) != _ID_BYTES or uid.startswith(_CPU_ID):
                raise ValueError("unique_id was not made by get_unique_id on "
                                 "a cuda device (NCCL's are %d bytes)" % _ID_BYTES)
            self._c = _nccl.NcclComm.init_rank(d, nranks, uid, rank)
            return
        if _world is None:
            if not uid.startswith(_CPU_ID):
                raise ValueError("unique_id was not made by ember's "
                                 "get_unique_id for cpu")
            token = uid[len(_CPU_ID):].rstrip(b"\0").decode()
            _world = ProcessWorld(nranks, rank, token, _capacity())
        self._c = CpuComm(_world, nranks, rank, d)

    # ---- facts ----------------------------------------------------------

    @property
    def rank(self):
        return self._c.rank

    @property
    def size(self):
        return self._c.size

    @property
    def device(self):
        return self._device

    def __repr__(self):
        return "<ember.distributed.Communicator rank %d of %d on %s>" % (
            self._c.rank, self._c.size, self._device)

    def destroy(self):
        """Free the communicator; later calls on it raise RuntimeError."""
        if not self._c.destroyed:
            self._c.destroyed = True
            self._c.close()

    def abort(self):
        """Free the communicator without waiting for its outstanding work
        (NCCL's ncclCommAbort; on cpu, destroy)."""
        if not self._c.destroyed:
            self._c.destroyed = True
            if isinstance(self._c, _nccl.NcclComm):
                self._c.close(abort=True)
            else:
                self._c.close()

    # ---- argument handling ----------------------------------------------

    def _live(self, what):
        if self._c.destroyed:
            raise RuntimeError("%s on a destroyed communicator (rank %d of %d)"
                               % (what, self._c.rank, self._c.size))

    def _stream(self, stream, what):
        if stream is not None and stream.device != self._device:
            raise ValueError("%s: the stream is on %s but the communicator "
                             "is on %s" % (what, stream.device, self._device))
        return stream

    def _root(self, root, what):
        if not isinstance(root, int) or not 0 <= root < self._c.size:
            raise ValueError("%s: root %r is out of range for %d ranks"
                             % (what, root, self._c.size))

    def _recv(self, send, recv, shape, what, stream):
        if recv is None:
            # allocated on the call's stream, which then owns the block
            if self._stream(stream, what) is None:
                return ember.empty(shape, send.dtype, device=self._device)
            with stream:
                return ember.empty(shape, send.dtype, device=self._device)
        _ops.check_array(recv, what + ": recvbuf", self._device, writeable=True)
        _ops.check_pair(send, recv, what, _prod(shape))
        return recv

    def _split(self, send, what):
        n = self._c.size
        if send.size % n:
            raise ValueError("%s: sendbuf of shape %s (%d elements) does not "
                             "split into %d equal parts" % (what, send.shape,
                                                             send.size, n))
        if send.ndim > 1 and send.shape[0] == n:
            return send.shape[1:]
        return (send.size // n,)

    def _run(self, stream, call):
        g = _group_state()
        if g.depth:
            g.calls.append((self, stream, call))
            return
        _run_one(self, stream, call)

    def _collective(self, what, send, recv, out_count, nparts, op, root, stream):
        sflat = None if send is None else _flat(send, stream)
        rflat = recv.reshape(-1)
        if isinstance(self._c, _nccl.NcclComm):
            self._c.collective(what, sflat, rflat, out_count, nparts, op, root,
                               stream)
            return
        self._run(stream, lambda: self._c.collective(
            what, sflat, rflat, out_count, nparts, op, root))

    # ---- collectives ----------------------------------------------------

    def all_reduce(self, sendbuf, recvbuf=None, op="sum", stream=None):
        """recvbuf = op over the ranks of sendbuf."""
        w = "all_reduce"
        self._live(w)
        _ops.check_array(sendbuf, w + ": sendbuf", self._device)
        code = _ops.op_code(op)
        recvbuf = self._recv(sendbuf, recvbuf, sendbuf.shape, w, stream)
        self._collective(w, sendbuf, recvbuf, sendbuf.size, 1, code, 0,
                         self._stream(stream, w))
        return recvbuf

    def reduce(self, sendbuf, recvbuf=None, op="sum", root=0, stream=None):
        """op over the ranks of sendbuf, into recvbuf on root (None
        elsewhere unless recvbuf is given)."""
        w = "reduce"
        self._live(w)
        self._root(root, w)
        _ops.check_array(sendbuf, w + ": sendbuf", self._device)
        code = _ops.op_code(op)
        if self._c.rank == root or recvbuf is not None:
            recvbuf = self._recv(sendbuf, recvbuf, sendbuf.shape, w, stream)
            target = recvbuf
        else:
            target = ember.empty(0, sendbuf.dtype, device=self._device)
        self._collective(w, sendbuf, target, sendbuf.size, 1, code, root,
                         self._stream(stream, w))
        return recvbuf

    def broadcast(self, buf, root=0, stream=None):
        """root's buf copied into buf on every rank (in place); returns
        buf."""
        w = "broadcast"
        self._live(w)
        self._root(root, w)
        _ops.check_array(buf, w + ": buf", self._device,
                         writeable=self._c.rank != root)
        send = buf if self._c.rank == root else None
        self._collective(w, send, buf, buf.size, 1, 0, root,
                         self._stream(stream, w))
        return buf

    def all_gather(self, sendbuf, recvbuf=None, stream=None):
        """Every rank's sendbuf, stacked in rank order: shape (size,) +
        sendbuf.shape unless recvbuf is given."""
        w = "all_gather"
        self._live(w)
        _ops.check_array(sendbuf, w + ": sendbuf", self._device)
        recvbuf = self._recv(sendbuf, recvbuf, (self._c.size,) + sendbuf.shape, w, stream)
        self._collective(w, sendbuf, recvbuf, sendbuf.size, 1, 0, 0,
                         self._stream(stream, w))
        return recvbuf

    def reduce_scatter(self, sendbuf, recvbuf=None, op="sum", stream=None):
        """Rank r gets op over the ranks of sendbuf's r-th part (sendbuf
        splits into size equal parts; shape sendbuf.shape[1:] when its
        first axis is size, else flat)."""
        w = "reduce_scatter"
        self._live(w)
        _ops.check_array(sendbuf, w + ": sendbuf", self._device)
        code = _ops.op_code(op)
        shape = self._split(sendbuf, w)
        recvbuf = self._recv(sendbuf, recvbuf, shape, w, stream)
        self._collective(w, sendbuf, recvbuf, recvbuf.size, self._c.size,
                         code, 0, self._stream(stream, w))
        return recvbuf

    def all_to_all(self, sendbuf, recvbuf=None, stream=None):
        """Part j of sendbuf goes to rank j; part r of recvbuf comes from
        rank r (size equal parts, as NCCL's grouped send/recv)."""
        w = "all_to_all"
        self._live(w)
        _ops.check_array(sendbuf, w + ": sendbuf", self._device)
        self._split(sendbuf, w)
        recvbuf = self._recv(sendbuf, recvbuf, sendbuf.shape, w, stream)
        self._collective(w, sendbuf, recvbuf, sendbuf.size, self._c.size,
                         0, 0, self._stream(stream, w))
        return recvbuf

    # ---- point to point -------------------------------------------------

    def _peer(self, peer, what):
        if not isinstance(peer, int) or not 0 <= peer < self._c.size:
            raise ValueError("%s: peer %r is out of range for %d ranks"
                             % (what, peer, self._c.size))

    def send(self, buf, peer, stream=None):
        """buf to rank peer (its recv must match in size and dtype)."""
        self._live("send")
        self._peer(peer, "send")
        _ops.check_array(buf, "send: buf", self._device)
        stream = self._stream(stream, "send")
        self._p2p(True, _flat(buf, stream), peer, stream)

    def recv(self, buf, peer, stream=None):
        """buf filled from rank peer's send; returns buf."""
        self._live("recv")
        self._peer(peer, "recv")
        _ops.check_array(buf, "recv: buf", self._device, writeable=True)
        self._p2p(False, buf.reshape(-1), peer, self._stream(stream, "recv"))
        return buf

    def _p2p(self, is_send, flat, peer, stream):
        if isinstance(self._c, _nccl.NcclComm):
            self._c.p2p(is_send, flat, peer, stream)
        else:
            self._run(stream, _P2P(self._c, is_send, flat, peer))


class _P2P:
    """A send or recv waiting for its group's progress loop."""

    def __init__(self, c, is_send, flat, peer):
        self.c, self.is_send, self.flat, self.peer = c, is_send, flat, peer

    def steps(self):
        return self.c.p2p_steps(self.is_send, self.flat, self.peer)

    def __call__(self):
        progress([self.steps()])


def _flat(a, stream):
    """a as a flat C-ordered array: a view, or a copy made on stream so the
    call on that stream finds it written."""
    if a.flags.c_contiguous:
        return a.reshape(-1)
    if stream is None:
        return ember.ascontiguousarray(a).reshape(-1)
    with stream:
        return ember.ascontiguousarray(a).reshape(-1)


def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def init_all(devices):
    """One communicator per device, ranks in the list's order, all in this
    process: ['cpu'] * n gives n thread ranks (call each from its own
    thread, or all from one thread inside a group)."""
    if isinstance(devices, int):
        devices = list(range(devices))
    ds = [ember.Device(d) for d in devices]
    if not ds:
        raise ValueError("init_all: no devices given")
    kinds = {d.type for d in ds}
    if len(kinds) > 1:
        raise ValueError("init_all: devices of one kind are needed, got %s"
                         % ", ".join(str(d) for d in ds))
    if "cuda" in kinds:
        if len({str(d) for d in ds}) < len(ds):
            raise ValueError("init_all: NCCL takes each GPU once, got %s"
                             % ", ".join(str(d) for d in ds))
        return [Communicator(len(ds), None, c.rank, c.device, _world=c)
                for c in _nccl.NcclComm.init_all(ds)]
    world = ThreadWorld(len(ds))
    return [Communicator(len(ds), None, r, d, _world=world)
            for r, d in enumerate(ds)]


# ---- groups -------------------------------------------------------------

class _Group(threading.local):
    depth = 0

    def __init__(self):
        self.calls = []


_group = _Group()


def _group_state():
    return _group


def group_start():
    """Calls until the matching group_end are queued and issued together:
    grouped sends and receives do not deadlock, and one thread may drive
    every rank of init_all's communicators."""
    _group.depth += 1
    _nccl.group_start()


def group_end():
    if _group.depth == 0:
        raise RuntimeError("group_end() without group_start()")
    _group.depth -= 1
    _nccl.group_end()
    if _group.depth:
        return
    calls, _group.calls = _group.calls, []
    by_comm = {}
    for comm, stream, call in calls:
        by_comm.setdefault(id(comm), []).append((comm, stream, call))
    jobs = [lambda cs=cs: _run_calls(cs) for cs in by_comm.values()]
    if len(jobs) == 1:
        jobs[0]()
    elif jobs:
        run_threads([[j] for j in jobs])


class group:
    """with ember.distributed.group(): ... — group_start/group_end."""

    def __enter__(self):
        group_start()
        return self

    def __exit__(self, tp, exc, tb):
        if tp is None:
            group_end()
        else:              # drop the queued calls: the block failed
            _group.depth -= 1
            _nccl.group_end()
            if not _group.depth:
                _group.calls = []


def _run_calls(calls):
    """One rank's grouped calls: collectives in order, consecutive sends
    and receives progressed together."""
    i = 0
    while i < len(calls):
        comm, stream, call = calls[i]
        if isinstance(call, _P2P):
            j = i
            while j < len(calls) and isinstance(calls[j][2], _P2P):
                j += 1
            _with_stream(stream, lambda: progress(
                [c.steps() for _, _, c in calls[i:j]]))
            i = j
        else:
            _run_one(comm, stream, call)
            i += 1


def _run_one(comm, stream, call):
    _with_stream(stream, call)


def _with_stream(stream, f):
    if stream is None:
        f()
    else:
        with stream:
            f()
