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


def run_suite(name_filter="", echo=True, root=mpy.ROOT):
    """(passed, failed, output) of the device suite under MicroPython, run in root (the
    repository, or a bundle with the suite copied in: bundle_with_suite())."""
    paths = []
    for _ in range(2):
        fd, path = tempfile.mkstemp(prefix="device_suite_")
        os.close(fd)
        paths.append(path)
    try:
        args = ["--no-gc"] + ([name_filter] if name_filter else [])
        try:
            status = mpy.run("tests/device/run.py", args, heap=HEAP, stdout=paths[0], stderr=paths[1],
                             root=root)
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


def bundle_with_suite(work):
    """What goes on a board's drive as .py (tools/bundle.py: the game's modules shrunk), with
    the device suite copied in beside it, in work/bundle: the suite then imports the very
    files a board compiles."""
    import shutil
    from tools import bundle
    out = os.path.join(work, "bundle")
    suite = os.path.join(mpy.ROOT, "tests", "device")
    extra = {"tests/__init__.py": os.path.join(mpy.ROOT, "tests", "__init__.py")}
    for f in sorted(os.listdir(suite)):
        if f.endswith(".py") and not f.startswith("_mpy_"):
            extra["tests/device/" + f] = os.path.join(suite, f)
    bundle.build(out, extra=extra)           # the suite renamed with the game (tools/names.py)
    shutil.copytree(os.path.join(suite, "firmware"), os.path.join(out, "tests", "device", "firmware"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    return out


@cli.command("device-tests")
def main(argv):
    parser = cli.Parser("device-tests", __doc__.split("\n\n")[0])
    parser.add_argument("filter", nargs="?", default="", help="run only tests whose name contains this")
    parser.add_argument("--bundle", action="store_true",
                        help="on the .py bundle a board gets (python -m tools bundle), not the sources")
    opts = parser.parse_args(argv)
    start = time.time()
    work = tempfile.mkdtemp(prefix="device_bundle_") if opts.bundle else None
    try:
        root = bundle_with_suite(work) if work else mpy.ROOT
        passed, failed, output = run_suite(opts.filter, echo=False, root=root)
    except mpy.MpyError as e:
        sys.stderr.write("%s\n" % e)
        return 2
    finally:
        if work:
            import shutil
            shutil.rmtree(work, ignore_errors=True)
    took = time.time() - start
    if opts.filter and passed == 0 and failed == 0:
        raise cli.UsageError("no test matches %r" % opts.filter)
    sys.stdout.write(output)
    if failed or passed == 0:
        sys.stderr.write("device suite under MicroPython: FAILED (%d passed, %d failed, %.1f s)\n"
                         % (passed, failed, took))
        return 1
    print("device suite under MicroPython%s: %d passed in %.1f s"
          % (" on the .py bundle" if opts.bundle else "", passed, took))
    return 0
