"""The shared memory under cpu communicators: where each rank's part of a
collective lies, the barrier, and the point-to-point mailboxes.

Two worlds with one interface, so the collectives (_cpu.py) are written
once: ThreadWorld for ranks that are threads of one process (the parts are
the ranks' own ember arrays, exchanged by reference), ProcessWorld for
ranks that are processes on one host (a file in /dev/shm that every rank
maps; the unique id names it). Data moves only through ember's array copies
and ufuncs; Python handles a chunk, never an element.
"""
import mmap
import os
import struct
import threading
import time
from collections import deque

import ember

# struct formats of the dtypes a slot is viewed as (memoryview.cast).
_FORMATS = {"int8": "b", "uint8": "B", "int32": "i", "uint32": "I",
            "int64": "q", "uint64": "Q", "float16": "e", "float32": "f",
            "float64": "d"}

_PAGE = 4096


def _timeout():
    # A rank that died leaves the others waiting; this bounds the wait.
    return float(os.environ.get("EMBER_DIST_TIMEOUT", "300"))


class Idle:
    """Polling with a bound: spin a little, then sleep between polls, and
    raise once EMBER_DIST_TIMEOUT has passed without progress."""

    def __init__(self, what):
        self.what = what
        self.spins = 0
        self.end = None

    def wait(self):
        self.spins += 1
        if self.spins <= 200:
            return
        time.sleep(0.0001)
        if self.end is None:
            self.end = time.monotonic() + _timeout()
        elif time.monotonic() > self.end:
            raise RuntimeError("cpu communicator: %s within "
                               "EMBER_DIST_TIMEOUT=%gs" % (self.what, _timeout()))


class ThreadWorld:
    """Ranks are threads of this process: parts are exchanged by reference
    (no copy) and the barrier is threading.Barrier."""
    capacity_bytes = None          # no chunking: a part is any size

    def __init__(self, size):
        self.size = size
        self._barrier = threading.Barrier(size)
        self._parts = [None] * size
        self._meta = [None] * size
        self._boxes = {}
        self._box_lock = threading.Lock()

    def barrier(self):
        try:
            self._barrier.wait(_timeout())
        except threading.BrokenBarrierError:
            raise RuntimeError("cpu communicator: a rank did not reach the "
                               "collective within EMBER_DIST_TIMEOUT=%gs (or a "
                               "rank was aborted)" % _timeout()) from None

    def abort(self):
        self._barrier.abort()

    def publish(self, rank, meta, parts):
        self._meta[rank] = meta
        self._parts[rank] = parts

    def metas(self):
        return self._meta

    def part(self, r, j, dtype, n):
        return self._parts[r][j]

    def _box(self, src, dst):
        with self._box_lock:
            return self._boxes.setdefault((src, dst), deque())

    def try_put(self, src, dst, meta, chunk):
        self._box(src, dst).append((meta, ember.array(chunk, copy=True)))
        return True

    def try_take(self, src, dst):
        """(meta, array) of the next message from src, or None."""
        box = self._box(src, dst)
        return box.popleft() if box else None

    def release_take(self, src, dst):
        pass

    def close(self, rank):
        pass


class _FileLock:
    """flock on the segment's file: the lock between processes."""

    def __init__(self, fd):
        self.fd = fd
        import fcntl
        self._flock = fcntl.flock
        self._ex, self._un = fcntl.LOCK_EX, fcntl.LOCK_UN

    def __enter__(self):
        self._flock(self.fd, self._ex)

    def __exit__(self, *exc):
        self._flock(self.fd, self._un)


class ProcessWorld:
    """Ranks are processes of one host sharing a file in /dev/shm.

    Layout: a header page (the barrier's count and sense, then each rank's
    64-byte description of its call), size collective slots of
    capacity_bytes, then size*size mailboxes (a 64-byte header with the
    full flag, then capacity_bytes). The barrier is sense-reversing: the
    last rank to arrive resets the count and flips the sense the others
    poll, so it can be reused at once."""

    def __init__(self, size, rank, token, capacity_bytes):
        self.size, self.rank = size, rank
        self.capacity_bytes = capacity_bytes
        slot = capacity_bytes
        self._coll = _PAGE
        self._mail = self._coll + size * slot
        self._box_size = 64 + slot
        total = self._mail + size * size * self._box_size
        self.path = "/dev/shm/ember-dist-%s" % token
        if rank == 0:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            os.ftruncate(fd, total)
        else:
            fd = self._wait_open(total)
        self.fd = fd
        self.map = mmap.mmap(fd, total)
        self.lock = _FileLock(fd)
        self._sense = 0
        self._views = {}
        self.mv = memoryview(self.map)
        self.barrier()
        if rank == 0:        # every rank has it mapped: the name can go
            os.unlink(self.path)

    def _wait_open(self, total):
        end = time.monotonic() + _timeout()
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR)
                if os.fstat(fd).st_size == total:
                    return fd
                os.close(fd)
            except FileNotFoundError:
                pass
            if time.monotonic() > end:
                raise RuntimeError("cpu communicator: rank 0 did not create "
                                   "the shared segment %s within %gs"
                                   % (self.path, _timeout()))
            time.sleep(0.001)

    def _wait(self, ready):
        idle = Idle("a rank did not reach the collective")
        while not ready():
            idle.wait()

    def barrier(self):
        m = self.map
        self._sense ^= 1
        sense = self._sense
        with self.lock:
            count = struct.unpack_from("q", m, 0)[0] + 1
            if count == self.size:
                struct.pack_into("qq", m, 0, 0, sense)
                return
            struct.pack_into("q", m, 0, count)
        self._wait(lambda: struct.unpack_from("q", m, 8)[0] == sense)

    def abort(self):
        pass

    def _typed(self, offset, dtype):
        key = (offset, dtype)
        v = self._views.get(key)
        if v is None:
            fmt = _FORMATS[str(dtype)]
            n = self.capacity_bytes
            v = ember.asarray(self.mv[offset:offset + n].cast(fmt))
            self._views[key] = v
        return v

    def publish(self, rank, meta, parts):
        struct.pack_into("8q", self.map, 16 + 64 * rank, *meta)
        off = 0
        for p in parts:
            if p is not None and p.size:
                self._typed(self._coll + rank * self.capacity_bytes,
                            p.dtype)[off:off + p.size] = p
                off += p.size
        ember.get_current_stream().synchronize()

    def metas(self):
        return [struct.unpack_from("8q", self.map, 16 + 64 * r)
                for r in range(self.size)]

    def part(self, r, j, dtype, n):
        v = self._typed(self._coll + r * self.capacity_bytes, dtype)
        return v[j * n:(j + 1) * n]

    def _box_off(self, src, dst):
        return self._mail + (src * self.size + dst) * self._box_size

    def try_put(self, src, dst, meta, chunk):
        off = self._box_off(src, dst)
        with self.lock:
            if struct.unpack_from("q", self.map, off)[0]:
                return False
        if chunk.size:
            self._typed(off + 64, chunk.dtype)[:chunk.size] = chunk
            ember.get_current_stream().synchronize()
        with self.lock:
            struct.pack_into("7q", self.map, off + 8, *meta)
            struct.pack_into("q", self.map, off, 1)
        return True

    def try_take(self, src, dst):
        off = self._box_off(src, dst)
        with self.lock:
            if not struct.unpack_from("q", self.map, off)[0]:
                return None
            meta = struct.unpack_from("7q", self.map, off + 8)
        from ._ops import dtype_of_code
        dt = dtype_of_code(meta[0])
        n = meta[2]
        return meta, self._typed(off + 64, dt)[:n]

    def release_take(self, src, dst):
        # The chunk was copied out (and the copy drained): the box is free.
        ember.get_current_stream().synchronize()
        with self.lock:
            struct.pack_into("q", self.map, self._box_off(src, dst), 0)

    def close(self, rank):
        self._views.clear()
        try:
            self.mv.release()
            self.map.close()
        except BufferError:
            # an array over the segment is still alive; the mapping goes
            # when it does
            pass
        os.close(self.fd)
