"""python -m ember info: what ember found on this machine, and why not."""
import sys

from ember import _ember


def main(argv):
    if argv in ([], ["info"]):
        # where the scipy-openblas64 wheel keeps OpenBLAS, so the list of
        # libraries says whether ember.linalg has it
        from ember._api.linalg import _load
        _load()
        print(_ember.info(), end="")
        return 0
    print("usage: python -m ember info", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
