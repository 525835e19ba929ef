"""CuPy's cupy.cuda.nccl spellings over ember.distributed (docs/scale.md):
NcclCommunicator(ndev, commId, rank), initAll, get_unique_id, the
camelCase calls with CuPy's argument order, and NCCL's constants.

Buffers are CuPy's device pointers (ints, as `a.data.ptr`) or ember
arrays. Pointers need a cuda communicator (they go to NCCL as they are);
a cpu communicator takes ember arrays, whose size and dtype must then
agree with count and datatype."""
import ember
from ember import _ember
from ember import distributed as _dist
from ember.distributed import _nccl, _ops

NCCL_INT8, NCCL_CHAR, NCCL_UINT8 = 0, 0, 1
NCCL_INT32, NCCL_INT, NCCL_UINT32 = 2, 2, 3
NCCL_INT64, NCCL_UINT64 = 4, 5
NCCL_FLOAT16, NCCL_HALF, NCCL_FLOAT32, NCCL_FLOAT = 6, 6, 7, 7
NCCL_FLOAT64, NCCL_DOUBLE, NCCL_BFLOAT16 = 8, 8, 9
NCCL_SUM, NCCL_PROD, NCCL_MAX, NCCL_MIN, NCCL_AVG = 0, 1, 2, 3, 4

# ncclRedOp_t/ncclDataType_t numbers are _ops' codes; CuPy's names for them.
_KIND = {"allReduce": "all_reduce", "reduce": "reduce",
         "broadcast": "broadcast", "allGather": "all_gather",
         "reduceScatter": "reduce_scatter"}


def get_unique_id():
    """A new id as CuPy returns it: a tuple of 128 ints (NCCL's bytes,
    signed as C's char) from the current device's kind."""
    return tuple(b - 256 if b > 127 else b for b in _dist.get_unique_id())


def _id_bytes(comm_id):
    if isinstance(comm_id, (bytes, bytearray)):
        return bytes(comm_id)
    return bytes(b & 0xFF for b in comm_id)


def get_version():
    return _ember._nccl_version()


def groupStart():
    _dist.group_start()


def groupEnd():
    _dist.group_end()


class NcclCommunicator:
    """One rank: NcclCommunicator(ndev, commId, rank) on the current
    device, as CuPy's."""

    def __init__(self, ndev, commId, rank, *, _comm=None):
        self._comm = _comm or _dist.Communicator(ndev, _id_bytes(commId), rank)

    @staticmethod
    def initAll(devices):
        """One communicator per device (an int n: devices 0..n-1)."""
        if isinstance(devices, int):
            devices = list(range(devices))
        return [NcclCommunicator(0, None, 0, _comm=c)
                for c in _dist.init_all(devices)]

    def device_id(self):
        return self._comm.device.id

    def rank_id(self):
        return self._comm.rank

    def size(self):
        return self._comm.size

    def destroy(self):
        self._comm.destroy()

    def abort(self):
        self._comm.abort()

    # ---- calls ----------------------------------------------------------

    def _call(self, name, send, recv, count, datatype, op, root, stream):
        c = self._comm
        c._live(name)
        if isinstance(c._c, _nccl.NcclComm) and not isinstance(send, ember.ndarray) \
                and not isinstance(recv, ember.ndarray):
            if datatype not in _ops._BY_CODE:
                raise TypeError("%s: NCCL has no datatype %r" % (name, datatype))
            kind = {"send": 5, "recv": 6}.get(name) or _nccl._KIND[_KIND[name]]
            _ember._nccl_call(c._c.h, kind, int(send or 0), int(recv or 0),
                              int(count), int(datatype), _ops.op_code(op),
                              int(root), _stream(stream))
            return
        if not isinstance(send if send is not None else recv, ember.ndarray):
            raise TypeError("%s: device pointers need a communicator on a cuda "
                            "device; this one is on %s, so pass ember arrays"
                            % (name, c.device))
        for a in (send, recv):
            if isinstance(a, ember.ndarray) and (
                    _ops.dtype_code(a.dtype, name) != datatype):
                raise TypeError("%s: the array's dtype %s is not datatype %r"
                                % (name, a.dtype, datatype))
        a = recv if name in ("recv", "reduceScatter") else send
        if a.size != count:
            raise ValueError("%s: count %d but the array has shape %s (%d "
                             "elements)" % (name, count, a.shape, a.size))
        st = _stream(stream)
        if name == "allReduce":
            c.all_reduce(send, recv, op, st)
        elif name == "reduce":
            c.reduce(send, recv if c.rank == root else None, op, root, st)
        elif name == "broadcast":
            if c.rank == root and recv is not send:
                recv[...] = send
            c.broadcast(recv, root, st)
        elif name == "allGather":
            c.all_gather(send, recv, st)
        elif name == "reduceScatter":
            c.reduce_scatter(send, recv, op, st)
        elif name == "send":
            c.send(send, root, st)
        else:
            c.recv(recv, root, st)

    def allReduce(self, sendbuf, recvbuf, count, datatype, op, stream):
        self._call("allReduce", sendbuf, recvbuf, count, datatype, op, 0, stream)

    def reduce(self, sendbuf, recvbuf, count, datatype, op, root, stream):
        self._call("reduce", sendbuf, recvbuf, count, datatype, op, root, stream)

    def broadcast(self, sendbuf, recvbuf, count, datatype, root, stream):
        self._call("broadcast", sendbuf, recvbuf, count, datatype, 0, root, stream)

    def bcast(self, buff, count, datatype, root, stream):
        self._call("broadcast", buff, buff, count, datatype, 0, root, stream)

    def allGather(self, sendbuf, recvbuf, count, datatype, stream):
        self._call("allGather", sendbuf, recvbuf, count, datatype, 0, 0, stream)

    def reduceScatter(self, sendbuf, recvbuf, recvcount, datatype, op, stream):
        self._call("reduceScatter", sendbuf, recvbuf, recvcount, datatype, op,
                   0, stream)

    def send(self, sendbuf, count, datatype, peer, stream):
        self._call("send", sendbuf, None, count, datatype, 0, peer, stream)

    def recv(self, recvbuf, count, datatype, peer, stream):
        self._call("recv", None, recvbuf, count, datatype, 0, peer, stream)


def _stream(stream):
    """CuPy passes stream.ptr; 0 is the null stream. An ember Stream or
    None passes through."""
    if stream is None or isinstance(stream, ember.Stream):
        return stream
    if stream == 0:
        return None
    raise TypeError("stream: an ember.Stream, None or 0 (the null stream), "
                    "not %r" % (stream,))
