"""python -m ember info: what ember found on this machine, and why not."""
import sys

from ember._api.sysinfo import info


def main(argv):
    if argv in ([], ["info"]):
        print(info(), end="")
        return 0
    print("usage: python -m ember info", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
