"""Run the device suite (tests/device) under MicroPython's WASI build.

    python -m tools device-tests [name-filter]

Passes when the suite's last line reads "N passed, 0 failed" with N > 0.
A filter that matches no test is a mistake on the command line: one line,
exit status 2. Automatic garbage collection is off in that run (see
tests/device/run.py), so the heap is large enough to hold everything the
suite allocates.
"""

import os
import re
import sys
import tempfile
import time

from tools import cli, mpy

HEAP = "1024m"
_SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$")


def run_suite(name_filter="", echo=True):
    """(passed, failed, output) of the device suite under MicroPython."""
    paths = []
    for _ in range(2):
        fd, path = tempfile.mkstemp(prefix="device_suite_")
        os.close(fd)
        paths.append(path)
    try:
        args = ["--no-gc"] + ([name_filter] if name_filter else [])
        try:
            status = mpy.run("tests/device/run.py", args, heap=HEAP, stdout=paths[0], stderr=paths[1])
        except Exception as e:   # a trap of the interpreter itself
            status = -1
            crash = "MicroPython stopped: %s\n" % str(e).splitlines()[0]
        else:
            crash = ""
        output = ""
        for path in paths:
            with open(path) as fh:
                output += fh.read()
        output += crash
    finally:
        for path in paths:
            os.remove(path)
    if echo:
        sys.stdout.write(output)
    lines = output.strip().splitlines()
    match = _SUMMARY.match(lines[-1]) if lines else None
    if not match:
        return 0, 1, output
    passed, failed = int(match.group(1)), int(match.group(2))
    if status != 0 and failed == 0:
        failed = 1
    return passed, failed, output


@cli.command("device-tests")
def main(argv):
    parser = cli.Parser("device-tests", __doc__.split("\n\n")[0])
    parser.add_argument("filter", nargs="?", default="", help="run only tests whose name contains this")
    opts = parser.parse_args(argv)
    start = time.time()
    try:
        passed, failed, output = run_suite(opts.filter, echo=False)
    except mpy.MpyError as e:
        sys.stderr.write("%s\n" % e)
        return 2
    took = time.time() - start
    if opts.filter and passed == 0 and failed == 0:
        raise cli.UsageError("no test matches %r" % opts.filter)
    sys.stdout.write(output)
    if failed or passed == 0:
        sys.stderr.write("device suite under MicroPython: FAILED (%d passed, %d failed, %.1f s)\n"
                         % (passed, failed, took))
        return 1
    print("device suite under MicroPython: %d passed in %.1f s" % (passed, took))
    return 0
