"""Host side (CPython only): running a guest under MicroPython, progress, statistics.

Memory under MicroPython: its WASI build loses objects held only by calling
frames when it collects (tests/device/run.py), so every guest run has
collection off and a heap large enough for all it allocates. With collection
off, gc.mem_alloc() counts every block allocated and not freed explicitly by
the interpreter itself.
"""

import json
import math
import statistics
import sys

from tools import mpy

# The generated guest script: collection off, then tools/lab/bench/guest.py with the task.
_GUEST = "import gc\ngc.disable()\n%sfrom tools.lab.bench import guest\nguest.main(%r)\n"
# Written first where asked (run_guest's touch_mb): MBs of the heap, a page at a time, each
# let go at once (a list of them stayed alive through the collection), then collected.
_TOUCH = "for _ in range(%d):\n    bytearray(4096)\ngc.collect()\n"


class BenchError(Exception):
    """The bench cannot go on: one line for the user, exit status 1."""


def say(text):
    sys.stderr.write("bench: %s\n" % text)
    sys.stderr.flush()


def check_micropython():
    try:
        import wasmtime  # noqa: F401
        mpy.wasm_path()
    except ImportError:
        raise BenchError("wasmtime is not installed: run 'make test' or 'pip install -r requirements.txt'")
    except mpy.MpyError as e:
        raise BenchError(str(e))


def run_guest(task, heap, touch_mb=0):
    """Run guest.main(task) under MicroPython; its JSON result. touch_mb: MBs of the heap
    written once before the task. The host maps a page of the guest's memory at its first
    write, which took up to 2 ms inside some AI decisions (the bench's longest steps over
    300 ms on a SAMD51 in 2 runs of 2, none in 2 runs with the heap written first); a board's
    RAM has no such cost."""
    touch = _TOUCH % (touch_mb * 256) if touch_mb else ""
    try:
        status, out, err = mpy.run_source(_GUEST % (touch, task), heap=heap)
    except mpy.MpyError as e:
        raise BenchError(str(e))
    except Exception as e:   # a trap of the interpreter itself
        raise BenchError("MicroPython stopped: %s" % (str(e).splitlines() or [type(e).__name__])[0])
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if status != 0 or not lines:
        said = (err.strip() or out.strip() or "no output").splitlines()[-1]
        raise BenchError("the MicroPython %s run failed (status %s): %s" % (task["what"], status, said))
    result = json.loads(lines[-1])
    PYSTONE_REPEATS[0] += result.pop("pystone_repeats", 0)
    return result


# pystone runs the guests repeated because their empty loop was unsound (calibrate.one_run)
PYSTONE_REPEATS = [0]


def median(values):
    return statistics.median(values)


def pct(values, q):
    """Nearest-rank percentile: the smallest value with at least q of them at or below it."""
    v = sorted(values)
    return v[max(0, math.ceil(q * len(v)) - 1)]


def round3(x):
    """Three significant figures are all that noisy timings carry."""
    return float("%.3g" % x)


def per_set(names, fn):
    out = {}
    for name in names:
        out[name] = fn(name)
    return out
