"""The cuda half of ember.distributed.Communicator: NCCL's calls through the
extension (python/ember/_ext/runtime/nccl.c, src/backend/nccl.c), issued at
once on the stream (NCCL orders them; a group is NCCL's own group)."""
from ember import _ember

# em_nccl_kind's numbers (include/ember/nccl.h).
_KIND = {"all_reduce": 0, "reduce": 1, "broadcast": 2, "all_gather": 3,
         "reduce_scatter": 4, "send": 5, "recv": 6}

_used = False    # whether group_start/end must reach NCCL


def unique_id():
    return _ember._nccl_unique_id()


def group_start():
    if _used:
        _ember._nccl_group_start()


def group_end():
    if _used:
        _ember._nccl_group_end()


def _ptr(a):
    return a.data.ptr if a is not None and a.size else 0


class NcclComm:
    def __init__(self, handle, size, rank, device):
        global _used
        _used = True
        self.h, self.size, self.rank, self.device = handle, size, rank, device
        self.destroyed = False

    @classmethod
    def init_rank(cls, device, nranks, uid, rank):
        return cls(_ember._nccl_init_rank(device, nranks, bytes(uid), rank),
                   nranks, rank, device)

    @classmethod
    def init_all(cls, devices):
        hs = _ember._nccl_init_all(devices)
        return [cls(h, len(hs), r, d) for r, (h, d) in enumerate(zip(hs, devices))]

    def close(self, abort=False):
        _ember._nccl_destroy(self.h, abort)

    def collective(self, kind, send, recv, count, nparts, op, root, stream):
        from ._ops import DTYPES
        dt = DTYPES[str((send if send is not None else recv).dtype)]
        if kind == "all_to_all":
            m = count // nparts
            step = m * send.dtype.itemsize
            s0, r0 = _ptr(send), _ptr(recv)
            _ember._nccl_group_start()
            try:
                for j in range(nparts):
                    _ember._nccl_call(self.h, 5, s0 + j * step, 0, m, dt, 0, j, stream)
                    _ember._nccl_call(self.h, 6, 0, r0 + j * step, m, dt, 0, j, stream)
            finally:
                _ember._nccl_group_end()
            return
        if kind == "reduce_scatter":
            count = recv.size
        sp = _ptr(send) if send is not None else _ptr(recv)
        _ember._nccl_call(self.h, _KIND[kind], sp, _ptr(recv), count, dt, op,
                          root, stream)

    def p2p(self, is_send, flat, peer, stream):
        from ._ops import DTYPES
        dt = DTYPES[str(flat.dtype)]
        p = _ptr(flat)
        _ember._nccl_call(self.h, 5 if is_send else 6, p if is_send else 0,
                          0 if is_send else p, flat.size, dt, 0, peer, stream)
