"""Collectives of a cpu communicator over a world (_worlds.py).

Every collective is one shape: each rank publishes its parts of a chunk,
all meet at the barrier, each computes its result from the others' parts
with ember's copies and ufuncs, all meet again (nobody's parts are read
after that), then each writes its result. The result is written after the
second barrier so a receive buffer may be the send buffer, as NCCL allows.
The first chunk also carries each rank's description of the call, so a
mismatch (sizes, dtypes, root, op) raises the same error on every rank
instead of hanging or reading past a buffer."""
import threading

import ember
from . import _ops
from ._worlds import Idle

_UFUNCS = {0: "add", 1: "multiply", 2: "maximum", 3: "minimum", 4: "add"}
_KINDS = ("all_reduce", "reduce", "broadcast", "all_gather",
          "reduce_scatter", "all_to_all")


def _reduce(parts, op):
    acc = ember.array(parts[0], copy=True)
    f = getattr(ember, _UFUNCS[op])
    for p in parts[1:]:
        f(acc, p, out=acc)
    if op == 4:
        n = len(parts)
        if acc.dtype.kind == "f":
            acc /= n
        elif acc.dtype.kind == "u":
            acc //= n
        else:   # NCCL divides as C does: toward zero
            q = acc // n
            q += (acc < 0) & (acc % n != 0)
            acc = q
    return acc


class CpuComm:
    """The cpu half of ember.distributed.Communicator: rank `rank` of
    `size` over `world`."""

    def __init__(self, world, size, rank, device):
        self.world, self.size, self.rank, self.device = world, size, rank, device
        self.destroyed = False

    def close(self):
        self.world.close(self.rank)

    # ---- collectives ----------------------------------------------------

    def _chunk(self, itemsize, nparts, count):
        cap = self.world.capacity_bytes
        if cap is None or count == 0:
            return max(count, 1)
        return max(1, cap // (itemsize * nparts))

    def collective(self, kind, send, recv, out_count, nparts, op, root):
        """kind's data movement; send/recv C-contiguous flat views (send
        None on ranks that send nothing). Returns nothing: recv is
        written."""
        w, rank = self.world, self.rank
        src = send if send is not None else recv
        count = src.size // nparts if kind in ("reduce_scatter", "all_to_all") \
            else src.size
        dcode = _ops.DTYPES[str(src.dtype)]
        meta = (_KINDS.index(kind), dcode, count, root, op, 0, 0, 0)
        step = self._chunk(src.dtype.itemsize, nparts, count)
        ember.get_current_stream().synchronize()
        off = 0
        first = True
        while first or off < count:
            c = min(step, count - off)
            if send is None:
                parts = [None]
            elif nparts == 1:
                parts = [send[off:off + c]]
            else:
                parts = [send[j * count + off:j * count + off + c]
                         for j in range(nparts)]
            w.publish(rank, meta, parts)
            w.barrier()
            if first:
                self._check_metas(kind, meta)
                first = False
            res = self._compute(kind, src.dtype, off, c, count, op, root)
            ember.get_current_stream().synchronize()
            w.barrier()
            self._write(kind, recv, res, off, c, count)
            off += c
            if count == 0:
                break

    def _check_metas(self, kind, meta):
        metas = [tuple(m) for m in self.world.metas()]
        if all(m == tuple(meta) for m in metas):
            return
        self.world.barrier()    # all have read the descriptions
        rows = ["rank %d: %s of %d %s (root %d, op %s)"
                % (r, _KINDS[m[0]], m[2], _ops.dtype_of_code(m[1]), m[3],
                   _ops.op_name(m[4]))
                for r, m in enumerate(metas)]
        raise ValueError("%s: the ranks' calls do not match: %s"
                         % (kind, "; ".join(rows)))

    def _compute(self, kind, dt, off, c, count, op, root):
        w, rank, size = self.world, self.rank, self.size
        if kind == "all_reduce" or (kind == "reduce" and rank == root):
            return _reduce([w.part(r, 0, dt, c) for r in range(size)], op)
        if kind == "reduce":
            return None
        if kind == "broadcast":
            return ember.array(w.part(root, 0, dt, c), copy=True)
        if kind == "all_gather":
            return [ember.array(w.part(r, 0, dt, c), copy=True)
                    for r in range(size)]
        if kind == "reduce_scatter":
            return _reduce([w.part(r, rank, dt, c) for r in range(size)], op)
        return [ember.array(w.part(r, rank, dt, c), copy=True)
                for r in range(size)]            # all_to_all

    @staticmethod
    def _write(kind, recv, res, off, c, count):
        if res is None:
            return
        if isinstance(res, list):
            for j, p in enumerate(res):
                recv[j * count + off:j * count + off + c] = p
        else:
            recv[off:off + c] = res

    # ---- point to point -------------------------------------------------

    def p2p_steps(self, is_send, flat, peer):
        """A generator that moves one chunk each time it is advanced and
        yields whether it moved; _progress drives several at once."""
        w = self.world
        total = flat.size
        dcode = _ops.DTYPES[str(flat.dtype)]
        cap = w.capacity_bytes
        step = total if cap is None else max(1, cap // flat.dtype.itemsize)
        off = 0
        first = True
        while first or off < total:
            first = False
            if is_send:
                c = min(step, total - off)
                meta = (dcode, total, c, off, 0, 0, 0)
                while not w.try_put(self.rank, peer, meta, flat[off:off + c]):
                    yield False
            else:
                got = w.try_take(peer, self.rank)
                while got is None:
                    yield False
                    got = w.try_take(peer, self.rank)
                meta, data = got
                if meta[0] != dcode or meta[1] != total:
                    w.release_take(peer, self.rank)
                    raise ValueError(
                        "recv on rank %d from rank %d: the message is %d "
                        "elements of %s but the buffer holds %d of %s"
                        % (self.rank, peer, meta[1],
                           _ops.dtype_of_code(meta[0]), total, flat.dtype))
                c = meta[2]
                if c:
                    flat[off:off + c] = data
                w.release_take(peer, self.rank)
            off += c
            yield True


def progress(gens):
    """Run p2p step generators together until all finish, so grouped sends
    and receives in any order cannot deadlock on a full mailbox."""
    pending = list(gens)
    idle = Idle("send/recv: no matching call")
    while pending:
        moved = False
        for g in list(pending):
            try:
                moved |= next(g)
            except StopIteration:
                pending.remove(g)
                moved = True
        if moved:
            idle = Idle("send/recv: no matching call")
        else:
            idle.wait()


def run_threads(jobs):
    """Run each rank's list of calls in a thread of its own (one thread
    driving every rank of a thread world, as CuPy's single-process NCCL
    programs do inside a group); the first error is raised."""
    errors = []

    def work(calls):
        try:
            for f in calls:
                f()
        except BaseException as e:   # reported to the caller below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(calls,)) for calls in jobs]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errors:
        raise errors[0]
