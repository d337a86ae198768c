"""Timers and small helpers shared by both interpreters (runs under MicroPython too)."""

import gc
import sys

try:
    from time import ticks_diff, ticks_us   # MicroPython

    def start():
        return ticks_us()

    def elapsed(t0):
        """Seconds since start() returned t0."""
        return ticks_diff(ticks_us(), t0) / 1000000

    ticks = ticks_us                         # whole microseconds: small ints, nothing allocated
    ticks_since = ticks_diff
except ImportError:                          # CPython
    from time import perf_counter as start
    from time import perf_counter_ns

    def elapsed(t0):
        return start() - t0

    def ticks():
        return perf_counter_ns() // 1000

    def ticks_since(t1, t0):
        return t1 - t0


def implementation():
    impl = sys.implementation
    version = ".".join([str(v) for v in impl.version[:3]])
    if len(impl.version) > 3 and impl.version[3]:
        version += "-" + str(impl.version[3])
    return {"name": impl.name, "version": version, "sys_version": sys.version,
            "build": getattr(impl, "_build", None), "machine": getattr(impl, "_machine", None)}


def alloc(fn):
    """Heap growth of calling fn() (MicroPython): with collection off, what it returns stays counted."""
    a = gc.mem_alloc()
    fn()
    return gc.mem_alloc() - a
