"""ember.get_elapsed_time(start, end): the time between two recorded
events, once the end has happened."""
from ember import _ember

__all__ = ["get_elapsed_time"]


def get_elapsed_time(start, end):
    """get_elapsed_time(start, end) -> milliseconds between two recorded
    events of one device."""
    if type(start) is not _ember.Event or type(end) is not _ember.Event:
        raise TypeError("get_elapsed_time(start, end) takes two ember.Event objects")
    # the end may still be pending; waiting for it here saves every caller
    # an end.synchronize() and cannot change the answer
    end.synchronize()
    return start.elapsed_time(end)
