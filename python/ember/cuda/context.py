"""`with device:` and `with stream:` blocks. Each saves the thread's
current device and stream (a per-thread stack) and restores them on exit;
Device and Stream (python/ember/_ext/runtime/) forward __enter__ and
__exit__ here, as entering a block is not per-launch work."""
import threading

from ember import _ember

_local = threading.local()


def _push():
    try:
        _local.stack.append(_ember._current_context())
    except AttributeError:
        _local.stack = [_ember._current_context()]


def _pop():
    try:
        device, stream = _local.stack.pop()
    except (AttributeError, IndexError):
        raise RuntimeError("ember: __exit__ without a matching __enter__ on this "
                           "thread") from None
    device.use()
    if stream is not None:
        stream.use()


def device_enter(device):
    _push()
    device.use()
    return device


def stream_enter(stream):
    _push()
    try:
        stream.use()
    except BaseException:
        try:
            _pop()
        except Exception:
            pass          # the error that stopped the block is the one to see
        raise
    return stream


def exit(self, *exc_info):
    _pop()
    return False
