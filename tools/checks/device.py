"""Run the device suite (tests/device) under MicroPython's WASI build.

    python -m tools device-tests [--bundle [--py]] [name-filter]

Passes when the suite's last line reads "N passed, 0 failed" with N > 0.
A filter that matches no test is a mistake on the command line: one line,
exit status 2. Automatic garbage collection is off in that run (see
tests/device/run.py), so the heap is large enough to hold everything the
suite allocates.
"""

import os
import re
import shutil
import sys
import tempfile
import time

from tools import cli, mpy

HEAP = "1024m"
RUNNER = "tests/device/run.py"
_SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$")
# tools/checks/ modules the device suite imports (put in its bundle beside it)
CHECKS = ("__init__.py", "invariants.py", "standins.py", "walk.py")


def run_suite(name_filter="", echo=True, root=mpy.ROOT):
    """(passed, failed, output) of the device suite under MicroPython, run in root (the
    repository, or a bundle with the suite copied in: bundle_with_suite())."""
    paths = []
    for _ in range(2):
        fd, path = tempfile.mkstemp(prefix="device_suite_")
        os.close(fd)
        paths.append(path)
    libdir = None
    try:
        args = ["--no-gc"] + ([name_filter] if name_filter else [])
        dirs = []
        if root == mpy.ROOT:           # the libraries the bundle ships, under lib/ as on a board
            from tools.users import bundle
            dirs, modules = bundle.library_dirs(root)
            if modules:                # a module of one file: in a folder on MicroPython's path
                libdir = tempfile.mkdtemp(prefix="device_suite_lib_")
                for module in modules:
                    shutil.copy(module, libdir)
                dirs.append((libdir, "/usr/lib/micropython"))
        try:
            status = mpy.run(RUNNER, args, heap=HEAP, stdout=paths[0], stderr=paths[1],
                             root=root, dirs=dirs)
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
        if libdir:
            shutil.rmtree(libdir, ignore_errors=True)
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


def bundle_with_suite(work, compiled=True):
    """What goes on a board's drive (tools/users/bundle.py: the game's names the firmware's; .mpy
    files, with MicroPython's header for this MicroPython, or shrunk .py), with the device
    suite put in beside it, in work/bundle: the suite then imports the very files a board
    loads."""
    import shutil
    from tools.users import bundle
    out = os.path.join(work, "bundle")
    suite = os.path.join(mpy.ROOT, "tests", "device")
    extra = {"tests/__init__.py": os.path.join(mpy.ROOT, "tests", "__init__.py")}
    for f in sorted(os.listdir(suite)):
        if f.endswith(".py") and not f.startswith("_mpy_"):
            extra["tests/device/" + f] = os.path.join(suite, f)
    # and what the suite shares with the tools (tools/checks: the invariants, the walk)
    extra["tools/__init__.py"] = os.path.join(mpy.ROOT, "tools", "__init__.py")
    for f in CHECKS:
        extra["tools/checks/" + f] = os.path.join(mpy.ROOT, "tools", "checks", f)
    # the suite renamed with the game (tools/users/names.py); its runner stays a script
    bundle.build(out, extra=extra, mpy=compiled, header=bundle.MICROPYTHON,
                 source_only=(RUNNER,))
    shutil.copytree(os.path.join(suite, "firmware"), os.path.join(out, "tests", "device", "firmware"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    return out


@cli.command("device-tests")
def main(argv):
    parser = cli.Parser("device-tests", __doc__.split("\n\n")[0])
    parser.add_argument("filter", nargs="?", default="", help="run only tests whose name contains this")
    parser.add_argument("--bundle", action="store_true",
                        help="on the .mpy files a board gets (python -m tools bundle), not the sources")
    parser.add_argument("--py", action="store_true",
                        help="with --bundle: on the .py bundle (python -m tools bundle --py)")
    opts = parser.parse_args(argv)
    if opts.py and not opts.bundle:
        raise cli.UsageError("--py goes with --bundle")
    start = time.time()
    work = tempfile.mkdtemp(prefix="device_bundle_") if opts.bundle else None
    try:
        root = bundle_with_suite(work, compiled=not opts.py) if work else mpy.ROOT
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
    where = (" on the .py bundle" if opts.py else " on the .mpy bundle") if opts.bundle else ""
    print("device suite under MicroPython%s: %d passed in %.1f s" % (where, passed, took))
    return 0
