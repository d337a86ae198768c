"""Run the device suite under any Python: CPython, MicroPython, CircuitPython.

    micropython tests/device/run.py [name-filter]      (from the repository root)

Imports each module of MODULES, calls its test_* functions in name order and
ends with the line "N passed, M failed", whatever happens on the way: a module
that does not import counts as one failure. Each failure is shown with its
traceback by what the interpreter has: sys.print_exception (MicroPython),
traceback.print_exception(e) (CircuitPython 10, CPython 3.10+), or
traceback.print_exception(type, e, traceback) (older CPython). pytest collects
the same modules under CPython (tests/test_device_runner.py checks that every
tests/device/test_*.py is listed here).
"""

import sys

if "." not in sys.path:
    sys.path.insert(0, ".")

MODULES = (
    "tests.device.test_cards",
    "tests.device.test_rng",
    "tests.device.test_games",
    "tests.device.test_record",
    "tests.device.test_same_results",
    "tests.device.test_endgame",
    "tests.device.test_ai_play",
    "tests.device.test_app_logic",
    "tests.device.test_store",
    "tests.device.test_standins",
    "tests.device.test_screens",
)


def say(e):
    """'Type: message' of an exception, even when its message cannot be made."""
    try:
        return "%s: %s" % (type(e).__name__, e)
    except Exception:
        return "%s (its message failed)" % type(e).__name__


def report(e):
    """Print e's traceback with what this interpreter offers. Never raises."""
    try:
        show = getattr(sys, "print_exception", None)
        if show is not None:
            show(e)
            return
        import traceback
        try:
            traceback.print_exception(e)
        except TypeError:                      # before CPython 3.10: three arguments
            traceback.print_exception(type(e), e, getattr(e, "__traceback__", None))
    except Exception as inner:
        try:
            print("  (no traceback: %s)" % say(inner))
        except Exception:
            pass


def tests_of(modname, name_filter, counts):
    """The matching tests of one module, (name, function) in name order; none, and one
    failure counted in counts[1], if the module does not import."""
    try:
        mod = __import__(modname, None, None, ["_"])
    except Exception as e:
        counts[1] += 1
        print("FAIL %s (import): %s" % (modname, say(e)))
        report(e)
        return []
    names = [n for n in dir(mod) if n.startswith("test_") and name_filter in n]
    names.sort()
    return [(name, getattr(mod, name)) for name in names]


def run(name_filter="", modules=MODULES):
    """Each test is called from this function's frame, one below the script's: on a board's
    2 KB Python stack (CircuitPython) the runner's frames lie under every test's."""
    counts = [0, 0]
    try:
        for modname in modules:
            for name, test in tests_of(modname, name_filter, counts):
                try:
                    test()
                except Exception as e:  # report every failure, keep going
                    counts[1] += 1
                    print("FAIL %s.%s: %s" % (modname, name, say(e)))
                    report(e)
                else:
                    counts[0] += 1
                    print("ok   %s.%s" % (modname, name))
        try:
            import gc
            print("heap used: %d bytes" % gc.mem_alloc())
        except (ImportError, AttributeError):
            pass
    finally:
        print("%d passed, %d failed" % (counts[0], counts[1]))
    return counts[1]


def no_collection():
    """Turn automatic garbage collection off when asked (--no-gc).

    MicroPython's WASI build (tools/mpy.py) loses objects that only the frames
    of calling functions hold when it collects, so the suite runs there with
    collection off in a heap large enough for everything it allocates."""
    import gc
    gc.disable()


if __name__ == "__main__":
    if "--no-gc" in sys.argv:
        sys.argv.remove("--no-gc")
        no_collection()
    sys.exit(1 if run(sys.argv[1] if len(sys.argv) > 1 else "") else 0)
