"""The soak under MicroPython: python -m tools soak [--deals N] [--heap SIZE]

Runs tests/device/soak.py in MicroPython's WASI build with collection on: AI against AI
for N deals (default 200), the game saved after every action and reloaded, the heap
measured after each deal. Prints the script's figures; exit 0 when it ends "soak: ok".
"""

import os
import sys
import tempfile
import time

from tools import cli, mpy


def run(deals, heap):
    """(ok, output text, seconds)."""
    fd, out = tempfile.mkstemp(prefix="soak_out_")
    os.close(fd)
    fd, err = tempfile.mkstemp(prefix="soak_err_")
    os.close(fd)
    start = time.time()
    try:
        mpy.run("tests/device/soak.py", [str(deals)], heap=heap, stdout=out, stderr=err)
        with open(out) as fh:
            text = fh.read()
        with open(err) as fh:
            text += fh.read()
    finally:
        os.remove(out)
        os.remove(err)
    lines = text.strip().splitlines()
    return bool(lines) and lines[-1] == "soak: ok", text, time.time() - start


@cli.command("soak")
def main(argv):
    p = cli.Parser("soak", __doc__.split("\n")[0])
    p.add_argument("--deals", type=cli.positive_int, default=200, help="deals to play, 2 or more (default 200)")
    p.add_argument("--heap", default="4m", type=mpy.heap_size, help="MicroPython heap size (default 4m)")
    args = p.parse_args(argv)
    if args.deals < 2:
        raise cli.UsageError("--deals must be at least 2: the heap of the two halves is compared")
    try:
        ok, text, seconds = run(args.deals, args.heap)
    except mpy.MpyError as e:
        sys.stderr.write("soak: %s\n" % e)
        return 2
    sys.stdout.write(text)
    print("soak: %.1f s under MicroPython" % seconds)
    return 0 if ok else 1
