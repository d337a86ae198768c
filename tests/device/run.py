"""Run the device suite under any Python: CPython, MicroPython, CircuitPython.

    micropython tests/device/run.py [name-filter]      (from the repository root)

Imports each module of MODULES, calls its test_* functions in name order and
ends with the line "N passed, M failed". pytest collects the same modules
under CPython.
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
)


def run(name_filter=""):
    passed = 0
    failed = 0
    for modname in MODULES:
        mod = __import__(modname, None, None, ["_"])
        names = [n for n in dir(mod) if n.startswith("test_") and name_filter in n]
        names.sort()
        for name in names:
            try:
                getattr(mod, name)()
            except Exception as e:  # report every failure, keep going
                failed += 1
                print("FAIL %s.%s: %s: %s" % (modname, name, type(e).__name__, e))
                if hasattr(sys, "print_exception"):
                    sys.print_exception(e)
                else:
                    import traceback
                    traceback.print_exc()
            else:
                passed += 1
                print("ok   %s.%s" % (modname, name))
    try:
        import gc
        print("heap used: %d bytes" % gc.mem_alloc())
    except (ImportError, AttributeError):
        pass
    print("%d passed, %d failed" % (passed, failed))
    return failed


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
